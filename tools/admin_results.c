/* admin_results.c: export-results, the overall leaderboard of a competition as CSV
 * on stdout: division, rank, points, bib, team, then one column per WOD (its name)
 * with the team's points in that WOD.  The leaderboard is computed by rk_leaderboard
 * from the rows the module reads for it (its own statements, rk_sql.c), so that the
 * command ranks as the API does. */
#include <stdio.h>
#include <string.h>

#include <apr_strings.h>
#include <apr_tables.h>
#include <jansson.h>

#include "admin.h"
#include "rk_csv.h"
#include "admin_doc.h"
#include "rk_leaderboard.h"
#include "rk_sql.h"

/* The rows of competition CID that the leaderboard needs, each a const char **. */
typedef struct {
    apr_array_header_t *comp;   /* id, ranking, advance */
    apr_array_header_t *wods;   /* id, scoring, time_cap */
    apr_array_header_t *names;  /* the WODs' rows (admin_doc.h), for their names */
    apr_array_header_t *spots;  /* id, name, division, bib */
    apr_array_header_t *lanes;  /* wod, spot, heat, lane, score, tiebreak, number */
} results_rows;

/* Read the rows of competition CID into R, in one transaction.  0 or an exit
 * status. */
static int read_rows(db_t *db, const char *cid, results_rows *r)
{
    const char *args[1] = { cid };
    int rc;

    r->comp = apr_array_make(db->pool, 1, sizeof(const char **));
    r->wods = apr_array_make(db->pool, 8, sizeof(const char **));
    r->names = apr_array_make(db->pool, 8, sizeof(const char **));
    r->spots = apr_array_make(db->pool, 64, sizeof(const char **));
    r->lanes = apr_array_make(db->pool, 256, sizeof(const char **));
    if ((rc = db_begin(db)) != 0) {
        return rc;
    }
    if ((rc = data_select(db, rk_queries[RK_Q_LEADERBOARD_COMPETITION].sql, 1, args, 3, r->comp)) == 0
        && (rc = data_select(db, rk_queries[RK_Q_LEADERBOARD_WODS].sql, 1, args, 3, r->wods)) == 0
        && (rc = data_select(db, admin_sql_select(db->pool, AD_WOD), 1, args,
                             admin_tables[AD_WOD].ncols, r->names)) == 0
        && (rc = data_select(db, rk_queries[RK_Q_LEADERBOARD_SPOTS].sql, 1, args, 4, r->spots)) == 0
        && (rc = data_select(db, rk_queries[RK_Q_LEADERBOARD_LANES].sql, 1, args, 7, r->lanes)) == 0) {
        rc = data_select(db, rk_queries[RK_Q_LEADERBOARD_LANES_UNTIMED].sql, 1, args, 7, r->lanes);
    }
    return db_end(db, rc);
}

/* The leaderboard's input from the rows R (at least the competition's), in P. */
static void lb_input(apr_pool_t *p, const results_rows *r, rk_leaderboard_input *in)
{
    rk_leaderboard_wod *w;
    rk_leaderboard_spot *s;
    rk_leaderboard_lane *l;
    size_t i;

    memset(in, 0, sizeof(*in));
    in->competition_id = APR_ARRAY_IDX(r->comp, 0, const char **)[0];
    in->ranking = APR_ARRAY_IDX(r->comp, 0, const char **)[1];
    in->advance = APR_ARRAY_IDX(r->comp, 0, const char **)[2];
    in->nwods = (size_t)r->wods->nelts;
    in->wods = w = apr_pcalloc(p, (in->nwods + 1) * sizeof(*w));
    for (i = 0; i < in->nwods; i++) {
        const char **v = APR_ARRAY_IDX(r->wods, i, const char **);

        w[i].id = v[0];
        w[i].scoring = v[1];
        w[i].time_cap = v[2];
    }
    in->nspots = (size_t)r->spots->nelts;
    in->spots = s = apr_pcalloc(p, (in->nspots + 1) * sizeof(*s));
    for (i = 0; i < in->nspots; i++) {
        const char **v = APR_ARRAY_IDX(r->spots, i, const char **);

        s[i].id = v[0];
        s[i].name = v[1];
        s[i].division = v[2];
        s[i].bib = v[3];
    }
    in->nlanes = (size_t)r->lanes->nelts;
    in->lanes = l = apr_pcalloc(p, (in->nlanes + 1) * sizeof(*l));
    for (i = 0; i < in->nlanes; i++) {
        const char **v = APR_ARRAY_IDX(r->lanes, i, const char **);

        l[i].wod_id = v[0];
        l[i].spot_id = v[1];
        l[i].heat_id = v[2];
        l[i].lane_id = v[3];
        l[i].score = v[4];
        l[i].tiebreak = v[5];
    }
}

/* The leaderboard of IN as the API writes it, parsed into *OUT (NULL when it does
 * not parse): {"status":"success","leaderboard":{...,"divisions":[...]}}.  0, or -1
 * when out of memory. */
static int lb_json(apr_pool_t *p, const rk_leaderboard_input *in, json_t **out)
{
    rk_leaderboard *lb = rk_leaderboard_compute(in);
    char *body;
    size_t n;

    if (!lb) {
        return -1;
    }
    n = rk_leaderboard_json(NULL, lb, NULL, NULL);
    body = apr_palloc(p, n + 1);
    rk_leaderboard_json(body, lb, NULL, NULL);
    rk_leaderboard_free(lb);
    *out = json_loadb(body, n, 0, NULL);
    return 0;
}

/* The header row: the fixed columns, then each WOD of IN by its name (from NAMES,
 * the WODs' rows), or "wod ID" when it has none. */
static void write_header(apr_pool_t *p, const rk_leaderboard_input *in, apr_array_header_t *names)
{
    size_t i;
    int m;

    fputs("division,rank,points,bib,team", stdout);
    for (i = 0; i < in->nwods; i++) {
        const char *name = "";

        for (m = 0; m < names->nelts; m++) {
            const char **v = APR_ARRAY_IDX(names, m, const char **);

            if (strcmp(v[0], in->wods[i].id) == 0) {
                name = v[2];
            }
        }
        fputc(',', stdout);
        rk_csv_field(stdout, *name ? name : apr_psprintf(p, "wod %s", in->wods[i].id));
    }
    fputs("\r\n", stdout);
}

/* A row for each entry of each division of DIVS. */
static void write_entries(json_t *divs)
{
    json_t *div, *e, *res;
    size_t i, j, k;

    json_array_foreach(divs, i, div) {
        json_t *entries = json_object_get(div, "entries");

        json_array_foreach(entries, j, e) {
            json_t *bib = json_object_get(e, "bib");

            rk_csv_field(stdout, json_string_value(json_object_get(div, "division")));
            printf(",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",",
                   json_integer_value(json_object_get(e, "rank")),
                   json_integer_value(json_object_get(e, "points")));
            if (json_is_integer(bib)) {
                printf("%" JSON_INTEGER_FORMAT, json_integer_value(bib));
            }
            fputc(',', stdout);
            rk_csv_field(stdout, json_string_value(json_object_get(e, "spot_name")));
            res = json_object_get(e, "results");
            for (k = 0; k < json_array_size(res); k++) {
                printf(",%" JSON_INTEGER_FORMAT,
                       json_integer_value(json_object_get(json_array_get(res, k), "points")));
            }
            fputs("\r\n", stdout);
        }
    }
}

int admin_rank(db_t *db, const char *cid, rk_leaderboard **lb)
{
    results_rows rows;
    rk_leaderboard_input in;
    int rc = read_rows(db, cid, &rows);

    if (rc != 0) {
        return rc;
    }
    if (rows.comp->nelts == 0) {
        return no_competition(cid);
    }
    lb_input(db->pool, &rows, &in);
    if (!(*lb = rk_leaderboard_compute(&in))) {
        admin_err("out of memory");
        return EXIT_DB;
    }
    return 0;
}

int cmd_export_results(db_t *db, const opts_t *o)
{
    results_rows rows;
    rk_leaderboard_input in;
    json_t *json, *divs;
    int rc;

    rc = need_version(db, "export-results", 2);
    if (rc == 0) {
        rc = read_rows(db, o->arg_id, &rows);
    }
    if (rc != 0) {
        return rc;
    }
    if (rows.comp->nelts == 0) {
        return no_competition(o->arg_id);
    }
    lb_input(db->pool, &rows, &in);
    if (lb_json(db->pool, &in, &json) != 0) {
        admin_err("out of memory");
        return EXIT_DB;
    }
    divs = json_object_get(json_object_get(json, "leaderboard"), "divisions");
    if (!json_is_array(divs)) {
        json_decref(json);
        admin_err("cannot read the leaderboard");
        return EXIT_DB;
    }
    write_header(db->pool, &in, rows.names);
    write_entries(divs);
    json_decref(json);
    return 0;
}
