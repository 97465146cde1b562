/* mod_ranking_body.c: request bodies (see mod_ranking_body.h). */
#include "mod_ranking_body.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_config.h"
#include "mod_ranking_request.h"

static int is_type(const char *ct, const char *want)
{
    size_t n = strlen(want);

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

int rkm_read_body(request_rec *r, char **buf, apr_size_t *len)
{
    rkm_req *rq = rkm_request(r);
    int rv;

    if (!rq->body_read) {
        if ((rv = read_body(r, rkm_config_body_limit(r), &rq->body, &rq->body_len)) != OK) {
            return rv;
        }
        rq->body_read = 1;
    }
    *buf = rq->body;
    *len = rq->body_len;
    return OK;
}

/* The body of a request whose Content-Type is one of TYPES: OK, or the status to
 * answer (415, or rkm_read_body's); nothing answered here. */
static int body_of(request_rec *r, const char *const *types, char **buf, apr_size_t *len)
{
    const char *ct = apr_table_get(r->headers_in, "Content-Type");

    while (*types && !is_type(ct, *types)) {
        types++;
    }
    return *types ? rkm_read_body(r, buf, len) : HTTP_UNSUPPORTED_MEDIA_TYPE;
}

int rkm_refuse_body(request_rec *r, int rv)
{
    if (rv == AP_FILTER_ERROR) {
        return rv;
    }
    if (rv == HTTP_UNSUPPORTED_MEDIA_TYPE) {
        rkm_send_status(r, rv);
    }
    else {
        rkm_send_error(r, rv, rv == HTTP_BAD_REQUEST ? "Invalid body: could not be read" : NULL);
    }
    return DONE;
}

static int take_body(request_rec *r, const char *const *types, char **buf, apr_size_t *len)
{
    int rv = body_of(r, types, buf, len);

    return rv == OK ? OK : rkm_refuse_body(r, rv);
}

static const char *const json[] = { "application/json", NULL };

int rkm_json_body(request_rec *r, char **buf, apr_size_t *len)
{
    return body_of(r, json, buf, len);
}

int rkm_take_json_body(request_rec *r, char **buf, apr_size_t *len)
{
    return take_body(r, json, buf, len);
}

int rkm_take_csv_body(request_rec *r, char **buf, apr_size_t *len)
{
    static const char *const csv[] = { "text/csv", NULL };

    return take_body(r, csv, buf, len);
}

int rkm_is_csv(request_rec *r)
{
    return is_type(apr_table_get(r->headers_in, "Content-Type"), "text/csv");
}

int rkm_take_patch_body(request_rec *r, char **buf, apr_size_t *len)
{
    static const char *const patch[] = { "application/json", "application/merge-patch+json", NULL };

    return take_body(r, patch, buf, len);
}
