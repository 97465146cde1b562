/* mod_ranking_idem.c: safe retries, the Idempotency-Key of a write (see
 * mod_ranking_idem.h; the pure rules in lib/rk_idem.h). */
#include "mod_ranking_idem.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_body.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_request.h"

#define LOOKUP_COLS 6   /* body_hash, created_at, status, location, etag, body */

static const char *num(apr_pool_t *p, long long v)
{
    return apr_psprintf(p, "%" APR_INT64_T_FMT, (apr_int64_t)v);
}

/* The stored answer of (user, key) into ROW: 1, 0 (none), -1 (database error). */
static int lookup(request_rec *r, rkm_req *rq, rkm_db *db, const char **row)
{
    const char *args[2] = { r->user, rq->idem_key };

    return rkm_db_select_one(r, db, RK_Q_IDEM_LOOKUP, args, row, LOOKUP_COLS);
}

/* Answer ROW again, or 422 when it is the answer to another request; a row gone or
 * expired meanwhile (NEW) is FALLBACK's answer (0: the caller answers). */
static int replay(request_rec *r, rkm_req *rq, const char **row, int found)
{
    long long now = (long long)apr_time_sec(apr_time_now());
    rk_idem_verdict v = found == 1
        ? rk_idem_check(row[0], row[1] ? apr_atoi64(row[1]) : 0, now, rq->idem_hash)
        : RK_IDEM_NEW;

    rq->idem = RKM_IDEM_DONE;
    if (v == RK_IDEM_REUSED) {
        rkm_send_error(r, HTTP_UNPROCESSABLE_ENTITY, RK_IDEM_MSG_REUSED);
        return 1;
    }
    if (v != RK_IDEM_REPLAY || !row[2] || !row[5]) {
        return 0;
    }
    if (row[3]) {
        apr_table_set(r->headers_out, "Location", row[3]);
    }
    if (row[4]) {
        apr_table_set(r->headers_out, "ETag", row[4]);
    }
    apr_table_unset(r->headers_out, "Retry-After");   /* of a lost write's 503 */
    apr_table_setn(r->headers_out, RK_IDEM_REPLAYED, "true");
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "%s %s by %s: replayed (Idempotency-Key)",
                  r->method, rk_route_name(rq->route.id), r->user);
    rkm_send_body(r, atoi(row[2]), row[5], strlen(row[5]));
    return 1;
}

int rkm_idem_begin(request_rec *r, rkm_req *rq)
{
    const char *key, *row[LOOKUP_COLS];
    char *body;
    apr_size_t len;
    int rv;
    rkm_db db;

    /* a read has no key to honour: the header's search (the dearest test) last */
    if ((rq->method & (RK_M_GET | RK_M_HEAD | RK_M_OPTIONS)) || !r->user
        || rq->route.id == RK_ROUTE_CONNECT
        || !(key = apr_table_get(r->headers_in, RK_IDEM_HEADER))) {
        return DECLINED;
    }
    if (!rk_idem_key_valid(key, strlen(key))) {
        return rkm_send_error(r, HTTP_BAD_REQUEST, RK_IDEM_MSG_INVALID);
    }
    if ((rv = rkm_read_body(r, &body, &len)) != OK) {
        return rv == AP_FILTER_ERROR ? rv : rkm_send_status(r, rv);
    }
    rq->idem_key = key;
    rk_idem_fingerprint(r->method, r->parsed_uri.path ? r->parsed_uri.path : r->uri,
                        body, len, rq->idem_hash);
    if ((rv = rkm_db_open(r, &db)) != OK) {
        return rkm_send_status(r, rv);
    }
    switch (rv = lookup(r, rq, &db, row)) {
    case -1:
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    case 1:
        if (replay(r, rq, row, rv)) {
            return OK;
        }
    }
    rq->idem = RKM_IDEM_PENDING;
    return DECLINED;
}

int rkm_idem_keep(request_rec *r, rkm_db *db, int status, const char *body, size_t len,
                  const char *location, const char *etag)
{
    rkm_req *rq = rkm_request(r);
    long long now = (long long)apr_time_sec(apr_time_now());
    const char *cutoff = num(r->pool, now - RK_IDEM_TTL);
    const char *args[11];
    int nrows = 0;

    if (rq->idem != RKM_IDEM_PENDING || !rk_idem_storable(status)) {
        return 0;
    }
    /* a few expired keys of anyone go with every kept answer (no cron job) */
    if (rkm_db_query(r, db, RK_Q_IDEM_PURGE, &cutoff, &nrows, APLOG_ERR) != 0) {
        return -1;
    }
    args[0] = rq->idem_key;
    args[1] = r->method;
    args[2] = r->parsed_uri.path ? r->parsed_uri.path : r->uri;
    args[3] = rq->idem_hash;
    args[4] = num(r->pool, status);
    args[5] = location ? location : "";
    args[6] = etag ? etag : "";
    args[7] = apr_pstrmemdup(r->pool, body ? body : "", body ? len : 0);
    args[8] = num(r->pool, now);
    args[9] = r->user;
    args[10] = cutoff;
    if (rkm_db_query(r, db, RK_Q_IDEM_KEEP, args, &nrows, APLOG_ERR) != 0) {
        return -1;
    }
    rq->idem = nrows == 1 ? RKM_IDEM_KEPT : RKM_IDEM_LOST;
    return nrows == 1 ? 0 : 1;
}

/* Keep the answer of a pending request in a transaction of its own: 0, 1 (lost), -1. */
static int keep_alone(request_rec *r, int status, const char *body, size_t len)
{
    apr_time_t deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);
    int rv = -1, begun;
    rkm_db db;

    if (rkm_db_open(r, &db) != OK || rkm_db_write_lock_until(r, &db, deadline) != 0) {
        return -1;
    }
    begun = rkm_db_begin_write(r, &db, deadline) == 0;
    if (begun) {
        rv = rkm_idem_keep(r, &db, status, body, len, apr_table_get(r->headers_out, "Location"),
                           apr_table_get(r->headers_out, "ETag"));
        if (rv != 0 || rkm_db_commit(r, &db) != 0) {
            rv = rv == 0 ? -1 : rv;
            rkm_db_rollback(r, &db);
        }
    }
    rkm_changes_write_done(&db);
    return rv;
}

int rkm_idem_answered(request_rec *r, int status, const char *body, size_t len)
{
    rkm_req *rq = rkm_request(r);
    const char *row[LOOKUP_COLS];
    int rv = 0;
    rkm_db db;

    switch (rq->idem) {
    case RKM_IDEM_PENDING:
        if (!rk_idem_storable(status)) {
            rq->idem = RKM_IDEM_DONE;   /* 5xx, 429: the key stays free for a retry */
            return 0;
        }
        if ((rv = keep_alone(r, status, body, len)) < 0) {
            ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "%s %s by %s: answer %d not kept "
                          "for its Idempotency-Key", r->method, rk_route_name(rq->route.id),
                          r->user, status);
        }
        if (rv != 1) {
            rq->idem = RKM_IDEM_DONE;
            return 0;
        }
        /* taken meanwhile: as lost */
        /* fall through */
    case RKM_IDEM_LOST:
        rq->idem = RKM_IDEM_DONE;
        if (rkm_db_open(r, &db) != OK) {
            return 0;
        }
        rv = lookup(r, rq, &db, row);
        return rv >= 0 && replay(r, rq, row, rv);
    case RKM_IDEM_KEPT:
        rq->idem = RKM_IDEM_DONE;
        return 0;
    default:
        return 0;
    }
}
