/* upgrade_sql.h: the schema upgrade steps, and the schemas, embedded in ranking-admin.
 *
 * upgrade_sql.c is generated at build time by tools/embed-sql.sh from the scripts
 * sql/upgrade/<backend>/<NNN>.sql (Makefile.am), so that the installed command
 * needs no file of the source tree.  Step N brings a database from schema version
 * N - 1 to N; steps run in order, all of them in one transaction; each ends by
 * recording its version in table schema_version (which step 2 creates: a database
 * without that table is version 1). */
#ifndef UPGRADE_SQL_H
#define UPGRADE_SQL_H

typedef struct {
    const char *driver;             /* apr_dbd driver: "sqlite3" or "pgsql" */
    int version;                    /* the version the step brings the database to */
    const char *script;             /* its source, "sql/upgrade/sqlite/002.sql" */
    int nstatements;
    const char *const *statements;  /* one statement each, NULL after the last */
} upgrade_step;

/* every step of both back ends, by back end, then version */
extern const upgrade_step upgrade_steps[];
extern const int upgrade_step_count;
/* the version the last step reaches: RK_SCHEMA_VERSION (checked at compile time) */
extern const int upgrade_latest;

/* sql/schema.sql and sql/schema-pg.sql (version upgrade_latest), one statement
 * each, NULL after the last: what "ranking-admin init" applies */
extern const char *const schema_sqlite[];
extern const char *const schema_pgsql[];

#endif
