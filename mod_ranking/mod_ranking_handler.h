/* mod_ranking_handler.h: the hooks a request on a mount goes through, from
 * translate_name to the handler. */
#ifndef MOD_RANKING_HANDLER_H
#define MOD_RANKING_HANDLER_H

#include "mod_ranking_private.h"

void rkm_handler_register_hooks(void);

/* Answer R again, past the checks, as its handler did: a parked long poll's turn
 * (mod_ranking_parked.c) hands its request back this way, and the read path, seeing
 * that the request has waited, answers it anew. */
int rkm_handler_resume(request_rec *r);

#endif
