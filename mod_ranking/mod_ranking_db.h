/* mod_ranking_db.h: the database, through mod_dbd's pooled connections: our
 * statements on each connection, queries, transactions and the write mutex.  The
 * revision and the change log are mod_ranking_changes.c's. */
#ifndef MOD_RANKING_DB_H
#define MOD_RANKING_DB_H

#include "mod_ranking_private.h"
#include "apr_dbd.h"      /* before mod_dbd.h */
#include "mod_dbd.h"
#include "rk_sql.h"

/* One pooled connection's statements, prepared on its first use by the module. */
typedef struct rkm_conn rkm_conn;

typedef struct {
    ap_dbd_t *dbd;
    rkm_conn *conn;
} rkm_db;

/* register_hooks: find mod_dbd (check_config, which apache2 -t runs, and
 * post_config). */
void rkm_db_register_hooks(void);
/* register_hooks, mod_ranking_transaction.c: the ranking-write mutex (its type at
 * pre_config, made at post_config, attached to in each child). */
void rkm_transaction_register_hooks(void);

/* register_hooks, mod_ranking_session.c: the driver's functions found (child_init), the
 * DBDParams of each new connection kept (mod_dbd's post_connect hook). */
void rkm_session_register_hooks(void);

/* This request's connection, its statements prepared.  OK, or 503 (logged).  Given
 * back to mod_dbd's pool at the end of the request, or earlier by rkm_db_put. */
int rkm_db_open(request_rec *r, rkm_db *db);
/* Give this request's connection back now (a request that parks: an event stream, a
 * long poll); a later rkm_db_open takes one again.  No rkm_db of it may be used after. */
void rkm_db_put(request_rec *r);
int rkm_db_is_sqlite(const rkm_db *db);

/* For a thread of the module's own (no request): a connection of server S's pool, its
 * statements prepared (0, or -1: logged), given back by rkm_db_close_bg; queries with
 * their results in P, errors logged for S. */
int rkm_db_open_bg(apr_pool_t *p, server_rec *s, rkm_db *db);
void rkm_db_close_bg(server_rec *s, rkm_db *db);
int rkm_db_select_bg(server_rec *s, apr_pool_t *p, rkm_db *db, rk_query_id q, const char **args,
                    apr_dbd_results_t **res);

/* Run query Q with ARGS (its placeholders' values), its results in pool P.  0, or the
 * driver's error (logged). */
int rkm_db_select(request_rec *r, apr_pool_t *p, rkm_db *db, rk_query_id q, const char **args,
                 apr_dbd_results_t **res);
/* Run statement Q; *NROWS the rows changed.  A failure is logged at LEVEL (a refused
 * lane update is an expected 409: APLOG_INFO). */
int rkm_db_query(request_rec *r, rkm_db *db, rk_query_id q, const char **args, int *nrows,
                int level);
/* A pool for the rows of a large answer, a child of R's pool with an allocator of its
 * own: destroyed after the build, it gives its memory back at once, where R's pool's
 * allocator would keep it for later requests of the connection (up to MaxMemFree).
 * NULL when out of memory. */
apr_pool_t *rkm_db_rows_pool(request_rec *r);
/* A pool with an allocator of its own, a child of PARENT, or (PARENT NULL) of no pool:
 * then it lives until apr_pool_destroy (rows kept across requests).  NULL when out of
 * memory. */
apr_pool_t *rkm_db_own_pool(apr_pool_t *parent);

/* Column I of ROW as a string, NULL for SQL NULL. */
const char *rkm_db_col(const rkm_db *db, apr_dbd_row_t *row, int i);
/* The first row's first NCOLS columns into OUT (copied into r->pool); the rest
 * drained.  1 when there was a row, 0 when none, -1 on error. */
int rkm_db_select_one(request_rec *r, rkm_db *db, rk_query_id q, const char **args,
                     const char **out, int ncols);
/* Every row of query Q into an array of NCOLS strings per row, copied into P: a new
 * array when *OUT is NULL, else appended to *OUT.  The driver's own structures go
 * into TMP.  0, or -1 on a database error. */
int rkm_db_select_rows(request_rec *r, apr_pool_t *tmp, apr_pool_t *p, rkm_db *db, rk_query_id q,
                      const char **args, int ncols, apr_array_header_t **out);

/* Run SQL, a constant statement that returns no rows.  0, or the driver's error
 * (logged under LABEL, never the SQL itself, unless it is QUIET). */
int rkm_db_exec(request_rec *r, rkm_db *db, const char *sql, const char *label, int quiet);

/* mod_ranking_session.c: the session of a connection, from the driver's own functions
 * (found in the driver's library at child_init; see there).  A connection whose session
 * is not the one its statements were prepared on (PostgreSQL: libpq's PQreset, which
 * mod_dbd's check of a pooled connection makes after an outage) has them prepared
 * again; a SQLite connection opened while the file was not writable (SQLite then opens
 * it read-only, without an error) is reopened, at most once a second, until it is
 * writable.
 *   rkm_dbd_is_sqlite: whether DBD's driver is apr_dbd's SQLite one (sqlite3);
 *   rkm_db_session: PostgreSQL's backend pid of the connection, 0 when unknown (SQLite,
 *     or PQbackendPID not found);
 *   rkm_db_session_lost: 1 when the PostgreSQL connection is known to be lost (a
 *     statement failed on it: the server went away), 0 when not, -1 when unknown;
 *   rkm_db_file_readonly: 1 when the SQLite connection's file is open read-only, 0 when
 *     not, -1 when unknown;
 *   rkm_db_readonly_why: when the SQLite connection's last error was SQLITE_READONLY
 *     (READONLY_RC: the driver said so already), why, for the log: the file was opened
 *     read-only, or this process's shared memory of it was; NULL for another error;
 *   rkm_db_session_try: a statement on the PostgreSQL connection, which libpq reconnects
 *     (a new session) when it finds it lost; 0 when it is usable, -1 when not;
 *   rkm_db_shm_repair: when the SQLite database file is writable for this process and
 *     its shared-memory file (-shm, this process's own) is not, give it the database
 *     file's mode again (made while the file was read-only, it would keep every
 *     connection opened since read-only), said at warn;
 *   rkm_db_in_transaction: 1 when the SQLite connection is inside a transaction, 0
 *     when not, -1 when unknown;
 *   rkm_db_reopen: open the connection again with the DBDParams it was opened with, in
 *     place (the ap_dbd_t keeps its pool and mod_dbd its place in the pool); 0, or -1
 *     (logged) when it could not: the old handle is then kept.  The statements of the
 *     old handle are gone: the caller prepares its own again;
 *   rkm_db_open_allowed: whether this child may try to open a connection now: after
 *     three failed opens in a row (the database is down), one try per 10 ms, then
 *     20, 40, ..., 250 ms at most, the requests in between answering 503 at once
 *     (each failed try makes mod_dbd log two or three lines, and costs the database
 *     a connection attempt); rkm_db_opened says how a try went;
 *   rkm_db_log: log at LEVEL for R, or for S when R is NULL (a thread of the
 *     module's); at APLOG_WARNING or more severe, one line a second per child, which
 *     counts the ones not said since (a database down makes every request fail
 *     alike), unless LEVEL has RKM_DB_ALWAYS (a warning given at most once per pooled
 *     connection and second). */
int rkm_dbd_is_sqlite(ap_dbd_t *dbd);
long rkm_db_session(ap_dbd_t *dbd, int sqlite);
int rkm_db_session_lost(ap_dbd_t *dbd, int sqlite);
int rkm_db_file_readonly(ap_dbd_t *dbd);
const char *rkm_db_readonly_why(ap_dbd_t *dbd, int readonly_rc);
/* Run SQL, which may return rows, draining them (P: theirs): 0, or the driver's error. */
int rkm_db_drain(apr_pool_t *p, ap_dbd_t *dbd, const char *sql);
/* The mod_ranking schema version of DBD's database: the row of schema_version; 1 for a
 * database of the first release (a revision table, no schema_version); 0: neither. */
int rkm_db_schema_version(apr_pool_t *p, ap_dbd_t *dbd);
int rkm_db_session_try(ap_dbd_t *dbd, apr_pool_t *p);
void rkm_db_shm_repair(server_rec *s, ap_dbd_t *dbd);
int rkm_db_in_transaction(ap_dbd_t *dbd);
int rkm_db_reopen(server_rec *s, ap_dbd_t *dbd);
int rkm_db_open_allowed(void);
void rkm_db_opened(int ok);
#define RKM_DB_ALWAYS 0x100
void rkm_db_log(request_rec *r, server_rec *s, int level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* mod_ranking_transaction.c.  Transactions (a write transaction begins with rkm_db_begin_write, below): COMMIT,
 * ROLLBACK, and one savepoint (a grouped lane write's: no nesting): set, rolled back
 * to, released.  0, or the driver's error (logged). */
int rkm_db_commit(request_rec *r, rkm_db *db);
int rkm_db_rollback(request_rec *r, rkm_db *db);
int rkm_db_savepoint(request_rec *r, rkm_db *db);
int rkm_db_rollback_to(request_rec *r, rkm_db *db);
/* RELEASE the savepoint and set it again (the next job's): one round trip on
 * PostgreSQL.  COMMIT releases the savepoint still set. */
int rkm_db_savepoint_next(request_rec *r, rkm_db *db);

/* The statements that begin and end transactions and the savepoint, as text
 * (mod_ranking_transaction.c).  On SQLite they are prepared with the module's
 * statements on each connection: a lane PUT runs five of them, and parsing each one
 * again cost more than running it.  PostgreSQL runs the text (apr_dbd's driver
 * prepares with SQL PREPARE, which takes no transaction statement). */
typedef enum {
    RKM_TX_BEGIN,             /* SQLite's deferred BEGIN (a read) */
    RKM_TX_BEGIN_IMMEDIATE,   /* SQLite's write transaction */
    RKM_TX_COMMIT,
    RKM_TX_ROLLBACK,
    RKM_TX_SAVEPOINT,
    RKM_TX_RELEASE,
    RKM_TX_ROLLBACK_TO,
    RKM_TX_COUNT
} rkm_tx;
extern const char *const rkm_tx_sql[RKM_TX_COUNT];
extern const char *const rkm_tx_label[RKM_TX_COUNT];   /* for the log */
/* Run transaction statement T (prepared on SQLite): as rkm_db_exec. */
int rkm_db_tx(request_rec *r, rkm_db *db, rkm_tx t, int quiet);

/* A read-only transaction, so that several selects see the same data (SQLite: a
 * deferred BEGIN, which takes no write lock; PostgreSQL: REPEATABLE READ).  End it
 * with rkm_db_end_read, whatever happened in between. */
int rkm_db_begin_read(request_rec *r, rkm_db *db);
void rkm_db_end_read(request_rec *r, rkm_db *db);

/* The server's writers to a SQLite database, one at a time (a no-op for PostgreSQL):
 * no writer waits inside SQLite's busy handler while another thread of its process
 * holds the write lock.  The wait ends in time for one attempt at SQLite's lock
 * (RK_SQLITE_ATTEMPT_MS) before DEADLINE; rkm_db_write_lock waits from now on
 * (RKM_WRITE_WAIT_MS).  0, or -1 (logged) when the mutex was not taken. */
/* The longest a writer of the module waits for the write lock, from the moment it
 * queues (the child's group-commit queue, the ranking-write mutex, then SQLite's lock
 * held by another process): past it the write answers 503 with Retry-After. */
#define RKM_WRITE_WAIT_MS 5000

int rkm_db_write_lock_until(request_rec *r, rkm_db *db, apr_time_t deadline);
int rkm_db_write_lock(request_rec *r, rkm_db *db);
/* BEGIN a write transaction (under the write mutex): on SQLite BEGIN IMMEDIATE,
 * tried again while another process holds the lock, as long as an attempt ends by
 * DEADLINE.  0, or the driver's error (RK_SQLITE_BUSY when the time is up). */
int rkm_db_begin_write(request_rec *r, rkm_db *db, apr_time_t deadline);
/* Give the write mutex back: only through rkm_changes_write_done, which sends the
 * committed signal (mod_ranking_changes.h). */
void rkm_db_write_unlock(rkm_db *db);

#endif
