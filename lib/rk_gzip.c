/* rk_gzip.c: Accept-Encoding and gzip (rk_gzip.h). */
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "rk_gzip.h"

#define OWS(c) ((c) == ' ' || (c) == '\t')

/* The q value at S (RFC 9110 12.4.2: "0" ["." 0*3DIGIT] / "1" ["." 0*3("0")]) in
 * thousandths, or -1 when it is not one. */
static int qvalue(const char *s, size_t n)
{
    int v, i, scale = 100;

    if (n == 0 || (s[0] != '0' && s[0] != '1')) {
        return -1;
    }
    v = (s[0] - '0') * 1000;
    if (n == 1) {
        return v;
    }
    if (s[1] != '.' || n > 5) {
        return -1;
    }
    for (i = 2; i < (int)n; i++, scale /= 10) {
        if (s[i] < '0' || s[i] > '9' || (v == 1000 && s[i] != '0')) {
            return -1;
        }
        v += (s[i] - '0') * scale;
    }
    return v;
}

int rk_accept_encoding(const char *h)
{
    int gzip = -1, identity = -1, star = -1;   /* q in thousandths; -1: not listed */

    if (!h) {
        return RK_ENC_IDENTITY;
    }
    while (*h) {
        const char *item = h, *end = h + strcspn(h, ","), *semi, *name_end;
        size_t len;
        int q = 1000;

        h = *end ? end + 1 : end;
        while (item < end && OWS(*item)) {
            item++;
        }
        semi = memchr(item, ';', (size_t)(end - item));
        name_end = semi ? semi : end;
        while (name_end > item && OWS(name_end[-1])) {
            name_end--;
        }
        len = (size_t)(name_end - item);
        if (len == 0) {
            continue;
        }
        if (semi) {   /* ";" OWS "q=" qvalue, nothing else */
            const char *p = semi + 1, *e = end;

            while (p < e && OWS(*p)) {
                p++;
            }
            while (e > p && OWS(e[-1])) {
                e--;
            }
            if (e - p < 2 || (p[0] != 'q' && p[0] != 'Q') || p[1] != '='
                || (q = qvalue(p + 2, (size_t)(e - p - 2))) < 0) {
                continue;   /* unreadable: ignored */
            }
        }
        if ((len == 4 && strncasecmp(item, "gzip", 4) == 0)
            || (len == 6 && strncasecmp(item, "x-gzip", 6) == 0)) {
            gzip = q > gzip ? q : gzip;
        }
        else if (len == 8 && strncasecmp(item, "identity", 8) == 0) {
            identity = q;
        }
        else if (len == 1 && *item == '*') {
            star = q;
        }
    }
    if (gzip < 0) {
        gzip = star;
    }
    if (identity < 0) {
        identity = star == 0 ? 0 : 1;
    }
    return (gzip > 0 ? RK_ENC_GZIP : 0) | (identity > 0 ? RK_ENC_IDENTITY : 0);
}

size_t rk_gzip_bound(size_t n)
{
    /* deflateBound's bound for the default window and memory level, plus the gzip
     * header and trailer (18 bytes) and a margin */
    return n + (n >> 12) + (n >> 14) + (n >> 25) + 13 + 18 + 64;
}

size_t rk_gzip(const void *in, size_t n, void *out, int level)
{
    z_stream z;
    size_t len = 0;

    memset(&z, 0, sizeof(z));
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return 0;
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.next_out = out;
    z.avail_out = (uInt)rk_gzip_bound(n);
    /* in steps, avail_in being a uInt */
    for (;;) {
        size_t step = n > (1u << 30) ? (1u << 30) : n;
        int rv;

        z.avail_in = (uInt)step;
        n -= step;
        rv = deflate(&z, n ? Z_NO_FLUSH : Z_FINISH);
        if (rv == Z_STREAM_END) {
            len = z.total_out;
            break;
        }
        if (rv != Z_OK || (n == 0 && z.avail_out == 0)) {
            break;
        }
    }
    deflateEnd(&z);
    return len;
}
