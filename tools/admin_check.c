/* admin_check.c: the checks of an import, every one that needs no database: the
 * shape of the document, then its rows merged with the competition's in the
 * database, their references, uniqueness and scores; see admin_doc_check in
 * admin_doc.h.  The shape of a row is admin_shape.c's. */
#include <stdint.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "admin_check.h"
#include "admin_doc.h"
#include "admin_values.h"
#include "rk_score.h"

/* A row of the merged competition (the database's, or the document's over it). */
typedef struct {
    const char **row;
    int doc;            /* its index in the document's list, or -1: a database row */
} merged;

/* Where a merged row is named in messages. */
static const char *where(apr_pool_t *p, admin_table t, const merged *m)
{
    if (m->doc >= 0) {
        return apr_psprintf(p, "%s[%d]", admin_tables[t].key, m->doc);
    }
    return apr_psprintf(p, "%s %s in the database", admin_tables[t].name, m->row[0]);
}

static merged *new_merged(apr_pool_t *p, const char **row, int doc)
{
    merged *m = apr_palloc(p, sizeof(*m));

    m->row = row;
    m->doc = doc;
    return m;
}

/* ------------------------------------------------------------------ the document */

/* The state of one import's checks. */
typedef struct {
    admin_checker k;
    admin_import *im;
    admin_doc *doc;                     /* the document's rows */
    const admin_doc *base;              /* the database's rows of the competition */
    apr_hash_t *ids[AD_NTABLES];        /* id -> merged: the competition's rows */
    apr_hash_t *doc_ids[AD_NTABLES];    /* id -> index + 1 (as a pointer), doc rows */
    const char *cid;                    /* the document's competition id */
} import_check;

/* The competition's row of table T with id ID, or NULL. */
static const merged *find(const import_check *c, admin_table t, const char *id)
{
    return apr_hash_get(c->ids[t], id, APR_HASH_KEY_STRING);
}

/* The document's keys and its version. */
static void check_top(import_check *c, json_t *json)
{
    const char *key;
    json_t *v;
    int t;

    json_object_foreach(json, key, v) {
        for (t = 0; t < AD_NTABLES && strcmp(admin_tables[t].key, key) != 0; t++)
            ;
        if (t == AD_NTABLES && strcmp(key, "version") != 0) {
            admin_fail(&c->k, key, "unknown key of the document");
        }
    }
    v = json_object_get(json, "version");
    if (!v) {
        admin_fail(&c->k, "version", "missing");
    }
    else if (!json_is_integer(v) || json_integer_value(v) != ADMIN_DOC_VERSION) {
        admin_fail(&c->k, "version", "must be %d (this ranking-admin reads version %d "
                   "documents)", ADMIN_DOC_VERSION, ADMIN_DOC_VERSION);
    }
}

/* The list LIST of table T (not the competition) into the document's rows.  1 when
 * every row has its shape and an id of its own in the list. */
static int read_list(import_check *c, admin_table t, json_t *list)
{
    const admin_table_def *def = &admin_tables[t];
    apr_pool_t *p = c->k.p;
    int ok = 1;
    size_t n;

    if (!json_is_array(list)) {
        admin_fail(&c->k, def->key, "must be an array, not %s", admin_type_name(list));
        return 0;
    }
    for (n = 0; n < json_array_size(list); n++) {
        const char *path = apr_psprintf(p, "%s[%" APR_SIZE_T_FMT "]", def->key, n);
        const char **row = admin_read_row(&c->k, path, t, json_array_get(list, n));
        void *first;

        if (!row) {
            ok = 0;
            continue;
        }
        first = apr_hash_get(c->doc_ids[t], row[0], APR_HASH_KEY_STRING);
        if (first) {
            admin_fail(&c->k, apr_pstrcat(p, path, ".id", NULL), "%s %s is also %s[%d]",
                       def->name, row[0], def->key, (int)(intptr_t)first - 1);
            ok = 0;
            continue;
        }
        APR_ARRAY_PUSH(c->doc->rows[t], const char **) = row;
        apr_hash_set(c->doc_ids[t], row[0], APR_HASH_KEY_STRING,
                     (void *)(intptr_t)c->doc->rows[t]->nelts);
    }
    return ok;
}

/* The shape of every row of the document JSON, read into its rows.  1 when all of
 * it has its shape. */
static int read_tables(import_check *c, json_t *json)
{
    int t, ok = 1;

    for (t = 0; t < AD_NTABLES; t++) {
        const admin_table_def *def = &admin_tables[t];
        json_t *list = json_object_get(json, def->key);

        c->ids[t] = apr_hash_make(c->k.p);
        c->doc_ids[t] = apr_hash_make(c->k.p);
        if (!list && t != AD_COMPETITION) {
            continue;   /* a list left out is empty */
        }
        if (!list) {
            admin_fail(&c->k, def->key, "missing");
            ok = 0;
        }
        else if (t == AD_COMPETITION) {
            const char **row = admin_read_row(&c->k, def->key, (admin_table)t, list);

            if (row) {
                APR_ARRAY_PUSH(c->doc->rows[t], const char **) = row;
                c->cid = row[0];
            }
            else {
                ok = 0;
            }
        }
        else if (!read_list(c, (admin_table)t, list)) {
            ok = 0;
        }
    }
    return ok;
}

/* The competition's rows: the database's (unless REPLACE, then they are to be
 * removed), then the document's over them; which of the document's exist. */
static void merge(import_check *c, int replace)
{
    apr_pool_t *p = c->k.p;
    admin_import *im = c->im;
    int t, i, j;

    im->competition_exists = c->base->rows[AD_COMPETITION]->nelts > 0;
    for (t = 0; t < AD_NTABLES; t++) {
        im->exists[t] = apr_pcalloc(p, (size_t)c->doc->rows[t]->nelts + 1);
        im->remove[t] = apr_array_make(p, 4, sizeof(const char *));
        for (i = 0; i < c->base->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(c->base, t, i);

            if (apr_hash_get(c->doc_ids[t], row[0], APR_HASH_KEY_STRING)) {
                continue;
            }
            if (replace && t != AD_COMPETITION) {
                APR_ARRAY_PUSH(im->remove[t], const char *) = row[0];
                continue;
            }
            apr_hash_set(c->ids[t], row[0], APR_HASH_KEY_STRING, new_merged(p, row, -1));
        }
        for (i = 0; i < c->doc->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(c->doc, t, i);

            for (j = 0; j < c->base->rows[t]->nelts; j++) {
                if (strcmp(ADMIN_DOC_ROW(c->base, t, j)[0], row[0]) == 0) {
                    im->exists[t][i] = 1;
                    break;
                }
            }
            apr_hash_set(c->ids[t], row[0], APR_HASH_KEY_STRING, new_merged(p, row, i));
        }
    }
}

/* ------------------------------------------------------------------ the merged rows */

/* Ids of another competition (OWNER tells); each child's competition id. */
static void check_owners(import_check *c, admin_owner_fn owner, void *ctx)
{
    apr_pool_t *p = c->k.p;
    int t, i;

    for (t = 0; t < AD_NTABLES; t++) {
        const admin_table_def *def = &admin_tables[t];

        for (i = 0; i < c->doc->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(c->doc, t, i);
            const char *path = t == AD_COMPETITION ? def->key
                             : apr_psprintf(p, "%s[%d]", def->key, i);
            const char *other;

            if (!c->im->exists[t][i] && owner && (other = owner(ctx, (admin_table)t, row[0]))
                && strcmp(other, c->cid) != 0) {
                admin_fail(&c->k, apr_pstrcat(p, path, ".id", NULL),
                           "%s %s is in competition %s", def->name, row[0], other);
            }
            if (t != AD_COMPETITION && t != AD_LANE && strcmp(row[1], c->cid) != 0) {
                admin_fail(&c->k, apr_pstrcat(p, path, ".competition_id", NULL),
                           "must be the competition's id, %s", c->cid);
            }
        }
    }
}

/* A heat's zone and WOD in the competition. */
static void check_heats(import_check *c)
{
    apr_pool_t *p = c->k.p;
    int i;

    for (i = 0; i < c->doc->rows[AD_HEAT]->nelts; i++) {
        const char **row = ADMIN_DOC_ROW(c->doc, AD_HEAT, i);

        if (row[AD_HEAT_ZONE] && !find(c, AD_ZONE, row[AD_HEAT_ZONE])) {
            admin_fail(&c->k, apr_psprintf(p, "heats[%d].zone_id", i),
                       "zone %s is not in competition %s", row[AD_HEAT_ZONE], c->cid);
        }
        if (row[AD_HEAT_WOD] && !find(c, AD_WOD, row[AD_HEAT_WOD])) {
            admin_fail(&c->k, apr_psprintf(p, "heats[%d].wod_id", i),
                       "wod %s is not in competition %s", row[AD_HEAT_WOD], c->cid);
        }
    }
}

/* Bibs unique in the competition. */
static void check_bibs(import_check *c)
{
    apr_pool_t *p = c->k.p;
    apr_hash_t *bibs = apr_hash_make(p);
    apr_hash_index_t *hi;
    int i;

    /* the database's spots first, so that a clash names the document's */
    for (hi = apr_hash_first(p, c->ids[AD_SPOT]); hi; hi = apr_hash_next(hi)) {
        merged *m = apr_hash_this_val(hi);

        if (m->doc < 0 && m->row[AD_SPOT_BIB]) {
            apr_hash_set(bibs, m->row[AD_SPOT_BIB], APR_HASH_KEY_STRING, m);
        }
    }
    for (i = 0; i < c->doc->rows[AD_SPOT]->nelts; i++) {
        const char **row = ADMIN_DOC_ROW(c->doc, AD_SPOT, i);
        merged *other;

        if (!row[AD_SPOT_BIB]) {
            continue;
        }
        other = apr_hash_get(bibs, row[AD_SPOT_BIB], APR_HASH_KEY_STRING);
        if (other) {
            admin_fail(&c->k, apr_psprintf(p, "spots[%d].bib", i),
                       "bib %s is also the bib of %s", row[AD_SPOT_BIB],
                       where(p, AD_SPOT, other));
            continue;
        }
        apr_hash_set(bibs, row[AD_SPOT_BIB], APR_HASH_KEY_STRING, new_merged(p, row, i));
    }
}

/* What rk_score.h says of a refused value, without the API's "Invalid body: ". */
static const char *plain(const char *why)
{
    return strncmp(why, "Invalid body: ", 14) == 0 ? why + 14 : why;
}

/* The document's lane ROW at PATH: its heat and spot in the competition, its number
 * within its heat's zone, its score by its heat's WOD, its tiebreak a time. */
static void check_lane(import_check *c, const char *path, const char **row)
{
    apr_pool_t *p = c->k.p;
    const merged *heat = find(c, AD_HEAT, row[AD_LANE_HEAT]), *zone, *wod;
    long long num = 0, max = 999;
    const char *why;
    rk_score s;

    if (!heat) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".heat_id", NULL),
                   "heat %s is not in competition %s", row[AD_LANE_HEAT], c->cid);
    }
    if (row[AD_LANE_SPOT] && !find(c, AD_SPOT, row[AD_LANE_SPOT])) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".spot_id", NULL),
                   "spot %s is not in competition %s", row[AD_LANE_SPOT], c->cid);
    }
    if (!heat) {
        return;
    }
    zone = heat->row[AD_HEAT_ZONE] ? find(c, AD_ZONE, heat->row[AD_HEAT_ZONE]) : NULL;
    if (zone) {
        admin_read_ll(zone->row[AD_ZONE_LANE_COUNT], &max);
    }
    admin_read_ll(row[AD_LANE_NUMBER], &num);
    if (num > max) {
        admin_fail(&c->k, apr_pstrcat(p, path, ".number", NULL),
                   "%lld is beyond the %lld lanes of zone %s", num, max, zone->row[0]);
    }
    wod = heat->row[AD_HEAT_WOD] ? find(c, AD_WOD, heat->row[AD_HEAT_WOD]) : NULL;
    if (row[AD_LANE_SCORE]) {
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
                   row[AD_LANE_HEAT], where(p, AD_LANE, other));
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
                   where(p, AD_LANE, other), row[AD_LANE_HEAT]);
    }
    else {
        apr_hash_set(spots, key, APR_HASH_KEY_STRING, m);
    }
}

/* The lanes: the database's that stay first (recorded), then the document's. */
static void check_lanes(import_check *c)
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
        merged *m = new_merged(p, ADMIN_DOC_ROW(c->doc, AD_LANE, i), i);

        check_lane(c, path, m->row);
        lane_unique(c, numbers, spots, m, path);
    }
}

admin_import *admin_doc_check(apr_pool_t *p, json_t *json, const admin_doc *base,
                              admin_owner_fn owner, void *ctx, int replace,
                              apr_array_header_t *errors)
{
    import_check c;

    memset(&c, 0, sizeof(c));
    c.k.p = p;
    c.k.errors = errors;
    c.im = apr_pcalloc(p, sizeof(*c.im));
    c.im->doc = c.doc = admin_doc_make(p);
    c.base = base;
    if (!json_is_object(json)) {
        admin_fail(&c.k, NULL, "the document must be a JSON object, not %s", admin_type_name(json));
        return NULL;
    }
    check_top(&c, json);
    if (!read_tables(&c, json) || c.k.nerrors) {
        return NULL;
    }
    merge(&c, replace);
    check_owners(&c, owner, ctx);
    check_heats(&c);
    check_bibs(&c);
    check_lanes(&c);
    return c.k.nerrors ? NULL : c.im;
}
