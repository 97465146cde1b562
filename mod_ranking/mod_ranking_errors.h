/* mod_ranking_errors.h: httpd's own error answers on a mount (an HTML page
 * otherwise): the JSON error of the status, application/json, nosniff. */
#ifndef MOD_RANKING_ERRORS_H
#define MOD_RANKING_ERRORS_H

#include "mod_ranking_private.h"

/* register_hooks: the filter and the insert_error_filter hook that adds it. */
void rkm_errors_register_hooks(void);

#endif
