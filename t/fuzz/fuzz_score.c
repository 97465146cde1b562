/* fuzz_score.c: libFuzzer target for rk_score_parse, rk_tiebreak_parse and
 * rk_score_cmp (lib/rk_score.c).
 *
 * Input: byte 0 picks the scoring (free, time, reps, load, points), byte 1 the time
 * cap (0, 1, 60, 600, 3599, 359999, 360000, INT64_MAX, -1, or the signed 32-bit
 * number of bytes 2-5), the rest is up to three texts separated by '\n', each copied
 * into a heap buffer of exactly its length + NUL (ASan catches a read past it).
 * Checks:
 *   - the result is 0 or -1; on -1 *err is the fixed message of that scoring (never
 *     an echo) and *out is {NONE, 0}; on 0 the kind fits the scoring (NONE only and
 *     always for free text, CAPPED only for a time WOD with a cap, WD iff the text is
 *     "WD") and the value is within the format's range (a time within the cap);
 *   - an accepted text has no leading or trailing space;
 *   - a parsed score compares equal to itself; comparing is antisymmetric and
 *     transitive over the three texts; the result is always -1, 0 or 1;
 *   - the canonical spelling of an accepted value parses back to the same value;
 *   - a time accepted under a cap is accepted without one, with the same value;
 *   - rk_tiebreak_parse accepts exactly the texts that are a time VALUE of an
 *     uncapped time WOD, with the same milliseconds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_score.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_score: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

#define TIME_MAX_MS 359999999LL
#define LB_HUNDREDTH 45359237LL

static const char *const tiebreak_message = "Invalid body: tiebreak must be a time like 1:02.5";

static int known_message(rk_scoring scoring, int64_t cap, const char *m)
{
    const char *want;

    switch (scoring) {
    case RK_SCORING_TIME:
        want = cap > 0
               ? "Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD"
               : "Invalid body: score must be a time like 7:45 or WD (CAP+N needs a time cap)";
        break;
    case RK_SCORING_REPS:
        want = "Invalid body: score must be a number of reps from 0 to 999999999 or WD";
        break;
    case RK_SCORING_LOAD:
        want = "Invalid body: score must be a load like 102.5, 100 kg or 225 lb (0 to 99999, at most 2 decimals) or WD";
        break;
    case RK_SCORING_POINTS:
        want = "Invalid body: score must be points like 87.5 (-99999 to 99999, at most 3 decimals) or WD";
        break;
    default:
        want = "Invalid body: score must be a string";
        break;
    }
    return m && strcmp(m, want) == 0;
}

/* The canonical spelling of an accepted score (NULL when there is none to check). */
static const char *canonical(rk_scoring scoring, const rk_score *s, char *buf, size_t n)
{
    int64_t v = s->v, a;

    if (s->kind == RK_SCORE_WD) {
        return "WD";
    }
    if (s->kind == RK_SCORE_CAPPED) {
        snprintf(buf, n, "CAP+%lld", (long long)v);
        return buf;
    }
    if (s->kind != RK_SCORE_VALUE) {
        return NULL;
    }
    switch (scoring) {
    case RK_SCORING_TIME:
        snprintf(buf, n, "%lld:%02lld:%02lld.%03lld", (long long)(v / 3600000),
                 (long long)(v / 60000 % 60), (long long)(v / 1000 % 60), (long long)(v % 1000));
        return buf;
    case RK_SCORING_REPS:
        snprintf(buf, n, "%lld", (long long)v);
        return buf;
    case RK_SCORING_LOAD:
        if (v % 100000000 == 0) {
            a = v / 100000000;   /* hundredths of a kg */
            snprintf(buf, n, "%lld.%02lld kg", (long long)(a / 100), (long long)(a % 100));
        }
        else {
            CHECK(v % LB_HUNDREDTH == 0);   /* else it was written in lb */
            a = v / LB_HUNDREDTH;
            snprintf(buf, n, "%lld.%02lldlb", (long long)(a / 100), (long long)(a % 100));
        }
        return buf;
    case RK_SCORING_POINTS:
        a = v < 0 ? -v : v;
        snprintf(buf, n, "%s%lld.%03lld", v < 0 ? "-" : "", (long long)(a / 1000),
                 (long long)(a % 1000));
        return buf;
    default:
        return NULL;
    }
}

static void check_one(rk_scoring scoring, int64_t cap, const char *text, rk_score *out)
{
    const char *err = NULL;
    int rv = rk_score_parse(scoring, cap, text, out, &err);
    size_t len = strlen(text);
    rk_score tb, plain;
    char buf[64];
    const char *canon;

    CHECK(rv == 0 || rv == -1);
    if (rv != 0) {
        CHECK(known_message(scoring, cap, err));
        CHECK(out->kind == RK_SCORE_NONE && out->v == 0);
    }
    else if (scoring == RK_SCORING_FREE) {
        CHECK(out->kind == RK_SCORE_NONE && out->v == 0);
    }
    else {
        CHECK(len > 0 && text[0] != ' ' && text[len - 1] != ' ');
        CHECK((out->kind == RK_SCORE_WD) == (strcmp(text, "WD") == 0));
        CHECK(out->kind == RK_SCORE_WD || out->kind == RK_SCORE_VALUE
              || out->kind == RK_SCORE_CAPPED);
        if (out->kind == RK_SCORE_CAPPED) {
            CHECK(scoring == RK_SCORING_TIME && cap > 0);
            CHECK(out->v >= 0 && out->v <= 99999);
        }
        if (out->kind == RK_SCORE_VALUE) {
            switch (scoring) {
            case RK_SCORING_TIME:
                CHECK(out->v >= 0 && out->v <= TIME_MAX_MS);
                CHECK(cap <= 0 || cap > TIME_MAX_MS / 1000 || out->v <= cap * 1000);
                break;
            case RK_SCORING_REPS:
                CHECK(out->v >= 0 && out->v <= 999999999);
                break;
            case RK_SCORING_LOAD:
                CHECK(out->v >= 0 && out->v <= 99999 * RK_LOAD_PER_KG);
                break;
            default:
                CHECK(out->v >= -99999000 && out->v <= 99999000);
                break;
            }
        }
        CHECK(rk_score_cmp(scoring, out, out) == 0);
        /* the canonical spelling parses back to the same score */
        if ((canon = canonical(scoring, out, buf, sizeof(buf)))) {
            rk_score again;

            CHECK(rk_score_parse(scoring, scoring == RK_SCORING_TIME ? 0 : cap, canon, &again,
                                 &err) == 0 || out->kind == RK_SCORE_CAPPED);
            if (out->kind != RK_SCORE_CAPPED) {
                CHECK(again.kind == out->kind && again.v == out->v);
            }
            CHECK(rk_score_parse(scoring, cap, canon, &again, &err) == 0);
            CHECK(again.kind == out->kind && again.v == out->v);
        }
    }

    /* a time under a cap is a time without one */
    if (scoring == RK_SCORING_TIME && rv == 0 && out->kind == RK_SCORE_VALUE) {
        CHECK(rk_score_parse(RK_SCORING_TIME, 0, text, &plain, &err) == 0);
        CHECK(plain.kind == RK_SCORE_VALUE && plain.v == out->v);
    }

    /* the tiebreak: exactly the uncapped time values */
    {
        int trv = rk_tiebreak_parse(text, &tb, &err);
        int prv = rk_score_parse(RK_SCORING_TIME, 0, text, &plain, &err);

        CHECK(trv == 0 || trv == -1);
        CHECK((trv == 0) == (prv == 0 && plain.kind == RK_SCORE_VALUE));
        if (trv == 0) {
            CHECK(tb.kind == RK_SCORE_VALUE && tb.v == plain.v);
        }
        else {
            rk_tiebreak_parse(text, &tb, &err);
            CHECK(err && strcmp(err, tiebreak_message) == 0);
            CHECK(tb.kind == RK_SCORE_NONE && tb.v == 0);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int64_t caps[] = { 0, 1, 60, 600, 3599, 359999, 360000, INT64_MAX, -1 };
    rk_scoring scoring;
    int64_t cap;
    rk_score s[3];
    char *text[3] = { NULL, NULL, NULL };
    size_t ntexts = 0, i, j, k, pos, start;
    uint8_t head[6] = { 0 };

    memcpy(head, data, size < 6 ? size : 6);
    scoring = (rk_scoring)(head[0] % 5);
    if (head[1] % 10 < 9) {
        cap = caps[head[1] % 10];
    }
    else {
        cap = (int32_t)((uint32_t)head[2] << 24 | (uint32_t)head[3] << 16
                        | (uint32_t)head[4] << 8 | head[5]);
    }
    pos = size < 6 ? size : 6;

    /* up to three texts, '\n' between them; an embedded NUL ends a text early, as
     * it would for a C string */
    for (start = pos; ntexts < 3 && start <= size; ntexts++) {
        size_t end = start;

        while (end < size && data[end] != '\n') {
            end++;
        }
        text[ntexts] = malloc(end - start + 1);
        if (!text[ntexts]) {
            break;
        }
        memcpy(text[ntexts], data + start, end - start);
        text[ntexts][end - start] = '\0';
        start = end + 1;
    }

    for (i = 0; i < ntexts; i++) {
        check_one(scoring, cap, text[i], &s[i]);
    }
    /* order: antisymmetric, -1/0/1, transitive */
    for (i = 0; i < ntexts; i++) {
        for (j = 0; j < ntexts; j++) {
            int c = rk_score_cmp(scoring, &s[i], &s[j]);

            CHECK(c == -1 || c == 0 || c == 1);
            CHECK(c == -rk_score_cmp(scoring, &s[j], &s[i]));
            for (k = 0; k < ntexts; k++) {
                int d = rk_score_cmp(scoring, &s[j], &s[k]);
                int e = rk_score_cmp(scoring, &s[i], &s[k]);

                if (c <= 0 && d <= 0) {
                    CHECK(e <= 0);
                }
                if (c == 0 && d == 0) {
                    CHECK(e == 0);
                }
            }
        }
    }
    for (i = 0; i < ntexts; i++) {
        free(text[i]);
    }
    return 0;
}
