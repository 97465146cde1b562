/* mod_ranking_view.h: the two views of scores (API.md part 3, "Scores: entered,
 * validated, published"): who gets which, and what differs between them.  The full
 * view shows every lane's current score, tiebreak and score_status; in a competition
 * with publication 'validated' the published view shows the published values in
 * their place; with 'immediate' the two are one.  Used by the read path (answers,
 * their cache keys and ETags) and by live updates (which events a stream gets). */
#ifndef MOD_RANKING_VIEW_H
#define MOD_RANKING_VIEW_H

#include "mod_ranking_private.h"
#include "rk_router.h"

struct rkm_req;

/* The one role test of views: whether the request's user sees the full view (by
 * default, and may ask for it): an editor or an organizer on the path's competition,
 * server-wide or by grant (rkm_role_on); a reader and an anonymous client do not. */
int rkm_view_full_allowed(request_rec *r, const struct rkm_req *rq);

/* The view a request asks for: editors and organizers get the full view, readers and anonymous
 * clients the published one; ?view=published gives anyone the published view,
 * ?view=full is for those who see the full view.  0 with *PUBLISHED set, 403 (a
 * reader's ?view=full) or 400 (another value, or the parameter given twice). */
int rkm_view_of(request_rec *r, const struct rkm_req *rq, int *published);

/* 1 when the answers of route ID show scores (lanes, leaderboards): they differ
 * between the views. */
int rkm_view_route(rk_route_id id);

/* The statement of the published view in place of Q (Q itself when the view does not
 * change it). */
rk_query_id rkm_view_query(rk_query_id q);

#endif
