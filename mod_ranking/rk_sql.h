/* rk_sql.h: the SQL text of every statement, prepared once per database connection
 * through mod_dbd (labels "ranking_*").  Placeholders are apr_dbd's (%s, %lld). */
#ifndef RK_SQL_H
#define RK_SQL_H

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
    RK_Q_B_HEATS,
    RK_Q_B_HEAT,
    RK_Q_B_LINES,
    RK_Q_B_LINE,
    /* lane writes */
    RK_Q_LANE_FOR_UPDATE,   /* lane id, limit of lane numbers, competition id */
    RK_Q_SPOT_IN_COMPETITION,
    RK_Q_LANE_UPDATE,
    RK_Q_LANE_CONFLICT,
    RK_Q_LANE_DELETE,
    /* authentication */
    RK_Q_ACCOUNT_BY_NAME,   /* id, password_hash, role, enabled */
    RK_Q_TOKEN_INSERT,
    RK_Q_TOKEN_PURGE,
    RK_Q_TOKEN_LOOKUP,      /* name, role, expires_at */
    /* change counters */
    RK_Q_REVISION,          /* epoch, data, auth */
    RK_Q_COUNT
} rk_query_id;

typedef struct {
    const char *label;  /* [a-z0-9_], unique, prefixed "ranking_" */
    const char *sql;
    int nargs;          /* number of placeholders */
} rk_query;

extern const rk_query rk_queries[RK_Q_COUNT];

#endif
