/* mod_ranking_listener.h: a listener of live updates (an event stream or a long poll)
 * and the list of this child's listeners (mod_ranking_listener.c, whose record it
 * is): made for a request (mod_ranking_stream.c, through mod_ranking_parked.c), fed
 * by the watcher (mod_ranking_watcher.c), written and ended by its connection's turns
 * (mod_ranking_parked.c) or by its own thread (rkm_listener_hold).  For the files of
 * live updates only.
 *
 * The design of live updates:
 *
 * One watcher thread per child process keeps the listeners of the child (streams of
 * a competition's lane changes, and long polls of read routes).  Every tick (and at
 * once when a change is committed through this process) it reads the revision of
 * each database that has listeners; when the data moved, it reads the change log
 * after the last record it saw and queues each record's event for the streams of its
 * competition, and marks the long polls of that database as changed.
 *
 * With the event MPM a listener is parked: its handler returns SUSPENDED and no
 * thread waits for it.  The watcher hands a listener with something to send to the
 * MPM as a zero-delay timed callback (a callback with a delay never fires while the
 * server is otherwise idle in httpd 2.4: the listener thread only looks at timers that
 * are due when it wakes); the callback, on a worker thread and under the request's
 * invoke_mtx, writes and flushes, then parks the request again, or ends it.  No turn
 * is registered before the MPM's thread is done parking the connection (its
 * suspend_connection hook registers the first: mod_ranking_parked.c, suspended()),
 * and a connection is freed no sooner than CLOSE_MARGIN after that.  A stream
 * is detached from its request at its first turn: httpd's request ends there (its
 * log line, its pool freed) and the stream goes on as its connection's, writing its
 * own chunks, so that a parked stream keeps its connection's memory only (see
 * mod_ranking_parked.c, detach()).  With the
 * other MPMs and under mod_http2 (a request of an HTTP/2 stream runs on an h2 worker)
 * a listener holds its thread and waits on a condition the watcher signals; the
 * listeners of that kind are capped server-wide (shared memory) so that they never
 * take every worker.
 *
 * A parked connection is not polled by the MPM: the watcher keeps the listeners'
 * sockets in an epoll set of its own (EPOLLRDHUP only) and ends, at its next tick, a
 * listener whose client closed its side; else a client that is gone is found by the
 * next write (a keep-alive comment at least every RankingEventKeepAlive seconds), so
 * that a closed stream holds its connection for at most a tick (250 ms), not until
 * its next keep-alive comment.  A stream that does not read is dropped
 * once RankingEventBuffer bytes wait for it.  A child that stops (graceful restart,
 * stop) ends its streams and answers its long polls first. */
#ifndef MOD_RANKING_LISTENER_H
#define MOD_RANKING_LISTENER_H

#include "ap_mpm.h"
#include "apr_thread_cond.h"

#include "mod_ranking_private.h"
#include "rk_sse.h"

#define WRITE_TIMEOUT apr_time_from_sec(5) /* a parked stream's write, at most */
/* A parked connection is freed no sooner than this after the MPM parked it: its
 * thread still stores into the connection's state after our hook (suspended() in
 * mod_ranking_parked.c) and returns. */
#define CLOSE_MARGIN apr_time_from_msec(100)

typedef struct rkm_source rkm_source;       /* the watcher's: a database with listeners */
typedef struct rkm_listener rkm_listener;   /* mod_ranking_listener.c's */

/* ---- what it is ---- */

/* A new listener of R (an event STREAM or a long poll), parked (ASYNC) or holding its
 * thread, its turns TURN (parked), with SIDE bytes of its connection's own record
 * (rkm_listener_side).  malloc()ed, not taken from the request's pool: a parked
 * stream outlives its request (mod_ranking_parked.c, detach()); until it is detached
 * the cleanup rkm_listener_free of R's pool frees it.  NULL when out of memory. */
rkm_listener *rkm_listener_new(request_rec *r, int stream, int async, size_t side,
                               ap_mpm_callback_fn_t *turn);
apr_status_t rkm_listener_free(void *l);
void *rkm_listener_side(rkm_listener *l);
int rkm_listener_is_stream(const rkm_listener *l);
int rkm_listener_async(const rkm_listener *l);
conn_rec *rkm_listener_conn(const rkm_listener *l);
/* A stream: its COMPETITION and the KEY of its events' lane ("voie" or "line"), the
 * last record sent or queued (read and set by the stream's replay before it is
 * added; then the watcher's). */
void rkm_listener_set_stream(rkm_listener *l, apr_int64_t competition, const char *key);
const char *rkm_listener_key(const rkm_listener *l);
/* A stream of the published view (API.md part 3: a reader's, an anonymous client's):
 * a lane event only when the lane as that view shows it changes, shown so. */
void rkm_listener_set_published(rkm_listener *l, int published);
int rkm_listener_published(const rkm_listener *l);
apr_int64_t rkm_listener_last_id(const rkm_listener *l);
void rkm_listener_set_last_id(rkm_listener *l, apr_int64_t id);
/* A long poll: the revision (REV, EPOCH) it waits to see move, and when it answers
 * 304 at the latest. */
void rkm_listener_set_poll(rkm_listener *l, apr_uint64_t rev, const char *epoch,
                           apr_time_t deadline);
/* A write to its client went out now (keep-alive comments count from it). */
void rkm_listener_wrote(rkm_listener *l);

/* ---- the list (the watcher's mutex held) ---- */

/* Add L for the database SRC, marked CHANGED (a long poll whose revision moved: its
 * turn is given at once). */
void rkm_listener_link(rkm_listener *l, rkm_source *src, int changed);
/* Queue the event of change C for the streams of its competition on SRC. */
void rkm_listeners_dispatch(rkm_source *src, const rk_lane_change *c);
/* SRC is at revision REV of EPOCH: the long polls that wait for another answer. */
void rkm_listeners_moved(rkm_source *src, apr_uint64_t rev, const char *epoch);
/* The client of L (the data of its epoll event) closed its side: end L. */
void rkm_listener_hung_up(rkm_listener *l);
/* The watcher's tick at NOW: keep-alive comments due, long polls past their deadline,
 * every listener ended when the child is STOPPING; a turn for those with something
 * to do. */
void rkm_listeners_tick(apr_time_t now, int stopping);

/* ---- its turns (the watcher's mutex not held) ---- */

/* Hold the thread until L ends (a stream: its queue written meanwhile) or changes
 * or times out (a poll); L is taken out of the list. */
void rkm_listener_hold(rkm_listener *l);
/* The MPM has parked L's connection: its turns may begin, the first now when there
 * is something to do (FIRST_TURN: a stream's first turn, which detaches it). */
void rkm_listener_parked(rkm_listener *l, int first_turn);
/* L's connection is freed before the MPM parked it: out of the list. */
void rkm_listener_unparked(rkm_listener *l);
/* A parked listener's turn (one at a time): its queue written (a stream), then 1 when
 * it is done (taken out of the list: end it), 0 when it goes on (its next turn
 * registered when more came meanwhile). */
int rkm_listener_turn(rkm_listener *l);

/* ---- its end ---- */

/* Free the connection of a parked listener that ended, and L (the watcher's mutex not
 * held): now, or once CLOSE_MARGIN has passed since it was parked. */
void rkm_listener_close(rkm_listener *l);
/* The watcher's: whether ended connections wait to be freed, and (its mutex held;
 * released while freeing) free those that are due at NOW. */
int rkm_listeners_closing(void);
void rkm_listeners_close_due(apr_time_t now);

#endif
