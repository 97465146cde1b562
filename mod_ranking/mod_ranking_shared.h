/* mod_ranking_shared.h: anonymous shared memory, mapped by the parent at post_config
 * and inherited by the children (the shared revision table, the server-status table,
 * the count of listeners that hold a thread). */
#ifndef MOD_RANKING_SHARED_H
#define MOD_RANKING_SHARED_H

#include "mod_ranking_private.h"

/* SIZE bytes of anonymous shared memory, its address also kept in *SLOT; unmapped
 * when PCONF is cleared, *SLOT then NULL.  NULL (logged, naming WHAT) when it cannot
 * be mapped. */
void *rkm_shared_map(apr_pool_t *pconf, server_rec *s, size_t size, void **slot, const char *what);

#endif
