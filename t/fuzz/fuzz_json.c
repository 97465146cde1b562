/* fuzz_json.c: differential libFuzzer target for the JSON writer of every answer,
 * rk_jw_str and rk_jw_text (lib/rk_json.c), against jansson.
 *
 * Input: arbitrary bytes, split at each NUL into up to 16 texts (a C string holds no
 * NUL), each copied into a heap buffer of exactly its length + NUL (ASan catches a
 * read past it).  Invalid UTF-8 is the point: the database may hold any bytes.
 *
 * Equivalence (what rk_json.h documents): a text that is valid UTF-8 (RFC 3629: no
 * overlong form, no surrogate, at most U+10FFFF) is written as exactly the bytes of
 * jansson's compact dump of that string (json_dumps with JSON_COMPACT |
 * JSON_ENCODE_ANY: UTF-8 as is; quote, backslash and control characters escaped,
 * \uXXXX upper case); a text that is not is refused by jansson (json_stringn gives
 * NULL) and written by rk_jw_str as null, by rk_jw_text as "".  Checks, per text:
 *   - jansson refuses the text iff the target's own strict UTF-8 check says it is not
 *     UTF-8 (the two readers agree on what UTF-8 is);
 *   - rk_jw_str's and rk_jw_text's bytes are the ones above, the counting pass (OUT
 *     NULL) gives the length the writing pass writes, and nothing is written past it
 *     (the output buffer has exactly that size);
 *   - what they wrote reads back with jansson (JSON_DECODE_ANY) as the same string,
 *     byte for byte (or null / "");
 * and for all texts at once: an array of them written with rk_jw_put, rk_jw_str and
 * rk_jw_text in turn is jansson's dump of the same array. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rk_json.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_json: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

#define MAX_TEXTS 16

typedef void (*writer_fn)(rk_jw *, const char *);

/* Strict UTF-8 (RFC 3629), written here independently of both writers. */
static int utf8_ok(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i], need, cp, min;

        if (c < 0x80) {
            i++;
            continue;
        }
        if ((c & 0xe0) == 0xc0) { need = 1; cp = c & 0x1f; min = 0x80; }
        else if ((c & 0xf0) == 0xe0) { need = 2; cp = c & 0x0f; min = 0x800; }
        else if ((c & 0xf8) == 0xf0) { need = 3; cp = c & 0x07; min = 0x10000; }
        else return 0;
        if (n - i - 1 < need) {
            return 0;
        }
        for (unsigned k = 1; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return 0;
        }
        i += need + 1;
    }
    return 1;
}

/* What WRITE gives for V, in a buffer of exactly its size (malloc'ed, NUL added after
 * a copy); *LEN its length.  Both passes are checked to agree. */
static char *written(writer_fn write, const char *v, size_t *len)
{
    rk_jw count = { NULL, 0 }, w;
    char *exact, *out;

    write(&count, v);
    exact = malloc(count.len ? count.len : 1);
    CHECK(exact != NULL);
    w = (rk_jw){ exact, 0 };
    write(&w, v);
    CHECK(w.len == count.len);
    out = malloc(w.len + 1);
    CHECK(out != NULL);
    memcpy(out, exact, w.len);
    out[w.len] = '\0';
    free(exact);
    *len = w.len;
    return out;
}

/* jansson's compact dump of J (a string, or null), malloc'ed. */
static char *dumped(json_t *j)
{
    char *d = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);

    CHECK(d != NULL);
    return d;
}

static void check_text(const char *v, size_t n, json_t *j)
{
    size_t len;
    char *out, *want;
    json_t *back;

    /* rk_jw_str: the string, or null */
    out = written(rk_jw_str, v, &len);
    if (j) {
        want = dumped(j);
        CHECK(len == strlen(want) && memcmp(out, want, len) == 0);
        free(want);
        back = json_loads(out, JSON_DECODE_ANY, NULL);
        CHECK(back != NULL && json_is_string(back));
        CHECK(json_string_length(back) == n && memcmp(json_string_value(back), v, n) == 0);
        json_decref(back);
    }
    else {
        CHECK(len == 4 && memcmp(out, "null", 4) == 0);
    }
    free(out);

    /* rk_jw_text: the string, or "" */
    out = written(rk_jw_text, v, &len);
    if (j) {
        want = dumped(j);
        CHECK(len == strlen(want) && memcmp(out, want, len) == 0);
        free(want);
    }
    else {
        CHECK(len == 2 && memcmp(out, "\"\"", 2) == 0);
    }
    back = json_loads(out, JSON_DECODE_ANY, NULL);
    CHECK(back != NULL && json_is_string(back));
    CHECK(j ? json_string_length(back) == n && memcmp(json_string_value(back), v, n) == 0
            : json_string_length(back) == 0);
    json_decref(back);
    free(out);
}

/* [t0, t1, ...], rk_jw_str and rk_jw_text in turn (COUNT NULL: count only) */
static void write_array(rk_jw *w, char **texts, size_t count)
{
    RK_JW_LIT(w, "[");
    for (size_t i = 0; i < count; i++) {
        if (i) {
            RK_JW_LIT(w, ",");
        }
        (i % 2 ? rk_jw_text : rk_jw_str)(w, texts[i]);
    }
    RK_JW_LIT(w, "]");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *texts[MAX_TEXTS];
    size_t lens[MAX_TEXTS], count = 0, start = 0;
    json_t *strings[MAX_TEXTS], *array;
    rk_jw w = { NULL, 0 };
    char *exact, *want;

    /* the documented answers for NULL */
    {
        size_t len;
        char *out = written(rk_jw_str, NULL, &len);
        CHECK(len == 4 && memcmp(out, "null", 4) == 0);
        free(out);
        out = written(rk_jw_text, NULL, &len);
        CHECK(len == 2 && memcmp(out, "\"\"", 2) == 0);
        free(out);
    }

    for (size_t i = 0; i <= size && count < MAX_TEXTS; i++) {
        if (i == size || data[i] == 0) {
            size_t n = i - start;
            texts[count] = malloc(n + 1);
            CHECK(texts[count] != NULL);
            memcpy(texts[count], data + start, n);
            texts[count][n] = '\0';
            lens[count++] = n;
            start = i + 1;
        }
    }

    array = json_array();
    CHECK(array != NULL);
    for (size_t i = 0; i < count; i++) {
        strings[i] = json_stringn(texts[i], lens[i]);   /* NULL: not UTF-8 */
        CHECK((strings[i] != NULL) == utf8_ok((const unsigned char *)texts[i], lens[i]));
        check_text(texts[i], lens[i], strings[i]);
        json_array_append_new(array, strings[i] ? json_incref(strings[i])
                                     : i % 2 ? json_string("") : json_null());
    }

    /* all of them in one array: the same bytes as jansson's */
    write_array(&w, texts, count);
    exact = malloc(w.len);
    CHECK(exact != NULL);
    {
        rk_jw w2 = { exact, 0 };
        write_array(&w2, texts, count);
        CHECK(w2.len == w.len);
    }
    want = json_dumps(array, JSON_COMPACT);
    CHECK(want != NULL);
    CHECK(strlen(want) == w.len && memcmp(exact, want, w.len) == 0);
    free(want);
    free(exact);
    json_decref(array);

    for (size_t i = 0; i < count; i++) {
        json_decref(strings[i]);
        free(texts[i]);
    }
    return 0;
}
