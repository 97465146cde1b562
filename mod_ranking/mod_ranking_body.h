/* mod_ranking_body.h: reading a request body. */
#ifndef MOD_RANKING_BODY_H
#define MOD_RANKING_BODY_H

#include "mod_ranking_private.h"

/* Content-Type application/json, the body limit, then the body into *BUF (NUL
 * terminated, *LEN bytes).  OK; otherwise the request is answered and the handler
 * returns the value: DONE (answered here) or AP_FILTER_ERROR (by httpd's filter). */
int rkm_take_json_body(request_rec *r, char **buf, apr_size_t *len);
/* rkm_take_json_body in two steps, for a handler that looks at something else before
 * it answers a refused body (a lane PUT: 404 comes before 415, 413 and 400, and the
 * lane is looked up only then).  rkm_json_body: OK, or the status (415, 413, 408,
 * 400; AP_FILTER_ERROR: answered by httpd's filter), nothing answered; rkm_refuse_body
 * answers that status as rkm_take_json_body would and returns what it returns. */
int rkm_json_body(request_rec *r, char **buf, apr_size_t *len);
int rkm_refuse_body(request_rec *r, int rv);
/* The same for a team list: text/csv (RFC 4180, any charset parameter). */
int rkm_take_csv_body(request_rec *r, char **buf, apr_size_t *len);
/* 1 when the request's Content-Type is text/csv. */
int rkm_is_csv(request_rec *r);
/* The same for a PATCH: application/json or application/merge-patch+json (RFC 7396). */
int rkm_take_patch_body(request_rec *r, char **buf, apr_size_t *len);

/* The body, whatever its type, within the limit, read once per request and kept on
 * the request's state (a write with an Idempotency-Key reads it for the fingerprint,
 * before rkm_take_json_body checks its type).  OK, or the status to answer (413, 408,
 * 400; AP_FILTER_ERROR: answered by httpd's filter); nothing is answered here. */
int rkm_read_body(request_rec *r, char **buf, apr_size_t *len);

#endif
