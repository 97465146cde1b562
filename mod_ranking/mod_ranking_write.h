/* mod_ranking_write.h: lane writes (variant A): PUT in grouped commits, DELETE. */
#ifndef MOD_RANKING_WRITE_H
#define MOD_RANKING_WRITE_H

#include "mod_ranking_private.h"

struct rkm_req;

/* register_hooks: child_init makes this child's queue of lane writes. */
void rkm_write_register_hooks(void);
int rkm_put_lane(request_rec *r, struct rkm_req *rq);
int rkm_delete_lane(request_rec *r, struct rkm_req *rq);

#endif
