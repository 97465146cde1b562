/* check_score.c: Check unit tests of rk_score (typed scores and tiebreaks).
 * Contract: doc/api.md Part 2 "Typed scores" (formats, comparison by value, cap
 * rules, CAP+N, WD, tiebreak) and "Ranking policy" (better = lower time, higher reps,
 * load, points; every CAP+N after every finisher). */
#include <check.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_score.h"

#define MARK "XYZZY"   /* put into bad inputs: must never appear in an error message */

#define T RK_SCORING_TIME
#define R RK_SCORING_REPS
#define L RK_SCORING_LOAD
#define P RK_SCORING_POINTS
#define F RK_SCORING_FREE
#define V RK_SCORE_VALUE
#define C RK_SCORE_CAPPED
#define W RK_SCORE_WD
#define N RK_SCORE_NONE

#define KG RK_LOAD_PER_KG
#define LB 4535923700LL            /* 1 lb in units of 1e-10 kg */

static const char *const scoring_names[] = { "free", "time", "reps", "load", "points" };

/* ------------------------------------------------------------------ helpers */

/* Every message rk_score can give. */
static const char *const known_messages[] = {
    "Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD",
    "Invalid body: score must be a time like 7:45 or WD (CAP+N needs a time cap)",
    "Invalid body: score must be a number of reps from 0 to 999999999 or WD",
    "Invalid body: score must be a load like 102.5, 100 kg or 225 lb (0 to 99999, at most 2 decimals) or WD",
    "Invalid body: score must be points like 87.5 (-99999 to 99999, at most 3 decimals) or WD",
    "Invalid body: score must be a string",
    "Invalid body: tiebreak must be a time like 1:02.5",
};

/* An error message: one of the fixed ones (so it carries nothing of TEXT; the bad
 * inputs hold MARK to make sure), "Invalid body: ...", printable ASCII, not pointing
 * into TEXT. */
static void check_err(const char *err, const char *text, const char *what)
{
    size_t k;

    ck_assert_msg(err != NULL, "%s: *err not set", what);
    ck_assert_msg(strncmp(err, "Invalid body: ", 14) == 0, "%s: '%s' does not start with "
                  "'Invalid body: '", what, err);
    for (k = 0; k < sizeof known_messages / sizeof known_messages[0]; k++)
        if (strcmp(err, known_messages[k]) == 0)
            break;
    ck_assert_msg(k < sizeof known_messages / sizeof known_messages[0],
                  "%s: unknown message '%s'", what, err);
    if (text) {
        ck_assert_msg(!(err >= text && err <= text + strlen(text)), "%s: *err points into the input",
                      what);
        ck_assert_msg(strstr(err, MARK) == NULL, "%s: '%s' echoes the input", what, err);
    }
    for (const char *p = err; *p; p++)
        ck_assert_msg(*p >= 0x20 && *p < 0x7f, "%s: non-printable byte in *err", what);
}

static rk_score ok(rk_scoring s, int64_t cap, const char *text)
{
    rk_score out = { (rk_score_kind)77, 77 };
    const char *err = NULL;
    int rc = rk_score_parse(s, cap, text, &out, &err);
    ck_assert_msg(rc == 0, "%s cap %lld '%s': refused (%s)", scoring_names[s], (long long)cap,
                  text, err ? err : "no err");
    return out;
}

static void bad(rk_scoring s, int64_t cap, const char *text)
{
    rk_score out = { (rk_score_kind)77, 77 };
    const char *err = NULL;
    char what[200];
    int rc = rk_score_parse(s, cap, text, &out, &err);
    snprintf(what, sizeof what, "%s cap %lld '%s'", scoring_names[s], (long long)cap,
             text ? text : "(NULL)");
    ck_assert_msg(rc == -1, "%s: accepted (kind %d v %lld), want refused", what, out.kind,
                  (long long)out.v);
    ck_assert_msg(out.kind == RK_SCORE_NONE && out.v == 0, "%s: *out not cleared", what);
    check_err(err, text, what);
}

static int cmp(rk_scoring s, int64_t cap, const char *a, const char *b)
{
    rk_score x = ok(s, cap, a), y = ok(s, cap, b);
    return rk_score_cmp(s, &x, &y);
}

/* ------------------------------------------------------------------ tables */

typedef struct {
    rk_scoring scoring;
    int64_t cap;
    const char *text;
    rk_score_kind kind;
    int64_t v;
} good_case;

static const good_case good[] = {
    /* time: M:SS, MM:SS */
    { T, 0, "7:45", V, 465000 }, { T, 0, "07:45", V, 465000 }, { T, 0, "7:45.0", V, 465000 },
    { T, 0, "07:45.00", V, 465000 }, { T, 0, "7:45.000", V, 465000 }, { T, 0, "0:00", V, 0 },
    { T, 0, "00:00", V, 0 }, { T, 0, "0:00.000", V, 0 }, { T, 0, "0:00.001", V, 1 },
    { T, 0, "0:01", V, 1000 }, { T, 0, "0:59", V, 59000 }, { T, 0, "1:00", V, 60000 },
    { T, 0, "59:59", V, 3599000 }, { T, 0, "60:00", V, 3600000 }, { T, 0, "99:59", V, 5999000 },
    { T, 0, "99:59.999", V, 5999999 }, { T, 0, "10:00", V, 600000 }, { T, 0, "09:05", V, 545000 },
    { T, 0, "7:45.5", V, 465500 }, { T, 0, "7:45.50", V, 465500 }, { T, 0, "7:45.05", V, 465050 },
    { T, 0, "7:45.005", V, 465005 }, { T, 0, "7:45.123", V, 465123 }, { T, 0, "7:45.9", V, 465900 },
    { T, 0, "7:45.99", V, 465990 }, { T, 0, "7:45.999", V, 465999 }, { T, 0, "0:00.5", V, 500 },
    /* time: H:MM:SS, HH:MM:SS */
    { T, 0, "1:02:03", V, 3723000 }, { T, 0, "1:02:03.5", V, 3723500 },
    { T, 0, "01:02:03", V, 3723000 }, { T, 0, "0:07:45", V, 465000 },
    { T, 0, "00:07:45", V, 465000 }, { T, 0, "00:07:45.000", V, 465000 },
    { T, 0, "0:00:00", V, 0 }, { T, 0, "99:59:59", V, 359999000 },
    { T, 0, "99:59:59.999", V, 359999999 }, { T, 0, "1:00:00", V, 3600000 },
    { T, 0, "23:59:59.1", V, 86399100 }, { T, 0, "10:10:10.01", V, 36610010 },
    /* time with a cap: up to the cap itself */
    { T, 600, "10:00", V, 600000 }, { T, 600, "10:00.000", V, 600000 }, { T, 600, "9:59.999", V, 599999 },
    { T, 600, "0:00", V, 0 }, { T, 600, "0:10:00", V, 600000 }, { T, 1, "0:01", V, 1000 },
    { T, 1, "0:00.999", V, 999 }, { T, 3600, "1:00:00", V, 3600000 }, { T, 3600, "60:00", V, 3600000 },
    { T, 3600, "59:59.999", V, 3599999 }, { T, 359999, "99:59:59", V, 359999000 },
    { T, 360000, "99:59:59.999", V, 359999999 }, { T, INT64_MAX, "99:59:59.999", V, 359999999 },
    { T, INT64_MAX / 1000 + 1, "1:00", V, 60000 },
    /* time: CAP+N */
    { T, 600, "CAP+0", C, 0 }, { T, 600, "CAP+12", C, 12 }, { T, 600, "CAP+012", C, 12 },
    { T, 600, "CAP+00012", C, 12 }, { T, 600, "CAP+0000000000000012", C, 12 },
    { T, 600, "CAP+99999", C, 99999 }, { T, 600, "CAP+099999", C, 99999 }, { T, 600, "CAP+1", C, 1 },
    { T, 600, "CAP+00", C, 0 }, { T, 1, "CAP+5", C, 5 }, { T, INT64_MAX, "CAP+5", C, 5 },
    /* WD, any scoring, cap or not */
    { T, 0, "WD", W, 0 }, { T, 600, "WD", W, 0 }, { R, 0, "WD", W, 0 }, { L, 0, "WD", W, 0 },
    { P, 0, "WD", W, 0 },
    /* reps */
    { R, 0, "0", V, 0 }, { R, 0, "212", V, 212 }, { R, 0, "007", V, 7 }, { R, 0, "7", V, 7 },
    { R, 0, "000", V, 0 }, { R, 0, "999999999", V, 999999999 }, { R, 0, "0999999999", V, 999999999 },
    { R, 0, "00000000000000000000000000001", V, 1 }, { R, 0, "100", V, 100 },
    { R, 600, "212", V, 212 },   /* the cap is the time WODs' business */
    /* load */
    { L, 0, "0", V, 0 }, { L, 0, "100", V, 100 * KG }, { L, 0, "100kg", V, 100 * KG },
    { L, 0, "100 kg", V, 100 * KG }, { L, 0, "100.0", V, 100 * KG }, { L, 0, "100.00 kg", V, 100 * KG },
    { L, 0, "0100", V, 100 * KG }, { L, 0, "102.5", V, 1025 * KG / 10 },
    { L, 0, "102.05", V, 10205 * KG / 100 }, { L, 0, "102.05kg", V, 10205 * KG / 100 },
    { L, 0, "225 lb", V, 225 * LB }, { L, 0, "225lb", V, 225 * LB }, { L, 0, "100 lb", V, 100 * LB },
    { L, 0, "0.01 lb", V, 45359237 }, { L, 0, "0.01", V, KG / 100 }, { L, 0, "99999", V, 99999 * KG },
    { L, 0, "99999.00", V, 99999 * KG }, { L, 0, "99999 lb", V, 99999 * LB },
    { L, 0, "0 lb", V, 0 }, { L, 0, "0.5 lb", V, LB / 2 }, { L, 0, "007.5", V, 75 * KG / 10 },
    { L, 0, "1.1", V, 11 * KG / 10 },
    /* points */
    { P, 0, "0", V, 0 }, { P, 0, "87.5", V, 87500 }, { P, 0, "87.500", V, 87500 },
    { P, 0, "-87.5", V, -87500 }, { P, 0, "-0", V, 0 }, { P, 0, "-0.000", V, 0 },
    { P, 0, "99999", V, 99999000 }, { P, 0, "-99999", V, -99999000 }, { P, 0, "99999.000", V, 99999000 },
    { P, 0, "0.001", V, 1 }, { P, 0, "-0.001", V, -1 }, { P, 0, "007", V, 7000 },
    { P, 0, "-007.25", V, -7250 }, { P, 0, "12.34", V, 12340 },
    /* free text: anything, never ranked */
    { F, 0, "", N, 0 }, { F, 0, "WD", N, 0 }, { F, 0, "7:45", N, 0 }, { F, 0, " anything " MARK, N, 0 },
    { F, 600, "CAP+1", N, 0 },
};

typedef struct {
    rk_scoring scoring;
    int64_t cap;
    const char *text;
} bad_case;

static const bad_case bads[] = {
    /* time: shapes */
    { T, 0, "" }, { T, 0, " " }, { T, 0, "7" }, { T, 0, "745" }, { T, 0, "7:4" }, { T, 0, "7:5" },
    { T, 0, "7:456" }, { T, 0, "007:45" }, { T, 0, "100:00" }, { T, 0, ":45" }, { T, 0, "7:" },
    { T, 0, "7:60" }, { T, 0, "7:99" }, { T, 0, "1:60:00" }, { T, 0, "1:00:60" }, { T, 0, "1:2:03" },
    { T, 0, "1:02:3" }, { T, 0, "100:00:00" }, { T, 0, "001:00:00" }, { T, 0, "1:02:03:04" },
    { T, 0, "7:45." }, { T, 0, "7:45.1234" }, { T, 0, "7:45.0000" }, { T, 0, ".5" },
    { T, 0, "7:45.a" }, { T, 0, "7:45,5" }, { T, 0, "7.45" }, { T, 0, "7h45" }, { T, 0, "7:45s" },
    { T, 0, " 7:45" }, { T, 0, "7:45 " }, { T, 0, "7 :45" }, { T, 0, "7: 45" }, { T, 0, "+7:45" },
    { T, 0, "-7:45" }, { T, 0, "7:-45" }, { T, 0, "7:+5" }, { T, 0, "7:45\n" }, { T, 0, "\t7:45" },
    { T, 0, "7::45" }, { T, 0, "7:45:" }, { T, 0, "7:45.5.5" }, { T, 0, "1:02:03." },
    { T, 0, "\xef\xbc\x97:45" }, { T, 0, "7\xef\xbc\x9a" "45" }, { T, 0, "0x7:45" },
    { T, 0, "7:45" MARK }, { T, 0, MARK }, { T, 0, "465" }, { T, 0, "465000" }, { T, 0, "7:4a" },
    { T, 0, "a7:45" }, { T, 0, "7:45.-1" }, { T, 0, "1e2:00" },
    /* time: beyond the cap (by a millisecond or more) */
    { T, 600, "10:00.001" }, { T, 600, "10:01" }, { T, 600, "0:10:01" }, { T, 600, "99:59" },
    { T, 1, "0:01.001" }, { T, 1, "0:02" }, { T, 3600, "1:00:00.001" }, { T, 3600, "60:00.001" },
    { T, 359999, "99:59:59.001" },
    /* time: CAP+N */
    { T, 0, "CAP+12" }, { T, -5, "CAP+12" }, { T, 0, "CAP+0" }, { T, 600, "CAP+" },
    { T, 600, "CAP" }, { T, 600, "CAP+-1" }, { T, 600, "CAP+100000" }, { T, 600, "CAP+0100000" },
    { T, 600, "CAP+999999999999999999999999" }, { T, 600, "cap+12" }, { T, 600, "Cap+12" },
    { T, 600, "CAP 12" }, { T, 600, "CAP-12" }, { T, 600, "CAP+ 12" }, { T, 600, "CAP +12" },
    { T, 600, "CAP+12 " }, { T, 600, " CAP+12" }, { T, 600, "CAP+1.5" }, { T, 600, "CAP+12a" },
    { T, 600, "CAP++12" }, { T, 600, "CAP+12+1" }, { T, 600, "CAP12" }, { T, 600, "CAP+" MARK },
    { T, 600, "+12" }, { T, 600, "CAP+\xef\xbc\x91" }, { T, 600, "CAPWD" },
    /* WD: exactly */
    { T, 0, "wd" }, { T, 0, "Wd" }, { T, 0, "W D" }, { T, 0, " WD" }, { T, 0, "WD " },
    { T, 0, "WDX" }, { R, 0, "wd" }, { L, 0, "WD kg" }, { P, 0, "-WD" }, { R, 0, "DNF" },
    { R, 0, "DNS" },
    /* reps */
    { R, 0, "" }, { R, 0, " " }, { R, 0, "-1" }, { R, 0, "+1" }, { R, 0, "1.0" }, { R, 0, "1.5" },
    { R, 0, "1000000000" }, { R, 0, "01000000000" }, { R, 0, "99999999999999999999999" },
    { R, 0, "1e3" }, { R, 0, "0x10" }, { R, 0, " 212" }, { R, 0, "212 " }, { R, 0, "212reps" },
    { R, 0, "2 12" }, { R, 0, "2,12" }, { R, 0, "7:45" }, { R, 0, "CAP+1" }, { R, 600, "CAP+1" },
    { R, 0, "." }, { R, 0, "5." }, { R, 0, ".5" }, { R, 0, MARK }, { R, 0, "\xef\xbc\x91" },
    { R, 0, "-0" }, { R, 0, "212\n" },
    /* load */
    { L, 0, "" }, { L, 0, " " }, { L, 0, "kg" }, { L, 0, " kg" }, { L, 0, ".5" }, { L, 0, "5." },
    { L, 0, "5.kg" }, { L, 0, "5. kg" }, { L, 0, "100.001" }, { L, 0, "100.000" },
    { L, 0, "100000" }, { L, 0, "99999.01" }, { L, 0, "99999.5 lb" }, { L, 0, "-1" }, { L, 0, "+1" },
    { L, 0, "100 " }, { L, 0, " 100" }, { L, 0, "100  kg" }, { L, 0, "100\tkg" }, { L, 0, "100 kg " },
    { L, 0, "100lbs" }, { L, 0, "100 lbs" }, { L, 0, "100KG" }, { L, 0, "100 Kg" }, { L, 0, "100LB" },
    { L, 0, "100 k" }, { L, 0, "100 g" }, { L, 0, "100 kgs" }, { L, 0, "100kg kg" }, { L, 0, "100 lb kg" },
    { L, 0, "100 pounds" }, { L, 0, "100 " MARK }, { L, 0, "100,5" }, { L, 0, "1e2" },
    { L, 0, "100 \xc2\xa0kg" }, { L, 0, "100\xc2\xa0kg" }, { L, 0, "0x64" }, { L, 0, "1 00" },
    { L, 0, "100.5.5" }, { L, 0, "7:45" }, { L, 0, "100 kglb" },
    /* points */
    { P, 0, "" }, { P, 0, "-" }, { P, 0, "+1" }, { P, 0, "--1" }, { P, 0, "- 1" }, { P, 0, ".5" },
    { P, 0, "-.5" }, { P, 0, "5." }, { P, 0, "-5." }, { P, 0, "1.0001" }, { P, 0, "1.0000" },
    { P, 0, "100000" }, { P, 0, "-100000" }, { P, 0, "99999.001" }, { P, 0, "-99999.001" },
    { P, 0, "1e3" }, { P, 0, " 1" }, { P, 0, "1 " }, { P, 0, "1pts" }, { P, 0, "1 pts" },
    { P, 0, "1,5" }, { P, 0, "7:45" }, { P, 0, MARK }, { P, 0, "1-" }, { P, 0, "0-1" },
    { P, 0, "99999999999999999999999999999999" },
    /* NULL text */
    { T, 0, NULL }, { T, 600, NULL }, { R, 0, NULL }, { L, 0, NULL }, { P, 0, NULL }, { F, 0, NULL },
};

START_TEST(test_scoring_parse)
{
    ck_assert_int_eq(rk_scoring_parse("time"), RK_SCORING_TIME);
    ck_assert_int_eq(rk_scoring_parse("reps"), RK_SCORING_REPS);
    ck_assert_int_eq(rk_scoring_parse("load"), RK_SCORING_LOAD);
    ck_assert_int_eq(rk_scoring_parse("points"), RK_SCORING_POINTS);
    static const char *const other[] = {
        "", "Time", "TIME", "time ", " time", "rep", "repss", "weight", "pts", "free", "timex",
        "tim", "load\n", "points\t",
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        ck_assert_int_eq(rk_scoring_parse(other[i]), RK_SCORING_FREE);
    ck_assert_int_eq(rk_scoring_parse(NULL), RK_SCORING_FREE);
}
END_TEST

START_TEST(test_good)
{
    const good_case *g = &good[_i];
    rk_score s = ok(g->scoring, g->cap, g->text);
    ck_assert_msg(s.kind == g->kind && s.v == g->v, "%s cap %lld '%s': kind %d v %lld, want "
                  "kind %d v %lld", scoring_names[g->scoring], (long long)g->cap, g->text, s.kind,
                  (long long)s.v, g->kind, (long long)g->v);
    /* comparing with itself: equal */
    ck_assert_int_eq(rk_score_cmp(g->scoring, &s, &s), 0);
}
END_TEST

START_TEST(test_bad)
{
    bad(bads[_i].scoring, bads[_i].cap, bads[_i].text);
}
END_TEST

/* Garbage under every scoring and cap: refused, or free text. */
START_TEST(test_garbage_every_scoring)
{
    static const char *const garbage[] = {
        MARK, "7:45 " MARK, MARK "7:45", "CAP+" MARK, "WD" MARK, "100 kg" MARK, "\xff\xfe",
        "7:45\xff", "12\xc3\xa9", "\x01", "%s%n", "NaN", "inf", "-inf", "1e9", "0x1p3",
        "CAP+12\0ignored",
    };
    static const int64_t caps[] = { 0, 1, 600, 359999, INT64_MAX, -1 };
    for (size_t g = 0; g < sizeof garbage / sizeof garbage[0]; g++) {
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            for (int s = RK_SCORING_TIME; s <= RK_SCORING_POINTS; s++) {
                if (strcmp(garbage[g], "CAP+12\0ignored") == 0 && s == T && caps[c] > 0)
                    continue;   /* the C string ends at the NUL: "CAP+12" is fine */
                bad((rk_scoring)s, caps[c], garbage[g]);
            }
            rk_score f = ok(F, caps[c], garbage[g]);
            ck_assert_int_eq(f.kind, RK_SCORE_NONE);
        }
    }
}
END_TEST

START_TEST(test_messages)
{
    rk_score s;
    const char *err = NULL;
    ck_assert_int_eq(rk_score_parse(T, 600, "7:" MARK, &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD");
    ck_assert_int_eq(rk_score_parse(T, 600, "10:01", &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD");
    ck_assert_int_eq(rk_score_parse(T, 0, "CAP+1", &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: score must be a time like 7:45 or WD (CAP+N needs a time cap)");
    ck_assert_int_eq(rk_score_parse(R, 0, "1.5", &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: score must be a number of reps from 0 to 999999999 or WD");
    ck_assert_int_eq(rk_score_parse(L, 0, "100 lbs", &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: score must be a load like 102.5, 100 kg or 225 lb (0 to 99999, at most 2 decimals) or WD");
    ck_assert_int_eq(rk_score_parse(P, 0, "+1", &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: score must be points like 87.5 (-99999 to 99999, at most 3 decimals) or WD");
    ck_assert_int_eq(rk_tiebreak_parse("CAP+1", &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: tiebreak must be a time like 1:02.5");
    /* on success *err is left alone */
    err = "untouched";
    ck_assert_int_eq(rk_score_parse(T, 600, "7:45", &s, &err), 0);
    ck_assert_str_eq(err, "untouched");
    ck_assert_int_eq(rk_tiebreak_parse("7:45", &s, &err), 0);
    ck_assert_str_eq(err, "untouched");
}
END_TEST

/* ------------------------------------------------------------------ equalities */

/* Each group: texts of one scoring that are the same score. */
typedef struct {
    rk_scoring scoring;
    int64_t cap;
    const char *texts[8];
} same_group;

static const same_group sames[] = {
    { T, 0, { "7:45", "07:45", "7:45.0", "7:45.00", "07:45.000", "0:07:45", "00:07:45.0", NULL } },
    { T, 600, { "10:00", "10:00.0", "0:10:00", "00:10:00.000", NULL } },
    { T, 0, { "60:00", "1:00:00", "01:00:00.00", "60:00.000", NULL } },
    { T, 0, { "0:00", "00:00", "0:00:00", "0:00.000", NULL } },
    { T, 600, { "CAP+12", "CAP+012", "CAP+00012", "CAP+000000012", NULL } },
    { T, 600, { "CAP+0", "CAP+00", "CAP+00000", NULL } },
    { R, 0, { "7", "007", "0007", "000000007", NULL } },
    { R, 0, { "0", "00", "000", NULL } },
    { L, 0, { "100", "100kg", "100 kg", "100.0", "100.00", "0100", "00100.00 kg", "100.0kg" } },
    { L, 0, { "0", "0kg", "0 lb", "0lb", "0.00 lb", "000", NULL } },
    { L, 0, { "225 lb", "225lb", "225.00 lb", "0225lb", NULL } },
    { L, 0, { "7.5", "7.50", "007.5 kg", NULL } },
    { P, 0, { "87.5", "87.50", "87.500", "087.5", NULL } },
    { P, 0, { "0", "-0", "0.000", "-0.0", "000", NULL } },
    { P, 0, { "-7", "-7.0", "-007.000", NULL } },
};

START_TEST(test_equal_by_value)
{
    const same_group *g = &sames[_i];
    for (int i = 0; i < 8 && g->texts[i]; i++)
        for (int j = 0; j < 8 && g->texts[j]; j++) {
            int c = cmp(g->scoring, g->cap, g->texts[i], g->texts[j]);
            ck_assert_msg(c == 0, "%s: '%s' vs '%s' = %d, want equal", scoring_names[g->scoring],
                          g->texts[i], g->texts[j], c);
        }
}
END_TEST

/* ------------------------------------------------------------------ order */

/* Each row: texts of one scoring from the best to the worst, strictly. */
typedef struct {
    rk_scoring scoring;
    int64_t cap;
    const char *texts[16];
} order_row;

static const order_row orders[] = {
    /* time: lower is better, every CAP+N after every finisher (even one equal to the
     * cap), among CAP+N fewer reps left is better */
    { T, 600, { "0:00", "0:00.001", "0:00.5", "0:59.999", "1:00", "7:45", "7:45.001", "9:59.999",
                "10:00", "CAP+0", "CAP+1", "CAP+12", "CAP+20", "CAP+99999", NULL } },
    { T, 0, { "0:00", "59:59.999", "1:00:00", "1:00:00.001", "99:59", "1:40:00", "99:59:59.999",
              NULL } },
    { R, 0, { "999999999", "1000", "212", "100", "8", "7", "1", "0", NULL } },
    /* load: compared in kg, exactly: 225 lb = 102.05828325 kg */
    { L, 0, { "99999 kg", "99999 lb", "1000", "102.06", "225 lb", "102.05", "100", "102.05 lb",
              "45.36", "100 lb", "45.35", "0.01", "0.01 lb", "0", NULL } },
    { P, 0, { "99999", "87.5", "87.499", "1", "0.001", "0", "-0.001", "-1", "-87.5", "-99999", NULL } },
};

START_TEST(test_order)
{
    const order_row *o = &orders[_i];
    for (int i = 0; i < 16 && o->texts[i]; i++)
        for (int j = 0; j < 16 && o->texts[j]; j++) {
            int c = cmp(o->scoring, o->cap, o->texts[i], o->texts[j]);
            int want = i < j ? -1 : i > j ? 1 : 0;
            ck_assert_msg(c == want, "%s: cmp('%s', '%s') = %d, want %d", scoring_names[o->scoring],
                          o->texts[i], o->texts[j], c, want);
        }
}
END_TEST

START_TEST(test_load_units)
{
    /* 100 lb = 45.359237 kg exactly */
    rk_score lb = ok(L, 0, "100 lb");
    ck_assert(lb.v == 45359237LL * KG / 1000000);
    ck_assert(lb.v == 453592370000LL);
    /* 225 lb = 102.05828325 kg: more than 102.05 kg, less than 102.06 kg */
    rk_score a = ok(L, 0, "225 lb"), b = ok(L, 0, "102.05 kg"), c = ok(L, 0, "102.06");
    ck_assert(a.v == 1020582832500LL);
    ck_assert_int_lt(rk_score_cmp(L, &a, &b), 0);
    ck_assert_int_gt(rk_score_cmp(L, &b, &a), 0);
    ck_assert_int_gt(rk_score_cmp(L, &a, &c), 0);
    /* 1 lb = 0.45359237 kg, 0.01 lb is still an integer number of units */
    ck_assert(ok(L, 0, "1 lb").v == LB);
    ck_assert(ok(L, 0, "0.01lb").v == 45359237LL);
    ck_assert(ok(L, 0, "99999.00 lb").v == 99999 * LB);
    /* no pound value other than 0 equals a kg value of at most 2 decimals:
     * h_lb * 45359237 = h_kg * 10^8 has no solution (45359237 is prime to 10) */
    for (int64_t h = 1; h <= 100000; h++) {
        ck_assert((h * 45359237) % 100000000 != 0);
    }
    /* 45.36 kg is a little more than 100 lb, 45.35 kg a little less */
    ck_assert_int_lt(cmp(L, 0, "45.36", "100 lb"), 0);
    ck_assert_int_gt(cmp(L, 0, "45.35", "100 lb"), 0);
}
END_TEST

START_TEST(test_cap_rules)
{
    /* every time of a 10 min cap: up to 10:00.000 yes, 10:00.001 no */
    char t[32];
    for (int m = 0; m <= 12; m++)
        for (int s = 0; s < 60; s += 7) {
            snprintf(t, sizeof t, "%d:%02d", m, s);
            if (m * 60 + s <= 600)
                ok(T, 600, t);
            else
                bad(T, 600, t);
        }
    ok(T, 600, "10:00");
    bad(T, 600, "10:00.001");
    bad(T, 600, "10:00.01");
    bad(T, 600, "10:00.1");
    /* no cap: any time, no CAP+N */
    ok(T, 0, "99:59:59.999");
    bad(T, 0, "CAP+1");
    /* a negative cap (a damaged database) is no cap */
    ok(T, -600, "99:59");
    bad(T, -600, "CAP+1");
    /* a cap of one second */
    ok(T, 1, "0:01.000");
    bad(T, 1, "0:01.001");
    ok(T, 1, "CAP+3");
    /* huge caps never overflow */
    for (int64_t cap = INT64_MAX; cap > 0; cap /= 3) {
        ok(T, cap, "0:00");
        ok(T, cap, "CAP+7");
        if (cap >= 359999 + 1)
            ok(T, cap, "99:59:59.999");
    }
    /* CAP+N after a finisher equal to the cap */
    ck_assert_int_lt(cmp(T, 600, "10:00", "CAP+0"), 0);
    ck_assert_int_gt(cmp(T, 600, "CAP+0", "10:00"), 0);
    ck_assert_int_lt(cmp(T, 600, "CAP+12", "CAP+20"), 0);
    ck_assert_int_gt(cmp(T, 600, "CAP+20", "CAP+12"), 0);
    ck_assert_int_eq(cmp(T, 600, "CAP+12", "CAP+012"), 0);
    /* the tiebreak is not limited by a cap (it has none) */
    rk_score tb;
    const char *err;
    ck_assert_int_eq(rk_tiebreak_parse("99:59:59.999", &tb, &err), 0);
}
END_TEST

/* The kinds without a place come after the placed ones and equal each other. */
START_TEST(test_cmp_kinds)
{
    rk_score v = { RK_SCORE_VALUE, 5 }, c = { RK_SCORE_CAPPED, 0 }, w = { RK_SCORE_WD, 0 },
             n = { RK_SCORE_NONE, 0 };
    for (int s = RK_SCORING_FREE; s <= RK_SCORING_POINTS; s++) {
        ck_assert_int_eq(rk_score_cmp(s, &v, &w), -1);
        ck_assert_int_eq(rk_score_cmp(s, &w, &v), 1);
        ck_assert_int_eq(rk_score_cmp(s, &c, &n), -1);
        ck_assert_int_eq(rk_score_cmp(s, &n, &c), 1);
        ck_assert_int_eq(rk_score_cmp(s, &w, &n), 0);
        ck_assert_int_eq(rk_score_cmp(s, &w, &w), 0);
        ck_assert_int_eq(rk_score_placed(&v), 1);
        ck_assert_int_eq(rk_score_placed(&c), 1);
        ck_assert_int_eq(rk_score_placed(&w), 0);
        ck_assert_int_eq(rk_score_placed(&n), 0);
    }
    /* extreme values compare without overflow */
    rk_score lo = { RK_SCORE_VALUE, INT64_MIN }, hi = { RK_SCORE_VALUE, INT64_MAX };
    ck_assert_int_eq(rk_score_cmp(T, &lo, &hi), -1);
    ck_assert_int_eq(rk_score_cmp(R, &lo, &hi), 1);
    ck_assert_int_eq(rk_score_cmp(P, &hi, &lo), -1);
}
END_TEST

/* ------------------------------------------------------------------ tiebreak */

static const struct { const char *text; int64_t ms; } good_tb[] = {
    { "1:02.5", 62500 }, { "01:02.5", 62500 }, { "1:02.500", 62500 }, { "0:00", 0 },
    { "7:45", 465000 }, { "07:45", 465000 }, { "7:45.0", 465000 }, { "0:07:45", 465000 },
    { "99:59:59.999", 359999999 }, { "1:02:03.004", 3723004 }, { "99:59", 5999000 },
    { "0:00.001", 1 }, { "00:00:00.0", 0 },
};

static const char *const bad_tb[] = {
    "", " ", "CAP+1", "CAP+0", "WD", "wd", "62.5", "62", "1:2", "1:60", "007:45", "1:02.5 ",
    " 1:02.5", "1:02.", ".5", "1:02.5000", "100:00:00", "1:60:00", "1:00:60", "+1:02",
    "-1:02", "1:02:03:04", MARK, "1:02" MARK, "\xff", "1:02\xc3\xa9", "null", "1 : 02",
};

START_TEST(test_tiebreak)
{
    for (size_t i = 0; i < sizeof good_tb / sizeof good_tb[0]; i++) {
        rk_score s = { (rk_score_kind)77, 77 };
        const char *err = NULL;
        ck_assert_msg(rk_tiebreak_parse(good_tb[i].text, &s, &err) == 0, "tiebreak '%s' refused",
                      good_tb[i].text);
        ck_assert_int_eq(s.kind, RK_SCORE_VALUE);
        ck_assert_msg(s.v == good_tb[i].ms, "tiebreak '%s': %lld ms", good_tb[i].text, (long long)s.v);
        /* the same time as a score of an uncapped time WOD */
        rk_score t = ok(T, 0, good_tb[i].text);
        ck_assert(t.v == s.v);
    }
    for (size_t i = 0; i < sizeof bad_tb / sizeof bad_tb[0]; i++) {
        rk_score s = { (rk_score_kind)77, 77 };
        const char *err = NULL;
        ck_assert_msg(rk_tiebreak_parse(bad_tb[i], &s, &err) == -1, "tiebreak '%s' accepted",
                      bad_tb[i]);
        ck_assert_int_eq(s.kind, RK_SCORE_NONE);
        check_err(err, bad_tb[i], bad_tb[i]);
        ck_assert_str_eq(err, "Invalid body: tiebreak must be a time like 1:02.5");
    }
    rk_score s;
    const char *err = NULL;
    ck_assert_int_eq(rk_tiebreak_parse(NULL, &s, &err), -1);
    ck_assert_str_eq(err, "Invalid body: tiebreak must be a time like 1:02.5");
}
END_TEST

/* ------------------------------------------------------------------ exhaustive */

/* Every M:SS and H:MM:SS with every fraction width: the value is the arithmetic one. */
START_TEST(test_all_times)
{
    char t[32];
    for (int m = 0; m < 100; m++)
        for (int s = 0; s < 60; s++) {
            int64_t want = (m * 60 + s) * 1000LL;
            snprintf(t, sizeof t, "%d:%02d", m, s);
            ck_assert(ok(T, 0, t).v == want);
            snprintf(t, sizeof t, "%02d:%02d.%d", m, s, s % 10);
            ck_assert(ok(T, 0, t).v == want + (s % 10) * 100);
            snprintf(t, sizeof t, "%d:%02d.%03d", m, s, m * 10 + s % 10);
            ck_assert(ok(T, 0, t).v == want + m * 10 + s % 10);
            if (s < 60 && m < 60) {
                snprintf(t, sizeof t, "%d:%02d:%02d.%02d", m, m, s, s);
                ck_assert(ok(T, 0, t).v == (m * 3600LL + m * 60 + s) * 1000 + s * 10);
            }
        }
}
END_TEST

/* Every string up to LEN characters over a small alphabet, checked against a POSIX
 * regular expression of the format (an independent reading of the contract), and,
 * when accepted, against the value computed from the text by sscanf. */
static void enumerate(const char *alphabet, int maxlen, void (*check)(const char *))
{
    size_t na = strlen(alphabet);
    int idx[16];
    char s[17];

    for (int len = 0; len <= maxlen; len++) {
        memset(idx, 0, sizeof idx);
        for (;;) {
            for (int i = 0; i < len; i++)
                s[i] = alphabet[idx[i]];
            s[len] = '\0';
            check(s);
            int i = len - 1;
            while (i >= 0 && ++idx[i] == (int)na)
                idx[i--] = 0;
            if (i < 0)
                break;
        }
    }
}

static regex_t re_time, re_cap, re_reps, re_load, re_points;

static void compile_all(void)
{
    ck_assert_int_eq(regcomp(&re_time, "^([0-9]{1,2}):([0-9]{2})(:([0-9]{2}))?(\\.([0-9]{1,3}))?$",
                             REG_EXTENDED), 0);
    ck_assert_int_eq(regcomp(&re_cap, "^CAP\\+0*([0-9]{1,5})$", REG_EXTENDED), 0);
    ck_assert_int_eq(regcomp(&re_reps, "^0*[0-9]{1,9}$", REG_EXTENDED), 0);
    ck_assert_int_eq(regcomp(&re_load, "^0*([0-9]{1,5})(\\.([0-9]{1,2}))? ?(kg|lb)?$", REG_EXTENDED), 0);
    ck_assert_int_eq(regcomp(&re_points, "^(-?)0*([0-9]{1,5})(\\.([0-9]{1,3}))?$", REG_EXTENDED), 0);
}

static void free_all(void)
{
    regfree(&re_time);
    regfree(&re_cap);
    regfree(&re_reps);
    regfree(&re_load);
    regfree(&re_points);
}

static int64_t sub_int(const char *s, const regmatch_t *m)
{
    int64_t v = 0;
    for (regoff_t i = m->rm_so; i < m->rm_eo; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

/* fraction digits D (1..3 or none) scaled to SCALE digits */
static int64_t sub_frac(const char *s, const regmatch_t *m, int scale)
{
    if (m->rm_so < 0)
        return 0;
    int64_t v = sub_int(s, m);
    for (regoff_t n = m->rm_eo - m->rm_so; n < scale; n++)
        v *= 10;
    return v;
}

static int64_t cur_cap;

static void check_time(const char *s)
{
    regmatch_t m[7];
    rk_score out;
    const char *err;
    int want = -1;
    int64_t v = 0;
    rk_score_kind kind = RK_SCORE_VALUE;

    if (strcmp(s, "WD") == 0) {
        want = 0, kind = RK_SCORE_WD;
    } else if (regexec(&re_time, s, 7, m, 0) == 0) {
        int64_t a = sub_int(s, &m[1]), b = sub_int(s, &m[2]);
        int hours = m[3].rm_so >= 0;
        int64_t c = hours ? sub_int(s, &m[4]) : 0;
        if (b <= 59 && c <= 59) {
            v = (hours ? a * 3600 + b * 60 + c : a * 60 + b) * 1000 + sub_frac(s, &m[6], 3);
            want = cur_cap > 0 && v > cur_cap * 1000 ? -1 : 0;
        }
    } else if (cur_cap > 0 && regexec(&re_cap, s, 2, m, 0) == 0) {
        want = 0, kind = RK_SCORE_CAPPED, v = sub_int(s, &m[1]);
    }
    int rc = rk_score_parse(RK_SCORING_TIME, cur_cap, s, &out, &err);
    ck_assert_msg(rc == want, "time cap %lld '%s': %d, reference %d", (long long)cur_cap, s, rc, want);
    if (rc == 0)
        ck_assert_msg(out.kind == kind && out.v == v, "time '%s': kind %d v %lld, reference %d %lld",
                      s, out.kind, (long long)out.v, kind, (long long)v);
    /* the tiebreak: the same time grammar, no cap, no CAP+N, no WD */
    int tb_want = regexec(&re_time, s, 7, m, 0) == 0 && sub_int(s, &m[2]) <= 59
                  && (m[3].rm_so < 0 || sub_int(s, &m[4]) <= 59) ? 0 : -1;
    ck_assert_msg(rk_tiebreak_parse(s, &out, &err) == tb_want, "tiebreak '%s': want %d", s, tb_want);
}

static void check_reps(const char *s)
{
    rk_score out;
    const char *err;
    int want = strcmp(s, "WD") == 0 || regexec(&re_reps, s, 0, NULL, 0) == 0 ? 0 : -1;
    int rc = rk_score_parse(RK_SCORING_REPS, 0, s, &out, &err);
    ck_assert_msg(rc == want, "reps '%s': %d, reference %d", s, rc, want);
    if (rc == 0 && out.kind == RK_SCORE_VALUE)
        ck_assert(out.v == strtoll(s, NULL, 10));
}

static void check_load(const char *s)
{
    regmatch_t m[5];
    rk_score out;
    const char *err;
    int want = -1;
    int64_t v = 0;

    if (strcmp(s, "WD") == 0) {
        want = 0;
    } else if (regexec(&re_load, s, 5, m, 0) == 0) {
        int64_t h = sub_int(s, &m[1]) * 100 + sub_frac(s, &m[3], 2);
        int space = strchr(s, ' ') != NULL;
        int lb = m[4].rm_so >= 0 && s[m[4].rm_so] == 'l';
        if (h <= 9999900 && !(space && m[4].rm_so < 0)) {
            want = 0;
            v = lb ? h * 45359237 : h * 100000000;
        }
    }
    int rc = rk_score_parse(RK_SCORING_LOAD, 0, s, &out, &err);
    ck_assert_msg(rc == want, "load '%s': %d, reference %d", s, rc, want);
    if (rc == 0 && out.kind == RK_SCORE_VALUE)
        ck_assert_msg(out.v == v, "load '%s': %lld, reference %lld", s, (long long)out.v, (long long)v);
}

static void check_points(const char *s)
{
    regmatch_t m[5];
    rk_score out;
    const char *err;
    int want = -1;
    int64_t v = 0;

    if (strcmp(s, "WD") == 0) {
        want = 0;
    } else if (regexec(&re_points, s, 5, m, 0) == 0) {
        v = sub_int(s, &m[2]) * 1000 + sub_frac(s, &m[4], 3);
        if (v <= 99999000) {
            want = 0;
            if (m[1].rm_eo > m[1].rm_so)
                v = -v;
        }
    }
    int rc = rk_score_parse(RK_SCORING_POINTS, 0, s, &out, &err);
    ck_assert_msg(rc == want, "points '%s': %d, reference %d", s, rc, want);
    if (rc == 0 && out.kind == RK_SCORE_VALUE)
        ck_assert_msg(out.v == v, "points '%s': %lld, reference %lld", s, (long long)out.v, (long long)v);
}

START_TEST(test_enumerate_time)
{
    compile_all();
    static const int64_t caps[] = { 0, 61, 600 };
    for (size_t c = 0; c < 3; c++) {
        cur_cap = caps[c];
        enumerate("0169:.", 7, check_time);
    }
    cur_cap = 600;
    enumerate("CAP+0129", 6, check_time);
    enumerate("WD:0", 4, check_time);
    free_all();
}
END_TEST

START_TEST(test_enumerate_numbers)
{
    compile_all();
    enumerate("0159.-WD", 6, check_reps);
    enumerate("019. kglb", 6, check_load);
    enumerate("09.-", 8, check_points);
    enumerate("0159.-", 7, check_points);
    free_all();
}
END_TEST

/* Long inputs: leading zeros are fine at any length, significant digits are bounded. */
START_TEST(test_long_inputs)
{
    char s[4200];
    memset(s, '0', 4096);
    strcpy(s + 4096, "7");
    ck_assert(ok(R, 0, s).v == 7);
    ck_assert(ok(L, 0, s).v == 7 * KG);
    ck_assert(ok(P, 0, s).v == 7000);
    memset(s, '9', 4096);
    s[4096] = '\0';
    bad(R, 0, s);
    bad(L, 0, s);
    bad(P, 0, s);
    bad(T, 600, s);
    memcpy(s, "CAP+", 4);
    bad(T, 600, s);
    memset(s + 4, '0', 4000);
    strcpy(s + 4004, "5");
    ck_assert(ok(T, 600, s).v == 5);
}
END_TEST

/* ------------------------------------------------------------------ main */

static Suite *score_suite(void)
{
    Suite *s = suite_create("rk_score");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_scoring_parse);
    tcase_add_loop_test(tc, test_good, 0, (int)(sizeof good / sizeof good[0]));
    tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(tc, test_garbage_every_scoring);
    tcase_add_test(tc, test_messages);
    tcase_add_test(tc, test_long_inputs);
    suite_add_tcase(s, tc);

    tc = tcase_create("compare");
    tcase_add_loop_test(tc, test_equal_by_value, 0, (int)(sizeof sames / sizeof sames[0]));
    tcase_add_loop_test(tc, test_order, 0, (int)(sizeof orders / sizeof orders[0]));
    tcase_add_test(tc, test_load_units);
    tcase_add_test(tc, test_cap_rules);
    tcase_add_test(tc, test_cmp_kinds);
    suite_add_tcase(s, tc);

    tc = tcase_create("tiebreak");
    tcase_add_test(tc, test_tiebreak);
    suite_add_tcase(s, tc);

    tc = tcase_create("exhaustive");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_all_times);
    tcase_add_test(tc, test_enumerate_time);
    tcase_add_test(tc, test_enumerate_numbers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(score_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
