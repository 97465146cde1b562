/* rk_csv.h: CSV as spreadsheets write it (RFC 4180), for the team lists of
 * ranking-admin's import-spots and of the API's POST of spots as text/csv
 * (rk_spots_csv.h), and ranking-admin's export-results.  Pure C, no httpd header,
 * no APR.
 *
 * Reading (rk_csv_parse):
 *   - an optional UTF-8 byte order mark at the very start is skipped;
 *   - records end with CRLF or LF (a lone CR is refused); the last one may end
 *     without a newline; an empty last line is no record;
 *   - fields are separated by ',' (or the separator given: ';' is what a spreadsheet
 *     set to a European language writes, rk_csv_separator); a field that starts with '"' is quoted: it ends
 *     at the next lone '"', holds '""' for a quote, and may hold commas, CR and LF;
 *     after its closing quote comes ',', the end of the record or the end of input;
 *   - a quote inside an unquoted field, text after a closing quote, a quoted field
 *     never closed, a NUL byte and bytes that are not UTF-8 are errors, reported
 *     with the number of the line (1 = the first line of the input) where the
 *     problem is.
 * Writing (rk_csv_field): a field is quoted when it holds ',', '"', CR or LF,
 * starts or ends with a space, or starts with U+FEFF (it would read as a byte order
 * mark at the start of a file); quotes are doubled.  Blank lines are records of one
 * empty field. */
#ifndef RK_CSV_H
#define RK_CSV_H

#include <stddef.h>
#include <stdio.h>

/* One record: NFIELDS fields (at least 1), each NUL-terminated (FIELDS[i], of
 * LENS[i] bytes; no field holds a NUL byte), starting on line LINE.  Return 0 to go
 * on, anything else to stop rk_csv_parse, which then returns that value. */
typedef int (*rk_csv_record_fn)(void *ctx, size_t line, size_t nfields,
                                char *const *fields, const size_t *lens);

/* The separator of the CSV at BUF (LEN bytes), read from its first line (after a
 * byte order mark): ';' when that line holds a ';' and no ',', else ','. */
char rk_csv_separator(const char *buf, size_t len);

/* Parse the LEN bytes at BUF, fields separated by SEP (',' or ';'; not '"', CR or
 * LF), calling FN for each record in order.  Returns 0 when all of it was read, -1
 * on a syntax error (message "line N: ..." in ERR, of ERRSIZE bytes; the records
 * before it were passed to FN), -2 when out of memory, or what FN returned when it
 * stopped. */
int rk_csv_parse(const char *buf, size_t len, char sep, rk_csv_record_fn fn, void *ctx,
                 char *err, size_t errsize);

/* Write S (NULL: an empty field) to F as one CSV field. */
void rk_csv_field(FILE *f, const char *s);

/* 1 when the N bytes at S are UTF-8 (no overlong form, no surrogate, at most
 * U+10FFFF), else 0. */
int rk_csv_utf8_valid(const char *s, size_t n);

#endif
