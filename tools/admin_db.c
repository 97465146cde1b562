/* admin_db.c: what every command of ranking-admin uses: its messages, and the
 * connection to the database through APR-util's apr_dbd (the drivers mod_dbd uses):
 * opening it (the SQLite connection setup is the module's, rk_sql.h), transactions,
 * the statements of admin_sql.c, the schema version; see admin.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_dbd.h>
#include <apr_file_info.h>
#include <apr_strings.h>

#include "admin.h"
#include "rk_sql.h"

/* ------------------------------------------------------------------ messages */

void admin_verr(const char *fmt, va_list ap)
{
    fputs(PROG ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void admin_err(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    admin_verr(fmt, ap);
    va_end(ap);
}

const char *plural(long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* ------------------------------------------------------------------ the connection */

/* S without its trailing newlines, carriage returns and spaces. */
static char *trim_end(char *s)
{
    size_t n;

    for (n = strlen(s); n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ');
         n--) {
        s[n - 1] = '\0';
    }
    return s;
}

const char *db_message(db_t *db, int rv)
{
    const char *m = apr_dbd_error(db->driver, db->handle, rv);

    if (!m || !*m) {
        return apr_psprintf(db->pool, "error %d", rv);
    }
    /* the first line: PostgreSQL adds context lines (LINE 1: ...) */
    return trim_end(apr_pstrndup(db->pool, m, strcspn(m, "\n")));
}

int db_fail(db_t *db, int rv, const char *doing)
{
    admin_err("%s: %s failed: %s", db->what, doing, db_message(db, rv));
    return EXIT_DB;
}

int db_select_all(db_t *db, const char *sql)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int r = apr_dbd_select(db->driver, db->pool, db->handle, &res, sql, 1);

    while (r == 0 && apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0)
        ;
    return r;
}

/* How messages name the database.  sqlite3: the file.  pgsql: only the dbname of
 * the conninfo, which may hold a password. */
static const char *db_describe(apr_pool_t *p, int sqlite, const char *params)
{
    const char *d;

    if (sqlite) {
        return apr_psprintf(p, "database '%s'", params);
    }
    d = strstr(params, "dbname=");
    if (d && (d == params || d[-1] == ' ' || d[-1] == '\t')) {
        d += 7;
        return apr_psprintf(p, "database '%.*s'", (int)strcspn(d, " \t"), d);
    }
    return "the PostgreSQL database";
}

/* Does the driver's message M say that a table or a column is missing? */
static int says_missing(const char *m)
{
    return strstr(m, "no such table") || strstr(m, "no such column")
           || strstr(m, "does not exist");
}

/* sqlite3_open creates a missing file: refuse that (PARAMS a path, not a URI).  0 or
 * an exit status. */
static int sqlite_file_exists(db_t *db, const char *params)
{
    apr_finfo_t fi;
    char buf[256];
    apr_status_t rv;

    if (strncmp(params, "file:", 5) == 0 || strcmp(params, ":memory:") == 0) {
        return 0;
    }
    rv = apr_stat(&fi, params, APR_FINFO_TYPE, db->pool);
    if (rv != APR_SUCCESS) {
        admin_err("cannot open %s: %s", db->what, apr_strerror(rv, buf, sizeof(buf)));
        return EXIT_DB;
    }
    if (fi.filetype != APR_REG) {
        admin_err("cannot open %s: not a regular file", db->what);
        return EXIT_DB;
    }
    return 0;
}

int db_connect(db_t *db, apr_pool_t *pool, const char *driver, const char *params)
{
    const char *error = NULL;
    apr_status_t rv;
    int i, r;

    memset(db, 0, sizeof(*db));
    db->pool = pool;
    db->sqlite = strcmp(driver, "sqlite3") == 0;
    db->what = db_describe(pool, db->sqlite, params);

    rv = apr_dbd_init(pool);
    if (rv == APR_SUCCESS) {
        rv = apr_dbd_get_driver(pool, driver, &db->driver);
    }
    if (rv != APR_SUCCESS) {
        char buf[256];

        admin_err("cannot load the apr_dbd driver '%s': %s%s", driver,
                  apr_strerror(rv, buf, sizeof(buf)),
                  rv == APR_EDSOOPEN ? apr_psprintf(pool, " (is libaprutil1-dbd-%s "
                                                    "installed?)", driver) : "");
        return EXIT_DB;
    }
    if (db->sqlite && (r = sqlite_file_exists(db, params)) != 0) {
        return r;
    }
    rv = apr_dbd_open_ex(db->driver, pool, params, &db->handle, &error);
    if (rv != APR_SUCCESS || !db->handle) {
        db->handle = NULL;
        admin_err("cannot open %s: %s", db->what,
                  trim_end(apr_pstrdup(pool, error ? error : "open failed")));
        return EXIT_DB;
    }
    for (i = 0; db->sqlite && i < rk_sqlite_setup_count; i++) {
        if ((r = db_select_all(db, rk_sqlite_setup[i])) != 0) {
            return db_fail(db, r, rk_sqlite_setup[i]);
        }
    }
    return 0;
}

int db_open(db_t *db, apr_pool_t *pool, const char *driver, const char *params)
{
    int i, r;

    if ((r = db_connect(db, pool, driver, params)) != 0) {
        return r;
    }
    /* the schema: every table and column the command uses */
    r = apr_dbd_prepare(db->driver, pool, db->handle, rk_admin_queries[RK_A_PROBE].sql,
                        rk_admin_queries[RK_A_PROBE].label, &db->stmt[RK_A_PROBE]);
    if (r != 0) {
        const char *m = db_message(db, r);

        if (says_missing(m)) {
            admin_err("%s has no mod_ranking schema (apply %s): %s", db->what,
                      db->sqlite ? "sql/schema.sql" : "sql/schema-pg.sql", m);
        }
        else {
            admin_err("cannot read %s: %s", db->what, m);
        }
        return EXIT_DB;
    }
    /* the statements on tables of every schema version; the others (since > 0) are
     * prepared by the command that runs them (db_prepare_since) */
    for (i = 0; i < RK_A_COUNT; i++) {
        if (i == RK_A_PROBE || rk_admin_queries[i].since > 0) {
            continue;
        }
        r = apr_dbd_prepare(db->driver, pool, db->handle, rk_admin_queries[i].sql,
                            rk_admin_queries[i].label, &db->stmt[i]);
        if (r != 0) {
            return db_fail(db, r, apr_psprintf(pool, "preparing %s",
                                               rk_admin_queries[i].label));
        }
    }
    return 0;
}

void db_close(db_t *db)
{
    if (db->handle) {
        apr_dbd_close(db->driver, db->handle);
        db->handle = NULL;
    }
}

/* ------------------------------------------------------------------ transactions */

int db_begin(db_t *db)
{
    int r;

    db->trans = NULL;
    r = apr_dbd_transaction_start(db->driver, db->pool, db->handle, &db->trans);
    if (r != 0) {
        int rc = db_fail(db, r, "starting a transaction");

        if (db->trans) {   /* the sqlite3 driver keeps it attached: detach it */
            apr_dbd_transaction_mode_set(db->driver, db->trans, APR_DBD_TRANSACTION_ROLLBACK);
            apr_dbd_transaction_end(db->driver, db->pool, db->trans);
            db->trans = NULL;
        }
        return rc;
    }
    return 0;
}

int db_end(db_t *db, int rc)
{
    int r;

    if (!db->trans) {
        return rc;
    }
    if (rc != 0) {
        apr_dbd_transaction_mode_set(db->driver, db->trans, APR_DBD_TRANSACTION_ROLLBACK);
    }
    r = apr_dbd_transaction_end(db->driver, db->pool, db->trans);
    db->trans = NULL;
    if (r != 0 && rc == 0) {
        return db_fail(db, r, "commit");
    }
    return rc;
}

int db_lock_revision(db_t *db)
{
    int n = 0, r = apr_dbd_query(db->driver, db->handle, &n,
                                 "LOCK TABLE revision IN EXCLUSIVE MODE");

    return r == 0 ? 0 : db_fail(db, r, "locking the table revision");
}

/* ------------------------------------------------------------------ statements */

int db_run1(db_t *db, rk_admin_query_id q, int *nrows, const char *a)
{
    int r = apr_dbd_pvquery(db->driver, db->pool, db->handle, nrows, db->stmt[q], a);

    return r == 0 ? 0 : db_fail(db, r, rk_admin_queries[q].label);
}

int db_run2(db_t *db, rk_admin_query_id q, int *nrows, const char *a, const char *b)
{
    int r = apr_dbd_pvquery(db->driver, db->pool, db->handle, nrows, db->stmt[q], a, b);

    return r == 0 ? 0 : db_fail(db, r, rk_admin_queries[q].label);
}

int db_select_ints(db_t *db, const char *sql, int n, long *out)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int r, i, rows = 0, bad = 0;

    r = apr_dbd_select(db->driver, db->pool, db->handle, &res, sql, 1);
    if (r != 0) {
        return db_fail(db, r, "reading the schema version");
    }
    while (apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0) {
        for (i = 0; rows == 0 && i < n; i++) {
            const char *v = apr_dbd_get_entry(db->driver, row, i);
            char *end;

            errno = 0;
            out[i] = v ? strtol(v, &end, 10) : 0;
            bad |= !v || errno != 0 || end == v || *end != '\0';
        }
        rows++;
    }
    if (rows != 1 || bad) {
        admin_err("%s: cannot read the schema version (%s)", db->what, sql);
        return EXIT_DB;
    }
    return 0;
}

/* ------------------------------------------------------------------ schema version */

int db_schema_version(db_t *db, int *version)
{
    long has, v[3];
    int rc;

    rc = db_select_ints(db, db->sqlite
                        ? "SELECT COUNT(*) FROM sqlite_master"
                          " WHERE type = 'table' AND name = 'schema_version'"
                        : "SELECT CASE WHEN to_regclass('schema_version') IS NULL"
                          " THEN 0 ELSE 1 END", 1, &has);
    if (rc != 0) {
        return rc;
    }
    if (!has) {
        *version = 1;
        return 0;
    }
    rc = db_select_ints(db, "SELECT COUNT(*), COALESCE(MIN(version), 0),"
                        " COALESCE(MAX(version), 0) FROM schema_version", 3, v);
    if (rc != 0) {
        return rc;
    }
    if (v[0] != 1 || v[1] < 1 || v[1] > 999999) {
        admin_err("%s: table schema_version must hold one positive version, not %ld %s",
                  db->what, v[0], plural(v[0], "row", "rows"));
        return EXIT_DB;
    }
    *version = (int)v[1];
    return 0;
}

int db_prepare_since(db_t *db, rk_admin_query_id q, const char *command, const char *what)
{
    const rk_admin_query *s = &rk_admin_queries[q];
    int rc, r, v = 0;

    if (db->stmt[q]) {
        return 0;
    }
    if ((rc = db_schema_version(db, &v)) != 0) {
        return rc;
    }
    if (v < s->since) {
        admin_err("%s is at schema version %d, too old for '%s': %s came with version %d; "
                  "run '" PROG " upgrade'", db->what, v, command, what, s->since);
        return EXIT_DB;
    }
    r = apr_dbd_prepare(db->driver, db->pool, db->handle, s->sql, s->label, &db->stmt[q]);
    if (r != 0) {
        const char *m = db_message(db, r);

        db->stmt[q] = NULL;
        if (says_missing(m)) {
            admin_err("%s lacks %s although it is at schema version %d: %s", db->what, what,
                      v, m);
            return EXIT_DB;
        }
        return db_fail(db, r, apr_psprintf(db->pool, "preparing %s", s->label));
    }
    return 0;
}

/* ------------------------------------------------------------------ input files */

int admin_read_input(apr_pool_t *p, const char *path, char **buf, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = 65536, n = 0, got;
    char *b;

    if (!f && (errno == EACCES || errno == EPERM)) {
        admin_err("cannot open '%s': %s: the command runs as a user that cannot read it "
                  "(as the server's user, for example); give the file on standard input "
                  "instead: '-' as the file, and '< %s'", path, strerror(errno), path);
        return EXIT_USAGE;
    }
    if (!f) {
        admin_err("cannot open '%s': %s", path, strerror(errno));
        return EXIT_USAGE;
    }
    b = malloc(cap + 1);
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, cap * 2 + 1);

            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    if (!b || ferror(f)) {
        admin_err("cannot read '%s': %s", path, b ? strerror(errno) : "out of memory");
        free(b);
        if (f != stdin) {
            fclose(f);
        }
        return EXIT_DB;
    }
    if (f != stdin) {
        fclose(f);
    }
    b[n] = '\0';
    *buf = apr_pmemdup(p, b, n + 1);
    *len = n;
    free(b);
    return 0;
}
