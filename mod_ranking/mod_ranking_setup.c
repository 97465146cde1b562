/* mod_ranking_setup.c: the organizer's setup and day-of changes (see
 * mod_ranking_setup.h).  One flow for every resource, its differences in tables:
 *
 *   POST on a list:  the parent exists (404) -> body (415, 413, 400) -> the write:
 *                    the parent again, the next id, the defaults, the rules (400,
 *                    409), INSERT, the resource as a GET shows it -> 201 + Location
 *   PATCH of one:    it exists (404) -> body -> the write: it again, merged with the
 *                    body, the rules, UPDATE, as shown -> 200
 *   DELETE of one:   the write: it exists (404), the rules (409), DELETE -> 200
 *
 * Each write is one transaction, serialized with every other write of the module
 * (the write mutex, rkm_db_begin_write) and ended with rkm_changes_write_done; a
 * refused write is rolled back: nothing changes. */
#include "mod_ranking_setup.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_body.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_request.h"
#include "rk_cond.h"
#include "rk_json.h"

/* What differs per resource. */
typedef struct {
    rk_route_id single;          /* the route of one: its GET's statement and fields */
    rk_route_id parent;          /* the route of the parent a POST adds to (the path's
                                  * ids of the list); RK_ROUTE_NONE: none */
    rk_query_id row, next, insert, update, del;   /* rk_sql.h, RK_Q_SETUP_* */
    const char *const *defaults; /* POST: each field not given (NULL: SQL NULL) */
} setup_def;

static const char *const comp_defaults[RK_COMP_NFIELDS] = {
    NULL, NULL, NULL, NULL, NULL, "upcoming", "places", "immediate", NULL
};
/* a WOD's position: one more than the competition's largest (computed) */
static const char *const wod_defaults[RK_WOD_NFIELDS] = { NULL, "", NULL, NULL, NULL };
/* a heat's zone: the path's (set by the caller) */
static const char *const heat_defaults[RK_HEAT_NFIELDS] = { NULL, NULL, NULL, NULL, "scheduled" };
static const char *const none[RK_RES_MAX_FIELDS] = { NULL };

static const setup_def defs[RK_RES_COUNT] = {
    [RK_RES_COMPETITION] = { RK_ROUTE_COMPETITION, RK_ROUTE_NONE, RK_Q_SETUP_COMP_ROW,
        RK_Q_SETUP_COMP_NEXT, RK_Q_SETUP_COMP_INSERT, RK_Q_SETUP_COMP_UPDATE,
        RK_Q_SETUP_COMP_DELETE, comp_defaults },
    [RK_RES_WOD] = { RK_ROUTE_WOD, RK_ROUTE_COMPETITION, RK_Q_SETUP_WOD_ROW,
        RK_Q_SETUP_WOD_NEXT, RK_Q_SETUP_WOD_INSERT, RK_Q_SETUP_WOD_UPDATE,
        RK_Q_SETUP_WOD_DELETE, wod_defaults },
    [RK_RES_SPOT] = { RK_ROUTE_SPOT, RK_ROUTE_COMPETITION, RK_Q_SETUP_SPOT_ROW,
        RK_Q_SETUP_SPOT_NEXT, RK_Q_SETUP_SPOT_INSERT, RK_Q_SETUP_SPOT_UPDATE,
        RK_Q_SETUP_SPOT_DELETE, none },
    [RK_RES_ZONE] = { RK_ROUTE_ZONE, RK_ROUTE_COMPETITION, RK_Q_SETUP_ZONE_ROW,
        RK_Q_SETUP_ZONE_NEXT, RK_Q_SETUP_ZONE_INSERT, RK_Q_SETUP_ZONE_UPDATE,
        RK_Q_SETUP_ZONE_DELETE, none },
    [RK_RES_HEAT] = { RK_ROUTE_A_HEAT, RK_ROUTE_ZONE, RK_Q_SETUP_HEAT_ROW,
        RK_Q_SETUP_HEAT_NEXT, RK_Q_SETUP_HEAT_INSERT, RK_Q_SETUP_HEAT_UPDATE,
        RK_Q_SETUP_HEAT_DELETE, heat_defaults },
    /* lanes: POST only (PUT and DELETE are mod_ranking_write.c's) */
    [RK_RES_LANE] = { RK_ROUTE_A_VOIE, RK_ROUTE_A_HEAT, RK_Q_COUNT,
        RK_Q_SETUP_LANE_NEXT, RK_Q_SETUP_LANE_INSERT, RK_Q_COUNT, RK_Q_COUNT, none },
};

/* A request's write: the transaction's context and what the answer needs. */
typedef struct {
    rkm_setup_ctx c;
    const setup_def *def;
    rkm_req *rq;
    const char **shown;     /* the resource as a GET shows it (after the write) */
    const char *before;     /* its JSON object before the write (PATCH, DELETE) */
    const char *after;      /* and after (POST, PATCH) */
    int status;             /* the answer, made before the commit (its Idempotency-Key */
    const char *body;       /* is kept with the write): status, body, ETag, Location */
    size_t len;
    const char *etag, *location;
} setup_write;

/* The row of the GET of route ROUTE with IDS into *V (its resource's fields, in
 * r->pool): 1, 0 when there is none, -1 on a database error. */
static int shown_row(rkm_setup_ctx *c, rk_route_id route, const char *const *ids, const char ***v)
{
    const rk_route_def *rd = rk_route_def_of(route);

    *v = apr_pcalloc(c->r->pool, sizeof(**v) * (size_t)rd->res->nfields);
    return rkm_db_select_one(c->r, c->db, rd->query, (const char **)ids, *v, rd->res->nfields);
}

static const char *object_of(request_rec *r, const rk_resource *res, const char *const *v)
{
    size_t n = rk_json_object(NULL, res, v);
    char *out = apr_palloc(r->pool, n + 1);

    rk_json_object(out, res, v);
    out[n] = '\0';
    return out;
}

/* The resource as shown now into W->shown and its object into *OBJ: 0, or the status. */
static int shown_now(setup_write *w, const char **obj)
{
    const rk_route_def *rd = rk_route_def_of(w->def->single);

    switch (shown_row(&w->c, w->def->single, w->c.ids, &w->shown)) {
    case -1: return HTTP_SERVICE_UNAVAILABLE;
    case 0:  return HTTP_NOT_FOUND;
    }
    *obj = object_of(w->c.r, rd->res, w->shown);
    return 0;
}

/* The resource's own strong ETag from its JSON object OBJ (the tag its GET shows). */
static const char *etag_of(const setup_write *w, const char *obj)
{
    char *out = apr_palloc(w->c.r->pool, RK_LANE_ETAG_MAX);

    return w->c.kind == RK_RES_LANE ? rk_lane_etag(w->rq->rev.epoch, obj, strlen(obj), out)
           : rk_resource_etag(w->rq->rev.epoch, obj, strlen(obj), out);
}

/* If-Match / If-None-Match of a PATCH or DELETE against the resource as shown now
 * (OBJ): 1 when they fail (412).  A request without them passes. */
static int conditions_fail(const setup_write *w, const char *obj)
{
    request_rec *r = w->c.r;
    const char *im = apr_table_get(r->headers_in, "If-Match");
    const char *inm = apr_table_get(r->headers_in, "If-None-Match");
    const char *etag;

    if (!im && !inm) {
        return 0;
    }
    etag = etag_of(w, obj);
    return !etag || rk_cond_eval(im, inm, etag, 0) == RK_COND_FAILED;
}

/* The next id, appended to the resource's path ids. */
static int next_id(setup_write *w)
{
    const char *v[1];

    if (rkm_db_select_one(w->c.r, w->c.db, w->def->next, NULL, v, 1) != 1 || !v[0]) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    w->c.ids[w->c.nids++] = v[0];
    return 0;
}

/* A POST's fields: the body's, else the defaults. */
static int post_fields(setup_write *w)
{
    rkm_setup_ctx *c = &w->c;
    const char *args[1] = { c->ids[0] }, *v[1];
    int f;

    for (f = 0; f < c->nfields; f++) {
        c->cur[f] = (c->body->set & RK_RES_BIT(f)) ? rk_resource_param(c->body, f)
                                                   : w->def->defaults[f];
    }
    if (c->kind == RK_RES_HEAT) {
        c->cur[RK_HEAT_ZONE_ID] = c->ids[1];
    }
    if (c->kind == RK_RES_WOD && !(c->body->set & RK_RES_BIT(RK_WOD_POSITION))) {
        if (rkm_db_select_one(c->r, c->db, RK_Q_SETUP_WOD_POSITION, args, v, 1) != 1) {
            return HTTP_SERVICE_UNAVAILABLE;
        }
        c->cur[RK_WOD_POSITION] = v[0];
    }
    return 0;
}

/* The statement's arguments: INSERT (id, parent, fields), UPDATE (fields,
 * competition, id), DELETE (competition, id). */
static const char **statement_args(rkm_setup_ctx *c)
{
    const char **a = apr_pcalloc(c->r->pool, sizeof(*a) * (RK_RES_MAX_FIELDS + 2));
    const char *id = c->ids[c->nids - 1];
    int k = 0, f;

    if (c->op == RKM_SETUP_POST) {
        a[k++] = id;
        if (c->kind != RK_RES_COMPETITION) {
            a[k++] = c->kind == RK_RES_LANE ? c->ids[2] : c->ids[0];
        }
    }
    for (f = 0; c->op != RKM_SETUP_DELETE && f < c->nfields; f++) {
        a[k++] = c->cur[f];
    }
    if (c->op != RKM_SETUP_POST) {
        a[k++] = c->ids[0];
        a[k++] = id;
    }
    return a;
}

/* The change log's record of the write (mod_ranking_changes.c), in its transaction:
 * a new lane is a lane record of action "create"; another resource a record of its
 * kind with where it is (a zone's id, a heat's zone and id).  0, or -1. */
static int record(setup_write *w)
{
    rkm_setup_ctx *c = &w->c;
    const char *id = c->ids[c->nids - 1];
    const char *action = c->op == RKM_SETUP_POST ? "create" : c->op == RKM_SETUP_PATCH
                         ? "update" : "delete";

    if (c->kind == RK_RES_LANE) {
        rk_route lane = w->rq->route;

        apr_cpystrn(lane.ids[RK_ID_A_LANE], id, sizeof(lane.ids[RK_ID_A_LANE]));
        lane.nids = RK_ID_A_LANE + 1;
        return rkm_changes_record(c->r, c->db, &lane, 1, action, NULL, w->after);
    }
    return rkm_changes_record_resource(c->r, c->db, rk_resource_def_of(c->kind)->name,
                                       c->ids[0],
                                       c->kind == RK_RES_ZONE ? id
                                       : c->kind == RK_RES_HEAT ? c->ids[1] : NULL,
                                       c->kind == RK_RES_HEAT ? id : NULL,
                                       id, action, w->before, w->after);
}

/* A PATCH of a competition from publication 'immediate' to 'validated': every score
 * stays published as it is (with 'immediate' the public saw the current values), so
 * the lanes' current values are published in the same transaction. */
static int switches_to_validated(const rkm_setup_ctx *c)
{
    const char *was = c->old[RK_COMP_PUBLICATION], *now = c->cur[RK_COMP_PUBLICATION];

    return c->op == RKM_SETUP_PATCH && was && now && !strcmp(was, "immediate")
           && !strcmp(now, "validated");
}

/* The write, in its transaction: 0 (done, not committed yet), or the status. */
static int apply(setup_write *w)
{
    rkm_setup_ctx *c = &w->c;
    const char *parent_ids[RK_MAX_IDS], **parent;
    rk_query_id q;
    int rv, f, nrows = 0;

    if (c->op == RKM_SETUP_POST) {
        memcpy(parent_ids, c->ids, sizeof(parent_ids));
        if (w->def->parent != RK_ROUTE_NONE
            && (rv = shown_row(c, w->def->parent, parent_ids, &parent)) != 1) {
            return rv < 0 ? HTTP_SERVICE_UNAVAILABLE : HTTP_NOT_FOUND;
        }
        if ((rv = next_id(w)) != 0 || (rv = post_fields(w)) != 0) {
            return rv;
        }
    }
    else {
        switch (rkm_db_select_one(c->r, c->db, w->def->row, c->ids, c->old, c->nfields)) {
        case -1: return HTTP_SERVICE_UNAVAILABLE;
        case 0:  return HTTP_NOT_FOUND;
        }
        if ((rv = shown_now(w, &w->before)) != 0) {
            return rv;
        }
        /* the preconditions against the resource in this transaction: of two writers
         * with the same If-Match, only the first passes */
        if (conditions_fail(w, w->before)) {
            return HTTP_PRECONDITION_FAILED;
        }
        for (f = 0; f < c->nfields; f++) {
            c->cur[f] = c->body && (c->body->set & RK_RES_BIT(f)) ? rk_resource_param(c->body, f)
                                                                  : c->old[f];
        }
    }
    if ((rv = rkm_setup_rules(c)) != 0) {
        return rv;
    }
    q = c->op == RKM_SETUP_POST ? w->def->insert : c->op == RKM_SETUP_PATCH ? w->def->update
        : w->def->del;
    if (rkm_db_query(c->r, c->db, q, statement_args(c), &nrows, APLOG_ERR) != 0 || nrows != 1) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (c->kind == RK_RES_HEAT && c->op == RKM_SETUP_PATCH) {
        c->ids[1] = c->cur[RK_HEAT_ZONE_ID];   /* found under its new zone only */
    }
    if (c->kind == RK_RES_COMPETITION && switches_to_validated(c)
        && rkm_db_query(c->r, c->db, RK_Q_SETUP_COMP_PUBLISH, c->ids, &nrows, APLOG_ERR) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (c->op != RKM_SETUP_DELETE && (rv = shown_now(w, &w->after)) != 0) {
        return rv;
    }
    return record(w) == 0 ? 0 : HTTP_SERVICE_UNAVAILABLE;
}

static int make_answer(setup_write *w);

/* The write in one transaction, serialized with the others: the status to answer
 * (HTTP_OK when it is committed). */
static int run_write(setup_write *w)
{
    apr_time_t deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);
    int rv;

    if (rkm_db_write_lock_until(w->c.r, w->c.db, deadline) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (rkm_db_begin_write(w->c.r, w->c.db, deadline) != 0) {
        rkm_changes_write_done(w->c.db);
        return HTTP_SERVICE_UNAVAILABLE;
    }
    rv = apply(w);
    /* the answer, and its Idempotency-Key with the write */
    if (rv == 0 && (make_answer(w) != 0 || rkm_idem_keep(w->c.r, w->c.db, w->status, w->body,
                                                         w->len, w->location, w->etag) != 0)) {
        rv = HTTP_SERVICE_UNAVAILABLE;
    }
    if (rv == 0 && rkm_db_commit(w->c.r, w->c.db) != 0) {
        rv = HTTP_SERVICE_UNAVAILABLE;
    }
    if (rv != 0) {
        rkm_db_rollback(w->c.r, w->c.db);
    }
    rkm_changes_write_done(w->c.db);
    return rv == 0 ? HTTP_OK : rv;
}

/* Before the body: the parent of a POST, the resource of a PATCH exists (404), and
 * the PATCH's preconditions hold (412; the transaction checks them again). */
static int exists(setup_write *w)
{
    rk_route_id route = w->c.op == RKM_SETUP_POST ? w->def->parent : w->def->single;
    const char **v;
    int rv;

    if (route == RK_ROUTE_NONE) {
        return OK;
    }
    rv = shown_row(&w->c, route, w->c.ids, &v);
    if (rv != 1) {
        return rv == 0 ? HTTP_NOT_FOUND : HTTP_SERVICE_UNAVAILABLE;
    }
    if (w->c.op == RKM_SETUP_PATCH
        && conditions_fail(w, object_of(w->c.r, rk_route_def_of(route)->res, v))) {
        return HTTP_PRECONDITION_FAILED;
    }
    return OK;
}

static apr_status_t body_free(void *body)
{
    rk_resource_body_free(body);
    return APR_SUCCESS;
}

/* The body of a POST or PATCH, parsed into *BODY (freed with the request): OK, or
 * the value the handler returns (DONE or AP_FILTER_ERROR: the error answered). */
static int take_body(setup_write *w, rk_resource_body *body)
{
    request_rec *r = w->c.r;
    const char *err = NULL;
    char *text;
    apr_size_t len;
    int rv;

    rv = w->c.op == RKM_SETUP_POST ? rkm_take_json_body(r, &text, &len)
         : rkm_take_patch_body(r, &text, &len);
    if (rv != OK) {
        return rv;
    }
    rv = w->c.op == RKM_SETUP_POST ? rk_resource_post_parse(w->c.kind, text, len, body, &err)
         : rk_resource_patch_parse(w->c.kind, text, len, body, &err);
    if (rv != 0) {
        rkm_send_error(r, HTTP_BAD_REQUEST, err);
        return DONE;
    }
    apr_pool_cleanup_register(r->pool, body, body_free, apr_pool_cleanup_null);
    w->c.body = body;
    return OK;
}

/* The answer of the write, made in its transaction before the commit: 0, or -1. */
static int make_answer(setup_write *w)
{
    request_rec *r = w->c.r;
    const rk_resource *res = rk_route_def_of(w->def->single)->res;
    char *body;

    w->status = w->c.op == RKM_SETUP_POST ? HTTP_CREATED : HTTP_OK;
    if (w->c.op == RKM_SETUP_DELETE) {
        w->body = rkm_json_text(r, rk_json_success(NULL, NULL), &w->len);
        return w->body ? 0 : -1;
    }
    w->etag = etag_of(w, w->after);
    w->len = rk_json_answer(NULL, res, 0, w->shown, 1);
    body = apr_palloc(r->pool, w->len + 1);
    rk_json_answer(body, res, 0, w->shown, 1);
    body[w->len] = '\0';
    w->body = body;
    if (w->c.op == RKM_SETUP_POST) {
        size_t u = strlen(r->uri);

        w->location = apr_pstrcat(r->pool, r->uri, u && r->uri[u - 1] == '/' ? "" : "/",
                                  w->c.ids[w->c.nids - 1], NULL);
    }
    return 0;
}

/* The answer of a write that was committed. */
static int answer(setup_write *w)
{
    if (w->etag) {
        apr_table_setn(w->c.r->headers_out, "ETag", w->etag);
    }
    if (w->location) {
        apr_table_setn(w->c.r->headers_out, "Location", w->location);
    }
    return rkm_send_body(w->c.r, w->status, w->body, w->len);
}

int rkm_setup(request_rec *r, rkm_req *rq)
{
    const rk_route_def *rd = rk_route_def_of(rq->route.id);
    setup_write *w = apr_pcalloc(r->pool, sizeof(*w));
    rk_resource_body *body = apr_pcalloc(r->pool, sizeof(*body));
    rkm_db *db = apr_pcalloc(r->pool, sizeof(*db));
    int rv, i;

    w->rq = rq;
    w->def = &defs[rd->kind];
    w->c.r = r;
    w->c.db = db;
    w->c.kind = rd->kind;
    w->c.nfields = rk_resource_def_of(rd->kind)->nfields;
    w->c.op = rq->method == RK_M_POST ? RKM_SETUP_POST
              : rq->method == RK_M_PATCH ? RKM_SETUP_PATCH : RKM_SETUP_DELETE;
    for (i = 0; i < rq->route.nids; i++) {
        w->c.ids[i] = rq->route.ids[i];
    }
    w->c.nids = rq->route.nids;
    if ((rv = rkm_db_open(r, db)) != OK) {
        return rkm_send_status(r, rv);
    }
    if (rkm_request_revision(r, db, rq) != 0) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    if (w->c.op != RKM_SETUP_DELETE) {
        if ((rv = exists(w)) != OK) {
            return rkm_send_status(r, rv);
        }
        /* a team list from a spreadsheet (mod_ranking_setup_csv.c) */
        if (w->c.kind == RK_RES_SPOT && w->c.op == RKM_SETUP_POST && rkm_is_csv(r)) {
            return rkm_setup_csv(r, rq, db);
        }
        if ((rv = take_body(w, body)) != OK) {
            return rv;
        }
    }
    if ((rv = run_write(w)) != HTTP_OK) {
        return rkm_send_error(r, rv, w->c.err);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "%s %s %s by %s",
                  rk_resource_def_of(w->c.kind)->name, w->c.ids[w->c.nids - 1],
                  w->c.op == RKM_SETUP_POST ? "created" : w->c.op == RKM_SETUP_PATCH
                  ? "changed" : "deleted", r->user ? r->user : "-");
    return answer(w);
}
