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

/* What the module keeps per connection, in its slot of c->conn_config (one load,
 * where a pool's userdata is a string hash: about 230 instructions a request), all
 * in c->pool, each of a fixed size: the token check's memo (mod_ranking_auth.c), the
 * last route parsed (mod_ranking_request.c) and an event stream's listener from its
 * parking until the MPM suspends the connection (mod_ranking_parked.c). */
typedef struct {
    void *memo;
    void *route;
    void *listener;
} rkm_conn_state;

/* C's state; made (zeroed) when there is none and CREATE, else NULL. */
rkm_conn_state *rkm_conn_state_of(conn_rec *c, int create);

#endif
