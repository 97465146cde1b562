/* mod_ranking_watcher.h: live updates, the watcher thread of each child and its
 * mutex, which guards every listener's queue and state (mod_ranking_listener.c).
 * For the files of live updates only. */
#ifndef MOD_RANKING_WATCHER_H
#define MOD_RANKING_WATCHER_H

#include "mod_ranking_listener.h"

/* register_hooks: child_init starts the watcher thread, stopped with the child. */
void rkm_watcher_register_hooks(void);

/* 1 once the watcher runs (else event streams and long polls answer 503 / at once). */
int rkm_watcher_ready(void);
/* 1 when the MPM can park a request (SUSPENDED). */
int rkm_watcher_async_mpm(void);

/* The watcher's mutex; and a wait on COND (a listener's that holds its thread) with
 * it held, TIMEOUT at most. */
void rkm_watcher_lock(void);
void rkm_watcher_unlock(void);
void rkm_watcher_wait(apr_thread_cond_t *cond, apr_interval_time_t timeout);

/* The mutex not held: */
/* Add the stream L (its place taken) for server S's database, unless the watcher has
 * dispatched records after its last id meanwhile: 1 (added), or 0 (replay them from
 * the database, then try again). */
int rkm_watcher_add_stream(rkm_listener *l, server_rec *s);
/* Take a place for the long poll L and add it for server S's database, its ETag made
 * from revision REV of EPOCH (marked changed at once when the watcher has seen a
 * newer revision): 1, or 0 (no place: answer 503). */
int rkm_watcher_add_poll(rkm_listener *l, server_rec *s, apr_uint64_t rev, const char *epoch);

/* For mod_ranking_listener.c, the mutex held: the epoll set of the listeners'
 * sockets (-1: none), and a listener of SRC added or taken out. */
int rkm_watcher_epoll(void);
void rkm_watcher_source_join(rkm_source *src);
void rkm_watcher_source_leave(rkm_source *src);

#endif
