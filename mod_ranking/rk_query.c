/* rk_query.c: see rk_query.h. */
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
