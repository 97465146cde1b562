/* mod_ranking_live.h: live updates: the Server-Sent Events stream of a competition's
 * lane changes and the long poll of read routes, fed by one watcher thread per child
 * process.  With the event MPM a listener is parked (SUSPENDED) and holds no thread;
 * with the other MPMs, and under mod_http2, it holds its thread, within a cap. */
#ifndef MOD_RANKING_LIVE_H
#define MOD_RANKING_LIVE_H

#include "mod_ranking_private.h"

struct rk_req;

int rk_live_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s);
void rk_live_child_init(apr_pool_t *p, server_rec *s);
void rk_live_register_hooks(void);   /* register_hooks */

/* GET /competition/{c}/events */
int rk_events(request_rec *r, struct rk_req *rq);

/* A read whose If-None-Match holds the current ETag, with "Prefer: wait=SECONDS":
 * wait for the data to change, then answer through REREAD (200 with the new answer,
 * or 304 once SECONDS have passed).  Returns what the handler returns (SUSPENDED when
 * the request was parked). */
typedef int rk_reread_fn(request_rec *r, struct rk_req *rq);
int rk_live_wait(request_rec *r, struct rk_req *rq, int seconds, rk_reread_fn *reread);

/* A change was committed through this process: look at the database now, not at the
 * next tick. */
void rk_live_poke(void);

#endif
