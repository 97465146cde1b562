/* rk_group.h: group commit, the queue and its leader.  Pure C (APR threads only).
 *
 * Writers submit jobs; a writer that finds no leader at work becomes the leader: it
 * takes every job queued so far (its own included) as one batch, runs the batch
 * without the queue's lock (so that others can queue meanwhile), marks its jobs done
 * and wakes their writers.  A writer returns only once a batch holding its job has
 * run: for a database, once the commit that holds its update is done. */
#ifndef RK_GROUP_H
#define RK_GROUP_H

#include <apr_pools.h>

typedef struct rk_group_job {
    struct rk_group_job *next;   /* the batch, in the order of submission */
    int done;                    /* set by the leader, read under the queue's lock */
} rk_group_job;

/* Run BATCH (a list through ->next); CTX is the leader's own. */
typedef void rk_group_run_fn(void *ctx, rk_group_job *batch);

typedef struct rk_group rk_group;

/* A queue whose locks live in P.  NULL when they cannot be created. */
rk_group *rk_group_create(apr_pool_t *p);

/* Queue JOB (its link and flag are set here) and return once a batch holding it has
 * been run by RUN, in this thread (as the leader, with CTX) or another's. */
void rk_group_submit(rk_group *g, rk_group_job *job, rk_group_run_fn *run, void *ctx);

#endif
