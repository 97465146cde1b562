/* mod_ranking_handler.c: the hooks a request on a mount goes through: translate_name
 * and map_to_storage (claim it, no file walk) -> the access hook (bearer token:
 * mod_ranking_auth.c) -> the handler, which checks route (404), method (405) and role
 * (403), then answers through the read path (mod_ranking_read.c), the write path
 * (mod_ranking_write.c), /connect (mod_ranking_auth.c) or an event stream
 * (mod_ranking_stream.c). */
#include "mod_ranking_handler.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_auth.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_config.h"
#include "mod_ranking_config_public.h"
#include "mod_ranking_connect.h"
#include "mod_ranking_heatgen.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_read.h"
#include "mod_ranking_setup.h"
#include "mod_ranking_request.h"
#include "mod_ranking_stream.h"
#include "mod_ranking_validate.h"
#include "mod_ranking_write.h"

/* The bearer check, before the handler.  /connect and OPTIONS need no token, nor a
 * public read (RankingPublic, rkm_request). */
static int rkm_access(request_rec *r)
{
    rkm_req *rq;

    if (!rkm_is_ours(r)) {
        return DECLINED;
    }
    rq = rkm_request(r);
    /* on every answer of the mount, also those httpd writes itself */
    rkm_common_headers(r, rq);
    if (rq->method == RK_M_OPTIONS || rq->route.id == RK_ROUTE_CONNECT) {
        return DECLINED;
    }
    /* RankingPublic: a read without a token needs none (rkm_request decides) */
    if (rq->anonymous) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "access hook: public %s %s",
                      r->method, rk_route_name(rq->route.id));
        return OK;
    }
    /* on failure the JSON answer is already written: DONE ends the request */
    if (rkm_authenticate(r, rq) != OK) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "access hook: refused %s %s",
                      r->method, rk_route_name(rq->route.id));
        return DONE;
    }
    ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "access hook: %s allowed %s %s",
                  r->user, r->method, rk_route_name(rq->route.id));
    return OK;
}

/* The answer of a request that passed the checks: the read path, the write path,
 * /connect or an event stream. */
static int answer(request_rec *r, rkm_req *rq)
{
    const rk_route_def *def = rk_route_def_of(rq->route.id);

    if (rq->method & (RK_M_GET | RK_M_HEAD)) {
        return def->answer == RK_ANSWER_EVENTS ? rkm_events(r, rq) : rkm_read(r, rq);
    }
    switch (def->write) {
    case RK_WRITE_LANE:
        return rq->method == RK_M_PUT ? rkm_put_lane(r, rq) : rkm_delete_lane(r, rq);
    case RK_WRITE_SETUP:
        return rkm_setup(r, rq);
    case RK_WRITE_VALIDATE_LANE:
        return rkm_validate_lane(r, rq);
    case RK_WRITE_VALIDATE_HEAT:
        return rkm_validate_heat(r, rq);
    case RK_WRITE_GENERATE:
        return rkm_generate_heats(r, rq);
    default:
        return rkm_connect(r);   /* POST /connect */
    }
}

/* Order of checks: token (401, in the access hook), route shape (404), method (405),
 * role (403), the Idempotency-Key of a write (mod_ranking_idem.c); then the read or
 * write path checks existence (404), Content-Type
 * (415), body size (413), body (400), conflicts (409). */
static int rkm_handler(request_rec *r)
{
    rkm_req *rq;
    unsigned allowed;
    int rv;

    if (!r->handler || strcasecmp(r->handler, RKM_HANDLER) != 0) {
        return DECLINED;
    }
    rq = rkm_request(r);
    rkm_common_headers(r, rq);
    /* a request the access hook did not see (sub-request, internal redirect with a
     * different configuration): check the token here */
    if (!rq->authenticated && !rq->anonymous && rq->method != RK_M_OPTIONS
        && rq->route.id != RK_ROUTE_CONNECT) {
        ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "handler: token not checked by the "
                      "access hook, checking it here");
        if (rkm_authenticate(r, rq) != OK) {
            return OK;
        }
    }
    if (rq->route.id == RK_ROUTE_NONE) {
        return rkm_send_status(r, HTTP_NOT_FOUND);
    }
    allowed = rk_route_methods(rq->route.id);
    if (rq->method == RK_M_OPTIONS) {
        apr_table_setn(r->headers_out, "Allow", rk_route_allow(rq->route.id));
        r->status = HTTP_NO_CONTENT;
        return OK;
    }
    if (!(rq->method & allowed)) {
        apr_table_setn(r->headers_out, "Allow", rk_route_allow(rq->route.id));
        return rkm_send_status(r, HTTP_METHOD_NOT_ALLOWED);
    }
    /* the role the route and method need, on the path's competition (the
     * server-wide role for a path without one: creating a competition) */
    if (!rkm_role_enough(r, rq)) {
        /* a token checked with counters that may be out of date (a lane PUT): a grant
         * given meanwhile may allow it (401 or 403 answered otherwise) */
        if (!rq->auth_deferred) {
            return rkm_send_status(r, HTTP_FORBIDDEN);
        }
        if (rkm_auth_confirm(r, rq) != OK) {
            return OK;
        }
    }
    /* Idempotency-Key: after the role, before anything else (a replay, 422, 400) */
    if ((rv = rkm_idem_begin(r, rq)) != DECLINED) {
        return rv;
    }
    return answer(r, rq);
}

int rkm_handler_resume(request_rec *r)
{
    return answer(r, rkm_request(r));
}

/* Our routes have no file behind them.  Claim the mount's requests in translate_name,
 * before core maps the URI onto the document root (which refuses a path longer than
 * the file system allows with an HTML 403 before any module sees it), and skip the
 * directory and file walks in map_to_storage (where httpd would also answer TRACE
 * itself, echoing the request with its Authorization header; on our mounts TRACE is
 * a method like any other: token, then 405).
 * httpd walks the <Location> and <If> sections just before translate_name
 * (ap_process_request_internal), so the request's configuration already says whether
 * it is ours; it walks them again after map_to_storage, from its cache. */
#define RKM_FILENAME_PREFIX "ranking:"

static int rkm_translate(request_rec *r)
{
    if (r->uri[0] != '/' || !rkm_is_ours(r)) {
        return DECLINED;
    }
    if (r->method_number == M_TRACE) {
        r->method_number = M_INVALID;
    }
    {   /* "ranking:" and the URI: one copy (apr_pstrcat measures each piece twice) */
        size_t n = strlen(r->uri) + 1;
        char *f = apr_palloc(r->pool, sizeof(RKM_FILENAME_PREFIX) - 1 + n);

        memcpy(f, RKM_FILENAME_PREFIX, sizeof(RKM_FILENAME_PREFIX) - 1);
        memcpy(f + sizeof(RKM_FILENAME_PREFIX) - 1, r->uri, n);
        r->filename = f;
    }
    return OK;
}

static int rkm_map_to_storage(request_rec *r)
{
    return r->filename && !strncmp(r->filename, RKM_FILENAME_PREFIX, sizeof(RKM_FILENAME_PREFIX) - 1)
           ? OK : DECLINED;
}

/* RankingPublic: an anonymous GET or HEAD of a public read whose answer is in this
 * child's caches is answered here, in httpd's quick-handler phase (as mod_cache
 * answers its hits), before the URI is translated, the <Location> sections merged a
 * second time, the access hooks and the fixups: with the headers, ETag, 304, gzip and
 * Vary of the normal path (rkm_read with RQ->quick: the caches only, every error
 * left to the normal path).  The <Location> sections are not merged yet: walk them,
 * as rkm_translate does, to find the mount and its settings.  Everything else
 * declines, the configuration put back as it was: a request with an Authorization
 * header (the token is checked by the access hook, as the design requires) or with
 * Prefer (a long poll), another method, a sub-request or an internal redirect (and a
 * sub-request's lookup), a path httpd would still decode or normalise (%, "//",
 * "/."), a mount that is not public, a route that is not a public read, and an answer
 * not in the cache (the normal path builds it); and all of a mount with
 * RankingPublicQuick Off (whose readers httpd's access control must see: Require ip,
 * ...).  The note "ranking-path" says "quick" on a request answered here
 * (%{ranking-path}n in a LogFormat). */
static int rkm_quick(request_rec *r, int lookup)
{
    ap_conf_vector_t *before = r->per_dir_config;
    const rk_route_def *def;
    rkm_req *rq;
    int rv;

    if (lookup || r->main || r->prev || !rkm_config_any_public()
        || r->method_number != M_GET || r->proxyreq
        || !r->uri || r->uri[0] != '/' || !rkm_config_maybe_public(r->uri)
        || apr_table_get(r->headers_in, "Authorization")
        || apr_table_get(r->headers_in, "Prefer") || strchr(r->uri, '%')
        || strstr(r->uri, "//") || strstr(r->uri, "/.")) {
        return DECLINED;
    }
    if (ap_location_walk(r) != OK || !rkm_is_ours(r) || !rkm_config_public(r)
        || !rkm_config_public_quick(r)) {
        r->per_dir_config = before;
        return DECLINED;
    }
    rq = rkm_request(r);
    def = rk_route_def_of(rq->route.id);
    rv = DECLINED;
    if (rq->anonymous && def && def->answer != RK_ANSWER_EVENTS
        && (rq->method & rk_route_methods(rq->route.id))
        && rk_route_role(rq->route.id, rq->method) <= RK_ROLE_READER) {
        rq->quick = 1;
        rv = rkm_read(r, rq);
        rq->quick = 0;
    }
    if (rv == DECLINED) {
        /* the normal path starts afresh: its own state, its own walk */
        ap_set_module_config(r->request_config, &ranking_module, NULL);
        r->per_dir_config = before;
        return DECLINED;
    }
    apr_table_setn(r->notes, "ranking-path", "quick");
    if (rq->have_rev) {   /* answered here: how it found its counters, counted once */
        rkm_request_revision_count(rq);
    }
    return rv;
}

void rkm_handler_register_hooks(void)
{
    /* after mod_cache's (APR_HOOK_FIRST): its hits first, its save filter on ours */
    ap_hook_quick_handler(rkm_quick, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_translate_name(rkm_translate, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_map_to_storage(rkm_map_to_storage, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_check_access(rkm_access, NULL, NULL, APR_HOOK_MIDDLE, AP_AUTH_INTERNAL_PER_CONF);
    ap_hook_handler(rkm_handler, NULL, NULL, APR_HOOK_MIDDLE);
}
