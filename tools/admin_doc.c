/* admin_doc.c: the competition document (its tables and columns, its JSON form) and
 * the statements built from its tables; see admin_doc.h.  The checks of an import
 * are admin_check.c's. */
#include <stdio.h>
#include <string.h>

#include <apr_strings.h>

#include "admin_doc.h"
#include "admin_values.h"
#include "rk_resource.h"

#define I64 9223372036854775807LL

static const char *const competition_status[] = { "upcoming", "in_progress", "finished", NULL };
static const char *const rankings[] = { "places", "chart100", NULL };
static const char *const scorings[] = { "time", "reps", "load", "points", NULL };
static const char *const heat_status[] = { "scheduled", "running", "finished", NULL };
static const char *const publications[] = { "immediate", "validated", NULL };
static const char *const score_statuses[] = { "entered", "validated", NULL };

static const admin_col competition_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "location", AC_NTEXT, 0, 0, NULL },
    { "start_date", AC_DATE, 0, 0, NULL },
    { "end_date", AC_DATE, 0, 0, NULL },
    { "timezone", AC_NTEXT, 0, 0, NULL },
    { "status", AC_ENUM, 0, 0, competition_status },
    { "ranking", AC_ENUM, 0, 0, rankings },
    /* schema version 3 (document version 2): as the API's (rk_resource.c) */
    { "publication", AC_ENUM, 0, 0, publications },
    { "advance", AC_NINT, 1, RK_RES_INT_MAX, NULL },
};
static const admin_col wod_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "description", AC_TEXT, 0, 0, NULL },
    { "position", AC_INT, -2147483648LL, 2147483647LL, NULL },
    { "scoring", AC_ENUM, 0, 0, scorings },
    { "time_cap", AC_NINT, 1, RK_RES_TIME_CAP_MAX, NULL },     /* seconds, as the API */
};
static const admin_col spot_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "division", AC_NTEXT, 0, 0, NULL },
    { "affiliate", AC_NTEXT, 0, 0, NULL },
    { "bib", AC_NINT, 1, I64, NULL },
};
static const admin_col zone_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "lane_count", AC_INT, 1, 999, NULL },
};
static const admin_col heat_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "zone_id", AC_REF, 0, 0, NULL },
    { "wod_id", AC_REF, 0, 0, NULL },
    { "number", AC_INT, 1, 2147483647LL, NULL },
    { "start_time", AC_INSTANT, 0, 0, NULL },
    { "status", AC_ENUM, 0, 0, heat_status },
};
static const admin_col lane_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "heat_id", AC_PARENT, 0, 0, NULL },
    { "number", AC_INT, 1, 999, NULL },
    { "spot_id", AC_REF, 0, 0, NULL },
    { "score", AC_SCORE, 0, 0, NULL },
    { "tiebreak", AC_SCORE, 0, 0, NULL },
    /* schema version 3 (document version 2): how they go together is
     * rk_lane_state_check's (admin_scores.c) */
    { "score_status", AC_NENUM, 0, 0, score_statuses },
    { "published_score", AC_SCORE, 0, 0, NULL },
    { "published_tiebreak", AC_SCORE, 0, 0, NULL },
};

/* the columns, then how many a version 1 document has */
#define COLS(a) a, (int)(sizeof(a) / sizeof(a[0]))
#define ALL(a) COLS(a), (int)(sizeof(a) / sizeof(a[0]))
const admin_table_def admin_tables[AD_NTABLES] = {
    [AD_COMPETITION] = { "competition", "competition", "competition", COLS(competition_cols),
                         AD_COMPETITION_PUBLICATION },
    [AD_WOD] = { "wod", "wods", "wod", ALL(wod_cols) },
    [AD_SPOT] = { "spot", "spots", "spot", ALL(spot_cols) },
    [AD_ZONE] = { "zone", "zones", "zone", ALL(zone_cols) },
    [AD_HEAT] = { "heat", "heats", "heat", ALL(heat_cols) },
    [AD_LANE] = { "lane", "lanes", "lane", COLS(lane_cols), AD_LANE_STATUS },
};

void admin_row_upgrade(admin_table t, const char **row)
{
    switch (t) {
    case AD_COMPETITION:
        row[AD_COMPETITION_PUBLICATION] = "immediate";
        row[AD_COMPETITION_ADVANCE] = NULL;
        break;
    case AD_LANE:
        row[AD_LANE_STATUS] = row[AD_LANE_SCORE] ? "entered" : NULL;
        row[AD_LANE_PUBLISHED_SCORE] = row[AD_LANE_SCORE];
        row[AD_LANE_PUBLISHED_TIEBREAK] = row[AD_LANE_TIEBREAK];
        break;
    default:
        break;
    }
}

admin_doc *admin_doc_make(apr_pool_t *p)
{
    admin_doc *d = apr_pcalloc(p, sizeof(*d));
    int t;

    for (t = 0; t < AD_NTABLES; t++) {
        d->rows[t] = apr_array_make(p, 16, sizeof(const char **));
    }
    return d;
}

void admin_doc_add(apr_pool_t *p, admin_doc *d, admin_table t, const char *const *values)
{
    int i, n = admin_tables[t].ncols;
    const char **row = apr_pcalloc(p, (size_t)n * sizeof(*row));

    for (i = 0; i < n; i++) {
        row[i] = values[i] ? apr_pstrdup(p, values[i]) : NULL;
    }
    APR_ARRAY_PUSH(d->rows[t], const char **) = row;
}

/* ------------------------------------------------------------------ export */

json_t *admin_doc_to_json(const admin_doc *d)
{
    json_t *root = json_object();
    int t, i, c;

    if (!root || json_object_set_new(root, "version", json_integer(ADMIN_DOC_VERSION)) != 0) {
        json_decref(root);
        return NULL;
    }
    for (t = 0; t < AD_NTABLES; t++) {
        const admin_table_def *def = &admin_tables[t];
        json_t *list = t == AD_COMPETITION ? NULL : json_array();

        if (t != AD_COMPETITION && (!list || json_object_set_new(root, def->key, list) != 0)) {
            goto fail;
        }
        for (i = 0; i < d->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(d, t, i);
            json_t *o = json_object();

            if (!o || (list ? json_array_append_new(list, o)
                            : json_object_set_new(root, def->key, o)) != 0) {
                goto fail;
            }
            for (c = 0; c < def->ncols; c++) {
                const char *v = row[c];
                json_t *j;
                long long n;

                if (!v) {
                    j = json_null();
                }
                else if (def->cols[c].type == AC_INT || def->cols[c].type == AC_NINT) {
                    if (!admin_read_ll(v, &n)) {
                        goto fail;
                    }
                    j = json_integer(n);
                }
                else {
                    j = json_string(v);
                }
                if (!j || json_object_set_new(o, def->cols[c].name, j) != 0) {
                    goto fail;
                }
            }
            if (!list) {
                break;
            }
        }
        if (!list && d->rows[t]->nelts == 0) {
            goto fail;
        }
    }
    return root;
fail:
    json_decref(root);
    return NULL;
}

const char *admin_doc_competition_id(json_t *json)
{
    json_t *c = json_object_get(json, "competition");
    json_t *id = json_is_object(c) ? json_object_get(c, "id") : NULL;

    return json_is_string(id) && admin_id_ok(json_string_value(id)) ? json_string_value(id) : NULL;
}

/* ------------------------------------------------------------------ statements */

static int is_int_col(const admin_col *c)
{
    return c->type == AC_ID || c->type == AC_PARENT || c->type == AC_REF
        || c->type == AC_INT || c->type == AC_NINT;
}

static const char *ph(const admin_col *c)
{
    return is_int_col(c) ? "%lld" : "%s";
}

const char *admin_sql_select(apr_pool_t *p, admin_table t)
{
    const admin_table_def *def = &admin_tables[t];
    const char *cols = "";
    int c;

    for (c = 0; c < def->ncols; c++) {
        cols = apr_pstrcat(p, cols, c ? ", " : "", "x.", def->cols[c].name, NULL);
    }
    switch (t) {
    case AD_COMPETITION:
        return apr_pstrcat(p, "SELECT ", cols, " FROM competition x WHERE x.id = %lld", NULL);
    case AD_LANE:
        return apr_pstrcat(p, "SELECT ", cols, " FROM lane x JOIN heat h ON h.id = x.heat_id"
                           " WHERE h.competition_id = %lld ORDER BY x.id", NULL);
    default:
        return apr_pstrcat(p, "SELECT ", cols, " FROM ", def->sql,
                           " x WHERE x.competition_id = %lld ORDER BY x.id", NULL);
    }
}

const char *admin_sql_owner(apr_pool_t *p, admin_table t)
{
    switch (t) {
    case AD_COMPETITION:
        return "SELECT id FROM competition WHERE id = %lld";
    case AD_LANE:
        return "SELECT h.competition_id FROM lane l JOIN heat h ON h.id = l.heat_id"
               " WHERE l.id = %lld";
    default:
        return apr_pstrcat(p, "SELECT competition_id FROM ", admin_tables[t].sql,
                           " WHERE id = %lld", NULL);
    }
}

const char *admin_sql_update(apr_pool_t *p, admin_table t)
{
    const admin_table_def *def = &admin_tables[t];
    const char *set = "";
    int c;

    for (c = 1; c < def->ncols; c++) {
        set = apr_pstrcat(p, set, c > 1 ? ", " : "", def->cols[c].name, " = ",
                          ph(&def->cols[c]), NULL);
    }
    return apr_pstrcat(p, "UPDATE ", def->sql, " SET ", set, " WHERE id = %lld", NULL);
}

const char *admin_sql_insert(apr_pool_t *p, admin_table t)
{
    const admin_table_def *def = &admin_tables[t];
    const char *cols = "", *vals = "";
    int c;

    for (c = 0; c < def->ncols; c++) {
        cols = apr_pstrcat(p, cols, c ? ", " : "", def->cols[c].name, NULL);
        vals = apr_pstrcat(p, vals, c ? ", " : "", ph(&def->cols[c]), NULL);
    }
    return apr_pstrcat(p, "INSERT INTO ", def->sql, " (", cols, ") VALUES (", vals, ")", NULL);
}

const char *admin_sql_delete(apr_pool_t *p, admin_table t)
{
    return apr_pstrcat(p, "DELETE FROM ", admin_tables[t].sql, " WHERE id = %lld", NULL);
}
