/* mod_ranking_auth.h: the bearer token check (the access hook). */
#ifndef MOD_RANKING_AUTH_H
#define MOD_RANKING_AUTH_H

#include "mod_ranking_private.h"

struct rkm_req;

/* Check the request's bearer token: OK with r->user and RQ->editor set; otherwise
 * the error answer (401, 503) has been sent and its status is returned. */
int rkm_authenticate(request_rec *r, struct rkm_req *rq);

#endif
