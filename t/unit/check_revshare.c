/* check_revshare.c: Check unit tests of rk_revshare: a value is good only while it is
 * younger than the bound and no commit happened since its read began; the more recent
 * value is kept; bad slots and epochs; and, with threads, no torn value and no value
 * older than a commit whose bump was done before the lookup. */
#include <check.h>
#include <pthread.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_revshare.h"

static rk_revshare *table_new(size_t n)
{
    rk_revshare *t = malloc(rk_revshare_size(n));

    ck_assert_ptr_nonnull(t);
    rk_revshare_init(t, n);
    return t;
}

#define SEC 1000000

START_TEST(empty_and_bounds)
{
    rk_revshare *t = table_new(2);
    char epoch[RK_REVSHARE_EPOCH];
    char small[8];
    char longer[RK_REVSHARE_EPOCH + 1];
    uint64_t d = 7, a = 7;

    /* nothing kept yet */
    ck_assert_int_eq(rk_revshare_get(t, 0, 10 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_put(t, 0, rk_revshare_gen(t), 10 * SEC, 5, 3, "abc"), 1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 10 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_uint_eq(d, 5);
    ck_assert_uint_eq(a, 3);
    ck_assert_str_eq(epoch, "abc");
    /* slots are separate */
    ck_assert_int_eq(rk_revshare_get(t, 1, 10 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    /* out of range, a buffer too small, no bound */
    ck_assert_int_eq(rk_revshare_get(t, 2, 10 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_put(t, 2, rk_revshare_gen(t), 10 * SEC, 5, 3, "abc"), 0);
    ck_assert_int_eq(rk_revshare_get(t, 0, 10 * SEC, SEC, &d, &a, small, sizeof(small)), 0);
    ck_assert_int_eq(rk_revshare_get(t, 0, 10 * SEC, 0, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_get(NULL, 0, 10 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    /* an epoch that does not fit is not kept */
    memset(longer, 'x', RK_REVSHARE_EPOCH);
    longer[RK_REVSHARE_EPOCH] = '\0';
    ck_assert_int_eq(rk_revshare_put(t, 1, rk_revshare_gen(t), 10 * SEC, 5, 3, longer), 0);
    longer[RK_REVSHARE_EPOCH - 1] = '\0';   /* 63 characters: fits */
    ck_assert_int_eq(rk_revshare_put(t, 1, rk_revshare_gen(t), 10 * SEC, 5, 3, longer), 1);
    ck_assert_int_eq(rk_revshare_get(t, 1, 10 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_str_eq(epoch, longer);
    ck_assert_int_eq(rk_revshare_put(t, 1, rk_revshare_gen(t), 10 * SEC, 5, 3, NULL), 0);
    free(t);
}
END_TEST

START_TEST(age)
{
    rk_revshare *t = table_new(1);
    char epoch[RK_REVSHARE_EPOCH];
    uint64_t d, a;

    ck_assert_int_eq(rk_revshare_put(t, 0, rk_revshare_gen(t), 100 * SEC, 9, 1, "e"), 1);
    /* good from its read until just before read + bound */
    ck_assert_int_eq(rk_revshare_get(t, 0, 100 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 101 * SEC - 1, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 101 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    /* a clock that went back: not trusted */
    ck_assert_int_eq(rk_revshare_get(t, 0, 99 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    free(t);
}
END_TEST

START_TEST(commits)
{
    rk_revshare *t = table_new(1);
    char epoch[RK_REVSHARE_EPOCH];
    uint64_t d, a, g0, g1;

    g0 = rk_revshare_gen(t);
    ck_assert_int_eq(rk_revshare_put(t, 0, g0, 100 * SEC, 9, 1, "e"), 1);
    rk_revshare_bump(t);     /* a commit: the value is out of date */
    g1 = rk_revshare_gen(t);
    ck_assert_uint_ne(g0, g1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 100 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    /* a read that began before the commit (its generation) stays out of date */
    rk_revshare_put(t, 0, g0, 100 * SEC + 10, 9, 1, "e");
    ck_assert_int_eq(rk_revshare_get(t, 0, 100 * SEC + 20, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    /* one that began after it is good */
    ck_assert_int_eq(rk_revshare_put(t, 0, g1, 100 * SEC + 30, 10, 1, "e"), 1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 100 * SEC + 40, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_uint_eq(d, 10);
    /* and an older generation's value, put late, does not replace it */
    ck_assert_int_eq(rk_revshare_put(t, 0, g0, 100 * SEC + 50, 9, 1, "e"), 0);
    ck_assert_int_eq(rk_revshare_get(t, 0, 100 * SEC + 60, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_uint_eq(d, 10);
    free(t);
}
END_TEST

/* rk_revshare_get_recent: a value within the bound whatever this server committed
 * since its read (a lane PUT checks the counters again in its transaction); the bound
 * and the slot's lock hold as for rk_revshare_get. */
START_TEST(recent_ignores_commits)
{
    rk_revshare *t = table_new(1);
    char epoch[RK_REVSHARE_EPOCH];
    uint64_t d = 0, a = 0;

    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 100 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_put(t, 0, rk_revshare_gen(t), 100 * SEC, 9, 2, "e"), 1);
    rk_revshare_bump(t);
    rk_revshare_bump(t);
    ck_assert_int_eq(rk_revshare_get(t, 0, 100 * SEC + 1, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 100 * SEC + 1, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_uint_eq(d, 9);
    ck_assert_uint_eq(a, 2);
    ck_assert_str_eq(epoch, "e");
    /* the bound still holds, and a clock that went back is not trusted */
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 101 * SEC - 1, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 101 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 99 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 100 * SEC, 0, &d, &a, epoch, sizeof(epoch)), 0);
    /* a writer at work: ask the database */
    t->slot[0].seq |= 1;
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 100 * SEC + 1, SEC, &d, &a, epoch, sizeof(epoch)), 0);
    t->slot[0].seq++;
    ck_assert_int_eq(rk_revshare_get_recent(t, 0, 100 * SEC + 1, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    free(t);
}
END_TEST

START_TEST(most_recent_kept)
{
    rk_revshare *t = table_new(1);
    char epoch[RK_REVSHARE_EPOCH];
    uint64_t d, a, g = rk_revshare_gen(t);

    ck_assert_int_eq(rk_revshare_put(t, 0, g, 100 * SEC, 10, 4, "e"), 1);
    /* an earlier read: not kept (the later one is fresher) */
    ck_assert_int_eq(rk_revshare_put(t, 0, g, 99 * SEC, 10, 4, "e"), 0);
    /* a later read with lower counters: not kept */
    ck_assert_int_eq(rk_revshare_put(t, 0, g, 101 * SEC, 9, 4, "e"), 0);
    ck_assert_int_eq(rk_revshare_put(t, 0, g, 101 * SEC, 10, 3, "e"), 0);
    /* a later read with the same or higher counters: kept, and its time counts */
    ck_assert_int_eq(rk_revshare_put(t, 0, g, 101 * SEC, 11, 4, "e"), 1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 102 * SEC - 1, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_uint_eq(d, 11);
    /* another database (epoch): kept whatever its counters */
    ck_assert_int_eq(rk_revshare_put(t, 0, g, 101 * SEC, 1, 1, "f"), 1);
    ck_assert_int_eq(rk_revshare_get(t, 0, 101 * SEC, SEC, &d, &a, epoch, sizeof(epoch)), 1);
    ck_assert_uint_eq(d, 1);
    ck_assert_str_eq(epoch, "f");
    free(t);
}
END_TEST

/* ---- threads: a "database" (a counter), committers that move it then bump, readers
 * of the database that publish, and lookups that check what they get ---- */

static rk_revshare *shared;
static uint64_t db_value;       /* the database's data revision */
static uint64_t bumped;         /* the last value whose commit has been bumped */
static int stop_flag;
static unsigned long bad_torn, bad_stale, hits;

static void epoch_of(uint64_t v, char *out)
{
    snprintf(out, RK_REVSHARE_EPOCH, "epoch-%llu-%s", (unsigned long long)(v % 5),
             "0123456789abcdef0123456789abcdef01234567");
}

static void *committer(void *arg)
{
    int i;

    (void)arg;
    for (i = 0; i < 200000; i++) {
        uint64_t v = __atomic_add_fetch(&db_value, 1, __ATOMIC_SEQ_CST);

        rk_revshare_bump(shared);
        __atomic_store_n(&bumped, v, __ATOMIC_SEQ_CST);
        if (i % 1000 == 999) {
            /* a pause now and then, as between real commits: on a loaded machine the
             * readers may otherwise never get a lookup in between two bumps (hits 0) */
            usleep(200);
        }
    }
    __atomic_store_n(&stop_flag, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void *reader(void *arg)
{
    char epoch[RK_REVSHARE_EPOCH], want[RK_REVSHARE_EPOCH];
    int64_t clock = 0;

    (void)arg;
    while (!__atomic_load_n(&stop_flag, __ATOMIC_SEQ_CST)) {
        uint64_t before = __atomic_load_n(&bumped, __ATOMIC_SEQ_CST), d, a;

        clock++;
        if (rk_revshare_get(shared, 0, clock, INT64_MAX / 2, &d, &a, epoch, sizeof(epoch))) {
            __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
            epoch_of(d, want);
            if (a != d * 3 || strcmp(epoch, want) != 0) {
                __atomic_add_fetch(&bad_torn, 1, __ATOMIC_RELAXED);
            }
            if (d < before) {
                __atomic_add_fetch(&bad_stale, 1, __ATOMIC_RELAXED);
            }
        }
        else {
            /* a miss: read the database and publish, as a request does */
            uint64_t g = rk_revshare_gen(shared);
            uint64_t v = __atomic_load_n(&db_value, __ATOMIC_SEQ_CST);

            epoch_of(v, want);
            rk_revshare_put(shared, 0, g, clock, v, v * 3, want);
        }
    }
    return NULL;
}

START_TEST(threads)
{
    pthread_t c, r[4];
    int i;

    shared = table_new(1);
    stop_flag = 0;
    db_value = bumped = 0;
    bad_torn = bad_stale = hits = 0;
    for (i = 0; i < 4; i++) {
        ck_assert_int_eq(pthread_create(&r[i], NULL, reader, NULL), 0);
    }
    ck_assert_int_eq(pthread_create(&c, NULL, committer, NULL), 0);
    pthread_join(c, NULL);
    for (i = 0; i < 4; i++) {
        pthread_join(r[i], NULL);
    }
    ck_assert_uint_eq(bad_torn, 0);
    ck_assert_uint_eq(bad_stale, 0);
    ck_assert_uint_gt(hits, 0);
    free(shared);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("revshare");
    TCase *tc = tcase_create("revshare");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, empty_and_bounds);
    tcase_add_test(tc, age);
    tcase_add_test(tc, commits);
    tcase_add_test(tc, recent_ignores_commits);
    tcase_add_test(tc, most_recent_kept);
    tcase_add_test(tc, threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
