/* check_body.c: Check unit tests of rk_body (POST /connect and lane PUT bodies).
 * Contract: doc/api.md "Writing a lane", "Authentication"; doc/design.md. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rk_body.h"

#define MARK "XYZZY"   /* put into bad inputs: must never appear in an error message */

/* ------------------------------------------------------------------ helpers */

/* malloc()ed concatenation of N copies of UNIT */
static char *rep(const char *unit, size_t n)
{
    size_t ul = strlen(unit);
    char *s = malloc(ul * n + 1);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * ul, unit, ul);
    s[ul * n] = '\0';
    return s;
}

/* malloc()ed printf */
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

/* A string of N '[' (when CLOSE, followed by N ']'). */
static char *nest(size_t n, int close)
{
    char *s = malloc(2 * n + 1);
    ck_assert_ptr_nonnull(s);
    memset(s, '[', n);
    if (close)
        memset(s + n, ']', n);
    s[close ? 2 * n : n] = '\0';
    return s;
}

/* An error message: set, non-empty, printable ASCII, not pointing into the body and
 * carrying no part of it. */
static void check_err(const char *err, const char *body, size_t len, const char *what)
{
    ck_assert_msg(err != NULL, "%s: *err not set", what);
    ck_assert_msg(err[0] != '\0', "%s: *err is empty", what);
    ck_assert_msg(!(err >= body && err < body + len), "%s: *err points into the body", what);
    for (const char *p = err; *p; p++)
        ck_assert_msg(*p >= 0x20 && *p < 0x7f, "%s: *err has a non-printable byte 0x%02x",
                      what, (unsigned char)*p);
    ck_assert_msg(strstr(err, MARK) == NULL, "%s: *err '%s' echoes the input", what, err);
    ck_assert_msg(strlen(err) < 200, "%s: *err too long (%zu)", what, strlen(err));
    if (len >= 8) {
        char *copy = strndup(body, len);   /* stops at an embedded NUL: fine */
        ck_assert_ptr_nonnull(copy);
        if (strlen(copy) >= 8)
            ck_assert_msg(strstr(err, copy) == NULL, "%s: *err '%s' contains the body", what, err);
        free(copy);
    }
}

static void lane_garbage(rk_lane_patch *p)
{
    memset(p, 0x5a, sizeof *p);
    p->set = 0xdead0000u;
    p->spot_null = 77;
    p->score_null = 77;
    p->tiebreak_null = 77;
}

static void lane_bad_n(const char *body, size_t len, const char *what)
{
    rk_lane_patch p;
    const char *err = NULL;
    lane_garbage(&p);
    int rc = rk_lane_patch_parse(body, len, &p, &err);
    ck_assert_msg(rc == -1, "lane body %s (%.80s): returned %d, want -1", what, body, rc);
    check_err(err, body, len, what);
}

static void lane_bad(const char *body)
{
    lane_bad_n(body, strlen(body), body);
}

static rk_lane_patch lane_ok_n(const char *body, size_t len)
{
    rk_lane_patch p;
    const char *err = NULL;
    lane_garbage(&p);
    int rc = rk_lane_patch_parse(body, len, &p, &err);
    ck_assert_msg(rc == 0, "lane body (%.100s): returned %d (%s), want 0", body, rc,
                  err ? err : "no err");
    return p;
}

static rk_lane_patch lane_ok(const char *body)
{
    return lane_ok_n(body, strlen(body));
}

static void conn_garbage(rk_credentials *c)
{
    memset(c, 0x5a, sizeof *c);
}

static void conn_bad_n(const char *body, size_t len, const char *what)
{
    rk_credentials c;
    const char *err = NULL;
    conn_garbage(&c);
    int rc = rk_connect_parse(body, len, &c, &err);
    ck_assert_msg(rc == -1, "connect body %s (%.80s): returned %d, want -1", what, body, rc);
    check_err(err, body, len, what);
}

static void conn_bad(const char *body)
{
    conn_bad_n(body, strlen(body), body);
}

static void conn_ok_n(const char *body, size_t len, const char *id, const char *secret)
{
    rk_credentials c;
    const char *err = NULL;
    conn_garbage(&c);
    int rc = rk_connect_parse(body, len, &c, &err);
    ck_assert_msg(rc == 0, "connect body (%.100s): returned %d (%s), want 0", body, rc,
                  err ? err : "no err");
    ck_assert_str_eq(c.client_id, id);
    ck_assert_str_eq(c.client_secret, secret);
}

static void conn_ok(const char *body, const char *id, const char *secret)
{
    conn_ok_n(body, strlen(body), id, secret);
}

/* A copy of BODY[0..LEN) ending exactly before an unreadable page (no NUL after it):
 * a read past LEN crashes the (forked) test. */
static char *guarded(const char *body, size_t len, void **map, size_t *maplen)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t pages = (len + pg - 1) / pg + 1;
    char *m = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(m, MAP_FAILED);
    ck_assert_int_eq(mprotect(m + (pages - 1) * pg, pg, PROT_NONE), 0);
    char *p = m + (pages - 1) * pg - len;
    memcpy(p, body, len);
    *map = m;
    *maplen = pages * pg;
    return p;
}

/* Bad inputs common to both parsers (not an object, not JSON, trailing garbage...). */
static const char *const common_bad[] = {
    "", " ", "\n", "\t\r\n ", MARK, "{" MARK "}", "{'client_id':'" MARK "'}",
    "[]", "[{\"number\":1}]", "[{\"client_id\":\"a\",\"client_secret\":\"b\"}]",
    "\"" MARK "\"", "1", "0", "-1", "1.5", "null", "true", "false",
    "{", "{\"", "{\"number", "{\"number\":", "{\"number\":1", "{\"number\":1,",
    "{\"client_id\":\"a\",\"client_secret\":\"b\"", "{\"client_id\":\"a\",\"client_secret\":\"b",
    "{\"client_id\":\"a\",\"client_secret\":", "}", "{}}", "{]",
    "{\"number\":1,}", "{\"number\":1 /* " MARK " */}", "// " MARK "\n{\"number\":1}",
    "{\"client_id\":\"a\",\"client_secret\":\"b\",}",
    "{\"client_id\":\"a\" \"client_secret\":\"b\"}", "{\"client_id\" \"a\"}",
    "{\"client_id\":'a',\"client_secret\":'b'}", "{client_id:\"a\",client_secret:\"b\"}",
    "{\"number\":1}x", "{\"number\":1} x", "{\"number\":1} {}", "{\"number\":1}{\"number\":1}",
    "{\"number\":1}]", "{\"number\":1}}", "{\"number\":1},", "{\"number\":1}" MARK,
    "{\"client_id\":\"a\",\"client_secret\":\"b\"}x",
    "{\"client_id\":\"a\",\"client_secret\":\"b\"} {}",
    "{\"client_id\":\"a\",\"client_secret\":\"b\"}{\"client_id\":\"a\",\"client_secret\":\"b\"}",
    "{\"client_id\":\"a\",\"client_secret\":\"b\"}\xff",
    "{\"client_id\":\"a\",\"client_secret\":\"b\"}\x01",
    "{}x", "{} {}", "{}{}", "{},{}",
    /* leading BOM */
    "\xef\xbb\xbf{\"number\":1}", "\xef\xbb\xbf{\"client_id\":\"a\",\"client_secret\":\"b\"}",
    /* UTF-16 */
    "\xff\xfe{\0\"\0",
    /* JSON extensions */
    "{\"number\":NaN}", "{\"number\":Infinity}", "{\"number\":-Infinity}",
    /* raw control characters in strings */
    "{\"client_id\":\"a\tb\",\"client_secret\":\"b\"}", "{\"score\":\"a\nb\"}",
    "{\"client_id\":\"a\",\"client_secret\":\"b\x01\"}",
    /* invalid UTF-8 in a key */
    "{\"\xff\":1}", "{\"client_id\":\"a\",\"client_secret\":\"b\",\"\xc3\x28\":1}",
};

/* ------------------------------------------------------------------ lane: valid */

START_TEST(test_lane_number)
{
    rk_lane_patch p = lane_ok("{\"number\":5}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER);
    ck_assert_int_eq(p.number, 5);
    p = lane_ok("{\"number\":1}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER);
    ck_assert_int_eq(p.number, 1);
    p = lane_ok("{\"number\":999}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER);
    ck_assert_int_eq(p.number, 999);
    p = lane_ok("{\"number\":42}");
    ck_assert_int_eq(p.number, 42);
}
END_TEST

START_TEST(test_lane_spot)
{
    rk_lane_patch p = lane_ok("{\"spot_id\":\"12\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SPOT);
    ck_assert_int_eq(p.spot_null, 0);
    ck_assert_str_eq(p.spot_id, "12");
    p = lane_ok("{\"spot_id\":\"123456789012345678\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SPOT);
    ck_assert_int_eq(p.spot_null, 0);
    ck_assert_str_eq(p.spot_id, "123456789012345678");
    p = lane_ok("{\"spot_id\":\"1\"}");
    ck_assert_str_eq(p.spot_id, "1");
    p = lane_ok("{\"spot_id\":\"\\u0031\\u0032\"}");   /* escaped digits are digits */
    ck_assert_int_eq(p.spot_null, 0);
    ck_assert_str_eq(p.spot_id, "12");
    p = lane_ok("{\"spot_id\":null}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SPOT);
    ck_assert_int_eq(p.spot_null, 1);
}
END_TEST

START_TEST(test_lane_score)
{
    rk_lane_patch p = lane_ok("{\"score\":\"07:45\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.score_null, 0);
    ck_assert_str_eq(p.score, "07:45");
    p = lane_ok("{\"score\":\"212\"}");
    ck_assert_str_eq(p.score, "212");
    p = lane_ok("{\"score\":\"\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.score_null, 0);
    ck_assert_str_eq(p.score, "");
    p = lane_ok("{\"score\":null}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.score_null, 1);
    /* escapes are decoded */
    p = lane_ok("{\"score\":\"a\\\"b\\\\c\\/d\\u00e9\"}");
    ck_assert_str_eq(p.score, "a\"b\\c/d\xc3\xa9");
    p = lane_ok("{\"score\":\"\\ud83d\\ude00\"}");
    ck_assert_str_eq(p.score, "\xf0\x9f\x98\x80");
    p = lane_ok("{\"score\":\"\xc3\xa9t\xc3\xa9 \xe2\x82\xac\"}");
    ck_assert_str_eq(p.score, "\xc3\xa9t\xc3\xa9 \xe2\x82\xac");
}
END_TEST

START_TEST(test_lane_score_lengths)
{
    /* 64 code points: fine whatever their UTF-8 length; 65: refused */
    static const char *const units[] = {
        "a", "\xc3\xa9" /* é */, "\xe2\x82\xac" /* € */, "\xf0\x9f\x98\x80" /* 😀 */,
        "\\u00e9", "\\ud83d\\ude00", "\\\"",
    };
    static const char *const decoded[] = {
        "a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3\xa9", "\xf0\x9f\x98\x80", "\"",
    };
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        char *s64 = rep(units[u], 64);
        char *want = rep(decoded[u], 64);
        char *body = fmt("{\"score\":\"%s\"}", s64);
        rk_lane_patch p = lane_ok(body);
        ck_assert_uint_eq(p.set, RK_LANE_SET_SCORE);
        ck_assert_int_eq(p.score_null, 0);
        ck_assert_str_eq(p.score, want);
        free(body);
        free(s64);
        free(want);

        char *s65 = rep(units[u], 65);
        body = fmt("{\"score\":\"%s\"}", s65);
        lane_bad(body);
        free(body);
        free(s65);

        char *s200 = rep(units[u], 200);
        body = fmt("{\"score\":\"%s\"}", s200);
        lane_bad(body);
        free(body);
        free(s200);
    }
    /* 63 ASCII + 1 emoji = 64 code points, 67 bytes */
    char *a63 = rep("a", 63);
    char *body = fmt("{\"score\":\"%s\xf0\x9f\x98\x80\"}", a63);
    rk_lane_patch p = lane_ok(body);
    ck_assert_uint_eq(strlen(p.score), 67);
    free(body);
    body = fmt("{\"score\":\"%s\xf0\x9f\x98\x80" "b\"}", a63);
    lane_bad(body);
    free(body);
    free(a63);
    /* a huge score */
    char *big = rep(MARK, 20000);
    body = fmt("{\"score\":\"%s\"}", big);
    lane_bad(body);
    free(body);
    free(big);
}
END_TEST

START_TEST(test_lane_combined)
{
    rk_lane_patch p = lane_ok("{\"number\":3,\"spot_id\":\"7\",\"score\":\"212\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_SPOT | RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.number, 3);
    ck_assert_int_eq(p.spot_null, 0);
    ck_assert_str_eq(p.spot_id, "7");
    ck_assert_int_eq(p.score_null, 0);
    ck_assert_str_eq(p.score, "212");

    p = lane_ok("{\"score\":null,\"spot_id\":null,\"number\":999}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_SPOT | RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.number, 999);
    ck_assert_int_eq(p.spot_null, 1);
    ck_assert_int_eq(p.score_null, 1);

    p = lane_ok("{\"number\":2,\"score\":\"1:02\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.number, 2);
    ck_assert_str_eq(p.score, "1:02");

    p = lane_ok("{\"spot_id\":\"99\",\"score\":null}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SPOT | RK_LANE_SET_SCORE);
    ck_assert_str_eq(p.spot_id, "99");
    ck_assert_int_eq(p.spot_null, 0);
    ck_assert_int_eq(p.score_null, 1);

    p = lane_ok("{\"spot_id\":null,\"number\":8}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_SPOT);
    ck_assert_int_eq(p.spot_null, 1);
    ck_assert_int_eq(p.number, 8);
}
END_TEST

START_TEST(test_lane_whitespace)
{
    rk_lane_patch p = lane_ok("{\"number\":5} ");
    ck_assert_int_eq(p.number, 5);
    p = lane_ok("{\"number\":6}\r\n\t \n");
    ck_assert_int_eq(p.number, 6);
    p = lane_ok(" \n\t\r{ \"number\" :\n7 ,\t\"score\" : \"x\" }\n");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_SCORE);
    ck_assert_int_eq(p.number, 7);
    ck_assert_str_eq(p.score, "x");
}
END_TEST

/* LEN is honoured: bytes after it are not looked at; no NUL is needed after it. */
START_TEST(test_lane_len)
{
    const char *b = "{\"number\":7}" MARK;
    rk_lane_patch p = lane_ok_n(b, 12);
    ck_assert_int_eq(p.number, 7);
    lane_bad_n(b, 11, "cut to 11 bytes");
    lane_bad_n(b, 0, "len 0");
    lane_bad_n(b, strlen(b), "with trailing mark");

    /* a raw NUL inside LEN is not whitespace */
    lane_bad_n("{\"number\":7}\0", 13, "trailing NUL byte");
    lane_bad_n("{\"number\":7}\0 ", 14, "trailing NUL and space");
    lane_bad_n("\0{\"number\":7}", 13, "leading NUL byte");
    lane_bad_n("{\"score\":\"a\0b\"}", 15, "raw NUL in a string");
    lane_bad_n("{\"sco\0re\":\"ab\"}", 15, "raw NUL in a key");

    static const char *const bodies[] = {
        "{\"number\":7}", "{\"number\":7}  ", "{\"number\":7", "{\"number\":", "{",
        "{\"score\":\"abc", "{\"score\":\"abc\\", "{\"score\":\"\\u00", "{\"score\":\"\xc3",
        "{\"spot_id\":\"12\"}", "{\"spot_id\":\"12", "{\"spot_id\":nul", "{}", " ", "1",
        "{\"number\":1234567", "{\"number\":7} x",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        void *map;
        size_t maplen, len = strlen(bodies[i]);
        char *g = guarded(bodies[i], len, &map, &maplen);
        rk_lane_patch lp;
        const char *err = NULL;
        int rc = rk_lane_patch_parse(g, len, &lp, &err);
        ck_assert_int_eq(rc, i < 2 || i == 9 ? 0 : -1);
        munmap(map, maplen);
    }
}
END_TEST

/* tiebreak: a time (rk_tiebreak_parse), kept as sent, or null */
START_TEST(test_lane_tiebreak)
{
    static const char *const times[] = {
        "1:02.5", "01:02.5", "1:02.500", "0:00", "7:45", "07:45.0", "1:02:03", "1:02:03.5",
        "99:59:59.999", "00:00:00.000", "99:59", "0:00.001",
    };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        char *body = fmt("{\"tiebreak\":\"%s\"}", times[i]);
        rk_lane_patch p = lane_ok(body);
        ck_assert_uint_eq(p.set, RK_LANE_SET_TIEBREAK);
        ck_assert_int_eq(p.tiebreak_null, 0);
        ck_assert_str_eq(p.tiebreak, times[i]);   /* stored as sent */
        ck_assert_int_eq(p.score_null, 0);
        ck_assert_str_eq(p.score, "");
        free(body);
    }
    rk_lane_patch p = lane_ok("{\"tiebreak\":null}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_TIEBREAK);
    ck_assert_int_eq(p.tiebreak_null, 1);
    ck_assert_str_eq(p.tiebreak, "");
    /* escaped digits are digits */
    p = lane_ok("{\"tiebreak\":\"\\u0031:02\"}");
    ck_assert_str_eq(p.tiebreak, "1:02");
    /* with every other key, in any order */
    p = lane_ok("{\"number\":3,\"spot_id\":\"7\",\"score\":\"CAP+12\",\"tiebreak\":\"4:05.2\"}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_SPOT | RK_LANE_SET_SCORE
                      | RK_LANE_SET_TIEBREAK);
    ck_assert_int_eq(p.number, 3);
    ck_assert_str_eq(p.spot_id, "7");
    ck_assert_str_eq(p.score, "CAP+12");
    ck_assert_str_eq(p.tiebreak, "4:05.2");
    ck_assert_int_eq(p.tiebreak_null, 0);
    p = lane_ok("{\"tiebreak\":null,\"score\":null}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_SCORE | RK_LANE_SET_TIEBREAK);
    ck_assert_int_eq(p.score_null, 1);
    ck_assert_int_eq(p.tiebreak_null, 1);
    p = lane_ok("{\"tiebreak\":\"0:59\",\"number\":1}");
    ck_assert_uint_eq(p.set, RK_LANE_SET_NUMBER | RK_LANE_SET_TIEBREAK);
    ck_assert_str_eq(p.tiebreak, "0:59");
    /* the score is still free text here: its format depends on the heat's WOD */
    p = lane_ok("{\"score\":\"anything " MARK "\",\"tiebreak\":\"1:00\"}");
    ck_assert_str_eq(p.score, "anything " MARK);
}
END_TEST

/* ------------------------------------------------------------------ lane: invalid */

START_TEST(test_lane_common_bad)
{
    lane_bad(common_bad[_i]);
}
END_TEST

START_TEST(test_lane_empty_object)
{
    lane_bad("{}");
    lane_bad(" { } ");
    lane_bad("{\n}\n");
    lane_bad_n("", 0, "empty body");
}
END_TEST

START_TEST(test_lane_duplicate)
{
    lane_bad("{\"number\":1,\"number\":2}");
    lane_bad("{\"number\":1,\"number\":1}");
    lane_bad("{\"number\":1,\"score\":\"a\",\"number\":1}");
    lane_bad("{\"score\":\"a\",\"score\":null}");
    lane_bad("{\"score\":null,\"score\":null}");
    lane_bad("{\"spot_id\":null,\"spot_id\":\"1\"}");
    lane_bad("{\"spot_id\":\"1\",\"spot_id\":\"1\"}");
    lane_bad("{\"number\":1,\"\\u006eumber\":2}");   /* the same key, one escaped */
}
END_TEST

START_TEST(test_lane_unknown_key)
{
    lane_bad("{\"" MARK "\":1}");
    lane_bad("{\"number\":1,\"" MARK "\":1}");
    lane_bad("{\"number\":1,\"" MARK "\":null}");
    lane_bad("{\"Number\":1}");
    lane_bad("{\"NUMBER\":1}");
    lane_bad("{\"number \":1}");
    lane_bad("{\" number\":1}");
    lane_bad("{\"id\":\"1\"}");
    lane_bad("{\"heat_id\":\"1\"}");
    lane_bad("{\"spot_name\":\"" MARK "\"}");
    lane_bad("{\"spot\":\"1\"}");
    lane_bad("{\"\":1}");
    lane_bad("{\"number\\u0000\":1}");
    lane_bad("{\"grant_type\":\"client_credentials\",\"number\":1}");
}
END_TEST

static const char *const bad_number_values[] = {
    /* wrong types */
    "\"1\"", "\"" MARK "\"", "1.0", "1.5", "1e2", "1E2", "1e0", "5.0e0", "true", "false", "null",
    "[1]", "{\"a\":1}", "{}", "[]",
    /* out of range */
    "0", "-0", "-1", "-999", "1000", "1001", "65536", "2147483647", "2147483648", "4294967296",
    "4294967297", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551616",
    "100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    "1e400", "-1e400",
    /* not JSON numbers */
    "01", "+1", "0x1", ".5", "1.", "- 1", "1_000", "\"\\u0031\"",
};

START_TEST(test_lane_bad_number)
{
    char *body = fmt("{\"number\":%s}", bad_number_values[_i]);
    lane_bad(body);
    free(body);
    body = fmt("{\"score\":\"ok\",\"number\":%s}", bad_number_values[_i]);
    lane_bad(body);
    free(body);
}
END_TEST

static const char *const bad_spot_values[] = {
    "5", "12", "0", "1.0", "true", "false", "[]", "[\"1\"]", "{}", "{\"id\":\"1\"}",
    "\"abc\"", "\"" MARK "\"", "\"0\"", "\"00\"", "\"01\"", "\"\"", "\"1000000000000000000\"",
    "\"1234567890123456789\"", "\"12345678901234567890123456789\"", "\" 1\"", "\"1 \"", "\"-1\"",
    "\"+1\"", "\"1.0\"", "\"1e3\"", "\"0x1\"", "\"1a\"", "\"\\u0000\"", "\"1\\u0000\"",
    "\"1\\u00002\"", "\"\xef\xbc\x91\"", "\"null\"", "\"1/2\"",
};

START_TEST(test_lane_bad_spot)
{
    char *body = fmt("{\"spot_id\":%s}", bad_spot_values[_i]);
    lane_bad(body);
    free(body);
    body = fmt("{\"number\":1,\"spot_id\":%s,\"score\":null}", bad_spot_values[_i]);
    lane_bad(body);
    free(body);
}
END_TEST

static const char *const bad_score_values[] = {
    "212", "0", "7.45", "true", "false", "[]", "[\"a\"]", "{}", "{\"" MARK "\":1}",
    /* \u0000 */
    "\"\\u0000\"", "\"" MARK "\\u0000\"", "\"a\\u0000b\"",
    /* lone surrogates */
    "\"\\ud800\"", "\"\\udc00\"", "\"\\udfff\"", "\"\\ud83d\"", "\"\\ud83dx\"", "\"\\ude00\\ud83d\"",
    "\"\\ud83d\\u0041\"",
    /* bad escapes */
    "\"\\x41\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\a\"", "\"\\'\"", "\"\\\"",
    /* invalid UTF-8 */
    "\"\xff\"", "\"\xfe\"", "\"\x80\"", "\"\xbf\"", "\"\xc3\"", "\"\xc3\x28\"", "\"\xc0\xaf\"",
    "\"\xc1\xbf\"", "\"\xe0\x80\xaf\"", "\"\xe2\x82\"", "\"\xed\xa0\x80\"", "\"\xed\xbf\xbf\"",
    "\"\xf0\x80\x80\xaf\"", "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"", "\"\xf8\x88\x80\x80\x80\"",
    "\"\xfc\x84\x80\x80\x80\x80\"", "\"" MARK "\xff" MARK "\"", "\"a\xf0\x9f\x98\"",
    /* raw control characters */
    "\"a\x01\"", "\"a\x1f\"", "\"\t\"",
};

START_TEST(test_lane_bad_score)
{
    char *body = fmt("{\"score\":%s}", bad_score_values[_i]);
    lane_bad(body);
    free(body);
    body = fmt("{\"number\":1,\"score\":%s}", bad_score_values[_i]);
    lane_bad(body);
    free(body);
}
END_TEST

/* Not a string or null: the type message.  A string that is not a time: the message of
 * rk_tiebreak_parse. */
static const char *const bad_tiebreak_types[] = {
    "62", "62.5", "0", "true", "false", "[]", "[\"1:02\"]", "{}", "{\"" MARK "\":\"1:02\"}",
};

static const char *const bad_tiebreak_strings[] = {
    "\"\"", "\" \"", "\"CAP+1\"", "\"CAP+0\"", "\"WD\"", "\"62.5\"", "\"1:2\"", "\"1:60\"",
    "\"007:45\"", "\"1:02.5 \"", "\" 1:02.5\"", "\"1:02.\"", "\".5\"", "\"1:02.5000\"",
    "\"100:00:00\"", "\"1:60:00\"", "\"+1:02\"", "\"-1:02\"", "\"" MARK "\"", "\"1:02" MARK "\"",
    "\"null\"", "\"1:02\\n\"", "\"\\u0031:0\"", "\"1:02\xc3\xa9\"",
    "\"1:02:03:04:05:06:07:08:09:10:11:12:13:14:15:16:17:18:19:20:21:22:23:24:25\"",
};

START_TEST(test_lane_bad_tiebreak)
{
    for (size_t i = 0; i < sizeof bad_tiebreak_types / sizeof bad_tiebreak_types[0]; i++) {
        char *body = fmt("{\"tiebreak\":%s}", bad_tiebreak_types[i]);
        rk_lane_patch p;
        const char *err = NULL;
        lane_bad(body);
        ck_assert_int_eq(rk_lane_patch_parse(body, strlen(body), &p, &err), -1);
        ck_assert_str_eq(err, "Invalid body: tiebreak must be a string or null");
        free(body);
    }
    for (size_t i = 0; i < sizeof bad_tiebreak_strings / sizeof bad_tiebreak_strings[0]; i++) {
        char *body = fmt("{\"number\":2,\"tiebreak\":%s}", bad_tiebreak_strings[i]);
        rk_lane_patch p;
        const char *err = NULL;
        lane_bad(body);
        ck_assert_int_eq(rk_lane_patch_parse(body, strlen(body), &p, &err), -1);
        ck_assert_str_eq(err, "Invalid body: tiebreak must be a time like 1:02.5");
        free(body);
    }
    /* longer than 64 characters, and a huge one */
    char *s = rep("1", 65);
    char *body = fmt("{\"tiebreak\":\"%s\"}", s);
    lane_bad(body);
    free(body);
    free(s);
    s = rep(MARK, 20000);
    body = fmt("{\"tiebreak\":\"%s\"}", s);
    lane_bad(body);
    free(body);
    free(s);
    /* the rules of every string: \u0000, lone surrogates, invalid UTF-8 */
    for (size_t i = 0; i < sizeof bad_score_values / sizeof bad_score_values[0]; i++) {
        body = fmt("{\"tiebreak\":%s}", bad_score_values[i]);
        lane_bad(body);
        free(body);
    }
    /* duplicate, or a near-miss key */
    lane_bad("{\"tiebreak\":\"1:02\",\"tiebreak\":\"1:02\"}");
    lane_bad("{\"tiebreak\":null,\"tiebreak\":\"1:02\"}");
    lane_bad("{\"tiebreak\":\"1:02\",\"\\u0074iebreak\":null}");
    lane_bad("{\"Tiebreak\":\"1:02\"}");
    lane_bad("{\"tie_break\":\"1:02\"}");
    lane_bad("{\"tiebreak \":\"1:02\"}");
    /* a bad tiebreak fails the whole body, whatever else is right */
    lane_bad("{\"number\":1,\"spot_id\":\"7\",\"score\":\"7:45\",\"tiebreak\":\"CAP+1\"}");
}
END_TEST

START_TEST(test_lane_deep_nesting)
{
    const size_t n = 100000;
    const char *keys[] = { "score", "number", "spot_id", "tiebreak", MARK };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        for (int close = 0; close <= 1; close++) {
            char *inner = nest(n, close);
            char *body = fmt("{\"%s\":%s}", keys[k], inner);
            lane_bad(body);
            free(body);
            /* the nested value after a valid key */
            body = fmt("{\"number\":1,\"%s\":%s}", keys[k], inner);
            lane_bad(body);
            free(body);
            free(inner);
        }
    }
    /* nested objects */
    char *open = rep("{\"a\":", n);
    char *shut = rep("}", n);
    char *body = fmt("{\"score\":%s1%s}", open, shut);
    lane_bad(body);
    free(body);
    /* a bare nested array as the whole body */
    char *inner = nest(n, 1);
    lane_bad(inner);
    free(inner);
    free(open);
    free(shut);
}
END_TEST

/* ------------------------------------------------------------------ connect */

START_TEST(test_connect_valid)
{
    conn_ok("{\"client_id\":\"alice\",\"client_secret\":\"s3cret\"}", "alice", "s3cret");
    conn_ok("{\"client_secret\":\"s3cret\",\"client_id\":\"alice\"}", "alice", "s3cret");
    conn_ok(" \n{ \"client_id\" : \"bob\" ,\n \"client_secret\" : \"pw\" }\r\n\t ", "bob", "pw");
    /* empty strings are allowed (they simply fail the login) */
    conn_ok("{\"client_id\":\"\",\"client_secret\":\"\"}", "", "");
    /* escapes and UTF-8 */
    conn_ok("{\"client_id\":\"al\\u00efce\",\"client_secret\":\"a\\\"b\\\\c\\/d\"}",
            "al\xc3\xaf" "ce", "a\"b\\c/d");
    conn_ok("{\"client_id\":\"\xc3\xa9quipe\",\"client_secret\":\"\xf0\x9f\x94\x91\"}",
            "\xc3\xa9quipe", "\xf0\x9f\x94\x91");
    conn_ok("{\"client_id\":\"u\",\"client_secret\":\"p w\\t\"}", "u", "p w\t");
}
END_TEST

START_TEST(test_connect_ignores_other_keys)
{
    conn_ok("{\"grant_type\":\"client_credentials\",\"client_id\":\"a\",\"client_secret\":\"b\"}",
            "a", "b");
    conn_ok("{\"client_id\":\"a\",\"client_secret\":\"b\",\"scope\":null,\"n\":1,\"f\":1.5,"
            "\"o\":{\"x\":[1,2,{}]},\"t\":true,\"\":\"\"}", "a", "b");
    conn_ok("{\"client_id\":\"a\",\"" MARK "\":\"" MARK "\",\"client_secret\":\"b\"}", "a", "b");
    conn_ok("{\"Client_Id\":\"x\",\"client_id\":\"a\",\"client_secret\":\"b\"}", "a", "b");
}
END_TEST

START_TEST(test_connect_lengths)
{
    /* client_id: up to RK_CLIENT_ID_MAX bytes */
    char *s = rep("u", RK_CLIENT_ID_MAX);
    char *body = fmt("{\"client_id\":\"%s\",\"client_secret\":\"p\"}", s);
    conn_ok(body, s, "p");
    free(body);
    free(s);
    s = rep("\xc3\xa9", RK_CLIENT_ID_MAX / 2);            /* 256 bytes, 128 chars */
    body = fmt("{\"client_id\":\"%s\",\"client_secret\":\"p\"}", s);
    conn_ok(body, s, "p");
    free(body);
    free(s);
    s = rep("\xf0\x9f\x98\x80", RK_CLIENT_ID_MAX / 4);    /* 256 bytes */
    body = fmt("{\"client_id\":\"%s\",\"client_secret\":\"p\"}", s);
    conn_ok(body, s, "p");
    free(body);
    free(s);
    const char *too_long_units[] = { "u", MARK, "\xc3\xa9", "\xf0\x9f\x98\x80", "\\u00e9" };
    const size_t too_long_n[] = { RK_CLIENT_ID_MAX + 1, RK_CLIENT_ID_MAX / 5 + 1,
                                  RK_CLIENT_ID_MAX / 2 + 1, RK_CLIENT_ID_MAX / 4 + 1,
                                  RK_CLIENT_ID_MAX / 2 + 1 };
    for (size_t i = 0; i < 5; i++) {
        s = rep(too_long_units[i], too_long_n[i]);
        body = fmt("{\"client_id\":\"%s\",\"client_secret\":\"p\"}", s);
        conn_bad(body);
        free(body);
        free(s);
    }
    s = rep("u", 100000);
    body = fmt("{\"client_id\":\"%s\",\"client_secret\":\"p\"}", s);
    conn_bad(body);
    free(body);
    free(s);

    /* client_secret: up to RK_CLIENT_SECRET_MAX bytes */
    s = rep("p", RK_CLIENT_SECRET_MAX);
    body = fmt("{\"client_id\":\"u\",\"client_secret\":\"%s\"}", s);
    conn_ok(body, "u", s);
    free(body);
    free(s);
    s = rep("\xf0\x9f\x98\x80", RK_CLIENT_SECRET_MAX / 4);
    body = fmt("{\"client_id\":\"u\",\"client_secret\":\"%s\"}", s);
    conn_ok(body, "u", s);
    free(body);
    free(s);
    const size_t too_long_s[] = { RK_CLIENT_SECRET_MAX + 1, RK_CLIENT_SECRET_MAX / 5 + 1,
                                  RK_CLIENT_SECRET_MAX / 2 + 1, RK_CLIENT_SECRET_MAX / 4 + 1,
                                  RK_CLIENT_SECRET_MAX / 2 + 1 };
    for (size_t i = 0; i < 5; i++) {
        s = rep(too_long_units[i], too_long_s[i]);
        body = fmt("{\"client_id\":\"u\",\"client_secret\":\"%s\"}", s);
        conn_bad(body);
        free(body);
        free(s);
    }
}
END_TEST

START_TEST(test_connect_missing)
{
    conn_bad("{}");
    conn_bad("{\"client_id\":\"a\"}");
    conn_bad("{\"client_secret\":\"b\"}");
    conn_bad("{\"client_id\":\"a\",\"grant_type\":\"client_credentials\"}");
    conn_bad("{\"Client_id\":\"a\",\"client_secret\":\"b\"}");
    conn_bad("{\"client_id\":\"a\",\"CLIENT_SECRET\":\"b\"}");
    conn_bad("{\"client_id \":\"a\",\"client_secret\":\"b\"}");
    conn_bad("{\"username\":\"a\",\"password\":\"b\"}");
    conn_bad("{\"client\":{\"client_id\":\"a\",\"client_secret\":\"b\"}}");
}
END_TEST

static const char *const non_string_values[] = {
    "1", "0", "-1", "1.5", "1e2", "true", "false", "null", "[]", "[\"" MARK "\"]", "{}",
    "{\"a\":\"" MARK "\"}",
};

START_TEST(test_connect_non_string)
{
    char *body = fmt("{\"client_id\":%s,\"client_secret\":\"b\"}", non_string_values[_i]);
    conn_bad(body);
    free(body);
    body = fmt("{\"client_id\":\"a\",\"client_secret\":%s}", non_string_values[_i]);
    conn_bad(body);
    free(body);
}
END_TEST

START_TEST(test_connect_duplicate)
{
    conn_bad("{\"client_id\":\"a\",\"client_id\":\"a\",\"client_secret\":\"b\"}");
    conn_bad("{\"client_id\":\"" MARK "\",\"client_secret\":\"b\",\"client_id\":\"c\"}");
    conn_bad("{\"client_id\":\"a\",\"client_secret\":\"" MARK "\",\"client_secret\":\"c\"}");
    conn_bad("{\"client_id\":\"a\",\"client_secret\":\"b\",\"grant_type\":\"x\",\"grant_type\":\"y\"}");
    conn_bad("{\"client_id\":\"a\",\"client_secret\":\"b\",\"x\":{\"k\":1,\"k\":2}}");
    conn_bad("{\"client_id\":\"a\",\"client_secret\":\"b\",\"x\":[{\"k\":1,\"k\":2}]}");
    conn_bad("{\"client_id\":\"a\",\"client_secret\":\"b\",\"\\u0063lient_id\":\"c\"}");
}
END_TEST

START_TEST(test_connect_bad_strings)
{
    /* \u0000, lone surrogates, invalid UTF-8, in either field or an ignored key */
    static const char *const bad[] = {
        "\"a\\u0000b\"", "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00" MARK "\"", "\"\\ud83dx\"",
        "\"\xff\"", "\"" MARK "\xc3\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
        "\"\x80\"", "\"a\x01\"", "\"\\x41\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *body = fmt("{\"client_id\":%s,\"client_secret\":\"b\"}", bad[i]);
        conn_bad(body);
        free(body);
        body = fmt("{\"client_id\":\"a\",\"client_secret\":%s}", bad[i]);
        conn_bad(body);
        free(body);
        body = fmt("{\"client_id\":\"a\",\"client_secret\":\"b\",\"grant_type\":%s}", bad[i]);
        conn_bad(body);
        free(body);
    }
}
END_TEST

START_TEST(test_connect_common_bad)
{
    conn_bad(common_bad[_i]);
}
END_TEST

START_TEST(test_connect_len)
{
    const char *b = "{\"client_id\":\"a\",\"client_secret\":\"b\"}" MARK;
    size_t l = strlen("{\"client_id\":\"a\",\"client_secret\":\"b\"}");
    conn_ok_n(b, l, "a", "b");
    conn_bad_n(b, l - 1, "cut by one");
    conn_bad_n(b, strlen(b), "with trailing mark");
    conn_bad_n(b, 0, "len 0");
    conn_bad_n("{\"client_id\":\"a\",\"client_secret\":\"b\"}\0", l + 1, "trailing NUL");
    conn_bad_n("{\"client_id\":\"a\0\",\"client_secret\":\"b\"}", l + 1, "raw NUL in string");

    static const char *const bodies[] = {
        "{\"client_id\":\"a\",\"client_secret\":\"b\"}",
        "{\"client_id\":\"a\",\"client_secret\":\"b\"}\n",
        "{\"client_id\":\"a\",\"client_secret\":\"b\"", "{\"client_id\":\"a\",\"client_secret\":\"b",
        "{\"client_id\":\"a\",\"client_secret\":\"\\u00", "{\"client_id\":\"a\",\"client_secret\":tru",
        "{\"client_id\":\"a\",\"client_secret\":\"b\",\"n\":123", "{", "",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        void *map;
        size_t maplen, len = strlen(bodies[i]);
        char *g = guarded(bodies[i], len, &map, &maplen);
        rk_credentials c;
        const char *err = NULL;
        int rc = rk_connect_parse(g, len, &c, &err);
        ck_assert_int_eq(rc, i < 2 ? 0 : -1);
        if (rc == 0) {
            ck_assert_str_eq(c.client_id, "a");
            ck_assert_str_eq(c.client_secret, "b");
        }
        munmap(map, maplen);
    }
}
END_TEST

START_TEST(test_connect_deep_nesting)
{
    const size_t n = 100000;
    for (int close = 0; close <= 1; close++) {
        char *inner = nest(n, close);
        char *body = fmt("{\"client_id\":\"a\",\"client_secret\":\"b\",\"grant_type\":%s}", inner);
        conn_bad(body);
        free(body);
        body = fmt("{\"client_id\":%s,\"client_secret\":\"b\"}", inner);
        conn_bad(body);
        free(body);
        body = fmt("{\"client_id\":\"a\",\"client_secret\":\"b\",\"" MARK "\":%s", inner);
        conn_bad(body);
        free(body);
        free(inner);
    }
}
END_TEST

/* ------------------------------------------------------------------ rk_utf8_chars */

START_TEST(test_utf8_chars)
{
    ck_assert_uint_eq(rk_utf8_chars(""), 0);
    ck_assert_uint_eq(rk_utf8_chars("a"), 1);
    ck_assert_uint_eq(rk_utf8_chars("abc"), 3);
    ck_assert_uint_eq(rk_utf8_chars("\xc3\xa9"), 1);
    ck_assert_uint_eq(rk_utf8_chars("\xe2\x82\xac"), 1);
    ck_assert_uint_eq(rk_utf8_chars("\xf0\x9f\x98\x80"), 1);
    ck_assert_uint_eq(rk_utf8_chars("\xc3\xa9t\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80!"), 7);
    ck_assert_uint_eq(rk_utf8_chars("e\xcc\x81"), 2);   /* e + COMBINING ACUTE */
    ck_assert_uint_eq(rk_utf8_chars("\xf4\x8f\xbf\xbf"), 1);  /* U+10FFFF */
    ck_assert_uint_eq(rk_utf8_chars("\xef\xbb\xbf"), 1);      /* U+FEFF */
    char *s = rep("\xf0\x9f\x98\x80", 64);
    ck_assert_uint_eq(rk_utf8_chars(s), 64);
    free(s);
    s = rep("\xc3\xa9", 65);
    ck_assert_uint_eq(rk_utf8_chars(s), 65);
    free(s);
}
END_TEST

/* ------------------------------------------------------------------ main */

static Suite *body_suite(void)
{
    Suite *s = suite_create("rk_body");
    TCase *tc = tcase_create("lane_valid");
    tcase_add_test(tc, test_lane_number);
    tcase_add_test(tc, test_lane_spot);
    tcase_add_test(tc, test_lane_score);
    tcase_add_test(tc, test_lane_score_lengths);
    tcase_add_test(tc, test_lane_combined);
    tcase_add_test(tc, test_lane_whitespace);
    tcase_add_test(tc, test_lane_len);
    tcase_add_test(tc, test_lane_tiebreak);
    suite_add_tcase(s, tc);

    tc = tcase_create("lane_invalid");
    tcase_add_loop_test(tc, test_lane_common_bad, 0, (int)(sizeof common_bad / sizeof common_bad[0]));
    tcase_add_test(tc, test_lane_empty_object);
    tcase_add_test(tc, test_lane_duplicate);
    tcase_add_test(tc, test_lane_unknown_key);
    tcase_add_loop_test(tc, test_lane_bad_number, 0,
                        (int)(sizeof bad_number_values / sizeof bad_number_values[0]));
    tcase_add_loop_test(tc, test_lane_bad_spot, 0,
                        (int)(sizeof bad_spot_values / sizeof bad_spot_values[0]));
    tcase_add_loop_test(tc, test_lane_bad_score, 0,
                        (int)(sizeof bad_score_values / sizeof bad_score_values[0]));
    tcase_add_test(tc, test_lane_bad_tiebreak);
    tcase_add_test(tc, test_lane_deep_nesting);
    suite_add_tcase(s, tc);

    tc = tcase_create("connect");
    tcase_add_test(tc, test_connect_valid);
    tcase_add_test(tc, test_connect_ignores_other_keys);
    tcase_add_test(tc, test_connect_lengths);
    tcase_add_test(tc, test_connect_missing);
    tcase_add_loop_test(tc, test_connect_non_string, 0,
                        (int)(sizeof non_string_values / sizeof non_string_values[0]));
    tcase_add_test(tc, test_connect_duplicate);
    tcase_add_test(tc, test_connect_bad_strings);
    tcase_add_loop_test(tc, test_connect_common_bad, 0,
                        (int)(sizeof common_bad / sizeof common_bad[0]));
    tcase_add_test(tc, test_connect_len);
    tcase_add_test(tc, test_connect_deep_nesting);
    suite_add_tcase(s, tc);

    tc = tcase_create("utf8");
    tcase_add_test(tc, test_utf8_chars);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(body_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
