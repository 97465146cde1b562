/* rk_sql.h: the SQL text of every statement, prepared once per database connection
 * through mod_dbd (labels "ranking_*").  Placeholders are apr_dbd's (%s, %lld). */
#ifndef RK_SQL_H
#define RK_SQL_H

#include "rk_body.h"

typedef enum {
    /* reads: single resources select exactly the resource's columns (rk_json.h);
     * lists select the parent's id first (NULL-free when the parent exists) and then
     * the resource's columns, NULL when the parent has no child (LEFT JOIN). */
    RK_Q_COMPETITIONS = 0,
    RK_Q_COMPETITION,
    RK_Q_WODS,
    RK_Q_WOD,
    RK_Q_SPOTS,
    RK_Q_SPOT,
    RK_Q_ZONES,
    RK_Q_ZONE,
    RK_Q_A_HEATS,
    RK_Q_A_HEAT,
    RK_Q_A_VOIES,
    RK_Q_A_VOIE,
    RK_Q_A_VOIES_PUB,       /* the same four lane reads as the published view shows */
    RK_Q_A_VOIE_PUB,        /* them (publication 'validated': API.md part 3) */
    RK_Q_B_HEATS,
    RK_Q_B_HEAT,
    RK_Q_B_LINES,
    RK_Q_B_LINE,
    RK_Q_B_LINES_PUB,
    RK_Q_B_LINE_PUB,
    RK_Q_PUBLICATION,       /* competition: its publication ('immediate', 'validated') */
    RK_Q_A_VOIE_HISTORY,    /* a lane's changes (the lane, or a change of it, must exist) */
    /* leaderboards (competition id): the inputs of rk_leaderboard.h */
    RK_Q_LEADERBOARD_COMPETITION,    /* id, ranking, advance */
    RK_Q_LEADERBOARD_WODS,           /* id, scoring, time_cap; in list order */
    RK_Q_LEADERBOARD_SPOTS,          /* id, name, division, bib */
    RK_Q_LEADERBOARD_LANES,          /* wod, spot, heat, lane, score, tiebreak, lane number; in
                             * heat-list order:
                             * the heats with a start_time, then (next statement) those
                             * without (two statements, so that both follow an index) */
    RK_Q_LEADERBOARD_LANES_UNTIMED,
    RK_Q_LEADERBOARD_LANE,           /* competition, lane: the columns of RK_Q_LEADERBOARD_LANES, no row
                             * when the lane cannot rank */
    RK_Q_LEADERBOARD_LANES_PUB,      /* the three lane reads above, with the published */
    RK_Q_LEADERBOARD_LANES_UNTIMED_PUB, /* score and tiebreak in place of the current */
    RK_Q_LEADERBOARD_LANE_PUB,
    RK_Q_LEADERBOARD_CHANGES,        /* every competition, after a change-log id: how many
                             * changes, the newest id (0 when none) */
    RK_Q_LEADERBOARD_CHANGED_LANES,  /* one competition, after a change-log id: lane, action */
    /* lane writes */
    RK_Q_LANE_EXISTS,       /* c, z, h, v: the lane's id, no row when there is none */
    RK_Q_LANE_FOR_UPDATE,   /* c, z, h, v: the lane as RK_Q_A_VOIE shows it
                             * (RK_LANE_NCOLS columns), then the limit of lane numbers,
                             * the WOD's scoring, time_cap, the competition's publication,
                             * and the database's epoch and auth revision (a PUT's token
                             * checked with shared counters: mod_ranking_write.c) */
    RK_Q_SPOT_IN_COMPETITION,
    RK_Q_LANE_UPDATE,
    RK_Q_LANE_UPDATE_SCORE, /* RK_Q_LANE_UPDATE for a write that sets neither number nor
                             * spot: rk_lane_args.args */
    RK_Q_LANE_CONFLICT,
    RK_Q_LANE_DELETE,
    RK_Q_LANE_VALIDATE,     /* heat, lane: publish; no row when no score or validated */
    RK_Q_HEAT_TO_VALIDATE,  /* c, z, h: the lanes that wait for validation, by number */
    RK_Q_HISTORY_INSERT,    /* competition, zone, heat, lane, at, user, action, before, after */
    /* heat generation (API.md Part 3), path ids competition, then zone, WOD */
    RK_Q_GEN_HEATS,         /* the WOD's heats in the zone: the heat's columns, by number */
    RK_Q_GEN_LANES,         /* their lanes: the lane's columns, by heat number, lane number */
    RK_Q_GEN_SCORED,        /* how many of their lanes have a score */
    RK_Q_GEN_NUMBER_LEFT,   /* the largest number of the zone's other heats (0: none) */
    RK_Q_GEN_DELETE_LANES,
    RK_Q_GEN_DELETE_HEATS,
    RK_Q_GEN_LAST_IDS,      /* the largest heat id, lane id (0: none) */
    RK_Q_GEN_HEAT_INSERT,   /* id, competition, zone, WOD, number, start_time ('' = null) */
    RK_Q_GEN_LANE_INSERT,   /* id, heat, number, spot */
    RK_Q_HISTORY_RECORD,    /* a record of any resource: competition, zone, heat (NULL:
                             * none), lane (0: none), at, user, action, before, after
                             * ('' = null), resource, resource id (0: none) */
    RK_Q_CHANGES,           /* a competition's change log (GET .../changes) */
    /* live updates: the change log after an id (id, competition, zone, heat, lane,
     * action, lane after, lane before, the competition's publication, the lane's
     * published score and tiebreak now, resource, resource id) */
    RK_Q_HISTORY_SINCE,     /* every competition: last id seen */
    RK_Q_HISTORY_REPLAY,    /* one competition: competition, last id seen */
    RK_Q_HISTORY_LAST,      /* the newest id, 0 when none */
    /* authentication */
    RK_Q_ACCOUNT_BY_NAME,   /* id, password_hash, role, enabled */
    RK_Q_ACCOUNT_REHASH,    /* new hash, id, old hash: a password of another cost,
                             * hashed again at RankingPasswordCost on a login */
    RK_Q_ACCOUNT_MAX_COST,  /* the highest bcrypt cost of the stored hashes ("04" to
                             * "31", two digits), NULL when none */
    RK_Q_TOKEN_INSERT,
    RK_Q_TOKEN_PURGE,
    RK_Q_TOKEN_LOOKUP,      /* name, role, expires_at, grant on the competition */
    RK_Q_GRANT_ROLE,        /* a user's grant on a competition */
    /* safe retries (Idempotency-Key, lib/rk_idem.h): user name, key */
    RK_Q_IDEM_LOOKUP,       /* body_hash, created_at, status, location, etag, body */
    RK_Q_IDEM_KEEP,         /* key, method, path, hash, status, location ('' = null),
                             * etag ('' = null), body, now, user name, cutoff: inserts,
                             * or replaces an expired row (created_at <= cutoff); no
                             * row changed when a live answer holds the key */
    RK_Q_IDEM_PURGE,        /* cutoff: deletes at most 64 expired rows, oldest first */
    /* change counters */
    RK_Q_REVISION,          /* epoch, data, auth */
    /* setup and day-of changes (API.md part 3; mod_ranking_setup.c): per resource,
     * its writable columns in rk_resource.h's field order (ROW: by the path's ids of
     * its single route), the next id (never one the table or the change log holds),
     * INSERT (id, parent id, then every field), UPDATE (every field, then the
     * competition and the id; a lane's heat and id), DELETE (the competition and the
     * id), and the counts of the conflict rules */
    RK_Q_SETUP_COMP_ROW, RK_Q_SETUP_COMP_NEXT, RK_Q_SETUP_COMP_INSERT, RK_Q_SETUP_COMP_UPDATE,
    RK_Q_SETUP_COMP_DELETE,
    RK_Q_SETUP_COMP_CHILDREN,        /* competition: its WODs, spots, zones and heats */
    RK_Q_SETUP_COMP_PUBLISH,         /* competition: its lanes' values published as they are */
    RK_Q_SETUP_WOD_ROW, RK_Q_SETUP_WOD_NEXT, RK_Q_SETUP_WOD_INSERT, RK_Q_SETUP_WOD_UPDATE,
    RK_Q_SETUP_WOD_DELETE,
    RK_Q_SETUP_WOD_POSITION,         /* competition: one more than its largest position */
    RK_Q_SETUP_WOD_HEATS,            /* competition, WOD: the heats that use it */
    RK_Q_SETUP_WOD_SCORES,           /* competition, WOD: the scores of its heats' lanes */
    RK_Q_SETUP_SPOT_ROW, RK_Q_SETUP_SPOT_NEXT, RK_Q_SETUP_SPOT_INSERT, RK_Q_SETUP_SPOT_UPDATE,
    RK_Q_SETUP_SPOT_DELETE,
    RK_Q_SETUP_SPOT_BIB,             /* competition, bib, spot (0: none): others with it */
    RK_Q_SETUP_SPOT_LANES,           /* spot: the lanes it is in */
    RK_Q_SETUP_SPOT_KNOWN,           /* competition: id, name, bib of its spots (CSV import) */
    RK_Q_SETUP_SPOT_CLEAR_BIB,       /* competition, spot: bib null (CSV import: bibs that move) */
    RK_Q_SETUP_ZONE_ROW, RK_Q_SETUP_ZONE_NEXT, RK_Q_SETUP_ZONE_INSERT, RK_Q_SETUP_ZONE_UPDATE,
    RK_Q_SETUP_ZONE_DELETE,
    RK_Q_SETUP_ZONE_MAX_LANE,        /* competition, zone: the largest lane number of its heats */
    RK_Q_SETUP_ZONE_HEATS,           /* competition, zone: its heats */
    RK_Q_SETUP_HEAT_ROW, RK_Q_SETUP_HEAT_NEXT, RK_Q_SETUP_HEAT_INSERT, RK_Q_SETUP_HEAT_UPDATE,
    RK_Q_SETUP_HEAT_DELETE,
    RK_Q_SETUP_HEAT_NUMBER,          /* competition, zone, number, heat (0: none): others */
    RK_Q_SETUP_HEAT_LANES,           /* heat: lanes with a score, the largest lane number */
    RK_Q_SETUP_LANE_NEXT, RK_Q_SETUP_LANE_INSERT,
    RK_Q_SETUP_LANE_HEAT,            /* c, z, h: the zone's lane_count, the WOD's scoring, cap */
    RK_Q_COUNT
} rk_query_id;

typedef struct {
    const char *label;  /* [a-z0-9_], unique, prefixed "ranking_" */
    const char *sql;
    int nargs;          /* number of placeholders */
} rk_query;

extern const rk_query rk_queries[RK_Q_COUNT];

/* The columns of a lane as the API shows it (RK_Q_A_VOIE, rk_res_voie), in order: id,
 * heat_id, number, spot_id, the spot's name, score, tiebreak, score_status. */
#define RK_LANE_NCOLS 8
#define RK_LANE_COL_NUMBER 2
#define RK_LANE_COL_SCORE 5
#define RK_LANE_COL_TIEBREAK 6
#define RK_LANE_COL_STATUS 7

/* The arguments of RK_Q_LANE_UPDATE and RK_Q_LANE_CONFLICT for a lane PUT, packed in
 * the statements' placeholder order from the checked body, so that the order is
 * known in one place (here, beside the SQL).  A write that sets neither number nor
 * spot runs RK_Q_LANE_UPDATE_SCORE, whose arguments are the last 11 of update: SQLite
 * rewrites the entries of every index on a column the SET names, and checks the
 * foreign key of spot_id, even when the value stays (three indexes and a spot read
 * per score written). */
typedef struct {
    const char *update[15];    /* RK_Q_LANE_UPDATE */
    const char *conflict[4];   /* RK_Q_LANE_CONFLICT: the lanes in the way */
    char number[24];           /* the digits update[1] points to */
    rk_query_id query;         /* the update to run: RK_Q_LANE_UPDATE(_SCORE) */
    const char **args;         /* its arguments: update, or update + 4 */
} rk_lane_args;

/* The lane as it is before the write (in the write's transaction): what decides its
 * score_status and published values after it (API.md part 3). */
typedef struct {
    const char *score, *tiebreak;   /* NULL: none */
    int immediate;                  /* the competition's publication is 'immediate' */
} rk_lane_now;

/* Pack PATCH for lane LANE of heat HEAT (ids as strings), which is NOW, into OUT: a
 * write that changes the score or the tiebreak makes the lane 'entered' (null when
 * its score becomes null), one that changes neither keeps its status; with
 * publication 'immediate' the new score and tiebreak are published too.  The
 * pointers stay valid while PATCH, HEAT, LANE, NOW's strings and OUT do. */
void rk_lane_args_pack(const rk_lane_patch *patch, const char *heat, const char *lane,
                       const rk_lane_now *now, rk_lane_args *out);

/* A lane's score, tiebreak, score_status and published values (NULL: null). */
typedef struct {
    const char *score, *tiebreak, *status, *published_score, *published_tiebreak;
} rk_lane_state;

typedef enum {
    RK_LANE_STATE_OK = 0,
    RK_LANE_STATE_STATUS,               /* score_status does not go with the score */
    RK_LANE_STATE_PUBLISHED_SCORE,      /* a validated lane that does not publish its score */
    RK_LANE_STATE_PUBLISHED_TIEBREAK    /* ... or its tiebreak */
} rk_lane_state_field;

/* Is S a state the API leaves a lane in (rk_lane_args_pack, RK_Q_LANE_VALIDATE, the
 * upgrade to schema 3)?  score_status is null without a score, 'entered' or
 * 'validated' with one; a 'validated' lane publishes its score and tiebreak as they
 * are.  Otherwise the published values are free: a validated competition keeps
 * what it published when the score is taken off or entered again, an 'immediate'
 * one publishes a tiebreak without score.  Returns RK_LANE_STATE_OK, or the first
 * field that is wrong with *WHY (a message without the field's name; "Invalid body"
 * is not part of it: the API never takes these fields in a body). */
rk_lane_state_field rk_lane_state_check(const rk_lane_state *s, const char **why);

/* The lane after the update packed in ARGS (from PATCH) into AFTER (RK_LANE_NCOLS
 * values), from the lane BEFORE it as RK_Q_A_VOIE read it in the same transaction:
 * what the statement stores, column for column (the pointers are BEFORE's, PATCH's
 * and ARGS's).  0, or -1 when the write sets a spot (its name is the spot table's:
 * read the lane again). */
int rk_lane_after(const rk_lane_patch *patch, const rk_lane_args *args,
                  const char *const *before, const char **after);

/* Shared with the administration command (tools/), so that both agree. */

/* The schema version this code needs (table schema_version; a database without that
 * table is version 1, the first release).  sql/upgrade/ brings an older one up. */
#define RK_SCHEMA_VERSION 3

/* Longest user name (account.name, bytes), as the schema's CHECK says. */
#define RK_USER_NAME_MAX 64

/* Expired tokens: expires_at <= now (a token is live while expires_at > now). */
#define RK_SQL_TOKEN_PURGE "DELETE FROM token WHERE expires_at <= %lld"

/* Run once on each new SQLite connection, in order (each may return a row). */
extern const char *const rk_sqlite_setup[];
extern const int rk_sqlite_setup_count;

/* The module's own busy timeout, run after rk_sqlite_setup on the module's
 * connections (the admin command keeps the setup's 250 ms): short, so that one
 * attempt to take the write lock held by another process is short too.  apr_dbd's
 * sqlite3 driver steps a busy statement 16 times with 100 ms pauses, so an attempt
 * lasts at most 16 x RK_SQLITE_BUSY_MS + 15 x 100 ms (RK_SQLITE_ATTEMPT_MS, with a
 * margin for the scheduler). */
#define RK_SQLITE_BUSY_MS 20
#define RK_SQLITE_ATTEMPT_MS (16 * RK_SQLITE_BUSY_MS + 15 * 100 + 80)
extern const char rk_sqlite_module_busy[];
/* The module's page cache per SQLite connection, in KiB (SQLite's default is 2,000 KiB
 * per connection, filled as the connection reads: a child of many connections grew
 * by megabytes over a long run; the database's pages stay in the kernel's page cache). */
#define RK_SQLITE_CACHE_KIB 256
extern const char rk_sqlite_module_cache[];

/* SQLite's result code for a lock held by another connection (SQLITE_BUSY), which
 * apr_dbd's sqlite3 driver returns as is. */
#define RK_SQLITE_BUSY 5

#endif
