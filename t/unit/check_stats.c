/* check_stats.c: Check unit tests of rk_stats: slots claimed by pid (free ones first,
 * then those of processes that are gone, never one held by a live process), given
 * back only by their holder, counters, many threads claiming at once, and the exact
 * text of the server-status section in both forms. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rk_stats.h"

static rk_stats_table *table_new(size_t n)
{
    rk_stats_table *t = malloc(rk_stats_size(n));

    ck_assert_ptr_nonnull(t);
    rk_stats_init(t, n);
    return t;
}

static int32_t dead_pid = -1;
static int alive_but_dead(int32_t pid) { return pid != dead_pid; }
static int all_alive(int32_t pid) { (void)pid; return 1; }

START_TEST(claim_release)
{
    rk_stats_table *t = table_new(3);
    rk_stats_child *a, *b, *c, *d;

    a = rk_stats_claim(t, 100, all_alive);
    b = rk_stats_claim(t, 101, all_alive);
    c = rk_stats_claim(t, 102, all_alive);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(c);
    ck_assert(a != b && b != c && a != c);
    ck_assert_int_eq(a->pid, 100);
    /* full, every holder alive: no slot */
    ck_assert_ptr_null(rk_stats_claim(t, 103, all_alive));
    ck_assert_ptr_null(rk_stats_claim(t, 103, NULL));
    /* 101 is gone: its slot is taken back, its figures reset */
    rk_stats_add(&b->answer_hits, 7);
    dead_pid = 101;
    d = rk_stats_claim(t, 103, alive_but_dead);
    ck_assert_ptr_eq(d, b);
    ck_assert_int_eq(d->pid, 103);
    ck_assert_uint_eq(rk_stats_get(&d->answer_hits), 0);
    /* only the holder gives a slot back */
    rk_stats_release(a, 999);
    ck_assert_int_eq(a->pid, 100);
    rk_stats_release(a, 100);
    ck_assert_int_eq(a->pid, 0);
    rk_stats_release(NULL, 100);
    /* a free slot is preferred to one of a dead process */
    dead_pid = 102;
    ck_assert_ptr_eq(rk_stats_claim(t, 104, alive_but_dead), a);
    free(t);
}
END_TEST

START_TEST(counters)
{
    rk_stats_table *t = table_new(1);
    rk_stats_child *c = rk_stats_claim(t, 5, NULL);

    rk_stats_add(&c->streams, 1);
    rk_stats_add(&c->streams, 1);
    rk_stats_add(&c->streams, -1);
    ck_assert_uint_eq(rk_stats_get(&c->streams), 1);
    rk_stats_set(&c->revision, 42);
    ck_assert_uint_eq(rk_stats_get(&c->revision), 42);
    free(t);
}
END_TEST

#define THREADS 8
#define ROUNDS 2000
static rk_stats_table *shared;
static int overlaps;

static void *claimer(void *arg)
{
    int32_t pid = (int32_t)(intptr_t)arg;
    int i;

    for (i = 0; i < ROUNDS; i++) {
        rk_stats_child *c = rk_stats_claim(shared, pid, all_alive);

        if (!c) {
            __atomic_fetch_add(&overlaps, 1000000, __ATOMIC_RELAXED);   /* 4 slots, 8 threads: never */
            continue;
        }
        rk_stats_add(&c->commit_lanes, 1);
        if (__atomic_load_n(&c->pid, __ATOMIC_ACQUIRE) != pid) {
            __atomic_fetch_add(&overlaps, 1, __ATOMIC_RELAXED);
        }
        rk_stats_release(c, pid);
    }
    return NULL;
}

START_TEST(threads_never_share_a_slot)
{
    pthread_t th[THREADS];
    int i;

    shared = table_new(THREADS);
    for (i = 0; i < THREADS; i++) {
        ck_assert_int_eq(pthread_create(&th[i], NULL, claimer, (void *)(intptr_t)(i + 1)), 0);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
    }
    ck_assert_int_eq(overlaps, 0);
    for (i = 0; i < THREADS; i++) {
        ck_assert_int_eq(shared->slot[i].pid, 0);
    }
    free(shared);
}
END_TEST

static void append(void *ctx, const char *text)
{
    strcat(ctx, text);
}

START_TEST(auto_form)
{
    rk_stats_table *t = table_new(4);
    rk_stats_child *a = rk_stats_claim(t, 300, NULL), *b = rk_stats_claim(t, 301, NULL);
    rk_stats_child *gone = rk_stats_claim(t, 302, NULL);
    char out[4096] = "";

    rk_stats_set(&a->answer_entries, 3);
    rk_stats_set(&a->answer_bytes, 1000);
    rk_stats_add(&a->answer_hits, 10);
    rk_stats_add(&a->answer_misses, 2);
    rk_stats_set(&a->token_entries, 1);
    rk_stats_add(&a->token_hits, 5);
    rk_stats_add(&a->token_misses, 1);
    rk_stats_add(&a->commit_groups, 2);
    rk_stats_add(&a->commit_lanes, 5);
    rk_stats_add(&a->streams, 4);
    rk_stats_set(&a->revision, 17);
    rk_stats_add(&b->answer_hits, 1);
    rk_stats_add(&b->commit_groups, 1);
    rk_stats_add(&b->commit_lanes, 1);
    rk_stats_add(&b->polls, 2);
    rk_stats_set(&b->revision, 19);
    rk_stats_add(&b->revision_reads, 3);
    rk_stats_add(&a->revision_shared, 40);
    rk_stats_add(&b->revision_shared, 2);
    rk_stats_add(&gone->answer_hits, 1000);
    dead_pid = 302;
    ck_assert_int_eq(rk_stats_write(t, 1, alive_but_dead, append, out), 2);
    ck_assert_str_eq(out,
        "RankingChild: pid=300 answers=3 answer_bytes=1000 answer_hits=10 answer_misses=2"
        " tokens=1 token_hits=5 token_misses=1 commit_groups=2 commit_lanes=5 streams=4"
        " polls=0 revision=17 revision_reads=0 revision_shared=40 commit_mean=2.50\n"
        "RankingChild: pid=301 answers=0 answer_bytes=0 answer_hits=1 answer_misses=0"
        " tokens=0 token_hits=0 token_misses=0 commit_groups=1 commit_lanes=1 streams=0"
        " polls=2 revision=19 revision_reads=3 revision_shared=2 commit_mean=1.00\n"
        "RankingChildren: 2\n"
        "RankingAnswerEntries: 3\n"
        "RankingAnswerBytes: 1000\n"
        "RankingAnswerHits: 11\n"
        "RankingAnswerMisses: 2\n"
        "RankingTokenEntries: 1\n"
        "RankingTokenHits: 5\n"
        "RankingTokenMisses: 1\n"
        "RankingCommitGroups: 3\n"
        "RankingCommitLanes: 6\n"
        "RankingStreams: 4\n"
        "RankingPolls: 2\n"
        "RankingRevision: 19\n"
        "RankingRevisionReads: 3\n"
        "RankingRevisionShared: 42\n"
        "RankingCommitMeanGroup: 2.00\n");
    free(t);
}
END_TEST

START_TEST(html_form)
{
    rk_stats_table *t = table_new(2);
    rk_stats_child *a = rk_stats_claim(t, 77, NULL);
    char out[4096] = "";

    rk_stats_add(&a->streams, 1);
    ck_assert_int_eq(rk_stats_write(t, 0, NULL, append, out), 1);
    ck_assert_ptr_nonnull(strstr(out, "<h2>mod_ranking</h2>"));
    ck_assert_ptr_nonnull(strstr(out, "<th>event streams</th>"));
    ck_assert_ptr_nonnull(strstr(out, "<tr><td>77</td><td>0</td>"));
    ck_assert_ptr_nonnull(strstr(out, "<tr><td>all</td>"));
    ck_assert_ptr_nonnull(strstr(out, "</table>\n"));
    /* no child: the totals only */
    rk_stats_release(a, 77);
    out[0] = '\0';
    ck_assert_int_eq(rk_stats_write(t, 1, NULL, append, out), 0);
    ck_assert_ptr_nonnull(strstr(out, "RankingChildren: 0\n"));
    ck_assert_ptr_null(strstr(out, "RankingChild:"));
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("slots");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, claim_release);
    tcase_add_test(tc, counters);
    tcase_add_test(tc, threads_never_share_a_slot);
    tcase_add_test(tc, auto_form);
    tcase_add_test(tc, html_form);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
