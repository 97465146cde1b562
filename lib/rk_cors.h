/* rk_cors.h: Cross-Origin Resource Sharing (the Fetch standard's CORS protocol) for
 * the origins a mount lists (RankingCORSOrigins).  Pure C: unit-tested with Check. */
#ifndef RK_CORS_H
#define RK_CORS_H

#include <stddef.h>

/* What a preflight allows a page to send, and what an answer lets it read. */
#define RK_CORS_ALLOW_HEADERS "Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID, Prefer, Idempotency-Key"
#define RK_CORS_EXPOSE_HEADERS "ETag, Link, X-Total-Count, Retry-After, Location, Idempotent-Replayed"
#define RK_CORS_MAX_AGE "600"   /* seconds a browser may keep a preflight's answer */

/* 1 when S is an origin as browsers send it (RFC 6454 serialisation): a scheme of
 * lower-case letters, digits, '+', '-' or '.' starting with a letter, "://", a host
 * (lower-case letters, digits, '-', '.', or an IPv6 literal in brackets), an optional
 * ":port" (1 to 65535, no leading zero), nothing else (no path, no trailing slash). */
int rk_cors_origin_valid(const char *s);

/* 1 when ORIGIN (the request's Origin header, NULL when absent) is one of the N
 * origins of LIST, byte for byte; else 0. */
int rk_cors_origin_listed(const char *origin, const char *const *list, size_t n);

#endif
