/* mod_ranking_stream.h: live updates, the request side: the Server-Sent Events stream
 * of a competition's lane changes and the long poll of read routes, fed by one watcher
 * thread per child process (mod_ranking_watcher.c).  With the event MPM a listener is
 * parked (SUSPENDED) and holds no thread (mod_ranking_parked.c); with the other MPMs,
 * and under mod_http2, it holds its thread, within a cap. */
#ifndef MOD_RANKING_STREAM_H
#define MOD_RANKING_STREAM_H

#include "mod_ranking_private.h"

struct rkm_req;

/* GET /competition/{c}/events */
int rkm_events(request_rec *r, struct rkm_req *rq);

/* What rkm_stream_wait returns when the request is to be answered now, on this
 * thread (a value no handler returns). */
#define RKM_WAIT_OVER 1

/* A read whose If-None-Match holds the current ETag, with "Prefer: wait=SECONDS":
 * wait for the data to change (RQ->rev moves) or for SECONDS to pass.  Returns
 * RKM_WAIT_OVER (answer now: the caller answers again), SUSPENDED (the request is
 * parked: at its turn it goes back to the handler, mod_ranking_handler.h), or what
 * the handler returns once the request is refused (503: too many listeners).  Either
 * way but the last, RQ->waited is set: the answer given after the wait reads the
 * revision again and never waits. */
int rkm_stream_wait(request_rec *r, struct rkm_req *rq, int seconds);

#endif
