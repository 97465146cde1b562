/* rk_cond.h: conditional requests (RFC 9110 section 13) on entity tags, and the
 * entity tag of one lane.  Pure C, no httpd header: unit-tested with Check. */
#ifndef RK_COND_H
#define RK_COND_H

#include <stddef.h>

typedef enum {
    RK_COND_PASS = 0,        /* go on with the request */
    RK_COND_NOT_MODIFIED,    /* GET/HEAD: 304 */
    RK_COND_FAILED           /* 412 Precondition failed */
} rk_cond;

/* 1 when the header value LIST, "*" or a comma-separated list of entity tags
 * (RFC 9110 section 8.8.3: [W/]"opaque"), names ETAG, a strong tag written with its
 * quotes ("\"abc\"").  "*" names every tag.  STRONG: the strong comparison (a weak tag
 * never matches: If-Match), else the weak one (W/ ignored: If-None-Match).  A list that
 * does not follow the grammar (an unquoted tag, "*" among tags, garbage between tags)
 * names nothing.  LIST NULL: 0. */
int rk_etag_list_match(const char *list, const char *etag, int strong);

/* Evaluate the preconditions of a request on a resource that exists, whose current
 * strong entity tag is ETAG, in the order of RFC 9110 section 13.2.2: If-Match
 * (IF_MATCH, NULL when absent) failing is RK_COND_FAILED; then If-None-Match
 * (IF_NONE_MATCH) matching is RK_COND_NOT_MODIFIED when SAFE (GET, HEAD), else
 * RK_COND_FAILED.  Date conditions are not ours: the API gives no Last-Modified, and
 * RFC 9110 says to ignore them then. */
rk_cond rk_cond_eval(const char *if_match, const char *if_none_match, const char *etag,
                     int safe);

/* The strong entity tag of one lane: "\"<EPOCH>-l<32 hex>\"", the hex being the first
 * 128 bits of the SHA-256 of the lane's JSON object as the API shows it (OBJ, LEN
 * bytes: rk_json_object of the lane's row).  It changes exactly when what is shown of
 * the lane changes; a voie and the same lane read as a line have the same tag.  OUT
 * has RK_LANE_ETAG_MAX bytes at least; returns OUT, or NULL when EPOCH is too long. */
#define RK_LANE_ETAG_MAX 96
char *rk_lane_etag(const char *epoch, const char *obj, size_t len, char *out);

/* The strong entity tag of one resource of another kind (competition, WOD, spot,
 * zone, heat): the same, with "-r": "\"<EPOCH>-r<32 hex>\"".  A resource's JSON
 * object names its kind by its keys, so two resources never share a tag unless they
 * are the same resource shown the same way (a heat read through variant A or B).
 * OUT: RK_LANE_ETAG_MAX bytes at least. */
char *rk_resource_etag(const char *epoch, const char *obj, size_t len, char *out);

/* The two steps of those tags, for a caller that keeps the digest of an object whose
 * bytes do not change (a cached answer): the first RK_OBJECT_DIGEST bytes of the
 * SHA-256 of OBJ; then the tag of KIND ('l': a lane, 'r': another resource) from
 * them, into OUT (RK_LANE_ETAG_MAX bytes at least): OUT, or NULL when EPOCH is too
 * long. */
#define RK_OBJECT_DIGEST 16
void rk_object_digest(const char *obj, size_t len, unsigned char *digest);
char *rk_object_etag(const char *epoch, char kind, const unsigned char *digest, char *out);

/* The resource object of a single-resource answer {"status":"success","<key>":{...}}
 * (as rk_json_answer writes it): *OBJ and *OBJLEN point into BODY.  0, or -1 when
 * BODY is not of that shape. */
int rk_answer_object(const char *body, size_t len, const char **obj, size_t *objlen);

#endif
