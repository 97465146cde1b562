/* check_idem.c: Check unit tests of rk_idem (Idempotency-Key, request fingerprints)
 * and of the incremental SHA-256 of rk_token it uses.
 * Contract: /work/shared/API.md part 3 "Safe retries"; doc/api.md "Part 3 decisions
 * (work in progress)". */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_idem.h"
#include "rk_token.h"

START_TEST(test_key_valid)
{
    char key[RK_IDEM_KEY_MAX + 2];
    int c;

    ck_assert(rk_idem_key_valid("a", 1));
    ck_assert(rk_idem_key_valid("3f2b9c1e-7a4d-4b8e-9f00-0123456789ab", 36));
    ck_assert(rk_idem_key_valid("!~", 2));
    ck_assert(!rk_idem_key_valid(NULL, 0));
    ck_assert(!rk_idem_key_valid("", 0));
    ck_assert(!rk_idem_key_valid("a b", 3));
    ck_assert(!rk_idem_key_valid("a\tb", 3));
    ck_assert(!rk_idem_key_valid("k1, k2", 6));          /* two headers joined by httpd */
    ck_assert(!rk_idem_key_valid("caf\xc3\xa9", 5));     /* not ASCII */
    ck_assert(!rk_idem_key_valid("a\0b", 3));
    ck_assert(!rk_idem_key_valid("a\x7f", 2));
    ck_assert(!rk_idem_key_valid("a\r\n", 3));
    /* only LEN bytes are read */
    ck_assert(rk_idem_key_valid("ab cd", 2));

    /* every byte: 0x21..0x7E alone is a key */
    for (c = 0; c < 256; c++) {
        char one = (char)c;

        ck_assert_int_eq(rk_idem_key_valid(&one, 1), c >= 0x21 && c <= 0x7E);
    }
    /* 255 characters, not 256 */
    memset(key, 'k', sizeof(key));
    ck_assert(rk_idem_key_valid(key, RK_IDEM_KEY_MAX));
    ck_assert(!rk_idem_key_valid(key, RK_IDEM_KEY_MAX + 1));
}
END_TEST

/* SHA-256 test vectors (FIPS 180-2 examples and the empty string) */
START_TEST(test_sha256_incremental)
{
    static const struct {
        const char *in;
        const char *hex;
    } v[] = {
        { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    };
    unsigned char big[1000];
    char one[RK_HASH_HEX + 1], inc[RK_HASH_HEX + 1];
    size_t i, split, step;

    for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        size_t len = strlen(v[i].in);

        for (split = 0; split <= len; split++) {
            rk_sha256_ctx ctx;

            rk_sha256_init(&ctx);
            rk_sha256_update(&ctx, v[i].in, split);
            rk_sha256_update(&ctx, v[i].in + split, len - split);
            rk_sha256_final_hex(&ctx, inc);
            ck_assert_str_eq(inc, v[i].hex);
        }
    }
    /* every length to 1000 and several piece sizes agree with the one-shot digest */
    for (i = 0; i < sizeof(big); i++) {
        big[i] = (unsigned char)(i * 7 + 3);
    }
    for (i = 0; i <= sizeof(big); i += (i < 200 ? 1 : 37)) {
        rk_sha256_hex(big, i, one);
        for (step = 1; step <= 130; step += 43) {
            rk_sha256_ctx ctx;
            size_t off;

            rk_sha256_init(&ctx);
            for (off = 0; off < i; off += step) {
                rk_sha256_update(&ctx, big + off, off + step <= i ? step : i - off);
            }
            rk_sha256_final_hex(&ctx, inc);
            ck_assert_msg(strcmp(one, inc) == 0, "length %zu, pieces of %zu", i, step);
        }
    }
}
END_TEST

START_TEST(test_fingerprint)
{
    char a[RK_IDEM_HASH_HEX + 1], b[RK_IDEM_HASH_HEX + 1];
    const char *body = "{\"score\":\"245\"}";
    size_t i;

    rk_idem_fingerprint("PUT", "/api/competition/2/zone/26/heat/251/voie/2001", body,
                        strlen(body), a);
    ck_assert_uint_eq(strlen(a), RK_IDEM_HASH_HEX);
    for (i = 0; i < RK_IDEM_HASH_HEX; i++) {
        ck_assert(strchr("0123456789abcdef", a[i]) != NULL);
    }
    /* the same request: the same fingerprint */
    rk_idem_fingerprint("PUT", "/api/competition/2/zone/26/heat/251/voie/2001", body,
                        strlen(body), b);
    ck_assert_str_eq(a, b);
    /* another method, path or body (one byte, even a space) */
    rk_idem_fingerprint("PATCH", "/api/competition/2/zone/26/heat/251/voie/2001", body,
                        strlen(body), b);
    ck_assert_str_ne(a, b);
    rk_idem_fingerprint("PUT", "/api/competition/2/zone/26/heat/251/voie/2002", body,
                        strlen(body), b);
    ck_assert_str_ne(a, b);
    rk_idem_fingerprint("PUT", "/api/competition/2/zone/26/heat/251/voie/2001/", body,
                        strlen(body), b);
    ck_assert_str_ne(a, b);
    rk_idem_fingerprint("PUT", "/api/competition/2/zone/26/heat/251/voie/2001",
                        "{\"score\": \"245\"}", strlen(body) + 1, b);
    ck_assert_str_ne(a, b);
    /* the parts cannot slide into one another */
    rk_idem_fingerprint("PO", "ST/x", "", 0, a);
    rk_idem_fingerprint("POST", "/x", "", 0, b);
    ck_assert_str_ne(a, b);
    rk_idem_fingerprint("POST", "/x{}", NULL, 0, a);
    rk_idem_fingerprint("POST", "/x", "{}", 2, b);
    ck_assert_str_ne(a, b);
    /* a body with a NUL byte: every byte counts */
    rk_idem_fingerprint("POST", "/x", "a\0b", 3, a);
    rk_idem_fingerprint("POST", "/x", "a\0c", 3, b);
    ck_assert_str_ne(a, b);
    /* no body = empty body */
    rk_idem_fingerprint("DELETE", "/x", NULL, 0, a);
    rk_idem_fingerprint("DELETE", "/x", "", 0, b);
    ck_assert_str_eq(a, b);
    /* a known value: SHA-256 of "rk-idem-1\n4:POST2:/x2:{}" */
    rk_idem_fingerprint("POST", "/x", "{}", 2, a);
    rk_sha256_hex("rk-idem-1\n4:POST2:/x2:{}", strlen("rk-idem-1\n4:POST2:/x2:{}"), b);
    ck_assert_str_eq(a, b);
}
END_TEST

START_TEST(test_storable)
{
    int s;

    for (s = 100; s < 600; s++) {
        ck_assert_int_eq(rk_idem_storable(s), s >= 200 && s < 500 && s != 429);
    }
    ck_assert(rk_idem_storable(200));
    ck_assert(rk_idem_storable(201));
    ck_assert(rk_idem_storable(409));
    ck_assert(rk_idem_storable(412));
    ck_assert(!rk_idem_storable(429));
    ck_assert(!rk_idem_storable(503));
    ck_assert(!rk_idem_storable(0));
    ck_assert(!rk_idem_storable(-1));
}
END_TEST

START_TEST(test_check)
{
    const char *h1 = "1111111111111111111111111111111111111111111111111111111111111111";
    const char *h2 = "2222222222222222222222222222222222222222222222222222222222222222";
    long long t0 = 1795000000LL;

    ck_assert_int_eq(rk_idem_check(NULL, 0, t0, h1), RK_IDEM_NEW);
    ck_assert_int_eq(rk_idem_check(h1, t0, t0, h1), RK_IDEM_REPLAY);
    ck_assert_int_eq(rk_idem_check(h1, t0, t0, h2), RK_IDEM_REUSED);
    /* 24 hours: live until the last second, expired from then on */
    ck_assert_int_eq(rk_idem_check(h1, t0, t0 + RK_IDEM_TTL - 1, h1), RK_IDEM_REPLAY);
    ck_assert_int_eq(rk_idem_check(h1, t0, t0 + RK_IDEM_TTL - 1, h2), RK_IDEM_REUSED);
    ck_assert_int_eq(rk_idem_check(h1, t0, t0 + RK_IDEM_TTL, h1), RK_IDEM_NEW);
    ck_assert_int_eq(rk_idem_check(h1, t0, t0 + RK_IDEM_TTL, h2), RK_IDEM_NEW);
    /* a clock that went back keeps the answer */
    ck_assert_int_eq(rk_idem_check(h1, t0, t0 - 100, h1), RK_IDEM_REPLAY);
    ck_assert(rk_idem_live(t0, t0));
    ck_assert(!rk_idem_live(t0, t0 + 86400));
    ck_assert_int_eq(RK_IDEM_TTL, 86400);
}
END_TEST

static Suite *idem_suite(void)
{
    Suite *s = suite_create("idem");
    TCase *tc = tcase_create("idem");

    tcase_add_test(tc, test_key_valid);
    tcase_add_test(tc, test_sha256_incremental);
    tcase_add_test(tc, test_fingerprint);
    tcase_add_test(tc, test_storable);
    tcase_add_test(tc, test_check);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(idem_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
