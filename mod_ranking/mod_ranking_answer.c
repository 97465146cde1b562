/* mod_ranking_answer.c: the module's JSON answers (see mod_ranking_answer.h). */
#include "mod_ranking_answer.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_request.h"
#include "rk_cache.h"
#include "rk_json.h"

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

int rkm_send_value(request_rec *r, const void *v, size_t len)
{
    apr_bucket_brigade *bb;

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
    /* the bucket holds the reference until it is destroyed */
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_heap_create(v, len, release_value, bb->bucket_alloc));
    return ap_pass_brigade(r->output_filters, bb) == APR_SUCCESS ? OK : AP_FILTER_ERROR;
}
