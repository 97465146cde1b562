/* fuzz_router.c: libFuzzer target for rk_route_parse (lib/rk_router.c).
 *
 * The input, up to its first NUL, is the path.  It is parsed under every variant mask
 * (0, A, B, A|B) and each result is checked against:
 *   - the invariants of rk_router.h: id in [NONE, COUNT), nids equal to the number of
 *     '#' segments of the route (0 for NONE), every id 1..18 digits passing
 *     rk_id_valid, rk_route_allow / rk_route_methods / rk_route_name consistent with
 *     the id (non-NULL / non-zero / not "NONE" iff the id is not NONE);
 *   - variant masks: a zone or A_* route only with A enabled, a B_* route only with B
 *     enabled, common routes the same under every mask, A|B = whichever of A or B
 *     matched;
 *   - an independent reference matcher (below) working character by character on
 *     route templates: same id and same ids for every mask;
 *   - reconstruction: the canonical path rebuilt from the id and ids equals the input
 *     with at most one trailing slash removed.
 * The path lives in a heap buffer of exactly strlen+1 bytes, so ASan catches any
 * read past the terminating NUL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_router.h"

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "fuzz_router: invariant failed: %s (line %d)\n", #cond, __LINE__); \
    __builtin_trap(); } } while (0)

/* Reference table, written independently of rk_router.c: '#' is an id. */
static const struct {
    rk_route_id id;
    unsigned variant;          /* 0 = every variant */
    const char *tmpl;
} ref[] = {
    { RK_ROUTE_CONNECT,      0,            "/connect" },
    { RK_ROUTE_COMPETITIONS, 0,            "/competition" },
    { RK_ROUTE_COMPETITION,  0,            "/competition/#" },
    { RK_ROUTE_WODS,         0,            "/competition/#/wod" },
    { RK_ROUTE_WOD,          0,            "/competition/#/wod/#" },
    { RK_ROUTE_SPOTS,        0,            "/competition/#/spot" },
    { RK_ROUTE_SPOT,         0,            "/competition/#/spot/#" },
    { RK_ROUTE_ZONES,        RK_VARIANT_A, "/competition/#/zone" },
    { RK_ROUTE_ZONE,         RK_VARIANT_A, "/competition/#/zone/#" },
    { RK_ROUTE_A_HEATS,      RK_VARIANT_A, "/competition/#/zone/#/heat" },
    { RK_ROUTE_A_HEAT,       RK_VARIANT_A, "/competition/#/zone/#/heat/#" },
    { RK_ROUTE_A_VOIES,      RK_VARIANT_A, "/competition/#/zone/#/heat/#/voie" },
    { RK_ROUTE_A_VOIE,       RK_VARIANT_A, "/competition/#/zone/#/heat/#/voie/#" },
    { RK_ROUTE_B_HEATS,      RK_VARIANT_B, "/competition/#/heat" },
    { RK_ROUTE_B_HEAT,       RK_VARIANT_B, "/competition/#/heat/#" },
    { RK_ROUTE_B_LINES,      RK_VARIANT_B, "/competition/#/heat/#/line" },
    { RK_ROUTE_B_LINE,       RK_VARIANT_B, "/competition/#/heat/#/line/#" },
    { RK_ROUTE_LEADERBOARD,  0,            "/competition/#/leaderboard" },
    { RK_ROUTE_WOD_LEADERBOARD, 0,         "/competition/#/wod/#/leaderboard" },
    { RK_ROUTE_A_VOIE_HISTORY, RK_VARIANT_A, "/competition/#/zone/#/heat/#/voie/#/history" },
    { RK_ROUTE_EVENTS,       0,            "/competition/#/events" },
    { RK_ROUTE_CHANGES,      0,            "/competition/#/changes" },
};
#define NREF (sizeof(ref) / sizeof(ref[0]))

static int ref_index(rk_route_id id)
{
    size_t k;

    for (k = 0; k < NREF; k++) {
        if (ref[k].id == id) {
            return (int)k;
        }
    }
    return -1;
}

static int count_ids(const char *tmpl)
{
    int n = 0;

    for (; *tmpl; tmpl++) {
        n += *tmpl == '#';
    }
    return n;
}

/* Match PATH against TMPL: literal characters must be equal, '#' takes 1..18 digits
 * without a leading zero up to the next '/' or the end; then at most one '/'.
 * Fills IDS and returns 1 on a match. */
static int ref_match(const char *tmpl, const char *path, char ids[RK_MAX_IDS][RK_ID_MAX_DIGITS + 1])
{
    int nids = 0;

    while (*tmpl) {
        if (*tmpl == '#') {
            size_t n = 0;

            if (path[0] < '1' || path[0] > '9') {
                return 0;
            }
            while (path[n] >= '0' && path[n] <= '9') {
                n++;
            }
            if (n > RK_ID_MAX_DIGITS || (path[n] != '/' && path[n] != '\0')) {
                return 0;
            }
            memcpy(ids[nids], path, n);
            ids[nids][n] = '\0';
            nids++;
            path += n;
            tmpl++;
        }
        else if (*tmpl++ != *path++) {
            return 0;
        }
    }
    if (*path == '/') {
        path++;
    }
    return *path == '\0';
}

static rk_route_id ref_parse(const char *path, unsigned variants,
                             char ids[RK_MAX_IDS][RK_ID_MAX_DIGITS + 1])
{
    size_t k;

    for (k = 0; k < NREF; k++) {
        if (ref[k].variant && !(ref[k].variant & variants)) {
            continue;
        }
        if (ref_match(ref[k].tmpl, path, ids)) {
            return ref[k].id;
        }
    }
    return RK_ROUTE_NONE;
}

static void check_route(const char *path, size_t plen, unsigned mask, const rk_route *r)
{
    char ids[RK_MAX_IDS][RK_ID_MAX_DIGITS + 1];
    rk_route_id want = ref_parse(path, mask, ids);
    int i, k;

    CHECK((int)r->id >= (int)RK_ROUTE_NONE && (int)r->id < (int)RK_ROUTE_COUNT);
    CHECK(r->nids >= 0 && r->nids <= RK_MAX_IDS);
    CHECK((rk_route_allow(r->id) != NULL) == (r->id != RK_ROUTE_NONE));
    CHECK((rk_route_methods(r->id) != 0) == (r->id != RK_ROUTE_NONE));
    CHECK((strcmp(rk_route_name(r->id), "NONE") != 0) == (r->id != RK_ROUTE_NONE));
    CHECK(r->id == want);

    if (r->id == RK_ROUTE_NONE) {
        CHECK(r->nids == 0);
        return;
    }
    k = ref_index(r->id);
    CHECK(k >= 0);
    CHECK(r->nids == count_ids(ref[k].tmpl));
    /* lists: every route whose last segment is a word naming a collection (not
     * /connect, a leaderboard or the event stream) */
    {
        const char *last = strrchr(ref[k].tmpl, '/') + 1;

        CHECK(rk_route_is_list(r->id)
              == (strcmp(last, "#") != 0 && strcmp(last, "connect") != 0
                  && strcmp(last, "leaderboard") != 0 && strcmp(last, "events") != 0));
    }
    /* the Allow value lists exactly the methods of rk_route_methods */
    {
        char allow[64], *save = NULL, *w;
        unsigned bits = 0;

        CHECK(strlen(rk_route_allow(r->id)) < sizeof(allow));
        strcpy(allow, rk_route_allow(r->id));
        for (w = strtok_r(allow, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
            CHECK(rk_method_bit(w) != RK_M_OTHER && rk_method_bit(w) != RK_M_OPTIONS);
            bits |= rk_method_bit(w);
        }
        CHECK(bits == rk_route_methods(r->id));
    }
    /* a route of a disabled variant is NONE */
    CHECK(ref[k].variant == 0 || (ref[k].variant & mask));
    for (i = 0; i < r->nids; i++) {
        size_t n = strnlen(r->ids[i], sizeof(r->ids[i]));

        CHECK(n < sizeof(r->ids[i]));        /* NUL-terminated in its buffer */
        CHECK(rk_id_valid(r->ids[i], n));
        CHECK(strcmp(r->ids[i], ids[i]) == 0);
    }
    /* rebuild the canonical path: input = canonical or canonical + "/" */
    {
        char canon[256];
        size_t o = 0;
        const char *t;

        i = 0;
        for (t = ref[k].tmpl; *t; t++) {
            if (*t == '#') {
                size_t n = strlen(r->ids[i]);

                memcpy(canon + o, r->ids[i++], n);
                o += n;
            }
            else {
                canon[o++] = *t;
            }
        }
        canon[o] = '\0';
        CHECK(plen == o || (plen == o + 1 && path[o] == '/'));
        CHECK(memcmp(path, canon, o) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned masks[] = { 0, RK_VARIANT_A, RK_VARIANT_B, RK_VARIANT_BOTH };
    rk_route res[4];
    size_t plen;
    char *path;
    int m;

    /* the path: the input up to its first NUL, in a buffer of exactly plen + 1 bytes */
    plen = strnlen((const char *)data, size);
    path = malloc(plen + 1);
    if (!path) {
        return 0;
    }
    memcpy(path, data, plen);
    path[plen] = '\0';

    for (m = 0; m < 4; m++) {
        rk_route_id id;

        memset(&res[m], 0xA5, sizeof(res[m]));   /* the parser must fill id and nids */
        id = rk_route_parse(path, masks[m], &res[m]);
        CHECK(id == res[m].id);
        check_route(path, plen, masks[m], &res[m]);
    }
    /* common routes do not depend on the mask; A|B is whichever variant matched */
    if (res[0].id != RK_ROUTE_NONE) {
        for (m = 1; m < 4; m++) {
            CHECK(res[m].id == res[0].id);
        }
    }
    CHECK(res[1].id == RK_ROUTE_NONE || res[2].id == RK_ROUTE_NONE
          || res[1].id == res[2].id);
    CHECK(res[3].id == (res[1].id != RK_ROUTE_NONE ? res[1].id : res[2].id));

    /* rk_id_valid on the raw bytes (no NUL needed: it is given a length) */
    {
        int want = size >= 1 && size <= RK_ID_MAX_DIGITS && data[0] >= '1' && data[0] <= '9';
        size_t i;

        for (i = 1; want && i < size; i++) {
            want = data[i] >= '0' && data[i] <= '9';
        }
        if (size <= 64) {
            char *copy = malloc(size ? size : 1);

            if (copy) {
                memcpy(copy, data, size);
                CHECK(rk_id_valid(copy, size) == want);
                free(copy);
            }
        }
    }
    free(path);
    return 0;
}
