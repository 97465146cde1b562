/* admin_sql.h: the SQL text of the statements of the administration command
 * ranking-admin (tools/ranking-admin.c).  Pure C, no httpd header.
 *
 * Statements are portable (SQLite and PostgreSQL) and prepared with apr_dbd under
 * the labels below; placeholders are apr_dbd's: %s (a string, "varchar" to
 * PostgreSQL) and %lld (a 64-bit integer, "bigint" to PostgreSQL).  Values are
 * always passed as strings (apr_dbd_pvquery / apr_dbd_pvselect).  Times are Unix
 * seconds, as in the module (token.expires_at), except in the change log
 * (lane_history.changed_at: ISO 8601 UTC text, 'YYYY-MM-DDTHH:MM:SSZ').  What the
 * module and the command must agree on (the purge statement, the user-name limit,
 * the SQLite connection setup, the schema version) comes from lib/rk_sql.h. */
#ifndef ADMIN_SQL_H
#define ADMIN_SQL_H

typedef enum {
    /* schema check: selects every column the command uses, returns no row.  Its
     * preparation fails when the tables (or a column) are missing. */
    RK_A_PROBE = 0,
    RK_A_ACCOUNT_FIND,      /* name -> id, role, enabled */
    RK_A_ACCOUNT_INSERT,    /* name, password_hash, role, created_at */
    RK_A_ACCOUNT_PASSWORD,  /* password_hash, name */
    RK_A_ACCOUNT_ROLE,      /* role, name */
    RK_A_ACCOUNT_DISABLE,   /* name */
    RK_A_ACCOUNT_ENABLE,    /* name */
    RK_A_ACCOUNT_DELETE,    /* name */
    RK_A_TOKEN_REVOKE,      /* name: every token of that account */
    RK_A_TOKEN_PURGE,       /* now: tokens with expires_at <= now */
    RK_A_ACCOUNT_LIST,      /* now -> name, role, enabled, live tokens, the first 7
                             * characters of the hash ("$2y$10$": its cost); by name */
    /* prepared by `history prune` only */
    RK_A_HISTORY_PRUNE,     /* before: change records with changed_at < before */
    RK_A_HISTORY_PRUNE_COMPETITION, /* competition id, before: the same, of one
                                     * competition */
    RK_A_REVISION_DATA,     /* move the data revision on (the servers' cached
                             * answers and ETags change) */
    /* prepared by the commands of grants (schema version 3) */
    RK_A_COMPETITION_FIND,  /* competition id -> id */
    RK_A_GRANT_FIND,        /* name, competition id -> role */
    RK_A_GRANT_INSERT,      /* competition id, role, name */
    RK_A_GRANT_UPDATE,      /* role, competition id, name */
    RK_A_GRANT_DELETE,      /* competition id, name */
    RK_A_GRANT_LIST,        /* -> name, competition id, role; by name, competition */
    RK_A_COUNT
} rk_admin_query_id;

typedef struct {
    const char *label;  /* [a-z0-9_], unique, prefixed "ranking_admin_" */
    const char *sql;
    int nargs;          /* number of placeholders */
    /* 0: prepared when the database is opened (the probe checks its tables).
     * Else the schema version that brought its table (1: every version), and it
     * is prepared by the command that runs it only, so that the other commands
     * work on an older database that lacks the table. */
    int since;
} rk_admin_query;

extern const rk_admin_query rk_admin_queries[RK_A_COUNT];

#endif
