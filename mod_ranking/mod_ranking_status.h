/* mod_ranking_status.h: the module's section of mod_status's server-status. */
#ifndef MOD_RANKING_STATUS_H
#define MOD_RANKING_STATUS_H

#include "mod_ranking_private.h"
#include "rk_stats.h"

/* This child's figures (a slot of the shared table; a private one until child_init
 * has claimed it, or when there is no table): never NULL, so that counting needs no
 * test. */
extern rk_stats_child *rkm_stats;

/* register_hooks: post_config maps the table (one slot per possible child, twice over
 * for the children of an older generation that finish during a graceful restart);
 * child_init claims this child's slot, given back when the child exits; and
 * mod_status's status_hook (optional: nothing without mod_status). */
void rkm_status_register_hooks(void);

#endif
