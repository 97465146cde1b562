/* fuzz_seed.c: libFuzzer target for rk_seed_parse and rk_seed_plan_make
 * (lib/rk_seed_body.c, lib/rk_seed.c).
 *
 * The raw input is a generate-heats body, passed with its length in a heap buffer of
 * exactly that size (ASan catches any read past LEN).  Checks:
 *   - the parser returns 0 or -1; on -1 the message is one of the fixed ones and the
 *     output is all zero; acceptance agrees with a reference written from rk_seed.h on
 *     top of jansson, and the values read are the body's;
 *   - on what the parser accepts, the planner runs on a fixed leaderboard (four
 *     divisions, ties, null bibs, a spot without rank) for a zone whose lane_count
 *     comes from the body's length; either it refuses with one of its messages (lanes
 *     above lane_count, an unknown division, a start past the year 9999) exactly when
 *     the request calls for it, or the plan has the contract's properties: every
 *     selected spot in exactly one lane and no other spot; per division
 *     ceil(n / lanes) heats whose sizes differ by at most one, smaller first; lanes
 *     distinct, by number, 1..lane_count, at most `lanes` per heat, the first of the
 *     lane order taken; for ranking and bib the best-seeded spot in the block's last
 *     heat on the lane order's first lane; blocks in the order asked; numbers and
 *     start times consecutive; the same request planned twice gives the same plan; and
 *     the answer is JSON with as many heats. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_pools.h>
#include <jansson.h>

#include "rk_router.h"
#include "rk_seed.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_seed: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

static const char *const messages[] = {
    "Invalid body: empty",
    "Invalid body: duplicate key",
    "Invalid body: not valid JSON",
    "Invalid body: not a JSON object",
    "Invalid body: unknown key",
    "Invalid body: zone_id is required",
    "Invalid body: zone_id must be an id string, e.g. \"2\"",
    "Invalid body: lanes is 1 to the zone's lane_count",
    "Invalid body: order is ranking, bib or random",
    "Invalid body: lane_order is ascending or center",
    ("Invalid body: divisions is null or a non-empty array of division names (null for "
     "spots without division)"),
    "Invalid body: divisions names a division twice",
    "Invalid body: top is an integer of at least 1, or null",
    "Invalid body: start_time is UTC, e.g. 2026-11-21T09:30:00Z, or null",
    "Invalid body: interval is seconds, 0 to 86400",
    "Invalid body: replace is true or false",
    "Invalid body: dry_run is true or false",
    "Invalid body: seed is an integer, 0 to 2147483647",
};

static int known_message(const char *m)
{
    for (size_t i = 0; m && i < sizeof(messages) / sizeof(messages[0]); i++) {
        if (strcmp(m, messages[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;

    while (n--) {
        if (*c++) {
            return 0;
        }
    }
    return 1;
}

/* ---- a reference of the body's rules, from rk_seed.h */

static int is_int_in(const json_t *v, long long lo, long long hi)
{
    return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

/* seconds of "YYYY-MM-DDTHH:MM:SSZ" by counting days from year 1 (a different way
 * from rk_seed_body.c's); -1 on a bad instant (the instants are never negative here: the
 * count starts at 0001-01-01) */
static long long instant(const char *s, size_t len)
{
    int y, mo, d, h, mi, se;
    static const int dim[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    long long days;

    if (len != 20) {
        return -1;
    }
    for (size_t i = 0; i < 20; i++) {
        const char *shape = "9999-99-99T99:99:99Z";
        if (shape[i] == '9' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i]) {
            return -1;
        }
    }
    y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    mo = (s[5] - '0') * 10 + (s[6] - '0');
    d = (s[8] - '0') * 10 + (s[9] - '0');
    h = (s[11] - '0') * 10 + (s[12] - '0');
    mi = (s[14] - '0') * 10 + (s[15] - '0');
    se = (s[17] - '0') * 10 + (s[18] - '0');
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > dim[mo - 1] + (mo == 2 && leap) || h > 23
        || mi > 59 || se > 59) {
        return -1;
    }
    /* days before year y, before month mo */
    long long py = y - 1;
    days = py * 365 + py / 4 - py / 100 + py / 400;
    for (int m = 1; m < mo; m++) {
        days += dim[m - 1] + (m == 2 && leap);
    }
    days += d - 1;
    return days * 86400 + h * 3600 + mi * 60 + se;
}

#define EPOCH_FROM_YEAR1 62135596800LL   /* seconds from 0001-01-01 to 1970-01-01 */

static int reference(json_t *root)
{
    const char *key;
    json_t *v;

    if (!json_is_object(root) || !json_object_get(root, "zone_id")) {
        return 0;
    }
    json_object_foreach(root, key, v) {
        if (strcmp(key, "zone_id") == 0) {
            if (!json_is_string(v) || !rk_id_valid(json_string_value(v), json_string_length(v))) return 0;
        }
        else if (strcmp(key, "lanes") == 0) {
            if (!is_int_in(v, 1, INT64_MAX)) return 0;
        }
        else if (strcmp(key, "order") == 0) {
            const char *s = json_string_value(v);
            if (!s || (strcmp(s, "ranking") && strcmp(s, "bib") && strcmp(s, "random"))) return 0;
        }
        else if (strcmp(key, "lane_order") == 0) {
            const char *s = json_string_value(v);
            if (!s || (strcmp(s, "ascending") && strcmp(s, "center"))) return 0;
        }
        else if (strcmp(key, "divisions") == 0) {
            if (json_is_null(v)) continue;
            if (!json_is_array(v) || json_array_size(v) == 0) return 0;
            for (size_t i = 0; i < json_array_size(v); i++) {
                json_t *a = json_array_get(v, i);
                if (!json_is_null(a) && !json_is_string(a)) return 0;
                for (size_t j = 0; j < i; j++) {
                    json_t *b = json_array_get(v, j);
                    if (json_is_null(a) && json_is_null(b)) return 0;
                    if (json_is_string(a) && json_is_string(b) && json_equal(a, b)) return 0;
                }
            }
        }
        else if (strcmp(key, "top") == 0) {
            if (!json_is_null(v) && !is_int_in(v, 1, INT64_MAX)) return 0;
        }
        else if (strcmp(key, "start_time") == 0) {
            if (!json_is_null(v) && !(json_is_string(v)
                  && instant(json_string_value(v), json_string_length(v)) >= 0)) return 0;
        }
        else if (strcmp(key, "interval") == 0) {
            if (!is_int_in(v, 0, 86400)) return 0;
        }
        else if (strcmp(key, "replace") == 0 || strcmp(key, "dry_run") == 0) {
            if (!json_is_boolean(v)) return 0;
        }
        else if (strcmp(key, "seed") == 0) {
            if (!is_int_in(v, 0, 2147483647)) return 0;
        }
        else {
            return 0;
        }
    }
    return 1;
}

/* ---- the fixed leaderboard */

#define NDIV 5
static rk_seed_division board[NDIV];
static const char *const board_names[NDIV] = { "RX", "Scaled", "", NULL, "Empty" };
static const size_t board_sizes[NDIV] = { 37, 23, 1, 9, 0 };

static void make_board(void)
{
    unsigned long long x = 88172645463325252ULL;
    size_t id = 1;

    for (int d = 0; d < NDIV; d++) {
        rk_seed_spot *s = calloc(board_sizes[d] + 1, sizeof(*s));
        long long rank = 0;

        CHECK(s != NULL);
        for (size_t k = 0; k < board_sizes[d]; k++) {
            char *idtext = malloc(24);

            CHECK(idtext != NULL);
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            snprintf(idtext, 24, "%zu", id);
            id += 1 + x % 3;
            s[k].id = idtext;
            s[k].name = idtext;
            s[k].has_bib = x % 5 != 0;
            s[k].bib = (long long)(x >> 8) % 50 + 1;
            s[k].has_rank = !(d == 3 && k == 4);   /* one spot without rank */
            if (!k || x % 4 != 0) {
                rank = (long long)k + 1;            /* else a tie with the previous one */
            }
            s[k].rank = rank;
        }
        board[d].name = board_names[d];
        board[d].spots = s;
        board[d].nspots = board_sizes[d];
    }
}

static int board_index(const char *name)
{
    for (int d = 0; d < NDIV; d++) {
        if ((!name && !board[d].name) || (name && board[d].name && strcmp(name, board[d].name) == 0)) {
            return d;
        }
    }
    return -1;
}

static int div_order(const char *a, const char *b)   /* strcmp, null last */
{
    if (!a || !b) return !a - !b;
    return strcmp(a, b);
}

static int lb_before(const rk_seed_spot *a, const rk_seed_spot *b)
{
    if (a->has_rank != b->has_rank) return a->has_rank;
    if (a->has_rank && a->rank != b->rank) return a->rank < b->rank;
    if (a->has_bib != b->has_bib) return a->has_bib;
    if (a->has_bib && a->bib != b->bib) return a->bib < b->bib;
    if (strlen(a->id) != strlen(b->id)) return strlen(a->id) < strlen(b->id);
    return strcmp(a->id, b->id) < 0;
}

static int bib_before(const rk_seed_spot *a, const rk_seed_spot *b)
{
    if (a->has_bib != b->has_bib) return a->has_bib;
    if (a->has_bib && a->bib != b->bib) return a->bib < b->bib;
    if (strlen(a->id) != strlen(b->id)) return strlen(a->id) < strlen(b->id);
    return strcmp(a->id, b->id) < 0;
}

static void check_plan(const rk_seed_request *r, long long lane_count, long long first,
                       const rk_seed_plan *plan, apr_pool_t *pool)
{
    const int *blocks;
    int order_blocks[NDIV], nblocks = 0;
    long long L = r->lanes ? r->lanes : lane_count;
    long long center[999];
    int pos[1000];
    size_t h = 0, total = 0;

    rk_seed_center_order(lane_count, center);
    for (long long z = 0; z < lane_count; z++) {
        pos[r->lane_order == RK_SEED_LANES_CENTER ? center[z] : z + 1] = (int)z;
    }
    if (r->all_divisions) {
        for (int d = 0; d < NDIV; d++) order_blocks[nblocks++] = d;
        for (int i = 1; i < nblocks; i++) {
            for (int j = i; j > 0 && div_order(board[order_blocks[j - 1]].name,
                                              board[order_blocks[j]].name) > 0; j--) {
                int t = order_blocks[j - 1];
                order_blocks[j - 1] = order_blocks[j];
                order_blocks[j] = t;
            }
        }
    }
    else {
        for (size_t i = 0; i < r->ndivisions; i++) {
            order_blocks[nblocks++] = board_index(r->divisions[i]);
        }
    }
    blocks = order_blocks;
    for (int b = 0; b < nblocks; b++) {
        const rk_seed_division *dv = &board[blocks[b]];
        size_t n = 0, H, seen = 0;
        const rk_seed_spot *best = NULL;

        for (size_t k = 0; k < dv->nspots; k++) {
            const rk_seed_spot *s = &dv->spots[k];
            if (r->top && !(s->has_rank && s->rank <= r->top)) continue;
            n++;
            if (!best || (r->order == RK_SEED_ORDER_RANKING && lb_before(s, best))
                || (r->order == RK_SEED_ORDER_BIB && bib_before(best, s))) {
                best = s;
            }
        }
        H = n ? (n + (size_t)L - 1) / (size_t)L : 0;
        for (size_t k = 0; k < H; k++, h++) {
            CHECK(h < plan->nheats);
            const rk_seed_heat *ht = &plan->heats[h];
            CHECK(ht->division == dv->name);
            CHECK(ht->number == first + (long long)h);
            CHECK(ht->has_start == r->has_start);
            if (r->has_start) {
                char want[21];
                CHECK(ht->start == r->start + (long long)h * r->interval);
                CHECK(rk_seed_format_time(ht->start, want) == 0);
                CHECK(strcmp(want, ht->start_time) == 0);
            }
            CHECK(ht->nlanes >= n / H && ht->nlanes <= (n + H - 1) / H);
            CHECK(ht->nlanes >= 1 && ht->nlanes <= (size_t)L);
            if (k) CHECK(ht->nlanes >= plan->heats[h - 1].nlanes);
            for (size_t q = 0; q < ht->nlanes; q++) {
                const rk_seed_spot *s = ht->lanes[q].spot;
                CHECK(ht->lanes[q].number >= 1 && ht->lanes[q].number <= lane_count);
                if (q) CHECK(ht->lanes[q - 1].number < ht->lanes[q].number);
                CHECK(pos[ht->lanes[q].number] < (int)ht->nlanes);   /* the first of the order */
                CHECK(s >= dv->spots && s < dv->spots + dv->nspots);
                CHECK(!r->top || (s->has_rank && s->rank <= r->top));
                if (s == best && r->order != RK_SEED_ORDER_RANDOM) {
                    CHECK(k == H - 1);
                    CHECK(pos[ht->lanes[q].number] == 0);
                }
            }
            seen += ht->nlanes;
        }
        CHECK(seen == n);
        total += n;
    }
    CHECK(h == plan->nheats);
    CHECK(total == plan->nlanes);
    /* no spot twice */
    for (size_t i = 0; i < plan->nheats; i++) {
        for (size_t q = 0; q < plan->heats[i].nlanes; q++) {
            int again = 0;
            for (size_t j = 0; j < plan->nheats; j++) {
                for (size_t u = 0; u < plan->heats[j].nlanes; u++) {
                    again += plan->heats[j].lanes[u].spot == plan->heats[i].lanes[q].spot;
                }
            }
            CHECK(again == 1);
        }
    }
    /* the answer */
    {
        size_t len;
        char *json = rk_seed_plan_json(plan, "1", r->zone_id, "3", NULL, NULL, pool, &len);
        json_t *j = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);

        CHECK(j != NULL);
        CHECK(json_array_size(json_object_get(j, "heats")) == plan->nheats);
        json_decref(j);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    char *body = malloc(size ? size : 1);
    apr_pool_t *pool;
    rk_seed_request r;
    const char *err = NULL;
    json_error_t jerr;
    json_t *root;
    int rv;

    if (!ready) {
        apr_initialize();
        make_board();
        ready = 1;
    }
    if (!body || apr_pool_create(&pool, NULL) != APR_SUCCESS) {
        free(body);
        return 0;
    }
    memcpy(body, data, size);
    memset(&r, 0xA5, sizeof(r));
    rv = rk_seed_parse(body, size, pool, &r, &err);
    CHECK(rv == 0 || rv == -1);
    root = size ? json_loadb(body, size, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    CHECK((rv == 0) == reference(root));
    if (rv != 0) {
        CHECK(known_message(err));
        CHECK(all_zero(&r, sizeof(r)));
    }
    else {
        json_t *v;

        CHECK(strcmp(r.zone_id, json_string_value(json_object_get(root, "zone_id"))) == 0);
        v = json_object_get(root, "lanes");
        CHECK(r.lanes == (v ? (long long)json_integer_value(v) : 0));
        v = json_object_get(root, "top");
        CHECK(r.top == (v && !json_is_null(v) ? (long long)json_integer_value(v) : 0));
        v = json_object_get(root, "interval");
        CHECK(r.interval == (v ? (long long)json_integer_value(v) : 0));
        v = json_object_get(root, "seed");
        CHECK(r.seed == (v ? (long long)json_integer_value(v) : 0));
        v = json_object_get(root, "replace");
        CHECK(r.replace == (v && json_is_true(v)));
        v = json_object_get(root, "dry_run");
        CHECK(r.dry_run == (v && json_is_true(v)));
        v = json_object_get(root, "start_time");
        CHECK(r.has_start == (v && !json_is_null(v)));
        if (r.has_start) {
            CHECK(r.start == instant(json_string_value(v), json_string_length(v)) - EPOCH_FROM_YEAR1);
        }
        v = json_object_get(root, "divisions");
        CHECK(r.all_divisions == (!v || json_is_null(v)));
        if (!r.all_divisions) {
            CHECK(r.ndivisions == json_array_size(v));
            for (size_t i = 0; i < r.ndivisions; i++) {
                json_t *a = json_array_get(v, i);
                CHECK(json_is_null(a) ? r.divisions[i] == NULL
                      : (r.divisions[i] && strlen(r.divisions[i]) == json_string_length(a)
                         && strcmp(r.divisions[i], json_string_value(a)) == 0));
            }
        }

        /* the planner on the fixed board */
        long long lane_count = 1 + (long long)(size % 13);
        long long first = 1 + (long long)(size % 7);
        rk_seed_plan plan, again;
        int unknown = 0, too_late = 0;

        if (!r.all_divisions) {
            for (size_t i = 0; i < r.ndivisions; i++) {
                unknown |= board_index(r.divisions[i]) < 0;
            }
        }
        rv = rk_seed_plan_make(&r, lane_count, first, board, NDIV, pool, &plan, &err);
        if (r.lanes > lane_count) {
            CHECK(rv == RK_SEED_REFUSED);
            CHECK(strcmp(err, "Invalid body: lanes is 1 to the zone's lane_count") == 0);
        }
        else if (unknown) {
            CHECK(rv == RK_SEED_REFUSED);
            CHECK(strcmp(err, "Invalid body: divisions names a division that no spot has") == 0);
        }
        else if (rv != 0) {
            CHECK(rv == RK_SEED_REFUSED);
            CHECK(strcmp(err, "Invalid body: start_time + interval goes past the year 9999") == 0);
            too_late = 1;
        }
        if (rv == 0) {
            check_plan(&r, lane_count, first, &plan, pool);
            if (r.has_start && plan.nheats) {
                CHECK(plan.heats[plan.nheats - 1].start <= 253402300799LL);
            }
            CHECK(rk_seed_plan_make(&r, lane_count, first, board, NDIV, pool, &again, &err) == 0);
            CHECK(again.nheats == plan.nheats && again.nlanes == plan.nlanes);
            for (size_t i = 0; i < plan.nheats; i++) {
                CHECK(again.heats[i].nlanes == plan.heats[i].nlanes);
                for (size_t q = 0; q < plan.heats[i].nlanes; q++) {
                    CHECK(again.heats[i].lanes[q].spot == plan.heats[i].lanes[q].spot);
                    CHECK(again.heats[i].lanes[q].number == plan.heats[i].lanes[q].number);
                }
            }
        }
        else if (too_late) {
            /* refused for the time only when the last start would pass the year 9999 */
            CHECK(r.has_start && r.interval > 0);
        }
    }
    json_decref(root);
    apr_pool_destroy(pool);
    free(body);
    return 0;
}
