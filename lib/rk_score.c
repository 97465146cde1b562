/* rk_score.c: typed scores.  See rk_score.h. */
#include <string.h>

#include "rk_score.h"

/* The messages: fixed strings, so an error never carries client input. */
#define MSG_TIME_CAP    "Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD"
#define MSG_TIME        "Invalid body: score must be a time like 7:45 or WD (CAP+N needs a time cap)"
#define MSG_REPS        "Invalid body: score must be a number of reps from 0 to 999999999 or WD"
#define MSG_LOAD        "Invalid body: score must be a load like 102.5, 100 kg or 225 lb (0 to 99999, at most 2 decimals) or WD"
#define MSG_POINTS      "Invalid body: score must be points like 87.5 (-99999 to 99999, at most 3 decimals) or WD"
#define MSG_NULL        "Invalid body: score must be a string"
#define MSG_TIEBREAK    "Invalid body: tiebreak must be a time like 1:02.5"

/* The longest time the format can write, 99:59:59.999: a cap at or above it limits
 * nothing (and CAP * 1000 is only computed below it, so it cannot overflow). */
#define TIME_MAX_MS ((99LL * 3600 + 59 * 60 + 59) * 1000 + 999)

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Exactly N digits at *P, and no digit after them: their value, or -1.  *P is moved
 * past them. */
static int fixed_digits(const char **p, int n)
{
    const char *s = *p;
    int v = 0, i;

    for (i = 0; i < n; i++) {
        if (!is_digit(s[i])) {
            return -1;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (is_digit(s[n])) {
        return -1;   /* a wider field than the format allows */
    }
    *p = s + n;
    return v;
}

/* One or more digits at S, any number of leading zeros, at most MAXSIG significant
 * digits (so V cannot overflow for MAXSIG <= 18).  Returns the end, or NULL. */
static const char *unsigned_int(const char *s, int maxsig, int64_t *v)
{
    int sig = 0;

    if (!is_digit(*s)) {
        return NULL;
    }
    while (*s == '0') {
        s++;
    }
    *v = 0;
    for (; is_digit(*s); s++) {
        if (++sig > maxsig) {
            return NULL;
        }
        *v = *v * 10 + (*s - '0');
    }
    return s;
}

/* A decimal at S: an integer part as unsigned_int, then optionally '.' and 1 to
 * DECIMALS digits ("5." and ".5" are refused).  *V is the value scaled by
 * 10^DECIMALS.  Returns the end, or NULL. */
static const char *unsigned_decimal(const char *s, int maxsig, int decimals, int64_t *v)
{
    int64_t ip, frac = 0;
    int nd = 0;

    if (!(s = unsigned_int(s, maxsig, &ip))) {
        return NULL;
    }
    if (*s == '.') {
        s++;
        for (; is_digit(*s); s++) {
            if (++nd > decimals) {
                return NULL;
            }
            frac = frac * 10 + (*s - '0');
        }
        if (nd == 0) {
            return NULL;
        }
    }
    for (; nd < decimals; nd++) {
        frac *= 10;
    }
    for (nd = 0; nd < decimals; nd++) {
        ip *= 10;
    }
    *v = ip + frac;
    return s;
}

/* A whole time: M:SS, MM:SS, H:MM:SS or HH:MM:SS, then optionally .f to .fff, and
 * nothing after.  *MS in milliseconds.  0, or -1 when TEXT is not one. */
static int parse_time(const char *s, int64_t *ms)
{
    int a, b, c = -1, frac = 0, nd = 0;
    int64_t total;

    /* the first field: 1 or 2 digits */
    if ((a = fixed_digits(&s, is_digit(s[0]) && is_digit(s[1]) ? 2 : 1)) < 0 || *s++ != ':') {
        return -1;
    }
    if ((b = fixed_digits(&s, 2)) < 0 || b > 59) {
        return -1;
    }
    if (*s == ':') {
        s++;
        if ((c = fixed_digits(&s, 2)) < 0 || c > 59) {
            return -1;
        }
    }
    if (*s == '.') {
        s++;
        for (; is_digit(*s); s++) {
            if (++nd > 3) {
                return -1;
            }
            frac = frac * 10 + (*s - '0');
        }
        if (nd == 0) {
            return -1;
        }
        for (; nd < 3; nd++) {
            frac *= 10;
        }
    }
    if (*s != '\0') {
        return -1;
    }
    /* with hours, A:B:C is hours, minutes (00-59), seconds; else A:B is minutes
     * (0-99), seconds */
    total = c >= 0 ? (int64_t)a * 3600 + b * 60 + c : (int64_t)a * 60 + b;
    *ms = total * 1000 + frac;
    return 0;
}

rk_scoring rk_scoring_parse(const char *name)
{
    if (!name) {
        return RK_SCORING_FREE;
    }
    if (strcmp(name, "time") == 0) {
        return RK_SCORING_TIME;
    }
    if (strcmp(name, "reps") == 0) {
        return RK_SCORING_REPS;
    }
    if (strcmp(name, "load") == 0) {
        return RK_SCORING_LOAD;
    }
    if (strcmp(name, "points") == 0) {
        return RK_SCORING_POINTS;
    }
    return RK_SCORING_FREE;
}

static int parse_time_score(int64_t cap, const char *s, rk_score *out)
{
    int64_t v;

    if (strncmp(s, "CAP+", 4) == 0) {
        /* only a WOD with a cap can be not finished within it */
        if (cap <= 0 || !(s = unsigned_int(s + 4, 5, &v)) || *s != '\0') {
            return -1;
        }
        out->kind = RK_SCORE_CAPPED;
        out->v = v;
        return 0;
    }
    if (parse_time(s, &v) != 0) {
        return -1;
    }
    if (cap > 0 && cap <= TIME_MAX_MS / 1000 && v > cap * 1000) {
        return -1;   /* beyond the cap: that team is CAP+N */
    }
    out->kind = RK_SCORE_VALUE;
    out->v = v;
    return 0;
}

static int parse_load(const char *s, rk_score *out)
{
    int64_t hundredths;

    if (!(s = unsigned_decimal(s, 5, 2, &hundredths)) || hundredths > 9999900) {
        return -1;
    }
    if (*s == ' ') {
        s++;   /* one space, and then a unit must follow */
        if (strcmp(s, "kg") != 0 && strcmp(s, "lb") != 0) {
            return -1;
        }
    }
    out->kind = RK_SCORE_VALUE;
    if (*s == '\0' || strcmp(s, "kg") == 0) {
        out->v = hundredths * (RK_LOAD_PER_KG / 100);
    }
    else if (strcmp(s, "lb") == 0) {
        /* 0.01 lb = 0.0045359237 kg = 45359237 units: exact, no rounding */
        out->v = hundredths * 45359237;
    }
    else {
        return -1;
    }
    return 0;
}

static int parse_points(const char *s, rk_score *out)
{
    int neg = 0;
    int64_t thousandths;

    if (*s == '-') {
        neg = 1;
        s++;
    }
    if (!(s = unsigned_decimal(s, 5, 3, &thousandths)) || *s != '\0'
        || thousandths > 99999000) {
        return -1;
    }
    out->kind = RK_SCORE_VALUE;
    out->v = neg ? -thousandths : thousandths;
    return 0;
}

int rk_score_parse(rk_scoring scoring, int64_t time_cap, const char *text, rk_score *out,
                   const char **err)
{
    const char *msg;
    int rv = -1;
    int64_t v;

    out->kind = RK_SCORE_NONE;
    out->v = 0;
    switch (scoring) {
    case RK_SCORING_TIME:
        msg = time_cap > 0 ? MSG_TIME_CAP : MSG_TIME;
        break;
    case RK_SCORING_REPS:
        msg = MSG_REPS;
        break;
    case RK_SCORING_LOAD:
        msg = MSG_LOAD;
        break;
    case RK_SCORING_POINTS:
        msg = MSG_POINTS;
        break;
    default:
        if (!text) {
            *err = MSG_NULL;
            return -1;
        }
        return 0;   /* free text: kept as is, never ranked */
    }
    if (!text) {
        *err = msg;
        return -1;
    }
    if (strcmp(text, "WD") == 0) {
        out->kind = RK_SCORE_WD;
        return 0;
    }
    switch (scoring) {
    case RK_SCORING_TIME:
        rv = parse_time_score(time_cap, text, out);
        break;
    case RK_SCORING_REPS:
        if ((text = unsigned_int(text, 9, &v)) && *text == '\0') {
            out->kind = RK_SCORE_VALUE;
            out->v = v;
            rv = 0;
        }
        break;
    case RK_SCORING_LOAD:
        rv = parse_load(text, out);
        break;
    default:
        rv = parse_points(text, out);
        break;
    }
    if (rv != 0) {
        out->kind = RK_SCORE_NONE;
        out->v = 0;
        *err = msg;
    }
    return rv;
}

int rk_tiebreak_parse(const char *text, rk_score *out, const char **err)
{
    int64_t ms;

    if (!text || parse_time(text, &ms) != 0) {
        out->kind = RK_SCORE_NONE;
        out->v = 0;
        *err = MSG_TIEBREAK;
        return -1;
    }
    out->kind = RK_SCORE_VALUE;
    out->v = ms;
    return 0;
}

int rk_score_placed(const rk_score *s)
{
    return s->kind == RK_SCORE_VALUE || s->kind == RK_SCORE_CAPPED;
}

int rk_score_cmp(rk_scoring scoring, const rk_score *a, const rk_score *b)
{
    int pa = rk_score_placed(a), pb = rk_score_placed(b);

    if (!pa || !pb) {
        return pb - pa;   /* a score with a place first; the rest equal */
    }
    if (a->kind != b->kind) {
        return a->kind == RK_SCORE_VALUE ? -1 : 1;   /* every finisher before every CAP+N */
    }
    if (a->v == b->v) {
        return 0;
    }
    if (scoring == RK_SCORING_TIME || a->kind == RK_SCORE_CAPPED) {
        return a->v < b->v ? -1 : 1;   /* lower time, fewer reps left */
    }
    return a->v > b->v ? -1 : 1;
}
