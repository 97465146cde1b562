/* mod_ranking_db.c: database access through mod_dbd (see mod_ranking_db.h); the
 * transactions and the write mutex: mod_ranking_transaction.c. */
#include <stdlib.h>

#include "mod_ranking_config.h"
#include "mod_ranking_db.h"

#define CONN_KEY "mod_ranking:conn"

struct rkm_conn {
    apr_pool_t *pool;
    int sqlite;
    long session;             /* PostgreSQL: the backend pid they were prepared on */
    apr_time_t verified;      /* ... and when the session was last known alive */
    apr_time_t used;          /* ... and when the module last took the connection */
    int readonly;             /* SQLite: the file was opened read-only */
    apr_time_t reopened;      /* ... and the last time it was opened again */
    apr_dbd_prepared_t *stmt[RK_Q_COUNT];
    apr_dbd_prepared_t *tx[RKM_TX_COUNT];   /* SQLite: rkm_tx_sql, prepared */
};

static APR_OPTIONAL_FN_TYPE(ap_dbd_open) *dbd_open;
static APR_OPTIONAL_FN_TYPE(ap_dbd_close) *dbd_close;

/* mod_dbd's functions, found if it is loaded (it registers them when it is loaded,
 * so check_config, which apache2 -t runs, already sees them).  0, or -1 logged. */
static int find_dbd(server_rec *s)
{
    dbd_open = APR_RETRIEVE_OPTIONAL_FN(ap_dbd_open);
    dbd_close = APR_RETRIEVE_OPTIONAL_FN(ap_dbd_close);
    if (!dbd_open || !dbd_close) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                     "mod_ranking needs mod_dbd: load it (a2enmod dbd, or "
                     "LoadModule dbd_module modules/mod_dbd.so) before mod_ranking");
        return -1;
    }
    return 0;
}

/* check_config (apache2 -t runs it): is mod_dbd loaded? */
static int db_check_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    (void)pconf;
    (void)plog;
    (void)ptemp;
    return find_dbd(s) == 0 ? OK : HTTP_INTERNAL_SERVER_ERROR;
}

/* post_config: find mod_dbd. */
static int db_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    (void)pconf;
    (void)plog;
    (void)ptemp;
    return find_dbd(s) == 0 ? OK : HTTP_INTERNAL_SERVER_ERROR;
}

void rkm_db_register_hooks(void)
{
    ap_hook_check_config(db_check_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(db_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    rkm_session_register_hooks();
}

#define SQLITE_READONLY_RC 8   /* SQLite's SQLITE_READONLY, as apr_dbd may return it */

/* When a PostgreSQL connection of this child was last found lost (a statement failed
 * and libpq says the connection is gone: the server restarted or went away).  The
 * other pooled connections of the child, idle since, most likely are too: each is
 * tried once at its next use (conn_usable), so that none fails a request later. */
static apr_time_t lost_at;

/* The driver's message of error RV on DBD ("unknown" when it has none), its first
 * line only, in BUF (DBD_MSG_MAX): PostgreSQL's go on with "LINE 1:" and the
 * statement's text around the error; no SQL is logged. */
#define DBD_MSG_MAX 240
static const char *dbd_msg(ap_dbd_t *dbd, int rv, char *buf)
{
    const char *msg = apr_dbd_error(dbd->driver, dbd->handle, rv);
    size_t n;

    if (!msg) {
        return "unknown";
    }
    n = strcspn(msg, "\r\n");
    n = n < DBD_MSG_MAX - 1 ? n : DBD_MSG_MAX - 1;
    memcpy(buf, msg, n);
    buf[n] = '\0';
    return buf;
}

/* A failed statement WHAT of DB: logged at LEVEL (an expected refusal: APLOG_INFO),
 * but a write refused because the SQLite file is open read-only at WARNING, whatever
 * LEVEL says, saying so (the connection is reopened at its next use). */
static void log_dbd(request_rec *r, server_rec *s, rkm_db *db, int rv, const char *what,
                    int level)
{
    char buf[DBD_MSG_MAX];
    const char *msg = dbd_msg(db->dbd, rv, buf), *why;

    if (!db->conn->sqlite && rkm_db_session_lost(db->dbd, 0) == 1) {
        __atomic_store_n(&lost_at, apr_time_now(), __ATOMIC_SEQ_CST);
    }
    if (db->conn->sqlite && (why = rkm_db_readonly_why(db->dbd, rv == SQLITE_READONLY_RC))) {
        db->conn->readonly = 1;
        rkm_db_log(r, s, APLOG_WARNING, "database error (%s): %s: %s", what, msg, why);
        return;
    }
    rkm_db_log(r, s, level, "database error (%s): %s", what, msg);
}

/* Prepare our statements on a connection the first time we use it.  Preparing them
 * here rather than through ap_dbd_prepare keeps them away from the connections of
 * other modules' mod_dbd databases in the same server (which need not hold our
 * schema), and lets the module recover by itself once a missing schema appears. */
#define CONN_ERR(r, s, ...) rkm_db_log(r, s, APLOG_ERR, __VA_ARGS__)

static rkm_conn *conn_init(request_rec *r, server_rec *s, ap_dbd_t *dbd)
{
    char buf[DBD_MSG_MAX];
    rkm_conn *c;
    apr_pool_t *p;
    int i;

    if (apr_pool_create(&p, dbd->pool) != APR_SUCCESS) {
        return NULL;
    }
    c = apr_pcalloc(p, sizeof(*c));
    c->pool = p;
    c->sqlite = rkm_dbd_is_sqlite(dbd);
    for (i = 0; c->sqlite && i < rk_sqlite_setup_count + 2; i++) {
        /* the shared setup, then the module's own short busy timeout and page cache */
        const char *sql = i < rk_sqlite_setup_count ? rk_sqlite_setup[i]
                          : i == rk_sqlite_setup_count ? rk_sqlite_module_busy
                          : rk_sqlite_module_cache;
        int rv = rkm_db_drain(p, dbd, sql);

        if (rv != 0) {
            CONN_ERR(r, s, "database setup failed: %s", dbd_msg(dbd, rv, buf));
            goto failed;
        }
    }
    if ((i = rkm_db_schema_version(p, dbd)) > 0 && i < RK_SCHEMA_VERSION) {
        CONN_ERR(r, s, "the database has mod_ranking schema version %d, this module needs "
                      "version %d: run `ranking-admin upgrade` with the database's "
                      "DBDParams, as the server's user, to bring it up to date (its data "
                "is kept); every request answers 503 until then", i, RK_SCHEMA_VERSION);
        goto failed;
    }
    for (i = 0; i < RK_Q_COUNT; i++) {
        int rv = apr_dbd_prepare(dbd->driver, p, dbd->handle, rk_queries[i].sql,
                                 rk_queries[i].label, &c->stmt[i]);

        if (rv != 0) {
            CONN_ERR(r, s, "cannot prepare statement %s: %s (is the mod_ranking schema "
                    "applied to this database?)", rk_queries[i].label, dbd_msg(dbd, rv, buf));
            goto failed;
        }
    }
    for (i = 0; c->sqlite && i < RKM_TX_COUNT; i++) {
        int rv = apr_dbd_prepare(dbd->driver, p, dbd->handle, rkm_tx_sql[i], NULL, &c->tx[i]);

        if (rv != 0) {
            CONN_ERR(r, s, "cannot prepare transaction statement %d: %s", i, dbd_msg(dbd, rv, buf));
            goto failed;
        }
    }
    c->session = rkm_db_session(dbd, c->sqlite);
    c->used = c->verified = apr_time_now();
    if (c->sqlite && rkm_db_file_readonly(dbd) == 1) {
        c->readonly = 1;
        rkm_db_log(r, s, APLOG_WARNING, "the database file was opened read-only (its "
                   "rights, or its directory's, for the server's user?): writes answer 503 "
                   "until it is writable; the connection is opened again then");
    }
    apr_pool_userdata_setn(c, CONN_KEY, NULL, dbd->pool);
    return c;
failed:
    apr_pool_destroy(p);
    return NULL;
}

/* A PostgreSQL connection idle longer than this is tried before it is used: libpq
 * only learns that the server went away (a restart) when a statement fails. */
#define IDLE_CHECK apr_time_from_sec(1)

/* Whether C, the statements of connection DBD, can still be used: not when the
 * PostgreSQL session is not the one they were prepared on (a PQreset by mod_dbd's
 * check, after an outage: they are gone with the old session); not when the SQLite
 * file was open read-only and the connection could be opened again (tried at most
 * once a second: the file may still be read-only, then it stays so). */
static int conn_usable(request_rec *r, server_rec *s, ap_dbd_t *dbd, rkm_conn *c)
{
    long session;
    apr_time_t now;

    if (!c->sqlite) {
        now = apr_time_now();
        if (c->verified < __atomic_load_n(&lost_at, __ATOMIC_SEQ_CST)
            || now - c->used > IDLE_CHECK) {
            /* idle since another connection of this child was found lost, or idle a
             * while (another child may have found its own lost): try it; if it is
             * lost, libpq reconnects it now (mod_dbd's check, made here) */
            c->verified = now;
            if (rkm_db_session_try(dbd, c->pool) != 0) {
                return 0;   /* the statements' preparation fails and says so: 503 */
            }
        }
        c->used = now;
        session = rkm_db_session(dbd, 0);
        if (session && session != c->session) {
            rkm_db_log(r, s, APLOG_WARNING | RKM_DB_ALWAYS, "the database session of a "
                       "pooled connection was reset (the database restarted?): its "
                       "statements are prepared again");
            return 0;
        }
        return 1;
    }
    if (!c->readonly || (now = apr_time_now()) - c->reopened < apr_time_from_sec(1)) {
        return 1;
    }
    c->reopened = now;
    return rkm_db_reopen(s, dbd) != 0;
}

/* The statements of connection DBD: prepared at its first use by the module, and
 * again after conn_usable found them unusable.  A PostgreSQL connection the module
 * never used is tried first, as an idle one (conn_usable): mod_dbd opens DBDMin of
 * them when a child starts, and one may have waited there since before the database
 * restarted (its first use then found "no connection to the server"). */
static rkm_conn *conn_get(request_rec *r, server_rec *s, ap_dbd_t *dbd)
{
    void *data = NULL;
    rkm_conn *c;

    apr_pool_userdata_get(&data, CONN_KEY, dbd->pool);
    if ((c = data) != NULL && conn_usable(r, s, dbd, c)) {
        return c;
    }
    if (c) {
        apr_pool_userdata_setn(NULL, CONN_KEY, NULL, dbd->pool);
        apr_pool_destroy(c->pool);
    }
    else if (!rkm_dbd_is_sqlite(dbd) && rkm_db_session_try(dbd, dbd->pool) != 0) {
        rkm_db_log(r, s, APLOG_ERR, "a pooled database connection was lost and could not "
                   "be opened again (is the database reachable?)");
        return NULL;
    }
    return conn_init(r, s, dbd);
}

/* The connection of a request: taken from mod_dbd's pool at the request's first
 * rkm_db_open, given back at the end of the request (its pool's cleanup) or earlier by
 * rkm_db_put.  Not ap_dbd_acquire(): that one holds the connection until the request's
 * pool is destroyed, and a parked event stream's request lives as long as the stream,
 * so every open stream would hold a connection (and DBDMax of them would stop the
 * child's requests and its watcher). */
#define REQ_DBD_KEY "mod_ranking:dbd"

typedef struct {
    ap_dbd_t *dbd;
    server_rec *s;
} req_dbd;

static apr_status_t req_dbd_close(void *data)
{
    req_dbd *h = data;

    if (h->dbd) {
        dbd_close(h->s, h->dbd);
        h->dbd = NULL;
    }
    return APR_SUCCESS;
}

/* The request whose connection R uses (as mod_dbd: the initial request's). */
static request_rec *initial_req(request_rec *r)
{
    while (!ap_is_initial_req(r)) {
        r = r->main ? r->main : r->prev;
    }
    return r;
}

int rkm_db_open(request_rec *r, rkm_db *db)
{
    void *data = NULL;
    request_rec *m = initial_req(r);
    req_dbd *h;

    apr_pool_userdata_get(&data, REQ_DBD_KEY, m->pool);
    if (!(h = data)) {
        h = apr_pcalloc(m->pool, sizeof(*h));
        h->s = m->server;
        apr_pool_userdata_setn(h, REQ_DBD_KEY, NULL, m->pool);
    }
    if (!h->dbd && dbd_open && rkm_db_open_allowed()) {
        h->dbd = dbd_open(m->pool, m->server);
        rkm_db_opened(h->dbd != NULL);
        if (h->dbd) {
            apr_pool_cleanup_register(m->pool, h, req_dbd_close, apr_pool_cleanup_null);
        }
    }
    db->dbd = h->dbd;
    if (!db->dbd) {
        rkm_db_log(r, r->server, APLOG_ERR,
                   "no database connection (check DBDriver/DBDParams and that the "
                   "database is reachable and readable by the server's user)");
        return HTTP_SERVICE_UNAVAILABLE;
    }
    db->conn = conn_get(r, r->server, db->dbd);
    return db->conn ? OK : HTTP_SERVICE_UNAVAILABLE;
}

void rkm_db_put(request_rec *r)
{
    void *data = NULL;
    request_rec *m = initial_req(r);

    apr_pool_userdata_get(&data, REQ_DBD_KEY, m->pool);
    if (data && ((req_dbd *)data)->dbd) {
        apr_pool_cleanup_kill(m->pool, data, req_dbd_close);
        req_dbd_close(data);
    }
}

int rkm_db_open_bg(apr_pool_t *p, server_rec *s, rkm_db *db)
{
    db->dbd = NULL;
    if (!dbd_open || !rkm_db_open_allowed()) {
        return -1;
    }
    db->dbd = dbd_open(p, s);
    rkm_db_opened(db->dbd != NULL);
    if (!db->dbd) {
        return -1;
    }
    db->conn = conn_get(NULL, s, db->dbd);
    if (!db->conn) {
        dbd_close(s, db->dbd);
        db->dbd = NULL;
        return -1;
    }
    return 0;
}

void rkm_db_close_bg(server_rec *s, rkm_db *db)
{
    if (db->dbd) {
        dbd_close(s, db->dbd);
        db->dbd = NULL;
    }
}

/* How statements are read: SQLite sequentially (rows as they are stepped through);
 * PostgreSQL with random access (the whole result at once), because apr_dbd_pgsql's
 * sequential access took 100 ms more on a result of no row (measured: a login of an
 * unknown user 150 ms against 50, every id that does not exist, every empty poll of
 * the watcher). */
static int random_access(const rkm_db *db)
{
    return db->conn->sqlite ? 0 : 1;
}

/* Run the select Q, its results in P: 0, or the driver's error. */
static int run_select(apr_pool_t *p, rkm_db *db, rk_query_id q, const char **args,
                   apr_dbd_results_t **res)
{
    *res = NULL;
    return apr_dbd_pselect(db->dbd->driver, p, db->dbd->handle, res, db->conn->stmt[q],
                           random_access(db), rk_queries[q].nargs, args);
}

int rkm_db_select_bg(server_rec *s, apr_pool_t *p, rkm_db *db, rk_query_id q, const char **args,
                    apr_dbd_results_t **res)
{
    int rv = run_select(p, db, q, args, res);

    if (rv != 0) {
        log_dbd(NULL, s, db, rv, rk_queries[q].label, APLOG_ERR);
    }
    return rv;
}

int rkm_db_is_sqlite(const rkm_db *db)
{
    return db->conn->sqlite;
}

int rkm_db_select(request_rec *r, apr_pool_t *p, rkm_db *db, rk_query_id q, const char **args,
                 apr_dbd_results_t **res)
{
    int rv = run_select(p, db, q, args, res);

    if (rv != 0) {
        log_dbd(r, r->server, db, rv, rk_queries[q].label, APLOG_ERR);
    }
    return rv;
}

int rkm_db_query(request_rec *r, rkm_db *db, rk_query_id q, const char **args, int *nrows,
                int level)
{
    int rv;

    *nrows = 0;
    rv = apr_dbd_pquery(db->dbd->driver, r->pool, db->dbd->handle, nrows, db->conn->stmt[q],
                        rk_queries[q].nargs, args);
    if (rv != 0) {
        log_dbd(r, r->server, db, rv, rk_queries[q].label, level);
    }
    return rv;
}

const char *rkm_db_col(const rkm_db *db, apr_dbd_row_t *row, int i)
{
    char *v = NULL;

    if (apr_dbd_datum_get(db->dbd->driver, row, i, APR_DBD_TYPE_STRING, &v) != APR_SUCCESS) {
        return NULL;   /* SQL NULL */
    }
    return v;
}

int rkm_db_select_one(request_rec *r, rkm_db *db, rk_query_id q, const char **args,
                     const char **out, int ncols)
{
    apr_dbd_results_t *res;
    apr_dbd_row_t *row = NULL;
    int found = 0, i;

    if (rkm_db_select(r, r->pool, db, q, args, &res) != 0) {
        return -1;
    }
    while (apr_dbd_get_row(db->dbd->driver, r->pool, res, &row, -1) == 0) {
        for (i = 0; !found && i < ncols; i++) {
            const char *v = rkm_db_col(db, row, i);
            out[i] = v ? apr_pstrdup(r->pool, v) : NULL;
        }
        found = 1;
    }
    return found;
}

int rkm_db_select_rows(request_rec *r, apr_pool_t *tmp, apr_pool_t *p, rkm_db *db, rk_query_id q,
                      const char **args, int ncols, apr_array_header_t **out)
{
    apr_dbd_results_t *rs = NULL;
    apr_dbd_row_t *row = NULL;
    int i;

    if (rkm_db_select(r, tmp, db, q, args, &rs) != 0) {
        return -1;
    }
    if (*out == NULL) {
        *out = apr_array_make(p, 256, ncols * (int)sizeof(const char *));
    }
    while (apr_dbd_get_row(db->dbd->driver, tmp, rs, &row, -1) == 0) {
        const char **v = apr_array_push(*out);

        for (i = 0; i < ncols; i++) {
            const char *c = rkm_db_col(db, row, i);
            v[i] = c ? apr_pstrdup(p, c) : NULL;
        }
    }
    return 0;
}

int rkm_db_tx(request_rec *r, rkm_db *db, rkm_tx t, int quiet)
{
    int nrows = 0, rv;

    if (!db->conn->sqlite) {
        return rkm_db_exec(r, db, rkm_tx_sql[t], rkm_tx_label[t], quiet);
    }
    rv = apr_dbd_pquery(db->dbd->driver, r->pool, db->dbd->handle, &nrows, db->conn->tx[t], 0, NULL);
    if (rv != 0 && rv != quiet) {
        log_dbd(r, r->server, db, rv, rkm_tx_label[t], APLOG_ERR);
    }
    return rv;
}

int rkm_db_exec(request_rec *r, rkm_db *db, const char *sql, const char *label, int quiet)
{
    int nrows = 0;
    int rv = apr_dbd_query(db->dbd->driver, db->dbd->handle, &nrows, sql);

    if (rv != 0 && rv != quiet) {
        log_dbd(r, r->server, db, rv, label, APLOG_ERR);
    }
    return rv;
}
