/* mod_ranking_live_int.h: what the two files of live updates share:
 * mod_ranking_live.c (the watcher thread, the listeners' list and queues) and
 * mod_ranking_events.c (the requests: event streams, long polls, their writes).
 * Not for any other file. */
#ifndef MOD_RANKING_LIVE_INT_H
#define MOD_RANKING_LIVE_INT_H

#include "ap_mpm.h"
#include "apr_thread_cond.h"
#include "apr_thread_mutex.h"
#include "apr_thread_proc.h"

#include "mod_ranking_live.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_request.h"
#include "rk_live.h"

#define TICK apr_time_from_msec(250)      /* other servers' changes: seen within it */
#define WRITE_TIMEOUT apr_time_from_sec(5) /* a parked stream's write, at most */
#define ASYNC_LISTENERS_DEFAULT 20000     /* per child, parked */
/* A parked connection is freed no sooner than this after the MPM parked it: its
 * thread still stores into the connection's state after our hook (suspended() in
 * mod_ranking_events.c) and returns. */
#define CLOSE_MARGIN apr_time_from_msec(100)

typedef struct source source;

/* A listener is malloc()ed, not taken from the request's pool: a parked stream
 * outlives its request (mod_ranking_events.c, detach()).  Until it is detached, a
 * cleanup of the request's pool frees it. */
typedef struct listener {
    struct listener *next, *prev;
    int stream;                 /* 1: an event stream, 0: a long poll */
    int async;                  /* parked (SUSPENDED), or holding its thread */
    request_rec *r;             /* NULL once a parked stream is detached (below) */
    rk_req *rq;                 /* poll; a stream's, NULL once detached */
    conn_rec *c;                /* r's connection */
    int chunked;                /* detached: its answer is chunked (HTTP/1.1) */
    source *src;
    apr_int64_t competition;    /* stream */
    const char *key;            /* stream: "voie" or "line" */
    apr_int64_t last_id;        /* stream: the last record sent or queued */
    apr_uint64_t rev;           /* poll: the data revision it waits to see move */
    apr_time_t deadline;        /* poll: when to answer 304 */
    apr_time_t last_write;      /* stream: for keep-alive comments */
    rk_reread_fn *reread;       /* poll */
    char *pending;              /* malloc()ed, under rk_live.mutex */
    size_t plen, pcap;
    int scheduled;              /* a callback is registered, not run yet */
    apr_time_t parked_at;       /* parked: when the MPM had parked it (0: not yet;
                                   no turn is registered before) */
    int end;                    /* end it at its next turn */
    int changed;                /* poll: the data moved */
    int hup_fd;                 /* its socket, in rk_live.ep: -1 when not there */
    apr_thread_cond_t *cond;    /* holding its thread: signalled by the watcher */
    apr_bucket_brigade *bb;     /* stream: reused by every write (in r's pool, then,
                                   once detached, in c's) */
    ap_mpm_callback_fn_t *turn; /* parked: its turn, on a worker thread of the MPM
                                   (mod_ranking_events.c), scheduled by the watcher */
} listener;

struct source {                 /* a database that has listeners: one per server */
    source *next;
    server_rec *s;
    int listeners;
    int have_rev;
    char epoch[40];
    apr_uint64_t rev;
    apr_int64_t cursor;         /* the newest record dispatched */
};

typedef struct {
    apr_thread_mutex_t *mutex;
    apr_thread_cond_t *wake;    /* the watcher's: poked by writes */
    apr_pool_t *pool;           /* sources live here */
    listener *head;
    listener *closing;          /* ended, their connections freed once CLOSE_MARGIN
                                   after they were parked has passed (by ->next) */
    source *sources;
    int parked, holding;        /* listeners of this child, by kind */
    int h2_holding;             /* of the holding ones, those over HTTP/2 */
    int stop, poked, ready;
    apr_thread_t *thread;
    int async_mpm;
    int ep;                     /* epoll of the listeners' sockets: clients that left */
} rk_live_state;

/* The state of this child's listeners (mod_ranking_live.c). */
extern rk_live_state rk_live;
/* Listeners holding a thread, over every child of the server (shared memory made in
 * post_config, inherited by the children), and their cap. */
extern apr_uint32_t *rk_holding_all;
extern int rk_holding_cap;
/* Listeners over HTTP/2 (each holds one of mod_http2's workers), per child: at most. */
extern int rk_h2_cap;

/* mod_ranking_live.c; rk_live.mutex held */
void rk_live_append(listener *l, const char *text, size_t n);
void rk_live_schedule(listener *l);
void rk_live_link(listener *l);   /* L->src set */
void rk_live_unlink(listener *l);
/* Room for one more listener like L (counted): 1, or 0 (answer 503); and its release. */
int rk_live_take_place(listener *l);
void rk_live_give_place(listener *l);
/* Free the connection of a parked listener that ended, and L (rk_live.mutex not
 * held): now, or by the watcher once CLOSE_MARGIN has passed since it was parked. */
void rk_live_close(listener *l);
source *rk_live_source(server_rec *s);

#endif
