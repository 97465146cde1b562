/* admin_sql.c: the statements of ranking-admin.  Portable SQL (SQLite and
 * PostgreSQL); see admin_sql.h.
 *
 * A token is live while expires_at > now and expired once expires_at <= now: the
 * same bounds as the module's token lookup, and the purge is the module's own
 * statement (RK_SQL_TOKEN_PURGE).  Tokens are deleted explicitly before their
 * account: ON DELETE CASCADE works on SQLite only with PRAGMA foreign_keys=ON,
 * which another client may not have set.
 *
 * The change log (lane_history) is pruned by time compared as text: changed_at is
 * always the fixed-width 'YYYY-MM-DDTHH:MM:SSZ' (the module writes it so, and the
 * command normalizes its bound to that form), and such strings sort in time order
 * under any collation, bytewise (SQLite's BINARY, PostgreSQL's "C") or a locale's,
 * since digits weigh in their numeric order and the punctuation sits at the same
 * places in every value.  No foreign key: the records of a deleted competition are
 * pruned like any other.  The module caches its answers (a lane's history too) per
 * data revision, which no trigger moves on a prune: the command does it, in the
 * prune's transaction. */
#include "admin_sql.h"
#include "rk_sql.h"

const rk_admin_query rk_admin_queries[RK_A_COUNT] = {
    [RK_A_PROBE] = { "ranking_admin_probe",
        "SELECT a.id, a.name, a.password_hash, a.role, a.enabled, a.created_at,"
        " t.hash, t.account_id, t.created_at, t.expires_at"
        " FROM account a JOIN token t ON t.account_id = a.id WHERE 1 = 0", 0, 0 },

    [RK_A_ACCOUNT_FIND] = { "ranking_admin_account_find",
        "SELECT id, role, enabled FROM account WHERE name = %s", 1, 0 },
    /* CAST: the value is bound as text on SQLite; store an integer */
    [RK_A_ACCOUNT_INSERT] = { "ranking_admin_account_insert",
        "INSERT INTO account (name, password_hash, role, enabled, created_at)"
        " VALUES (%s, %s, %s, 1, CAST(%lld AS BIGINT))", 4, 0 },
    [RK_A_ACCOUNT_PASSWORD] = { "ranking_admin_account_password",
        "UPDATE account SET password_hash = %s WHERE name = %s", 2, 0 },
    [RK_A_ACCOUNT_ROLE] = { "ranking_admin_account_role",
        "UPDATE account SET role = %s WHERE name = %s", 2, 0 },
    [RK_A_ACCOUNT_DISABLE] = { "ranking_admin_account_disable",
        "UPDATE account SET enabled = 0 WHERE name = %s", 1, 0 },
    [RK_A_ACCOUNT_ENABLE] = { "ranking_admin_account_enable",
        "UPDATE account SET enabled = 1 WHERE name = %s", 1, 0 },
    [RK_A_ACCOUNT_DELETE] = { "ranking_admin_account_delete",
        "DELETE FROM account WHERE name = %s", 1, 0 },

    [RK_A_TOKEN_REVOKE] = { "ranking_admin_token_revoke",
        "DELETE FROM token WHERE account_id IN (SELECT id FROM account WHERE name = %s)", 1, 0 },
    [RK_A_TOKEN_PURGE] = { "ranking_admin_token_purge", RK_SQL_TOKEN_PURGE, 1, 0 },

    [RK_A_ACCOUNT_LIST] = { "ranking_admin_account_list",
        "SELECT a.name, a.role, a.enabled,"
        " (SELECT COUNT(*) FROM token t WHERE t.account_id = a.id AND t.expires_at > %lld),"
        " SUBSTR(a.password_hash, 1, 7)"
        " FROM account a ORDER BY a.name, a.id", 1, 0 },

    [RK_A_HISTORY_PRUNE] = { "ranking_admin_history_prune",
        "DELETE FROM lane_history WHERE changed_at < %s", 1, 2 },
    [RK_A_HISTORY_PRUNE_COMPETITION] = { "ranking_admin_history_prune_competition",
        "DELETE FROM lane_history WHERE competition_id = %lld AND changed_at < %s", 2, 2 },
    [RK_A_REVISION_DATA] = { "ranking_admin_revision_data",
        "UPDATE revision SET data = data + 1 WHERE id = 1", 0, 1 },

    /* grants: every insert, update and delete of account_grant moves revision.auth
     * (the schema's triggers), so the servers' cached roles follow at once */
    [RK_A_COMPETITION_FIND] = { "ranking_admin_competition_find",
        "SELECT id FROM competition WHERE id = %lld", 1, 1 },
    [RK_A_GRANT_FIND] = { "ranking_admin_grant_find",
        "SELECT g.role FROM account_grant g JOIN account a ON a.id = g.account_id"
        " WHERE a.name = %s AND g.competition_id = %lld", 2, 3 },
    [RK_A_GRANT_INSERT] = { "ranking_admin_grant_insert",
        "INSERT INTO account_grant (account_id, competition_id, role)"
        " SELECT id, %lld, %s FROM account WHERE name = %s", 3, 3 },
    [RK_A_GRANT_UPDATE] = { "ranking_admin_grant_update",
        "UPDATE account_grant SET role = %s WHERE competition_id = %lld"
        " AND account_id IN (SELECT id FROM account WHERE name = %s)", 3, 3 },
    [RK_A_GRANT_DELETE] = { "ranking_admin_grant_delete",
        "DELETE FROM account_grant WHERE competition_id = %lld"
        " AND account_id IN (SELECT id FROM account WHERE name = %s)", 2, 3 },
    [RK_A_GRANT_LIST] = { "ranking_admin_grant_list",
        "SELECT a.name, g.competition_id, g.role FROM account_grant g"
        " JOIN account a ON a.id = g.account_id ORDER BY a.name, a.id, g.competition_id",
        0, 3 },
};
