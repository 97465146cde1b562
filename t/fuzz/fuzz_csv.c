/* fuzz_csv.c: libFuzzer target for ranking-admin's CSV reader (tools/admin_csv.c).
 *
 * The input is parsed as it is (copied into a heap buffer of exactly its size, so
 * ASan catches a read past it).  Checks:
 *   - the result is 0 or -1 (the callback never stops it); on -1 the message starts
 *     with "line N: " where N is at least 1 and at most the input's line count;
 *   - each record's line numbers never go down and stay within the input's lines;
 *     every field's length is its strlen (no NUL inside) and the fields are UTF-8;
 *   - fields written back with admin_csv_field, one record a line (CRLF), parse again
 *     into the same fields, and the input without a byte order mark gives the same
 *     records as with one (a second mark would be text). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_csv.h"

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
        CHECK(admin_utf8_valid(fields[i], lens[i]));
        if (s->out) {
            if (i) {
                fputc(',', s->out);
            }
            admin_csv_field(s->out, fields[i]);
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
    return admin_csv_parse(buf, n, on_record, s, err, errsize);
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
        CHECK(admin_csv_parse(buf, size, on_record, &b, err, sizeof(err)) == 0);
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
