/* rk_leaderboard.h: the ranking rules and the leaderboard bodies (doc/api.md Part 2,
 * "Ranking policy" and "Leaderboards").  Pure C, no httpd header: the glue reads the
 * competition's rows, hands them over as strings, and writes out what comes back.
 *
 * Rules, in short (the contract has them in full):
 *   - a spot's result in a WOD is its best lane there (score, then tiebreak: lower
 *     first, null after a value); a score that does not parse under the WOD's scoring
 *     and cap counts as no score; WD is no place;
 *   - places within a division: by score then tiebreak; equal ones share the best
 *     place and the next are skipped (1, 2, 2, 4);
 *   - "places": points = place, no place = the number of placed spots of the division
 *     in that WOD + 1, lowest total first; "chart100": 100, 95, 90, 85, 80, 75, then 2
 *     fewer per place down to 1 for the 43rd, 0 from the 44th and for no place,
 *     highest total first;
 *   - overall ties: countback (more 1st places, then more 2nd, ...; places only),
 *     then a shared place, next places skipped; every spot has an overall place.
 * Compute is O(n log n) in spots per WOD, O(1) per lane (hash lookups), plus a
 * spots x WODs table of 4-byte indices; writing is linear in the size of the body.
 * No global state: any number of threads may compute and write at once. */
#ifndef RK_LEADERBOARD_H
#define RK_LEADERBOARD_H

#include <stddef.h>

/* A spot (a team).  ID a decimal string; NAME may be NULL (shown ""); DIVISION NULL =
 * none (the group listed last); BIB a decimal integer or NULL (anything else is shown
 * and sorted as null). */
typedef struct {
    const char *id, *name, *division, *bib;
} rk_leaderboard_spot;

/* A WOD, in the competition's WOD list order (position, id).  SCORING "time", "reps",
 * "load", "points" (anything else: nobody is placed in it); TIME_CAP decimal seconds or
 * NULL (no cap). */
typedef struct {
    const char *id, *scoring, *time_cap;
} rk_leaderboard_wod;

/* Every lane of the competition whose heat has a WOD and whose spot_id is not NULL, in
 * the order of the competition's heat list (start_time, number, id; null start_time
 * last), then lane number, then lane id.  SCORE and TIEBREAK as stored (NULL allowed).
 * A lane whose WOD or spot is not in the input is ignored. */
typedef struct {
    const char *wod_id, *spot_id, *heat_id, *lane_id, *score, *tiebreak;
} rk_leaderboard_lane;

typedef struct {
    const char *competition_id;
    const char *ranking;                 /* "places" or "chart100"; NULL or anything else: places */
    const rk_leaderboard_wod *wods;   size_t nwods;
    const rk_leaderboard_spot *spots; size_t nspots;
    const rk_leaderboard_lane *lanes; size_t nlanes;
    /* the competition's advance (API.md Part 3, the cut line of the current stage, per
     * division): a decimal integer >= 1, or NULL (anything else counts as NULL): each
     * overall entry shows "advancing": null without one, else rank <= advance */
    const char *advance;
} rk_leaderboard_input;

typedef struct rk_leaderboard rk_leaderboard;

/* Rank the competition IN describes.  malloc()ed (free with rk_leaderboard_free), NULL when out
 * of memory.  The result keeps pointers into IN's strings (which must outlive it), not
 * into IN's arrays. */
rk_leaderboard *rk_leaderboard_compute(const rk_leaderboard_input *in);

void rk_leaderboard_free(rk_leaderboard *lb);

/* 1 when some spot has exactly DIVISION (strcmp; NULL: 0), else 0. */
int rk_leaderboard_has_division(const rk_leaderboard *lb, const char *division);

/* 1 when WOD_ID is one of the input's WODs, else 0. */
int rk_leaderboard_has_wod(const rk_leaderboard *lb, const char *wod_id);

/* The overall leaderboard without JSON (heat generation reads it for every spot: parsing
 * the body costs about 40 ms for 2,000 spots and 12 WODs, these calls microseconds).
 * Divisions in the body's order (names by strcmp, the no-division group last), entries
 * of a division in overall order (rank, then bib, null last, then id), as the overall
 * body lists them. */
size_t rk_leaderboard_ndivisions(const rk_leaderboard *lb);
/* Division D's name (NULL: the spots without division; also for D out of range) and
 * its number of entries (0 for D out of range). */
const char *rk_leaderboard_division_name(const rk_leaderboard *lb, size_t d);
size_t rk_leaderboard_division_count(const rk_leaderboard *lb, size_t d);

/* An overall entry: pointers into the input's strings. */
typedef struct {
    const char *spot_id, *spot_name;   /* spot_name NULL when the input's is */
    int has_bib;                       /* 0: bib null (as the body shows it) */
    long long bib;
    long long rank;                    /* the overall rank, >= 1 */
} rk_leaderboard_entry;

/* The K-th entry of division D into *OUT: 0, or -1 when D or K is out of range. */
int rk_leaderboard_overall_entry(const rk_leaderboard *lb, size_t d, size_t k,
                                 rk_leaderboard_entry *out);

/* Write a leaderboard body, compact JSON as doc/api.md "Leaderboards" shows: WOD_ID NULL =
 * the overall leaderboard, else that WOD's (a WOD rk_leaderboard_has_wod does not know is
 * written as a WOD nobody has a result in, with "scoring":null); DIVISION NULL = every
 * division, else only that one (none when no spot has it: "divisions":[]).
 * Returns the length; writes into OUT unless OUT is NULL (called once to size the
 * body, once to write it; no NUL is added). */
size_t rk_leaderboard_json(char *out, const rk_leaderboard *lb, const char *wod_id, const char *division);

/* The same body, written in one pass (a large board's rows are read once, not twice)
 * into *BUF, a buffer of CAP bytes (or NULL), replaced by RESIZE(CTX, *BUF, N) (as
 * realloc: N bytes, the first ones kept; *BUF NULL: a new buffer; NULL when it cannot)
 * whenever the body needs more room.  Returns the body's length (*BUF may be longer:
 * the caller cuts it), or (size_t)-1 when RESIZE failed; either way *BUF is the last
 * buffer RESIZE gave (or the one passed), for the caller to keep or free. */
typedef char *rk_leaderboard_resize_fn(void *ctx, char *buf, size_t n);
size_t rk_leaderboard_json_grow(const rk_leaderboard *lb, const char *wod_id, const char *division,
                                char **buf, size_t cap, rk_leaderboard_resize_fn *resize,
                                void *ctx);

#endif
