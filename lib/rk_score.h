/* rk_score.h: typed scores (doc/api.md Part 2, "Typed scores").  Pure C, no httpd
 * header: the lane PUT check, the leaderboard and the unit tests and fuzz target all
 * read a score through these functions, so a score means the same thing everywhere.
 *
 * Formats (exactly; no space around a score, no '+' sign, no ".5" or "5."):
 *   time     M:SS, MM:SS (minutes 0-99) or H:MM:SS / HH:MM:SS (minutes 00-59),
 *            seconds 00-59, optionally .f, .ff or .fff; not beyond the WOD's cap
 *            (equal to the cap is allowed); CAP+N (N reps left, 0-99999) only when
 *            the WOD has a cap
 *   reps     an integer 0-999999999
 *   load     a decimal 0-99999 with at most 2 decimals, optionally "kg" or "lb",
 *            with at most one space before the unit
 *   points   a decimal -99999 to 99999 with at most 3 decimals
 *   any      WD (withdrawn: no place)
 * Leading zeros change nothing (007 = 7, CAP+012 = CAP+12) and are allowed in any
 * number, but never widen a fixed field of a time: "007:45" is refused, "07:45" is
 * not.  A number is read digit by digit with a bound on its significant digits, so
 * no input overflows. */
#ifndef RK_SCORE_H
#define RK_SCORE_H

#include <stdint.h>

typedef enum {
    RK_SCORING_FREE = 0,   /* no WOD (or an unknown scoring): any text, never ranked */
    RK_SCORING_TIME,
    RK_SCORING_REPS,
    RK_SCORING_LOAD,
    RK_SCORING_POINTS
} rk_scoring;

/* "time", "reps", "load", "points" (exactly, lower case); NULL or anything else:
 * RK_SCORING_FREE. */
rk_scoring rk_scoring_parse(const char *name);

typedef enum {
    RK_SCORE_NONE = 0,   /* free text (RK_SCORING_FREE): no place */
    RK_SCORE_WD,         /* withdrawn from the WOD: no place */
    RK_SCORE_CAPPED,     /* CAP+N: v = N, the reps left */
    RK_SCORE_VALUE       /* a result: v as below */
} rk_score_kind;

/* V, comparable as an integer within one scoring:
 *   time    milliseconds (7:45 = 465000)
 *   capped  reps left
 *   reps    reps
 *   load    kilograms in units of 1e-10 kg, exact for both units: 1 kg = 10^10,
 *           1 lb = 0.45359237 kg = 4535923700 (so 0.01 lb = 45359237, an integer)
 *   points  thousandths (87.5 = 87500) */
typedef struct {
    rk_score_kind kind;
    int64_t v;
} rk_score;

#define RK_LOAD_PER_KG 10000000000LL   /* units of rk_score.v in one kilogram */

/* Parse TEXT (NUL-terminated) as a score of SCORING, for a WOD whose cap is TIME_CAP
 * seconds (0 or less: the WOD has no cap).  Returns 0 with *OUT filled, or -1 with
 * *ERR set to a fixed client-safe message that starts with "Invalid body: " and says
 * what is expected (it never carries any part of TEXT); *OUT is then {NONE, 0}.
 * RK_SCORING_FREE accepts any text as kind NONE (a heat without WOD keeps free
 * text), "WD" included.  A NULL TEXT is refused. */
int rk_score_parse(rk_scoring scoring, int64_t time_cap, const char *text, rk_score *out,
                   const char **err);

/* Parse TEXT as a tiebreak: a time as above (no CAP+N, no WD, no cap limit), kind
 * VALUE in milliseconds.  -1 with *ERR "Invalid body: tiebreak must be a time like
 * 1:02.5" otherwise. */
int rk_tiebreak_parse(const char *text, rk_score *out, const char **err);

/* Compare two scores of SCORING: <0 when A is better than B, 0 when equal, >0 when
 * worse (always -1, 0 or 1).  Time: lower is better and every CAPPED comes after
 * every VALUE, among CAPPED a smaller number of reps left is better; reps, load,
 * points: higher is better.  Meant for VALUE and CAPPED (the scores with a place);
 * to keep the order total, the other kinds come after them and equal each other. */
int rk_score_cmp(rk_scoring scoring, const rk_score *a, const rk_score *b);

/* 1 when S gives a place (VALUE or CAPPED), else 0. */
int rk_score_placed(const rk_score *s);

#endif
