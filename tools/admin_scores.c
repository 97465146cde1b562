/* admin_scores.c: the checks of an import's lanes: each lane's heat, spot, number
 * and score, numbers and spots unique in a heat, and the stored scores that would
 * stay under a WOD's new scoring or time_cap; see admin_doc_check in admin_doc.h. */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "admin_check.h"
#include "admin_doc.h"
#include "admin_values.h"
#include "rk_score.h"
#include "rk_sql.h"

/* What rk_score.h says of a refused value, without the API's "Invalid body: ". */
static const char *plain(const char *why)
{
    return strncmp(why, "Invalid body: ", 14) == 0 ? why + 14 : why;
}

/* ------------------------------------------------------------------ stored scores */

/* The rules of a score (scoring, time_cap) under the heat HEAT (a row; NULL: none)
 * of the rows IDS (the merged rows, or the database's when BASE): the WOD's row,
 * or NULL (no WOD: free text). */
static const char **rules_of(const import_check *c, const char **heat, int base)
{
    const merged *m;

    if (!heat || !heat[AD_HEAT_WOD]) {
        return NULL;
    }
    if (base) {
        return apr_hash_get(c->base_ids[AD_WOD], heat[AD_HEAT_WOD], APR_HASH_KEY_STRING);
    }
    m = admin_find(c, AD_WOD, heat[AD_HEAT_WOD]);
    return m ? m->row : NULL;
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Does the lane ROW keep the score the database has, under other rules than the
 * database's (its heat's WOD changed scoring or time_cap, or the heat its WOD)? */
static int stored_score_new_rules(const import_check *c, const char **row)
{
    const char **was = apr_hash_get(c->base_ids[AD_LANE], row[0], APR_HASH_KEY_STRING);
    const char **old_heat, **old, **now;
    const merged *heat;

    if (!was || !was[AD_LANE_SCORE] || !same_text(was[AD_LANE_SCORE], row[AD_LANE_SCORE])) {
        return 0;
    }
    old_heat = apr_hash_get(c->base_ids[AD_HEAT], was[AD_LANE_HEAT], APR_HASH_KEY_STRING);
    heat = admin_find(c, AD_HEAT, row[AD_LANE_HEAT]);
    old = rules_of(c, old_heat, 1);
    now = rules_of(c, heat ? heat->row : NULL, 0);
    return !old != !now || (old && (!same_text(old[AD_WOD_SCORING], now[AD_WOD_SCORING])
                                    || !same_text(old[AD_WOD_TIME_CAP], now[AD_WOD_TIME_CAP])));
}

/* Does the document's WOD ROW have another scoring or time_cap than the database's
 * WOD of that id? */
static int wod_rules_changed(const import_check *c, const char **row)
{
    const char **was = apr_hash_get(c->base_ids[AD_WOD], row[0], APR_HASH_KEY_STRING);

    return was && (!same_text(was[AD_WOD_SCORING], row[AD_WOD_SCORING])
                   || !same_text(was[AD_WOD_TIME_CAP], row[AD_WOD_TIME_CAP]));
}

/* Does SCORE fit the rules of WOD (NULL: free text)? */
static int score_fits(const char **wod, const char *score)
{
    long long cap = 0;
    const char *why;
    rk_score s;

    if (!wod) {
        return 1;
    }
    if (wod[AD_WOD_TIME_CAP]) {
        admin_read_ll(wod[AD_WOD_TIME_CAP], &cap);
    }
    return rk_score_parse(rk_scoring_parse(wod[AD_WOD_SCORING]), cap, score, &s, &why) == 0;
}

/* The stored scores that would stay under new rules (a WOD's scoring or time_cap
 * changed, a heat moved to another WOD): each must fit them, as a PATCH of the WOD
 * over HTTP (API.md: 409, the message gives how many).  One error per WOD or heat
 * of the document that brings the new rules, with how many and one of the lanes. */
void admin_check_stored_scores(import_check *c)
{
    apr_pool_t *p = c->k.p;
    apr_hash_t *count = apr_hash_make(p), *example = apr_hash_make(p);
    apr_array_header_t *order = apr_array_make(p, 4, sizeof(const char *));
    apr_hash_index_t *hi;
    int i;

    for (hi = apr_hash_first(p, c->ids[AD_LANE]); hi; hi = apr_hash_next(hi)) {
        const merged *m = apr_hash_this_val(hi), *heat, *wod;
        const char *who;
        int *n;

        if (!stored_score_new_rules(c, m->row)
            || !(heat = admin_find(c, AD_HEAT, m->row[AD_LANE_HEAT]))) {
            continue;
        }
        wod = heat->row[AD_HEAT_WOD] ? admin_find(c, AD_WOD, heat->row[AD_HEAT_WOD]) : NULL;
        if (score_fits(wod ? wod->row : NULL, m->row[AD_LANE_SCORE])) {
            continue;
        }
        /* the WOD whose rules the document changes, else the heat given another
         * WOD, else the lane moved to another heat */
        if (wod && wod->doc >= 0 && wod_rules_changed(c, wod->row)) {
            who = apr_psprintf(p, "wods[%d]", wod->doc);
        }
        else if (heat->doc >= 0) {
            who = apr_psprintf(p, "heats[%d].wod_id", heat->doc);
        }
        else {
            who = apr_psprintf(p, "lanes[%d].heat_id", m->doc);
        }
        n = apr_hash_get(count, who, APR_HASH_KEY_STRING);
        if (!n) {
            n = apr_pcalloc(p, sizeof(*n));
            apr_hash_set(count, who, APR_HASH_KEY_STRING, n);
            APR_ARRAY_PUSH(order, const char *) = who;
        }
        if (!apr_hash_get(example, who, APR_HASH_KEY_STRING)
            || strcmp(apr_hash_get(example, who, APR_HASH_KEY_STRING), m->row[0]) > 0) {
            apr_hash_set(example, who, APR_HASH_KEY_STRING, m->row[0]);
        }
        (*n)++;
    }
    for (i = 0; i < order->nelts; i++) {
        const char *who = APR_ARRAY_IDX(order, i, const char *);
        int n = *(int *)apr_hash_get(count, who, APR_HASH_KEY_STRING);
        const char *lane = apr_hash_get(example, who, APR_HASH_KEY_STRING);
        const merged *l = admin_find(c, AD_LANE, lane);

        admin_fail(&c->k, who, "%d stored %s of %s would no longer fit %s (lane %s: "
                   "\"%s\"): change %s too, or keep %s", n, n == 1 ? "score" : "scores",
                   strncmp(who, "wods", 4) == 0 ? "its heats' lanes" : "lanes",
                   strncmp(who, "wods", 4) == 0 ? "its scoring and time_cap (seconds)"
                   : "the scoring and time_cap of the WOD", lane, l->row[AD_LANE_SCORE],
                   n == 1 ? "that score" : "those scores", strncmp(who, "wods", 4) == 0
                   ? "the scoring and time_cap" : "the WOD");
    }
}

/* The score_status and published values of the document's lane ROW at PATH: as the
 * API leaves them (rk_lane_state_check, the module's rule), the published tiebreak
 * a time.  The published score is not read by the WOD: it is the score of the last
 * validation, which a WOD's new rules do not change (the API's neither). */
static void check_lane_status(import_check *c, const char *path, const char **row)
{
    static const char *const field[] = {
        [RK_LANE_STATE_STATUS] = ".score_status",
        [RK_LANE_STATE_PUBLISHED_SCORE] = ".published_score",
        [RK_LANE_STATE_PUBLISHED_TIEBREAK] = ".published_tiebreak",
    };
    rk_lane_state st = { row[AD_LANE_SCORE], row[AD_LANE_TIEBREAK], row[AD_LANE_STATUS],
                         row[AD_LANE_PUBLISHED_SCORE], row[AD_LANE_PUBLISHED_TIEBREAK] };
    const char *why;
    rk_lane_state_field f = rk_lane_state_check(&st, &why);
    rk_score s;

    if (f != RK_LANE_STATE_OK) {
        admin_fail(&c->k, apr_pstrcat(c->k.p, path, field[f], NULL), "%s", why);
    }
    if (row[AD_LANE_PUBLISHED_TIEBREAK]
        && rk_tiebreak_parse(row[AD_LANE_PUBLISHED_TIEBREAK], &s, &why) != 0) {
        admin_fail(&c->k, apr_pstrcat(c->k.p, path, ".published_tiebreak", NULL), "%s",
                   plain(why));
    }
}

/* The document's lane ROW at PATH: its heat and spot in the competition, its number
 * within its heat's zone, its score by its heat's WOD, its tiebreak a time, its
 * score_status and published values (check_lane_status). */
static void check_lane(import_check *c, const char *path, const char **row)
{
    apr_pool_t *p = c->k.p;
    const merged *heat = admin_find(c, AD_HEAT, row[AD_LANE_HEAT]), *zone, *wod;
    long long num = 0, max = 999;
    const char *why;
    rk_score s;

    if (!heat) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".heat_id", NULL),
                   "heat %s is not in competition %s", row[AD_LANE_HEAT], c->cid);
    }
    if (row[AD_LANE_SPOT] && !admin_find(c, AD_SPOT, row[AD_LANE_SPOT])) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".spot_id", NULL),
                   "spot %s is not in competition %s", row[AD_LANE_SPOT], c->cid);
    }
    if (!heat) {
        return;
    }
    zone = heat->row[AD_HEAT_ZONE] ? admin_find(c, AD_ZONE, heat->row[AD_HEAT_ZONE]) : NULL;
    if (zone) {
        admin_read_ll(zone->row[AD_ZONE_LANE_COUNT], &max);
    }
    admin_read_ll(row[AD_LANE_NUMBER], &num);
    if (num > max) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".number", NULL),
                   "%lld is beyond the %lld lanes of zone %s", num, max, zone->row[0]);
    }
    wod = heat->row[AD_HEAT_WOD] ? admin_find(c, AD_WOD, heat->row[AD_HEAT_WOD]) : NULL;
    /* a stored score kept under new rules: check_stored_scores counts it */
    if (row[AD_LANE_SCORE] && !stored_score_new_rules(c, row)) {
        rk_scoring sc = wod ? rk_scoring_parse(wod->row[AD_WOD_SCORING]) : RK_SCORING_FREE;
        long long cap = 0;

        if (wod && wod->row[AD_WOD_TIME_CAP]) {
            admin_read_ll(wod->row[AD_WOD_TIME_CAP], &cap);
        }
        if (rk_score_parse(sc, cap, row[AD_LANE_SCORE], &s, &why) != 0) {
            admin_fail(&c->k, apr_pstrcat(p, path, ".score", NULL), "%s (wod %s)", plain(why),
                       wod->row[0]);
        }
    }
    if (row[AD_LANE_TIEBREAK] && rk_tiebreak_parse(row[AD_LANE_TIEBREAK], &s, &why) != 0) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".tiebreak", NULL), "%s", plain(why));
    }
    check_lane_status(c, path, row);
}

/* Lane M's number and spot, unique in its heat: recorded in NUMBERS and SPOTS, or
 * when it is the document's (at PATH, else NULL) and clashes, an error. */
static void lane_unique(import_check *c, apr_hash_t *numbers, apr_hash_t *spots, merged *m,
                        const char *path)
{
    apr_pool_t *p = c->k.p;
    const char **row = m->row;
    const char *key = apr_pstrcat(p, row[AD_LANE_HEAT], "/", row[AD_LANE_NUMBER], NULL);
    merged *other = apr_hash_get(numbers, key, APR_HASH_KEY_STRING);

    if (path && other) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".number", NULL),
                   "lane number %s of heat %s is also that of %s", row[AD_LANE_NUMBER],
                   row[AD_LANE_HEAT], admin_where(p, AD_LANE, other));
    }
    else {
        apr_hash_set(numbers, key, APR_HASH_KEY_STRING, m);
    }
    if (!row[AD_LANE_SPOT]) {
        return;
    }
    key = apr_pstrcat(p, row[AD_LANE_HEAT], "/", row[AD_LANE_SPOT], NULL);
    other = apr_hash_get(spots, key, APR_HASH_KEY_STRING);
    if (path && other) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".spot_id", NULL),
                   "spot %s is already in %s of heat %s", row[AD_LANE_SPOT],
                   admin_where(p, AD_LANE, other), row[AD_LANE_HEAT]);
    }
    else {
        apr_hash_set(spots, key, APR_HASH_KEY_STRING, m);
    }
}

/* The lanes: the database's that stay first (recorded), then the document's. */
void admin_check_lanes(import_check *c)
{
    apr_pool_t *p = c->k.p;
    apr_hash_t *numbers = apr_hash_make(p), *spots = apr_hash_make(p);
    apr_hash_index_t *hi;
    int i;

    for (hi = apr_hash_first(p, c->ids[AD_LANE]); hi; hi = apr_hash_next(hi)) {
        merged *m = apr_hash_this_val(hi);

        if (m->doc < 0) {
            lane_unique(c, numbers, spots, m, NULL);
        }
    }
    for (i = 0; i < c->doc->rows[AD_LANE]->nelts; i++) {
        const char *path = apr_psprintf(p, "lanes[%d]", i);
        merged *m = admin_new_merged(p, ADMIN_DOC_ROW(c->doc, AD_LANE, i), i);

        check_lane(c, path, m->row);
        lane_unique(c, numbers, spots, m, path);
    }
}
