/* rk_spots_csv.h: a competition's team list from a spreadsheet (CSV), the one
 * implementation of API.md part 3's rules for `POST /competition/{c}/spot/` with
 * `Content-Type: text/csv` and for `ranking-admin import-spots`.  Pure C + APR
 * pools and arrays, no httpd header: it reads the text and plans the writes; the
 * caller reads the competition's spots before and writes the plan after, in one
 * transaction.
 *
 * The text (rk_csv.h): RFC 4180, UTF-8 with or without a byte order mark, CRLF or
 * LF.  Its separator is ',' or, when the header line holds a ';' and no ',', ';'
 * (what a spreadsheet set to a European language writes as "CSV").  Line 1 is the
 * header: the columns name, division, affiliate and bib, in any order and any letter
 * case (spaces around a name ignored); name is required, the others optional; an
 * unknown column or one named twice is an error.  Then one team per record: spaces
 * around a value are ignored, an empty cell is null, an empty name is an error; a
 * record of empty cells only (what a spreadsheet writes for an empty row) is
 * skipped.  A name, division or affiliate has at most RK_RES_NAME_MAX_CHARS
 * characters, a bib is a whole number from 1 to RK_RES_INT_MAX (leading zeros
 * ignored).
 *
 * The plan, given the competition's spots: a line with a bib updates the spot with
 * that bib, else a line updates the spot with the same name (the one such spot: two
 * with that name is an error, give the bib), else it adds a spot.  A bib twice in
 * the file is an error at its second line ("bib 12 is used twice"); two lines that
 * would update one spot are an error at the second.  All lines or none: any error
 * and there is no plan.
 *
 * Errors are "line N: message" (without the API's "Invalid body: ", which the
 * module adds), sorted by line; they echo a value of the file only when it is short
 * printable ASCII (a bib, a column's name), never a team's name. */
#ifndef RK_SPOTS_CSV_H
#define RK_SPOTS_CSV_H

#include <stddef.h>

#include <apr_pools.h>
#include <apr_tables.h>

/* A spot the competition already has. */
typedef struct {
    const char *id;             /* its id (decimal) */
    const char *name;
    const char *bib;            /* decimal without leading zeros, or NULL */
} rk_spot_known;

/* A team of the file and what to do with it. */
typedef struct {
    size_t line;                /* the line where its record starts */
    const char *id;             /* the spot it updates, or NULL: a new spot */
    const char *name;           /* never NULL nor empty */
    const char *division;       /* NULL: null */
    const char *affiliate;      /* NULL: null */
    const char *bib;            /* decimal without leading zeros, or NULL: null */
    int bib_changes;            /* it updates a spot whose bib was another (or null):
                                 * clear the bibs of these first, so spots can swap */
} rk_spot_line;

typedef struct {
    apr_array_header_t *lines;  /* rk_spot_line, in the file's order */
    int added, updated;         /* lines with id NULL, and the others */
    char separator;             /* ',' or ';' */
} rk_spots_plan;

/* Read the team list BUF (LEN bytes) against the competition's NSPOTS SPOTS.
 * Returns the plan (in P), or NULL with every error appended to ERRORS (an array of
 * const char *, "line N: ..."), the first one at the smallest line. */
rk_spots_plan *rk_spots_csv_plan(apr_pool_t *p, const char *buf, size_t len,
                                 const rk_spot_known *spots, size_t nspots,
                                 apr_array_header_t *errors);

#endif
