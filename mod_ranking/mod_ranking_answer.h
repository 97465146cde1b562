/* mod_ranking_answer.h: the module's JSON answers. */
#ifndef MOD_RANKING_ANSWER_H
#define MOD_RANKING_ANSWER_H

#include <jansson.h>

#include "mod_ranking_private.h"

/* Answers.  Each returns OK (the handler's return value) once the answer is given. */
int rkm_send_json(request_rec *r, int status, json_t *json);         /* steals JSON */
int rkm_send_error(request_rec *r, int status, const char *message); /* NULL: the status's */
int rkm_send_status(request_rec *r, int status);
/* STATUS with BODY (LEN bytes of JSON, copied). */
int rkm_send_body(request_rec *r, int status, const char *body, size_t len);
/* 200 with V, an answer value (rk_cache_value_new, cached or not), taking over the
 * caller's reference: the bytes go down the filter chain without a copy. */
int rkm_send_value(request_rec *r, const void *v, size_t len);

#endif
