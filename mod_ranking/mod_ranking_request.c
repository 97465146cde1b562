/* mod_ranking_request.c: the state of a request on a mount and the headers every
 * answer of the mount carries (see mod_ranking_request.h). */
#include "mod_ranking_request.h"
#include "mod_ranking_config.h"
#include "rk_cors.h"
#include "rk_sse.h"

/* Until core's fixups set r->handler (after the access hooks), read SetHandler from
 * the per-directory configuration: httpd 2.4 keeps it as an expression. */
int rkm_is_ours(request_rec *r)
{
    core_dir_config *cd = ap_get_core_module_config(r->per_dir_config);
    const char *handler = r->handler;

    if (!handler && cd) {
        if (cd->expr_handler) {
            const char *err = NULL;
            handler = ap_expr_str_exec(r, cd->expr_handler, &err);
            if (err) {
                handler = NULL;
            }
        }
        else {
            handler = cd->handler;
        }
    }
    return handler && strcasecmp(handler, RKM_HANDLER) == 0;
}

/* The path after the mount point, or "" when the URI is not under it.  The mount
 * point is RankingBasePath, else the path of the innermost <Location> (core keeps it
 * for every section; ours exists only where one of our directives appears). */
static const char *relative_path(request_rec *r)
{
    core_dir_config *cd = ap_get_core_module_config(r->per_dir_config);
    const char *base = rkm_config_base(r);
    size_t blen;

    if (!base) {
        base = (cd && !cd->r) ? cd->d : NULL;
    }
    if (!base) {
        return r->uri;
    }
    blen = strlen(base);
    while (blen > 0 && base[blen - 1] == '/') {
        blen--;
    }
    if (strncmp(r->uri, base, blen) != 0) {
        return "";
    }
    return r->uri + blen;
}

/* RankingPublic: a GET or HEAD without an Authorization header (one that is there,
 * even empty or of another scheme, is checked as on any mount) of a public read
 * route, or of a path that is no route (404 rather than 401: the routes of a public
 * mount are no secret). */
static int public_read(request_rec *r, const rkm_req *rq)
{
    /* the header last: the table's search is the dearest of the four */
    return (rq->method & (RK_M_GET | RK_M_HEAD)) && rkm_config_public(r)
           && (rq->route.id == RK_ROUTE_NONE || rk_route_is_public_read(rq->route.id))
           && !apr_table_get(r->headers_in, "Authorization");
}

rkm_conn_state *rkm_conn_state_of(conn_rec *c, int create)
{
    rkm_conn_state *st = ap_get_module_config(c->conn_config, &ranking_module);

    if (!st && create) {
        st = apr_pcalloc(c->pool, sizeof(*st));
        ap_set_module_config(c->conn_config, &ranking_module, st);
    }
    return st;
}

/* The connection's last route: the path it was parsed from (under a mount's
 * variants) and what it gave.  rk_route_parse depends on nothing else, so the same
 * path and variants give the same route; a client polling one URL on a keep-alive
 * connection (a big screen, a phone) has it parsed once.  Of a fixed size, in
 * c->pool: a longer path is parsed each time, never kept. */
#define ROUTE_MEMO_PATH 96

typedef struct {
    size_t len;                   /* of PATH */
    unsigned variants;
    char path[ROUTE_MEMO_PATH];
    rk_route route;
} route_memo;

static void route_of(request_rec *r, const char *path, unsigned variants, rk_route *out)
{
    rkm_conn_state *st;
    route_memo *m;
    size_t len = strlen(path);

    if (len == 0 || len >= ROUTE_MEMO_PATH || !(st = rkm_conn_state_of(r->connection, 1))) {
        rk_route_parse(path, variants, out);
        return;
    }
    if ((m = st->route) != NULL && m->len == len && m->variants == variants
        && memcmp(m->path, path, len) == 0) {
        *out = m->route;
        return;
    }
    rk_route_parse(path, variants, out);
    if (!m) {
        m = st->route = apr_palloc(r->connection->pool, sizeof(*m));
    }
    memcpy(m->path, path, len);
    m->len = len;
    m->variants = variants;
    m->route = *out;
}

rkm_req *rkm_request(request_rec *r)
{
    rkm_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    if (!rq) {
        rq = apr_pcalloc(r->pool, sizeof(*rq));
        route_of(r, relative_path(r), rkm_config_variants(r), &rq->route);
        rq->method = rk_method_bit(r->method);
        rq->anonymous = public_read(r, rq);
        ap_set_module_config(r->request_config, &ranking_module, rq);
    }
    return rq;
}

int rkm_request_has_conditions(request_rec *r)
{
    return apr_table_get(r->headers_in, "If-Match") || apr_table_get(r->headers_in, "If-None-Match");
}

int rkm_request_put_deferrable(request_rec *r, const rkm_req *rq)
{
    const rk_route_def *d;

    return rq->method == RK_M_PUT && (d = rk_route_def_of(rq->route.id)) != NULL
           && d->write == RK_WRITE_LANE && !rkm_request_has_conditions(r)
           && !apr_table_get(r->headers_in, "Idempotency-Key");
}

/* A public read's answer (RankingPublic): shared caches may keep it for
 * RankingPublicCache seconds.  It varies with Prefer (RFC 7240: the server applies
 * wait=N), and the answer to a long poll (Prefer: wait=N) is never stored, so that a
 * cache passes every long poll on instead of answering it 304 at once from a copy.
 * Errors say no-store (rkm_request_error_headers). */
static void public_headers(request_rec *r, apr_table_t *t)
{
    apr_table_mergen(t, "Vary", "Prefer");
    if (rk_prefer_wait(apr_table_get(r->headers_in, "Prefer")) > 0) {
        apr_table_setn(t, "Cache-Control", "no-store");
        return;
    }
    apr_table_setn(t, "Cache-Control", rkm_config_public_cache_control(r));
}

/* An error answer to a public read is not kept by any cache (a 404 is cacheable by
 * default: a resource created a moment later would stay hidden behind it). */
void rkm_request_error_headers(request_rec *r, apr_table_t *t)
{
    const rkm_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    if (rq && rq->anonymous) {
        apr_table_setn(t, "Cache-Control", "no-store");
    }
}

static void common_headers(request_rec *r, const rkm_req *rq, apr_table_t *t)
{
    const char *const *origins;
    const char *origin;
    size_t n;

    apr_table_setn(t, "X-Content-Type-Options", "nosniff");
    /* an authenticated answer: browsers revalidate it (ETag), shared caches keep
     * nothing (/connect says no-store itself; an OPTIONS answer holds no data) */
    if (rq->anonymous) {
        public_headers(r, t);
    }
    else if (rq->method != RK_M_OPTIONS && rq->route.id != RK_ROUTE_CONNECT) {
        apr_table_setn(t, "Cache-Control", "private, no-cache");
    }
    if (!(origins = rkm_config_cors_origins(r, &n))) {
        return;   /* CORS off: no header of it */
    }
    /* the answer depends on Origin once CORS is on, listed or not */
    apr_table_mergen(t, "Vary", "Origin");
    origin = apr_table_get(r->headers_in, "Origin");
    if (!rk_cors_origin_listed(origin, origins, n)) {
        return;
    }
    apr_table_setn(t, "Access-Control-Allow-Origin", origin);
    if (rq->method == RK_M_OPTIONS
        && apr_table_get(r->headers_in, "Access-Control-Request-Method")) {
        const char *allow = rk_route_allow(rq->route.id);

        if (allow) {   /* a known route: what it takes (an unknown one is 404) */
            apr_table_setn(t, "Access-Control-Allow-Methods", allow);
            apr_table_setn(t, "Access-Control-Allow-Headers", RK_CORS_ALLOW_HEADERS);
            apr_table_setn(t, "Access-Control-Max-Age", RK_CORS_MAX_AGE);
        }
        return;
    }
    apr_table_setn(t, "Access-Control-Expose-Headers", RK_CORS_EXPOSE_HEADERS);
}

/* In headers_out: httpd's header filter merges a non-empty err_headers_out into it on
 * every answer (a table made and both copied: about 300 instructions a request), so
 * the answers that succeed have nothing there.  An error answer that httpd writes
 * itself starts from err_headers_out alone; rkm_error_headers puts them there again. */
void rkm_common_headers(request_rec *r, rkm_req *rq)
{
    if (rq->headers_done) {
        return;
    }
    rq->headers_done = 1;
    common_headers(r, rq, r->headers_out);
}

void rkm_error_headers(request_rec *r)
{
    const rkm_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    if (rq && rq->headers_done) {
        common_headers(r, rq, r->err_headers_out);   /* nosniff among them */
    }
    else {
        apr_table_setn(r->err_headers_out, "X-Content-Type-Options", "nosniff");
    }
    rkm_request_error_headers(r, r->err_headers_out);
}
