/* admin_spots.c: the team list of `ranking-admin import-spots`, a CSV file read
 * into spots of the competition; see admin_spots_csv in admin_doc.h. */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "admin_check.h"
#include "admin_csv.h"
#include "admin_doc.h"
#include "admin_values.h"

enum { SC_NAME, SC_DIVISION, SC_AFFILIATE, SC_BIB, SC_N };
static const char *const spot_csv_cols[SC_N] = { "name", "division", "affiliate", "bib" };

typedef struct {
    apr_pool_t *p;
    admin_checker *k;
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

/* The header record: which CSV column holds which of spot_csv_cols.  0, or 1 to
 * stop after errors. */
static int read_header(spots_reader *r, const char *where_, size_t nfields,
                       char *const *fields, const size_t *lens)
{
    admin_checker *k = r->k;
    size_t i;
    int c;

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
            admin_fail(k, where_, "unknown column '%s' in the header (name, division, "
                       "affiliate, bib)", name);
        }
        else if (r->col[c] >= 0) {
            admin_fail(k, where_, "column '%s' twice in the header", name);
        }
        else {
            r->col[c] = (int)i;
        }
    }
    if (r->col[SC_NAME] < 0) {
        admin_fail(k, where_, "the header has no column 'name' (the columns: name, "
                   "division, affiliate, bib)");
    }
    return k->nerrors ? 1 : 0;
}

/* A record of the CSV (admin_csv_record_fn): the header, then one team each. */
static int spots_record(void *ctx, size_t line, size_t nfields, char *const *fields,
                        const size_t *lens)
{
    spots_reader *r = ctx;
    admin_checker *k = r->k;
    const char *where_ = apr_psprintf(r->p, "line %" APR_SIZE_T_FMT, line);
    admin_spot_in *in;
    const char **row, *v[SC_N];
    size_t i;
    int c;

    if (!r->header_done) {
        return read_header(r, where_, nfields, fields, lens);
    }
    for (i = 0; i < nfields && lens[i] == 0; i++)
        ;
    if (i == nfields) {
        return 0;   /* a blank record */
    }
    if (nfields != r->ncols) {
        admin_fail(k, where_, "%zu fields, the header has %zu", nfields, r->ncols);
        return 0;
    }
    in = apr_array_push(r->rows);
    row = apr_pcalloc(r->p, 6 * sizeof(*row));
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
        admin_fail(k, where_, "the team has no name");
    }
    if (v[SC_BIB]) {
        /* NULL when it is not a bib: the other rows are still checked */
        row[AD_SPOT_BIB] = admin_id_digits(v[SC_BIB]);
        if (!row[AD_SPOT_BIB]) {
            admin_fail(k, where_, "bib '%s' is not a whole number from 1 to "
                       "9223372036854775807", v[SC_BIB]);
        }
    }
    return 0;
}

apr_array_header_t *admin_spots_csv(apr_pool_t *p, const char *buf, size_t len,
                                    const char *cid, const admin_doc *base,
                                    apr_array_header_t *errors)
{
    admin_checker k = { p, errors, 0 };
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
        admin_fail(&k, NULL, "%s", why);
    }
    else if (rc == -2) {
        admin_fail(&k, NULL, "out of memory");
    }
    if (!r.header_done && !k.nerrors) {
        admin_fail(&k, "line 1", "no header row (name, division, affiliate, bib)");
    }
    if (rc != 0 || !r.header_done) {
        return NULL;    /* unreadable CSV, or a bad header: no row to check */
    }
    for (i = 0; i < base->rows[AD_SPOT]->nelts; i++) {
        const char **s = ADMIN_DOC_ROW(base, AD_SPOT, i);
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
                admin_fail(&k, where_, "bib %s is also on line %zu", in->row[AD_SPOT_BIB],
                           other->line);
                continue;
            }
            apr_hash_set(file_bibs, in->row[AD_SPOT_BIB], APR_HASH_KEY_STRING, in);
            match = apr_hash_get(by_bib, in->row[AD_SPOT_BIB], APR_HASH_KEY_STRING);
        }
        if (!match) {
            apr_array_header_t *same = apr_hash_get(by_name, in->row[2], APR_HASH_KEY_STRING);

            if (same && same->nelts > 1) {
                admin_fail(&k, where_, "%d spots of competition %s are named '%s': give "
                           "the bib", same->nelts, cid, in->row[2]);
                continue;
            }
            match = same ? APR_ARRAY_IDX(same, 0, const char **) : NULL;
        }
        in->row[1] = cid;
        if (match) {
            other = apr_hash_get(taken, match[0], APR_HASH_KEY_STRING);
            if (other) {
                admin_fail(&k, where_, "the team of line %zu is already spot %s",
                           other->line, match[0]);
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
