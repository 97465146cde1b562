/* mod_ranking_watcher.c: live updates, the watcher thread of each child and the
 * state of its listeners (the design of live updates: mod_ranking_listener.h). */
#include <sys/epoll.h>
#include <unistd.h>

#include "ap_mpm.h"

#include "apr_thread_cond.h"
#include "apr_thread_mutex.h"
#include "apr_thread_proc.h"

#include "mod_ranking_watcher.h"
#include "mod_ranking_status.h"
#include "mod_ranking_config.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_parked.h"
#include "mod_ranking_places.h"
#include "rk_sse.h"

#define TICK apr_time_from_msec(250)      /* other servers' changes: seen within it */

struct rkm_source {             /* a database that has listeners: one per server */
    rkm_source *next;
    server_rec *s;
    int listeners;
    int have_rev;
    char epoch[40];
    apr_uint64_t rev;
    apr_int64_t cursor;         /* the newest record dispatched */
};
typedef rkm_source source;

/* The state of this child's listeners. */
static struct {
    apr_thread_mutex_t *mutex;
    apr_thread_cond_t *wake;    /* the watcher's: poked by writes */
    apr_pool_t *pool;           /* sources live here */
    listener *head;
    source *sources;
    int stop, poked, ready;
    apr_thread_t *thread;
    int async_mpm;
    int ep;                     /* epoll of the listeners' sockets: clients that left */
} watch;

static void poke(void);

/* ---- the listeners' list and queues (watch.mutex held) ---- */

static void append(listener *l, const char *text, size_t n)
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
void rkm_watcher_schedule(listener *l)
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

static void link_listener(listener *l)
{
    conn_rec *c = l->c;
    apr_socket_t *sock = c->master ? NULL : ap_get_conn_socket(c);
    apr_os_sock_t fd;

    l->src->listeners++;
    rk_stats_add(l->stream ? &rkm_stats->streams : &rkm_stats->polls, 1);
    l->next = watch.head;
    l->prev = NULL;
    if (watch.head) {
        watch.head->prev = l;
    }
    watch.head = l;
    /* an HTTP/2 stream's own connection is mod_http2's: it sees a reset itself */
    l->hup_fd = -1;
    if (watch.ep >= 0 && sock && apr_os_sock_get(&fd, sock) == APR_SUCCESS) {
        struct epoll_event ev;

        memset(&ev, 0, sizeof(ev));
        ev.events = EPOLLRDHUP;
        ev.data.ptr = l;
        if (epoll_ctl(watch.ep, EPOLL_CTL_ADD, fd, &ev) == 0) {
            l->hup_fd = fd;
        }
    }
}

void rkm_watcher_unlink(listener *l)
{
    if (l->hup_fd >= 0) {
        epoll_ctl(watch.ep, EPOLL_CTL_DEL, l->hup_fd, NULL);
        l->hup_fd = -1;
    }
    if (l->prev) {
        l->prev->next = l->next;
    }
    else {
        watch.head = l->next;
    }
    if (l->next) {
        l->next->prev = l->prev;
    }
    rk_stats_add(l->stream ? &rkm_stats->streams : &rkm_stats->polls, -1);
    if (--l->src->listeners == 0) {
        /* nobody watches it any more: what the watcher knew of it goes stale */
        l->src->have_rev = 0;
        l->src->cursor = -1;
    }
    rkm_places_give(l);
    free(l->pending);
    l->pending = NULL;
    l->plen = l->pcap = 0;
}

static source *source_of(server_rec *s)
{
    source *src;

    for (src = watch.sources; src; src = src->next) {
        if (src->s == s) {
            return src;
        }
    }
    src = apr_pcalloc(watch.pool, sizeof(*src));
    src->s = s;
    src->cursor = -1;
    src->next = watch.sources;
    watch.sources = src;
    return src;
}

/* ---- the watcher ---- */

/* Queue the event of change C for the streams of its competition on SRC. */
static void dispatch(source *src, const rk_lane_change *c)
{
    apr_int64_t id = apr_atoi64(c->id), comp = apr_atoi64(c->competition_id);
    char *text[2] = { NULL, NULL };
    size_t len[2] = { 0, 0 };
    listener *l;

    for (l = watch.head; l; l = l->next) {
        int k;

        if (!l->stream || l->src != src || l->competition != comp || id <= l->last_id) {
            continue;
        }
        k = l->key[0] == 'l';   /* the lane under "voie" or "line" */
        if (!text[k]) {
            len[k] = rk_sse_lane_event(NULL, c, l->key);
            if (!(text[k] = malloc(len[k]))) {
                continue;
            }
            rk_sse_lane_event(text[k], c, l->key);
        }
        append(l, text[k], len[k]);
        l->last_id = id;
    }
    free(text[0]);
    free(text[1]);
}

/* The watcher's reading of the change log: the records after SRC's cursor. */
static void dispatch_change(void *baton, const rk_lane_change *c)
{
    source *src = baton;

    apr_thread_mutex_lock(watch.mutex);
    dispatch(src, c);
    if (src->listeners > 0 && src->cursor >= 0 && apr_atoi64(c->id) > src->cursor) {
        src->cursor = apr_atoi64(c->id);
    }
    apr_thread_mutex_unlock(watch.mutex);
}

/* Read SRC's revision; when the data moved, dispatch the new records of the change
 * log and mark the long polls of SRC as changed. */
static void poll_source(apr_pool_t *p, source *src)
{
    rkm_db db;
    rkm_rev rev;
    int n, moved;
    listener *l;

    if (rkm_db_open_bg(p, src->s, &db) != 0) {
        return;
    }
    if ((n = rkm_revision_read_bg(p, src->s, &db, &rev)) < 0) {
        rkm_db_close_bg(src->s, &db);
        return;
    }
    moved = n > 0 && (!src->have_rev || strcmp(src->epoch, rev.epoch) != 0
                      || src->rev != rev.data);
    /* the records after the cursor, a page at a time */
    while (moved && src->cursor >= 0) {
        if (rkm_changes_since_bg(p, src->s, &db, src->cursor, dispatch_change, src)
            < RKM_CHANGES_PAGE) {
            break;
        }
    }
    rkm_db_close_bg(src->s, &db);
    if (moved && src->have_rev) {
        rkm_changes_committed_elsewhere();   /* every child reads again */
    }
    if (n > 0) {
        apr_thread_mutex_lock(watch.mutex);
        /* a long poll answers once the data is not what its ETag was made from */
        for (l = watch.head; l; l = l->next) {
            if (!l->stream && l->src == src
                && (rev.data > l->rev || strcmp(l->epoch, rev.epoch) != 0)) {
                l->changed = 1;
            }
        }
        if (src->listeners > 0) {   /* else it went stale meanwhile */
            apr_cpystrn(src->epoch, rev.epoch, sizeof(src->epoch));
            src->rev = rev.data;
            src->have_rev = 1;
        }
        apr_thread_mutex_unlock(watch.mutex);
    }
}

/* End the listeners whose client closed its side (watch.mutex held: a listener is
 * taken out of the epoll set by rkm_watcher_unlink under the mutex, so every event read
 * here is of a listener still linked). */
static void gone(void)
{
    struct epoll_event evs[256];
    int k, j;

    while (watch.ep >= 0 && (k = epoll_wait(watch.ep, evs, 256, 0)) > 0) {
        for (j = 0; j < k; j++) {
            listener *l = evs[j].data.ptr;

            epoll_ctl(watch.ep, EPOLL_CTL_DEL, l->hup_fd, NULL);
            l->hup_fd = -1;
            l->end = 1;
        }
        if (k < 256) {
            break;
        }
    }
}

/* How long after its last write a stream's keep-alive comment is due: at most KA
 * (RankingEventKeepAlive), less a share of a quarter of it that is the listener's own,
 * so that streams written at the same moment (an event sent to all of them) do not all
 * get their comments in the same tick: 10,000 at once were a burst of writes. */
static apr_interval_time_t keepalive_of(const listener *l, apr_interval_time_t ka)
{
    apr_uint64_t h = (apr_uint64_t)(uintptr_t)l * APR_UINT64_C(0x9E3779B97F4A7C15);

    return ka - (apr_interval_time_t)((h >> 32) % (apr_uint64_t)(ka / 4 + 1));
}

static void *APR_THREAD_FUNC watcher(apr_thread_t *t, void *data)
{
    apr_pool_t *p;
    (void)t;
    (void)data;

    apr_pool_create(&p, watch.pool);
    apr_thread_mutex_lock(watch.mutex);
    while (!watch.stop) {
        source *src, *list[64];
        int n = 0, i, state = AP_MPMQ_RUNNING;
        apr_time_t now;
        listener *l;

        if (!watch.poked) {
            apr_thread_cond_timedwait(watch.wake, watch.mutex,
                                      rkm_parked_closing() ? CLOSE_MARGIN : TICK);
        }
        watch.poked = 0;
        for (src = watch.sources; src && n < 64; src = src->next) {
            if (src->listeners > 0) {
                list[n++] = src;
            }
        }
        apr_thread_mutex_unlock(watch.mutex);
        for (i = 0; i < n; i++) {
            poll_source(p, list[i]);
            apr_pool_clear(p);
        }
        ap_mpm_query(AP_MPMQ_MPM_STATE, &state);
        apr_thread_mutex_lock(watch.mutex);
        gone();
        now = apr_time_now();
        rkm_parked_close_due(now);
        for (l = watch.head; l; l = l->next) {
            if (state == AP_MPMQ_STOPPING) {
                l->end = 1;   /* the child stops: end streams, answer polls */
            }
            if (l->stream && !l->end && !l->plen
                && now - l->last_write >= keepalive_of(l, rkm_config_event_keepalive())) {
                append(l, ": keep-alive\n\n", 14);
                l->last_write = now;   /* not twice before its turn */
            }
            if (!l->stream && now >= l->deadline) {
                l->end = 1;
            }
            if (l->plen || l->end || l->changed) {
                rkm_watcher_schedule(l);
            }
        }
    }
    apr_thread_mutex_unlock(watch.mutex);
    apr_pool_destroy(p);
    /* a plain return, not apr_thread_exit(): pthread_exit's unwinding at the end of a
     * thread trips AddressSanitizer's own thread teardown (a false "stack-use-after-
     * scope" in sigaltstack) in the sanitizer build */
    return NULL;
}

static apr_status_t live_stop(void *unused)
{
    apr_status_t rv;

    (void)unused;
    if (watch.thread) {
        apr_thread_mutex_lock(watch.mutex);
        watch.stop = 1;
        apr_thread_cond_signal(watch.wake);
        apr_thread_mutex_unlock(watch.mutex);
        apr_thread_join(&rv, watch.thread);
        watch.thread = NULL;
    }
    if (watch.ep >= 0) {
        close(watch.ep);
        watch.ep = -1;
    }
    watch.ready = 0;
    return APR_SUCCESS;
}

static void watcher_child_init(apr_pool_t *p, server_rec *s)
{
    int async = 0;

    memset(&watch, 0, sizeof(watch));
    watch.pool = p;
    /* without it, a closed stream is found by its next keep-alive comment only */
    if ((watch.ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        ap_log_error(APLOG_MARK, APLOG_WARNING, errno, s, "mod_ranking: no epoll set for "
                     "the listeners: a client that leaves is noticed at the next write");
    }
    ap_mpm_query(AP_MPMQ_IS_ASYNC, &async);
    watch.async_mpm = async;
    if (apr_thread_mutex_create(&watch.mutex, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS
        || apr_thread_cond_create(&watch.wake, p) != APR_SUCCESS
        || apr_thread_create(&watch.thread, NULL, watcher, NULL, p) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "mod_ranking: no watcher thread: event "
                     "streams and long polls answer 503");
        watch.thread = NULL;
        return;
    }
    /* before the pool's other cleanups: the thread uses the mutex and the pool */
    apr_pool_pre_cleanup_register(p, NULL, live_stop);
    watch.ready = 1;
    rkm_changes_listen(poke);
}

static void poke(void)
{
    if (watch.ready) {
        apr_thread_mutex_lock(watch.mutex);
        watch.poked = 1;
        apr_thread_cond_signal(watch.wake);
        apr_thread_mutex_unlock(watch.mutex);
    }
}

/* ---- what the other two files of live updates reach ---- */

void rkm_watcher_lock(void)
{
    apr_thread_mutex_lock(watch.mutex);
}

void rkm_watcher_unlock(void)
{
    apr_thread_mutex_unlock(watch.mutex);
}

void rkm_watcher_wait(apr_thread_cond_t *cond, apr_interval_time_t timeout)
{
    apr_thread_cond_timedwait(cond, watch.mutex, timeout);
}

int rkm_watcher_ready(void)
{
    return watch.ready;
}

int rkm_watcher_async_mpm(void)
{
    return watch.async_mpm;
}

int rkm_watcher_add_stream(listener *l, server_rec *s)
{
    rkm_watcher_lock();
    l->src = source_of(s);
    if (l->src->cursor >= 0 && l->src->cursor > l->last_id) {
        rkm_watcher_unlock();
        return 0;   /* records were dispatched meanwhile: replay them first */
    }
    if (l->src->cursor < 0) {
        l->src->cursor = l->last_id;
    }
    link_listener(l);
    rkm_watcher_unlock();
    return 1;
}

int rkm_watcher_add_poll(listener *l, server_rec *s, const char *epoch)
{
    int ok;

    rkm_watcher_lock();
    if ((ok = rkm_places_take(l)) != 0) {
        l->src = source_of(s);
        /* the data moved between the request's read of the revision and now? */
        /* (the watcher's own reading may be older than the request's: only a newer
         * revision, or another database, is a change) */
        l->epoch = epoch;
        l->changed = l->src->have_rev && (l->src->rev > l->rev
                                          || strcmp(l->src->epoch, epoch) != 0);
        link_listener(l);
        if (l->changed) {
            rkm_watcher_schedule(l);
        }
    }
    rkm_watcher_unlock();
    return ok;
}

void rkm_watcher_register_hooks(void)
{
    ap_hook_child_init(watcher_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}
