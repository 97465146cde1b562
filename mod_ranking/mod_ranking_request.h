/* mod_ranking_request.h: the state of a request on a mount, made once and read by
 * every hook, and the headers every answer of the mount carries.  Headers that only
 * point to a request's state declare "struct rkm_req" and include none of this. */
#ifndef MOD_RANKING_REQUEST_H
#define MOD_RANKING_REQUEST_H

#include "mod_ranking_private.h"
#include "mod_ranking_changes.h"
#include "rk_idem.h"
#include "rk_revshare.h"
#include "rk_router.h"

/* The state of one request, made once by the first hook that needs
 * it, then read by the others (rkm_request). */
typedef struct rkm_req {
    rk_route route;
    unsigned method;        /* RK_M_* bit */
    int editor;             /* ROLE is RK_ROLE_EDITOR or above */
    int role;               /* RK_ROLE_*: the token's user's role on the competition of
                             * the path (server-wide for a path without one); 0 without
                             * a token (rkm_role_on) */
    int server_role;        /* RK_ROLE_*: its server-wide role */
    int authenticated;
    int anonymous;          /* a public read without a token (RankingPublic): GET or
                             * HEAD of a public route (or of an unknown path, 404),
                             * no Authorization header */
    int have_rev;           /* REV known */
    int rev_shared;         /* REV from the children's shared table, not the database */
    int auth_deferred;      /* a lane PUT whose token was checked with the shared REV,
                             * whatever this server committed since: confirmed in its
                             * write transaction, or with REV read again before any
                             * other answer than its success (rkm_auth_confirm) */
    int waited;             /* a long poll that has waited: answer, never wait again */
    int headers_done;       /* rkm_common_headers has run */
    int quick;              /* answered from the quick handler, from the caches only
                             * (mod_ranking_read.h, rkm_read): what is not there, and
                             * every error, is left to the normal path */
    rkm_rev rev;
    char rev_epoch[RK_REVSHARE_EPOCH];   /* REV's epoch when it came from the shared table */
    /* safe retries (mod_ranking_idem.h): the request's Idempotency-Key, its
     * fingerprint, and where its answer stands (RKM_IDEM_*) */
    int idem;
    const char *idem_key;
    char idem_hash[RK_IDEM_HASH_HEX + 1];
    /* the body, read once (for the fingerprint, then for the write) */
    int body_read;
    char *body;
    apr_size_t body_len;
} rkm_req;

/* 1 when the request is for a mount of ours (SetHandler ranking applies). */
int rkm_is_ours(request_rec *r);

/* This request's state, made and attached on the first call (route parsed once). */
rkm_req *rkm_request(request_rec *r);

/* Whether R has If-Match or If-None-Match (a conditional write). */
int rkm_request_has_conditions(request_rec *r);
/* Whether RQ is a lane PUT whose token check may use the change counters the children
 * share, whatever this server committed since (rkm_request_revision): one without
 * If-Match, If-None-Match or Idempotency-Key, whose success is committed only under
 * the counters it was checked with (its write transaction reads them again:
 * mod_ranking_write.c), and whose any other answer reads them first
 * (rkm_auth_confirm). */
int rkm_request_put_deferrable(request_rec *r, const rkm_req *rq);

/* The headers every answer of the mount carries, whoever writes it, set once per
 * request (in headers_out; httpd's own error pages get them from rkm_error_headers):
 * X-Content-Type-Options;
 * Cache-Control: private, no-cache on the answers that need a token, and on a
 * public read (RQ->anonymous) public, max-age=N, stale-while-revalidate=M with
 * Vary: Prefer (no-store for a long poll; errors say no-store); with
 * RankingCORSOrigins, Vary: Origin, and for a listed Origin the CORS headers of a
 * preflight (OPTIONS with Access-Control-Request-Method) or of an answer. */
void rkm_common_headers(request_rec *r, rkm_req *rq);

/* The headers of an error answer to a public read, in T: no cache keeps it (a 404 is
 * cacheable by default: a resource created a moment later would stay hidden behind
 * it). */
void rkm_request_error_headers(request_rec *r, apr_table_t *t);

/* An error answer that httpd writes itself (ap_send_error_response, which has swapped
 * headers_out for err_headers_out and emptied the former): the common headers again,
 * in err_headers_out, nosniff on any request of a mount, and the error's. */
void rkm_error_headers(request_rec *r);

#endif
