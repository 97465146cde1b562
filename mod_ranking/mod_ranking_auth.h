/* mod_ranking_auth.h: the bearer token check (access hook), POST /connect and the
 * login throttling counters (httpd's socache, shared by the child processes). */
#ifndef MOD_RANKING_AUTH_H
#define MOD_RANKING_AUTH_H

#include "mod_ranking_private.h"

struct rk_req;

/* register_hooks: the ranking-login mutex and the login cache (pre_config,
 * post_config, child_init). */
void rkm_auth_register_hooks(void);

/* Check the request's bearer token: OK with r->user and RQ->editor set; otherwise
 * the error answer (401, 503) has been sent and its status is returned. */
int rk_authenticate(request_rec *r, struct rk_req *rq);

/* POST /connect */
int rk_connect(request_rec *r);

#endif
