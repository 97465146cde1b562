/* mod_ranking_http.c: request state, answers, request bodies. */
#include "mod_ranking_http.h"
#include "mod_ranking_status.h"
#include "mod_ranking_config.h"
#include "rk_cache.h"
#include "rk_cors.h"
#include "rk_json.h"
#include "rk_live.h"

/* ---- request state ---- */

/* Until core's fixups set r->handler (after the access hooks), read SetHandler from
 * the per-directory configuration: httpd 2.4 keeps it as an expression. */
int rk_is_ours(request_rec *r)
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
    return handler && strcasecmp(handler, RK_HANDLER) == 0;
}

/* The path after the mount point, or "" when the URI is not under it.  The mount
 * point is RankingBasePath, else the path of the innermost <Location> (core keeps it
 * for every section; ours exists only where one of our directives appears). */
static const char *relative_path(request_rec *r)
{
    core_dir_config *cd = ap_get_core_module_config(r->per_dir_config);
    const char *base = rk_config_base(r);
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
static int public_read(request_rec *r, const rk_req *rq)
{
    return (rq->method & (RK_M_GET | RK_M_HEAD))
           && (rq->route.id == RK_ROUTE_NONE || rk_route_is_public_read(rq->route.id))
           && !apr_table_get(r->headers_in, "Authorization")
           && rk_config_public(r);
}

rk_req *rk_request(request_rec *r)
{
    rk_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    if (!rq) {
        rq = apr_pcalloc(r->pool, sizeof(*rq));
        rk_route_parse(relative_path(r), rk_config_variants(r), &rq->route);
        rq->method = rk_method_bit(r->method);
        rq->anonymous = public_read(r, rq);
        ap_set_module_config(r->request_config, &ranking_module, rq);
    }
    return rq;
}

/* A public read's answer (RankingPublic): shared caches may keep it for
 * RankingPublicCache seconds.  It varies with Prefer (RFC 7240: the server applies
 * wait=N), and the answer to a long poll (Prefer: wait=N) is never stored, so that a
 * cache passes every long poll on instead of answering it 304 at once from a copy.
 * Errors say no-store (public_error). */
static void public_headers(request_rec *r)
{
    apr_int64_t maxage, stale;

    apr_table_mergen(r->err_headers_out, "Vary", "Prefer");
    if (rk_prefer_wait(apr_table_get(r->headers_in, "Prefer")) > 0) {
        apr_table_setn(r->err_headers_out, "Cache-Control", "no-store");
        return;
    }
    rk_config_public_cache(r, &maxage, &stale);
    apr_table_setn(r->err_headers_out, "Cache-Control",
                   stale ? apr_psprintf(r->pool, "public, max-age=%" APR_INT64_T_FMT
                                        ", stale-while-revalidate=%" APR_INT64_T_FMT,
                                        maxage, stale)
                         : apr_psprintf(r->pool, "public, max-age=%" APR_INT64_T_FMT, maxage));
}

/* An error answer to a public read is not kept by any cache (a 404 is cacheable by
 * default: a resource created a moment later would stay hidden behind it). */
static void public_error(request_rec *r)
{
    const rk_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    if (rq && rq->anonymous) {
        apr_table_setn(r->err_headers_out, "Cache-Control", "no-store");
    }
}

void rk_common_headers(request_rec *r, rk_req *rq)
{
    const char *const *origins;
    const char *origin;
    size_t n;

    if (rq->headers_done) {
        return;
    }
    rq->headers_done = 1;
    apr_table_setn(r->err_headers_out, "X-Content-Type-Options", "nosniff");
    /* an authenticated answer: browsers revalidate it (ETag), shared caches keep
     * nothing (/connect says no-store itself; an OPTIONS answer holds no data) */
    if (rq->anonymous) {
        public_headers(r);
    }
    else if (rq->method != RK_M_OPTIONS && rq->route.id != RK_ROUTE_CONNECT) {
        apr_table_setn(r->err_headers_out, "Cache-Control", "private, no-cache");
    }
    if (!(origins = rk_config_cors_origins(r, &n))) {
        return;   /* CORS off: no header of it */
    }
    /* the answer depends on Origin once CORS is on, listed or not */
    apr_table_mergen(r->err_headers_out, "Vary", "Origin");
    origin = apr_table_get(r->headers_in, "Origin");
    if (!rk_cors_origin_listed(origin, origins, n)) {
        return;
    }
    apr_table_setn(r->err_headers_out, "Access-Control-Allow-Origin", origin);
    if (rq->method == RK_M_OPTIONS
        && apr_table_get(r->headers_in, "Access-Control-Request-Method")) {
        const char *allow = rk_route_allow(rq->route.id);

        if (allow) {   /* a known route: what it takes (an unknown one is 404) */
            apr_table_setn(r->err_headers_out, "Access-Control-Allow-Methods", allow);
            apr_table_setn(r->err_headers_out, "Access-Control-Allow-Headers",
                           RK_CORS_ALLOW_HEADERS);
            apr_table_setn(r->err_headers_out, "Access-Control-Max-Age", RK_CORS_MAX_AGE);
        }
        return;
    }
    apr_table_setn(r->err_headers_out, "Access-Control-Expose-Headers", RK_CORS_EXPOSE_HEADERS);
}

/* ---- answers ---- */

static int send_body(request_rec *r, int status, const char *body, size_t len)
{
    r->status = status;
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)len);
    if (!r->header_only) {
        ap_rwrite(body, (int)len, r);
    }
    return OK;
}

int rk_send_json(request_rec *r, int status, json_t *json)
{
    size_t len;
    char *text = json ? rk_json_dump(json, &len) : NULL;
    int rv;

    json_decref(json);
    if (!text) {
        static const char oom[] = "{\"status\":\"error\",\"message\":\"Internal server error\"}";
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "out of memory building a JSON answer");
        return send_body(r, HTTP_INTERNAL_SERVER_ERROR, oom, sizeof(oom) - 1);
    }
    rv = send_body(r, status, text, len);
    free(text);
    return rv;
}

int rk_send_error(request_rec *r, int status, const char *message)
{
    public_error(r);
    if (status == HTTP_SERVICE_UNAVAILABLE && !apr_table_get(r->headers_out, "Retry-After")) {
        apr_table_setn(r->headers_out, "Retry-After", "1");
    }
    return rk_send_json(r, status, rk_json_error(message ? message : rk_status_message(status)));
}

int rk_send_status(request_rec *r, int status)
{
    return rk_send_error(r, status, NULL);
}

static void release_value(void *value)
{
    rk_cache_release(value);
}

int rk_send_value(request_rec *r, const void *v, size_t len)
{
    apr_bucket_brigade *bb;

    r->status = HTTP_OK;
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)len);
    if (r->header_only) {
        rk_cache_release(v);
        return OK;
    }
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    /* the bucket holds the reference until it is destroyed */
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_heap_create(v, len, release_value, bb->bucket_alloc));
    return ap_pass_brigade(r->output_filters, bb) == APR_SUCCESS ? OK : AP_FILTER_ERROR;
}

/* ---- the answers httpd makes itself ---- */

/* httpd answers some requests on a mount itself, with an HTML page: a malformed
 * request line or header, one too long (400, 414), too many headers (400), a time-out
 * while reading the headers (408), an Expect other than 100-continue (417), %00 or
 * an invalid %-escape in the path (404, 400), a malformed chunked body or one over
 * LimitRequestBody (400, 413), and any hook returning an error status.  Each goes
 * through ap_send_error_response, which runs the insert_error_filter hook first:
 * there the request is checked against the mounts and, when on one, this filter is
 * added; it replaces the page by the JSON error of the status and sets its
 * Content-Type (ap_send_error_response sets text/html after the hook) and nosniff. */
static ap_filter_rec_t *error_filter_handle;

static apr_status_t error_filter(ap_filter_t *f, apr_bucket_brigade *bb)
{
    request_rec *r = f->r;
    apr_bucket *b, *next;
    int eos = 0;

    for (b = APR_BRIGADE_FIRST(bb); b != APR_BRIGADE_SENTINEL(bb); b = next) {
        next = APR_BUCKET_NEXT(b);
        if (APR_BUCKET_IS_EOS(b)) {
            eos = 1;
        }
        if (!APR_BUCKET_IS_METADATA(b)) {
            apr_bucket_delete(b);   /* httpd's HTML page */
        }
    }
    if (!f->ctx) {
        const char *msg = rk_status_message(r->status);

        f->ctx = f;   /* once */
        apr_table_unset(r->headers_out, "Content-Length");
        apr_table_setn(r->headers_out, "X-Content-Type-Options", "nosniff");
        if (r->status == HTTP_SERVICE_UNAVAILABLE && !apr_table_get(r->headers_out, "Retry-After")) {
            apr_table_setn(r->headers_out, "Retry-After", "1");   /* as the module's 503 */
        }
        ap_set_content_type(r, "application/json");
        if (!r->header_only) {
            /* the messages are fixed ASCII texts: no escaping needed */
            const char *body = apr_pstrcat(r->pool, "{\"status\":\"error\",\"message\":\"",
                                           msg, "\"}", NULL);

            APR_BRIGADE_INSERT_HEAD(bb, apr_bucket_pool_create(body, strlen(body), r->pool,
                                                               bb->bucket_alloc));
        }
    }
    if (eos) {
        ap_remove_output_filter(f);
    }
    return APR_BRIGADE_EMPTY(bb) ? APR_SUCCESS : ap_pass_brigade(f->next, bb);
}

/* The path of R as the client sent it (not decoded, not normalised): from the
 * request target once httpd has parsed the request line, else from the line itself
 * (set also when it was too long: truncated).  NULL when there is none. */
static const char *raw_path(request_rec *r)
{
    size_t len;
    const char *p = rk_target_path(r->unparsed_uri, r->the_request, &len);

    return p ? apr_pstrmemdup(r->pool, p, len) : NULL;
}

/* Whether the <Location> sections put PATH on a mount (R's configuration is put
 * back as it was). */
static int path_on_mount(request_rec *r, const char *path)
{
    ap_conf_vector_t *before = r->per_dir_config;
    char *uri = r->uri;
    int ours;

    if (!path || path[0] != '/') {
        return 0;
    }
    r->uri = (char *)path;
    ours = ap_location_walk(r) == OK && rk_is_ours(r);
    r->uri = uri;
    r->per_dir_config = before;
    return ours;
}

/* Whether an error answer of R is for a mount.  Once httpd has mapped the URI the
 * request's configuration says so.  Before (an error while reading the request, %00
 * or an invalid escape in the path, a path above the root) the configuration is the
 * server's default: the <Location> sections are walked for the URI, then for the
 * path as sent (when even the URI is unknown, 414, or was spoilt by normalising). */
static int error_on_mount(request_rec *r)
{
    if (r->per_dir_config != r->server->lookup_defaults) {
        return rk_is_ours(r);   /* mapped */
    }
    return path_on_mount(r, r->uri) || path_on_mount(r, raw_path(r));
}

void rk_insert_error_filter(request_rec *r)
{
    ap_filter_t *f;

    if (!ap_is_HTTP_ERROR(r->status) || !error_on_mount(r)) {
        return;
    }
    /* on every answer of the mount, also on HEAD, where no body passes the filter */
    apr_table_setn(r->err_headers_out, "X-Content-Type-Options", "nosniff");
    public_error(r);
    for (f = r->output_filters; f; f = f->next) {
        if (f->frec == error_filter_handle) {
            return;   /* an error while answering an error: already there */
        }
    }
    ap_add_output_filter_handle(error_filter_handle, NULL, r, r->connection);
}

void rk_http_register(void)
{
    error_filter_handle = ap_register_output_filter("RANKING_ERROR", error_filter, NULL,
                                                    AP_FTYPE_RESOURCE);
}

/* ---- request bodies ---- */

static int is_json_type(const char *ct)
{
    static const char want[] = "application/json";
    size_t n = sizeof(want) - 1;

    if (!ct) {
        return 0;
    }
    while (*ct == ' ' || *ct == '\t') {
        ct++;
    }
    return strncasecmp(ct, want, n) == 0
           && (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ' || ct[n] == '\t');
}

/* Read the whole body, at most LIMIT bytes.  OK, or the status to answer.  On any
 * failure the connection closes: the rest of the body is not read. */
static int read_body(request_rec *r, apr_off_t limit, char **buf, apr_size_t *len)
{
    const char *cl = apr_table_get(r->headers_in, "Content-Length");
    apr_bucket_brigade *bb;
    apr_size_t cap = 1024, used = 0;
    char *data;
    int seen_eos = 0, rv = OK;
    apr_off_t n;

    if (cl && apr_strtoff(&n, cl, NULL, 10) == APR_SUCCESS && n > limit) {
        r->connection->keepalive = AP_CONN_CLOSE;
        return HTTP_REQUEST_ENTITY_TOO_LARGE;
    }
    data = apr_palloc(r->pool, cap);
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    while (!seen_eos && rv == OK) {
        apr_bucket *b;
        apr_status_t st = ap_get_brigade(r->input_filters, bb, AP_MODE_READBYTES,
                                         APR_BLOCK_READ, HUGE_STRING_LEN);

        if (st != APR_SUCCESS) {
            /* AP_FILTER_ERROR: httpd's input filter has answered already (malformed
             * chunked framing, LimitRequestBody): hand that back to httpd */
            rv = st == AP_FILTER_ERROR ? AP_FILTER_ERROR
                 : st == APR_ENOSPC ? HTTP_REQUEST_ENTITY_TOO_LARGE
                 : APR_STATUS_IS_TIMEUP(st) ? HTTP_REQUEST_TIME_OUT : HTTP_BAD_REQUEST;
            break;
        }
        for (b = APR_BRIGADE_FIRST(bb); b != APR_BRIGADE_SENTINEL(bb); b = APR_BUCKET_NEXT(b)) {
            const char *piece;
            apr_size_t k;

            if (APR_BUCKET_IS_EOS(b)) {
                seen_eos = 1;
                break;
            }
            if (apr_bucket_read(b, &piece, &k, APR_BLOCK_READ) != APR_SUCCESS) {
                rv = HTTP_BAD_REQUEST;
                break;
            }
            if ((apr_off_t)(used + k) > limit) {
                rv = HTTP_REQUEST_ENTITY_TOO_LARGE;
                break;
            }
            if (used + k + 1 > cap) {
                char *bigger;
                while (used + k + 1 > cap) {
                    cap *= 2;
                }
                bigger = apr_palloc(r->pool, cap);
                memcpy(bigger, data, used);
                data = bigger;
            }
            memcpy(data + used, piece, k);
            used += k;
        }
        apr_brigade_cleanup(bb);
    }
    apr_brigade_destroy(bb);
    if (rv != OK) {
        r->connection->keepalive = AP_CONN_CLOSE;
        return rv;
    }
    data[used] = '\0';
    *buf = data;
    *len = used;
    return OK;
}

int rk_take_json_body(request_rec *r, char **buf, apr_size_t *len)
{
    int rv;

    if (!is_json_type(apr_table_get(r->headers_in, "Content-Type"))) {
        rk_send_status(r, HTTP_UNSUPPORTED_MEDIA_TYPE);
        return DONE;
    }
    rv = read_body(r, rk_config_body_limit(r), buf, len);
    if (rv == OK || rv == AP_FILTER_ERROR) {
        return rv;
    }
    rk_send_error(r, rv, rv == HTTP_BAD_REQUEST ? "Invalid body: could not be read" : NULL);
    return DONE;
}
