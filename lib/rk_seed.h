/* rk_seed.h: heat generation, the pure part (shared API.md Part 3, "Heat generation and
 * cut lines"; POST /competition/{c}/wod/{w}/generate-heats).  Pure C + jansson + APR
 * pools, no httpd header: the glue parses the body with rk_seed_parse, reads the zone
 * and the overall leaderboard of the full view, builds the plan with rk_seed_plan_make,
 * writes the heats and lanes in one transaction (unless a dry run), and answers with
 * rk_seed_plan_json.  Everything here allocates from the caller's pool; nothing is
 * global, any number of threads may use it at once.
 *
 * The rules, as the planner applies them:
 *   - selection: a division's spots, and with `top` only those whose overall rank is at
 *     most `top` (ties at the line all go through, since tied spots share a rank; a
 *     spot without rank, which the contract never produces, is kept only without `top`);
 *   - seeding order (per division; the LAST spot is the best seeded):
 *       ranking: the reverse of the leaderboard order (rank, then bib, then id; null
 *                rank and null bib after the others), so the leader is last;
 *       bib:     bib ascending, spots without bib last, then id;
 *       random:  the spots sorted by id (numerically), then shuffled by Fisher-Yates
 *                driven by RK_SEED_PRNG below, restarted from `seed` for each
 *                division: the draw depends only on `seed` and the set of spots;
 *   - heats of a division: n spots, L = `lanes` per heat: H = ceil(n / L) heats, the
 *     first H - n % H of n / H spots, the others one more (23 on 10: 7, 8, 8); the
 *     first heat takes the first spots of the seeding order, and so on;
 *   - lanes of a heat: its spots, best seeded first (the reverse of the seeding order),
 *     take lanes 1, 2, 3, ... (ascending) or the zone's lanes by distance from
 *     (lane_count + 1) / 2, nearer first, lower number first at equal distance
 *     (center; 10 lanes: 5, 6, 4, 7, 3, 8, 2, 9, 1, 10); lanes listed by number;
 *   - blocks: one per division, in the order of `divisions` (default: the
 *     leaderboard's, names by strcmp, null last); a division without spot makes none;
 *   - numbers: FIRST_NUMBER, FIRST_NUMBER + 1, ... in creation order; the k-th heat
 *     (from 0) starts at start_time + k * interval, or has no start.
 *
 * RK_SEED_PRNG (for `random`; t/lib/SeedRef.pm reproduces it): xorshift64 (Marsaglia
 * 2003, shifts 13, 7, 17) on an unsigned 64-bit state.
 *     state = 0x9E3779B97F4A7C15 ^ seed;  then 16 steps whose outputs are dropped;
 *     step:  x ^= x << 13; x ^= x >> 7; x ^= x << 17; the output is the new x.
 * Shuffle of the n spots a[0..n-1] (sorted by id): for i = n-1 down to 1,
 *     j = step() % (i + 1); swap a[i] and a[j].
 * The state is never 0 (seed < 2^31 leaves the high bits of the constant).  */
#ifndef RK_SEED_H
#define RK_SEED_H

#include <stddef.h>

#include <apr_pools.h>

#define RK_SEED_INTERVAL_MAX 86400LL
#define RK_SEED_SEED_MAX     2147483647LL

typedef enum { RK_SEED_ORDER_RANKING = 0, RK_SEED_ORDER_BIB, RK_SEED_ORDER_RANDOM } rk_seed_order;
typedef enum { RK_SEED_LANES_ASCENDING = 0, RK_SEED_LANES_CENTER } rk_seed_lane_order;

/* A request, as rk_seed_parse reads it (every key's default when absent). */
typedef struct {
    char zone_id[19];             /* required: a valid id (rk_id_valid) */
    long long lanes;              /* 0 = absent (the zone's lane_count), else >= 1 */
    rk_seed_order order;          /* default ranking */
    rk_seed_lane_order lane_order;/* default ascending */
    int all_divisions;            /* 1: absent or null = every division, leaderboard order */
    size_t ndivisions;            /* else 1 or more names, distinct, in block order */
    const char **divisions;       /*   each a string, or NULL for spots without division */
    long long top;                /* 0 = null (no cut), else >= 1 */
    int has_start;                /* 0 = start_time null */
    long long start;              /*   else seconds since 1970-01-01T00:00:00Z (may be < 0) */
    long long interval;           /* 0..RK_SEED_INTERVAL_MAX seconds, default 0 */
    int replace;                  /* 0/1, default 0 (the glue's business) */
    int dry_run;                  /* 0/1, default 0 (the glue's business) */
    long long seed;               /* 0..RK_SEED_SEED_MAX, default 0 */
} rk_seed_request;

/* Parse a generate-heats body: one strict JSON object (no duplicate key, nothing but
 * whitespace after it, valid UTF-8, no \u0000) whose keys are those of the contract's
 * table, each at most once, with its type:
 *   zone_id     an id as a JSON string ("2"); a JSON integer is refused, as for every
 *               id of this API (ids are strings: lane PUT's spot_id is the same)
 *   lanes       integer >= 1 (the bound lane_count: rk_seed_check_lanes, with the zone)
 *   order       "ranking" | "bib" | "random"
 *   lane_order  "ascending" | "center"
 *   divisions   null, or a non-empty array of distinct entries, each a string or null
 *               (whether a division exists: rk_seed_plan_make, with the leaderboard)
 *   top         integer >= 1, or null
 *   start_time  "YYYY-MM-DDTHH:MM:SSZ" (a real UTC date and time, seconds 00-59,
 *               years 0001-9999), or null
 *   interval    integer 0..86400
 *   replace, dry_run  true | false
 *   seed        integer 0..2147483647
 * Integers are JSON integers only (1.0 is refused); null is refused where the table
 * gives no null.  Returns 0 with *OUT filled (strings in POOL), or -1 with *ERR a
 * fixed message starting "Invalid body" that never echoes the input, and *OUT zeroed. */
int rk_seed_parse(const char *body, size_t len, apr_pool_t *pool, rk_seed_request *out,
                  const char **err);

/* The check of `lanes` against the zone: 0 when REQ's lanes is absent or at most
 * LANE_COUNT, else -1 with *ERR "Invalid body: lanes is 1 to the zone's lane_count". */
int rk_seed_check_lanes(const rk_seed_request *req, long long lane_count, const char **err);

/* A spot of the overall leaderboard (full view). */
typedef struct {
    const char *id;        /* the spot's id: a decimal string, no leading zero */
    const char *name;      /* its name, for the answer's spot_name (NULL: null) */
    int has_bib;           /* 0 = bib null */
    long long bib;
    int has_rank;          /* 0 = rank null (never in an overall board; defensive) */
    long long rank;        /* the overall rank within its division */
} rk_seed_spot;

/* A division of the overall leaderboard with all its spots (the planner sorts them
 * itself by rank, bib, id, so their order here does not matter). */
typedef struct {
    const char *name;      /* NULL = spots without division */
    const rk_seed_spot *spots;
    size_t nspots;
} rk_seed_division;

/* Read the overall leaderboard body that GET /competition/{c}/leaderboard answers
 * (or rk_leaderboard_json(..., NULL, NULL) writes: {"status":"success","leaderboard":{...,
 * "divisions":[{"division":...,"entries":[{"rank":..,"spot_id":..,"spot_name":..,
 * "bib":..},...]},...]}}; the bare "leaderboard" object works too) into divisions, in
 * the board's order; other keys are ignored.  Returns 0, or -1 with *ERR (a body that
 * is not such a board: the caller's 500).  For tests and tools: parsing a whole board
 * costs (about 40 ms of CPU for 2,000 spots and 12 WODs, most of it the results); a
 * request handler should fill rk_seed_division from the computed ranking directly. */
int rk_seed_divisions_from_board(const char *json, size_t len, apr_pool_t *pool,
                                 rk_seed_division **divs, size_t *ndivs, const char **err);

typedef struct {
    long long number;              /* lane number, 1..lane_count */
    const rk_seed_spot *spot;      /* points into the input's spots */
} rk_seed_lane;

typedef struct {
    const char *division;          /* the block's division (NULL = none) */
    long long number;              /* heat number */
    int has_start;                 /* 0 = start_time null */
    long long start;               /* seconds since the epoch, UTC */
    char start_time[21];           /* "YYYY-MM-DDTHH:MM:SSZ", or "" without start */
    size_t nlanes;                 /* 1..lanes */
    rk_seed_lane *lanes;           /* by lane number, ascending */
} rk_seed_heat;

typedef struct {
    size_t nheats;
    rk_seed_heat *heats;           /* creation order: blocks, then heat within block */
    size_t nlanes;                 /* the sum of the heats' nlanes */
} rk_seed_plan;

#define RK_SEED_REFUSED  (-1)      /* a bad request: 400 with *ERR */
#define RK_SEED_INTERNAL (-2)      /* inconsistent input from the glue: 500, *ERR logged */

/* Plan the heats of REQ for a zone of LANE_COUNT lanes (1..999) whose first new heat
 * is number FIRST_NUMBER (>= 1), from the overall leaderboard's DIVS (distinct names).
 * Returns 0 with *PLAN (allocated in POOL; it points into DIVS' spots, which must
 * outlive it); RK_SEED_REFUSED with *ERR when `lanes` exceeds LANE_COUNT ("Invalid
 * body: lanes is 1 to the zone's lane_count"), when `divisions` names a division no
 * spot has ("Invalid body: divisions names a division that no spot has") or when a
 * start time would pass 9999-12-31T23:59:59Z ("Invalid body: start_time + interval
 * goes past the year 9999"); RK_SEED_INTERNAL when LANE_COUNT or FIRST_NUMBER is out of
 * range, when DIVS repeats a division, when a spot id is not an id or when a spot is
 * listed twice.  A plan may have no heat (no spot at all).  Cost: O(n log n) in the
 * spots, about 0.3 ms for 2,000 spots on 10 lanes. */
int rk_seed_plan_make(const rk_seed_request *req, long long lane_count,
                      long long first_number, const rk_seed_division *divs, size_t ndivs,
                      apr_pool_t *pool, rk_seed_plan *plan, const char **err);

/* The answer for PLAN: {"status":"success","heats":[{HEAT fields...,"voies":[LANE,
 * ...]},...]}, heats in creation order, lanes by number; the fields and their order
 * are rk_json's (rk_res_heat, rk_res_voie): HEAT's competition_id, zone_id, wod_id as
 * given, number, start_time (null without start), status "scheduled"; LANE's number,
 * spot_id, spot_name, heat_id; every other field (score, tiebreak, ...) null.
 * HEAT_IDS (plan->nheats ids) and LANE_IDS (plan->nlanes ids, in the order of the
 * plan: heat after heat, lane after lane) are the ids the rows were given; NULL for a
 * dry run: every id, and the lanes' heat_id, null.  Returns the body (NUL-terminated,
 * in POOL) and its length in *LEN. */
char *rk_seed_plan_json(const rk_seed_plan *plan, const char *competition_id,
                        const char *zone_id, const char *wod_id,
                        const char *const *heat_ids, const char *const *lane_ids,
                        apr_pool_t *pool, size_t *len);

/* Seconds since the epoch to "YYYY-MM-DDTHH:MM:SSZ" (OUT: 21 bytes); -1 when the year
 * is not 0001..9999.  And back: 0, or -1 when S is not such an instant. */
int rk_seed_format_time(long long t, char out[21]);
int rk_seed_parse_time(const char *s, size_t len, long long *t);

/* RK_SEED_PRNG, exposed for the tests: the state for SEED (after the dropped steps),
 * and one step. */
unsigned long long rk_seed_prng_init(long long seed);
unsigned long long rk_seed_prng_next(unsigned long long *state);

/* The lanes of a zone of LANE_COUNT lanes in center order (OUT: LANE_COUNT numbers). */
void rk_seed_center_order(long long lane_count, long long *out);

#endif
