/* mod_ranking_watcher.c: live updates, the watcher thread of each child: the
 * databases that have listeners, their revision and change log read every tick (or
 * at once after a commit of this process), the clients that left (epoll), and the
 * ticks of the listeners (mod_ranking_listener.c).  The design of live updates:
 * mod_ranking_listener.h. */
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
#include "mod_ranking_listener.h"
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

/* The watcher's state. */
static struct {
    apr_thread_mutex_t *mutex;
    apr_thread_cond_t *wake;    /* the watcher's: poked by writes */
    apr_pool_t *pool;           /* sources live here */
    source *sources;
    int stop, poked, ready;
    apr_thread_t *thread;
    int async_mpm;
    int ep;                     /* epoll of the listeners' sockets: clients that left */
} watch;

static void poke(void);

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

/* The watcher's reading of the change log: the records after SRC's cursor. */
static void dispatch_change(void *baton, const rk_lane_change *c)
{
    source *src = baton;

    apr_thread_mutex_lock(watch.mutex);
    rkm_listeners_dispatch(src, c);
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
    int n, moved, had_rev;
    apr_int64_t cursor;

    if (rkm_db_open_bg(p, src->s, &db) != 0) {
        return;
    }
    if ((n = rkm_revision_read_bg(p, src->s, &db, &rev)) < 0) {
        rkm_db_close_bg(src->s, &db);
        return;
    }
    /* what the watcher knew of SRC: under the mutex, as a request's last listener
     * leaving (rkm_watcher_source_leave) makes it stale from another thread */
    apr_thread_mutex_lock(watch.mutex);
    had_rev = src->have_rev;
    moved = n > 0 && (!had_rev || strcmp(src->epoch, rev.epoch) != 0
                      || src->rev != rev.data);
    cursor = src->cursor;
    apr_thread_mutex_unlock(watch.mutex);
    /* the records after the cursor, a page at a time (dispatch_change moves it) */
    while (moved && cursor >= 0) {
        if (rkm_changes_since_bg(p, src->s, &db, cursor, dispatch_change, src)
            < RKM_CHANGES_PAGE) {
            break;
        }
        apr_thread_mutex_lock(watch.mutex);
        cursor = src->cursor;
        apr_thread_mutex_unlock(watch.mutex);
    }
    rkm_db_close_bg(src->s, &db);
    if (moved && had_rev) {
        rkm_changes_committed_elsewhere();   /* every child reads again */
    }
    if (n > 0) {
        apr_thread_mutex_lock(watch.mutex);
        rkm_listeners_moved(src, rev.data, rev.epoch);
        if (src->listeners > 0) {   /* else it went stale meanwhile */
            apr_cpystrn(src->epoch, rev.epoch, sizeof(src->epoch));
            src->rev = rev.data;
            src->have_rev = 1;
        }
        apr_thread_mutex_unlock(watch.mutex);
    }
}

/* End the listeners whose client closed its side (watch.mutex held: a listener is
 * taken out of the epoll set when it is unlinked, under the mutex, so every event
 * read here is of a listener still linked). */
static void gone(void)
{
    struct epoll_event evs[256];
    int k, j;

    while (watch.ep >= 0 && (k = epoll_wait(watch.ep, evs, 256, 0)) > 0) {
        for (j = 0; j < k; j++) {
            rkm_listener_hung_up(evs[j].data.ptr);
        }
        if (k < 256) {
            break;
        }
    }
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

        if (!watch.poked) {
            apr_thread_cond_timedwait(watch.wake, watch.mutex,
                                      rkm_listeners_closing() ? CLOSE_MARGIN : TICK);
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
        rkm_listeners_close_due(now);
        rkm_listeners_tick(now, state == AP_MPMQ_STOPPING);
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

int rkm_watcher_add_stream(rkm_listener *l, server_rec *s)
{
    source *src;
    apr_int64_t last = rkm_listener_last_id(l);

    rkm_watcher_lock();
    src = source_of(s);
    if (src->cursor >= 0 && src->cursor > last) {
        rkm_watcher_unlock();
        return 0;   /* records were dispatched meanwhile: replay them first */
    }
    if (src->cursor < 0) {
        src->cursor = last;
    }
    rkm_listener_link(l, src, 0);
    rkm_watcher_unlock();
    return 1;
}

int rkm_watcher_add_poll(rkm_listener *l, server_rec *s, apr_uint64_t rev, const char *epoch)
{
    int ok;

    rkm_watcher_lock();
    if ((ok = rkm_places_take(rkm_listener_async(l), rkm_listener_conn(l))) != 0) {
        source *src = source_of(s);

        /* the data moved between the request's read of the revision and now? */
        /* (the watcher's own reading may be older than the request's: only a newer
         * revision, or another database, is a change) */
        rkm_listener_link(l, src, src->have_rev && (src->rev > rev
                                                   || strcmp(src->epoch, epoch) != 0));
    }
    rkm_watcher_unlock();
    return ok;
}

int rkm_watcher_epoll(void)
{
    return watch.ep;
}

void rkm_watcher_source_join(rkm_source *src)
{
    src->listeners++;
}

void rkm_watcher_source_leave(rkm_source *src)
{
    if (--src->listeners == 0) {
        /* nobody watches it any more: what the watcher knew of it goes stale */
        src->have_rev = 0;
        src->cursor = -1;
    }
}

void rkm_watcher_register_hooks(void)
{
    ap_hook_child_init(watcher_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}
