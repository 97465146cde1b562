/* mod_ranking.c: the module record, register_hooks and thin hooks that call down.
 *
 * A request on a mount goes: translate_name and map_to_storage (claim it, no file
 * walk) -> the access hook (bearer token: mod_ranking_auth.c) -> the handler, which
 * checks route (404), method (405) and role (403), then calls the read path
 * (mod_ranking_read.c), the write path (mod_ranking_write.c) or /connect
 * (mod_ranking_auth.c).  Settings: mod_ranking_config.c; database:
 * mod_ranking_db.c; caches: mod_ranking_cache.c; answers: mod_ranking_http.c. */
#define RK_DECLARES_MODULE
#include "mod_ranking_private.h"
#include "mod_ranking_auth.h"
#include "mod_ranking_board.h"
#include "mod_ranking_cache.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_config.h"
#include "mod_ranking_db.h"
#include "mod_ranking_http.h"
#include "mod_ranking_live.h"
#include "mod_ranking_read.h"
#include "mod_ranking_status.h"
#include "mod_ranking_write.h"

/* The bearer check, before the handler.  /connect and OPTIONS need no token, nor a
 * public read (RankingPublic, rk_request). */
static int rk_access(request_rec *r)
{
    rk_req *rq;

    if (!rk_is_ours(r)) {
        return DECLINED;
    }
    rq = rk_request(r);
    /* on every answer of the mount, also those httpd writes itself */
    rk_common_headers(r, rq);
    if (rq->method == RK_M_OPTIONS || rq->route.id == RK_ROUTE_CONNECT) {
        return DECLINED;
    }
    /* RankingPublic: a read without a token needs none (rk_request decides) */
    if (rq->anonymous) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "access hook: public %s %s",
                      r->method, rk_route_name(rq->route.id));
        return OK;
    }
    /* on failure the JSON answer is already written: DONE ends the request */
    if (rk_authenticate(r, rq) != OK) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "access hook: refused %s %s",
                      r->method, rk_route_name(rq->route.id));
        return DONE;
    }
    ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "access hook: %s allowed %s %s",
                  r->user, r->method, rk_route_name(rq->route.id));
    return OK;
}

/* Order of checks: token (401, in the access hook), route shape (404), method (405),
 * role (403); then the read or write path checks existence (404), Content-Type
 * (415), body size (413), body (400), conflicts (409). */
static int rk_handler(request_rec *r)
{
    rk_req *rq;
    unsigned allowed;

    if (!r->handler || strcasecmp(r->handler, RK_HANDLER) != 0) {
        return DECLINED;
    }
    rq = rk_request(r);
    rk_common_headers(r, rq);
    /* a request the access hook did not see (sub-request, internal redirect with a
     * different configuration): check the token here */
    if (!rq->authenticated && !rq->anonymous && rq->method != RK_M_OPTIONS
        && rq->route.id != RK_ROUTE_CONNECT) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "handler: token not checked by the "
                      "access hook, checking it here");
        if (rk_authenticate(r, rq) != OK) {
            return OK;
        }
    }
    if (rq->route.id == RK_ROUTE_NONE) {
        return rk_send_status(r, HTTP_NOT_FOUND);
    }
    allowed = rk_route_methods(rq->route.id);
    if (rq->method == RK_M_OPTIONS) {
        apr_table_setn(r->headers_out, "Allow", rk_route_allow(rq->route.id));
        r->status = HTTP_NO_CONTENT;
        return OK;
    }
    if (!(rq->method & allowed)) {
        apr_table_setn(r->headers_out, "Allow", rk_route_allow(rq->route.id));
        return rk_send_status(r, HTTP_METHOD_NOT_ALLOWED);
    }
    if (((rq->method & (RK_M_PUT | RK_M_DELETE)) || rk_route_def_of(rq->route.id)->editors)
        && !rq->editor) {
        return rk_send_status(r, HTTP_FORBIDDEN);
    }
    switch (rq->method) {
    case RK_M_POST:
        return rk_connect(r);
    case RK_M_PUT:
        return rk_put_lane(r, rq);
    case RK_M_DELETE:
        return rk_delete_lane(r, rq);
    default:
        return rk_route_def_of(rq->route.id)->answer == RK_ANSWER_EVENTS ? rk_events(r, rq)
               : rk_read(r, rq);
    }
}

/* Our routes have no file behind them.  Claim the mount's requests in translate_name,
 * before core maps the URI onto the document root (which refuses a path longer than
 * the file system allows with an HTML 403 before any module sees it), and skip the
 * directory and file walks in map_to_storage (where httpd would also answer TRACE
 * itself, echoing the request with its Authorization header; on our mounts TRACE is
 * a method like any other: token, then 405).
 * <Location> sections are not merged yet at translate_name: walk them to see whether
 * the request is ours, then put the configuration back as it was; httpd walks the
 * locations again after map_to_storage, from its cache. */
#define RK_FILENAME_PREFIX "ranking:"

static int rk_translate(request_rec *r)
{
    ap_conf_vector_t *before = r->per_dir_config;
    int ours = r->uri[0] == '/' && ap_location_walk(r) == OK && rk_is_ours(r);

    r->per_dir_config = before;
    if (!ours) {
        return DECLINED;
    }
    if (r->method_number == M_TRACE) {
        r->method_number = M_INVALID;
    }
    r->filename = apr_pstrcat(r->pool, RK_FILENAME_PREFIX, r->uri, NULL);
    return OK;
}

static int rk_map_to_storage(request_rec *r)
{
    return r->filename && !strncmp(r->filename, RK_FILENAME_PREFIX, sizeof(RK_FILENAME_PREFIX) - 1)
           ? OK : DECLINED;
}

static int rk_pre_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp)
{
    (void)plog;
    (void)ptemp;
    rk_config_reset();
    if (rk_db_pre_config(pconf) != 0 || rk_auth_pre_config(pconf) != 0) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    return OK;
}

/* What can be checked before httpd starts, so that apache2 -t (configtest) fails
 * rather than the start or a graceful restart after it: mod_dbd and the socache
 * provider of RankingLoginCache are loaded. */
static int rk_check_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
                           server_rec *s)
{
    int bad;

    (void)pconf;
    (void)plog;
    bad = rk_db_check_config(s) != 0;
    bad |= rk_config_check_login_cache(s, ptemp) != 0;
    return bad ? HTTP_INTERNAL_SERVER_ERROR : OK;
}

static int rk_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
                          server_rec *s)
{
    (void)plog;
    if (rk_db_post_config(pconf, s) != 0) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    if (rk_live_post_config(pconf, s) != 0 || rk_status_post_config(pconf, s) != 0) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    return rk_auth_post_config(pconf, ptemp, s);
}

static void rk_child_init(apr_pool_t *p, server_rec *s)
{
    rk_status_child_init(p, s);
    rk_db_child_init(p, s);
    rk_auth_child_init(p, s);
    rk_write_child_init(p, s);
    rk_cache_child_init(p, s);
    rk_board_child_init(p, s);
    rk_live_child_init(p, s);
}

static void rk_register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_pre_config(rk_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_check_config(rk_check_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(rk_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(rk_child_init, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_translate_name(rk_translate, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_map_to_storage(rk_map_to_storage, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_check_access(rk_access, NULL, NULL, APR_HOOK_MIDDLE, AP_AUTH_INTERNAL_PER_CONF);
    ap_hook_handler(rk_handler, NULL, NULL, APR_HOOK_MIDDLE);
    rk_status_register_hooks();
    ap_hook_insert_error_filter(rk_insert_error_filter, NULL, NULL, APR_HOOK_MIDDLE);
    rk_http_register();
    rk_live_register_hooks();
    rkm_changes_register_hooks();
}

AP_DECLARE_MODULE(ranking) = {
    STANDARD20_MODULE_STUFF,
    rk_config_create_dir,
    rk_config_merge_dir,
    NULL,
    NULL,
    rk_config_cmds,
    rk_register_hooks
#if defined(AP_MODULE_FLAG_ALWAYS_MERGE)
    , AP_MODULE_FLAG_ALWAYS_MERGE
#endif
};
