/* admin_heats.c: generate-heats COMPETITION_ID WOD_ID --zone ID [options]: the heats of
 * a WOD seeded from the ranking, as POST /competition/{c}/wod/{w}/generate-heats does
 * (API.md Part 3, "Heat generation and cut lines"), with the same pure code: the
 * options become the route's body (rk_seed_parse checks them), the competition is
 * ranked as export-results ranks it (admin_rank), rk_seed_plan_make plans, and the
 * rows are written with the module's statements (lib/rk_sql.c, RK_Q_GEN_*) in one
 * transaction.  The answer's body is printed on standard output (ids null with
 * --dry-run, which writes nothing).  Like every write of this command, the change
 * log gets no record: the module's caches follow the data revision. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <apr_tables.h>
#include <jansson.h>

#include "admin.h"
#include "rk_leaderboard.h"
#include "rk_router.h"
#include "rk_seed.h"
#include "rk_sql.h"

/* The option NAME (with its leading "--") as the body's key, and whether its value is
 * an integer. */
static const struct { const char *opt, *key; int integer; } keys[] = {
    { "--zone", "zone_id", 0 }, { "--lanes", "lanes", 1 }, { "--order", "order", 0 },
    { "--lane-order", "lane_order", 0 }, { "--top", "top", 1 },
    { "--start-time", "start_time", 0 }, { "--interval", "interval", 1 },
    { "--seed", "seed", 1 },
};

/* TEXT as a JSON integer when it is one (else a string, which rk_seed_parse refuses
 * with the key's own message). */
static json_t *int_or_text(const char *text)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(text, &end, 10);
    return *text && !*end && !errno ? json_integer(v) : json_string(text);
}

/* The body of the route from O's options into *BODY (JSON text in P).  0 or an exit
 * status. */
static int options_body(apr_pool_t *p, const opts_t *o, char **body)
{
    json_t *b = json_object(), *divs = NULL;
    int i, rc = 0;
    size_t k;

    for (i = 0; i < o->ngen && rc == 0; i++) {
        size_t len = strcspn(o->gen_opt[i], "=");
        const char *v = o->gen_val[i];

        if (len == 10 && strncmp(o->gen_opt[i], "--division", len) == 0) {
            if (!divs) {
                json_object_set_new(b, "divisions", divs = json_array());
            }
            /* an empty name: the spots without division */
            json_array_append_new(divs, *v ? json_string(v) : json_null());
            continue;
        }
        for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
            if (strlen(keys[k].opt) == len && strncmp(o->gen_opt[i], keys[k].opt, len) == 0) {
                break;
            }
        }
        if (k == sizeof(keys) / sizeof(keys[0]) || json_object_get(b, keys[k].key)) {
            rc = admin_usage_error("option '%.*s' given twice", (int)len, o->gen_opt[i]);
        }
        else {
            json_object_set_new(b, keys[k].key, keys[k].integer ? int_or_text(v) : json_string(v));
        }
    }
    if (rc == 0 && !json_object_get(b, "zone_id")) {
        rc = admin_usage_error("missing --zone ID; usage: generate-heats COMPETITION_ID WOD_ID "
                               "--zone ID [options]");
    }
    if (rc == 0) {
        char *text;

        json_object_set_new(b, "replace", json_boolean(o->replace));
        json_object_set_new(b, "dry_run", json_boolean(o->dry_run));
        text = json_dumps(b, JSON_COMPACT);
        *body = text ? apr_pstrdup(p, text) : NULL;
        free(text);
    }
    json_decref(b);
    return rc;
}

/* The overall leaderboard's divisions and spots, copied into P. */
static void board_divisions(apr_pool_t *p, const rk_leaderboard *lb, rk_seed_division **out,
                            size_t *n)
{
    size_t d, k;

    *n = rk_leaderboard_ndivisions(lb);
    *out = apr_pcalloc(p, (*n + 1) * sizeof(**out));
    for (d = 0; d < *n; d++) {
        size_t c = rk_leaderboard_division_count(lb, d);
        rk_seed_spot *s = apr_pcalloc(p, (c + 1) * sizeof(*s));
        rk_leaderboard_entry e;

        for (k = 0; k < c && rk_leaderboard_overall_entry(lb, d, k, &e) == 0; k++) {
            s[k].id = e.spot_id;
            s[k].name = e.spot_name;
            s[k].has_bib = e.has_bib;
            s[k].bib = e.bib;
            s[k].has_rank = 1;
            s[k].rank = e.rank;
        }
        (*out)[d].name = rk_leaderboard_division_name(lb, d);
        (*out)[d].spots = s;
        (*out)[d].nspots = k;
    }
}

static const char *num(apr_pool_t *p, long long v)
{
    return apr_psprintf(p, "%" APR_INT64_T_FMT, (apr_int64_t)v);
}

/* In the open transaction: the checks (the WOD's heats in the zone), the plan
 * renumbered, and unless a dry run, the rows deleted and inserted; HEAT_IDS and
 * LANE_IDS filled.  0 or an exit status. */
static int write_plan(db_t *db, const char **ids, const rk_seed_request *req,
                      rk_seed_plan *plan, const char ***heat_ids, const char ***lane_ids)
{
    apr_array_header_t *rows = apr_array_make(db->pool, 8, sizeof(const char **));
    const char *args[6];
    long long left, hid, lid;
    size_t i, k, n = 0;
    int rc;

    if ((rc = data_select(db, rk_queries[RK_Q_GEN_HEATS].sql, 3, ids, 1, rows)) != 0) {
        return rc;
    }
    if (rows->nelts > 0 && !req->replace) {
        admin_err("WOD %s already has heats in zone %s (--replace replaces them)", ids[2], ids[1]);
        return EXIT_USER;
    }
    apr_array_clear(rows);
    if ((rc = data_select(db, rk_queries[RK_Q_GEN_SCORED].sql, 3, ids, 1, rows)) != 0
        || (rc = data_select(db, rk_queries[RK_Q_GEN_NUMBER_LEFT].sql, 3, ids, 1, rows)) != 0
        || (rc = data_select(db, rk_queries[RK_Q_GEN_LAST_IDS].sql, 0, NULL, 2, rows)) != 0) {
        return rc;
    }
    if (rows->nelts != 3) {
        return db_fail(db, 0, "reading the zone's heats");
    }
    if (atoll(APR_ARRAY_IDX(rows, 0, const char **)[0]) > 0) {
        admin_err("a heat of WOD %s to replace in zone %s has a lane with a score", ids[2], ids[1]);
        return EXIT_USER;
    }
    left = atoll(APR_ARRAY_IDX(rows, 1, const char **)[0]);
    hid = atoll(APR_ARRAY_IDX(rows, 2, const char **)[0]);
    lid = atoll(APR_ARRAY_IDX(rows, 2, const char **)[1]);
    for (i = 0; i < plan->nheats; i++) {
        plan->heats[i].number += left;
    }
    if (req->dry_run) {
        return 0;
    }
    if ((rc = data_run_n(db, rk_queries[RK_Q_GEN_DELETE_LANES].sql, 3, ids, NULL)) != 0
        || (rc = data_run_n(db, rk_queries[RK_Q_GEN_DELETE_HEATS].sql, 3, ids, NULL)) != 0) {
        return rc;
    }
    *heat_ids = apr_pcalloc(db->pool, (plan->nheats + 1) * sizeof(**heat_ids));
    *lane_ids = apr_pcalloc(db->pool, (plan->nlanes + 1) * sizeof(**lane_ids));
    for (i = 0; i < plan->nheats && rc == 0; i++) {
        const rk_seed_heat *h = &plan->heats[i];

        (*heat_ids)[i] = args[0] = num(db->pool, ++hid);
        args[1] = ids[0];
        args[2] = ids[1];
        args[3] = ids[2];
        args[4] = num(db->pool, h->number);
        args[5] = h->has_start ? h->start_time : "";
        rc = data_run_n(db, rk_queries[RK_Q_GEN_HEAT_INSERT].sql, 6, args, NULL);
        for (k = 0; k < h->nlanes && rc == 0; k++) {
            (*lane_ids)[n++] = args[0] = num(db->pool, ++lid);
            args[1] = (*heat_ids)[i];
            args[2] = num(db->pool, h->lanes[k].number);
            args[3] = h->lanes[k].spot->id;
            rc = data_run_n(db, rk_queries[RK_Q_GEN_LANE_INSERT].sql, 4, args, NULL);
        }
    }
    return rc;
}

/* The WOD of the competition and the zone's lane_count.  0 or an exit status. */
static int wod_and_zone(db_t *db, const char **ids, long long *lane_count)
{
    apr_array_header_t *rows = apr_array_make(db->pool, 1, sizeof(const char **));
    const char *args[2] = { ids[0], ids[2] };
    int rc;

    if ((rc = data_select(db, rk_queries[RK_Q_WOD].sql, 2, args, 1, rows)) != 0) {
        return rc;
    }
    if (rows->nelts == 0) {
        admin_err("competition %s has no WOD %s", ids[0], ids[2]);
        return EXIT_USER;
    }
    args[1] = ids[1];
    apr_array_clear(rows);
    if ((rc = data_select(db, rk_queries[RK_Q_ZONE].sql, 2, args, 4, rows)) != 0) {
        return rc;
    }
    if (rows->nelts == 0) {
        admin_err("competition %s has no zone %s", ids[0], ids[1]);
        return EXIT_USER;
    }
    *lane_count = atoll(APR_ARRAY_IDX(rows, 0, const char **)[3]);
    return 0;
}

int cmd_generate_heats(db_t *db, const opts_t *o)
{
    apr_pool_t *p = db->pool;
    const char *ids[3], *err = NULL, **heat_ids = NULL, **lane_ids = NULL;
    char *body = NULL, *answer;
    rk_seed_request req;
    rk_seed_division *divs;
    rk_seed_plan plan;
    rk_leaderboard *lb = NULL;
    long long lane_count = 0;
    size_t ndivs, len;
    int rc;

    memset(&plan, 0, sizeof(plan));
    if (o->force) {
        return admin_usage_error("--force goes with 'import' only");
    }
    if ((rc = options_body(p, o, &body)) != 0) {
        return rc;
    }
    if (!body || rk_seed_parse(body, strlen(body), p, &req, &err) != 0) {
        return admin_usage_error("%s", err ? err + (strncmp(err, "Invalid body: ", 14) ? 0 : 14)
                                           : "out of memory");
    }
    ids[0] = o->arg_id;
    ids[1] = req.zone_id;
    ids[2] = o->arg[1];
    if (!rk_id_valid(ids[2], strlen(ids[2]))) {
        return admin_usage_error("invalid WOD id '%s'", ids[2]);
    }
    if ((rc = need_version(db, "generate-heats", 2)) != 0 || (rc = admin_rank(db, ids[0], &lb)) != 0) {
        return rc;
    }
    board_divisions(p, lb, &divs, &ndivs);
    if ((rc = db_begin(db)) == 0 && (db->sqlite || (rc = db_lock_revision(db)) == 0)
        && (rc = wod_and_zone(db, ids, &lane_count)) == 0) {
        if (rk_seed_check_lanes(&req, lane_count, &err) != 0) {
            rc = admin_usage_error("%s", err + 14);
        }
        else if ((rc = rk_seed_plan_make(&req, lane_count, 1, divs, ndivs, p, &plan, &err)) != 0) {
            rc = rc == RK_SEED_REFUSED ? admin_usage_error("%s", err + 14)
                                       : (admin_err("%s", err), EXIT_DB);
        }
        else {
            rc = write_plan(db, ids, &req, &plan, &heat_ids, &lane_ids);
        }
    }
    rc = db_end(db, rc);
    if (rc == 0) {
        answer = rk_seed_plan_json(&plan, ids[0], ids[1], ids[2], heat_ids, lane_ids, p, &len);
        fwrite(answer, 1, len, stdout);
        fputc('\n', stdout);
        if (!req.dry_run) {
            fprintf(stderr, PROG ": %lu %s and %lu %s written in zone %s\n",
                    (unsigned long)plan.nheats, plan.nheats == 1 ? "heat" : "heats",
                    (unsigned long)plan.nlanes, plan.nlanes == 1 ? "lane" : "lanes", ids[1]);
        }
    }
    rk_leaderboard_free(lb);
    return rc;
}
