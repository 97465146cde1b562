/* rk_seed_body.c: heat generation, the generate-heats body (rk_seed_parse,
 * rk_seed_check_lanes) and the instants of its start_time (rk_seed_parse_time,
 * rk_seed_format_time).  See rk_seed.h. */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <jansson.h>

#include "rk_body.h"
#include "rk_router.h"
#include "rk_seed.h"
#include "rk_seed_int.h"

/* ------------------------------------------------------------------ instants */

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

    if (t < RK_SEED_T_MIN || t > RK_SEED_T_MAX) {
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

/* ------------------------------------------------------------------ the body */

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

/* rk_seed_div_cmp on pointers to names, for qsort */
static int div_ptr_cmp(const void *a, const void *b)
{
    return rk_seed_div_cmp(*(const char *const *)a, *(const char *const *)b);
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
        if (rk_seed_div_cmp(sorted[i - 1], sorted[i]) == 0) {
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
    if (!(root = rk_body_load_object(body, len, err))) {
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
