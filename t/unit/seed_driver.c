/* seed_driver.c: the heat planner (lib/rk_seed.c, with the body and the answer of
 * lib/rk_seed_body.c and lib/rk_seed_json.c) behind stdin and stdout, for
 * t/unit/seedref-selftest.pl, which compares it with the Perl reference t/lib/SeedRef.pm.
 *
 * stdin: one JSON object
 *   {"board": <the body of GET /competition/{c}/leaderboard>,
 *    "request": <the body of POST .../generate-heats, any JSON value>  (or "raw": a
 *               string sent as the body byte for byte),
 *    "lane_count": N, "first_number": N,
 *    "competition_id": "1", "wod_id": "3"}
 * stdout: the dry-run answer, rk_seed_plan_json's body (ids null), or
 *   {"status":"error","code":400|500,"message":"..."} when the planner refuses;
 *   then a newline.  Exit 0 for both; 2 when stdin is not such an object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_pools.h>
#include <jansson.h>

#include "rk_seed.h"

static int refuse(int code, const char *message)
{
    json_t *e = json_pack("{s:s, s:i, s:s}", "status", "error", "code", code,
                          "message", message);
    char *s = json_dumps(e, JSON_COMPACT);

    printf("%s\n", s);
    free(s);
    json_decref(e);
    return 0;
}

static int run(apr_pool_t *pool, json_t *in)
{
    json_t *board = json_object_get(in, "board"), *request = json_object_get(in, "request");
    json_t *raw = json_object_get(in, "raw");
    json_int_t lane_count = json_integer_value(json_object_get(in, "lane_count"));
    json_int_t first = json_integer_value(json_object_get(in, "first_number"));
    const char *cid = json_string_value(json_object_get(in, "competition_id"));
    const char *wid = json_string_value(json_object_get(in, "wod_id"));
    rk_seed_request req;
    rk_seed_division *divs;
    rk_seed_plan plan;
    size_t ndivs, blen, len;
    char *btext, *body;
    const char *err = NULL;
    int rv;

    if (!board || (!request && !json_is_string(raw))) {
        fprintf(stderr, "seed_driver: board and request (or raw) are required\n");
        return 2;
    }
    if (json_is_string(raw)) {
        body = strdup(json_string_value(raw));
        blen = json_string_length(raw);
    }
    else {
        body = json_dumps(request, JSON_COMPACT | JSON_ENCODE_ANY);
        blen = body ? strlen(body) : 0;
    }
    btext = json_dumps(board, JSON_COMPACT);
    if (!body || !btext) {
        free(body);
        free(btext);
        return 2;
    }
    if (rk_seed_parse(body, blen, pool, &req, &err) != 0) {
        rv = refuse(400, err);
    }
    else if (rk_seed_divisions_from_board(btext, strlen(btext), pool, &divs, &ndivs, &err) != 0) {
        rv = refuse(500, err);
    }
    else if ((rv = rk_seed_plan_make(&req, (long long)lane_count, (long long)first, divs, ndivs,
                                     pool, &plan, &err)) != 0) {
        rv = refuse(rv == RK_SEED_REFUSED ? 400 : 500, err);
    }
    else {
        const char *out = rk_seed_plan_json(&plan, cid, req.zone_id, wid, NULL, NULL, pool, &len);

        fwrite(out, 1, len, stdout);
        fputc('\n', stdout);
        rv = 0;
    }
    free(body);
    free(btext);
    return rv;
}

int main(void)
{
    json_error_t jerr;
    json_t *in = json_loadf(stdin, 0, &jerr);
    apr_pool_t *pool;
    int rv;

    if (!json_is_object(in)) {
        fprintf(stderr, "seed_driver: stdin is not a JSON object (%s)\n", jerr.text);
        json_decref(in);
        return 2;
    }
    apr_initialize();
    apr_pool_create(&pool, NULL);
    rv = run(pool, in);
    apr_pool_destroy(pool);
    apr_terminate();
    json_decref(in);
    return rv;
}
