/* mod_ranking_private.h: what every httpd-facing file (mod_ranking*.c) needs, and
 * nothing more.  Each of those files offers its own functions in its own small
 * header; the pure library (rk_*.c) never includes this. */
#ifndef MOD_RANKING_PRIVATE_H
#define MOD_RANKING_PRIVATE_H

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "apr_strings.h"

extern module AP_MODULE_DECLARE_DATA ranking_module;

/* mod_ranking.c declares the module with AP_DECLARE_MODULE, which says this itself */
#ifndef RKM_DECLARES_MODULE
APLOG_USE_MODULE(ranking);
#endif

/* The name of the handler a mount sets: SetHandler ranking */
#define RKM_HANDLER "ranking"

#endif
