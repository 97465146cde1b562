/* rk_seed_json.c: heat generation, the answer (rk_seed_plan_json) and the reader of an
 * overall leaderboard body (rk_seed_divisions_from_board).  See rk_seed.h. */
#include <stdio.h>
#include <string.h>

#include <apr_strings.h>
#include <jansson.h>

#include "rk_json.h"
#include "rk_router.h"
#include "rk_seed.h"

/* ------------------------------------------------------------------ the board */

static int board_entry(const json_t *e, apr_pool_t *pool, rk_seed_spot *s)
{
    const json_t *id = json_object_get(e, "spot_id"), *name = json_object_get(e, "spot_name");
    const json_t *bib = json_object_get(e, "bib"), *rank = json_object_get(e, "rank");

    if (!json_is_object(e) || !json_is_string(id)
        || !rk_id_valid(json_string_value(id), json_string_length(id))
        || !(json_is_null(name) || json_is_string(name))
        || !(json_is_null(bib) || json_is_integer(bib))
        || !(json_is_null(rank) || json_is_integer(rank))) {
        return -1;
    }
    s->id = apr_pstrdup(pool, json_string_value(id));
    s->name = json_is_string(name)
              ? apr_pstrmemdup(pool, json_string_value(name), json_string_length(name)) : NULL;
    s->has_bib = json_is_integer(bib);
    s->bib = s->has_bib ? (long long)json_integer_value(bib) : 0;
    s->has_rank = json_is_integer(rank);
    s->rank = s->has_rank ? (long long)json_integer_value(rank) : 0;
    return 0;
}

int rk_seed_divisions_from_board(const char *json, size_t len, apr_pool_t *pool,
                                 rk_seed_division **divs, size_t *ndivs, const char **err)
{
    json_t *root, *board, *list;
    rk_seed_division *d = NULL;
    size_t i, j, n = 0;
    int rv = -1;

    *divs = NULL;
    *ndivs = 0;
    root = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);
    board = json_object_get(root, "leaderboard");
    if (!board) {
        board = root;
    }
    list = json_object_get(board, "divisions");
    if (!json_is_array(list)) {
        *err = "seed: the leaderboard has no divisions array";
        goto done;
    }
    n = json_array_size(list);
    d = apr_pcalloc(pool, (n ? n : 1) * sizeof(*d));
    for (i = 0; i < n; i++) {
        const json_t *g = json_array_get(list, i);
        const json_t *name = json_object_get(g, "division");
        const json_t *entries = json_object_get(g, "entries");
        rk_seed_spot *spots;

        if (!json_is_object(g) || !(json_is_null(name) || json_is_string(name))
            || !json_is_array(entries)) {
            *err = "seed: a division of the leaderboard is not readable";
            goto done;
        }
        d[i].name = json_is_string(name)
                    ? apr_pstrmemdup(pool, json_string_value(name), json_string_length(name))
                    : NULL;
        d[i].nspots = json_array_size(entries);
        spots = apr_pcalloc(pool, (d[i].nspots ? d[i].nspots : 1) * sizeof(*spots));
        for (j = 0; j < d[i].nspots; j++) {
            if (board_entry(json_array_get(entries, j), pool, &spots[j]) != 0) {
                *err = "seed: an entry of the leaderboard is not readable";
                goto done;
            }
        }
        d[i].spots = spots;
    }
    *divs = d;
    *ndivs = n;
    rv = 0;
done:
    json_decref(root);
    return rv;
}

/* ------------------------------------------------------------------ the answer */

/* one object of RES's fields, left open (without its '}') for the caller to go on */
static void open_object(rk_jw *w, const rk_resource *res, const char *const *values)
{
    size_t n = rk_json_object(w->out ? w->out + w->len : NULL, res, values);

    w->len += n - 1;
}

/* HV, LV: room for the fields of a heat and of a lane */
static void write_plan(rk_jw *w, const rk_seed_plan *plan, const char *competition_id,
                       const char *zone_id, const char *wod_id,
                       const char *const *heat_ids, const char *const *lane_ids,
                       const char **hv, const char **lv)
{
    char num[24], lnum[24];
    size_t h, q, li = 0;
    int f;

    RK_JW_LIT(w, "{\"status\":\"success\",\"heats\":[");
    for (h = 0; h < plan->nheats; h++) {
        const rk_seed_heat *heat = &plan->heats[h];
        const char *hid = heat_ids ? heat_ids[h] : NULL;

        snprintf(num, sizeof(num), "%lld", heat->number);
        for (f = 0; f < rk_res_heat.nfields; f++) {
            const char *name = rk_res_heat.fields[f].name;

            hv[f] = strcmp(name, "id") == 0 ? hid
                  : strcmp(name, "competition_id") == 0 ? competition_id
                  : strcmp(name, "zone_id") == 0 ? zone_id
                  : strcmp(name, "wod_id") == 0 ? wod_id
                  : strcmp(name, "number") == 0 ? num
                  : strcmp(name, "start_time") == 0 ? (heat->has_start ? heat->start_time : NULL)
                  : strcmp(name, "status") == 0 ? "scheduled"
                  : NULL;
        }
        if (h) {
            RK_JW_LIT(w, ",");
        }
        open_object(w, &rk_res_heat, hv);
        RK_JW_LIT(w, ",\"voies\":[");
        for (q = 0; q < heat->nlanes; q++, li++) {
            const rk_seed_lane *lane = &heat->lanes[q];

            snprintf(lnum, sizeof(lnum), "%lld", lane->number);
            for (f = 0; f < rk_res_voie.nfields; f++) {
                const char *name = rk_res_voie.fields[f].name;

                lv[f] = strcmp(name, "id") == 0 ? (lane_ids ? lane_ids[li] : NULL)
                      : strcmp(name, "heat_id") == 0 ? hid
                      : strcmp(name, "number") == 0 ? lnum
                      : strcmp(name, "spot_id") == 0 ? lane->spot->id
                      : strcmp(name, "spot_name") == 0 ? lane->spot->name
                      : NULL;
            }
            if (q) {
                RK_JW_LIT(w, ",");
            }
            w->len += rk_json_object(w->out ? w->out + w->len : NULL, &rk_res_voie, lv);
        }
        RK_JW_LIT(w, "]}");
    }
    RK_JW_LIT(w, "]}");
}

char *rk_seed_plan_json(const rk_seed_plan *plan, const char *competition_id,
                        const char *zone_id, const char *wod_id,
                        const char *const *heat_ids, const char *const *lane_ids,
                        apr_pool_t *pool, size_t *len)
{
    const char **hv = apr_palloc(pool, (size_t)rk_res_heat.nfields * sizeof(*hv));
    const char **lv = apr_palloc(pool, (size_t)rk_res_voie.nfields * sizeof(*lv));
    rk_jw w = { NULL, 0 };
    char *out;

    write_plan(&w, plan, competition_id, zone_id, wod_id, heat_ids, lane_ids, hv, lv);
    out = apr_palloc(pool, w.len + 1);
    w.out = out;
    w.len = 0;
    write_plan(&w, plan, competition_id, zone_id, wod_id, heat_ids, lane_ids, hv, lv);
    out[w.len] = '\0';
    *len = w.len;
    return out;
}
