/* mod_ranking_watcher.h: live updates, the watcher thread of each child and the
 * state of the child's listeners (mod_ranking_listener.h), reached only through these
 * functions.  For the two other files of live updates (mod_ranking_stream.c,
 * mod_ranking_parked.c); not for any other file. */
#ifndef MOD_RANKING_WATCHER_H
#define MOD_RANKING_WATCHER_H

#include "mod_ranking_listener.h"

/* register_hooks: child_init starts the watcher thread, stopped with the child. */
void rkm_watcher_register_hooks(void);

/* 1 once the watcher runs (else event streams and long polls answer 503 / at once). */
int rkm_watcher_ready(void);
/* 1 when the MPM can park a request (SUSPENDED). */
int rkm_watcher_async_mpm(void);

/* The watcher's mutex, which guards every listener's queue and state; and a wait
 * on COND (a listener's that holds its thread) with it held, TIMEOUT at most. */
void rkm_watcher_lock(void);
void rkm_watcher_unlock(void);
void rkm_watcher_wait(apr_thread_cond_t *cond, apr_interval_time_t timeout);

/* The mutex held: */
/* Give L its turn: a callback of the MPM for a parked listener, a signal for one
 * that holds its thread. */
void rkm_watcher_schedule(listener *l);
/* Take L out of the list (its place given back, its queue freed). */
void rkm_watcher_unlink(listener *l);

/* The mutex not held: */
/* Add the stream L (its place taken) for server S's database, unless the watcher has
 * dispatched records after L->last_id meanwhile: 1 (added), or 0 (replay them from
 * the database, then try again). */
int rkm_watcher_add_stream(listener *l, server_rec *s);
/* Take a place for the long poll L and add it for server S's database, its ETag made
 * from L->rev and EPOCH (marked changed at once when the watcher has seen a newer
 * revision): 1, or 0 (no place: answer 503). */
int rkm_watcher_add_poll(listener *l, server_rec *s, const char *epoch);

#endif
