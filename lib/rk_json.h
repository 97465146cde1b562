/* rk_json.h: shaping of response bodies.  Pure C + jansson + APR pools. */
#ifndef RK_JSON_H
#define RK_JSON_H

#include <stddef.h>
#include <jansson.h>

typedef enum {
    RK_F_ID,    /* decimal digit string, or null */
    RK_F_INT,   /* JSON integer, or null */
    RK_F_STR,   /* JSON string, "" when the database has NULL */
    RK_F_NSTR,  /* JSON string, or null */
    RK_F_JSON   /* a JSON value kept as text (a lane in the history), or null */
} rk_ftype;

typedef struct {
    const char *name;
    rk_ftype type;
} rk_field;

typedef struct {
    const char *singular;   /* "competition", "voie", ... */
    const char *plural;     /* "competitions", "voies", ... */
    const rk_field *fields; /* in output order = column order of the queries */
    int nfields;
} rk_resource;

extern const rk_resource rk_res_competition;
extern const rk_resource rk_res_wod;
extern const rk_resource rk_res_spot;
extern const rk_resource rk_res_zone;
extern const rk_resource rk_res_heat;
extern const rk_resource rk_res_voie;  /* lane, variant A keys */
extern const rk_resource rk_res_line;  /* lane, variant B keys */
extern const rk_resource rk_res_history; /* a lane's change, variant A */
extern const rk_resource rk_res_change;  /* a competition's change (part 3) */

/* An answer written straight from rows, without a JSON tree: {"status":"success",
 * "<plural>":[<row>,...]} for a list, {"status":"success","<singular>":<row>} for one
 * resource (NROWS 1).  VALUES holds NROWS rows of res->nfields column values each, one
 * row after the other (NULL = SQL NULL).  Each row is an object of the resource's
 * fields in order: IDs and strings as JSON strings (NULL as null, or as "" for
 * RK_F_STR), integers as numbers (null when the column is not one), strings not valid
 * UTF-8 shown as NULL.  Compact, UTF-8 as is; quote, backslash and control characters
 * escaped (\uXXXX upper case): the bytes jansson's compact dump gives.
 *
 * Returns the answer's length; writes it into OUT unless OUT is NULL.  Called once to
 * size the answer, once to write it, it is allocated once at its exact size. */
size_t rk_json_answer(char *out, const rk_resource *res, int list, const char *const *values,
                      size_t nrows);

/* A writer of compact JSON, for answers built without a JSON tree (rk_json_answer, the
 * leaderboards): called once with OUT NULL to count the bytes, once with OUT an
 * allocation of that size to write them, so that the answer is allocated once at its
 * exact size.  Strings are written as rk_json_answer writes them: UTF-8 as is; quote,
 * backslash and control characters escaped (\uXXXX upper case). */
typedef struct {
    char *out;     /* where to write, or NULL to count only */
    size_t len;    /* bytes written (or counted) so far */
} rk_jw;

/* N bytes of S, as they are (JSON syntax the caller knows to be right). */
void rk_jw_put(rk_jw *w, const char *s, size_t n);
#define RK_JW_LIT(w, lit) rk_jw_put((w), "" lit, sizeof(lit) - 1)   /* LIT: a string literal */

/* V as a JSON string; NULL or not valid UTF-8: null (as an RK_F_NSTR field). */
void rk_jw_str(rk_jw *w, const char *v);

/* V as a JSON string; NULL or not valid UTF-8: "" (as an RK_F_STR field). */
void rk_jw_text(rk_jw *w, const char *v);

/* N as a JSON integer. */
void rk_jw_int(rk_jw *w, long long n);

/* One object of the resource's fields (a row of res->nfields VALUES), as in an answer.
 * Returns its length; writes it into OUT unless OUT is NULL. */
size_t rk_json_object(char *out, const rk_resource *res, const char *const *values);
/* At least the length of that object, found without writing it: a buffer of this size
 * takes it in one call (rk_json_object with OUT, no counting call before). */
size_t rk_json_object_bound(const rk_resource *res, const char *const *values);

/* The answer of one resource (rk_json_answer, NROWS 1) around OBJ, its object as
 * rk_json_object wrote it (LEN bytes): the same bytes, without writing the object
 * again.  Returns the answer's length; writes it into OUT unless OUT is NULL. */
size_t rk_json_answer_of(char *out, const rk_resource *res, const char *obj, size_t len);

/* {"status":"success","<key>":<value>} (steals VALUE; VALUE may be NULL for a bare
 * {"status":"success"}). */
json_t *rk_json_success(const char *key, json_t *value);

/* Serialise compactly (UTF-8, key order kept).  The result is malloc()ed: free(). */
char *rk_json_dump(const json_t *json, size_t *len);

/* {"status":"error","message":"<message>"} (new reference, NULL on allocation failure). */
json_t *rk_json_error(const char *message);

/* The message of the contract for a status (404 "Not found", 401 "Unauthorized",
 * 403 "Forbidden", 405 "Method not allowed", 412 "Precondition failed", 415 "Unsupported media type",
 * 413 "Request body too large", 409 "Conflict", 400 "Bad request",
 * 429 "Too many requests", 503 "Service unavailable", 500 "Internal server error"; for
 * the answers httpd makes itself on a mount: 408 "Request timeout", 411 "Length
 * required", 414 "URI too long", 417 "Expectation failed", 431 "Request header fields
 * too large", 501 "Not implemented", 505 "HTTP version not supported"); another 4xx is
 * "Request refused", another status "Internal server error". */
const char *rk_status_message(int status);

#endif
