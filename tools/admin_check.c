/* admin_check.c: the checks of an import, every one that needs no database: the
 * shape of the document, then its rows merged with the competition's in the
 * database, their references and uniqueness; see admin_doc_check in admin_doc.h.
 * The shape of a row is admin_shape.c's, the lanes and their scores
 * admin_scores.c's. */
#include <stdint.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "admin_check.h"
#include "admin_doc.h"
#include "admin_values.h"

/* Where a merged row is named in messages. */
const char *admin_where(apr_pool_t *p, admin_table t, const merged *m)
{
    if (m->doc >= 0) {
        return apr_psprintf(p, "%s[%d]", admin_tables[t].key, m->doc);
    }
    return apr_psprintf(p, "%s %s in the database", admin_tables[t].name, m->row[0]);
}

merged *admin_new_merged(apr_pool_t *p, const char **row, int doc)
{
    merged *m = apr_palloc(p, sizeof(*m));

    m->row = row;
    m->doc = doc;
    return m;
}

/* ------------------------------------------------------------------ the document */

/* The competition's row of table T with id ID, or NULL. */
const merged *admin_find(const import_check *c, admin_table t, const char *id)
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
        if (t == AD_NTABLES && strcmp(key, "version") != 0 && strcmp(key, "origin") != 0) {
            admin_fail(&c->k, key, "unknown key of the document");
        }
    }
    v = json_object_get(json, "version");
    c->version = ADMIN_DOC_VERSION;
    if (!v) {
        admin_fail(&c->k, "version", "missing");
    }
    else if (!json_is_integer(v) || json_integer_value(v) < ADMIN_DOC_VERSION_OLDEST
             || json_integer_value(v) > ADMIN_DOC_VERSION) {
        admin_fail(&c->k, "version", "must be %d to %d (this ranking-admin reads version %d "
                   "to %d documents)", ADMIN_DOC_VERSION_OLDEST, ADMIN_DOC_VERSION,
                   ADMIN_DOC_VERSION_OLDEST, ADMIN_DOC_VERSION);
    }
    else {
        c->version = (int)json_integer_value(v);
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
        const char **row = admin_read_row(&c->k, path, t, json_array_get(list, n),
                                          c->version);
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
            const char **row = admin_read_row(&c->k, def->key, (admin_table)t, list,
                                              c->version);

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
        c->base_ids[t] = apr_hash_make(p);
        for (i = 0; i < c->base->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(c->base, t, i);

            apr_hash_set(c->base_ids[t], row[0], APR_HASH_KEY_STRING, row);
            if (apr_hash_get(c->doc_ids[t], row[0], APR_HASH_KEY_STRING)) {
                continue;
            }
            if (replace && t != AD_COMPETITION) {
                APR_ARRAY_PUSH(im->remove[t], const char *) = row[0];
                continue;
            }
            apr_hash_set(c->ids[t], row[0], APR_HASH_KEY_STRING, admin_new_merged(p, row, -1));
        }
        for (i = 0; i < c->doc->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(c->doc, t, i);

            for (j = 0; j < c->base->rows[t]->nelts; j++) {
                if (strcmp(ADMIN_DOC_ROW(c->base, t, j)[0], row[0]) == 0) {
                    im->exists[t][i] = 1;
                    break;
                }
            }
            apr_hash_set(c->ids[t], row[0], APR_HASH_KEY_STRING, admin_new_merged(p, row, i));
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

        if (row[AD_HEAT_ZONE] && !admin_find(c, AD_ZONE, row[AD_HEAT_ZONE])) {
            admin_fail(&c->k, apr_psprintf(p, "heats[%d].zone_id", i),
                       "zone %s is not in competition %s", row[AD_HEAT_ZONE], c->cid);
        }
        if (row[AD_HEAT_WOD] && !admin_find(c, AD_WOD, row[AD_HEAT_WOD])) {
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
                       admin_where(p, AD_SPOT, other));
            continue;
        }
        apr_hash_set(bibs, row[AD_SPOT_BIB], APR_HASH_KEY_STRING, admin_new_merged(p, row, i));
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
    c.im->version = c.version;
    if (!read_tables(&c, json) || c.k.nerrors) {
        return NULL;
    }
    merge(&c, replace);
    check_owners(&c, owner, ctx);
    check_heats(&c);
    check_bibs(&c);
    admin_check_lanes(&c);
    admin_check_stored_scores(&c);
    return c.k.nerrors ? NULL : c.im;
}
