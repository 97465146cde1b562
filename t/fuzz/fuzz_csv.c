/* fuzz_csv.c: libFuzzer target for the CSV reader (lib/rk_csv.c) and the team lists
 * read from it (lib/rk_spots_csv.c: ranking-admin import-spots and the API's POST of
 * spots as text/csv).
 *
 * The input is parsed as it is (copied into a heap buffer of exactly its size, so
 * ASan catches a read past it).  Checks:
 *   - the result is 0 or -1 (the callback never stops it); on -1 the message starts
 *     with "line N: " where N is at least 1 and at most the input's line count;
 *   - each record's line numbers never go down and stay within the input's lines;
 *     every field's length is its strlen (no NUL inside) and the fields are UTF-8;
 *   - fields written back with rk_csv_field, one record a line (CRLF), parse again
 *     into the same fields, and the input without a byte order mark gives the same
 *     records as with one (a second mark would be text);
 *   - the team list of the input, against two known spots: a plan (every line with a
 *     name, added + updated = its lines, a bib of digits without leading zero) or
 *     errors, each "line N: " with N within the input's lines, sorted by line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_pools.h>
#include <apr_tables.h>

#include "rk_csv.h"
#include "rk_spots_csv.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_csv: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

typedef struct {
    size_t lines, last_line, records;
    FILE *out;          /* the records written back, or NULL */
    char *seen;         /* every field, NUL-separated, records ended by "\1" */
    size_t seen_len;
} state;

static int on_record(void *ctx, size_t line, size_t nfields, char *const *fields,
                     const size_t *lens)
{
    state *s = ctx;
    size_t i;

    CHECK(nfields >= 1);
    CHECK(line >= 1 && line <= s->lines && line >= s->last_line);
    s->last_line = line;
    s->records++;
    for (i = 0; i < nfields; i++) {
        CHECK(strlen(fields[i]) == lens[i]);
        CHECK(rk_csv_utf8_valid(fields[i], lens[i]));
        if (s->out) {
            if (i) {
                fputc(',', s->out);
            }
            rk_csv_field(s->out, fields[i]);
        }
        s->seen = realloc(s->seen, s->seen_len + lens[i] + 2);
        CHECK(s->seen != NULL);
        memcpy(s->seen + s->seen_len, fields[i], lens[i] + 1);
        s->seen_len += lens[i] + 1;
    }
    if (s->out) {
        fputs("\r\n", s->out);
    }
    s->seen[s->seen_len++] = '\1';
    return 0;
}

static size_t count_lines(const char *b, size_t n)
{
    size_t i, lines = 1;

    for (i = 0; i < n; i++) {
        lines += b[i] == '\n';
    }
    return lines;
}

static int run(const char *buf, size_t n, state *s, char *err, size_t errsize)
{
    memset(s, 0, sizeof(*s));
    s->lines = count_lines(buf, n);
    return rk_csv_parse(buf, n, ',', on_record, s, err, errsize);
}

/* The team list of BUF (N bytes, LINES lines): a plan or sorted errors. */
static void team_list(const char *buf, size_t n, size_t lines)
{
    static apr_pool_t *root;
    static const rk_spot_known known[] = { { "1", "A", "1" }, { "2", "B", NULL } };
    apr_pool_t *p;
    apr_array_header_t *errors;
    rk_spots_plan *plan;
    unsigned long last = 0;
    int i;

    if (!root) {
        CHECK(apr_initialize() == APR_SUCCESS);
        CHECK(apr_pool_create(&root, NULL) == APR_SUCCESS);
    }
    CHECK(apr_pool_create(&p, root) == APR_SUCCESS);
    errors = apr_array_make(p, 4, sizeof(const char *));
    plan = rk_spots_csv_plan(p, buf, n, known, 2, errors);
    if (plan) {
        CHECK(errors->nelts == 0);
        CHECK(plan->separator == ',' || plan->separator == ';');
        CHECK(plan->added + plan->updated == plan->lines->nelts);
        for (i = 0; i < plan->lines->nelts; i++) {
            const rk_spot_line *l = &APR_ARRAY_IDX(plan->lines, i, rk_spot_line);

            CHECK(l->name && *l->name);
            CHECK(l->line >= 2 && l->line <= lines);
            CHECK(!l->bib || (l->bib[0] >= '1' && l->bib[0] <= '9'
                              && strspn(l->bib, "0123456789") == strlen(l->bib)));
        }
    }
    else {
        CHECK(errors->nelts > 0);
        for (i = 0; i < errors->nelts; i++) {
            unsigned long line = 0;

            CHECK(sscanf(APR_ARRAY_IDX(errors, i, const char *), "line %lu: ", &line) == 1);
            CHECK(line >= 1 && line <= lines && line >= last);
            last = line;
        }
    }
    apr_pool_destroy(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1), *bom, *back = NULL;
    char err[256];
    size_t back_len = 0;
    state a, b, c;
    int rc;

    CHECK(buf != NULL);
    memcpy(buf, data, size);
    team_list(buf, size, count_lines(buf, size));
    rc = run(buf, size, &a, err, sizeof(err));
    CHECK(rc == 0 || rc == -1);
    if (rc == -1) {
        unsigned long line = 0;

        CHECK(sscanf(err, "line %lu: ", &line) == 1);
        CHECK(line >= 1 && line <= a.lines);
    }
    else {
        /* written back, read again: the same fields */
        memset(&b, 0, sizeof(b));
        b.out = open_memstream(&back, &back_len);
        CHECK(b.out != NULL);
        b.lines = a.lines;
        CHECK(rk_csv_parse(buf, size, ',', on_record, &b, err, sizeof(err)) == 0);
        fclose(b.out);
        free(b.seen);
        CHECK(run(back, back_len, &c, err, sizeof(err)) == 0);
        CHECK(c.seen_len == a.seen_len);
        CHECK(a.seen_len == 0 || memcmp(c.seen, a.seen, a.seen_len) == 0);
        free(c.seen);
        free(back);
        /* with a byte order mark in front (of an input without one): the same */
        if (size >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
            free(a.seen);
            free(buf);
            return 0;
        }
        bom = malloc(size + 3);
        CHECK(bom != NULL);
        memcpy(bom, "\xEF\xBB\xBF", 3);
        memcpy(bom + 3, buf, size);
        CHECK(run(bom, size + 3, &c, err, sizeof(err)) == 0);
        CHECK(c.seen_len == a.seen_len);
        CHECK(a.seen_len == 0 || memcmp(c.seen, a.seen, a.seen_len) == 0);
        free(c.seen);
        free(bom);
    }
    free(a.seen);
    free(buf);
    return 0;
}
