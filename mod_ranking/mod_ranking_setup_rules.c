/* mod_ranking_setup_rules.c: the rules of the organizer's writes that need the
 * database (see mod_ranking_setup.h): API.md part 3's "Conflicts" (409) and the 400s
 * of a value that must name something of the competition.  Each runs inside the
 * write's transaction, so that what it checks is what the write changes. */
#include "mod_ranking_setup.h"
#include "rk_score.h"

#define ID_NONE "0"   /* an id no row has (ids are positive) */

static int conflict(rkm_setup_ctx *c, const char *msg)
{
    c->err = msg;
    return HTTP_CONFLICT;
}

static int bad(rkm_setup_ctx *c, const char *msg)
{
    c->err = msg;
    return HTTP_BAD_REQUEST;
}

/* The first column of Q's first row as an integer into *N (0 without a row or for
 * NULL): 0, or -1 on a database error. */
static int ask(rkm_setup_ctx *c, rk_query_id q, const char **args, apr_int64_t *n)
{
    const char *v[1];

    switch (rkm_db_select_one(c->r, c->db, q, args, v, 1)) {
    case -1:
        return -1;
    case 0:
        *n = 0;
        return 0;
    }
    *n = v[0] ? apr_atoi64(v[0]) : 0;
    return 0;
}

#define ASK(q, args, n) \
    do { if (ask(c, (q), (args), &(n)) != 0) return HTTP_SERVICE_UNAVAILABLE; } while (0)

/* Whether field F changes (a POST: whether it is set at all). */
static int changes(const rkm_setup_ctx *c, int f)
{
    const char *a = c->old[f], *b = c->cur[f];

    if (c->op == RKM_SETUP_POST) {
        return b != NULL;
    }
    return (a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0);
}

static const char *own_id(const rkm_setup_ctx *c)
{
    return c->op == RKM_SETUP_POST ? ID_NONE : c->ids[c->nids - 1];
}

static int competition_rules(rkm_setup_ctx *c)
{
    const char *args[1] = { c->ids[0] };
    apr_int64_t n;

    if (c->op == RKM_SETUP_PATCH) {
        const char *m = rk_resource_dates_check(c->cur[RK_COMP_START_DATE], c->cur[RK_COMP_END_DATE]);
        if (m) {
            return bad(c, m);
        }
    }
    if (c->op == RKM_SETUP_DELETE) {
        ASK(RK_Q_SETUP_COMP_CHILDREN, args, n);
        if (n > 0) {
            return conflict(c, "Conflict: the competition still has WODs, spots, zones or "
                            "heats: delete them first");
        }
    }
    return 0;
}

/* A PATCH of a WOD's scoring or time_cap: the stored scores of its heats' lanes must
 * still be read by it. */
static int wod_scores_fit(rkm_setup_ctx *c)
{
    const char *args[2] = { c->ids[0], c->ids[1] };
    apr_array_header_t *rows = NULL;
    rk_scoring scoring = rk_scoring_parse(c->cur[RK_WOD_SCORING]);
    int64_t cap = c->cur[RK_WOD_TIME_CAP] ? apr_atoi64(c->cur[RK_WOD_TIME_CAP]) : 0;
    int i, unfit = 0;

    if (rkm_db_select_rows(c->r, c->r->pool, c->r->pool, c->db, RK_Q_SETUP_WOD_SCORES, args, 1,
                           &rows) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    for (i = 0; i < rows->nelts; i++) {
        const char *score = APR_ARRAY_IDX(rows, i, const char *);   /* one column a row */
        const char *err = NULL;
        rk_score s;

        if (score && rk_score_parse(scoring, cap, score, &s, &err) != 0) {
            unfit++;
        }
    }
    if (unfit) {
        return conflict(c, apr_psprintf(c->r->pool, "Conflict: %d stored score%s of this "
                                        "WOD's lanes would not fit the new scoring or "
                                        "time_cap (time_cap is seconds): change or empty "
                                        "%s first", unfit, unfit > 1 ? "s" : "",
                                        unfit > 1 ? "them" : "it"));
    }
    return 0;
}

static int wod_rules(rkm_setup_ctx *c)
{
    const char *args[2] = { c->ids[0], own_id(c) };
    apr_int64_t n;

    if (c->op == RKM_SETUP_PATCH && (changes(c, RK_WOD_SCORING) || changes(c, RK_WOD_TIME_CAP))) {
        return wod_scores_fit(c);
    }
    if (c->op == RKM_SETUP_DELETE) {
        ASK(RK_Q_SETUP_WOD_HEATS, args, n);
        if (n > 0) {
            return conflict(c, "Conflict: a heat uses this WOD: delete the heat or give it "
                            "another WOD first");
        }
    }
    return 0;
}

static int spot_rules(rkm_setup_ctx *c)
{
    const char *bib[3] = { c->ids[0], c->cur[RK_SPOT_BIB], own_id(c) };
    const char *lanes[1] = { own_id(c) };
    apr_int64_t n;

    if (c->op != RKM_SETUP_DELETE && c->cur[RK_SPOT_BIB] && changes(c, RK_SPOT_BIB)) {
        ASK(RK_Q_SETUP_SPOT_BIB, bib, n);
        if (n > 0) {
            return conflict(c, "Conflict: another spot of the competition has this bib");
        }
    }
    if (c->op == RKM_SETUP_DELETE) {
        ASK(RK_Q_SETUP_SPOT_LANES, lanes, n);
        if (n > 0) {
            return conflict(c, "Conflict: the spot is in a lane: empty or delete the lane first");
        }
    }
    return 0;
}

static int zone_rules(rkm_setup_ctx *c)
{
    const char *args[2] = { c->ids[0], own_id(c) };
    apr_int64_t n;

    if (c->op == RKM_SETUP_PATCH && changes(c, RK_ZONE_LANE_COUNT)) {
        ASK(RK_Q_SETUP_ZONE_MAX_LANE, args, n);
        if (n > apr_atoi64(c->cur[RK_ZONE_LANE_COUNT])) {
            return conflict(c, "Conflict: a heat of this zone has a lane numbered above the "
                            "new lane_count: move or delete that lane first");
        }
    }
    if (c->op == RKM_SETUP_DELETE) {
        ASK(RK_Q_SETUP_ZONE_HEATS, args, n);
        if (n > 0) {
            return conflict(c, "Conflict: the zone has heats: delete them or move them to "
                            "another zone first");
        }
    }
    return 0;
}

/* A heat's POST or PATCH: its WOD and zone must be the competition's (400), then the
 * conflicts.  *LANE_COUNT: the lane_count of the zone it moves to (0: no move). */
static int heat_refs(rkm_setup_ctx *c, apr_int64_t *lane_count)
{
    const char *wod[2] = { c->ids[0], c->cur[RK_HEAT_WOD_ID] };
    const char *zone[2] = { c->ids[0], c->cur[RK_HEAT_ZONE_ID] };
    const char *v[2];

    *lane_count = 0;
    if (c->cur[RK_HEAT_WOD_ID] && changes(c, RK_HEAT_WOD_ID)) {
        switch (rkm_db_select_one(c->r, c->db, RK_Q_SETUP_WOD_ROW, wod, v, 1)) {
        case -1: return HTTP_SERVICE_UNAVAILABLE;
        case 0:  return bad(c, "Invalid body: wod_id is not a WOD of this competition");
        }
    }
    if (c->op == RKM_SETUP_PATCH && changes(c, RK_HEAT_ZONE_ID)) {
        switch (rkm_db_select_one(c->r, c->db, RK_Q_SETUP_ZONE_ROW, zone, v, 2)) {
        case -1: return HTTP_SERVICE_UNAVAILABLE;
        case 0:  return bad(c, "Invalid body: zone_id is not a zone of this competition");
        }
        *lane_count = v[1] ? apr_atoi64(v[1]) : 0;
    }
    return 0;
}

static int heat_rules(rkm_setup_ctx *c)
{
    const char *number[4] = { c->ids[0], c->cur[RK_HEAT_ZONE_ID], c->cur[RK_HEAT_NUMBER], own_id(c) };
    const char *heat[1] = { own_id(c) }, *lanes[2];
    apr_int64_t n, lane_count, scored = 0, top = 0;
    int rv;

    if (c->op != RKM_SETUP_POST) {
        if (rkm_db_select_one(c->r, c->db, RK_Q_SETUP_HEAT_LANES, heat, lanes, 2) != 1) {
            return HTTP_SERVICE_UNAVAILABLE;
        }
        scored = lanes[0] ? apr_atoi64(lanes[0]) : 0;
        top = lanes[1] ? apr_atoi64(lanes[1]) : 0;
    }
    if (c->op == RKM_SETUP_DELETE) {
        return scored ? conflict(c, "Conflict: a lane of this heat has a score: empty its "
                                 "scores before deleting the heat") : 0;
    }
    if ((rv = heat_refs(c, &lane_count)) != 0) {
        return rv;
    }
    if (changes(c, RK_HEAT_NUMBER) || changes(c, RK_HEAT_ZONE_ID)) {
        ASK(RK_Q_SETUP_HEAT_NUMBER, number, n);
        if (n > 0) {
            return conflict(c, "Conflict: another heat of the zone has this number");
        }
    }
    if (c->op == RKM_SETUP_PATCH) {
        if (changes(c, RK_HEAT_WOD_ID) && scored) {
            return conflict(c, "Conflict: a lane of this heat has a score: its WOD cannot "
                            "change");
        }
        if (changes(c, RK_HEAT_STATUS) && !strcmp(c->cur[RK_HEAT_STATUS], "scheduled") && scored) {
            return conflict(c, "Conflict: a lane of this heat has a score: it cannot be "
                            "scheduled again");
        }
        if (lane_count && top > lane_count) {
            return conflict(c, "Conflict: a lane of this heat is numbered above the new "
                            "zone's lane_count");
        }
    }
    return 0;
}

/* A lane's POST: the heat's zone and WOD say what fits. */
static int lane_rules(rkm_setup_ctx *c)
{
    const char *heat[3] = { c->ids[0], c->ids[1], c->ids[2] }, *h[3], *found[1];
    const char *spot[2] = { c->ids[0], c->cur[RK_LANE_SPOT_ID] };
    const char *num[4] = { c->ids[2], ID_NONE, c->cur[RK_LANE_NUMBER], ID_NONE };
    const char *taken[4] = { c->ids[2], ID_NONE, ID_NONE, c->cur[RK_LANE_SPOT_ID] };
    apr_int64_t n;
    rk_score s;

    switch (rkm_db_select_one(c->r, c->db, RK_Q_SETUP_LANE_HEAT, heat, h, 3)) {
    case -1: return HTTP_SERVICE_UNAVAILABLE;
    case 0:  return HTTP_NOT_FOUND;   /* deleted meanwhile */
    }
    if (c->cur[RK_LANE_SPOT_ID]) {
        switch (rkm_db_select_one(c->r, c->db, RK_Q_SPOT_IN_COMPETITION, spot, found, 1)) {
        case -1: return HTTP_SERVICE_UNAVAILABLE;
        case 0:  return bad(c, "Invalid body: spot_id is not a spot of this competition");
        }
    }
    c->err = NULL;
    if (c->cur[RK_LANE_SCORE]
        && rk_score_parse(rk_scoring_parse(h[1]), h[2] ? apr_atoi64(h[2]) : 0,
                          c->cur[RK_LANE_SCORE], &s, &c->err) != 0) {
        return HTTP_BAD_REQUEST;
    }
    if (h[0] && apr_atoi64(c->cur[RK_LANE_NUMBER]) > apr_atoi64(h[0])) {
        return conflict(c, "Conflict: number is above the zone's lane_count");
    }
    ASK(RK_Q_LANE_CONFLICT, num, n);
    if (n > 0) {
        return conflict(c, "Conflict: the lane number is already used in this heat");
    }
    if (c->cur[RK_LANE_SPOT_ID]) {
        ASK(RK_Q_LANE_CONFLICT, taken, n);
        if (n > 0) {
            return conflict(c, "Conflict: the spot is already in another lane of this heat");
        }
    }
    return 0;
}

int rkm_setup_rules(rkm_setup_ctx *c)
{
    c->err = NULL;
    switch (c->kind) {
    case RK_RES_COMPETITION: return competition_rules(c);
    case RK_RES_WOD:         return wod_rules(c);
    case RK_RES_SPOT:        return spot_rules(c);
    case RK_RES_ZONE:        return zone_rules(c);
    case RK_RES_HEAT:        return heat_rules(c);
    case RK_RES_LANE:        return lane_rules(c);
    default:                 return HTTP_INTERNAL_SERVER_ERROR;
    }
}
