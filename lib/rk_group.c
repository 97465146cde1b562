/* rk_group.c: see rk_group.h. */
#include <apr_thread_cond.h>
#include <apr_thread_mutex.h>

#include "rk_group.h"

struct rk_group {
    apr_thread_mutex_t *mutex;
    apr_thread_cond_t *cond;
    rk_group_job *queue, **tail;
    int leader;          /* a batch is being run */
};

rk_group *rk_group_create(apr_pool_t *p)
{
    rk_group *g = apr_pcalloc(p, sizeof(*g));

    if (apr_thread_mutex_create(&g->mutex, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS
        || apr_thread_cond_create(&g->cond, p) != APR_SUCCESS) {
        return NULL;
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

    job->next = NULL;
    job->deadline = deadline;
    job->taken = 0;
    job->done = 0;
    apr_thread_mutex_lock(g->mutex);
    *g->tail = job;
    g->tail = &job->next;
    while (!job->done) {
        if (g->leader) {
            apr_time_t left = deadline ? deadline - apr_time_now() : 0;

            if (job->taken || !deadline) {
                /* in the running batch, which keeps to our deadline: wait for it */
                apr_thread_cond_wait(g->cond, g->mutex);
            }
            else if (left <= 0) {
                unqueue(g, job);
                apr_thread_mutex_unlock(g->mutex);
                return -1;
            }
            else {
                apr_thread_cond_timedwait(g->cond, g->mutex, left);
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
        for (; batch; batch = batch->next) {
            batch->done = 1;
        }
        g->leader = 0;
        apr_thread_cond_broadcast(g->cond);
    }
    apr_thread_mutex_unlock(g->mutex);
    return 0;
}
