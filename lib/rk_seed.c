/* rk_seed.c: heat generation, the pure part.  See rk_seed.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <jansson.h>

#include "rk_json.h"
#include "rk_router.h"
#include "rk_seed.h"

/* ------------------------------------------------------------------ instants */

#define T_MIN (-62135596800LL)   /* 0001-01-01T00:00:00Z */
#define T_MAX 253402300799LL     /* 9999-12-31T23:59:59Z */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    long long era;
    unsigned yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

static void civil_from_days(long long z, long long *y, unsigned *m, unsigned *d)
{
    long long era;
    unsigned doe, yoe, doy, mp;

    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = (unsigned)(z - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (long long)yoe + era * 400 + (*m <= 2);
}

static unsigned days_in_month(long long y, unsigned m)
{
    static const unsigned dim[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

    return m == 2 && leap ? 29 : dim[m - 1];
}

static int digits(const char *s, size_t n, unsigned *v)
{
    size_t i;

    *v = 0;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        *v = *v * 10 + (unsigned)(s[i] - '0');
    }
    return 0;
}

int rk_seed_parse_time(const char *s, size_t len, long long *t)
{
    unsigned y, mo, d, h, mi, se;

    if (len != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':'
        || s[16] != ':' || s[19] != 'Z'
        || digits(s, 4, &y) || digits(s + 5, 2, &mo) || digits(s + 8, 2, &d)
        || digits(s + 11, 2, &h) || digits(s + 14, 2, &mi) || digits(s + 17, 2, &se)) {
        return -1;
    }
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23
        || mi > 59 || se > 59) {
        return -1;
    }
    *t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    return 0;
}

static void put2(char *p, unsigned v)
{
    p[0] = (char)('0' + v / 10 % 10);
    p[1] = (char)('0' + v % 10);
}

int rk_seed_format_time(long long t, char out[21])
{
    long long days, secs, y;
    unsigned m, d;

    if (t < T_MIN || t > T_MAX) {
        out[0] = '\0';
        return -1;
    }
    days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    secs = t - days * 86400;
    civil_from_days(days, &y, &m, &d);
    put2(out, (unsigned)(y / 100));
    put2(out + 2, (unsigned)(y % 100));
    out[4] = '-';
    put2(out + 5, m);
    out[7] = '-';
    put2(out + 8, d);
    out[10] = 'T';
    put2(out + 11, (unsigned)(secs / 3600));
    out[13] = ':';
    put2(out + 14, (unsigned)(secs / 60 % 60));
    out[16] = ':';
    put2(out + 17, (unsigned)(secs % 60));
    out[19] = 'Z';
    out[20] = '\0';
    return 0;
}

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

/* ------------------------------------------------------------------ the body */

/* One JSON object, as rk_body.c reads bodies (the same messages). */
static json_t *load_object(const char *body, size_t len, const char **err)
{
    json_error_t jerr;
    json_t *root;

    if (len == 0) {
        *err = "Invalid body: empty";
        return NULL;
    }
    root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        *err = json_error_code(&jerr) == json_error_duplicate_key
               ? "Invalid body: duplicate key" : "Invalid body: not valid JSON";
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        *err = "Invalid body: not a JSON object";
        return NULL;
    }
    return root;
}

#define MSG_LANES "Invalid body: lanes is 1 to the zone's lane_count"

static const char *p_zone(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    /* ids are JSON strings in this API (a lane's spot_id too): 2 is refused */
    if (!json_is_string(v) || !rk_id_valid(json_string_value(v), json_string_length(v))) {
        return "Invalid body: zone_id must be an id string, e.g. \"2\"";
    }
    memcpy(o->zone_id, json_string_value(v), json_string_length(v) + 1);
    return NULL;
}

static const char *p_lanes(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (!json_is_integer(v) || json_integer_value(v) < 1) {
        return MSG_LANES;
    }
    o->lanes = (long long)json_integer_value(v);
    return NULL;
}

static const char *p_order(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    const char *s = json_string_value(v);

    (void)p;
    if (s && strcmp(s, "ranking") == 0) {
        o->order = RK_SEED_ORDER_RANKING;
    }
    else if (s && strcmp(s, "bib") == 0) {
        o->order = RK_SEED_ORDER_BIB;
    }
    else if (s && strcmp(s, "random") == 0) {
        o->order = RK_SEED_ORDER_RANDOM;
    }
    else {
        return "Invalid body: order is ranking, bib or random";
    }
    return NULL;
}

static const char *p_lane_order(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    const char *s = json_string_value(v);

    (void)p;
    if (s && strcmp(s, "ascending") == 0) {
        o->lane_order = RK_SEED_LANES_ASCENDING;
    }
    else if (s && strcmp(s, "center") == 0) {
        o->lane_order = RK_SEED_LANES_CENTER;
    }
    else {
        return "Invalid body: lane_order is ascending or center";
    }
    return NULL;
}

/* strcmp with NULL (no division) after every name */
static int div_cmp(const char *a, const char *b)
{
    if (!a || !b) {
        return !a - !b;
    }
    return strcmp(a, b);
}

static int div_ptr_cmp(const void *a, const void *b)
{
    return div_cmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *p_divisions(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    static const char *const bad = "Invalid body: divisions is null or a non-empty array "
                                   "of division names (null for spots without division)";
    const char **names, **sorted;
    size_t i, n;

    if (json_is_null(v)) {
        o->all_divisions = 1;
        return NULL;
    }
    if (!json_is_array(v) || (n = json_array_size(v)) == 0) {
        return bad;
    }
    names = apr_palloc(p, n * sizeof(*names));
    sorted = apr_palloc(p, n * sizeof(*sorted));
    for (i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);

        if (json_is_null(e)) {
            names[i] = NULL;
        }
        else if (json_is_string(e)) {
            /* no NUL inside: jansson refuses \u0000 */
            names[i] = apr_pstrmemdup(p, json_string_value(e), json_string_length(e));
        }
        else {
            return bad;
        }
        sorted[i] = names[i];
    }
    qsort(sorted, n, sizeof(*sorted), div_ptr_cmp);
    for (i = 1; i < n; i++) {
        if (div_cmp(sorted[i - 1], sorted[i]) == 0) {
            return "Invalid body: divisions names a division twice";
        }
    }
    o->all_divisions = 0;
    o->divisions = names;
    o->ndivisions = n;
    return NULL;
}

static const char *p_top(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (json_is_null(v)) {
        o->top = 0;
    }
    else if (json_is_integer(v) && json_integer_value(v) >= 1) {
        o->top = (long long)json_integer_value(v);
    }
    else {
        return "Invalid body: top is an integer of at least 1, or null";
    }
    return NULL;
}

static const char *p_start(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (json_is_null(v)) {
        o->has_start = 0;
    }
    else if (json_is_string(v)
             && rk_seed_parse_time(json_string_value(v), json_string_length(v), &o->start) == 0) {
        o->has_start = 1;
    }
    else {
        return "Invalid body: start_time is UTC, e.g. 2026-11-21T09:30:00Z, or null";
    }
    return NULL;
}

static const char *p_interval(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (!json_is_integer(v) || json_integer_value(v) < 0
        || json_integer_value(v) > RK_SEED_INTERVAL_MAX) {
        return "Invalid body: interval is seconds, 0 to 86400";
    }
    o->interval = (long long)json_integer_value(v);
    return NULL;
}

static const char *p_replace(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (!json_is_boolean(v)) {
        return "Invalid body: replace is true or false";
    }
    o->replace = json_is_true(v);
    return NULL;
}

static const char *p_dry_run(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (!json_is_boolean(v)) {
        return "Invalid body: dry_run is true or false";
    }
    o->dry_run = json_is_true(v);
    return NULL;
}

static const char *p_seed(const json_t *v, rk_seed_request *o, apr_pool_t *p)
{
    (void)p;
    if (!json_is_integer(v) || json_integer_value(v) < 0
        || json_integer_value(v) > RK_SEED_SEED_MAX) {
        return "Invalid body: seed is an integer, 0 to 2147483647";
    }
    o->seed = (long long)json_integer_value(v);
    return NULL;
}

int rk_seed_parse(const char *body, size_t len, apr_pool_t *pool, rk_seed_request *out,
                  const char **err)
{
    static const struct {
        const char *key;
        const char *(*parse)(const json_t *, rk_seed_request *, apr_pool_t *);
    } keys[] = {
        { "zone_id", p_zone }, { "lanes", p_lanes }, { "order", p_order },
        { "lane_order", p_lane_order }, { "divisions", p_divisions }, { "top", p_top },
        { "start_time", p_start }, { "interval", p_interval }, { "replace", p_replace },
        { "dry_run", p_dry_run }, { "seed", p_seed },
    };
    json_t *root, *value;
    const char *key;
    const char *problem = NULL;

    memset(out, 0, sizeof(*out));
    out->all_divisions = 1;
    if (!(root = load_object(body, len, err))) {
        memset(out, 0, sizeof(*out));
        return -1;
    }
    json_object_foreach(root, key, value) {
        size_t k;

        for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
            if (strcmp(key, keys[k].key) == 0) {
                break;
            }
        }
        problem = k < sizeof(keys) / sizeof(keys[0])
                  ? keys[k].parse(value, out, pool) : "Invalid body: unknown key";
        if (problem) {
            break;
        }
    }
    if (!problem && !out->zone_id[0]) {
        problem = "Invalid body: zone_id is required";
    }
    json_decref(root);
    if (problem) {
        memset(out, 0, sizeof(*out));
        *err = problem;
        return -1;
    }
    return 0;
}

int rk_seed_check_lanes(const rk_seed_request *req, long long lane_count, const char **err)
{
    if (req->lanes != 0 && (req->lanes < 1 || req->lanes > lane_count)) {
        *err = MSG_LANES;
        return -1;
    }
    return 0;
}

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

/* ------------------------------------------------------------------ the planner */

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
        int c = div_cmp(sorted[mid]->name, name);

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
    return div_cmp((*(const rk_seed_division *const *)x)->name,
                   (*(const rk_seed_division *const *)y)->name);
}

int rk_seed_plan_make(const rk_seed_request *req, long long lane_count,
                      long long first_number, const rk_seed_division *divs, size_t ndivs,
                      apr_pool_t *pool, rk_seed_plan *plan, const char **err)
{
    const rk_seed_division **sorted, **blocks;
    const rk_seed_spot ***selected;
    size_t *nsel;
    size_t nblocks, b, i, total = 0, nheats = 0, h;
    long long lanes, *center = NULL;

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

    /* the divisions, sorted by name (null last): the default block order, and the
     * index that finds a requested name */
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
        if (div_cmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
            *err = "seed: the leaderboard lists a division twice";
            return RK_SEED_INTERNAL;
        }
    }
    if (req->all_divisions) {
        blocks = sorted;
        nblocks = ndivs;
    }
    else {
        blocks = apr_palloc(pool, req->ndivisions * sizeof(*blocks));
        nblocks = req->ndivisions;
        for (i = 0; i < nblocks; i++) {
            long at = find_division(sorted, ndivs, req->divisions[i]);

            if (at < 0) {
                *err = "Invalid body: divisions names a division that no spot has";
                return RK_SEED_REFUSED;
            }
            blocks[i] = sorted[at];
        }
    }

    /* per block: the selected spots in seeding order (best seeded last) */
    selected = apr_pcalloc(pool, (nblocks ? nblocks : 1) * sizeof(*selected));
    nsel = apr_pcalloc(pool, (nblocks ? nblocks : 1) * sizeof(*nsel));
    for (b = 0; b < nblocks; b++) {
        const rk_seed_division *d = blocks[b];
        const rk_seed_spot **s = apr_palloc(pool, (d->nspots ? d->nspots : 1) * sizeof(*s));
        size_t n = 0;

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
        /* a spot listed twice in one division, or in two: refused as inconsistent
         * below, by ids (sorted copy) */
        selected[b] = s;
        nsel[b] = n;
        total += n;
        nheats += (size_t)((n + (size_t)lanes - 1) / (size_t)lanes);
    }

    /* every spot at most once over the whole plan */
    if (total > 1) {
        const rk_seed_spot **all = apr_palloc(pool, total * sizeof(*all));
        size_t k = 0;

        for (b = 0; b < nblocks; b++) {
            memcpy(all + k, selected[b], nsel[b] * sizeof(*all));
            k += nsel[b];
        }
        qsort(all, total, sizeof(*all), id_ptr_cmp);
        for (k = 1; k < total; k++) {
            if (id_cmp(all[k - 1]->id, all[k]->id) == 0) {
                break;
            }
        }
        if (k < total) {
            *err = "seed: a spot is listed twice in the leaderboard";
            return RK_SEED_INTERNAL;
        }
    }

    if (req->has_start && nheats > 0) {
        /* the last start: start + (nheats - 1) * interval, within the year 9999 */
        if (req->start < T_MIN || req->start > T_MAX
            || (req->interval > 0
                && (long long)(nheats - 1) > (T_MAX - req->start) / req->interval)) {
            *err = "Invalid body: start_time + interval goes past the year 9999";
            return RK_SEED_REFUSED;
        }
    }
    if (nheats > 0 && (long long)(nheats - 1) > LLONG_MAX - first_number) {
        *err = "seed: heat numbers beyond the integers";
        return RK_SEED_INTERNAL;
    }

    if (req->lane_order == RK_SEED_LANES_CENTER) {
        center = apr_palloc(pool, (size_t)lane_count * sizeof(*center));
        rk_seed_center_order(lane_count, center);
    }
    plan->heats = apr_pcalloc(pool, (nheats ? nheats : 1) * sizeof(*plan->heats));
    plan->nheats = nheats;
    plan->nlanes = total;
    h = 0;
    for (b = 0; b < nblocks; b++) {
        size_t n = nsel[b], H, base, extra, k, at = 0;

        if (n == 0) {
            continue;
        }
        H = (n + (size_t)lanes - 1) / (size_t)lanes;
        base = n / H;
        extra = n % H;
        for (k = 0; k < H; k++, h++) {
            rk_seed_heat *heat = &plan->heats[h];
            size_t size = base + (k >= H - extra ? 1 : 0), q;

            heat->division = blocks[b]->name;
            heat->number = first_number + (long long)h;
            heat->has_start = req->has_start;
            if (req->has_start) {
                heat->start = req->start + (long long)h * req->interval;
                rk_seed_format_time(heat->start, heat->start_time);
            }
            heat->nlanes = size;
            heat->lanes = apr_palloc(pool, size * sizeof(*heat->lanes));
            /* best seeded first: the heat's spots from its end */
            for (q = 0; q < size; q++) {
                heat->lanes[q].spot = selected[b][at + size - 1 - q];
                heat->lanes[q].number = center ? center[q] : (long long)q + 1;
            }
            qsort(heat->lanes, size, sizeof(*heat->lanes), lane_cmp);
            at += size;
        }
    }
    return 0;
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
