/* mod_ranking_view.c: the two views of scores (see mod_ranking_view.h). */
#include "mod_ranking_view.h"
#include "mod_ranking_auth.h"
#include "mod_ranking_request.h"
#include "rk_query.h"

int rkm_view_full_allowed(request_rec *r, const rkm_req *rq)
{
    /* editors and organizers on the path's competition, server-wide or by grant */
    return rkm_role_on(r, rq, rkm_path_competition(rq)) >= RKM_ROLE_EDITOR;
}

int rkm_view_of(request_rec *r, const rkm_req *rq, int *published)
{
    size_t n = r->args ? strlen(r->args) + 1 : 1;
    const char *v = NULL;

    *published = !rkm_view_full_allowed(r, rq);
    switch (rk_query_get(r->args, "view", apr_palloc(r->pool, n), n, &v)) {
    case 0:
        return 0;
    case 1:
        if (strcmp(v, "published") == 0) {
            *published = 1;
            return 0;
        }
        if (strcmp(v, "full") == 0) {
            return *published ? HTTP_FORBIDDEN : 0;
        }
        return HTTP_BAD_REQUEST;
    default:
        return HTTP_BAD_REQUEST;
    }
}

int rkm_view_route(rk_route_id id)
{
    switch (id) {
    case RK_ROUTE_A_VOIES:
    case RK_ROUTE_A_VOIE:
    case RK_ROUTE_B_LINES:
    case RK_ROUTE_B_LINE:
    case RK_ROUTE_LEADERBOARD:
    case RK_ROUTE_WOD_LEADERBOARD:
        return 1;
    default:
        return 0;
    }
}

rk_query_id rkm_view_query(rk_query_id q)
{
    switch (q) {
    case RK_Q_A_VOIES: return RK_Q_A_VOIES_PUB;
    case RK_Q_A_VOIE:  return RK_Q_A_VOIE_PUB;
    case RK_Q_B_LINES: return RK_Q_B_LINES_PUB;
    case RK_Q_B_LINE:  return RK_Q_B_LINE_PUB;
    case RK_Q_LEADERBOARD_LANES: return RK_Q_LEADERBOARD_LANES_PUB;
    case RK_Q_LEADERBOARD_LANES_UNTIMED: return RK_Q_LEADERBOARD_LANES_UNTIMED_PUB;
    case RK_Q_LEADERBOARD_LANE: return RK_Q_LEADERBOARD_LANE_PUB;
    default: return q;
    }
}
