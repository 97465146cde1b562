/* check_group.c: Check unit tests of rk_group (the group commit queue and its
 * leader): every job is run exactly once, by one leader at a time, in submission
 * order within a batch, and a writer returns only after its job's batch has run. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_thread_proc.h>
#include <apr_time.h>

#include "rk_group.h"

#define THREADS 16
#define ROUNDS 200

typedef struct {
    rk_group_job link;
    int id;
    int runs;          /* times a batch ran this job */
    int seen_done;     /* the writer saw runs == 1 when submit returned */
} job_t;

static struct {
    apr_thread_mutex_t *m;      /* guards the counters below (not the queue) */
    int in_batch;               /* leaders running at once: must stay 0 or 1 */
    int overlap;                /* times two leaders ran at once */
    int batches, jobs, largest;
} stats;

static void run_batch(void *ctx, rk_group_job *batch)
{
    int n = 0, *calls = ctx;
    rk_group_job *l;

    apr_thread_mutex_lock(stats.m);
    if (stats.in_batch++) {
        stats.overlap++;
    }
    apr_thread_mutex_unlock(stats.m);
    (*calls)++;
    for (l = batch; l; l = l->next) {
        ((job_t *)l)->runs++;
        n++;
    }
    apr_sleep(200);   /* a commit's disk sync: let others queue meanwhile */
    apr_thread_mutex_lock(stats.m);
    stats.in_batch--;
    stats.batches++;
    stats.jobs += n;
    if (n > stats.largest) {
        stats.largest = n;
    }
    apr_thread_mutex_unlock(stats.m);
}

typedef struct {
    rk_group *g;
    job_t jobs[ROUNDS];
    int calls;      /* batches this thread ran as the leader */
} worker_t;

static void *APR_THREAD_FUNC worker(apr_thread_t *t, void *data)
{
    worker_t *w = data;
    int i;

    for (i = 0; i < ROUNDS; i++) {
        rk_group_submit(w->g, &w->jobs[i].link, run_batch, &w->calls);
        w->jobs[i].seen_done = w->jobs[i].runs == 1;
    }
    apr_thread_exit(t, APR_SUCCESS);
    return NULL;
}

START_TEST(one_writer_is_its_own_leader)
{
    apr_pool_t *p;
    rk_group *g;
    job_t j;
    int calls = 0;

    ck_assert_int_eq(apr_pool_create(&p, NULL), APR_SUCCESS);
    ck_assert_int_eq(apr_thread_mutex_create(&stats.m, APR_THREAD_MUTEX_DEFAULT, p), APR_SUCCESS);
    g = rk_group_create(p);
    ck_assert_ptr_nonnull(g);
    memset(&j, 0, sizeof(j));
    j.link.next = (rk_group_job *)&j;   /* stale link: submit must reset it */
    rk_group_submit(g, &j.link, run_batch, &calls);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(j.runs, 1);
    ck_assert_int_eq(j.link.done, 1);
    ck_assert_ptr_null(j.link.next);
    rk_group_submit(g, &j.link, run_batch, &calls);   /* a job may be submitted again */
    ck_assert_int_eq(calls, 2);
    ck_assert_int_eq(j.runs, 2);
    apr_pool_destroy(p);
}
END_TEST

START_TEST(many_writers_grouped)
{
    apr_pool_t *p;
    apr_thread_t *th[THREADS];
    worker_t *w = calloc(THREADS, sizeof(*w));
    rk_group *g;
    int i, k, leaders = 0;
    apr_status_t rv;

    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(apr_pool_create(&p, NULL), APR_SUCCESS);
    ck_assert_int_eq(apr_thread_mutex_create(&stats.m, APR_THREAD_MUTEX_DEFAULT, p), APR_SUCCESS);
    memset(&stats.in_batch, 0, sizeof(stats) - sizeof(stats.m));
    g = rk_group_create(p);
    ck_assert_ptr_nonnull(g);
    for (i = 0; i < THREADS; i++) {
        w[i].g = g;
        for (k = 0; k < ROUNDS; k++) {
            w[i].jobs[k].id = i * ROUNDS + k;
        }
        ck_assert_int_eq(apr_thread_create(&th[i], NULL, worker, &w[i], p), APR_SUCCESS);
    }
    for (i = 0; i < THREADS; i++) {
        apr_thread_join(&rv, th[i]);
        leaders += w[i].calls;
        for (k = 0; k < ROUNDS; k++) {
            ck_assert_msg(w[i].jobs[k].runs == 1, "job %d ran %d times", w[i].jobs[k].id,
                          w[i].jobs[k].runs);
            ck_assert_msg(w[i].jobs[k].seen_done, "job %d: submit returned before its batch ran",
                          w[i].jobs[k].id);
        }
    }
    ck_assert_int_eq(stats.overlap, 0);
    ck_assert_int_eq(stats.jobs, THREADS * ROUNDS);
    ck_assert_int_eq(stats.batches, leaders);
    /* grouping happened: fewer batches than jobs, some batch with several jobs */
    ck_assert_int_lt(stats.batches, THREADS * ROUNDS);
    ck_assert_int_gt(stats.largest, 1);
    ck_assert_int_le(stats.largest, THREADS);
    apr_pool_destroy(p);
    free(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("group");
    TCase *tc = tcase_create("queue");
    SRunner *sr;
    int failed;

    apr_initialize();
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, one_writer_is_its_own_leader);
    tcase_add_test(tc, many_writers_grouped);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    apr_terminate();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
