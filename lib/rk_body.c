/* rk_body.c: strict parsing of request bodies.  See rk_body.h. */
#include <string.h>

#include <jansson.h>

#include "rk_body.h"
#include "rk_router.h"
#include "rk_score.h"

size_t rk_utf8_chars(const char *s)
{
    size_t n = 0;

    for (; *s; s++) {
        if (((unsigned char)*s & 0xC0) != 0x80) {
            n++;
        }
    }
    return n;
}

/* Parse BODY as exactly one JSON object.  jansson checks UTF-8, refuses "\u0000",
 * trailing data (no JSON_DISABLE_EOF_CHECK) and, with JSON_REJECT_DUPLICATES,
 * duplicate keys; its nesting depth is bounded.  Shared with rk_resource.c. */
json_t *rk_body_load_object(const char *body, size_t len, const char **err)
{
    json_error_t jerr;
    json_t *root;

    if (len == 0) {
        *err = "Invalid body: empty";
        return NULL;
    }
    root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        *err = json_error_code(&jerr) == json_error_duplicate_key
               ? "Invalid body: duplicate key" : "Invalid body: not valid JSON";
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        *err = "Invalid body: not a JSON object";
        return NULL;
    }
    return root;
}

static int copy_string(const json_t *v, char *dst, size_t max)
{
    size_t len = json_string_length(v);

    if (len > max) {
        return -1;
    }
    memcpy(dst, json_string_value(v), len);
    dst[len] = '\0';
    return 0;
}

int rk_connect_parse(const char *body, size_t len, rk_credentials *out, const char **err)
{
    json_t *root, *id, *secret;
    int rv = -1;

    memset(out, 0, sizeof(*out));
    if (!(root = rk_body_load_object(body, len, err))) {
        return -1;
    }
    id = json_object_get(root, "client_id");
    secret = json_object_get(root, "client_secret");
    if (!id || !secret) {
        *err = "Invalid body: client_id and client_secret are required";
    }
    else if (!json_is_string(id) || !json_is_string(secret)) {
        *err = "Invalid body: client_id and client_secret must be strings";
    }
    else if (copy_string(id, out->client_id, RK_CLIENT_ID_MAX) != 0
             || copy_string(secret, out->client_secret, RK_CLIENT_SECRET_MAX) != 0) {
        *err = "Invalid body: client_id or client_secret too long";
    }
    else {
        rv = 0;
    }
    json_decref(root);
    if (rv != 0) {
        /* do not leave a partial secret behind */
        memset(out, 0, sizeof(*out));
    }
    return rv;
}

static const char *lane_number(const json_t *v, rk_lane_patch *out)
{
    json_int_t n;

    if (!json_is_integer(v)) {
        return "Invalid body: number must be an integer";
    }
    n = json_integer_value(v);
    if (n < 1 || n > RK_LANE_NUMBER_MAX) {
        return "Invalid body: number out of range";
    }
    out->number = (long long)n;
    out->set |= RK_LANE_SET_NUMBER;
    return NULL;
}

static const char *lane_spot(const json_t *v, rk_lane_patch *out)
{
    if (json_is_null(v)) {
        out->spot_null = 1;
    }
    else if (!json_is_string(v)) {
        return "Invalid body: spot_id must be a string or null";
    }
    else if (!rk_id_valid(json_string_value(v), json_string_length(v))) {
        return "Invalid body: spot_id is not a valid id";
    }
    else {
        copy_string(v, out->spot_id, sizeof(out->spot_id) - 1);
    }
    out->set |= RK_LANE_SET_SPOT;
    return NULL;
}

static const char *lane_score(const json_t *v, rk_lane_patch *out)
{
    if (json_is_null(v)) {
        out->score_null = 1;
    }
    else if (!json_is_string(v)) {
        return "Invalid body: score must be a string or null";
    }
    else if (json_string_length(v) > RK_SCORE_MAX_BYTES
             || rk_utf8_chars(json_string_value(v)) > RK_SCORE_MAX_CHARS) {
        return "Invalid body: score longer than 64 characters";
    }
    else {
        copy_string(v, out->score, RK_SCORE_MAX_BYTES);
    }
    out->set |= RK_LANE_SET_SCORE;
    return NULL;
}

static const char *lane_tiebreak(const json_t *v, rk_lane_patch *out)
{
    rk_score tb;
    const char *err;

    if (json_is_null(v)) {
        out->tiebreak_null = 1;
    }
    else if (!json_is_string(v)) {
        return "Invalid body: tiebreak must be a string or null";
    }
    /* no NUL inside (jansson refuses \u0000): the C string is the whole value.  A
     * time is at most 12 bytes ("99:59:59.999"), so once it parses it fits the
     * buffer; copy_string stays bounded all the same. */
    else if (rk_tiebreak_parse(json_string_value(v), &tb, &err) != 0) {
        return err;
    }
    else if (copy_string(v, out->tiebreak, RK_SCORE_MAX_BYTES) != 0) {
        return "Invalid body: tiebreak must be a time like 1:02.5";
    }
    out->set |= RK_LANE_SET_TIEBREAK;
    return NULL;
}

int rk_lane_patch_parse(const char *body, size_t len, rk_lane_patch *out, const char **err)
{
    static const struct {
        const char *key;
        const char *(*parse)(const json_t *, rk_lane_patch *);
    } keys[] = {
        { "number", lane_number }, { "spot_id", lane_spot }, { "score", lane_score },
        { "tiebreak", lane_tiebreak },
    };
    json_t *root, *value;
    const char *key;
    const char *problem = NULL;

    memset(out, 0, sizeof(*out));
    if (!(root = rk_body_load_object(body, len, err))) {
        return -1;
    }
    if (json_object_size(root) == 0) {
        problem = "Invalid body: no field to change";
    }
    json_object_foreach(root, key, value) {
        size_t k;

        if (problem) {
            break;
        }
        for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
            if (strcmp(key, keys[k].key) == 0) {
                break;
            }
        }
        /* key comparison stops at NUL: a key with an embedded NUL cannot pass,
         * since jansson refuses \u0000 without JSON_ALLOW_NUL */
        problem = k < sizeof(keys) / sizeof(keys[0])
                  ? keys[k].parse(value, out) : "Invalid body: unknown key";
    }
    json_decref(root);
    if (problem) {
        memset(out, 0, sizeof(*out));
        *err = problem;
        return -1;
    }
    return 0;
}
