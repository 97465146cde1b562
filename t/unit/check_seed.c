/* check_seed.c: Check unit tests of rk_seed (heat generation, shared API.md Part 3
 * "Heat generation and cut lines"): the body parser, instants, the PRNG and the
 * shuffle (vectors computed outside C, with Python's integers), the center order, each
 * rule of the planner on hand-made leaderboards, the answer's exact bytes, the board
 * reader, and a property test over thousands of random leaderboards and requests. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "rk_seed.h"

#define MARK "XYZZY"   /* put into bad inputs: must never appear in an error message */

/* An assertion that tells Check nothing when it holds: every ck_assert writes a
 * record to the runner, and the loops below check millions of things. */
#define REQUIRE_OP(a, op, b) REQUIRE((a) op (b))
#define REQUIRE_eq(a, b) REQUIRE_OP(a, ==, b)
#define REQUIRE_ne(a, b) REQUIRE_OP(a, !=, b)
#define REQUIRE_lt(a, b) REQUIRE_OP(a, <, b)
#define REQUIRE_le(a, b) REQUIRE_OP(a, <=, b)
#define REQUIRE_gt(a, b) REQUIRE_OP(a, >, b)
#define REQUIRE_ge(a, b) REQUIRE_OP(a, >=, b)
#define REQUIRE(cond) do { if (!(cond)) ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond); } while (0)

static apr_pool_t *pool;

static void setup(void)
{
    apr_initialize();
    ck_assert_int_eq(apr_pool_create(&pool, NULL), APR_SUCCESS);
}

static void teardown(void)
{
    apr_pool_destroy(pool);
    apr_terminate();
}

/* ------------------------------------------------------------------ helpers */

/* printf into P (apr_psprintf knows no %lld nor %zu) */
static char *pf(apr_pool_t *p, const char *f, ...)
{
    va_list ap;
    int n;
    char *s;

    va_start(ap, f);
    n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    s = apr_palloc(p, (size_t)n + 1);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

#define NB (-1)   /* no bib / no rank */

static rk_seed_spot sp(const char *id, long long bib, long long rank)
{
    rk_seed_spot s;

    memset(&s, 0, sizeof(s));
    s.id = id;
    s.name = apr_pstrcat(pool, "team ", id, NULL);
    s.has_bib = bib != NB;
    s.bib = bib != NB ? bib : 0;
    s.has_rank = rank != NB;
    s.rank = rank != NB ? rank : 0;
    return s;
}

static rk_seed_request parse_ok(const char *body)
{
    rk_seed_request r;
    const char *err = NULL;
    int rv = rk_seed_parse(body, strlen(body), pool, &r, &err);

    ck_assert_msg(rv == 0, "refused %s: %s", body, err ? err : "(null)");
    return r;
}

/* the body refused, with a message starting "Invalid body" that does not echo it;
 * returns the message */
static const char *parse_bad_len(const char *body, size_t len)
{
    rk_seed_request r;
    const char *err = NULL;
    int rv;

    memset(&r, 0x5A, sizeof(r));
    rv = rk_seed_parse(body, len, pool, &r, &err);
    ck_assert_msg(rv == -1, "accepted %.*s", (int)len, body);
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(strncmp(err, "Invalid body", 12) == 0, "message %s", err);
    ck_assert_ptr_null(strstr(err, MARK));
    for (size_t i = 0; i < sizeof(r); i++) {
        ck_assert_int_eq(((unsigned char *)&r)[i], 0);
    }
    return err;
}

static const char *parse_bad(const char *body)
{
    return parse_bad_len(body, strlen(body));
}

/* a plan as text: "NUMBER DIVISION START lane=id,lane=id | ..." (in the fixture's pool) */
static char *plan_str(const rk_seed_plan *p)
{
    size_t cap = 64, len = 0;
    char *s = malloc(cap), *out;

    ck_assert_ptr_nonnull(s);
    s[0] = '\0';
#define APPEND(...) do { \
        int n_ = snprintf(s + len, cap - len, __VA_ARGS__); \
        ck_assert_int_ge(n_, 0); \
        if ((size_t)n_ >= cap - len) { \
            cap = 2 * (cap + (size_t)n_); \
            s = realloc(s, cap); \
            ck_assert_ptr_nonnull(s); \
            n_ = snprintf(s + len, cap - len, __VA_ARGS__); \
        } \
        len += (size_t)n_; \
    } while (0)
    for (size_t h = 0; h < p->nheats; h++) {
        const rk_seed_heat *heat = &p->heats[h];

        APPEND("%s%lld %s %s", h ? " | " : "", heat->number,
               heat->division ? heat->division : "-", heat->has_start ? heat->start_time : "-");
        for (size_t q = 0; q < heat->nlanes; q++) {
            APPEND("%c%lld=%s", q ? ',' : ' ', heat->lanes[q].number, heat->lanes[q].spot->id);
        }
    }
#undef APPEND
    out = apr_pstrdup(pool, s);
    free(s);
    return out;
}

/* the same heats, starts and lanes (spots compared by id) */
static int plan_eq(const rk_seed_plan *a, const rk_seed_plan *b)
{
    if (a->nheats != b->nheats || a->nlanes != b->nlanes) {
        return 0;
    }
    for (size_t h = 0; h < a->nheats; h++) {
        const rk_seed_heat *x = &a->heats[h], *y = &b->heats[h];

        if (x->number != y->number || x->has_start != y->has_start || x->start != y->start
            || strcmp(x->start_time, y->start_time) != 0 || x->nlanes != y->nlanes
            || (x->division == NULL) != (y->division == NULL)
            || (x->division && strcmp(x->division, y->division) != 0)) {
            return 0;
        }
        for (size_t q = 0; q < x->nlanes; q++) {
            if (x->lanes[q].number != y->lanes[q].number
                || strcmp(x->lanes[q].spot->id, y->lanes[q].spot->id) != 0) {
                return 0;
            }
        }
    }
    return 1;
}

static char *plan_of(const char *body, long long lane_count, long long first,
                     const rk_seed_division *d, size_t nd)
{
    rk_seed_request r = parse_ok(body);
    rk_seed_plan p;
    const char *err = NULL;
    int rv = rk_seed_plan_make(&r, lane_count, first, d, nd, pool, &p, &err);

    ck_assert_msg(rv == 0, "plan refused (%d): %s", rv, err ? err : "(null)");
    return plan_str(&p);
}

static const char *plan_err(const char *body, long long lane_count, long long first,
                            const rk_seed_division *d, size_t nd, int want)
{
    rk_seed_request r = parse_ok(body);
    rk_seed_plan p;
    const char *err = NULL;
    int rv = rk_seed_plan_make(&r, lane_count, first, d, nd, pool, &p, &err);

    ck_assert_int_eq(rv, want);
    ck_assert_ptr_nonnull(err);
    return err;
}

/* ------------------------------------------------------------------ the body */

START_TEST(test_parse_defaults)
{
    rk_seed_request r = parse_ok("{\"zone_id\":\"2\"}");

    ck_assert_str_eq(r.zone_id, "2");
    ck_assert_int_eq(r.lanes, 0);
    ck_assert_int_eq(r.order, RK_SEED_ORDER_RANKING);
    ck_assert_int_eq(r.lane_order, RK_SEED_LANES_ASCENDING);
    ck_assert_int_eq(r.all_divisions, 1);
    ck_assert_int_eq(r.ndivisions, 0);
    ck_assert_int_eq(r.top, 0);
    ck_assert_int_eq(r.has_start, 0);
    ck_assert_int_eq(r.interval, 0);
    ck_assert_int_eq(r.replace, 0);
    ck_assert_int_eq(r.dry_run, 0);
    ck_assert_int_eq(r.seed, 0);
}
END_TEST

START_TEST(test_parse_full)
{
    rk_seed_request r = parse_ok(
        " {\"zone_id\":\"123456789012345678\",\"lanes\":8,\"order\":\"random\","
        "\"lane_order\":\"center\",\"divisions\":[\"Scaled\",null,\"RX \\u00e9\"],\"top\":10,"
        "\"start_time\":\"2026-11-21T09:30:00Z\",\"interval\":86400,\"replace\":true,"
        "\"dry_run\":true,\"seed\":2147483647}\n\t ");

    ck_assert_str_eq(r.zone_id, "123456789012345678");
    ck_assert_int_eq(r.lanes, 8);
    ck_assert_int_eq(r.order, RK_SEED_ORDER_RANDOM);
    ck_assert_int_eq(r.lane_order, RK_SEED_LANES_CENTER);
    ck_assert_int_eq(r.all_divisions, 0);
    ck_assert_int_eq(r.ndivisions, 3);
    ck_assert_str_eq(r.divisions[0], "Scaled");
    ck_assert_ptr_null(r.divisions[1]);
    ck_assert_str_eq(r.divisions[2], "RX \xc3\xa9");
    ck_assert_int_eq(r.top, 10);
    ck_assert_int_eq(r.has_start, 1);
    ck_assert_int_eq(r.start, 1795253400LL);
    ck_assert_int_eq(r.interval, 86400);
    ck_assert_int_eq(r.replace, 1);
    ck_assert_int_eq(r.dry_run, 1);
    ck_assert_int_eq(r.seed, 2147483647LL);

    r = parse_ok("{\"order\":\"bib\",\"zone_id\":\"1\",\"lane_order\":\"ascending\","
                 "\"divisions\":null,\"top\":null,\"start_time\":null,\"interval\":0,"
                 "\"replace\":false,\"dry_run\":false,\"seed\":0,\"lanes\":1}");
    ck_assert_int_eq(r.order, RK_SEED_ORDER_BIB);
    ck_assert_int_eq(r.lane_order, RK_SEED_LANES_ASCENDING);
    ck_assert_int_eq(r.all_divisions, 1);
    ck_assert_int_eq(r.top, 0);
    ck_assert_int_eq(r.has_start, 0);
    ck_assert_int_eq(r.lanes, 1);
    r = parse_ok("{\"zone_id\":\"1\",\"order\":\"ranking\",\"divisions\":[null]}");
    ck_assert_int_eq(r.order, RK_SEED_ORDER_RANKING);
    ck_assert_int_eq(r.ndivisions, 1);
    ck_assert_ptr_null(r.divisions[0]);
    /* the empty string is a division name like another */
    r = parse_ok("{\"zone_id\":\"1\",\"divisions\":[\"\",null]}");
    ck_assert_str_eq(r.divisions[0], "");
}
END_TEST

START_TEST(test_parse_syntax)
{
    ck_assert_str_eq(parse_bad(""), "Invalid body: empty");
    ck_assert_str_eq(parse_bad("{"), "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\"} x"), "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\"}{}"), "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("[\"zone_id\"]"), "Invalid body: not a JSON object");
    ck_assert_str_eq(parse_bad("\"" MARK "\""), "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"zone_id\":\"2\"}"),
                     "Invalid body: duplicate key");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"seed\":1,\"seed\":1}"),
                     "Invalid body: duplicate key");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"" MARK "\":1}"), "Invalid body: unknown key");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"wod_id\":\"3\"}"), "Invalid body: unknown key");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"Lanes\":3}"), "Invalid body: unknown key");
    ck_assert_str_eq(parse_bad("{}"), "Invalid body: zone_id is required");
    ck_assert_str_eq(parse_bad("{\"lanes\":3}"), "Invalid body: zone_id is required");
    /* invalid UTF-8, in a key and in a value; \u0000; a lone surrogate */
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"divisions\":[\"\xff" MARK "\"]}"),
                     "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("{\"zone\xc3\":\"1\"}"), "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"divisions\":[\"a\\u0000b\"]}"),
                     "Invalid body: not valid JSON");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"divisions\":[\"\\ud800\"]}"),
                     "Invalid body: not valid JSON");
    /* nothing is read past LEN: the body cut before its closing brace */
    {
        const char *b = "{\"zone_id\":\"1\"}";

        parse_bad_len(b, strlen(b) - 1);
        ck_assert_int_eq(rk_seed_parse(b, strlen(b), pool, &(rk_seed_request){0},
                                       &(const char *){NULL}), 0);
    }
}
END_TEST

START_TEST(test_parse_values)
{
    /* zone_id: an id string; integers are refused as for every id of the API */
    const char *zone_msg = "Invalid body: zone_id must be an id string, e.g. \"2\"";
    const char *bad_zones[] = { "2", "\"0\"", "\"01\"", "\"-1\"", "\"+1\"", "\"1.0\"", "\"\"",
                                "\"1234567890123456789\"", "null", "true", "[\"1\"]",
                                "\"" MARK "\"", "\"1 \"", "2.0" };
    for (size_t i = 0; i < sizeof(bad_zones) / sizeof(bad_zones[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":%s}", bad_zones[i])), zone_msg);
    }
    /* lanes */
    const char *lanes_msg = "Invalid body: lanes is 1 to the zone's lane_count";
    const char *bad_lanes[] = { "0", "-1", "1.0", "1.5", "\"3\"", "null", "true", "[3]" };
    for (size_t i = 0; i < sizeof(bad_lanes) / sizeof(bad_lanes[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"lanes\":%s}",
                                                bad_lanes[i])), lanes_msg);
    }
    ck_assert_int_eq(parse_ok("{\"zone_id\":\"1\",\"lanes\":1000000}").lanes, 1000000);
    /* order, lane_order */
    const char *bad_orders[] = { "\"Ranking\"", "\"rank\"", "\"\"", "null", "1", "[\"bib\"]",
                                 "\"random \"" };
    for (size_t i = 0; i < sizeof(bad_orders) / sizeof(bad_orders[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"order\":%s}",
                                                bad_orders[i])),
                         "Invalid body: order is ranking, bib or random");
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"lane_order\":%s}",
                                                bad_orders[i])),
                         "Invalid body: lane_order is ascending or center");
    }
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"lane_order\":\"centre\"}"),
                     "Invalid body: lane_order is ascending or center");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"order\":\"center\"}"),
                     "Invalid body: order is ranking, bib or random");
    /* divisions */
    const char *div_msg = "Invalid body: divisions is null or a non-empty array of division "
                          "names (null for spots without division)";
    const char *bad_divs[] = { "[]", "\"RX\"", "{}", "[1]", "[[\"RX\"]]", "[\"RX\",true]",
                               "[{\"RX\":1}]", "0" };
    for (size_t i = 0; i < sizeof(bad_divs) / sizeof(bad_divs[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"divisions\":%s}",
                                                bad_divs[i])), div_msg);
    }
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"divisions\":[\"RX\",\"Scaled\",\"RX\"]}"),
                     "Invalid body: divisions names a division twice");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"divisions\":[null,\"RX\",null]}"),
                     "Invalid body: divisions names a division twice");
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"divisions\":[\"\",\"\"]}"),
                     "Invalid body: divisions names a division twice");
    /* "RX" and "RX " and "rx" are three names */
    ck_assert_int_eq(parse_ok("{\"zone_id\":\"1\",\"divisions\":[\"RX\",\"RX \",\"rx\"]}")
                     .ndivisions, 3);
    /* top */
    const char *bad_tops[] = { "0", "-3", "2.5", "10.0", "\"10\"", "true", "[1]" };
    for (size_t i = 0; i < sizeof(bad_tops) / sizeof(bad_tops[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"top\":%s}",
                                                bad_tops[i])),
                         "Invalid body: top is an integer of at least 1, or null");
    }
    ck_assert_int_eq(parse_ok("{\"zone_id\":\"1\",\"top\":1}").top, 1);
    /* interval */
    const char *bad_iv[] = { "-1", "86401", "1.0", "\"600\"", "null", "false" };
    for (size_t i = 0; i < sizeof(bad_iv) / sizeof(bad_iv[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"interval\":%s}",
                                                bad_iv[i])),
                         "Invalid body: interval is seconds, 0 to 86400");
    }
    ck_assert_int_eq(parse_ok("{\"zone_id\":\"1\",\"interval\":600}").interval, 600);
    /* seed */
    const char *bad_seeds[] = { "-1", "2147483648", "9223372036854775807", "1.0", "\"1\"", "null" };
    for (size_t i = 0; i < sizeof(bad_seeds) / sizeof(bad_seeds[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"seed\":%s}",
                                                bad_seeds[i])),
                         "Invalid body: seed is an integer, 0 to 2147483647");
    }
    /* booleans */
    const char *bad_bools[] = { "0", "1", "\"true\"", "null", "[]" };
    for (size_t i = 0; i < sizeof(bad_bools) / sizeof(bad_bools[0]); i++) {
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"replace\":%s}",
                                                bad_bools[i])),
                         "Invalid body: replace is true or false");
        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"dry_run\":%s}",
                                                bad_bools[i])),
                         "Invalid body: dry_run is true or false");
    }
    /* beyond the integers jansson reads: not JSON it can take */
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"lanes\":99999999999999999999999}"),
                     "Invalid body: not valid JSON");
}
END_TEST

START_TEST(test_parse_start_time)
{
    const char *msg = "Invalid body: start_time is UTC, e.g. 2026-11-21T09:30:00Z, or null";
    const char *bad[] = {
        "2026-11-21T09:30:00", "2026-11-21t09:30:00Z", "2026-11-21T09:30:00z",
        "2026-11-21 09:30:00Z", "2026-11-21T09:30:00+00:00", "2026-11-21T09:30:00.0Z",
        "2026-11-21T09:30Z", "2026-11-21", "26-11-21T09:30:00Z", "+2026-11-21T09:30:00Z",
        "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-11-00T00:00:00Z",
        "2026-11-31T00:00:00Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
        "2026-11-21T24:00:00Z", "2026-11-21T23:60:00Z", "2026-11-21T23:59:60Z",
        "0000-01-01T00:00:00Z", "2026-1-21T09:30:00Z", "2026-11-21T9:30:00Z",
        " 2026-11-21T09:30:00Z", "2026-11-21T09:30:00Z ", "", MARK, "2026-11-21T09:3a:00Z",
        "2026\xef\xbc\x8d" "11-21T09:30:00Z",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        long long t;

        ck_assert_str_eq(parse_bad(pf(pool, "{\"zone_id\":\"1\",\"start_time\":\"%s\"}",
                                                bad[i])), msg);
        ck_assert_int_eq(rk_seed_parse_time(bad[i], strlen(bad[i]), &t), -1);
    }
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"start_time\":1795253400}"), msg);
    ck_assert_str_eq(parse_bad("{\"zone_id\":\"1\",\"start_time\":[\"2026-11-21T09:30:00Z\"]}"), msg);

    /* instants both ways (values from Python's calendar.timegm) */
    static const struct { const char *s; long long t; } ok[] = {
        { "1970-01-01T00:00:00Z", 0 }, { "2026-11-21T09:30:00Z", 1795253400LL },
        { "2000-02-29T23:59:59Z", 951868799LL }, { "1969-12-31T23:59:59Z", -1 },
        { "0001-01-01T00:00:00Z", -62135596800LL }, { "9999-12-31T23:59:59Z", 253402300799LL },
        { "2024-02-29T12:00:00Z", 1709208000LL }, { "1600-03-01T00:00:00Z", -11670912000LL },
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        long long t = 42;
        char out[21];

        ck_assert_int_eq(rk_seed_parse_time(ok[i].s, strlen(ok[i].s), &t), 0);
        ck_assert_int_eq(t, ok[i].t);
        ck_assert_int_eq(rk_seed_format_time(ok[i].t, out), 0);
        ck_assert_str_eq(out, ok[i].s);
        rk_seed_request r = parse_ok(pf(pool, "{\"zone_id\":\"1\",\"start_time\":\"%s\"}",
                                                  ok[i].s));
        ck_assert_int_eq(r.has_start, 1);
        ck_assert_int_eq(r.start, ok[i].t);
    }
    /* format and parse agree every 9,999,991 s over the whole range */
    for (long long t = -62135596800LL; t <= 253402300799LL; t += 9999991) {
        char out[21];
        long long back;

        REQUIRE_eq(rk_seed_format_time(t, out), 0);
        REQUIRE_eq(rk_seed_parse_time(out, 20, &back), 0);
        REQUIRE_eq(back, t);
    }
    {
        char out[21];

        ck_assert_int_eq(rk_seed_format_time(253402300800LL, out), -1);
        ck_assert_int_eq(rk_seed_format_time(-62135596801LL, out), -1);
    }
}
END_TEST

START_TEST(test_check_lanes)
{
    const char *err = NULL;
    rk_seed_request r = parse_ok("{\"zone_id\":\"1\"}");

    ck_assert_int_eq(rk_seed_check_lanes(&r, 1, &err), 0);
    r = parse_ok("{\"zone_id\":\"1\",\"lanes\":10}");
    ck_assert_int_eq(rk_seed_check_lanes(&r, 10, &err), 0);
    ck_assert_int_eq(rk_seed_check_lanes(&r, 999, &err), 0);
    ck_assert_int_eq(rk_seed_check_lanes(&r, 9, &err), -1);
    ck_assert_str_eq(err, "Invalid body: lanes is 1 to the zone's lane_count");
}
END_TEST

/* ------------------------------------------------------------------ PRNG, center */

START_TEST(test_prng_vectors)
{
    /* RK_SEED_PRNG's first outputs, computed with Python's integers from rk_seed.h's
     * description */
    static const struct { long long seed; unsigned long long v[3]; } vec[] = {
        { 0, { 0x353cfc387dfae6b8ULL, 0xa32edabf5585bd75ULL, 0xfc5639b16b714b4fULL } },
        { 1, { 0x2e1a3a15d64ccc9dULL, 0x0a31df5c53c8d244ULL, 0xf2a7e7a9a6d352e0ULL } },
        { 2147483647, { 0xf929e7d35dd17b0dULL, 0x92bb6bdad523babbULL, 0x9c070f7c392c330eULL } },
    };
    for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
        unsigned long long st = rk_seed_prng_init(vec[i].seed);

        for (int k = 0; k < 3; k++) {
            ck_assert_msg(rk_seed_prng_next(&st) == vec[i].v[k], "seed %lld output %d",
                          vec[i].seed, k);
        }
    }
}
END_TEST

START_TEST(test_center_order)
{
    static const char *const want[] = {
        "1", "1 2", "2 1 3", "2 3 1 4", "3 2 4 1 5", "3 4 2 5 1 6", "4 3 5 2 6 1 7",
        "4 5 3 6 2 7 1 8", "5 4 6 3 7 2 8 1 9", "5 6 4 7 3 8 2 9 1 10",
        "6 5 7 4 8 3 9 2 10 1 11", "6 7 5 8 4 9 3 10 2 11 1 12",
    };
    long long out[999];

    for (long long n = 1; n <= 12; n++) {
        char *s = "";

        rk_seed_center_order(n, out);
        for (long long k = 0; k < n; k++) {
            s = pf(pool, "%s%s%lld", s, k ? " " : "", out[k]);
        }
        ck_assert_str_eq(s, want[n - 1]);
    }
    /* every count: a permutation of 1..n, by distance from (n+1)/2 then number */
    for (long long n = 1; n <= 999; n++) {
        char seen[1000] = { 0 };

        rk_seed_center_order(n, out);
        for (long long k = 0; k < n; k++) {
            REQUIRE(out[k] >= 1 && out[k] <= n && !seen[out[k]]);
            seen[out[k]] = 1;
            if (k) {
                long long d0 = llabs(2 * out[k - 1] - (n + 1)), d1 = llabs(2 * out[k] - (n + 1));

                REQUIRE(d0 < d1 || (d0 == d1 && out[k - 1] < out[k]));
            }
        }
    }
}
END_TEST

/* ------------------------------------------------------------------ the rules */

/* 23 spots ranked 1..23 (ids 101..123, bib = rank) */
static rk_seed_division div23(const char *name)
{
    rk_seed_spot *s = apr_palloc(pool, 23 * sizeof(*s));

    for (int i = 0; i < 23; i++) {
        s[i] = sp(pf(pool, "%d", 101 + i), i + 1, i + 1);
    }
    return (rk_seed_division){ name, s, 23 };
}

START_TEST(test_sizes_23_on_10)
{
    rk_seed_division d = div23("RX");
    rk_seed_request r = parse_ok("{\"zone_id\":\"1\"}");
    rk_seed_plan p;
    const char *err;

    ck_assert_int_eq(rk_seed_plan_make(&r, 10, 1, &d, 1, pool, &p, &err), 0);
    ck_assert_int_eq(p.nheats, 3);
    ck_assert_int_eq(p.heats[0].nlanes, 7);
    ck_assert_int_eq(p.heats[1].nlanes, 8);
    ck_assert_int_eq(p.heats[2].nlanes, 8);
    ck_assert_int_eq(p.nlanes, 23);
    /* the weakest first; the leader last, in lane 1 */
    ck_assert_str_eq(plan_str(&p),
        "1 RX - 1=117,2=118,3=119,4=120,5=121,6=122,7=123"
        " | 2 RX - 1=109,2=110,3=111,4=112,5=113,6=114,7=115,8=116"
        " | 3 RX - 1=101,2=102,3=103,4=104,5=105,6=106,7=107,8=108");
    /* other splits: 20 on 10 (10, 10), 21 on 10 (7, 7, 7), 11 on 10 (5, 6), 1 on 10 */
    static const struct { size_t n; long long lanes; const char *sizes; } t[] = {
        { 20, 10, "10 10" }, { 21, 10, "7 7 7" }, { 11, 10, "5 6" }, { 1, 10, "1" },
        { 23, 1, "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1" }, { 23, 4, "3 4 4 4 4 4" },
        { 23, 23, "23" }, { 9, 4, "3 3 3" }, { 10, 4, "3 3 4" },
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        rk_seed_division dd = d;
        char *s = "";

        dd.nspots = t[i].n;
        r = parse_ok(pf(pool, "{\"zone_id\":\"1\",\"lanes\":%lld}", t[i].lanes));
        ck_assert_int_eq(rk_seed_plan_make(&r, 23, 1, &dd, 1, pool, &p, &err), 0);
        for (size_t h = 0; h < p.nheats; h++) {
            s = pf(pool, "%s%s%zu", s, h ? " " : "", p.heats[h].nlanes);
        }
        ck_assert_str_eq(s, t[i].sizes);
    }
}
END_TEST

START_TEST(test_order_ranking)
{
    /* the leaderboard order: rank, then bib (null after), then id (numeric); given
     * shuffled, since the planner sorts */
    rk_seed_spot s[] = {
        sp("30", 5, 2), sp("9", NB, 2), sp("10", NB, 2), sp("4", 7, 1), sp("5", 3, 2),
        sp("6", NB, 6), sp("77", 1, 6),
    };
    rk_seed_division d = { "RX", s, 7 };

    /* board: 4 (1) | 5 (2, bib 3), 30 (2, bib 5), 9 (2, -), 10 (2, -) | 77 (6, bib 1), 6;
     * seeding: the reverse: 6, 77, 10, 9, 30, 5, 4 */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\"}", 7, 1, &d, 1),
                     "1 RX - 1=4,2=5,3=30,4=9,5=10,6=77,7=6");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":3}", 7, 1, &d, 1),
                     "1 RX - 1=77,2=6 | 2 RX - 1=9,2=10 | 3 RX - 1=4,2=5,3=30");
    /* a spot without rank (defensive) comes after the ranked ones on the board, so
     * first in the seeding */
    rk_seed_spot s2[] = { sp("1", 1, 1), sp("2", 2, NB), sp("3", 3, 2) };
    rk_seed_division d2 = { NULL, s2, 3 };
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":1}", 3, 1, &d2, 1),
                     "1 - - 1=2 | 2 - - 1=3 | 3 - - 1=1");
}
END_TEST

START_TEST(test_order_bib)
{
    rk_seed_spot s[] = {
        sp("30", 5, 1), sp("9", NB, 2), sp("10", NB, 3), sp("4", 7, 4), sp("5", 3, 5),
        sp("100", 2, 6),
    };
    rk_seed_division d = { "RX", s, 6 };

    /* seeding: bib 2 (100), 3 (5), 5 (30), 7 (4), none: 9, 10; the last is the best
     * seeded, so lane 1 goes to 10 */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"order\":\"bib\"}", 6, 1, &d, 1),
                     "1 RX - 1=10,2=9,3=4,4=30,5=5,6=100");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"order\":\"bib\",\"lanes\":2}", 6, 1, &d, 1),
                     "1 RX - 1=5,2=100 | 2 RX - 1=4,2=30 | 3 RX - 1=10,2=9");
}
END_TEST

START_TEST(test_order_random)
{
    /* vectors from Python (rk_seed.h's algorithm): ids 1..10 sorted numerically, then
     * shuffled: seed 0 -> 6 2 10 5 7 4 3 8 9 1; seed 42 -> 2 6 9 3 8 10 7 1 4 5 */
    rk_seed_spot s[10];
    for (int i = 0; i < 10; i++) {
        s[i] = sp(pf(pool, "%d", i + 1), i + 1, i + 1);
    }
    rk_seed_division d = { "RX", s, 10 };

    /* one heat of 10: the best seeded (the last: 1) in lane 1, ... */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"order\":\"random\"}", 10, 1, &d, 1),
                     "1 RX - 1=1,2=9,3=8,4=3,5=4,6=7,7=5,8=10,9=2,10=6");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"order\":\"random\",\"seed\":42}", 10, 1, &d, 1),
                     "1 RX - 1=5,2=4,3=1,4=7,5=10,6=8,7=3,8=9,9=6,10=2");
    /* a set given in another order, with other ranks and bibs: the same draw */
    rk_seed_spot t[10];
    for (int i = 0; i < 10; i++) {
        t[i] = sp(s[9 - i].id, 100 - i, (i % 3) + 1);
    }
    rk_seed_division dt = { "RX", t, 10 };
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"order\":\"random\",\"seed\":42}", 10, 1, &dt, 1),
                     "1 RX - 1=5,2=4,3=1,4=7,5=10,6=8,7=3,8=9,9=6,10=2");
    /* ids sorted numerically, not as text: 3, 4, 10, 25 with seed 7 -> 10 3 25 4 */
    rk_seed_spot u[] = { sp("25", NB, 1), sp("3", NB, 2), sp("10", NB, 3), sp("4", NB, 4) };
    rk_seed_division du = { "RX", u, 4 };
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"order\":\"random\",\"seed\":7}", 4, 1, &du, 1),
                     "1 RX - 1=4,2=25,3=3,4=10");
    /* the same request twice: the same draw; the draw changes with the seed (of 200
     * seeds, nearly every one gives its own permutation of 10) */
    {
        char *seen[200];
        int distinct = 0;

        for (int k = 0; k < 200; k++) {
            const char *body = pf(pool, "{\"zone_id\":\"1\",\"order\":\"random\","
                                            "\"seed\":%d}", k * 7919);
            int dup = 0;

            seen[k] = plan_of(body, 10, 1, &d, 1);
            ck_assert_str_eq(plan_of(body, 10, 1, &d, 1), seen[k]);
            for (int j = 0; j < k; j++) {
                dup |= strcmp(seen[j], seen[k]) == 0;
            }
            distinct += !dup;
        }
        ck_assert_int_ge(distinct, 195);
    }
    /* each division its own draw from the seed: a division alone or with another
     * draws the same */
    {
        /* Scaled: 30, 40, 100, 250 with seed 42 -> 40 100 250 30 (Python) */
        rk_seed_spot w[] = { sp("250", NB, 1), sp("30", NB, 2), sp("100", NB, 3), sp("40", 1, 1) };
        rk_seed_division two[2] = { d, { "Scaled", w, 4 } };
        const char *body = "{\"zone_id\":\"1\",\"order\":\"random\",\"seed\":42}";

        ck_assert_str_eq(plan_of(body, 10, 1, two, 2),
                         "1 RX - 1=5,2=4,3=1,4=7,5=10,6=8,7=3,8=9,9=6,10=2 | "
                         "2 Scaled - 1=30,2=250,3=100,4=40");
    }
}
END_TEST

START_TEST(test_top)
{
    /* ranks 1, 2, 3, 3, 5, 6: top 3 keeps the four (the tie at the line goes
     * through); top 4 the same four; top 5 five */
    rk_seed_spot s[] = { sp("1", 1, 1), sp("2", 2, 2), sp("3", 3, 3), sp("4", 4, 3),
                         sp("5", 5, 5), sp("6", 6, 6) };
    rk_seed_division d = { "RX", s, 6 };

    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":3}", 10, 1, &d, 1),
                     "1 RX - 1=1,2=2,3=3,4=4");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":4}", 10, 1, &d, 1),
                     "1 RX - 1=1,2=2,3=3,4=4");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":5}", 10, 1, &d, 1),
                     "1 RX - 1=1,2=2,3=3,4=4,5=5");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":1}", 10, 1, &d, 1), "1 RX - 1=1");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":1000}", 10, 1, &d, 1),
                     "1 RX - 1=1,2=2,3=3,4=4,5=5,6=6");
    /* top per division, then the order of the request (bib) */
    rk_seed_spot t[] = { sp("7", 9, 1), sp("8", 1, 2), sp("9", 5, 2), sp("10", 2, 4) };
    rk_seed_division two[2] = { d, { "Scaled", t, 4 } };
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":2,\"order\":\"bib\"}", 10, 1, two, 2),
                     "1 RX - 1=2,2=1 | 2 Scaled - 1=7,2=9,3=8");
    /* a spot without rank (defensive) never passes a cut; a division with no spot
     * left makes no heat */
    rk_seed_spot u[] = { sp("11", 1, NB), sp("12", 2, NB) };
    rk_seed_division three[3] = { d, { "Masters", u, 2 }, { "Scaled", t, 4 } };
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"top\":1}", 10, 1, three, 3),
                     "1 RX - 1=1 | 2 Scaled - 1=7");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"divisions\":[\"Masters\"],\"top\":1}", 10, 1,
                             three, 3), "");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"divisions\":[\"Masters\"]}", 10, 1,
                             three, 3), "1 Masters - 1=11,2=12");
}
END_TEST

START_TEST(test_divisions)
{
    rk_seed_spot a[] = { sp("1", 1, 1), sp("2", 2, 2) };
    rk_seed_spot b[] = { sp("3", 3, 1) };
    rk_seed_spot c[] = { sp("4", 4, 1), sp("5", 5, 2), sp("6", 6, 3) };
    rk_seed_spot e[] = { sp("7", NB, 1) };
    /* given out of order: the default blocks are by name (strcmp: "RX" < "Scaled" <
     * "rx"), the null division last */
    rk_seed_division d[4] = { { NULL, e, 1 }, { "Scaled", b, 1 }, { "rx", c, 3 }, { "RX", a, 2 } };

    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":2}", 3, 1, d, 4),
                     "1 RX - 1=1,2=2 | 2 Scaled - 1=3 | 3 rx - 1=6 | 4 rx - 1=4,2=5 | 5 - - 1=7");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":2,\"divisions\":[null,\"rx\"]}", 3, 1, d, 4),
                     "1 - - 1=7 | 2 rx - 1=6 | 3 rx - 1=4,2=5");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"divisions\":[\"Scaled\",\"RX\"]}", 3, 1, d, 4),
                     "1 Scaled - 1=3 | 2 RX - 1=1,2=2");
    /* a name no spot has: refused */
    ck_assert_str_eq(plan_err("{\"zone_id\":\"1\",\"divisions\":[\"RX\",\"Masters\"]}", 3, 1, d, 4,
                              RK_SEED_REFUSED),
                     "Invalid body: divisions names a division that no spot has");
    ck_assert_str_eq(plan_err("{\"zone_id\":\"1\",\"divisions\":[null]}", 3, 1, d + 1, 3,
                              RK_SEED_REFUSED),
                     "Invalid body: divisions names a division that no spot has");
    ck_assert_str_eq(plan_err("{\"zone_id\":\"1\",\"divisions\":[\"Rx\"]}", 3, 1, d, 4,
                              RK_SEED_REFUSED),
                     "Invalid body: divisions names a division that no spot has");
    /* no division at all: no heat */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\"}", 3, 1, NULL, 0), "");
    /* a division listed twice by the glue: its error */
    rk_seed_division twice[2] = { { "RX", a, 2 }, { "RX", b, 1 } };
    plan_err("{\"zone_id\":\"1\"}", 3, 1, twice, 2, RK_SEED_INTERNAL);
    rk_seed_division nulls[2] = { { NULL, a, 2 }, { NULL, b, 1 } };
    plan_err("{\"zone_id\":\"1\"}", 3, 1, nulls, 2, RK_SEED_INTERNAL);
    /* a spot in two divisions, or twice in one; a bad spot id */
    rk_seed_spot dup[] = { sp("1", 1, 1), sp("1", 1, 2) };
    rk_seed_division dd[1] = { { "RX", dup, 2 } };
    plan_err("{\"zone_id\":\"1\"}", 3, 1, dd, 1, RK_SEED_INTERNAL);
    rk_seed_division cross[2] = { { "RX", a, 2 }, { "Scaled", a, 1 } };
    plan_err("{\"zone_id\":\"1\"}", 3, 1, cross, 2, RK_SEED_INTERNAL);
    rk_seed_spot badid[] = { sp("01", 1, 1) };
    rk_seed_division db[1] = { { "RX", badid, 1 } };
    plan_err("{\"zone_id\":\"1\"}", 3, 1, db, 1, RK_SEED_INTERNAL);
}
END_TEST

START_TEST(test_lane_orders)
{
    rk_seed_division d = div23(NULL);
    /* center on the zone's 10 lanes: 5, 6, 4, 7, 3, 8, 2, 9, 1, 10 by seeding, best
     * first; lanes listed by number */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lane_order\":\"center\",\"top\":10}", 10, 1, &d, 1),
                     "1 - - 1=109,2=107,3=105,4=103,5=101,6=102,7=104,8=106,9=108,10=110");
    /* fewer spots than lanes: the middle lanes */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lane_order\":\"center\",\"top\":3}", 10, 1, &d, 1),
                     "1 - - 4=103,5=101,6=102");
    /* `lanes` below the zone's lane_count: the center is still the zone's
     * ((10 + 1) / 2), not that of `lanes` */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lane_order\":\"center\",\"lanes\":4,\"top\":4}",
                             10, 1, &d, 1),
                     "1 - - 4=103,5=101,6=102,7=104");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lane_order\":\"center\",\"lanes\":4,\"top\":4}",
                             9, 1, &d, 1),
                     "1 - - 3=104,4=102,5=101,6=103");
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":4,\"top\":4}", 9, 1, &d, 1),
                     "1 - - 1=101,2=102,3=103,4=104");
    /* 7 of 8 in the first heat on 8 center lanes (23 on 8: 7, 8, 8) */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lane_order\":\"center\"}", 8, 1, &d, 1),
                     "1 - - 1=123,2=121,3=119,4=117,5=118,6=120,7=122"
                     " | 2 - - 1=115,2=113,3=111,4=109,5=110,6=112,7=114,8=116"
                     " | 3 - - 1=107,2=105,3=103,4=101,5=102,6=104,7=106,8=108");
    /* lanes above lane_count: refused */
    ck_assert_str_eq(plan_err("{\"zone_id\":\"1\",\"lanes\":11}", 10, 1, &d, 1, RK_SEED_REFUSED),
                     "Invalid body: lanes is 1 to the zone's lane_count");
    plan_err("{\"zone_id\":\"1\"}", 0, 1, &d, 1, RK_SEED_INTERNAL);
    plan_err("{\"zone_id\":\"1\"}", 1000, 1, &d, 1, RK_SEED_INTERNAL);
}
END_TEST

START_TEST(test_numbers_times)
{
    rk_seed_spot a[] = { sp("1", 1, 1), sp("2", 2, 2), sp("3", 3, 3) };
    rk_seed_spot b[] = { sp("4", 4, 1) };
    rk_seed_division d[2] = { { "A", a, 3 }, { "B", b, 1 } };

    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":2,\"start_time\":\"2026-11-21T23:50:00Z\","
                             "\"interval\":600}", 2, 7, d, 2),
                     "7 A 2026-11-21T23:50:00Z 1=3 | 8 A 2026-11-22T00:00:00Z 1=1,2=2"
                     " | 9 B 2026-11-22T00:10:00Z 1=4");
    /* interval 0: every heat at the same time */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":2,\"start_time\":\"2026-11-21T23:50:00Z\"}",
                             2, 1, d, 2),
                     "1 A 2026-11-21T23:50:00Z 1=3 | 2 A 2026-11-21T23:50:00Z 1=1,2=2"
                     " | 3 B 2026-11-21T23:50:00Z 1=4");
    /* an interval without start_time: no start */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":2,\"interval\":60}", 2, 1, d, 2),
                     "1 A - 1=3 | 2 A - 1=1,2=2 | 3 B - 1=4");
    /* the last start at the end of the year 9999: accepted; one second later: refused */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"lanes\":2,\"start_time\":\"9999-12-31T23:59:39Z\","
                             "\"interval\":10}", 2, 1, d, 2),
                     "1 A 9999-12-31T23:59:39Z 1=3 | 2 A 9999-12-31T23:59:49Z 1=1,2=2"
                     " | 3 B 9999-12-31T23:59:59Z 1=4");
    ck_assert_str_eq(plan_err("{\"zone_id\":\"1\",\"lanes\":2,\"start_time\":\"9999-12-31T23:59:40Z\","
                              "\"interval\":10}", 2, 1, d, 2, RK_SEED_REFUSED),
                     "Invalid body: start_time + interval goes past the year 9999");
    /* no heat: no time to check */
    ck_assert_str_eq(plan_of("{\"zone_id\":\"1\",\"start_time\":\"9999-12-31T23:59:59Z\","
                             "\"interval\":86400}", 2, 1, NULL, 0), "");
    /* the first number: at least 1 */
    plan_err("{\"zone_id\":\"1\"}", 2, 0, d, 2, RK_SEED_INTERNAL);
}
END_TEST

/* ------------------------------------------------------------------ the answer */

START_TEST(test_json)
{
    rk_seed_spot a[] = { sp("1", 1, 1), sp("22", 2, 2), sp("3", 3, 3) };
    rk_seed_division d = { "RX", a, 3 };
    rk_seed_request r = parse_ok("{\"zone_id\":\"5\",\"lanes\":2,\"start_time\":\"2026-11-21T09:30:00Z\","
                                 "\"interval\":900,\"dry_run\":true}");
    rk_seed_plan p;
    const char *err;
    size_t len;
    char *body;

    a[1].name = "Quote \" and \\ and \xc3\xa9";
    a[2].name = NULL;
    ck_assert_int_eq(rk_seed_plan_make(&r, 4, 3, &d, 1, pool, &p, &err), 0);
    body = rk_seed_plan_json(&p, "1", r.zone_id, "9", NULL, NULL, pool, &len);
    ck_assert_uint_eq(len, strlen(body));
    ck_assert_str_eq(body,
        "{\"status\":\"success\",\"heats\":["
        "{\"id\":null,\"competition_id\":\"1\",\"zone_id\":\"5\",\"wod_id\":\"9\",\"number\":3,"
        "\"start_time\":\"2026-11-21T09:30:00Z\",\"status\":\"scheduled\",\"voies\":["
        "{\"id\":null,\"heat_id\":null,\"number\":1,\"spot_id\":\"3\",\"spot_name\":null,"
        "\"score\":null,\"tiebreak\":null,\"score_status\":null}]},"
        "{\"id\":null,\"competition_id\":\"1\",\"zone_id\":\"5\",\"wod_id\":\"9\",\"number\":4,"
        "\"start_time\":\"2026-11-21T09:45:00Z\",\"status\":\"scheduled\",\"voies\":["
        "{\"id\":null,\"heat_id\":null,\"number\":1,\"spot_id\":\"1\",\"spot_name\":\"team 1\","
        "\"score\":null,\"tiebreak\":null,\"score_status\":null},"
        "{\"id\":null,\"heat_id\":null,\"number\":2,\"spot_id\":\"22\","
        "\"spot_name\":\"Quote \\\" and \\\\ and \xc3\xa9\",\"score\":null,\"tiebreak\":null,\"score_status\":null}]}]}");

    /* with the ids of the rows written */
    const char *hid[] = { "40", "41" };
    const char *lid[] = { "400", "410", "411" };
    body = rk_seed_plan_json(&p, "1", "5", NULL, hid, lid, pool, &len);
    ck_assert_str_eq(body,
        "{\"status\":\"success\",\"heats\":["
        "{\"id\":\"40\",\"competition_id\":\"1\",\"zone_id\":\"5\",\"wod_id\":null,\"number\":3,"
        "\"start_time\":\"2026-11-21T09:30:00Z\",\"status\":\"scheduled\",\"voies\":["
        "{\"id\":\"400\",\"heat_id\":\"40\",\"number\":1,\"spot_id\":\"3\",\"spot_name\":null,"
        "\"score\":null,\"tiebreak\":null,\"score_status\":null}]},"
        "{\"id\":\"41\",\"competition_id\":\"1\",\"zone_id\":\"5\",\"wod_id\":null,\"number\":4,"
        "\"start_time\":\"2026-11-21T09:45:00Z\",\"status\":\"scheduled\",\"voies\":["
        "{\"id\":\"410\",\"heat_id\":\"41\",\"number\":1,\"spot_id\":\"1\",\"spot_name\":\"team 1\","
        "\"score\":null,\"tiebreak\":null,\"score_status\":null},"
        "{\"id\":\"411\",\"heat_id\":\"41\",\"number\":2,\"spot_id\":\"22\","
        "\"spot_name\":\"Quote \\\" and \\\\ and \xc3\xa9\",\"score\":null,\"tiebreak\":null,\"score_status\":null}]}]}");
    /* jansson reads it back to the same values */
    json_error_t jerr;
    json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(
        json_array_get(json_object_get(j, "heats"), 1), "voies"), 1), "spot_name")),
        "Quote \" and \\ and \xc3\xa9");
    json_decref(j);

    /* no heat; no start time */
    rk_seed_plan empty;
    r = parse_ok("{\"zone_id\":\"5\"}");
    ck_assert_int_eq(rk_seed_plan_make(&r, 4, 1, NULL, 0, pool, &empty, &err), 0);
    ck_assert_str_eq(rk_seed_plan_json(&empty, "1", "5", "9", NULL, NULL, pool, &len),
                     "{\"status\":\"success\",\"heats\":[]}");
    ck_assert_int_eq(rk_seed_plan_make(&r, 4, 1, &d, 1, pool, &p, &err), 0);
    ck_assert_ptr_nonnull(strstr(rk_seed_plan_json(&p, "1", "5", "9", NULL, NULL, pool, &len),
                                 "\"number\":1,\"start_time\":null,\"status\":\"scheduled\""));
}
END_TEST

/* ------------------------------------------------------------------ the board */

START_TEST(test_board)
{
    const char *board =
        "{\"status\":\"success\",\"leaderboard\":{\"competition_id\":\"1\",\"ranking\":\"places\","
        "\"wods\":[\"3\"],\"divisions\":["
        "{\"division\":\"RX\",\"entries\":[{\"rank\":1,\"points\":1,\"spot_id\":\"7\","
        "\"spot_name\":\"A \\u00e9\",\"bib\":12,\"results\":[{\"wod_id\":\"3\",\"rank\":1,"
        "\"points\":1,\"score\":\"07:45\"}]},{\"rank\":2,\"points\":2,\"spot_id\":\"8\","
        "\"spot_name\":\"B\",\"bib\":null,\"results\":[]}]},"
        "{\"division\":null,\"entries\":[{\"rank\":null,\"spot_id\":\"9\",\"spot_name\":null,"
        "\"bib\":3}]},{\"division\":\"Empty\",\"entries\":[]}]}}";
    rk_seed_division *d;
    size_t n;
    const char *err = NULL;

    ck_assert_int_eq(rk_seed_divisions_from_board(board, strlen(board), pool, &d, &n, &err), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(d[0].name, "RX");
    ck_assert_uint_eq(d[0].nspots, 2);
    ck_assert_str_eq(d[0].spots[0].id, "7");
    ck_assert_str_eq(d[0].spots[0].name, "A \xc3\xa9");
    ck_assert_int_eq(d[0].spots[0].has_bib, 1);
    ck_assert_int_eq(d[0].spots[0].bib, 12);
    ck_assert_int_eq(d[0].spots[0].has_rank, 1);
    ck_assert_int_eq(d[0].spots[0].rank, 1);
    ck_assert_int_eq(d[0].spots[1].has_bib, 0);
    ck_assert_int_eq(d[0].spots[1].rank, 2);
    ck_assert_ptr_null(d[1].name);
    ck_assert_int_eq(d[1].spots[0].has_rank, 0);
    ck_assert_ptr_null(d[1].spots[0].name);
    ck_assert_str_eq(d[2].name, "Empty");
    ck_assert_uint_eq(d[2].nspots, 0);
    /* the bare leaderboard object too */
    const char *bare = "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"rank\":1,"
                       "\"spot_id\":\"1\",\"spot_name\":\"a\",\"bib\":null}]}]}";
    ck_assert_int_eq(rk_seed_divisions_from_board(bare, strlen(bare), pool, &d, &n, &err), 0);
    ck_assert_uint_eq(n, 1);
    /* not a board */
    const char *bad[] = {
        "", "[]", "{}", "{\"leaderboard\":{}}", "{\"divisions\":{}}",
        "{\"divisions\":[1]}", "{\"divisions\":[{\"division\":1,\"entries\":[]}]}",
        "{\"divisions\":[{\"division\":\"X\"}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"rank\":1,\"bib\":null}]}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"spot_id\":7,\"rank\":1}]}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"spot_id\":\"07\",\"rank\":1}]}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"spot_id\":\"7\",\"rank\":\"1\"}]}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"spot_id\":\"7\",\"bib\":1.5}]}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[{\"spot_id\":\"7\",\"spot_name\":1}]}]}",
        "{\"divisions\":[{\"division\":\"X\",\"entries\":[7]}]}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err = NULL;
        ck_assert_msg(rk_seed_divisions_from_board(bad[i], strlen(bad[i]), pool, &d, &n, &err) == -1,
                      "accepted %s", bad[i]);
        ck_assert_ptr_nonnull(err);
    }
}
END_TEST

/* ------------------------------------------------------------------ properties */

/* the test's own generator (an LCG, not the planner's) */
static unsigned long long lcg_state;
static unsigned rnd(unsigned n)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return n ? (unsigned)((lcg_state >> 33) % n) : 0;
}

/* leaderboard order: rank, bib, id, nulls after */
static int lb_before(const rk_seed_spot *a, const rk_seed_spot *b)
{
    if (a->has_rank != b->has_rank) return a->has_rank;
    if (a->has_rank && a->rank != b->rank) return a->rank < b->rank;
    if (a->has_bib != b->has_bib) return a->has_bib;
    if (a->has_bib && a->bib != b->bib) return a->bib < b->bib;
    if (strlen(a->id) != strlen(b->id)) return strlen(a->id) < strlen(b->id);
    return strcmp(a->id, b->id) < 0;
}

/* bib order: bib ascending, none last, then id */
static int bib_before(const rk_seed_spot *a, const rk_seed_spot *b)
{
    if (a->has_bib != b->has_bib) return a->has_bib;
    if (a->has_bib && a->bib != b->bib) return a->bib < b->bib;
    if (strlen(a->id) != strlen(b->id)) return strlen(a->id) < strlen(b->id);
    return strcmp(a->id, b->id) < 0;
}

/* "better seeded than": ranking: earlier on the board; bib: later in bib order */
static int better(int order, const rk_seed_spot *a, const rk_seed_spot *b)
{
    return order == RK_SEED_ORDER_RANKING ? lb_before(a, b) : bib_before(b, a);
}

START_TEST(test_properties)
{
    static const char *const names[] = { "RX", "Scaled", "Masters", "Teens", "rx" };
    static const char *const orders[] = { "ranking", "bib", "random" };
    long long center[999], pos[1000];

    lcg_state = 20261121;
    for (int iter = 0; iter < 3000; iter++) {
        apr_pool_t *p;
        REQUIRE_eq(apr_pool_create(&p, pool), APR_SUCCESS);

        /* a leaderboard: up to 5 divisions (one may be the null one), up to 60 spots
         * each; ranks 1.. with ties and skips, bibs mostly unique, some null */
        size_t nd = rnd(6), nextid = 1 + rnd(5);
        rk_seed_division *d = apr_pcalloc(p, (nd + 1) * sizeof(*d));
        int used_null = 0;
        for (size_t i = 0; i < nd; i++) {
            size_t n = rnd(8) == 0 ? 0 : 1 + rnd(rnd(2) ? 60 : 12);
            rk_seed_spot *s = apr_pcalloc(p, (n + 1) * sizeof(*s));

            if (!used_null && rnd(5) == 0) {
                d[i].name = NULL;
                used_null = 1;
            }
            else {
                d[i].name = names[i];
            }
            for (size_t k = 0; k < n; k++) {
                s[k].id = pf(p, "%zu", nextid);
                nextid += 1 + rnd(3);
                s[k].name = s[k].id;
                s[k].has_bib = rnd(6) != 0;
                s[k].bib = 1 + rnd(200);
                s[k].has_rank = 1;
                if (k && rnd(4) == 0) {
                    s[k].rank = s[k - 1].rank;        /* a tie */
                }
                else {
                    s[k].rank = (long long)k + 1;     /* places skipped after a tie */
                }
            }
            /* shuffle the input: the planner must not depend on it */
            for (size_t k = n; k > 1; k--) {
                size_t j = rnd((unsigned)k);
                rk_seed_spot t = s[k - 1];
                s[k - 1] = s[j];
                s[j] = t;
            }
            d[i].spots = s;
            d[i].nspots = n;
        }

        long long lane_count = 1 + rnd(rnd(4) ? 12 : 999);
        long long lanes = rnd(3) ? 1 + rnd((unsigned)lane_count) : 0;
        int order = (int)rnd(3), lane_order = (int)rnd(2);
        long long top = rnd(3) == 0 ? 1 + rnd(30) : 0;
        long long first = 1 + rnd(50);
        long long seed = rnd(2) ? rnd(1000) : 2147483647LL - rnd(1000);
        int has_start = rnd(2), interval = rnd(2) ? (int)rnd(86401) : 0;
        char *body = pf(p, "{\"zone_id\":\"%u\",\"order\":\"%s\",\"lane_order\":\"%s\","
                                  "\"seed\":%lld,\"interval\":%d",
                                  1 + rnd(9), orders[order], lane_order ? "center" : "ascending",
                                  seed, interval);
        if (lanes) {
            body = pf(p, "%s,\"lanes\":%lld", body, lanes);
        }
        if (top) {
            body = pf(p, "%s,\"top\":%lld", body, top);
        }
        if (has_start) {
            body = pf(p, "%s,\"start_time\":\"2026-11-21T09:%02u:00Z\"", body, rnd(60));
        }
        /* sometimes a subset of the divisions, in a random order */
        const rk_seed_division **blocks = apr_pcalloc(p, (nd + 1) * sizeof(*blocks));
        size_t nblocks = 0;
        if (nd && rnd(3) == 0) {
            size_t *idx = apr_pcalloc(p, nd * sizeof(*idx));
            for (size_t i = 0; i < nd; i++) idx[i] = i;
            for (size_t i = nd; i > 1; i--) {
                size_t j = rnd((unsigned)i), t = idx[i - 1];
                idx[i - 1] = idx[j];
                idx[j] = t;
            }
            nblocks = 1 + rnd((unsigned)nd);
            body = apr_pstrcat(p, body, ",\"divisions\":[", NULL);
            for (size_t i = 0; i < nblocks; i++) {
                blocks[i] = &d[idx[i]];
                body = pf(p, "%s%s%s%s%s", body, i ? "," : "",
                                    d[idx[i]].name ? "\"" : "",
                                    d[idx[i]].name ? d[idx[i]].name : "null",
                                    d[idx[i]].name ? "\"" : "");
            }
            body = apr_pstrcat(p, body, "]", NULL);
        }
        else {
            /* every division, by name (strcmp), null last */
            for (size_t i = 0; i < nd; i++) blocks[nblocks++] = &d[i];
            for (size_t i = 1; i < nblocks; i++) {
                for (size_t j = i; j > 0; j--) {
                    const char *x = blocks[j - 1]->name, *y = blocks[j]->name;
                    int gt = !x ? (y != NULL) : (y && strcmp(x, y) > 0);
                    if (!gt) break;
                    const rk_seed_division *t = blocks[j - 1];
                    blocks[j - 1] = blocks[j];
                    blocks[j] = t;
                }
            }
        }
        body = apr_pstrcat(p, body, "}", NULL);

        rk_seed_request r;
        const char *err = NULL;
        ck_assert_msg(rk_seed_parse(body, strlen(body), p, &r, &err) == 0, "%s: %s", body, err);
        rk_seed_plan plan;
        ck_assert_msg(rk_seed_plan_make(&r, lane_count, first, d, nd, p, &plan, &err) == 0,
                      "%s: %s", body, err);
        long long L = lanes ? lanes : lane_count;
        rk_seed_center_order(lane_count, center);
        for (long long z = 0; z < lane_count; z++) {
            pos[lane_order ? center[z] : z + 1] = z;    /* place of a lane in the lane order */
        }

        /* walk the plan block by block */
        size_t h = 0, total = 0;
        for (size_t b = 0; b < nblocks; b++) {
            const rk_seed_division *dv = blocks[b];
            size_t n = 0;
            for (size_t k = 0; k < dv->nspots; k++) {
                n += !top || (dv->spots[k].has_rank && dv->spots[k].rank <= top);
            }
            size_t H = (n + (size_t)L - 1) / (size_t)L, seen = 0;
            const rk_seed_spot *best = NULL;
            for (size_t k = 0; k < dv->nspots; k++) {
                const rk_seed_spot *s = &dv->spots[k];
                if (top && !(s->has_rank && s->rank <= top)) continue;
                if (!best || (order != RK_SEED_ORDER_RANDOM && better(order, s, best))) best = s;
            }
            for (size_t k = 0; k < H; k++, h++) {
                REQUIRE_lt(h, plan.nheats);
                const rk_seed_heat *ht = &plan.heats[h];
                REQUIRE(ht->division == dv->name);
                REQUIRE_eq(ht->number, first + (long long)h);
                REQUIRE_eq(ht->has_start, has_start);
                if (has_start) {
                    REQUIRE_eq(ht->start, r.start + (long long)h * interval);
                    char want[21];
                    rk_seed_format_time(ht->start, want);
                    REQUIRE(strcmp(ht->start_time, want) == 0);
                }
                /* sizes: differ by at most one, smaller first */
                REQUIRE_ge(ht->nlanes, 1);
                REQUIRE_le(ht->nlanes, (size_t)L);
                REQUIRE_ge(ht->nlanes, n / H);
                REQUIRE_le(ht->nlanes, (n + H - 1) / H);
                if (k) REQUIRE_ge(ht->nlanes, plan.heats[h - 1].nlanes);
                /* lanes: by number, distinct, within the zone; the first m of the lane
                 * order; best seeded in the first of them */
                for (size_t q = 0; q < ht->nlanes; q++) {
                    REQUIRE_ge(ht->lanes[q].number, 1);
                    REQUIRE_le(ht->lanes[q].number, lane_count);
                    if (q) REQUIRE_lt(ht->lanes[q - 1].number, ht->lanes[q].number);
                    /* the spot is one of this division's selected spots */
                    const rk_seed_spot *s = ht->lanes[q].spot;
                    REQUIRE(s >= dv->spots && s < dv->spots + dv->nspots);
                    REQUIRE(!top || (s->has_rank && s->rank <= top));
                }
                {
                    /* the set of lane numbers is the first nlanes of the lane order */
                    char inset[1000] = { 0 };
                    for (size_t q = 0; q < ht->nlanes; q++) {
                        inset[lane_order ? center[q] : (long long)q + 1] = 1;
                    }
                    for (size_t q = 0; q < ht->nlanes; q++) {
                        REQUIRE(inset[ht->lanes[q].number]);
                    }
                }
                if (order != RK_SEED_ORDER_RANDOM) {
                    /* within a heat: a better-seeded spot has an earlier lane in the
                     * lane order */
                    for (size_t q = 0; q < ht->nlanes; q++) {
                        for (size_t u = 0; u < ht->nlanes; u++) {
                            if (better(order, ht->lanes[q].spot, ht->lanes[u].spot)) {
                                REQUIRE_lt(pos[ht->lanes[q].number], pos[ht->lanes[u].number]);
                            }
                        }
                    }
                    /* across heats: every spot of a later heat better than every one
                     * of an earlier heat of the block */
                    if (k) {
                        const rk_seed_heat *prev = &plan.heats[h - 1];
                        for (size_t q = 0; q < ht->nlanes; q++) {
                            for (size_t u = 0; u < prev->nlanes; u++) {
                                REQUIRE(better(order, ht->lanes[q].spot, prev->lanes[u].spot));
                            }
                        }
                    }
                }
                seen += ht->nlanes;
            }
            REQUIRE_eq(seen, n);
            total += n;
            /* the best-seeded spot is in the block's last heat, in the first lane of the
             * lane order */
            if (n && order != RK_SEED_ORDER_RANDOM) {
                const rk_seed_heat *last = &plan.heats[h - 1];
                long long want_lane = lane_order ? center[0] : 1;
                int found = 0;
                for (size_t q = 0; q < last->nlanes; q++) {
                    if (last->lanes[q].spot == best) {
                        found = 1;
                        REQUIRE_eq(last->lanes[q].number, want_lane);
                    }
                }
                ck_assert_msg(found, "best seeded not in the last heat: %s", body);
            }
        }
        REQUIRE_eq(h, plan.nheats);
        REQUIRE_eq(total, plan.nlanes);
        /* every selected spot in exactly one lane */
        {
            size_t count = 0;
            for (size_t i = 0; i < plan.nheats; i++) {
                for (size_t q = 0; q < plan.heats[i].nlanes; q++) {
                    const rk_seed_spot *s = plan.heats[i].lanes[q].spot;
                    int again = 0;
                    for (size_t j = 0; j < plan.nheats; j++) {
                        for (size_t u = 0; u < plan.heats[j].nlanes; u++) {
                            again += plan.heats[j].lanes[u].spot == s;
                        }
                    }
                    REQUIRE_eq(again, 1);
                    count++;
                }
            }
            REQUIRE_eq(count, total);
        }
        /* the same request again: the same plan (the same draw for random); the
         * answer is JSON with as many heats and lanes */
        {
            rk_seed_plan again;
            REQUIRE_eq(rk_seed_plan_make(&r, lane_count, first, d, nd, p, &again, &err), 0);
            REQUIRE(plan_eq(&again, &plan));
            /* the spots of each division given in another order: the same plan */
            rk_seed_division *d2 = apr_pcalloc(p, (nd + 1) * sizeof(*d2));
            for (size_t i = 0; i < nd; i++) {
                rk_seed_spot *c = apr_pmemdup(p, d[i].spots, (d[i].nspots + 1) * sizeof(*c));
                for (size_t k = d[i].nspots; k > 1; k--) {
                    size_t j = rnd((unsigned)k);
                    rk_seed_spot t = c[k - 1];
                    c[k - 1] = c[j];
                    c[j] = t;
                }
                d2[i] = d[i];
                d2[i].spots = c;
            }
            REQUIRE_eq(rk_seed_plan_make(&r, lane_count, first, d2, nd, p, &again, &err), 0);
            REQUIRE(plan_eq(&again, &plan));
            size_t len;
            char *json = rk_seed_plan_json(&plan, "1", r.zone_id, "3", NULL, NULL, p, &len);
            json_t *j = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);
            REQUIRE(j != NULL);
            REQUIRE_eq(json_array_size(json_object_get(j, "heats")), plan.nheats);
            json_decref(j);
        }
        apr_pool_destroy(p);
    }
}
END_TEST

static Suite *seed_suite(void)
{
    Suite *s = suite_create("seed");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_parse_defaults);
    tcase_add_test(tc, test_parse_full);
    tcase_add_test(tc, test_parse_syntax);
    tcase_add_test(tc, test_parse_values);
    tcase_add_test(tc, test_parse_start_time);
    tcase_add_test(tc, test_check_lanes);
    tcase_add_test(tc, test_prng_vectors);
    tcase_add_test(tc, test_center_order);
    tcase_add_test(tc, test_sizes_23_on_10);
    tcase_add_test(tc, test_order_ranking);
    tcase_add_test(tc, test_order_bib);
    tcase_add_test(tc, test_order_random);
    tcase_add_test(tc, test_top);
    tcase_add_test(tc, test_divisions);
    tcase_add_test(tc, test_lane_orders);
    tcase_add_test(tc, test_numbers_times);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_board);
    tcase_add_test(tc, test_properties);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(seed_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
