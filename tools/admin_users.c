/* admin_users.c: the commands on the API's users (table account) and their bearer
 * tokens (table token): add, passwd, role, disable, enable, delete, list, revoke,
 * purge.  The statements are admin_sql.c's; the new passwords admin_password.c's. */
#include <stdio.h>
#include <string.h>

#include <apr_dbd.h>
#include <apr_hash.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <apr_time.h>

#include "admin.h"
#include "rk_token.h"

/* A transaction for a change of users or tokens.  On PostgreSQL the table revision is
 * locked first, as the module's writes do (a login locks the revision row, then reads
 * the account again and stores its token, in one transaction): both take the locks in
 * the same order, so that a passwd, a disable or a delete at the moment of a login
 * waits for it, or it for them, and neither is aborted as a deadlock (this command
 * taking the account's row first, then the revision row in the account's trigger,
 * while the login held the revision row and wanted the account's). */
static int begin_users(db_t *db)
{
    int rc = db_begin(db);

    if (rc != 0 || db->sqlite) {
        return rc;
    }
    if ((rc = db_lock_revision(db)) != 0) {
        rc = db_end(db, rc);   /* rolled back */
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

static const char *now_text(apr_pool_t *p)
{
    return apr_psprintf(p, "%" APR_INT64_T_FMT, (apr_int64_t)apr_time_sec(apr_time_now()));
}

static int not_found(const char *user)
{
    admin_err("no user '%s'", user);
    return EXIT_USER;
}

/* USER must exist (WANT 1), or must not (WANT 0).  0, or an exit status after a
 * message. */
static int user_must(db_t *db, const char *user, int want)
{
    int found, rc = user_exists(db, user, &found);

    if (rc == 0 && found && !want) {
        admin_err("user '%s' already exists", user);
        return EXIT_USER;
    }
    if (rc == 0 && !found && want) {
        return not_found(user);
    }
    return rc;
}

int cmd_add(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    const char *role = o->role ? o->role : "reader";
    char hash[HASH_BUF];
    int rc, n = 0;

    /* before asking for a password */
    if ((rc = need_organizer_schema(db, role, "add --role organizer")) != 0
        || (rc = user_must(db, user, 0)) != 0) {
        return rc;
    }
    if ((rc = new_password_hash(db->pool, user, o->cost, hash)) != 0) {
        return rc;
    }
    if ((rc = begin_users(db)) == 0) {
        rc = user_must(db, user, 0);
        if (rc == 0) {
            int r = apr_dbd_pvquery(db->driver, db->pool, db->handle, &n,
                                    db->stmt[RK_A_ACCOUNT_INSERT], user, hash, role,
                                    now_text(db->pool));

            rc = r == 0 ? 0 : db_fail(db, r, "adding the user");
        }
        rc = db_end(db, rc);
    }
    wipe(hash, sizeof(hash));
    if (rc == 0) {
        printf("added user %s (%s)\n", user, role);
    }
    return rc;
}

int cmd_passwd(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    char hash[HASH_BUF];
    int rc, n = 0, revoked = 0;

    if ((rc = user_must(db, user, 1)) != 0) {
        return rc;
    }
    if ((rc = new_password_hash(db->pool, user, o->cost, hash)) != 0) {
        return rc;
    }
    if ((rc = begin_users(db)) == 0) {
        rc = db_run2(db, RK_A_ACCOUNT_PASSWORD, &n, hash, user);
        if (rc == 0 && n == 0) {
            rc = not_found(user);   /* deleted meanwhile */
        }
        if (rc == 0) {
            rc = db_run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
        }
        rc = db_end(db, rc);
    }
    wipe(hash, sizeof(hash));
    if (rc == 0) {
        printf("changed the password of %s; revoked %d %s\n", user, revoked,
               plural(revoked, "token", "tokens"));
    }
    return rc;
}

int cmd_role(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0], *role = o->arg[1];
    int rc, n = 0;

    if ((rc = need_organizer_schema(db, role, "role USER organizer")) != 0
        || (rc = begin_users(db)) != 0) {
        return rc;
    }
    rc = db_run2(db, RK_A_ACCOUNT_ROLE, &n, role, user);
    if (rc == 0 && n == 0) {
        rc = not_found(user);
    }
    rc = db_end(db, rc);
    if (rc == 0) {
        printf("%s is now %s\n", user, role);
    }
    return rc;
}

static int enable_disable(db_t *db, const opts_t *o, int enable)
{
    const char *user = o->arg[0];
    int rc, n = 0, revoked = 0;

    if ((rc = begin_users(db)) != 0) {
        return rc;
    }
    rc = db_run1(db, enable ? RK_A_ACCOUNT_ENABLE : RK_A_ACCOUNT_DISABLE, &n, user);
    if (rc == 0 && n == 0) {
        rc = not_found(user);
    }
    if (rc == 0 && !enable) {
        rc = db_run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
    }
    rc = db_end(db, rc);
    if (rc == 0 && enable) {
        printf("enabled %s\n", user);
    }
    else if (rc == 0) {
        printf("disabled %s; revoked %d %s\n", user, revoked, plural(revoked, "token", "tokens"));
    }
    return rc;
}

int cmd_disable(db_t *db, const opts_t *o)
{
    return enable_disable(db, o, 0);
}

int cmd_enable(db_t *db, const opts_t *o)
{
    return enable_disable(db, o, 1);
}

int cmd_delete(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    int rc, n = 0, revoked = 0;

    if ((rc = begin_users(db)) != 0) {
        return rc;
    }
    /* tokens first, explicitly: no reliance on ON DELETE CASCADE */
    rc = db_run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
    if (rc == 0) {
        rc = db_run1(db, RK_A_ACCOUNT_DELETE, &n, user);
    }
    if (rc == 0 && n == 0) {
        rc = not_found(user);
    }
    rc = db_end(db, rc);
    if (rc == 0) {
        printf("deleted user %s; revoked %d %s\n", user, revoked,
               plural(revoked, "token", "tokens"));
    }
    return rc;
}

int cmd_revoke(db_t *db, const opts_t *o)
{
    const char *user = o->arg[0];
    int rc, revoked = 0;

    if ((rc = begin_users(db)) != 0) {
        return rc;
    }
    rc = user_must(db, user, 1);
    if (rc == 0) {
        rc = db_run1(db, RK_A_TOKEN_REVOKE, &revoked, user);
    }
    rc = db_end(db, rc);
    if (rc == 0) {
        printf("revoked %d %s of %s\n", revoked, plural(revoked, "token", "tokens"), user);
    }
    return rc;
}

int cmd_purge(db_t *db, const opts_t *o)
{
    int rc, n = 0;

    (void)o;
    rc = db_run1(db, RK_A_TOKEN_PURGE, &n, now_text(db->pool));
    if (rc == 0) {
        printf("purged %d expired %s\n", n, plural(n, "token", "tokens"));
    }
    return rc;
}

typedef struct {
    const char *name, *role, *status, *tokens, *cost, *grants;
} list_row;

static int widest(int w, const char *s)
{
    return (int)strlen(s) > w ? (int)strlen(s) : w;
}

int cmd_list(db_t *db, const opts_t *o)
{
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    apr_array_header_t *rows = apr_array_make(db->pool, 16, sizeof(list_row));
    apr_hash_t *grants = NULL;
    int r, i, wn = 4, wr = 4, ws = 6, wt = 6, wc = 4, other = 0;

    if ((r = grants_by_user(db, &grants)) != 0) {
        return r;
    }
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
        int cost = rk_password_cost(apr_dbd_get_entry(db->driver, row, 4));

        l->name = apr_pstrdup(db->pool, name ? name : "");
        l->role = apr_pstrdup(db->pool, role ? role : "");
        l->status = en && strcmp(en, "0") != 0 ? "enabled" : "disabled";
        l->tokens = apr_pstrdup(db->pool, tok && *tok ? tok : "0");
        /* a hash of another cost: mod_ranking rehashes it at the user's next login */
        l->cost = cost < 0 ? "none*" : apr_psprintf(db->pool, "%d%s", cost,
                                                     cost == o->cost ? "" : "*");
        other += cost != o->cost;
        l->grants = apr_hash_get(grants, l->name, APR_HASH_KEY_STRING);
    }
    for (i = 0; i < rows->nelts; i++) {
        const list_row *l = &APR_ARRAY_IDX(rows, i, list_row);

        wn = widest(wn, l->name);
        wr = widest(wr, l->role);
        ws = widest(ws, l->status);
        wt = widest(wt, l->tokens);
        wc = widest(wc, l->cost);
    }
    /* the column GRANTS ("4:organizer,7:editor", "-" for none) only when some user
     * has a grant: the five columns before it stay as they were for scripts */
    if (apr_hash_count(grants)) {
        printf("%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wn, "NAME", wr, "ROLE", ws, "STATUS",
               wt, "TOKENS", wc, "COST", "GRANTS");
    }
    else {
        printf("%-*s  %-*s  %-*s  %-*s  %s\n", wn, "NAME", wr, "ROLE", ws, "STATUS", wt,
               "TOKENS", "COST");
    }
    for (i = 0; i < rows->nelts; i++) {
        const list_row *l = &APR_ARRAY_IDX(rows, i, list_row);

        if (apr_hash_count(grants)) {
            printf("%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wn, l->name, wr, l->role, ws,
                   l->status, wt, l->tokens, wc, l->cost, l->grants ? l->grants : "-");
        }
        else {
            printf("%-*s  %-*s  %-*s  %-*s  %s\n", wn, l->name, wr, l->role, ws, l->status,
                   wt, l->tokens, l->cost);
        }
    }
    if (other) {
        fprintf(stderr, "%d user%s (*) ha%s a password hash of another bcrypt cost than %d "
                "(--cost, RANKING_PASSWORD_COST): a failed login of such a user can take "
                "longer than others (a lower cost is padded, a higher one is not), which "
                "tells that the user exists; the server rehashes it at the user's next "
                "login (RankingPasswordCost), or set a new password with passwd\n",
                other, other == 1 ? "" : "s", other == 1 ? "s" : "ve", o->cost);
    }
    return 0;
}
