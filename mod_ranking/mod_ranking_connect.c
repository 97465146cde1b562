/* mod_ranking_connect.c: POST /connect (a user's name and password for a bearer
 * token) and the login throttling counters (httpd's socache, shared by the child
 * processes). */
#include <stdlib.h>

#include <limits.h>

#include "apr_global_mutex.h"
#include "ap_mpm.h"
#include "ap_socache.h"
#include "util_mutex.h"

#include "mod_ranking_connect.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_body.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_config.h"
#include "rk_body.h"
#include "rk_json.h"
#include "rk_throttle.h"
#include "rk_token.h"

#define LOGIN_MUTEX_TYPE "ranking-login"

/* ---- login throttling ---- */

static struct {
    ap_socache_provider_t *provider;   /* NULL: throttling is off */
    ap_socache_instance_t *instance;
    apr_global_mutex_t *mutex;         /* when the provider is not MP-safe */
    unsigned waiters;                  /* failed logins that may wait at once (server) */
} logins;

/* The cost of every password check (RankingPasswordCost) and its dummy hashes: made
 * in post_config, read-only in the children. */
static rk_password_policy passwords;

/* The key of the delays being waited (rk_throttle_waiters), shared by the children */
#define WAITERS_KEY "w|waiters"

static int connect_pre_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp)
{
    (void)plog;
    (void)ptemp;
    return ap_mutex_register(pconf, LOGIN_MUTEX_TYPE, NULL, APR_LOCK_DEFAULT, 0) == APR_SUCCESS
           ? OK : HTTP_INTERNAL_SERVER_ERROR;
}

static apr_status_t login_cache_destroy(void *data)
{
    server_rec *s = data;

    if (logins.provider && logins.instance) {
        logins.provider->destroy(logins.instance, s);
    }
    logins.provider = NULL;
    logins.instance = NULL;
    logins.mutex = NULL;
    return APR_SUCCESS;
}

/* The failed-login counters, in a socache shared by the children (shmcb default). */
static int connect_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
                            server_rec *s)
{
    static const struct ap_socache_hints hints = { 64, sizeof(rk_throttle_entry), 60 };
    char *name = apr_pstrdup(ptemp, rkm_config_login_cache()), *arg = strchr(name, ':');
    const char *err;
    apr_status_t rv;

    (void)plog;
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    /* the dummy hashes for RankingPasswordCost (also with throttling off) */
    if (passwords.cost != rkm_config_password_cost()
        && rk_password_policy_init(&passwords, rkm_config_password_cost()) != 0) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                     "mod_ranking: cannot make the dummy password hashes (no random bytes?)");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    logins.provider = NULL;
    if (!strcasecmp(name, "none")) {
        ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, s,
                     "mod_ranking: login throttling is off (RankingLoginCache none)");
        return OK;
    }
    if (arg) {
        *arg++ = '\0';
    }
    logins.provider = ap_lookup_provider(AP_SOCACHE_PROVIDER_GROUP, name,
                                         AP_SOCACHE_PROVIDER_VERSION);
    if (!logins.provider) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                     "mod_ranking: socache provider \"%s\" for RankingLoginCache is not "
                     "loaded (LoadModule socache_%s_module, or a2enmod socache_%s), or set "
                     "RankingLoginCache none to run without login throttling",
                     name, name, name);
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    err = logins.provider->create(&logins.instance, arg, ptemp, pconf);
    if (err) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s, "mod_ranking: RankingLoginCache: %s", err);
        logins.provider = NULL;
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    rv = logins.provider->init(logins.instance, "mod_ranking-login", &hints, s, pconf);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot initialise the login throttling cache");
        logins.provider = NULL;
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    apr_pool_cleanup_register(pconf, s, login_cache_destroy, apr_pool_cleanup_null);
    if (logins.provider->flags & AP_SOCACHE_FLAG_NOTMPSAFE) {
        rv = ap_global_mutex_create(&logins.mutex, NULL, LOGIN_MUTEX_TYPE, NULL, s, pconf, 0);
        if (rv != APR_SUCCESS) {
            ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                         "mod_ranking: cannot create the %s mutex", LOGIN_MUTEX_TYPE);
            return HTTP_INTERNAL_SERVER_ERROR;
        }
    }
    return OK;
}

static void connect_child_init(apr_pool_t *p, server_rec *s)
{
    apr_status_t rv;
    int daemons = 1, threads = 1;

    /* the server's request workers: processes x threads (prefork: processes) */
    if (ap_mpm_query(AP_MPMQ_MAX_DAEMONS, &daemons) != APR_SUCCESS || daemons < 1) {
        daemons = 1;
    }
    if (ap_mpm_query(AP_MPMQ_MAX_THREADS, &threads) != APR_SUCCESS || threads < 1) {
        threads = 1;
    }
    logins.waiters = rk_throttle_waiters_max(daemons > INT_MAX / threads ? INT_MAX
                                             : daemons * threads);
    if (!logins.mutex) {
        return;
    }
    rv = apr_global_mutex_child_init(&logins.mutex, apr_global_mutex_lockfile(logins.mutex), p);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot attach to the %s mutex in a child", LOGIN_MUTEX_TYPE);
    }
}

typedef struct {
    const unsigned char *key[2];   /* [0] the client address, [1] the user (per server) */
    unsigned int keylen[2];
    uint32_t limit;
    int64_t window;
    int64_t now;                   /* seconds, the request's time */
} throttle_keys;

/* r->useragent_ip: the client's address, or the one mod_remoteip took from a trusted
 * proxy's header (README, "Behind a reverse proxy"). */
static void throttle_keys_make(request_rec *r, const char *user, throttle_keys *k)
{
    const char *a = apr_pstrcat(r->pool, "a|", r->useragent_ip, NULL);
    const char *u = apr_psprintf(r->pool, "u|%s:%u|%s", r->server->server_hostname,
                                 (unsigned)r->server->port, user);

    k->key[0] = (const unsigned char *)a;
    k->keylen[0] = (unsigned int)strlen(a);
    k->key[1] = (const unsigned char *)u;
    k->keylen[1] = (unsigned int)strlen(u);
    k->limit = rkm_config_login_limit(r);
    k->window = rkm_config_login_window(r);
    k->now = apr_time_sec(r->request_time);
}

/* Take the counters: 1 when throttling is on for K and they are held (give them back
 * with throttle_unlock), 0 when off or the lock failed (logged). */
static int throttle_lock(request_rec *r, const throttle_keys *k)
{
    if (!logins.provider || k->limit == 0) {
        return 0;
    }
    if (logins.mutex && apr_global_mutex_lock(logins.mutex) != APR_SUCCESS) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "cannot take the login throttling mutex");
        return 0;
    }
    return 1;
}

static void throttle_unlock(void)
{
    if (logins.mutex) {
        apr_global_mutex_unlock(logins.mutex);
    }
}

static int throttle_get(request_rec *r, const throttle_keys *k, int i, rk_throttle_entry *e)
{
    unsigned int len = sizeof(*e);

    memset(e, 0, sizeof(*e));
    return logins.provider->retrieve(logins.instance, r->server, k->key[i], k->keylen[i],
                                     (unsigned char *)e, &len, r->pool) == APR_SUCCESS
           && len == sizeof(*e);
}

/* Seconds to wait when the address is refused, else 0.  A user name is never refused
 * (anyone could lock its user out by failing on purpose): its failures are only
 * slowed down (throttle_fail). */
static int64_t throttle_check(request_rec *r, const throttle_keys *k)
{
    int64_t wait = 0;
    rk_throttle_entry e;

    if (!throttle_lock(r, k)) {
        return 0;
    }
    if (!throttle_get(r, k, 0, &e) || !rk_throttle_refused(&e, k->now, k->limit, k->window, &wait)) {
        wait = 0;
    }
    throttle_unlock();
    return wait;
}

/* A slot to wait DELAY ms in, among the server's logins.waiters (under the lock):
 * 1 when taken, 0 when they are all in use. */
static int throttle_waiter_take(request_rec *r, uint32_t delay)
{
    static const unsigned char key[] = WAITERS_KEY;
    rk_throttle_waiters w;
    unsigned int len = sizeof(w);
    apr_time_t now = apr_time_now();

    if (logins.provider->retrieve(logins.instance, r->server, key, sizeof(key) - 1,
                                  (unsigned char *)&w, &len, r->pool) != APR_SUCCESS
        || len != sizeof(w)) {
        memset(&w, 0, sizeof(w));
    }
    if (!rk_throttle_waiter_take(&w, logins.waiters, apr_time_as_msec(now), delay)) {
        return 0;
    }
    logins.provider->store(logins.instance, r->server, key, sizeof(key) - 1,
                           now + apr_time_from_sec(5), (unsigned char *)&w, sizeof(w), r->pool);
    return 1;
}

/* Count a failed login for the address and for the user name; returns the
 * milliseconds to wait before answering (the larger of the two delays), or 0 when
 * as many failed logins as logins.waiters are already waiting: a worker held by a
 * delay serves nobody, and whoever fails on purpose must not be able to hold them
 * all. */
static uint32_t throttle_fail(request_rec *r, const throttle_keys *k)
{
    rk_throttle_entry e;
    uint32_t delay = 0, d;
    int i;

    if (!throttle_lock(r, k)) {
        return 0;
    }
    for (i = 0; i < 2; i++) {
        if (!throttle_get(r, k, i, &e)) {
            memset(&e, 0, sizeof(e));
        }
        rk_throttle_fail(&e, k->now, k->window);
        logins.provider->store(logins.instance, r->server, k->key[i], k->keylen[i],
                               apr_time_from_sec(e.window_start + k->window),
                               (unsigned char *)&e, sizeof(e), r->pool);
        d = rk_throttle_delay_ms(&e, k->limit);
        delay = d > delay ? d : delay;
    }
    if (delay > 0 && !throttle_waiter_take(r, delay)) {
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r, "failed login answered without its "
                      "delay: %u failed logins are already waiting", logins.waiters);
        delay = 0;
    }
    throttle_unlock();
    return delay;
}

/* ---- POST /connect ---- */

/* The highest bcrypt cost of the stored hashes, 0 when none (or on a database error:
 * then the account's own query fails too, and the login answers 503). */
static int stored_cost_max(request_rec *r, rkm_db *db)
{
    const char *v[1] = { NULL };

    return rkm_db_select_one(r, db, RK_Q_ACCOUNT_MAX_COST, NULL, v, 1) > 0 && v[0]
           ? atoi(v[0]) : 0;
}

/* The account of CRED checked at the cost of one bcrypt check at RankingPasswordCost,
 * or at the cost of the costliest stored hash when that is higher (a hash made with
 * `ranking-admin --cost 12`, until its user's next login rehashes it), whatever
 * happens (rk_password_verify_at), so that time tells nothing.  OK with ACCT
 * (id, hash, role, enabled) of an enabled account whose password matched, and
 * *REHASH a new hash of the password at RankingPasswordCost when the stored one has
 * another cost (else NULL); 401 when not (logged); 503 on a database error. */
static int check_credentials(request_rec *r, rkm_db *db, rk_credentials *cred, const char **acct,
                             char **rehash)
{
    const char *args[1] = { cred->client_id };
    int found = rkm_db_select_one(r, db, RK_Q_ACCOUNT_BY_NAME, args, acct, 4), ok, again = 0;

    *rehash = NULL;
    if (found < 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    ok = rk_password_verify_at(&passwords, cred->client_secret, found ? acct[1] : NULL,
                               stored_cost_max(r, db), &again);
    if (found && ok && acct[3] && strcmp(acct[3], "1") == 0) {
        if (again) {
            *rehash = apr_palloc(r->pool, 61);
            if (rk_password_hash(cred->client_secret, passwords.cost, *rehash, 61) != 0) {
                *rehash = NULL;   /* logged in anyway; rehashed at a later login */
            }
        }
        return OK;
    }
    /* a stable line (README, "Log lines"; conf/fail2ban/ matches it) */
    ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "login failed from %s: %s, user \"%s\"",
                  r->useragent_ip, !found ? "unknown user"
                  : strlen(cred->client_secret) > RK_PASSWORD_MAX ? "secret over 72 bytes"
                  : !ok ? "wrong password" : "user disabled",
                  ap_escape_logitem(r->pool, cred->client_id));
    return HTTP_UNAUTHORIZED;
}

/* Whether the account read again in the login's transaction (NOW: id, hash, role,
 * enabled) is still the one whose password was checked (ACCT): the same id and hash,
 * still enabled.  A disable, a delete or a new password that committed meanwhile
 * wins: no token is issued for credentials that are no longer valid. */
static int account_unchanged(const char **acct, const char **now)
{
    return now[0] && acct[0] && !strcmp(now[0], acct[0]) && now[1] && acct[1]
           && !strcmp(now[1], acct[1]) && now[3] && !strcmp(now[3], "1");
}

/* The statements of a login that change the database, in the transaction: expired
 * tokens purged (no cron job needed), the new one (by its HASH) stored with
 * LIFETIME, and the password hashed again (REHASH, unless NULL) in place of the one
 * checked.  0, or -1 (logged). */
static int store_token(request_rec *r, rkm_db *db, const char **acct, const char *hash,
                       apr_int64_t lifetime, const char *rehash)
{
    apr_int64_t now = apr_time_sec(r->request_time);
    const char *args[4];
    int nrows = 0;

    args[0] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
    if (rkm_db_query(r, db, RK_Q_TOKEN_PURGE, args, &nrows, APLOG_ERR) != 0) {
        return -1;
    }
    args[0] = hash;
    args[1] = acct[0];
    args[2] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
    args[3] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now + lifetime);
    if (rkm_db_query(r, db, RK_Q_TOKEN_INSERT, args, &nrows, APLOG_ERR) != 0 || nrows != 1) {
        return -1;
    }
    if (!rehash) {
        return 0;
    }
    args[0] = rehash;
    args[1] = acct[0];
    args[2] = acct[1];
    return rkm_db_query(r, db, RK_Q_ACCOUNT_REHASH, args, &nrows, APLOG_ERR) == 0 && nrows == 1
           ? 0 : -1;
}

/* A new token for the account ACCT of USER (checked: check_credentials), in one write
 * transaction with the account read again (account_unchanged) and, when REHASH is
 * not NULL, the password hashed again at RankingPasswordCost.  The transaction is
 * bounded like every write: its wait for the write lock (the ranking-write mutex,
 * then SQLite's lock held by another process) ends at DEADLINE, RKM_WRITE_WAIT_MS
 * after the request began; then 503 (with Retry-After).  On PostgreSQL the write
 * locks the revision row first, which ranking-admin's changes of accounts and tokens
 * update too (their triggers): the two are in a row.  OK, 401 when the account
 * changed meanwhile (logged), or the status to answer. */
static int issue_token(request_rec *r, rkm_db *db, const char **acct, const char *user,
                       apr_int64_t lifetime, const char *rehash, apr_time_t deadline,
                       char token[RK_TOKEN_CHARS + 1])
{
    const char *args[1] = { user }, *now[4] = { NULL, NULL, NULL, NULL };
    char hash[RK_HASH_HEX + 1];
    int rv = OK, found;

    if (rk_token_generate(token) != 0) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "no random bytes for a token");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    rk_sha256_hex(token, RK_TOKEN_CHARS, hash);
    if (rkm_db_write_lock_until(r, db, deadline) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (rkm_db_begin_write(r, db, deadline) != 0) {
        rkm_changes_write_done(db);
        return HTTP_SERVICE_UNAVAILABLE;
    }
    found = rkm_db_select_one(r, db, RK_Q_ACCOUNT_BY_NAME, args, now, 4);
    if (found < 0) {
        rv = HTTP_SERVICE_UNAVAILABLE;
    }
    else if (!found || !account_unchanged(acct, now)) {
        ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "login failed from %s: user changed "
                      "meanwhile, user \"%s\"",
                      r->useragent_ip, ap_escape_logitem(r->pool, user));
        rv = HTTP_UNAUTHORIZED;
    }
    else if (store_token(r, db, acct, hash, lifetime, rehash) != 0
             || rkm_db_commit(r, db) != 0) {
        rv = HTTP_SERVICE_UNAVAILABLE;
    }
    if (rv != OK) {
        rkm_db_rollback(r, db);
        memset(token, 0, RK_TOKEN_CHARS + 1);
    }
    rkm_changes_write_done(db);
    if (rv == OK && rehash) {
        ap_log_rerror(APLOG_MARK, APLOG_NOTICE, 0, r, "password of user \"%s\" rehashed "
                      "from bcrypt cost %d to %d (RankingPasswordCost)",
                      ap_escape_logitem(r->pool, user), rk_password_cost(acct[1]), passwords.cost);
    }
    return rv;
}

int rkm_connect(request_rec *r)
{
    apr_int64_t lifetime = rkm_config_token_lifetime(r);
    rk_credentials *cred = apr_pcalloc(r->pool, sizeof(*cred));
    const char *err = NULL, *acct[4] = { NULL, NULL, NULL, NULL };
    char token[RK_TOKEN_CHARS + 1], *rehash = NULL;
    apr_size_t len;
    char *body;
    int rv;
    rkm_db db;
    json_t *answer;
    throttle_keys keys;
    int64_t wait;
    uint32_t delay;

    /* the whole login is bounded like a write (RKM_WRITE_WAIT_MS), from now on */
    apr_time_t deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);

    apr_table_setn(r->headers_out, "Cache-Control", "no-store");
    apr_table_setn(r->headers_out, "Pragma", "no-cache");
    if ((rv = rkm_take_json_body(r, &body, &len)) != OK) {
        return rv;
    }
    rv = rk_connect_parse(body, len, cred, &err);
    memset(body, 0, len);   /* the password does not stay in the request pool */
    if (rv != 0) {
        return rkm_send_error(r, HTTP_BAD_REQUEST, err);
    }
    throttle_keys_make(r, cred->client_id, &keys);
    if ((wait = throttle_check(r, &keys)) > 0) {
        rv = HTTP_TOO_MANY_REQUESTS;
        ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "login throttled from %s: too many failed "
                      "logins, retry in %" APR_INT64_T_FMT " s, user \"%s\"", r->useragent_ip, wait,
                      ap_escape_logitem(r->pool, cred->client_id));
        apr_table_setn(r->headers_out, "Retry-After", apr_psprintf(r->pool, "%" APR_INT64_T_FMT, wait));
    }
    else if ((rv = rkm_db_open(r, &db)) == OK
             && (rv = check_credentials(r, &db, cred, acct, &rehash)) == OK) {
        rv = issue_token(r, &db, acct, cred->client_id, lifetime, rehash, deadline, token);
    }
    /* from here on, the password is of no use: it does not stay in the pool either */
    memset(cred->client_secret, 0, sizeof(cred->client_secret));
    switch (rv) {
    case OK:
        break;
    case HTTP_TOO_MANY_REQUESTS:
        return rkm_send_error(r, rv, "Too many failed logins, retry later");
    case HTTP_UNAUTHORIZED:
        if ((delay = throttle_fail(r, &keys)) > 0) {
            apr_sleep(apr_time_from_msec(delay));
        }
        apr_table_setn(r->err_headers_out, "WWW-Authenticate", "Bearer realm=\"ranking\"");
        return rkm_send_error(r, rv, "Invalid credentials");
    default:
        return rkm_send_status(r, rv);
    }
    r->user = apr_pstrdup(r->pool, cred->client_id);
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "login from %s, user \"%s\"", r->useragent_ip,
                  ap_escape_logitem(r->pool, cred->client_id));
    answer = json_pack("{s:s, s:s, s:s, s:I}", "status", "success", "access_token", token,
                       "token_type", "Bearer", "expires_in", (json_int_t)lifetime);
    memset(token, 0, sizeof(token));
    return rkm_send_json(r, HTTP_OK, answer);
}

void rkm_connect_register_hooks(void)
{
    ap_hook_pre_config(connect_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(connect_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(connect_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}
