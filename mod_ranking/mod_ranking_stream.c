/* mod_ranking_stream.c: live updates, the request side: the event stream of a
 * competition (GET /competition/{c}/events) and the long poll of read routes, their
 * listener made (mod_ranking_parked.c) and registered with the watcher
 * (mod_ranking_watcher.c), and the answers that refuse one.  A listener then goes on
 * parked (mod_ranking_parked.c) or holding its thread (rkm_listener_hold).  See
 * mod_ranking_listener.h for the design. */
#include "mod_ranking_stream.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_config.h"
#include "mod_ranking_db.h"
#include "mod_ranking_listener.h"
#include "mod_ranking_parked.h"
#include "mod_ranking_places.h"
#include "mod_ranking_request.h"
#include "mod_ranking_view.h"
#include "mod_ranking_watcher.h"
#include "rk_sse.h"

/* ---- registering ---- */

static int busy(request_rec *r)
{
    apr_table_setn(r->headers_out, "Retry-After", "5");
    ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "too many event streams and long polls "
                  "(RankingEventListeners): answered 503");
    return rkm_send_error(r, HTTP_SERVICE_UNAVAILABLE, NULL);
}

/* Park the request when the MPM can (and it is not an HTTP/2 stream). */
static int can_park(request_rec *r)
{
    return rkm_watcher_async_mpm() && !r->connection->master && r->invoke_mtx;
}

/* ---- the event stream ---- */

/* What a replay gathers: the events of a page of records, malloc()ed. */
typedef struct {
    rkm_listener *l;
    char *text;
    size_t n;
    int failed;
} replay_page;

static void replay_change(void *baton, const rk_lane_change *change)
{
    replay_page *pg = baton;
    const rk_lane_change *ch = change;
    rk_lane_change pub;
    size_t k;
    char *bigger, *pub_lane = NULL;

    if (pg->failed) {
        return;
    }
    if (rkm_listener_published(pg->l)) {   /* the published view's event, if any */
        switch (rk_sse_published(change, &pub, &pub_lane)) {
        case -1:
            pg->failed = 1;
            return;
        case 0:
            rkm_listener_set_last_id(pg->l, apr_atoi64(change->id));
            return;
        }
        ch = &pub;
    }
    k = rk_sse_lane_event(NULL, ch, rkm_listener_key(pg->l));
    if (!(bigger = realloc(pg->text, pg->n + k))) {
        free(pub_lane);
        pg->failed = 1;
        return;
    }
    pg->text = bigger;
    rk_sse_lane_event(pg->text + pg->n, ch, rkm_listener_key(pg->l));
    free(pub_lane);
    pg->n += k;
    rkm_listener_set_last_id(pg->l, apr_atoi64(ch->id));
}

/* Write the records of COMPETITION after L's last id, up to the newest (a page at
 * a time).  0, or the status to answer (nothing sent yet) / -1 (the client is gone). */
static int replay(request_rec *r, rkm_db *db, rkm_listener *l, apr_int64_t competition)
{
    for (;;) {
        replay_page pg = { l, NULL, 0, 0 };
        apr_pool_t *p;
        int got;

        if (!(p = rkm_db_rows_pool(r))) {
            return HTTP_INTERNAL_SERVER_ERROR;
        }
        got = rkm_changes_replay(r, p, db, competition, rkm_listener_last_id(l), replay_change,
                                 &pg);
        apr_pool_destroy(p);
        if (got < 0 || pg.failed) {
            free(pg.text);
            return got < 0 ? HTTP_SERVICE_UNAVAILABLE : HTTP_INTERNAL_SERVER_ERROR;
        }
        if (pg.n && rkm_parked_send(l, pg.text, pg.n) != 0) {
            return -1;
        }
        if (!pg.n) {
            free(pg.text);
        }
        if (got < RKM_CHANGES_PAGE) {
            return 0;
        }
    }
}

/* The head of an event stream's answer (ON), or back to that of an error answer
 * (the stream was refused before anything was sent). */
static void stream_head(request_rec *r, int on)
{
    if (!on) {
        apr_table_unset(r->headers_out, "X-Accel-Buffering");
        apr_table_setn(r->headers_out, "Cache-Control", "private, no-cache");
        return;
    }
    r->status = HTTP_OK;
    ap_set_content_type(r, "text/event-stream");
    rkm_parked_hold_head(r);
    /* in place of the "private, no-cache" of authenticated answers */
    apr_table_setn(r->headers_out, "Cache-Control", "no-cache");
    apr_table_setn(r->headers_out, "X-Accel-Buffering", "no");
}

int rkm_events(request_rec *r, rkm_req *rq)
{
    rkm_listener *l;
    rkm_db db;
    const char *args[RK_MAX_IDS], *found[1];
    apr_int64_t last = 0, competition;
    int rv, resume, published;

    /* the view: a reader's and an anonymous spectator's stream is the published one */
    if ((rv = rkm_view_of(r, rq, &published)) != 0) {
        return rv == HTTP_BAD_REQUEST ? rkm_send_error(r, rv, "Invalid query")
               : rkm_send_status(r, rv);
    }
    if (!rk_sse_accepts(apr_table_get(r->headers_in, "Accept"))) {
        return rkm_send_status(r, HTTP_NOT_ACCEPTABLE);
    }
    if ((rv = rkm_db_open(r, &db)) != OK) {
        return rkm_send_status(r, rv);
    }
    rk_route_args(&rq->route, args);
    switch (rkm_db_select_one(r, &db, RK_Q_COMPETITION, args, found, 1)) {
    case -1: return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    case 0:  return rkm_send_status(r, HTTP_NOT_FOUND);
    }
    /* a malformed Last-Event-ID is ignored: the stream starts with the next change */
    resume = rk_sse_last_event_id(apr_table_get(r->headers_in, "Last-Event-ID"), &last) == 1;
    if (!rkm_watcher_ready()) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    if (r->header_only) {
        stream_head(r, 1);
        return OK;
    }
    if (!(l = rkm_parked_listener(r, 1, can_park(r)))) {
        return rkm_send_status(r, HTTP_INTERNAL_SERVER_ERROR);
    }
    competition = apr_atoi64(rq->route.ids[RK_ID_COMPETITION]);
    rkm_listener_set_stream(l, competition,
                            (rkm_config_variants(r) & RK_VARIANT_A) ? "voie" : "line");
    rkm_listener_set_published(l, published);
    rkm_watcher_lock();
    rv = rkm_places_take(rkm_listener_async(l), rkm_listener_conn(l));
    rkm_watcher_unlock();
    if (!rv) {
        return busy(r);
    }
    stream_head(r, 1);
    if (!resume && rkm_changes_newest(r, &db, &last) != 0) {
        rv = HTTP_SERVICE_UNAVAILABLE;
        goto refused;
    }
    rkm_listener_set_last_id(l, last);
    /* the stream is open: a comment now, so that the client knows it */
    {
        static const char hello[] = "retry: 2000\n: mod_ranking events\n\n";
        char *t = malloc(sizeof(hello) - 1);

        if (!t || (memcpy(t, hello, sizeof(hello) - 1), rkm_parked_send(l, t, sizeof(hello) - 1)) != 0) {
            rv = -1;
            goto refused;
        }
    }
    /* register; records the watcher dispatched before this listener was there are
     * replayed from the database first */
    do {
        if ((rv = replay(r, &db, l, competition)) != 0) {
            goto refused;
        }
    } while (!rkm_watcher_add_stream(l, r->server));
    /* the stream needs no database connection of its own from now on (the watcher
     * reads the change log with its own): give it back, or every open stream would
     * hold one */
    rkm_db_put(r);
    if (rkm_listener_async(l)) {
        return rkm_parked_park(l);
    }
    rkm_listener_hold(l);
    return OK;

refused:
    rkm_watcher_lock();
    rkm_places_give(rkm_listener_async(l), rkm_listener_conn(l));
    rkm_watcher_unlock();
    if (rv > 0) {
        stream_head(r, 0);   /* nothing sent yet: an error answer like any other */
        return rkm_send_status(r, rv);
    }
    return OK;
}

/* ---- the long poll ---- */

int rkm_stream_wait(request_rec *r, rkm_req *rq, int seconds)
{
    rkm_listener *l;

    if (!rkm_watcher_ready() || !(l = rkm_parked_listener(r, 0, can_park(r)))) {
        rq->waited = 1;
        return RKM_WAIT_OVER;   /* answer at once: the client polls again */
    }
    rkm_listener_set_poll(l, rq->rev.data, rq->rev.epoch,
                          r->request_time + apr_time_from_sec(seconds));
    apr_table_setn(r->headers_out, "Preference-Applied",
                   apr_psprintf(r->pool, "wait=%d", seconds));
    if (!rkm_watcher_add_poll(l, r->server, rq->rev.data, rq->rev.epoch)) {
        return busy(r);
    }
    /* no database connection while waiting: the answer takes one again */
    rkm_db_put(r);
    /* the request is answered once it has waited: by the read path again, on this
     * thread (RKM_WAIT_OVER) or at the parked request's turn (mod_ranking_parked.c) */
    rq->waited = 1;
    if (rkm_listener_async(l)) {
        return rkm_parked_park(l);
    }
    rkm_listener_hold(l);
    return RKM_WAIT_OVER;
}
