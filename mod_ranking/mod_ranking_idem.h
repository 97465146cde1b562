/* mod_ranking_idem.h: safe retries (API.md part 3): the Idempotency-Key of a write,
 * kept in table idempotency_key with the write it guards (lib/rk_idem.h for the
 * pure rules: the key's form, the fingerprint, what is kept, for how long).
 *
 * The life of a key on one request (rkm_req's idem):
 *   none     no header (or not a write): nothing below happens;
 *   pending  rkm_idem_begin found no live answer for (user, key): the write runs;
 *   kept     the answer is in the write's transaction (rkm_idem_keep), which commits
 *            it or rolls it back with the write;
 *   lost     rkm_idem_keep found the key taken by a concurrent request with the same
 *            key that committed first: the write is rolled back, and the answer is
 *            that request's, replayed (or 422 when it was another request);
 *   done     answered.
 * Every answer of a pending request passes rkm_idem_answered (the module's answer
 * functions call it): an answer that no transaction kept (a 4xx given before or
 * outside the write's transaction, a refused lane PUT of a group whose savepoint was
 * rolled back) is kept there, in a small transaction of its own. */
#ifndef MOD_RANKING_IDEM_H
#define MOD_RANKING_IDEM_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"

struct rkm_req;

enum { RKM_IDEM_NONE = 0, RKM_IDEM_PENDING, RKM_IDEM_KEPT, RKM_IDEM_LOST, RKM_IDEM_DONE };

/* A write's key, after the token, route, method and role checks and before anything
 * else: no header: DECLINED; a malformed one: 400; then the body is read (for the
 * fingerprint: 413 and the like answered here) and the (user, key) row decides: a
 * replay (the stored status, body, Location and ETag, with Idempotent-Replayed:
 * true) or 422 are answered here (OK, or the status httpd should answer); a new key
 * makes the request pending: DECLINED, the write goes on. */
int rkm_idem_begin(request_rec *r, struct rkm_req *rq);

/* Inside the write's transaction (or a grouped lane PUT's savepoint), just before
 * its commit: keep the answer of R (STATUS, BODY of LEN bytes, LOCATION and ETAG or
 * NULL) under its key.  0 (kept, or R has no pending key); 1 when a concurrent
 * request holds the key (R is now lost: roll the write back and answer anything,
 * rkm_idem_answered replays that request's answer instead); -1 on a database error
 * (roll back, 503). */
int rkm_idem_keep(request_rec *r, rkm_db *db, int status, const char *body, size_t len,
                  const char *location, const char *etag);

/* Called by the answer functions before they send STATUS with BODY: keeps it when
 * no transaction did (pending), or replays the winner's answer (lost).  1 when R was
 * answered here (the caller sends nothing), else 0. */
int rkm_idem_answered(request_rec *r, int status, const char *body, size_t len);

#endif
