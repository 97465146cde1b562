/* admin_doc.c: the competition document and the checks of an import; see
 * admin_doc.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "admin_doc.h"
#include "rk_body.h"
#include "rk_score.h"

#define I64 9223372036854775807LL

static const char *const competition_status[] = { "upcoming", "in_progress", "finished", NULL };
static const char *const rankings[] = { "places", "chart100", NULL };
static const char *const scorings[] = { "time", "reps", "load", "points", NULL };
static const char *const heat_status[] = { "scheduled", "running", "finished", NULL };

static const admin_col competition_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "location", AC_NTEXT, 0, 0, NULL },
    { "start_date", AC_DATE, 0, 0, NULL },
    { "end_date", AC_DATE, 0, 0, NULL },
    { "timezone", AC_NTEXT, 0, 0, NULL },
    { "status", AC_ENUM, 0, 0, competition_status },
    { "ranking", AC_ENUM, 0, 0, rankings },
};
static const admin_col wod_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "description", AC_TEXT, 0, 0, NULL },
    { "position", AC_INT, -2147483648LL, 2147483647LL, NULL },
    { "scoring", AC_ENUM, 0, 0, scorings },
    { "time_cap", AC_NINT, 1, 2147483647LL, NULL },
};
static const admin_col spot_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "division", AC_NTEXT, 0, 0, NULL },
    { "affiliate", AC_NTEXT, 0, 0, NULL },
    { "bib", AC_NINT, 1, I64, NULL },
};
static const admin_col zone_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "name", AC_TEXT, 0, 0, NULL },
    { "lane_count", AC_INT, 1, 999, NULL },
};
static const admin_col heat_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "competition_id", AC_PARENT, 0, 0, NULL },
    { "zone_id", AC_REF, 0, 0, NULL },
    { "wod_id", AC_REF, 0, 0, NULL },
    { "number", AC_INT, 1, 2147483647LL, NULL },
    { "start_time", AC_INSTANT, 0, 0, NULL },
    { "status", AC_ENUM, 0, 0, heat_status },
};
static const admin_col lane_cols[] = {
    { "id", AC_ID, 0, 0, NULL },
    { "heat_id", AC_PARENT, 0, 0, NULL },
    { "number", AC_INT, 1, 999, NULL },
    { "spot_id", AC_REF, 0, 0, NULL },
    { "score", AC_SCORE, 0, 0, NULL },
    { "tiebreak", AC_SCORE, 0, 0, NULL },
};

#define COLS(a) a, (int)(sizeof(a) / sizeof(a[0]))
const admin_table_def admin_tables[AD_NTABLES] = {
    [AD_COMPETITION] = { "competition", "competition", "competition", COLS(competition_cols) },
    [AD_WOD] = { "wod", "wods", "wod", COLS(wod_cols) },
    [AD_SPOT] = { "spot", "spots", "spot", COLS(spot_cols) },
    [AD_ZONE] = { "zone", "zones", "zone", COLS(zone_cols) },
    [AD_HEAT] = { "heat", "heats", "heat", COLS(heat_cols) },
    [AD_LANE] = { "lane", "lanes", "lane", COLS(lane_cols) },
};

admin_doc *admin_doc_make(apr_pool_t *p)
{
    admin_doc *d = apr_pcalloc(p, sizeof(*d));
    int t;

    for (t = 0; t < AD_NTABLES; t++) {
        d->rows[t] = apr_array_make(p, 16, sizeof(const char **));
    }
    return d;
}

void admin_doc_add(apr_pool_t *p, admin_doc *d, admin_table t, const char *const *values)
{
    int i, n = admin_tables[t].ncols;
    const char **row = apr_pcalloc(p, (size_t)n * sizeof(*row));

    for (i = 0; i < n; i++) {
        row[i] = values[i] ? apr_pstrdup(p, values[i]) : NULL;
    }
    APR_ARRAY_PUSH(d->rows[t], const char **) = row;
}

#define ROW(d, t, i) APR_ARRAY_IDX((d)->rows[t], (i), const char **)

/* ------------------------------------------------------------------ values */

/* Read S as a whole decimal integer (optional '-', digits) into *V.  1 when it is one
 * within long long. */
static int read_ll(const char *s, long long *v)
{
    char *end;

    if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9'))) {
        return 0;
    }
    errno = 0;
    *v = strtoll(s, &end, 10);
    return errno == 0 && *end == '\0';
}

/* An id as the API writes it: 1 to 2^63-1, decimal, no leading zero. */
static int id_ok(const char *s)
{
    size_t n = strlen(s);

    if (n == 0 || n > 19 || s[0] < '1' || s[0] > '9' || strspn(s, "0123456789") != n) {
        return 0;
    }
    return n < 19 || strcmp(s, "9223372036854775807") <= 0;
}

static int digits(const char *s, int n)
{
    int v = 0;

    while (n-- > 0) {
        v = v * 10 + (*s++ - '0');
    }
    return v;
}

/* "YYYY-MM-DD" (LEN 10) or "YYYY-MM-DDTHH:MM:SSZ" (LEN 20): a real date and time. */
static int when_ok(const char *s, size_t len)
{
    static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
    size_t i;
    int y, mo, d, mdays;

    if (strlen(s) != len) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != form[i]) {
            return 0;
        }
    }
    y = digits(s, 4);
    mo = digits(s + 5, 2);
    d = digits(s + 8, 2);
    if (y < 1 || mo < 1 || mo > 12) {
        return 0;
    }
    mdays = mo == 2 ? ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28)
          : mo == 4 || mo == 6 || mo == 9 || mo == 11 ? 30 : 31;
    if (d < 1 || d > mdays) {
        return 0;
    }
    return len == 10 || (digits(s + 11, 2) <= 23 && digits(s + 14, 2) <= 59
                         && digits(s + 17, 2) <= 59);
}

/* ------------------------------------------------------------------ export */

json_t *admin_doc_to_json(const admin_doc *d)
{
    json_t *root = json_object();
    int t, i, c;

    if (!root || json_object_set_new(root, "version", json_integer(ADMIN_DOC_VERSION)) != 0) {
        json_decref(root);
        return NULL;
    }
    for (t = 0; t < AD_NTABLES; t++) {
        const admin_table_def *def = &admin_tables[t];
        json_t *list = t == AD_COMPETITION ? NULL : json_array();

        if (t != AD_COMPETITION && (!list || json_object_set_new(root, def->key, list) != 0)) {
            goto fail;
        }
        for (i = 0; i < d->rows[t]->nelts; i++) {
            const char **row = ROW(d, t, i);
            json_t *o = json_object();

            if (!o || (list ? json_array_append_new(list, o) : json_object_set_new(root, def->key, o)) != 0) {
                goto fail;
            }
            for (c = 0; c < def->ncols; c++) {
                const char *v = row[c];
                json_t *j;
                long long n;

                if (!v) {
                    j = json_null();
                }
                else if (def->cols[c].type == AC_INT || def->cols[c].type == AC_NINT) {
                    if (!read_ll(v, &n)) {
                        goto fail;
                    }
                    j = json_integer(n);
                }
                else {
                    j = json_string(v);
                }
                if (!j || json_object_set_new(o, def->cols[c].name, j) != 0) {
                    goto fail;
                }
            }
            if (!list) {
                break;
            }
        }
        if (!list && d->rows[t]->nelts == 0) {
            goto fail;
        }
    }
    return root;
fail:
    json_decref(root);
    return NULL;
}

/* ------------------------------------------------------------------ checks */

typedef struct {
    apr_pool_t *p;
    apr_array_header_t *errors;
    int nerrors;
} checker;

static void fail(checker *k, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(checker *k, const char *path, const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    const char *m;

    /* vsnprintf, not apr_pvsprintf: APR's formatter knows no %lld */
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    m = apr_pstrdup(k->p, buf);
    APR_ARRAY_PUSH(k->errors, const char *) = path ? apr_pstrcat(k->p, path, ": ", m, NULL) : m;
    k->nerrors++;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number with a fraction or exponent";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

/* Read field C of object O (at PATH) into *OUT as text.  0, or -1 after an error. */
static int read_col(checker *k, const char *path, const admin_col *c, json_t *v,
                    const char **out)
{
    const char *s;
    size_t i;

    *out = NULL;
    if (json_is_null(v)) {
        switch (c->type) {
        case AC_REF: case AC_NTEXT: case AC_NINT: case AC_DATE: case AC_INSTANT: case AC_SCORE:
            return 0;
        default:
            fail(k, path, "must not be null");
            return -1;
        }
    }
    if (c->type == AC_INT || c->type == AC_NINT) {
        json_int_t n;

        if (!json_is_integer(v)) {
            fail(k, path, "must be an integer%s, not %s", c->type == AC_NINT ? " or null" : "",
                 type_name(v));
            return -1;
        }
        n = json_integer_value(v);
        if (n < c->min || n > c->max) {
            fail(k, path, "%lld is out of range (%lld to %lld)", (long long)n, c->min, c->max);
            return -1;
        }
        {
            char num[24];

            snprintf(num, sizeof(num), "%lld", (long long)n);
            *out = apr_pstrdup(k->p, num);
        }
        return 0;
    }
    if (!json_is_string(v)) {
        fail(k, path, "must be a string%s, not %s",
             c->type == AC_ID || c->type == AC_PARENT || c->type == AC_TEXT || c->type == AC_ENUM
             ? "" : " or null", type_name(v));
        return -1;
    }
    s = json_string_value(v);
    switch (c->type) {
    case AC_ID: case AC_PARENT: case AC_REF:
        if (!id_ok(s)) {
            fail(k, path, "an id is a string of decimal digits, 1 to 9223372036854775807 "
                 "without leading zero");
            return -1;
        }
        break;
    case AC_ENUM:
        for (i = 0; c->values[i] && strcmp(c->values[i], s) != 0; i++)
            ;
        if (!c->values[i]) {
            const char *all = "";

            for (i = 0; c->values[i]; i++) {
                all = apr_pstrcat(k->p, all, i ? ", " : "", c->values[i], NULL);
            }
            fail(k, path, "must be one of %s", all);
            return -1;
        }
        break;
    case AC_DATE:
        if (!when_ok(s, 10)) {
            fail(k, path, "must be a date YYYY-MM-DD or null");
            return -1;
        }
        break;
    case AC_INSTANT:
        if (!when_ok(s, 20)) {
            fail(k, path, "must be a time YYYY-MM-DDTHH:MM:SSZ (UTC) or null");
            return -1;
        }
        break;
    case AC_SCORE:
        if (rk_utf8_chars(s) > RK_SCORE_MAX_CHARS) {
            fail(k, path, "longer than %d characters", RK_SCORE_MAX_CHARS);
            return -1;
        }
        break;
    default:
        break;
    }
    *out = apr_pstrdup(k->p, s);    /* the rows outlive the JSON tree */
    return 0;
}

/* Read object O of table T at PATH into a row.  NULL after errors. */
static const char **read_row(checker *k, const char *path, admin_table t, json_t *o)
{
    const admin_table_def *def = &admin_tables[t];
    const char **row = apr_pcalloc(k->p, (size_t)def->ncols * sizeof(*row));
    const char *key;
    json_t *v;
    int c, bad = 0;

    if (!json_is_object(o)) {
        fail(k, path, "must be an object (a %s), not %s", def->name, type_name(o));
        return NULL;
    }
    json_object_foreach(o, key, v) {
        for (c = 0; c < def->ncols && strcmp(def->cols[c].name, key) != 0; c++)
            ;
        if (c == def->ncols) {
            fail(k, apr_pstrcat(k->p, path, ".", key, NULL), "unknown field of a %s", def->name);
            bad = 1;
        }
    }
    for (c = 0; c < def->ncols; c++) {
        const char *fpath = apr_pstrcat(k->p, path, ".", def->cols[c].name, NULL);

        v = json_object_get(o, def->cols[c].name);
        if (!v) {
            fail(k, fpath, "missing");
            bad = 1;
        }
        else if (read_col(k, fpath, &def->cols[c], v, &row[c]) != 0) {
            bad = 1;
        }
    }
    return bad ? NULL : row;
}

const char *admin_doc_competition_id(json_t *json)
{
    json_t *c = json_object_get(json, "competition");
    json_t *id = json_is_object(c) ? json_object_get(c, "id") : NULL;

    return json_is_string(id) && id_ok(json_string_value(id)) ? json_string_value(id) : NULL;
}

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

admin_import *admin_doc_check(apr_pool_t *p, json_t *json, const admin_doc *base,
                              admin_owner_fn owner, void *ctx, int replace,
                              apr_array_header_t *errors)
{
    checker k = { p, errors, 0 };
    admin_import *im = apr_pcalloc(p, sizeof(*im));
    admin_doc *doc = admin_doc_make(p);
    apr_hash_t *ids[AD_NTABLES];        /* id -> merged */
    apr_hash_t *doc_ids[AD_NTABLES];    /* id -> index + 1 (as a pointer), doc rows */
    const char *cid = NULL;
    const char *key;
    json_t *v;
    int t, i, shape_ok = 1;

    im->doc = doc;
    if (!json_is_object(json)) {
        fail(&k, NULL, "the document must be a JSON object, not %s", type_name(json));
        return NULL;
    }
    json_object_foreach(json, key, v) {
        for (t = 0; t < AD_NTABLES && strcmp(admin_tables[t].key, key) != 0; t++)
            ;
        if (t == AD_NTABLES && strcmp(key, "version") != 0) {
            fail(&k, key, "unknown key of the document");
        }
    }
    v = json_object_get(json, "version");
    if (!v) {
        fail(&k, "version", "missing");
    }
    else if (!json_is_integer(v) || json_integer_value(v) != ADMIN_DOC_VERSION) {
        fail(&k, "version", "must be %d (this ranking-admin reads version %d documents)",
             ADMIN_DOC_VERSION, ADMIN_DOC_VERSION);
    }

    /* the shape of every row */
    for (t = 0; t < AD_NTABLES; t++) {
        const admin_table_def *def = &admin_tables[t];
        json_t *list = json_object_get(json, def->key);
        size_t n;

        ids[t] = apr_hash_make(p);
        doc_ids[t] = apr_hash_make(p);
        if (!list) {
            fail(&k, def->key, "missing");
            shape_ok = 0;
            continue;
        }
        if (t == AD_COMPETITION) {
            const char **row = read_row(&k, def->key, (admin_table)t, list);

            if (row) {
                APR_ARRAY_PUSH(doc->rows[t], const char **) = row;
                cid = row[0];
            }
            else {
                shape_ok = 0;
            }
            continue;
        }
        if (!json_is_array(list)) {
            fail(&k, def->key, "must be an array, not %s", type_name(list));
            shape_ok = 0;
            continue;
        }
        for (n = 0; n < json_array_size(list); n++) {
            const char *path = apr_psprintf(p, "%s[%" APR_SIZE_T_FMT "]", def->key, n);
            const char **row = read_row(&k, path, (admin_table)t, json_array_get(list, n));

            if (!row) {
                shape_ok = 0;
                continue;
            }
            if (apr_hash_get(doc_ids[t], row[0], APR_HASH_KEY_STRING)) {
                int first = (int)(intptr_t)apr_hash_get(doc_ids[t], row[0], APR_HASH_KEY_STRING) - 1;

                fail(&k, apr_pstrcat(p, path, ".id", NULL), "%s %s is also %s[%d]", def->name,
                     row[0], def->key, first);
                shape_ok = 0;
                continue;
            }
            APR_ARRAY_PUSH(doc->rows[t], const char **) = row;
            apr_hash_set(doc_ids[t], row[0], APR_HASH_KEY_STRING,
                         (void *)(intptr_t)doc->rows[t]->nelts);
        }
    }
    if (!shape_ok || k.nerrors) {
        return NULL;
    }

    /* the competition's rows: the database's (unless replaced), then the
     * document's over them */
    im->competition_exists = base->rows[AD_COMPETITION]->nelts > 0;
    for (t = 0; t < AD_NTABLES; t++) {
        im->exists[t] = apr_pcalloc(p, (size_t)doc->rows[t]->nelts + 1);
        im->remove[t] = apr_array_make(p, 4, sizeof(const char *));
        for (i = 0; i < base->rows[t]->nelts; i++) {
            const char **row = ROW(base, t, i);
            merged *m;

            if (apr_hash_get(doc_ids[t], row[0], APR_HASH_KEY_STRING)) {
                continue;
            }
            if (replace && t != AD_COMPETITION) {
                APR_ARRAY_PUSH(im->remove[t], const char *) = row[0];
                continue;
            }
            m = apr_palloc(p, sizeof(*m));
            m->row = row;
            m->doc = -1;
            apr_hash_set(ids[t], row[0], APR_HASH_KEY_STRING, m);
        }
        for (i = 0; i < doc->rows[t]->nelts; i++) {
            const char **row = ROW(doc, t, i);
            merged *m = apr_palloc(p, sizeof(*m));
            int j;

            for (j = 0; j < base->rows[t]->nelts; j++) {
                if (strcmp(ROW(base, t, j)[0], row[0]) == 0) {
                    im->exists[t][i] = 1;
                    break;
                }
            }
            m->row = row;
            m->doc = i;
            apr_hash_set(ids[t], row[0], APR_HASH_KEY_STRING, m);
        }
    }

    /* ids of another competition; each child's competition */
    for (t = 0; t < AD_NTABLES; t++) {
        const admin_table_def *def = &admin_tables[t];

        for (i = 0; i < doc->rows[t]->nelts; i++) {
            const char **row = ROW(doc, t, i);
            const char *path = t == AD_COMPETITION ? def->key
                             : apr_psprintf(p, "%s[%d]", def->key, i);
            const char *other;

            if (!im->exists[t][i] && owner && (other = owner(ctx, (admin_table)t, row[0]))
                && strcmp(other, cid) != 0) {
                fail(&k, apr_pstrcat(p, path, ".id", NULL), "%s %s is in competition %s",
                     def->name, row[0], other);
            }
            if (t != AD_COMPETITION && t != AD_LANE && strcmp(row[1], cid) != 0) {
                fail(&k, apr_pstrcat(p, path, ".competition_id", NULL),
                     "must be the competition's id, %s", cid);
            }
        }
    }

    /* references */
    for (i = 0; i < doc->rows[AD_HEAT]->nelts; i++) {
        const char **row = ROW(doc, AD_HEAT, i);

        if (row[AD_HEAT_ZONE] && !apr_hash_get(ids[AD_ZONE], row[AD_HEAT_ZONE], APR_HASH_KEY_STRING)) {
            fail(&k, apr_psprintf(p, "heats[%d].zone_id", i), "zone %s is not in competition %s",
                 row[AD_HEAT_ZONE], cid);
        }
        if (row[AD_HEAT_WOD] && !apr_hash_get(ids[AD_WOD], row[AD_HEAT_WOD], APR_HASH_KEY_STRING)) {
            fail(&k, apr_psprintf(p, "heats[%d].wod_id", i), "wod %s is not in competition %s",
                 row[AD_HEAT_WOD], cid);
        }
    }
    {
        apr_hash_t *bibs = apr_hash_make(p);
        apr_hash_index_t *hi;

        /* the database's spots first, so that a clash names the document's */
        for (hi = apr_hash_first(p, ids[AD_SPOT]); hi; hi = apr_hash_next(hi)) {
            merged *m = apr_hash_this_val(hi);

            if (m->doc < 0 && m->row[AD_SPOT_BIB]) {
                apr_hash_set(bibs, m->row[AD_SPOT_BIB], APR_HASH_KEY_STRING, m);
            }
        }
        for (i = 0; i < doc->rows[AD_SPOT]->nelts; i++) {
            const char **row = ROW(doc, AD_SPOT, i);
            merged *other;

            if (!row[AD_SPOT_BIB]) {
                continue;
            }
            other = apr_hash_get(bibs, row[AD_SPOT_BIB], APR_HASH_KEY_STRING);
            if (other) {
                fail(&k, apr_psprintf(p, "spots[%d].bib", i), "bib %s is also the bib of %s",
                     row[AD_SPOT_BIB], where(p, AD_SPOT, other));
                continue;
            }
            other = apr_palloc(p, sizeof(*other));
            other->row = row;
            other->doc = i;
            apr_hash_set(bibs, row[AD_SPOT_BIB], APR_HASH_KEY_STRING, other);
        }
    }
    {
        apr_hash_t *numbers = apr_hash_make(p), *spots = apr_hash_make(p);
        apr_hash_index_t *hi;
        int pass;

        /* pass 0: the database's lanes that stay; pass 1: the document's */
        for (pass = 0; pass < 2; pass++) {
            int n = pass ? doc->rows[AD_LANE]->nelts : 0;

            hi = pass ? NULL : apr_hash_first(p, ids[AD_LANE]);
            for (i = 0; pass ? i < n : hi != NULL; pass ? (void)i++ : (void)(hi = apr_hash_next(hi))) {
                merged *m;
                const char **row, *path = NULL;
                const merged *heat, *zone, *wod = NULL;
                const char *nkey, *skey;
                merged *other;

                if (pass) {
                    m = apr_palloc(p, sizeof(*m));
                    m->row = ROW(doc, AD_LANE, i);
                    m->doc = i;
                    path = apr_psprintf(p, "lanes[%d]", i);
                }
                else {
                    m = apr_hash_this_val(hi);
                    if (m->doc >= 0) {
                        continue;
                    }
                }
                row = m->row;
                heat = apr_hash_get(ids[AD_HEAT], row[AD_LANE_HEAT], APR_HASH_KEY_STRING);
                if (pass && !heat) {
                    fail(&k, apr_pstrcat(p, path, ".heat_id", NULL),
                         "heat %s is not in competition %s", row[AD_LANE_HEAT], cid);
                }
                if (pass && row[AD_LANE_SPOT]
                    && !apr_hash_get(ids[AD_SPOT], row[AD_LANE_SPOT], APR_HASH_KEY_STRING)) {
                    fail(&k, apr_pstrcat(p, path, ".spot_id", NULL),
                         "spot %s is not in competition %s", row[AD_LANE_SPOT], cid);
                }
                if (pass && heat) {
                    long long num = 0, max = 999;

                    zone = heat->row[AD_HEAT_ZONE]
                         ? apr_hash_get(ids[AD_ZONE], heat->row[AD_HEAT_ZONE], APR_HASH_KEY_STRING)
                         : NULL;
                    if (zone) {
                        read_ll(zone->row[AD_ZONE_LANE_COUNT], &max);
                    }
                    read_ll(row[AD_LANE_NUMBER], &num);
                    if (num > max) {
                        fail(&k, apr_pstrcat(p, path, ".number", NULL),
                             "%lld is beyond the %lld lanes of zone %s", num, max,
                             zone->row[0]);
                    }
                    wod = heat->row[AD_HEAT_WOD]
                        ? apr_hash_get(ids[AD_WOD], heat->row[AD_HEAT_WOD], APR_HASH_KEY_STRING)
                        : NULL;
                    if (row[AD_LANE_SCORE]) {
                        rk_scoring sc = wod ? rk_scoring_parse(wod->row[AD_WOD_SCORING])
                                            : RK_SCORING_FREE;
                        long long cap = 0;
                        const char *why;
                        rk_score s;

                        if (wod && wod->row[AD_WOD_TIME_CAP]) {
                            read_ll(wod->row[AD_WOD_TIME_CAP], &cap);
                        }
                        if (rk_score_parse(sc, cap, row[AD_LANE_SCORE], &s, &why) != 0) {
                            if (strncmp(why, "Invalid body: ", 14) == 0) {
                                why += 14;
                            }
                            fail(&k, apr_pstrcat(p, path, ".score", NULL), "%s (wod %s)", why,
                                 wod->row[0]);
                        }
                    }
                    if (row[AD_LANE_TIEBREAK]) {
                        const char *why;
                        rk_score s;

                        if (rk_tiebreak_parse(row[AD_LANE_TIEBREAK], &s, &why) != 0) {
                            if (strncmp(why, "Invalid body: ", 14) == 0) {
                                why += 14;
                            }
                            fail(&k, apr_pstrcat(p, path, ".tiebreak", NULL), "%s", why);
                        }
                    }
                }
                nkey = apr_pstrcat(p, row[AD_LANE_HEAT], "/", row[AD_LANE_NUMBER], NULL);
                other = apr_hash_get(numbers, nkey, APR_HASH_KEY_STRING);
                if (pass && other) {
                    fail(&k, apr_pstrcat(p, path, ".number", NULL),
                         "lane number %s of heat %s is also that of %s", row[AD_LANE_NUMBER],
                         row[AD_LANE_HEAT], where(p, AD_LANE, other));
                }
                else {
                    apr_hash_set(numbers, nkey, APR_HASH_KEY_STRING, m);
                }
                if (row[AD_LANE_SPOT]) {
                    skey = apr_pstrcat(p, row[AD_LANE_HEAT], "/", row[AD_LANE_SPOT], NULL);
                    other = apr_hash_get(spots, skey, APR_HASH_KEY_STRING);
                    if (pass && other) {
                        fail(&k, apr_pstrcat(p, path, ".spot_id", NULL),
                             "spot %s is already in %s of heat %s", row[AD_LANE_SPOT],
                             where(p, AD_LANE, other), row[AD_LANE_HEAT]);
                    }
                    else {
                        apr_hash_set(spots, skey, APR_HASH_KEY_STRING, m);
                    }
                }
            }
        }
    }
    return k.nerrors ? NULL : im;
}

/* ------------------------------------------------------------------ team lists */

#include "admin_csv.h"

enum { SC_NAME, SC_DIVISION, SC_AFFILIATE, SC_BIB, SC_N };
static const char *const spot_csv_cols[SC_N] = { "name", "division", "affiliate", "bib" };

typedef struct {
    apr_pool_t *p;
    checker *k;
    int header_done;
    int col[SC_N];              /* the CSV column of each, or -1 */
    size_t ncols;
    apr_array_header_t *rows;   /* admin_spot_in */
} spots_reader;

/* S of N bytes without the spaces and tabs around it, copied into P. */
static char *trimmed(apr_pool_t *p, const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) {
        n--;
    }
    return apr_pstrmemdup(p, s, n);
}

static int spots_record(void *ctx, size_t line, size_t nfields, char *const *fields,
                        const size_t *lens)
{
    spots_reader *r = ctx;
    checker *k = r->k;
    const char *where_ = apr_psprintf(r->p, "line %" APR_SIZE_T_FMT, line);
    size_t i;
    int c;

    if (!r->header_done) {
        r->header_done = 1;
        r->ncols = nfields;
        for (c = 0; c < SC_N; c++) {
            r->col[c] = -1;
        }
        for (i = 0; i < nfields; i++) {
            char *name = trimmed(r->p, fields[i], lens[i]);
            char *q;

            for (q = name; *q; q++) {
                *q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
            }
            for (c = 0; c < SC_N && strcmp(spot_csv_cols[c], name) != 0; c++)
                ;
            if (c == SC_N) {
                fail(k, where_, "unknown column '%s' in the header (name, division, "
                     "affiliate, bib)", name);
            }
            else if (r->col[c] >= 0) {
                fail(k, where_, "column '%s' twice in the header", name);
            }
            else {
                r->col[c] = (int)i;
            }
        }
        if (r->col[SC_NAME] < 0) {
            fail(k, where_, "the header has no column 'name' (the columns: name, division, "
                 "affiliate, bib)");
        }
        return k->nerrors ? 1 : 0;
    }
    for (i = 0; i < nfields && lens[i] == 0; i++)
        ;
    if (i == nfields) {
        return 0;   /* a blank record */
    }
    if (nfields != r->ncols) {
        fail(k, where_, "%zu fields, the header has %zu", nfields, r->ncols);
        return 0;
    }
    {
        admin_spot_in *in = apr_array_push(r->rows);
        const char **row = apr_pcalloc(r->p, 6 * sizeof(*row));
        const char *v[SC_N];

        for (c = 0; c < SC_N; c++) {
            v[c] = r->col[c] < 0 ? NULL : trimmed(r->p, fields[r->col[c]], lens[r->col[c]]);
            if (v[c] && !*v[c] && c != SC_NAME) {
                v[c] = NULL;
            }
        }
        memset(in, 0, sizeof(*in));
        in->line = line;
        in->row = row;
        row[2] = v[SC_NAME];
        row[3] = v[SC_DIVISION];
        row[4] = v[SC_AFFILIATE];
        if (!*v[SC_NAME]) {
            fail(k, where_, "the team has no name");
        }
        if (v[SC_BIB]) {
            const char *b = v[SC_BIB] + strspn(v[SC_BIB], "0");

            if (strspn(v[SC_BIB], "0123456789") != strlen(v[SC_BIB]) || !*b
                || strlen(b) > 19 || (strlen(b) == 19 && strcmp(b, "9223372036854775807") > 0)) {
                fail(k, where_, "bib '%s' is not a whole number from 1 to 9223372036854775807",
                     v[SC_BIB]);
                b = NULL;       /* the other rows are still checked */
            }
            row[AD_SPOT_BIB] = b;
        }
    }
    return 0;
}

apr_array_header_t *admin_spots_csv(apr_pool_t *p, const char *buf, size_t len,
                                    const char *cid, const admin_doc *base,
                                    apr_array_header_t *errors)
{
    checker k = { p, errors, 0 };
    spots_reader r;
    char why[256];
    apr_hash_t *by_bib = apr_hash_make(p), *by_name = apr_hash_make(p);
    apr_hash_t *file_bibs = apr_hash_make(p), *taken = apr_hash_make(p);
    int i, rc;

    memset(&r, 0, sizeof(r));
    r.p = p;
    r.k = &k;
    r.rows = apr_array_make(p, 64, sizeof(admin_spot_in));
    rc = admin_csv_parse(buf, len, spots_record, &r, why, sizeof(why));
    if (rc == -1) {
        fail(&k, NULL, "%s", why);
    }
    else if (rc == -2) {
        fail(&k, NULL, "out of memory");
    }
    if (!r.header_done && !k.nerrors) {
        fail(&k, "line 1", "no header row (name, division, affiliate, bib)");
    }
    if (rc != 0 || !r.header_done) {
        return NULL;    /* unreadable CSV, or a bad header: no row to check */
    }
    for (i = 0; i < base->rows[AD_SPOT]->nelts; i++) {
        const char **s = ROW(base, AD_SPOT, i);
        apr_array_header_t *same;

        if (s[AD_SPOT_BIB]) {
            apr_hash_set(by_bib, s[AD_SPOT_BIB], APR_HASH_KEY_STRING, s);
        }
        same = apr_hash_get(by_name, s[2], APR_HASH_KEY_STRING);
        if (!same) {
            same = apr_array_make(p, 1, sizeof(const char **));
            apr_hash_set(by_name, s[2], APR_HASH_KEY_STRING, same);
        }
        APR_ARRAY_PUSH(same, const char **) = s;
    }
    for (i = 0; i < r.rows->nelts; i++) {
        admin_spot_in *in = &APR_ARRAY_IDX(r.rows, i, admin_spot_in);
        const char *where_ = apr_psprintf(p, "line %" APR_SIZE_T_FMT, in->line);
        const char **match = NULL;
        admin_spot_in *other;

        if (in->row[AD_SPOT_BIB]) {
            other = apr_hash_get(file_bibs, in->row[AD_SPOT_BIB], APR_HASH_KEY_STRING);
            if (other) {
                fail(&k, where_, "bib %s is also on line %zu", in->row[AD_SPOT_BIB], other->line);
                continue;
            }
            apr_hash_set(file_bibs, in->row[AD_SPOT_BIB], APR_HASH_KEY_STRING, in);
            match = apr_hash_get(by_bib, in->row[AD_SPOT_BIB], APR_HASH_KEY_STRING);
        }
        if (!match) {
            apr_array_header_t *same = apr_hash_get(by_name, in->row[2], APR_HASH_KEY_STRING);

            if (same && same->nelts > 1) {
                fail(&k, where_, "%d spots of competition %s are named '%s': give the bib",
                     same->nelts, cid, in->row[2]);
                continue;
            }
            match = same ? APR_ARRAY_IDX(same, 0, const char **) : NULL;
        }
        in->row[1] = cid;
        if (match) {
            other = apr_hash_get(taken, match[0], APR_HASH_KEY_STRING);
            if (other) {
                fail(&k, where_, "the team of line %zu is already spot %s", other->line, match[0]);
                continue;
            }
            apr_hash_set(taken, match[0], APR_HASH_KEY_STRING, in);
            in->row[0] = match[0];
            in->exists = 1;
            in->bib_changes = (match[AD_SPOT_BIB] == NULL) != (in->row[AD_SPOT_BIB] == NULL)
                || (match[AD_SPOT_BIB] && strcmp(match[AD_SPOT_BIB], in->row[AD_SPOT_BIB]) != 0);
        }
        else {
            in->row[0] = NULL;
        }
    }
    return k.nerrors ? NULL : r.rows;
}

/* ------------------------------------------------------------------ statements */

static int is_int_col(const admin_col *c)
{
    return c->type == AC_ID || c->type == AC_PARENT || c->type == AC_REF
        || c->type == AC_INT || c->type == AC_NINT;
}

static const char *ph(const admin_col *c)
{
    return is_int_col(c) ? "%lld" : "%s";
}

const char *admin_sql_select(apr_pool_t *p, admin_table t)
{
    const admin_table_def *def = &admin_tables[t];
    const char *cols = "";
    int c;

    for (c = 0; c < def->ncols; c++) {
        cols = apr_pstrcat(p, cols, c ? ", " : "", "x.", def->cols[c].name, NULL);
    }
    switch (t) {
    case AD_COMPETITION:
        return apr_pstrcat(p, "SELECT ", cols, " FROM competition x WHERE x.id = %lld", NULL);
    case AD_LANE:
        return apr_pstrcat(p, "SELECT ", cols, " FROM lane x JOIN heat h ON h.id = x.heat_id"
                           " WHERE h.competition_id = %lld ORDER BY x.id", NULL);
    default:
        return apr_pstrcat(p, "SELECT ", cols, " FROM ", def->sql,
                           " x WHERE x.competition_id = %lld ORDER BY x.id", NULL);
    }
}

const char *admin_sql_owner(apr_pool_t *p, admin_table t)
{
    switch (t) {
    case AD_COMPETITION:
        return "SELECT id FROM competition WHERE id = %lld";
    case AD_LANE:
        return "SELECT h.competition_id FROM lane l JOIN heat h ON h.id = l.heat_id"
               " WHERE l.id = %lld";
    default:
        return apr_pstrcat(p, "SELECT competition_id FROM ", admin_tables[t].sql,
                           " WHERE id = %lld", NULL);
    }
}

const char *admin_sql_update(apr_pool_t *p, admin_table t)
{
    const admin_table_def *def = &admin_tables[t];
    const char *set = "";
    int c;

    for (c = 1; c < def->ncols; c++) {
        set = apr_pstrcat(p, set, c > 1 ? ", " : "", def->cols[c].name, " = ",
                          ph(&def->cols[c]), NULL);
    }
    return apr_pstrcat(p, "UPDATE ", def->sql, " SET ", set, " WHERE id = %lld", NULL);
}

const char *admin_sql_insert(apr_pool_t *p, admin_table t)
{
    const admin_table_def *def = &admin_tables[t];
    const char *cols = "", *vals = "";
    int c;

    for (c = 0; c < def->ncols; c++) {
        cols = apr_pstrcat(p, cols, c ? ", " : "", def->cols[c].name, NULL);
        vals = apr_pstrcat(p, vals, c ? ", " : "", ph(&def->cols[c]), NULL);
    }
    return apr_pstrcat(p, "INSERT INTO ", def->sql, " (", cols, ") VALUES (", vals, ")", NULL);
}

const char *admin_sql_delete(apr_pool_t *p, admin_table t)
{
    return apr_pstrcat(p, "DELETE FROM ", admin_tables[t].sql, " WHERE id = %lld", NULL);
}
