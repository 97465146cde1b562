/* admin.h: what the files of ranking-admin share: the exit statuses, the messages,
 * the connection to the database (admin_db.c), the parsed command line and the
 * commands, by file.
 *
 *   ranking-admin.c    main, the arguments, the command table
 *   admin_db.c         the messages, the connection, transactions, schema version,
 *                      input files
 *   admin_password.c   a new password from standard input, hashed
 *   admin_users.c      add, passwd, role, disable, enable, delete, list, revoke, purge
 *   admin_grants.c     grant, revoke-grant (roles per competition), list's grants
 *   admin_help.c       the usage and --help texts
 *   admin_schema.c     init, upgrade, history prune
 *   admin_data.c       export, import, import-spots (the rows of a competition)
 *   admin_results.c    export-results (the overall leaderboard as CSV)
 *   admin_heats.c      generate-heats (heats seeded from the ranking, lib/rk_seed.h)
 *
 * The pure parts, without a database: admin_values.c (single values), admin_doc.c
 * (the competition document), admin_check.c and admin_shape.c (the checks of an
 * import), admin_sql.c (the
 * statements of users and tokens). */
#ifndef ADMIN_H
#define ADMIN_H

#include <stdarg.h>
#include <stddef.h>

#include "admin_sql.h"

#define PROG "ranking-admin"

enum {
    EXIT_DONE = 0,
    EXIT_USAGE = 1,     /* bad arguments, name, role, date or id; refused password,
                         * document or CSV */
    EXIT_USER = 2,      /* user or competition not found; user or database exists */
    EXIT_DB = 3         /* database or system error */
};

struct apr_pool_t;
struct apr_array_header_t;
struct apr_hash_t;
struct apr_dbd_driver_t;
struct apr_dbd_t;
struct apr_dbd_prepared_t;
struct apr_dbd_transaction_t;
struct admin_command;

/* ------------------------------------------------------------------ messages */

/* "ranking-admin: " FMT "\n" on stderr (admin_db.c). */
void admin_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void admin_verr(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A usage error (admin_err, then the usage line; ranking-admin.c): returns
 * EXIT_USAGE. */
int admin_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ONE when N is 1, else MANY. */
const char *plural(long n, const char *one, const char *many);

/* ------------------------------------------------------------------ the database (admin_db.c) */

typedef struct {
    struct apr_pool_t *pool;
    const struct apr_dbd_driver_t *driver;
    struct apr_dbd_t *handle;
    int sqlite;
    const char *what;           /* "database '...'" for messages; no secret */
    struct apr_dbd_prepared_t *stmt[RK_A_COUNT];
    struct apr_dbd_transaction_t *trans;
} db_t;

/* Connect to the database (sqlite3: an existing file) and set the connection up,
 * without looking at its schema.  0 or an exit status. */
int db_connect(db_t *db, struct apr_pool_t *pool, const char *driver, const char *params);

/* db_connect, then check that it has the tables of users and tokens and prepare the
 * statements of every schema version.  0 or an exit status. */
int db_open(db_t *db, struct apr_pool_t *pool, const char *driver, const char *params);

void db_close(db_t *db);

/* The driver's message for error RV (its first line). */
const char *db_message(db_t *db, int rv);

/* Say that DOING failed (with the driver's message); returns EXIT_DB. */
int db_fail(db_t *db, int rv, const char *doing);

/* Run the statement SQL (no placeholder) and read every row it returns (a PRAGMA
 * or a SELECT whose rows do not matter).  The driver's status. */
int db_select_all(db_t *db, const char *sql);

/* Start a transaction; end it: commit when RC is 0, else roll back.  db_end returns
 * RC, or EXIT_DB when the commit fails.  0 or an exit status. */
int db_begin(db_t *db);
int db_end(db_t *db, int rc);

/* PostgreSQL, in a transaction: lock the table revision, which every write of the
 * module updates, so that the module's writes wait for this transaction.  0 or an
 * exit status. */
int db_lock_revision(db_t *db);

/* Run the prepared statement Q with one or two string arguments; *NROWS is the
 * number of rows changed.  0 or an exit status. */
int db_run1(db_t *db, rk_admin_query_id q, int *nrows, const char *a);
int db_run2(db_t *db, rk_admin_query_id q, int *nrows, const char *a, const char *b);

/* Run the SELECT SQL (no placeholder) and read its first row's N integer columns
 * into OUT; a NULL or missing row is an error.  0 or an exit status. */
int db_select_ints(db_t *db, const char *sql, int n, long *out);

/* The schema version of the database into *VERSION: 1 when it has no table
 * schema_version (the first release), else the table's one row.  0 or an exit
 * status. */
int db_schema_version(db_t *db, int *version);

/* Prepare statement Q, one of those not prepared at open (since > 0), unless it is
 * already.  On a database whose schema version is older than the statement's table,
 * say that the schema is too old for COMMAND (WHAT: the table, for the message) and
 * to run upgrade.  0 or an exit status. */
int db_prepare_since(db_t *db, rk_admin_query_id q, const char *command, const char *what);

/* Read the file PATH ("-": standard input) into *BUF, *LEN (NUL-terminated, in P);
 * a file the command's user may not read: say to give it on standard input.  0 or
 * an exit status. */
int admin_read_input(struct apr_pool_t *p, const char *path, char **buf, size_t *len);

/* ------------------------------------------------------------------ admin_password.c */

#define HASH_BUF 128

/* Read the new password of USER (on a terminal: asked twice without echo, both must
 * match; otherwise one line of standard input; never empty) and hash it with bcrypt
 * at COST into HASH (HASH_BUF bytes).  The password is wiped before returning.  0 or
 * an exit status. */
int new_password_hash(struct apr_pool_t *pool, const char *user, int cost, char *hash);

/* Clear N bytes at P that held a secret. */
void wipe(void *p, size_t n);

/* ------------------------------------------------------------------ the commands */

typedef struct {
    const char *driver;
    const char *params;
    int cost;
    const char *role;           /* add --role */
    const char *before;         /* history prune --before, as given */
    const char *competition;    /* history prune, grant, revoke-grant --competition */
    char before_ts[21];         /* --before as 'YYYY-MM-DDTHH:MM:SSZ' */
    char competition_id[21];    /* --competition as a decimal without leading zeros */
    const struct admin_command *cmd;
    const char *arg[2];         /* the command's operands (after its words) */
    int nargs;
    char arg_id[21];            /* CMD_COMPETITION: the first operand, an id */
    int replace;                /* import, generate-heats --replace */
    int dry_run;                /* generate-heats --dry-run */
    const char *gen_opt[32];    /* generate-heats: its options with a value, in order
                                 * (each as given: the name ends at "=" or the end) */
    const char *gen_val[32];
    int ngen;
    int force;                  /* import --force */
} opts_t;

/* Each command: 0 or an exit status. */
typedef int admin_run_fn(db_t *db, const opts_t *o);

/* admin_users.c */
admin_run_fn cmd_add, cmd_passwd, cmd_role, cmd_disable, cmd_enable, cmd_delete,
             cmd_list, cmd_revoke, cmd_purge;
/* admin_grants.c */
admin_run_fn cmd_grant, cmd_revoke_grant;
/* admin_schema.c */
admin_run_fn cmd_init, cmd_upgrade, cmd_history_prune;
/* admin_data.c, admin_results.c */
admin_run_fn cmd_export, cmd_import, cmd_import_spots, cmd_export_results;
/* admin_heats.c */
admin_run_fn cmd_generate_heats;

/* admin_results.c: rank competition CID (the full view) into *LB (free with
 * rk_leaderboard_free; it points into rows kept in DB's pool).  0, or an exit status
 * (EXIT_USER: no such competition, said). */
struct rk_leaderboard;
int admin_rank(db_t *db, const char *cid, struct rk_leaderboard **lb);

/* Before a command other than upgrade: a note on stderr when the schema is not the
 * one this command knows (admin_schema.c). */
void schema_note(db_t *db);

/* ------------------------------------------------------------------ admin_grants.c */

/* The grants of every user into *OUT (in DB's pool): user name -> "C:ROLE,C:ROLE"
 * (competitions in order); empty on a database older than schema version 3.  0 or
 * an exit status. */
int grants_by_user(db_t *db, struct apr_hash_t **out);

/* Refuse the role ROLE "organizer" on a database older than schema version 3 (its
 * CHECK would refuse it) for COMMAND, saying to upgrade.  0 or an exit status. */
int need_organizer_schema(db_t *db, const char *role, const char *command);

/* ------------------------------------------------------------------ admin_help.c */

extern const char admin_usage_text[], admin_help_text[];

/* ------------------------------------------------------------------ admin_data.c */

/* Run the SELECT SQL (prepared once per text) with NARGS ARGS; each row's NCOLS
 * values (copied, NULL kept) pushed onto OUT as a const char ** row.  0 or an exit
 * status. */
int data_select(db_t *db, const char *sql, int nargs, const char **args, int ncols,
                struct apr_array_header_t *out);

/* Run the statement SQL with NARGS ARGS (NULL: SQL NULL); *NROWS (unless NULL) the
 * rows it changed.  0 or an exit status. */
int data_run_n(db_t *db, const char *sql, int nargs, const char **args, int *nrows);

/* Refuse a database older than schema version VERSION for COMMAND, saying to
 * upgrade (export, import and import-spots: 3, the columns of their documents).
 * 0 or an exit status. */
int need_version(db_t *db, const char *command, int version);

/* Say that there is no competition CID; returns EXIT_USER. */
int no_competition(const char *cid);

#endif
