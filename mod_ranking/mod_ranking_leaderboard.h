/* mod_ranking_leaderboard.h: leaderboards, built from the database by rk_leaderboard. */
#ifndef MOD_RANKING_LEADERBOARD_H
#define MOD_RANKING_LEADERBOARD_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"
#include "rk_router.h"

/* register_hooks: child_init makes the mutexes of the leaderboard inputs each child
 * keeps. */
void rkm_leaderboard_register_hooks(void);

/* The leaderboard of ROUTE (RK_ROUTE_LEADERBOARD or RK_ROUTE_WOD_LEADERBOARD), only
 * DIVISION when not NULL, of the PUBLISHED values (else the current ones), written into a value of its exact size for the answer
 * cache under KEY (the caller holds its reference); or NULL with *STATUS 404 (no
 * such competition, WOD of it, or division), 503 or 500. */
void *rkm_leaderboard_build(request_rec *r, rkm_db *db, const rk_route *route, const char *division,
                     int published, const char *key, int *status, size_t *len);

/* Rank competition CID (the full view: the scores as stored) and call FN with the
 * computed leaderboard, which lives only during the call (it points into the input this
 * child keeps, locked meanwhile): FN copies what it needs.  OK, 404 (no such
 * competition), 503 or 500. */
struct rk_leaderboard;
typedef void rkm_leaderboard_fn(void *baton, const struct rk_leaderboard *lb);
int rkm_leaderboard_with(request_rec *r, rkm_db *db, const char *cid, rkm_leaderboard_fn *fn,
                         void *baton);

/* OK when the competition of ROUTE (and its WOD, for a WOD leaderboard) exists; else
 * 404, or 503 on a database error. */
int rkm_leaderboard_exists(request_rec *r, rkm_db *db, const rk_route *route);

#endif
