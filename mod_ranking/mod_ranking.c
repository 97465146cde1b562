/* mod_ranking.c: module record, configuration, directives and hooks.
 *
 * The bearer token is checked in an access hook, before the handler; the handler
 * (rk_handler.c) answers the routes.  Everything else lives in the rk_*.c library. */
#include "apr_strings.h"
#include "ap_mpm.h"
#include "util_mutex.h"

#include "rk_glue.h"
#include "rk_throttle.h"

APR_OPTIONAL_FN_TYPE(ap_dbd_acquire) *rk_dbd_acquire = NULL;
apr_global_mutex_t *rk_write_mutex = NULL;
rk_login_cache rk_logins = { NULL, NULL, NULL };

#define RK_MUTEX_TYPE "ranking-write"
#define RK_LOGIN_MUTEX_TYPE "ranking-login"

/* RankingLoginCache: "none", or a socache provider with its arguments */
static const char *login_cache_spec = "shmcb";

/* ---- configuration ---- */

static void *create_dir_conf(apr_pool_t *p, char *dir)
{
    rk_dir_conf *c = apr_pcalloc(p, sizeof(*c));

    (void)dir;
    c->variants = RK_UNSET;
    c->lifetime = RK_UNSET;
    c->body_limit = RK_UNSET;
    c->base = NULL;
    c->login_limit = RK_UNSET;
    c->login_window = RK_UNSET;
    return c;
}

static void *merge_dir_conf(apr_pool_t *p, void *basev, void *addv)
{
    rk_dir_conf *base = basev, *add = addv, *c = apr_palloc(p, sizeof(*c));

    c->variants = add->variants != RK_UNSET ? add->variants : base->variants;
    c->lifetime = add->lifetime != RK_UNSET ? add->lifetime : base->lifetime;
    c->body_limit = add->body_limit != RK_UNSET ? add->body_limit : base->body_limit;
    c->base = add->base ? add->base : base->base;
    c->login_limit = add->login_limit != RK_UNSET ? add->login_limit : base->login_limit;
    c->login_window = add->login_window != RK_UNSET ? add->login_window : base->login_window;
    return c;
}

static const char *set_variants(cmd_parms *cmd, void *cfg, const char *arg)
{
    rk_dir_conf *c = cfg;

    (void)cmd;
    if (!strcasecmp(arg, "A")) {
        c->variants = RK_VARIANT_A;
    }
    else if (!strcasecmp(arg, "B")) {
        c->variants = RK_VARIANT_B;
    }
    else if (!strcasecmp(arg, "both")) {
        c->variants = RK_VARIANT_BOTH;
    }
    else {
        return "RankingVariants takes A, B or both";
    }
    return NULL;
}

static const char *parse_int(const char *arg, apr_int64_t min, apr_int64_t max,
                             apr_int64_t *out)
{
    char *end;
    apr_int64_t v;

    errno = 0;
    v = apr_strtoi64(arg, &end, 10);
    if (errno || end == arg || *end || v < min || v > max) {
        return "out of range or not a number";
    }
    *out = v;
    return NULL;
}

static const char *set_lifetime(cmd_parms *cmd, void *cfg, const char *arg)
{
    rk_dir_conf *c = cfg;

    if (parse_int(arg, 1, APR_INT64_C(315360000), &c->lifetime)) {
        return apr_psprintf(cmd->pool, "%s: a number of seconds from 1 to 315360000",
                            cmd->cmd->name);
    }
    return NULL;
}

static const char *set_body_limit(cmd_parms *cmd, void *cfg, const char *arg)
{
    rk_dir_conf *c = cfg;

    if (parse_int(arg, 64, APR_INT64_C(16777216), &c->body_limit)) {
        return apr_psprintf(cmd->pool, "%s: a number of bytes from 64 to 16777216",
                            cmd->cmd->name);
    }
    return NULL;
}

static const char *set_base(cmd_parms *cmd, void *cfg, const char *arg)
{
    rk_dir_conf *c = cfg;

    if (arg[0] != '/') {
        return apr_psprintf(cmd->pool, "%s must be a URL path starting with /",
                            cmd->cmd->name);
    }
    c->base = arg;
    return NULL;
}

static const char *set_login_limit(cmd_parms *cmd, void *cfg, const char *arg)
{
    rk_dir_conf *c = cfg;
    apr_int64_t v;

    if (parse_int(arg, 0, 1000000, &v)) {
        return apr_psprintf(cmd->pool, "%s: a number of failed logins from 0 (off) to 1000000",
                            cmd->cmd->name);
    }
    c->login_limit = (int)v;
    return NULL;
}

static const char *set_login_window(cmd_parms *cmd, void *cfg, const char *arg)
{
    rk_dir_conf *c = cfg;

    if (parse_int(arg, 1, 86400, &c->login_window)) {
        return apr_psprintf(cmd->pool, "%s: a number of seconds from 1 to 86400",
                            cmd->cmd->name);
    }
    return NULL;
}

static const char *set_login_cache(cmd_parms *cmd, void *cfg, const char *arg)
{
    const char *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void)cfg;
    if (err) {
        return err;
    }
    login_cache_spec = arg;
    return NULL;
}

static const command_rec rk_cmds[] = {
    AP_INIT_TAKE1("RankingVariants", set_variants, NULL, ACCESS_CONF,
                  "Route variants served here: A, B or both (default both)"),
    AP_INIT_TAKE1("RankingTokenLifetime", set_lifetime, NULL, ACCESS_CONF,
                  "Lifetime in seconds of the tokens issued by /connect (default 3600)"),
    AP_INIT_TAKE1("RankingBodyLimit", set_body_limit, NULL, ACCESS_CONF,
                  "Largest accepted request body in bytes (default 65536)"),
    AP_INIT_TAKE1("RankingBasePath", set_base, NULL, ACCESS_CONF,
                  "URL path where the routes start (default: the enclosing <Location>)"),
    AP_INIT_TAKE1("RankingLoginLimit", set_login_limit, NULL, ACCESS_CONF,
                  "Failed logins per client address and per user within the window "
                  "before /connect answers 429 (default 10, 0 turns throttling off)"),
    AP_INIT_TAKE1("RankingLoginWindow", set_login_window, NULL, ACCESS_CONF,
                  "Seconds over which failed logins are counted (default 300)"),
    AP_INIT_TAKE1("RankingLoginCache", set_login_cache, NULL, RSRC_CONF,
                  "Where failed logins are counted: none, or a socache provider "
                  "with its arguments (default shmcb)"),
    { NULL }
};

rk_dir_conf *rk_conf(request_rec *r)
{
    return ap_get_module_config(r->per_dir_config, &ranking_module);
}

/* The request is for a mount of ours: `SetHandler ranking` applies to it.  Until
 * core's fixups set r->handler (after the access hooks), read SetHandler from the
 * per-directory configuration: httpd 2.4 keeps it as an expression. */
int rk_is_ours(request_rec *r)
{
    core_dir_config *cd = ap_get_core_module_config(r->per_dir_config);
    const char *handler = r->handler;

    if (!handler && cd) {
        if (cd->expr_handler) {
            const char *err = NULL;
            handler = ap_expr_str_exec(r, cd->expr_handler, &err);
            if (err) {
                handler = NULL;
            }
        }
        else {
            handler = cd->handler;
        }
    }
    return handler && strcasecmp(handler, RK_HANDLER) == 0;
}

/* The path after the mount point, or "" when the URI is not under it.  The mount
 * point is RankingBasePath, else the path of the innermost <Location> (core keeps it
 * for every section; ours exists only where one of our directives appears). */
static const char *relative_path(request_rec *r, const rk_dir_conf *c)
{
    core_dir_config *cd = ap_get_core_module_config(r->per_dir_config);
    const char *base = c->base ? c->base : (cd && !cd->r) ? cd->d : NULL;
    size_t blen;

    if (!base) {
        return r->uri;
    }
    blen = strlen(base);
    while (blen > 0 && base[blen - 1] == '/') {
        blen--;
    }
    if (strncmp(r->uri, base, blen) != 0) {
        return "";
    }
    return r->uri + blen;
}

rk_req *rk_request(request_rec *r)
{
    rk_req *rq = ap_get_module_config(r->request_config, &ranking_module);
    rk_dir_conf *c;

    if (rq) {
        return rq;
    }
    c = rk_conf(r);
    rq = apr_pcalloc(r->pool, sizeof(*rq));
    rk_route_parse(relative_path(r, c),
                   c->variants == RK_UNSET ? RK_VARIANT_BOTH : (unsigned)c->variants,
                   &rq->route);
    rq->method = rk_method_bit(r->method);
    ap_set_module_config(r->request_config, &ranking_module, rq);
    /* on every answer of the mount, also those httpd writes itself */
    apr_table_setn(r->err_headers_out, "X-Content-Type-Options", "nosniff");
    return rq;
}

/* ---- hooks ---- */

/* The bearer check, before the handler.  /connect and OPTIONS need no token. */
static int rk_access(request_rec *r)
{
    rk_req *rq;

    if (!rk_is_ours(r)) {
        return DECLINED;
    }
    rq = rk_request(r);
    if (rq->method == RK_M_OPTIONS || rq->route.id == RK_ROUTE_CONNECT) {
        return DECLINED;
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
    login_cache_spec = "shmcb";
    if (ap_mutex_register(pconf, RK_MUTEX_TYPE, NULL, APR_LOCK_DEFAULT, 0) != APR_SUCCESS) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    return ap_mutex_register(pconf, RK_LOGIN_MUTEX_TYPE, NULL, APR_LOCK_DEFAULT, 0);
}

static apr_status_t login_cache_destroy(void *data)
{
    server_rec *s = data;

    if (rk_logins.provider && rk_logins.instance) {
        rk_logins.provider->destroy(rk_logins.instance, s);
    }
    rk_logins.provider = NULL;
    rk_logins.instance = NULL;
    rk_logins.mutex = NULL;
    return APR_SUCCESS;
}

/* The failed-login counters, in a socache shared by the children (shmcb default). */
static int login_cache_init(apr_pool_t *pconf, apr_pool_t *ptemp, server_rec *s)
{
    static const struct ap_socache_hints hints = { 64, sizeof(rk_throttle_entry), 60 };
    char *name = apr_pstrdup(ptemp, login_cache_spec), *arg = strchr(name, ':');
    const char *err;
    apr_status_t rv;

    rk_logins.provider = NULL;
    if (!strcasecmp(name, "none")) {
        ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, s,
                     "mod_ranking: login throttling is off (RankingLoginCache none)");
        return OK;
    }
    if (arg) {
        *arg++ = '\0';
    }
    rk_logins.provider = ap_lookup_provider(AP_SOCACHE_PROVIDER_GROUP, name,
                                            AP_SOCACHE_PROVIDER_VERSION);
    if (!rk_logins.provider) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                     "mod_ranking: socache provider \"%s\" for RankingLoginCache is not "
                     "loaded (LoadModule socache_%s_module, or a2enmod socache_%s), or set "
                     "RankingLoginCache none to run without login throttling",
                     name, name, name);
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    err = rk_logins.provider->create(&rk_logins.instance, arg, ptemp, pconf);
    if (err) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s, "mod_ranking: RankingLoginCache: %s", err);
        rk_logins.provider = NULL;
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    rv = rk_logins.provider->init(rk_logins.instance, "mod_ranking-login", &hints, s, pconf);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot initialise the login throttling cache");
        rk_logins.provider = NULL;
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    apr_pool_cleanup_register(pconf, s, login_cache_destroy, apr_pool_cleanup_null);
    if (rk_logins.provider->flags & AP_SOCACHE_FLAG_NOTMPSAFE) {
        rv = ap_global_mutex_create(&rk_logins.mutex, NULL, RK_LOGIN_MUTEX_TYPE, NULL, s,
                                    pconf, 0);
        if (rv != APR_SUCCESS) {
            ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                         "mod_ranking: cannot create the %s mutex", RK_LOGIN_MUTEX_TYPE);
            return HTTP_INTERNAL_SERVER_ERROR;
        }
    }
    return OK;
}

static int rk_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
                          server_rec *s)
{
    apr_status_t rv;

    (void)plog;
    (void)ptemp;
    rk_dbd_acquire = APR_RETRIEVE_OPTIONAL_FN(ap_dbd_acquire);
    if (!rk_dbd_acquire) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                     "mod_ranking needs mod_dbd: load it (a2enmod dbd, or "
                     "LoadModule dbd_module modules/mod_dbd.so) before mod_ranking");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    /* Writes to a SQLite database are serialised across the threads and processes
     * of this server, so that no writer ever waits inside SQLite's busy handler
     * while another thread of its process holds the write lock. */
    rv = ap_global_mutex_create(&rk_write_mutex, NULL, RK_MUTEX_TYPE, NULL, s, pconf, 0);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot create the %s mutex", RK_MUTEX_TYPE);
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    return login_cache_init(pconf, ptemp, s);
}

static void child_mutex(apr_global_mutex_t **m, const char *type, apr_pool_t *p,
                        server_rec *s)
{
    apr_status_t rv;

    if (!*m) {
        return;
    }
    rv = apr_global_mutex_child_init(m, apr_global_mutex_lockfile(*m), p);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot attach to the %s mutex in a child", type);
    }
}

static void rk_child_init(apr_pool_t *p, server_rec *s)
{
    child_mutex(&rk_write_mutex, RK_MUTEX_TYPE, p, s);
    child_mutex(&rk_logins.mutex, RK_LOGIN_MUTEX_TYPE, p, s);
    rk_cache_child_init(p, s);
}

static void rk_register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_pre_config(rk_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(rk_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(rk_child_init, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_translate_name(rk_translate, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_map_to_storage(rk_map_to_storage, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_check_access(rk_access, NULL, NULL, APR_HOOK_MIDDLE, AP_AUTH_INTERNAL_PER_CONF);
    ap_hook_handler(rk_handler, NULL, NULL, APR_HOOK_MIDDLE);
}

AP_DECLARE_MODULE(ranking) = {
    STANDARD20_MODULE_STUFF,
    create_dir_conf,
    merge_dir_conf,
    NULL,
    NULL,
    rk_cmds,
    rk_register_hooks
#if defined(AP_MODULE_FLAG_ALWAYS_MERGE)
    , AP_MODULE_FLAG_ALWAYS_MERGE
#endif
};
