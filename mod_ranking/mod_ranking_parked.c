/* mod_ranking_parked.c: live updates, a listener's connection: the head of a stream's
 * answer held until its first write, the listener's writes, and, with the event MPM,
 * the parked connection: the MPM's hand-over (suspend_connection hook), its turns on
 * the MPM's worker threads (scheduled by mod_ranking_listener.c), the
 * stream detached from its request, and its end.  See mod_ranking_listener.h for the
 * design and the MPM's races this code keeps clear of. */
#include "ap_mpm.h"
#include "mpm_common.h"
#include "util_filter.h"

#include "mod_ranking_parked.h"
#include "mod_ranking_handler.h"
#include "mod_ranking_listener.h"

/* ---- the head of a stream's answer ---- */

/* The head of a stream's answer, held until the first FLUSH.  httpd's HTTP_HEADER
 * filter passes the head on its own, before the body; the core output filter, seeing
 * a few hundred bytes and no FLUSH, sets them aside in a pool it creates for that
 * (deferred_write, a child of the connection's pool), which then stays with the
 * connection: a page of memory per parked stream for nothing.  Held here, the head
 * reaches the core with the first event text and its FLUSH and is written at once.
 * After the CHUNK filter (added by HTTP_HEADER once the head has gone by), so that
 * the held head is not chunked; removes itself at the first FLUSH. */
static ap_filter_rec_t *hold_head_filter;

static apr_status_t hold_head(ap_filter_t *f, apr_bucket_brigade *bb)
{
    apr_bucket_brigade *held = f->ctx;
    apr_bucket *e;

    for (e = APR_BRIGADE_FIRST(bb); e != APR_BRIGADE_SENTINEL(bb); e = APR_BUCKET_NEXT(e)) {
        if (APR_BUCKET_IS_FLUSH(e) || APR_BUCKET_IS_EOS(e)) {
            break;
        }
    }
    if (e == APR_BRIGADE_SENTINEL(bb)) {
        apr_status_t rv = ap_save_brigade(f, &held, &bb, f->r->pool);

        f->ctx = held;
        apr_brigade_cleanup(bb);
        return rv;
    }
    if (held) {
        APR_BRIGADE_PREPEND(bb, held);
    }
    ap_remove_output_filter(f);
    return ap_pass_brigade(f->next, bb);
}

/* Give back to the system the memory that the connection of a request about to be
 * parked keeps for reuse.  The MPM's transaction pool (c->pool, the request's pool
 * is its child) has an allocator of its own that keeps freed blocks up to
 * MaxMemFree (2 MB by default) for the next request of the connection: the blocks
 * of the input buffers and of what was freed while the request was read and
 * handled, which a parked stream, having no next request, would keep for its whole
 * life.  From now on the allocator keeps nothing; the blocks it already holds are
 * taken out and freed through the public API: apr_allocator_alloc() hands out the
 * ones it keeps first, then new ones (mapped and unmapped at once, a few
 * microseconds).  Measured at the moment a stream parks: 1 to 3 blocks kept (8 KiB
 * each).  The connection's pool is destroyed when the stream or the long poll ends
 * (finish_parked, finish_detached), never reused, so the setting dies with it.
 * Only a pool that owns its allocator (the event MPM's ptrans): another allocator
 * may be shared. */
#define KEPT_BLOCKS_MAX 4

static void give_back_kept_memory(conn_rec *c)
{
    apr_allocator_t *a = apr_pool_allocator_get(c->pool);
    apr_memnode_t *taken = NULL, *n;
    int i;

    if (!a || apr_allocator_owner_get(a) != c->pool) {
        return;
    }
    apr_allocator_max_free_set(a, 1);   /* less than a block: none is kept */
    for (i = 0; i < KEPT_BLOCKS_MAX && (n = apr_allocator_alloc(a, 1)) != NULL; i++) {
        n->next = taken;
        taken = n;
    }
    if (taken) {
        apr_allocator_free(a, taken);
    }
}

/* A listener's connection, in the listener's block (rkm_listener_side). */
typedef struct {
    request_rec *r;             /* NULL once a parked stream is detached */
    int chunked;                /* detached: its answer is chunked (HTTP/1.1) */
    apr_bucket_brigade *bb;     /* stream: reused by every write (in r's pool, then,
                                   once detached, in c's) */
} conn_side;

/* The MPM has parked the connection of C (event MPM, notify_suspend: its thread is
 * done with the request, but for two stores into the connection's state that follow
 * this hook).  When C is a listener's, its turns may begin: the first one now. */
static void suspended(conn_rec *c, request_rec *r)
{
    rkm_conn_state *st = rkm_conn_state_of(c, 0);
    rkm_listener *l = st ? st->listener : NULL;
    conn_side *cs;

    (void)r;   /* may be freed already: a turn can end the request before this */
    if (!l) {
        return;
    }
    st->listener = NULL;
    cs = rkm_listener_side(l);
    /* a stream's first turn detaches it from its request (no turn runs before this) */
    rkm_listener_parked(l, cs->r != NULL);
}

/* The connection of L is freed before the MPM parked it: the MPM closed it itself
 * (it does when c->aborted is set as the handler returns SUSPENDED, which our writes
 * before parking rule out).  L must not stay linked to a freed connection. */
static apr_status_t unparked(void *data)
{
    /* L itself goes with its request's pool, freed next */
    rkm_listener_unparked(data);
    return APR_SUCCESS;
}

/* Hand L's connection to the MPM's end of a SUSPENDED request (suspended());
 * the handler returns SUSPENDED next. */
int rkm_parked_park(rkm_listener *l)
{
    conn_rec *c = rkm_listener_conn(l);

    apr_pool_pre_cleanup_register(c->pool, l, unparked);
    rkm_conn_state_of(c, 1)->listener = l;
    give_back_kept_memory(c);
    return SUSPENDED;
}

void rkm_parked_register_hooks(void)
{
    ap_hook_suspend_connection(suspended, NULL, NULL, APR_HOOK_MIDDLE);
    /* a request filter after CHUNK (AP_FTYPE_TRANSCODE) */
    hold_head_filter = ap_register_output_filter("RANKING_HOLD_HEAD", hold_head, NULL,
                                                 AP_FTYPE_TRANSCODE + 1);
}

/* Send TEXT (malloc()ed, taken over) and flush.  0, or -1 when the client is gone or
 * the write failed.  A parked stream's write waits at most WRITE_TIMEOUT.  Through
 * the request's filters; once detached, through the connection's, as a chunk of its
 * own making when the answer is chunked. */
int rkm_parked_send(rkm_listener *l, char *text, size_t n)
{
    conn_side *cs = rkm_listener_side(l);
    conn_rec *c = rkm_listener_conn(l);
    apr_socket_t *sock = !rkm_listener_async(l) || c->master ? NULL : ap_get_conn_socket(c);
    apr_interval_time_t before = 0;
    apr_status_t rv;
    int framed = !cs->r && cs->chunked;

    if (!cs->bb) {
        cs->bb = apr_brigade_create(cs->r ? cs->r->pool : c->pool, c->bucket_alloc);
    }
    if (framed) {
        char size[24];
        apr_size_t k = apr_snprintf(size, sizeof(size), "%" APR_UINT64_T_HEX_FMT CRLF,
                                    (apr_uint64_t)n);

        APR_BRIGADE_INSERT_TAIL(cs->bb, apr_bucket_heap_create(size, k, NULL, c->bucket_alloc));
    }
    APR_BRIGADE_INSERT_TAIL(cs->bb, apr_bucket_heap_create(text, n, free, c->bucket_alloc));
    if (framed) {
        APR_BRIGADE_INSERT_TAIL(cs->bb, apr_bucket_immortal_create(CRLF, 2, c->bucket_alloc));
    }
    APR_BRIGADE_INSERT_TAIL(cs->bb, apr_bucket_flush_create(c->bucket_alloc));
    if (sock) {
        apr_socket_timeout_get(sock, &before);
        apr_socket_timeout_set(sock, WRITE_TIMEOUT);
    }
    rv = ap_pass_brigade(cs->r ? cs->r->output_filters : c->output_filters, cs->bb);
    if (sock) {
        apr_socket_timeout_set(sock, before);
    }
    apr_brigade_cleanup(cs->bb);
    rkm_listener_wrote(l);
    return rv == APR_SUCCESS && !c->aborted ? 0 : -1;
}

/* End a request that was parked, and its connection: the end of the answer,
 * flushed, httpd's own end of the request (its log line; its pool is freed once the
 * EOR bucket is written, hence the second FLUSH), then the connection's pool, which
 * closes the socket.  httpd 2.4's event MPM never takes a SUSPENDED connection back
 * (ap_mpm_resume_suspended is trunk only): left alone, the connection, its socket and
 * its memory would stay until the child exits, and the child's count of connections
 * (connections_above_limit, and a graceful stop waiting for it to reach 0) with them.
 * The MPM's own cleanups of that pool (ptrans) do its accounting, as when it closes a
 * connection itself. */
static void finish_parked(rkm_listener *l)
{
    conn_side *cs = rkm_listener_side(l);
    request_rec *r = cs->r;
    conn_rec *c = rkm_listener_conn(l);
    apr_bucket_brigade *bb;

    apr_pool_cleanup_kill(r->pool, l, rkm_listener_free);   /* L outlives r: rkm_listener_close */
    ap_finalize_request_protocol(r);
    bb = apr_brigade_create(c->pool, c->bucket_alloc);
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_flush_create(c->bucket_alloc));
    ap_pass_brigade(c->output_filters, bb);
    ap_process_request_after_handler(r);   /* r is gone after this */
    cs->r = NULL;
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_flush_create(c->bucket_alloc));
    ap_pass_brigade(c->output_filters, bb);
    apr_brigade_cleanup(bb);
    /* ap_process_request_after_handler set the state that the MPM's own end of a
     * request sets; the connection is still the suspended one the MPM counts (its
     * cleanup of the pool counts it out by that state) */
    if (c->cs) {
        c->cs->state = CONN_STATE_SUSPENDED;
    }
    rkm_listener_close(l);
}

/* Whether the parked stream of R can go on without its request: the filters of the
 * request left after its first FLUSH are httpd's own, with nothing more to do for a
 * stream (HTTP_HEADER, the byte-range filter and ours, RANKING_HOLD_HEAD, have
 * removed themselves; CHUNK's work is done by hand once detached; HTTP_OUTERROR and
 * CONTENT_LENGTH pass an unending answer through).  Any other, a filter that a
 * configuration added (compression, say), keeps the request and its pool. */
static int detachable(request_rec *r)
{
    static const char *const known[] = { "chunk", "http_outerror", "content_length", NULL };
    ap_filter_t *f;

    for (f = r->output_filters; f && f->r == r; f = f->next) {
        int i;

        for (i = 0; known[i] && strcasecmp(f->frec->name, known[i]) != 0; i++)
            ;
        if (!known[i]) {
            return 0;
        }
    }
    return 1;
}

/* End httpd's request of a parked stream, but not its connection: the request's log
 * line is written and its pool freed now (an EOR bucket and a FLUSH down the
 * connection's filters, as ap_process_request_after_handler and finish_parked do),
 * and the stream goes on as the connection's, writing its chunks itself (send_text)
 * and its last one (finish_detached).  A parked request would keep its pool (the
 * request's headers and configuration, and what was allocated while it was handled:
 * 10 KiB and more, three pages) for nothing that a stream still needs.  On a worker
 * thread, in the listener's first turn, once the handler that parked it has returned
 * (invoke_mtx, which the MPM holds until then). */
static void detach(rkm_listener *l)
{
    conn_side *cs = rkm_listener_side(l);
    request_rec *r = cs->r;
    conn_rec *c = rkm_listener_conn(l);

    cs->chunked = r->chunked;
    cs->r = NULL;
    cs->bb = apr_brigade_create(c->pool, c->bucket_alloc);   /* the request's goes */
    apr_pool_cleanup_kill(r->pool, l, rkm_listener_free);    /* L is the stream's now */
    APR_BRIGADE_INSERT_TAIL(cs->bb, ap_bucket_eor_create(c->bucket_alloc, r));
    APR_BRIGADE_INSERT_TAIL(cs->bb, apr_bucket_flush_create(c->bucket_alloc));
    ap_pass_brigade(c->output_filters, cs->bb);   /* r is gone after this */
    apr_brigade_cleanup(cs->bb);
}

/* End a detached stream and its connection: its last chunk, flushed (at most
 * WRITE_TIMEOUT), then the connection's pool, as finish_parked.  L goes with it. */
static void finish_detached(rkm_listener *l)
{
    conn_side *cs = rkm_listener_side(l);
    conn_rec *c = rkm_listener_conn(l);
    apr_bucket_brigade *bb = cs->bb;
    apr_socket_t *sock = ap_get_conn_socket(c);

    if (cs->chunked && !c->aborted) {
        APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_immortal_create("0" CRLF CRLF, 5, c->bucket_alloc));
    }
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_flush_create(c->bucket_alloc));
    if (sock) {
        apr_socket_timeout_set(sock, WRITE_TIMEOUT);
    }
    ap_pass_brigade(c->output_filters, bb);
    apr_brigade_cleanup(bb);
    cs->bb = NULL;
    rkm_listener_close(l);
}

/* A parked listener's turn, on a worker thread of the MPM (scheduled by the watcher,
 * mod_ranking_listener.c).  One turn of a listener at a time: its "scheduled" stays
 * set until its turn ends (the watcher registers none meanwhile), and a turn that
 * finds more to do at its end registers the next (rkm_listener_turn).  The first turn is registered by the MPM's own thread once it
 * is done with the request it parked (suspended()), never before: until then
 * that thread still reads and writes the connection's state, and a turn that wrote
 * (the client gone: c->aborted), ended the request (its state) or freed the
 * connection would race with it. */
static void callback(void *baton)
{
    rkm_listener *l = baton;
    conn_side *cs = rkm_listener_side(l);
    request_rec *r = cs->r;
    int stream = rkm_listener_is_stream(l), done;

    if (r) {
        apr_thread_mutex_lock(r->invoke_mtx);
        if (stream && detachable(r)) {
            apr_thread_mutex_unlock(r->invoke_mtx);
            detach(l);
            r = NULL;
        }
    }
    done = rkm_listener_turn(l);
    if (!r) {
        if (done) {
            finish_detached(l);
        }
        return;
    }
    if (done && !stream) {
        /* the connection is closed after the answer (finish_parked): say so */
        r->connection->keepalive = AP_CONN_CLOSE;
        /* the request is handed back: the read path, seeing it has waited, answers
         * it anew (the new answer, or 304) */
        rkm_handler_resume(r);
    }
    apr_thread_mutex_unlock(r->invoke_mtx);
    if (done) {
        finish_parked(l);
    }
}

/* ---- a listener ---- */

rkm_listener *rkm_parked_listener(request_rec *r, int stream, int async)
{
    rkm_listener *l = rkm_listener_new(r, stream, async, sizeof(conn_side), callback);

    if (l) {
        ((conn_side *)rkm_listener_side(l))->r = r;
    }
    return l;
}

void rkm_parked_hold_head(request_rec *r)
{
    ap_add_output_filter_handle(hold_head_filter, NULL, r, r->connection);
}
