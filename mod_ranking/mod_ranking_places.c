/* mod_ranking_places.c: live updates, how many listeners there may be: parked ones per
 * child (RankingEventListeners, 20,000 by default); those that hold a thread, over
 * every child of the server, at most half of the workers (or RankingEventListeners);
 * and of those, the ones over HTTP/2, per child, at most half of mod_http2's
 * workers.  The counts of this child are guarded by the watcher's mutex. */
#include "ap_mpm.h"

#include "mod_ranking_places.h"
#include "mod_ranking_config.h"
#include "mod_ranking_shared.h"

#define ASYNC_LISTENERS_DEFAULT 20000     /* per child, parked */

/* Listeners of this child, by kind (the watcher's mutex held). */
static int parked, holding;
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

static int places_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    int workers = 0;

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
        int cap = rkm_config_event_listeners() > 0 ? rkm_config_event_listeners()
                  : ASYNC_LISTENERS_DEFAULT;

        if (parked >= cap) {
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
