/* mod_ranking_places.h: live updates, how many listeners there may be (see
 * mod_ranking_places.c).  For the files of live updates only. */
#ifndef MOD_RANKING_PLACES_H
#define MOD_RANKING_PLACES_H

#include "mod_ranking_private.h"

/* register_hooks: post_config counts the workers and maps the server-wide count. */
void rkm_places_register_hooks(void);

/* The watcher's mutex held: room for one more listener, parked (ASYNC) or not, of
 * connection C (counted): 1, or 0 (answer 503); and its release. */
int rkm_places_take(int async, conn_rec *c);
void rkm_places_give(int async, conn_rec *c);

#endif
