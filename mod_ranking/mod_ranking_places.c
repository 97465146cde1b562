/* mod_ranking_places.c: live updates, how many listeners there may be: parked ones per
 * child (RankingEventListeners; by default half of the connections a child of the
 * event MPM accepts); those that hold a thread, over every child of the server, at
 * most half of the workers (or RankingEventListeners); and of those, the ones over
 * HTTP/2, per child, at most half of mod_http2's workers.  The counts of this child
 * are guarded by the watcher's mutex. */
#include <stdlib.h>

#include "ap_mpm.h"

#include "mod_ranking_places.h"
#include "mod_ranking_config.h"
#include "mod_ranking_shared.h"

#define ASYNC_FACTOR_DEFAULT 2            /* the event MPM's AsyncRequestWorkerFactor */

/* Listeners of this child, by kind (the watcher's mutex held). */
static int parked, holding;
/* Parked listeners per child: at most. */
static int parked_cap;
static int h2_holding;                    /* of the holding ones, those over HTTP/2 */
/* Listeners holding a thread, over every child of the server (shared memory made in
 * post_config, inherited by the children), and their cap. */
static apr_uint32_t *holding_all;
static int holding_cap;
/* Listeners over HTTP/2 (each holds one of mod_http2's workers), per child: at most. */
static int h2_cap;

/* mod_http2's workers per child (H2MaxWorkers), as mod_http2 reckons them: the
 * directives wherever they are in the configuration (inside <IfModule> too), else
 * its defaults (H2MinWorkers: ThreadsPerChild; H2MaxWorkers: 3/2 of that, at least
 * 4).  Whether HTTP/2 is used at all is not known here: the cap made of it only
 * applies to requests that come over HTTP/2. */
static void h2_workers(const ap_directive_t *d, int *minw, int *maxw)
{
    for (; d; d = d->next) {
        if (strcasecmp(d->directive, "H2MaxWorkers") == 0 && d->args) {
            *maxw = atoi(d->args);
        }
        else if (strcasecmp(d->directive, "H2MinWorkers") == 0 && d->args) {
            *minw = atoi(d->args);
        }
        h2_workers(d->first_child, minw, maxw);
    }
}

static int h2_max_workers(void)
{
    int minw = 0, maxw = 0, threads = 0;

    h2_workers(ap_conftree, &minw, &maxw);
    ap_mpm_query(AP_MPMQ_MAX_THREADS, &threads);
    if (minw <= 0) {
        minw = threads > 0 ? threads : 1;
    }
    if (maxw <= 0) {
        maxw = 3 * minw / 2 > 4 ? 3 * minw / 2 : 4;
    }
    return maxw;
}

/* The event MPM's AsyncRequestWorkerFactor as it uses it: the directive's value (the
 * last one, wherever it is), at least 1, its fraction dropped (event.c keeps it in
 * sixteenths and multiplies by their whole number); 2 when it is not set. */
static int async_factor(const ap_directive_t *d, int found)
{
    for (; d; d = d->next) {
        if (strcasecmp(d->directive, "AsyncRequestWorkerFactor") == 0 && d->args) {
            double v = strtod(d->args, NULL);
            found = v >= 1 ? (int)v : 1;
        }
        found = async_factor(d->first_child, found);
    }
    return found;
}

/* The parked listeners a child may hold, automatic: half of the connections a child
 * of the event MPM accepts.  A child stops accepting once its connections (parked
 * ones included) reach ThreadsPerChild + idle workers x AsyncRequestWorkerFactor
 * (event.c, connections_above_limit), so at most ThreadsPerChild x (1 + factor) with
 * every worker idle; and a parked listener holds no worker, so the server starts no
 * child for it.  Were listeners allowed all of it, the child would stop accepting
 * every connection, a judge's lane PUT as well as a read.  The other half is left to
 * ordinary requests (and their keep-alive connections); past the cap a new stream
 * answers 503 with Retry-After, at once. */
static int parked_auto(server_rec *s)
{
    int threads = 0, factor = async_factor(ap_conftree, 0), accepted;

    ap_mpm_query(AP_MPMQ_MAX_THREADS, &threads);
    if (threads < 1) {
        threads = 1;
    }
    if (factor < 1) {
        factor = ASYNC_FACTOR_DEFAULT;
    }
    accepted = threads * (1 + factor);
    ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, "event streams and long polls: at most %d "
                 "per child (half of the %d connections a child accepts: ThreadsPerChild %d "
                 "x (1 + AsyncRequestWorkerFactor %d)); set RankingEventListeners, or raise "
                 "those, for more", accepted / 2 > 0 ? accepted / 2 : 1, accepted, threads,
                 factor);
    return accepted / 2 > 0 ? accepted / 2 : 1;
}

static int places_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    int workers = 0, async = 0;

    (void)plog;
    (void)ptemp;
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    if (!rkm_shared_map(pconf, s, sizeof(*holding_all), (void **)&holding_all,
                        "listener counter")) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    *holding_all = 0;
    ap_mpm_query(AP_MPMQ_MAX_DAEMONS, &workers);
    {
        int threads = 1;
        ap_mpm_query(AP_MPMQ_MAX_THREADS, &threads);
        workers *= threads > 0 ? threads : 1;
    }
    ap_mpm_query(AP_MPMQ_IS_ASYNC, &async);
    parked_cap = rkm_config_event_listeners() > 0 ? rkm_config_event_listeners()
                 : async ? parked_auto(s) : 1;
    /* a listener that holds a thread may take at most half of the workers */
    holding_cap = rkm_config_event_listeners() > 0 ? rkm_config_event_listeners()
                  : workers > 1 ? workers / 2 : 1;
    /* and one that comes over HTTP/2 holds one of mod_http2's workers of its child:
     * at most half of them too, whatever RankingEventListeners says (past them every
     * request of HTTP/2 to that child would wait) */
    {
        int h2 = h2_max_workers();
        h2_cap = h2 > 1 ? h2 / 2 : 1;
    }
    return OK;
}

int rkm_places_take(int async, conn_rec *c)
{
    if (async) {
        if (parked >= parked_cap) {
            return 0;
        }
        parked++;
        return 1;
    }
    if (c->master && h2_holding >= h2_cap) {
        return 0;
    }
    if ((int)__atomic_fetch_add(holding_all, 1, __ATOMIC_SEQ_CST) >= holding_cap) {
        __atomic_fetch_sub(holding_all, 1, __ATOMIC_SEQ_CST);
        return 0;
    }
    holding++;
    if (c->master) {
        h2_holding++;
    }
    return 1;
}

void rkm_places_give(int async, conn_rec *c)
{
    if (async) {
        parked--;
        return;
    }
    holding--;
    if (c->master) {
        h2_holding--;
    }
    __atomic_fetch_sub(holding_all, 1, __ATOMIC_SEQ_CST);
}

void rkm_places_register_hooks(void)
{
    ap_hook_post_config(places_post_config, NULL, NULL, APR_HOOK_MIDDLE);
}
