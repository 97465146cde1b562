/* mod_ranking_connect.h: POST /connect and the login throttling counters (httpd's
 * socache, shared by the child processes). */
#ifndef MOD_RANKING_CONNECT_H
#define MOD_RANKING_CONNECT_H

#include "mod_ranking_private.h"

/* register_hooks: the ranking-login mutex and the login cache (pre_config,
 * post_config, child_init). */
void rkm_connect_register_hooks(void);

/* POST /connect */
int rkm_connect(request_rec *r);

#endif
