/* rk_handler.c: the content handler, the token check, and the database glue.
 *
 * Order of checks (API.md): token (401, in the access hook), route shape (404),
 * method (405), role (403), existence of the path's resources (404), Content-Type
 * (415), body size (413), body (400), conflicts (409). */
#include <string.h>

#include "apr_strings.h"
#include "apr_thread_cond.h"
#include "apr_thread_mutex.h"
#include "util_filter.h"

#include "rk_glue.h"
#include "rk_body.h"
#include "rk_json.h"
#include "rk_token.h"
#include "rk_throttle.h"
#include "rk_cache.h"

APLOG_USE_MODULE(ranking);

#define CONN_KEY "mod_ranking:conn"

/* ---- responses ---- */

static int send_body(request_rec *r, int status, const char *body, size_t len)
{
    r->status = status;
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)len);
    if (!r->header_only) {
        ap_rwrite(body, (int)len, r);
    }
    return OK;
}

int rk_send_json(request_rec *r, int status, json_t *json)
{
    size_t len;
    char *text = json ? rk_json_dump(json, &len) : NULL;
    int rv;

    json_decref(json);
    if (!text) {
        static const char oom[] = "{\"status\":\"error\",\"message\":\"Internal server error\"}";
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "out of memory building a JSON answer");
        return send_body(r, HTTP_INTERNAL_SERVER_ERROR, oom, sizeof(oom) - 1);
    }
    rv = send_body(r, status, text, len);
    free(text);
    return rv;
}

int rk_send_error(request_rec *r, int status, const char *message)
{
    if (status == HTTP_SERVICE_UNAVAILABLE) {
        apr_table_setn(r->headers_out, "Retry-After", "1");
    }
    return rk_send_json(r, status, rk_json_error(message ? message : rk_status_message(status)));
}

static int send_status(request_rec *r, int status)
{
    return rk_send_error(r, status, rk_status_message(status));
}

/* ---- database ---- */

static void db_log_at(request_rec *r, const rk_db *db, int rv, const char *what, int level)
{
    const char *msg = apr_dbd_error(db->dbd->driver, db->dbd->handle, rv);

    ap_log_rerror(APLOG_MARK, level, 0, r, "database error (%s): %s", what,
                  msg ? msg : "unknown");
}

static void db_log(request_rec *r, const rk_db *db, int rv, const char *what)
{
    db_log_at(r, db, rv, what, APLOG_ERR);
}

/* Run a statement that may return rows, draining them. */
static int exec_drain(apr_pool_t *p, ap_dbd_t *dbd, const char *sql)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int rv = apr_dbd_select(dbd->driver, p, dbd->handle, &res, sql, 0);

    if (rv == 0) {
        while (apr_dbd_get_row(dbd->driver, p, res, &row, -1) == 0)
            ;
    }
    return rv;
}

/* SQLite's busy timeout, per statement step.  apr_dbd's sqlite3 driver retries a
 * step that is still busy 15 more times with 100 ms pauses, so a statement waits
 * for a lock held by another process at most 16 x 250 ms + 1.5 s, about 5.5 s,
 * then fails (503).  Writers of this server never wait there: they queue on the
 * ranking-write mutex first. */
#define RK_SQLITE_BUSY_MS "250"

/* Prepare our statements on a connection the first time we use it.  Preparing them
 * here rather than through ap_dbd_prepare keeps them away from the connections of
 * other modules' mod_dbd databases in the same server (which need not hold our
 * schema), and lets the module recover by itself once a missing schema appears. */
static rk_conn *conn_init(request_rec *r, ap_dbd_t *dbd)
{
    static const char *const sqlite_setup[] = {
        "PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = " RK_SQLITE_BUSY_MS,
        "PRAGMA synchronous = FULL",
    };
    rk_conn *c;
    apr_pool_t *p;
    size_t i;

    if (apr_pool_create(&p, dbd->pool) != APR_SUCCESS) {
        return NULL;
    }
    c = apr_pcalloc(p, sizeof(*c));
    c->pool = p;
    c->sqlite = strcmp(apr_dbd_name(dbd->driver), "sqlite3") == 0;
    for (i = 0; c->sqlite && i < sizeof(sqlite_setup) / sizeof(sqlite_setup[0]); i++) {
        int rv = exec_drain(p, dbd, sqlite_setup[i]);

        if (rv != 0) {
            const char *msg = apr_dbd_error(dbd->driver, dbd->handle, rv);
            ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "database setup failed: %s",
                          msg ? msg : "unknown");
            apr_pool_destroy(p);
            return NULL;
        }
    }
    for (i = 0; i < RK_Q_COUNT; i++) {
        int rv = apr_dbd_prepare(dbd->driver, p, dbd->handle, rk_queries[i].sql,
                                 rk_queries[i].label, &c->stmt[i]);

        if (rv != 0) {
            const char *msg = apr_dbd_error(dbd->driver, dbd->handle, rv);
            ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r,
                          "cannot prepare statement %s: %s (is the mod_ranking schema "
                          "applied to this database?)", rk_queries[i].label,
                          msg ? msg : "unknown");
            apr_pool_destroy(p);
            return NULL;
        }
    }
    apr_pool_userdata_setn(c, CONN_KEY, NULL, dbd->pool);
    return c;
}

int rk_db_open(request_rec *r, rk_db *db)
{
    void *data = NULL;

    db->dbd = rk_dbd_acquire ? rk_dbd_acquire(r) : NULL;
    if (!db->dbd) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r,
                      "no database connection (check DBDriver/DBDParams and that the "
                      "database is reachable and readable by the server's user)");
        return HTTP_SERVICE_UNAVAILABLE;
    }
    apr_pool_userdata_get(&data, CONN_KEY, db->dbd->pool);
    db->conn = data ? data : conn_init(r, db->dbd);
    return db->conn ? OK : HTTP_SERVICE_UNAVAILABLE;
}

/* Run query Q, its results in pool P. */
static int db_select(request_rec *r, apr_pool_t *p, rk_db *db, rk_query_id q,
                     const char **args, apr_dbd_results_t **res)
{
    int rv;

    *res = NULL;
    rv = apr_dbd_pselect(db->dbd->driver, p, db->dbd->handle, res, db->conn->stmt[q],
                         0, rk_queries[q].nargs, args);
    if (rv != 0) {
        db_log(r, db, rv, rk_queries[q].label);
    }
    return rv;
}

/* LEVEL: how loud a failure is logged (a refused lane update is an expected 409). */
static int db_query_at(request_rec *r, rk_db *db, rk_query_id q, const char **args,
                       int *nrows, int level)
{
    int rv;

    *nrows = 0;
    rv = apr_dbd_pquery(db->dbd->driver, r->pool, db->dbd->handle, nrows, db->conn->stmt[q],
                        rk_queries[q].nargs, args);
    if (rv != 0) {
        db_log_at(r, db, rv, rk_queries[q].label, level);
    }
    return rv;
}

static int db_query(request_rec *r, rk_db *db, rk_query_id q, const char **args, int *nrows)
{
    return db_query_at(r, db, q, args, nrows, APLOG_ERR);
}

static const char *col(rk_db *db, apr_dbd_row_t *row, int i)
{
    char *v = NULL;

    if (apr_dbd_datum_get(db->dbd->driver, row, i, APR_DBD_TYPE_STRING, &v) != APR_SUCCESS) {
        return NULL;   /* SQL NULL */
    }
    return v;
}

/* Fetch the first row's first NCOLS columns into OUT (copied into r->pool); drain the
 * rest.  Returns 1 when there was a row, 0 when none, -1 on error. */
static int select_one(request_rec *r, rk_db *db, rk_query_id q, const char **args,
                      const char **out, int ncols)
{
    apr_dbd_results_t *res;
    apr_dbd_row_t *row = NULL;
    int found = 0, i;

    if (db_select(r, r->pool, db, q, args, &res) != 0) {
        return -1;
    }
    while (apr_dbd_get_row(db->dbd->driver, r->pool, res, &row, -1) == 0) {
        for (i = 0; !found && i < ncols; i++) {
            const char *v = col(db, row, i);
            out[i] = v ? apr_pstrdup(r->pool, v) : NULL;
        }
        found = 1;
    }
    return found;
}

/* Serialise this server's writers (see mod_ranking.c); a no-op for PostgreSQL. */
static int write_lock(request_rec *r, rk_db *db)
{
    apr_status_t rv;

    if (!db->conn->sqlite || !rk_write_mutex) {
        return 0;
    }
    rv = apr_global_mutex_lock(rk_write_mutex);
    if (rv != APR_SUCCESS) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, rv, r, "cannot take the write mutex");
        return -1;
    }
    return 0;
}

static void write_unlock(rk_db *db)
{
    if (db->conn->sqlite && rk_write_mutex) {
        apr_global_mutex_unlock(rk_write_mutex);
    }
}

static int tx(request_rec *r, rk_db *db, const char *what)
{
    int nrows = 0;
    const char *sql = !strcmp(what, "BEGIN") && db->conn->sqlite ? "BEGIN IMMEDIATE" : what;
    int rv = apr_dbd_query(db->dbd->driver, db->dbd->handle, &nrows, sql);

    if (rv != 0) {
        db_log(r, db, rv, what);
    }
    return rv;
}

/* ---- change counters and caches ---- */

/* Per child process: the answers of read routes and the results of token checks,
 * each valid for one revision of the database (see the revision table).  malloc()ed
 * and bounded, never in a request's pool. */
#define RK_ANSWER_CACHE_BYTES (32u << 20)
#define RK_ANSWER_CACHE_ENTRIES 4096u
#define RK_TOKEN_CACHE_BYTES (2u << 20)
#define RK_TOKEN_CACHE_ENTRIES 8192u

static rk_cache *answers, *tokens;
static apr_thread_mutex_t *cache_mutex;
static unsigned char token_key[16];   /* the token cache's hash key, per child */
#define RK_BUILD_LOCKS 32
static apr_thread_mutex_t *build_locks[RK_BUILD_LOCKS];   /* see build_lock() */

static apr_status_t caches_destroy(void *unused)
{
    (void)unused;
    rk_cache_destroy(answers);
    rk_cache_destroy(tokens);
    answers = tokens = NULL;
    return APR_SUCCESS;
}

static void put_child_init(apr_pool_t *p, server_rec *s);

void rk_cache_child_init(apr_pool_t *p, server_rec *s)
{
    int i;

    put_child_init(p, s);
    if (apr_thread_mutex_create(&cache_mutex, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "mod_ranking: no cache mutex: caches off");
        cache_mutex = NULL;
        return;
    }
    if (apr_generate_random_bytes(token_key, sizeof(token_key)) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "mod_ranking: no random bytes for the "
                     "token cache: caches off");
        apr_thread_mutex_destroy(cache_mutex);
        cache_mutex = NULL;
        return;
    }
    for (i = 0; i < RK_BUILD_LOCKS; i++) {
        if (apr_thread_mutex_create(&build_locks[i], APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
            build_locks[i] = NULL;   /* that share of the keys is built without waiting */
        }
    }
    answers = rk_cache_create(RK_ANSWER_CACHE_BYTES, RK_ANSWER_CACHE_ENTRIES);
    tokens = rk_cache_create(RK_TOKEN_CACHE_BYTES, RK_TOKEN_CACHE_ENTRIES);
    apr_pool_cleanup_register(p, NULL, caches_destroy, apr_pool_cleanup_null);
}

/* Copy of the value under KEY for REV into the request's pool, or NULL. */
static char *cache_get(request_rec *r, rk_cache *c, const char *key, apr_uint64_t rev,
                       apr_size_t *len)
{
    const void *v;
    size_t n = 0;
    char *copy = NULL;

    if (!c || !cache_mutex || apr_thread_mutex_lock(cache_mutex) != APR_SUCCESS) {
        return NULL;
    }
    if ((v = rk_cache_get(c, key, rev, &n)) != NULL) {
        copy = apr_pmemdup(r->pool, v, n);
        *len = n;
    }
    apr_thread_mutex_unlock(cache_mutex);
    return copy;
}

static void release_answer(void *value)
{
    rk_cache_release(value);
}

/* The cached answer of KEY at REV, with a reference held for this request (NULL when
 * there is none). */
static const void *cached_answer(const char *key, apr_uint64_t rev, size_t *len)
{
    const void *v;

    if (!answers || !cache_mutex || apr_thread_mutex_lock(cache_mutex) != APR_SUCCESS) {
        return NULL;
    }
    v = rk_cache_acquire(answers, key, rev, len);
    apr_thread_mutex_unlock(cache_mutex);
    return v;
}

/* Answer 200 with V, an answer value (rk_cache_value_new, cached or not), taking over
 * the caller's reference to it.  The bytes are not copied: they go down the filter
 * chain in a heap bucket that holds the reference until it is destroyed. */
static int send_value(request_rec *r, const void *v, size_t len)
{
    apr_bucket_brigade *bb;

    r->status = HTTP_OK;
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)len);
    if (r->header_only) {
        rk_cache_release(v);
        return OK;
    }
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_heap_create(v, len, release_answer, bb->bucket_alloc));
    return ap_pass_brigade(r->output_filters, bb) == APR_SUCCESS ? OK : AP_FILTER_ERROR;
}

/* One answer is built at a time per key in a child: after a write, the threads that
 * ask for the same route wait for the first one's answer instead of all building it
 * (a leaderboard polled by many screens).  Keys are spread over a few locks. */
static apr_thread_mutex_t *build_lock(const char *key)
{
    return build_locks[rk_cache_hash(key) % RK_BUILD_LOCKS];
}

static void cache_put(rk_cache *c, const char *key, apr_uint64_t rev, const void *v, size_t len)
{
    if (c && cache_mutex && apr_thread_mutex_lock(cache_mutex) == APR_SUCCESS) {
        rk_cache_put(c, key, rev, v, len);
        apr_thread_mutex_unlock(cache_mutex);
    }
}

/* Keep V, a value built in place (rk_cache_value_new), in C for REV; the caller keeps
 * its own reference. */
static void cache_insert(rk_cache *c, apr_uint64_t rev, void *v)
{
    if (c && cache_mutex && apr_thread_mutex_lock(cache_mutex) == APR_SUCCESS) {
        rk_cache_insert(c, rev, v);
        apr_thread_mutex_unlock(cache_mutex);
    }
}

/* The database's change counters, once per request.  0, or -1 on a database error. */
static int revision(request_rec *r, rk_db *db, rk_req *rq)
{
    const char *v[3];

    if (rq->have_revision) {
        return 0;
    }
    if (select_one(r, db, RK_Q_REVISION, NULL, v, 3) != 1 || !v[0] || !v[1] || !v[2]) {
        return -1;
    }
    rq->epoch = v[0];
    rq->data_rev = apr_strtoi64(v[1], NULL, 10);
    rq->auth_rev = apr_strtoi64(v[2], NULL, 10);
    rq->have_revision = 1;
    return 0;
}

/* ---- authentication ---- */

static int unauthorized(request_rec *r, int invalid_token)
{
    apr_table_setn(r->err_headers_out, "WWW-Authenticate",
                   invalid_token ? "Bearer realm=\"ranking\", error=\"invalid_token\""
                                 : "Bearer realm=\"ranking\"");
    rk_send_error(r, HTTP_UNAUTHORIZED, "Unauthorized");
    return HTTP_UNAUTHORIZED;
}

/* Check the bearer token.  OK with r->user set; otherwise the error answer has been
 * sent and its status is returned. */
/* What a token check found, as kept in the token cache. */
typedef struct {
    apr_int64_t expires;
    int editor;
    char user[65];
} token_entry;

/* The token check proper, after the request's database state is known: the token
 * cache of this child process, keyed by a keyed hash of the token (rk_token_cache_key,
 * under a key drawn at child start), else the database (by the token's SHA-256).
 * Kept apart (not inlined) so that a profile shows what it costs; ./scripts/bench
 * measures it. */
static int __attribute__((noinline))
token_lookup(request_rec *r, rk_req *rq, rk_db *db, const char *tok, size_t len)
{
    const char *args[2], *out[3];
    char key[64 + RK_TOKEN_KEY_HEX + 2], hash[RK_HASH_HEX + 1];
    apr_int64_t now = apr_time_sec(r->request_time);
    size_t elen = strlen(rq->epoch);
    token_entry *te;
    apr_size_t tlen = 0;

    /* "<epoch>|<keyed hash of the token>"; the epoch is 16 hex digits (schema) */
    if (elen > 64) {
        elen = 64;
    }
    memcpy(key, rq->epoch, elen);
    key[elen] = '|';
    rk_token_cache_key(tok, len, token_key, key + elen + 1);
    te = (token_entry *)cache_get(r, tokens, key, rq->auth_rev, &tlen);
    if (!te || tlen != sizeof(*te) || te->expires <= now) {
        rk_sha256_hex(tok, len, hash);
        args[0] = hash;
        args[1] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
        switch (select_one(r, db, RK_Q_TOKEN_LOOKUP, args, out, 3)) {
        case -1:
            send_status(r, HTTP_SERVICE_UNAVAILABLE);
            return HTTP_SERVICE_UNAVAILABLE;
        case 0:
            return unauthorized(r, 1);
        }
        te = apr_pcalloc(r->pool, sizeof(*te));
        te->expires = out[2] ? apr_strtoi64(out[2], NULL, 10) : 0;
        te->editor = out[1] && !strcmp(out[1], "editor");
        apr_cpystrn(te->user, out[0] ? out[0] : "", sizeof(te->user));
        cache_put(tokens, key, rq->auth_rev, te, sizeof(*te));
    }
    r->user = apr_pstrdup(r->pool, te->user);
    r->ap_auth_type = "Bearer";
    rq->editor = te->editor;
    rq->authenticated = 1;
    return OK;
}

int rk_authenticate(request_rec *r, rk_req *rq)
{
    const char *tok = NULL;
    size_t len = 0;
    rk_db db;
    int rv;

    switch (rk_bearer_parse(apr_table_get(r->headers_in, "Authorization"), &tok, &len)) {
    case RK_AUTH_NONE:
    case RK_AUTH_OTHER:
        return unauthorized(r, 0);
    case RK_AUTH_BEARER_BAD:
        return unauthorized(r, 1);
    case RK_AUTH_BEARER:
        break;
    }
    /* the connection and the change counters serve the handler too */
    if ((rv = rk_db_open(r, &db)) != OK) {
        send_status(r, rv);
        return rv;
    }
    if (revision(r, &db, rq) != 0) {
        send_status(r, HTTP_SERVICE_UNAVAILABLE);
        return HTTP_SERVICE_UNAVAILABLE;
    }
    return token_lookup(r, rq, &db, tok, len);
}

/* ---- request bodies ---- */

static int is_json_type(const char *ct)
{
    static const char want[] = "application/json";
    size_t n = sizeof(want) - 1;

    if (!ct) {
        return 0;
    }
    while (*ct == ' ' || *ct == '\t') {
        ct++;
    }
    return strncasecmp(ct, want, n) == 0
           && (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ' || ct[n] == '\t');
}

/* Read the whole body, at most LIMIT bytes.  OK, or the status to answer. */
static int read_body(request_rec *r, apr_off_t limit, char **buf, apr_size_t *len)
{
    const char *cl = apr_table_get(r->headers_in, "Content-Length");
    apr_bucket_brigade *bb;
    apr_size_t cap = 1024, used = 0;
    char *data;
    int seen_eos = 0;

    if (cl) {
        apr_off_t n;
        if (apr_strtoff(&n, cl, NULL, 10) == APR_SUCCESS && n > limit) {
            r->connection->keepalive = AP_CONN_CLOSE;  /* do not read the rest */
            return HTTP_REQUEST_ENTITY_TOO_LARGE;
        }
    }
    data = apr_palloc(r->pool, cap);
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    while (!seen_eos) {
        apr_bucket *b;
        apr_status_t rv = ap_get_brigade(r->input_filters, bb, AP_MODE_READBYTES,
                                         APR_BLOCK_READ, HUGE_STRING_LEN);

        if (rv != APR_SUCCESS) {
            apr_brigade_destroy(bb);
            r->connection->keepalive = AP_CONN_CLOSE;
            /* AP_FILTER_ERROR: httpd's input filter has answered already (malformed
             * chunked framing, LimitRequestBody): hand that back to httpd */
            return rv == AP_FILTER_ERROR ? AP_FILTER_ERROR
                   : rv == APR_ENOSPC ? HTTP_REQUEST_ENTITY_TOO_LARGE : HTTP_BAD_REQUEST;
        }
        for (b = APR_BRIGADE_FIRST(bb); b != APR_BRIGADE_SENTINEL(bb); b = APR_BUCKET_NEXT(b)) {
            const char *piece;
            apr_size_t n;

            if (APR_BUCKET_IS_EOS(b)) {
                seen_eos = 1;
                break;
            }
            if (apr_bucket_read(b, &piece, &n, APR_BLOCK_READ) != APR_SUCCESS) {
                apr_brigade_destroy(bb);
                r->connection->keepalive = AP_CONN_CLOSE;
                return HTTP_BAD_REQUEST;
            }
            if ((apr_off_t)(used + n) > limit) {
                apr_brigade_destroy(bb);
                r->connection->keepalive = AP_CONN_CLOSE;
                return HTTP_REQUEST_ENTITY_TOO_LARGE;
            }
            if (used + n + 1 > cap) {
                char *bigger;
                while (used + n + 1 > cap) {
                    cap *= 2;
                }
                bigger = apr_palloc(r->pool, cap);
                memcpy(bigger, data, used);
                data = bigger;
            }
            memcpy(data + used, piece, n);
            used += n;
        }
        apr_brigade_cleanup(bb);
    }
    apr_brigade_destroy(bb);
    data[used] = '\0';
    *buf = data;
    *len = used;
    return OK;
}

static apr_off_t body_limit(request_rec *r)
{
    rk_dir_conf *c = rk_conf(r);
    return c->body_limit == RK_UNSET ? RK_DEFAULT_BODY_LIMIT : (apr_off_t)c->body_limit;
}

/* Content-Type, size, then read.  OK: the body is in *BUF.  Otherwise the request is
 * answered and the handler returns the value: DONE (answered here) or
 * AP_FILTER_ERROR (answered by httpd's input filter). */
static int take_json_body(request_rec *r, char **buf, apr_size_t *len)
{
    int rv;

    if (!is_json_type(apr_table_get(r->headers_in, "Content-Type"))) {
        send_status(r, HTTP_UNSUPPORTED_MEDIA_TYPE);
        return DONE;
    }
    rv = read_body(r, body_limit(r), buf, len);
    if (rv == OK || rv == AP_FILTER_ERROR) {
        return rv;
    }
    rk_send_error(r, rv, rv == HTTP_BAD_REQUEST ? "Invalid body: could not be read" : NULL);
    return DONE;
}

/* ---- login throttling ---- */

typedef struct {
    const unsigned char *key[2];   /* the client address, the user (per server) */
    unsigned int keylen[2];
    uint32_t limit;
    int64_t window;
} throttle_keys;

static int throttle_on(const throttle_keys *k)
{
    return rk_logins.provider && k->limit > 0;
}

static void throttle_keys_make(request_rec *r, const char *user, throttle_keys *k)
{
    rk_dir_conf *c = rk_conf(r);
    const char *a = apr_pstrcat(r->pool, "a|", r->useragent_ip, NULL);
    const char *u = apr_psprintf(r->pool, "u|%s:%u|%s", r->server->server_hostname,
                                 (unsigned)r->server->port, user);

    k->key[0] = (const unsigned char *)a;
    k->keylen[0] = (unsigned int)strlen(a);
    k->key[1] = (const unsigned char *)u;
    k->keylen[1] = (unsigned int)strlen(u);
    k->limit = (uint32_t)(c->login_limit == RK_UNSET ? RK_DEFAULT_LOGIN_LIMIT : c->login_limit);
    k->window = c->login_window == RK_UNSET ? RK_DEFAULT_LOGIN_WINDOW : c->login_window;
}

static int throttle_lock(request_rec *r)
{
    if (rk_logins.mutex && apr_global_mutex_lock(rk_logins.mutex) != APR_SUCCESS) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "cannot take the login throttling mutex");
        return -1;
    }
    return 0;
}

static void throttle_unlock(void)
{
    if (rk_logins.mutex) {
        apr_global_mutex_unlock(rk_logins.mutex);
    }
}

static int throttle_get(request_rec *r, const throttle_keys *k, int i, rk_throttle_entry *e)
{
    unsigned int len = sizeof(*e);

    memset(e, 0, sizeof(*e));
    return rk_logins.provider->retrieve(rk_logins.instance, r->server, k->key[i], k->keylen[i],
                                        (unsigned char *)e, &len, r->pool) == APR_SUCCESS
           && len == sizeof(*e);
}

/* Seconds to wait when the address or the user is refused, else 0. */
static int64_t throttle_check(request_rec *r, const throttle_keys *k)
{
    int64_t now = apr_time_sec(apr_time_now()), wait = 0, w;
    rk_throttle_entry e;
    int i;

    if (!throttle_on(k) || throttle_lock(r) != 0) {
        return 0;
    }
    for (i = 0; i < 2; i++) {
        if (throttle_get(r, k, i, &e) && rk_throttle_refused(&e, now, k->limit, k->window, &w)
            && w > wait) {
            wait = w;
        }
    }
    throttle_unlock();
    return wait;
}

/* Count a failed login; returns the milliseconds to wait before answering. */
static uint32_t throttle_fail(request_rec *r, const throttle_keys *k)
{
    int64_t now = apr_time_sec(apr_time_now());
    rk_throttle_entry e;
    uint32_t delay = 0, d;
    int i;

    if (!throttle_on(k) || throttle_lock(r) != 0) {
        return 0;
    }
    for (i = 0; i < 2; i++) {
        if (!throttle_get(r, k, i, &e)) {
            memset(&e, 0, sizeof(e));
        }
        rk_throttle_fail(&e, now, k->window);
        rk_logins.provider->store(rk_logins.instance, r->server, k->key[i], k->keylen[i],
                                  apr_time_from_sec(e.window_start + k->window),
                                  (unsigned char *)&e, sizeof(e), r->pool);
        d = rk_throttle_delay_ms(&e, k->limit);
        delay = d > delay ? d : delay;
    }
    throttle_unlock();
    return delay;
}

/* A successful login clears the user's count (not the address's). */
static void throttle_success(request_rec *r, const throttle_keys *k)
{
    if (!throttle_on(k) || throttle_lock(r) != 0) {
        return;
    }
    rk_logins.provider->remove(rk_logins.instance, r->server, k->key[1], k->keylen[1], r->pool);
    throttle_unlock();
}

/* ---- POST /connect ---- */

static int do_connect(request_rec *r)
{
    rk_dir_conf *conf = rk_conf(r);
    apr_int64_t lifetime = conf->lifetime == RK_UNSET ? RK_DEFAULT_LIFETIME : conf->lifetime;
    rk_credentials *cred = apr_pcalloc(r->pool, sizeof(*cred));
    const char *err = NULL, *acct[4] = { NULL, NULL, NULL, NULL }, *args[4];
    char token[RK_TOKEN_CHARS + 1], hash[RK_HASH_HEX + 1];
    apr_size_t len;
    apr_int64_t now = apr_time_sec(apr_time_now());
    char *body;
    int rv, found, ok, nrows;
    rk_db db;
    json_t *answer;
    throttle_keys keys;
    int64_t wait;
    uint32_t delay;

    apr_table_setn(r->headers_out, "Cache-Control", "no-store");
    apr_table_setn(r->headers_out, "Pragma", "no-cache");
    if ((rv = take_json_body(r, &body, &len)) != OK) {
        return rv;
    }
    rv = rk_connect_parse(body, len, cred, &err);
    memset(body, 0, len);   /* the password does not stay in the request pool */
    if (rv != 0) {
        return rk_send_error(r, HTTP_BAD_REQUEST, err);
    }
    throttle_keys_make(r, cred->client_id, &keys);
    if ((wait = throttle_check(r, &keys)) > 0) {
        memset(cred, 0, sizeof(*cred));
        ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "login refused for %" APR_INT64_T_FMT
                      " s: too many failed logins from this address or for this user", wait);
        apr_table_setn(r->headers_out, "Retry-After", apr_psprintf(r->pool, "%" APR_INT64_T_FMT, wait));
        return rk_send_error(r, HTTP_TOO_MANY_REQUESTS, "Too many failed logins, retry later");
    }
    if ((rv = rk_db_open(r, &db)) != OK) {
        memset(cred, 0, sizeof(*cred));
        return send_status(r, rv);
    }
    args[0] = cred->client_id;
    found = select_one(r, &db, RK_Q_ACCOUNT_BY_NAME, args, acct, 4);
    if (found < 0) {
        memset(cred, 0, sizeof(*cred));
        return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    /* one bcrypt check whatever happens, so that time tells nothing */
    ok = rk_password_check(cred->client_secret, found ? acct[1] : NULL);
    memset(cred->client_secret, 0, sizeof(cred->client_secret));
    if (!found || !ok || !acct[3] || strcmp(acct[3], "1") != 0) {
        ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "login refused for user \"%s\" (%s)",
                      ap_escape_logitem(r->pool, cred->client_id),
                      !found ? "unknown user" : !ok ? "wrong password" : "user disabled");
        if ((delay = throttle_fail(r, &keys)) > 0) {
            apr_sleep(apr_time_from_msec(delay));
        }
        apr_table_setn(r->err_headers_out, "WWW-Authenticate", "Bearer realm=\"ranking\"");
        return rk_send_error(r, HTTP_UNAUTHORIZED, "Invalid credentials");
    }
    if (rk_token_generate(token) != 0) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "no random bytes for a token");
        return send_status(r, HTTP_INTERNAL_SERVER_ERROR);
    }
    rk_sha256_hex(token, RK_TOKEN_CHARS, hash);
    if (write_lock(r, &db) != 0) {
        return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    args[0] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
    rv = db_query(r, &db, RK_Q_TOKEN_PURGE, args, &nrows);   /* no cron job needed */
    args[0] = hash;
    args[1] = acct[0];
    args[2] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
    args[3] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now + lifetime);
    rv = rv == 0 ? db_query(r, &db, RK_Q_TOKEN_INSERT, args, &nrows) : rv;
    write_unlock(&db);
    if (rv != 0) {
        return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    throttle_success(r, &keys);
    r->user = apr_pstrdup(r->pool, cred->client_id);
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "login of user \"%s\"",
                  ap_escape_logitem(r->pool, cred->client_id));
    answer = json_pack("{s:s, s:s, s:s, s:I}", "status", "success", "access_token", token,
                       "token_type", "Bearer", "expires_in", (json_int_t)lifetime);
    memset(token, 0, sizeof(token));
    return rk_send_json(r, HTTP_OK, answer);
}

/* ---- reads ---- */

typedef struct {
    rk_query_id query;
    const rk_resource *res;
} read_spec;

static const read_spec reads[RK_ROUTE_COUNT] = {
    [RK_ROUTE_COMPETITIONS] = { RK_Q_COMPETITIONS, &rk_res_competition },
    [RK_ROUTE_COMPETITION] = { RK_Q_COMPETITION, &rk_res_competition },
    [RK_ROUTE_WODS] = { RK_Q_WODS, &rk_res_wod },
    [RK_ROUTE_WOD] = { RK_Q_WOD, &rk_res_wod },
    [RK_ROUTE_SPOTS] = { RK_Q_SPOTS, &rk_res_spot },
    [RK_ROUTE_SPOT] = { RK_Q_SPOT, &rk_res_spot },
    [RK_ROUTE_ZONES] = { RK_Q_ZONES, &rk_res_zone },
    [RK_ROUTE_ZONE] = { RK_Q_ZONE, &rk_res_zone },
    [RK_ROUTE_A_HEATS] = { RK_Q_A_HEATS, &rk_res_heat },
    [RK_ROUTE_A_HEAT] = { RK_Q_A_HEAT, &rk_res_heat },
    [RK_ROUTE_A_VOIES] = { RK_Q_A_VOIES, &rk_res_voie },
    [RK_ROUTE_A_VOIE] = { RK_Q_A_VOIE, &rk_res_voie },
    [RK_ROUTE_B_HEATS] = { RK_Q_B_HEATS, &rk_res_heat },
    [RK_ROUTE_B_HEAT] = { RK_Q_B_HEAT, &rk_res_heat },
    [RK_ROUTE_B_LINES] = { RK_Q_B_LINES, &rk_res_line },
    [RK_ROUTE_B_LINE] = { RK_Q_B_LINE, &rk_res_line },
};

static void path_args(const rk_req *rq, const char **args)
{
    int i;

    for (i = 0; i < rq->route.nids; i++) {
        args[i] = rq->route.ids[i];
    }
}

/* The answer of a read route (also a lane PUT's: the lane as stored), written straight
 * from the rows (rk_json_answer) into a value of its exact size for the answer cache under KEY
 * (rk_cache_value_new; the caller holds its reference), or NULL with *STATUS 404, 503
 * or 500.  The rows are read into a pool with an allocator of its own, destroyed
 * before returning: a large list leaves nothing behind in the request's pool, whose
 * allocator would keep the freed memory for later requests of the connection (up to
 * MaxMemFree each), nor in malloc arenas, where a JSON tree of it used to be built. */
static void *build_answer(request_rec *r, rk_db *db, const rk_req *rq, const char *key,
                          int *status, size_t *len)
{
    const read_spec *spec = &reads[rq->route.id];
    const rk_resource *res = spec->res;
    int list = rk_route_is_list(rq->route.id);
    int skip = list && rq->route.id != RK_ROUTE_COMPETITIONS;  /* the parent's id */
    int nf = res->nfields, found = 0, i;
    const char *args[RK_MAX_IDS];
    apr_allocator_t *alloc = NULL;
    apr_pool_t *p = NULL;
    apr_array_header_t *vals;
    apr_dbd_results_t *rs = NULL;
    apr_dbd_row_t *row = NULL;
    char *out = NULL;

    *status = HTTP_INTERNAL_SERVER_ERROR;
    if (apr_allocator_create(&alloc) != APR_SUCCESS) {
        return NULL;
    }
    if (apr_pool_create_ex(&p, r->pool, NULL, alloc) != APR_SUCCESS) {
        apr_allocator_destroy(alloc);
        return NULL;
    }
    apr_allocator_owner_set(alloc, p);
    vals = apr_array_make(p, 64, nf * (int)sizeof(const char *));   /* one row each */
    path_args(rq, args);
    if (db_select(r, p, db, spec->query, args, &rs) != 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
        apr_pool_destroy(p);
        return NULL;
    }
    /* keep the values: a driver may reuse a row's memory for the next */
    while (apr_dbd_get_row(db->dbd->driver, p, rs, &row, -1) == 0) {
        const char **v;

        found = 1;
        if ((!list && vals->nelts) || (skip && !col(db, row, skip))) {
            continue;   /* drain; or the parent without children */
        }
        v = apr_array_push(vals);
        for (i = 0; i < nf; i++) {
            const char *c = col(db, row, skip + i);
            v[i] = c ? apr_pstrdup(p, c) : NULL;
        }
    }
    if (!found) {
        *status = HTTP_NOT_FOUND;
    }
    else {
        const char *const *rows = (const char *const *)vals->elts;   /* one after the other */

        *len = rk_json_answer(NULL, res, list, rows, (size_t)vals->nelts);
        if ((out = rk_cache_value_new(key, *len)) != NULL) {
            rk_json_answer(out, res, list, rows, (size_t)vals->nelts);
            *status = HTTP_OK;
        }
    }
    apr_pool_destroy(p);
    return out;
}

/* The answer of a read route depends on the route and the data only: one strong
 * ETag per data revision of the database; If-None-Match is answered 304 before any
 * body is built, and built answers are cached for their revision. */
static int do_read(request_rec *r, rk_req *rq)
{
    rk_db db;
    int status, rv, i;
    const char *key;
    const void *cached;
    void *built;
    size_t len = 0;
    apr_thread_mutex_t *lock;

    if ((rv = rk_db_open(r, &db)) != OK) {
        return send_status(r, rv);
    }
    if (revision(r, &db, rq) != 0) {
        return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    apr_table_setn(r->headers_out, "ETag", apr_psprintf(r->pool, "\"%s-%" APR_UINT64_T_FMT "\"",
                                                        rq->epoch, rq->data_rev));
    if (ap_meets_conditions(r) == HTTP_NOT_MODIFIED) {
        r->status = HTTP_NOT_MODIFIED;
        return OK;
    }
    key = apr_pstrcat(r->pool, rq->epoch, "|", rk_route_name(rq->route.id), NULL);
    for (i = 0; i < rq->route.nids; i++) {
        key = apr_pstrcat(r->pool, key, "/", rq->route.ids[i], NULL);
    }
    if ((cached = cached_answer(key, rq->data_rev, &len)) != NULL) {
        return send_value(r, cached, len);
    }
    if (answers && (lock = build_lock(key)) != NULL && apr_thread_mutex_lock(lock) == APR_SUCCESS) {
        /* built by another thread while this one waited? */
        if ((cached = cached_answer(key, rq->data_rev, &len)) != NULL) {
            apr_thread_mutex_unlock(lock);
            return send_value(r, cached, len);
        }
    }
    else {
        lock = NULL;
    }
    if ((built = build_answer(r, &db, rq, key, &status, &len)) != NULL) {
        cache_insert(answers, rq->data_rev, built);
    }
    if (lock) {
        apr_thread_mutex_unlock(lock);
    }
    if (!built) {
        apr_table_unset(r->headers_out, "ETag");
        return send_status(r, status);
    }
    return send_value(r, built, len);
}

/* ---- lane writes (variant A) ---- */

/* Lane PUTs are committed in groups.  SQLite commits one transaction at a time and
 * each commit waits for the disk (WAL, synchronous=FULL), so the writers of a child
 * process queue their checked updates; one of them (the leader) takes the write
 * mutex, runs every queued update in one transaction, each inside its own savepoint
 * (a refused update is rolled back alone), commits once, and wakes the others.  Every
 * writer answers only after the commit that holds its update: as durable as one
 * transaction per request, with one disk sync for the whole group.  The leader
 * allocates a job's results in the job's request pool while that request's thread
 * waits, so a pool is never used by two threads at once.  PostgreSQL runs each PUT on
 * its own (its transactions do not serialise). */
typedef struct put_job {
    request_rec *r;
    rk_req *rq;
    rk_lane_patch *patch;
    int status;           /* HTTP_OK, or the error answer's status */
    const char *err;      /* its message (NULL: the status's own) */
    void *answer;         /* on success, the answer: the lane as stored (build_answer) */
    size_t len;
    int done;
    struct put_job *next;
} put_job;

static apr_thread_mutex_t *put_mutex;
static apr_thread_cond_t *put_cond;
static put_job *put_queue, **put_tail = &put_queue;
static int put_leader;

static void put_child_init(apr_pool_t *p, server_rec *s)
{
    if (apr_thread_mutex_create(&put_mutex, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS
        || apr_thread_cond_create(&put_cond, p) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, "mod_ranking: no lane write queue: "
                     "each lane PUT commits on its own");
        put_mutex = NULL;
    }
}

/* One update, inside the open transaction: HTTP_OK with JOB->answer, or the error. */
static void put_one(rk_db *db, put_job *job)
{
    request_rec *r = job->r;
    rk_req *rq = job->rq;
    rk_lane_patch *patch = job->patch;
    const char *args[RK_MAX_IDS], *lane[2], *found_spot[1], *cnt[1], *uargs[8], *cargs[4];
    apr_int64_t lane_count;
    int nrows;

    path_args(rq, args);
    switch (select_one(r, db, RK_Q_LANE_FOR_UPDATE, args, lane, 2)) {
    case -1: job->status = HTTP_SERVICE_UNAVAILABLE; return;
    case 0:  job->status = HTTP_NOT_FOUND; return;   /* deleted meanwhile */
    }
    lane_count = lane[1] ? apr_atoi64(lane[1]) : RK_LANE_NUMBER_MAX;
    if ((patch->set & RK_LANE_SET_NUMBER) && patch->number > lane_count) {
        job->status = HTTP_BAD_REQUEST;
        job->err = "Invalid body: number greater than the zone's lane_count";
        return;
    }
    if ((patch->set & RK_LANE_SET_SPOT) && !patch->spot_null) {
        const char *sargs[2] = { rq->route.ids[0], patch->spot_id };
        switch (select_one(r, db, RK_Q_SPOT_IN_COMPETITION, sargs, found_spot, 1)) {
        case -1: job->status = HTTP_SERVICE_UNAVAILABLE; return;
        case 0:
            job->status = HTTP_BAD_REQUEST;
            job->err = "Invalid body: spot_id is not a spot of this competition";
            return;
        }
    }
    uargs[0] = (patch->set & RK_LANE_SET_NUMBER) ? "set" : "keep";
    uargs[1] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT,
                            (apr_int64_t)((patch->set & RK_LANE_SET_NUMBER) ? patch->number : 0));
    uargs[2] = !(patch->set & RK_LANE_SET_SPOT) ? "keep" : patch->spot_null ? "null" : "set";
    uargs[3] = (patch->set & RK_LANE_SET_SPOT) && !patch->spot_null ? patch->spot_id : "0";
    uargs[4] = !(patch->set & RK_LANE_SET_SCORE) ? "keep" : patch->score_null ? "null" : "set";
    uargs[5] = (patch->set & RK_LANE_SET_SCORE) && !patch->score_null ? patch->score : "";
    uargs[6] = rq->route.ids[2];
    uargs[7] = rq->route.ids[3];
    if (db_query_at(r, db, RK_Q_LANE_UPDATE, uargs, &nrows, APLOG_INFO) != 0) {
        /* the UNIQUE constraints of the database refused it, or the database failed:
         * undo it (PostgreSQL refuses any statement before that), then look for the
         * lane in the way */
        if (tx(r, db, "ROLLBACK TO SAVEPOINT rk_lane") != 0) {
            job->status = HTTP_SERVICE_UNAVAILABLE;
            return;
        }
        cargs[0] = uargs[6];
        cargs[1] = uargs[7];
        cargs[2] = uargs[1];
        cargs[3] = uargs[3];
        if (select_one(r, db, RK_Q_LANE_CONFLICT, cargs, cnt, 1) == 1 && cnt[0]
            && apr_atoi64(cnt[0]) > 0) {
            job->status = HTTP_CONFLICT;
            job->err = (patch->set & RK_LANE_SET_NUMBER)
                ? "Conflict: the lane number or the spot is already used in this heat"
                : "Conflict: the spot is already in another lane of this heat";
        }
        else {
            job->status = HTTP_SERVICE_UNAVAILABLE;
        }
        return;
    }
    job->answer = nrows == 1 ? build_answer(r, db, rq, "", &job->status, &job->len) : NULL;
    if (!job->answer && job->status == HTTP_OK) {
        job->status = HTTP_NOT_FOUND;
    }
}

/* Run the jobs of BATCH in one transaction, on DB (the leader's connection; R, the
 * leader's request, for the transaction's own log lines), and commit it.  Each job
 * ends with its status set; a job that failed changed nothing. */
static void put_batch(request_rec *r, rk_db *db, put_job *batch)
{
    put_job *j;
    int locked = 0, begun = 0, failed = 0, n = 0, refused = 0;

    for (j = batch; j; j = j->next) {
        j->status = HTTP_OK;
        j->err = NULL;
        j->answer = NULL;
    }
    if (write_lock(r, db) == 0) {
        locked = 1;
        begun = tx(r, db, "BEGIN") == 0;
    }
    failed = !begun;
    for (j = batch; j && !failed; j = j->next) {
        if (tx(j->r, db, "SAVEPOINT rk_lane") != 0) {
            failed = 1;
            break;
        }
        put_one(db, j);
        if (j->status != HTTP_OK) {
            rk_cache_release(j->answer);
            j->answer = NULL;
            if (j->status != HTTP_CONFLICT   /* already rolled back */
                && tx(j->r, db, "ROLLBACK TO SAVEPOINT rk_lane") != 0) {
                failed = 1;
                break;
            }
        }
        if (tx(j->r, db, "RELEASE SAVEPOINT rk_lane") != 0) {
            failed = 1;
        }
    }
    if (!failed && tx(r, db, "COMMIT") != 0) {
        failed = 1;
    }
    if (failed) {
        if (begun) {
            tx(r, db, "ROLLBACK");
        }
        for (j = batch; j; j = j->next) {
            rk_cache_release(j->answer);
            j->answer = NULL;
            if (j->status == HTTP_OK) {
                j->status = HTTP_SERVICE_UNAVAILABLE;
            }
        }
    }
    if (locked) {
        write_unlock(db);
    }
    for (j = batch; j; j = j->next) {
        n++;
        refused += j->status != HTTP_OK;
    }
    ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "lane writes: %d in one transaction, "
                  "%d refused, %s", n, refused, failed ? "rolled back" : "committed");
}

/* Queue JOB and wait until a commit holds it (see above); the first writer to find
 * no leader at work runs the queue. */
static void put_run(request_rec *r, rk_db *db, put_job *job)
{
    put_job *batch;

    if (!put_mutex || !db->conn->sqlite) {
        put_batch(r, db, job);
        return;
    }
    apr_thread_mutex_lock(put_mutex);
    *put_tail = job;
    put_tail = &job->next;
    while (!job->done) {
        if (put_leader) {
            apr_thread_cond_wait(put_cond, put_mutex);
            continue;
        }
        put_leader = 1;
        batch = put_queue;           /* holds JOB: no leader took it */
        put_queue = NULL;
        put_tail = &put_queue;
        apr_thread_mutex_unlock(put_mutex);
        put_batch(r, db, batch);
        apr_thread_mutex_lock(put_mutex);
        for (; batch; batch = batch->next) {
            batch->done = 1;
        }
        put_leader = 0;
        apr_thread_cond_broadcast(put_cond);
    }
    apr_thread_mutex_unlock(put_mutex);
}

static int do_put(request_rec *r, rk_req *rq)
{
    const char *args[RK_MAX_IDS], *lane[2];
    put_job *job = apr_pcalloc(r->pool, sizeof(*job));
    char *body;
    apr_size_t len;
    int rv;
    rk_db db;

    if ((rv = rk_db_open(r, &db)) != OK) {
        return send_status(r, rv);
    }
    /* 404 before the body is read; the transaction checks again */
    path_args(rq, args);
    switch (select_one(r, &db, RK_Q_LANE_FOR_UPDATE, args, lane, 2)) {
    case -1: return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    case 0:  return send_status(r, HTTP_NOT_FOUND);
    }
    if ((rv = take_json_body(r, &body, &len)) != OK) {
        return rv;
    }
    job->r = r;
    job->rq = rq;
    job->patch = apr_pcalloc(r->pool, sizeof(*job->patch));
    if (rk_lane_patch_parse(body, len, job->patch, &job->err) != 0) {
        return rk_send_error(r, HTTP_BAD_REQUEST, job->err);
    }
    put_run(r, &db, job);
    if (job->status != HTTP_OK) {
        return rk_send_error(r, job->status, job->err);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "lane %s of heat %s changed by %s:%s%s%s",
                  rq->route.ids[3], rq->route.ids[2], r->user ? r->user : "-",
                  (job->patch->set & RK_LANE_SET_NUMBER) ? " number" : "",
                  (job->patch->set & RK_LANE_SET_SPOT) ? " spot_id" : "",
                  (job->patch->set & RK_LANE_SET_SCORE) ? " score" : "");
    return send_value(r, job->answer, job->len);
}

static int do_delete(request_rec *r, rk_req *rq)
{
    const char *args[RK_MAX_IDS];
    int rv, nrows = 0;
    rk_db db;

    if ((rv = rk_db_open(r, &db)) != OK) {
        return send_status(r, rv);
    }
    path_args(rq, args);
    if (write_lock(r, &db) != 0) {
        return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    rv = db_query(r, &db, RK_Q_LANE_DELETE, args, &nrows);
    write_unlock(&db);
    if (rv != 0) {
        return send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    if (nrows == 0) {
        return send_status(r, HTTP_NOT_FOUND);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "lane %s of heat %s deleted by %s",
                  rq->route.ids[3], rq->route.ids[2], r->user ? r->user : "-");
    return rk_send_json(r, HTTP_OK, rk_json_success(NULL, NULL));
}

/* ---- the handler ---- */

int rk_handler(request_rec *r)
{
    rk_req *rq;
    unsigned allowed;

    if (!r->handler || strcasecmp(r->handler, RK_HANDLER) != 0) {
        return DECLINED;
    }
    rq = rk_request(r);
    /* a request the access hook did not see (sub-request, internal redirect with a
     * different configuration): check the token here */
    if (!rq->authenticated && rq->method != RK_M_OPTIONS && rq->route.id != RK_ROUTE_CONNECT) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "handler: token not checked by the "
                      "access hook, checking it here");
        if (rk_authenticate(r, rq) != OK) {
            return OK;
        }
    }
    if (rq->route.id == RK_ROUTE_NONE) {
        return send_status(r, HTTP_NOT_FOUND);
    }
    allowed = rk_route_methods(rq->route.id);
    if (rq->method == RK_M_OPTIONS) {
        apr_table_setn(r->headers_out, "Allow", rk_route_allow(rq->route.id));
        r->status = HTTP_NO_CONTENT;
        return OK;
    }
    if (!(rq->method & allowed)) {
        apr_table_setn(r->headers_out, "Allow", rk_route_allow(rq->route.id));
        return send_status(r, HTTP_METHOD_NOT_ALLOWED);
    }
    if ((rq->method & (RK_M_PUT | RK_M_DELETE)) && !rq->editor) {
        return send_status(r, HTTP_FORBIDDEN);
    }
    switch (rq->method) {
    case RK_M_POST:
        return do_connect(r);
    case RK_M_PUT:
        return do_put(r, rq);
    case RK_M_DELETE:
        return do_delete(r, rq);
    default:
        return do_read(r, rq);
    }
}
