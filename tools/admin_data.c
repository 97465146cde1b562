/* admin_data.c: a competition's rows in and out: export (one JSON document on
 * stdout), import (such a document, checked, then written in one transaction),
 * import-spots (teams from CSV).  The document, its checks and the statements of
 * its tables are admin_doc.c's and admin_check.c's (pure), the team lists
 * lib/rk_spots_csv.c's (shared with the module).  Statements are prepared here, once each, under labels
 * "ranking_admin_data_N"; export-results (admin_results.c) reads through them too. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_dbd.h>
#include <apr_hash.h>
#include <apr_strings.h>

#include "admin.h"
#include "admin_doc.h"
#include "rk_spots_csv.h"

/* Clear the bib of a spot (1 argument, its id), so that spots can swap bibs. */
#define CLEAR_BIB "UPDATE spot SET bib = NULL WHERE id = %lld"

/* Prepare SQL (once per text) into *STMT.  0 or an exit status. */
static int data_prepare(db_t *db, const char *sql, apr_dbd_prepared_t **stmt)
{
    static apr_hash_t *prepared;
    int r;

    if (!prepared) {
        prepared = apr_hash_make(db->pool);
    }
    *stmt = apr_hash_get(prepared, sql, APR_HASH_KEY_STRING);
    if (*stmt) {
        return 0;
    }
    r = apr_dbd_prepare(db->driver, db->pool, db->handle, sql,
                        apr_psprintf(db->pool, "ranking_admin_data_%u", apr_hash_count(prepared)),
                        stmt);
    if (r != 0) {
        *stmt = NULL;
        return db_fail(db, r, apr_psprintf(db->pool, "preparing '%s'", sql));
    }
    apr_hash_set(prepared, sql, APR_HASH_KEY_STRING, *stmt);
    return 0;
}

int data_select(db_t *db, const char *sql, int nargs, const char **args, int ncols,
                apr_array_header_t *out)
{
    apr_dbd_prepared_t *st;
    apr_dbd_results_t *res = NULL;
    apr_dbd_row_t *row = NULL;
    int rc, r, i;

    if ((rc = data_prepare(db, sql, &st)) != 0) {
        return rc;
    }
    r = apr_dbd_pselect(db->driver, db->pool, db->handle, &res, st, 1, nargs, args);
    if (r != 0) {
        return db_fail(db, r, apr_psprintf(db->pool, "'%s'", sql));
    }
    while (apr_dbd_get_row(db->driver, db->pool, res, &row, -1) == 0) {
        const char **v = apr_pcalloc(db->pool, (size_t)ncols * sizeof(*v));

        for (i = 0; i < ncols; i++) {
            char *e = NULL;

            /* as the module reads a column: pgsql's get_entry gives "" for NULL */
            if (apr_dbd_datum_get(db->driver, row, i, APR_DBD_TYPE_STRING, &e) == APR_SUCCESS
                && e) {
                v[i] = apr_pstrdup(db->pool, e);
            }
        }
        APR_ARRAY_PUSH(out, const char **) = v;
    }
    return 0;
}

int data_run_n(db_t *db, const char *sql, int nargs, const char **args, int *nrows)
{
    apr_dbd_prepared_t *st;
    int rc, r, n = 0;

    if ((rc = data_prepare(db, sql, &st)) != 0) {
        return rc;
    }
    r = apr_dbd_pquery(db->driver, db->pool, db->handle, &n, st, nargs, args);
    if (nrows) {
        *nrows = n;
    }
    return r == 0 ? 0 : db_fail(db, r, apr_psprintf(db->pool, "'%s'", sql));
}

/* Run the statement SQL with NARGS ARGS (NULL: SQL NULL).  0 or an exit status. */
static int data_run(db_t *db, const char *sql, int nargs, const char **args)
{
    return data_run_n(db, sql, nargs, args, NULL);
}

/* A command that needs schema version VERSION: the columns of a competition as
 * export and import know them came with version 3 (publication, advance, a lane's
 * score_status and published values; 2: ranking, a lane's tiebreak). */
int need_version(db_t *db, const char *command, int version)
{
    int v = 0, rc = db_schema_version(db, &v);

    if (rc == 0 && v < version) {
        admin_err("%s is at schema version %d, too old for '%s': run '" PROG " upgrade'",
                  db->what, v, command);
        rc = EXIT_DB;
    }
    return rc;
}

/* Every row of competition CID into a document.  0, EXIT_USER when there is no such
 * competition, or an exit status. */
static int read_competition(db_t *db, const char *cid, admin_doc **out)
{
    admin_doc *d = admin_doc_make(db->pool);
    const char *args[1] = { cid };
    int t, rc;

    for (t = 0; t < AD_NTABLES; t++) {
        rc = data_select(db, admin_sql_select(db->pool, (admin_table)t), 1, args,
                         admin_tables[t].ncols, d->rows[t]);
        if (rc != 0) {
            return rc;
        }
    }
    *out = d;
    return d->rows[AD_COMPETITION]->nelts ? 0 : EXIT_USER;
}

int no_competition(const char *cid)
{
    admin_err("no competition %s", cid);
    return EXIT_USER;
}

static int print_errors(const char *what, apr_array_header_t *errors)
{
    int i;

    for (i = 0; i < errors->nelts; i++) {
        admin_err("%s", APR_ARRAY_IDX(errors, i, const char *));
    }
    admin_err("%s refused (%d %s), nothing was changed", what, errors->nelts,
              plural(errors->nelts, "error", "errors"));
    return EXIT_USAGE;
}

/* Start the transaction of an import: SQLite takes the write lock at BEGIN
 * (IMMEDIATE); PostgreSQL locks the table revision, which every write of the module
 * updates, so that nothing changes between the checks and the writes. */
static int data_begin(db_t *db)
{
    int rc = db_begin(db);

    return rc != 0 || db->sqlite ? rc : db_lock_revision(db);
}

int cmd_export(db_t *db, const opts_t *o)
{
    admin_doc *d = NULL;
    json_t *json;
    int rc = need_version(db, "export", 3);

    if (rc == 0) {
        rc = read_competition(db, o->arg_id, &d);
    }
    if (rc == EXIT_USER) {
        return no_competition(o->arg_id);
    }
    if (rc != 0) {
        return rc;
    }
    json = admin_doc_to_json(d);
    if (json && admin_origin_add(db->pool, json, d) != 0) {
        json_decref(json);
        json = NULL;
    }
    if (!json) {
        admin_err("%s: competition %s holds a value that is not what its column should be",
                  db->what, o->arg_id);
        return EXIT_DB;
    }
    rc = json_dumpf(json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(json);
    if (rc != 0 || fputc('\n', stdout) == EOF) {
        admin_err("cannot write the output: %s", strerror(errno));
        return EXIT_DB;
    }
    return 0;
}

typedef struct {
    db_t *db;
    int rc;
} owner_ctx;

static const char *owner_of(void *ctx, admin_table t, const char *id)
{
    owner_ctx *oc = ctx;
    apr_array_header_t *rows = apr_array_make(oc->db->pool, 1, sizeof(const char **));
    const char *args[1] = { id };

    if (oc->rc == 0) {
        oc->rc = data_select(oc->db, admin_sql_owner(oc->db->pool, t), 1, args, 1, rows);
    }
    return oc->rc == 0 && rows->nelts ? APR_ARRAY_IDX(rows, 0, const char **)[0] : NULL;
}

/* The arguments of the update of ROW of table T: the columns after the id, then it. */
static const char **update_args(apr_pool_t *p, admin_table t, const char **row)
{
    int n = admin_tables[t].ncols;
    const char **a = apr_pcalloc(p, (size_t)n * sizeof(*a));

    memcpy(a, row + 1, (size_t)(n - 1) * sizeof(*a));
    a[n - 1] = row[0];
    return a;
}

static int import_write(db_t *db, admin_import *im)
{
    static const admin_table order[] = { AD_COMPETITION, AD_WOD, AD_ZONE, AD_SPOT, AD_HEAT };
    static const admin_table removal[] = { AD_LANE, AD_HEAT, AD_SPOT, AD_ZONE, AD_WOD };
    const admin_doc *d = im->doc;
    int rc = 0, i;
    size_t k;

    for (k = 0; rc == 0 && k < sizeof(removal) / sizeof(removal[0]); k++) {
        admin_table t = removal[k];

        for (i = 0; rc == 0 && i < im->remove[t]->nelts; i++) {
            rc = data_run(db, admin_sql_delete(db->pool, t), 1,
                          &APR_ARRAY_IDX(im->remove[t], i, const char *));
        }
        /* the document's lanes that exist go and come back: numbers and spots can
         * then move between lanes of a heat */
        for (i = 0; rc == 0 && t == AD_LANE && i < d->rows[t]->nelts; i++) {
            if (im->exists[t][i]) {
                rc = data_run(db, admin_sql_delete(db->pool, t), 1,
                              APR_ARRAY_IDX(d->rows[t], i, const char **));
            }
        }
    }
    /* bibs of the document's spots that exist: cleared first, so that spots can
     * swap bibs */
    for (i = 0; rc == 0 && i < d->rows[AD_SPOT]->nelts; i++) {
        if (im->exists[AD_SPOT][i]) {
            rc = data_run(db, CLEAR_BIB, 1,
                          APR_ARRAY_IDX(d->rows[AD_SPOT], i, const char **));
        }
    }
    for (k = 0; rc == 0 && k < sizeof(order) / sizeof(order[0]); k++) {
        admin_table t = order[k];

        for (i = 0; rc == 0 && i < d->rows[t]->nelts; i++) {
            const char **row = APR_ARRAY_IDX(d->rows[t], i, const char **);

            rc = im->exists[t][i]
               ? data_run(db, admin_sql_update(db->pool, t), admin_tables[t].ncols,
                          update_args(db->pool, t, row))
               : data_run(db, admin_sql_insert(db->pool, t), admin_tables[t].ncols, row);
        }
    }
    for (i = 0; rc == 0 && i < d->rows[AD_LANE]->nelts; i++) {
        rc = data_run(db, admin_sql_insert(db->pool, AD_LANE), admin_tables[AD_LANE].ncols,
                      APR_ARRAY_IDX(d->rows[AD_LANE], i, const char **));
    }
    return rc;
}

/* The rows that the import IM of JSON would overwrite although they changed since
 * the export (admin_origin_conflicts): refused unless --force.  0 or an exit
 * status. */
static int origin_check(db_t *db, const opts_t *o, json_t *json, const admin_import *im,
                        const admin_doc *base)
{
    apr_array_header_t *changed = apr_array_make(db->pool, 8, sizeof(const char *));
    int n = admin_origin_conflicts(db->pool, json, im, base, changed), i;

    if (n < 0) {
        return print_errors("document", changed);
    }
    for (i = 0; i < n; i++) {
        admin_err("%s%s", o->force ? "overwriting (--force): " : "",
                  APR_ARRAY_IDX(changed, i, const char *));
    }
    if (n > 0 && !o->force) {
        admin_err("document refused: %d %s changed in the database since the export, "
                  "nothing was changed; export again and redo the edits, or give --force "
                  "to overwrite %s", n, plural(n, "row", "rows"), plural(n, "it", "them"));
        return EXIT_USAGE;
    }
    return 0;
}

int cmd_import(db_t *db, const opts_t *o)
{
    apr_array_header_t *errors = apr_array_make(db->pool, 8, sizeof(const char *));
    admin_doc *base = NULL;
    admin_import *im;
    owner_ctx oc = { db, 0 };
    json_error_t jerr;
    json_t *json;
    const char *cid;
    char *buf;
    size_t len;
    int rc, t, counts[AD_NTABLES];

    if ((rc = admin_read_input(db->pool, o->arg[0], &buf, &len)) != 0) {
        return rc;
    }
    json = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!json) {
        admin_err("%s: line %d, column %d: %s", o->arg[0], jerr.line, jerr.column, jerr.text);
        admin_err("document refused, nothing was changed");
        return EXIT_USAGE;
    }
    cid = admin_doc_competition_id(json);
    cid = cid ? apr_pstrdup(db->pool, cid) : NULL;
    rc = need_version(db, "import", 3);
    if (rc == 0) {
        rc = data_begin(db);
    }
    if (rc == 0 && cid) {
        rc = read_competition(db, cid, &base);
        rc = rc == EXIT_USER ? 0 : rc;
    }
    if (rc == 0 && !base) {
        base = admin_doc_make(db->pool);
    }
    im = rc == 0 ? admin_doc_check(db->pool, json, base, owner_of, &oc, o->replace, errors)
                 : NULL;
    if (rc == 0 && oc.rc != 0) {
        rc = oc.rc;
    }
    else if (rc == 0 && !im) {
        rc = print_errors("document", errors);
    }
    if (rc == 0) {
        rc = origin_check(db, o, json, im, base);
    }
    if (rc == 0) {
        rc = import_write(db, im);
    }
    rc = db_end(db, rc);
    json_decref(json);
    if (rc != 0) {
        return rc;
    }
    for (t = 0; t < AD_NTABLES; t++) {
        counts[t] = im->doc->rows[t]->nelts;
    }
    printf("imported competition %s: %d %s, %d %s, %d %s, %d %s, %d %s", cid,
           counts[AD_WOD], plural(counts[AD_WOD], "wod", "wods"),
           counts[AD_SPOT], plural(counts[AD_SPOT], "spot", "spots"),
           counts[AD_ZONE], plural(counts[AD_ZONE], "zone", "zones"),
           counts[AD_HEAT], plural(counts[AD_HEAT], "heat", "heats"),
           counts[AD_LANE], plural(counts[AD_LANE], "lane", "lanes"));
    if (o->replace) {
        int removed = 0;

        for (t = 0; t < AD_NTABLES; t++) {
            removed += im->remove[t]->nelts;
        }
        printf("; removed %d other %s", removed, plural(removed, "row", "rows"));
    }
    printf("\n");
    return 0;
}

/* The competition's spots (BASE's rows of table spot) as rk_spots_csv knows them. */
static rk_spot_known *known_spots(apr_pool_t *p, const admin_doc *base)
{
    const apr_array_header_t *rows = base->rows[AD_SPOT];
    rk_spot_known *k = apr_pcalloc(p, ((size_t)rows->nelts + 1) * sizeof(*k));
    int i;

    for (i = 0; i < rows->nelts; i++) {
        const char **s = ADMIN_DOC_ROW(base, AD_SPOT, i);

        k[i].id = s[0];
        k[i].name = s[2];
        k[i].bib = s[AD_SPOT_BIB];
    }
    return k;
}

/* Write the plan of import-spots into competition CID: the bibs that change
 * cleared first (so that spots can swap bibs), then each line.  0 or an exit
 * status. */
static int write_spots(db_t *db, const char *cid, const rk_spots_plan *plan)
{
    int rc = 0, i;

    for (i = 0; rc == 0 && i < plan->lines->nelts; i++) {
        const rk_spot_line *l = &APR_ARRAY_IDX(plan->lines, i, rk_spot_line);

        if (l->bib_changes) {
            rc = data_run(db, CLEAR_BIB, 1, (const char *[]){ l->id });
        }
    }
    for (i = 0; rc == 0 && i < plan->lines->nelts; i++) {
        const rk_spot_line *l = &APR_ARRAY_IDX(plan->lines, i, rk_spot_line);

        if (l->id) {
            rc = data_run(db, "UPDATE spot SET name = %s, division = %s, affiliate = %s,"
                          " bib = %lld WHERE id = %lld", 5,
                          (const char *[]){ l->name, l->division, l->affiliate, l->bib,
                                            l->id });
        }
        else {
            /* a new id: one more than the greatest, under the import's lock */
            rc = data_run(db, "INSERT INTO spot (id, competition_id, name, division,"
                          " affiliate, bib) SELECT COALESCE(MAX(id), 0) + 1, %lld, %s, %s,"
                          " %s, %lld FROM spot", 5,
                          (const char *[]){ cid, l->name, l->division, l->affiliate,
                                            l->bib });
        }
    }
    return rc;
}

int cmd_import_spots(db_t *db, const opts_t *o)
{
    apr_array_header_t *errors = apr_array_make(db->pool, 8, sizeof(const char *));
    const rk_spots_plan *plan = NULL;
    admin_doc *base = NULL;
    char *buf;
    size_t len;
    int rc;

    if ((rc = admin_read_input(db->pool, o->arg[1], &buf, &len)) != 0) {
        return rc;
    }
    rc = need_version(db, "import-spots", 3);
    if (rc == 0) {
        rc = data_begin(db);
    }
    if (rc == 0) {
        rc = read_competition(db, o->arg_id, &base);
        if (rc == EXIT_USER) {
            rc = no_competition(o->arg_id);
        }
    }
    if (rc == 0) {
        plan = rk_spots_csv_plan(db->pool, buf, len, known_spots(db->pool, base),
                                 (size_t)base->rows[AD_SPOT]->nelts, errors);
        rc = plan ? write_spots(db, o->arg_id, plan) : print_errors(o->arg[1], errors);
    }
    rc = db_end(db, rc);
    if (rc == 0) {
        printf("competition %s: %d %s added, %d updated%s\n", o->arg_id, plan->added,
               plural(plan->added, "spot", "spots"), plan->updated,
               plan->separator == ';' ? " (read with ';' as separator)" : "");
    }
    return rc;
}
