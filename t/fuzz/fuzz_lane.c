/* fuzz_lane.c: libFuzzer target for rk_lane_patch_parse (lib/rk_body.c).
 *
 * The raw input is the body, passed with its length in a heap buffer of exactly that
 * size (ASan catches any read past LEN).  Checks:
 *   - the result is 0 or -1;
 *   - on success: set != 0 and has no bit beyond NUMBER|SPOT|SCORE|TIEBREAK; number in
 *     1..RK_LANE_NUMBER_MAX when set; spot_id NUL-terminated and passing rk_id_valid
 *     when set and not null; score NUL-terminated, valid UTF-8, at most
 *     RK_SCORE_MAX_CHARS code points when set and not null; tiebreak NUL-terminated,
 *     a time by the target's own shape check and by rk_tiebreak_parse when set and
 *     not null; fields of keys that are absent left at zero;
 *   - the set bits are exactly the keys of the body (as jansson reads it) and the
 *     values equal the body's;
 *   - on failure: *err is one of the fixed messages and the output is all zero;
 *   - agreement with a reference written from rk_body.h on top of jansson. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rk_body.h"
#include "rk_router.h"
#include "rk_score.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_lane: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

static const char *const messages[] = {
    "Invalid body: empty",
    "Invalid body: duplicate key",
    "Invalid body: not valid JSON",
    "Invalid body: not a JSON object",
    "Invalid body: no field to change",
    "Invalid body: unknown key",
    "Invalid body: number must be an integer",
    "Invalid body: number out of range",
    "Invalid body: spot_id must be a string or null",
    "Invalid body: spot_id is not a valid id",
    "Invalid body: score must be a string or null",
    "Invalid body: score longer than 64 characters",
    "Invalid body: tiebreak must be a string or null",
    "Invalid body: tiebreak must be a time like 1:02.5",
};

static int known_message(const char *m)
{
    size_t i;

    for (i = 0; m && i < sizeof(messages) / sizeof(messages[0]); i++) {
        if (strcmp(m, messages[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

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

/* Strict UTF-8 check (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF);
 * returns the number of code points, or (size_t)-1 when invalid. */
static size_t utf8_count(const unsigned char *s, size_t len)
{
    size_t i = 0, n = 0;

    while (i < len) {
        unsigned char c = s[i];
        size_t k;
        uint32_t cp;

        if (c < 0x80) { i++; n++; continue; }
        else if (c >= 0xC2 && c <= 0xDF) { k = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { k = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { k = 3; cp = c & 0x07; }
        else return (size_t)-1;
        if (i + k >= len) return (size_t)-1;     /* truncated sequence */
        {
            size_t j;

            for (j = 1; j <= k; j++) {
                if ((s[i + j] & 0xC0) != 0x80) return (size_t)-1;
                cp = cp << 6 | (s[i + j] & 0x3F);
            }
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF))
            || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return (size_t)-1;
        }
        i += k + 1;
        n++;
    }
    return n;
}

/* A tiebreak time, read differently from rk_score.c: the shape of the string (each
 * digit replaced by '9') is one of the allowed shapes, and every field after a ':'
 * starts with 0-5 (minutes after hours and seconds are 00-59). */
static int time_shape(const char *s, size_t len)
{
    static const char *const heads[] = { "9:99", "99:99", "9:99:99", "99:99:99" };
    static const char *const tails[] = { "", ".9", ".99", ".999" };
    char shape[16];
    size_t i, h, t;

    if (len >= sizeof(shape)) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        shape[i] = s[i] >= '0' && s[i] <= '9' ? '9' : s[i];
        if (i > 0 && s[i - 1] == ':' && !(s[i] >= '0' && s[i] <= '5')) {
            return 0;
        }
    }
    shape[len] = '\0';
    for (h = 0; h < 4; h++) {
        size_t hl = strlen(heads[h]);

        for (t = 0; t < 4; t++) {
            if (hl + strlen(tails[t]) == len && strncmp(shape, heads[h], hl) == 0
                && strcmp(shape + hl, tails[t]) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

/* The reference: 1 = accept, 0 = refuse, from rk_body.h and jansson. */
static int reference(json_t *root)
{
    const char *key;
    json_t *v;

    if (!root || !json_is_object(root) || json_object_size(root) == 0) {
        return 0;
    }
    json_object_foreach(root, key, v) {
        if (strcmp(key, "number") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 1
                || json_integer_value(v) > RK_LANE_NUMBER_MAX) {
                return 0;
            }
        }
        else if (strcmp(key, "spot_id") == 0) {
            if (!json_is_null(v) && !(json_is_string(v)
                  && rk_id_valid(json_string_value(v), json_string_length(v)))) {
                return 0;
            }
        }
        else if (strcmp(key, "score") == 0) {
            if (!json_is_null(v) && !(json_is_string(v)
                  && utf8_count((const unsigned char *)json_string_value(v),
                                json_string_length(v)) <= RK_SCORE_MAX_CHARS)) {
                return 0;
            }
        }
        else if (strcmp(key, "tiebreak") == 0) {
            if (!json_is_null(v) && !(json_is_string(v)
                  && time_shape(json_string_value(v), json_string_length(v)))) {
                return 0;
            }
        }
        else {
            return 0;
        }
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *body = malloc(size ? size : 1);
    rk_lane_patch *out = malloc(sizeof(*out));
    const char *err = NULL;
    json_error_t jerr;
    json_t *root;
    int rv;

    if (!body || !out) {
        free(body);
        free(out);
        return 0;
    }
    memcpy(body, data, size);
    memset(out, 0xA5, sizeof(*out));

    rv = rk_lane_patch_parse(body, size, out, &err);
    CHECK(rv == 0 || rv == -1);
    root = size ? json_loadb(body, size, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    CHECK((rv == 0) == reference(root));

    if (rv == 0) {
        json_t *v;

        CHECK(out->set != 0);
        CHECK((out->set & ~(RK_LANE_SET_NUMBER | RK_LANE_SET_SPOT | RK_LANE_SET_SCORE
                            | RK_LANE_SET_TIEBREAK)) == 0);

        v = json_object_get(root, "number");
        CHECK(!!(out->set & RK_LANE_SET_NUMBER) == (v != NULL));
        if (out->set & RK_LANE_SET_NUMBER) {
            CHECK(out->number >= 1 && out->number <= RK_LANE_NUMBER_MAX);
            CHECK(out->number == (long long)json_integer_value(v));
        }
        else {
            CHECK(out->number == 0);
        }

        v = json_object_get(root, "spot_id");
        CHECK(!!(out->set & RK_LANE_SET_SPOT) == (v != NULL));
        if (out->set & RK_LANE_SET_SPOT) {
            CHECK(out->spot_null == 0 || out->spot_null == 1);
            CHECK(out->spot_null == json_is_null(v));
        }
        if ((out->set & RK_LANE_SET_SPOT) && !out->spot_null) {
            const char *nul = memchr(out->spot_id, '\0', sizeof(out->spot_id));

            CHECK(nul != NULL);
            CHECK(rk_id_valid(out->spot_id, (size_t)(nul - out->spot_id)));
            CHECK(strcmp(out->spot_id, json_string_value(v)) == 0);
        }
        else {
            CHECK(all_zero(out->spot_id, sizeof(out->spot_id)));
        }

        v = json_object_get(root, "score");
        CHECK(!!(out->set & RK_LANE_SET_SCORE) == (v != NULL));
        if (out->set & RK_LANE_SET_SCORE) {
            CHECK(out->score_null == 0 || out->score_null == 1);
            CHECK(out->score_null == json_is_null(v));
        }
        if ((out->set & RK_LANE_SET_SCORE) && !out->score_null) {
            const char *nul = memchr(out->score, '\0', sizeof(out->score));
            size_t blen, chars;

            CHECK(nul != NULL);
            blen = (size_t)(nul - out->score);
            chars = utf8_count((const unsigned char *)out->score, blen);
            CHECK(chars != (size_t)-1);
            CHECK(chars <= RK_SCORE_MAX_CHARS);
            CHECK(chars == rk_utf8_chars(out->score));
            CHECK(blen == json_string_length(v));
            CHECK(memcmp(out->score, json_string_value(v), blen) == 0);
        }
        else {
            CHECK(all_zero(out->score, sizeof(out->score)));
        }

        v = json_object_get(root, "tiebreak");
        CHECK(!!(out->set & RK_LANE_SET_TIEBREAK) == (v != NULL));
        if (out->set & RK_LANE_SET_TIEBREAK) {
            CHECK(out->tiebreak_null == 0 || out->tiebreak_null == 1);
            CHECK(out->tiebreak_null == json_is_null(v));
        }
        else {
            CHECK(out->tiebreak_null == 0);
        }
        if ((out->set & RK_LANE_SET_TIEBREAK) && !out->tiebreak_null) {
            const char *nul = memchr(out->tiebreak, '\0', sizeof(out->tiebreak));
            rk_score tb;
            const char *tberr = NULL;

            CHECK(nul != NULL);
            CHECK(time_shape(out->tiebreak, (size_t)(nul - out->tiebreak)));
            CHECK(rk_tiebreak_parse(out->tiebreak, &tb, &tberr) == 0);
            CHECK(tb.kind == RK_SCORE_VALUE && tb.v >= 0);
            CHECK((size_t)(nul - out->tiebreak) == json_string_length(v));
            CHECK(strcmp(out->tiebreak, json_string_value(v)) == 0);
        }
        else {
            CHECK(all_zero(out->tiebreak, sizeof(out->tiebreak)));
        }
    }
    else {
        CHECK(known_message(err));
        CHECK(all_zero(out, sizeof(*out)));
    }
    json_decref(root);
    free(out);
    free(body);
    return 0;
}
