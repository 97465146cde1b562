/* mod_ranking_auth.c: the bearer token of a request (POST /connect gives them:
 * mod_ranking_connect.c). */
#include "mod_ranking_auth.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_request.h"
#include "mod_ranking_cache.h"
#include "mod_ranking_changes.h"
#include "rk_json.h"
#include "rk_token.h"

static int unauthorized(request_rec *r, int invalid_token)
{
    apr_table_setn(r->err_headers_out, "WWW-Authenticate",
                   invalid_token ? "Bearer realm=\"ranking\", error=\"invalid_token\""
                                 : "Bearer realm=\"ranking\"");
    rkm_send_error(r, HTTP_UNAUTHORIZED, "Unauthorized");
    return HTTP_UNAUTHORIZED;
}

/* The token check proper, after the request's database state is known: the token
 * cache of this child process, keyed by the database's epoch and a keyed hash of the
 * token (rkm_token_cache_key), else the database (by the token's SHA-256).  Kept apart (not
 * inlined) so that a profile shows what it costs; ./scripts/bench measures it. */
static int __attribute__((noinline))
token_lookup(request_rec *r, rkm_req *rq, rkm_db *db, const char *tok, size_t len)
{
    const char *args[2], *out[3];
    char key[64 + RK_TOKEN_KEY_HEX + 2], hash[RK_HASH_HEX + 1];
    apr_int64_t now = apr_time_sec(r->request_time);
    size_t elen = strlen(rq->rev.epoch);
    rkm_token_entry te;

    /* "<epoch>|<keyed hash of the token>"; the epoch is 16 hex digits (schema) */
    if (elen > 64) {
        elen = 64;
    }
    memcpy(key, rq->rev.epoch, elen);
    key[elen] = '|';
    rkm_token_cache_key(tok, len, key + elen + 1);
    if (!rkm_token_cache_get(key, rq->rev.auth, &te) || te.expires <= now) {
        int rv;

        if (!db->dbd && (rv = rkm_db_open(r, db)) != OK) {
            rkm_send_status(r, rv);
            return rv;
        }
        rk_sha256_hex(tok, len, hash);
        args[0] = hash;
        args[1] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
        switch (rkm_db_select_one(r, db, RK_Q_TOKEN_LOOKUP, args, out, 3)) {
        case -1:
            rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
            return HTTP_SERVICE_UNAVAILABLE;
        case 0:
            return unauthorized(r, 1);
        }
        memset(&te, 0, sizeof(te));
        te.expires = out[2] ? apr_strtoi64(out[2], NULL, 10) : 0;
        te.editor = out[1] && !strcmp(out[1], "editor");
        apr_cpystrn(te.user, out[0] ? out[0] : "", sizeof(te.user));
        rkm_token_cache_put(key, rq->rev.auth, &te);
    }
    r->user = apr_pstrdup(r->pool, te.user);
    r->ap_auth_type = "Bearer";
    rq->editor = te.editor;
    rq->authenticated = 1;
    return OK;
}

int rkm_authenticate(request_rec *r, rkm_req *rq)
{
    const char *tok = NULL;
    size_t len = 0;
    rkm_db db;

    switch (rk_bearer_parse(apr_table_get(r->headers_in, "Authorization"), &tok, &len)) {
    case RK_AUTH_NONE:
    case RK_AUTH_OTHER:
        return unauthorized(r, 0);
    case RK_AUTH_BEARER_BAD:
        return unauthorized(r, 1);
    case RK_AUTH_BEARER:
        break;
    }
    /* the change counters serve the handler too; the connection is opened when the
     * database is asked (a read whose counters and token are known needs none) */
    memset(&db, 0, sizeof(db));
    if (rkm_request_revision(r, &db, rq) != 0) {
        rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
        return HTTP_SERVICE_UNAVAILABLE;
    }
    return token_lookup(r, rq, &db, tok, len);
}
