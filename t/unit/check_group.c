/* check_group.c: Check unit tests of rk_group (the group commit queue and its
 * leader): every job is run exactly once, by one leader at a time, in submission
 * order within a batch, and a writer returns only after its job's batch has run;
 * a writer whose deadline passes while its job is queued behind another leader's
 * batch gives up (its job never runs), one whose job a leader has taken waits for
 * that batch. */
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
        ck_assert_int_eq(rk_group_submit(w->g, &w->jobs[i].link, 0, run_batch, &w->calls), 0);
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
    ck_assert_int_eq(rk_group_submit(g, &j.link, 0, run_batch, &calls), 0);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(j.runs, 1);
    ck_assert_int_eq(j.link.done, 1);
    ck_assert_ptr_null(j.link.next);
    ck_assert_int_eq(rk_group_submit(g, &j.link, 0, run_batch, &calls), 0);   /* again */
    ck_assert_int_eq(calls, 2);
    ck_assert_int_eq(j.runs, 2);
    /* a deadline already past: no other leader to wait for, so the job still runs */
    ck_assert_int_eq(rk_group_submit(g, &j.link, apr_time_now() - 1, run_batch, &calls), 0);
    ck_assert_int_eq(calls, 3);
    ck_assert_int_eq(j.runs, 3);
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

/* ---- deadlines ---- */

typedef struct {
    apr_thread_mutex_t *m;
    int started;               /* batches begun */
    int sizes[8];              /* the number of jobs of each batch */
    apr_interval_time_t hold[8];   /* how long batch i runs */
} slow_t;

static slow_t slow;

static void run_slow(void *ctx, rk_group_job *batch)
{
    int i, n = 0;
    rk_group_job *l;

    (void)ctx;
    for (l = batch; l; l = l->next) {
        ((job_t *)l)->runs++;
        n++;
    }
    apr_thread_mutex_lock(slow.m);
    i = slow.started++;
    slow.sizes[i] = n;
    apr_thread_mutex_unlock(slow.m);
    apr_sleep(slow.hold[i]);
}

typedef struct {
    rk_group *g;
    job_t *job;
    apr_time_t deadline;
    int rv;
    apr_time_t returned;
} submitter_t;

static void *APR_THREAD_FUNC submitter(apr_thread_t *t, void *data)
{
    submitter_t *s = data;

    s->rv = rk_group_submit(s->g, &s->job->link, s->deadline, run_slow, NULL);
    s->returned = apr_time_now();
    apr_thread_exit(t, APR_SUCCESS);
    return NULL;
}

static int batches_started(void)
{
    int n;

    apr_thread_mutex_lock(slow.m);
    n = slow.started;
    apr_thread_mutex_unlock(slow.m);
    return n;
}

static void wait_started(int n)
{
    int i;

    for (i = 0; i < 2000 && batches_started() < n; i++) {
        apr_sleep(1000);
    }
    ck_assert_int_ge(batches_started(), n);
}

START_TEST(queued_writer_gives_up_at_its_deadline)
{
    apr_pool_t *p;
    apr_thread_t *th;
    apr_status_t rv;
    rk_group *g;
    job_t a, b, c;
    submitter_t sa;
    apr_time_t t0, took;

    ck_assert_int_eq(apr_pool_create(&p, NULL), APR_SUCCESS);
    memset(&slow, 0, sizeof(slow));
    ck_assert_int_eq(apr_thread_mutex_create(&slow.m, APR_THREAD_MUTEX_DEFAULT, p), APR_SUCCESS);
    slow.hold[0] = apr_time_from_msec(600);   /* A's batch: longer than B's deadline */
    g = rk_group_create(p);
    ck_assert_ptr_nonnull(g);
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    memset(&c, 0, sizeof(c));
    sa.g = g;
    sa.job = &a;
    sa.deadline = 0;
    ck_assert_int_eq(apr_thread_create(&th, NULL, submitter, &sa, p), APR_SUCCESS);
    wait_started(1);
    /* B queues behind A's running batch with 100 ms to go: it gives up in time */
    t0 = apr_time_now();
    ck_assert_int_eq(rk_group_submit(g, &b.link, t0 + apr_time_from_msec(100), run_slow, NULL), -1);
    took = apr_time_now() - t0;
    ck_assert_msg(took >= apr_time_from_msec(100) && took < apr_time_from_msec(450),
                  "gave up after %ld ms", (long)apr_time_msec(took));
    ck_assert_int_eq(b.runs, 0);
    ck_assert_int_eq(b.link.done, 0);
    apr_thread_join(&rv, th);
    ck_assert_int_eq(sa.rv, 0);
    ck_assert_int_eq(a.runs, 1);
    /* B left the queue: the next batch holds C alone */
    ck_assert_int_eq(rk_group_submit(g, &c.link, 0, run_slow, NULL), 0);
    ck_assert_int_eq(slow.started, 2);
    ck_assert_int_eq(slow.sizes[1], 1);
    ck_assert_int_eq(b.runs, 0);
    ck_assert_int_eq(c.runs, 1);
    apr_pool_destroy(p);
}
END_TEST

START_TEST(taken_writer_waits_for_its_batch)
{
    apr_pool_t *p;
    apr_thread_t *th[3];
    apr_status_t rv;
    rk_group *g;
    job_t j[3];
    submitter_t s[3];
    int i;

    ck_assert_int_eq(apr_pool_create(&p, NULL), APR_SUCCESS);
    memset(&slow, 0, sizeof(slow));
    ck_assert_int_eq(apr_thread_mutex_create(&slow.m, APR_THREAD_MUTEX_DEFAULT, p), APR_SUCCESS);
    slow.hold[0] = apr_time_from_msec(500);    /* jobs 1 and 2 queue meanwhile */
    slow.hold[1] = apr_time_from_msec(1500);   /* past the deadline of job 2 */
    g = rk_group_create(p);
    ck_assert_ptr_nonnull(g);
    memset(j, 0, sizeof(j));
    for (i = 0; i < 3; i++) {
        s[i].g = g;
        s[i].job = &j[i];
        s[i].deadline = 0;
    }
    ck_assert_int_eq(apr_thread_create(&th[0], NULL, submitter, &s[0], p), APR_SUCCESS);
    wait_started(1);
    /* jobs 1 and 2 queue behind batch 0; job 2's deadline falls inside batch 1 */
    s[2].deadline = apr_time_now() + apr_time_from_msec(1000);
    ck_assert_int_eq(apr_thread_create(&th[1], NULL, submitter, &s[1], p), APR_SUCCESS);
    ck_assert_int_eq(apr_thread_create(&th[2], NULL, submitter, &s[2], p), APR_SUCCESS);
    for (i = 0; i < 3; i++) {
        apr_thread_join(&rv, th[i]);
    }
    ck_assert_int_eq(slow.started, 2);
    ck_assert_int_eq(slow.sizes[1], 2);
    for (i = 0; i < 3; i++) {
        ck_assert_int_eq(s[i].rv, 0);
        ck_assert_int_eq(j[i].runs, 1);
    }
    /* job 2 returned after its batch, not at its deadline */
    ck_assert_int_ge(s[2].returned, s[2].deadline);
    apr_pool_destroy(p);
}
END_TEST

START_TEST(batch_deadline_is_the_earliest)
{
    rk_group_job l[3];

    memset(l, 0, sizeof(l));
    ck_assert_int_eq(rk_group_batch_deadline(NULL), 0);
    l[0].next = &l[1];
    l[1].next = &l[2];
    ck_assert_int_eq(rk_group_batch_deadline(l), 0);
    l[1].deadline = 500;
    ck_assert_int_eq(rk_group_batch_deadline(l), 500);
    l[2].deadline = 300;
    l[0].deadline = 900;
    ck_assert_int_eq(rk_group_batch_deadline(l), 300);
    ck_assert_int_eq(rk_group_batch_deadline(&l[1]), 300);
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
    tcase_add_test(tc, queued_writer_gives_up_at_its_deadline);
    tcase_add_test(tc, taken_writer_waits_for_its_batch);
    tcase_add_test(tc, batch_deadline_is_the_earliest);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    apr_terminate();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
