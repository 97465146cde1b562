/* mod_ranking_answer.c: the module's JSON answers (see mod_ranking_answer.h). */
#include "mod_ranking_answer.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_request.h"
#include "rk_cache.h"
#include "rk_json.h"
#include "rk_mem.h"

static int send_body(request_rec *r, int status, const char *body, size_t len)
{
    /* an answer to a write with an Idempotency-Key is kept, or replaced by a replay */
    if (rkm_idem_answered(r, status, body, len)) {
        return OK;
    }
    r->status = status;
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)len);
    if (!r->header_only) {
        ap_rwrite(body, (int)len, r);
    }
    return OK;
}

int rkm_send_body(request_rec *r, int status, const char *body, size_t len)
{
    return send_body(r, status, body, len);
}

int rkm_send_json(request_rec *r, int status, json_t *json)
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

const char *rkm_json_text(request_rec *r, json_t *json, size_t *len)
{
    char *text = json ? rk_json_dump(json, len) : NULL;
    const char *out = text ? apr_pstrmemdup(r->pool, text, *len) : NULL;

    json_decref(json);
    free(text);
    return out;
}

int rkm_send_error(request_rec *r, int status, const char *message)
{
    const rkm_req *rq = ap_get_module_config(r->request_config, &ranking_module);

    /* the quick handler answers only from the caches: an error is the normal path's */
    if (rq && rq->quick) {
        return DECLINED;
    }
    rkm_request_error_headers(r, r->headers_out);
    if (status == HTTP_SERVICE_UNAVAILABLE && !apr_table_get(r->headers_out, "Retry-After")) {
        apr_table_setn(r->headers_out, "Retry-After", "1");
    }
    return rkm_send_json(r, status, rk_json_error(message ? message : rk_status_message(status)));
}

int rkm_send_status(request_rec *r, int status)
{
    return rkm_send_error(r, status, NULL);
}

static void release_value(void *value)
{
    rk_cache_release(value);
}

static apr_status_t release_cleanup(void *value)
{
    rk_cache_release(value);
    return APR_SUCCESS;
}

/* The largest answer sent by sendfile(2).  Measured on loopback (doc/performance.md,
 * "Large answers by sendfile"): from 128 KiB to 417 KB it takes a quarter of the
 * server's CPU off a request (the spot list of 2,000 spots: 66-70 us instead of
 * 88-93); at 1.67 MB it costs more than the copy (525 us instead of 379: the kernel
 * splices the pages 64 KiB at a time and takes them again after each partial send
 * into a full socket). */
#define RKM_SENDFILE_MAX (1u << 20)

/* Whether an answer of LEN bytes may go to the network by sendfile(2), from its
 * memory file, as httpd sends a static file: a large one (a mapping of its own in
 * memory, rk_mem, up to RKM_SENDFILE_MAX), EnableSendfile not Off where it is asked,
 * no Range, and between the handler and the network only filters that pass a file
 * on without reading it (not TLS, not a compression, not HTTP/2's: they would read
 * the file, which the threads share, at its position). */
static int by_sendfile(request_rec *r, size_t len)
{
    static const char *const passing[] = {
        "byterange", "content_length", "http_header", "http_outerror", "log_input_output",
        "core"
    };
    const core_dir_config *d = ap_get_core_module_config(r->per_dir_config);
    ap_filter_t *f;
    size_t i;

    if (len < RK_MEM_MAP_MIN || len > RKM_SENDFILE_MAX
        || (d && d->enable_sendfile == ENABLE_SENDFILE_OFF)
        || apr_table_get(r->headers_in, "Range")) {
        return 0;
    }
    for (f = r->output_filters; f; f = f->next) {
        for (i = 0; i < sizeof(passing) / sizeof(passing[0]); i++) {
            if (!strcmp(f->frec->name, passing[i])) {
                break;
            }
        }
        if (i == sizeof(passing) / sizeof(passing[0])) {
            return 0;
        }
    }
    return 1;
}

/* The answer V (LEN bytes) as a file bucket of its memory file, the reference taken
 * over until the request's pool goes (after the network has sent it); NULL when it
 * has no memory file (V's reference still the caller's). */
static apr_bucket *file_bucket(request_rec *r, const void *v, size_t len,
                               apr_bucket_alloc_t *list)
{
    apr_os_file_t fd = rk_cache_value_file(v);
    apr_file_t *file = NULL;

    if (fd < 0 || apr_os_file_put(&file, &fd, APR_FOPEN_READ | APR_FOPEN_SENDFILE_ENABLED,
                                  r->pool) != APR_SUCCESS) {
        return NULL;
    }
    apr_pool_cleanup_register(r->pool, v, release_cleanup, apr_pool_cleanup_null);
    return apr_bucket_file_create(file, 0, (apr_size_t)len, r->pool, list);
}

int rkm_send_value(request_rec *r, const void *v, size_t len)
{
    apr_bucket_brigade *bb;
    apr_bucket *b;

    if (rkm_idem_answered(r, HTTP_OK, v, len)) {
        rk_cache_release(v);
        return OK;
    }
    r->status = HTTP_OK;
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)len);
    if (r->header_only) {
        rk_cache_release(v);
        return OK;
    }
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    if (!by_sendfile(r, len) || !(b = file_bucket(r, v, len, bb->bucket_alloc))) {
        /* the bucket holds the reference until it is destroyed */
        b = apr_bucket_heap_create(v, len, release_value, bb->bucket_alloc);
    }
    APR_BRIGADE_INSERT_TAIL(bb, b);
    return ap_pass_brigade(r->output_filters, bb) == APR_SUCCESS ? OK : AP_FILTER_ERROR;
}
