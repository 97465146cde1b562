/* mod_ranking_validate.h: validation of scores (API.md part 3): one lane, or every
 * lane of a heat that waits for it. */
#ifndef MOD_RANKING_VALIDATE_H
#define MOD_RANKING_VALIDATE_H

#include "mod_ranking_private.h"

struct rkm_req;

/* POST .../zone/{z}/heat/{h}/voie/{v}/validate: 200 with the lane (full view), 404,
 * 409 (no score), 412 (If-Match), 415, 413, 400 (a body other than {}), 503. */
int rkm_validate_lane(request_rec *r, struct rkm_req *rq);
/* POST .../zone/{z}/heat/{h}/validate: 200 with the heat's lanes (full view, by
 * number), 404, 415, 413, 400, 503. */
int rkm_validate_heat(request_rec *r, struct rkm_req *rq);

#endif
