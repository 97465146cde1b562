/* mod_ranking_write.h: lane writes (variant A): PUT in grouped commits, DELETE; and the
 * lane helpers the validation (mod_ranking_validate.c) shares. */
#ifndef MOD_RANKING_WRITE_H
#define MOD_RANKING_WRITE_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"
#include "rk_router.h"

struct rkm_req;

/* register_hooks: child_init makes this child's queue of lane writes. */
void rkm_write_register_hooks(void);
int rkm_put_lane(request_rec *r, struct rkm_req *rq);
int rkm_delete_lane(request_rec *r, struct rkm_req *rq);

/* For the other lane writes (mod_ranking_validate.c). */
#define RKM_LANE_FIELDS RK_LANE_NCOLS   /* rk_res_voie.nfields: the columns of RK_Q_A_VOIE */
/* The lane of ROUTE (variant A) as the full view shows it, into V (RKM_LANE_FIELDS
 * values in r->pool): 1, 0 when there is none, -1 on a database error. */
int rkm_lane_row(request_rec *r, rkm_db *db, const rk_route *route, const char **v);
/* Its JSON object (in r->pool), and the strong ETag of that object (a GET's). */
const char *rkm_lane_json(request_rec *r, const char *const *v);
const char *rkm_lane_etag(request_rec *r, const struct rkm_req *rq, const char *lane_obj);
/* Whether the request has If-Match or If-None-Match (rkm_request_has_conditions) and
 * the lane (its JSON object) fails them (412). */
int rkm_lane_cond_failed(request_rec *r, const struct rkm_req *rq, const char *lane_obj);

#endif
