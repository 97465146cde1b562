/* rk_sql.c: every statement the module runs.  Portable SQL (SQLite and PostgreSQL).
 *
 * Read statements take the ids of the path in path order.  A list statement starts
 * from the parent row and LEFT JOINs the children: no row at all means the parent
 * (with its own nesting) does not exist (404); one row whose child columns are NULL
 * means an empty list.  Lists with a nullable sort key put NULLs last. */

#include "rk_sql.h"

#define COMPETITION_COLS "c.id, c.name, c.location, c.start_date, c.end_date, c.timezone, c.status," \
    " c.ranking, c.publication, c.advance"
#define WOD_COLS   "w.id, w.name, w.description, w.competition_id, w.position, w.scoring, w.time_cap"
#define SPOT_COLS  "s.id, s.competition_id, s.name, s.division, s.affiliate, s.bib"
#define ZONE_COLS  "z.id, z.competition_id, z.name, z.lane_count"
#define HEAT_COLS  "h.id, h.competition_id, h.zone_id, h.wod_id, h.number, h.start_time, h.status"
#define LANE_COLS  "l.id, l.heat_id, l.number, l.spot_id, s.name, l.score, l.tiebreak, l.score_status"
/* a lane as the published view of a competition with publication 'validated' shows it
 * (API.md part 3): the published values in place of score and tiebreak, and the status
 * 'validated' when there is a published score */
#define LANE_PUB_COLS "l.id, l.heat_id, l.number, l.spot_id, s.name, l.published_score," \
    " l.published_tiebreak, CASE WHEN l.published_score IS NULL THEN NULL ELSE 'validated' END"
#define HEAT_ORDER " ORDER BY (h.start_time IS NULL), h.start_time, h.number, h.id"
/* the lanes that may rank in a competition */
#define LB_LANE_COLS "h.wod_id, l.spot_id, h.id, l.id, l.score, l.tiebreak, l.number"
#define LB_LANE_PUB_COLS "h.wod_id, l.spot_id, h.id, l.id, l.published_score, l.published_tiebreak, l.number"
#define LB_LANES "heat h JOIN lane l ON l.heat_id = h.id" \
    " WHERE h.competition_id = %lld AND h.wod_id IS NOT NULL AND l.spot_id IS NOT NULL"
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

    [RK_Q_A_VOIES_PUB] = { "ranking_a_voies_pub",
        "SELECT h.id, " LANE_PUB_COLS " FROM " HEAT_IN_ZONE
        " LEFT JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld"
        " ORDER BY l.number, l.id", 3 },
    [RK_Q_A_VOIE_PUB] = { "ranking_a_voie_pub",
        "SELECT " LANE_PUB_COLS " FROM " HEAT_IN_ZONE
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

    [RK_Q_B_LINES_PUB] = { "ranking_b_lines_pub",
        "SELECT h.id, " LANE_PUB_COLS " FROM heat h"
        " LEFT JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.id = %lld ORDER BY l.number, l.id", 2 },
    [RK_Q_B_LINE_PUB] = { "ranking_b_line_pub",
        "SELECT " LANE_PUB_COLS " FROM heat h"
        " JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " WHERE h.competition_id = %lld AND h.id = %lld AND l.id = %lld", 3 },
    /* which view a reader of the competition sees (API.md part 3) */
    [RK_Q_PUBLICATION] = { "ranking_publication",
        "SELECT c.publication FROM competition c WHERE c.id = %lld", 1 },

    /* leaderboards: competition id.  Lanes of heats without a WOD, and empty lanes,
     * rank nothing; the order is the heat list's (HEAT_ORDER), then lane numbers.
     * The lanes are read in two statements, the heats with a start_time and then
     * those without: each follows the heat_by_competition index and lane's
     * (heat_id, number) key, so that no sort is needed, where one statement ordered by
     * HEAT_ORDER sorts every lane of the competition ("USE TEMP B-TREE FOR ORDER BY"
     * in SQLite: the bench competition's 24,000 lanes took 8 ms more, 44 ms instead of
     * 36 ms for the whole leaderboard). */
    [RK_Q_LEADERBOARD_COMPETITION] = { "ranking_lb_competition",
        "SELECT c.id, c.ranking, c.advance FROM competition c WHERE c.id = %lld", 1 },
    [RK_Q_LEADERBOARD_WODS] = { "ranking_lb_wods",
        "SELECT w.id, w.scoring, w.time_cap FROM wod w WHERE w.competition_id = %lld"
        " ORDER BY w.position, w.id", 1 },
    [RK_Q_LEADERBOARD_SPOTS] = { "ranking_lb_spots",
        "SELECT s.id, s.name, s.division, s.bib FROM spot s WHERE s.competition_id = %lld", 1 },
    [RK_Q_LEADERBOARD_LANES] = { "ranking_lb_lanes",
        "SELECT " LB_LANE_COLS " FROM " LB_LANES " AND h.start_time IS NOT NULL"
        " ORDER BY h.start_time, h.number, h.id, l.number, l.id", 1 },
    [RK_Q_LEADERBOARD_LANES_UNTIMED] = { "ranking_lb_lanes_untimed",
        "SELECT " LB_LANE_COLS " FROM " LB_LANES " AND h.start_time IS NULL"
        " ORDER BY h.number, h.id, l.number, l.id", 1 },
    /* the same, ranking the published values */
    [RK_Q_LEADERBOARD_LANES_PUB] = { "ranking_lb_lanes_pub",
        "SELECT " LB_LANE_PUB_COLS " FROM " LB_LANES " AND h.start_time IS NOT NULL"
        " ORDER BY h.start_time, h.number, h.id, l.number, l.id", 1 },
    [RK_Q_LEADERBOARD_LANES_UNTIMED_PUB] = { "ranking_lb_lanes_untimed_pub",
        "SELECT " LB_LANE_PUB_COLS " FROM " LB_LANES " AND h.start_time IS NULL"
        " ORDER BY h.number, h.id, l.number, l.id", 1 },
    [RK_Q_LEADERBOARD_LANE_PUB] = { "ranking_lb_lane_pub",
        "SELECT " LB_LANE_PUB_COLS " FROM " LB_LANES " AND l.id = %lld", 2 },
    /* what a kept leaderboard input needs to follow lane changes (mod_ranking_leaderboard.c) */
    [RK_Q_LEADERBOARD_LANE] = { "ranking_lb_lane",
        "SELECT " LB_LANE_COLS " FROM " LB_LANES " AND l.id = %lld", 2 },
    [RK_Q_LEADERBOARD_CHANGES] = { "ranking_lb_changes",
        "SELECT COUNT(*), COALESCE(MAX(id), 0) FROM lane_history WHERE id > %lld", 1 },
    [RK_Q_LEADERBOARD_CHANGED_LANES] = { "ranking_lb_changed_lanes",
        "SELECT lane_id, action FROM lane_history WHERE competition_id = %lld AND id > %lld"
        " ORDER BY id", 2 },

    /* a lane's history (variant A): path ids c, z, h, v.  The parent is the lane as it
     * is now or as a change recorded it (so a deleted lane still has its history);
     * no such parent: no row at all (404). */
    [RK_Q_A_VOIE_HISTORY] = { "ranking_a_voie_history",
        "WITH p (c, z, h, v) AS (SELECT CAST(%lld AS BIGINT), CAST(%lld AS BIGINT),"
        " CAST(%lld AS BIGINT), CAST(%lld AS BIGINT)),"
        " known (lane_id) AS ("
        "SELECT l.id FROM p JOIN heat h ON h.id = p.h AND h.competition_id = p.c AND h.zone_id = p.z"
        " JOIN zone z ON z.id = h.zone_id AND z.competition_id = h.competition_id"
        " JOIN lane l ON l.heat_id = h.id AND l.id = p.v"
        " UNION SELECT x.lane_id FROM p JOIN lane_history x ON x.competition_id = p.c"
        " AND x.zone_id = p.z AND x.heat_id = p.h AND x.lane_id = p.v)"
        " SELECT k.lane_id, x.id, x.changed_at, x.user_name, x.action, x.lane_before, x.lane_after"
        " FROM known k CROSS JOIN p"
        " LEFT JOIN lane_history x ON x.heat_id = p.h AND x.lane_id = k.lane_id"
        " AND x.competition_id = p.c AND x.zone_id = p.z"
        " ORDER BY x.id", 4 },

    /* lane writes (variant A): path ids c, z, h, v.  The heat's WOD says how its
     * scores are read (NULL: no WOD, free text). */
    [RK_Q_LANE_EXISTS] = { "ranking_lane_exists",
        "SELECT l.id FROM " HEAT_IN_ZONE " JOIN lane l ON l.heat_id = h.id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld AND l.id = %lld", 4 },
    /* the lane (RK_Q_A_VOIE's columns) and what its write checks, in one statement */
    [RK_Q_LANE_FOR_UPDATE] = { "ranking_lane_for_update",
        "SELECT " LANE_COLS ", z.lane_count, w.scoring, w.time_cap, c.publication,"
        " r.epoch, r.auth FROM "
        HEAT_IN_ZONE " JOIN competition c ON c.id = h.competition_id"
        " JOIN lane l ON l.heat_id = h.id LEFT JOIN spot s ON s.id = l.spot_id"
        " LEFT JOIN wod w ON w.id = h.wod_id AND w.competition_id = h.competition_id"
        " CROSS JOIN revision r"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld AND l.id = %lld"
        " AND r.id = 1", 4 },
    /* competition, spot */
    [RK_Q_SPOT_IN_COMPETITION] = { "ranking_spot_in_competition",
        "SELECT s.id FROM spot s WHERE s.competition_id = %lld AND s.id = %lld", 2 },
    /* number flag ('set'/'keep'), number, spot flag ('set'/'null'/'keep'), spot id,
     * score flag ('set'/'null'/'keep'), score, tiebreak flag, tiebreak, status flag
     * ('entered'/'null'/'keep'), published score flag, published score, published
     * tiebreak flag, published tiebreak, heat, lane.  The uniqueness of lane
     * numbers and spots within a heat is the database's (UNIQUE constraints).  The
     * CASTs matter: SQLite checks CHECK constraints before applying column affinity
     * to the text-bound parameters. */
    [RK_Q_LANE_UPDATE] = { "ranking_lane_update",
        "UPDATE lane SET"
        " number = CASE WHEN %s = 'set' THEN CAST(%lld AS INTEGER) ELSE number END,"
        " spot_id = CASE %s WHEN 'set' THEN CAST(%lld AS BIGINT) WHEN 'null' THEN NULL ELSE spot_id END,"
        " score = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE score END,"
        " tiebreak = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE tiebreak END,"
        " score_status = CASE %s WHEN 'entered' THEN 'entered' WHEN 'null' THEN NULL ELSE score_status END,"
        " published_score = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE published_score END,"
        " published_tiebreak = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE published_tiebreak END"
        " WHERE heat_id = %lld AND id = %lld", 15 },
    /* the same without number and spot_id (rk_sql.h, rk_lane_args): the arguments of
     * RK_Q_LANE_UPDATE from the score flag on */
    [RK_Q_LANE_UPDATE_SCORE] = { "ranking_lane_update_score",
        "UPDATE lane SET"
        " score = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE score END,"
        " tiebreak = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE tiebreak END,"
        " score_status = CASE %s WHEN 'entered' THEN 'entered' WHEN 'null' THEN NULL ELSE score_status END,"
        " published_score = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE published_score END,"
        " published_tiebreak = CASE %s WHEN 'set' THEN %s WHEN 'null' THEN NULL ELSE published_tiebreak END"
        " WHERE heat_id = %lld AND id = %lld", 11 },
    /* heat, lane, number (0 = none), spot (0 = none): other lanes in the way */
    [RK_Q_LANE_CONFLICT] = { "ranking_lane_conflict",
        "SELECT COUNT(*) FROM lane WHERE heat_id = %lld AND id <> %lld"
        " AND (number = %lld OR spot_id = %lld)", 4 },
    [RK_Q_LANE_DELETE] = { "ranking_lane_delete",
        "DELETE FROM lane WHERE heat_id IN (SELECT h.id FROM " HEAT_IN_ZONE
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld) AND id = %lld", 4 },

    /* validation (API.md part 3): heat, lane.  Publishes the current values; changes
     * nothing (no row) when the lane has no score or is validated already */
    [RK_Q_LANE_VALIDATE] = { "ranking_lane_validate",
        "UPDATE lane SET score_status = 'validated', published_score = score,"
        " published_tiebreak = tiebreak"
        " WHERE heat_id = %lld AND id = %lld AND score IS NOT NULL"
        " AND (score_status IS NULL OR score_status <> 'validated')", 2 },
    /* path ids c, z, h: the heat's lanes that wait for validation, by number */
    [RK_Q_HEAT_TO_VALIDATE] = { "ranking_heat_to_validate",
        "SELECT l.id FROM " HEAT_IN_ZONE " JOIN lane l ON l.heat_id = h.id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld"
        " AND l.score IS NOT NULL AND (l.score_status IS NULL OR l.score_status <> 'validated')"
        " ORDER BY l.number, l.id", 3 },

    /* a lane's change, in the transaction of the change; after '' means none (delete) */
    [RK_Q_HISTORY_INSERT] = { "ranking_history_insert",
        "INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at,"
        " user_name, action, lane_before, lane_after)"
        " VALUES (%lld, %lld, %lld, %lld, %s, %s, %s, %s, NULLIF(%s, ''))", 9 },

    /* heat generation: competition, zone, WOD.  The CASTs as for lane updates (SQLite
     * checks CHECK constraints before the column's affinity applies to text-bound
     * parameters; NULLIF compares integers). */
#define GEN_WHERE " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.wod_id = %lld"
    [RK_Q_GEN_HEATS] = { "ranking_gen_heats",
        "SELECT " HEAT_COLS " FROM heat h" GEN_WHERE " ORDER BY h.number, h.id", 3 },
    [RK_Q_GEN_LANES] = { "ranking_gen_lanes",
        "SELECT " LANE_COLS " FROM heat h JOIN lane l ON l.heat_id = h.id"
        " LEFT JOIN spot s ON s.id = l.spot_id" GEN_WHERE
        " ORDER BY h.number, h.id, l.number, l.id", 3 },
    [RK_Q_GEN_SCORED] = { "ranking_gen_scored",
        "SELECT COUNT(*) FROM heat h JOIN lane l ON l.heat_id = h.id" GEN_WHERE
        " AND l.score IS NOT NULL", 3 },
    [RK_Q_GEN_NUMBER_LEFT] = { "ranking_gen_number_left",
        "SELECT COALESCE(MAX(h.number), 0) FROM heat h WHERE h.competition_id = %lld"
        " AND h.zone_id = %lld AND (h.wod_id IS NULL OR h.wod_id <> %lld)", 3 },
    [RK_Q_GEN_DELETE_LANES] = { "ranking_gen_delete_lanes",
        "DELETE FROM lane WHERE heat_id IN (SELECT h.id FROM heat h" GEN_WHERE ")", 3 },
    [RK_Q_GEN_DELETE_HEATS] = { "ranking_gen_delete_heats",
        "DELETE FROM heat WHERE competition_id = %lld AND zone_id = %lld AND wod_id = %lld", 3 },
    /* the ids given: one more than the largest, in a write transaction (the schema
     * has no id default on PostgreSQL; writers serialise on the revision row) */
    [RK_Q_GEN_LAST_IDS] = { "ranking_gen_last_ids",
        "SELECT (SELECT COALESCE(MAX(id), 0) FROM heat), (SELECT COALESCE(MAX(id), 0) FROM lane)", 0 },
    [RK_Q_GEN_HEAT_INSERT] = { "ranking_gen_heat_insert",
        "INSERT INTO heat (id, competition_id, zone_id, wod_id, number, start_time, status)"
        " VALUES (%lld, %lld, %lld, %lld, CAST(%lld AS INTEGER), NULLIF(%s, ''), 'scheduled')", 6 },
    [RK_Q_GEN_LANE_INSERT] = { "ranking_gen_lane_insert",
        "INSERT INTO lane (id, heat_id, number, spot_id) VALUES (%lld, %lld, CAST(%lld AS INTEGER),"
        " CAST(%lld AS BIGINT))", 4 },
    /* a change of any resource (part 3), in the transaction of the change: a lane is
     * named by its heat and lane id (resource_id 0: NULL), another resource by
     * resource_id (lane 0: NULL); zone and heat may be NULL */
    [RK_Q_HISTORY_RECORD] = { "ranking_history_record",
        "INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at,"
        " user_name, action, lane_before, lane_after, resource, resource_id)"
        " VALUES (%lld, CAST(%lld AS BIGINT), CAST(%lld AS BIGINT), NULLIF(CAST(%lld AS BIGINT), 0),"
        " %s, %s, %s, NULLIF(%s, ''), NULLIF(%s, ''), %s, NULLIF(CAST(%lld AS BIGINT), 0))", 11 },
    /* a competition's change log, every kind of resource, oldest first; the parent is
     * the competition (no row at all: 404) */
    [RK_Q_CHANGES] = { "ranking_changes",
        "SELECT c.id, x.id, x.changed_at, x.user_name, x.action, x.resource,"
        " COALESCE(x.resource_id, x.lane_id), x.zone_id, x.heat_id, x.lane_before, x.lane_after"
        " FROM competition c LEFT JOIN lane_history x ON x.competition_id = c.id"
        " WHERE c.id = %lld ORDER BY x.id", 1 },


    /* live updates, a page at a time (then, for the published view of the competition's readers: the lane before,
     * the competition's publication, the lane's published values now) */
#define HISTORY_EVENT_COLS "x.id, x.competition_id, x.zone_id, x.heat_id, x.lane_id, x.action," \
    " x.lane_after, x.lane_before, c.publication, l.published_score, l.published_tiebreak," \
    " x.resource, x.resource_id"
#define HISTORY_EVENT_FROM " FROM lane_history x LEFT JOIN competition c ON c.id = x.competition_id" \
    " LEFT JOIN lane l ON l.id = x.lane_id AND l.heat_id = x.heat_id"
    [RK_Q_HISTORY_SINCE] = { "ranking_history_since",
        "SELECT " HISTORY_EVENT_COLS HISTORY_EVENT_FROM " WHERE x.id > %lld ORDER BY x.id LIMIT 500", 1 },
    [RK_Q_HISTORY_REPLAY] = { "ranking_history_replay",
        "SELECT " HISTORY_EVENT_COLS HISTORY_EVENT_FROM " WHERE x.competition_id = %lld AND x.id > %lld"
        " ORDER BY x.id LIMIT 500", 2 },
    [RK_Q_HISTORY_LAST] = { "ranking_history_last",
        "SELECT COALESCE(MAX(id), 0) FROM lane_history", 0 },

    /* authentication */
    [RK_Q_ACCOUNT_BY_NAME] = { "ranking_account_by_name",
        "SELECT id, password_hash, role, enabled FROM account WHERE name = %s", 1 },
    /* only if the hash is still the one checked: a password set meanwhile by
     * ranking-admin wins (the statement then changes nothing) */
    [RK_Q_ACCOUNT_REHASH] = { "ranking_account_rehash",
        "UPDATE account SET password_hash = %s WHERE id = %lld AND password_hash = %s", 3 },
    /* what every failed login costs (an unknown name as much as the costliest hash:
     * its two digits, compared as text) */
    [RK_Q_ACCOUNT_MAX_COST] = { "ranking_account_max_cost",
        "SELECT MAX(substr(password_hash, 5, 2)) FROM account"
        " WHERE substr(password_hash, 1, 4) IN ('$2y$', '$2a$', '$2b$')", 0 },
    /* hash, account, created_at, expires_at */
    [RK_Q_TOKEN_INSERT] = { "ranking_token_insert",
        "INSERT INTO token (hash, account_id, created_at, expires_at)"
        " VALUES (%s, %lld, %lld, %lld)", 4 },
    [RK_Q_TOKEN_PURGE] = { "ranking_token_purge",
        RK_SQL_TOKEN_PURGE, 1 },
    /* competition (0: none), hash, now: the user, its server-wide role, the token's
     * expiry and the user's grant on that competition (NULL: none) */
    [RK_Q_TOKEN_LOOKUP] = { "ranking_token_lookup",
        "SELECT a.name, a.role, t.expires_at, g.role FROM token t JOIN account a ON a.id = t.account_id"
        " LEFT JOIN account_grant g ON g.account_id = a.id AND g.competition_id = %lld"
        " WHERE t.hash = %s AND t.expires_at > %lld AND a.enabled = 1", 3 },
    /* user name, competition: the user's grant there */
    [RK_Q_GRANT_ROLE] = { "ranking_grant_role",
        "SELECT g.role FROM account_grant g JOIN account a ON a.id = g.account_id"
        " WHERE a.name = %s AND g.competition_id = %lld", 2 },

    /* safe retries (API.md part 3): a user's kept answer, expired or not (the glue
     * decides, rk_idem_check) */
    [RK_Q_IDEM_LOOKUP] = { "ranking_idem_lookup",
        "SELECT k.body_hash, k.created_at, k.status, k.location, k.etag, k.body"
        " FROM idempotency_key k JOIN account a ON a.id = k.account_id"
        " WHERE a.name = %s AND k.idem_key = %s", 2 },
    /* the WHERE of the SELECT keeps SQLite's parser from reading ON CONFLICT as a join
     * constraint; the CASTs as for lane updates (CHECK before affinity) */
    [RK_Q_IDEM_KEEP] = { "ranking_idem_keep",
        "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status,"
        " location, etag, body, created_at)"
        " SELECT a.id, %s, %s, %s, %s, CAST(%s AS INTEGER), NULLIF(%s, ''), NULLIF(%s, ''), %s,"
        " CAST(%s AS BIGINT) FROM account a WHERE a.name = %s"
        " ON CONFLICT (account_id, idem_key) DO UPDATE SET method = excluded.method,"
        " path = excluded.path, body_hash = excluded.body_hash, status = excluded.status,"
        " location = excluded.location, etag = excluded.etag, body = excluded.body,"
        " created_at = excluded.created_at"
        " WHERE idempotency_key.created_at <= CAST(%s AS BIGINT)", 11 },
    /* bounded, along idempotency_key_by_created: no cron job, no long write */
    [RK_Q_IDEM_PURGE] = { "ranking_idem_purge",
        "DELETE FROM idempotency_key WHERE (account_id, idem_key) IN"
        " (SELECT account_id, idem_key FROM idempotency_key"
        " WHERE created_at <= CAST(%s AS BIGINT) ORDER BY created_at LIMIT 64)", 1 },
    [RK_Q_REVISION] = { "ranking_revision",
        "SELECT epoch, data, auth FROM revision WHERE id = 1", 0 },

    /* ---- setup and day-of changes (rk_sql.h).  Integers are CAST: SQLite checks
     * CHECK constraints before the column's affinity applies to text parameters. ---- */
#define NEXT_ID(table, logged) \
    "SELECT COALESCE(MAX(x), 0) + 1 FROM (SELECT MAX(id) AS x FROM " table \
    " UNION ALL SELECT MAX(" logged ") FROM lane_history"
#define INT_ "CAST(%lld AS INTEGER)"
#define ID_ "CAST(%lld AS BIGINT)"
    [RK_Q_SETUP_COMP_ROW] = { "ranking_setup_comp_row",
        "SELECT name, location, start_date, end_date, timezone, status, ranking, publication,"
        " advance FROM competition WHERE id = %lld", 1 },
    [RK_Q_SETUP_COMP_NEXT] = { "ranking_setup_comp_next",
        NEXT_ID("competition", "competition_id") ") t", 0 },
    [RK_Q_SETUP_COMP_INSERT] = { "ranking_setup_comp_insert",
        "INSERT INTO competition (id, name, location, start_date, end_date, timezone, status,"
        " ranking, publication, advance) VALUES (" ID_ ", %s, %s, %s, %s, %s, %s, %s, %s, " INT_ ")", 10 },
    [RK_Q_SETUP_COMP_UPDATE] = { "ranking_setup_comp_update",
        "UPDATE competition SET name = %s, location = %s, start_date = %s, end_date = %s,"
        " timezone = %s, status = %s, ranking = %s, publication = %s, advance = " INT_
        " WHERE id = %lld AND id = %lld", 11 },
    [RK_Q_SETUP_COMP_DELETE] = { "ranking_setup_comp_delete",
        "DELETE FROM competition WHERE id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_COMP_CHILDREN] = { "ranking_setup_comp_children",
        "WITH p (c) AS (SELECT " ID_ ") SELECT"
        " (SELECT COUNT(*) FROM wod, p WHERE competition_id = p.c)"
        " + (SELECT COUNT(*) FROM spot, p WHERE competition_id = p.c)"
        " + (SELECT COUNT(*) FROM zone, p WHERE competition_id = p.c)"
        " + (SELECT COUNT(*) FROM heat, p WHERE competition_id = p.c)", 1 },
    /* publication immediate -> validated: what the public saw stays published (the
     * current values of the competition's lanes that were not published as they are) */
    [RK_Q_SETUP_COMP_PUBLISH] = { "ranking_setup_comp_publish",
        "UPDATE lane SET published_score = score, published_tiebreak = tiebreak"
        " WHERE heat_id IN (SELECT id FROM heat WHERE competition_id = " ID_ ")"
        " AND (COALESCE(published_score, '') <> COALESCE(score, '')"
        " OR COALESCE(published_tiebreak, '') <> COALESCE(tiebreak, ''))", 1 },

    [RK_Q_SETUP_WOD_ROW] = { "ranking_setup_wod_row",
        "SELECT name, description, position, scoring, time_cap FROM wod"
        " WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_WOD_NEXT] = { "ranking_setup_wod_next",
        NEXT_ID("wod", "resource_id") " WHERE resource = 'wod') t", 0 },
    [RK_Q_SETUP_WOD_INSERT] = { "ranking_setup_wod_insert",
        "INSERT INTO wod (id, competition_id, name, description, position, scoring, time_cap)"
        " VALUES (" ID_ ", " ID_ ", %s, %s, " INT_ ", %s, " INT_ ")", 7 },
    [RK_Q_SETUP_WOD_UPDATE] = { "ranking_setup_wod_update",
        "UPDATE wod SET name = %s, description = %s, position = " INT_ ", scoring = %s,"
        " time_cap = " INT_ " WHERE competition_id = %lld AND id = %lld", 7 },
    [RK_Q_SETUP_WOD_DELETE] = { "ranking_setup_wod_delete",
        "DELETE FROM wod WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_WOD_POSITION] = { "ranking_setup_wod_position",
        "SELECT COALESCE(MAX(position), 0) + 1 FROM wod WHERE competition_id = %lld", 1 },
    [RK_Q_SETUP_WOD_HEATS] = { "ranking_setup_wod_heats",
        "SELECT COUNT(*) FROM heat WHERE competition_id = %lld AND wod_id = %lld", 2 },
    [RK_Q_SETUP_WOD_SCORES] = { "ranking_setup_wod_scores",
        "SELECT l.score FROM heat h JOIN lane l ON l.heat_id = h.id"
        " WHERE h.competition_id = %lld AND h.wod_id = %lld AND l.score IS NOT NULL", 2 },

    [RK_Q_SETUP_SPOT_ROW] = { "ranking_setup_spot_row",
        "SELECT name, division, affiliate, bib FROM spot WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_SPOT_NEXT] = { "ranking_setup_spot_next",
        NEXT_ID("spot", "resource_id") " WHERE resource = 'spot') t", 0 },
    [RK_Q_SETUP_SPOT_INSERT] = { "ranking_setup_spot_insert",
        "INSERT INTO spot (id, competition_id, name, division, affiliate, bib)"
        " VALUES (" ID_ ", " ID_ ", %s, %s, %s, " ID_ ")", 6 },
    [RK_Q_SETUP_SPOT_UPDATE] = { "ranking_setup_spot_update",
        "UPDATE spot SET name = %s, division = %s, affiliate = %s, bib = " ID_
        " WHERE competition_id = %lld AND id = %lld", 6 },
    [RK_Q_SETUP_SPOT_DELETE] = { "ranking_setup_spot_delete",
        "DELETE FROM spot WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_SPOT_BIB] = { "ranking_setup_spot_bib",
        "SELECT COUNT(*) FROM spot WHERE competition_id = %lld AND bib = %lld AND id <> %lld", 3 },
    [RK_Q_SETUP_SPOT_LANES] = { "ranking_setup_spot_lanes",
        "SELECT COUNT(*) FROM lane WHERE spot_id = %lld", 1 },
    [RK_Q_SETUP_SPOT_KNOWN] = { "ranking_setup_spot_known",
        "SELECT id, name, bib FROM spot WHERE competition_id = %lld ORDER BY id", 1 },
    [RK_Q_SETUP_SPOT_CLEAR_BIB] = { "ranking_setup_spot_clear_bib",
        "UPDATE spot SET bib = NULL WHERE competition_id = %lld AND id = %lld", 2 },

    [RK_Q_SETUP_ZONE_ROW] = { "ranking_setup_zone_row",
        "SELECT name, lane_count FROM zone WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_ZONE_NEXT] = { "ranking_setup_zone_next",
        NEXT_ID("zone", "resource_id") " WHERE resource = 'zone') t", 0 },
    [RK_Q_SETUP_ZONE_INSERT] = { "ranking_setup_zone_insert",
        "INSERT INTO zone (id, competition_id, name, lane_count)"
        " VALUES (" ID_ ", " ID_ ", %s, " INT_ ")", 4 },
    [RK_Q_SETUP_ZONE_UPDATE] = { "ranking_setup_zone_update",
        "UPDATE zone SET name = %s, lane_count = " INT_ " WHERE competition_id = %lld AND id = %lld", 4 },
    [RK_Q_SETUP_ZONE_DELETE] = { "ranking_setup_zone_delete",
        "DELETE FROM zone WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_ZONE_MAX_LANE] = { "ranking_setup_zone_max_lane",
        "SELECT COALESCE(MAX(l.number), 0) FROM heat h JOIN lane l ON l.heat_id = h.id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld", 2 },
    [RK_Q_SETUP_ZONE_HEATS] = { "ranking_setup_zone_heats",
        "SELECT COUNT(*) FROM heat WHERE competition_id = %lld AND zone_id = %lld", 2 },

    /* a heat through variant A's path: competition, zone, heat */
    [RK_Q_SETUP_HEAT_ROW] = { "ranking_setup_heat_row",
        "SELECT h.number, h.wod_id, h.zone_id, h.start_time, h.status FROM " HEAT_IN_ZONE
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld", 3 },
    [RK_Q_SETUP_HEAT_NEXT] = { "ranking_setup_heat_next",
        NEXT_ID("heat", "resource_id") " WHERE resource = 'heat' UNION ALL"
        " SELECT MAX(heat_id) FROM lane_history) t", 0 },
    [RK_Q_SETUP_HEAT_INSERT] = { "ranking_setup_heat_insert",
        "INSERT INTO heat (id, competition_id, number, wod_id, zone_id, start_time, status)"
        " VALUES (" ID_ ", " ID_ ", " INT_ ", " ID_ ", " ID_ ", %s, %s)", 7 },
    [RK_Q_SETUP_HEAT_UPDATE] = { "ranking_setup_heat_update",
        "UPDATE heat SET number = " INT_ ", wod_id = " ID_ ", zone_id = " ID_ ","
        " start_time = %s, status = %s WHERE competition_id = %lld AND id = %lld", 7 },
    [RK_Q_SETUP_HEAT_DELETE] = { "ranking_setup_heat_delete",
        "DELETE FROM heat WHERE competition_id = %lld AND id = %lld", 2 },
    [RK_Q_SETUP_HEAT_NUMBER] = { "ranking_setup_heat_number",
        "SELECT COUNT(*) FROM heat WHERE competition_id = %lld AND zone_id = %lld"
        " AND number = %lld AND id <> %lld", 4 },
    [RK_Q_SETUP_HEAT_LANES] = { "ranking_setup_heat_lanes",
        "SELECT COUNT(score), COALESCE(MAX(number), 0) FROM lane WHERE heat_id = %lld", 1 },

    [RK_Q_SETUP_LANE_NEXT] = { "ranking_setup_lane_next",
        NEXT_ID("lane", "lane_id") ") t", 0 },
    /* id, heat, number, spot, score, tiebreak: a score makes the lane "entered", and
     * with the competition's publication "immediate" it is published at once */
    [RK_Q_SETUP_LANE_INSERT] = { "ranking_setup_lane_insert",
        "INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak, score_status,"
        " published_score, published_tiebreak)"
        " SELECT v.id, h.id, v.number, v.spot, v.score, v.tiebreak,"
        " CASE WHEN v.score IS NULL THEN NULL ELSE 'entered' END,"
        " CASE WHEN c.publication = 'immediate' THEN v.score END,"
        " CASE WHEN c.publication = 'immediate' THEN v.tiebreak END"
        " FROM (SELECT " ID_ " AS id, " ID_ " AS heat, " INT_ " AS number, " ID_ " AS spot,"
        " CAST(%s AS TEXT) AS score, CAST(%s AS TEXT) AS tiebreak) v"
        " JOIN heat h ON h.id = v.heat JOIN competition c ON c.id = h.competition_id", 6 },
    [RK_Q_SETUP_LANE_HEAT] = { "ranking_setup_lane_heat",
        "SELECT z.lane_count, w.scoring, w.time_cap FROM " HEAT_IN_ZONE
        " LEFT JOIN wod w ON w.id = h.wod_id AND w.competition_id = h.competition_id"
        " WHERE h.competition_id = %lld AND h.zone_id = %lld AND h.id = %lld", 3 },
#undef NEXT_ID
#undef INT_
#undef ID_
};
