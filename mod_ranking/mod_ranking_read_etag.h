/* mod_ranking_read_etag.h: the ETag of a read's answer (mod_ranking_read.c), and a
 * number's text without apr_psprintf (whose formatting costs about twice as much, on
 * the path of every cached read). */
#ifndef MOD_RANKING_READ_ETAG_H
#define MOD_RANKING_READ_ETAG_H

#include "mod_ranking_private.h"
#include "rk_query.h"
#include "rk_router.h"

struct rkm_req;

/* V in decimal, in P */
const char *rkm_u64_text(apr_pool_t *p, apr_uint64_t v);

/* The strong ETag of the answer VALUE of KEY: one per data revision, and per
 * parameter set (DIVISION, LQ); a single resource's own (own_answer_etag); of the
 * PUBLISHED view of a competition with publication 'validated', one per content (its
 * tag), so that a change the view does not show leaves it as it was.  NULL when a
 * single resource's
 * answer is not of the expected shape. */
const char *rkm_answer_etag(request_rec *r, const struct rkm_req *rq, const char *key,
                            const char *division, const rk_list_query *lq, int published,
                            const void *value, size_t len);

/* Before the answer VALUE (LEN bytes) of route ID is shared (cached): the digest its
 * ETag is made of, kept with it when it is a single resource's (rk_cache_value_digest),
 * so that a read of it does not hash it again. */
void rkm_answer_etag_prepare(rk_route_id id, void *value, size_t len);

#endif
