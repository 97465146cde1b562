/* mod_ranking_auth.h: the bearer token check (the access hook), and the role of the
 * token's user (API.md part 3, "Roles"). */
#ifndef MOD_RANKING_AUTH_H
#define MOD_RANKING_AUTH_H

#include "mod_ranking_private.h"
#include "rk_router.h"

struct rkm_req;

/* Check the request's bearer token: OK with r->user and RQ's roles set (role on the
 * path's competition, server-wide role: read with the token, cached with it for the
 * database's auth revision, which every change of an account, a token or a grant
 * moves); otherwise the error answer (401, 503) has been sent and its status is
 * returned. */
int rkm_authenticate(request_rec *r, struct rkm_req *rq);
/* For a request whose token was checked with counters that may be out of date
 * (RQ->auth_deferred: a lane PUT, rkm_request_put_deferrable), before any answer but its
 * success: the counters read from the database, then the token and the role the route
 * and method need checked again.  OK (the request goes on, RQ->auth_deferred cleared),
 * or the refusal (401, 403, 503) has been sent and its status is returned.  OK at once
 * for any other request. */
int rkm_auth_confirm(request_rec *r, struct rkm_req *rq);

/* The roles, in order (rk_router.h's). */
#define RKM_ROLE_READER    RK_ROLE_READER
#define RKM_ROLE_EDITOR    RK_ROLE_EDITOR
#define RKM_ROLE_ORGANIZER RK_ROLE_ORGANIZER

/* The role of the request's user on competition COMPETITION_ID (a decimal id; NULL:
 * its server-wide role): the higher of its server-wide role and its grant there.
 * RKM_ROLE_READER for a request without a token (a public read) and when the grant
 * cannot be read (logged).  The path's competition is known from the token check;
 * another one is read from the database. */
int rkm_role_on(request_rec *r, const struct rkm_req *rq, const char *competition_id);

/* Whether RQ's user has the role its route and method need (rk_route_role) on the
 * path's competition (rkm_role_on); 1 for a route that needs none. */
int rkm_role_enough(request_rec *r, const struct rkm_req *rq);
/* The competition of RQ's path (its first id), or NULL for a path without one. */
const char *rkm_path_competition(const struct rkm_req *rq);

#endif
