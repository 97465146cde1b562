/* ranking-admin: create the database of mod_ranking (init); manage its API users
 * and their bearer tokens; upgrade its schema; prune the lanes' change log; export
 * and import competitions, import teams, export results.  See tools/ranking-admin.8
 * (exit status: 0 done, 1 usage error or refused input, 2 not found or already
 * there, 3 database or system error).
 *
 * This file: main, the arguments and the command table; the commands are in the
 * files admin.h lists.  Passwords come from standard input only, never from the
 * command line; neither a password nor a hash is ever printed. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_pools.h>

#include "admin.h"
#include "admin_values.h"
#include "rk_sql.h"
#include "rk_token.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

int admin_usage_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    admin_verr(fmt, ap);
    va_end(ap);
    fputs(admin_usage_text, stderr);
    fputs("Try '" PROG " --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* ------------------------------------------------------------------ the command table */

/* What a command's operands are and what it does first. */
enum {
    CMD_USER = 1 << 0,          /* its first operand is a user name */
    CMD_ROLE = 1 << 1,          /* its second operand is a role */
    CMD_PASSWORD = 1 << 2,      /* it reads a password */
    CMD_NOTE_SCHEMA = 1 << 3,   /* first say on stderr when the schema is not current */
    CMD_CREATE = 1 << 4,        /* it creates the database: nothing is opened before */
    CMD_COMPETITION = 1 << 5,   /* its first operand is a competition id */
    CMD_GRANT = 1 << 6          /* its role (second operand) is a grant's */
};

/* The options that belong to some commands only (the others go with every one). */
enum {
    OPT_ROLE = 1 << 0,          /* --role */
    OPT_BEFORE = 1 << 1,        /* --before */
    OPT_COMPETITION = 1 << 2,   /* --competition */
    OPT_REPLACE = 1 << 3,       /* --replace */
    OPT_FORCE = 1 << 4          /* --force */
};

/* A command is one word, or two ("history prune"): then NAME is the first and
 * SUB the second, which the parser takes as part of the name, not as an operand;
 * several entries may share a NAME with different SUBs. */
typedef struct admin_command command;

struct admin_command {
    const char *name;
    const char *sub;            /* the second word, or NULL */
    const char *operands;       /* what follows the words, for messages */
    int nargs;                  /* operands, after the words */
    unsigned flags;             /* CMD_* */
    unsigned options;           /* OPT_*: the options it accepts */
    unsigned required;          /* OPT_*: those it needs */
    admin_run_fn *run;
};

static const command commands[] = {
    { "add", NULL, "USER [--role reader|editor|organizer]", 1,
      CMD_USER | CMD_PASSWORD | CMD_NOTE_SCHEMA, OPT_ROLE, 0, cmd_add },
    { "passwd", NULL, "USER", 1, CMD_USER | CMD_PASSWORD | CMD_NOTE_SCHEMA, 0, 0, cmd_passwd },
    { "role", NULL, "USER reader|editor|organizer", 2, CMD_USER | CMD_ROLE | CMD_NOTE_SCHEMA,
      0, 0, cmd_role },
    { "grant", NULL, "USER editor|organizer --competition ID", 2,
      CMD_USER | CMD_ROLE | CMD_GRANT, OPT_COMPETITION, OPT_COMPETITION, cmd_grant },
    { "revoke-grant", NULL, "USER --competition ID", 1, CMD_USER, OPT_COMPETITION,
      OPT_COMPETITION, cmd_revoke_grant },
    { "disable", NULL, "USER", 1, CMD_USER | CMD_NOTE_SCHEMA, 0, 0, cmd_disable },
    { "enable", NULL, "USER", 1, CMD_USER | CMD_NOTE_SCHEMA, 0, 0, cmd_enable },
    { "delete", NULL, "USER", 1, CMD_USER | CMD_NOTE_SCHEMA, 0, 0, cmd_delete },
    { "list", NULL, "", 0, CMD_NOTE_SCHEMA, 0, 0, cmd_list },
    { "revoke", NULL, "USER", 1, CMD_USER | CMD_NOTE_SCHEMA, 0, 0, cmd_revoke },
    { "purge", NULL, "", 0, CMD_NOTE_SCHEMA, 0, 0, cmd_purge },
    { "upgrade", NULL, "", 0, 0, 0, 0, cmd_upgrade },
    { "init", NULL, "", 0, CMD_CREATE, 0, 0, cmd_init },
    /* no schema note: on a database too old for it, the command fails saying so */
    { "history", "prune", "--before DATE [--competition ID]", 0, 0,
      OPT_BEFORE | OPT_COMPETITION, OPT_BEFORE, cmd_history_prune },
    /* competitions in and out */
    { "export", NULL, "COMPETITION_ID", 1, CMD_COMPETITION, 0, 0, cmd_export },
    { "import", NULL, "FILE|- [--replace] [--force]", 1, 0, OPT_REPLACE | OPT_FORCE, 0,
      cmd_import },
    { "import-spots", NULL, "COMPETITION_ID FILE.csv|-", 2, CMD_COMPETITION, 0, 0,
      cmd_import_spots },
    { "export-results", NULL, "COMPETITION_ID", 1, CMD_COMPETITION, 0, 0, cmd_export_results },
    { "generate-heats", NULL, "COMPETITION_ID WOD_ID --zone ID [options]", 2, CMD_COMPETITION,
      OPT_REPLACE, 0, cmd_generate_heats },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* ------------------------------------------------------------------ arguments */

/* "NAME [SUB] OPERANDS" of command C into BUF, for messages. */
static const char *command_usage(const command *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s%s%s", c->name, c->sub ? " " : "", c->sub ? c->sub : "",
             *c->operands ? " " : "", c->operands);
    return buf;
}

/* The command that the operands POS (NPOS of them, NPOS >= 1) start with, into
 * *FOUND.  Returns -1 when found, else a usage error: an unknown command, or the
 * first word of two-word commands without a known second word. */
static int find_command(const char *const *pos, int npos, const command **found)
{
    char usage[512] = "", buf[128];
    size_t i, len = 0;

    for (i = 0; i < NCOMMANDS; i++) {
        const command *c = &commands[i];

        if (strcmp(c->name, pos[0]) != 0) {
            continue;
        }
        if (!c->sub || (npos > 1 && strcmp(c->sub, pos[1]) == 0)) {
            *found = c;
            return -1;
        }
        if (len < sizeof(usage)) {  /* the usages of the family, for the message */
            int w = snprintf(usage + len, sizeof(usage) - len, "%s%s", len ? " | " : "",
                             command_usage(c, buf, sizeof(buf)));

            len += w > 0 ? (size_t)w : 0;
        }
    }
    if (!len) {
        return admin_usage_error("unknown command '%s'", pos[0]);
    }
    if (npos < 2) {
        return admin_usage_error("'%s' needs a subcommand; usage: %s", pos[0], usage);
    }
    return admin_usage_error("unknown command '%s %s'; usage: %s", pos[0], pos[1], usage);
}

/* ------------------------------------------------------------------ arguments */

/* Parse S, a competition id (a positive 64-bit integer in decimal, as the API
 * shows it), into OUT as digits without leading zeros.  1 when it is one. */
static int parse_id(const char *s, char out[21])
{
    const char *d = admin_id_digits(s);

    return d && memcpy(out, d, strlen(d) + 1);
}

/* The words of the command line, before they are checked. */
typedef struct {
    const char *pos[8];         /* the operands: the command's words, then its own */
    int npos;
    const char *cost;           /* --cost */
    int help, version;
} words_t;

/* The options of generate-heats that take a value (A, the option's first LEN bytes). */
static int gen_option(const char *a, size_t len)
{
    static const char *const names[] = { "--zone", "--lanes", "--order", "--lane-order", "--top",
                                         "--start-time", "--interval", "--seed", "--division" };
    size_t i;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strlen(names[i]) == len && strncmp(a, names[i], len) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Read the options of ARGV into O and W (they may come before or after the command),
 * its other words into W.  -1 to go on, or an exit status (a usage error). */
static int read_options(int argc, const char *const *argv, opts_t *o, words_t *w)
{
    int i, ends = 0;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        size_t len;

        if (ends || a[0] != '-' || a[1] == '\0') {
            if (w->npos < (int)(sizeof(w->pos) / sizeof(w->pos[0]))) {
                w->pos[w->npos] = a;
            }
            w->npos++;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            ends = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            w->help = 1;
            continue;
        }
        if (strcmp(a, "--version") == 0) {
            w->version = 1;
            continue;
        }
        if (strcmp(a, "--replace") == 0 || strcmp(a, "--force") == 0) {
            *(a[2] == 'r' ? &o->replace : &o->force) = 1;
            continue;
        }
        if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
            continue;
        }
        len = strcspn(a, "=");
        if (gen_option(a, len)) {
            if (o->ngen == (int)(sizeof(o->gen_opt) / sizeof(o->gen_opt[0]))) {
                return admin_usage_error("too many options");
            }
            o->gen_opt[o->ngen] = a;   /* the name: up to "=" */
            slot = &o->gen_val[o->ngen++];
        }
        else if (len == 8 && strncmp(a, "--driver", len) == 0) {
            slot = &o->driver;
        }
        else if (len == 8 && strncmp(a, "--params", len) == 0) {
            slot = &o->params;
        }
        else if (len == 6 && strncmp(a, "--cost", len) == 0) {
            slot = &w->cost;
        }
        else if (len == 6 && strncmp(a, "--role", len) == 0) {
            slot = &o->role;
        }
        else if (len == 8 && strncmp(a, "--before", len) == 0) {
            slot = &o->before;
        }
        else if (len == 13 && strncmp(a, "--competition", len) == 0) {
            slot = &o->competition;
        }
        else if (strncmp(a, "--pass", 6) == 0 || strncmp(a, "-p", 2) == 0) {
            return admin_usage_error("passwords are read from standard input, never from "
                                     "the command line");
        }
        else {
            return admin_usage_error("unknown option '%.*s'", (int)len, a);
        }
        if (a[len] == '=') {
            *slot = a + len + 1;
        }
        else if (i + 1 < argc) {
            *slot = argv[++i];
        }
        else {
            return admin_usage_error("option '%s' needs a value", a);
        }
    }
    return -1;
}

/* The command of W into O, with its operands: their number, and the options that go
 * with it.  -1 to go on, or an exit status (a usage error). */
static int read_command(const words_t *w, opts_t *o)
{
    const command *c = NULL;
    char usage[128];
    int i, rc, words;

    if ((rc = find_command(w->pos, w->npos, &c)) >= 0) {
        return rc;
    }
    o->cmd = c;
    words = c->sub ? 2 : 1;
    command_usage(c, usage, sizeof(usage));
    if (w->npos - words > c->nargs) {
        if (c->flags & CMD_PASSWORD) {
            return admin_usage_error("too many arguments to '%s': passwords are read from "
                                     "standard input, never from the command line", c->name);
        }
        return admin_usage_error("too many arguments; usage: %s", usage);
    }
    if (w->npos - words < c->nargs) {
        return admin_usage_error("missing argument; usage: %s", usage);
    }
    o->nargs = w->npos - words;
    for (i = 0; i < o->nargs; i++) {
        o->arg[i] = w->pos[i + words];
    }
    if (o->role && !(c->options & OPT_ROLE)) {
        return admin_usage_error("--role goes with 'add' only (use: role USER "
                                 "reader|editor|organizer)");
    }
    if (o->before && !(c->options & OPT_BEFORE)) {
        return admin_usage_error("--before goes with 'history prune' only");
    }
    if (o->competition && !(c->options & OPT_COMPETITION)) {
        return admin_usage_error("--competition goes with 'history prune', 'grant' and "
                                 "'revoke-grant' only");
    }
    if ((o->replace || o->force) && !(c->options & OPT_REPLACE)) {
        return admin_usage_error("%s goes with 'import'%s only", o->replace ? "--replace" : "--force",
                                 o->replace ? " and 'generate-heats'" : "");
    }
    if ((o->ngen || o->dry_run) && c->run != cmd_generate_heats) {
        return admin_usage_error("%s goes with 'generate-heats' only",
                                 o->ngen ? o->gen_opt[0] : "--dry-run");
    }
    if ((c->flags & CMD_COMPETITION) && !parse_id(o->arg[0], o->arg_id)) {
        return admin_usage_error("invalid competition id '%s': a whole number from 1 to "
                                 "9223372036854775807", o->arg[0]);
    }
    if ((c->required & OPT_BEFORE) && !o->before) {
        return admin_usage_error("missing --before DATE; usage: %s", usage);
    }
    if ((c->required & OPT_COMPETITION) && !o->competition) {
        return admin_usage_error("missing --competition ID; usage: %s", usage);
    }
    return -1;
}

/* The bcrypt cost of new hashes into O: --cost (COST), else RANKING_PASSWORD_COST,
 * else the server's default.  -1 to go on, or an exit status (a usage error). */
static int read_cost(const char *cost, opts_t *o)
{
    const char *env = getenv("RANKING_PASSWORD_COST");
    const char *text = cost ? cost : env;
    char *end;
    long v;

    o->cost = RK_PASSWORD_COST_DEFAULT;     /* RankingPasswordCost's default */
    if (!cost && !(env && *env)) {
        return -1;
    }
    errno = 0;
    v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < RK_PASSWORD_COST_MIN || v > RK_PASSWORD_COST_MAX) {
        return admin_usage_error("%s must be a number from %d to %d (RankingPasswordCost)",
                                 cost ? "--cost" : "RANKING_PASSWORD_COST",
                                 RK_PASSWORD_COST_MIN, RK_PASSWORD_COST_MAX);
    }
    o->cost = (int)v;
    return -1;
}

/* The values of the options and operands in O, once the command is known.  -1 to
 * go on, or an exit status (a usage error). */
static int check_values(opts_t *o)
{
    if (o->role && !admin_role_ok(o->role)) {
        return admin_usage_error("the role must be 'reader', 'editor' or 'organizer'");
    }
    if ((o->cmd->flags & CMD_GRANT) && !admin_grant_role_ok(o->arg[1])) {
        return admin_usage_error("a grant's role must be 'editor' or 'organizer' (every "
                                 "user reads every competition)");
    }
    if ((o->cmd->flags & CMD_ROLE) && !(o->cmd->flags & CMD_GRANT)
        && !admin_role_ok(o->arg[1])) {
        return admin_usage_error("the role must be 'reader', 'editor' or 'organizer'");
    }
    if (o->before) {
        char why[64];
        const char *bad = admin_when_check(o->before, why, sizeof(why));

        if (bad) {
            return admin_usage_error("invalid --before '%s': %s", o->before, bad);
        }
        /* as 'YYYY-MM-DDTHH:MM:SSZ': a date alone is midnight */
        memcpy(o->before_ts, o->before, 10);
        memcpy(o->before_ts + 10, strlen(o->before) == 20 ? o->before + 10 : "T00:00:00Z",
               11);  /* with the NUL */
    }
    if (o->competition && !parse_id(o->competition, o->competition_id)) {
        return admin_usage_error("invalid --competition '%s': a competition id is a whole "
                                 "number from 1 to 9223372036854775807", o->competition);
    }
    if ((o->cmd->flags & CMD_USER) && !admin_user_name_ok(o->arg[0])) {
        return admin_usage_error("invalid user name: 1 to %d printable ASCII characters, no "
                                 "space and no ':'", RK_USER_NAME_MAX);
    }
    return -1;
}

/* Parse ARGV into O.  Returns -1 to go on, or an exit status (--help, --version,
 * usage errors). */
static int parse(int argc, const char *const *argv, opts_t *o)
{
    const char *env;
    words_t w;
    int rc;

    memset(o, 0, sizeof(*o));
    memset(&w, 0, sizeof(w));
    env = getenv("RANKING_DBD_DRIVER");
    o->driver = env && *env ? env : "sqlite3";
    env = getenv("RANKING_DBD_PARAMS");
    o->params = env && *env ? env : NULL;
    if ((rc = read_options(argc, argv, o, &w)) >= 0) {
        return rc;
    }
    if (w.help) {
        fputs(admin_usage_text, stdout);
        fputs(admin_help_text, stdout);
        return EXIT_DONE;
    }
    if (w.version) {
        printf(PROG " (mod_ranking) %s\n", PACKAGE_VERSION);
        return EXIT_DONE;
    }
    if (w.npos == 0) {
        return admin_usage_error("no command");
    }
    if ((rc = read_command(&w, o)) >= 0 || (rc = check_values(o)) >= 0
        || (rc = read_cost(w.cost, o)) >= 0) {
        return rc;
    }
    if (strcmp(o->driver, "sqlite3") != 0 && strcmp(o->driver, "pgsql") != 0) {
        return admin_usage_error("unsupported driver '%s' (sqlite3 or pgsql)", o->driver);
    }
    if (!o->params || !*o->params) {
        return admin_usage_error("no database: give --params or set RANKING_DBD_PARAMS");
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
        admin_err("cannot initialize APR");
        return EXIT_DB;
    }
    atexit(apr_terminate);
    if (apr_pool_create(&pool, NULL) != APR_SUCCESS) {
        admin_err("out of memory");
        return EXIT_DB;
    }

    memset(&db, 0, sizeof(db));
    db.pool = pool;
    rc = (o.cmd->flags & CMD_CREATE) ? o.cmd->run(&db, &o)
         : db_open(&db, pool, o.driver, o.params);
    if (rc == 0 && !(o.cmd->flags & CMD_CREATE)) {
        if (o.cmd->flags & CMD_NOTE_SCHEMA) {
            schema_note(&db);
        }
        rc = o.cmd->run(&db, &o);
    }
    db_close(&db);
    if (fflush(stdout) != 0 && rc == 0) {
        admin_err("cannot write the output: %s", strerror(errno));
        rc = EXIT_DB;
    }
    apr_pool_destroy(pool);
    return rc;
}
