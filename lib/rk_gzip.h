/* rk_gzip.h: content negotiation of the answer's coding (Accept-Encoding) and the
 * gzip coding itself (zlib).  Pure C, no httpd header. */
#ifndef RK_GZIP_H
#define RK_GZIP_H

#include <stddef.h>

#define RK_ENC_IDENTITY 1    /* the answer may be sent as it is */
#define RK_ENC_GZIP     2    /* the answer may be sent gzipped */

/* What an Accept-Encoding header (RFC 9110 12.5.3) allows, as RK_ENC_* bits.  No
 * header (NULL): identity only.  gzip: "gzip" or "x-gzip" with q > 0, or else "*"
 * with q > 0.  identity: allowed unless "identity;q=0", or "*;q=0" with identity not
 * listed.  Codings are case-insensitive; an item that cannot be read (a bad q value)
 * is ignored. */
int rk_accept_encoding(const char *header);

/* The answers of at least this many bytes are sent gzipped when the client allows. */
#define RK_GZIP_MIN 1024

/* The largest gzip member of N bytes of input. */
size_t rk_gzip_bound(size_t n);

/* IN (N bytes) as one gzip member (RFC 1952) into OUT (rk_gzip_bound(N) bytes), at
 * zlib level LEVEL (1-9).  The length, or 0 on failure. */
size_t rk_gzip(const void *in, size_t n, void *out, int level);

#endif
