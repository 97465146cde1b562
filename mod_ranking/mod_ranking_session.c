/* mod_ranking_session.c: what the module asks of a pooled connection's driver session
 * (see mod_ranking_db.h, "The session of a connection"): which PostgreSQL backend it
 * is on, whether a SQLite file was opened read-only, whether a transaction is open; a
 * connection reopened in place, or tried after a while idle; a SQLite -shm file left
 * read-only repaired; the schema version of a new connection; and the database errors
 * of a child said once a second.
 *
 * apr_dbd offers none of these: the driver's own functions are found in the library
 * apr_dbd's driver loaded (libpq, libsqlite3: apr loads drivers RTLD_GLOBAL), by name,
 * at child_init, so that the module links against neither.  When one is not there
 * (another driver, or a library without it), the question answers "unknown" and the
 * module does without: mod_ranking_db.c falls back on the errors it sees. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mod_ranking_db.h"

#define PARAMS_KEY "mod_ranking:dbparams"

typedef int (*pq_backend_pid_fn)(const void *conn);
typedef int (*pq_status_fn)(const void *conn);
typedef int (*sqlite_db_readonly_fn)(void *db, const char *name);
typedef int (*sqlite_get_autocommit_fn)(void *db);
typedef const char *(*sqlite_db_filename_fn)(void *db, const char *name);
typedef int (*sqlite_errcode_fn)(void *db);

static pq_backend_pid_fn pq_backend_pid;
static pq_status_fn pq_status;
static sqlite_db_readonly_fn sqlite_db_readonly;
static sqlite_get_autocommit_fn sqlite_get_autocommit;
static sqlite_db_filename_fn sqlite_db_filename;
static sqlite_errcode_fn sqlite_errcode;

/* The drivers' functions, looked up once: at the first new connection (mod_dbd makes
 * its first ones at its child_init) or at our child_init, whichever comes first (the
 * drivers and their libraries are loaded by then, at the latest by the configuration). */
static pthread_once_t symbols_once = PTHREAD_ONCE_INIT;

static void find_symbols(void)
{
    *(void **)&pq_backend_pid = dlsym(RTLD_DEFAULT, "PQbackendPID");
    *(void **)&pq_status = dlsym(RTLD_DEFAULT, "PQstatus");
    *(void **)&sqlite_db_readonly = dlsym(RTLD_DEFAULT, "sqlite3_db_readonly");
    *(void **)&sqlite_get_autocommit = dlsym(RTLD_DEFAULT, "sqlite3_get_autocommit");
    *(void **)&sqlite_db_filename = dlsym(RTLD_DEFAULT, "sqlite3_db_filename");
    *(void **)&sqlite_errcode = dlsym(RTLD_DEFAULT, "sqlite3_errcode");
}

static void session_child_init(apr_pool_t *p, server_rec *s)
{
    (void)p;
    (void)s;
    pthread_once(&symbols_once, find_symbols);
}

/* mod_dbd's post_connect hook, before any statement on the new connection: it keeps
 * the DBDParams it was opened with, for rkm_db_reopen (the string lives in the
 * configuration's pool); a SQLite -shm file left read-only is repaired before SQLite
 * maps it for this process (rkm_db_shm_repair). */
static apr_status_t session_post_connect(apr_pool_t *p, dbd_cfg_t *cfg, ap_dbd_t *dbd)
{
    (void)p;
    pthread_once(&symbols_once, find_symbols);
    if (cfg && cfg->params && dbd && dbd->pool) {
        apr_pool_userdata_setn(cfg->params, PARAMS_KEY, NULL, dbd->pool);
    }
    if (dbd && dbd->driver && rkm_dbd_is_sqlite(dbd)) {
        rkm_db_shm_repair(cfg ? cfg->server : NULL, dbd);
    }
    return APR_SUCCESS;
}

void rkm_session_register_hooks(void)
{
    ap_hook_child_init(session_child_init, NULL, NULL, APR_HOOK_REALLY_LAST);
    APR_OPTIONAL_HOOK(dbd, post_connect, session_post_connect, NULL, NULL, APR_HOOK_MIDDLE);
}

long rkm_db_session(ap_dbd_t *dbd, int sqlite)
{
    void *native;

    if (sqlite || !pq_backend_pid || !(native = apr_dbd_native_handle(dbd->driver, dbd->handle))) {
        return 0;
    }
    return pq_backend_pid(native);
}

int rkm_dbd_is_sqlite(ap_dbd_t *dbd)
{
    return strcmp(apr_dbd_name(dbd->driver), "sqlite3") == 0;
}

int rkm_db_session_lost(ap_dbd_t *dbd, int sqlite)
{
    void *native;

    if (sqlite || !pq_status || !(native = apr_dbd_native_handle(dbd->driver, dbd->handle))) {
        return -1;
    }
    return pq_status(native) != 0;   /* CONNECTION_OK is 0 */
}

int rkm_db_file_readonly(ap_dbd_t *dbd)
{
    void *native;

    if (!sqlite_db_readonly || !(native = apr_dbd_native_handle(dbd->driver, dbd->handle))) {
        return -1;
    }
    return sqlite_db_readonly(native, "main") == 1;
}

const char *rkm_db_readonly_why(ap_dbd_t *dbd, int readonly_rc)
{
    void *native = apr_dbd_native_handle(dbd->driver, dbd->handle);

    /* apr_dbd's driver may return a generic code: SQLite's own says */
    if (!readonly_rc && !(native && sqlite_errcode && (sqlite_errcode(native) & 0xff) == 8)) {
        return NULL;   /* not SQLITE_READONLY, in any of its extended codes */
    }
    if (rkm_db_file_readonly(dbd) == 0) {
        /* the file is open for writing, the shared memory of this process is not:
         * SQLite keeps it while any connection of the process is open */
        return "this process opened the database while its file was read-only, and its "
               "connections share that state: writes answer 503 until a graceful restart "
               "(apachectl graceful), now that the file is writable";
    }
    return "the database file was opened read-only (its rights, or its directory's, for "
           "the server's user?); the connection is opened again once it is writable";
}

int rkm_db_session_try(ap_dbd_t *dbd, apr_pool_t *p)
{
    int nrows = 0;

    /* a query that waits for its answer (PQexec): a select of apr_dbd's sends it and
     * reads the rows later, so a dead session would pass for alive */
    if (apr_dbd_query(dbd->driver, dbd->handle, &nrows, "SELECT 1") == 0) {
        return 0;
    }
    return apr_dbd_check_conn(dbd->driver, p, dbd->handle) == APR_SUCCESS ? 0 : -1;
}

int rkm_db_in_transaction(ap_dbd_t *dbd)
{
    void *native;

    if (!sqlite_get_autocommit || !(native = apr_dbd_native_handle(dbd->driver, dbd->handle))) {
        return -1;
    }
    return sqlite_get_autocommit(native) == 0;
}

/* A SQLite database in WAL mode has a shared-memory file beside it ("-shm"), which
 * SQLite creates with the database file's mode.  Created while the database file was
 * read-only (a child started, or every connection closed, meanwhile), it stays
 * read-only once the file is writable again, and every connection that opens it is
 * read-only: writes would fail until an admin found it.  When the database file of
 * DBD's handle is writable for this process and its -shm file, this process's own, is
 * not, the -shm file gets the database file's mode again (what SQLite would have given
 * it).  Said at warn, without the path. */
void rkm_db_shm_repair(server_rec *s, ap_dbd_t *dbd)
{
    void *native = sqlite_db_filename ? apr_dbd_native_handle(dbd->driver, dbd->handle) : NULL;
    const char *file = native ? sqlite_db_filename(native, "main") : NULL;
    struct stat db, shm;
    char shm_name[4096];   /* (not in DBD's pool: it lives as long as the connection) */

    if (!file || !*file || stat(file, &db) != 0 || access(file, W_OK) != 0
        || apr_snprintf(shm_name, sizeof(shm_name), "%s-shm", file) >= (int)sizeof(shm_name) - 1) {
        return;   /* unknown, the database file itself still read-only, or a path too long */
    }
    if (stat(shm_name, &shm) == 0 && shm.st_uid == geteuid() && access(shm_name, W_OK) != 0
        && chmod(shm_name, db.st_mode & 0777) == 0) {
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, "the database's shared-memory file "
                     "(-shm) was read-only, made so while the database file was: it has "
                     "the database file's mode again, and writes can go on");
    }
}

int rkm_db_reopen(server_rec *s, ap_dbd_t *dbd)
{
    void *params = NULL;
    apr_dbd_t *fresh = NULL, *old = dbd->handle;
    const char *err = NULL;

    apr_pool_userdata_get(&params, PARAMS_KEY, dbd->pool);
    if (!params) {
        return -1;
    }
    rkm_db_shm_repair(s, dbd);
    if (apr_dbd_open_ex(dbd->driver, dbd->pool, params, &fresh, &err) != APR_SUCCESS || !fresh) {
        /* no path nor secret in the log: only that it failed */
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, "could not reopen a database connection");
        return -1;
    }
    /* mod_dbd closes dbd->handle when it destroys the connection: the new one then;
     * the old one is closed now (its statements with it).  What apr_dbd allocated for
     * the old one stays in the connection's pool until then (a few hundred bytes per
     * reopening, which only a fault causes). */
    dbd->handle = fresh;
    apr_dbd_close(dbd->driver, old);
    return 0;
}

/* ---- opening connections while the database is down ---- */

/* Failed opens of this child in a row, and when the last one failed. */
static apr_uint32_t open_failures;
static apr_time_t open_failed_at;

int rkm_db_open_allowed(void)
{
    apr_uint32_t n = __atomic_load_n(&open_failures, __ATOMIC_SEQ_CST);
    apr_interval_time_t wait;

    if (n < 3) {
        return 1;
    }
    /* 10 ms after the third failure in a row, doubling, 250 ms at most */
    wait = n - 3 >= 5 ? apr_time_from_msec(250) : apr_time_from_msec(10) << (n - 3);
    return apr_time_now() - __atomic_load_n(&open_failed_at, __ATOMIC_SEQ_CST) >= wait;
}

void rkm_db_opened(int ok)
{
    if (ok) {
        if (__atomic_load_n(&open_failures, __ATOMIC_SEQ_CST)) {
            __atomic_store_n(&open_failures, 0, __ATOMIC_SEQ_CST);
        }
        return;
    }
    __atomic_store_n(&open_failed_at, apr_time_now(), __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&open_failures, 1, __ATOMIC_SEQ_CST);
}

/* ---- the database errors of a child, once a second ---- */

static apr_uint32_t said_at;      /* the second of the last error logged */
static apr_uint32_t unsaid_n;     /* errors not logged since */

static int log_turn(unsigned *suppressed)
{
    apr_uint32_t now = (apr_uint32_t)apr_time_sec(apr_time_now());
    apr_uint32_t was = __atomic_load_n(&said_at, __ATOMIC_SEQ_CST);

    if (was != now && __atomic_compare_exchange_n(&said_at, &was, now, 0, __ATOMIC_SEQ_CST,
                                                  __ATOMIC_SEQ_CST)) {
        *suppressed = __atomic_exchange_n(&unsaid_n, 0, __ATOMIC_SEQ_CST);
        return 1;
    }
    __atomic_fetch_add(&unsaid_n, 1, __ATOMIC_SEQ_CST);
    return 0;
}

/* Log at LEVEL for R, or for S when there is no request (a thread of the module's); at
 * APLOG_WARNING or more severe, once a second per child, with the count of those not
 * said meanwhile (a database down makes every request fail alike). */
void rkm_db_log(request_rec *r, server_rec *s, int level, const char *fmt, ...)
{
    char msg[1024];
    unsigned unsaid = 0;
    va_list ap;

    if (level & RKM_DB_ALWAYS) {
        level &= ~RKM_DB_ALWAYS;
    }
    else if (level <= APLOG_WARNING && !log_turn(&unsaid)) {
        return;
    }
    va_start(ap, fmt);
    apr_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (unsaid) {
        size_t n = strlen(msg);
        apr_snprintf(msg + n, sizeof(msg) - n, " (and %u more database error(s) of this "
                     "process since the last one said)", unsaid);
    }
    if (r) {
        ap_log_rerror(APLOG_MARK, level, 0, r, "%s", msg);
    }
    else {
        ap_log_error(APLOG_MARK, level, 0, s, "%s", msg);
    }
}

/* ---- the schema of a new connection ---- */

/* Run a statement that may return rows, draining them. Random access (seek 1): on
 * PostgreSQL a sequential select only sends the query, and its error would come at the
 * first row, unseen; the random one waits for the answer and returns the error. (On
 * SQLite, apr_dbd reads every row in the select either way.) */
int rkm_db_drain(apr_pool_t *p, ap_dbd_t *dbd, const char *sql)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int rv = apr_dbd_select(dbd->driver, p, dbd->handle, &res, sql, 1);

    if (rv == 0) {
        while (apr_dbd_get_row(dbd->driver, p, res, &row, -1) == 0)
            ;
    }
    return rv;
}

/* The schema version of the database: the row of schema_version; 1 for a database
 * of the first release (no such table, but a revision table); 0 when neither is there
 * (no mod_ranking schema at all: preparing the statements says so). */
int rkm_db_schema_version(apr_pool_t *p, ap_dbd_t *dbd)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    const char *v = NULL;
    int version = 0;

    /* seek 1: a missing table must be an error here, on PostgreSQL too (rkm_db_drain) */
    if (apr_dbd_select(dbd->driver, p, dbd->handle, &res, "SELECT version FROM schema_version", 1) == 0) {
        while (apr_dbd_get_row(dbd->driver, p, res, &row, -1) == 0) {
            if (!version && apr_dbd_datum_get(dbd->driver, row, 0, APR_DBD_TYPE_STRING, &v) == APR_SUCCESS
                && v) {
                version = atoi(v);
            }
        }
        return version;
    }
    return rkm_db_drain(p, dbd, "SELECT id FROM revision WHERE id = 0") == 0 ? 1 : 0;
}
