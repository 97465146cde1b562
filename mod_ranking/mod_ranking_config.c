/* mod_ranking_config.c: per-directory (per mount) configuration and the directives.
 * Every field has an "unset" value and one merge rule: the more specific section
 * wins where it sets the field.  The getters apply the defaults. */
#include <errno.h>

#include "ap_provider.h"
#include "ap_socache.h"

#include "mod_ranking_config.h"
#include "mod_ranking_config_public.h"
#include "rk_cors.h"
#include "rk_router.h"
#include "rk_token.h"

#define UNSET (-1)

#define DEFAULT_LIFETIME 3600
#define DEFAULT_BODY_LIMIT 65536
#define DEFAULT_LOGIN_LIMIT 10
#define DEFAULT_LOGIN_WINDOW 300
#define DEFAULT_LOGIN_CACHE "shmcb"
#define DEFAULT_EVENT_KEEPALIVE 15
#define DEFAULT_EVENT_BUFFER (256 * 1024)
#define DEFAULT_REVISION_CHECK 1000   /* milliseconds */
#define DEFAULT_PUBLIC_MAXAGE 5
#define DEFAULT_PUBLIC_STALE 30
#define PUBLIC_SECONDS_MAX 86400

typedef struct {
    int variants;            /* RK_VARIANT_* mask, UNSET */
    apr_int64_t lifetime;    /* token lifetime in seconds, UNSET */
    apr_int64_t body_limit;  /* bytes, UNSET */
    const char *base;        /* RankingBasePath, NULL when unset */
    int login_limit;         /* failed logins per window before 429, 0 = off, UNSET */
    apr_int64_t login_window;/* seconds, UNSET */
    apr_array_header_t *cors;/* RankingCORSOrigins: origins (const char *), empty: off;
                              * NULL when unset */
    int public_reads;        /* RankingPublic: 1 on, 0 off, UNSET */
    int public_quick;        /* RankingPublicQuick: 1 on, 0 off, UNSET */
    const char *public_cc;   /* RankingPublicCache: the Cache-Control of the public
                              * answers, made once from its max-age and
                              * stale-while-revalidate; NULL when unset */
} dir_conf;

/* The Cache-Control of the public answers without RankingPublicCache */
#define STR_(x) #x
#define STR(x) STR_(x)
#define DEFAULT_PUBLIC_CC "public, max-age=" STR(DEFAULT_PUBLIC_MAXAGE) \
                          ", stale-while-revalidate=" STR(DEFAULT_PUBLIC_STALE)

/* RankingLoginCache: "none", or a socache provider with its arguments */
static const char *login_cache_spec = DEFAULT_LOGIN_CACHE;
static apr_int64_t event_keepalive = DEFAULT_EVENT_KEEPALIVE;
static apr_int64_t event_listeners = 0;
static apr_int64_t event_buffer = DEFAULT_EVENT_BUFFER;
static apr_int64_t password_cost = RK_PASSWORD_COST_DEFAULT;
static apr_int64_t revision_check = DEFAULT_REVISION_CHECK;

void *rkm_config_create_dir(apr_pool_t *p, char *dir)
{
    dir_conf *c = apr_pcalloc(p, sizeof(*c));

    (void)dir;
    c->variants = UNSET;
    c->lifetime = UNSET;
    c->body_limit = UNSET;
    c->base = NULL;
    c->login_limit = UNSET;
    c->login_window = UNSET;
    c->public_reads = UNSET;
    c->public_quick = UNSET;
    return c;
}

#define MERGE(f) c->f = add->f != UNSET ? add->f : base->f

void *rkm_config_merge_dir(apr_pool_t *p, void *basev, void *addv)
{
    dir_conf *base = basev, *add = addv, *c = apr_palloc(p, sizeof(*c));

    MERGE(variants);
    MERGE(lifetime);
    MERGE(body_limit);
    MERGE(login_limit);
    MERGE(login_window);
    MERGE(public_reads);
    MERGE(public_quick);
    c->public_cc = add->public_cc ? add->public_cc : base->public_cc;
    c->base = add->base ? add->base : base->base;
    c->cors = add->cors ? add->cors : base->cors;
    return c;
}

static void rkm_config_reset(void)
{
    login_cache_spec = DEFAULT_LOGIN_CACHE;
    event_keepalive = DEFAULT_EVENT_KEEPALIVE;
    event_listeners = 0;
    event_buffer = DEFAULT_EVENT_BUFFER;
    password_cost = RK_PASSWORD_COST_DEFAULT;
    revision_check = DEFAULT_REVISION_CHECK;
    rkm_public_sections_reset();
}

static const dir_conf *conf(request_rec *r)
{
    return ap_get_module_config(r->per_dir_config, &ranking_module);
}

unsigned rkm_config_variants(request_rec *r)
{
    const dir_conf *c = conf(r);
    return c->variants == UNSET ? RK_VARIANT_BOTH : (unsigned)c->variants;
}

apr_int64_t rkm_config_token_lifetime(request_rec *r)
{
    const dir_conf *c = conf(r);
    return c->lifetime == UNSET ? DEFAULT_LIFETIME : c->lifetime;
}

apr_off_t rkm_config_body_limit(request_rec *r)
{
    const dir_conf *c = conf(r);
    return c->body_limit == UNSET ? DEFAULT_BODY_LIMIT : (apr_off_t)c->body_limit;
}

const char *rkm_config_base(request_rec *r)
{
    return conf(r)->base;
}

unsigned rkm_config_login_limit(request_rec *r)
{
    const dir_conf *c = conf(r);
    return (unsigned)(c->login_limit == UNSET ? DEFAULT_LOGIN_LIMIT : c->login_limit);
}

apr_int64_t rkm_config_login_window(request_rec *r)
{
    const dir_conf *c = conf(r);
    return c->login_window == UNSET ? DEFAULT_LOGIN_WINDOW : c->login_window;
}

const char *const *rkm_config_cors_origins(request_rec *r, size_t *n)
{
    const apr_array_header_t *a = conf(r)->cors;

    *n = a ? (size_t)a->nelts : 0;
    return *n ? (const char *const *)a->elts : NULL;
}

int rkm_config_public(request_rec *r)
{
    return conf(r)->public_reads == 1;
}

int rkm_config_public_quick(request_rec *r)
{
    return conf(r)->public_quick != 0;   /* default On */
}

const char *rkm_config_public_cache_control(request_rec *r)
{
    const char *cc = conf(r)->public_cc;

    return cc ? cc : DEFAULT_PUBLIC_CC;
}



const char *rkm_config_login_cache(void)
{
    return login_cache_spec;
}

int rkm_config_password_cost(void)
{
    return (int)password_cost;
}

apr_interval_time_t rkm_config_event_keepalive(void)
{
    return apr_time_from_sec(event_keepalive);
}

int rkm_config_event_listeners(void)
{
    return (int)event_listeners;
}

apr_size_t rkm_config_event_buffer(void)
{
    return (apr_size_t)event_buffer;
}

apr_interval_time_t rkm_config_revision_check(void)
{
    return (apr_interval_time_t)revision_check * 1000;
}

/* ---- directives ---- */

static const char *set_variants(cmd_parms *cmd, void *cfg, const char *arg)
{
    dir_conf *c = cfg;

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

/* ARG as an integer from MIN to MAX into *OUT; else the directive's message, which
 * says what it takes (WHAT: "a number of seconds from 1 to 86400"). */
static const char *parse_int(cmd_parms *cmd, const char *arg, apr_int64_t min,
                             apr_int64_t max, const char *what, apr_int64_t *out)
{
    char *end;
    apr_int64_t v;

    errno = 0;
    v = apr_strtoi64(arg, &end, 10);
    if (errno || end == arg || *end || v < min || v > max) {
        return apr_psprintf(cmd->pool, "%s: %s", cmd->cmd->name, what);
    }
    *out = v;
    return NULL;
}

static const char *set_lifetime(cmd_parms *cmd, void *cfg, const char *arg)
{
    return parse_int(cmd, arg, 1, APR_INT64_C(315360000),
                     "a number of seconds from 1 to 315360000", &((dir_conf *)cfg)->lifetime);
}

static const char *set_body_limit(cmd_parms *cmd, void *cfg, const char *arg)
{
    return parse_int(cmd, arg, 64, APR_INT64_C(16777216),
                     "a number of bytes from 64 to 16777216", &((dir_conf *)cfg)->body_limit);
}

static const char *set_base(cmd_parms *cmd, void *cfg, const char *arg)
{
    dir_conf *c = cfg;

    if (arg[0] != '/') {
        return apr_psprintf(cmd->pool, "%s must be a URL path starting with /",
                            cmd->cmd->name);
    }
    c->base = arg;
    return NULL;
}

static const char *set_login_limit(cmd_parms *cmd, void *cfg, const char *arg)
{
    apr_int64_t v;
    const char *err = parse_int(cmd, arg, 0, 1000000,
                                "a number of failed logins from 0 (off) to 1000000", &v);

    if (!err) {
        ((dir_conf *)cfg)->login_limit = (int)v;
    }
    return err;
}

static const char *set_login_window(cmd_parms *cmd, void *cfg, const char *arg)
{
    return parse_int(cmd, arg, 1, 86400, "a number of seconds from 1 to 86400",
                     &((dir_conf *)cfg)->login_window);
}

/* RankingCORSOrigins off | ORIGIN...: "off" alone, or origins as browsers send them
 * (checked: a listed origin that a browser never sends would silently never match). */
static const char *set_cors(cmd_parms *cmd, void *cfg, const char *arg)
{
    dir_conf *c = cfg;

    if (!c->cors) {
        c->cors = apr_array_make(cmd->pool, 4, sizeof(const char *));
    }
    else if (c->cors->nelts == 0) {
        return "RankingCORSOrigins: off cannot be combined with origins";
    }
    if (!strcasecmp(arg, "off")) {
        return c->cors->nelts ? "RankingCORSOrigins: off cannot be combined with origins" : NULL;
    }
    if (!rk_cors_origin_valid(arg)) {
        return apr_psprintf(cmd->pool, "RankingCORSOrigins: '%s' is not an origin as browsers "
                            "send it (scheme://host[:port] in lower case, no path, no "
                            "trailing slash), or off", arg);
    }
    *(const char **)apr_array_push(c->cors) = arg;
    return NULL;
}

static const char *set_public(cmd_parms *cmd, void *cfg, int on)
{
    ((dir_conf *)cfg)->public_reads = on ? 1 : 0;
    if (on) {
        rkm_public_section_add(cmd);
    }
    return NULL;
}

static const char *set_public_quick(cmd_parms *cmd, void *cfg, int on)
{
    (void)cmd;
    ((dir_conf *)cfg)->public_quick = on ? 1 : 0;
    return NULL;
}

/* RankingPublicCache MAXAGE [STALE]: both in seconds; STALE 0 leaves
 * stale-while-revalidate out of the header. */
static const char *set_public_cache(cmd_parms *cmd, void *cfg, const char *maxage,
                                    const char *stale)
{
    dir_conf *c = cfg;
    apr_int64_t m, s = DEFAULT_PUBLIC_STALE;
    const char *err = parse_int(cmd, maxage, 0, PUBLIC_SECONDS_MAX,
                                "MAXAGE is a number of seconds from 0 to 86400", &m);

    if (!err && stale) {
        err = parse_int(cmd, stale, 0, PUBLIC_SECONDS_MAX,
                        "STALE is a number of seconds from 0 (none) to 86400", &s);
    }
    if (err) {
        return err;
    }
    c->public_cc = s ? apr_psprintf(cmd->pool, "public, max-age=%" APR_INT64_T_FMT
                                    ", stale-while-revalidate=%" APR_INT64_T_FMT, m, s)
                     : apr_psprintf(cmd->pool, "public, max-age=%" APR_INT64_T_FMT, m);
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

static int rkm_config_check_login_cache(server_rec *s, apr_pool_t *ptemp)
{
    const char *spec = login_cache_spec;
    const char *name = apr_pstrndup(ptemp, spec, strcspn(spec, ":"));

    if (!strcasecmp(spec, "none")
        || ap_lookup_provider(AP_SOCACHE_PROVIDER_GROUP, name, AP_SOCACHE_PROVIDER_VERSION)) {
        return 0;
    }
    /* the words of connect_post_config's message (mod_ranking_connect.c), which says the same at start */
    ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                 "mod_ranking: socache provider \"%s\" for RankingLoginCache is not "
                 "loaded (LoadModule socache_%s_module, or a2enmod socache_%s), or set "
                 "RankingLoginCache none to run without login throttling", name, name, name);
    return -1;
}

/* A server-wide number: main server only, from MIN to MAX. */
static const char *set_global_int(cmd_parms *cmd, const char *arg, apr_int64_t min,
                                  apr_int64_t max, const char *what, apr_int64_t *out)
{
    const char *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    return err ? err : parse_int(cmd, arg, min, max, what, out);
}

static const char *set_event_keepalive(cmd_parms *cmd, void *cfg, const char *arg)
{
    (void)cfg;
    return set_global_int(cmd, arg, 1, 300, "a number of seconds from 1 to 300", &event_keepalive);
}

static const char *set_event_listeners(cmd_parms *cmd, void *cfg, const char *arg)
{
    (void)cfg;
    return set_global_int(cmd, arg, 0, 1000000, "a number of listeners from 0 (automatic) "
                          "to 1000000", &event_listeners);
}

static const char *set_event_buffer(cmd_parms *cmd, void *cfg, const char *arg)
{
    (void)cfg;
    return set_global_int(cmd, arg, 4096, APR_INT64_C(16777216),
                          "a number of bytes from 4096 to 16777216", &event_buffer);
}

static const char *set_revision_check(cmd_parms *cmd, void *cfg, const char *arg)
{
    (void)cfg;
    return set_global_int(cmd, arg, 0, 60000, "a number of milliseconds from 0 (every "
                          "request reads the database) to 60000", &revision_check);
}

static const char *set_password_cost(cmd_parms *cmd, void *cfg, const char *arg)
{
    (void)cfg;
    return set_global_int(cmd, arg, RK_PASSWORD_COST_MIN, RK_PASSWORD_COST_MAX,
                          "a bcrypt cost from 4 to 17", &password_cost);
}

const command_rec rkm_config_cmds[] = {
    AP_INIT_TAKE1("RankingVariants", set_variants, NULL, ACCESS_CONF,
                  "Route variants served here: A, B or both (default both)"),
    AP_INIT_TAKE1("RankingTokenLifetime", set_lifetime, NULL, ACCESS_CONF,
                  "Lifetime in seconds of the tokens issued by /connect (default 3600)"),
    AP_INIT_TAKE1("RankingBodyLimit", set_body_limit, NULL, ACCESS_CONF,
                  "Largest accepted request body in bytes (default 65536)"),
    AP_INIT_TAKE1("RankingBasePath", set_base, NULL, ACCESS_CONF,
                  "URL path where the routes start (default: the enclosing <Location>)"),
    AP_INIT_TAKE1("RankingLoginLimit", set_login_limit, NULL, ACCESS_CONF,
                  "Failed logins per client address within the window before /connect "
                  "answers 429, and per user name before its failures are slowed down "
                  "(default 10, 0 turns throttling off)"),
    AP_INIT_TAKE1("RankingLoginWindow", set_login_window, NULL, ACCESS_CONF,
                  "Seconds over which failed logins are counted (default 300)"),
    AP_INIT_ITERATE("RankingCORSOrigins", set_cors, NULL, ACCESS_CONF,
                    "Origins whose pages may use the API from a browser (CORS), or off "
                    "(default off)"),
    AP_INIT_FLAG("RankingPublic", set_public, NULL, ACCESS_CONF,
                 "On: the read routes of the mount (lists, details, leaderboards) answer "
                 "requests without a token, with a public Cache-Control (default Off)"),
    AP_INIT_FLAG("RankingPublicQuick", set_public_quick, NULL, ACCESS_CONF,
                 "On: the cached public answers of a RankingPublic mount are served from "
                 "httpd's quick-handler phase, before the access hooks (default On)"),
    AP_INIT_TAKE12("RankingPublicCache", set_public_cache, NULL, ACCESS_CONF,
                   "max-age and stale-while-revalidate in seconds of the public answers "
                   "of a RankingPublic mount (default 5 30)"),
    AP_INIT_TAKE1("RankingLoginCache", set_login_cache, NULL, RSRC_CONF,
                  "Where failed logins are counted: none, or a socache provider "
                  "with its arguments (default shmcb)"),
    AP_INIT_TAKE1("RankingPasswordCost", set_password_cost, NULL, RSRC_CONF,
                  "bcrypt cost every failed login is made to take, and of the hashes "
                  "of passwords rehashed at a login (default 10)"),
    AP_INIT_TAKE1("RankingRevisionCheck", set_revision_check, NULL, RSRC_CONF,
                  "Longest time in milliseconds a read trusts the change counters another "
                  "child of this server read, so that a change made through another server "
                  "(or by hand) shows within it (default 1000; 0: read them every request)"),
    AP_INIT_TAKE1("RankingEventKeepAlive", set_event_keepalive, NULL, RSRC_CONF,
                  "Longest silence of an event stream in seconds: a comment is sent "
                  "then (default 15)"),
    AP_INIT_TAKE1("RankingEventListeners", set_event_listeners, NULL, RSRC_CONF,
                  "Most event streams and long polls at once (default 0: automatic)"),
    AP_INIT_TAKE1("RankingEventBuffer", set_event_buffer, NULL, RSRC_CONF,
                  "Most bytes waiting for a slow event stream before it is dropped "
                  "(default 262144)"),
    { NULL }
};

/* pre_config: back to the defaults of the server-wide settings. */
static int config_pre_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp)
{
    (void)pconf;
    (void)plog;
    (void)ptemp;
    rkm_config_reset();
    return OK;
}

/* check_config (apache2 -t runs it): is RankingLoginCache's socache provider loaded? */
static int config_check(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    (void)pconf;
    (void)plog;
    return rkm_config_check_login_cache(s, ptemp) == 0 ? OK : HTTP_INTERNAL_SERVER_ERROR;
}

void rkm_config_register_hooks(void)
{
    ap_hook_pre_config(config_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_check_config(config_check, NULL, NULL, APR_HOOK_MIDDLE);
}
