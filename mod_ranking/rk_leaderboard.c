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

#include "rk_json.h"
#include "rk_leaderboard.h"
#include "rk_score.h"

typedef uint32_t idx_t;     /* a spot, WOD or cell index (inputs are far smaller) */
#define NO_IDX UINT32_MAX

typedef struct {
    const char *id, *name, *division;
    long long bib;
    int has_bib;
    idx_t pos;          /* position in the base order */
    idx_t div;          /* index in divs */
    int64_t total;      /* overall points */
    int64_t rank;       /* overall place, >= 1 */
} lb_spot;

typedef struct {
    const char *id, *scoring_name;
    rk_scoring scoring;
    int64_t cap;        /* seconds, 0 = none */
} lb_wod;

/* One spot in one WOD where it has at least one lane: the lane shown and its result. */
typedef struct {
    const char *score, *tiebreak, *heat_id, *lane_id;
    int64_t sv, tv;     /* the parsed score's and tiebreak's values */
    int32_t rank;       /* 0 = no place */
    uint8_t skind;      /* rk_score_kind of the score; NONE: none or unreadable */
    uint8_t tkind;      /* rk_score_kind of the tiebreak; NONE: none or unreadable */
} lb_cell;

typedef struct {
    const char *name;   /* NULL: the group of spots without a division */
    idx_t start, count;
} lb_div;

/* ------------------------------------------------------------------ helpers */

typedef int (*cmp_fn)(const void *ctx, idx_t a, idx_t b);

/* Stable merge sort of N indices, TMP of the same size. */
static void msort(idx_t *a, idx_t *tmp, size_t n, cmp_fn cmp, const void *ctx)
{
    size_t half = n / 2, i = 0, j = half, k = 0;

    if (n < 2) {
        return;
    }
    msort(a, tmp, half, cmp, ctx);
    msort(a + half, tmp, n - half, cmp, ctx);
    if (cmp(ctx, a[half - 1], a[half]) <= 0) {
        return;   /* already in order: sorted input costs O(n) */
    }
    while (i < half && j < n) {
        tmp[k++] = cmp(ctx, a[j], a[i]) < 0 ? a[j++] : a[i++];
    }
    while (i < half) {
        tmp[k++] = a[i++];
    }
    /* what is left of the right half is already in place */
    memcpy(a, tmp, k * sizeof(*a));
}

/* An allocation size of N items, at least one: every array exists, even empty, so
 * that &array[0] is always a valid address. */
static size_t nonzero(size_t n)
{
    return n ? n : 1;
}

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* An integer column as rk_json shows one (RK_F_INT): the whole string, in range. */
static int parse_int(const char *s, long long *v)
{
    char *end;

    if (!s) {
        return 0;
    }
    errno = 0;
    *v = strtoll(s, &end, 10);
    return !errno && end != s && *end == '\0';
}

/* Compare decimal ids by value: leading zeros skipped, then the longer is larger;
 * strcmp breaks what is left (an id is digits, but this stays a total order on any
 * string). */
static int id_cmp(const char *a, const char *b)
{
    const char *x = a, *y = b;
    size_t lx, ly;
    int c;

    while (*x == '0' && x[1]) {
        x++;
    }
    while (*y == '0' && y[1]) {
        y++;
    }
    lx = strlen(x);
    ly = strlen(y);
    if (lx != ly) {
        return lx < ly ? -1 : 1;
    }
    if ((c = strcmp(x, y)) != 0) {
        return c;
    }
    return strcmp(a, b);
}

static int nullable_strcmp(const char *a, const char *b)   /* NULL after any string */
{
    if (!a || !b) {
        return (a == NULL) - (b == NULL);
    }
    return strcmp(a, b);
}

/* ------------------------------------------------------------------ base order */

/* division (strcmp, none last), bib (by value, none last), id (by value), input order */
static int base_cmp(const void *ctx, idx_t a, idx_t b)
{
    const lb_spot *x = &((const lb_spot *)ctx)[a], *y = &((const lb_spot *)ctx)[b];
    int c;

    if ((c = nullable_strcmp(x->division, y->division)) != 0) {
        return c;
    }
    if (x->has_bib != y->has_bib) {
        return x->has_bib ? -1 : 1;
    }
    if (x->has_bib && x->bib != y->bib) {
        return x->bib < y->bib ? -1 : 1;
    }
    if ((c = id_cmp(x->id ? x->id : "", y->id ? y->id : "")) != 0) {
        return c;
    }
    return cmp_i64(a, b);
}

/* ------------------------------------------------------------------ lookups by id */

/* Items of an array by id: IDS points at the id of item 0, STRIDE bytes between two
 * items' ids (the WODs and the spots keep their id at the same place). */
typedef struct {
    const char *const *ids;
    size_t stride;
} by_id_ctx;

static const char *item_id(const by_id_ctx *c, size_t i)
{
    const char *id = *(const char *const *)(const void *)((const char *)c->ids + i * c->stride);

    return id ? id : "";
}

/* An open-addressing hash table of item indices by id (exact bytes, as strcmp): every
 * lane looks up its WOD and its spot, and a binary search over strings was most of
 * the compute time of a large board.  The first item of an id wins. */
typedef struct {
    by_id_ctx items;
    idx_t *slots;       /* item index, or NO_IDX for an empty slot */
    uint32_t *hashes;   /* [item]: the hash of its id */
    size_t mask;
} id_table;

static uint32_t id_hash(const char *s)   /* FNV-1a */
{
    uint32_t h = 2166136261u;

    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

static idx_t table_find(const id_table *t, const char *id)
{
    uint32_t h;
    size_t j;

    if (!id) {
        return NO_IDX;
    }
    h = id_hash(id);
    for (j = h & t->mask; t->slots[j] != NO_IDX; j = (j + 1) & t->mask) {
        idx_t i = t->slots[j];

        if (t->hashes[i] == h && strcmp(item_id(&t->items, i), id) == 0) {
            return i;
        }
    }
    return NO_IDX;
}

/* Fill T with the N items of ITEMS (a load factor of at most 1/2).  0, or -1 when
 * out of memory. */
static int table_build(id_table *t, const char *const *ids, size_t stride, size_t n)
{
    size_t size = 4, i;

    t->items.ids = ids;
    t->items.stride = stride;
    while (size < 2 * n) {
        size *= 2;
    }
    t->mask = size - 1;
    t->slots = malloc(size * sizeof(*t->slots));
    t->hashes = malloc(nonzero(n) * sizeof(*t->hashes));
    if (!t->slots || !t->hashes) {
        return -1;
    }
    memset(t->slots, 0xff, size * sizeof(*t->slots));   /* NO_IDX everywhere */
    for (i = 0; i < n; i++) {
        const char *id = item_id(&t->items, i);
        size_t j;

        t->hashes[i] = id_hash(id);
        if (table_find(t, id) != NO_IDX) {
            continue;   /* a second item with that id: never found */
        }
        j = t->hashes[i] & t->mask;
        while (t->slots[j] != NO_IDX) {
            j = (j + 1) & t->mask;
        }
        t->slots[j] = (idx_t)i;
    }
    return 0;
}

static void table_free(id_table *t)
{
    free(t->slots);
    free(t->hashes);
}

struct rk_lb {
    const char *competition_id;
    int chart;                  /* 1: chart100, 0: places */
    size_t nspots, nwods, ndivs, ncells;
    lb_spot *spots;
    lb_wod *wods;
    id_table wod_by_id;         /* WOD indices by id */
    lb_div *divs;               /* strcmp order, the no-division group last */
    lb_cell *cells;
    idx_t *cell_of;             /* [w * nspots + s]: the cell, or NO_IDX (no lane) */
    idx_t *placed;              /* [w * ndivs + d]: spots of division d with a place in w */
    idx_t *order;               /* [w * nspots + k]: WOD w's entry order; [nwods * nspots
                                   + k]: overall; [(nwods + 1) * nspots + k]: base order */
};

/* ------------------------------------------------------------------ results */

static const lb_cell *cell_at(const rk_lb *lb, size_t w, size_t s)
{
    idx_t c = lb->cell_of[w * lb->nspots + s];

    return c == NO_IDX ? NULL : &lb->cells[c];
}

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
    return ta ? cmp_i64(a->tv, b->tv) : 0;
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

static int32_t rank_at(const rk_lb *lb, size_t w, size_t s)
{
    const lb_cell *c = cell_at(lb, w, s);

    return c ? c->rank : 0;
}

/* The points of spot S in WOD W: from its place; without one, places gives the
 * number of placed spots of its division + 1, chart100 gives 0. */
static int64_t points_at(const rk_lb *lb, size_t w, size_t s)
{
    int32_t rank = rank_at(lb, w, s);

    if (rank) {
        return lb->chart ? chart_points(rank) : rank;
    }
    return lb->chart ? 0 : (int64_t)lb->placed[w * lb->ndivs + lb->spots[s].div] + 1;
}

typedef struct {
    const rk_lb *lb;
    size_t w;
} wod_ctx;

static int wod_order_cmp(const void *ctx, idx_t a, idx_t b)
{
    const wod_ctx *c = ctx;
    int r = result_cmp(c->lb->wods[c->w].scoring, cell_at(c->lb, c->w, a),
                       cell_at(c->lb, c->w, b));

    return r ? r : cmp_i64(c->lb->spots[a].pos, c->lb->spots[b].pos);
}

/* Rank WOD W in every division: the placed spots sorted (their cells get their
 * place), then the others in base order.  LIST and TMP: room for nspots each. */
static void rank_wod(rk_lb *lb, size_t w, idx_t *list, idx_t *tmp)
{
    wod_ctx ctx = { lb, w };
    idx_t *order = lb->order + w * lb->nspots;
    const idx_t *base = lb->order + (lb->nwods + 1) * lb->nspots;
    size_t d, i, k, n;

    for (d = 0; d < lb->ndivs; d++) {
        const lb_div *dv = &lb->divs[d];
        idx_t *out = order + dv->start;

        for (n = 0, k = dv->start; k < dv->start + dv->count; k++) {
            if (cell_placed(cell_at(lb, w, base[k]))) {
                list[n++] = base[k];
            }
        }
        msort(list, tmp, n, wod_order_cmp, &ctx);
        for (i = 0; i < n; i++) {
            lb_cell *c = &lb->cells[lb->cell_of[w * lb->nspots + list[i]]];

            /* equal to the one before: the same (best) place; else its position */
            c->rank = i > 0 && result_cmp(lb->wods[w].scoring, c,
                                          cell_at(lb, w, list[i - 1])) == 0
                      ? rank_at(lb, w, list[i - 1]) : (int32_t)i + 1;
            out[i] = list[i];
        }
        lb->placed[w * lb->ndivs + d] = (idx_t)n;
        for (k = dv->start; k < dv->start + dv->count; k++) {
            if (!cell_placed(cell_at(lb, w, base[k]))) {
                out[i++] = base[k];
            }
        }
    }
}

/* ------------------------------------------------------------------ overall */

typedef struct {
    const rk_lb *lb;
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
    int r = cmp_i64(c->lb->spots[a].total, c->lb->spots[b].total);

    if (r != 0) {
        return c->lb->chart ? -r : r;   /* chart100: highest first; places: lowest */
    }
    return countback_cmp(c, a, b);
}

static int all_order_cmp(const void *ctx, idx_t a, idx_t b)
{
    const all_ctx *c = ctx;
    int r = overall_cmp(c, a, b);

    return r ? r : cmp_i64(c->lb->spots[a].pos, c->lb->spots[b].pos);
}

static int rank_overall(rk_lb *lb, idx_t *tmp)
{
    size_t S = lb->nspots, W = lb->nwods, s, w, d, i, k;
    int32_t *places = malloc(nonzero(S * W) * sizeof(*places));
    idx_t *nplaces = calloc(nonzero(S), sizeof(*nplaces));
    idx_t *order = lb->order + W * S;
    all_ctx ctx = { lb, places, nplaces };

    if (!places || !nplaces) {
        free(places);
        free(nplaces);
        return -1;
    }
    for (s = 0; s < S; s++) {
        int32_t *p = places + s * W;

        lb->spots[s].total = 0;
        for (w = 0; w < W; w++) {
            int32_t r = rank_at(lb, w, s);

            lb->spots[s].total += points_at(lb, w, s);
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

        msort(run, tmp, n, all_order_cmp, &ctx);
        for (i = 0; i < n; i++) {
            lb->spots[run[i]].rank = i > 0 && overall_cmp(&ctx, run[i], run[i - 1]) == 0
                                     ? lb->spots[run[i - 1]].rank : (int64_t)i + 1;
        }
    }
    free(places);
    free(nplaces);
    return 0;
}

/* ------------------------------------------------------------------ compute */

void rk_lb_free(rk_lb *lb)
{
    if (!lb) {
        return;
    }
    free(lb->spots);
    free(lb->wods);
    table_free(&lb->wod_by_id);
    free(lb->divs);
    free(lb->cells);
    free(lb->cell_of);
    free(lb->placed);
    free(lb->order);
    free(lb);
}

/* Offer lane L of WOD W to spot S: it becomes the lane shown when the spot has none
 * there yet, or when it is better than the one there (a placed score beats an
 * unplaced one, then score, then tiebreak).  An equal one does not replace the first
 * (the lanes come in heat-list order), nor does any lane when none has a place. */
static void offer_lane(rk_lb *lb, size_t w, size_t s, const rk_lb_lane *l)
{
    const lb_wod *wod = &lb->wods[w];
    idx_t *slot = &lb->cell_of[w * lb->nspots + s];
    lb_cell cand;
    rk_score sc, tb;
    const char *err;

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
    cand.tiebreak = l->tiebreak;
    cand.heat_id = l->heat_id;
    cand.lane_id = l->lane_id;
    if (*slot == NO_IDX) {
        *slot = (idx_t)lb->ncells++;
    }
    lb->cells[*slot] = cand;
}

rk_lb *rk_lb_compute(const rk_lb_input *in)
{
    size_t S = in->nspots, W = in->nwods, s, w, l, k;
    rk_lb *lb;
    idx_t *tmp = NULL, *list = NULL, *base;
    id_table spot_by_id = { { NULL, 0 }, NULL, NULL, 0 };

    /* indices are 32-bit, and (W + 2) * S must not wrap */
    if (S >= NO_IDX || W >= NO_IDX || in->nlanes >= NO_IDX
        || (S && (W + 2) > SIZE_MAX / sizeof(idx_t) / S)) {
        return NULL;
    }
    if (!(lb = calloc(1, sizeof(*lb)))) {
        return NULL;
    }
    lb->competition_id = in->competition_id;
    lb->chart = in->ranking && strcmp(in->ranking, "chart100") == 0;
    lb->nspots = S;
    lb->nwods = W;
    lb->spots = calloc(nonzero(S), sizeof(*lb->spots));
    lb->wods = calloc(nonzero(W), sizeof(*lb->wods));
    lb->divs = calloc(nonzero(S), sizeof(*lb->divs));
    lb->cells = malloc(nonzero(in->nlanes) * sizeof(*lb->cells));
    lb->cell_of = malloc(nonzero(W * S) * sizeof(*lb->cell_of));
    lb->order = malloc(nonzero((W + 2) * S) * sizeof(*lb->order));
    tmp = malloc(nonzero(S) * sizeof(*tmp));
    list = malloc(nonzero(S) * sizeof(*list));
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
        sp->has_bib = parse_int(in->spots[s].bib, &sp->bib);
    }
    base = lb->order + (W + 1) * S;
    for (s = 0; s < S; s++) {
        base[s] = (idx_t)s;
    }
    msort(base, tmp, S, base_cmp, lb->spots);
    for (k = 0; k < S; k++) {
        lb_spot *sp = &lb->spots[base[k]];

        if (k == 0 || nullable_strcmp(sp->division, lb->spots[base[k - 1]].division) != 0) {
            lb->divs[lb->ndivs].name = sp->division;
            lb->divs[lb->ndivs].start = (idx_t)k;
            lb->ndivs++;
        }
        lb->divs[lb->ndivs - 1].count++;
        sp->pos = (idx_t)k;
        sp->div = (idx_t)(lb->ndivs - 1);
    }
    if (!(lb->placed = calloc(nonzero(W * lb->ndivs), sizeof(*lb->placed)))) {
        goto fail;
    }

    /* WODs, and the lookups by id */
    for (w = 0; w < W; w++) {
        long long cap;

        lb->wods[w].id = in->wods[w].id;
        lb->wods[w].scoring_name = in->wods[w].scoring;
        lb->wods[w].scoring = rk_scoring_parse(in->wods[w].scoring);
        lb->wods[w].cap = parse_int(in->wods[w].time_cap, &cap) && cap > 0 ? cap : 0;
    }
    if (table_build(&lb->wod_by_id, &lb->wods[0].id, sizeof(lb_wod), W) != 0
        || table_build(&spot_by_id, &lb->spots[0].id, sizeof(lb_spot), S) != 0) {
        goto fail;
    }

    /* each spot's best lane in each WOD */
    for (l = 0; l < in->nlanes; l++) {
        const rk_lb_lane *lane = &in->lanes[l];
        idx_t wi = table_find(&lb->wod_by_id, lane->wod_id);
        idx_t si = table_find(&spot_by_id, lane->spot_id);

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
    table_free(&spot_by_id);
    free(tmp);
    free(list);
    return lb;

fail:
    table_free(&spot_by_id);
    free(tmp);
    free(list);
    rk_lb_free(lb);
    return NULL;
}

/* ------------------------------------------------------------------ lookups */

static idx_t wod_index(const rk_lb *lb, const char *wod_id)
{
    return table_find(&lb->wod_by_id, wod_id);
}

/* The division named DIVISION (not the no-division group), or NO_IDX.  The named
 * ones are in strcmp order before the group without a name. */
static idx_t div_index(const rk_lb *lb, const char *division)
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

int rk_lb_has_division(const rk_lb *lb, const char *division)
{
    return div_index(lb, division) != NO_IDX;
}

int rk_lb_has_wod(const rk_lb *lb, const char *wod_id)
{
    return wod_index(lb, wod_id) != NO_IDX;
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
static void put_wod_entry(rk_jw *jw, const rk_lb *lb, idx_t w, idx_t s)
{
    const lb_cell *c = w == NO_IDX ? NULL : cell_at(lb, w, s);

    RK_JW_LIT(jw, "{\"rank\":");
    put_rank(jw, c ? c->rank : 0);
    RK_JW_LIT(jw, ",\"points\":");
    rk_jw_int(jw, w == NO_IDX ? (lb->chart ? 0 : 1) : (long long)points_at(lb, w, s));
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

/* {"rank":1,"points":5,"spot_id":"7","spot_name":"...","bib":12,"results":[
 *  {"wod_id":"3","rank":1,"points":1,"score":"07:45"},...]} */
static void put_overall_entry(rk_jw *jw, const rk_lb *lb, idx_t s)
{
    const lb_spot *sp = &lb->spots[s];
    size_t w;

    RK_JW_LIT(jw, "{\"rank\":");
    put_rank(jw, sp->rank);
    RK_JW_LIT(jw, ",\"points\":");
    rk_jw_int(jw, (long long)sp->total);
    put_spot_head(jw, sp);
    RK_JW_LIT(jw, ",\"results\":[");
    for (w = 0; w < lb->nwods; w++) {
        const lb_cell *c = cell_at(lb, w, s);

        if (w) {
            RK_JW_LIT(jw, ",");
        }
        RK_JW_LIT(jw, "{\"wod_id\":");
        rk_jw_str(jw, lb->wods[w].id);
        RK_JW_LIT(jw, ",\"rank\":");
        put_rank(jw, c ? c->rank : 0);
        RK_JW_LIT(jw, ",\"points\":");
        rk_jw_int(jw, (long long)points_at(lb, w, s));
        RK_JW_LIT(jw, ",\"score\":");
        rk_jw_str(jw, c ? c->score : NULL);
        RK_JW_LIT(jw, "}");
    }
    RK_JW_LIT(jw, "]}");
}

size_t rk_lb_json(char *out, const rk_lb *lb, const char *wod_id, const char *division)
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
