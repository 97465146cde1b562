/* rk_router.c: path -> route, table driven.  See rk_router.h. */
#include <string.h>
#include <strings.h>

#include "rk_router.h"

#define READ (RK_M_GET | RK_M_HEAD)
#define READ_ALLOW "GET, HEAD"
/* a list that POST adds to, one resource that PATCH changes and DELETE removes */
#define LIST_POST READ | RK_M_POST, "GET, HEAD, POST"
#define ONE_PATCH READ | RK_M_PATCH | RK_M_DELETE, "GET, HEAD, PATCH, DELETE"
/* write_role, write, kind: no write; the organizer's setup of a resource of KIND */
#define NO_WRITE 0, RK_WRITE_NONE, 0
#define SETUP(kind) RK_ROLE_ORGANIZER, RK_WRITE_SETUP, kind

/* The routes, in the order they are tried (the first whose segments match wins). */
static const rk_route_def routes[] = {
    { RK_ROUTE_CONNECT, 0, "CONNECT", { "connect" },
      RK_M_POST, "POST", 0, 0, RK_ANSWER_NONE, RK_Q_COUNT, NULL, NO_WRITE },
    { RK_ROUTE_COMPETITIONS, 0, "COMPETITIONS", { "competition" },
      LIST_POST, 1, 0, RK_ANSWER_ROWS, RK_Q_COMPETITIONS, &rk_res_competition,
      SETUP(RK_RES_COMPETITION) },
    { RK_ROUTE_COMPETITION, 0, "COMPETITION", { "competition", "#" },
      ONE_PATCH, 0, 0, RK_ANSWER_ROWS, RK_Q_COMPETITION, &rk_res_competition,
      SETUP(RK_RES_COMPETITION) },
    { RK_ROUTE_WODS, 0, "WODS", { "competition", "#", "wod" },
      LIST_POST, 1, 0, RK_ANSWER_ROWS, RK_Q_WODS, &rk_res_wod, SETUP(RK_RES_WOD) },
    { RK_ROUTE_WOD, 0, "WOD", { "competition", "#", "wod", "#" },
      ONE_PATCH, 0, 0, RK_ANSWER_ROWS, RK_Q_WOD, &rk_res_wod, SETUP(RK_RES_WOD) },
    { RK_ROUTE_SPOTS, 0, "SPOTS", { "competition", "#", "spot" },
      LIST_POST, 1, 0, RK_ANSWER_ROWS, RK_Q_SPOTS, &rk_res_spot, SETUP(RK_RES_SPOT) },
    { RK_ROUTE_SPOT, 0, "SPOT", { "competition", "#", "spot", "#" },
      ONE_PATCH, 0, 0, RK_ANSWER_ROWS, RK_Q_SPOT, &rk_res_spot, SETUP(RK_RES_SPOT) },
    { RK_ROUTE_ZONES, RK_VARIANT_A, "ZONES", { "competition", "#", "zone" },
      LIST_POST, 1, 0, RK_ANSWER_ROWS, RK_Q_ZONES, &rk_res_zone, SETUP(RK_RES_ZONE) },
    { RK_ROUTE_ZONE, RK_VARIANT_A, "ZONE", { "competition", "#", "zone", "#" },
      ONE_PATCH, 0, 0, RK_ANSWER_ROWS, RK_Q_ZONE, &rk_res_zone, SETUP(RK_RES_ZONE) },
    { RK_ROUTE_A_HEATS, RK_VARIANT_A, "A_HEATS", { "competition", "#", "zone", "#", "heat" },
      LIST_POST, 1, 0, RK_ANSWER_ROWS, RK_Q_A_HEATS, &rk_res_heat, SETUP(RK_RES_HEAT) },
    { RK_ROUTE_A_HEAT, RK_VARIANT_A, "A_HEAT", { "competition", "#", "zone", "#", "heat", "#" },
      ONE_PATCH, 0, 0, RK_ANSWER_ROWS, RK_Q_A_HEAT, &rk_res_heat, SETUP(RK_RES_HEAT) },
    { RK_ROUTE_A_VOIES, RK_VARIANT_A, "A_VOIES",
      { "competition", "#", "zone", "#", "heat", "#", "voie" },
      LIST_POST, 1, 0, RK_ANSWER_ROWS, RK_Q_A_VOIES, &rk_res_voie, SETUP(RK_RES_LANE) },
    { RK_ROUTE_A_VOIE, RK_VARIANT_A, "A_VOIE",
      { "competition", "#", "zone", "#", "heat", "#", "voie", "#" },
      READ | RK_M_PUT | RK_M_DELETE, "GET, HEAD, PUT, DELETE", 0, 0, RK_ANSWER_ROWS, RK_Q_A_VOIE,
      &rk_res_voie, RK_ROLE_EDITOR, RK_WRITE_LANE, RK_RES_LANE },
    { RK_ROUTE_B_HEATS, RK_VARIANT_B, "B_HEATS", { "competition", "#", "heat" },
      READ, READ_ALLOW, 1, 0, RK_ANSWER_ROWS, RK_Q_B_HEATS, &rk_res_heat, NO_WRITE },
    { RK_ROUTE_B_HEAT, RK_VARIANT_B, "B_HEAT", { "competition", "#", "heat", "#" },
      READ, READ_ALLOW, 0, 0, RK_ANSWER_ROWS, RK_Q_B_HEAT, &rk_res_heat, NO_WRITE },
    { RK_ROUTE_B_LINES, RK_VARIANT_B, "B_LINES", { "competition", "#", "heat", "#", "line" },
      READ, READ_ALLOW, 1, 0, RK_ANSWER_ROWS, RK_Q_B_LINES, &rk_res_line, NO_WRITE },
    { RK_ROUTE_B_LINE, RK_VARIANT_B, "B_LINE",
      { "competition", "#", "heat", "#", "line", "#" },
      READ, READ_ALLOW, 0, 0, RK_ANSWER_ROWS, RK_Q_B_LINE, &rk_res_line, NO_WRITE },
    { RK_ROUTE_LEADERBOARD, 0, "LEADERBOARD", { "competition", "#", "leaderboard" },
      READ, READ_ALLOW, 0, 0, RK_ANSWER_LEADERBOARD, RK_Q_COUNT, NULL, NO_WRITE },
    { RK_ROUTE_WOD_LEADERBOARD, 0, "WOD_LEADERBOARD",
      { "competition", "#", "wod", "#", "leaderboard" },
      READ, READ_ALLOW, 0, 0, RK_ANSWER_LEADERBOARD, RK_Q_COUNT, NULL, NO_WRITE },
    { RK_ROUTE_A_VOIE_HISTORY, RK_VARIANT_A, "A_VOIE_HISTORY",
      { "competition", "#", "zone", "#", "heat", "#", "voie", "#", "history" },
      READ, READ_ALLOW, 1, RK_ROLE_EDITOR, RK_ANSWER_ROWS, RK_Q_A_VOIE_HISTORY, &rk_res_history, NO_WRITE },
    { RK_ROUTE_EVENTS, 0, "EVENTS", { "competition", "#", "events" },
      READ, READ_ALLOW, 0, 0, RK_ANSWER_EVENTS, RK_Q_COUNT, NULL, NO_WRITE },
    { RK_ROUTE_CHANGES, 0, "CHANGES", { "competition", "#", "changes" },
      READ, READ_ALLOW, 1, RK_ROLE_ORGANIZER, RK_ANSWER_ROWS, RK_Q_CHANGES, &rk_res_change, NO_WRITE },
    { RK_ROUTE_A_VOIE_VALIDATE, RK_VARIANT_A, "A_VOIE_VALIDATE",
      { "competition", "#", "zone", "#", "heat", "#", "voie", "#", "validate" },
      RK_M_POST, "POST", 0, 0, RK_ANSWER_NONE, RK_Q_COUNT, NULL,
      RK_ROLE_ORGANIZER, RK_WRITE_VALIDATE_LANE, RK_RES_LANE },
    { RK_ROUTE_A_HEAT_VALIDATE, RK_VARIANT_A, "A_HEAT_VALIDATE",
      { "competition", "#", "zone", "#", "heat", "#", "validate" },
      RK_M_POST, "POST", 0, 0, RK_ANSWER_NONE, RK_Q_COUNT, NULL,
      RK_ROLE_ORGANIZER, RK_WRITE_VALIDATE_HEAT, RK_RES_HEAT },
    { RK_ROUTE_GENERATE_HEATS, 0, "GENERATE_HEATS",
      { "competition", "#", "wod", "#", "generate-heats" },
      RK_M_POST, "POST", 0, 0, RK_ANSWER_NONE, RK_Q_COUNT, NULL,
      RK_ROLE_ORGANIZER, RK_WRITE_GENERATE, RK_RES_HEAT },
};

#define NROUTES (sizeof(routes) / sizeof(routes[0]))
#define MAX_SEGMENTS 9
_Static_assert(MAX_SEGMENTS < sizeof(((rk_route_def *)0)->segments) / sizeof(const char *),
               "a pattern's segments[] holds MAX_SEGMENTS words and a NULL");

const char *rk_target_path(const char *target, const char *line, size_t *len)
{
    const char *p = target;

    if (!p) {
        if (!line || !(p = strchr(line, ' '))) {
            return NULL;
        }
        while (*p == ' ') {
            p++;
        }
    }
    if (strncasecmp(p, "http://", 7) == 0 || strncasecmp(p, "https://", 8) == 0) {
        p = strchr(p, '/') + 2;
        p += strcspn(p, "/ ?#");   /* past the authority */
    }
    if (*p != '/') {
        return NULL;
    }
    *len = strcspn(p, " ?#");
    return p;
}

int rk_id_valid(const char *s, size_t len)
{
    size_t i;

    if (len == 0 || len > RK_ID_MAX_DIGITS || s[0] < '1' || s[0] > '9') {
        return 0;
    }
    for (i = 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
    }
    return 1;
}

typedef struct {
    const char *start;
    size_t len;
} segment;

/* Split "/a/b/c" or "/a/b/c/" into segments; refuse empty segments other than the
 * single optional trailing one.  Returns the count, or -1 when malformed. */
static int split(const char *path, segment *seg)
{
    int n = 0;
    const char *p = path;

    if (*p != '/') {
        return -1;
    }
    p++;
    while (*p) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);

        if (len == 0 || n == MAX_SEGMENTS) {
            return -1;
        }
        seg[n].start = p;
        seg[n].len = len;
        n++;
        if (!end) {
            break;
        }
        p = end + 1;  /* a final '/' leaves p at the NUL: trailing slash accepted */
    }
    return n;
}

rk_route_id rk_route_parse(const char *path, unsigned variants, rk_route *out)
{
    segment seg[MAX_SEGMENTS];
    unsigned char is_id[MAX_SEGMENTS];
    const char *matched[MAX_SEGMENTS] = { NULL };   /* [i]: a word known to be segment i */
    int n, i;
    size_t k;

    out->id = RK_ROUTE_NONE;
    out->nids = 0;
    if (!path || (n = split(path, seg)) <= 0) {
        return RK_ROUTE_NONE;
    }
    /* each segment checked once as an id, not once per pattern that tries it */
    for (i = 0; i < n; i++) {
        is_id[i] = (unsigned char)rk_id_valid(seg[i].start, seg[i].len);
    }
    for (k = 0; k < NROUTES; k++) {
        const rk_route_def *pat = &routes[k];
        int nids = 0;

        /* a pattern of another length, or of a disabled variant: not tried
         * (segments[] has room for MAX_SEGMENTS words and the NULL after them) */
        if (pat->segments[n] || !pat->segments[n - 1]
            || (pat->variant && !(pat->variant & variants))) {
            continue;
        }
        for (i = 0; i < n; i++) {
            const char *word = pat->segments[i];

            if (word[0] == '#') {
                if (!is_id[i]) {
                    break;
                }
            }
            else if (word != matched[i]) {   /* the patterns share their words' literals */
                /* strncmp stops at WORD's end: WORD[len] is then inside it */
                if (word[0] != seg[i].start[0] || strncmp(word, seg[i].start, seg[i].len) != 0
                    || word[seg[i].len] != '\0') {
                    break;
                }
                matched[i] = word;
            }
        }
        if (i == n) {   /* as long as the path (above) */
            for (i = 0; i < n; i++) {
                if (pat->segments[i][0] == '#') {
                    memcpy(out->ids[nids], seg[i].start, seg[i].len);
                    out->ids[nids][seg[i].len] = '\0';
                    nids++;
                }
            }
            out->id = pat->id;
            out->nids = nids;
            return out->id;
        }
    }
    return RK_ROUTE_NONE;
}

void rk_route_args(const rk_route *route, const char **args)
{
    int i;

    for (i = 0; i < route->nids; i++) {
        args[i] = route->ids[i];
    }
}

const rk_route_def *rk_route_def_of(rk_route_id id)
{
    size_t k;

    /* the table is in the enum's order (RK_ROUTE_NONE has no entry): checked, then
     * searched if ever it is not */
    if ((size_t)id >= 1 && (size_t)id <= NROUTES && routes[id - 1].id == id) {
        return &routes[id - 1];
    }
    for (k = 0; k < NROUTES; k++) {
        if (routes[k].id == id) {
            return &routes[k];
        }
    }
    return NULL;
}

unsigned rk_route_methods(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d ? d->methods : 0;
}

const char *rk_route_allow(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d ? d->allow : NULL;
}

int rk_route_role(rk_route_id id, unsigned method)
{
    const rk_route_def *d = rk_route_def_of(id);

    if (!d || method == RK_M_OPTIONS) {
        return RK_ROLE_NONE;
    }
    return method & (RK_M_GET | RK_M_HEAD) ? d->read_role : d->write_role;
}

int rk_role_parse(const char *s)
{
    return !s ? RK_ROLE_NONE
           : !strcmp(s, "reader") ? RK_ROLE_READER
           : !strcmp(s, "editor") ? RK_ROLE_EDITOR
           : !strcmp(s, "organizer") ? RK_ROLE_ORGANIZER : RK_ROLE_NONE;
}

unsigned rk_method_bit(const char *method)
{
    static const struct { const char *name; unsigned bit; } methods[] = {
        { "GET", RK_M_GET }, { "HEAD", RK_M_HEAD }, { "POST", RK_M_POST },
        { "PUT", RK_M_PUT }, { "DELETE", RK_M_DELETE }, { "OPTIONS", RK_M_OPTIONS },
        { "PATCH", RK_M_PATCH },
    };
    size_t i;

    for (i = 0; method && i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (strcmp(method, methods[i].name) == 0) {
            return methods[i].bit;
        }
    }
    return RK_M_OTHER;
}

int rk_route_is_list(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d && d->list;
}

int rk_route_is_public_read(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d && !d->read_role && (d->answer == RK_ANSWER_ROWS || d->answer == RK_ANSWER_LEADERBOARD
                                  || d->answer == RK_ANSWER_EVENTS);
}

const char *rk_route_name(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d ? d->name : "NONE";
}
