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

/* Password check against a bcrypt hash (htpasswd -B format) via apr_password_validate.
 * HASH may be NULL (unknown user): a dummy hash of the same cost is checked instead so
 * that the time taken does not tell whether the user exists.  1 = match, 0 = no. */
int rk_password_check(const char *password, const char *hash);

/* Hash PASSWORD with bcrypt at COST (4..31) into OUT (at least 61 bytes). 0 on success. */
int rk_password_hash(const char *password, int cost, char *out, size_t outlen);

#endif
