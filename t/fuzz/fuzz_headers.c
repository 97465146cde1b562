/* fuzz_headers.c: libFuzzer target for the parsers of request headers and query
 * strings of the pure library: rk_query_get, rk_list_query_parse and
 * rk_query_with_offset (rk_query.c), rk_accept_encoding (rk_gzip.c),
 * rk_etag_list_match and rk_cond_eval (rk_cond.c), rk_sse_accepts,
 * rk_sse_last_event_id and rk_prefer_wait (rk_sse.c), rk_cors_origin_valid and
 * rk_cors_origin_listed (rk_cors.c), rk_target_path (rk_router.c).
 *
 * The input, up to its first NUL, is the text given to each of them (as a header
 * value, a query string, a request target and a request line); every call gets its
 * own heap copy of exactly strlen + 1 bytes, so ASan catches a read past the NUL.
 * Checked, beside no crash, leak or undefined behaviour:
 *   - rk_query_get: -1, 0 or 1; on 1 the value is NUL-terminated inside the buffer
 *     and no longer than the input; a buffer of strlen + 1 always suffices (-1 only
 *     for a repeated name, a bad escape or an encoded NUL: the same answer with a
 *     buffer twice as large);
 *   - rk_list_query_parse: on 0, limit in 0..1000 (0 only when not given), offset
 *     >= 0, status one of the three words, wod 1..18 digits without a leading zero,
 *     norm NUL-terminated; the order of allowed bits does not matter: parsing with
 *     every bit, then keeping a subset, gives the same limit and offset when those
 *     are allowed;
 *   - rk_query_with_offset: the result holds "offset=<n>" at its end, no other
 *     offset parameter, fits the buffer, and is 0 only when the buffer is too small;
 *   - rk_accept_encoding: a subset of RK_ENC_IDENTITY | RK_ENC_GZIP;
 *   - rk_etag_list_match: 0 or 1; a strong match implies a weak one; "*" matches;
 *   - rk_cond_eval: one of the three answers, FAILED whenever If-Match does not
 *     match, NOT_MODIFIED only when If-None-Match matches and SAFE;
 *   - rk_sse_last_event_id: -1, 0 or 1, the id non-negative on 1;
 *   - rk_prefer_wait: 0..60;
 *   - rk_cors_origin_listed: never true for an origin absent from the list, always
 *     for a valid origin listed;
 *   - rk_target_path: NULL, or a pointer inside the input whose *len bytes are inside
 *     it, starting with '/', holding no space, '?' or '#'. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_cond.h"
#include "rk_cors.h"
#include "rk_gzip.h"
#include "rk_sse.h"
#include "rk_query.h"
#include "rk_router.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_headers: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

static char *copy(const char *s, size_t n)
{
    char *p = malloc(n + 1);

    if (!p) {
        abort();
    }
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static void query(const char *in, size_t n)
{
    static const char *const names[] = { "limit", "offset", "division", "status", "wod", "x" };
    size_t k;

    for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        char *args = copy(in, n), *buf = malloc(n + 1), *big = malloc(2 * n + 2);
        const char *v = NULL, *v2 = NULL;
        int rv = rk_query_get(args, names[k], buf, n + 1, &v);
        int rv2 = rk_query_get(args, names[k], big, 2 * n + 2, &v2);

        CHECK(rv >= -1 && rv <= 1);
        CHECK(rv == rv2);   /* strlen + 1 always suffices */
        if (rv == 1) {
            CHECK(v >= buf && v < buf + n + 1);
            CHECK(strlen(v) <= n);
            CHECK(strcmp(v, v2) == 0);
        }
        free(args);
        free(buf);
        free(big);
    }
}

static void list_query(const char *in, size_t n)
{
    const unsigned all = RK_QP_LIMIT | RK_QP_OFFSET | RK_QP_DIVISION | RK_QP_STATUS | RK_QP_WOD;
    char *args = copy(in, n), *buf = malloc(3 * (n + 1)), *buf2 = malloc(3 * (n + 1));
    char *out;
    rk_list_query q, q2;
    size_t outsize = n + 32, len;

    if (rk_list_query_parse(args, all, buf, 3 * (n + 1), &q) == 0) {
        CHECK(q.limit >= 0 && q.limit <= RK_LIST_LIMIT_MAX);
        CHECK((q.limit == 0) == !(q.given & RK_QP_LIMIT));
        CHECK(q.offset >= 0);
        CHECK(!q.status || !strcmp(q.status, "scheduled") || !strcmp(q.status, "running")
              || !strcmp(q.status, "finished"));
        if (q.wod) {
            CHECK(rk_id_valid(q.wod, strlen(q.wod)));
        }
        CHECK(memchr(q.norm, '\0', sizeof(q.norm)) != NULL);
        /* a subset of the parameters: what is allowed reads the same */
        CHECK(rk_list_query_parse(args, RK_QP_LIMIT | RK_QP_OFFSET, buf2, 3 * (n + 1), &q2) == 0);
        CHECK(q2.limit == q.limit && q2.offset == q.offset);
        CHECK(!(q2.given & (RK_QP_DIVISION | RK_QP_STATUS | RK_QP_WOD)));
    }
    /* the next page's query */
    out = malloc(outsize);
    len = rk_query_with_offset(args, 123456789, out, outsize);
    CHECK(len > 0 && len < outsize);   /* strlen(ARGS) + 32 suffices */
    CHECK(strlen(out) == len);
    CHECK(len >= strlen("offset=123456789")
          && strcmp(out + len - strlen("offset=123456789"), "offset=123456789") == 0);
    {
        /* no other offset parameter is left */
        const char *p = out;
        int offsets = 0;

        while (p && *p) {
            if (strncmp(p, "offset=", 7) == 0 || strcmp(p, "offset") == 0
                || strncmp(p, "offset&", 7) == 0) {
                offsets++;
            }
            p = strchr(p, '&');
            p = p ? p + 1 : NULL;
        }
        CHECK(offsets == 1);
    }
    CHECK(rk_query_with_offset(args, 5, out, 4) == 0);   /* "offset=5" alone needs 9 */
    free(out);
    free(args);
    free(buf);
    free(buf2);
}

static void conditions(const char *in, size_t n)
{
    static const char *const tags[] = { "\"abc\"", "\"a-1\"", "\"\"" };
    char *list = copy(in, n);
    size_t k;

    for (k = 0; k < sizeof(tags) / sizeof(tags[0]); k++) {
        int strong = rk_etag_list_match(list, tags[k], 1);
        int weak = rk_etag_list_match(list, tags[k], 0);
        rk_cond c1 = rk_cond_eval(list, NULL, tags[k], 1);
        rk_cond c2 = rk_cond_eval(NULL, list, tags[k], 1);
        rk_cond c3 = rk_cond_eval(NULL, list, tags[k], 0);

        CHECK(strong == 0 || strong == 1);
        CHECK(weak == 0 || weak == 1);
        CHECK(!strong || weak);
        CHECK(c1 == (strong ? RK_COND_PASS : RK_COND_FAILED));
        CHECK(c2 == (weak ? RK_COND_NOT_MODIFIED : RK_COND_PASS));
        CHECK(c3 == (weak ? RK_COND_FAILED : RK_COND_PASS));
    }
    CHECK(rk_etag_list_match("*", "\"x\"", 1) == 1);
    free(list);
}

static void live_and_encoding(const char *in, size_t n)
{
    char *h = copy(in, n);
    int64_t id = -1;
    int e = rk_accept_encoding(h), w = rk_prefer_wait(h), l = rk_sse_last_event_id(h, &id);
    int a = rk_sse_accepts(h);

    CHECK((e & ~(RK_ENC_IDENTITY | RK_ENC_GZIP)) == 0);
    CHECK(w >= 0 && w <= 60);
    CHECK(l >= -1 && l <= 1);
    CHECK(l != 1 || id >= 0);
    CHECK(a == 0 || a == 1);
    free(h);
}

static void cors(const char *in, size_t n)
{
    char *o = copy(in, n);
    const char *list[2] = { "https://a.example", o };
    const char *other[1] = { "https://a.example" };
    int valid = rk_cors_origin_valid(o);

    CHECK(valid == 0 || valid == 1);
    CHECK(!rk_cors_origin_listed(o, other, 1) || strcmp(o, "https://a.example") == 0);
    if (valid) {
        CHECK(rk_cors_origin_listed(o, list, 2));
    }
    free(o);
}

static void target(const char *in, size_t n)
{
    char *t = copy(in, n);
    size_t len = 0, i;
    const char *p = rk_target_path(t, NULL, &len);

    if (p) {
        CHECK(p >= t && p + len <= t + n);
        CHECK(len >= 1 && p[0] == '/');
        for (i = 0; i < len; i++) {
            CHECK(p[i] != ' ' && p[i] != '?' && p[i] != '#' && p[i] != '\0');
        }
    }
    p = rk_target_path(NULL, t, &len);   /* as a request line */
    if (p) {
        CHECK(p >= t && p + len <= t + n);
        CHECK(len >= 1 && p[0] == '/');
    }
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data;
    size_t n = strnlen(in, size);

    if (n > 4096) {
        n = 4096;
    }
    query(in, n);
    list_query(in, n);
    conditions(in, n);
    live_and_encoding(in, n);
    cors(in, n);
    target(in, n);
    return 0;
}
