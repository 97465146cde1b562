/* rk_token.h: bearer tokens and the Authorization header.  Pure C (APR only). */
#ifndef RK_TOKEN_H
#define RK_TOKEN_H

#include <stddef.h>

#define RK_TOKEN_RAW_BYTES 32   /* 256 bits of randomness */
#define RK_TOKEN_CHARS     43   /* base64url of 32 bytes, no padding */
#define RK_HASH_HEX        64   /* SHA-256 in hex */

/* SHA-256 (FIPS 180-4). */
void rk_sha256(const void *data, size_t len, unsigned char out[32]);
/* Lower-case hex SHA-256 of DATA, NUL-terminated. */
void rk_sha256_hex(const void *data, size_t len, char out[RK_HASH_HEX + 1]);

/* SHA-256 of data given in pieces (the same digest as rk_sha256 of their
 * concatenation): init, update any number of times, then final or final_hex. */
typedef struct {
    unsigned int h[8];             /* 32-bit words (apr_uint32_t) */
    unsigned long long total;      /* bytes so far */
    unsigned char buf[64];
    size_t n;                      /* bytes in buf */
} rk_sha256_ctx;
void rk_sha256_init(rk_sha256_ctx *ctx);
void rk_sha256_update(rk_sha256_ctx *ctx, const void *data, size_t len);
void rk_sha256_final(rk_sha256_ctx *ctx, unsigned char out[32]);
void rk_sha256_final_hex(rk_sha256_ctx *ctx, char out[RK_HASH_HEX + 1]);

/* SipHash-2-4 (Aumasson and Bernstein) of DATA under the 16-byte KEY, 128-bit output
 * (the reference's siphash() with outlen 16); OUTLEN 8 gives the 64-bit variant. */
void rk_siphash(const void *data, size_t len, const unsigned char key[16], unsigned char *out,
                size_t outlen);

/* The key under which a child process caches what it knows about a token: lower-case
 * hex of SipHash-2-4-128 of the token under the process's random KEY.  Cheap (a tenth
 * of a SHA-256), and the cache holds no token, nor what the database stores. */
#define RK_TOKEN_KEY_HEX 32
void rk_token_cache_key(const char *tok, size_t len, const unsigned char key[16],
                        char out[RK_TOKEN_KEY_HEX + 1]);

/* Base64url (RFC 4648 section 5) of RAW without padding, NUL-terminated. */
void rk_token_encode(const unsigned char raw[RK_TOKEN_RAW_BYTES], char out[RK_TOKEN_CHARS + 1]);

/* Draw RK_TOKEN_RAW_BYTES from APR's random source and encode them.  0 on success. */
int rk_token_generate(char out[RK_TOKEN_CHARS + 1]);

/* 1 when TOK[0..LEN) has the shape of one of our tokens: 43 base64url chars, in the
 * canonical encoding of 32 bytes (the last character is one of "AEIMQUYcgkosw048"). */
int rk_token_shape_ok(const char *tok, size_t len);

typedef enum {
    RK_AUTH_NONE = 0,        /* no Authorization header */
    RK_AUTH_OTHER,           /* another scheme (Basic ...), or "Bearer" with no credential */
    RK_AUTH_BEARER_BAD,      /* Bearer scheme with a credential that is not one of ours */
    RK_AUTH_BEARER           /* Bearer scheme with a well-formed token: *TOK / *LEN set */
} rk_auth_kind;

/* Parse an Authorization header value (NULL when absent).  The scheme is
 * case-insensitive; one or more spaces (or tabs: lenient) separate scheme and credential; leading and
 * trailing spaces/tabs are ignored.  Returns the kind; on RK_AUTH_BEARER, *TOK points
 * into HEADER and *LEN is RK_TOKEN_CHARS. */
rk_auth_kind rk_bearer_parse(const char *header, const char **tok, size_t *len);

/* Passwords: bcrypt hashes in the format of htpasswd -B ("$2y$NN$..." where NN is the
 * cost; "$2a$" and "$2b$" are read too). */
#define RK_PASSWORD_COST_MIN 4
#define RK_PASSWORD_COST_MAX 17   /* htpasswd -C accepts 4 to 17 */
#define RK_PASSWORD_COST_DEFAULT 10
#define RK_PASSWORD_MAX 72        /* bcrypt reads the first 72 bytes only */

/* What a password check costs: the configured COST and, for each cost from
 * RK_PASSWORD_COST_MIN to COST, the bcrypt hash at that cost of a random password
 * nobody knows.  Read-only once made (shared by threads). */
typedef struct {
    int cost;                                   /* 0: not initialised */
    char dummy[RK_PASSWORD_COST_MAX + 1][61];
} rk_password_policy;

/* Make POL for COST (RK_PASSWORD_COST_MIN..MAX): about as long as two checks at COST.
 * 0 on success, -1 (COST out of range, no random bytes). */
int rk_password_policy_init(rk_password_policy *pol, int cost);

/* The cost written in a bcrypt HASH (its first 7 characters suffice), -1 when HASH
 * does not start as a bcrypt hash. */
int rk_password_cost(const char *hash);

/* Check PASSWORD against HASH (NULL for an unknown user): 1 = match, 0 = no.
 * Every call costs one bcrypt check at POL's cost, whatever happens: an unknown user
 * or a damaged hash is checked against the dummy of that cost; a hash of a lower cost
 * is padded with the dummies of the costs between (bcrypt's work doubles per cost
 * step); only a hash of a higher cost takes longer.  A PASSWORD of more than
 * RK_PASSWORD_MAX bytes never matches (bcrypt would match its prefix), after the same
 * work.  *REHASH is set to 1 when PASSWORD matched a hash of another cost than POL's
 * (store a new hash at POL's cost), else 0. */
int rk_password_verify(const rk_password_policy *pol, const char *password,
                       const char *hash, int *rehash);

/* rk_password_verify, every call costing at least one bcrypt check at FLOOR (when it is
 * above POL's cost; at most RK_PASSWORD_COST_MAX): give it the highest cost of the
 * stored hashes, so that an unknown user, or a wrong password of a user whose hash
 * has POL's cost, takes as long as a wrong password of the user whose hash costs the
 * most (hashes of a higher cost than POL's are rehashed at their next successful
 * login; until then they would tell which names exist).  The dummy at a cost above
 * POL's is POL's own with the cost rewritten: bcrypt then runs at that cost (and
 * never matches). */
int rk_password_verify_at(const rk_password_policy *pol, const char *password,
                          const char *hash, int floor, int *rehash);

/* Hash PASSWORD with bcrypt at COST (4..31) into OUT (at least 61 bytes). 0 on success. */
int rk_password_hash(const char *password, int cost, char *out, size_t outlen);

#endif
