/* mod_ranking_board.c: a leaderboard is computed from five selects (competition,
 * WODs, spots, lanes of timed heats then of untimed heats: rk_sql.c says why), read
 * in one read-only transaction so that they see the same data, by the pure
 * rk_leaderboard (the ranking rules), once per data revision: the read path caches
 * the answer like any other. */
#include "mod_ranking_board.h"
#include "rk_cache.h"
#include "rk_leaderboard.h"

/* Read every row of query Q (competition id ARG) into an array of NCOLS strings per
 * row, copied into P: a new array when *OUT is NULL, else appended to *OUT.  0, or -1
 * on a database error. */
static int rows(request_rec *r, apr_pool_t *p, rk_db *db, rk_query_id q, const char *arg,
                int ncols, apr_array_header_t **out)
{
    const char *args[1] = { arg };
    apr_dbd_results_t *rs = NULL;
    apr_dbd_row_t *row = NULL;
    int i;

    if (rk_db_select(r, p, db, q, args, &rs) != 0) {
        return -1;
    }
    if (*out == NULL) {
        *out = apr_array_make(p, 256, ncols * (int)sizeof(const char *));
    }
    while (apr_dbd_get_row(db->dbd->driver, p, rs, &row, -1) == 0) {
        const char **v = apr_array_push(*out);

        for (i = 0; i < ncols; i++) {
            const char *c = rk_db_col(db, row, i);
            v[i] = c ? apr_pstrdup(p, c) : NULL;
        }
    }
    return 0;
}

/* The inputs of the competition of ROUTE into IN (strings in P).  OK, 404 when there
 * is no such competition, or 503. */
static int read_input(request_rec *r, apr_pool_t *p, rk_db *db, const rk_route *route,
                      rk_lb_input *in)
{
    const char *cid = route->ids[RK_ID_COMPETITION];
    apr_array_header_t *comp = NULL, *wods = NULL, *spots = NULL, *lanes = NULL;
    const char **v;
    rk_lb_wod *w;
    rk_lb_spot *s;
    rk_lb_lane *l;
    int i;

    if (rows(r, p, db, RK_Q_LB_COMPETITION, cid, 2, &comp) != 0
        || rows(r, p, db, RK_Q_LB_WODS, cid, 3, &wods) != 0
        || rows(r, p, db, RK_Q_LB_SPOTS, cid, 4, &spots) != 0
        || rows(r, p, db, RK_Q_LB_LANES, cid, 6, &lanes) != 0
        || rows(r, p, db, RK_Q_LB_LANES_UNTIMED, cid, 6, &lanes) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (comp->nelts == 0) {
        return HTTP_NOT_FOUND;
    }
    v = (const char **)comp->elts;
    in->competition_id = v[0];
    in->ranking = v[1];

    in->nwods = (size_t)wods->nelts;
    in->wods = w = apr_pcalloc(p, (in->nwods + 1) * sizeof(*w));
    for (i = 0, v = (const char **)wods->elts; i < wods->nelts; i++, v += 3) {
        w[i].id = v[0];
        w[i].scoring = v[1];
        w[i].time_cap = v[2];
    }
    in->nspots = (size_t)spots->nelts;
    in->spots = s = apr_pcalloc(p, (in->nspots + 1) * sizeof(*s));
    for (i = 0, v = (const char **)spots->elts; i < spots->nelts; i++, v += 4) {
        s[i].id = v[0];
        s[i].name = v[1];
        s[i].division = v[2];
        s[i].bib = v[3];
    }
    in->nlanes = (size_t)lanes->nelts;
    in->lanes = l = apr_pcalloc(p, (in->nlanes + 1) * sizeof(*l));
    for (i = 0, v = (const char **)lanes->elts; i < lanes->nelts; i++, v += 6) {
        l[i].wod_id = v[0];
        l[i].spot_id = v[1];
        l[i].heat_id = v[2];
        l[i].lane_id = v[3];
        l[i].score = v[4];
        l[i].tiebreak = v[5];
    }
    return OK;
}

void *rk_board_build(request_rec *r, rk_db *db, const rk_route *route, const char *division,
                     const char *key, int *status, size_t *len)
{
    const char *wod = route->id == RK_ROUTE_WOD_LEADERBOARD ? route->ids[1] : NULL;
    apr_pool_t *p;
    rk_lb_input in;
    rk_lb *lb = NULL;
    char *out = NULL;

    *status = HTTP_INTERNAL_SERVER_ERROR;
    if (!(p = rk_db_rows_pool(r))) {
        return NULL;
    }
    memset(&in, 0, sizeof(in));
    if (rk_db_begin_read(r, db) != 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
    }
    else {
        *status = read_input(r, p, db, route, &in);
        rk_db_end_read(r, db);
    }
    if (*status == OK) {
        *status = HTTP_INTERNAL_SERVER_ERROR;
        if ((lb = rk_lb_compute(&in)) == NULL) {
            ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "out of memory ranking competition %s",
                          in.competition_id);
        }
        else if ((wod && !rk_lb_has_wod(lb, wod)) || (division && !rk_lb_has_division(lb, division))) {
            *status = HTTP_NOT_FOUND;
        }
        else {
            *len = rk_lb_json(NULL, lb, wod, division);
            if ((out = rk_cache_value_new(key, *len)) != NULL) {
                rk_lb_json(out, lb, wod, division);
                *status = HTTP_OK;
            }
        }
        rk_lb_free(lb);
    }
    apr_pool_destroy(p);
    return out;
}

int rk_board_exists(request_rec *r, rk_db *db, const rk_route *route)
{
    const char *args[RK_MAX_IDS], *id[1];

    rk_route_args(route, args);
    switch (rk_db_select_one(r, db, route->id == RK_ROUTE_WOD_LEADERBOARD ? RK_Q_WOD
                             : RK_Q_COMPETITION, args, id, 1)) {
    case 1:  return OK;
    case 0:  return HTTP_NOT_FOUND;
    default: return HTTP_SERVICE_UNAVAILABLE;
    }
}
