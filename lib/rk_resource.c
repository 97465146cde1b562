/* rk_resource.c: the bodies of API.md part 3's writes.  See rk_resource.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "rk_body.h"
#include "rk_resource.h"
#include "rk_router.h"
#include "rk_score.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))

/* ---- formats ---- */

static int digits(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
    }
    return 1;
}

static int num(const char *s, size_t n)
{
    int v = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int rk_date_valid(const char *s, size_t len)
{
    static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    int y, m, d, leap;

    if (len != 10 || s[4] != '-' || s[7] != '-' || !digits(s, 4) || !digits(s + 5, 2)
        || !digits(s + 8, 2)) {
        return 0;
    }
    y = num(s, 4);
    m = num(s + 5, 2);
    d = num(s + 8, 2);
    if (y < 1000 || m < 1 || m > 12 || d < 1) {
        return 0;
    }
    leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= mdays[m - 1] + (m == 2 && leap);
}

int rk_instant_valid(const char *s, size_t len)
{
    return len == 20 && rk_date_valid(s, 10) && s[10] == 'T' && s[13] == ':' && s[16] == ':'
           && s[19] == 'Z' && digits(s + 11, 2) && digits(s + 14, 2) && digits(s + 17, 2)
           && num(s + 11, 2) <= 23 && num(s + 14, 2) <= 59 && num(s + 17, 2) <= 59;
}

/* An IANA time zone name, by its shape: 1 to 3 parts separated by '/', each 1 to 30
 * characters of letters, digits, '_', '-', '+' and '.', starting with a letter
 * ("Europe/Paris", "America/Argentina/Buenos_Aires", "Etc/GMT+1", "UTC"); 64 bytes
 * at most.  Whether the zone exists is not checked (the server's tz database may be
 * older than the client's). */
int rk_timezone_valid(const char *s, size_t len)
{
    size_t i, seg = 0, parts = 1;

    if (len == 0 || len > 64) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        char c = s[i];
        int letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');

        if (c == '/') {
            if (seg == 0 || ++parts > 3) {
                return 0;
            }
            seg = 0;
            continue;
        }
        if (seg == 0 && !letter) {
            return 0;
        }
        if (!letter && !(c >= '0' && c <= '9') && c != '_' && c != '-' && c != '+' && c != '.') {
            return 0;
        }
        /* no ".." (a path's parent, in a name that is read as a file name by tz code) */
        if (c == '.' && s[i - 1] == '.') {
            return 0;
        }
        if (++seg > 30) {
            return 0;
        }
    }
    return seg > 0;
}

const char *rk_resource_dates_check(const char *start, const char *end)
{
    if (start && end && strcmp(start, end) > 0) {
        return "Invalid body: end_date is before start_date (dates are YYYY-MM-DD, "
               "e.g. 2026-11-20 to 2026-11-22)";
    }
    return NULL;
}

/* ---- the tables ---- */

static const char *const competition_status[] = { "upcoming", "in_progress", "finished", NULL };
static const char *const rankings[] = { "places", "chart100", NULL };
static const char *const publications[] = { "immediate", "validated", NULL };
static const char *const scorings[] = { "time", "reps", "load", "points", NULL };
static const char *const heat_status[] = { "scheduled", "running", "finished", NULL };

#define NAME_BAD(what) \
    "Invalid body: name is the " what ": a string of 1 to 200 characters, not only spaces"
#define NAME_NULL "Invalid body: name cannot be null (a string of 1 to 200 characters)"

static const rk_wfield competition_fields[RK_COMP_NFIELDS] = {
    { "name", RK_WT_TEXT, RK_FIELD_REQUIRED, 1, RK_RES_NAME_MAX_CHARS, NULL,
      NAME_BAD("competition's name, e.g. \"Paris Throwdown 2026\""), NAME_NULL },
    { "location", RK_WT_TEXT, RK_FIELD_NULLABLE, 0, RK_RES_NAME_MAX_CHARS, NULL,
      "Invalid body: location is a string of at most 200 characters, or null, e.g. \"Paris\"",
      NULL },
    { "start_date", RK_WT_DATE, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: start_date is a date YYYY-MM-DD, or null, e.g. 2026-11-20", NULL },
    { "end_date", RK_WT_DATE, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: end_date is a date YYYY-MM-DD, or null, e.g. 2026-11-22", NULL },
    { "timezone", RK_WT_TIMEZONE, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: timezone is an IANA time zone name, or null, e.g. Europe/Paris", NULL },
    { "status", RK_WT_ENUM, 0, 0, 0, competition_status,
      "Invalid body: status is upcoming, in_progress or finished",
      "Invalid body: status cannot be null (upcoming, in_progress or finished)" },
    { "ranking", RK_WT_ENUM, 0, 0, 0, rankings,
      "Invalid body: ranking is places or chart100",
      "Invalid body: ranking cannot be null (places or chart100)" },
    { "publication", RK_WT_ENUM, 0, 0, 0, publications,
      "Invalid body: publication is immediate or validated",
      "Invalid body: publication cannot be null (immediate or validated)" },
    { "advance", RK_WT_INT, RK_FIELD_NULLABLE, 1, RK_RES_INT_MAX, NULL,
      "Invalid body: advance is how many spots of each division go through: an integer "
      "of at least 1, or null for no cut line, e.g. 8", NULL },
};

static const rk_wfield wod_fields[RK_WOD_NFIELDS] = {
    { "name", RK_WT_TEXT, RK_FIELD_REQUIRED, 1, RK_RES_NAME_MAX_CHARS, NULL,
      NAME_BAD("WOD's name, e.g. \"Fran\""), NAME_NULL },
    { "description", RK_WT_TEXT, 0, 0, RK_RES_TEXT_MAX_CHARS, NULL,
      "Invalid body: description is a string of at most 4000 characters (\"\" for none)",
      "Invalid body: description cannot be null (\"\" for none)" },
    { "position", RK_WT_INT, 0, 1, RK_RES_INT_MAX, NULL,
      "Invalid body: position is the WOD's place in the competition's list: an integer "
      "of at least 1, e.g. 2",
      "Invalid body: position cannot be null (an integer of at least 1)" },
    { "scoring", RK_WT_ENUM, RK_FIELD_REQUIRED, 0, 0, scorings,
      "Invalid body: scoring is time, reps, load or points",
      "Invalid body: scoring cannot be null (time, reps, load or points)" },
    { "time_cap", RK_WT_INT, RK_FIELD_NULLABLE, 1, RK_RES_TIME_CAP_MAX, NULL,
      "Invalid body: time_cap is seconds: an integer from 1 to 359999, or null for no "
      "cap, e.g. 720 for 12:00", NULL },
};

static const rk_wfield spot_fields[RK_SPOT_NFIELDS] = {
    { "name", RK_WT_TEXT, RK_FIELD_REQUIRED, 1, RK_RES_NAME_MAX_CHARS, NULL,
      NAME_BAD("team's name, e.g. \"Iron Lions\""), NAME_NULL },
    { "division", RK_WT_TEXT, RK_FIELD_NULLABLE, 1, RK_RES_NAME_MAX_CHARS, NULL,
      "Invalid body: division is a string of 1 to 200 characters, not only spaces, or "
      "null for none, e.g. \"RX Men\"", NULL },
    { "affiliate", RK_WT_TEXT, RK_FIELD_NULLABLE, 0, RK_RES_NAME_MAX_CHARS, NULL,
      "Invalid body: affiliate is a string of at most 200 characters, or null, e.g. "
      "\"CrossFit Lille\"", NULL },
    { "bib", RK_WT_INT, RK_FIELD_NULLABLE, 1, LLONG_MAX, NULL,
      "Invalid body: bib is an integer of at least 1 (a number, not a string), or null, "
      "e.g. 12", NULL },
};

static const rk_wfield zone_fields[RK_ZONE_NFIELDS] = {
    { "name", RK_WT_TEXT, RK_FIELD_REQUIRED, 1, RK_RES_NAME_MAX_CHARS, NULL,
      NAME_BAD("zone's name, e.g. \"Floor A\""), NAME_NULL },
    { "lane_count", RK_WT_INT, RK_FIELD_REQUIRED, 1, RK_RES_LANE_NUMBER_MAX, NULL,
      "Invalid body: lane_count is the number of lanes on that floor: an integer from 1 "
      "to 999, e.g. 10",
      "Invalid body: lane_count cannot be null (an integer from 1 to 999)" },
};

static const rk_wfield heat_fields[RK_HEAT_NFIELDS] = {
    { "number", RK_WT_INT, RK_FIELD_REQUIRED, 1, RK_RES_INT_MAX, NULL,
      "Invalid body: number is the heat's number in its zone: an integer of at least 1, "
      "e.g. 3",
      "Invalid body: number cannot be null (an integer of at least 1)" },
    { "wod_id", RK_WT_ID, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: wod_id is the id of a WOD of the competition, as a string, or null, "
      "e.g. \"16\"", NULL },
    { "zone_id", RK_WT_ID, RK_FIELD_PATCH_ONLY, 0, 0, NULL,
      "Invalid body: zone_id is the id of a zone of the competition, as a string, e.g. \"26\"",
      "Invalid body: zone_id cannot be null (the id of a zone of the competition)" },
    { "start_time", RK_WT_INSTANT, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: start_time is UTC, YYYY-MM-DDTHH:MM:SSZ, or null, e.g. "
      "2026-11-21T09:30:00Z", NULL },
    { "status", RK_WT_ENUM, 0, 0, 0, heat_status,
      "Invalid body: status is scheduled, running or finished",
      "Invalid body: status cannot be null (scheduled, running or finished)" },
};

static const rk_wfield lane_fields[RK_LANE_NFIELDS] = {
    { "number", RK_WT_INT, RK_FIELD_REQUIRED, 1, RK_RES_LANE_NUMBER_MAX, NULL,
      "Invalid body: number is the lane's number: an integer from 1 to the zone's "
      "lane_count (999 at most), e.g. 4",
      "Invalid body: number cannot be null (an integer from 1 to the zone's lane_count)" },
    { "spot_id", RK_WT_ID, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: spot_id is the id of a spot of the competition, as a string, or null "
      "for an empty lane, e.g. \"151\"", NULL },
    { "score", RK_WT_TEXT, RK_FIELD_NULLABLE, 0, 64, NULL,
      "Invalid body: score is a string of at most 64 characters, or null, e.g. \"07:45\"",
      NULL },
    { "tiebreak", RK_WT_TIME, RK_FIELD_NULLABLE, 0, 0, NULL,
      "Invalid body: tiebreak must be a time like 1:02.5", NULL },
};

static const char *const ro_comp[] = { "id", NULL };
static const char *const ro_child[] = { "id", "competition_id", NULL };
static const char *const ro_lane[] = { "id", "heat_id", "spot_name", "score_status", NULL };

static const rk_resource_def defs[RK_RES_COUNT] = {
    { RK_RES_COMPETITION, "competition", competition_fields, RK_COMP_NFIELDS, ro_comp,
      "Invalid body: unknown key; a competition's writable keys are name, location, "
      "start_date, end_date, timezone, status, ranking, publication, advance",
      "Invalid body: a competition needs a name" },
    { RK_RES_WOD, "wod", wod_fields, RK_WOD_NFIELDS, ro_child,
      "Invalid body: unknown key; a WOD's writable keys are name, description, position, "
      "scoring, time_cap",
      "Invalid body: a WOD needs a name and a scoring (time, reps, load or points)" },
    { RK_RES_SPOT, "spot", spot_fields, RK_SPOT_NFIELDS, ro_child,
      "Invalid body: unknown key; a spot's writable keys are name, division, affiliate, bib",
      "Invalid body: a spot needs a name" },
    { RK_RES_ZONE, "zone", zone_fields, RK_ZONE_NFIELDS, ro_child,
      "Invalid body: unknown key; a zone's writable keys are name, lane_count",
      "Invalid body: a zone needs a name and a lane_count (an integer from 1 to 999)" },
    { RK_RES_HEAT, "heat", heat_fields, RK_HEAT_NFIELDS, ro_child,
      "Invalid body: unknown key; a heat's writable keys are number, wod_id, zone_id "
      "(PATCH only), start_time, status",
      "Invalid body: a heat needs a number (an integer of at least 1)" },
    { RK_RES_LANE, "voie", lane_fields, RK_LANE_NFIELDS, ro_lane,
      "Invalid body: unknown key; a lane's writable keys are number, spot_id, score, tiebreak",
      "Invalid body: a lane needs a number (an integer from 1 to the zone's lane_count)" },
};

/* The message for a read-only KEY, NULL when KEY is not one of the resource's. */
static const char *read_only(const rk_resource_def *def, const char *key)
{
    static const struct {
        const char *key, *msg;
    } msgs[] = {
        { "id", "Invalid body: id is read-only (the server gives it; it is in the URL)" },
        { "competition_id", "Invalid body: competition_id is read-only (the competition "
                            "of the URL)" },
        { "heat_id", "Invalid body: heat_id is read-only (the heat of the URL)" },
        { "spot_name", "Invalid body: spot_name is read-only (the spot's name: set spot_id)" },
        { "score_status", "Invalid body: score_status is read-only (a score is validated "
                          "by POST .../validate)" },
    };
    size_t i, j;

    for (i = 0; def->read_only[i]; i++) {
        if (strcmp(key, def->read_only[i]) == 0) {
            for (j = 0; j < N_(msgs); j++) {
                if (strcmp(key, msgs[j].key) == 0) {
                    return msgs[j].msg;
                }
            }
        }
    }
    return NULL;
}

const rk_resource_def *rk_resource_def_of(rk_resource_kind kind)
{
    return (int)kind >= 0 && kind < RK_RES_COUNT ? &defs[kind] : NULL;
}

/* ---- values ---- */

static int blank(const char *s)
{
    for (; *s; s++) {
        if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
            return 0;
        }
    }
    return 1;
}

/* Read V as field F into OUT: NULL, or the message. */
static const char *value(const rk_wfield *f, json_t *v, rk_value *out)
{
    const char *s;
    size_t len;

    if (json_is_null(v)) {
        if (!(f->flags & RK_FIELD_NULLABLE)) {
            return f->null_msg;
        }
        out->is_null = 1;
        return NULL;
    }
    if (f->type == RK_WT_INT) {
        json_int_t n;

        if (!json_is_integer(v)) {
            return f->bad;
        }
        n = json_integer_value(v);
        if (n < f->min || n > f->max) {
            return f->bad;
        }
        out->i = (long long)n;
        snprintf(out->num, sizeof(out->num), "%lld", out->i);
        out->text = out->num;
        out->len = strlen(out->num);
        return NULL;
    }
    if (!json_is_string(v)) {
        return f->bad;
    }
    /* jansson refuses \u0000 (no JSON_ALLOW_NUL): the C string is the whole value */
    s = json_string_value(v);
    len = json_string_length(v);
    switch (f->type) {
    case RK_WT_TEXT: {
        size_t chars;

        if (len > 4 * (size_t)f->max) {
            return f->bad;
        }
        chars = rk_utf8_chars(s);
        if ((long long)chars < f->min || (long long)chars > f->max || (f->min > 0 && blank(s))) {
            return f->bad;
        }
        break;
    }
    case RK_WT_ENUM: {
        const char *const *e;

        for (e = f->values; *e && strcmp(*e, s) != 0; e++)
            ;
        if (!*e) {
            return f->bad;
        }
        break;
    }
    case RK_WT_DATE:
        if (!rk_date_valid(s, len)) {
            return f->bad;
        }
        break;
    case RK_WT_INSTANT:
        if (!rk_instant_valid(s, len)) {
            return f->bad;
        }
        break;
    case RK_WT_TIMEZONE:
        if (!rk_timezone_valid(s, len)) {
            return f->bad;
        }
        break;
    case RK_WT_ID:
        if (!rk_id_valid(s, len)) {
            return f->bad;
        }
        break;
    case RK_WT_TIME: {
        rk_score tb;
        const char *err = NULL;

        if (rk_tiebreak_parse(s, &tb, &err) != 0) {
            return err ? err : f->bad;
        }
        break;
    }
    case RK_WT_INT:
        break;
    }
    out->text = s;
    out->len = len;
    return NULL;
}

static int parse(rk_resource_kind kind, int post, const char *body, size_t len,
                 rk_resource_body *out, const char **err)
{
    const rk_resource_def *def = rk_resource_def_of(kind);
    const char *problem = NULL, *key;
    json_t *root, *v;
    int f;

    memset(out, 0, sizeof(*out));
    out->kind = kind;
    if (!def) {
        *err = "Invalid body: no such resource";
        return -1;
    }
    if (!(root = rk_body_load_object(body, len, err))) {
        memset(out, 0, sizeof(*out));
        return -1;
    }
    if (!post && json_object_size(root) == 0) {
        problem = "Invalid body: no field to change";
    }
    json_object_foreach(root, key, v) {
        if (problem) {
            break;
        }
        for (f = 0; f < def->nfields && strcmp(key, def->fields[f].key) != 0; f++)
            ;
        if (f == def->nfields) {
            problem = read_only(def, key);
            if (!problem) {
                problem = def->unknown;
            }
        }
        else if (post && (def->fields[f].flags & RK_FIELD_PATCH_ONLY)) {
            problem = "Invalid body: zone_id is the URL's on POST (the heat is made in the "
                      "zone of .../zone/{z}/heat/); PATCH moves a heat to another zone";
        }
        else if (!(problem = value(&def->fields[f], v, &out->v[f]))) {
            out->set |= RK_RES_BIT(f);
        }
    }
    for (f = 0; post && !problem && f < def->nfields; f++) {
        if ((def->fields[f].flags & RK_FIELD_REQUIRED) && !(out->set & RK_RES_BIT(f))) {
            problem = def->missing;
        }
    }
    if (!problem && kind == RK_RES_COMPETITION) {
        problem = rk_resource_dates_check(out->v[RK_COMP_START_DATE].text,
                                          out->v[RK_COMP_END_DATE].text);
    }
    if (problem) {
        json_decref(root);
        memset(out, 0, sizeof(*out));
        *err = problem;
        return -1;
    }
    out->json = root;
    return 0;
}

int rk_resource_post_parse(rk_resource_kind kind, const char *body, size_t len,
                           rk_resource_body *out, const char **err)
{
    return parse(kind, 1, body, len, out, err);
}

int rk_resource_patch_parse(rk_resource_kind kind, const char *body, size_t len,
                            rk_resource_body *out, const char **err)
{
    return parse(kind, 0, body, len, out, err);
}

void rk_resource_body_free(rk_resource_body *out)
{
    if (out->json) {
        json_decref((json_t *)out->json);
    }
    memset(out, 0, sizeof(*out));
}

const char *rk_resource_param(const rk_resource_body *b, int f)
{
    const rk_resource_def *def = rk_resource_def_of(b->kind);

    if (!def || f < 0 || f >= def->nfields || !(b->set & RK_RES_BIT(f)) || b->v[f].is_null) {
        return NULL;
    }
    return def->fields[f].type == RK_WT_INT ? b->v[f].num : b->v[f].text;
}
