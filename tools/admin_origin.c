/* admin_origin.c: what an exported document was made from, so that an import does
 * not overwrite what changed in the database since (no lost update: issue 27, the
 * rule of If-Match over HTTP).  Pure C + jansson + APR, no httpd header; see
 * admin_doc.h.
 *
 * export adds "origin": {"tags": {"competition": {"1": TAG}, "wods": {ID: TAG, ...},
 * ...}}: the tag of each row as exported, the first 16 hex digits of the SHA-256 of
 * its columns' values (each "N" for null, or "V", its length, ':' and its text, in
 * the table's order).  The tags depend on the rows only: the same rows give the
 * same document on SQLite and PostgreSQL, and export, import, export the same bytes.
 *
 * A version 1 document's tags are of its columns (the ones before schema version 3):
 * a row of the database matches one when its other columns are what the upgrade
 * gave it (admin_row_upgrade) and its version 1 columns have that tag; a row whose
 * new columns changed since (a validation, a publication) changed since the export.
 *
 * import, given the rows the database has now: a row of the document that differs
 * from the database's row of that id overwrites it; that is a conflict when the
 * database's row is not the one exported (its tag differs from the origin's, or the
 * origin has no row of that id: added since), or when the exported row is gone
 * (deleted since: the import would bring it back).  With --replace, a row the
 * import would delete is a conflict when it is not the one exported.  When the
 * database has no competition of the document's id (a copy into another database),
 * nothing is overwritten: no conflict. */
#include <stdio.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "admin_check.h"
#include "admin_doc.h"
#include "rk_token.h"

#define TAG_LEN 16

/* The tag of the first NCOLS columns of ROW. */
static const char *row_tag(apr_pool_t *p, int ncols, const char *const *row)
{
    rk_sha256_ctx ctx;
    char hex[RK_HASH_HEX + 1], len[24];
    int c;

    rk_sha256_init(&ctx);
    for (c = 0; c < ncols; c++) {
        if (!row[c]) {
            rk_sha256_update(&ctx, "N", 1);
            continue;
        }
        snprintf(len, sizeof(len), "V%zu:", strlen(row[c]));
        rk_sha256_update(&ctx, len, strlen(len));
        rk_sha256_update(&ctx, row[c], strlen(row[c]));
    }
    rk_sha256_final_hex(&ctx, hex);
    return apr_pstrmemdup(p, hex, TAG_LEN);
}

const char *admin_row_tag(apr_pool_t *p, admin_table t, const char *const *row)
{
    return row_tag(p, admin_tables[t].ncols, row);
}

static int same_text(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

const char *admin_row_tag_version(apr_pool_t *p, admin_table t, const char *const *row,
                                  int version)
{
    const admin_table_def *def = &admin_tables[t];
    const char **up;
    int c;

    if (version != 1) {
        return admin_row_tag(p, t, row);
    }
    up = apr_pmemdup(p, row, (size_t)def->ncols * sizeof(*up));
    admin_row_upgrade(t, up);
    for (c = def->ncols_v1; c < def->ncols; c++) {
        if (!same_text(up[c], row[c])) {
            return NULL;
        }
    }
    return row_tag(p, def->ncols_v1, row);
}

int admin_origin_add(apr_pool_t *p, json_t *json, const admin_doc *d)
{
    json_t *origin = json_object(), *tags = json_object();
    int t, i, bad = !origin || !tags || json_object_set_new(origin, "tags", tags) != 0
                    || json_object_set_new(json, "origin", origin) != 0;

    for (t = 0; !bad && t < AD_NTABLES; t++) {
        json_t *list = json_object();

        bad = !list || json_object_set_new(tags, admin_tables[t].key, list) != 0;
        for (i = 0; !bad && i < d->rows[t]->nelts; i++) {
            const char **row = ADMIN_DOC_ROW(d, t, i);

            bad = json_object_set_new(list, row[0],
                                      json_string(admin_row_tag(p, (admin_table)t, row))) != 0;
        }
    }
    return bad ? -1 : 0;
}

/* V for a message: "null", or the text in quotes, cut at 40 bytes (never inside a
 * UTF-8 character). */
static const char *shown(apr_pool_t *p, const char *v)
{
    size_t n;

    if (!v) {
        return "null";
    }
    n = strlen(v);
    if (n <= 40) {
        return apr_pstrcat(p, "\"", v, "\"", NULL);
    }
    for (n = 40; n > 0 && ((unsigned char)v[n] & 0xC0) == 0x80; n--)
        ;
    return apr_pstrcat(p, "\"", apr_pstrmemdup(p, v, n), "...\"", NULL);
}

/* The columns where the database's row DB and the document's DOC of table T
 * differ: "score \"245\" in the database, null in the document; ...". */
static const char *differences(apr_pool_t *p, admin_table t, const char **db,
                               const char **doc, int version)
{
    const char *out = "";
    int c;

    for (c = 1; c < admin_tables[t].ncols; c++) {
        if (!same_text(db[c], doc[c])) {
            /* a value a version 1 document lacks: the upgrade's (admin_row_upgrade) */
            int v1 = version == 1 && c >= admin_tables[t].ncols_v1;

            out = apr_pstrcat(p, out, *out ? "; " : "", admin_tables[t].cols[c].name, " ",
                              shown(p, db[c]), " in the database, ", shown(p, doc[c]),
                              v1 ? " from the version 1 document (which has no such field)"
                              : " in the document", NULL);
        }
    }
    return out;
}

/* The tags of the origin OBJ of table T's key (NULL: none), or -1 after an error. */
static int origin_tags(admin_checker *k, json_t *origin, admin_table t, json_t **out)
{
    json_t *tags = json_object_get(origin, "tags");
    const char *key, *path = apr_pstrcat(k->p, "origin.tags.", admin_tables[t].key, NULL);
    json_t *list, *v;

    *out = NULL;
    if (!json_is_object(tags)) {
        admin_fail(k, "origin.tags", "must be an object (what export wrote)");
        return -1;
    }
    list = json_object_get(tags, admin_tables[t].key);
    if (list && !json_is_object(list)) {
        admin_fail(k, path, "must be an object (what export wrote)");
        return -1;
    }
    json_object_foreach(list, key, v) {
        if (!json_is_string(v)) {
            admin_fail(k, apr_pstrcat(k->p, path, ".", key, NULL), "must be a string (a tag)");
            return -1;
        }
    }
    *out = list;
    return 0;
}

/* The conflicts of table T: the document's rows, then (--replace) the rows to
 * delete. */
static void table_conflicts(admin_checker *k, const admin_import *im, const admin_doc *base,
                            admin_table t, json_t *tags)
{
    apr_pool_t *p = k->p;
    const admin_table_def *def = &admin_tables[t];
    apr_hash_t *now = apr_hash_make(p);
    int i;

    for (i = 0; i < base->rows[t]->nelts; i++) {
        const char **row = ADMIN_DOC_ROW(base, t, i);

        apr_hash_set(now, row[0], APR_HASH_KEY_STRING, row);
    }
    for (i = 0; i < im->doc->rows[t]->nelts; i++) {
        const char **doc = ADMIN_DOC_ROW(im->doc, t, i), **db;
        const char *path = t == AD_COMPETITION ? def->key
                         : apr_psprintf(p, "%s[%d]", def->key, i);
        json_t *o = json_object_get(tags, doc[0]);
        const char *was = o ? json_string_value(o) : NULL, *tag;

        db = apr_hash_get(now, doc[0], APR_HASH_KEY_STRING);
        if (db && strcmp(admin_row_tag(p, t, db), admin_row_tag(p, t, doc)) == 0) {
            continue;       /* nothing overwritten */
        }
        /* the database's row as the document's version tags it (NULL: not a row
         * that version could have been exported from) */
        tag = db ? admin_row_tag_version(p, t, db, im->version) : NULL;
        if (was && !db) {
            admin_fail(k, path, "%s %s was deleted from the database since the export: the "
                       "import would bring it back", def->name, doc[0]);
        }
        else if (db && (!was || !tag || strcmp(was, tag) != 0)) {
            admin_fail(k, path, "%s %s %s the database since the export: %s", def->name,
                       doc[0], was ? "changed in" : "was added to",
                       differences(p, t, db, doc, im->version));
        }
    }
    for (i = 0; i < im->remove[t]->nelts; i++) {
        const char *id = APR_ARRAY_IDX(im->remove[t], i, const char *);
        const char **db = apr_hash_get(now, id, APR_HASH_KEY_STRING);
        const char *tag = admin_row_tag_version(p, t, db, im->version);
        json_t *o = json_object_get(tags, id);

        if (!o || !tag || strcmp(json_string_value(o), tag) != 0) {
            admin_fail(k, NULL, "%s %s %s the database since the export: --replace would "
                       "delete it", def->name, id, o ? "changed in" : "was added to");
        }
    }
}

int admin_origin_conflicts(apr_pool_t *p, json_t *json, const admin_import *im,
                           const admin_doc *base, apr_array_header_t *errors)
{
    admin_checker k = { p, errors, 0 };
    json_t *origin = json_object_get(json, "origin"), *tags;
    int t;

    if (!origin) {
        return 0;   /* a document written by hand: no origin to compare with */
    }
    if (!im->competition_exists && json_is_object(origin)) {
        return 0;   /* a copy into another database (or after the competition's
                     * deletion): nothing to overwrite */
    }
    if (!json_is_object(origin)) {
        admin_fail(&k, "origin", "must be an object (what export wrote)");
        return -1;
    }
    for (t = 0; t < AD_NTABLES; t++) {
        if (origin_tags(&k, origin, (admin_table)t, &tags) != 0) {
            return -1;
        }
        table_conflicts(&k, im, base, (admin_table)t, tags);
    }
    return k.nerrors;
}
