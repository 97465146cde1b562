/* mod_ranking_http.c: request state, answers, request bodies. */
#include "mod_ranking_http.h"
#include "mod_ranking_status.h"
#include "mod_ranking_config.h"
#include "rk_cache.h"
#include "rk_cors.h"
#include "rk_json.h"

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

rk_req *rk_request(request_rec *r)
{
    rk_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    if (!rq) {
        rq = apr_pcalloc(r->pool, sizeof(*rq));
        rk_route_parse(relative_path(r), rk_config_variants(r), &rq->route);
        rq->method = rk_method_bit(r->method);
        ap_set_module_config(r->request_config, &ranking_module, rq);
    }
    return rq;
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
    if (rq->method != RK_M_OPTIONS && rq->route.id != RK_ROUTE_CONNECT) {
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

int rk_request_revision(request_rec *r, rk_db *db, rk_req *rq)
{
    if (!rq->have_rev) {
        if (rk_db_revision(r, db, &rq->rev) != 0) {
            return -1;
        }
        rq->have_rev = 1;
        rk_stats_set(&rk_stats->revision, rq->rev.data);
    }
    return 0;
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
                 : st == APR_ENOSPC ? HTTP_REQUEST_ENTITY_TOO_LARGE : HTTP_BAD_REQUEST;
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
