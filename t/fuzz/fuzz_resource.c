/* fuzz_resource.c: libFuzzer target for the bodies of API.md part 3's writes
 * (lib/rk_resource.c) and the Idempotency-Key helpers (lib/rk_idem.c).
 *
 * Byte 0 chooses what the rest of the input is:
 *   0..5   the body of a POST of resource (byte 0) (competition, wod, spot, zone,
 *          heat, lane), rk_resource_post_parse;
 *   6..11  the body of a PATCH of resource (byte 0 - 6), rk_resource_patch_parse;
 *   12     an Idempotency-Key value (rk_idem_key_valid) and, cut at its first '\n'
 *          into method, path and body, a request's fingerprint (rk_idem_fingerprint);
 *   other  taken modulo 13.
 * Each input is passed with its length in a heap buffer of exactly that size (ASan
 * catches any read past LEN).  Checks, for the bodies:
 *   - the result is 0 or -1; on -1, *err starts with "Invalid body: " and the output
 *     is all zero; on 0, rk_resource_body_free leaves it all zero;
 *   - on 0: the set bits are exactly the keys of the body (as jansson reads it with
 *     JSON_REJECT_DUPLICATES), none beyond the resource's fields; a POST has every
 *     required field and no PATCH-only one; a PATCH has at least one;
 *   - each given field: null only where nullable, and rk_resource_param NULL then;
 *     else the parameter equals the body's value (integers in decimal) and passes
 *     the field's own check, written again here: integer range, character count and
 *     not blank, one of the enum's words, the formats (rk_date_valid, ...) and an
 *     independent shape check of dates, instants and ids;
 *   - a competition whose body gives both dates has start_date <= end_date;
 *   - agreement with a reference decision built from the table (rk_resource_def_of)
 *     on top of jansson, the tiebreak aside (rk_score.c's own, fuzzed by fuzz_score).
 * For the key: valid iff 1 to 255 bytes, each 0x21-0x7E; the fingerprint is 64
 * lower-case hex digits, the same twice, and differs when the body gains a byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rk_idem.h"
#include "rk_resource.h"
#include "rk_router.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_resource: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

static int all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;

    while (n--) {
        if (*c++) {
            return 0;
        }
    }
    return 1;
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;

    for (; *s; s++) {
        n += ((unsigned char)*s & 0xC0) != 0x80;
    }
    return n;
}

static int is_blank(const char *s)
{
    for (; *s; s++) {
        if (!strchr(" \t\r\n", *s)) {
            return 0;
        }
    }
    return 1;
}

/* "9999-99-99" etc.: the shape, each digit replaced by '9' */
static int shape(const char *s, size_t len, const char *want)
{
    size_t i;

    if (len != strlen(want)) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        char c = s[i] >= '0' && s[i] <= '9' ? '9' : s[i];

        if (c != want[i]) {
            return 0;
        }
    }
    return 1;
}

/* 1 when V is a valid value of F (not null), by the table and the format checks;
 * TIME fields are taken as valid when they are strings (rk_score.c decides). */
static int value_ok(const rk_wfield *f, json_t *v)
{
    const char *s;
    size_t len;

    if (f->type == RK_WT_INT) {
        return json_is_integer(v) && json_integer_value(v) >= f->min
               && json_integer_value(v) <= f->max;
    }
    if (!json_is_string(v)) {
        return 0;
    }
    s = json_string_value(v);
    len = json_string_length(v);
    switch (f->type) {
    case RK_WT_TEXT:
        return (long long)utf8_chars(s) >= f->min && (long long)utf8_chars(s) <= f->max
               && !(f->min > 0 && is_blank(s));
    case RK_WT_ENUM: {
        const char *const *e;

        for (e = f->values; *e; e++) {
            if (strcmp(*e, s) == 0) {
                return 1;
            }
        }
        return 0;
    }
    case RK_WT_DATE:
        return rk_date_valid(s, len);
    case RK_WT_INSTANT:
        return rk_instant_valid(s, len);
    case RK_WT_TIMEZONE:
        return rk_timezone_valid(s, len);
    case RK_WT_ID:
        return rk_id_valid(s, len);
    case RK_WT_TIME:
        return 1;
    case RK_WT_INT:
        break;
    }
    return 0;
}

/* The reference: -1 refused for a reason other than a tiebreak's form, 1 accepted
 * if every tiebreak is a time (0 when the body has a non-null string tiebreak the
 * reference cannot judge). */
static int reference(const rk_resource_def *d, int post, json_t *root, int *tiebreak)
{
    const char *key;
    json_t *v;
    int f;
    unsigned set = 0;

    *tiebreak = 0;
    if (!root || !json_is_object(root) || (!post && json_object_size(root) == 0)) {
        return -1;
    }
    json_object_foreach(root, key, v) {
        for (f = 0; f < d->nfields && strcmp(d->fields[f].key, key) != 0; f++)
            ;
        if (f == d->nfields) {
            return -1;
        }
        if (post && (d->fields[f].flags & RK_FIELD_PATCH_ONLY)) {
            return -1;
        }
        if (json_is_null(v)) {
            if (!(d->fields[f].flags & RK_FIELD_NULLABLE)) {
                return -1;
            }
        }
        else if (!value_ok(&d->fields[f], v)) {
            return -1;
        }
        else if (d->fields[f].type == RK_WT_TIME) {
            *tiebreak = 1;
        }
        set |= 1u << f;
    }
    for (f = 0; post && f < d->nfields; f++) {
        if ((d->fields[f].flags & RK_FIELD_REQUIRED) && !(set & (1u << f))) {
            return -1;
        }
    }
    if (d->kind == RK_RES_COMPETITION) {
        json_t *a = json_object_get(root, "start_date"), *b = json_object_get(root, "end_date");

        if (a && b && json_is_string(a) && json_is_string(b)
            && strcmp(json_string_value(a), json_string_value(b)) > 0) {
            return -1;
        }
    }
    return 1;
}

static void body_case(rk_resource_kind kind, int post, const char *body, size_t size)
{
    const rk_resource_def *d = rk_resource_def_of(kind);
    rk_resource_body *out = malloc(sizeof(*out));
    const char *err = NULL;
    json_error_t jerr;
    json_t *root;
    int rv, ref, tiebreak, f;

    CHECK(d != NULL);
    if (!out) {
        return;
    }
    memset(out, 0xA5, sizeof(*out));
    rv = post ? rk_resource_post_parse(kind, body, size, out, &err)
              : rk_resource_patch_parse(kind, body, size, out, &err);
    CHECK(rv == 0 || rv == -1);
    root = size ? json_loadb(body, size, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    ref = reference(d, post, root, &tiebreak);
    if (ref == -1) {
        CHECK(rv == -1);
    }
    else if (!tiebreak) {
        CHECK(rv == 0);
    }

    if (rv == 0) {
        const char *key;
        json_t *v;
        unsigned keys = 0;

        CHECK(out->kind == kind);
        CHECK(out->json != NULL);
        CHECK((out->set & ~((1u << d->nfields) - 1)) == 0);
        CHECK(post || out->set != 0);
        json_object_foreach(root, key, v) {
            for (f = 0; f < d->nfields && strcmp(d->fields[f].key, key) != 0; f++)
                ;
            CHECK(f < d->nfields);
            keys |= 1u << f;
        }
        CHECK(keys == out->set);
        for (f = 0; f < d->nfields; f++) {
            const rk_wfield *fd = &d->fields[f];
            const char *p = rk_resource_param(out, f);

            if (post && (fd->flags & RK_FIELD_REQUIRED)) {
                CHECK(out->set & (1u << f));
            }
            if (post && (fd->flags & RK_FIELD_PATCH_ONLY)) {
                CHECK(!(out->set & (1u << f)));
            }
            if (!(out->set & (1u << f))) {
                CHECK(p == NULL);
                CHECK(all_zero(&out->v[f], sizeof(out->v[f])));
                continue;
            }
            v = json_object_get(root, fd->key);
            CHECK(v != NULL);
            CHECK(out->v[f].is_null == json_is_null(v));
            if (out->v[f].is_null) {
                CHECK(fd->flags & RK_FIELD_NULLABLE);
                CHECK(p == NULL);
                continue;
            }
            CHECK(p != NULL);
            CHECK(value_ok(fd, v));
            if (fd->type == RK_WT_INT) {
                char num[32];

                snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
                CHECK(strcmp(p, num) == 0);
                CHECK(out->v[f].i == (long long)json_integer_value(v));
                CHECK(out->v[f].i >= fd->min && out->v[f].i <= fd->max);
            }
            else {
                CHECK(strlen(p) == json_string_length(v));
                CHECK(out->v[f].len == json_string_length(v));
                CHECK(memcmp(p, json_string_value(v), out->v[f].len) == 0);
                if (fd->type == RK_WT_DATE) {
                    CHECK(shape(p, strlen(p), "9999-99-99"));
                }
                if (fd->type == RK_WT_INSTANT) {
                    CHECK(shape(p, strlen(p), "9999-99-99T99:99:99Z"));
                }
                if (fd->type == RK_WT_ID) {
                    CHECK(strlen(p) >= 1 && strlen(p) <= 18 && p[0] != '0'
                          && strspn(p, "0123456789") == strlen(p));
                }
                if (fd->type == RK_WT_TIMEZONE) {
                    CHECK(strlen(p) >= 1 && strlen(p) <= 64 && p[0] != '/'
                          && strstr(p, "..") == NULL && strstr(p, "//") == NULL
                          && strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                       "0123456789_-+./") == strlen(p));
                }
            }
        }
        if (kind == RK_RES_COMPETITION) {
            const char *a = rk_resource_param(out, RK_COMP_START_DATE);
            const char *b = rk_resource_param(out, RK_COMP_END_DATE);

            CHECK(!a || !b || strcmp(a, b) <= 0);
        }
        rk_resource_body_free(out);
        CHECK(all_zero(out, sizeof(*out)));
    }
    else {
        CHECK(err != NULL && strncmp(err, "Invalid body: ", 14) == 0);
        CHECK(all_zero(out, sizeof(*out)));
        rk_resource_body_free(out);
    }
    json_decref(root);
    free(out);
}

static void key_case(const char *data, size_t size)
{
    char a[RK_IDEM_HASH_HEX + 1], b[RK_IDEM_HASH_HEX + 1];
    const char *nl1, *nl2;
    size_t i;
    int ref = size >= 1 && size <= RK_IDEM_KEY_MAX;

    for (i = 0; i < size; i++) {
        ref &= (unsigned char)data[i] >= 0x21 && (unsigned char)data[i] <= 0x7E;
    }
    CHECK(rk_idem_key_valid(data, size) == ref);

    /* method \n path \n body */
    nl1 = memchr(data, '\n', size);
    nl2 = nl1 ? memchr(nl1 + 1, '\n', size - (size_t)(nl1 + 1 - data)) : NULL;
    if (nl1 && nl2) {
        char *method = strndup(data, (size_t)(nl1 - data));
        char *path = strndup(nl1 + 1, (size_t)(nl2 - nl1 - 1));
        size_t blen = size - (size_t)(nl2 + 1 - data);
        char *body = malloc(blen + 1);

        if (method && path && body) {
            memcpy(body, nl2 + 1, blen);
            rk_idem_fingerprint(method, path, body, blen, a);
            CHECK(strlen(a) == RK_IDEM_HASH_HEX);
            CHECK(strspn(a, "0123456789abcdef") == RK_IDEM_HASH_HEX);
            rk_idem_fingerprint(method, path, body, blen, b);
            CHECK(strcmp(a, b) == 0);
            body[blen] = 'x';
            rk_idem_fingerprint(method, path, body, blen + 1, b);
            CHECK(strcmp(a, b) != 0);
        }
        free(method);
        free(path);
        free(body);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned sel;
    char *rest;
    size_t n;

    if (size == 0) {
        return 0;
    }
    sel = data[0] % 13u;
    n = size - 1;
    rest = malloc(n ? n : 1);
    if (!rest) {
        return 0;
    }
    memcpy(rest, data + 1, n);
    if (sel < 6) {
        body_case((rk_resource_kind)sel, 1, rest, n);
    }
    else if (sel < 12) {
        body_case((rk_resource_kind)(sel - 6), 0, rest, n);
    }
    else {
        key_case(rest, n);
    }
    free(rest);
    return 0;
}
