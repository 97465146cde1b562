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

/* A cell's score as a JSON string (null without a cell or a score) */
static void put_score(rk_jw *jw, const lb_cell *c)
{
    if (c && c->slen) {
        char q[LB_STEXT + 2];

        q[0] = '"';
        memcpy(q + 1, c->stext, c->slen);
        q[c->slen + 1] = '"';
        rk_jw_put(jw, q, (size_t)c->slen + 2);
    }
    else {
        rk_jw_str(jw, c ? c->score : NULL);
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
    put_score(jw, c);
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
        put_score(jw, c);
        RK_JW_LIT(jw, "}");
    }
    RK_JW_LIT(jw, "]}");
}

/* What a body shows: the board LB, WOD_ID's (W, NO_IDX when not in the input) or the
 * overall one, in ORDER, divisions D0 to D1 (excluded). */
typedef struct {
    const rk_leaderboard *lb;
    const char *wod_id;
    idx_t w;
    const idx_t *order;
    size_t d0, d1;
} body;

/* A body is written in pieces: its head, each division's opening, each entry (K-th
 * of division D), each division's close, its tail. */
enum { PIECE_HEAD, PIECE_DIV_OPEN, PIECE_ENTRY, PIECE_DIV_CLOSE, PIECE_TAIL };

static void put_piece(rk_jw *jw, const body *b, int piece, size_t d, size_t k)
{
    const rk_leaderboard *lb = b->lb;
    size_t i;

    switch (piece) {
    case PIECE_HEAD:
        RK_JW_LIT(jw, "{\"status\":\"success\",\"leaderboard\":{\"competition_id\":");
        rk_jw_str(jw, lb->competition_id);
        if (b->wod_id) {
            RK_JW_LIT(jw, ",\"wod_id\":");
            rk_jw_str(jw, b->wod_id);
            RK_JW_LIT(jw, ",\"scoring\":");
            rk_jw_str(jw, b->w == NO_IDX ? NULL : lb->wods[b->w].scoring_name);
        }
        if (lb->chart) {
            RK_JW_LIT(jw, ",\"ranking\":\"chart100\"");
        }
        else {
            RK_JW_LIT(jw, ",\"ranking\":\"places\"");
        }
        if (!b->wod_id) {
            RK_JW_LIT(jw, ",\"wods\":[");
            for (i = 0; i < lb->nwods; i++) {
                if (i) {
                    RK_JW_LIT(jw, ",");
                }
                rk_jw_str(jw, lb->wods[i].id);
            }
            RK_JW_LIT(jw, "]");
        }
        RK_JW_LIT(jw, ",\"divisions\":[");
        break;
    case PIECE_DIV_OPEN:
        if (d > b->d0) {
            RK_JW_LIT(jw, ",");
        }
        RK_JW_LIT(jw, "{\"division\":");
        rk_jw_str(jw, lb->divs[d].name);
        RK_JW_LIT(jw, ",\"entries\":[");
        break;
    case PIECE_ENTRY:
        if (k > lb->divs[d].start) {
            RK_JW_LIT(jw, ",");
        }
        if (b->wod_id) {
            put_wod_entry(jw, lb, b->w, b->order[k]);
        }
        else {
            put_overall_entry(jw, lb, b->order[k]);
        }
        break;
    case PIECE_DIV_CLOSE:
        RK_JW_LIT(jw, "]}");
        break;
    default:
        RK_JW_LIT(jw, "]}}");
    }
}

/* Where a body goes: JW (OUT NULL: counted only; else OUT has room for it all), or,
 * with RESIZE, a buffer of CAP bytes grown by it as the pieces come (each piece is
 * counted, then written: its rows are then in the processor's cache). */
typedef struct {
    rk_jw jw;
    size_t cap;
    rk_leaderboard_resize_fn *resize;
    void *ctx;
    int failed;
} sink;

static void emit(sink *s, const body *b, int piece, size_t d, size_t k)
{
    if (s->resize) {
        rk_jw count = { NULL, 0 };

        if (s->failed) {
            return;
        }
        put_piece(&count, b, piece, d, k);
        if (count.len > s->cap - s->jw.len) {
            size_t need = s->jw.len + count.len, want = s->cap + s->cap / 2;
            char *out;

            if (need < s->jw.len) {   /* wrapped */
                s->failed = 1;
                return;
            }
            if (want < need || want < s->cap) {
                want = need;
            }
            if (!(out = s->resize(s->ctx, s->jw.out, want))) {
                s->failed = 1;
                return;
            }
            s->jw.out = out;
            s->cap = want;
        }
    }
    put_piece(&s->jw, b, piece, d, k);
}

/* The entries are written in rank order, their spots and cells all over memory: the
 * spot and the cells of the entry PREFETCH_NEAR ahead (and, NEAR 0, where to find them:
 * the spot's record, PREFETCH_FAR ahead) are asked of memory before they are needed. */
#define PREFETCH_NEAR 4
#define PREFETCH_FAR 8

static void prefetch_entry(const body *b, size_t k, int near)
{
    const rk_leaderboard *lb = b->lb;
    size_t s, w;

    if (k >= lb->nspots) {
        return;
    }
    s = b->order[k];
    if (!near) {
        __builtin_prefetch(&lb->spots[s]);
        return;
    }
    __builtin_prefetch(lb->spots[s].id);
    __builtin_prefetch(lb->spots[s].name);
    if (b->wod_id) {
        if (b->w != NO_IDX) {
            __builtin_prefetch(rk_leaderboard_cell_at(lb, b->w, s));
        }
        return;
    }
    for (w = 0; w < lb->nwods; w++) {
        __builtin_prefetch(rk_leaderboard_cell_at(lb, w, s));
    }
}

static void write_body(sink *s, const rk_leaderboard *lb, const char *wod_id, const char *division)
{
    size_t S = lb->nspots, W = lb->nwods, d, k;
    body b = { lb, wod_id, NO_IDX, NULL, 0, lb->ndivs };

    if (wod_id) {
        b.w = wod_index(lb, wod_id);
        /* a WOD not in the input: the base order, nobody placed */
        b.order = lb->order + (b.w == NO_IDX ? W + 1 : b.w) * S;
    }
    else {
        b.order = lb->order + W * S;
    }
    if (division) {
        idx_t di = div_index(lb, division);

        b.d0 = di == NO_IDX ? 0 : di;
        b.d1 = di == NO_IDX ? 0 : (size_t)di + 1;
    }
    emit(s, &b, PIECE_HEAD, 0, 0);
    for (d = b.d0; d < b.d1; d++) {
        const lb_div *dv = &lb->divs[d];

        emit(s, &b, PIECE_DIV_OPEN, d, 0);
        for (k = dv->start; k < (size_t)dv->start + dv->count; k++) {
            prefetch_entry(&b, k + PREFETCH_FAR, 0);
            prefetch_entry(&b, k + PREFETCH_NEAR, 1);
            emit(s, &b, PIECE_ENTRY, d, k);
        }
        emit(s, &b, PIECE_DIV_CLOSE, d, 0);
    }
    emit(s, &b, PIECE_TAIL, 0, 0);
}

size_t rk_leaderboard_json(char *out, const rk_leaderboard *lb, const char *wod_id, const char *division)
{
    sink s = { { out, 0 }, 0, NULL, NULL, 0 };

    write_body(&s, lb, wod_id, division);
    return s.jw.len;
}

size_t rk_leaderboard_json_grow(const rk_leaderboard *lb, const char *wod_id, const char *division,
                                char **buf, size_t cap, rk_leaderboard_resize_fn *resize,
                                void *ctx)
{
    sink s = { { *buf, 0 }, *buf ? cap : 0, resize, ctx, 0 };

    write_body(&s, lb, wod_id, division);
    *buf = s.jw.out;
    return s.failed ? (size_t)-1 : s.jw.len;
}
