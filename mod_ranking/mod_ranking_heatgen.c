/* mod_ranking_heatgen.c: POST /competition/{c}/wod/{w}/generate-heats (API.md Part 3,
 * "Heat generation and cut lines").  The pure part is lib/rk_seed.h; here:
 *   1. the WOD of the path (404), the body (rk_seed_parse: 415, 413, 400), the zone of
 *      this competition (400) and its lane_count against `lanes` (400);
 *   2. the overall leaderboard of the full view, read without JSON from the ranking
 *      this child computes (rkm_leaderboard_with), and the plan (rk_seed_plan_make,
 *      numbered from 1 here and shifted once the number to start from is known);
 *   3. a dry run reads, in one read transaction, what a write would check (409) and
 *      the largest number left in the zone, and answers 200 with the plan: nothing is
 *      written, so every ETag stays;
 *   4. otherwise one write transaction: the WOD's heats in the zone (409 unless
 *      `replace`; 409 when one of their lanes has a score), deleted with their lanes,
 *      the new heats and lanes inserted, and every deleted or inserted row recorded in
 *      the change log (rkm_changes_record_resource: the revision steps and the records
 *      match in count, and a kept leaderboard input reads its competition again);
 *      201 with the plan and the new ids. */
#include "mod_ranking_heatgen.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_auth.h"
#include "mod_ranking_body.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_leaderboard.h"
#include "mod_ranking_request.h"
#include "rk_json.h"
#include "rk_leaderboard.h"
#include "rk_seed.h"

#define CONFLICT_HEATS "Conflict: the WOD already has heats in this zone (replace: true " \
                       "replaces them)"
#define CONFLICT_SCORED "Conflict: a heat to replace has a lane with a score"

typedef struct {
    request_rec *r;
    rkm_db db;
    const char *ids[3];            /* competition, zone, WOD: the GEN statements' args */
    rk_seed_request req;
    rk_seed_division *divs;
    size_t ndivs;
    rk_seed_plan plan;
    apr_array_header_t *old_heats, *old_lanes;   /* rows of the heats to replace */
    const char **heat_ids, **lane_ids;
    const char *answer;      /* the answer's body, made in the transaction */
    size_t answer_len;
} gen;

/* Who may generate heats: an organizer on the path's competition, server-wide or by
 * grant (the route table says so too: the handler checked it already). */
static int may_generate(request_rec *r, const rkm_req *rq)
{
    return rkm_role_on(r, rq, rkm_path_competition(rq)) >= RKM_ROLE_ORGANIZER;
}

static const char *num(apr_pool_t *p, long long v)
{
    return apr_psprintf(p, "%" APR_INT64_T_FMT, (apr_int64_t)v);
}

/* ROW (a resource's columns) as the API shows it. */
static const char *row_json(apr_pool_t *p, const rk_resource *res, const char *const *row)
{
    size_t n = rk_json_object(NULL, res, row);
    char *out = apr_palloc(p, n + 1);

    rk_json_object(out, res, row);
    out[n] = '\0';
    return out;
}

/* rkm_leaderboard_fn: the overall leaderboard's divisions and spots, copied. */
static void copy_board(void *baton, const rk_leaderboard *lb)
{
    gen *g = baton;
    apr_pool_t *p = g->r->pool;
    size_t d, k;

    g->ndivs = rk_leaderboard_ndivisions(lb);
    g->divs = apr_pcalloc(p, (g->ndivs + 1) * sizeof(*g->divs));
    for (d = 0; d < g->ndivs; d++) {
        const char *name = rk_leaderboard_division_name(lb, d);
        size_t n = rk_leaderboard_division_count(lb, d);
        rk_seed_spot *spots = apr_pcalloc(p, (n + 1) * sizeof(*spots));
        rk_leaderboard_entry e;

        for (k = 0; k < n && rk_leaderboard_overall_entry(lb, d, k, &e) == 0; k++) {
            spots[k].id = apr_pstrdup(p, e.spot_id);
            spots[k].name = e.spot_name ? apr_pstrdup(p, e.spot_name) : NULL;
            spots[k].has_bib = e.has_bib;
            spots[k].bib = e.bib;
            spots[k].has_rank = 1;
            spots[k].rank = e.rank;
        }
        g->divs[d].name = name ? apr_pstrdup(p, name) : NULL;
        g->divs[d].spots = spots;
        g->divs[d].nspots = k;
    }
}

/* The checks of an open transaction: the WOD's heats in the zone (kept in G), 409s,
 * and the plan's heats renumbered from the largest number left.  0, an HTTP status
 * with *ERR (409), or 503. */
static int check_existing(gen *g, const char **err)
{
    request_rec *r = g->r;
    const char *v[1];
    long long left;
    size_t i;

    g->old_heats = g->old_lanes = NULL;
    if (rkm_db_select_rows(r, r->pool, r->pool, &g->db, RK_Q_GEN_HEATS, g->ids,
                           rk_res_heat.nfields, &g->old_heats) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (g->old_heats->nelts > 0 && !g->req.replace) {
        *err = CONFLICT_HEATS;
        return HTTP_CONFLICT;
    }
    if (g->old_heats->nelts > 0) {
        if (rkm_db_select_one(r, &g->db, RK_Q_GEN_SCORED, g->ids, v, 1) != 1 || !v[0]) {
            return HTTP_SERVICE_UNAVAILABLE;
        }
        if (apr_atoi64(v[0]) > 0) {
            *err = CONFLICT_SCORED;
            return HTTP_CONFLICT;
        }
        if (rkm_db_select_rows(r, r->pool, r->pool, &g->db, RK_Q_GEN_LANES, g->ids,
                               rk_res_voie.nfields, &g->old_lanes) != 0) {
            return HTTP_SERVICE_UNAVAILABLE;
        }
    }
    if (rkm_db_select_one(r, &g->db, RK_Q_GEN_NUMBER_LEFT, g->ids, v, 1) != 1 || !v[0]) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    left = apr_atoi64(v[0]);
    if (left < 0 || left > 2147483647LL - (long long)g->plan.nheats) {
        *err = "Conflict: the zone's heat numbers would pass 2147483647";
        return HTTP_CONFLICT;
    }
    for (i = 0; i < g->plan.nheats; i++) {
        g->plan.heats[i].number += left;   /* planned from 1 */
    }
    return 0;
}

/* Delete the heats to replace and their lanes, each recorded.  0 or -1. */
static int delete_old(gen *g)
{
    request_rec *r = g->r;
    const int hf = rk_res_heat.nfields, lf = rk_res_voie.nfields;
    int nlanes = g->old_lanes ? g->old_lanes->nelts : 0, nrows = 0, i;
    const char **v;

    if (g->old_heats->nelts == 0) {
        return 0;
    }
    if (rkm_db_query(r, &g->db, RK_Q_GEN_DELETE_LANES, g->ids, &nrows, APLOG_ERR) != 0
        || nrows != nlanes) {
        return -1;
    }
    for (i = 0, v = nlanes ? (const char **)g->old_lanes->elts : NULL; i < nlanes; i++, v += lf) {
        if (rkm_changes_record_resource(r, &g->db, "lane", g->ids[0], g->ids[1], v[1], v[0],
                                        "delete", row_json(r->pool, &rk_res_voie, v), NULL) != 0) {
            return -1;
        }
    }
    if (rkm_db_query(r, &g->db, RK_Q_GEN_DELETE_HEATS, g->ids, &nrows, APLOG_ERR) != 0
        || nrows != g->old_heats->nelts) {
        return -1;
    }
    for (i = 0, v = (const char **)g->old_heats->elts; i < g->old_heats->nelts; i++, v += hf) {
        if (rkm_changes_record_resource(r, &g->db, "heat", g->ids[0], g->ids[1], v[0], v[0],
                                        "delete", row_json(r->pool, &rk_res_heat, v), NULL) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Insert the plan's heats, then their lanes; the new rows read back (their ids, in the
 * plan's order: the WOD has no other heat in the zone now) and recorded.  0 or -1. */
static int insert_new(gen *g)
{
    request_rec *r = g->r;
    const int hf = rk_res_heat.nfields, lf = rk_res_voie.nfields;
    apr_array_header_t *heats = NULL, *lanes = NULL;
    const char *args[6], **v, *last[2];
    apr_int64_t heat_id, lane_id;
    size_t i, k, n;
    int nrows;

    if (rkm_db_select_one(r, &g->db, RK_Q_GEN_LAST_IDS, NULL, last, 2) != 1 || !last[0] || !last[1]) {
        return -1;
    }
    heat_id = apr_atoi64(last[0]);
    lane_id = apr_atoi64(last[1]);
    for (i = 0; i < g->plan.nheats; i++) {
        const rk_seed_heat *h = &g->plan.heats[i];

        args[0] = num(r->pool, ++heat_id);
        args[1] = g->ids[0];
        args[2] = g->ids[1];
        args[3] = g->ids[2];
        args[4] = num(r->pool, h->number);
        args[5] = h->has_start ? h->start_time : "";
        if (rkm_db_query(r, &g->db, RK_Q_GEN_HEAT_INSERT, args, &nrows, APLOG_ERR) != 0 || nrows != 1) {
            return -1;
        }
    }
    if (rkm_db_select_rows(r, r->pool, r->pool, &g->db, RK_Q_GEN_HEATS, g->ids, hf, &heats) != 0
        || (size_t)heats->nelts != g->plan.nheats) {
        return -1;
    }
    g->heat_ids = apr_pcalloc(r->pool, (g->plan.nheats + 1) * sizeof(*g->heat_ids));
    for (i = 0, v = (const char **)heats->elts; i < g->plan.nheats; i++, v += hf) {
        g->heat_ids[i] = v[0];
        if (rkm_changes_record_resource(r, &g->db, "heat", g->ids[0], g->ids[1], v[0], v[0],
                                        "create", NULL, row_json(r->pool, &rk_res_heat, v)) != 0) {
            return -1;
        }
        for (k = 0; k < g->plan.heats[i].nlanes; k++) {
            const rk_seed_lane *l = &g->plan.heats[i].lanes[k];

            args[0] = num(r->pool, ++lane_id);
            args[1] = g->heat_ids[i];
            args[2] = num(r->pool, l->number);
            args[3] = l->spot->id;
            if (rkm_db_query(r, &g->db, RK_Q_GEN_LANE_INSERT, args, &nrows, APLOG_ERR) != 0
                || nrows != 1) {
                return -1;
            }
        }
    }
    if (rkm_db_select_rows(r, r->pool, r->pool, &g->db, RK_Q_GEN_LANES, g->ids, lf, &lanes) != 0
        || (size_t)lanes->nelts != g->plan.nlanes) {
        return -1;
    }
    g->lane_ids = apr_pcalloc(r->pool, (g->plan.nlanes + 1) * sizeof(*g->lane_ids));
    for (n = 0, v = (const char **)lanes->elts; n < g->plan.nlanes; n++, v += lf) {
        g->lane_ids[n] = v[0];
        if (rkm_changes_record_resource(r, &g->db, "lane", g->ids[0], g->ids[1], v[1], v[0],
                                        "create", NULL, row_json(r->pool, &rk_res_voie, v)) != 0) {
            return -1;
        }
    }
    return 0;
}

/* The dry run: the checks in a read transaction.  0, or a status with *ERR. */
static int dry_run(gen *g, const char **err)
{
    int rv;

    if (rkm_db_begin_read(g->r, &g->db) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    rv = check_existing(g, err);
    rkm_db_end_read(g->r, &g->db);
    return rv;
}

/* The write: one transaction.  0, or a status with *ERR (409), or 503. */
/* The answer, made before the commit so that its Idempotency-Key commits with it. */
static int keep_answer(gen *g)
{
    g->answer = rk_seed_plan_json(&g->plan, g->ids[0], g->ids[1], g->ids[2], g->heat_ids,
                                  g->lane_ids, g->r->pool, &g->answer_len);
    return g->answer ? rkm_idem_keep(g->r, &g->db, HTTP_CREATED, g->answer, g->answer_len,
                                     NULL, NULL) : -1;
}

static int write_plan(gen *g, const char **err)
{
    request_rec *r = g->r;
    apr_time_t deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);
    int rv = HTTP_SERVICE_UNAVAILABLE, begun;

    if (rkm_db_write_lock_until(r, &g->db, deadline) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    begun = rkm_db_begin_write(r, &g->db, deadline) == 0;
    if (begun && (rv = check_existing(g, err)) == 0) {
        rv = delete_old(g) == 0 && insert_new(g) == 0 && keep_answer(g) == 0
             && rkm_db_commit(r, &g->db) == 0
             ? 0 : HTTP_SERVICE_UNAVAILABLE;
    }
    if (begun && rv != 0) {
        rkm_db_rollback(r, &g->db);
    }
    rkm_changes_write_done(&g->db);
    return rv;
}

/* The path's WOD, the body, the zone and `lanes`: 0 with G filled and *LANE_COUNT, or
 * an answer's status (with *ERR for a 400). */
static int read_request(gen *g, rkm_req *rq, long long *lane_count, const char **err)
{
    request_rec *r = g->r;
    const char *args[2], *v[4];
    char *body;
    apr_size_t len;
    int rv;

    args[0] = rq->route.ids[RK_ID_COMPETITION];
    args[1] = rq->route.ids[1];
    switch (rkm_db_select_one(r, &g->db, RK_Q_WOD, args, v, 1)) {
    case -1: return HTTP_SERVICE_UNAVAILABLE;
    case 0:  return HTTP_NOT_FOUND;
    }
    if ((rv = rkm_take_json_body(r, &body, &len)) != OK) {
        return rv;   /* answered */
    }
    if (rk_seed_parse(body, len, r->pool, &g->req, err) != 0) {
        return HTTP_BAD_REQUEST;
    }
    args[1] = g->req.zone_id;
    switch (rkm_db_select_one(r, &g->db, RK_Q_ZONE, args, v, 4)) {
    case -1: return HTTP_SERVICE_UNAVAILABLE;
    case 0:
        *err = "Invalid body: zone_id is not a zone of this competition";
        return HTTP_BAD_REQUEST;
    }
    *lane_count = v[3] ? apr_atoi64(v[3]) : 0;
    if (rk_seed_check_lanes(&g->req, *lane_count, err) != 0) {
        return HTTP_BAD_REQUEST;
    }
    g->ids[0] = rq->route.ids[RK_ID_COMPETITION];
    g->ids[1] = g->req.zone_id;
    g->ids[2] = rq->route.ids[1];
    return 0;
}

int rkm_generate_heats(request_rec *r, rkm_req *rq)
{
    gen *g = apr_pcalloc(r->pool, sizeof(*g));
    const char *err = NULL, *body;
    long long lane_count = 0;
    size_t len;
    int rv;

    if (!may_generate(r, rq)) {
        return rkm_send_status(r, HTTP_FORBIDDEN);
    }
    g->r = r;
    if ((rv = rkm_db_open(r, &g->db)) != OK) {
        return rkm_send_status(r, rv);
    }
    if ((rv = read_request(g, rq, &lane_count, &err)) == DONE || rv == AP_FILTER_ERROR) {
        return rv;
    }
    if (rv == 0 && (rv = rkm_leaderboard_with(r, &g->db, g->ids[0], copy_board, g)) == OK) {
        switch (rk_seed_plan_make(&g->req, lane_count, 1, g->divs, g->ndivs, r->pool, &g->plan,
                                  &err)) {
        case 0:                rv = 0; break;
        case RK_SEED_REFUSED:  rv = HTTP_BAD_REQUEST; break;
        default:
            ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "generate-heats: %s", err);
            err = NULL;
            rv = HTTP_INTERNAL_SERVER_ERROR;
        }
    }
    if (rv == 0) {
        rv = g->req.dry_run ? dry_run(g, &err) : write_plan(g, &err);
    }
    if (rv != 0) {
        return rkm_send_error(r, rv, err);
    }
    body = g->answer ? g->answer : rk_seed_plan_json(&g->plan, g->ids[0], g->ids[1], g->ids[2],
                                                     g->heat_ids, g->lane_ids, r->pool, &len);
    len = g->answer ? g->answer_len : len;
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "heats of WOD %s %s in zone %s by %s: %"
                  APR_SIZE_T_FMT " heats, %" APR_SIZE_T_FMT " lanes", g->ids[2],
                  g->req.dry_run ? "planned (dry run)" : "generated", g->ids[1],
                  r->user ? r->user : "-", g->plan.nheats, g->plan.nlanes);
    return rkm_send_body(r, g->req.dry_run ? HTTP_OK : HTTP_CREATED, body, len);
}
