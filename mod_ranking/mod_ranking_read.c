/* mod_ranking_read.c: the read path.  The answer of a read route depends on the route
 * and the data only: one strong ETag per data revision of the database (one lane's
 * answer: that lane's own tag); answers are built once per revision and cached
 * (mod_ranking_cache.c), and the preconditions (If-Match 412, If-None-Match 304) are
 * decided once the answer is known to exist. */
#include "mod_ranking_read.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_request.h"
#include "mod_ranking_leaderboard.h"
#include "mod_ranking_cache.h"
#include "mod_ranking_stream.h"
#include "rk_cache.h"
#include "rk_cond.h"
#include "rk_gzip.h"
#include "rk_json.h"
#include "rk_sse.h"
#include "rk_mem.h"
#include "rk_query.h"

/* The index of the field NAME of RES, or -1. */
static int field_index(const rk_resource *res, const char *name)
{
    int i;

    for (i = 0; i < res->nfields; i++) {
        if (strcmp(res->fields[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

/* Keep the rows of VALS (NF values each) that LQ's filters select, then the page LQ
 * asks for; the number of rows selected (before paging) into *TOTAL. */
static void filter_rows(apr_array_header_t *vals, int nf, const rk_resource *res,
                        const rk_list_query *lq, size_t *total)
{
    const char *want[3] = { lq->division, lq->status, lq->wod };
    int at[3] = { field_index(res, "division"), field_index(res, "status"),
                  field_index(res, "wod_id") };
    const char **row = (const char **)vals->elts, **keep = row;
    size_t n = (size_t)vals->nelts, kept = 0, i, first, count;
    int f;

    for (i = 0; i < n; i++, row += nf) {
        int ok = 1;

        for (f = 0; f < 3 && ok; f++) {
            ok = !want[f] || (at[f] >= 0 && row[at[f]] && strcmp(row[at[f]], want[f]) == 0);
        }
        if (ok) {
            memmove(keep + kept * (size_t)nf, row, (size_t)nf * sizeof(*row));
            kept++;
        }
    }
    *total = kept;
    first = lq->offset < 0 || (size_t)lq->offset > kept ? kept : (size_t)lq->offset;
    count = kept - first;
    if (lq->limit > 0 && (size_t)lq->limit < count) {
        count = (size_t)lq->limit;
    }
    memmove(keep, keep + first * (size_t)nf, count * (size_t)nf * sizeof(*keep));
    vals->nelts = (int)count;
}

/* The rows are read into a pool with an allocator of its own, destroyed before
 * returning: a large list leaves nothing behind in the request's pool, whose
 * allocator would keep the freed memory for later requests of the connection (up to
 * MaxMemFree each), nor in malloc arenas, where a JSON tree of it used to be built.
 * The answer is written straight from the rows (rk_json_answer): sized, then written. */
void *rkm_build_answer(request_rec *r, rkm_db *db, const rk_route *route, const char *key,
                      const rk_list_query *lq, int *status, size_t *len)
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
    if (!(p = rkm_db_rows_pool(r))) {
        return NULL;
    }
    vals = apr_array_make(p, 64, nf * (int)sizeof(const char *));   /* one row each */
    rk_route_args(route, args);
    if (rkm_db_select(r, p, db, def->query, args, &rs) != 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
        apr_pool_destroy(p);
        return NULL;
    }
    /* keep the values: a driver may reuse a row's memory for the next */
    while (apr_dbd_get_row(db->dbd->driver, p, rs, &row, -1) == 0) {
        const char **v;

        found = 1;
        if ((!def->list && vals->nelts) || (skip && !rkm_db_col(db, row, skip))) {
            continue;   /* drain; or the parent without children */
        }
        v = apr_array_push(vals);
        for (i = 0; i < nf; i++) {
            const char *c = rkm_db_col(db, row, skip + i);
            v[i] = c ? apr_pstrdup(p, c) : NULL;
        }
    }
    /* zero rows: what the path names does not exist; but the top-level list, which
     * has no parent, is only empty */
    if (!found && route->id != RK_ROUTE_COMPETITIONS) {
        *status = HTTP_NOT_FOUND;
    }
    else {
        const char *const *rows;
        size_t total = (size_t)vals->nelts;

        if (def->list && lq) {
            filter_rows(vals, nf, res, lq, &total);
        }
        rows = (const char *const *)vals->elts;   /* one after the other */
        *len = rk_json_answer(NULL, res, def->list, rows, (size_t)vals->nelts);
        if ((out = rk_cache_value_new(key, *len)) != NULL) {
            rk_json_answer(out, res, def->list, rows, (size_t)vals->nelts);
            /* the whole (filtered) list's length, for X-Total-Count */
            rk_cache_value_set_meta(out, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
            *status = HTTP_OK;
        }
    }
    apr_pool_destroy(p);
    return out;
}

/* The answer cache's key of a read: the database, the route, its ids and the
 * query parameters that change the answer. */
static const char *answer_key(request_rec *r, const rkm_req *rq, const char *division,
                              const rk_list_query *lq)
{
    const char *key = apr_pstrcat(r->pool, rq->rev.epoch, "|", rk_route_name(rq->route.id), NULL);
    int i;

    for (i = 0; i < rq->route.nids; i++) {
        key = apr_pstrcat(r->pool, key, "/", rq->route.ids[i], NULL);
    }
    if (lq && lq->given) {   /* the normalized parameters: their order does not matter */
        key = apr_pstrcat(r->pool, key, "?", lq->norm, NULL);
        division = lq->division;
    }
    return division ? apr_pstrcat(r->pool, key, strchr(key, '?') ? "&" : "?", "division=",
                                  division, NULL) : key;
}

/* The query parameters list route ID takes (0: not a list). */
static unsigned list_params(rk_route_id id)
{
    const rk_route_def *def = rk_route_def_of(id);

    if (!def || !def->list || def->answer != RK_ANSWER_ROWS) {
        return 0;
    }
    switch (id) {
    case RK_ROUTE_SPOTS:   return RK_QP_LIMIT | RK_QP_OFFSET | RK_QP_DIVISION;
    case RK_ROUTE_A_HEATS:
    case RK_ROUTE_B_HEATS: return RK_QP_LIMIT | RK_QP_OFFSET | RK_QP_STATUS | RK_QP_WOD;
    default:               return RK_QP_LIMIT | RK_QP_OFFSET;
    }
}

/* Makes the value under its key (rk_cache_value_new) for cached_or_built: NULL with
 * *STATUS when there is none. */
typedef void *(make_fn)(void *ctx, int *status, size_t *len);

/* The value of KEY for revision REV: from the answer cache, or made by MAKE and
 * cached, one making per key at a time in a child (a thread that waited for the
 * lock finds what the first one made).  NULL with *STATUS when there is none. */
static const void *cached_or_built(const char *key, apr_uint64_t rev, make_fn *make, void *ctx,
                                   size_t *len, int *status)
{
    apr_thread_mutex_t *lock;
    const void *value;
    void *made;

    if ((value = rkm_answer_acquire(key, rev, len)) != NULL) {
        return value;
    }
    lock = rkm_build_lock(key);
    if (!lock || (value = rkm_answer_acquire(key, rev, len)) == NULL) {
        if ((made = make(ctx, status, len)) != NULL) {
            /* the cache takes a reference of its own: ours goes with the answer */
            rkm_answer_insert(rev, made);
        }
        value = made;
    }
    rkm_build_unlock(lock);
    return value;
}

/* What an answer is built from (make_answer). */
typedef struct {
    request_rec *r;
    rkm_req *rq;
    rkm_db *db;
    const char *key, *division;
    const rk_list_query *lq;
} answer_ctx;

static void *make_answer(void *ctxv, int *status, size_t *len)
{
    answer_ctx *a = ctxv;
    int rv;

    if (!a->db->dbd && (rv = rkm_db_open(a->r, a->db)) != OK) {
        *status = rv;
        return NULL;
    }

    return rk_route_def_of(a->rq->route.id)->answer == RK_ANSWER_LEADERBOARD
           ? rkm_leaderboard_build(a->r, a->db, &a->rq->route, a->division, a->key, status, len)
           : rkm_build_answer(a->r, a->db, &a->rq->route, a->key, a->lq, status, len);
}

/* The answer of KEY for the request's revision, from the cache or built.  NULL with
 * *STATUS (404, 503, 500) when there is none. */
static const void *answer_of(request_rec *r, rkm_req *rq, rkm_db *db, const char *key,
                             const char *division, const rk_list_query *lq, size_t *len,
                             int *status)
{
    answer_ctx a = { r, rq, db, key, division, lq };
    const void *value;

    if (rq->rev_shared) {
        if ((value = rkm_answer_acquire(key, rq->rev.data, len)) != NULL) {
            return value;
        }
        /* to be built: from the database's rows, so with its counters (else a change
         * through another server would be shown under the former ETag) */
        if (rkm_request_revision_fresh(r, db, rq) != 0) {
            *status = HTTP_SERVICE_UNAVAILABLE;
            return NULL;
        }
    }
    return cached_or_built(key, rq->rev.data, make_answer, &a, len, status);
}

/* X-Total-Count on a list's answer (VALUE), and Link to the next page when LQ asks
 * for a page that is not the last. */
static void list_headers(request_rec *r, const void *value, const rk_list_query *lq)
{
    apr_uint64_t total = rk_cache_value_meta(value);

    apr_table_setn(r->headers_out, "X-Total-Count", apr_psprintf(r->pool, "%" APR_UINT64_T_FMT, total));
    if (lq->limit > 0 && (apr_uint64_t)(lq->offset + lq->limit) < total) {
        size_t n = (r->args ? strlen(r->args) : 0) + 32;
        char *q = apr_palloc(r->pool, n);

        if (rk_query_with_offset(r->args, lq->offset + lq->limit, q, n) > 0) {
            apr_table_setn(r->headers_out, "Link", apr_psprintf(r->pool, "<%s?%s>; rel=\"next\"",
                           r->parsed_uri.path ? r->parsed_uri.path : r->uri, q));
        }
    }
}

/* The strong ETag of a single resource's answer V (a competition, WOD, spot, zone,
 * heat, voie or line): the resource's own tag, which changes only when what is shown
 * of it changes (rk_lane_etag, rk_resource_etag), so that a conditional write is not
 * refused because something else of a busy competition changed.  NULL when V is not
 * of the expected shape (never, for answers of rk_json_answer). */
static const char *own_answer_etag(request_rec *r, rk_route_id id, const char *epoch,
                                   const void *v, size_t len)
{
    const char *obj;
    size_t n;
    char *out = apr_palloc(r->pool, RK_LANE_ETAG_MAX);

    if (rk_answer_object(v, len, &obj, &n) != 0) {
        return NULL;
    }
    return id == RK_ROUTE_A_VOIE || id == RK_ROUTE_B_LINE ? rk_lane_etag(epoch, obj, n, out)
           : rk_resource_etag(epoch, obj, n, out);
}

/* One resource (not a list, a leaderboard or a stream): it has a tag of its own. */
static int has_own_etag(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d && !d->list && d->answer == RK_ANSWER_ROWS;
}

/* The strong ETag of the answer VALUE of KEY: one per data revision, and per
 * parameter set (DIVISION, LQ); a single resource's own (own_answer_etag).  NULL when its
 * answer is not of the expected shape. */
static const char *answer_etag(request_rec *r, const rkm_req *rq, const char *key,
                               const char *division, const rk_list_query *lq,
                               const void *value, size_t len)
{
    const char *etag;

    if (has_own_etag(rq->route.id)) {
        return own_answer_etag(r, rq->route.id, rq->rev.epoch, value, len);
    }
    etag = apr_psprintf(r->pool, "\"%s-%" APR_UINT64_T_FMT, rq->rev.epoch, rq->rev.data);
    return division ? apr_psprintf(r->pool, "%s-d%08x\"", etag, rk_cache_hash(division))
           : lq->given ? apr_psprintf(r->pool, "%s-q%08x\"", etag, rk_cache_hash(strchr(key, '?')))
           : apr_pstrcat(r->pool, etag, "\"", NULL);
}

/* What a gzip coding is made of (make_gzip): the plain answer. */
typedef struct {
    request_rec *r;
    const char *gzkey;
    const void *value;
    size_t len;
} gzip_ctx;

static void *make_gzip(void *ctxv, int *status, size_t *len)
{
    gzip_ctx *g = ctxv;
    void *made = NULL, *buf;
    size_t n;

    /* rk_mem: a buffer of the answer's size is a mapping of its own (rk_mem.h) */
    if ((buf = rk_mem_alloc(rk_gzip_bound(g->len))) != NULL) {
        if ((n = rk_gzip(g->value, g->len, buf, 6)) > 0
            && (made = rk_cache_value_new(g->gzkey, n)) != NULL) {
            memcpy(made, buf, n);
            *len = n;
        }
        rk_mem_free(buf);
    }
    if (!made) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, g->r, "cannot gzip an answer of %"
                      APR_SIZE_T_FMT " bytes: sent as it is", g->len);
        *status = HTTP_INTERNAL_SERVER_ERROR;
    }
    return made;
}

/* The gzip coding of VALUE (LEN bytes, the answer cached under KEY for revision
 * REV), cached beside it under KEY "|gzip": made once per revision like the plain
 * answer.  NULL (logged) when it cannot be made: the caller sends VALUE as it is. */
static const void *gzipped(request_rec *r, const char *key, apr_uint64_t rev, const void *value,
                           size_t len, size_t *gzlen)
{
    gzip_ctx g = { r, apr_pstrcat(r->pool, key, "|gzip", NULL), value, len };
    int status;

    return cached_or_built(g.gzkey, rev, make_gzip, &g, gzlen, &status);
}

/* Order: the answer is found (cache) or built first, so that a resource that does not
 * exist is 404 whatever the preconditions say (a 304 or a 412 would tell a client that
 * something is there); then If-Match (412) and If-None-Match (304, or a long poll).
 * An answer is built once per data revision: a 304 costs a cache lookup. */
int rkm_read(request_rec *r, rkm_req *rq)
{
    const rk_route_def *def = rk_route_def_of(rq->route.id);
    const char *key, *division = NULL, *etag, *plain;
    const void *value;
    size_t len = 0, gzlen = 0;
    int status, rv, enc, gz;
    unsigned qp = list_params(rq->route.id);
    rk_list_query lq;
    rk_cond cond;
    rkm_db db;

    memset(&lq, 0, sizeof(lq));
    if (rq->waited) {
        /* a long poll's answer once it has waited (mod_ranking_stream.c): the
         * revision read again, the new answer (200) or still the same ETag (304) */
        rq->have_rev = 0;
        apr_table_unset(r->headers_out, "ETag");
    }

    /* the answer's coding depends on Accept-Encoding, whatever the answer; in the
     * table of the other Vary values (Origin, Prefer), so that one Vary header names
     * them all: mod_cache reads only the first */
    if (!rq->waited) {   /* (a long poll's second turn has it already) */
        apr_table_mergen(r->err_headers_out, "Vary", "Accept-Encoding");
    }
    /* the connection is opened when the database is asked: an answer in the cache,
     * with the change counters shared by the children, needs none */
    memset(&db, 0, sizeof(db));
    if (def->answer == RK_ANSWER_LEADERBOARD) {
        size_t n = r->args ? strlen(r->args) + 1 : 1;

        /* a bad query of a path that exists is 400; of one that does not, 404 */
        if (rk_query_get(r->args, "division", apr_palloc(r->pool, n), n, &division) < 0) {
            if ((rv = rkm_db_open(r, &db)) == OK) {
                rv = rkm_leaderboard_exists(r, &db, &rq->route);
            }
            return rv == OK ? rkm_send_error(r, HTTP_BAD_REQUEST, "Invalid query")
                            : rkm_send_status(r, rv);
        }
    }
    if (rkm_request_revision(r, &db, rq) != 0) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    if (qp) {
        size_t n = 3 * ((r->args ? strlen(r->args) : 0) + 1);

        if (rk_list_query_parse(r->args, qp, apr_palloc(r->pool, n), n, &lq) < 0) {
            /* a bad query of a list that exists is 400; of one that does not, 404 */
            if ((value = answer_of(r, rq, &db, answer_key(r, rq, NULL, NULL), NULL, NULL,
                                   &len, &status)) == NULL) {
                return rkm_send_status(r, status);
            }
            rk_cache_release(value);
            return rkm_send_error(r, HTTP_BAD_REQUEST, "Invalid query");
        }
    }
    key = answer_key(r, rq, division, &lq);
    if ((value = answer_of(r, rq, &db, key, division, &lq, &len, &status)) == NULL) {
        return rkm_send_status(r, status);   /* 404 (or 503, 500) first */
    }
    etag = answer_etag(r, rq, key, division, &lq, value, len);
    if (!etag) {
        rk_cache_release(value);
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "a resource's answer of an unexpected shape");
        return rkm_send_status(r, HTTP_INTERNAL_SERVER_ERROR);
    }
    /* the coding: gzip from RK_GZIP_MIN bytes when the client allows it (or when it
     * refuses the answer as it is), with an ETag of its own */
    enc = rk_accept_encoding(apr_table_get(r->headers_in, "Accept-Encoding"));
    gz = (enc & RK_ENC_GZIP) && (len >= RK_GZIP_MIN || !(enc & RK_ENC_IDENTITY));
    if (!gz && !(enc & RK_ENC_IDENTITY)) {
        rk_cache_release(value);
        return rkm_send_error(r, HTTP_NOT_ACCEPTABLE, "Not acceptable");
    }
    plain = etag;
    if (gz) {
        etag = apr_pstrcat(r->pool, apr_pstrndup(r->pool, etag, strlen(etag) - 1), "-gzip\"", NULL);
    }
    cond = rk_cond_eval(apr_table_get(r->headers_in, "If-Match"),
                        apr_table_get(r->headers_in, "If-None-Match"), etag, 1);
    if (cond == RK_COND_FAILED) {
        rk_cache_release(value);
        return rkm_send_status(r, HTTP_PRECONDITION_FAILED);
    }
    apr_table_setn(r->headers_out, "ETag", etag);
    if (cond == RK_COND_NOT_MODIFIED) {
        int wait = rq->waited ? 0 : rk_prefer_wait(apr_table_get(r->headers_in, "Prefer"));

        rk_cache_release(value);
        /* a long poll: If-None-Match holds the current ETag, wait for a change */
        if (wait > 0 && apr_table_get(r->headers_in, "If-None-Match")) {
            rv = rkm_stream_wait(r, rq, wait);
            return rv == RKM_WAIT_OVER ? rkm_read(r, rq) : rv;
        }
        r->status = HTTP_NOT_MODIFIED;
        return OK;
    }
    if (qp) {
        list_headers(r, value, &lq);
    }
    if (gz) {
        const void *z = gzipped(r, key, rq->rev.data, value, len, &gzlen);

        if (z) {
            rk_cache_release(value);
            apr_table_setn(r->headers_out, "Content-Encoding", "gzip");
            return rkm_send_value(r, z, gzlen);
        }
        apr_table_setn(r->headers_out, "ETag", plain);   /* sent as it is */
    }
    return rkm_send_value(r, value, len);
}
