/* rk_sse.c: see rk_sse.h. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "rk_json.h"
#include "rk_sse.h"

static const char *skip_ows(const char *p)
{
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    return p;
}

/* The q-value of the parameters P[0..N) (1000 for q=1, 0 for q=0); 1000 when none. */
static int qvalue(const char *p, size_t n)
{
    const char *end = p + n;
    int q = 1000;

    while (p < end) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *s = skip_ows(p);

        if ((*s == 'q' || *s == 'Q') && s + 1 < end && s[1] == '=') {
            int v = 0, scale = 1000, i;

            s += 2;
            if (s < end && (*s == '0' || *s == '1')) {
                v = (*s - '0') * 1000;
                s++;
                if (s < end && *s == '.') {
                    for (i = 0, s++; i < 3 && s < end && isdigit((unsigned char)*s); i++, s++) {
                        scale /= 10;
                        v += (*s - '0') * scale;
                    }
                }
            }
            q = v > 1000 ? 1000 : v;
        }
        p = semi ? semi + 1 : end;
    }
    return q;
}

int rk_sse_accepts(const char *accept)
{
    const char *p = accept;

    while (p && *p) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *s = skip_ows(p), *semi = memchr(s, ';', (size_t)(end - s));
        const char *tend = semi ? semi : end;
        size_t n;

        while (tend > s && (tend[-1] == ' ' || tend[-1] == '\t')) {
            tend--;
        }
        n = (size_t)(tend - s);
        /* named: a wildcard (curl's and most libraries' default "* / *") is not a
         * request for a stream that never ends */
        if (n == 17 && !strncasecmp(s, "text/event-stream", 17)) {
            if (qvalue(semi ? semi + 1 : end, semi ? (size_t)(end - semi - 1) : 0) > 0) {
                return 1;
            }
        }
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

int rk_sse_last_event_id(const char *value, int64_t *id)
{
    const char *p;
    int64_t v = 0;
    int digits = 0;

    if (!value) {
        return 0;
    }
    p = skip_ows(value);
    if (!*p) {
        return 0;
    }
    for (; isdigit((unsigned char)*p); p++) {
        if (v == 0 && *p == '0') {
            continue;   /* a leading zero */
        }
        if (++digits > 18) {
            return -1;
        }
        v = v * 10 + (*p - '0');
    }
    if (*skip_ows(p) || p == skip_ows(value)) {
        return -1;
    }
    *id = v;
    return 1;
}

int rk_prefer_wait(const char *prefer)
{
    const char *p = prefer;

    while (p && *p) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *s = skip_ows(p);

        if ((size_t)(end - s) > 5 && !strncasecmp(s, "wait", 4)) {
            const char *v = skip_ows(s + 4);
            int n = 0, digits = 0;

            if (*v == '=') {
                for (v = skip_ows(v + 1); v < end && isdigit((unsigned char)*v); v++) {
                    if (++digits > 3) {
                        break;
                    }
                    n = n * 10 + (*v - '0');
                }
                v = skip_ows(v);
                if (digits > 0 && digits <= 3 && (v == end || *v == ';') && n >= 1 && n <= 60) {
                    return n;
                }
            }
        }
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

static int json_value(const char *v)
{
    /* one line of data: a line break would end the event's data early */
    json_t *j = v && !strpbrk(v, "\r\n")
                ? json_loads(v, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL) : NULL;
    int ok = j && json_is_object(j);

    json_decref(j);
    return ok;
}

/* The event of a change of another resource than a lane. */
static size_t change_event(char *out, const rk_lane_change *c)
{
    rk_jw w = { out, 0 };
    int with_body = strcmp(c->action, "delete") != 0 && c->lane && json_value(c->lane);

    RK_JW_LIT(&w, "id: ");
    rk_jw_put(&w, c->id, strlen(c->id));
    RK_JW_LIT(&w, "\nevent: change\ndata: {\"action\":");
    rk_jw_str(&w, c->action);
    RK_JW_LIT(&w, ",\"resource\":");
    rk_jw_str(&w, c->resource);
    RK_JW_LIT(&w, ",\"id\":");
    rk_jw_str(&w, c->resource_id);
    RK_JW_LIT(&w, ",\"competition_id\":");
    rk_jw_str(&w, c->competition_id);
    if (with_body) {
        RK_JW_LIT(&w, ",");
        rk_jw_str(&w, c->resource);
        RK_JW_LIT(&w, ":");
        rk_jw_put(&w, c->lane, strlen(c->lane));   /* one line: compact JSON */
    }
    RK_JW_LIT(&w, "}\n\n");
    return w.len;
}

size_t rk_sse_lane_event(char *out, const rk_lane_change *c, const char *key)
{
    rk_jw w = { out, 0 };
    int with_lane;

    if (c->resource && strcmp(c->resource, "lane") != 0) {
        return change_event(out, c);
    }
    with_lane = strcmp(c->action, "delete") != 0 && c->lane && json_value(c->lane);

    RK_JW_LIT(&w, "id: ");
    rk_jw_put(&w, c->id, strlen(c->id));
    RK_JW_LIT(&w, "\nevent: lane\ndata: {\"action\":");
    rk_jw_str(&w, c->action);
    RK_JW_LIT(&w, ",\"competition_id\":");
    rk_jw_str(&w, c->competition_id);
    RK_JW_LIT(&w, ",\"zone_id\":");
    rk_jw_str(&w, c->zone_id);
    RK_JW_LIT(&w, ",\"heat_id\":");
    rk_jw_str(&w, c->heat_id);
    if (with_lane) {
        RK_JW_LIT(&w, ",\"");
        rk_jw_put(&w, key, strlen(key));
        RK_JW_LIT(&w, "\":");
        rk_jw_put(&w, c->lane, strlen(c->lane));   /* one line: compact JSON */
    }
    else {
        RK_JW_LIT(&w, ",\"lane_id\":");
        rk_jw_str(&w, c->lane_id);
    }
    RK_JW_LIT(&w, "}\n\n");
    return w.len;
}

/* 1 when the objects A and B have the same value under KEY (both absent counts). */
static int same_key(json_t *a, json_t *b, const char *key)
{
    json_t *x = json_object_get(a, key), *y = json_object_get(b, key);

    return x && y ? json_equal(x, y) : x == y;
}

static json_t *str_or_null(const char *v)
{
    return v ? json_string(v) : json_null();
}

int rk_sse_published(const rk_lane_change *c, rk_lane_change *out, char **lane)
{
    json_t *after, *before;
    int same, rc = 1;

    *out = *c;
    *lane = NULL;
    if (!c->publication || strcmp(c->publication, "validated") != 0
        || (c->resource && strcmp(c->resource, "lane") != 0)
        || !strcmp(c->action, "delete") || !strcmp(c->action, "validate")
        || !(after = json_loads(c->lane ? c->lane : "", 0, NULL))) {
        return 1;
    }
    if (!json_is_object(after)) {
        json_decref(after);
        return 1;
    }
    if (!strcmp(c->action, "update") && c->before
        && (before = json_loads(c->before, 0, NULL)) != NULL) {
        same = json_is_object(before) && same_key(before, after, "number")
               && same_key(before, after, "spot_id") && same_key(before, after, "spot_name");
        json_decref(before);
        if (same) {
            json_decref(after);
            return 0;
        }
    }
    /* json_object_set keeps a key's place: the lane's fields stay in their order */
    if (json_object_set_new(after, "score", str_or_null(c->published_score)) != 0
        || json_object_set_new(after, "tiebreak", str_or_null(c->published_tiebreak)) != 0
        || json_object_set_new(after, "score_status",
                               c->published_score ? json_string("validated") : json_null()) != 0
        || !(*lane = json_dumps(after, JSON_COMPACT))) {
        rc = -1;
    }
    json_decref(after);
    out->lane = *lane;
    return rc;
}
