/* rk_sql.c: every statement the module runs.  Portable SQL (SQLite and PostgreSQL).
 *
 * Read statements take the ids of the path in path order.  A list statement starts
 * from the parent row and LEFT JOINs the children: no row at all means the parent
 * (with its own nesting) does not exist (404); one row whose child columns are NULL
 * means an empty list.  Lists with a nullable sort key put NULLs last. */
#include <stdio.h>

#include "rk_sql.h"

#define COMPETITION_COLS "c.id, c.name, c.location, c.start_date, c.end_date, c.timezone, c.status"
#define WOD_COLS   "w.id, w.name, w.description, w.competition_id, w.position, w.scoring, w.time_cap"
#define SPOT_COLS  "s.id, s.competition_id, s.name, s.division, s.affiliate, s.bib"
#define ZONE_COLS  "z.id, z.competition_id, z.name, z.lane_count"
#define HEAT_COLS  "h.id, h.competition_id, h.zone_id, h.wod_id, h.number, h.start_time, h.status"
#define LANE_COLS  "l.id, l.heat_id, l.number, l.spot_id, s.name, l.score"
#define HEAT_ORDER " ORDER BY (h.start_time IS NULL), h.start_time, h.number, h.id"
/* a heat reached through a zone: the zone must be the heat's and of its competition */
#define HEAT_IN_ZONE "heat h JOIN zone z ON z.id = h.zone_id AND z.competition_id = h.competition_id"

const rk_query rk_queries[RK_Q_COUNT] = {
    [RK_Q_COMPETITIONS] = { "ranking_competitions",
        "SELECT " COMPETITION_COLS " FROM competition c"
        " ORDER BY (c.start_date IS NULL), c.start_date, c.id", 0 },
    [RK_Q_COMPETITION] = { "ranking_competition",
        "SELECT " COMPETITION_COLS " FROM competition c WHERE c.id = %lld", 1 },

    [RK_Q_WODS] = { "ranking_wods",
        "SELECT c.id, " WOD_COLS " FROM competition c"
        " LEFT JOIN wod w ON w.competition_id = c.id"
        " WHERE c.id = %lld ORDER BY w.position, w.id", 1 },
    [RK_Q_WOD] = { "ranking_wod",
        "SELECT " WOD_COLS " FROM wod w WHERE w.competition_id = %lld AND w.id = %lld", 2 },

    [RK_Q_SPOTS] = { "ranking_spots",
        "SELECT c.id, " SPOT_COLS " FROM competition c"
        " LEFT JOIN spot s ON s.competition_id = c.id"
        " WHERE c.id = %lld ORDER BY (s.bib IS NULL), s.bib, s.id", 1 },
    [RK_Q_SPOT] = { "ranking_spot",
        "SELECT " SPOT_COLS " FROM spot s WHERE s.competition_id = %lld AND s.id = %lld", 2 },

    [RK_Q_ZONES] = { "ranking_zones",
        "SELECT c.id, " ZONE_COLS " FROM competition c"
        " LEFT JOIN zone z ON z.competition_id = c.id"
        " WHERE c.id = %lld ORDER BY z.id", 1 },
    [RK_Q_ZONE] = { "ranking_zone",
        "SELECT " ZONE_COLS " FROM zone z WHERE z.competition_id = %lld AND z.id = %lld", 2 },

    [RK_Q_A_HEATS] = { "ranking_a_heats",
        "SELECT z.id, " HEAT_COLS " FROM zone z"
        " LEFT JOIN heat h ON h.zone_id = z.id AND h.competition_id = z.competition_id"
        " WHERE z.competition_id = %lld AND z.id = %lld" HEAT_ORDER, 2 },
    [RK_Q_A_HEAT] = { "ranking_a_heat",
        "SELECT " HEAT_COLS " FROM " HEAT_IN_ZONE
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld", 3 },
    [RK_Q_A_VOIES] = { "ranking_a_voies",
        "SELECT h.id, " LANE_COLS " FROM " HEAT_IN_ZONE
        " LEFT JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld"
        " ORDER BY l.number, l.id", 3 },
    [RK_Q_A_VOIE] = { "ranking_a_voie",
        "SELECT " LANE_COLS " FROM " HEAT_IN_ZONE
        " JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld AND l.id = %lld", 4 },

    [RK_Q_B_HEATS] = { "ranking_b_heats",
        "SELECT c.id, " HEAT_COLS " FROM competition c"
        " LEFT JOIN heat h ON h.competition_id = c.id"
        " WHERE c.id = %lld" HEAT_ORDER, 1 },
    [RK_Q_B_HEAT] = { "ranking_b_heat",
        "SELECT " HEAT_COLS " FROM heat h WHERE h.competition_id = %lld AND h.id = %lld", 2 },
    [RK_Q_B_LINES] = { "ranking_b_lines",
        "SELECT h.id, " LANE_COLS " FROM heat h"
        " LEFT JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.id = %lld ORDER BY l.number, l.id", 2 },
    [RK_Q_B_LINE] = { "ranking_b_line",
        "SELECT " LANE_COLS " FROM heat h"
        " JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.id = %lld AND l.id = %lld", 3 },

    /* lane writes (variant A): path ids c, z, h, v */
    [RK_Q_LANE_FOR_UPDATE] = { "ranking_lane_for_update",
        "SELECT l.id, z.lane_count FROM " HEAT_IN_ZONE " JOIN lane l ON l.heat_id = h.id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld AND l.id = %lld", 4 },
    /* competition, spot */
    [RK_Q_SPOT_IN_COMPETITION] = { "ranking_spot_in_competition",
        "SELECT s.id FROM spot s WHERE s.competition_id = %lld AND s.id = %lld", 2 },
    /* number flag ('set'/'keep'), number, spot flag ('set'/'null'/'keep'), spot id,
     * score flag ('set'/'null'/'keep'), score, heat, lane.  The uniqueness of lane
     * numbers and spots within a heat is the database's (UNIQUE constraints).  The
     * CASTs matter: SQLite checks CHECK constraints before applying column affinity
     * to the text-bound parameters. */
    [RK_Q_LANE_UPDATE] = { "ranking_lane_update",
        "UPDATE lane SET"
        " number = CASE WHEN %s = 'set' THEN CAST(%lld AS INTEGER) ELSE number END,"
        " spot_id = CASE %s WHEN 'set' THEN CAST(%lld AS BIGINT) WHEN 'null' THEN NULL ELSE spot_id END,"
        " score = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE score END"
        " WHERE heat_id = %lld AND id = %lld", 8 },
    /* heat, lane, number (0 = none), spot (0 = none): other lanes in the way */
    [RK_Q_LANE_CONFLICT] = { "ranking_lane_conflict",
        "SELECT COUNT(*) FROM lane WHERE heat_id = %lld AND id <> %lld"
        " AND (number = %lld OR spot_id = %lld)", 4 },
    [RK_Q_LANE_DELETE] = { "ranking_lane_delete",
        "DELETE FROM lane WHERE heat_id IN (SELECT h.id FROM " HEAT_IN_ZONE
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld) AND id = %lld", 4 },

    /* authentication */
    [RK_Q_ACCOUNT_BY_NAME] = { "ranking_account_by_name",
        "SELECT id, password_hash, role, enabled FROM account WHERE name = %s", 1 },
    /* hash, account, created_at, expires_at */
    [RK_Q_TOKEN_INSERT] = { "ranking_token_insert",
        "INSERT INTO token (hash, account_id, created_at, expires_at)"
        " VALUES (%s, %lld, %lld, %lld)", 4 },
    [RK_Q_TOKEN_PURGE] = { "ranking_token_purge",
        RK_SQL_TOKEN_PURGE, 1 },
    /* hash, now */
    [RK_Q_TOKEN_LOOKUP] = { "ranking_token_lookup",
        "SELECT a.name, a.role, t.expires_at FROM token t JOIN account a ON a.id = t.account_id"
        " WHERE t.hash = %s AND t.expires_at > %lld AND a.enabled = 1", 2 },
    [RK_Q_REVISION] = { "ranking_revision",
        "SELECT epoch, data, auth FROM revision WHERE id = 1", 0 },
};

/* SQLite's busy timeout, per statement step: apr_dbd's sqlite3 driver retries a step
 * that is still busy 15 more times with 100 ms pauses, so a statement waits for a
 * lock held by another process at most 16 x 250 ms + 1.5 s, about 5.5 s, then fails.
 * The module's writers never wait there: they queue on the ranking-write mutex. */
const char *const rk_sqlite_setup[] = {
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 250",
    "PRAGMA synchronous = FULL",
};
const int rk_sqlite_setup_count = (int)(sizeof(rk_sqlite_setup) / sizeof(rk_sqlite_setup[0]));

void rk_lane_args_pack(const rk_lane_patch *patch, const char *heat, const char *lane,
                       rk_lane_args *out)
{
    int number = (patch->set & RK_LANE_SET_NUMBER) != 0;
    int spot = (patch->set & RK_LANE_SET_SPOT) != 0;
    int score = (patch->set & RK_LANE_SET_SCORE) != 0;

    snprintf(out->number, sizeof(out->number), "%lld", number ? patch->number : 0LL);
    /* number flag, number, spot flag, spot id, score flag, score, heat, lane */
    out->update[0] = number ? "set" : "keep";
    out->update[1] = out->number;
    out->update[2] = !spot ? "keep" : patch->spot_null ? "null" : "set";
    out->update[3] = spot && !patch->spot_null ? patch->spot_id : "0";
    out->update[4] = !score ? "keep" : patch->score_null ? "null" : "set";
    out->update[5] = score && !patch->score_null ? patch->score : "";
    out->update[6] = heat;
    out->update[7] = lane;
    /* heat, lane, number (0 = none), spot (0 = none) */
    out->conflict[0] = heat;
    out->conflict[1] = lane;
    out->conflict[2] = out->number;
    out->conflict[3] = out->update[3];
}
