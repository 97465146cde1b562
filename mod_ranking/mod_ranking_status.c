/* mod_ranking_status.c: the module's section of server-status (mod_status), through
 * httpd's status hook as mod_ssl and mod_cache_socache do: per child process, the
 * answer and token caches, grouped lane commits, open event streams and long polls,
 * and the data revision it last read; in the HTML page and in the "?auto" form.  The
 * figures live in a table of anonymous shared memory mapped by the parent at
 * post_config (rk_stats.c), so that the child answering the status request reads
 * every child's. */
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "mod_status.h"
#include "ap_mpm.h"

#include "mod_ranking_shared.h"
#include "mod_ranking_status.h"

static rk_stats_child own;          /* until the slot is claimed, or without a table */
rk_stats_child *rkm_stats = &own;
static rk_stats_table *table;

static int status_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
                              server_rec *s)
{
    int daemons = 0;
    size_t n;

    (void)plog;
    (void)ptemp;
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    ap_mpm_query(AP_MPMQ_HARD_LIMIT_DAEMONS, &daemons);
    n = 2 * (size_t)(daemons > 0 ? daemons : 16) + 2;
    if (!rkm_shared_map(pconf, s, rk_stats_size(n), (void **)&table, "server-status table")) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    rk_stats_init(table, n);
    return OK;
}

/* 0 when process PID is gone */
static int alive(int32_t pid)
{
    return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

static apr_status_t release_slot(void *c)
{
    rk_stats_release(c, (int32_t)getpid());
    rkm_stats = &own;
    return APR_SUCCESS;
}

static void status_child_init(apr_pool_t *pchild, server_rec *s)
{
    rk_stats_child *c;

    if (!table) {
        return;
    }
    if ((c = rk_stats_claim(table, (int32_t)getpid(), alive)) == NULL) {
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, "mod_ranking: no free slot in the "
                     "server-status table: this child's figures are not shown");
        return;
    }
    rkm_stats = c;
    apr_pool_cleanup_register(pchild, c, release_slot, apr_pool_cleanup_null);
}

static void emit(void *r, const char *text)
{
    ap_rputs(text, r);
}

static int status_hook(request_rec *r, int flags)
{
    if (table) {
        rk_stats_write(table, (flags & AP_STATUS_SHORT) != 0, alive, emit, r);
    }
    return OK;
}

void rkm_status_register_hooks(void)
{
    ap_hook_post_config(status_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(status_child_init, NULL, NULL, APR_HOOK_MIDDLE);
    APR_OPTIONAL_HOOK(ap, status_hook, status_hook, NULL, NULL, APR_HOOK_MIDDLE);
}
