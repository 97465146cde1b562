/* rk_json.c: response bodies.  See rk_json.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rk_json.h"

#define FIELDS(a) a, (int)(sizeof(a) / sizeof(a[0]))

static const rk_field competition_fields[] = {
    { "id", RK_F_ID }, { "name", RK_F_STR }, { "location", RK_F_NSTR },
    { "start_date", RK_F_NSTR }, { "end_date", RK_F_NSTR }, { "timezone", RK_F_NSTR },
    { "status", RK_F_NSTR },
};
static const rk_field wod_fields[] = {
    { "id", RK_F_ID }, { "name", RK_F_STR }, { "description", RK_F_STR },
    { "competition_id", RK_F_ID }, { "position", RK_F_INT }, { "scoring", RK_F_NSTR },
    { "time_cap", RK_F_INT },
};
static const rk_field spot_fields[] = {
    { "id", RK_F_ID }, { "competition_id", RK_F_ID }, { "name", RK_F_STR },
    { "division", RK_F_NSTR }, { "affiliate", RK_F_NSTR }, { "bib", RK_F_INT },
};
static const rk_field zone_fields[] = {
    { "id", RK_F_ID }, { "competition_id", RK_F_ID }, { "name", RK_F_STR },
    { "lane_count", RK_F_INT },
};
static const rk_field heat_fields[] = {
    { "id", RK_F_ID }, { "competition_id", RK_F_ID }, { "zone_id", RK_F_ID },
    { "wod_id", RK_F_ID }, { "number", RK_F_INT }, { "start_time", RK_F_NSTR },
    { "status", RK_F_NSTR },
};
static const rk_field lane_fields[] = {
    { "id", RK_F_ID }, { "heat_id", RK_F_ID }, { "number", RK_F_INT },
    { "spot_id", RK_F_ID }, { "spot_name", RK_F_NSTR }, { "score", RK_F_NSTR },
};

const rk_resource rk_res_competition = { "competition", "competitions", FIELDS(competition_fields) };
const rk_resource rk_res_wod = { "wod", "wods", FIELDS(wod_fields) };
const rk_resource rk_res_spot = { "spot", "spots", FIELDS(spot_fields) };
const rk_resource rk_res_zone = { "zone", "zones", FIELDS(zone_fields) };
const rk_resource rk_res_heat = { "heat", "heats", FIELDS(heat_fields) };
const rk_resource rk_res_voie = { "voie", "voies", FIELDS(lane_fields) };
const rk_resource rk_res_line = { "line", "lines", FIELDS(lane_fields) };

static json_t *field_value(rk_ftype type, const char *v)
{
    char *end;
    long long n;

    switch (type) {
    case RK_F_STR:
        return json_string(v ? v : "");
    case RK_F_NSTR:
    case RK_F_ID:
        return v ? json_string(v) : json_null();
    case RK_F_INT:
        if (!v) {
            return json_null();
        }
        errno = 0;
        n = strtoll(v, &end, 10);
        if (errno || end == v || *end) {
            return json_null();   /* not an integer in the database: shown as unknown */
        }
        return json_integer((json_int_t)n);
    }
    return json_null();
}

json_t *rk_json_row(const rk_resource *res, const char *const *values)
{
    json_t *obj = json_object();
    int i;

    if (!obj) {
        return NULL;
    }
    for (i = 0; i < res->nfields; i++) {
        json_t *v = field_value(res->fields[i].type, values[i]);

        /* json_string refuses invalid UTF-8: such a value is shown as unknown, and a
         * string that must always be one as "" */
        if (!v) {
            v = res->fields[i].type == RK_F_STR ? json_string("") : json_null();
        }
        if (json_object_set_new(obj, res->fields[i].name, v) != 0) {
            json_decref(obj);
            return NULL;
        }
    }
    return obj;
}

json_t *rk_json_success(const char *key, json_t *value)
{
    json_t *obj = json_object();

    if (!obj || json_object_set_new(obj, "status", json_string("success")) != 0) {
        json_decref(obj);
        json_decref(value);
        return NULL;
    }
    if (!key) {
        json_decref(value);
    }
    else if (value && json_object_set_new(obj, key, value) != 0) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

json_t *rk_json_error(const char *message)
{
    return json_pack("{s:s, s:s}", "status", "error", "message", message);
}

char *rk_json_dump(const json_t *json, size_t *len)
{
    char *s = json_dumps(json, JSON_COMPACT);

    if (s && len) {
        *len = strlen(s);
    }
    return s;
}

const char *rk_status_message(int status)
{
    switch (status) {
    case 400: return "Bad request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not found";
    case 405: return "Method not allowed";
    case 409: return "Conflict";
    case 413: return "Request body too large";
    case 415: return "Unsupported media type";
    case 429: return "Too many requests";
    case 503: return "Service unavailable";
    default:  return "Internal server error";
    }
}
