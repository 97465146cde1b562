/* rk_group.h: group commit, the queue and its leader.  Pure C (APR threads only).
 *
 * Writers submit jobs; a writer that finds no leader at work becomes the leader: it
 * takes every job queued so far (its own included) as one batch, runs the batch
 * without the queue's lock (so that others can queue meanwhile), marks its jobs done
 * and wakes their writers.  A writer returns once a batch holding its job has run
 * (for a database: once the commit that holds its update is done), or once its
 * deadline has passed while its job was still queued: then no batch will ever hold
 * the job.  A job a leader has taken is never abandoned: its writer waits for the
 * batch, which has every job's deadline (rk_group_batch_deadline) to bound its own
 * waits.  A leader wakes only the writers of its batch and, when jobs are queued, the
 * writer of the first (the next leader): the others sleep on. */
#ifndef RK_GROUP_H
#define RK_GROUP_H

#include <apr_pools.h>
#include <apr_time.h>

typedef struct rk_group_job {
    struct rk_group_job *next;   /* the batch, in the order of submission */
    apr_time_t deadline;         /* give up queueing at this time; 0: never */
    int taken;                   /* in a leader's batch (read under the queue's lock) */
    int done;                    /* set by the leader, read under the queue's lock */
    unsigned slot;               /* the condition its writer waits on (rk_group.c) */
} rk_group_job;

/* Run BATCH (a list through ->next); CTX is the leader's own. */
typedef void rk_group_run_fn(void *ctx, rk_group_job *batch);

typedef struct rk_group rk_group;

/* A queue whose locks live in P.  NULL when they cannot be created. */
rk_group *rk_group_create(apr_pool_t *p);

/* Queue JOB (its link and flags are set here) with DEADLINE (0: none).  0 once a
 * batch holding it has been run by RUN, in this thread (as the leader, with CTX) or
 * another's; -1 when DEADLINE passed while JOB was still queued behind another
 * leader's batch (JOB is then out of the queue: it never runs). */
int rk_group_submit(rk_group *g, rk_group_job *job, apr_time_t deadline,
                    rk_group_run_fn *run, void *ctx);

/* The earliest deadline of the jobs of BATCH, 0 when none has one: the leader must
 * finish (or give up) by then, or a writer would wait past its deadline. */
apr_time_t rk_group_batch_deadline(const rk_group_job *batch);

#endif
