/* rk_seed.c: heat generation, the planner (rk_seed_plan_make): the blocks, the
 * selection and seeding orders with RK_SEED_PRNG, the heat sizes, the lanes, the
 * numbers and start times.  The body and the instants: rk_seed_body.c; the answer
 * and the board reader: rk_seed_json.c.  See rk_seed.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <apr_pools.h>

#include "rk_router.h"
#include "rk_seed.h"
#include "rk_seed_int.h"

/* ------------------------------------------------------------------ the PRNG */

unsigned long long rk_seed_prng_next(unsigned long long *state)
{
    unsigned long long x = *state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

unsigned long long rk_seed_prng_init(long long seed)
{
    unsigned long long s = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed;
    int i;

    for (i = 0; i < 16; i++) {
        rk_seed_prng_next(&s);
    }
    return s;
}

/* ------------------------------------------------------------------ the orders */

int rk_seed_div_cmp(const char *a, const char *b)
{
    if (!a || !b) {
        return !a - !b;
    }
    return strcmp(a, b);
}

/* ids: decimal, no leading zero: shorter is smaller, else bytes */
static int id_cmp(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);

    if (la != lb) {
        return la < lb ? -1 : 1;
    }
    return strcmp(a, b);
}

static int nullable_cmp(int has_a, long long a, int has_b, long long b)
{
    if (has_a != has_b) {
        return has_a ? -1 : 1;     /* a value before null */
    }
    if (!has_a || a == b) {
        return 0;
    }
    return a < b ? -1 : 1;
}

/* the leaderboard's order: rank, bib, id */
static int board_cmp(const void *x, const void *y)
{
    const rk_seed_spot *a = *(const rk_seed_spot *const *)x, *b = *(const rk_seed_spot *const *)y;
    int c = nullable_cmp(a->has_rank, a->rank, b->has_rank, b->rank);

    if (c == 0) {
        c = nullable_cmp(a->has_bib, a->bib, b->has_bib, b->bib);
    }
    return c ? c : id_cmp(a->id, b->id);
}

/* bib ascending, none last, then id */
static int bib_cmp(const void *x, const void *y)
{
    const rk_seed_spot *a = *(const rk_seed_spot *const *)x, *b = *(const rk_seed_spot *const *)y;
    int c = nullable_cmp(a->has_bib, a->bib, b->has_bib, b->bib);

    return c ? c : id_cmp(a->id, b->id);
}

static int id_ptr_cmp(const void *x, const void *y)
{
    const rk_seed_spot *a = *(const rk_seed_spot *const *)x, *b = *(const rk_seed_spot *const *)y;

    return id_cmp(a->id, b->id);
}

/* Lanes by distance from the middle (N + 1) / 2, lower number first at equal
 * distance: for an odd N the middle lane, then m-1, m+1, m-2, m+2, ...; for an even N
 * N/2, N/2+1, N/2-1, N/2+2, ... */
void rk_seed_center_order(long long lane_count, long long *out)
{
    long long lo, hi, k = 0;

    if (lane_count < 1) {
        return;
    }
    if (lane_count % 2) {
        lo = (lane_count + 1) / 2;
        out[k++] = lo;
        hi = lo + 1;
        lo--;
    }
    else {
        lo = lane_count / 2;
        hi = lo + 1;
    }
    while (k < lane_count) {
        out[k++] = lo--;
        out[k++] = hi++;
    }
}

static int lane_cmp(const void *x, const void *y)
{
    const rk_seed_lane *a = x, *b = y;

    return a->number < b->number ? -1 : a->number > b->number;
}

/* index of NAME among the sorted division pointers, or -1 */
static long find_division(const rk_seed_division *const *sorted, size_t n, const char *name)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = rk_seed_div_cmp(sorted[mid]->name, name);

        if (c == 0) {
            return (long)mid;
        }
        if (c < 0) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return -1;
}

static int div_struct_cmp(const void *x, const void *y)
{
    return rk_seed_div_cmp((*(const rk_seed_division *const *)x)->name,
                           (*(const rk_seed_division *const *)y)->name);
}

/* ------------------------------------------------------------------ the planner */

/* The blocks of a plan: their divisions, and each one's selected spots in seeding
 * order (the best seeded last). */
typedef struct {
    size_t n;
    const rk_seed_division **div;
    const rk_seed_spot ***spots;
    size_t *nspots;
    size_t total;                  /* the selected spots of every block */
    size_t nheats;                 /* the heats they make */
} seed_blocks;

/* BL's divisions: DIVS sorted by name (null last), the default block order, or the
 * ones REQ's `divisions` names, in its order (found in the sorted copy). */
static int order_blocks(const rk_seed_request *req, const rk_seed_division *divs,
                        size_t ndivs, apr_pool_t *pool, seed_blocks *bl, const char **err)
{
    const rk_seed_division **sorted;
    size_t i;

    sorted = apr_palloc(pool, (ndivs ? ndivs : 1) * sizeof(*sorted));
    for (i = 0; i < ndivs; i++) {
        sorted[i] = &divs[i];
        if (divs[i].nspots && !divs[i].spots) {
            *err = "seed: a division without its spots";
            return RK_SEED_INTERNAL;
        }
    }
    qsort(sorted, ndivs, sizeof(*sorted), div_struct_cmp);
    for (i = 1; i < ndivs; i++) {
        if (rk_seed_div_cmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
            *err = "seed: the leaderboard lists a division twice";
            return RK_SEED_INTERNAL;
        }
    }
    if (req->all_divisions) {
        bl->div = sorted;
        bl->n = ndivs;
        return 0;
    }
    bl->div = apr_palloc(pool, req->ndivisions * sizeof(*bl->div));
    bl->n = req->ndivisions;
    for (i = 0; i < bl->n; i++) {
        long at = find_division(sorted, ndivs, req->divisions[i]);

        if (at < 0) {
            *err = "Invalid body: divisions names a division that no spot has";
            return RK_SEED_REFUSED;
        }
        bl->div[i] = sorted[at];
    }
    return 0;
}

/* The spots of D that REQ selects (with `top`: a rank of at most top), in D's order,
 * into *OUT (in POOL) and *NOUT; every spot id of D must be an id. */
static int select_spots(const rk_seed_request *req, const rk_seed_division *d,
                        apr_pool_t *pool, const rk_seed_spot ***out, size_t *nout,
                        const char **err)
{
    const rk_seed_spot **s = apr_palloc(pool, (d->nspots ? d->nspots : 1) * sizeof(*s));
    size_t i, n = 0;

    for (i = 0; i < d->nspots; i++) {
        const rk_seed_spot *sp = &d->spots[i];

        if (!sp->id || !rk_id_valid(sp->id, strlen(sp->id))) {
            *err = "seed: a spot id of the leaderboard is not an id";
            return RK_SEED_INTERNAL;
        }
        if (req->top && !(sp->has_rank && sp->rank <= req->top)) {
            continue;
        }
        s[n++] = sp;
    }
    *out = s;
    *nout = n;
    return 0;
}

/* S's N spots in REQ's seeding order, the best seeded last. */
static void seeding_order(const rk_seed_request *req, const rk_seed_spot **s, size_t n)
{
    size_t i;

    switch (req->order) {
    case RK_SEED_ORDER_BIB:
        qsort(s, n, sizeof(*s), bib_cmp);
        break;
    case RK_SEED_ORDER_RANDOM: {
        unsigned long long st = rk_seed_prng_init(req->seed);

        qsort(s, n, sizeof(*s), id_ptr_cmp);
        for (i = n; i-- > 1;) {
            size_t j = (size_t)(rk_seed_prng_next(&st) % (unsigned long long)(i + 1));
            const rk_seed_spot *t = s[i];

            s[i] = s[j];
            s[j] = t;
        }
        break;
    }
    default: {
        /* the leaderboard's order, reversed: the leader last */
        size_t lo, hi;

        qsort(s, n, sizeof(*s), board_cmp);
        for (lo = 0, hi = n; hi-- > lo + 1; lo++) {
            const rk_seed_spot *t = s[lo];

            s[lo] = s[hi];
            s[hi] = t;
        }
        break;
    }
    }
}

/* Each block of BL: its selected spots in seeding order, and the totals for heats of
 * LANES lanes at most. */
static int seed_each_block(const rk_seed_request *req, long long lanes, apr_pool_t *pool,
                           seed_blocks *bl, const char **err)
{
    size_t b;
    int rv;

    bl->spots = apr_pcalloc(pool, (bl->n ? bl->n : 1) * sizeof(*bl->spots));
    bl->nspots = apr_pcalloc(pool, (bl->n ? bl->n : 1) * sizeof(*bl->nspots));
    bl->total = 0;
    bl->nheats = 0;
    for (b = 0; b < bl->n; b++) {
        size_t n;

        if ((rv = select_spots(req, bl->div[b], pool, &bl->spots[b], &n, err)) != 0) {
            return rv;
        }
        seeding_order(req, bl->spots[b], n);
        /* a spot listed twice in one division, or in two: refused as inconsistent
         * by check_spots_once, by ids (sorted copy) */
        bl->nspots[b] = n;
        bl->total += n;
        bl->nheats += (size_t)((n + (size_t)lanes - 1) / (size_t)lanes);
    }
    return 0;
}

/* Every spot at most once over the whole plan. */
static int check_spots_once(const seed_blocks *bl, apr_pool_t *pool, const char **err)
{
    const rk_seed_spot **all;
    size_t b, k = 0;

    if (bl->total <= 1) {
        return 0;
    }
    all = apr_palloc(pool, bl->total * sizeof(*all));
    for (b = 0; b < bl->n; b++) {
        memcpy(all + k, bl->spots[b], bl->nspots[b] * sizeof(*all));
        k += bl->nspots[b];
    }
    qsort(all, bl->total, sizeof(*all), id_ptr_cmp);
    for (k = 1; k < bl->total; k++) {
        if (id_cmp(all[k - 1]->id, all[k]->id) == 0) {
            *err = "seed: a spot is listed twice in the leaderboard";
            return RK_SEED_INTERNAL;
        }
    }
    return 0;
}

/* NHEATS heats from FIRST_NUMBER on: the last start within the year 9999, the last
 * number within the integers. */
static int check_numbering(const rk_seed_request *req, size_t nheats, long long first_number,
                           const char **err)
{
    if (req->has_start && nheats > 0) {
        /* the last start: start + (nheats - 1) * interval, within the year 9999 */
        if (req->start < RK_SEED_T_MIN || req->start > RK_SEED_T_MAX
            || (req->interval > 0
                && (long long)(nheats - 1) > (RK_SEED_T_MAX - req->start) / req->interval)) {
            *err = "Invalid body: start_time + interval goes past the year 9999";
            return RK_SEED_REFUSED;
        }
    }
    if (nheats > 0 && (long long)(nheats - 1) > LLONG_MAX - first_number) {
        *err = "seed: heat numbers beyond the integers";
        return RK_SEED_INTERNAL;
    }
    return 0;
}

/* The heats of block B of BL into PLAN, from the heat index *H on (advanced): the sizes
 * (the first heats one spot smaller), numbers, start times and lanes (CENTER: the
 * center order, or NULL for ascending). */
static void fill_block_heats(rk_seed_plan *plan, const rk_seed_request *req,
                             const seed_blocks *bl, size_t b, long long lanes,
                             long long first_number, const long long *center,
                             apr_pool_t *pool, size_t *h)
{
    size_t n = bl->nspots[b], H, base, extra, k, at = 0;

    if (n == 0) {
        return;
    }
    H = (n + (size_t)lanes - 1) / (size_t)lanes;
    base = n / H;
    extra = n % H;
    for (k = 0; k < H; k++, (*h)++) {
        rk_seed_heat *heat = &plan->heats[*h];
        size_t size = base + (k >= H - extra ? 1 : 0), q;

        heat->division = bl->div[b]->name;
        heat->number = first_number + (long long)*h;
        heat->has_start = req->has_start;
        if (req->has_start) {
            heat->start = req->start + (long long)*h * req->interval;
            rk_seed_format_time(heat->start, heat->start_time);
        }
        heat->nlanes = size;
        heat->lanes = apr_palloc(pool, size * sizeof(*heat->lanes));
        /* best seeded first: the heat's spots from its end */
        for (q = 0; q < size; q++) {
            heat->lanes[q].spot = bl->spots[b][at + size - 1 - q];
            heat->lanes[q].number = center ? center[q] : (long long)q + 1;
        }
        qsort(heat->lanes, size, sizeof(*heat->lanes), lane_cmp);
        at += size;
    }
}

int rk_seed_plan_make(const rk_seed_request *req, long long lane_count,
                      long long first_number, const rk_seed_division *divs, size_t ndivs,
                      apr_pool_t *pool, rk_seed_plan *plan, const char **err)
{
    seed_blocks bl;
    size_t b, h = 0;
    long long lanes, *center = NULL;
    int rv;

    memset(plan, 0, sizeof(*plan));
    plan->heats = apr_pcalloc(pool, sizeof(*plan->heats));
    if (lane_count < 1 || lane_count > 999 || first_number < 1) {
        *err = "seed: lane_count or the first heat number out of range";
        return RK_SEED_INTERNAL;
    }
    if (rk_seed_check_lanes(req, lane_count, err) != 0) {
        return RK_SEED_REFUSED;
    }
    lanes = req->lanes ? req->lanes : lane_count;
    memset(&bl, 0, sizeof(bl));
    if ((rv = order_blocks(req, divs, ndivs, pool, &bl, err)) != 0
        || (rv = seed_each_block(req, lanes, pool, &bl, err)) != 0
        || (rv = check_spots_once(&bl, pool, err)) != 0
        || (rv = check_numbering(req, bl.nheats, first_number, err)) != 0) {
        return rv;
    }
    if (req->lane_order == RK_SEED_LANES_CENTER) {
        center = apr_palloc(pool, (size_t)lane_count * sizeof(*center));
        rk_seed_center_order(lane_count, center);
    }
    plan->heats = apr_pcalloc(pool, (bl.nheats ? bl.nheats : 1) * sizeof(*plan->heats));
    plan->nheats = bl.nheats;
    plan->nlanes = bl.total;
    for (b = 0; b < bl.n; b++) {
        fill_block_heats(plan, req, &bl, b, lanes, first_number, center, pool, &h);
    }
    return 0;
}
