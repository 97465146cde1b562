/* rk_query.c: see rk_query.h. */
#include <stdio.h>
#include <string.h>

#include "rk_query.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Decode S[0..LEN) into OUT (at least LEN + 1 bytes).  0, or -1 on a malformed
 * escape or an encoded NUL. */
static int decode(const char *s, size_t len, char *out)
{
    size_t i, n = 0;

    for (i = 0; i < len; i++) {
        if (s[i] == '+') {
            out[n++] = ' ';
        }
        else if (s[i] == '%') {
            int hi, lo;

            if (i + 2 >= len) {
                return -1;
            }
            hi = hexval(s[i + 1]);
            lo = hexval(s[i + 2]);
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                return -1;
            }
            out[n++] = (char)(hi * 16 + lo);
            i += 2;
        }
        else {
            out[n++] = s[i];
        }
    }
    out[n] = '\0';
    return 0;
}

int rk_query_get(const char *args, const char *name, char *buf, size_t bufsize,
                 const char **value)
{
    size_t nlen = strlen(name);
    const char *p = args;
    int found = 0;

    *value = NULL;
    while (p && *p) {
        const char *end = strchr(p, '&');
        size_t plen = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', plen);
        size_t klen = eq ? (size_t)(eq - p) : plen;
        char key[64];

        /* a key of our own is short: decode it only then (names may be escaped too) */
        if (klen < sizeof(key) && decode(p, klen, key) == 0 && strlen(key) == nlen
            && memcmp(key, name, nlen) == 0) {
            const char *v = eq ? eq + 1 : p + plen;
            size_t vlen = (size_t)(p + plen - v);

            if (found || vlen + 1 > bufsize || decode(v, vlen, buf) != 0) {
                *value = NULL;
                return -1;
            }
            found = 1;
            *value = buf;
        }
        p = end ? end + 1 : NULL;
    }
    return found;
}

/* V: decimal digits only, at most MAXLEN of them, a value within [MIN, MAX] */
static int number(const char *v, size_t maxlen, long long min, long long max, long long *out)
{
    size_t n = strlen(v), i;
    long long x = 0;

    if (n == 0 || n > maxlen) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') {
            return -1;
        }
        x = x * 10 + (v[i] - '0');
    }
    if (x < min || x > max) {
        return -1;
    }
    *out = x;
    return 0;
}

int rk_list_query_parse(const char *args, unsigned allowed, char *buf, size_t bufsize,
                        rk_list_query *q)
{
    static const struct { unsigned bit; const char *name; } params[] = {
        { RK_QP_LIMIT, "limit" }, { RK_QP_OFFSET, "offset" }, { RK_QP_DIVISION, "division" },
        { RK_QP_STATUS, "status" }, { RK_QP_WOD, "wod" },
    };
    size_t i, part = bufsize / 3;
    long long wod;

    memset(q, 0, sizeof(*q));
    if (!args || !*args) {
        return 0;   /* no parameter: nothing given, nothing to read */
    }
    for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
        const char *v;
        char *slot = buf + (params[i].bit == RK_QP_DIVISION ? 0 : params[i].bit == RK_QP_STATUS
                            ? part : 2 * part);
        char num[32];
        int rv;

        if (!(allowed & params[i].bit)) {
            continue;
        }
        /* limit and offset are read into a buffer of their own (too long: not a number) */
        if (params[i].bit == RK_QP_LIMIT || params[i].bit == RK_QP_OFFSET) {
            rv = rk_query_get(args, params[i].name, num, sizeof(num), &v);
        }
        else {
            rv = rk_query_get(args, params[i].name, slot, part, &v);
        }
        if (rv < 0) {
            return -1;
        }
        if (rv == 0) {
            continue;
        }
        q->given |= params[i].bit;
        switch (params[i].bit) {
        case RK_QP_LIMIT:
            if (number(v, 4, 1, RK_LIST_LIMIT_MAX, &q->limit) != 0) {
                return -1;
            }
            break;
        case RK_QP_OFFSET:
            if (number(v, 18, 0, 999999999999999999LL, &q->offset) != 0) {
                return -1;
            }
            break;
        case RK_QP_DIVISION:
            q->division = v;
            break;
        case RK_QP_STATUS:
            if (strcmp(v, "scheduled") != 0 && strcmp(v, "running") != 0
                && strcmp(v, "finished") != 0) {
                return -1;
            }
            q->status = v;
            break;
        case RK_QP_WOD:
            if (v[0] == '0' || number(v, 18, 1, 999999999999999999LL, &wod) != 0) {
                return -1;
            }
            q->wod = v;
            break;
        }
    }
    if (q->given) {   /* (none: no key needs it; "" from the memset) */
        snprintf(q->norm, sizeof(q->norm), "l%lld,o%lld,s%s,w%s", q->limit, q->offset,
                 q->status ? q->status : "", q->wod ? q->wod : "");
    }
    return 0;
}

size_t rk_query_with_offset(const char *args, long long offset, char *out, size_t outsize)
{
    const char *p = args;
    size_t n = 0;
    int w;

    while (p && *p) {
        const char *end = strchr(p, '&');
        size_t plen = end ? (size_t)(end - p) : strlen(p);
        char key[64];
        const char *eq = memchr(p, '=', plen);
        size_t klen = eq ? (size_t)(eq - p) : plen;

        /* every parameter but offset, as it came (an escaped "offset" is offset too) */
        if (plen && !(klen < sizeof(key) && decode(p, klen, key) == 0 && strcmp(key, "offset") == 0)) {
            if (n + plen + 2 > outsize) {
                return 0;
            }
            memcpy(out + n, p, plen);
            n += plen;
            out[n++] = '&';
        }
        p = end ? end + 1 : NULL;
    }
    w = snprintf(out + n, outsize - n, "offset=%lld", offset);
    if (w < 0 || (size_t)w >= outsize - n) {
        return 0;
    }
    return n + (size_t)w;
}
