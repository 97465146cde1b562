/* mod_ranking_parked.h: live updates, a listener's connection (mod_ranking_parked.c):
 * its memory, its writes, and with the event MPM its parking, its turns and its end.
 * For the files of live updates only. */
#ifndef MOD_RANKING_PARKED_H
#define MOD_RANKING_PARKED_H

#include "mod_ranking_listener.h"

/* register_hooks: the suspend_connection hook (a parked listener's first turn) and
 * the filter that holds a stream's head until its first write. */
void rkm_parked_register_hooks(void);

/* A new listener of R (an event STREAM or a long poll), parked (ASYNC) or holding its
 * thread, with the record of its connection (rkm_listener_new).  NULL when out of
 * memory. */
rkm_listener *rkm_parked_listener(request_rec *r, int stream, int async);

/* The head of R's answer, an event stream, held until the first write. */
void rkm_parked_hold_head(request_rec *r);

/* Send TEXT (malloc()ed, taken over) to L's client and flush (the watcher's mutex
 * not held).  0, or -1 when the client is gone or the write failed.  A parked
 * stream's write waits at most WRITE_TIMEOUT. */
int rkm_parked_send(rkm_listener *l, char *text, size_t n);

/* Hand L's connection to the MPM: the handler returns what this returns
 * (SUSPENDED); the listener's turns begin once the MPM is done parking it. */
int rkm_parked_park(rkm_listener *l);

#endif
