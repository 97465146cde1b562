/* mod_ranking_validate.c: validation of scores (API.md part 3, "Scores: entered,
 * validated, published"): POST .../voie/{v}/validate makes one lane 'validated' and
 * publishes its current score and tiebreak; POST .../heat/{h}/validate does it for
 * every lane of the heat that waits for it, in one transaction.  Each validated lane
 * is one change (one revision step, one record of action "validate" in the change
 * log: its history, its event), like a lane PUT; a lane validated already changes
 * nothing. */
#include "mod_ranking_validate.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_request.h"
#include "mod_ranking_rows.h"
#include "mod_ranking_write.h"
#include "mod_ranking_body.h"
#include "rk_cache.h"
#include "rk_json.h"

/* The body of a validation: none, or an empty JSON object.  0, or 1 when the request
 * is answered (the handler's return in *RV). */
static int take_empty_body(request_rec *r, int *rv)
{
    const char *cl = apr_table_get(r->headers_in, "Content-Length");
    char *body;
    apr_size_t len;
    json_t *j;
    int empty;

    if (!apr_table_get(r->headers_in, "Transfer-Encoding") && (!cl || strcmp(cl, "0") == 0)) {
        return 0;
    }
    if ((*rv = rkm_take_json_body(r, &body, &len)) != OK) {
        return 1;
    }
    j = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
    empty = json_is_object(j) && json_object_size(j) == 0;
    json_decref(j);
    if (!empty) {
        *rv = rkm_send_error(r, HTTP_BAD_REQUEST, "Invalid body: a validation takes no body, "
                             "or an empty object {}");
        return 1;
    }
    return 0;
}

/* Validate the lane of ROUTE (variant A, 4 ids) in the open write transaction; its
 * row as it is then into AFTER (RKM_LANE_FIELDS values).  HTTP_OK (validated now, or
 * already), 404, 409 (no score), 412 (CHECK: the request's preconditions, failed),
 * 503. */
static int validate_one(request_rec *r, rkm_req *rq, rkm_db *db, const rk_route *route,
                        int check, const char **after)
{
    const char *before[RKM_LANE_FIELDS], *args[2] = { route->ids[RK_ID_A_HEAT],
                                                      route->ids[RK_ID_A_LANE] };
    const char *before_obj;
    int nrows = 0;

    switch (rkm_lane_row(r, db, route, before)) {
    case -1: return HTTP_SERVICE_UNAVAILABLE;
    case 0:  return HTTP_NOT_FOUND;
    }
    before_obj = rkm_lane_json(r, before);
    if (check && rkm_lane_cond_failed(r, rq, before_obj)) {
        return HTTP_PRECONDITION_FAILED;
    }
    if (!before[5]) {
        return HTTP_CONFLICT;   /* no score to validate */
    }
    if (before[7] && strcmp(before[7], "validated") == 0) {
        memcpy(after, before, sizeof(before));
        return HTTP_OK;   /* nothing changes: no record, no event */
    }
    if (rkm_db_query(r, db, RK_Q_LANE_VALIDATE, args, &nrows, APLOG_ERR) != 0
        || rkm_lane_row(r, db, route, after) != 1
        || rkm_changes_record(r, db, route, nrows, "validate", before_obj,
                              rkm_lane_json(r, after)) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    return HTTP_OK;
}

/* Begin a write transaction on DB (opened): 0, or the status to answer (then give
 * the write lock back with end(), not begun). */
static int begin(request_rec *r, rkm_db *db, int *locked)
{
    apr_time_t deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);

    *locked = 0;
    if (rkm_db_write_lock_until(r, db, deadline) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    *locked = 1;
    return rkm_db_begin_write(r, db, deadline) == 0 ? 0 : HTTP_SERVICE_UNAVAILABLE;
}

/* Commit when STATUS is HTTP_OK, else roll back; the write is over.  The status to
 * answer. */
static int end(request_rec *r, rkm_db *db, int begun, int locked, int status)
{
    if (begun && status == HTTP_OK && rkm_db_commit(r, db) != 0) {
        status = HTTP_SERVICE_UNAVAILABLE;
        begun = 1;
    }
    else if (begun && status == HTTP_OK) {
        begun = 0;   /* committed */
    }
    if (begun) {
        rkm_db_rollback(r, db);
    }
    if (locked) {
        rkm_changes_write_done(db);
    }
    return status;
}

static int refuse(request_rec *r, int status)
{
    return status == HTTP_CONFLICT
           ? rkm_send_error(r, status, "Conflict: the lane has no score to validate")
           : rkm_send_status(r, status);
}

/* The checks before the body (404, then 412 for one lane), then the body (415, 413,
 * 400), outside the transaction, which checks again: 0, or 1 when the request is
 * answered (*RV). */
static int precheck(request_rec *r, rkm_req *rq, rkm_db *db, int lane, int *rv)
{
    const char *args[3] = { rq->route.ids[0], rq->route.ids[1], rq->route.ids[2] };
    const char *v[RKM_LANE_FIELDS];
    int found;

    if ((*rv = rkm_db_open(r, db)) != OK) {
        *rv = rkm_send_status(r, *rv);
        return 1;
    }
    if (rkm_request_revision(r, db, rq) != 0) {   /* the epoch of the lanes' ETags */
        *rv = rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
        return 1;
    }
    found = lane ? rkm_lane_row(r, db, &rq->route, v)
                 : rkm_db_select_one(r, db, RK_Q_A_HEAT, args, v, 1);
    if (found != 1) {
        *rv = rkm_send_status(r, found ? HTTP_SERVICE_UNAVAILABLE : HTTP_NOT_FOUND);
        return 1;
    }
    if (lane && rkm_lane_cond_failed(r, rq, rkm_lane_json(r, v))) {
        *rv = rkm_send_status(r, HTTP_PRECONDITION_FAILED);
        return 1;
    }
    return take_empty_body(r, rv);
}

int rkm_validate_lane(request_rec *r, rkm_req *rq)
{
    const char *after[RKM_LANE_FIELDS], *obj;
    int rv, status, locked;
    size_t n;
    char *out;
    rkm_db db;

    memset(&db, 0, sizeof(db));
    if (precheck(r, rq, &db, 1, &rv)) {
        return rv;
    }
    status = begin(r, &db, &locked);
    status = status ? end(r, &db, 0, locked, status)
             : end(r, &db, 1, locked, validate_one(r, rq, &db, &rq->route, 1, after));
    if (status != HTTP_OK) {
        return refuse(r, status);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "lane %s of heat %s validated by %s",
                  rq->route.ids[RK_ID_A_LANE], rq->route.ids[RK_ID_A_HEAT],
                  r->user ? r->user : "-");
    obj = rkm_lane_json(r, after);
    apr_table_setn(r->headers_out, "ETag", rkm_lane_etag(r, rq, obj));
    n = rk_json_answer(NULL, &rk_res_voie, 0, after, 1);
    if (!(out = rk_cache_value_new(NULL, n))) {
        return rkm_send_status(r, HTTP_INTERNAL_SERVER_ERROR);
    }
    rk_json_answer(out, &rk_res_voie, 0, after, 1);
    return rkm_send_value(r, out, n);
}

/* Validate every lane of the heat of RQ that waits for it (by number), in the open
 * transaction: HTTP_OK, 404 (no such heat), 503. */
static int validate_heat(request_rec *r, rkm_req *rq, rkm_db *db)
{
    const char *args[3] = { rq->route.ids[0], rq->route.ids[1], rq->route.ids[2] };
    const char *heat[1], *after[RKM_LANE_FIELDS];
    apr_array_header_t *ids = NULL;
    rk_route lane = rq->route;
    int i, status;

    switch (rkm_db_select_one(r, db, RK_Q_A_HEAT, args, heat, 1)) {
    case -1: return HTTP_SERVICE_UNAVAILABLE;
    case 0:  return HTTP_NOT_FOUND;
    }
    if (rkm_db_select_rows(r, r->pool, r->pool, db, RK_Q_HEAT_TO_VALIDATE, args, 1, &ids) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    lane.id = RK_ROUTE_A_VOIE;
    lane.nids = 4;
    for (i = 0; i < ids->nelts; i++) {
        const char *id = ((const char **)ids->elts)[i];

        if (!id || strlen(id) > RK_ID_MAX_DIGITS) {
            return HTTP_SERVICE_UNAVAILABLE;
        }
        apr_cpystrn(lane.ids[RK_ID_A_LANE], id, sizeof(lane.ids[RK_ID_A_LANE]));
        if ((status = validate_one(r, rq, db, &lane, 0, after)) != HTTP_OK) {
            return status == HTTP_CONFLICT ? HTTP_SERVICE_UNAVAILABLE : status;
        }
    }
    return HTTP_OK;
}

int rkm_validate_heat(request_rec *r, rkm_req *rq)
{
    rk_route lanes = rq->route;
    int rv, status, locked;
    size_t len = 0;
    void *answer;
    rkm_db db;

    memset(&db, 0, sizeof(db));
    if (precheck(r, rq, &db, 0, &rv)) {
        return rv;
    }
    status = begin(r, &db, &locked);
    status = status ? end(r, &db, 0, locked, status)
             : end(r, &db, 1, locked, validate_heat(r, rq, &db));
    if (status != HTTP_OK) {
        return refuse(r, status);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "heat %s validated by %s",
                  rq->route.ids[RK_ID_A_HEAT], r->user ? r->user : "-");
    /* the heat's lanes as they are now, the full view, by number */
    lanes.id = RK_ROUTE_A_VOIES;
    if (!(answer = rkm_build_answer(r, &db, &lanes, NULL, NULL, 0, &status, &len))) {
        return rkm_send_status(r, status);
    }
    return rkm_send_value(r, answer, len);
}
