/* mod_ranking_write.h: lane writes (variant A): PUT in grouped commits, DELETE. */
#ifndef MOD_RANKING_WRITE_H
#define MOD_RANKING_WRITE_H

#include "mod_ranking_private.h"
#include "mod_ranking_http.h"

void rk_write_child_init(apr_pool_t *p, server_rec *s);
int rk_put_lane(request_rec *r, rk_req *rq);
int rk_delete_lane(request_rec *r, rk_req *rq);

#endif
