/* fuzz_connect.c: libFuzzer target for rk_connect_parse (lib/rk_body.c).
 *
 * The raw input is the body, passed with its length in a heap buffer of exactly that
 * size (no NUL after it: ASan catches any read past LEN).  Checks:
 *   - the result is 0 or -1;
 *   - on success: client_id and client_secret are NUL-terminated within their
 *     buffers, and equal (bytes and length) to the "client_id" / "client_secret"
 *     strings of the body as jansson itself reads it (JSON_REJECT_DUPLICATES);
 *   - on failure: *err is set to one of the fixed messages (never an echo of the
 *     input) and the output holds no byte of a secret (all zero);
 *   - agreement with jansson: a body that jansson reads as an object with both keys
 *     as strings within the limits must be accepted, and one it refuses must be
 *     refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rk_body.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_connect: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

static const char *const messages[] = {
    "Invalid body: empty",
    "Invalid body: duplicate key",
    "Invalid body: not valid JSON",
    "Invalid body: not a JSON object",
    "Invalid body: client_id and client_secret are required",
    "Invalid body: client_id and client_secret must be strings",
    "Invalid body: client_id or client_secret too long",
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

/* What the body should give, from jansson directly: 1 = accept, 0 = refuse. */
static int reference(const char *body, size_t len, json_t **root)
{
    json_error_t jerr;
    json_t *id, *secret;

    *root = len ? json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (!*root || !json_is_object(*root)) {
        return 0;
    }
    id = json_object_get(*root, "client_id");
    secret = json_object_get(*root, "client_secret");
    return json_is_string(id) && json_is_string(secret)
           && json_string_length(id) <= RK_CLIENT_ID_MAX
           && json_string_length(secret) <= RK_CLIENT_SECRET_MAX;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *body = malloc(size ? size : 1);
    rk_credentials *out = malloc(sizeof(*out));
    const char *err = NULL;
    json_t *root = NULL;
    int rv, want;

    if (!body || !out) {
        free(body);
        free(out);
        return 0;
    }
    memcpy(body, data, size);
    memset(out, 0xA5, sizeof(*out));

    rv = rk_connect_parse(body, size, out, &err);
    CHECK(rv == 0 || rv == -1);
    want = reference(body, size, &root);
    CHECK((rv == 0) == want);
    if (rv == 0) {
        const char *id = memchr(out->client_id, '\0', sizeof(out->client_id));
        const char *secret = memchr(out->client_secret, '\0', sizeof(out->client_secret));
        json_t *jid = json_object_get(root, "client_id");
        json_t *jsecret = json_object_get(root, "client_secret");

        CHECK(id != NULL && secret != NULL);
        CHECK((size_t)(id - out->client_id) == json_string_length(jid));
        CHECK((size_t)(secret - out->client_secret) == json_string_length(jsecret));
        CHECK(memcmp(out->client_id, json_string_value(jid), json_string_length(jid)) == 0);
        CHECK(memcmp(out->client_secret, json_string_value(jsecret),
                     json_string_length(jsecret)) == 0);
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
