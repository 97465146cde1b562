/* mod_ranking_errors.c: httpd's own error answers on a mount, made JSON (see
 * mod_ranking_errors.h). */
#include "mod_ranking_errors.h"
#include "mod_ranking_request.h"
#include "rk_json.h"
#include "rk_query.h"

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
    ours = ap_location_walk(r) == OK && rkm_is_ours(r);
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
        return rkm_is_ours(r);   /* mapped */
    }
    return path_on_mount(r, r->uri) || path_on_mount(r, raw_path(r));
}

static void insert_error_filter(request_rec *r)
{
    ap_filter_t *f;

    if (!ap_is_HTTP_ERROR(r->status) || !error_on_mount(r)) {
        return;
    }
    /* on every answer of the mount, also on HEAD, where no body passes the filter */
    rkm_error_headers(r);
    for (f = r->output_filters; f; f = f->next) {
        if (f->frec == error_filter_handle) {
            return;   /* an error while answering an error: already there */
        }
    }
    ap_add_output_filter_handle(error_filter_handle, NULL, r, r->connection);
}

void rkm_errors_register_hooks(void)
{
    error_filter_handle = ap_register_output_filter("RANKING_ERROR", error_filter, NULL,
                                                    AP_FTYPE_RESOURCE);
    ap_hook_insert_error_filter(insert_error_filter, NULL, NULL, APR_HOOK_MIDDLE);
}
