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

static int max_role(int a, int b)
{
    return a > b ? a : b;
}

const char *rkm_path_competition(const rkm_req *rq)
{
    return rq->route.nids > 0 ? rq->route.ids[RK_ID_COMPETITION] : NULL;
}

/* The token check proper, after the request's database state is known: the token
 * cache of this child process, keyed by the database's epoch, a keyed hash of the
 * token (rkm_token_cache_key) and the path's competition, valid for the database's
 * auth revision (moved by every change of an account, a token or a grant: a write
 * reads it fresh, or for a lane PUT checks it in its transaction (rkm_auth_confirm),
 * so a grant or its removal applies to it at once; a read within
 * RankingRevisionCheck), else the database (by the token's SHA-256, with the user's
 * grant on that competition: one statement).  Kept apart (not inlined) so that a
 * profile shows what it costs; ./scripts/bench measures it. */
static int __attribute__((noinline))
token_lookup(request_rec *r, rkm_req *rq, rkm_db *db, const char *tok, size_t len,
             rkm_token_entry *out_te)
{
    const char *args[3], *out[4], *comp = rkm_path_competition(rq);
    char key[64 + RK_TOKEN_KEY_HEX + RK_ID_MAX_DIGITS + 3], hash[RK_HASH_HEX + 1];
    apr_int64_t now = apr_time_sec(r->request_time);
    size_t elen = strlen(rq->rev.epoch), klen;
    rkm_token_entry te;

    /* "<epoch>|<keyed hash of the token>|<competition>"; the epoch is 16 hex digits
     * (schema) */
    if (elen > 64) {
        elen = 64;
    }
    memcpy(key, rq->rev.epoch, elen);
    key[elen] = '|';
    rkm_token_cache_key(tok, len, key + elen + 1);
    klen = strlen(key);
    apr_snprintf(key + klen, sizeof(key) - klen, "|%s", comp ? comp : "");
    if (!rkm_token_cache_get(key, rq->rev.auth, &te) || te.expires <= now) {
        int rv;

        if (!db->dbd && (rv = rkm_db_open(r, db)) != OK) {
            rkm_send_status(r, rv);
            return rv;
        }
        rk_sha256_hex(tok, len, hash);
        args[0] = comp ? comp : "0";   /* 0: no competition, no grant */
        args[1] = hash;
        args[2] = apr_psprintf(r->pool, "%" APR_INT64_T_FMT, now);
        switch (rkm_db_select_one(r, db, RK_Q_TOKEN_LOOKUP, args, out, 4)) {
        case -1:
            rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
            return HTTP_SERVICE_UNAVAILABLE;
        case 0:
            return unauthorized(r, 1);
        }
        memset(&te, 0, sizeof(te));
        te.expires = out[2] ? apr_strtoi64(out[2], NULL, 10) : 0;
        /* an unknown role (a newer schema's) is a reader's */
        te.server_role = max_role(rk_role_parse(out[1]), RK_ROLE_READER);
        te.role = max_role(te.server_role, rk_role_parse(out[3]));
        apr_cpystrn(te.user, out[0] ? out[0] : "", sizeof(te.user));
        rkm_token_cache_put(key, rq->rev.auth, &te);
    }
    *out_te = te;
    return OK;
}

/* The request is TE's user's, with TE's roles. */
static void apply_entry(request_rec *r, rkm_req *rq, const rkm_token_entry *te)
{
    r->user = apr_pstrdup(r->pool, te->user);
    r->ap_auth_type = "Bearer";
    rq->role = te->role;
    rq->server_role = te->server_role;
    rq->editor = te->role >= RK_ROLE_EDITOR;
    rq->authenticated = 1;
}

int rkm_role_on(request_rec *r, const rkm_req *rq, const char *competition_id)
{
    const char *comp = rkm_path_competition(rq), *args[2], *grant[1];
    rkm_db db;

    if (!rq->authenticated) {
        return RK_ROLE_READER;
    }
    if (!competition_id) {
        return rq->server_role;
    }
    if (comp && !strcmp(comp, competition_id)) {
        return rq->role;
    }
    /* another competition than the path's: its grant, read now */
    memset(&db, 0, sizeof(db));
    args[0] = r->user ? r->user : "";
    args[1] = competition_id;
    if (rkm_db_open(r, &db) != OK) {
        return rq->server_role;
    }
    switch (rkm_db_select_one(r, &db, RK_Q_GRANT_ROLE, args, grant, 1)) {
    case 1:
        return max_role(rq->server_role, rk_role_parse(grant[0]));
    case -1:
        ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "the grant of %s on competition %s "
                      "could not be read: its server-wide role applies", args[0], competition_id);
    }
    return rq->server_role;
}

int rkm_role_enough(request_rec *r, const rkm_req *rq)
{
    int need = rk_route_role(rq->route.id, rq->method);

    return need <= RK_ROLE_NONE || rkm_role_on(r, rq, rkm_path_competition(rq)) >= need;
}

/* The last token check of a connection (keep-alive: a client sends the same header on
 * every request): the Authorization header it was for, the database state and the
 * path's competition it held in, and what it found.  A request that matches all of
 * them (and before the token's expiry) takes the result without parsing the header,
 * hashing the token or locking the token cache: 2,800 instructions of a request's
 * 38,000 (doc/performance.md, "Where a request goes").  It holds what the token cache
 * holds, under the same key (epoch, auth revision, competition): a change of an
 * account, a token or a grant moves the auth revision and ends it, as it ends a cache
 * entry.  In the connection's pool, zeroed when the connection ends (the header is a
 * secret); one thread serves a connection's requests at a time. */
#define MEMO_HEADER_MAX 96   /* "Bearer " and a token of 43 characters, with room */

typedef struct {
    size_t hlen;                 /* 0: nothing remembered */
    char header[MEMO_HEADER_MAX];
    char epoch[65];
    apr_uint64_t auth;
    char comp[RK_ID_MAX_DIGITS + 1];
    rkm_token_entry te;
} token_memo;

static apr_status_t memo_wipe(void *data)
{
    volatile char *p = data;
    size_t i;

    for (i = 0; i < sizeof(token_memo); i++) {
        p[i] = 0;
    }
    return APR_SUCCESS;
}

static token_memo *memo_of(conn_rec *c, int create)
{
    rkm_conn_state *st = rkm_conn_state_of(c, create);

    if (st && !st->memo && create) {
        st->memo = apr_pcalloc(c->pool, sizeof(token_memo));
        apr_pool_cleanup_register(c->pool, st->memo, memo_wipe, apr_pool_cleanup_null);
    }
    return st ? st->memo : NULL;
}

/* Whether M's result (for the same header) holds for RQ at NOW. */
static int memo_holds(const token_memo *m, const rkm_req *rq, apr_int64_t now)
{
    const char *comp = rkm_path_competition(rq);

    return m->auth == rq->rev.auth && strcmp(m->epoch, rq->rev.epoch) == 0
           && strcmp(m->comp, comp ? comp : "") == 0 && m->te.expires > now;
}

static void memo_keep(conn_rec *c, const rkm_req *rq, const char *header, size_t hlen,
                      const rkm_token_entry *te)
{
    const char *comp = rkm_path_competition(rq);
    token_memo *m;

    if (hlen >= MEMO_HEADER_MAX || strlen(rq->rev.epoch) >= sizeof(m->epoch)
        || (comp && strlen(comp) >= sizeof(m->comp)) || !(m = memo_of(c, 1))) {
        return;
    }
    memcpy(m->header, header, hlen);
    m->hlen = hlen;
    apr_cpystrn(m->epoch, rq->rev.epoch, sizeof(m->epoch));
    m->auth = rq->rev.auth;
    apr_cpystrn(m->comp, comp ? comp : "", sizeof(m->comp));
    m->te = *te;
}

int rkm_authenticate(request_rec *r, rkm_req *rq)
{
    const char *tok = NULL, *header = apr_table_get(r->headers_in, "Authorization");
    size_t len = 0, hlen = header ? strlen(header) : 0;
    token_memo *memo = header && hlen < MEMO_HEADER_MAX ? memo_of(r->connection, 0) : NULL;
    rkm_token_entry te;
    rkm_db db;
    int rv;

    /* the header of the connection's last token check: a bearer token (it was one) */
    if (!memo || memo->hlen != hlen || memcmp(memo->header, header, hlen) != 0) {
        memo = NULL;
    }
    switch (memo ? RK_AUTH_BEARER : rk_bearer_parse(header, &tok, &len)) {
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
    if (memo && memo_holds(memo, rq, apr_time_sec(r->request_time))) {
        apply_entry(r, rq, &memo->te);
        return OK;
    }
    if (memo) {
        rk_bearer_parse(header, &tok, &len);   /* parsed only when it is needed */
    }
    if ((rv = token_lookup(r, rq, &db, tok, len, &te)) != OK) {
        return rv;
    }
    apply_entry(r, rq, &te);
    memo_keep(r->connection, rq, header, hlen, &te);
    return OK;
}

int rkm_auth_confirm(request_rec *r, rkm_req *rq)
{
    rkm_db db;
    int rv;

    if (!rq->auth_deferred) {
        return OK;
    }
    rq->auth_deferred = 0;
    memset(&db, 0, sizeof(db));
    if (rkm_request_revision_fresh(r, &db, rq) != 0) {
        rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
        return HTTP_SERVICE_UNAVAILABLE;
    }
    ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "token of %s %s checked again with the "
                  "database's counters", r->method, rk_route_name(rq->route.id));
    if ((rv = rkm_authenticate(r, rq)) != OK) {
        return rv;
    }
    if (!rkm_role_enough(r, rq)) {
        rkm_send_status(r, HTTP_FORBIDDEN);
        return HTTP_FORBIDDEN;
    }
    return OK;
}
