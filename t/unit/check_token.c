/* check_token.c: Check unit tests of rk_token (SHA-256, tokens, Authorization header,
 * bcrypt).  Contract: doc/api.md "Authentication"; doc/design.md. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <apr_general.h>

#include "rk_token.h"

#define B64URL "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
#define CANONICAL_LAST "AEIMQUYcgkosw048"

/* Tokens of the right shape (base64url of 32 bytes: see test_token_encode). */
#define TOK1 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
#define TOK2 "4OHi4-Tl5ufo6err7O3u7_Dx8vP09fb3-Pn6-_z9_v8"

/* htpasswd -nbB -C 4 user secret */
#define HTPASSWD_HASH "$2y$04$WPxDUx6X29bCgwQAMoVSQ.Nud8QDXHYU23E70oYt7oEvTeC2KpgjK"

/* ------------------------------------------------------------------ SHA-256 */

static void check_sha(const void *data, size_t len, const char *want)
{
    char hex[RK_HASH_HEX + 1];
    memset(hex, 'Z', sizeof hex);
    rk_sha256_hex(data, len, hex);
    ck_assert_msg(hex[RK_HASH_HEX] == '\0', "hex not NUL-terminated");
    ck_assert_str_eq(hex, want);

    /* the raw digest agrees with the hex one */
    unsigned char raw[32];
    char again[RK_HASH_HEX + 1];
    rk_sha256(data, len, raw);
    for (int i = 0; i < 32; i++)
        snprintf(again + 2 * i, 3, "%02x", raw[i]);
    ck_assert_str_eq(again, want);
}

START_TEST(test_sha256_vectors)
{
    /* FIPS 180-2 appendix B / NIST examples */
    check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *v448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    check_sha(v448, strlen(v448),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *v896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                       "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    check_sha(v896, strlen(v896),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    /* a NUL byte is data */
    check_sha("\0", 1, "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
}
END_TEST

START_TEST(test_sha256_million_a)
{
    size_t n = 1000000;
    char *a = malloc(n);
    ck_assert_ptr_nonnull(a);
    memset(a, 'a', n);
    check_sha(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}
END_TEST

/* Lengths around the padding boundaries (55/56 bytes, one and two blocks). */
START_TEST(test_sha256_boundaries)
{
    static const struct { size_t n; const char *hex; } v[] = {
        { 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
        { 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
        { 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
        { 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
        { 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
        { 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
        { 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
    };
    char buf[128];
    memset(buf, 'a', sizeof buf);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        check_sha(buf, v[i].n, v[i].hex);
    /* every byte value, 4 times (binary data, high bytes) */
    unsigned char bin[1024];
    for (int i = 0; i < 1024; i++)
        bin[i] = (unsigned char)(i & 0xff);
    check_sha(bin, sizeof bin, "785b0751fc2c53dc14a4ce3d800e69ef9ce1009eb327ccf458afe09c242c26c9");
}
END_TEST

/* ------------------------------------------------------------------ encode */

static void check_encode(const unsigned char raw[RK_TOKEN_RAW_BYTES], const char *want)
{
    char out[RK_TOKEN_CHARS + 1 + 8];
    memset(out, 'Z', sizeof out);
    rk_token_encode(raw, out);
    ck_assert_msg(out[RK_TOKEN_CHARS] == '\0', "token not NUL-terminated at %d", RK_TOKEN_CHARS);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(rk_token_shape_ok(out, strlen(out)), 1);
}

/* SipHash-2-4 reference vectors (key 00..0f, message 00 01 02 ... of length n) */
static void check_sip(size_t n, size_t outlen, const unsigned char *want)
{
    unsigned char key[16], msg[64] = { 0 }, out[16];
    size_t i;

    for (i = 0; i < 16; i++) {
        key[i] = (unsigned char)i;
    }
    for (i = 0; i < n; i++) {
        msg[i] = (unsigned char)i;
    }
    rk_siphash(msg, n, key, out, outlen);
    ck_assert_mem_eq(out, want, outlen);
}

START_TEST(test_siphash_vectors)
{
    static const unsigned char v64_0[8] = { 0x31, 0x0e, 0x0e, 0xdd, 0x47, 0xdb, 0x6f, 0x72 };
    static const unsigned char v64_1[8] = { 0xfd, 0x67, 0xdc, 0x93, 0xc5, 0x39, 0xf8, 0x74 };
    static const unsigned char v64_15[8] = { 0xe5, 0x45, 0xbe, 0x49, 0x61, 0xca, 0x29, 0xa1 };
    static const unsigned char v128_0[16] = { 0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6,
                                              0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02, 0x93 };
    static const unsigned char v128_1[16] = { 0xda, 0x87, 0xc1, 0xd8, 0x6b, 0x99, 0xaf, 0x44,
                                              0x34, 0x76, 0x59, 0x11, 0x9b, 0x22, 0xfc, 0x45 };

    check_sip(0, 8, v64_0);
    check_sip(1, 8, v64_1);
    check_sip(15, 8, v64_15);
    check_sip(0, 16, v128_0);
    check_sip(1, 16, v128_1);
}
END_TEST

START_TEST(test_token_cache_key)
{
    unsigned char k1[16] = { 1 }, k2[16] = { 2 };
    char a[RK_TOKEN_KEY_HEX + 1], b[RK_TOKEN_KEY_HEX + 1], c[RK_TOKEN_KEY_HEX + 1];
    const char *tok = "q5v7Rp0FQYtY3hNn6f3o5r9yS2lKxJ8wT1cE4mB0aZA";
    size_t i;

    rk_token_cache_key(tok, strlen(tok), k1, a);
    rk_token_cache_key(tok, strlen(tok), k1, b);
    ck_assert_str_eq(a, b);                       /* a function of token and key */
    ck_assert_uint_eq(strlen(a), RK_TOKEN_KEY_HEX);
    for (i = 0; i < RK_TOKEN_KEY_HEX; i++) {
        ck_assert(strchr("0123456789abcdef", a[i]) != NULL);
    }
    rk_token_cache_key(tok, strlen(tok), k2, c);
    ck_assert_str_ne(a, c);                       /* another process, another key */
    rk_token_cache_key(tok, strlen(tok) - 1, k1, c);
    ck_assert_str_ne(a, c);
    ck_assert(strstr(a, tok) == NULL);
}
END_TEST

START_TEST(test_token_encode)
{
    unsigned char raw[RK_TOKEN_RAW_BYTES];
    ck_assert_int_eq(RK_TOKEN_RAW_BYTES, 32);
    ck_assert_int_eq(RK_TOKEN_CHARS, 43);

    memset(raw, 0, sizeof raw);
    check_encode(raw, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    memset(raw, 0xff, sizeof raw);
    check_encode(raw, "__________________________________________8");
    for (int i = 0; i < 32; i++)
        raw[i] = (unsigned char)i;
    check_encode(raw, TOK1);
    for (int i = 0; i < 32; i++)
        raw[i] = (unsigned char)(224 + i);
    check_encode(raw, TOK2);
    /* bytes whose standard base64 is "+/+/...": base64url gives "-_-_..." */
    for (int i = 0; i < 30; i += 3) {
        raw[i] = 0xfb;
        raw[i + 1] = 0xff;
        raw[i + 2] = 0xbf;
    }
    raw[30] = 0xfb;
    raw[31] = 0xef;
    check_encode(raw, "-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_--8");
}
END_TEST

/* ------------------------------------------------------------------ generate */

START_TEST(test_token_generate)
{
    enum { N = 64 };
    static char toks[N][RK_TOKEN_CHARS + 1 + 8];
    for (int i = 0; i < N; i++) {
        memset(toks[i], 'Z', sizeof toks[i]);
        ck_assert_int_eq(rk_token_generate(toks[i]), 0);
        ck_assert_msg(toks[i][RK_TOKEN_CHARS] == '\0', "generated token not NUL-terminated");
        ck_assert_uint_eq(strlen(toks[i]), RK_TOKEN_CHARS);
        ck_assert_msg(strspn(toks[i], B64URL) == RK_TOKEN_CHARS, "token '%s' has a bad char", toks[i]);
        ck_assert_int_eq(rk_token_shape_ok(toks[i], RK_TOKEN_CHARS), 1);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(toks[i], toks[j]) != 0, "two generated tokens are equal: %s", toks[i]);
    }
    /* the 43 x 64 characters use much of the alphabet (not a constant or a counter) */
    int seen[256] = { 0 };
    int distinct = 0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < RK_TOKEN_CHARS - 1; k++)
            if (!seen[(unsigned char)toks[i][k]]++)
                distinct++;
    ck_assert_int_ge(distinct, 55);
}
END_TEST

/* ------------------------------------------------------------------ shape */

START_TEST(test_token_shape)
{
    char t[64];
    ck_assert_int_eq(rk_token_shape_ok(TOK1, 43), 1);
    ck_assert_int_eq(rk_token_shape_ok(TOK2, 43), 1);
    ck_assert_int_eq(rk_token_shape_ok("", 0), 0);
    ck_assert_int_eq(rk_token_shape_ok(TOK1, 42), 0);
    ck_assert_int_eq(rk_token_shape_ok(TOK1 "A", 44), 0);
    ck_assert_int_eq(rk_token_shape_ok(TOK1 "=", 44), 0);
    ck_assert_int_eq(rk_token_shape_ok(TOK1 "xyz", 43), 1);   /* LEN honoured */
    ck_assert_int_eq(rk_token_shape_ok("AAAA", 4), 0);

    /* the last character decides canonicity */
    for (const char *c = B64URL; *c; c++) {
        memset(t, 'A', 42);
        t[42] = *c;
        t[43] = '\0';
        int want = strchr(CANONICAL_LAST, *c) != NULL;
        ck_assert_msg(rk_token_shape_ok(t, 43) == want, "last char '%c': want %d", *c, want);
    }
    /* a foreign byte at any position */
    const char bad[] = { '+', '/', '=', '.', '~', '%', ' ', '\t', '!', '*', '\x80', '\xff', '\0' };
    for (int pos = 0; pos < 43; pos++) {
        for (size_t b = 0; b < sizeof bad; b++) {
            memcpy(t, TOK1, 44);
            t[pos] = bad[b];
            ck_assert_msg(rk_token_shape_ok(t, 43) == 0, "byte 0x%02x at %d accepted",
                          (unsigned char)bad[b], pos);
        }
    }
}
END_TEST

/* ------------------------------------------------------------------ Authorization */

static void bearer_ok(const char *header, size_t tok_off, const char *want_tok)
{
    const char *tok = NULL;
    size_t len = 0;
    rk_auth_kind k = rk_bearer_parse(header, &tok, &len);
    ck_assert_msg(k == RK_AUTH_BEARER, "'%s': kind %d, want BEARER", header, (int)k);
    ck_assert_msg(tok == header + tok_off, "'%s': tok at offset %td, want %zu", header,
                  tok ? tok - header : -1, tok_off);
    ck_assert_uint_eq(len, RK_TOKEN_CHARS);
    ck_assert_int_eq(strncmp(tok, want_tok, RK_TOKEN_CHARS), 0);
}

static void bearer_kind(const char *header, rk_auth_kind want)
{
    const char *tok = NULL;
    size_t len = 0;
    rk_auth_kind k = rk_bearer_parse(header, &tok, &len);
    ck_assert_msg(k == want, "'%s': kind %d, want %d", header ? header : "(null)", (int)k, (int)want);
}

START_TEST(test_bearer_ok)
{
    bearer_ok("Bearer " TOK1, 7, TOK1);
    bearer_ok("Bearer " TOK2, 7, TOK2);
    bearer_ok("bearer " TOK1, 7, TOK1);
    bearer_ok("BEARER " TOK1, 7, TOK1);
    bearer_ok("bEaReR " TOK1, 7, TOK1);
    bearer_ok("Bearer  " TOK1, 8, TOK1);
    bearer_ok("Bearer     " TOK1, 11, TOK1);
    bearer_ok(" Bearer " TOK1, 8, TOK1);
    bearer_ok("\tBearer " TOK1, 8, TOK1);
    bearer_ok(" \t Bearer " TOK1, 10, TOK1);
    bearer_ok("Bearer " TOK1 " ", 7, TOK1);
    bearer_ok("Bearer " TOK1 "\t", 7, TOK1);
    bearer_ok("Bearer " TOK1 "  \t ", 7, TOK1);
    bearer_ok("  Bearer   " TOK1 "   ", 11, TOK1);
    bearer_ok("Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 7,
              "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
}
END_TEST

START_TEST(test_bearer_none_other)
{
    bearer_kind(NULL, RK_AUTH_NONE);
    bearer_kind("Basic dXNlcjpwYXNz", RK_AUTH_OTHER);
    bearer_kind("Basic " TOK1, RK_AUTH_OTHER);
    bearer_kind("basic " TOK1, RK_AUTH_OTHER);
    bearer_kind("Basic", RK_AUTH_OTHER);
    bearer_kind("Digest username=\"u\", realm=\"r\"", RK_AUTH_OTHER);
    bearer_kind("Bearer", RK_AUTH_OTHER);
    bearer_kind("bearer", RK_AUTH_OTHER);
    bearer_kind("Bearer ", RK_AUTH_OTHER);
    bearer_kind("Bearer   ", RK_AUTH_OTHER);
    bearer_kind("Bearer\t", RK_AUTH_OTHER);
    bearer_kind("  Bearer  ", RK_AUTH_OTHER);
    bearer_kind("Bearer" TOK1, RK_AUTH_OTHER);
    bearer_kind("Bearertok", RK_AUTH_OTHER);
    bearer_kind("Bearer=" TOK1, RK_AUTH_OTHER);
    bearer_kind("Bearer:" TOK1, RK_AUTH_OTHER);
    bearer_kind("Bear " TOK1, RK_AUTH_OTHER);
    bearer_kind("Bearers " TOK1, RK_AUTH_OTHER);
    bearer_kind("XBearer " TOK1, RK_AUTH_OTHER);
    bearer_kind("B " TOK1, RK_AUTH_OTHER);
    bearer_kind(TOK1, RK_AUTH_OTHER);
    bearer_kind("Token " TOK1, RK_AUTH_OTHER);
    /* an empty or blank header is not a Bearer credential */
    const char *tok;
    size_t len;
    rk_auth_kind k = rk_bearer_parse("", &tok, &len);
    ck_assert_msg(k == RK_AUTH_NONE || k == RK_AUTH_OTHER, "empty header: kind %d", (int)k);
    k = rk_bearer_parse("   ", &tok, &len);
    ck_assert_msg(k == RK_AUTH_NONE || k == RK_AUTH_OTHER, "blank header: kind %d", (int)k);
}
END_TEST

START_TEST(test_bearer_bad)
{
    char h[256];
    /* wrong length */
    bearer_kind("Bearer " "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh", RK_AUTH_BEARER_BAD); /* 42 */
    bearer_kind("Bearer " TOK1 "A", RK_AUTH_BEARER_BAD);                                    /* 44 */
    bearer_kind("Bearer x", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer .", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 TOK1, RK_AUTH_BEARER_BAD);
    /* padding, extra words, repeated headers joined by httpd */
    bearer_kind("Bearer " TOK1 "=", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 "==", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 " extra", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 " " TOK2, RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 ",Bearer " TOK1, RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 ", Bearer " TOK1, RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 ", Bearer " TOK2, RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 ",", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer " TOK1 ";", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer \"" TOK1 "\"", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer token=" TOK1, RK_AUTH_BEARER_BAD);
    /* non-canonical last character */
    bearer_kind("Bearer AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9", RK_AUTH_BEARER_BAD);
    bearer_kind("Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB", RK_AUTH_BEARER_BAD);
    /* a foreign character in the middle */
    const char *bad[] = { "=", "+", "/", "%", ".", "~", "\xc3\xa9", "\x80", "\x01", "\x7f", "*" };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        /* replacing (keeps 43 bytes for one-byte chars) */
        snprintf(h, sizeof h, "Bearer %.20s%s%s", TOK1, bad[b], TOK1 + 20 + strlen(bad[b]));
        bearer_kind(h, RK_AUTH_BEARER_BAD);
        /* first and last position */
        snprintf(h, sizeof h, "Bearer %s%s", bad[b], TOK1 + strlen(bad[b]));
        bearer_kind(h, RK_AUTH_BEARER_BAD);
        snprintf(h, sizeof h, "Bearer %.*s%s", (int)(43 - strlen(bad[b])), TOK1, bad[b]);
        bearer_kind(h, RK_AUTH_BEARER_BAD);
    }
    /* standard base64 of a token (with + and /) */
    bearer_kind("Bearer +/+/+/+/+/+/+/+/+/+/+/+/+/+/+/+/+/+/+/+/++8", RK_AUTH_BEARER_BAD);
    /* percent-encoded */
    bearer_kind("Bearer %41ECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", RK_AUTH_BEARER_BAD);
    /* a long credential */
    char *longh = malloc(100020);
    ck_assert_ptr_nonnull(longh);
    strcpy(longh, "Bearer ");
    memset(longh + 7, 'A', 100000);
    longh[100007] = '\0';
    bearer_kind(longh, RK_AUTH_BEARER_BAD);
    free(longh);
}
END_TEST

/* ------------------------------------------------------------------ passwords */

/* rk_password_verify under a policy of cost 4 (the cheapest), made once per process */
static const rk_password_policy *policy4(void)
{
    static rk_password_policy pol;
    if (pol.cost == 0)
        ck_assert_int_eq(rk_password_policy_init(&pol, 4), 0);
    return &pol;
}

static int pw_check(const char *password, const char *hash)
{
    int rehash = -1, ok = rk_password_verify(policy4(), password, hash, &rehash);
    ck_assert_int_eq(rehash, 0);   /* every hash of these tests is of cost 4, or none */
    return ok;
}

START_TEST(test_password_check_htpasswd)
{
    ck_assert_int_eq(pw_check("secret", HTPASSWD_HASH), 1);
    ck_assert_int_eq(pw_check("Secret", HTPASSWD_HASH), 0);
    ck_assert_int_eq(pw_check("secret ", HTPASSWD_HASH), 0);
    ck_assert_int_eq(pw_check("secre", HTPASSWD_HASH), 0);
    ck_assert_int_eq(pw_check("wrong", HTPASSWD_HASH), 0);
    ck_assert_int_eq(pw_check("", HTPASSWD_HASH), 0);
    /* unknown user: NULL hash, never a match */
    ck_assert_int_eq(pw_check("secret", NULL), 0);
    ck_assert_int_eq(pw_check("", NULL), 0);
    ck_assert_int_eq(pw_check("password", NULL), 0);
    /* an empty or damaged hash never matches */
    ck_assert_int_eq(pw_check("", ""), 0);
    ck_assert_int_eq(pw_check("secret", ""), 0);
    ck_assert_int_eq(pw_check("secret", "$2y$04$"), 0);
    ck_assert_int_eq(pw_check("secret", "$2y$04$WPxDUx6X29bCgwQAMoVSQ.Nud8QDXHYU23E70oYt7oEvTeC2Kpgj"), 0);
    ck_assert_int_eq(pw_check("secret", "$2y$04$WPxDUx6X29bCgwQAMoVSQ.Nud8QDXHYU23E70oYt7oEvTeC2KpgjL"), 0);
}
END_TEST

START_TEST(test_password_roundtrip)
{
    char h1[128], h2[128];
    ck_assert_int_eq(rk_password_hash("s3cret", 4, h1, sizeof h1), 0);
    ck_assert_uint_eq(strlen(h1), 60);
    ck_assert_msg(strncmp(h1, "$2y$04$", 7) == 0, "hash '%s' is not in htpasswd -B format", h1);
    ck_assert_int_eq(pw_check("s3cret", h1), 1);
    ck_assert_int_eq(pw_check("s3creT", h1), 0);
    ck_assert_int_eq(pw_check("", h1), 0);
    /* a new salt each time */
    ck_assert_int_eq(rk_password_hash("s3cret", 4, h2, sizeof h2), 0);
    ck_assert_str_ne(h1, h2);
    ck_assert_int_eq(pw_check("s3cret", h2), 1);
    /* the password never appears in the hash */
    ck_assert_ptr_null(strstr(h1, "s3cret"));
    /* UTF-8 and empty passwords */
    ck_assert_int_eq(rk_password_hash("m\xc3\xb6t de passe \xf0\x9f\x94\x91", 4, h1, sizeof h1), 0);
    ck_assert_int_eq(pw_check("m\xc3\xb6t de passe \xf0\x9f\x94\x91", h1), 1);
    ck_assert_int_eq(pw_check("mot de passe \xf0\x9f\x94\x91", h1), 0);
    ck_assert_int_eq(rk_password_hash("", 4, h1, sizeof h1), 0);
    ck_assert_int_eq(pw_check("", h1), 1);
    ck_assert_int_eq(pw_check("x", h1), 0);
    /* cost 5 is written in the hash */
    ck_assert_int_eq(rk_password_hash("pw", 5, h1, sizeof h1), 0);
    ck_assert_msg(strncmp(h1, "$2y$05$", 7) == 0, "hash '%s'", h1);
    ck_assert_int_eq(rk_password_cost(h1), 5);
}
END_TEST

START_TEST(test_password_hash_limits)
{
    char h[128];
    /* 61 bytes is enough, 60 is not */
    ck_assert_int_eq(rk_password_hash("pw", 4, h, 61), 0);
    ck_assert_uint_eq(strlen(h), 60);
    ck_assert_int_eq(pw_check("pw", h), 1);
    ck_assert_int_ne(rk_password_hash("pw", 4, h, 60), 0);
    ck_assert_int_ne(rk_password_hash("pw", 4, h, 0), 0);
    /* cost out of 4..31 */
    ck_assert_int_ne(rk_password_hash("pw", 3, h, sizeof h), 0);
    ck_assert_int_ne(rk_password_hash("pw", 0, h, sizeof h), 0);
    ck_assert_int_ne(rk_password_hash("pw", -1, h, sizeof h), 0);
    ck_assert_int_ne(rk_password_hash("pw", 32, h, sizeof h), 0);
}
END_TEST

START_TEST(test_password_cost)
{
    ck_assert_int_eq(rk_password_cost(HTPASSWD_HASH), 4);
    ck_assert_int_eq(rk_password_cost("$2y$10$"), 10);
    ck_assert_int_eq(rk_password_cost("$2a$12$abc"), 12);
    ck_assert_int_eq(rk_password_cost("$2b$31$"), 31);
    ck_assert_int_eq(rk_password_cost("$2y$03$"), -1);
    ck_assert_int_eq(rk_password_cost("$2y$32$"), -1);
    ck_assert_int_eq(rk_password_cost("$2x$10$"), -1);
    ck_assert_int_eq(rk_password_cost("$2y$1x$"), -1);
    ck_assert_int_eq(rk_password_cost("$2y$10x"), -1);
    ck_assert_int_eq(rk_password_cost("$2y$1"), -1);
    ck_assert_int_eq(rk_password_cost("$apr1$abc$def"), -1);
    ck_assert_int_eq(rk_password_cost(""), -1);
    ck_assert_int_eq(rk_password_cost(NULL), -1);
}
END_TEST

START_TEST(test_password_policy_init)
{
    rk_password_policy pol;
    ck_assert_int_ne(rk_password_policy_init(&pol, 3), 0);
    ck_assert_int_eq(pol.cost, 0);
    ck_assert_int_ne(rk_password_policy_init(&pol, RK_PASSWORD_COST_MAX + 1), 0);
    ck_assert_int_eq(rk_password_policy_init(&pol, 6), 0);
    ck_assert_int_eq(pol.cost, 6);
    for (int c = 4; c <= 6; c++) {
        ck_assert_int_eq(rk_password_cost(pol.dummy[c]), c);
        ck_assert_uint_eq(strlen(pol.dummy[c]), 60);
    }
    ck_assert_str_ne(pol.dummy[5], pol.dummy[6]);
    /* an uninitialised policy matches nothing */
    rk_password_policy none;
    memset(&none, 0, sizeof none);
    int rehash = -1;
    ck_assert_int_eq(rk_password_verify(&none, "secret", HTPASSWD_HASH, &rehash), 0);
    ck_assert_int_eq(rehash, 0);
    ck_assert_int_eq(rk_password_verify(NULL, "secret", HTPASSWD_HASH, &rehash), 0);
}
END_TEST

/* bcrypt reads 72 bytes: a longer secret must not log in with its 72-byte prefix */
START_TEST(test_password_over_72_bytes)
{
    char pw[200], h[128];
    memset(pw, 'p', sizeof pw);
    pw[72] = '\0';
    ck_assert_int_eq(rk_password_hash(pw, 4, h, sizeof h), 0);
    ck_assert_int_eq(pw_check(pw, h), 1);              /* 72 bytes: fine */
    pw[72] = 'x';
    pw[73] = '\0';
    ck_assert_int_eq(pw_check(pw, h), 0);              /* 73: never */
    pw[72] = 'p';
    pw[150] = '\0';
    ck_assert_int_eq(pw_check(pw, h), 0);
    ck_assert_int_eq(pw_check(pw, NULL), 0);
    /* a hash made from a longer password by another tool: still refused */
    ck_assert_int_eq(rk_password_hash(pw, 4, h, sizeof h), 0);
    ck_assert_int_eq(pw_check(pw, h), 0);
}
END_TEST

/* A match of a hash of another cost asks for a rehash; a failure never does. */
START_TEST(test_password_rehash_flag)
{
    rk_password_policy pol;
    char h4[128], h5[128], h6[128];
    int rehash = -1;
    ck_assert_int_eq(rk_password_policy_init(&pol, 5), 0);
    ck_assert_int_eq(rk_password_hash("pw", 4, h4, sizeof h4), 0);
    ck_assert_int_eq(rk_password_hash("pw", 5, h5, sizeof h5), 0);
    ck_assert_int_eq(rk_password_hash("pw", 6, h6, sizeof h6), 0);
    ck_assert_int_eq(rk_password_verify(&pol, "pw", h5, &rehash), 1);
    ck_assert_int_eq(rehash, 0);
    ck_assert_int_eq(rk_password_verify(&pol, "pw", h4, &rehash), 1);
    ck_assert_int_eq(rehash, 1);
    ck_assert_int_eq(rk_password_verify(&pol, "pw", h6, &rehash), 1);
    ck_assert_int_eq(rehash, 1);
    ck_assert_int_eq(rk_password_verify(&pol, "px", h4, &rehash), 0);
    ck_assert_int_eq(rehash, 0);
    ck_assert_int_eq(rk_password_verify(&pol, "px", h6, &rehash), 0);
    ck_assert_int_eq(rehash, 0);
    ck_assert_int_eq(rk_password_verify(&pol, "pw", NULL, &rehash), 0);
    ck_assert_int_eq(rehash, 0);
}
END_TEST

/* The CPU time of this thread: a password check is pure computation (the padding of
 * a failure is a real bcrypt, never a sleep), so what the checks cost is compared
 * without the noise of other processes on a loaded machine (wall time was: the test
 * failed at a load average of 7 to 11). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double median3(double a, double b, double c)
{
    return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

/* Every failure costs one check at the policy's cost: an unknown user (NULL hash), a
 * damaged hash, a hash of a lower cost (padded), a secret over 72 bytes.  Medians of
 * 3 interleaved tries, policy cost 9 (a check of cost 4 alone is 32 times faster); a
 * margin wide enough for a loaded machine and the sanitizer build. */
START_TEST(test_password_failure_timing)
{
    rk_password_policy pol;
    char h9[128], h4[128], h7[128], longpw[100];
    const char *hash[5];
    const char *pw[5] = { "nope", "nope", "nope", "nope", longpw };
    double t[5][3];
    int rehash;

    ck_assert_int_eq(rk_password_policy_init(&pol, 9), 0);
    ck_assert_int_eq(rk_password_hash("pw", 9, h9, sizeof h9), 0);
    ck_assert_int_eq(rk_password_hash("pw", 4, h4, sizeof h4), 0);
    ck_assert_int_eq(rk_password_hash("pw", 7, h7, sizeof h7), 0);
    memset(longpw, 'q', sizeof longpw - 1);
    longpw[sizeof longpw - 1] = '\0';
    hash[0] = h9;
    hash[1] = NULL;
    hash[2] = "$2y$09$short";
    hash[3] = h4;
    hash[4] = h9;
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 5; k++) {
            double t0 = now();
            ck_assert_int_eq(rk_password_verify(&pol, pw[k], hash[k], &rehash), 0);
            t[k][i] = now() - t0;
        }
    }
    double ref = median3(t[0][0], t[0][1], t[0][2]);
    const char *what[5] = { "wrong password", "unknown user", "damaged hash",
                            "cost-4 hash", "secret over 72 bytes" };
    for (int k = 1; k < 5; k++) {
        double m = median3(t[k][0], t[k][1], t[k][2]);
        ck_assert_msg(m >= 0.6 * ref && m <= 1.6 * ref,
                      "%s took %.4f s, a wrong password at the policy's cost %.4f s",
                      what[k], m, ref);
    }
    /* a cost-7 hash too */
    double t0 = now();
    ck_assert_int_eq(rk_password_verify(&pol, "nope", h7, &rehash), 0);
    double m7 = now() - t0;
    ck_assert_msg(m7 >= 0.5 * ref, "a cost-7 hash took %.4f s, a cost-9 check %.4f s", m7, ref);
}
END_TEST

/* With a floor above the policy's cost (the costliest stored hash: 9 here, policy 6),
 * every failure costs a check at the floor: an unknown user, a wrong password of a
 * cost-6 hash (padded), of a cost-4 one; as much as a wrong password of the cost-9
 * hash itself.  And the answers are those of rk_password_verify. */
START_TEST(test_password_floor)
{
    rk_password_policy pol;
    char h9[128], h6[128], h4[128];
    const char *hash[4];
    double t[4][3];
    int rehash = -1;

    ck_assert_int_eq(rk_password_policy_init(&pol, 6), 0);
    ck_assert_int_eq(rk_password_hash("pw", 9, h9, sizeof h9), 0);
    ck_assert_int_eq(rk_password_hash("pw", 6, h6, sizeof h6), 0);
    ck_assert_int_eq(rk_password_hash("pw", 4, h4, sizeof h4), 0);
    ck_assert_int_eq(rk_password_verify_at(&pol, "pw", h6, 9, &rehash), 1);
    ck_assert_int_eq(rehash, 0);
    ck_assert_int_eq(rk_password_verify_at(&pol, "pw", h9, 9, &rehash), 1);
    ck_assert_int_eq(rehash, 1);
    ck_assert_int_eq(rk_password_verify_at(&pol, "pw", h4, 9, &rehash), 1);
    ck_assert_int_eq(rehash, 1);
    ck_assert_int_eq(rk_password_verify_at(&pol, "px", h6, 9, &rehash), 0);
    ck_assert_int_eq(rehash, 0);
    ck_assert_int_eq(rk_password_verify_at(&pol, "pw", NULL, 9, &rehash), 0);
    /* a floor below the policy's cost is the policy's cost */
    ck_assert_int_eq(rk_password_verify_at(&pol, "pw", h6, 0, &rehash), 1);
    hash[0] = h9;
    hash[1] = NULL;
    hash[2] = h6;
    hash[3] = h4;
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 4; k++) {
            double t0 = now();
            ck_assert_int_eq(rk_password_verify_at(&pol, "nope", hash[k], 9, &rehash), 0);
            t[k][i] = now() - t0;
        }
    }
    double ref = median3(t[0][0], t[0][1], t[0][2]);
    const char *what[4] = { "cost-9 hash", "unknown user", "cost-6 hash", "cost-4 hash" };
    for (int k = 1; k < 4; k++) {
        double m = median3(t[k][0], t[k][1], t[k][2]);
        ck_assert_msg(m >= 0.6 * ref && m <= 1.6 * ref,
                      "%s took %.4f s with a floor of 9, a wrong password of the cost-9 hash "
                      "%.4f s", what[k], m, ref);
    }
    /* without the floor, the unknown user costs a check at 6: 8 times less */
    double t0 = now();
    rk_password_verify(&pol, "nope", NULL, &rehash);
    double m6 = now() - t0;
    ck_assert_msg(m6 < 0.4 * ref, "an unknown user at cost 6 took %.4f s, at 9 %.4f s", m6, ref);
}
END_TEST

/* ------------------------------------------------------------------ main */

static Suite *token_suite(void)
{
    Suite *s = suite_create("rk_token");
    TCase *tc = tcase_create("sha256");
    tcase_add_test(tc, test_sha256_vectors);
    tcase_add_test(tc, test_sha256_million_a);
    tcase_add_test(tc, test_sha256_boundaries);
    suite_add_tcase(s, tc);

    tc = tcase_create("token");
    tcase_add_test(tc, test_siphash_vectors);
    tcase_add_test(tc, test_token_cache_key);
    tcase_add_test(tc, test_token_encode);
    tcase_add_test(tc, test_token_generate);
    tcase_add_test(tc, test_token_shape);
    suite_add_tcase(s, tc);

    tc = tcase_create("authorization");
    tcase_add_test(tc, test_bearer_ok);
    tcase_add_test(tc, test_bearer_none_other);
    tcase_add_test(tc, test_bearer_bad);
    suite_add_tcase(s, tc);

    tc = tcase_create("password");
    tcase_set_timeout(tc, 30);   /* bcrypt; slow under valgrind */
    tcase_add_test(tc, test_password_check_htpasswd);
    tcase_add_test(tc, test_password_roundtrip);
    tcase_add_test(tc, test_password_hash_limits);
    tcase_add_test(tc, test_password_cost);
    tcase_add_test(tc, test_password_policy_init);
    tcase_add_test(tc, test_password_over_72_bytes);
    tcase_add_test(tc, test_password_rehash_flag);
    tcase_add_test(tc, test_password_failure_timing);
    tcase_add_test(tc, test_password_floor);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (apr_initialize() != APR_SUCCESS) {
        fprintf(stderr, "apr_initialize failed\n");
        return EXIT_FAILURE;
    }
    atexit(apr_terminate);
    SRunner *sr = srunner_create(token_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
