/* rk_group.c: see rk_group.h. */
#include <apr_thread_cond.h>
#include <apr_thread_mutex.h>
#include <stdint.h>

#include "rk_group.h"

/* Writers wait on one of SLOTS conditions (each submission takes the next), so that a
 * leader wakes the writers of its batch and the next leader only, not every writer
 * that waits: a queued writer woken for nothing costs two context switches and a turn
 * on the lock.  Writers that share a slot are woken together and each checks its
 * own job (64 slots for a few dozen writers at most: rare). */
#define SLOTS 64

struct rk_group {
    apr_thread_mutex_t *mutex;
    apr_thread_cond_t *cond[SLOTS];
    rk_group_job *queue, **tail;
    unsigned next_slot;
    int leader;          /* a batch is being run */
};

rk_group *rk_group_create(apr_pool_t *p)
{
    rk_group *g = apr_pcalloc(p, sizeof(*g));
    int i;

    if (apr_thread_mutex_create(&g->mutex, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
        return NULL;
    }
    for (i = 0; i < SLOTS; i++) {
        if (apr_thread_cond_create(&g->cond[i], p) != APR_SUCCESS) {
            return NULL;
        }
    }
    g->tail = &g->queue;
    return g;
}

apr_time_t rk_group_batch_deadline(const rk_group_job *batch)
{
    apr_time_t first = 0;

    for (; batch; batch = batch->next) {
        if (batch->deadline && (!first || batch->deadline < first)) {
            first = batch->deadline;
        }
    }
    return first;
}

/* Take JOB, still queued, out of the queue (under the lock). */
static void unqueue(rk_group *g, rk_group_job *job)
{
    rk_group_job **l;

    for (l = &g->queue; *l; l = &(*l)->next) {
        if (*l == job) {
            *l = job->next;
            if (g->tail == &job->next) {
                g->tail = l;
            }
            job->next = NULL;
            return;
        }
    }
}

int rk_group_submit(rk_group *g, rk_group_job *job, apr_time_t deadline,
                    rk_group_run_fn *run, void *ctx)
{
    rk_group_job *batch, *l;
    uint64_t wake = 0;   /* the slots to wake, once the lock is released */
    int i;

    job->next = NULL;
    job->deadline = deadline;
    job->taken = 0;
    job->done = 0;
    apr_thread_mutex_lock(g->mutex);
    job->slot = g->next_slot++ % SLOTS;
    *g->tail = job;
    g->tail = &job->next;
    while (!job->done) {
        if (g->leader) {
            apr_time_t left = deadline ? deadline - apr_time_now() : 0;

            if (job->taken || !deadline) {
                /* in the running batch, which keeps to our deadline: wait for it */
                apr_thread_cond_wait(g->cond[job->slot], g->mutex);
            }
            else if (left <= 0) {
                unqueue(g, job);
                apr_thread_mutex_unlock(g->mutex);
                return -1;
            }
            else {
                apr_thread_cond_timedwait(g->cond[job->slot], g->mutex, left);
            }
            continue;
        }
        g->leader = 1;
        batch = g->queue;            /* holds JOB: no leader took it */
        for (l = batch; l; l = l->next) {
            l->taken = 1;
        }
        g->queue = NULL;
        g->tail = &g->queue;
        apr_thread_mutex_unlock(g->mutex);
        run(ctx, batch);
        apr_thread_mutex_lock(g->mutex);
        /* the batch's writers, and the first queued one (the next leader); a job is
         * not read once the lock is released: its writer may have returned */
        for (; batch; batch = batch->next) {
            batch->done = 1;
            if (batch != job) {
                wake |= (uint64_t)1 << batch->slot;
            }
        }
        if (g->queue) {
            wake |= (uint64_t)1 << g->queue->slot;
        }
        g->leader = 0;
    }
    apr_thread_mutex_unlock(g->mutex);
    for (i = 0; wake; i++, wake >>= 1) {
        if (wake & 1) {
            apr_thread_cond_broadcast(g->cond[i]);
        }
    }
    return 0;
}
