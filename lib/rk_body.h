/* rk_body.h: strict parsing of request bodies (POST /connect, PUT of a lane).
 * Pure C + jansson, no httpd header: unit-tested and fuzzed directly. */
#ifndef RK_BODY_H
#define RK_BODY_H

#include <stddef.h>

/* Rules common to every body: exactly one JSON object (jansson, strict), no duplicate
 * key, nothing but whitespace after it, valid UTF-8, no NUL (\u0000) in strings. */

#define RK_CLIENT_ID_MAX     256   /* bytes */
#define RK_CLIENT_SECRET_MAX 1024  /* bytes */

typedef struct {
    char client_id[RK_CLIENT_ID_MAX + 1];
    char client_secret[RK_CLIENT_SECRET_MAX + 1];
} rk_credentials;

/* Parse {"client_id":"...","client_secret":"..."}.  Both keys are required strings
 * (non-empty is not required: an empty user simply fails the login); other keys are
 * ignored (OAuth clients often send "grant_type").  Returns 0 on success, -1 on a bad
 * body with *ERR set to a fixed, client-safe message (never an echo of the input). */
int rk_connect_parse(const char *body, size_t len, rk_credentials *out, const char **err);

#define RK_LANE_SET_NUMBER 0x1u
#define RK_LANE_SET_SPOT   0x2u
#define RK_LANE_SET_SCORE  0x4u
#define RK_LANE_SET_TIEBREAK 0x8u

#define RK_SCORE_MAX_CHARS 64            /* Unicode code points */
#define RK_SCORE_MAX_BYTES (4 * RK_SCORE_MAX_CHARS)
#define RK_LANE_NUMBER_MAX 999

typedef struct {
    unsigned set;                  /* RK_LANE_SET_* bits of the keys present */
    long long number;              /* when RK_LANE_SET_NUMBER: 1..RK_LANE_NUMBER_MAX */
    int spot_null;                 /* when RK_LANE_SET_SPOT: 1 = empty the lane */
    char spot_id[19];              /* when RK_LANE_SET_SPOT and !spot_null: a valid id */
    int score_null;                /* when RK_LANE_SET_SCORE: 1 = null */
    char score[RK_SCORE_MAX_BYTES + 1]; /* when RK_LANE_SET_SCORE and !score_null */
    int tiebreak_null;             /* when RK_LANE_SET_TIEBREAK: 1 = null */
    char tiebreak[RK_SCORE_MAX_BYTES + 1]; /* when RK_LANE_SET_TIEBREAK and !tiebreak_null:
                                              a time rk_tiebreak_parse accepts */
} rk_lane_patch;

/* Parse a lane PUT body: an object with one or more of "number" (JSON integer,
 * 1..RK_LANE_NUMBER_MAX; the zone's lane_count is checked later against the database),
 * "spot_id" (string id or null), "score" (string of at most 64 code points, or null),
 * "tiebreak" (a time as rk_tiebreak_parse reads it, e.g. "1:02.5", or null).
 * The score's format is not checked here: it depends on the scoring of the heat's WOD,
 * known only once the lane is looked up (rk_score_parse).  The tiebreak's is: it is a
 * time whatever the WOD, and its message is rk_tiebreak_parse's.
 * Empty object, unknown key, wrong type or out-of-range value: -1 with *ERR set.
 * Returns 0 on success. */
int rk_lane_patch_parse(const char *body, size_t len, rk_lane_patch *out, const char **err);

/* The rules common to every body, for the other parsers (rk_resource.c): BODY as
 * exactly one JSON object (a jansson json_t, to json_decref), or NULL with *ERR set
 * to "Invalid body: empty", "... duplicate key", "... not valid JSON" (invalid
 * UTF-8, trailing data, \u0000 included) or "... not a JSON object". */
struct json_t;
struct json_t *rk_body_load_object(const char *body, size_t len, const char **err);

/* Number of UTF-8 code points in S (assumed valid UTF-8). */
size_t rk_utf8_chars(const char *s);

#endif
