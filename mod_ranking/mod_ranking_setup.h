/* mod_ranking_setup.h: the organizer's setup and day-of changes (API.md part 3):
 * POST on a list, PATCH and DELETE of one competition, WOD, spot, zone or heat, and
 * POST of a lane: the routes whose write is RK_WRITE_SETUP in the route table. */
#ifndef MOD_RANKING_SETUP_H
#define MOD_RANKING_SETUP_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"
#include "rk_resource.h"
#include "rk_router.h"

struct rkm_req;

/* The answer of a POST, PATCH or DELETE of a setup route (role checked). */
int rkm_setup(request_rec *r, struct rkm_req *rq);

/* mod_ranking_setup_csv.c: POST .../spot/ with text/csv, a team list (the
 * competition known to exist; DB open).  The handler's return value. */
int rkm_setup_csv(request_rec *r, struct rkm_req *rq, rkm_db *db);

/* ---- between mod_ranking_setup.c and mod_ranking_setup_rules.c ---- */

typedef enum { RKM_SETUP_POST, RKM_SETUP_PATCH, RKM_SETUP_DELETE } rkm_setup_op;

/* One write, inside its transaction. */
typedef struct {
    request_rec *r;
    rkm_db *db;
    rkm_setup_op op;
    rk_resource_kind kind;
    int nfields;                          /* the kind's writable fields (rk_resource.h) */
    const char *ids[RK_MAX_IDS];          /* the path ids of the resource (its route's,
                                           * its own id last; a POST's once given) */
    int nids;
    const char *old[RK_RES_MAX_FIELDS];   /* PATCH, DELETE: the fields as stored */
    const char *cur[RK_RES_MAX_FIELDS];   /* POST, PATCH: the fields to store */
    const rk_resource_body *body;         /* POST, PATCH: the request's */
    const char *err;                      /* the message of a refusal */
} rkm_setup_ctx;

/* The rules of the write that need the database (API.md's "Conflicts", and the 400s
 * of a value that must name something of the competition), in the write's
 * transaction, 400s first: 0, or the status to answer (400, 404, 409, 503) with
 * C->err its message (NULL: the status's). */
int rkm_setup_rules(rkm_setup_ctx *c);

#endif
