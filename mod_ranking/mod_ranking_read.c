/* mod_ranking_read.c: the read path.  The answer of a read route depends on the route
 * and the data only: one strong ETag per data revision of the database (one lane's
 * answer: that lane's own tag); answers are built once per revision and cached
 * (mod_ranking_cache.c), and the preconditions (If-Match 412, If-None-Match 304) are
 * decided once the answer is known to exist. */
#include "mod_ranking_read.h"
#include "mod_ranking_board.h"
#include "mod_ranking_cache.h"
#include "mod_ranking_live.h"
#include "rk_cache.h"
#include "rk_cond.h"
#include "rk_gzip.h"
#include "rk_json.h"
#include "rk_live.h"
#include "rk_query.h"

/* The rows are read into a pool with an allocator of its own, destroyed before
 * returning: a large list leaves nothing behind in the request's pool, whose
 * allocator would keep the freed memory for later requests of the connection (up to
 * MaxMemFree each), nor in malloc arenas, where a JSON tree of it used to be built.
 * The answer is written straight from the rows (rk_json_answer): sized, then written. */
void *rk_build_answer(request_rec *r, rk_db *db, const rk_route *route, const char *key,
                      int *status, size_t *len)
{
    const rk_route_def *def = rk_route_def_of(route->id);
    const rk_resource *res = def->res;
    /* a list's statement selects the parent's id first: its row is there (with NULL
     * child columns) when the parent exists without children */
    int skip = def->list && route->id != RK_ROUTE_COMPETITIONS;
    int nf = res->nfields, found = 0, i;
    const char *args[RK_MAX_IDS];
    apr_pool_t *p;
    apr_array_header_t *vals;
    apr_dbd_results_t *rs = NULL;
    apr_dbd_row_t *row = NULL;
    char *out = NULL;

    *status = HTTP_INTERNAL_SERVER_ERROR;
    if (!(p = rk_db_rows_pool(r))) {
        return NULL;
    }
    vals = apr_array_make(p, 64, nf * (int)sizeof(const char *));   /* one row each */
    rk_route_args(route, args);
    if (rk_db_select(r, p, db, def->query, args, &rs) != 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
        apr_pool_destroy(p);
        return NULL;
    }
    /* keep the values: a driver may reuse a row's memory for the next */
    while (apr_dbd_get_row(db->dbd->driver, p, rs, &row, -1) == 0) {
        const char **v;

        found = 1;
        if ((!def->list && vals->nelts) || (skip && !rk_db_col(db, row, skip))) {
            continue;   /* drain; or the parent without children */
        }
        v = apr_array_push(vals);
        for (i = 0; i < nf; i++) {
            const char *c = rk_db_col(db, row, skip + i);
            v[i] = c ? apr_pstrdup(p, c) : NULL;
        }
    }
    /* zero rows: what the path names does not exist; but the top-level list, which
     * has no parent, is only empty */
    if (!found && route->id != RK_ROUTE_COMPETITIONS) {
        *status = HTTP_NOT_FOUND;
    }
    else {
        const char *const *rows = (const char *const *)vals->elts;   /* one after the other */

        *len = rk_json_answer(NULL, res, def->list, rows, (size_t)vals->nelts);
        if ((out = rk_cache_value_new(key, *len)) != NULL) {
            rk_json_answer(out, res, def->list, rows, (size_t)vals->nelts);
            *status = HTTP_OK;
        }
    }
    apr_pool_destroy(p);
    return out;
}

/* The answer cache's key of a read: the database, the route, its ids and the
 * query parameters that change the answer. */
static const char *answer_key(request_rec *r, const rk_req *rq, const char *division)
{
    const char *key = apr_pstrcat(r->pool, rq->rev.epoch, "|", rk_route_name(rq->route.id), NULL);
    int i;

    for (i = 0; i < rq->route.nids; i++) {
        key = apr_pstrcat(r->pool, key, "/", rq->route.ids[i], NULL);
    }
    return division ? apr_pstrcat(r->pool, key, "?division=", division, NULL) : key;
}

/* A long poll's answer once it has waited: the revision read again, the new answer
 * (200) or still the same ETag (304). */
static int reread(request_rec *r, rk_req *rq)
{
    rq->have_rev = 0;
    rq->waited = 1;
    apr_table_unset(r->headers_out, "ETag");
    return rk_read(r, rq);
}

/* The strong ETag of a lane's answer V (one voie or line): the lane's own tag, which
 * changes only when that lane changes (rk_lane_etag), so that a conditional write is
 * not refused because another lane of a busy competition changed.  NULL when V is not
 * of the expected shape (never, for answers of rk_json_answer). */
static const char *lane_answer_etag(request_rec *r, const char *epoch, const void *v, size_t len)
{
    const char *obj;
    size_t n;
    char *out = apr_palloc(r->pool, RK_LANE_ETAG_MAX);

    if (rk_answer_object(v, len, &obj, &n) != 0) {
        return NULL;
    }
    return rk_lane_etag(epoch, obj, n, out);
}

static int is_lane_route(rk_route_id id)
{
    return id == RK_ROUTE_A_VOIE || id == RK_ROUTE_B_LINE;
}

/* Order: the answer is found (cache) or built first, so that a resource that does not
 * exist is 404 whatever the preconditions say (a 304 or a 412 would tell a client that
 * something is there); then If-Match (412) and If-None-Match (304, or a long poll).
 * An answer is built once per data revision: a 304 costs a cache lookup. */
/* The gzip coding of VALUE (LEN bytes, the answer cached under KEY for revision
 * REV), from the answer cache or made now and cached beside it under KEY "|gzip":
 * built once per revision like the plain answer.  NULL (logged) when it cannot be
 * made: the caller sends VALUE as it is. */
static const void *gzipped(request_rec *r, const char *key, apr_uint64_t rev, const void *value,
                           size_t len, size_t *gzlen)
{
    const char *gzkey = apr_pstrcat(r->pool, key, "|gzip", NULL);
    const void *gz;
    apr_thread_mutex_t *lock;
    void *made, *buf;
    size_t n;

    if ((gz = rk_answer_acquire(gzkey, rev, gzlen)) != NULL) {
        return gz;
    }
    lock = rk_build_lock(gzkey);
    if (lock && (gz = rk_answer_acquire(gzkey, rev, gzlen)) != NULL) {
        rk_build_unlock(lock);
        return gz;
    }
    made = NULL;
    if ((buf = malloc(rk_gzip_bound(len))) != NULL) {
        if ((n = rk_gzip(value, len, buf, 6)) > 0 && (made = rk_cache_value_new(gzkey, n)) != NULL) {
            memcpy(made, buf, n);
            *gzlen = n;
            rk_answer_insert(rev, made);
        }
        free(buf);
    }
    rk_build_unlock(lock);
    if (!made) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "cannot gzip an answer of %" APR_SIZE_T_FMT
                      " bytes: sent as it is", len);
    }
    return made;
}

int rk_read(request_rec *r, rk_req *rq)
{
    const rk_route_def *def = rk_route_def_of(rq->route.id);
    const char *key, *division = NULL, *etag, *plain;
    const void *value;
    void *built = NULL;
    size_t len = 0, gzlen = 0;
    int status, rv, enc, gz;
    rk_cond cond;
    apr_thread_mutex_t *lock;
    rk_db db;

    /* the answer's coding depends on Accept-Encoding, whatever the answer */
    if (!rq->waited) {   /* (a long poll's second turn has it already) */
        apr_table_mergen(r->headers_out, "Vary", "Accept-Encoding");
    }
    if ((rv = rk_db_open(r, &db)) != OK) {
        return rk_send_status(r, rv);
    }
    if (def->answer == RK_ANSWER_BOARD) {
        size_t n = r->args ? strlen(r->args) + 1 : 1;

        /* a bad query of a path that exists is 400; of one that does not, 404 */
        if (rk_query_get(r->args, "division", apr_palloc(r->pool, n), n, &division) < 0) {
            rv = rk_board_exists(r, &db, &rq->route);
            return rv == OK ? rk_send_error(r, HTTP_BAD_REQUEST, "Invalid query")
                            : rk_send_status(r, rv);
        }
    }
    if (rk_request_revision(r, &db, rq) != 0) {
        return rk_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    key = answer_key(r, rq, division);
    if ((value = rk_answer_acquire(key, rq->rev.data, &len)) == NULL) {
        /* one build per key at a time: built by another thread while this one waited? */
        lock = rk_build_lock(key);
        if (!lock || (value = rk_answer_acquire(key, rq->rev.data, &len)) == NULL) {
            built = def->answer == RK_ANSWER_BOARD
                    ? rk_board_build(r, &db, &rq->route, division, key, &status, &len)
                    : rk_build_answer(r, &db, &rq->route, key, &status, &len);
            if (built) {
                /* the cache takes a reference of its own: ours goes with the answer */
                rk_answer_insert(rq->rev.data, built);
            }
            value = built;
        }
        rk_build_unlock(lock);
        if (!value) {
            return rk_send_status(r, status);   /* 404 (or 503, 500) first */
        }
    }
    /* one strong ETag per data revision, and per parameter set; a lane's own */
    if (is_lane_route(rq->route.id)) {
        etag = lane_answer_etag(r, rq->rev.epoch, value, len);
    }
    else {
        etag = apr_psprintf(r->pool, "\"%s-%" APR_UINT64_T_FMT, rq->rev.epoch, rq->rev.data);
        etag = division ? apr_psprintf(r->pool, "%s-d%08x\"", etag, rk_cache_hash(division))
                        : apr_pstrcat(r->pool, etag, "\"", NULL);
    }
    if (!etag) {
        rk_cache_release(value);
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "a lane answer of an unexpected shape");
        return rk_send_status(r, HTTP_INTERNAL_SERVER_ERROR);
    }
    /* the coding: gzip from RK_GZIP_MIN bytes when the client allows it (or when it
     * refuses the answer as it is), with an ETag of its own */
    enc = rk_accept_encoding(apr_table_get(r->headers_in, "Accept-Encoding"));
    gz = (enc & RK_ENC_GZIP) && (len >= RK_GZIP_MIN || !(enc & RK_ENC_IDENTITY));
    if (!gz && !(enc & RK_ENC_IDENTITY)) {
        rk_cache_release(value);
        return rk_send_error(r, HTTP_NOT_ACCEPTABLE, "Not acceptable");
    }
    plain = etag;
    if (gz) {
        etag = apr_pstrcat(r->pool, apr_pstrndup(r->pool, etag, strlen(etag) - 1), "-gzip\"", NULL);
    }
    cond = rk_cond_eval(apr_table_get(r->headers_in, "If-Match"),
                        apr_table_get(r->headers_in, "If-None-Match"), etag, 1);
    if (cond == RK_COND_FAILED) {
        rk_cache_release(value);
        return rk_send_status(r, HTTP_PRECONDITION_FAILED);
    }
    apr_table_setn(r->headers_out, "ETag", etag);
    if (cond == RK_COND_NOT_MODIFIED) {
        int wait = rq->waited ? 0 : rk_prefer_wait(apr_table_get(r->headers_in, "Prefer"));

        rk_cache_release(value);
        /* a long poll: If-None-Match holds the current ETag, wait for a change */
        if (wait > 0 && apr_table_get(r->headers_in, "If-None-Match")) {
            return rk_live_wait(r, rq, wait, reread);
        }
        r->status = HTTP_NOT_MODIFIED;
        return OK;
    }
    if (gz) {
        const void *z = gzipped(r, key, rq->rev.data, value, len, &gzlen);

        if (z) {
            rk_cache_release(value);
            apr_table_setn(r->headers_out, "Content-Encoding", "gzip");
            return rk_send_value(r, z, gzlen);
        }
        apr_table_setn(r->headers_out, "ETag", plain);   /* sent as it is */
    }
    return rk_send_value(r, value, len);
}
