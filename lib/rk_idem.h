/* rk_idem.h: safe retries (API.md part 3, "Safe retries"): the Idempotency-Key
 * header and the fingerprint of a request.  Pure C, no httpd header: unit-tested
 * (t/unit/check_idem.c) and fuzzed (t/fuzz/fuzz_resource.c).
 *
 * The glue's part, with table idempotency_key (sql/schema.sql): after the token,
 * the route, the method and the role (401, 404, 405, 403) and before anything else,
 * a write with the header is checked with rk_idem_key_valid (400 RK_IDEM_MSG_INVALID
 * when not); its fingerprint is rk_idem_fingerprint(method, path, body); the row of
 * (user, key) decides with rk_idem_check: RK_IDEM_REPLAY answers the stored status
 * and body with "Idempotent-Replayed: true" and changes nothing; RK_IDEM_REUSED is
 * 422 RK_IDEM_MSG_REUSED; RK_IDEM_NEW runs the write and stores its answer when
 * rk_idem_storable(status), in the write's own transaction where it has one. */
#ifndef RK_IDEM_H
#define RK_IDEM_H

#include <stddef.h>

#define RK_IDEM_KEY_MAX   255      /* characters (bytes: ASCII only) */
#define RK_IDEM_TTL       86400    /* seconds an answer is kept: 24 hours */
#define RK_IDEM_HASH_HEX  64       /* SHA-256 in lower-case hex */

#define RK_IDEM_HEADER       "Idempotency-Key"
#define RK_IDEM_REPLAYED     "Idempotent-Replayed"      /* its value: "true" */
#define RK_IDEM_MSG_INVALID  "Invalid header"           /* 400 */
#define RK_IDEM_MSG_REUSED   "Idempotency key reused"   /* 422 */

/* 1 when VALUE (LEN bytes, the header's value as received; NULL: no header) is a
 * valid key: 1 to RK_IDEM_KEY_MAX visible ASCII characters (0x21 to 0x7E), so no
 * space, no tab, no control and no byte above 0x7E.  Two headers, which httpd joins
 * with ", ", are therefore refused. */
int rk_idem_key_valid(const char *value, size_t len);

/* The fingerprint of a request: lower-case hex SHA-256 of METHOD, PATH and the
 * LEN bytes of BODY (BODY may be NULL when LEN is 0), each prefixed with its length,
 * so that no two different triples give the same input.  PATH is the request's
 * path as sent (before percent-decoding), without its query string. */
void rk_idem_fingerprint(const char *method, const char *path, const void *body, size_t len,
                         char out[RK_IDEM_HASH_HEX + 1]);

/* 1 when an answer of STATUS is kept for replay: a final status below 500, except
 * 429 (a refusal to be tried again later); else 0. */
int rk_idem_storable(int status);

/* 1 while a key stored at CREATED (Unix seconds) is live at NOW: NOW - CREATED is
 * less than RK_IDEM_TTL (a clock that went back keeps it live). */
int rk_idem_live(long long created, long long now);

typedef enum {
    RK_IDEM_NEW = 0,     /* no live answer for this user and key: do the write */
    RK_IDEM_REPLAY,      /* the same request: send the stored answer */
    RK_IDEM_REUSED       /* the key with another method, path or body: 422 */
} rk_idem_verdict;

/* What to do with a request of fingerprint HASH, given the stored row of its user
 * and key: STORED_HASH (NULL when there is none) and its CREATED time, at NOW.  An
 * expired row is as none (the glue deletes it, or replaces it). */
rk_idem_verdict rk_idem_check(const char *stored_hash, long long created, long long now,
                              const char *hash);

#endif
