/* mod_ranking_read.h: the read routes: ETag and 304, answers built once per data
 * revision and kept in the answer cache. */
#ifndef MOD_RANKING_READ_H
#define MOD_RANKING_READ_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"

struct rkm_req;
#include "rk_query.h"
#include "rk_router.h"

/* GET or HEAD of a read route.  With RQ->quick (the quick handler): from the caches
 * only, the answer's headers set just before it is sent (those of the access hook
 * too); DECLINED, with no header set, for anything else (an error, a miss, a 412): the
 * normal path answers it. */
int rkm_read(request_rec *r, struct rkm_req *rq);

/* Whether the published view of competition CID differs from the full one (its
 * publication is 'validated'), at the request's revision (cached with the answers):
 * 1 or 0; 0 also when there is no such competition (its answers are 404 anyway); -1
 * with *STATUS when the database cannot tell. */
int rkm_read_publication(request_rec *r, struct rkm_req *rq, rkm_db *db, const char *cid,
                         int *status);

#endif
