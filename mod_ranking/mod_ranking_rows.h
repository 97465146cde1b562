/* mod_ranking_rows.h: answers made of a statement's rows (mod_ranking_rows.c). */
#ifndef MOD_RANKING_ROWS_H
#define MOD_RANKING_ROWS_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"
#include "rk_query.h"
#include "rk_router.h"

/* The answer of ROUTE (a read route) written into a value of its exact size
 * (rk_cache_value_new under KEY; KEY NULL: a value only sent, never cached), the
 * caller holding its reference; or NULL with *STATUS 404, 503 or 500.  A list is
 * filtered and paged as LQ says (NULL: whole), the number of rows its filters select
 * kept with the value (rk_cache_value_meta, for X-Total-Count).  PUBLISHED: the
 * published view's statement (mod_ranking_view.h). */
void *rkm_build_answer(request_rec *r, rkm_db *db, const rk_route *route, const char *key,
                      const rk_list_query *lq, int published, int *status, size_t *len);

#endif
