/* rk_router.h: map a request path (relative to the mount point) to a route.
 * Pure C, no httpd header: unit-tested with Check. */
#ifndef RK_ROUTER_H
#define RK_ROUTER_H

#include <stddef.h>

#include "rk_sql.h"
#include "rk_json.h"
#include "rk_resource.h"

#define RK_VARIANT_A 1u
#define RK_VARIANT_B 2u
#define RK_VARIANT_BOTH (RK_VARIANT_A | RK_VARIANT_B)

#define RK_MAX_IDS 4
#define RK_ID_MAX_DIGITS 18

typedef enum {
    RK_ROUTE_NONE = 0,      /* unknown path, malformed id, or disabled variant */
    RK_ROUTE_CONNECT,       /* /connect */
    RK_ROUTE_COMPETITIONS,  /* /competition/ */
    RK_ROUTE_COMPETITION,   /* /competition/{c} */
    RK_ROUTE_WODS,          /* /competition/{c}/wod/ */
    RK_ROUTE_WOD,           /* /competition/{c}/wod/{w} */
    RK_ROUTE_SPOTS,         /* /competition/{c}/spot/ */
    RK_ROUTE_SPOT,          /* /competition/{c}/spot/{s} */
    RK_ROUTE_ZONES,         /* A: /competition/{c}/zone/ */
    RK_ROUTE_ZONE,          /* A: /competition/{c}/zone/{z} */
    RK_ROUTE_A_HEATS,       /* A: /competition/{c}/zone/{z}/heat/ */
    RK_ROUTE_A_HEAT,        /* A: /competition/{c}/zone/{z}/heat/{h} */
    RK_ROUTE_A_VOIES,       /* A: /competition/{c}/zone/{z}/heat/{h}/voie/ */
    RK_ROUTE_A_VOIE,        /* A: /competition/{c}/zone/{z}/heat/{h}/voie/{v} */
    RK_ROUTE_B_HEATS,       /* B: /competition/{c}/heat/ */
    RK_ROUTE_B_HEAT,        /* B: /competition/{c}/heat/{h} */
    RK_ROUTE_B_LINES,       /* B: /competition/{c}/heat/{h}/line/ */
    RK_ROUTE_B_LINE,        /* B: /competition/{c}/heat/{h}/line/{l} */
    RK_ROUTE_LEADERBOARD,   /* /competition/{c}/leaderboard */
    RK_ROUTE_WOD_LEADERBOARD, /* /competition/{c}/wod/{w}/leaderboard */
    RK_ROUTE_A_VOIE_HISTORY,  /* A: .../zone/{z}/heat/{h}/voie/{v}/history (editors) */
    RK_ROUTE_EVENTS,          /* /competition/{c}/events: Server-Sent Events */
    RK_ROUTE_CHANGES,         /* /competition/{c}/changes: the change log (organizers) */
    RK_ROUTE_A_VOIE_VALIDATE, /* A: POST .../zone/{z}/heat/{h}/voie/{v}/validate */
    RK_ROUTE_A_HEAT_VALIDATE, /* A: POST .../zone/{z}/heat/{h}/validate */
    RK_ROUTE_GENERATE_HEATS,  /* POST /competition/{c}/wod/{w}/generate-heats (organizers) */
    RK_ROUTE_COUNT
} rk_route_id;

typedef struct {
    rk_route_id id;
    int nids;                                   /* number of ids in the path */
    char ids[RK_MAX_IDS][RK_ID_MAX_DIGITS + 1]; /* in path order, NUL-terminated */
} rk_route;

/* Where the ids of a path are, by name: the competition is always first; a variant A
 * lane path is competition, zone, heat, lane. */
#define RK_ID_COMPETITION 0
#define RK_ID_A_HEAT 2
#define RK_ID_A_LANE 3

/* Methods, as a bit mask. */
#define RK_M_GET     0x01u
#define RK_M_HEAD    0x02u
#define RK_M_POST    0x04u
#define RK_M_PUT     0x08u
#define RK_M_DELETE  0x10u
#define RK_M_OPTIONS 0x20u
#define RK_M_OTHER   0x40u
#define RK_M_PATCH   0x80u

/* Roles (API.md part 3, "Roles"), in order: each may do what the ones below may.
 * RK_ROLE_NONE: no role needed (a route's read_role), or no token (a public read). */
#define RK_ROLE_NONE      0
#define RK_ROLE_READER    1
#define RK_ROLE_EDITOR    2
#define RK_ROLE_ORGANIZER 3

/* The role named S ("reader", "editor", "organizer"), RK_ROLE_NONE for another
 * string or NULL. */
int rk_role_parse(const char *s);

/* What answers a read of a route. */
typedef enum {
    RK_ANSWER_NONE = 0,     /* not a read route (/connect) */
    RK_ANSWER_ROWS,         /* the rows of its statement, as its resource */
    RK_ANSWER_LEADERBOARD,        /* a leaderboard (rk_leaderboard.h) */
    RK_ANSWER_EVENTS        /* a stream of the competition's lane changes */
} rk_answer;

/* What answers a write (a method other than GET, HEAD, OPTIONS) of a route. */
typedef enum {
    RK_WRITE_NONE = 0,      /* none (/connect: its own answer) */
    RK_WRITE_LANE,          /* a lane's PUT and DELETE (mod_ranking_write.c) */
    RK_WRITE_SETUP,         /* POST on a list, PATCH and DELETE on one resource, of the
                             * route's resource kind (mod_ranking_setup.c) */
    RK_WRITE_VALIDATE_LANE, /* POST .../voie/{v}/validate (mod_ranking_validate.c) */
    RK_WRITE_VALIDATE_HEAT, /* POST .../heat/{h}/validate (mod_ranking_validate.c) */
    RK_WRITE_GENERATE       /* POST .../wod/{w}/generate-heats (mod_ranking_heatgen.c) */
} rk_write;

/* Everything known about a route, in one table (rk_router.c): how its path is
 * written, which variant serves it, its methods, and what answers a read of it. */
typedef struct {
    rk_route_id id;
    unsigned variant;           /* 0: every variant; else RK_VARIANT_A or RK_VARIANT_B */
    const char *name;           /* for logs and cache keys ("A_VOIE") */
    const char *segments[10];   /* literal words, "#" for an id; NULL-terminated */
    unsigned methods;           /* RK_M_* accepted (OPTIONS excluded) */
    const char *allow;          /* the Allow header of those methods */
    int list;                   /* 1: a list {"<plural>":[...]}, 0: one resource */
    int read_role;              /* the role a GET or HEAD needs (RK_ROLE_NONE: any
                                 * client, a public mount's anonymous ones too) */
    rk_answer answer;           /* what answers a read */
    rk_query_id query;          /* RK_ANSWER_ROWS: the statement, with the path's ids */
    const rk_resource *res;     /* RK_ANSWER_ROWS: the resource its rows are */
    int write_role;             /* the role its other methods need (POST, PUT, PATCH,
                                 * DELETE), on the path's competition (a route without
                                 * one: the server-wide role); 0 for /connect and the
                                 * read-only routes */
    rk_write write;             /* what answers its writes */
    rk_resource_kind kind;      /* RK_WRITE_SETUP: the resource written */
} rk_route_def;

/* The table entry of ID (NULL for RK_ROUTE_NONE and out-of-range values). */
const rk_route_def *rk_route_def_of(rk_route_id id);

/* Parse PATH (the part of the URI after the mount point: "" or starting with '/').
 * VARIANTS is a mask of RK_VARIANT_A / RK_VARIANT_B: a route of a disabled variant is
 * RK_ROUTE_NONE.  One trailing slash is optional on every route.  An id is 1 to 18
 * decimal digits without a leading zero.  Never reads past the terminating NUL.
 * Fills OUT (also on failure: id NONE, nids 0) and returns OUT->id. */
rk_route_id rk_route_parse(const char *path, unsigned variants, rk_route *out);

/* The ids of ROUTE as statement arguments, in path order (ARGS: RK_MAX_IDS slots). */
void rk_route_args(const rk_route *route, const char **args);

/* 1 when S[0..LEN) is a valid id (1..18 digits, no leading zero), else 0. */
int rk_id_valid(const char *s, size_t len);

/* The path of a request as the client sent it (not decoded, not normalised), to find
 * its mount when httpd refused it before mapping it: from TARGET, the request target
 * ("/p?q", or the absolute form "http://host/p"), or, when TARGET is NULL, from LINE,
 * the request line ("GET /p HTTP/1.1", possibly cut short).  The path starts at the
 * returned pointer (within TARGET or LINE) and is *LEN bytes long, up to a space, '?',
 * '#' or the end.  NULL when there is no path starting with '/'. */
const char *rk_target_path(const char *target, const char *line, size_t *len);

/* The methods a route accepts (OPTIONS excluded): RK_M_GET|RK_M_HEAD for reads,
 * plus RK_M_PUT|RK_M_DELETE for RK_ROUTE_A_VOIE, RK_M_POST for RK_ROUTE_CONNECT.
 * 0 for RK_ROUTE_NONE. */
unsigned rk_route_methods(rk_route_id id);

/* The Allow header value for a route ("GET, HEAD", "GET, HEAD, PUT, DELETE",
 * "POST"); NULL for RK_ROUTE_NONE. */
const char *rk_route_allow(rk_route_id id);

/* The role that METHOD (an RK_M_* bit) on route ID needs: the route's read_role for
 * GET and HEAD, its write_role for the others (RK_ROLE_NONE for OPTIONS and for
 * RK_ROUTE_NONE). */
int rk_route_role(rk_route_id id, unsigned method);

/* Map an HTTP method name to its RK_M_* bit (RK_M_OTHER when unknown). */
unsigned rk_method_bit(const char *method);

/* 1 when the route is a list (its answer is {"status":"success","<plural>":[...]}). */
int rk_route_is_list(rk_route_id id);

/* 1 when the route is a read that a public mount (RankingPublic) answers without a
 * token: lists, details, leaderboards and the event stream (spectators live: the
 * published view); not /connect nor a lane's history (editors).  0 for
 * RK_ROUTE_NONE. */
int rk_route_is_public_read(rk_route_id id);

/* Human-readable name of a route for logs ("A_VOIE", ...). */
const char *rk_route_name(rk_route_id id);

#endif
