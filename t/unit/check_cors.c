/* check_cors.c: Check unit tests of rk_cors (origins of RankingCORSOrigins). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rk_cors.h"

static const char *valid[] = {
    "https://scores.example.org", "http://localhost:8080", "http://127.0.0.1",
    "https://a-b.example", "http://[::1]:3000", "http://[2001:db8::1]", "https://x.y.z:65535",
    "app+v1://host", "http://h:1",
};

static const char *invalid[] = {
    "", "*", "null", "example.org", "https://", "https:/example.org", "https//example.org",
    "https://example.org/", "https://example.org/path", "https://Example.org",
    "HTTPS://example.org", "https://example.org:", "https://example.org:0",
    "https://example.org:080", "https://example.org:65536", "https://example.org:1234567",
    "https://exa mple.org", "https://example.org?x", "https://example.org#x",
    "https://user@example.org", "https://.example.org", "https://example.org.",
    "1http://example.org", "http://[::1", "http://[]", "http://[::g]",
    "https://example.org, https://other.org", " https://example.org",
    "https://example.org ",
};

START_TEST(origins_valid)
{
    ck_assert_msg(rk_cors_origin_valid(valid[_i]) == 1, "%s", valid[_i]);
}
END_TEST

START_TEST(origins_invalid)
{
    ck_assert_msg(rk_cors_origin_valid(invalid[_i]) == 0, "[%s]", invalid[_i]);
}
END_TEST

START_TEST(listed)
{
    const char *list[] = { "https://a.example", "http://localhost:8080" };

    ck_assert_int_eq(rk_cors_origin_listed("https://a.example", list, 2), 1);
    ck_assert_int_eq(rk_cors_origin_listed("http://localhost:8080", list, 2), 1);
    ck_assert_int_eq(rk_cors_origin_listed("http://localhost:8081", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("https://a.example.evil", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("https://a.exampl", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("http://a.example", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("HTTPS://A.EXAMPLE", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("null", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("", list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed(NULL, list, 2), 0);
    ck_assert_int_eq(rk_cors_origin_listed("https://a.example", list, 0), 0);
}
END_TEST

START_TEST(header_values)
{
    /* what the issue and doc/api.md promise, in one place */
    ck_assert_str_eq(RK_CORS_ALLOW_HEADERS,
                     "Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID, Prefer, Idempotency-Key");
    ck_assert_str_eq(RK_CORS_EXPOSE_HEADERS, "ETag, Link, X-Total-Count, Retry-After, Location, Idempotent-Replayed");
    ck_assert_int_gt(atoi(RK_CORS_MAX_AGE), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cors");
    TCase *tc = tcase_create("cors");
    SRunner *sr;
    int failed;

    tcase_add_loop_test(tc, origins_valid, 0, (int)(sizeof(valid) / sizeof(valid[0])));
    tcase_add_loop_test(tc, origins_invalid, 0, (int)(sizeof(invalid) / sizeof(invalid[0])));
    tcase_add_test(tc, listed);
    tcase_add_test(tc, header_values);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
