/* rk_leaderboard_json.c: the leaderboard bodies (WOD and overall), written in two
 * passes (sized, then written) from a computed rk_leaderboard. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rk_json.h"
#include "rk_leaderboard_int.h"

/* ------------------------------------------------------------------ lookups */

static idx_t wod_index(const rk_leaderboard *lb, const char *wod_id)
{
    return rk_leaderboard_table_find(&lb->wod_by_id, wod_id);
}

/* The division named DIVISION (not the no-division group), or NO_IDX.  The named
 * ones are in strcmp order before the group without a name. */
static idx_t div_index(const rk_leaderboard *lb, const char *division)
{
    size_t lo = 0, hi = lb->ndivs;

    if (!division) {
        return NO_IDX;
    }
    if (hi > 0 && lb->divs[hi - 1].name == NULL) {
        hi--;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(lb->divs[mid].name, division);

        if (c == 0) {
            return (idx_t)mid;
        }
        if (c < 0) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return NO_IDX;
}

int rk_leaderboard_has_division(const rk_leaderboard *lb, const char *division)
{
    return div_index(lb, division) != NO_IDX;
}

int rk_leaderboard_has_wod(const rk_leaderboard *lb, const char *wod_id)
{
    return wod_index(lb, wod_id) != NO_IDX;
}

size_t rk_leaderboard_ndivisions(const rk_leaderboard *lb)
{
    return lb->ndivs;
}

const char *rk_leaderboard_division_name(const rk_leaderboard *lb, size_t d)
{
    return d < lb->ndivs ? lb->divs[d].name : NULL;
}

size_t rk_leaderboard_division_count(const rk_leaderboard *lb, size_t d)
{
    return d < lb->ndivs ? lb->divs[d].count : 0;
}

int rk_leaderboard_overall_entry(const rk_leaderboard *lb, size_t d, size_t k,
                                 rk_leaderboard_entry *out)
{
    const lb_spot *sp;

    if (d >= lb->ndivs || k >= lb->divs[d].count) {
        return -1;
    }
    sp = &lb->spots[lb->order[lb->nwods * lb->nspots + lb->divs[d].start + k]];
    out->spot_id = sp->id;
    out->spot_name = sp->name;
    out->has_bib = sp->has_bib;
    out->bib = sp->bib;
    out->rank = (long long)sp->rank;
    return 0;
}

/* ------------------------------------------------------------------ JSON */

static void put_rank(rk_jw *jw, int64_t rank)
{
    if (rank) {
        rk_jw_int(jw, (long long)rank);
    }
    else {
        RK_JW_LIT(jw, "null");
    }
}

static void put_spot_head(rk_jw *jw, const lb_spot *sp)
{
    RK_JW_LIT(jw, ",\"spot_id\":");
    rk_jw_str(jw, sp->id);
    RK_JW_LIT(jw, ",\"spot_name\":");
    rk_jw_text(jw, sp->name);
    RK_JW_LIT(jw, ",\"bib\":");
    if (sp->has_bib) {
        rk_jw_int(jw, sp->bib);
    }
    else {
        RK_JW_LIT(jw, "null");
    }
}

/* {"rank":1,"points":1,"spot_id":"7","spot_name":"...","bib":12,"score":"07:45",
 *  "tiebreak":null,"heat_id":"40","lane_id":"400"}; W NO_IDX: a WOD not in the input
 *  (nobody placed: places gives 0 + 1, chart100 0) */
static void put_wod_entry(rk_jw *jw, const rk_leaderboard *lb, idx_t w, idx_t s)
{
    const lb_cell *c = w == NO_IDX ? NULL : rk_leaderboard_cell_at(lb, w, s);

    RK_JW_LIT(jw, "{\"rank\":");
    put_rank(jw, c ? c->rank : 0);
    RK_JW_LIT(jw, ",\"points\":");
    rk_jw_int(jw, w == NO_IDX ? (lb->chart ? 0 : 1) : (long long)rk_leaderboard_points_at(lb, w, s));
    put_spot_head(jw, &lb->spots[s]);
    RK_JW_LIT(jw, ",\"score\":");
    rk_jw_str(jw, c ? c->score : NULL);
    RK_JW_LIT(jw, ",\"tiebreak\":");
    rk_jw_str(jw, c ? c->tiebreak : NULL);
    RK_JW_LIT(jw, ",\"heat_id\":");
    rk_jw_str(jw, c ? c->heat_id : NULL);
    RK_JW_LIT(jw, ",\"lane_id\":");
    rk_jw_str(jw, c ? c->lane_id : NULL);
    RK_JW_LIT(jw, "}");
}

/* {"rank":1,"points":5,"spot_id":"7","spot_name":"...","bib":12,"advancing":null,"results":[
 *  {"wod_id":"3","rank":1,"points":1,"score":"07:45"},...]} */
static void put_overall_entry(rk_jw *jw, const rk_leaderboard *lb, idx_t s)
{
    const lb_spot *sp = &lb->spots[s];
    size_t w;

    RK_JW_LIT(jw, "{\"rank\":");
    put_rank(jw, sp->rank);
    RK_JW_LIT(jw, ",\"points\":");
    rk_jw_int(jw, (long long)sp->total);
    put_spot_head(jw, sp);
    RK_JW_LIT(jw, ",\"advancing\":");
    if (!lb->advance) {
        RK_JW_LIT(jw, "null");
    }
    else if (sp->rank && sp->rank <= lb->advance) {
        RK_JW_LIT(jw, "true");
    }
    else {
        RK_JW_LIT(jw, "false");
    }
    RK_JW_LIT(jw, ",\"results\":[");
    for (w = 0; w < lb->nwods; w++) {
        const lb_cell *c = rk_leaderboard_cell_at(lb, w, s);

        if (w) {
            RK_JW_LIT(jw, ",");
        }
        RK_JW_LIT(jw, "{\"wod_id\":");
        rk_jw_str(jw, lb->wods[w].id);
        RK_JW_LIT(jw, ",\"rank\":");
        put_rank(jw, c ? c->rank : 0);
        RK_JW_LIT(jw, ",\"points\":");
        rk_jw_int(jw, (long long)rk_leaderboard_points_at(lb, w, s));
        RK_JW_LIT(jw, ",\"score\":");
        rk_jw_str(jw, c ? c->score : NULL);
        RK_JW_LIT(jw, "}");
    }
    RK_JW_LIT(jw, "]}");
}

size_t rk_leaderboard_json(char *out, const rk_leaderboard *lb, const char *wod_id, const char *division)
{
    rk_jw jw = { out, 0 };
    size_t S = lb->nspots, W = lb->nwods, d, d0 = 0, d1 = lb->ndivs, k;
    idx_t w = NO_IDX;
    const idx_t *order;

    if (wod_id) {
        w = wod_index(lb, wod_id);
        /* a WOD not in the input: the base order, nobody placed */
        order = lb->order + (w == NO_IDX ? W + 1 : w) * S;
    }
    else {
        order = lb->order + W * S;
    }
    if (division) {
        idx_t di = div_index(lb, division);

        d0 = di == NO_IDX ? 0 : di;
        d1 = di == NO_IDX ? 0 : (size_t)di + 1;
    }

    RK_JW_LIT(&jw, "{\"status\":\"success\",\"leaderboard\":{\"competition_id\":");
    rk_jw_str(&jw, lb->competition_id);
    if (wod_id) {
        RK_JW_LIT(&jw, ",\"wod_id\":");
        rk_jw_str(&jw, wod_id);
        RK_JW_LIT(&jw, ",\"scoring\":");
        rk_jw_str(&jw, w == NO_IDX ? NULL : lb->wods[w].scoring_name);
    }
    if (lb->chart) {
        RK_JW_LIT(&jw, ",\"ranking\":\"chart100\"");
    }
    else {
        RK_JW_LIT(&jw, ",\"ranking\":\"places\"");
    }
    if (!wod_id) {
        RK_JW_LIT(&jw, ",\"wods\":[");
        for (k = 0; k < W; k++) {
            if (k) {
                RK_JW_LIT(&jw, ",");
            }
            rk_jw_str(&jw, lb->wods[k].id);
        }
        RK_JW_LIT(&jw, "]");
    }
    RK_JW_LIT(&jw, ",\"divisions\":[");
    for (d = d0; d < d1; d++) {
        const lb_div *dv = &lb->divs[d];

        if (d > d0) {
            RK_JW_LIT(&jw, ",");
        }
        RK_JW_LIT(&jw, "{\"division\":");
        rk_jw_str(&jw, dv->name);
        RK_JW_LIT(&jw, ",\"entries\":[");
        for (k = dv->start; k < (size_t)dv->start + dv->count; k++) {
            if (k > dv->start) {
                RK_JW_LIT(&jw, ",");
            }
            if (wod_id) {
                put_wod_entry(&jw, lb, w, order[k]);
            }
            else {
                put_overall_entry(&jw, lb, order[k]);
            }
        }
        RK_JW_LIT(&jw, "]}");
    }
    RK_JW_LIT(&jw, "]}}");
    return jw.len;
}
