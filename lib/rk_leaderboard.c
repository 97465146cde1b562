/* rk_leaderboard.c: ranking and leaderboard bodies.  See rk_leaderboard.h.
 *
 * Layout: spots are first put in their "base order" (division, bib, id), which groups
 * each division into one run of positions [start, start + count).  Every ordering
 * after that (a WOD's places, the overall places) only permutes spots within their
 * division's run, so a body is written by walking runs.
 *
 * A spot's result in a WOD is a "cell", made only for the (spot, WOD) pairs that have
 * a lane; a dense spots x WODs table of 4-byte indices finds them.  A dense table of
 * cells would be 24,000 cells (1.5 MB) for the bench competition, mostly empty, and
 * touching that much fresh memory cost more than the ranking itself.  A pair without
 * a cell has no lane, hence no place, and its points follow from its division's count
 * of placed spots.
 *
 * Sorting is a merge sort with a context pointer (qsort has none, and a static context
 * would not be thread-safe under a threaded MPM); it is stable, and every comparison
 * ends on the base position, so equal keys keep the base order, which is the
 * contract's tie order for entries (bib, then id). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rk_leaderboard_int.h"
#include "rk_mem.h"

/* ------------------------------------------------------------------ base order */

/* division (strcmp, none last), bib (by value, none last), id (by value), input order */
static int base_cmp(const void *ctx, idx_t a, idx_t b)
{
    const lb_spot *x = &((const lb_spot *)ctx)[a], *y = &((const lb_spot *)ctx)[b];
    int c;

    if ((c = rk_leaderboard_nullable_strcmp(x->division, y->division)) != 0) {
        return c;
    }
    if (x->has_bib != y->has_bib) {
        return x->has_bib ? -1 : 1;
    }
    if (x->has_bib && x->bib != y->bib) {
        return x->bib < y->bib ? -1 : 1;
    }
    if ((c = rk_leaderboard_id_cmp(x->id ? x->id : "", y->id ? y->id : "")) != 0) {
        return c;
    }
    return rk_leaderboard_cmp_i64(a, b);
}

/* ------------------------------------------------------------------ results */

static int cell_placed(const lb_cell *c)
{
    return c && (c->skind == RK_SCORE_VALUE || c->skind == RK_SCORE_CAPPED);
}

/* <0 when A (score, then tiebreak) is better than B.  Unplaced scores after placed
 * ones; a tiebreak with a value before none; the tiebreak only separates equal
 * scores with a place. */
static int result_cmp(rk_scoring scoring, const lb_cell *a, const lb_cell *b)
{
    rk_score x = { (rk_score_kind)a->skind, a->sv }, y = { (rk_score_kind)b->skind, b->sv };
    int c = rk_score_cmp(scoring, &x, &y);
    int ta = a->tkind == RK_SCORE_VALUE, tb = b->tkind == RK_SCORE_VALUE;

    if (c != 0 || !cell_placed(a)) {
        return c;
    }
    if (ta != tb) {
        return ta ? -1 : 1;
    }
    return ta ? rk_leaderboard_cmp_i64(a->tv, b->tv) : 0;
}

/* Points of a place under chart100: 100, 95, 90, 85, 80, 75, then 2 fewer per place
 * (73 for 7th ... 1 for 43rd), 0 from the 44th. */
static int64_t chart_points(int64_t place)
{
    static const int64_t top[] = { 100, 95, 90, 85, 80, 75 };

    if (place >= 1 && place <= 6) {
        return top[place - 1];
    }
    return place >= 7 && place <= 43 ? 87 - 2 * place : 0;
}

/* The points of spot S in WOD W: from its place; without one, places gives the
 * number of placed spots of its division + 1, chart100 gives 0. */
int64_t rk_leaderboard_points_at(const rk_leaderboard *lb, size_t w, size_t s)
{
    int32_t rank = rk_leaderboard_rank_at(lb, w, s);

    if (rank) {
        return lb->chart ? chart_points(rank) : rank;
    }
    return lb->chart ? 0 : (int64_t)lb->placed[w * lb->ndivs + lb->spots[s].div] + 1;
}

typedef struct {
    const rk_leaderboard *lb;
    size_t w;
} wod_ctx;

static int wod_order_cmp(const void *ctx, idx_t a, idx_t b)
{
    const wod_ctx *c = ctx;
    int r = result_cmp(c->lb->wods[c->w].scoring, rk_leaderboard_cell_at(c->lb, c->w, a),
                       rk_leaderboard_cell_at(c->lb, c->w, b));

    return r ? r : rk_leaderboard_cmp_i64(c->lb->spots[a].pos, c->lb->spots[b].pos);
}

/* Rank WOD W in every division: the placed spots sorted (their cells get their
 * place), then the others in base order.  LIST and TMP: room for nspots each. */
static void rank_wod(rk_leaderboard *lb, size_t w, idx_t *list, idx_t *tmp)
{
    wod_ctx ctx = { lb, w };
    idx_t *order = lb->order + w * lb->nspots;
    const idx_t *base = lb->order + (lb->nwods + 1) * lb->nspots;
    size_t d, i, k, n;

    for (d = 0; d < lb->ndivs; d++) {
        const lb_div *dv = &lb->divs[d];
        idx_t *out = order + dv->start;

        for (n = 0, k = dv->start; k < dv->start + dv->count; k++) {
            if (cell_placed(rk_leaderboard_cell_at(lb, w, base[k]))) {
                list[n++] = base[k];
            }
        }
        rk_leaderboard_msort(list, tmp, n, wod_order_cmp, &ctx);
        for (i = 0; i < n; i++) {
            lb_cell *c = &lb->cells[lb->cell_of[w * lb->nspots + list[i]]];

            /* equal to the one before: the same (best) place; else its position */
            c->rank = i > 0 && result_cmp(lb->wods[w].scoring, c,
                                          rk_leaderboard_cell_at(lb, w, list[i - 1])) == 0
                      ? rk_leaderboard_rank_at(lb, w, list[i - 1]) : (int32_t)i + 1;
            out[i] = list[i];
        }
        lb->placed[w * lb->ndivs + d] = (idx_t)n;
        for (k = dv->start; k < dv->start + dv->count; k++) {
            if (!cell_placed(rk_leaderboard_cell_at(lb, w, base[k]))) {
                out[i++] = base[k];
            }
        }
    }
}

/* ------------------------------------------------------------------ overall */

typedef struct {
    const rk_leaderboard *lb;
    const int32_t *places;   /* [s * nwods + k]: spot s's places, ascending */
    const idx_t *nplaces;    /* [s] */
} all_ctx;

/* Countback: <0 when A has more 1st places, or as many and more 2nd places, and so
 * on.  With both lists of places ascending, that is the first index where they differ:
 * the smaller place there is the one held more often; a list that ends first has
 * fewer of the next place. */
static int countback_cmp(const all_ctx *c, idx_t a, idx_t b)
{
    const int32_t *pa = c->places + (size_t)a * c->lb->nwods;
    const int32_t *pb = c->places + (size_t)b * c->lb->nwods;
    size_t na = c->nplaces[a], nb = c->nplaces[b], i;

    for (i = 0; i < na && i < nb; i++) {
        if (pa[i] != pb[i]) {
            return pa[i] < pb[i] ? -1 : 1;
        }
    }
    return na == nb ? 0 : na > nb ? -1 : 1;
}

static int overall_cmp(const all_ctx *c, idx_t a, idx_t b)
{
    int r = rk_leaderboard_cmp_i64(c->lb->spots[a].total, c->lb->spots[b].total);

    if (r != 0) {
        return c->lb->chart ? -r : r;   /* chart100: highest first; places: lowest */
    }
    return countback_cmp(c, a, b);
}

static int all_order_cmp(const void *ctx, idx_t a, idx_t b)
{
    const all_ctx *c = ctx;
    int r = overall_cmp(c, a, b);

    return r ? r : rk_leaderboard_cmp_i64(c->lb->spots[a].pos, c->lb->spots[b].pos);
}

static int rank_overall(rk_leaderboard *lb, idx_t *tmp)
{
    size_t S = lb->nspots, W = lb->nwods, s, w, d, i, k;
    int32_t *places = rk_mem_alloc(rk_leaderboard_nonzero(S * W) * sizeof(*places));
    idx_t *nplaces = rk_mem_calloc(rk_leaderboard_nonzero(S), sizeof(*nplaces));
    idx_t *order = lb->order + W * S;
    all_ctx ctx = { lb, places, nplaces };

    if (!places || !nplaces) {
        rk_mem_free(places);
        rk_mem_free(nplaces);
        return -1;
    }
    for (s = 0; s < S; s++) {
        int32_t *p = places + s * W;

        lb->spots[s].total = 0;
        for (w = 0; w < W; w++) {
            int32_t r = rk_leaderboard_rank_at(lb, w, s);

            lb->spots[s].total += rk_leaderboard_points_at(lb, w, s);
            if (r) {
                /* insertion into the sorted list: a spot has at most one place per WOD */
                for (k = nplaces[s]++; k > 0 && p[k - 1] > r; k--) {
                    p[k] = p[k - 1];
                }
                p[k] = r;
            }
        }
    }
    memcpy(order, lb->order + (W + 1) * S, S * sizeof(*order));
    for (d = 0; d < lb->ndivs; d++) {
        idx_t *run = order + lb->divs[d].start;
        size_t n = lb->divs[d].count;

        rk_leaderboard_msort(run, tmp, n, all_order_cmp, &ctx);
        for (i = 0; i < n; i++) {
            lb->spots[run[i]].rank = i > 0 && overall_cmp(&ctx, run[i], run[i - 1]) == 0
                                     ? lb->spots[run[i - 1]].rank : (int64_t)i + 1;
        }
    }
    rk_mem_free(places);
    rk_mem_free(nplaces);
    return 0;
}

/* ------------------------------------------------------------------ compute */

void rk_leaderboard_free(rk_leaderboard *lb)
{
    if (!lb) {
        return;
    }
    rk_mem_free(lb->spots);
    rk_mem_free(lb->wods);
    rk_leaderboard_table_free(&lb->wod_by_id);
    rk_mem_free(lb->divs);
    rk_mem_free(lb->cells);
    rk_mem_free(lb->cell_of);
    rk_mem_free(lb->placed);
    rk_mem_free(lb->order);
    rk_mem_free(lb);
}

/* Offer lane L of WOD W to spot S: it becomes the lane shown when the spot has none
 * there yet, or when it is better than the one there (a placed score beats an
 * unplaced one, then score, then tiebreak).  An equal one does not replace the first
 * (the lanes come in heat-list order), nor does any lane when none has a place. */
static void offer_lane(rk_leaderboard *lb, size_t w, size_t s, const rk_leaderboard_lane *l)
{
    const lb_wod *wod = &lb->wods[w];
    idx_t *slot = &lb->cell_of[w * lb->nspots + s];
    lb_cell cand;
    rk_score sc, tb;
    const char *err;
    size_t k;

    memset(&cand, 0, sizeof(cand));
    if (rk_score_parse(wod->scoring, wod->cap, l->score, &sc, &err) != 0) {
        sc.kind = RK_SCORE_NONE;   /* unreadable (or beyond the cap): no score */
        sc.v = 0;
    }
    if (!l->tiebreak || rk_tiebreak_parse(l->tiebreak, &tb, &err) != 0) {
        tb.kind = RK_SCORE_NONE;   /* none, or unreadable: as null */
        tb.v = 0;
    }
    cand.skind = (uint8_t)sc.kind;
    cand.sv = sc.v;
    cand.tkind = (uint8_t)tb.kind;
    cand.tv = tb.v;
    if (*slot != NO_IDX
        && (!cell_placed(&cand) || result_cmp(wod->scoring, &cand, &lb->cells[*slot]) >= 0)) {
        return;
    }
    cand.score = l->score;
    for (k = 0; l->score && k <= LB_STEXT && l->score[k]; k++) {
        unsigned char ch = (unsigned char)l->score[k];

        if (k == LB_STEXT || ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') {
            break;
        }
        cand.stext[k] = (char)ch;
    }
    cand.slen = l->score && l->score[k] == '\0' ? (uint8_t)k : 0;
    cand.tiebreak = l->tiebreak;
    cand.heat_id = l->heat_id;
    cand.lane_id = l->lane_id;
    if (*slot == NO_IDX) {
        *slot = (idx_t)lb->ncells++;
    }
    lb->cells[*slot] = cand;
}

rk_leaderboard *rk_leaderboard_compute(const rk_leaderboard_input *in)
{
    size_t S = in->nspots, W = in->nwods, s, w, l, k;
    rk_leaderboard *lb;
    idx_t *tmp = NULL, *list = NULL, *base;
    id_table spot_by_id = { { NULL, 0 }, NULL, NULL, 0 };

    /* indices are 32-bit, and (W + 2) * S must not wrap */
    if (S >= NO_IDX || W >= NO_IDX || in->nlanes >= NO_IDX
        || (S && (W + 2) > SIZE_MAX / sizeof(idx_t) / S)) {
        return NULL;
    }
    if (!(lb = rk_mem_calloc(1, sizeof(*lb)))) {
        return NULL;
    }
    lb->competition_id = in->competition_id;
    lb->chart = in->ranking && strcmp(in->ranking, "chart100") == 0;
    if (!rk_leaderboard_parse_int(in->advance, &lb->advance)
        || lb->advance < 1) {
        lb->advance = 0;
    }
    lb->nspots = S;
    lb->nwods = W;
    lb->spots = rk_mem_calloc(rk_leaderboard_nonzero(S), sizeof(*lb->spots));
    lb->wods = rk_mem_calloc(rk_leaderboard_nonzero(W), sizeof(*lb->wods));
    lb->divs = rk_mem_calloc(rk_leaderboard_nonzero(S), sizeof(*lb->divs));
    lb->cells = rk_mem_alloc(rk_leaderboard_nonzero(in->nlanes) * sizeof(*lb->cells));
    lb->cell_of = rk_mem_alloc(rk_leaderboard_nonzero(W * S) * sizeof(*lb->cell_of));
    lb->order = rk_mem_alloc(rk_leaderboard_nonzero((W + 2) * S) * sizeof(*lb->order));
    tmp = rk_mem_alloc(rk_leaderboard_nonzero(S) * sizeof(*tmp));
    list = rk_mem_alloc(rk_leaderboard_nonzero(S) * sizeof(*list));
    if (!lb->spots || !lb->wods || !lb->divs || !lb->cells || !lb->cell_of || !lb->order
        || !tmp || !list) {
        goto fail;
    }
    memset(lb->cell_of, 0xff, W * S * sizeof(*lb->cell_of));   /* NO_IDX everywhere */

    /* spots, in their base order, divisions as runs of it */
    for (s = 0; s < S; s++) {
        lb_spot *sp = &lb->spots[s];

        sp->id = in->spots[s].id;
        sp->name = in->spots[s].name;
        sp->division = in->spots[s].division;
        sp->has_bib = rk_leaderboard_parse_int(in->spots[s].bib, &sp->bib);
    }
    base = lb->order + (W + 1) * S;
    for (s = 0; s < S; s++) {
        base[s] = (idx_t)s;
    }
    rk_leaderboard_msort(base, tmp, S, base_cmp, lb->spots);
    for (k = 0; k < S; k++) {
        lb_spot *sp = &lb->spots[base[k]];

        if (k == 0 || rk_leaderboard_nullable_strcmp(sp->division, lb->spots[base[k - 1]].division) != 0) {
            lb->divs[lb->ndivs].name = sp->division;
            lb->divs[lb->ndivs].start = (idx_t)k;
            lb->ndivs++;
        }
        lb->divs[lb->ndivs - 1].count++;
        sp->pos = (idx_t)k;
        sp->div = (idx_t)(lb->ndivs - 1);
    }
    if (!(lb->placed = rk_mem_calloc(rk_leaderboard_nonzero(W * lb->ndivs), sizeof(*lb->placed)))) {
        goto fail;
    }

    /* WODs, and the lookups by id */
    for (w = 0; w < W; w++) {
        long long cap;

        lb->wods[w].id = in->wods[w].id;
        lb->wods[w].scoring_name = in->wods[w].scoring;
        lb->wods[w].scoring = rk_scoring_parse(in->wods[w].scoring);
        lb->wods[w].cap = rk_leaderboard_parse_int(in->wods[w].time_cap, &cap) && cap > 0 ? cap : 0;
    }
    if (rk_leaderboard_table_build(&lb->wod_by_id, &lb->wods[0].id, sizeof(lb_wod), W) != 0
        || rk_leaderboard_table_build(&spot_by_id, &lb->spots[0].id, sizeof(lb_spot), S) != 0) {
        goto fail;
    }

    /* each spot's best lane in each WOD */
    for (l = 0; l < in->nlanes; l++) {
        const rk_leaderboard_lane *lane = &in->lanes[l];
        idx_t wi = rk_leaderboard_table_find(&lb->wod_by_id, lane->wod_id);
        idx_t si = rk_leaderboard_table_find(&spot_by_id, lane->spot_id);

        if (wi != NO_IDX && si != NO_IDX) {
            offer_lane(lb, wi, si, lane);
        }
    }

    for (w = 0; w < W; w++) {
        rank_wod(lb, w, list, tmp);
    }
    if (rank_overall(lb, tmp) != 0) {
        goto fail;
    }
    rk_leaderboard_table_free(&spot_by_id);
    rk_mem_free(tmp);
    rk_mem_free(list);
    return lb;

fail:
    rk_leaderboard_table_free(&spot_by_id);
    rk_mem_free(tmp);
    rk_mem_free(list);
    rk_leaderboard_free(lb);
    return NULL;
}
