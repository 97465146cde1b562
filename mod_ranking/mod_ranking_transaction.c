/* mod_ranking_transaction.c: transactions (read-only, write, savepoints) and the
 * ranking-write mutex that puts the server's writers to a SQLite database in a row
 * (see mod_ranking_db.h). */
#include "apr_global_mutex.h"
#include "util_mutex.h"

#include "mod_ranking_db.h"

#define WRITE_MUTEX_TYPE "ranking-write"

static apr_global_mutex_t *write_mutex;

/* Whether a Mutex directive of the configuration names the mutex type TYPE itself
 * ("Mutex MECH TYPE ..."), not only "default". */
static int mutex_named(apr_pool_t *p, const ap_directive_t *d, const char *type)
{
    for (; d; d = d->next) {
        if (strcasecmp(d->directive, "Mutex") == 0 && d->args) {
            const char *args = d->args;
            const char *w = ap_getword_conf(p, &args);   /* the mechanism */

            while (*(w = ap_getword_conf(p, &args)) != '\0') {
                if (strcasecmp(w, type) == 0) {
                    return 1;
                }
            }
        }
        if (mutex_named(p, d->first_child, type)) {
            return 1;
        }
    }
    return 0;
}

/* The ranking-write mutex.  A process-shared pthread mutex unless a Mutex directive
 * names ranking-write: "Mutex file:DIR default" (Debian's apache2.conf has it) would
 * make it a file lock, which has no timed wait: APR polls it every 10 ms, and under
 * 16 writers one child's leader lost it to the other child's again and again (lane
 * PUTs: p90 135 to 660 ms, p99 up to 1.4 s, with a median of 2 to 3 ms).  A pthread
 * mutex waits in the kernel and wakes a waiter when it is unlocked; APR makes it
 * robust (a child that dies holding it does not leave it locked). */
static apr_status_t write_mutex_create(apr_pool_t *pconf, server_rec *s)
{
#if APR_HAS_PROC_PTHREAD_SERIALIZE
    if (!mutex_named(pconf, ap_conftree, WRITE_MUTEX_TYPE)
        && apr_global_mutex_create(&write_mutex, NULL, APR_LOCK_PROC_PTHREAD, pconf)
           == APR_SUCCESS) {
        return APR_SUCCESS;
    }
#endif
    return ap_global_mutex_create(&write_mutex, NULL, WRITE_MUTEX_TYPE, NULL, s, pconf, 0);
}

/* post_config: create the ranking-write mutex on the real (second) run. */
static int tx_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    apr_status_t rv;

    (void)plog;
    (void)ptemp;
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    rv = write_mutex_create(pconf, s);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot create the %s mutex", WRITE_MUTEX_TYPE);
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    return OK;
}

/* pre_config: register the ranking-write mutex type (for httpd's Mutex directive). */
static int tx_pre_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp)
{
    (void)plog;
    (void)ptemp;
    return ap_mutex_register(pconf, WRITE_MUTEX_TYPE, NULL, APR_LOCK_DEFAULT, 0) == APR_SUCCESS
           ? OK : HTTP_INTERNAL_SERVER_ERROR;
}

static void tx_child_init(apr_pool_t *p, server_rec *s)
{
    apr_status_t rv;

    if (!write_mutex) {
        return;
    }
    rv = apr_global_mutex_child_init(&write_mutex, apr_global_mutex_lockfile(write_mutex), p);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "mod_ranking: cannot attach to the %s mutex in a child", WRITE_MUTEX_TYPE);
    }
}

void rkm_transaction_register_hooks(void)
{
    ap_hook_pre_config(tx_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(tx_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(tx_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}

/* ---- transactions ---- */

#define SAVEPOINT "rkm_job"

const char *const rkm_tx_sql[RKM_TX_COUNT] = {
    [RKM_TX_BEGIN] = "BEGIN",
    [RKM_TX_BEGIN_IMMEDIATE] = "BEGIN IMMEDIATE",
    [RKM_TX_COMMIT] = "COMMIT",
    [RKM_TX_ROLLBACK] = "ROLLBACK",
    [RKM_TX_SAVEPOINT] = "SAVEPOINT " SAVEPOINT,
    [RKM_TX_RELEASE] = "RELEASE SAVEPOINT " SAVEPOINT,
    [RKM_TX_ROLLBACK_TO] = "ROLLBACK TO SAVEPOINT " SAVEPOINT,
};

const char *const rkm_tx_label[RKM_TX_COUNT] = {
    [RKM_TX_BEGIN] = "begin",
    [RKM_TX_BEGIN_IMMEDIATE] = "begin write",
    [RKM_TX_COMMIT] = "commit",
    [RKM_TX_ROLLBACK] = "rollback",
    [RKM_TX_SAVEPOINT] = "savepoint",
    [RKM_TX_RELEASE] = "release savepoint",
    [RKM_TX_ROLLBACK_TO] = "rollback to savepoint",
};

static int exec(request_rec *r, rkm_db *db, const char *sql, const char *label)
{
    return rkm_db_exec(r, db, sql, label, 0);
}

static int tx(request_rec *r, rkm_db *db, rkm_tx t)
{
    return rkm_db_tx(r, db, t, 0);
}

int rkm_db_begin_read(request_rec *r, rkm_db *db)
{
    return rkm_db_is_sqlite(db) ? tx(r, db, RKM_TX_BEGIN)
           : exec(r, db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "begin read");
}

/* ROLLBACK, unless SQLite says no transaction is open (a COMMIT that failed on a full
 * disk or an I/O error has already rolled it back: a ROLLBACK would only log a
 * misleading "cannot rollback - no transaction is active"). */
static int rollback(request_rec *r, rkm_db *db)
{
    if (rkm_db_is_sqlite(db) && rkm_db_in_transaction(db->dbd) == 0) {
        return 0;
    }
    return tx(r, db, RKM_TX_ROLLBACK);
}

void rkm_db_end_read(request_rec *r, rkm_db *db)
{
    rollback(r, db);   /* nothing to keep */
}

int rkm_db_commit(request_rec *r, rkm_db *db)
{
    return tx(r, db, RKM_TX_COMMIT);
}

int rkm_db_rollback(request_rec *r, rkm_db *db)
{
    return rollback(r, db);
}

int rkm_db_savepoint(request_rec *r, rkm_db *db)
{
    return tx(r, db, RKM_TX_SAVEPOINT);
}

int rkm_db_rollback_to(request_rec *r, rkm_db *db)
{
    return tx(r, db, RKM_TX_ROLLBACK_TO);
}

int rkm_db_savepoint_next(request_rec *r, rkm_db *db)
{
    if (!rkm_db_is_sqlite(db)) {
        return exec(r, db, "RELEASE SAVEPOINT " SAVEPOINT "; SAVEPOINT " SAVEPOINT,
                    "next savepoint");
    }
    return tx(r, db, RKM_TX_RELEASE) == 0 ? tx(r, db, RKM_TX_SAVEPOINT) : -1;
}

int rkm_db_write_lock_until(request_rec *r, rkm_db *db, apr_time_t deadline)
{
    apr_status_t rv;
    apr_interval_time_t left;

    if (!rkm_db_is_sqlite(db) || !write_mutex) {
        return 0;
    }
    /* leave the time of one attempt at SQLite's lock (rkm_db_begin_write) */
    left = deadline - apr_time_from_msec(RK_SQLITE_ATTEMPT_MS) - apr_time_now();
    rv = apr_global_mutex_timedlock(write_mutex, left > 0 ? left : 0);
    if (rv == APR_ENOTIMPL) {
        /* a mechanism without timed locks (Mutex fcntl or flock): poll */
        while ((rv = apr_global_mutex_trylock(write_mutex)) != APR_SUCCESS
               && APR_STATUS_IS_EBUSY(rv)
               && apr_time_now() + apr_time_from_msec(RK_SQLITE_ATTEMPT_MS + 10) < deadline) {
            apr_sleep(apr_time_from_msec(10));
        }
    }
    if (rv != APR_SUCCESS) {
        ap_log_rerror(APLOG_MARK, APR_STATUS_IS_TIMEUP(rv) || APR_STATUS_IS_EBUSY(rv)
                      ? APLOG_WARNING : APLOG_ERR, rv, r,
                      "the write mutex is still held by another writer: gave up waiting");
        return -1;
    }
    return 0;
}

int rkm_db_write_lock(request_rec *r, rkm_db *db)
{
    return rkm_db_write_lock_until(r, db, apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS));
}

int rkm_db_begin_write(request_rec *r, rkm_db *db, apr_time_t deadline)
{
    int rv, attempts = 0;

    if (!rkm_db_is_sqlite(db)) {
        /* PostgreSQL: the one revision row, locked first.  Every lane write updates it
         * (its trigger) and so waits for the writer before it anyway; locking it at
         * the start makes that wait come before the lane is read, so that what a
         * write checks (If-Match, the lane in the way) is what the writer before it
         * committed: under READ COMMITTED, a lane read before the other commit would
         * let two writers with the same If-Match both pass.  A constant statement: no
         * input in it. */
        if ((rv = exec(r, db, "BEGIN; SELECT 1 FROM revision WHERE id = 1 FOR UPDATE",
                       "begin write (revision lock)")) != 0) {
            exec(r, db, "ROLLBACK", "rollback");   /* one round trip for both: the lock failed, or BEGIN */
        }
        return rv;
    }
    /* each attempt waits in SQLite and apr_dbd's driver up to RK_SQLITE_ATTEMPT_MS;
     * one is made only when it ends before the deadline */
    while (apr_time_now() + apr_time_from_msec(RK_SQLITE_ATTEMPT_MS) <= deadline) {
        attempts++;
        rv = rkm_db_tx(r, db, RKM_TX_BEGIN_IMMEDIATE, RK_SQLITE_BUSY);
        if (rv == 0) {
            return 0;
        }
        if (rv != RK_SQLITE_BUSY) {
            return rv;
        }
    }
    ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "the database is locked by another "
                  "process: gave up waiting after %d attempt(s) (%d ms per write at most)",
                  attempts, RKM_WRITE_WAIT_MS);
    return RK_SQLITE_BUSY;
}

void rkm_db_write_unlock(rkm_db *db)
{
    if (rkm_db_is_sqlite(db) && write_mutex) {
        apr_global_mutex_unlock(write_mutex);
    }
}
