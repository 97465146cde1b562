/* rk_json.c: response bodies.  See rk_json.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_json.h"

#define FIELDS(a) a, (int)(sizeof(a) / sizeof(a[0]))

static const rk_field competition_fields[] = {
    { "id", RK_F_ID }, { "name", RK_F_STR }, { "location", RK_F_NSTR },
    { "start_date", RK_F_NSTR }, { "end_date", RK_F_NSTR }, { "timezone", RK_F_NSTR },
    { "status", RK_F_NSTR }, { "ranking", RK_F_NSTR }, { "publication", RK_F_NSTR },
    { "advance", RK_F_INT },
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
    { "tiebreak", RK_F_NSTR }, { "score_status", RK_F_NSTR },
};

/* a lane's change: the lane before and after, as the API showed it (JSON text) */
static const rk_field history_fields[] = {
    { "id", RK_F_ID }, { "at", RK_F_NSTR }, { "user", RK_F_NSTR }, { "action", RK_F_NSTR },
    { "before", RK_F_JSON }, { "after", RK_F_JSON },
};
/* a record of a competition's change log (part 3): which resource (a lane: its id,
 * its heat and zone; a heat: its zone), who, when, what */
static const rk_field change_fields[] = {
    { "id", RK_F_ID }, { "at", RK_F_NSTR }, { "user", RK_F_NSTR }, { "action", RK_F_NSTR },
    { "resource", RK_F_NSTR }, { "resource_id", RK_F_ID }, { "zone_id", RK_F_ID },
    { "heat_id", RK_F_ID }, { "before", RK_F_JSON }, { "after", RK_F_JSON },
};

const rk_resource rk_res_competition = { "competition", "competitions", FIELDS(competition_fields) };
const rk_resource rk_res_wod = { "wod", "wods", FIELDS(wod_fields) };
const rk_resource rk_res_spot = { "spot", "spots", FIELDS(spot_fields) };
const rk_resource rk_res_zone = { "zone", "zones", FIELDS(zone_fields) };
const rk_resource rk_res_heat = { "heat", "heats", FIELDS(heat_fields) };
const rk_resource rk_res_voie = { "voie", "voies", FIELDS(lane_fields) };
const rk_resource rk_res_line = { "line", "lines", FIELDS(lane_fields) };
const rk_resource rk_res_history = { "change", "history", FIELDS(history_fields) };
const rk_resource rk_res_change = { "change", "changes", FIELDS(change_fields) };

/* ---- answers written straight from rows (see rk_json.h) ---- */

/* rk_jw: see rk_json.h */

static void put(rk_jw *w, const char *s, size_t n)
{
    if (w->out) {
        memcpy(w->out + w->len, s, n);
    }
    w->len += n;
}

#define PUT_LIT(w, lit) put((w), "" lit, sizeof(lit) - 1)   /* LIT: a string literal */

/* Length of the valid UTF-8 sequence at S (N bytes left), or 0 when it is not one:
 * the rules of RFC 3629 (no overlong form, no surrogate, at most U+10FFFF), which
 * are jansson's too. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0], cp, min;
    size_t len, i;

    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2, cp = c & 0x1f, min = 0x80;
    }
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3, cp = c & 0x0f, min = 0x800;
    }
    else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, cp = c & 0x07, min = 0x10000;
    }
    else {
        return 0;
    }
    if (n < len) {
        return 0;
    }
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0;
    }
    return len;
}

static int utf8_valid(const char *v)
{
    const unsigned char *s = (const unsigned char *)v;
    size_t n = strlen(v), k;

    while (n > 0) {
        if ((k = utf8_seq(s, n)) == 0) {
            return 0;
        }
        s += k;
        n -= k;
    }
    return 1;
}

/* A JSON string: quote, backslash and control characters escaped, the rest as is. */
static void put_string(rk_jw *w, const char *v)
{
    static const char hex[] = "0123456789ABCDEF";
    const char *run = v;

    PUT_LIT(w, "\"");
    for (; *v; v++) {
        unsigned char c = (unsigned char)*v;
        char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
        size_t n = 6;

        if (c >= 0x20 && c != '"' && c != '\\') {
            continue;
        }
        put(w, run, (size_t)(v - run));
        run = v + 1;
        switch (c) {
        case '"':  esc[1] = '"'; n = 2; break;
        case '\\': esc[1] = '\\'; n = 2; break;
        case '\b': esc[1] = 'b'; n = 2; break;
        case '\f': esc[1] = 'f'; n = 2; break;
        case '\n': esc[1] = 'n'; n = 2; break;
        case '\r': esc[1] = 'r'; n = 2; break;
        case '\t': esc[1] = 't'; n = 2; break;
        }
        put(w, esc, n);
    }
    put(w, run, (size_t)(v - run));
    PUT_LIT(w, "\"");
}

/* 1 when V is exactly one JSON value (jansson's strict reader, any type). */
static int json_valid(const char *v)
{
    json_t *j = json_loads(v, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);

    json_decref(j);
    return j != NULL;
}

static void put_int(rk_jw *w, long long n);

/* V as a JSON string (put_string) when it is valid UTF-8: 1; else 0, nothing written.
 * Most strings of an answer (ids, scores, names) are printable ASCII: they are checked
 * and copied in one scan; the others are validated, then escaped. */
static int put_valid_string(rk_jw *w, const char *v)
{
    const unsigned char *s = (const unsigned char *)v;
    size_t n = 0;

    while (s[n] >= 0x20 && s[n] < 0x80 && s[n] != '"' && s[n] != '\\') {
        n++;
    }
    if (s[n] == '\0') {
        PUT_LIT(w, "\"");
        put(w, v, n);
        PUT_LIT(w, "\"");
        return 1;
    }
    if (!utf8_valid(v)) {
        return 0;
    }
    put_string(w, v);
    return 1;
}

static void put_value(rk_jw *w, rk_ftype type, const char *v)
{
    char *end;
    long long n;

    switch (type) {
    case RK_F_JSON:
        /* the module's own text; anything else (written by hand, or not UTF-8) is
         * shown as unknown */
        if (v && utf8_valid(v) && json_valid(v)) {
            put(w, v, strlen(v));
            return;
        }
        break;
    case RK_F_STR:
        /* not UTF-8 (a damaged database): shown as unknown, "" here */
        if (!v || !put_valid_string(w, v)) {
            PUT_LIT(w, "\"\"");
        }
        return;
    case RK_F_NSTR:
    case RK_F_ID:
        if (v && put_valid_string(w, v)) {
            return;
        }
        break;
    case RK_F_INT:
        if (!v) {
            break;
        }
        errno = 0;
        n = strtoll(v, &end, 10);
        if (errno || end == v || *end) {
            break;   /* not an integer in the database: shown as unknown */
        }
        put_int(w, n);
        return;
    }
    PUT_LIT(w, "null");
}

/* One object of the resource's fields, in order. */
static void put_row(rk_jw *w, const rk_resource *res, const char *const *values)
{
    int i;

    for (i = 0; i < res->nfields; i++) {
        put(w, i ? ",\"" : "{\"", 2);
        put(w, res->fields[i].name, strlen(res->fields[i].name));
        PUT_LIT(w, "\":");
        put_value(w, res->fields[i].type, values[i]);
    }
    PUT_LIT(w, "}");
}

/* ---- the public writer (see rk_json.h): the same bytes as the fields above */

void rk_jw_put(rk_jw *w, const char *s, size_t n)
{
    put(w, s, n);
}

void rk_jw_str(rk_jw *w, const char *v)
{
    put_value(w, RK_F_NSTR, v);
}

void rk_jw_text(rk_jw *w, const char *v)
{
    put_value(w, RK_F_STR, v);
}

void rk_jw_int(rk_jw *w, long long n)
{
    put_int(w, n);
}

/* Digits written backwards into a small buffer: the bodies of leaderboards hold tens
 * of thousands of integers, and snprintf was a quarter of the time writing them. */
static void put_int(rk_jw *w, long long n)
{
    char num[24], *p = num + sizeof(num);
    /* the magnitude as unsigned: -LLONG_MIN does not fit a long long */
    unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;

    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (n < 0) {
        *--p = '-';
    }
    put(w, p, (size_t)(num + sizeof(num) - p));
}

/* At most 6 bytes per byte of a string (\u00XX), its quotes, or "null" */
static size_t value_bound(rk_ftype type, const char *v)
{
    size_t n = v ? strlen(v) : 0;

    switch (type) {
    case RK_F_JSON:
        return n > 4 ? n : 4;
    case RK_F_INT:
        return 20;   /* -9223372036854775808, or null */
    default:
        return 6 * n + 2 > 4 ? 6 * n + 2 : 4;
    }
}

size_t rk_json_object_bound(const rk_resource *res, const char *const *values)
{
    size_t n = 1;   /* the closing brace */
    int i;

    for (i = 0; i < res->nfields; i++) {
        n += 2 + strlen(res->fields[i].name) + 2 + value_bound(res->fields[i].type, values[i]);
    }
    return n;
}

size_t rk_json_object(char *out, const rk_resource *res, const char *const *values)
{
    rk_jw w = { out, 0 };

    put_row(&w, res, values);
    return w.len;
}

size_t rk_json_answer_of(char *out, const rk_resource *res, const char *obj, size_t len)
{
    rk_jw w = { out, 0 };

    PUT_LIT(&w, "{\"status\":\"success\",\"");
    put(&w, res->singular, strlen(res->singular));
    PUT_LIT(&w, "\":");
    put(&w, obj, len);
    PUT_LIT(&w, "}");
    return w.len;
}

size_t rk_json_answer(char *out, const rk_resource *res, int list, const char *const *values,
                      size_t nrows)
{
    const char *name = list ? res->plural : res->singular;
    rk_jw w = { out, 0 };
    size_t i;

    PUT_LIT(&w, "{\"status\":\"success\",\"");
    put(&w, name, strlen(name));
    PUT_LIT(&w, "\":");
    if (list) {
        PUT_LIT(&w, "[");
    }
    for (i = 0; i < nrows; i++) {
        if (i) {
            PUT_LIT(&w, ",");
        }
        put_row(&w, res, values + i * (size_t)res->nfields);
    }
    if (list) {
        PUT_LIT(&w, "]");
    }
    PUT_LIT(&w, "}");
    return w.len;
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
    case 406: return "Not acceptable";
    case 408: return "Request timeout";
    case 409: return "Conflict";
    case 411: return "Length required";
    case 412: return "Precondition failed";
    case 413: return "Request body too large";
    case 414: return "URI too long";
    case 415: return "Unsupported media type";
    case 417: return "Expectation failed";
    case 429: return "Too many requests";
    case 431: return "Request header fields too large";
    case 501: return "Not implemented";
    case 503: return "Service unavailable";
    case 505: return "HTTP version not supported";
    default:  return status >= 400 && status < 500 ? "Request refused" : "Internal server error";
    }
}
