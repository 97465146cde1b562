/* mod_ranking_listener.c: live updates, a listener (an event stream or a long poll)
 * and the list of this child's listeners: what it is, its queue of text to send,
 * its turns and its end.  The record is this file's; the other files of live updates
 * reach it through mod_ranking_listener.h.  Everything here that reads or changes a
 * listener's queue or state runs under the watcher's mutex (rkm_watcher_lock). */
#include <sys/epoll.h>

#include "mod_ranking_listener.h"
#include "mod_ranking_config.h"
#include "mod_ranking_parked.h"
#include "mod_ranking_places.h"
#include "mod_ranking_status.h"
#include "mod_ranking_watcher.h"
#include "rk_sse.h"

struct rkm_listener {
    /* what it is (set when it is made) */
    int stream;                 /* 1: an event stream, 0: a long poll */
    int async;                  /* parked (SUSPENDED), or holding its thread */
    conn_rec *c;                /* its request's connection */
    apr_int64_t competition;    /* stream */
    const char *key;            /* stream: "voie" or "line" */
    int published;              /* stream: the published view's events (API.md part 3) */
    apr_uint64_t rev;           /* poll: the data revision it waits to see move */
    const char *epoch;          /* poll: the epoch of that revision */
    apr_time_t deadline;        /* poll: when to answer 304 */
    apr_thread_cond_t *cond;    /* holding its thread: signalled by the watcher */
    ap_mpm_callback_fn_t *turn; /* parked: its turn, on a worker thread of the MPM
                                   (mod_ranking_parked.c), scheduled by the watcher */
    void *side;                 /* its connection's own record (mod_ranking_parked.c),
                                   in the same block */
    apr_time_t last_write;      /* stream: for keep-alive comments; written by its turn
                                   (the watcher's mutex not held) and by the watcher's
                                   tick: relaxed atomic loads and stores only */

    /* its queue and its state, under the watcher's mutex */
    rkm_listener *next, *prev;  /* the list; once ended, the closing list (next) */
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
};

/* This child's listeners (the watcher's mutex held). */
static rkm_listener *head;
/* Ended listeners, their connections freed once CLOSE_MARGIN after they were parked
 * has passed (by ->next; the watcher's mutex held). */
static rkm_listener *closing;

/* ---- what it is ---- */

apr_status_t rkm_listener_free(void *l)
{
    free(l);
    return APR_SUCCESS;
}

/* The connection's record follows the listener's in one block, aligned as malloc()
 * aligns. */
#define SIDE_OFFSET ((sizeof(rkm_listener) + 15) & ~(size_t)15)

rkm_listener *rkm_listener_new(request_rec *r, int stream, int async, size_t side,
                               ap_mpm_callback_fn_t *turn)
{
    rkm_listener *l = calloc(1, SIDE_OFFSET + side);

    if (!l) {
        return NULL;
    }
    apr_pool_cleanup_register(r->pool, l, rkm_listener_free, apr_pool_cleanup_null);
    l->side = (char *)l + SIDE_OFFSET;
    l->c = r->connection;
    l->stream = stream;
    l->async = async;
    l->last_write = apr_time_now();
    l->turn = turn;
    l->hup_fd = -1;
    if (!l->async && apr_thread_cond_create(&l->cond, r->pool) != APR_SUCCESS) {
        return NULL;
    }
    return l;
}

void *rkm_listener_side(rkm_listener *l)
{
    return l->side;
}

int rkm_listener_is_stream(const rkm_listener *l)
{
    return l->stream;
}

int rkm_listener_async(const rkm_listener *l)
{
    return l->async;
}

conn_rec *rkm_listener_conn(const rkm_listener *l)
{
    return l->c;
}

void rkm_listener_set_stream(rkm_listener *l, apr_int64_t competition, const char *key)
{
    l->competition = competition;
    l->key = key;
}

void rkm_listener_set_poll(rkm_listener *l, apr_uint64_t rev, const char *epoch,
                           apr_time_t deadline)
{
    l->rev = rev;
    l->epoch = epoch;
    l->deadline = deadline;
}

void rkm_listener_set_published(rkm_listener *l, int published)
{
    l->published = published;
}

int rkm_listener_published(const rkm_listener *l)
{
    return l->published;
}

const char *rkm_listener_key(const rkm_listener *l)
{
    return l->key;
}

apr_int64_t rkm_listener_last_id(const rkm_listener *l)
{
    return l->last_id;
}

void rkm_listener_set_last_id(rkm_listener *l, apr_int64_t id)
{
    l->last_id = id;
}

void rkm_listener_wrote(rkm_listener *l)
{
    __atomic_store_n(&l->last_write, apr_time_now(), __ATOMIC_RELAXED);
}

/* ---- its queue (the watcher's mutex held) ---- */

static void append(rkm_listener *l, const char *text, size_t n)
{
    if (l->end) {
        return;
    }
    if (l->plen + n > rkm_config_event_buffer()) {
        /* a client that does not read: drop it rather than grow without bound */
        ap_log_cerror(APLOG_MARK, APLOG_INFO, 0, l->c, "event stream dropped: its client "
                      "reads too slowly (more than %" APR_SIZE_T_FMT " bytes waiting)",
                      rkm_config_event_buffer());
        free(l->pending);
        l->pending = NULL;
        l->plen = l->pcap = 0;
        l->end = 1;
        return;
    }
    if (l->plen + n > l->pcap) {
        size_t cap = l->pcap ? l->pcap : 1024;
        char *bigger;

        while (cap < l->plen + n) {
            cap *= 2;
        }
        if (!(bigger = realloc(l->pending, cap))) {
            l->end = 1;
            return;
        }
        l->pending = bigger;
        l->pcap = cap;
    }
    memcpy(l->pending + l->plen, text, n);
    l->plen += n;
}

/* Give L its turn: a callback of the MPM for a parked listener, a signal for one
 * that holds its thread. */
static void schedule(rkm_listener *l)
{
    if (!l->async) {
        apr_thread_cond_signal(l->cond);
        return;
    }
    if (l->scheduled || !l->parked_at) {
        return;   /* not yet parked: its first turn comes when it is */
    }
    l->scheduled = 1;
    if (ap_mpm_register_timed_callback(0, l->turn, l) != APR_SUCCESS) {
        l->scheduled = 0;
        ap_log_cerror(APLOG_MARK, APLOG_ERR, 0, l->c, "cannot schedule an event stream's write");
    }
}

/* Send what is queued for L (released while writing). */
static int flush(rkm_listener *l)
{
    char *text = l->pending;
    size_t n = l->plen;
    int rv;

    if (!n) {
        return 0;
    }
    l->pending = NULL;
    l->plen = l->pcap = 0;
    rkm_watcher_unlock();
    rv = rkm_parked_send(l, text, n);
    rkm_watcher_lock();
    return rv;
}

/* ---- the list (the watcher's mutex held) ---- */

void rkm_listener_link(rkm_listener *l, rkm_source *src, int changed)
{
    conn_rec *c = l->c;
    apr_socket_t *sock = c->master ? NULL : ap_get_conn_socket(c);
    apr_os_sock_t fd;
    int ep = rkm_watcher_epoll();

    l->src = src;
    l->changed = changed;
    rkm_watcher_source_join(src);
    rk_stats_add(l->stream ? &rkm_stats->streams : &rkm_stats->polls, 1);
    l->next = head;
    l->prev = NULL;
    if (head) {
        head->prev = l;
    }
    head = l;
    /* an HTTP/2 stream's own connection is mod_http2's: it sees a reset itself */
    l->hup_fd = -1;
    if (ep >= 0 && sock && apr_os_sock_get(&fd, sock) == APR_SUCCESS) {
        struct epoll_event ev;

        memset(&ev, 0, sizeof(ev));
        ev.events = EPOLLRDHUP;
        ev.data.ptr = l;
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0) {
            l->hup_fd = fd;
        }
    }
    if (changed) {
        schedule(l);
    }
}

static void unlink_listener(rkm_listener *l)
{
    if (l->hup_fd >= 0) {
        epoll_ctl(rkm_watcher_epoll(), EPOLL_CTL_DEL, l->hup_fd, NULL);
        l->hup_fd = -1;
    }
    if (l->prev) {
        l->prev->next = l->next;
    }
    else {
        head = l->next;
    }
    if (l->next) {
        l->next->prev = l->prev;
    }
    rk_stats_add(l->stream ? &rkm_stats->streams : &rkm_stats->polls, -1);
    rkm_watcher_source_leave(l->src);
    rkm_places_give(l->async, l->c);
    free(l->pending);
    l->pending = NULL;
    l->plen = l->pcap = 0;
}

/* Queue the event of change C for the streams of its competition on SRC: in the view
 * of each (the published view's may be none). */
void rkm_listeners_dispatch(rkm_source *src, const rk_lane_change *c)
{
    apr_int64_t id = apr_atoi64(c->id), comp = apr_atoi64(c->competition_id);
    char *text[4] = { NULL, NULL, NULL, NULL }, *pub_lane = NULL;
    size_t len[4] = { 0, 0, 0, 0 };
    rk_lane_change pub;
    int pub_event = -2;   /* not made yet */
    rkm_listener *l;

    for (l = head; l; l = l->next) {
        int k;

        if (!l->stream || l->src != src || l->competition != comp || id <= l->last_id) {
            continue;
        }
        k = (l->key[0] == 'l') + 2 * (l->published != 0);   /* "voie" or "line"; view */
        if (l->published && pub_event == -2) {
            pub_event = rk_sse_published(c, &pub, &pub_lane);
        }
        if (l->published && pub_event <= 0) {
            l->last_id = id;   /* nothing the published view shows (or no memory) */
            continue;
        }
        if (!text[k]) {
            const rk_lane_change *e = l->published ? &pub : c;

            len[k] = rk_sse_lane_event(NULL, e, l->key);
            if (!(text[k] = malloc(len[k]))) {
                continue;
            }
            rk_sse_lane_event(text[k], e, l->key);
        }
        append(l, text[k], len[k]);
        l->last_id = id;
    }
    for (pub_event = 0; pub_event < 4; pub_event++) {
        free(text[pub_event]);
    }
    free(pub_lane);
}

void rkm_listeners_moved(rkm_source *src, apr_uint64_t rev, const char *epoch)
{
    rkm_listener *l;

    /* a long poll answers once the data is not what its ETag was made from */
    for (l = head; l; l = l->next) {
        if (!l->stream && l->src == src && (rev > l->rev || strcmp(l->epoch, epoch) != 0)) {
            l->changed = 1;
        }
    }
}

void rkm_listener_hung_up(rkm_listener *l)
{
    epoll_ctl(rkm_watcher_epoll(), EPOLL_CTL_DEL, l->hup_fd, NULL);
    l->hup_fd = -1;
    l->end = 1;
}

/* How long after its last write a stream's keep-alive comment is due: at most KA
 * (RankingEventKeepAlive), less a share of a quarter of it that is the listener's own,
 * so that streams written at the same moment (an event sent to all of them) do not all
 * get their comments in the same tick: 10,000 at once were a burst of writes. */
static apr_interval_time_t keepalive_of(const rkm_listener *l, apr_interval_time_t ka)
{
    apr_uint64_t h = (apr_uint64_t)(uintptr_t)l * APR_UINT64_C(0x9E3779B97F4A7C15);

    return ka - (apr_interval_time_t)((h >> 32) % (apr_uint64_t)(ka / 4 + 1));
}

void rkm_listeners_tick(apr_time_t now, int stopping)
{
    rkm_listener *l;

    for (l = head; l; l = l->next) {
        if (stopping) {
            l->end = 1;   /* the child stops: end streams, answer polls */
        }
        if (l->stream && !l->end && !l->plen
            && now - __atomic_load_n(&l->last_write, __ATOMIC_RELAXED)
               >= keepalive_of(l, rkm_config_event_keepalive())) {
            append(l, ": keep-alive\n\n", 14);
            __atomic_store_n(&l->last_write, now, __ATOMIC_RELAXED);   /* not twice before its turn */
        }
        if (!l->stream && now >= l->deadline) {
            l->end = 1;
        }
        if (l->plen || l->end || l->changed) {
            schedule(l);
        }
    }
}

/* ---- its turns (the watcher's mutex not held) ---- */

void rkm_listener_hold(rkm_listener *l)
{
    rkm_watcher_lock();
    while (!l->end && !(!l->stream && l->changed)) {
        if (l->stream && flush(l) != 0) {
            l->end = 1;
            break;
        }
        if (!l->end && !l->plen) {
            rkm_watcher_wait(l->cond, apr_time_from_sec(1));
        }
        /* an HTTP/2 stream that its client reset (mod_http2 marks it aborted): its
         * socket is not in the watcher's epoll set, and its worker is needed */
        if (l->c->aborted) {
            l->end = 1;
        }
    }
    unlink_listener(l);
    rkm_watcher_unlock();
}

void rkm_listener_parked(rkm_listener *l, int first_turn)
{
    rkm_watcher_lock();
    l->parked_at = apr_time_now();
    if ((l->stream && first_turn) || l->plen || l->end || l->changed) {
        schedule(l);
    }
    rkm_watcher_unlock();
}

void rkm_listener_unparked(rkm_listener *l)
{
    rkm_watcher_lock();
    if (!l->parked_at) {
        unlink_listener(l);
    }
    rkm_watcher_unlock();
}

int rkm_listener_turn(rkm_listener *l)
{
    int done;

    rkm_watcher_lock();
    if (l->stream && flush(l) != 0) {
        l->end = 1;
    }
    done = l->end || (!l->stream && l->changed);
    if (done) {
        unlink_listener(l);
    }
    l->scheduled = 0;
    if (!done && l->plen) {
        schedule(l);   /* more came while writing */
    }
    rkm_watcher_unlock();
    return done;
}

/* ---- its end ---- */

/* Free the connection of L, which ended (the socket is closed, the MPM counts it
 * out), and L. */
static void free_ended(rkm_listener *l)
{
    apr_pool_destroy(l->c->pool);
    free(l);
}

void rkm_listener_close(rkm_listener *l)
{
    if (apr_time_now() - l->parked_at >= CLOSE_MARGIN) {
        free_ended(l);
        return;
    }
    rkm_watcher_lock();
    l->next = closing;
    closing = l;
    rkm_watcher_unlock();
}

int rkm_listeners_closing(void)
{
    return closing != NULL;
}

void rkm_listeners_close_due(apr_time_t now)
{
    rkm_listener **pp = &closing, *due = NULL, *l;

    while ((l = *pp) != NULL) {
        if (now - l->parked_at >= CLOSE_MARGIN) {
            *pp = l->next;
            l->next = due;
            due = l;
        }
        else {
            pp = &l->next;
        }
    }
    if (!due) {
        return;
    }
    rkm_watcher_unlock();
    while ((l = due) != NULL) {
        due = l->next;
        free_ended(l);
    }
    rkm_watcher_lock();
}
