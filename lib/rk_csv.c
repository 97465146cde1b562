/* rk_csv.c: RFC 4180 CSV reading and writing; see rk_csv.h. */
#include <stdlib.h>
#include <string.h>

#include "rk_csv.h"

char rk_csv_separator(const char *buf, size_t len)
{
    const char *nl;
    size_t n;

    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        buf += 3;
        len -= 3;
    }
    nl = memchr(buf, '\n', len);
    n = nl ? (size_t)(nl - buf) : len;
    return memchr(buf, ';', n) && !memchr(buf, ',', n) ? ';' : ',';
}

int rk_csv_utf8_valid(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i];
        size_t k, need;
        unsigned long cp;

        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
            cp = c & 0x1f;
        }
        else if (c >= 0xe0 && c <= 0xef) {
            need = 2;
            cp = c & 0x0f;
        }
        else if (c >= 0xf0 && c <= 0xf4) {
            need = 3;
            cp = c & 0x07;
        }
        else {
            return 0;
        }
        if (n - i <= need) {
            return 0;
        }
        for (k = 1; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff))
            || (cp >= 0xd800 && cp <= 0xdfff)) {
            return 0;
        }
        i += need + 1;
    }
    return 1;
}

/* The record being read: its fields' bytes one after the other, NUL-separated. */
typedef struct {
    char *buf;
    size_t len, cap;
    size_t *starts;             /* offset of each field in buf */
    size_t nfields, fcap;
} record;

static int put(record *r, char c)
{
    if (r->len == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        char *b = realloc(r->buf, cap);

        if (!b) {
            return -1;
        }
        r->buf = b;
        r->cap = cap;
    }
    r->buf[r->len++] = c;
    return 0;
}

static int new_field(record *r)
{
    if (r->nfields == r->fcap) {
        size_t cap = r->fcap ? r->fcap * 2 : 16;
        size_t *s = realloc(r->starts, cap * sizeof(*s));

        if (!s) {
            return -1;
        }
        r->starts = s;
        r->fcap = cap;
    }
    r->starts[r->nfields++] = r->len;
    return 0;
}

/* Hand the record over to FN: the field pointers and lengths. */
static int emit(record *r, size_t line, rk_csv_record_fn fn, void *ctx)
{
    char **fields = malloc(r->nfields * sizeof(*fields));
    size_t *lens = malloc(r->nfields * sizeof(*lens));
    size_t i;
    int rc;

    if (!fields || !lens) {
        free(fields);
        free(lens);
        return -2;
    }
    for (i = 0; i < r->nfields; i++) {
        size_t end = i + 1 < r->nfields ? r->starts[i + 1] - 1 : r->len - 1;

        fields[i] = r->buf + r->starts[i];
        lens[i] = end - r->starts[i];
    }
    rc = fn(ctx, line, r->nfields, fields, lens);
    free(fields);
    free(lens);
    return rc;
}

#define FAIL(...) do { snprintf(err, errsize, __VA_ARGS__); rc = -1; goto done; } while (0)
#define PUT(c) do { if (put(&r, (c)) != 0) { rc = -2; goto done; } } while (0)
#define NEW_FIELD() do { if (new_field(&r) != 0) { rc = -2; goto done; } } while (0)

int rk_csv_parse(const char *buf, size_t len, char sep, rk_csv_record_fn fn, void *ctx,
                 char *err, size_t errsize)
{
    record r;
    size_t i = 0, line = 1, rec_line;
    int rc = 0;

    memset(&r, 0, sizeof(r));
    if (errsize) {
        err[0] = '\0';
    }
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        i = 3;
    }
    /* the bytes, line by line: each line must be UTF-8 on its own (a line break is
     * never inside a character), and no NUL */
    {
        size_t s = i, j;

        for (j = i; j <= len; j++) {
            if (j == len || buf[j] == '\n') {
                if (!rk_csv_utf8_valid(buf + s, j - s)) {
                    FAIL("line %zu: not UTF-8 text (save the file as CSV in UTF-8)", line);
                }
                if (memchr(buf + s, '\0', j - s)) {
                    FAIL("line %zu: a NUL byte", line);
                }
                s = j + 1;
                line++;
            }
        }
        line = 1;
    }
    while (i < len) {
        r.len = 0;
        r.nfields = 0;
        rec_line = line;
        NEW_FIELD();
        for (;;) {
            /* at the start of a field */
            if (i < len && buf[i] == '"') {
                size_t open_line = line;

                i++;
                for (;;) {
                    if (i >= len) {
                        FAIL("line %zu: a quoted field is never closed", open_line);
                    }
                    if (buf[i] == '"') {
                        if (i + 1 < len && buf[i + 1] == '"') {
                            PUT('"');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    if (buf[i] == '\n') {
                        line++;
                    }
                    PUT(buf[i]);
                    i++;
                }
                if (i < len && buf[i] != sep && buf[i] != '\n'
                    && !(buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n')) {
                    FAIL("line %zu: text after the closing quote of a field", line);
                }
            }
            else {
                while (i < len && buf[i] != sep && buf[i] != '\n' && buf[i] != '\r') {
                    if (buf[i] == '"') {
                        FAIL("line %zu: a quote inside a field that does not start "
                             "with one (quote the field and double the quote)", line);
                    }
                    PUT(buf[i]);
                    i++;
                }
                if (i < len && buf[i] == '\r' && !(i + 1 < len && buf[i + 1] == '\n')) {
                    FAIL("line %zu: a carriage return that does not end the line", line);
                }
            }
            PUT('\0');
            if (i < len && buf[i] == sep) {
                i++;
                NEW_FIELD();
                continue;
            }
            /* the end of the record: CRLF, LF or the end of input */
            if (i < len && buf[i] == '\r') {
                i++;
            }
            if (i < len && buf[i] == '\n') {
                i++;
                line++;
            }
            break;
        }
        rc = emit(&r, rec_line, fn, ctx);
        if (rc != 0) {
            goto done;
        }
    }
done:
    free(r.buf);
    free(r.starts);
    return rc;
}

void rk_csv_field(FILE *f, const char *s)
{
    size_t n;

    if (!s) {
        return;
    }
    n = strlen(s);
    /* quoted too: a field that starts with U+FEFF, which at the start of a file
     * would read as a byte order mark */
    if (strpbrk(s, ",\"\r\n") == NULL && !(n > 0 && (s[0] == ' ' || s[n - 1] == ' '))
        && strncmp(s, "\xEF\xBB\xBF", 3) != 0) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') {
            fputc('"', f);
        }
        fputc(*s, f);
    }
    fputc('"', f);
}
