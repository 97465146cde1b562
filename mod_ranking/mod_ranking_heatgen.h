/* mod_ranking_heatgen.h: POST /competition/{c}/wod/{w}/generate-heats (API.md Part 3,
 * "Heat generation and cut lines"). */
#ifndef MOD_RANKING_HEATGEN_H
#define MOD_RANKING_HEATGEN_H

#include "mod_ranking_private.h"

struct rkm_req;

/* The answer of a generate-heats request that passed the route, method and role
 * checks of the handler. */
int rkm_generate_heats(request_rec *r, struct rkm_req *rq);

#endif
