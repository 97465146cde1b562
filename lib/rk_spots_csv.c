/* rk_spots_csv.c: a competition's team list from CSV, and the plan of its writes;
 * see rk_spots_csv.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "rk_body.h"
#include "rk_csv.h"
#include "rk_resource.h"
#include "rk_spots_csv.h"

enum { SC_NAME, SC_DIVISION, SC_AFFILIATE, SC_BIB, SC_N };
static const char *const spot_cols[SC_N] = { "name", "division", "affiliate", "bib" };
#define COLUMNS "name, division, affiliate, bib"

typedef struct {
    size_t line;
    int seq;                    /* the order they were found in, for a stable sort */
    const char *msg;
} line_error;

typedef struct {
    apr_pool_t *p;
    apr_array_header_t *errs;   /* line_error */
    int header_done;
    int col[SC_N];              /* the CSV column of each, or -1 */
    size_t ncols;
    apr_array_header_t *lines;  /* rk_spot_line */
} reader;

static void fail(reader *r, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(reader *r, size_t line, const char *fmt, ...)
{
    line_error *e = apr_array_push(r->errs);
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    e->line = line;
    e->seq = r->errs->nelts;
    e->msg = apr_psprintf(r->p, "line %lu: %s", (unsigned long)line, buf);
}

/* S quoted for a message when it is 1 to 40 printable ASCII characters without a
 * quote, else NULL: a message never carries arbitrary text of the file. */
static const char *echo(apr_pool_t *p, const char *s)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > 40) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '\'' || s[i] == '"' || s[i] == '\\') {
            return NULL;
        }
    }
    return apr_pstrcat(p, "'", s, "'", NULL);
}

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

/* S as a bib: 1 to RK_RES_INT_MAX in decimal, leading zeros allowed; the digits
 * without them, in P, or NULL. */
static const char *bib_digits(apr_pool_t *p, const char *s)
{
    size_t n = strlen(s), i;

    if (n == 0 || strspn(s, "0123456789") != n) {
        return NULL;
    }
    for (i = 0; i + 1 < n && s[i] == '0'; i++)
        ;
    s += i;
    if (strlen(s) > 10 || strtoll(s, NULL, 10) < 1 || strtoll(s, NULL, 10) > RK_RES_INT_MAX) {
        return NULL;
    }
    return apr_pstrdup(p, s);
}

/* The header record: which CSV column holds which of spot_cols.  0, or 1 to stop. */
static int read_header(reader *r, size_t line, size_t nfields, char *const *fields,
                       const size_t *lens)
{
    int nerr = r->errs->nelts, c;
    size_t i;

    r->header_done = 1;
    r->ncols = nfields;
    for (c = 0; c < SC_N; c++) {
        r->col[c] = -1;
    }
    for (i = 0; i < nfields; i++) {
        char *name = trimmed(r->p, fields[i], lens[i]), *q;
        const char *shown;

        for (q = name; *q; q++) {
            *q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
        }
        for (c = 0; c < SC_N && strcmp(spot_cols[c], name) != 0; c++)
            ;
        shown = echo(r->p, name);
        if (c == SC_N) {
            fail(r, line, "unknown column %s%s(column %lu of the header; the columns: "
                 COLUMNS ")", shown ? shown : "", shown ? " " : "", (unsigned long)i + 1);
        }
        else if (r->col[c] >= 0) {
            fail(r, line, "column '%s' twice in the header", spot_cols[c]);
        }
        else {
            r->col[c] = (int)i;
        }
    }
    if (r->col[SC_NAME] < 0) {
        fail(r, line, "the header has no column 'name' (the columns: " COLUMNS ")");
    }
    return r->errs->nelts > nerr;
}

/* A value of at most RK_RES_NAME_MAX_CHARS characters, else an error. */
static void check_length(reader *r, size_t line, const char *what, const char *v)
{
    if (v && rk_utf8_chars(v) > RK_RES_NAME_MAX_CHARS) {
        fail(r, line, "the %s is longer than %d characters", what, RK_RES_NAME_MAX_CHARS);
    }
}

/* A record (rk_csv_record_fn): the header, then one team each. */
static int on_record(void *ctx, size_t line, size_t nfields, char *const *fields,
                     const size_t *lens)
{
    reader *r = ctx;
    rk_spot_line *l;
    const char *v[SC_N];
    size_t i;
    int c;

    if (!r->header_done) {
        return read_header(r, line, nfields, fields, lens);
    }
    for (i = 0; i < nfields && trimmed(r->p, fields[i], lens[i])[0] == '\0'; i++)
        ;
    if (i == nfields) {
        return 0;   /* an empty row */
    }
    if (nfields != r->ncols) {
        fail(r, line, "%lu %s, the header has %lu", (unsigned long)nfields,
             nfields == 1 ? "field" : "fields", (unsigned long)r->ncols);
        return 0;
    }
    for (c = 0; c < SC_N; c++) {
        v[c] = r->col[c] < 0 ? NULL : trimmed(r->p, fields[r->col[c]], lens[r->col[c]]);
        if (v[c] && !*v[c]) {
            v[c] = NULL;    /* an empty cell is null */
        }
    }
    l = apr_array_push(r->lines);
    memset(l, 0, sizeof(*l));
    l->line = line;
    l->name = v[SC_NAME] ? v[SC_NAME] : "";
    l->division = v[SC_DIVISION];
    l->affiliate = v[SC_AFFILIATE];
    if (!v[SC_NAME]) {
        fail(r, line, "the team has no name");
    }
    check_length(r, line, "name", v[SC_NAME]);
    check_length(r, line, "division", v[SC_DIVISION]);
    check_length(r, line, "affiliate", v[SC_AFFILIATE]);
    if (v[SC_BIB] && !(l->bib = bib_digits(r->p, v[SC_BIB]))) {
        const char *shown = echo(r->p, v[SC_BIB]);

        fail(r, line, "bib %s%sis not a whole number from 1 to %lld", shown ? shown : "",
             shown ? " " : "", (long long)RK_RES_INT_MAX);
    }
    return 0;
}

/* Each line's spot: by bib, else by name, else new. */
static void plan_lines(reader *r, const rk_spot_known *spots, size_t nspots)
{
    apr_pool_t *p = r->p;
    apr_hash_t *by_bib = apr_hash_make(p), *by_name = apr_hash_make(p);
    apr_hash_t *name_count = apr_hash_make(p);
    apr_hash_t *file_bibs = apr_hash_make(p), *taken = apr_hash_make(p);
    size_t k;
    int i;

    for (k = 0; k < nspots; k++) {
        const rk_spot_known *s = &spots[k];
        int *count;

        if (s->bib) {
            apr_hash_set(by_bib, s->bib, APR_HASH_KEY_STRING, s);
        }
        count = apr_hash_get(name_count, s->name, APR_HASH_KEY_STRING);
        if (count) {
            (*count)++;
            continue;
        }
        apr_hash_set(by_name, s->name, APR_HASH_KEY_STRING, s);
        count = apr_pcalloc(p, sizeof(*count));
        *count = 1;
        apr_hash_set(name_count, s->name, APR_HASH_KEY_STRING, count);
    }
    for (i = 0; i < r->lines->nelts; i++) {
        rk_spot_line *l = &APR_ARRAY_IDX(r->lines, i, rk_spot_line);
        const rk_spot_known *match = NULL;
        rk_spot_line *other;

        if (l->bib) {
            other = apr_hash_get(file_bibs, l->bib, APR_HASH_KEY_STRING);
            if (other) {
                fail(r, l->line, "bib %s is used twice", l->bib);   /* API.md's words */
                continue;
            }
            apr_hash_set(file_bibs, l->bib, APR_HASH_KEY_STRING, l);
            match = apr_hash_get(by_bib, l->bib, APR_HASH_KEY_STRING);
        }
        if (!match && *l->name) {
            int *count = apr_hash_get(name_count, l->name, APR_HASH_KEY_STRING);

            if (count && *count > 1) {
                fail(r, l->line, "%d spots of the competition have this team's name: give "
                     "its bib", *count);
                continue;
            }
            match = count ? apr_hash_get(by_name, l->name, APR_HASH_KEY_STRING) : NULL;
        }
        if (!match) {
            continue;   /* a new spot */
        }
        other = apr_hash_get(taken, match->id, APR_HASH_KEY_STRING);
        if (other) {
            fail(r, l->line, "the team of line %lu is already spot %s", (unsigned long)other->line,
                 match->id);
            continue;
        }
        apr_hash_set(taken, match->id, APR_HASH_KEY_STRING, l);
        l->id = match->id;
        l->bib_changes = !match->bib != !l->bib || (l->bib && strcmp(match->bib, l->bib) != 0);
    }
}

static int by_line(const void *a, const void *b)
{
    const line_error *x = a, *y = b;

    if (x->line != y->line) {
        return x->line < y->line ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

rk_spots_plan *rk_spots_csv_plan(apr_pool_t *p, const char *buf, size_t len,
                                 const rk_spot_known *spots, size_t nspots,
                                 apr_array_header_t *errors)
{
    rk_spots_plan *plan = apr_pcalloc(p, sizeof(*plan));
    reader r;
    char why[256];
    int i, rc;

    memset(&r, 0, sizeof(r));
    r.p = p;
    r.errs = apr_array_make(p, 8, sizeof(line_error));
    r.lines = apr_array_make(p, 64, sizeof(rk_spot_line));
    plan->separator = rk_csv_separator(buf, len);
    rc = rk_csv_parse(buf, len, plan->separator, on_record, &r, why, sizeof(why));
    if (rc == -1) {
        line_error *e = apr_array_push(r.errs);
        unsigned long line = 1;

        sscanf(why, "line %lu", &line);
        e->line = line;
        e->seq = r.errs->nelts;
        e->msg = apr_pstrdup(p, why);
    }
    else if (rc == -2) {
        fail(&r, 1, "out of memory");
    }
    else if (!r.header_done) {
        fail(&r, 1, "no header line (the columns: " COLUMNS ")");
    }
    else if (rc == 0) {
        plan_lines(&r, spots, nspots);
    }
    if (r.errs->nelts) {
        qsort(r.errs->elts, (size_t)r.errs->nelts, sizeof(line_error), by_line);
        for (i = 0; i < r.errs->nelts; i++) {
            APR_ARRAY_PUSH(errors, const char *) = APR_ARRAY_IDX(r.errs, i, line_error).msg;
        }
        return NULL;
    }
    plan->lines = r.lines;
    for (i = 0; i < r.lines->nelts; i++) {
        if (APR_ARRAY_IDX(r.lines, i, rk_spot_line).id) {
            plan->updated++;
        }
        else {
            plan->added++;
        }
    }
    return plan;
}
