/* mod_ranking_write.h: lane writes (variant A): PUT in grouped commits, DELETE. */
#ifndef MOD_RANKING_WRITE_H
#define MOD_RANKING_WRITE_H

#include "mod_ranking_private.h"

struct rk_req;

/* register_hooks: child_init makes this child's queue of lane writes. */
void rkm_write_register_hooks(void);
int rk_put_lane(request_rec *r, struct rk_req *rq);
int rk_delete_lane(request_rec *r, struct rk_req *rq);

#endif
