/* check_router.c: Check unit tests of rk_router (path -> route, methods).
 * Contract: doc/api.md "Mounting and routes"; decisions: doc/design.md. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rk_router.h"

/* ------------------------------------------------------------------ helpers */

typedef struct {
    const char *tmpl;   /* canonical form; "{}" stands for an id */
    rk_route_id id;
    int nids;
    unsigned variants;  /* variants that serve the route */
} route_case;

static const route_case routes[] = {
    { "/connect",                                  RK_ROUTE_CONNECT,      0, RK_VARIANT_BOTH },
    { "/competition/",                             RK_ROUTE_COMPETITIONS, 0, RK_VARIANT_BOTH },
    { "/competition/{}",                           RK_ROUTE_COMPETITION,  1, RK_VARIANT_BOTH },
    { "/competition/{}/wod/",                      RK_ROUTE_WODS,         1, RK_VARIANT_BOTH },
    { "/competition/{}/wod/{}",                    RK_ROUTE_WOD,          2, RK_VARIANT_BOTH },
    { "/competition/{}/spot/",                     RK_ROUTE_SPOTS,        1, RK_VARIANT_BOTH },
    { "/competition/{}/spot/{}",                   RK_ROUTE_SPOT,         2, RK_VARIANT_BOTH },
    { "/competition/{}/zone/",                     RK_ROUTE_ZONES,        1, RK_VARIANT_A },
    { "/competition/{}/zone/{}",                   RK_ROUTE_ZONE,         2, RK_VARIANT_A },
    { "/competition/{}/zone/{}/heat/",             RK_ROUTE_A_HEATS,      2, RK_VARIANT_A },
    { "/competition/{}/zone/{}/heat/{}",           RK_ROUTE_A_HEAT,       3, RK_VARIANT_A },
    { "/competition/{}/zone/{}/heat/{}/voie/",     RK_ROUTE_A_VOIES,      3, RK_VARIANT_A },
    { "/competition/{}/zone/{}/heat/{}/voie/{}",   RK_ROUTE_A_VOIE,       4, RK_VARIANT_A },
    { "/competition/{}/heat/",                     RK_ROUTE_B_HEATS,      1, RK_VARIANT_B },
    { "/competition/{}/heat/{}",                   RK_ROUTE_B_HEAT,       2, RK_VARIANT_B },
    { "/competition/{}/heat/{}/line/",             RK_ROUTE_B_LINES,      2, RK_VARIANT_B },
    { "/competition/{}/heat/{}/line/{}",           RK_ROUTE_B_LINE,       3, RK_VARIANT_B },
    { "/competition/{}/leaderboard",               RK_ROUTE_LEADERBOARD,  1, RK_VARIANT_BOTH },
    { "/competition/{}/wod/{}/leaderboard",        RK_ROUTE_WOD_LEADERBOARD, 2, RK_VARIANT_BOTH },
    { "/competition/{}/zone/{}/heat/{}/voie/{}/history", RK_ROUTE_A_VOIE_HISTORY, 4, RK_VARIANT_A },
    { "/competition/{}/events",                    RK_ROUTE_EVENTS,       1, RK_VARIANT_BOTH },
    { "/competition/{}/changes",                   RK_ROUTE_CHANGES,      1, RK_VARIANT_BOTH },
    { "/competition/{}/zone/{}/heat/{}/voie/{}/validate", RK_ROUTE_A_VOIE_VALIDATE, 4, RK_VARIANT_A },
    { "/competition/{}/zone/{}/heat/{}/validate",  RK_ROUTE_A_HEAT_VALIDATE, 3, RK_VARIANT_A },
    { "/competition/{}/wod/{}/generate-heats",     RK_ROUTE_GENERATE_HEATS, 2, RK_VARIANT_BOTH },
};
#define NROUTES ((int)(sizeof routes / sizeof routes[0]))

static const char *const ids_small[RK_MAX_IDS] = { "1", "22", "333", "4444" };
static const char *const ids_big[RK_MAX_IDS] = {
    "123456789012345678", "999999999999999999", "100000000000000000", "7" };

/* Ids that must never be accepted in a path segment. */
static const char *const bad_ids[] = {
    "abc", "-1", "0x1", "1.0", "+1", "1e3", "0", "00", "01", "012345678901234567",
    "1000000000000000000", "9999999999999999999", "12345678901234567890123",
    "1%2F2", "%31", " 1", "1 ", "1a", "a1", "1\t", "1;2", "1?", "1#", "1,2",
    ".", "..", "\xd9\xa1" /* ARABIC-INDIC DIGIT ONE */, "\xef\xbc\x91" /* FULLWIDTH 1 */,
    "1\xff", "\x01", "1\x7f", "", /* empty: see build() */
};
#define NBAD ((int)(sizeof bad_ids / sizeof bad_ids[0]))

/* Build a path from TMPL replacing the n-th "{}" with IDS[n]; when BAD is not NULL,
 * the placeholder number BADPOS gets BAD instead. */
static char *build(const char *tmpl, const char *const *ids, int badpos, const char *bad)
{
    size_t cap = strlen(tmpl) + 1;
    for (int i = 0; i < RK_MAX_IDS; i++)
        cap += strlen(ids[i]);
    if (bad)
        cap += strlen(bad);
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    char *o = buf;
    int n = 0;
    for (const char *p = tmpl; *p; ) {
        if (p[0] == '{' && p[1] == '}') {
            const char *v = (bad && n == badpos) ? bad : ids[n];
            size_t l = strlen(v);
            memcpy(o, v, l);
            o += l;
            n++;
            p += 2;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return buf;
}

/* The other form of a route: drop the trailing slash, or add one. */
static char *toggle_slash(const char *path)
{
    size_t l = strlen(path);
    char *buf = malloc(l + 2);
    ck_assert_ptr_nonnull(buf);
    memcpy(buf, path, l + 1);
    if (l > 0 && buf[l - 1] == '/') {
        buf[l - 1] = '\0';
    } else {
        buf[l] = '/';
        buf[l + 1] = '\0';
    }
    return buf;
}

static void garbage(rk_route *r)
{
    memset(r, 0x5a, sizeof *r);
    r->id = RK_ROUTE_COUNT;
    r->nids = 99;
}

static void expect_none(const char *path, unsigned variants)
{
    rk_route r;
    garbage(&r);
    rk_route_id got = rk_route_parse(path, variants, &r);
    ck_assert_msg(got == RK_ROUTE_NONE, "path '%.120s' (variants %u): got route %d (%s), want NONE",
                  path, variants, (int)got, rk_route_name(got) ? rk_route_name(got) : "?");
    ck_assert_msg(r.id == RK_ROUTE_NONE, "path '%.120s': out->id %d, want NONE", path, (int)r.id);
    ck_assert_msg(r.nids == 0, "path '%.120s': out->nids %d on failure, want 0", path, r.nids);
}

static void expect_route(const char *path, unsigned variants, const route_case *rc,
                         const char *const *ids)
{
    rk_route r;
    garbage(&r);
    rk_route_id got = rk_route_parse(path, variants, &r);
    ck_assert_msg(got == rc->id, "path '%.120s' (variants %u): got route %d, want %d",
                  path, variants, (int)got, (int)rc->id);
    ck_assert_msg(r.id == rc->id, "path '%.120s': out->id %d, want %d", path, (int)r.id, (int)rc->id);
    ck_assert_msg(r.nids == rc->nids, "path '%.120s': nids %d, want %d", path, r.nids, rc->nids);
    for (int i = 0; i < rc->nids; i++)
        ck_assert_msg(strcmp(r.ids[i], ids[i]) == 0, "path '%.120s': ids[%d] '%.20s', want '%s'",
                      path, i, r.ids[i], ids[i]);
}

/* A copy of S whose terminating NUL is the last byte before an unreadable page:
 * a read past the NUL crashes the (forked) test. */
static char *guarded_copy(const char *s, void **map, size_t *maplen)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t l = strlen(s) + 1;
    size_t pages = (l + pg - 1) / pg + 1;
    char *m = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(m, MAP_FAILED);
    ck_assert_int_eq(mprotect(m + (pages - 1) * pg, pg, PROT_NONE), 0);
    char *p = m + (pages - 1) * pg - l;
    memcpy(p, s, l);
    *map = m;
    *maplen = pages * pg;
    return p;
}

/* ------------------------------------------------------------------ routes */

/* Every route, canonical form and the other trailing-slash form, with every variant
 * mask that serves it; ids in path order. */
START_TEST(test_route_all_forms)
{
    const route_case *rc = &routes[_i];
    const unsigned masks[] = { RK_VARIANT_A, RK_VARIANT_B, RK_VARIANT_BOTH };
    const char *const *idsets[] = { ids_small, ids_big };
    for (int s = 0; s < 2; s++) {
        char *p = build(rc->tmpl, idsets[s], -1, NULL);
        char *q = toggle_slash(p);
        for (int m = 0; m < 3; m++) {
            if ((masks[m] & rc->variants) == 0)
                continue;
            expect_route(p, masks[m], rc, idsets[s]);
            expect_route(q, masks[m], rc, idsets[s]);
        }
        free(p);
        free(q);
    }
}
END_TEST

/* A route of a disabled variant is NONE (both forms). */
START_TEST(test_route_disabled_variant)
{
    const route_case *rc = &routes[_i];
    const unsigned masks[] = { RK_VARIANT_A, RK_VARIANT_B };
    char *p = build(rc->tmpl, ids_small, -1, NULL);
    char *q = toggle_slash(p);
    for (int m = 0; m < 2; m++) {
        if (masks[m] & rc->variants)
            continue;
        expect_none(p, masks[m]);
        expect_none(q, masks[m]);
    }
    free(p);
    free(q);
}
END_TEST

/* Every bad id at every id position of every route, both forms, every mask. */
START_TEST(test_route_bad_ids)
{
    const route_case *rc = &routes[_i];
    size_t tl = strlen(rc->tmpl);
    int trailing_placeholder = tl >= 2 && strcmp(rc->tmpl + tl - 2, "{}") == 0;
    for (int pos = 0; pos < rc->nids; pos++) {
        for (int b = 0; b < NBAD; b++) {
            /* "/competition/{}" with an empty id is the list route: skip that one */
            if (bad_ids[b][0] == '\0' && trailing_placeholder && pos == rc->nids - 1)
                continue;
            char *p = build(rc->tmpl, ids_small, pos, bad_ids[b]);
            char *q = toggle_slash(p);
            expect_none(p, RK_VARIANT_BOTH);
            expect_none(q, RK_VARIANT_BOTH);
            expect_none(p, rc->variants);
            free(p);
            free(q);
        }
    }
}
END_TEST

/* Two trailing slashes, one extra segment, two extra segments: NONE. */
START_TEST(test_route_extra)
{
    const route_case *rc = &routes[_i];
    char *p = build(rc->tmpl, ids_small, -1, NULL);
    size_t l = strlen(p);
    if (p[l - 1] == '/')
        p[--l] = '\0';          /* p now has no trailing slash */
    const char *suffixes[] = { "//", "///", "/zzz", "/zzz/", "/1/2", "/1/2/",
                               "/wod/1/wod/", "x", "/x", "-", "/.", "/..", "/./", "/%2F" };
    char buf[512];
    for (size_t s = 0; s < sizeof suffixes / sizeof suffixes[0]; s++) {
        /* "/competition" + "1" is "/competition1": still not a route */
        snprintf(buf, sizeof buf, "%s%s", p, suffixes[s]);
        expect_none(buf, RK_VARIANT_BOTH);
    }
    /* prefixes */
    const char *prefixes[] = { "/", "//", "/x", "/competition", "/api", "." };
    for (size_t s = 0; s < sizeof prefixes / sizeof prefixes[0]; s++) {
        snprintf(buf, sizeof buf, "%s%s", prefixes[s], p);
        expect_none(buf, RK_VARIANT_BOTH);
    }
    /* without the leading slash */
    expect_none(p + 1, RK_VARIANT_BOTH);
    free(p);
}
END_TEST

/* Words are case-sensitive: every word upper-cased in turn is NONE. */
START_TEST(test_route_case)
{
    const route_case *rc = &routes[_i];
    char *p = build(rc->tmpl, ids_small, -1, NULL);
    size_t l = strlen(p);
    for (size_t i = 1; i < l; i++) {
        if (p[i - 1] != '/' || p[i] < 'a' || p[i] > 'z')
            continue;
        p[i] = (char)(p[i] - 'a' + 'A');
        expect_none(p, RK_VARIANT_BOTH);
        p[i] = (char)(p[i] - 'A' + 'a');
    }
    /* and the last letter of every word */
    for (size_t i = 0; i + 1 <= l; i++) {
        if (p[i] < 'a' || p[i] > 'z' || (p[i + 1] != '/' && p[i + 1] != '\0'))
            continue;
        p[i] = (char)(p[i] - 'a' + 'A');
        expect_none(p, RK_VARIANT_BOTH);
        p[i] = (char)(p[i] - 'A' + 'a');
    }
    free(p);
}
END_TEST

START_TEST(test_connect_every_mask)
{
    const unsigned masks[] = { RK_VARIANT_A, RK_VARIANT_B, RK_VARIANT_BOTH };
    for (int m = 0; m < 3; m++) {
        rk_route r;
        garbage(&r);
        ck_assert_int_eq(rk_route_parse("/connect", masks[m], &r), RK_ROUTE_CONNECT);
        ck_assert_int_eq(r.id, RK_ROUTE_CONNECT);
        ck_assert_int_eq(r.nids, 0);
        garbage(&r);
        ck_assert_int_eq(rk_route_parse("/connect/", masks[m], &r), RK_ROUTE_CONNECT);
        ck_assert_int_eq(r.id, RK_ROUTE_CONNECT);
        ck_assert_int_eq(r.nids, 0);
        expect_none("/connect//", masks[m]);
        expect_none("/Connect", masks[m]);
        expect_none("/CONNECT/", masks[m]);
        expect_none("/connect/1", masks[m]);
        expect_none("/connectx", masks[m]);
        expect_none("/connec", masks[m]);
        expect_none("connect", masks[m]);
    }
}
END_TEST

/* A hand-written list of malformed paths, each in every variant mask. */
static const char *const malformed[] = {
    "", "/", "//", "///", ".", "/.", "/..", "competition/", "competition", "connect",
    "//connect", "//competition/", "/competition//", "/competition//1", "//competition/1",
    "/competition/1//", "/competition/1//wod/", "/competition/1/wod//", "/competition/1/wod//2",
    "/competition//wod/", "/competition/1/wod/2//",
    "/competitions/", "/competitions", "/competitio/", "/competitionx/", "/Competition/",
    "/COMPETITION/", "/competition/1/WOD/", "/competition/1/Wod/2",
    "/competition/1/wods/", "/competition/1/wods", "/competition/1/spots/", "/competition/1/zones/",
    "/competition/1/heats/", "/competition/1/heat/2/lines/", "/competition/1/zone/2/heat/3/voies/",
    "/wod/", "/spot/", "/zone/", "/heat/", "/voie/", "/line/", "/wod/1",
    "/competition/./1", "/competition/../", "/competition/..", "/competition/.", "/./competition/",
    "/competition/1/./wod/", "/competition/1/../1", "/competition/1/wod/.", "/competition/1/wod/..",
    "/competition/1%2F2", "/competition/1%2F2/", "/competition/1%2F2/wod/", "/competition%2F1",
    "/competition%2F", "/competition/1/wod%2F2", "/competition/%31", "/%63ompetition/",
    "/competition/1/zone/2/line/", "/competition/1/heat/2/voie/", "/competition/1/heat/2/voie/3",
    "/competition/1/zone/2/heat/3/line/", "/competition/1/zone/2/heat/3/line/4",
    "/competition/1/zone/2/voie/", "/competition/1/zone/2/voie/3", "/competition/1/voie/",
    "/competition/1/line/", "/competition/1/line/2", "/competition/1/zone/heat/",
    "/competition/1/zone/2/heat/voie/", "/competition/1/heat/line/",
    "/competition/1/zone/2/heat/3/voie/4/5", "/competition/1/heat/2/line/3/4",
    "/competition/1/spot/2/heat/", "/competition/1/wod/2/heat/", "/competition/1/wod/2/spot/",
    "/competition/1/zone/2/wod/", "/competition/1/heat/2/zone/",
    "/competition/1/connect", "/connect/competition/",
    "/competition\x01/", "/competition/\x01", "/competition/1\x7f", "/competition/\xff/",
    "/competition/\xc3\xa9", "/comp\xc3\xa9tition/", "/competition/1\t", "/competition/ 1",
    "/competition/1 ", "/ competition/", "/competition /", "/competition\\1", "\\competition\\",
    "/competition/1?x=1", "/competition/?", "/competition/1#", "/competition/1;x",
    "/competition;x/", "/competition/1/wod/2;", "/competition/1/wod/2?",
    "/competition/-1", "/competition/0", "/competition/01", "/competition/0/", "/competition/+1",
    "/competition/1e3", "/competition/0x1", "/competition/1.0", "/competition/abc",
    "/competition/1000000000000000000", "/competition/1000000000000000000/",
};

START_TEST(test_malformed_paths)
{
    const unsigned masks[] = { RK_VARIANT_A, RK_VARIANT_B, RK_VARIANT_BOTH };
    const char *p = malformed[_i];
    for (int m = 0; m < 3; m++)
        expect_none(p, masks[m]);
}
END_TEST

START_TEST(test_id_lengths)
{
    const route_case *comp = &routes[2];
    const route_case *voie = &routes[12];
    char id[32];
    /* 1 to 18 digits are fine, 19 and 20 are not */
    for (int n = 1; n <= 20; n++) {
        memset(id, '9', (size_t)n);
        id[n] = '\0';
        char path[64];
        snprintf(path, sizeof path, "/competition/%s", id);
        if (n <= RK_ID_MAX_DIGITS) {
            const char *ids[RK_MAX_IDS] = { id, "", "", "" };
            expect_route(path, RK_VARIANT_BOTH, comp, ids);
        } else {
            expect_none(path, RK_VARIANT_BOTH);
        }
    }
    /* 18 digits in every position of the deepest route */
    const char *ids18[RK_MAX_IDS] = { "100000000000000001", "200000000000000002",
                                      "300000000000000003", "999999999999999999" };
    char *p = build(voie->tmpl, ids18, -1, NULL);
    expect_route(p, RK_VARIANT_A, voie, ids18);
    free(p);
    /* 19 digits in every position */
    for (int pos = 0; pos < 4; pos++) {
        p = build(voie->tmpl, ids18, pos, "1000000000000000000");
        expect_none(p, RK_VARIANT_BOTH);
        free(p);
    }
}
END_TEST

START_TEST(test_long_paths)
{
    const size_t n = 100000;
    char *buf = malloc(n + 64);
    ck_assert_ptr_nonnull(buf);

    strcpy(buf, "/competition/");
    memset(buf + 13, '1', n);
    buf[13 + n] = '\0';
    expect_none(buf, RK_VARIANT_BOTH);
    strcat(buf, "/");
    expect_none(buf, RK_VARIANT_BOTH);

    buf[0] = '/';
    memset(buf + 1, 'a', n);
    buf[1 + n] = '\0';
    expect_none(buf, RK_VARIANT_BOTH);

    memset(buf, '/', n);
    buf[n] = '\0';
    expect_none(buf, RK_VARIANT_BOTH);

    strcpy(buf, "/competition/1");
    size_t l = strlen(buf);
    memset(buf + l, '/', n);
    buf[l + n] = '\0';
    expect_none(buf, RK_VARIANT_BOTH);

    /* many well-formed segments */
    l = 0;
    buf[0] = '\0';
    while (l + 20 < n) {
        memcpy(buf + l, "/competition/1", 14);
        l += 14;
    }
    buf[l] = '\0';
    expect_none(buf, RK_VARIANT_BOTH);

    l = 0;
    memcpy(buf, "/competition/1", 14);
    l = 14;
    while (l + 20 < n) {
        memcpy(buf + l, "/wod/1", 6);
        l += 6;
    }
    buf[l] = '\0';
    expect_none(buf, RK_VARIANT_BOTH);

    /* a long run of zeros as an id */
    strcpy(buf, "/competition/");
    memset(buf + 13, '0', n);
    strcpy(buf + 13 + n, "1");
    expect_none(buf, RK_VARIANT_BOTH);
    free(buf);
}
END_TEST

/* The parser never reads past the terminating NUL (guard page after it). */
START_TEST(test_no_overread)
{
    const char *paths[] = { "", "/", "/connect", "/connect/", "/competition", "/competition/",
                            "/competition/1", "/competition/123456789012345678",
                            "/competition/1234567890123456789", "/competition/1/wod",
                            "/competition/1/zone/2/heat/3/voie/4", "/competition/1/heat/2/line/",
                            "/competition/1/zone/2/heat/3/voie", "/competition/1/heat/2/line/3/",
                            "/competition/1/wo", "/competition/1/zone/2/he", "/conn", "/c" };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        void *map;
        size_t maplen;
        char *p = guarded_copy(paths[i], &map, &maplen);
        rk_route r;
        rk_route_parse(p, RK_VARIANT_BOTH, &r);
        rk_route_parse(p, RK_VARIANT_A, &r);
        rk_route_parse(p, RK_VARIANT_B, &r);
        munmap(map, maplen);
    }
}
END_TEST

/* A failure after a success resets OUT; a short route after a long one sets nids. */
START_TEST(test_out_reset)
{
    rk_route r;
    ck_assert_int_eq(rk_route_parse("/competition/1/zone/2/heat/3/voie/4", RK_VARIANT_BOTH, &r),
                     RK_ROUTE_A_VOIE);
    ck_assert_int_eq(r.nids, 4);
    ck_assert_int_eq(rk_route_parse("/competition/1/zone/2/heat/3/voie/x", RK_VARIANT_BOTH, &r),
                     RK_ROUTE_NONE);
    ck_assert_int_eq(r.id, RK_ROUTE_NONE);
    ck_assert_int_eq(r.nids, 0);
    ck_assert_int_eq(rk_route_parse("/competition/1/zone/2/heat/3/voie/4", RK_VARIANT_BOTH, &r),
                     RK_ROUTE_A_VOIE);
    ck_assert_int_eq(rk_route_parse("/competition/55", RK_VARIANT_BOTH, &r), RK_ROUTE_COMPETITION);
    ck_assert_int_eq(r.nids, 1);
    ck_assert_str_eq(r.ids[0], "55");
    ck_assert_int_eq(rk_route_parse("/competition/1/zone/2/heat/3/voie/4", RK_VARIANT_BOTH, &r),
                     RK_ROUTE_A_VOIE);
    ck_assert_int_eq(rk_route_parse("/competition/1/zone/2/heat/3/voie/4", RK_VARIANT_B, &r),
                     RK_ROUTE_NONE);
    ck_assert_int_eq(r.nids, 0);
    ck_assert_int_eq(rk_route_parse("/connect", RK_VARIANT_BOTH, &r), RK_ROUTE_CONNECT);
    ck_assert_int_eq(r.nids, 0);
}
END_TEST

/* ------------------------------------------------------------------ rk_id_valid */

/* The path of a request as sent, from its target or its (truncated) request line. */
static void expect_path(const char *target, const char *line, const char *want)
{
    size_t len = 12345;
    const char *p = rk_target_path(target, line, &len);
    const char *src = target ? target : line;

    if (!want) {
        ck_assert_msg(p == NULL, "'%s' / '%s': a path where none is", target ? target : "(null)",
                      line ? line : "(null)");
        return;
    }
    ck_assert_msg(p != NULL, "'%s' / '%s': no path", target ? target : "(null)", line ? line : "(null)");
    ck_assert_msg(p >= src && p + len <= src + strlen(src), "path outside its source");
    ck_assert_msg(len == strlen(want) && memcmp(p, want, len) == 0, "'%s': got '%.*s', want '%s'",
                  src, (int)len, p, want);
}

START_TEST(test_target_path)
{
    expect_path("/api/competition/1", "IGNORED /x HTTP/1.1", "/api/competition/1");
    expect_path("/api/competition/%00?x=1", NULL, "/api/competition/%00");
    expect_path("/api/a#frag", NULL, "/api/a");
    expect_path("/", NULL, "/");
    expect_path("http://example.org/api/x?y", NULL, "/api/x");
    expect_path("HTTPS://example.org:8443/api", NULL, "/api");
    expect_path("http://example.org", NULL, NULL);
    expect_path("http://example.org?x", NULL, NULL);
    expect_path("*", NULL, NULL);
    expect_path("api/x", NULL, NULL);
    expect_path("", NULL, NULL);
    /* the request line (a 414: cut short, no protocol) */
    expect_path(NULL, "GET /api/competition/xxxxxxxx", "/api/competition/xxxxxxxx");
    expect_path(NULL, "GET /api/competition/1 HTTP/1.1", "/api/competition/1");
    expect_path(NULL, "PUT   /api/x?q HTTP/1.1", "/api/x");
    expect_path(NULL, "GET http://h/api/y HTTP/1.1", "/api/y");
    expect_path(NULL, "GET", NULL);
    expect_path(NULL, "GET ", NULL);
    expect_path(NULL, "GET * HTTP/1.1", NULL);
    expect_path(NULL, NULL, NULL);
}
END_TEST

START_TEST(test_id_valid)
{
    ck_assert_int_eq(rk_id_valid("1", 1), 1);
    ck_assert_int_eq(rk_id_valid("9", 1), 1);
    ck_assert_int_eq(rk_id_valid("10", 2), 1);
    ck_assert_int_eq(rk_id_valid("123456789012345678", 18), 1);
    ck_assert_int_eq(rk_id_valid("999999999999999999", 18), 1);
    ck_assert_int_eq(rk_id_valid("1234567890123456789", 19), 0);
    ck_assert_int_eq(rk_id_valid("1000000000000000000", 19), 0);
    ck_assert_int_eq(rk_id_valid("", 0), 0);
    ck_assert_int_eq(rk_id_valid("0", 1), 0);
    ck_assert_int_eq(rk_id_valid("00", 2), 0);
    ck_assert_int_eq(rk_id_valid("01", 2), 0);
    ck_assert_int_eq(rk_id_valid("-1", 2), 0);
    ck_assert_int_eq(rk_id_valid("+1", 2), 0);
    ck_assert_int_eq(rk_id_valid("0x1", 3), 0);
    ck_assert_int_eq(rk_id_valid("1.0", 3), 0);
    ck_assert_int_eq(rk_id_valid("1e3", 3), 0);
    ck_assert_int_eq(rk_id_valid("abc", 3), 0);
    ck_assert_int_eq(rk_id_valid(" 1", 2), 0);
    ck_assert_int_eq(rk_id_valid("1 ", 2), 0);
    ck_assert_int_eq(rk_id_valid("1/", 2), 0);
    ck_assert_int_eq(rk_id_valid("\xef\xbc\x91", 3), 0);
    /* LEN is honoured: only S[0..LEN) is looked at */
    ck_assert_int_eq(rk_id_valid("12abc", 2), 1);
    ck_assert_int_eq(rk_id_valid("12/wod", 2), 1);
    ck_assert_int_eq(rk_id_valid("12/wod", 3), 0);
    ck_assert_int_eq(rk_id_valid("1234567890123456789", 18), 1);
    ck_assert_int_eq(rk_id_valid("0123", 0), 0);
    ck_assert_int_eq(rk_id_valid("1", 0), 0);
    ck_assert_int_eq(rk_id_valid("123", 0), 0);
    ck_assert_int_eq(rk_id_valid("1\0" "2", 3), 0);   /* an embedded NUL is not a digit */
    /* a buffer without NUL */
    const char nonul[3] = { '4', '5', '6' };
    ck_assert_int_eq(rk_id_valid(nonul, 3), 1);
}
END_TEST

/* ------------------------------------------------------------------ methods */

static const rk_route_id list_routes[] = {
    RK_ROUTE_COMPETITIONS, RK_ROUTE_WODS, RK_ROUTE_SPOTS, RK_ROUTE_ZONES,
    RK_ROUTE_A_HEATS, RK_ROUTE_A_VOIES, RK_ROUTE_B_HEATS, RK_ROUTE_B_LINES,
    RK_ROUTE_A_VOIE_HISTORY, RK_ROUTE_CHANGES };

static int is_list_route(rk_route_id id)
{
    for (size_t i = 0; i < sizeof list_routes / sizeof list_routes[0]; i++)
        if (list_routes[i] == id)
            return 1;
    return 0;
}

START_TEST(test_route_methods)
{
    rk_route_id id = (rk_route_id)_i;
    unsigned want;
    const char *allow;
    if (id == RK_ROUTE_NONE) {
        want = 0;
        allow = NULL;
    } else if (id == RK_ROUTE_CONNECT || id == RK_ROUTE_A_VOIE_VALIDATE
               || id == RK_ROUTE_A_HEAT_VALIDATE || id == RK_ROUTE_GENERATE_HEATS) {
        want = RK_M_POST;
        allow = "POST";
    } else if (id == RK_ROUTE_A_VOIE) {
        want = RK_M_GET | RK_M_HEAD | RK_M_PUT | RK_M_DELETE;
        allow = "GET, HEAD, PUT, DELETE";
    } else if (id == RK_ROUTE_COMPETITIONS || id == RK_ROUTE_WODS || id == RK_ROUTE_SPOTS
               || id == RK_ROUTE_ZONES || id == RK_ROUTE_A_HEATS || id == RK_ROUTE_A_VOIES) {
        /* API.md part 3: the organizer's POST on the lists of variant A and common routes */
        want = RK_M_GET | RK_M_HEAD | RK_M_POST;
        allow = "GET, HEAD, POST";
    } else if (id == RK_ROUTE_COMPETITION || id == RK_ROUTE_WOD || id == RK_ROUTE_SPOT
               || id == RK_ROUTE_ZONE || id == RK_ROUTE_A_HEAT) {
        want = RK_M_GET | RK_M_HEAD | RK_M_PATCH | RK_M_DELETE;
        allow = "GET, HEAD, PATCH, DELETE";
    } else {
        want = RK_M_GET | RK_M_HEAD;
        allow = "GET, HEAD";
    }
    ck_assert_msg(rk_route_methods(id) == want, "route %d: methods 0x%x, want 0x%x",
                  (int)id, rk_route_methods(id), want);
    ck_assert_msg((rk_route_methods(id) & (RK_M_OPTIONS | RK_M_OTHER)) == 0,
                  "route %d: OPTIONS/OTHER must not be in the mask", (int)id);
    if (allow == NULL)
        ck_assert_ptr_null(rk_route_allow(id));
    else
        ck_assert_pstr_eq(rk_route_allow(id), allow);
    ck_assert_int_eq(rk_route_is_list(id), is_list_route(id));
    /* public mounts: every read but a lane's history (the event stream too: spectators
     * live, API.md part 3); no write */
    ck_assert_int_eq(rk_route_is_public_read(id),
                     id != RK_ROUTE_NONE && id != RK_ROUTE_CONNECT
                     && id != RK_ROUTE_A_VOIE_HISTORY && id != RK_ROUTE_CHANGES
                     && id != RK_ROUTE_A_VOIE_VALIDATE && id != RK_ROUTE_A_HEAT_VALIDATE
                     && id != RK_ROUTE_GENERATE_HEATS);
    /* names: non-empty, distinct */
    const char *name = rk_route_name(id);
    ck_assert_ptr_nonnull(name);
    ck_assert_uint_gt(strlen(name), 0);
    for (int j = 0; j < RK_ROUTE_COUNT; j++) {
        if (j == _i)
            continue;
        const char *other = rk_route_name((rk_route_id)j);
        ck_assert_ptr_nonnull(other);
        ck_assert_msg(strcmp(name, other) != 0, "routes %d and %d share the name '%s'", _i, j, name);
    }
}
END_TEST

/* The route table: one entry per route, and what answers a read is coherent. */
START_TEST(test_route_table)
{
    rk_route_id id = (rk_route_id)_i;
    const rk_route_def *d = rk_route_def_of(id);

    if (id == RK_ROUTE_NONE) {
        ck_assert_ptr_null(d);
        return;
    }
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->id, id);
    ck_assert_str_eq(d->name, rk_route_name(id));
    if (id == RK_ROUTE_CONNECT) {
        ck_assert_int_eq(d->answer, RK_ANSWER_NONE);
    }
    else if (id == RK_ROUTE_A_VOIE_VALIDATE || id == RK_ROUTE_A_HEAT_VALIDATE) {
        /* writes of organizers (API.md part 3): no read, every method needs the role */
        ck_assert_int_eq(d->answer, RK_ANSWER_NONE);
        ck_assert_int_eq(d->write_role, RK_ROLE_ORGANIZER);
        ck_assert_int_eq(d->write, id == RK_ROUTE_A_VOIE_VALIDATE ? RK_WRITE_VALIDATE_LANE
                                   : RK_WRITE_VALIDATE_HEAT);
        ck_assert_uint_eq(d->variant, RK_VARIANT_A);
    }
    else if (id == RK_ROUTE_GENERATE_HEATS) {
        /* a write only: organizers (every method needs the role), no read */
        ck_assert_int_eq(d->answer, RK_ANSWER_NONE);
        ck_assert_int_eq(d->write_role, RK_ROLE_ORGANIZER);
        ck_assert_int_eq(d->write, RK_WRITE_GENERATE);
        ck_assert_ptr_null(d->res);
    }
    else if (id == RK_ROUTE_EVENTS) {
        ck_assert_int_eq(d->answer, RK_ANSWER_EVENTS);
        ck_assert_int_eq(d->list, 0);
        ck_assert_ptr_null(d->res);
    }
    else if (id == RK_ROUTE_LEADERBOARD || id == RK_ROUTE_WOD_LEADERBOARD) {
        ck_assert_int_eq(d->answer, RK_ANSWER_LEADERBOARD);
        ck_assert_int_eq(d->list, 0);
        ck_assert_ptr_null(d->res);
    }
    else {
        ck_assert_int_eq(d->answer, RK_ANSWER_ROWS);
        ck_assert_ptr_nonnull(d->res);
        ck_assert_int_lt(d->query, RK_Q_COUNT);
        /* the statement takes exactly the path's ids */
        int nids = 0;
        for (int k = 0; d->segments[k]; k++)
            nids += d->segments[k][0] == '#';
        ck_assert_msg(rk_queries[d->query].nargs == nids, "%s: %d path ids, statement takes %d",
                      d->name, nids, rk_queries[d->query].nargs);
    }
    /* writes: a lane's PUT/DELETE, the setup routes' POST/PATCH/DELETE on the
     * resource they list or show; variant B stays read-only */
    if (d->methods & ~(unsigned)(RK_M_GET | RK_M_HEAD) && id != RK_ROUTE_CONNECT
        && d->answer != RK_ANSWER_NONE) {
        ck_assert_int_eq(d->write, id == RK_ROUTE_A_VOIE ? RK_WRITE_LANE : RK_WRITE_SETUP);
        ck_assert_int_ne(d->variant, RK_VARIANT_B);
        ck_assert_str_eq(rk_resource_def_of(d->kind)->name, d->res->singular);
    }
    else if (d->answer != RK_ANSWER_NONE || id == RK_ROUTE_CONNECT) {
        ck_assert_int_eq(d->write, RK_WRITE_NONE);
    }
    ck_assert_ptr_null(rk_route_def_of(RK_ROUTE_COUNT));
}
END_TEST

START_TEST(test_route_name_example)
{
    ck_assert_str_eq(rk_route_name(RK_ROUTE_A_VOIE), "A_VOIE");
}
END_TEST

/* Roles: what each route and method needs (API.md part 3, "Roles"). */
START_TEST(test_route_roles)
{
    rk_route_id id = (rk_route_id)_i;
    unsigned writes = rk_route_methods(id) & ~(unsigned)(RK_M_GET | RK_M_HEAD);

    ck_assert_int_eq(rk_route_role(id, RK_M_OPTIONS), RK_ROLE_NONE);
    if (id == RK_ROUTE_NONE) {
        ck_assert_int_eq(rk_route_role(id, RK_M_GET), RK_ROLE_NONE);
        return;
    }
    /* reads: anyone, but a lane's history (editors) and the change log (organizers) */
    ck_assert_int_eq(rk_route_role(id, RK_M_GET),
                     id == RK_ROUTE_A_VOIE_HISTORY ? RK_ROLE_EDITOR
                     : id == RK_ROUTE_CHANGES ? RK_ROLE_ORGANIZER : RK_ROLE_NONE);
    ck_assert_int_eq(rk_route_role(id, RK_M_HEAD), rk_route_role(id, RK_M_GET));
    /* writes: a lane's PUT and DELETE are an editor's, every other write an
     * organizer's; /connect needs none */
    if (id == RK_ROUTE_CONNECT || !writes)
        ck_assert_int_eq(rk_route_role(id, RK_M_POST), RK_ROLE_NONE);
    else if (id == RK_ROUTE_A_VOIE)
        ck_assert_int_eq(rk_route_role(id, RK_M_PUT), RK_ROLE_EDITOR);
    else
        ck_assert_int_eq(rk_route_role(id, RK_M_POST), RK_ROLE_ORGANIZER);
}
END_TEST

START_TEST(test_role_parse)
{
    ck_assert_int_eq(rk_role_parse("reader"), RK_ROLE_READER);
    ck_assert_int_eq(rk_role_parse("editor"), RK_ROLE_EDITOR);
    ck_assert_int_eq(rk_role_parse("organizer"), RK_ROLE_ORGANIZER);
    ck_assert_int_eq(rk_role_parse("Organizer"), RK_ROLE_NONE);
    ck_assert_int_eq(rk_role_parse(""), RK_ROLE_NONE);
    ck_assert_int_eq(rk_role_parse(NULL), RK_ROLE_NONE);
    ck_assert_int_lt(RK_ROLE_READER, RK_ROLE_EDITOR);
    ck_assert_int_lt(RK_ROLE_EDITOR, RK_ROLE_ORGANIZER);
}
END_TEST

START_TEST(test_method_bit)
{
    ck_assert_uint_eq(rk_method_bit("GET"), RK_M_GET);
    ck_assert_uint_eq(rk_method_bit("HEAD"), RK_M_HEAD);
    ck_assert_uint_eq(rk_method_bit("POST"), RK_M_POST);
    ck_assert_uint_eq(rk_method_bit("PUT"), RK_M_PUT);
    ck_assert_uint_eq(rk_method_bit("DELETE"), RK_M_DELETE);
    ck_assert_uint_eq(rk_method_bit("OPTIONS"), RK_M_OPTIONS);
    ck_assert_uint_eq(rk_method_bit("PATCH"), RK_M_PATCH);
    ck_assert_uint_eq(rk_method_bit("patch"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("TRACE"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("CONNECT"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("PROPFIND"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit(""), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("GE"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("GETS"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("GET "), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("DELETEX"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("POS"), RK_M_OTHER);
    /* RFC 9110 section 9.1: the method token is case-sensitive */
    ck_assert_uint_eq(rk_method_bit("get"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("Put"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("delete"), RK_M_OTHER);
    ck_assert_uint_eq(rk_method_bit("options"), RK_M_OTHER);
}
END_TEST

/* ------------------------------------------------------------------ main */

static Suite *router_suite(void)
{
    Suite *s = suite_create("rk_router");
    TCase *tc = tcase_create("routes");
    tcase_add_loop_test(tc, test_route_all_forms, 0, NROUTES);
    tcase_add_loop_test(tc, test_route_disabled_variant, 0, NROUTES);
    tcase_add_loop_test(tc, test_route_bad_ids, 0, NROUTES);
    tcase_add_loop_test(tc, test_route_extra, 0, NROUTES);
    tcase_add_loop_test(tc, test_route_case, 0, NROUTES);
    tcase_add_test(tc, test_connect_every_mask);
    tcase_add_loop_test(tc, test_malformed_paths, 0, (int)(sizeof malformed / sizeof malformed[0]));
    tcase_add_test(tc, test_id_lengths);
    tcase_add_test(tc, test_long_paths);
    tcase_add_test(tc, test_no_overread);
    tcase_add_test(tc, test_out_reset);
    suite_add_tcase(s, tc);

    tc = tcase_create("ids");
    tcase_add_test(tc, test_id_valid);
    tcase_add_test(tc, test_target_path);
    suite_add_tcase(s, tc);

    tc = tcase_create("methods");
    tcase_add_loop_test(tc, test_route_methods, 0, RK_ROUTE_COUNT);
    tcase_add_loop_test(tc, test_route_table, 0, RK_ROUTE_COUNT);
    tcase_add_test(tc, test_route_name_example);
    tcase_add_test(tc, test_method_bit);
    tcase_add_loop_test(tc, test_route_roles, 0, RK_ROUTE_COUNT);
    tcase_add_test(tc, test_role_parse);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(router_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
