/* rk_resource.h: strict parsing of the bodies of API.md part 3's writes (POST and
 * PATCH of competitions, WODs, spots, zones, heats; POST of lanes).  Pure C +
 * jansson, no httpd header: unit-tested (t/unit/check_resource.c) and fuzzed
 * (t/fuzz/fuzz_resource.c) directly.
 *
 * One table per resource lists its writable fields (rk_resource_def): the JSON key
 * (also the column's name in sql/schema.sql), its type, whether it may be null, its
 * range, values or format, and whether a POST needs it.  The body rules are those
 * of every body (rk_body.h: one JSON object, no duplicate key, valid UTF-8, no
 * trailing data; rk_body_load_object), plus:
 *   - an unknown key, or a read-only one (id, competition_id, heat_id, spot_name,
 *     score_status, a heat's zone_id on POST: the path's), is refused;
 *   - POST: every required field must be given; a field not given is left to the
 *     caller (the defaults of API.md: status, ranking, publication, position...);
 *   - PATCH: at least one key; each key given changes its field; null empties a
 *     nullable field and is refused for the others.
 * Messages are fixed strings (never an echo of the body) that start with
 * "Invalid body: ", name the key and say what is expected, with its unit and an
 * example ("Invalid body: time_cap is seconds: an integer from 1 to 359999, or
 * null, e.g. 720").
 *
 * What the parsers cannot know (the zone's lane_count, a spot of the competition,
 * a bib or number taken, a stored start_date against a new end_date...) is the
 * caller's: see the notes on each field. */
#ifndef RK_RESOURCE_H
#define RK_RESOURCE_H

#include <stddef.h>

typedef enum {
    RK_RES_COMPETITION = 0,
    RK_RES_WOD,
    RK_RES_SPOT,
    RK_RES_ZONE,
    RK_RES_HEAT,
    RK_RES_LANE,
    RK_RES_COUNT
} rk_resource_kind;

/* The fields of each resource, in table order: the index of a field in its
 * resource's table, and its bit in rk_resource_body.set is (1u << index). */
enum {
    RK_COMP_NAME = 0, RK_COMP_LOCATION, RK_COMP_START_DATE, RK_COMP_END_DATE,
    RK_COMP_TIMEZONE, RK_COMP_STATUS, RK_COMP_RANKING, RK_COMP_PUBLICATION,
    RK_COMP_ADVANCE, RK_COMP_NFIELDS
};
enum {
    RK_WOD_NAME = 0, RK_WOD_DESCRIPTION, RK_WOD_POSITION, RK_WOD_SCORING, RK_WOD_TIME_CAP,
    RK_WOD_NFIELDS
};
enum {
    RK_SPOT_NAME = 0, RK_SPOT_DIVISION, RK_SPOT_AFFILIATE, RK_SPOT_BIB, RK_SPOT_NFIELDS
};
enum {
    RK_ZONE_NAME = 0, RK_ZONE_LANE_COUNT, RK_ZONE_NFIELDS
};
enum {
    RK_HEAT_NUMBER = 0, RK_HEAT_WOD_ID, RK_HEAT_ZONE_ID, RK_HEAT_START_TIME, RK_HEAT_STATUS,
    RK_HEAT_NFIELDS
};
enum {
    RK_LANE_NUMBER = 0, RK_LANE_SPOT_ID, RK_LANE_SCORE, RK_LANE_TIEBREAK, RK_LANE_NFIELDS
};
#define RK_RES_MAX_FIELDS 9         /* the most fields of one resource (competition) */
#define RK_RES_BIT(field) (1u << (field))

/* Limits (chosen here; doc/api.md, "Part 3 decisions"). */
#define RK_RES_NAME_MAX_CHARS  200    /* name, location, division, affiliate, timezone... */
#define RK_RES_TEXT_MAX_CHARS  4000   /* a WOD's description */
#define RK_RES_TIME_CAP_MAX    359999 /* seconds: 99:59:59, the longest time a score can say */
#define RK_RES_LANE_NUMBER_MAX 999    /* lane numbers and a zone's lane_count (schema CHECK) */
#define RK_RES_INT_MAX         2147483647LL /* position, bib, heat number, advance */

typedef enum {
    RK_WT_TEXT,      /* a string of min..max Unicode characters (min 1: not blank) */
    RK_WT_INT,       /* a JSON integer from min to max */
    RK_WT_ENUM,      /* one of values[] */
    RK_WT_DATE,      /* "YYYY-MM-DD", a day of the Gregorian calendar, years 1000-9999 */
    RK_WT_INSTANT,   /* "YYYY-MM-DDTHH:MM:SSZ" (UTC), a real day and time */
    RK_WT_TIMEZONE,  /* an IANA time zone name (shape only: "Europe/Paris", "UTC") */
    RK_WT_ID,        /* an id string (rk_id_valid: 1 to 18 digits, no leading zero) */
    RK_WT_TIME       /* a time as a tiebreak (rk_tiebreak_parse) */
} rk_wfield_type;

#define RK_FIELD_NULLABLE 0x1u     /* null is a value */
#define RK_FIELD_REQUIRED 0x2u     /* a POST must give it */
#define RK_FIELD_PATCH_ONLY 0x4u   /* refused in a POST body (a heat's zone_id) */

typedef struct {
    const char *key;               /* JSON key = column name */
    rk_wfield_type type;
    unsigned flags;                /* RK_FIELD_* */
    long long min, max;            /* INT: range; TEXT: characters */
    const char *const *values;     /* ENUM: NULL-terminated */
    const char *bad;               /* the message for a value of the wrong type or form */
    const char *null_msg;          /* the message for null on a non-nullable field */
} rk_wfield;

typedef struct {
    rk_resource_kind kind;
    const char *name;              /* "competition", "wod", ... (singular JSON key) */
    const rk_wfield *fields;
    int nfields;
    const char *const *read_only;  /* shown but not writable: NULL-terminated */
    const char *unknown;           /* message for an unknown key, listing the writable ones */
    const char *missing;           /* message for a POST without a required field */
} rk_resource_def;

/* The table of KIND (NULL when KIND is out of range). */
const rk_resource_def *rk_resource_def_of(rk_resource_kind kind);

/* One field's value, ready to be an SQL parameter: TEXT is NULL for null, else the
 * value as text (strings as given, integers in decimal). */
typedef struct {
    int is_null;                   /* 1: null */
    long long i;                   /* RK_WT_INT: the integer (0 when null) */
    const char *text;              /* NULL when null; points into the body's storage */
    size_t len;                    /* bytes of text */
    char num[24];                  /* RK_WT_INT: the digits TEXT points to */
} rk_value;

typedef struct {
    rk_resource_kind kind;
    unsigned set;                  /* RK_RES_BIT(field) for each key given */
    rk_value v[RK_RES_MAX_FIELDS]; /* by field index; zero where not given */
    void *json;                    /* holds the strings: rk_resource_body_free */
} rk_resource_body;

/* Parse BODY (LEN bytes) of a POST creating a KIND: 0, or -1 with *ERR set and OUT
 * empty (nothing to free).  On 0, call rk_resource_body_free(OUT) when done. */
int rk_resource_post_parse(rk_resource_kind kind, const char *body, size_t len,
                           rk_resource_body *out, const char **err);

/* Parse BODY of a PATCH of a KIND (application/json or application/merge-patch+json:
 * the same rules here).  Same returns as rk_resource_post_parse. */
int rk_resource_patch_parse(rk_resource_kind kind, const char *body, size_t len,
                            rk_resource_body *out, const char **err);

/* Release what a successful parse holds (safe on a zeroed or failed OUT). */
void rk_resource_body_free(rk_resource_body *out);

/* The parameter of field F for a prepared statement: the text, or NULL for null
 * (and for a field not given). */
const char *rk_resource_param(const rk_resource_body *b, int f);

/* A competition's dates: NULL when START (or END) is NULL or START <= END, else the
 * message.  The parsers check it when a body gives both; for a PATCH that gives one,
 * the caller checks it against the stored other. */
const char *rk_resource_dates_check(const char *start, const char *end);

/* The format checks, for the caller and the tests (1 = valid). */
int rk_date_valid(const char *s, size_t len);
int rk_instant_valid(const char *s, size_t len);
int rk_timezone_valid(const char *s, size_t len);

#endif
