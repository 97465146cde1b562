/* mod_ranking_auth.h: the bearer token check (access hook), POST /connect and the
 * login throttling counters (httpd's socache, shared by the child processes). */
#ifndef MOD_RANKING_AUTH_H
#define MOD_RANKING_AUTH_H

#include "mod_ranking_private.h"
#include "mod_ranking_http.h"

int rk_auth_pre_config(apr_pool_t *pconf);
int rk_auth_post_config(apr_pool_t *pconf, apr_pool_t *ptemp, server_rec *s);  /* OK or 500 */
void rk_auth_child_init(apr_pool_t *p, server_rec *s);

/* Check the request's bearer token: OK with r->user and RQ->editor set; otherwise
 * the error answer (401, 503) has been sent and its status is returned. */
int rk_authenticate(request_rec *r, rk_req *rq);

/* POST /connect */
int rk_connect(request_rec *r);

#endif
