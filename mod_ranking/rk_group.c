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

void rk_group_submit(rk_group *g, rk_group_job *job, rk_group_run_fn *run, void *ctx)
{
    rk_group_job *batch;

    job->next = NULL;
    job->done = 0;
    apr_thread_mutex_lock(g->mutex);
    *g->tail = job;
    g->tail = &job->next;
    while (!job->done) {
        if (g->leader) {
            apr_thread_cond_wait(g->cond, g->mutex);
            continue;
        }
        g->leader = 1;
        batch = g->queue;            /* holds JOB: no leader took it */
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
}
