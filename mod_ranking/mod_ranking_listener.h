/* mod_ranking_listener.h: a listener of live updates (an event stream or a long poll),
 * the one record the three files of live updates hand each other: made by the request
 * side (mod_ranking_stream.c), queued and scheduled by the watcher
 * (mod_ranking_watcher.c), written and ended by its connection's turns
 * (mod_ranking_parked.c) or by its own thread (mod_ranking_stream.c, hold()).  Its
 * fields are grouped by who sets them; the watcher's state is its own (reached through
 * mod_ranking_watcher.h).  Not for any other file.
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

#define WRITE_TIMEOUT apr_time_from_sec(5) /* a parked stream's write, at most */
/* A parked connection is freed no sooner than this after the MPM parked it: its
 * thread still stores into the connection's state after our hook (suspended() in
 * mod_ranking_parked.c) and returns. */
#define CLOSE_MARGIN apr_time_from_msec(100)

typedef struct rkm_source rkm_source;   /* the watcher's: a database with listeners */

/* A listener is malloc()ed, not taken from the request's pool: a parked stream
 * outlives its request (mod_ranking_parked.c, detach()).  Until it is detached, a
 * cleanup of the request's pool frees it. */
typedef struct listener {
    /* what it is (mod_ranking_stream.c, when it is made) */
    int stream;                 /* 1: an event stream, 0: a long poll */
    int async;                  /* parked (SUSPENDED), or holding its thread */
    conn_rec *c;                /* its request's connection */
    apr_int64_t competition;    /* stream */
    const char *key;            /* stream: "voie" or "line" */
    apr_uint64_t rev;           /* poll: the data revision it waits to see move */
    const char *epoch;          /* poll: the epoch of that revision */
    apr_time_t deadline;        /* poll: when to answer 304 */
    apr_thread_cond_t *cond;    /* holding its thread: signalled by the watcher */
    ap_mpm_callback_fn_t *turn; /* parked: its turn, on a worker thread of the MPM
                                   (mod_ranking_parked.c), scheduled by the watcher */

    /* its connection (mod_ranking_parked.c; the request side until it parks) */
    request_rec *r;             /* NULL once a parked stream is detached */
    int chunked;                /* detached: its answer is chunked (HTTP/1.1) */
    apr_bucket_brigade *bb;     /* stream: reused by every write (in r's pool, then,
                                   once detached, in c's) */
    apr_time_t last_write;      /* stream: for keep-alive comments */

    /* its queue and its state, under the watcher's mutex (rkm_watcher_lock) */
    struct listener *next, *prev;
    rkm_source *src;
    apr_int64_t last_id;        /* stream: the last record sent or queued */
    char *pending;              /* malloc()ed */
    size_t plen, pcap;
    int scheduled;              /* a callback is registered, not run yet */
    apr_time_t parked_at;       /* parked: when the MPM had parked it (0: not yet;
                                   no turn is registered before) */
    int end;                    /* end it at its next turn */
    int changed;                /* poll: the data moved */
    int hup_fd;                 /* its socket, in the watcher's epoll set: -1 when
                                   not there */
} listener;

#endif
