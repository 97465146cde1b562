/* mod_ranking_read.c: the read path.  The answer of a read route depends on the route,
 * the data and the view (mod_ranking_view.h): one strong ETag per data revision of the
 * database (one lane's answer: that lane's own tag; an answer of the published view
 * of a competition with publication 'validated': a hash of its content, so that a
 * judge's entry leaves it as it was); answers are built once per revision and view
 * and cached (mod_ranking_cache.c; the view is part of the key, so that an answer of
 * one view is never served to the other), and the preconditions (If-Match 412,
 * If-None-Match 304) are decided once the answer is known to exist. */
#include "mod_ranking_read.h"
#include "mod_ranking_read_etag.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_request.h"
#include "mod_ranking_leaderboard.h"
#include "mod_ranking_cache.h"
#include "mod_ranking_stream.h"
#include "mod_ranking_view.h"
#include "mod_ranking_rows.h"
#include "rk_cache.h"
#include "rk_cond.h"
#include "rk_gzip.h"
#include "rk_json.h"
#include "rk_sse.h"
#include "rk_mem.h"
#include "rk_query.h"

/* The answer cache's key of a read: the database, the route, its ids and the
 * query parameters that change the answer. */
#define DIVISION_LEN (sizeof("?division=") - 1)

static const char *answer_key(request_rec *r, const rkm_req *rq, const char *division,
                              const rk_list_query *lq)
{
    const char *name = rk_route_name(rq->route.id), *norm = NULL;
    size_t lens[RK_MAX_IDS], n, elen = strlen(rq->rev.epoch), nlen = strlen(name);
    size_t qlen = 0, dlen = 0;
    char *key, *k;
    int i;

    if (lq && lq->given) {   /* the normalized parameters: their order does not matter */
        norm = lq->norm;
        qlen = strlen(norm);
        division = lq->division;
    }
    dlen = division ? strlen(division) : 0;
    /* one piece: "EPOCH|NAME/ID/ID?NORM&division=DIVISION" */
    n = elen + 1 + nlen + (norm ? 1 + qlen : 0) + (division ? DIVISION_LEN + dlen : 0) + 1;
    for (i = 0; i < rq->route.nids; i++) {
        n += 1 + (lens[i] = strlen(rq->route.ids[i]));
    }
    k = key = apr_palloc(r->pool, n);
    memcpy(k, rq->rev.epoch, elen);
    k += elen;
    *k++ = '|';
    memcpy(k, name, nlen);
    k += nlen;
    for (i = 0; i < rq->route.nids; i++) {
        *k++ = '/';
        memcpy(k, rq->route.ids[i], lens[i]);
        k += lens[i];
    }
    if (norm) {
        *k++ = '?';
        memcpy(k, norm, qlen);
        k += qlen;
    }
    if (division) {
        memcpy(k, norm ? "&division=" : "?division=", DIVISION_LEN);
        memcpy(k + DIVISION_LEN, division, dlen);
        k += DIVISION_LEN + dlen;
    }
    *k = '\0';
    return key;
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
    int published;   /* the published view of a competition with publication 'validated' */
} answer_ctx;

static void *make_answer(void *ctxv, int *status, size_t *len)
{
    answer_ctx *a = ctxv;
    void *v;
    int rv;

    if (!a->db->dbd && (rv = rkm_db_open(a->r, a->db)) != OK) {
        *status = rv;
        return NULL;
    }
    v = rk_route_def_of(a->rq->route.id)->answer == RK_ANSWER_LEADERBOARD
        ? rkm_leaderboard_build(a->r, a->db, &a->rq->route, a->division, a->published, a->key,
                                status, len)
        : rkm_build_answer(a->r, a->db, &a->rq->route, a->key, a->lq, a->published, status, len);
    if (v && a->published) {   /* its ETag: its content (and X-Total-Count) */
        rk_cache_value_set_tag(v, rk_cache_hash_bytes(v, *len, rk_cache_value_meta(v)));
    }
    if (v) {   /* a single resource's ETag: its object's digest, once */
        rkm_answer_etag_prepare(a->rq->route.id, v, *len);
    }
    return v;
}

/* The value of KEY for the request's revision, from the cache or made by MAKE.  NULL
 * with *STATUS (404, 503, 500) when there is none. */
static const void *value_of(request_rec *r, rkm_req *rq, rkm_db *db, const char *key,
                            make_fn *make, void *ctx, size_t *len, int *status)
{
    const void *value;

    if (rq->quick) {   /* the caches only: what is not there, the normal path builds */
        if ((value = rkm_answer_acquire(key, rq->rev.data, len)) == NULL) {
            *status = HTTP_SERVICE_UNAVAILABLE;   /* (never sent: rkm_send_error) */
        }
        return value;
    }
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
    return cached_or_built(key, rq->rev.data, make, ctx, len, status);
}

/* The answer of KEY (of the PUBLISHED view, else the full one) for the request's
 * revision, from the cache or built.  NULL with *STATUS (404, 503, 500) when there is
 * none. */
static const void *answer_of(request_rec *r, rkm_req *rq, rkm_db *db, const char *key,
                             const char *division, const rk_list_query *lq, int published,
                             size_t *len, int *status)
{
    answer_ctx a = { r, rq, db, key, division, lq, published };

    return value_of(r, rq, db, key, make_answer, &a, len, status);
}

/* What a competition's publication is read with (make_publication). */
typedef struct {
    request_rec *r;
    rkm_db *db;
    const char *cid, *key;
} publication_ctx;

/* One byte: 'v' (publication 'validated'), 'i' (else, or no such competition). */
static void *make_publication(void *ctxv, int *status, size_t *len)
{
    publication_ctx *pc = ctxv;
    const char *args[1] = { pc->cid }, *v[1] = { NULL };
    char *out;
    int rv;

    if (!pc->db->dbd && (rv = rkm_db_open(pc->r, pc->db)) != OK) {
        *status = rv;
        return NULL;
    }
    if (rkm_db_select_one(pc->r, pc->db, RK_Q_PUBLICATION, args, v, 1) < 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
        return NULL;
    }
    if (!(out = rk_cache_value_new(pc->key, 1))) {
        *status = HTTP_INTERNAL_SERVER_ERROR;
        return NULL;
    }
    *out = v[0] && strcmp(v[0], "validated") == 0 ? 'v' : 'i';
    *len = 1;
    return out;
}

int rkm_read_publication(request_rec *r, rkm_req *rq, rkm_db *db, const char *cid, int *status)
{
    publication_ctx pc = { r, db, cid, apr_pstrcat(r->pool, rq->rev.epoch, "|PUBLICATION/",
                                                  cid, NULL) };
    const void *v;
    size_t len;
    int validated;

    if (!(v = value_of(r, rq, db, pc.key, make_publication, &pc, &len, status))) {
        return -1;
    }
    validated = *(const char *)v == 'v';
    rk_cache_release(v);
    return validated;
}

/* X-Total-Count on a list's answer (VALUE), and Link to the next page when LQ asks
 * for a page that is not the last. */
static void list_headers(request_rec *r, const void *value, const rk_list_query *lq)
{
    apr_uint64_t total = rk_cache_value_meta(value);

    apr_table_setn(r->headers_out, "X-Total-Count", rkm_u64_text(r->pool, total));
    if (lq->limit > 0 && (apr_uint64_t)(lq->offset + lq->limit) < total) {
        size_t n = (r->args ? strlen(r->args) : 0) + 32;
        char *q = apr_palloc(r->pool, n);

        if (rk_query_with_offset(r->args, lq->offset + lq->limit, q, n) > 0) {
            apr_table_setn(r->headers_out, "Link", apr_psprintf(r->pool, "<%s?%s>; rel=\"next\"",
                           r->parsed_uri.path ? r->parsed_uri.path : r->uri, q));
        }
    }
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

/* The view of the request (mod_ranking_view.h), into *PUBLISHED: 1 only for an answer
 * that shows scores of a competition with publication 'validated' (with 'immediate'
 * the published view is the full one: the same key, ETag and cache entry).  0, or 1
 * when the request is answered already (*RV: the handler's return): 403, 400 (a bad
 * view of a path that exists; else 404), 503. */
static int read_view(request_rec *r, rkm_req *rq, rkm_db *db, int *published, int *rv)
{
    const rk_route_def *def = rk_route_def_of(rq->route.id);
    const void *value;
    size_t len;
    int status, validated;

    if (!r->args && !rkm_view_route(rq->route.id)) {   /* one view, no query: the full */
        *published = 0;
        return 0;
    }
    status = rkm_view_of(r, rq, published);
    if (status != 0 && rq->quick) {   /* an error: the normal path's */
        *rv = DECLINED;
        return 1;
    }
    if (status == HTTP_BAD_REQUEST) {
        if (def->answer == RK_ANSWER_LEADERBOARD) {
            status = db->dbd || (status = rkm_db_open(r, db)) == OK
                     ? rkm_leaderboard_exists(r, db, &rq->route) : status;
            status = status == OK ? HTTP_BAD_REQUEST : status;
        }
        else if ((value = answer_of(r, rq, db, answer_key(r, rq, NULL, NULL), NULL, NULL, 0,
                                    &len, &status)) != NULL) {
            rk_cache_release(value);
            status = HTTP_BAD_REQUEST;
        }
        *rv = status == HTTP_BAD_REQUEST ? rkm_send_error(r, status, "Invalid query")
              : rkm_send_status(r, status);
        return 1;
    }
    if (status != 0) {
        *rv = rkm_send_status(r, status);
        return 1;
    }
    if (!*published || !rkm_view_route(rq->route.id)) {
        *published = 0;
        return 0;
    }
    if ((validated = rkm_read_publication(r, rq, db, rq->route.ids[RK_ID_COMPETITION],
                                          &status)) < 0) {
        *rv = rkm_send_status(r, status);
        return 1;
    }
    *published = validated;
    return 0;
}

/* Send VALUE (LEN bytes, the answer under KEY, of ETag ETAG), the reference taken
 * over: in its gzip coding when GZ (its ETag then ends "-gzip"), else as it is, with
 * the list headers of LQ when QP; or 412, or 304, or a long poll's wait. */
static int send_answer(request_rec *r, rkm_req *rq, const char *key, const void *value,
                       size_t len, const char *etag, int gz, unsigned qp,
                       const rk_list_query *lq)
{
    const char *plain = etag;
    size_t gzlen = 0;
    rk_cond cond;
    int rv;

    if (gz) {
        etag = apr_pstrcat(r->pool, apr_pstrndup(r->pool, etag, strlen(etag) - 1), "-gzip\"", NULL);
    }
    cond = rk_cond_eval(apr_table_get(r->headers_in, "If-Match"),
                        apr_table_get(r->headers_in, "If-None-Match"), etag, 1);
    if (cond == RK_COND_FAILED) {
        rk_cache_release(value);
        return rkm_send_status(r, HTTP_PRECONDITION_FAILED);
    }
    if (rq->quick) {
        /* answered from here on: the headers the access hook and rkm_read set on
         * the normal path, in the same order, and the output filters of the mount */
        rkm_common_headers(r, rq);
        apr_table_mergen(r->headers_out, "Vary", "Accept-Encoding");
        ap_run_insert_filter(r);
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
        list_headers(r, value, lq);
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

/* Order: the answer is found (cache) or built first, so that a resource that does not
 * exist is 404 whatever the preconditions say (a 304 or a 412 would tell a client that
 * something is there); then If-Match (412) and If-None-Match (304, or a long poll).
 * An answer is built once per data revision and view: a 304 costs a cache lookup. */
int rkm_read(request_rec *r, rkm_req *rq)
{
    const rk_route_def *def = rk_route_def_of(rq->route.id);
    const char *key, *division = NULL, *etag;
    const void *value;
    size_t len = 0;
    int status, rv, enc, gz, published;
    unsigned qp = list_params(rq->route.id);
    rk_list_query lq;
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
    if (!rq->waited && !rq->quick) {   /* (a long poll's second turn has it already;
                                         * the quick handler's answer: send_answer) */
        apr_table_mergen(r->headers_out, "Vary", "Accept-Encoding");
    }
    /* the connection is opened when the database is asked: an answer in the cache,
     * with the change counters shared by the children, needs none */
    memset(&db, 0, sizeof(db));
    if (def->answer == RK_ANSWER_LEADERBOARD) {
        size_t n = r->args ? strlen(r->args) + 1 : 1;

        /* a bad query of a path that exists is 400; of one that does not, 404 */
        if (rk_query_get(r->args, "division", apr_palloc(r->pool, n), n, &division) < 0) {
            if (rq->quick) {
                return DECLINED;   /* an error: the normal path's */
            }
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
            if ((value = answer_of(r, rq, &db, answer_key(r, rq, NULL, NULL), NULL, NULL, 0,
                                   &len, &status)) == NULL) {
                return rkm_send_status(r, status);
            }
            rk_cache_release(value);
            return rkm_send_error(r, HTTP_BAD_REQUEST, "Invalid query");
        }
    }
    if (read_view(r, rq, &db, &published, &rv)) {
        return rv;
    }
    key = answer_key(r, rq, division, &lq);
    if (published) {   /* another answer, never served to the full view */
        key = apr_pstrcat(r->pool, key, "|published", NULL);
    }
    if ((value = answer_of(r, rq, &db, key, division, &lq, published, &len, &status)) == NULL) {
        return rkm_send_status(r, status);   /* 404 (or 503, 500) first */
    }
    etag = rkm_answer_etag(r, rq, key, division, &lq, published, value, len);
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
    return send_answer(r, rq, key, value, len, etag, gz, qp, &lq);
}
