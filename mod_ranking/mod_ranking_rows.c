/* mod_ranking_rows.c: the answer of a read route made of its statement's rows (lists
 * and single resources), filtered and paged, written straight into a value of the
 * answer cache. */
#include "mod_ranking_rows.h"
#include "mod_ranking_view.h"
#include "rk_cache.h"
#include "rk_json.h"

/* The index of the field NAME of RES, or -1. */
static int field_index(const rk_resource *res, const char *name)
{
    int i;

    for (i = 0; i < res->nfields; i++) {
        if (strcmp(res->fields[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

/* Keep the rows of VALS (NF values each) that LQ's filters select, then the page LQ
 * asks for; the number of rows selected (before paging) into *TOTAL. */
static void filter_rows(apr_array_header_t *vals, int nf, const rk_resource *res,
                        const rk_list_query *lq, size_t *total)
{
    const char *want[3] = { lq->division, lq->status, lq->wod };
    int at[3] = { field_index(res, "division"), field_index(res, "status"),
                  field_index(res, "wod_id") };
    const char **row = (const char **)vals->elts, **keep = row;
    size_t n = (size_t)vals->nelts, kept = 0, i, first, count;
    int f;

    for (i = 0; i < n; i++, row += nf) {
        int ok = 1;

        for (f = 0; f < 3 && ok; f++) {
            ok = !want[f] || (at[f] >= 0 && row[at[f]] && strcmp(row[at[f]], want[f]) == 0);
        }
        if (ok) {
            memmove(keep + kept * (size_t)nf, row, (size_t)nf * sizeof(*row));
            kept++;
        }
    }
    *total = kept;
    first = lq->offset < 0 || (size_t)lq->offset > kept ? kept : (size_t)lq->offset;
    count = kept - first;
    if (lq->limit > 0 && (size_t)lq->limit < count) {
        count = (size_t)lq->limit;
    }
    memmove(keep, keep + first * (size_t)nf, count * (size_t)nf * sizeof(*keep));
    vals->nelts = (int)count;
}

/* The rows are read into a pool with an allocator of its own, destroyed before
 * returning: a large list leaves nothing behind in the request's pool, whose
 * allocator would keep the freed memory for later requests of the connection (up to
 * MaxMemFree each), nor in malloc arenas, where a JSON tree of it used to be built.
 * The answer is written straight from the rows (rk_json_answer): sized, then written. */
void *rkm_build_answer(request_rec *r, rkm_db *db, const rk_route *route, const char *key,
                      const rk_list_query *lq, int published, int *status, size_t *len)
{
    const rk_route_def *def = rk_route_def_of(route->id);
    const rk_resource *res = def->res;
    /* a list's statement selects the parent's id first: its row is there (with NULL
     * child columns) when the parent exists without children */
    int skip = def->list && route->id != RK_ROUTE_COMPETITIONS;
    int nf = res->nfields, found = 0, i;
    const char *args[RK_MAX_IDS];
    apr_pool_t *p;
    apr_array_header_t *vals;
    apr_dbd_results_t *rs = NULL;
    apr_dbd_row_t *row = NULL;
    char *out = NULL;

    *status = HTTP_INTERNAL_SERVER_ERROR;
    if (!(p = rkm_db_rows_pool(r))) {
        return NULL;
    }
    vals = apr_array_make(p, 64, nf * (int)sizeof(const char *));   /* one row each */
    rk_route_args(route, args);
    if (rkm_db_select(r, p, db, published ? rkm_view_query(def->query) : def->query, args,
                      &rs) != 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
        apr_pool_destroy(p);
        return NULL;
    }
    /* keep the values: a driver may reuse a row's memory for the next */
    while (apr_dbd_get_row(db->dbd->driver, p, rs, &row, -1) == 0) {
        const char **v;

        found = 1;
        if ((!def->list && vals->nelts) || (skip && !rkm_db_col(db, row, skip))) {
            continue;   /* drain; or the parent without children */
        }
        v = apr_array_push(vals);
        for (i = 0; i < nf; i++) {
            const char *c = rkm_db_col(db, row, skip + i);
            v[i] = c ? apr_pstrdup(p, c) : NULL;
        }
    }
    /* zero rows: what the path names does not exist; but the top-level list, which
     * has no parent, is only empty */
    if (!found && route->id != RK_ROUTE_COMPETITIONS) {
        *status = HTTP_NOT_FOUND;
    }
    else {
        const char *const *rows;
        size_t total = (size_t)vals->nelts;

        if (def->list && lq) {
            filter_rows(vals, nf, res, lq, &total);
        }
        rows = (const char *const *)vals->elts;   /* one after the other */
        *len = rk_json_answer(NULL, res, def->list, rows, (size_t)vals->nelts);
        if ((out = rk_cache_value_new(key, *len)) != NULL) {
            rk_json_answer(out, res, def->list, rows, (size_t)vals->nelts);
            /* the whole (filtered) list's length, for X-Total-Count */
            rk_cache_value_set_meta(out, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
            *status = HTTP_OK;
        }
    }
    apr_pool_destroy(p);
    return out;
}
