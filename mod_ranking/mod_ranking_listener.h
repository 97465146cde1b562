/* mod_ranking_listener.h: a listener of live updates (an event stream or a long poll),
 * the one record the three files of live updates hand each other: made by the request
 * side (mod_ranking_stream.c), queued and scheduled by the watcher
 * (mod_ranking_watcher.c), written and ended by its connection's turns
 * (mod_ranking_parked.c) or by its own thread (mod_ranking_stream.c, hold()).  Its
 * fields are grouped by who sets them; the watcher's state is its own (reached through
 * mod_ranking_watcher.h).  Not for any other file. */
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
