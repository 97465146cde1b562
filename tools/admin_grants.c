/* admin_grants.c: roles per competition (API.md part 3, "Roles"; schema version 3,
 * table account_grant): grant, revoke-grant, and the grants that list shows.  A
 * user's role on a competition is the higher of its server-wide role and its grant
 * there.  Every insert, update or delete of a grant moves revision.auth (the
 * schema's triggers), so the servers apply it to the user's tokens at once. */
#include <stdio.h>
#include <string.h>

#include <apr_dbd.h>
#include <apr_hash.h>
#include <apr_strings.h>

#include "admin.h"

/* Prepare the statements of grants (schema version 3), for COMMAND.  0 or an exit
 * status. */
static int prepare_grants(db_t *db, const char *command)
{
    static const rk_admin_query_id q[] = {
        RK_A_COMPETITION_FIND, RK_A_ACCOUNT_FIND, RK_A_GRANT_FIND, RK_A_GRANT_INSERT,
        RK_A_GRANT_UPDATE, RK_A_GRANT_DELETE
    };
    size_t i;
    int rc = 0;

    for (i = 0; rc == 0 && i < sizeof(q) / sizeof(q[0]); i++) {
        if (q[i] != RK_A_ACCOUNT_FIND) {
            rc = db_prepare_since(db, q[i], command, "the table account_grant");
        }
    }
    return rc;
}

/* The first column of the first row of statement Q run with NARGS ARGS, copied, into
 * *OUT (NULL: no row).  0 or an exit status. */
static int select_one(db_t *db, rk_admin_query_id q, int nargs, const char **args,
                      const char **out)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int r;

    *out = NULL;
    r = apr_dbd_pselect(db->driver, db->pool, db->handle, &res, db->stmt[q], 0, nargs, args);
    if (r != 0) {
        return db_fail(db, r, rk_admin_queries[q].label);
    }
    while (apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0) {
        const char *v = apr_dbd_get_entry(db->driver, row, 0);

        if (!*out) {
            *out = apr_pstrdup(db->pool, v ? v : "");
        }
    }
    return 0;
}

/* The user O->arg[0] and the competition --competition must exist; *ROLE: the user's
 * grant there (NULL: none).  0 or an exit status after a message. */
static int grant_subjects(db_t *db, const opts_t *o, const char **role)
{
    const char *user = o->arg[0], *cid = o->competition_id, *v;
    int rc = select_one(db, RK_A_ACCOUNT_FIND, 1, &user, &v);

    if (rc == 0 && !v) {
        admin_err("no user '%s'", user);
        return EXIT_USER;
    }
    if (rc == 0) {
        rc = select_one(db, RK_A_COMPETITION_FIND, 1, &cid, &v);
    }
    if (rc == 0 && !v) {
        return no_competition(cid);
    }
    if (rc == 0) {
        rc = select_one(db, RK_A_GRANT_FIND, 2, (const char *[]){ user, cid }, role);
    }
    return rc;
}

int cmd_grant(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0], *role = o->arg[1], *cid = o->competition_id;
    const char *had = NULL;
    int rc, n = 0;

    if ((rc = prepare_grants(db, "grant")) != 0 || (rc = db_begin(db)) != 0) {
        return rc;
    }
    rc = grant_subjects(db, o, &had);
    if (rc == 0 && !had) {
        rc = apr_dbd_pvquery(db->driver, db->pool, db->handle, &n,
                             db->stmt[RK_A_GRANT_INSERT], cid, role, user);
        rc = rc == 0 ? 0 : db_fail(db, rc, "adding the grant");
    }
    else if (rc == 0 && strcmp(had, role) != 0) {
        rc = apr_dbd_pvquery(db->driver, db->pool, db->handle, &n,
                             db->stmt[RK_A_GRANT_UPDATE], role, cid, user);
        rc = rc == 0 ? 0 : db_fail(db, rc, "changing the grant");
    }
    rc = db_end(db, rc);
    if (rc == 0 && had && strcmp(had, role) == 0) {
        printf("%s is already %s on competition %s\n", user, role, cid);
    }
    else if (rc == 0) {
        printf("%s is now %s on competition %s%s%s%s\n", user, role, cid,
               had ? " (was " : "", had ? had : "", had ? ")" : "");
    }
    return rc;
}

int cmd_revoke_grant(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0], *cid = o->competition_id, *had = NULL;
    int rc, n = 0;

    if ((rc = prepare_grants(db, "revoke-grant")) != 0 || (rc = db_begin(db)) != 0) {
        return rc;
    }
    rc = grant_subjects(db, o, &had);
    if (rc == 0 && !had) {
        admin_err("%s has no grant on competition %s", user, cid);
        rc = EXIT_USER;
    }
    if (rc == 0) {
        rc = db_run2(db, RK_A_GRANT_DELETE, &n, cid, user);
    }
    rc = db_end(db, rc);
    if (rc == 0) {
        printf("%s is no longer %s on competition %s\n", user, had, cid);
    }
    return rc;
}

int grants_by_user(db_t *db, apr_hash_t **out)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int rc, r, v = 0;

    *out = apr_hash_make(db->pool);
    if ((rc = db_schema_version(db, &v)) != 0 || v < 3) {
        return rc;  /* before version 3, no grant */
    }
    if ((rc = db_prepare_since(db, RK_A_GRANT_LIST, "list", "the table account_grant")) != 0) {
        return rc;
    }
    r = apr_dbd_pvselect(db->driver, db->pool, db->handle, &res, db->stmt[RK_A_GRANT_LIST], 0);
    if (r != 0) {
        return db_fail(db, r, "listing the grants");
    }
    while (apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0) {
        const char *name = apr_dbd_get_entry(db->driver, row, 0);
        const char *cid = apr_dbd_get_entry(db->driver, row, 1);
        const char *role = apr_dbd_get_entry(db->driver, row, 2);
        const char *had;

        name = apr_pstrdup(db->pool, name ? name : "");
        had = apr_hash_get(*out, name, APR_HASH_KEY_STRING);
        apr_hash_set(*out, name, APR_HASH_KEY_STRING,
                     apr_pstrcat(db->pool, had ? had : "", had ? "," : "", cid ? cid : "",
                                 ":", role ? role : "", NULL));
    }
    return 0;
}

int need_organizer_schema(db_t *db, const char *role, const char *command)
{
    int v = 0, rc;

    if (!role || strcmp(role, "organizer") != 0) {
        return 0;
    }
    if ((rc = db_schema_version(db, &v)) != 0) {
        return rc;
    }
    if (v < 3) {
        admin_err("%s is at schema version %d, too old for '%s': the role 'organizer' came "
                  "with version 3; run '" PROG " upgrade'", db->what, v, command);
        return EXIT_DB;
    }
    return 0;
}
