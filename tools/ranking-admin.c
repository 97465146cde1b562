/* ranking-admin: manage the API users of mod_ranking (table account) and their
 * bearer tokens (table token), directly in the database the module uses.
 *
 *   ranking-admin [--driver sqlite3|pgsql] --params <DBDParams> <command> [args]
 *
 * See tools/ranking-admin.8.  Exit status: 0 done, 1 usage error (bad arguments,
 * bad user name or role, refused password), 2 user not found / already exists,
 * 3 database or system error (cannot open, no schema, statement failed).
 *
 * Uses APR-util's apr_dbd directly (the drivers mod_dbd uses), the statements of
 * admin_sql.c, what rk_sql.h shares with the module (SQLite connection setup,
 * user-name limit) and rk_password_hash of rk_token.c.  Passwords come from standard
 * input only, never from the command line; neither a password nor a hash is ever
 * printed. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <apr_general.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <apr_file_info.h>
#include <apr_time.h>
#include <apr_dbd.h>

#include "admin_sql.h"
#include "rk_sql.h"
#include "rk_token.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

#define PROG "ranking-admin"

enum {
    EXIT_DONE = 0,
    EXIT_USAGE = 1,     /* bad arguments, bad name or role, refused password */
    EXIT_USER = 2,      /* user not found / already exists */
    EXIT_DB = 3         /* database or system error */
};

#define DEFAULT_COST     10
#define PASSWORD_MAX     72     /* bcrypt uses the first 72 bytes only: refuse more */
#define HASH_BUF         128

/* ------------------------------------------------------------------ messages */

static void verr(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void verr(const char *fmt, va_list ap)
{
    fputs(PROG ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void err(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    verr(fmt, ap);
    va_end(ap);
}

static const char usage_text[] =
    "usage: " PROG " [--driver sqlite3|pgsql] --params DBDPARAMS [--cost N] COMMAND [ARGS]\n";

static const char help_text[] =
    "Manage the users of mod_ranking and their tokens.\n"
    "\n"
    "Options:\n"
    "  --driver NAME    apr_dbd driver: sqlite3 (default) or pgsql\n"
    "                   (default from RANKING_DBD_DRIVER)\n"
    "  --params PARAMS  what mod_ranking's DBDParams says: the database file for\n"
    "                   sqlite3, a conninfo for pgsql (default from RANKING_DBD_PARAMS)\n"
    "  --cost N         bcrypt cost of new password hashes, 4 to 31 (default 10)\n"
    "  -h, --help       show this help and exit\n"
    "  --version        show the version and exit\n"
    "\n"
    "Commands:\n"
    "  add USER [--role reader|editor]  create a user (default role reader)\n"
    "  passwd USER                      set a new password; revokes the user's tokens\n"
    "  role USER reader|editor          change the role\n"
    "  disable USER                     refuse the user's logins; revokes their tokens\n"
    "  enable USER                      allow the user's logins again\n"
    "  delete USER                      delete the user and their tokens\n"
    "  list                             users: name, role, status, live tokens\n"
    "  revoke USER                      delete every token of the user\n"
    "  purge                            delete expired tokens\n"
    "\n"
    "Passwords are read from standard input, never from the command line: on a\n"
    "terminal twice without echo, otherwise one line (its newline removed).\n"
    "User names: 1 to 64 printable ASCII characters, no space and no ':'.\n"
    "\n"
    "Exit status: 0 done, 1 usage error, 2 user not found or already exists,\n"
    "3 database error.\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    verr(fmt, ap);
    va_end(ap);
    fputs(usage_text, stderr);
    fputs("Try '" PROG " --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

static const char *plural(long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* Clear memory that held a secret; the volatile pointer keeps the compiler from
 * dropping the stores. */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;

    while (n--) {
        *v++ = 0;
    }
}

/* ------------------------------------------------------------------ checks */

static int name_ok(const char *name)
{
    size_t i, n = strlen(name);

    if (n < 1 || n > RK_USER_NAME_MAX) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];

        if (c <= 0x20 || c >= 0x7f || c == ':') {
            return 0;
        }
    }
    return 1;
}

static int role_ok(const char *role)
{
    return strcmp(role, "reader") == 0 || strcmp(role, "editor") == 0;
}

/* ------------------------------------------------------------------ passwords */

static struct termios saved_tty;
static volatile sig_atomic_t tty_changed;

static void restore_tty(void)
{
    if (tty_changed) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
        tty_changed = 0;
    }
}

static void on_signal(int sig)
{
    restore_tty();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Read one line from standard input with read(2), so that no copy of it stays in a
 * stdio buffer.  Returns its length (the newline, and a CR before it, removed), or
 * -1 with a message when it is longer than PASSWORD_MAX bytes, holds a NUL byte or
 * cannot be read.  SIZE is at least PASSWORD_MAX + 3. */
static long read_line(char *buf, size_t size)
{
    size_t n = 0;

    for (;;) {
        char c;
        ssize_t r = read(STDIN_FILENO, &c, 1);

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            err("cannot read the password from standard input: %s", strerror(errno));
            return -1;
        }
        if (r == 0 || c == '\n') {
            break;
        }
        if (c == '\0') {
            err("refused: the password contains a NUL byte");
            return -1;
        }
        if (n + 1 >= size) {
            n = size;   /* too long: keep reading to the end of the line, so that
                         * no part of it is left for the shell on a terminal */
            continue;
        }
        buf[n++] = c;
    }
    if (n < size && n > 0 && buf[n - 1] == '\r') {
        n--;
    }
    if (n > PASSWORD_MAX) {
        err("refused: the password is longer than %d bytes (bcrypt uses only the "
            "first %d)", PASSWORD_MAX, PASSWORD_MAX);
        return -1;
    }
    buf[n] = '\0';
    return (long)n;
}

/* Prompt on stderr and read a line from the terminal on stdin without echo. */
static long read_hidden(const char *prompt, char *buf, size_t size)
{
    struct termios quiet;
    long n;

    if (tcgetattr(STDIN_FILENO, &saved_tty) != 0) {
        err("cannot read the terminal settings: %s", strerror(errno));
        return -1;
    }
    quiet = saved_tty;
    quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK);
    quiet.c_lflag |= ECHONL;
    tty_changed = 1;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) != 0) {
        tty_changed = 0;
        err("cannot turn off the terminal's echo: %s", strerror(errno));
        return -1;
    }
    /* the prompt once the echo is off: what is typed after it is never shown */
    fputs(prompt, stderr);
    fflush(stderr);
    n = read_line(buf, size);
    restore_tty();
    return n;
}


/* The new password of USER into BUF (PASSWORD_MAX + 3 bytes at least).  On a
 * terminal: asked twice without echo, both must match.  Otherwise: one line of
 * standard input.  Refuses an empty password.  0 or an exit status. */
static int get_password(apr_pool_t *pool, const char *user, char *buf, size_t size)
{
    char again[PASSWORD_MAX + 3];
    long n, m;
    int rc = 0;

    if (!isatty(STDIN_FILENO)) {
        n = read_line(buf, size);
        if (n < 0) {
            return EXIT_USAGE;
        }
        if (n == 0) {
            err("refused: empty password");
            return EXIT_USAGE;
        }
        return 0;
    }
    {
        struct sigaction sa;
        const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
        size_t i;

        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
            sigaction(sigs[i], &sa, NULL);
        }
    }
    n = read_hidden(apr_psprintf(pool, "New password for %s: ", user), buf, size);
    if (n < 0) {
        return EXIT_USAGE;
    }
    if (n == 0) {
        err("refused: empty password");
        return EXIT_USAGE;
    }
    m = read_hidden("Retype the new password: ", again, sizeof(again));
    if (m < 0) {
        rc = EXIT_USAGE;
    }
    else if (m != n || memcmp(buf, again, (size_t)n) != 0) {
        err("refused: the two passwords differ");
        rc = EXIT_USAGE;
    }
    wipe(again, sizeof(again));
    return rc;
}

/* Read the password of USER and hash it into HASH (HASH_BUF bytes).  0 or an exit
 * status.  The password itself is wiped before returning. */
static int new_password_hash(apr_pool_t *pool, const char *user, int cost, char *hash)
{
    char pw[PASSWORD_MAX + 3];
    int rc = get_password(pool, user, pw, sizeof(pw));

    if (rc == 0 && rk_password_hash(pw, cost, hash, HASH_BUF) != 0) {
        err("cannot hash the password (bcrypt, cost %d)", cost);
        rc = EXIT_DB;
    }
    wipe(pw, sizeof(pw));
    return rc;
}

/* ------------------------------------------------------------------ database */

typedef struct {
    apr_pool_t *pool;
    const apr_dbd_driver_t *driver;
    apr_dbd_t *handle;
    int sqlite;
    const char *what;           /* "database '...'" for messages; no secret */
    apr_dbd_prepared_t *stmt[RK_A_COUNT];
    apr_dbd_transaction_t *trans;
} db_t;

/* The driver's message for the last error, without a trailing newline. */
static const char *db_message(db_t *db, int rv)
{
    const char *m = apr_dbd_error(db->driver, db->handle, rv);
    char *s;
    size_t n;

    if (!m || !*m) {
        return apr_psprintf(db->pool, "error %d", rv);
    }
    /* the first line: PostgreSQL adds context lines (LINE 1: ...) */
    s = apr_pstrndup(db->pool, m, strcspn(m, "\n"));
    for (n = strlen(s); n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '); n--) {
        s[n - 1] = '\0';
    }
    return s;
}

static int db_fail(db_t *db, int rv, const char *doing)
{
    err("%s: %s failed: %s", db->what, doing, db_message(db, rv));
    return EXIT_DB;
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

static int db_open(db_t *db, apr_pool_t *pool, const char *driver, const char *params)
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

        err("cannot load the apr_dbd driver '%s': %s%s", driver,
            apr_strerror(rv, buf, sizeof(buf)),
            rv == APR_EDSOOPEN ? apr_psprintf(pool, " (is libaprutil1-dbd-%s installed?)",
                                              driver) : "");
        return EXIT_DB;
    }

    /* sqlite3_open creates a missing file: refuse that (a path, not a URI) */
    if (db->sqlite && strncmp(params, "file:", 5) != 0 && strcmp(params, ":memory:") != 0) {
        apr_finfo_t fi;
        char buf[256];

        rv = apr_stat(&fi, params, APR_FINFO_TYPE, pool);
        if (rv != APR_SUCCESS) {
            err("cannot open %s: %s", db->what, apr_strerror(rv, buf, sizeof(buf)));
            return EXIT_DB;
        }
        if (fi.filetype != APR_REG) {
            err("cannot open %s: not a regular file", db->what);
            return EXIT_DB;
        }
    }

    rv = apr_dbd_open_ex(db->driver, pool, params, &db->handle, &error);
    if (rv != APR_SUCCESS || !db->handle) {
        char *m = apr_pstrdup(pool, error ? error : "open failed");
        size_t n = strlen(m);

        while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' ')) {
            m[--n] = '\0';
        }
        db->handle = NULL;
        err("cannot open %s: %s", db->what, m);
        return EXIT_DB;
    }

    for (i = 0; db->sqlite && i < rk_sqlite_setup_count; i++) {
        apr_dbd_results_t *res = NULL;
        apr_dbd_row_t *row = NULL;

        r = apr_dbd_select(db->driver, pool, db->handle, &res, rk_sqlite_setup[i], 1);
        if (r != 0) {
            return db_fail(db, r, rk_sqlite_setup[i]);
        }
        while (apr_dbd_get_row(db->driver, pool, res, &row, -1) == 0)
            ;
    }

    /* the schema: every table and column the command uses */
    r = apr_dbd_prepare(db->driver, pool, db->handle, rk_admin_queries[RK_A_PROBE].sql,
                        rk_admin_queries[RK_A_PROBE].label, &db->stmt[RK_A_PROBE]);
    if (r != 0) {
        const char *m = db_message(db, r);

        if (strstr(m, "no such table") || strstr(m, "no such column")
            || strstr(m, "does not exist")) {
            err("%s has no mod_ranking schema (apply %s): %s", db->what,
                db->sqlite ? "sql/schema.sql" : "sql/schema-pg.sql", m);
        }
        else {
            err("cannot read %s: %s", db->what, m);
        }
        return EXIT_DB;
    }
    for (i = 0; i < RK_A_COUNT; i++) {
        if (i == RK_A_PROBE) {
            continue;
        }
        r = apr_dbd_prepare(db->driver, pool, db->handle, rk_admin_queries[i].sql,
                            rk_admin_queries[i].label, &db->stmt[i]);
        if (r != 0) {
            return db_fail(db, r, apr_psprintf(pool, "preparing %s", rk_admin_queries[i].label));
        }
    }
    return 0;
}

static void db_close(db_t *db)
{
    if (db->handle) {
        apr_dbd_close(db->driver, db->handle);
        db->handle = NULL;
    }
}

static int txn_begin(db_t *db)
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

/* Commit when RC is 0, else roll back; returns RC, or EXIT_DB when the commit
 * fails. */
static int txn_end(db_t *db, int rc)
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

/* Does USER exist?  *FOUND set; 0 or an exit status. */
static int user_exists(db_t *db, const char *user, int *found)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int r;

    *found = 0;
    r = apr_dbd_pvselect(db->driver, db->pool, db->handle, &res, db->stmt[RK_A_ACCOUNT_FIND],
                         1, user);
    if (r != 0) {
        return db_fail(db, r, "looking the user up");
    }
    while (apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0) {
        *found = 1;
    }
    return 0;
}

/* Run statement Q with one or two string arguments; *NROWS is the number of rows
 * changed.  0 or an exit status. */
static int run1(db_t *db, rk_admin_query_id q, int *nrows, const char *a)
{
    int r = apr_dbd_pvquery(db->driver, db->pool, db->handle, nrows, db->stmt[q], a);

    return r == 0 ? 0 : db_fail(db, r, rk_admin_queries[q].label);
}

static int run2(db_t *db, rk_admin_query_id q, int *nrows, const char *a, const char *b)
{
    int r = apr_dbd_pvquery(db->driver, db->pool, db->handle, nrows, db->stmt[q], a, b);

    return r == 0 ? 0 : db_fail(db, r, rk_admin_queries[q].label);
}

static const char *now_text(apr_pool_t *p)
{
    return apr_psprintf(p, "%" APR_INT64_T_FMT, (apr_int64_t)apr_time_sec(apr_time_now()));
}

static int not_found(const char *user)
{
    err("no user '%s'", user);
    return EXIT_USER;
}

/* ------------------------------------------------------------------ commands */

typedef struct command command;

typedef struct {
    const char *driver;
    const char *params;
    int cost;
    const char *role;           /* add --role */
    const command *cmd;
    const char *arg[2];         /* the command's operands */
    int nargs;
} opts_t;

static int cmd_add(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    const char *role = o->role ? o->role : "reader";
    char hash[HASH_BUF];
    int found, rc, n = 0;

    /* before asking for a password */
    if ((rc = user_exists(db, user, &found)) != 0) {
        return rc;
    }
    if (found) {
        err("user '%s' already exists", user);
        return EXIT_USER;
    }
    if ((rc = new_password_hash(db->pool, user, o->cost, hash)) != 0) {
        return rc;
    }
    if ((rc = txn_begin(db)) == 0) {
        rc = user_exists(db, user, &found);
        if (rc == 0 && found) {
            err("user '%s' already exists", user);
            rc = EXIT_USER;
        }
        if (rc == 0) {
            int r = apr_dbd_pvquery(db->driver, db->pool, db->handle, &n,
                                    db->stmt[RK_A_ACCOUNT_INSERT], user, hash, role,
                                    now_text(db->pool));

            rc = r == 0 ? 0 : db_fail(db, r, "adding the user");
        }
        rc = txn_end(db, rc);
    }
    wipe(hash, sizeof(hash));
    if (rc == 0) {
        printf("added user %s (%s)\n", user, role);
    }
    return rc;
}

static int cmd_passwd(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    char hash[HASH_BUF];
    int found, rc, n = 0, revoked = 0;

    if ((rc = user_exists(db, user, &found)) != 0) {
        return rc;
    }
    if (!found) {
        return not_found(user);
    }
    if ((rc = new_password_hash(db->pool, user, o->cost, hash)) != 0) {
        return rc;
    }
    if ((rc = txn_begin(db)) == 0) {
        rc = run2(db, RK_A_ACCOUNT_PASSWORD, &n, hash, user);
        if (rc == 0 && n == 0) {
            rc = not_found(user);   /* deleted meanwhile */
        }
        if (rc == 0) {
            rc = run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
        }
        rc = txn_end(db, rc);
    }
    wipe(hash, sizeof(hash));
    if (rc == 0) {
        printf("changed the password of %s; revoked %d %s\n", user, revoked,
               plural(revoked, "token", "tokens"));
    }
    return rc;
}

static int cmd_role(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0], *role = o->arg[1];
    int rc, n = 0;

    if ((rc = txn_begin(db)) != 0) {
        return rc;
    }
    rc = run2(db, RK_A_ACCOUNT_ROLE, &n, role, user);
    if (rc == 0 && n == 0) {
        rc = not_found(user);
    }
    rc = txn_end(db, rc);
    if (rc == 0) {
        printf("%s is now %s\n", user, role);
    }
    return rc;
}

static int enable_disable(db_t *db, const opts_t *o, int enable)
{
    const char *user = o->arg[0];
    int rc, n = 0, revoked = 0;

    if ((rc = txn_begin(db)) != 0) {
        return rc;
    }
    rc = run1(db, enable ? RK_A_ACCOUNT_ENABLE : RK_A_ACCOUNT_DISABLE, &n, user);
    if (rc == 0 && n == 0) {
        rc = not_found(user);
    }
    if (rc == 0 && !enable) {
        rc = run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
    }
    rc = txn_end(db, rc);
    if (rc == 0 && enable) {
        printf("enabled %s\n", user);
    }
    else if (rc == 0) {
        printf("disabled %s; revoked %d %s\n", user, revoked, plural(revoked, "token", "tokens"));
    }
    return rc;
}

static int cmd_disable(db_t *db, const opts_t *o)
{
    return enable_disable(db, o, 0);
}

static int cmd_enable(db_t *db, const opts_t *o)
{
    return enable_disable(db, o, 1);
}

static int cmd_delete(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    int rc, n = 0, revoked = 0;

    if ((rc = txn_begin(db)) != 0) {
        return rc;
    }
    /* tokens first, explicitly: no reliance on ON DELETE CASCADE */
    rc = run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
    if (rc == 0) {
        rc = run1(db, RK_A_ACCOUNT_DELETE, &n, user);
    }
    if (rc == 0 && n == 0) {
        rc = not_found(user);
    }
    rc = txn_end(db, rc);
    if (rc == 0) {
        printf("deleted user %s; revoked %d %s\n", user, revoked,
               plural(revoked, "token", "tokens"));
    }
    return rc;
}

static int cmd_revoke(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    int rc, found, revoked = 0;

    if ((rc = txn_begin(db)) != 0) {
        return rc;
    }
    rc = user_exists(db, user, &found);
    if (rc == 0 && !found) {
        rc = not_found(user);
    }
    if (rc == 0) {
        rc = run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
    }
    rc = txn_end(db, rc);
    if (rc == 0) {
        printf("revoked %d %s of %s\n", revoked, plural(revoked, "token", "tokens"), user);
    }
    return rc;
}

static int cmd_purge(db_t *db, const opts_t *o)
{
    int rc, n = 0;

    (void)o;
    rc = run1(db, RK_A_TOKEN_PURGE, &n, now_text(db->pool));
    if (rc == 0) {
        printf("purged %d expired %s\n", n, plural(n, "token", "tokens"));
    }
    return rc;
}

typedef struct {
    const char *name, *role, *status, *tokens;
} list_row;

static int cmd_list(db_t *db, const opts_t *o)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    apr_array_header_t *rows = apr_array_make(db->pool, 16, sizeof(list_row));
    int r, i, wn = 4, wr = 4, ws = 6;

    (void)o;
    r = apr_dbd_pvselect(db->driver, db->pool, db->handle, &res, db->stmt[RK_A_ACCOUNT_LIST],
                         1, now_text(db->pool));
    if (r != 0) {
        return db_fail(db, r, "listing the users");
    }
    /* drain every row; copy the values (pgsql frees them at the end) */
    while (apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0) {
        list_row *l = apr_array_push(rows);
        const char *name = apr_dbd_get_entry(db->driver, row, 0);
        const char *role = apr_dbd_get_entry(db->driver, row, 1);
        const char *en = apr_dbd_get_entry(db->driver, row, 2);
        const char *tok = apr_dbd_get_entry(db->driver, row, 3);

        l->name = apr_pstrdup(db->pool, name ? name : "");
        l->role = apr_pstrdup(db->pool, role ? role : "");
        l->status = en && strcmp(en, "0") != 0 ? "enabled" : "disabled";
        l->tokens = apr_pstrdup(db->pool, tok && *tok ? tok : "0");
    }
    for (i = 0; i < rows->nelts; i++) {
        const list_row *l = &APR_ARRAY_IDX(rows, i, list_row);

        wn = (int)strlen(l->name) > wn ? (int)strlen(l->name) : wn;
        wr = (int)strlen(l->role) > wr ? (int)strlen(l->role) : wr;
        ws = (int)strlen(l->status) > ws ? (int)strlen(l->status) : ws;
    }
    printf("%-*s  %-*s  %-*s  %s\n", wn, "NAME", wr, "ROLE", ws, "STATUS", "TOKENS");
    for (i = 0; i < rows->nelts; i++) {
        const list_row *l = &APR_ARRAY_IDX(rows, i, list_row);

        printf("%-*s  %-*s  %-*s  %s\n", wn, l->name, wr, l->role, ws, l->status, l->tokens);
    }
    return 0;
}

/* ------------------------------------------------------------------ the command table */

/* How a command takes a role: not at all, as the option --role, or as its second
 * operand. */
enum { ROLE_NONE, ROLE_OPTION, ROLE_OPERAND };

struct command {
    const char *name;
    const char *operands;       /* for messages */
    int nargs;                  /* operands; the first one, if any, is a user name */
    int password;               /* reads a password */
    int role;                   /* ROLE_* */
    int (*run)(db_t *db, const opts_t *o);
};

static const command commands[] = {
    { "add", "USER [--role reader|editor]", 1, 1, ROLE_OPTION, cmd_add },
    { "passwd", "USER", 1, 1, ROLE_NONE, cmd_passwd },
    { "role", "USER reader|editor", 2, 0, ROLE_OPERAND, cmd_role },
    { "disable", "USER", 1, 0, ROLE_NONE, cmd_disable },
    { "enable", "USER", 1, 0, ROLE_NONE, cmd_enable },
    { "delete", "USER", 1, 0, ROLE_NONE, cmd_delete },
    { "list", "", 0, 0, ROLE_NONE, cmd_list },
    { "revoke", "USER", 1, 0, ROLE_NONE, cmd_revoke },
    { "purge", "", 0, 0, ROLE_NONE, cmd_purge },
};

/* ------------------------------------------------------------------ arguments */

static const command *find_command(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(commands[i].name, name) == 0) {
            return &commands[i];
        }
    }
    return NULL;
}

/* Parse ARGV into O.  Options may come before or after the command.  Returns -1
 * to go on, or an exit status (--help, --version, usage errors). */
static int parse(int argc, const char *const *argv, opts_t *o)
{
    const char *env;
    int i, ends = 0, help = 0, version = 0, npos = 0;
    const char *pos[8];
    const char *cost = NULL;

    memset(o, 0, sizeof(*o));
    env = getenv("RANKING_DBD_DRIVER");
    o->driver = env && *env ? env : "sqlite3";
    env = getenv("RANKING_DBD_PARAMS");
    o->params = env && *env ? env : NULL;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char **slot = NULL;
        size_t len;

        if (ends || a[0] != '-' || a[1] == '\0') {
            if (npos < (int)(sizeof(pos) / sizeof(pos[0]))) {
                pos[npos] = a;
            }
            npos++;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            ends = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help = 1;
            continue;
        }
        if (strcmp(a, "--version") == 0) {
            version = 1;
            continue;
        }
        len = strcspn(a, "=");
        if (len == 8 && strncmp(a, "--driver", len) == 0) {
            slot = &o->driver;
        }
        else if (len == 8 && strncmp(a, "--params", len) == 0) {
            slot = &o->params;
        }
        else if (len == 6 && strncmp(a, "--cost", len) == 0) {
            slot = &cost;
        }
        else if (len == 6 && strncmp(a, "--role", len) == 0) {
            slot = &o->role;
        }
        else if (strncmp(a, "--pass", 6) == 0 || strncmp(a, "-p", 2) == 0) {
            return usage_error("passwords are read from standard input, never from the "
                               "command line");
        }
        else {
            return usage_error("unknown option '%.*s'", (int)len, a);
        }
        if (a[len] == '=') {
            val = a + len + 1;
        }
        else if (i + 1 < argc) {
            val = argv[++i];
        }
        else {
            return usage_error("option '%s' needs a value", a);
        }
        *slot = val;
    }

    if (help) {
        fputs(usage_text, stdout);
        fputs(help_text, stdout);
        return EXIT_DONE;
    }
    if (version) {
        printf(PROG " (mod_ranking) %s\n", PACKAGE_VERSION);
        return EXIT_DONE;
    }
    if (npos == 0) {
        return usage_error("no command");
    }
    {
        const command *c = find_command(pos[0]);

        if (!c) {
            return usage_error("unknown command '%s'", pos[0]);
        }
        o->cmd = c;
        if (npos - 1 > c->nargs) {
            if (c->password) {
                return usage_error("too many arguments to '%s': passwords are read from "
                                   "standard input, never from the command line", c->name);
            }
            return usage_error("too many arguments; usage: %s %s", c->name, c->operands);
        }
        if (npos - 1 < c->nargs) {
            return usage_error("missing argument; usage: %s %s", c->name, c->operands);
        }
        o->nargs = npos - 1;
        for (i = 0; i < o->nargs; i++) {
            o->arg[i] = pos[i + 1];
        }
    }
    if (o->role && o->cmd->role != ROLE_OPTION) {
        return usage_error("--role goes with 'add' only (use: role USER reader|editor)");
    }
    if (o->role && !role_ok(o->role)) {
        return usage_error("the role must be 'reader' or 'editor'");
    }
    if (o->cmd->role == ROLE_OPERAND && !role_ok(o->arg[1])) {
        return usage_error("the role must be 'reader' or 'editor'");
    }
    if (o->nargs > 0 && !name_ok(o->arg[0])) {
        return usage_error("invalid user name: 1 to %d printable ASCII characters, no space "
                           "and no ':'", RK_USER_NAME_MAX);
    }
    o->cost = DEFAULT_COST;
    if (cost) {
        char *end;
        long v;

        errno = 0;
        v = strtol(cost, &end, 10);
        if (errno || end == cost || *end || v < 4 || v > 31) {
            return usage_error("--cost must be a number from 4 to 31");
        }
        o->cost = (int)v;
    }
    if (strcmp(o->driver, "sqlite3") != 0 && strcmp(o->driver, "pgsql") != 0) {
        return usage_error("unsupported driver '%s' (sqlite3 or pgsql)", o->driver);
    }
    if (!o->params || !*o->params) {
        return usage_error("no database: give --params or set RANKING_DBD_PARAMS");
    }
    return -1;
}

/* ------------------------------------------------------------------ main */

int main(int argc, const char *const *argv)
{
    apr_pool_t *pool;
    opts_t o;
    db_t db;
    int rc;

    rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    if (apr_app_initialize(&argc, &argv, NULL) != APR_SUCCESS) {
        err("cannot initialize APR");
        return EXIT_DB;
    }
    atexit(apr_terminate);
    if (apr_pool_create(&pool, NULL) != APR_SUCCESS) {
        err("out of memory");
        return EXIT_DB;
    }

    rc = db_open(&db, pool, o.driver, o.params);
    if (rc == 0) {
        rc = o.cmd->run(&db, &o);
    }
    db_close(&db);
    if (fflush(stdout) != 0 && rc == 0) {
        err("cannot write the output: %s", strerror(errno));
        rc = EXIT_DB;
    }
    apr_pool_destroy(pool);
    return rc;
}
