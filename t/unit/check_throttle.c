/* check_throttle.c: login throttling decisions (rk_throttle.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rk_throttle.h"

static rk_throttle_entry fresh(void)
{
    rk_throttle_entry e;
    memset(&e, 0, sizeof(e));
    return e;
}

START_TEST(test_counts_and_refuses_at_limit)
{
    rk_throttle_entry e = fresh();
    int64_t retry = -1;
    int i;

    for (i = 0; i < 4; i++) {
        ck_assert_int_eq(rk_throttle_refused(&e, 1000, 5, 300, &retry), 0);
        rk_throttle_fail(&e, 1000 + i, 300);
    }
    ck_assert_uint_eq(e.failures, 4);
    ck_assert_int_eq(e.window_start, 1000);
    ck_assert_int_eq(rk_throttle_refused(&e, 1010, 5, 300, &retry), 0);
    rk_throttle_fail(&e, 1010, 300);
    ck_assert_int_eq(rk_throttle_refused(&e, 1010, 5, 300, &retry), 1);
    ck_assert_int_eq(retry, 290);
    ck_assert_int_eq(rk_throttle_refused(&e, 1299, 5, 300, &retry), 1);
    ck_assert_int_eq(retry, 1);
}
END_TEST

START_TEST(test_window_expires)
{
    rk_throttle_entry e = fresh();
    int64_t retry = 0;
    int i;

    for (i = 0; i < 5; i++) {
        rk_throttle_fail(&e, 1000, 300);
    }
    ck_assert_int_eq(rk_throttle_refused(&e, 1299, 5, 300, &retry), 1);
    ck_assert_int_eq(rk_throttle_refused(&e, 1300, 5, 300, &retry), 0);
    /* a failure after the window starts a new one */
    rk_throttle_fail(&e, 1300, 300);
    ck_assert_uint_eq(e.failures, 1);
    ck_assert_int_eq(e.window_start, 1300);
    /* a clock going backwards does not keep an old window alive */
    ck_assert_int_eq(rk_throttle_refused(&e, 1299, 1, 300, &retry), 0);
}
END_TEST

START_TEST(test_off_and_null)
{
    rk_throttle_entry e = fresh();
    int64_t retry = 0;
    int i;

    for (i = 0; i < 100; i++) {
        rk_throttle_fail(&e, 50, 60);
    }
    ck_assert_int_eq(rk_throttle_refused(&e, 50, 0, 60, &retry), 0);
    ck_assert_int_eq(rk_throttle_refused(NULL, 50, 5, 60, &retry), 0);
    ck_assert_uint_eq(rk_throttle_delay_ms(&e, 0), 0);
    ck_assert_uint_eq(rk_throttle_delay_ms(NULL, 10), 0);
}
END_TEST

START_TEST(test_delay_grows_then_caps)
{
    rk_throttle_entry e = fresh();
    uint32_t expect[] = { 0, 0, 0, 0, 0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2000 };
    size_t i;

    for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        rk_throttle_fail(&e, 7, 300);
        ck_assert_uint_eq(rk_throttle_delay_ms(&e, 10), expect[i]);
    }
}
END_TEST

START_TEST(test_counter_saturates)
{
    rk_throttle_entry e = fresh();
    int64_t retry = 0;

    e.failures = UINT32_MAX;
    e.window_start = 10;
    rk_throttle_fail(&e, 11, 300);
    ck_assert_uint_eq(e.failures, UINT32_MAX);
    ck_assert_int_eq(rk_throttle_refused(&e, 11, 1000000, 300, &retry), 1);
}
END_TEST

START_TEST(test_waiters_max)
{
    ck_assert_uint_eq(rk_throttle_waiters_max(1), 1);      /* prefork child, or tiny */
    ck_assert_uint_eq(rk_throttle_waiters_max(0), 1);
    ck_assert_uint_eq(rk_throttle_waiters_max(-5), 1);
    ck_assert_uint_eq(rk_throttle_waiters_max(7), 1);
    ck_assert_uint_eq(rk_throttle_waiters_max(20), 5);
    ck_assert_uint_eq(rk_throttle_waiters_max(150), 37);
    ck_assert_uint_eq(rk_throttle_waiters_max(256), 64);
    ck_assert_uint_eq(rk_throttle_waiters_max(100000), RK_THROTTLE_WAITERS_MAX);
}
END_TEST

START_TEST(test_waiters_take_and_free)
{
    rk_throttle_waiters w;
    unsigned i;

    memset(&w, 0, sizeof(w));
    /* 3 slots: 3 waits at once, the 4th answers at once */
    for (i = 0; i < 3; i++) {
        ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 10000, 2000), 1);
    }
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 10000, 2000), 0);
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 11999, 250), 0);
    /* a slot frees itself when its wait is over */
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 12000, 250), 1);
    ck_assert_int_eq(w.until_ms[0], 12250);
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 12000, 250), 1);
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 12000, 250), 1);
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 3, 12000, 250), 0);
    /* more slots than the table has: the table's size */
    memset(&w, 0, sizeof(w));
    for (i = 0; i < RK_THROTTLE_WAITERS_MAX; i++) {
        ck_assert_int_eq(rk_throttle_waiter_take(&w, 1000, 5, 100), 1);
    }
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 1000, 5, 100), 0);
    /* a slot far in the future (the clock went back) is taken again */
    memset(&w, 0, sizeof(w));
    w.until_ms[0] = 1000000;
    ck_assert_int_eq(rk_throttle_waiter_take(&w, 1, 5000, 100), 1);
    ck_assert_int_eq(w.until_ms[0], 5100);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rk_throttle");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, test_counts_and_refuses_at_limit);
    tcase_add_test(tc, test_window_expires);
    tcase_add_test(tc, test_off_and_null);
    tcase_add_test(tc, test_delay_grows_then_caps);
    tcase_add_test(tc, test_counter_saturates);
    tcase_add_test(tc, test_waiters_max);
    tcase_add_test(tc, test_waiters_take_and_free);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
