/* admin_shape.c: the shape of a competition document's rows (keys, types, ranges,
 * formats), and the errors of the checks; see admin_check.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <apr_strings.h>

#include "admin_check.h"
#include "admin_values.h"
#include "rk_body.h"

void admin_fail(admin_checker *k, const char *path, const char *fmt, ...)
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

const char *admin_type_name(const json_t *v)
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

/* "YYYY-MM-DD" (LEN 10) or "YYYY-MM-DDTHH:MM:SSZ" (LEN 20): a real date and time. */
static int when_ok(const char *s, size_t len)
{
    return strlen(s) == len && admin_when_check(s, NULL, 0) == NULL;
}

/* Read field C of object O (at PATH) into *OUT as text.  0, or -1 after an error. */
static int read_col(admin_checker *k, const char *path, const admin_col *c, json_t *v,
                    const char **out)
{
    const char *s;
    size_t i;

    *out = NULL;
    if (json_is_null(v)) {
        switch (c->type) {
        case AC_REF: case AC_NTEXT: case AC_NINT: case AC_NENUM: case AC_DATE: case AC_INSTANT:
        case AC_SCORE:
            return 0;
        default:
            admin_fail(k, path, "must not be null");
            return -1;
        }
    }
    if (c->type == AC_INT || c->type == AC_NINT) {
        json_int_t n;

        if (!json_is_integer(v)) {
            admin_fail(k, path, "must be an integer%s%s, not %s",
                       strcmp(c->name, "time_cap") == 0 ? " of seconds (e.g. 720 for a cap "
                       "of 12:00)" : "", c->type == AC_NINT ? " or null" : "",
                       admin_type_name(v));
            return -1;
        }
        n = json_integer_value(v);
        if (n < c->min || n > c->max) {
            admin_fail(k, path, "%lld is out of range (%lld to %lld%s)", (long long)n, c->min,
                       c->max, strcmp(c->name, "time_cap") == 0
                       ? " seconds, e.g. 720 for a cap of 12:00" : "");
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
        admin_fail(k, path, "must be a string%s, not %s",
                   c->type == AC_ID || c->type == AC_PARENT || c->type == AC_TEXT
                   || c->type == AC_ENUM ? "" : " or null", admin_type_name(v));
        return -1;
    }
    s = json_string_value(v);
    switch (c->type) {
    case AC_ID: case AC_PARENT: case AC_REF:
        if (!admin_id_ok(s)) {
            admin_fail(k, path, "an id is a string of decimal digits, 1 to "
                       "9223372036854775807 without leading zero");
            return -1;
        }
        break;
    case AC_ENUM: case AC_NENUM:
        for (i = 0; c->values[i] && strcmp(c->values[i], s) != 0; i++)
            ;
        if (!c->values[i]) {
            const char *all = "";

            for (i = 0; c->values[i]; i++) {
                all = apr_pstrcat(k->p, all, i ? ", " : "", c->values[i], NULL);
            }
            admin_fail(k, path, "must be one of %s%s", all, c->type == AC_NENUM ? ", or null" : "");
            return -1;
        }
        break;
    case AC_DATE:
        if (!when_ok(s, 10)) {
            admin_fail(k, path, "must be a date YYYY-MM-DD (e.g. 2026-11-21) or null");
            return -1;
        }
        break;
    case AC_INSTANT:
        if (!when_ok(s, 20)) {
            admin_fail(k, path, "must be a time in UTC, YYYY-MM-DDTHH:MM:SSZ (e.g. "
                       "2026-11-21T08:30:00Z for 9:30 in Paris in winter), or null");
            return -1;
        }
        break;
    case AC_SCORE:
        if (rk_utf8_chars(s) > RK_SCORE_MAX_CHARS) {
            admin_fail(k, path, "longer than %d characters", RK_SCORE_MAX_CHARS);
            return -1;
        }
        break;
    default:
        break;
    }
    *out = apr_pstrdup(k->p, s);    /* the rows outlive the JSON tree */
    return 0;
}

/* Read object O of table T at PATH, of a document of version VERSION, into a row.
 * NULL after errors. */
const char **admin_read_row(admin_checker *k, const char *path, admin_table t, json_t *o,
                            int version)
{
    const admin_table_def *def = &admin_tables[t];
    const char **row = apr_pcalloc(k->p, (size_t)def->ncols * sizeof(*row));
    int ncols = version == 1 ? def->ncols_v1 : def->ncols;
    const char *key;
    json_t *v;
    int c, bad = 0;

    if (!json_is_object(o)) {
        admin_fail(k, path, "must be an object (a %s), not %s", def->name,
                   admin_type_name(o));
        return NULL;
    }
    json_object_foreach(o, key, v) {
        for (c = 0; c < def->ncols && strcmp(def->cols[c].name, key) != 0; c++)
            ;
        if (c == def->ncols) {
            admin_fail(k, apr_pstrcat(k->p, path, ".", key, NULL), "unknown field of a %s",
                       def->name);
            bad = 1;
        }
        else if (c >= ncols) {
            admin_fail(k, apr_pstrcat(k->p, path, ".", key, NULL), "not a field of a version "
                       "%d document (a %s has it from version %d: say \"version\": %d)",
                       version, def->name, ADMIN_DOC_VERSION, ADMIN_DOC_VERSION);
            bad = 1;
        }
    }
    for (c = 0; c < ncols; c++) {
        const char *fpath = apr_pstrcat(k->p, path, ".", def->cols[c].name, NULL);

        v = json_object_get(o, def->cols[c].name);
        if (!v) {
            admin_fail(k, fpath, "missing");
            bad = 1;
        }
        else if (read_col(k, fpath, &def->cols[c], v, &row[c]) != 0) {
            bad = 1;
        }
    }
    if (ncols < def->ncols) {
        admin_row_upgrade(t, row);
    }
    return bad ? NULL : row;
}
