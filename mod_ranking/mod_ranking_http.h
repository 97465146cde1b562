/* mod_ranking_http.h: the state of a request on a mount, JSON answers and errors,
 * and reading a request body. */
#ifndef MOD_RANKING_HTTP_H
#define MOD_RANKING_HTTP_H

#include <jansson.h>

#include "mod_ranking_private.h"
#include "mod_ranking_changes.h"
#include "rk_router.h"

/* The state of one request, made once (rk_request_make) by the first hook that needs
 * it, then read by the others (rk_request). */
typedef struct rk_req {
    rk_route route;
    unsigned method;        /* RK_M_* bit */
    int editor;             /* the token's user may write */
    int authenticated;
    int anonymous;          /* a public read without a token (RankingPublic): GET or
                             * HEAD of a public route (or of an unknown path, 404),
                             * no Authorization header */
    int have_rev;           /* REV known */
    int rev_shared;         /* REV from the children's shared table, not the database */
    int waited;             /* a long poll that has waited: answer, never wait again */
    int headers_done;       /* rk_common_headers has run */
    rk_rev rev;
} rk_req;

/* 1 when the request is for a mount of ours (SetHandler ranking applies). */
int rk_is_ours(request_rec *r);

/* This request's state, made and attached on the first call (route parsed once). */
rk_req *rk_request(request_rec *r);

/* The headers every answer of the mount carries, whoever writes it (httpd's own error
 * pages included: err_headers_out), set once per request: X-Content-Type-Options;
 * Cache-Control: private, no-cache on the answers that need a token, and on a
 * public read (RQ->anonymous) public, max-age=N, stale-while-revalidate=M with
 * Vary: Prefer (no-store for a long poll; errors say no-store); with
 * RankingCORSOrigins, Vary: Origin, and for a listed Origin the CORS headers of a
 * preflight (OPTIONS with Access-Control-Request-Method) or of an answer. */
void rk_common_headers(request_rec *r, rk_req *rq);

/* Answers.  Each returns OK (the handler's return value) once the answer is given. */
int rk_send_json(request_rec *r, int status, json_t *json);         /* steals JSON */
int rk_send_error(request_rec *r, int status, const char *message); /* NULL: the status's */
int rk_send_status(request_rec *r, int status);
/* 200 with V, an answer value (rk_cache_value_new, cached or not), taking over the
 * caller's reference: the bytes go down the filter chain without a copy. */
int rk_send_value(request_rec *r, const void *v, size_t len);

/* httpd's own error answers on a mount (an HTML page otherwise): the JSON error of
 * the status, application/json, nosniff.  rk_http_register registers the filter
 * (register_hooks); rk_insert_error_filter is the insert_error_filter hook. */
void rk_http_register(void);
void rk_insert_error_filter(request_rec *r);

/* Content-Type application/json, the body limit, then the body into *BUF (NUL
 * terminated, *LEN bytes).  OK; otherwise the request is answered and the handler
 * returns the value: DONE (answered here) or AP_FILTER_ERROR (by httpd's filter). */
int rk_take_json_body(request_rec *r, char **buf, apr_size_t *len);

#endif
