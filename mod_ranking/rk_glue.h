/* rk_glue.h: what the two httpd-facing files (mod_ranking.c, rk_handler.c) share. */
#ifndef RK_GLUE_H
#define RK_GLUE_H

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "apr_dbd.h"      /* before mod_dbd.h */
#include "mod_dbd.h"
#include "apr_global_mutex.h"
#include "ap_socache.h"

#include <jansson.h>

#include "rk_router.h"
#include "rk_sql.h"

extern module AP_MODULE_DECLARE_DATA ranking_module;

#define RK_HANDLER "ranking"
#define RK_UNSET (-1)

/* Per-directory (per mount) configuration.  Every field has an "unset" value and
 * one merge rule: the more specific section wins where it sets the field. */
typedef struct {
    int variants;            /* RK_VARIANT_* mask, RK_UNSET */
    apr_int64_t lifetime;    /* token lifetime in seconds, RK_UNSET */
    apr_int64_t body_limit;  /* bytes, RK_UNSET */
    const char *base;        /* RankingBasePath, NULL when unset */
    int login_limit;         /* failed logins per window before 429, 0 = off, RK_UNSET */
    apr_int64_t login_window;/* seconds, RK_UNSET */
} rk_dir_conf;

#define RK_DEFAULT_LIFETIME 3600
#define RK_DEFAULT_BODY_LIMIT 65536
#define RK_DEFAULT_LOGIN_LIMIT 10
#define RK_DEFAULT_LOGIN_WINDOW 300

/* The login throttling counters, shared by the server's child processes. */
typedef struct {
    ap_socache_provider_t *provider;   /* NULL: throttling is off */
    ap_socache_instance_t *instance;
    apr_global_mutex_t *mutex;         /* when the provider is not MP-safe */
} rk_login_cache;

/* The state of one request, made once by the access hook (or the handler). */
typedef struct {
    rk_route route;
    unsigned method;        /* RK_M_* bit */
    int editor;             /* the token's user may write */
    int authenticated;
    int have_revision;      /* the database's change counters, read once */
    const char *epoch;
    apr_uint64_t data_rev, auth_rev;
} rk_req;

/* One pooled database connection's statements, prepared on its first use. */
typedef struct {
    apr_pool_t *pool;
    int sqlite;
    apr_dbd_prepared_t *stmt[RK_Q_COUNT];
} rk_conn;

typedef struct {
    ap_dbd_t *dbd;
    rk_conn *conn;
} rk_db;

/* mod_ranking.c */
extern APR_OPTIONAL_FN_TYPE(ap_dbd_acquire) *rk_dbd_acquire;
extern apr_global_mutex_t *rk_write_mutex;
extern rk_login_cache rk_logins;
rk_dir_conf *rk_conf(request_rec *r);
int rk_is_ours(request_rec *r);
rk_req *rk_request(request_rec *r);

/* rk_handler.c */
void rk_cache_child_init(apr_pool_t *p, server_rec *s);
int rk_handler(request_rec *r);
int rk_authenticate(request_rec *r, rk_req *rq);
int rk_send_json(request_rec *r, int status, json_t *json);
int rk_send_error(request_rec *r, int status, const char *message);
int rk_db_open(request_rec *r, rk_db *db);

#endif
