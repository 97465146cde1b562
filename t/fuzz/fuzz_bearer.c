/* fuzz_bearer.c: libFuzzer target for rk_bearer_parse and rk_token_shape_ok
 * (lib/rk_token.c).
 *
 * The input, up to its first NUL, is an Authorization header value, in a heap buffer
 * of exactly strlen+1 bytes (ASan catches any read past the NUL).  Checks:
 *   - the result is one of RK_AUTH_OTHER / BEARER_BAD / BEARER (never NONE for a
 *     header that is present);
 *   - on RK_AUTH_BEARER: *tok lies within the header, *len == RK_TOKEN_CHARS,
 *     rk_token_shape_ok(*tok, *len) holds, what precedes the token is optional
 *     spaces/tabs, the scheme "Bearer" (any case) and at least one space/tab, and what
 *     follows it is only spaces/tabs;
 *   - a reference classification written from rk_token.h gives the same kind;
 *   - rk_token_shape_ok on the raw bytes agrees with a base64url round trip: a
 *     43-character string has the shape of a token iff decoding it to 32 bytes and
 *     re-encoding with rk_token_encode gives it back.
 * apr_initialize is called once: rk_token.c is linked against APR. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <apr_general.h>

#include "rk_token.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_bearer: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tok = NULL;
    size_t len = 0;

    (void)argc; (void)argv;
    if (apr_initialize() != APR_SUCCESS) {
        abort();
    }
    atexit(apr_terminate);
    CHECK(rk_bearer_parse(NULL, &tok, &len) == RK_AUTH_NONE);
    return 0;
}

static int is_sp(char c)
{
    return c == ' ' || c == '\t';
}

/* Decode 43 base64url characters into 32 bytes, ignoring the extra low bits of the
 * last character (that is what the round trip tests).  0 when a character is not in
 * the alphabet. */
static int b64url_decode43(const char *s, unsigned char raw[RK_TOKEN_RAW_BYTES])
{
    unsigned char bits[RK_TOKEN_CHARS];
    size_t i, o = 0;

    for (i = 0; i < RK_TOKEN_CHARS; i++) {
        const char *p = s[i] ? strchr(alphabet, s[i]) : NULL;

        if (!p) {
            return 0;
        }
        bits[i] = (unsigned char)(p - alphabet);
    }
    for (i = 0; i + 4 <= RK_TOKEN_CHARS; i += 4) {
        uint32_t v = (uint32_t)bits[i] << 18 | (uint32_t)bits[i + 1] << 12
                     | (uint32_t)bits[i + 2] << 6 | bits[i + 3];
        raw[o++] = (unsigned char)(v >> 16);
        raw[o++] = (unsigned char)(v >> 8);
        raw[o++] = (unsigned char)v;
    }
    {   /* 43 = 4 * 10 + 3: three characters, two bytes */
        uint32_t v = (uint32_t)bits[i] << 18 | (uint32_t)bits[i + 1] << 12
                     | (uint32_t)bits[i + 2] << 6;
        raw[o++] = (unsigned char)(v >> 16);
        raw[o++] = (unsigned char)(v >> 8);
    }
    return o == RK_TOKEN_RAW_BYTES;
}

/* Shape of a token by round trip, from the definition in rk_token.h. */
static int ref_shape_ok(const char *s, size_t len)
{
    unsigned char raw[RK_TOKEN_RAW_BYTES];
    char again[RK_TOKEN_CHARS + 1];

    if (len != RK_TOKEN_CHARS || !b64url_decode43(s, raw)) {
        return 0;
    }
    rk_token_encode(raw, again);
    CHECK(strlen(again) == RK_TOKEN_CHARS);
    return memcmp(again, s, RK_TOKEN_CHARS) == 0;
}

/* Classification from the contract of rk_bearer_parse in rk_token.h. */
static rk_auth_kind ref_kind(const char *h)
{
    const char *start = h, *end = h + strlen(h), *cred;

    while (is_sp(*start)) {
        start++;
    }
    while (end > start && is_sp(end[-1])) {
        end--;
    }
    if ((size_t)(end - start) < 6 || strncasecmp(start, "bearer", 6) != 0) {
        return RK_AUTH_OTHER;
    }
    if (end - start == 6) {
        return RK_AUTH_OTHER;              /* the scheme alone */
    }
    if (!is_sp(start[6])) {
        return RK_AUTH_OTHER;              /* "Bearerx...": another scheme */
    }
    for (cred = start + 6; cred < end && is_sp(*cred); cred++)
        ;
    return ref_shape_ok(cred, (size_t)(end - cred)) ? RK_AUTH_BEARER : RK_AUTH_BEARER_BAD;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t hlen = strnlen((const char *)data, size);
    char *h = malloc(hlen + 1);
    const char *tok = NULL;
    size_t len = 0;
    rk_auth_kind kind;

    if (!h) {
        return 0;
    }
    memcpy(h, data, hlen);
    h[hlen] = '\0';

    kind = rk_bearer_parse(h, &tok, &len);
    CHECK(kind == RK_AUTH_OTHER || kind == RK_AUTH_BEARER_BAD || kind == RK_AUTH_BEARER);
    CHECK(kind == ref_kind(h));
    if (kind == RK_AUTH_BEARER) {
        const char *p;

        CHECK(tok != NULL);
        CHECK(tok >= h && tok <= h + hlen && len <= (size_t)(h + hlen - tok));
        CHECK(len == RK_TOKEN_CHARS);
        CHECK(rk_token_shape_ok(tok, len));
        CHECK(ref_shape_ok(tok, len));
        for (p = h; is_sp(*p); p++)
            ;
        CHECK(strncasecmp(p, "bearer", 6) == 0 && is_sp(p[6]));
        for (p += 6; is_sp(*p); p++)
            ;
        CHECK(p == tok);
        for (p = tok + len; *p; p++) {
            CHECK(is_sp(*p));
        }
    }

    /* rk_token_shape_ok on the raw bytes, with their exact length (no NUL needed) */
    if (size <= 2 * RK_TOKEN_CHARS) {
        char *copy = malloc(size ? size : 1);

        if (copy) {
            memcpy(copy, data, size);
            CHECK(rk_token_shape_ok(copy, size) == ref_shape_ok(copy, size));
            free(copy);
        }
    }
    free(h);
    return 0;
}
