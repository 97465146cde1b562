/* mod_ranking_changes.c: the revision, the change log and the committed signal (see
 * mod_ranking_changes.h, which states the rule of the change log). */
#include "mod_ranking_changes.h"
#include "mod_ranking_request.h"
#include "mod_ranking_config.h"
#include "mod_ranking_shared.h"
#include "mod_ranking_status.h"
#include "rk_revshare.h"

/* ---- the revision the children share ---- */

/* The change counters last read by any child, one slot per virtual host (its index
 * in the virtual host's own server_conf), mapped by the parent at post_config
 * (rk_revshare.h; RankingRevisionCheck). */
static rk_revshare *revshare;

typedef struct {
    int revshare_slot;   /* -1 before post_config */
} server_conf;

void *rkm_changes_create_server(apr_pool_t *p, server_rec *s)
{
    server_conf *c = apr_pcalloc(p, sizeof(*c));

    (void)s;
    c->revshare_slot = -1;
    return c;
}

static server_conf *server_conf_of(server_rec *s)
{
    return ap_get_module_config(s->module_config, &ranking_module);
}

/* post_config: a slot per server_rec (virtual host). */
static int revshare_map(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *s)
{
    server_rec *v;
    uint32_t n = 0;

    (void)plog;
    (void)ptemp;
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;   /* the first, dry run of the configuration */
    }
    for (v = s; v; v = v->next) {
        /* its own (a virtual host without any of the module's directives shares the
         * main server's until now) */
        server_conf *c = apr_pmemdup(pconf, server_conf_of(v), sizeof(*c));

        c->revshare_slot = (int)n++;
        ap_set_module_config(v->module_config, &ranking_module, c);
    }
    if (!rkm_shared_map(pconf, s, rk_revshare_size(n), (void **)&revshare,
                        "shared revision table")) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    rk_revshare_init(revshare, n);
    return OK;
}

void rkm_changes_register_hooks(void)
{
    ap_hook_post_config(revshare_map, NULL, NULL, APR_HOOK_MIDDLE);
}

int rkm_revision_read(request_rec *r, rkm_db *db, rkm_rev *rev)
{
    const char *v[3];

    if (rkm_db_select_one(r, db, RK_Q_REVISION, NULL, v, 3) != 1 || !v[0] || !v[1] || !v[2]) {
        return -1;
    }
    rev->epoch = v[0];
    rev->data = (apr_uint64_t)apr_strtoi64(v[1], NULL, 10);
    rev->auth = (apr_uint64_t)apr_strtoi64(v[2], NULL, 10);
    return 0;
}

int rkm_revision_read_bg(apr_pool_t *p, server_rec *s, rkm_db *db, rkm_rev *rev)
{
    apr_dbd_results_t *res;
    apr_dbd_row_t *row = NULL;
    const char *v[3];
    int n, i;

    if (rkm_db_select_bg(s, p, db, RK_Q_REVISION, NULL, &res) != 0) {
        return -1;
    }
    for (n = 0; apr_dbd_get_row(db->dbd->driver, p, res, &row, -1) == 0; n++) {
        for (i = 0; !n && i < 3; i++) {
            const char *c = rkm_db_col(db, row, i);
            v[i] = c ? apr_pstrdup(p, c) : "";
        }
    }
    if (!n) {
        return 0;
    }
    rev->epoch = v[0];
    rev->data = (apr_uint64_t)apr_atoi64(v[1]);
    rev->auth = (apr_uint64_t)apr_atoi64(v[2]);
    return 1;
}

/* How a request's change counters may be found (revision_shared). */
enum rev_source {
    REV_SHARED,   /* what a child read less than RankingRevisionCheck ago, with no
                   * commit of this server since */
    REV_FRESH,    /* the database */
    REV_RECENT    /* what a child read less than RankingRevisionCheck ago, whatever
                   * this server committed since (a lane PUT: rkm_request_put_deferrable) */
};

/* The change counters for a request: from the table the children share when FROM
 * allows, without the database (its epoch in EPOCH, RK_REVSHARE_EPOCH bytes); else
 * read from the database (DB, opened here when its dbd is NULL) and kept for the
 * others.  1 (shared), 0 (read), or -1 (logged). */
static int revision_shared(request_rec *r, rkm_db *db, rkm_rev *rev, char *epoch,
                           enum rev_source from)
{
    apr_interval_time_t bound = rkm_config_revision_check();
    int slot = revshare ? server_conf_of(r->server)->revshare_slot : -1;
    apr_time_t start = apr_time_now();
    uint64_t gen = 0, data, auth;

    if (slot >= 0 && bound > 0) {
        if (from != REV_FRESH
            && (from == REV_RECENT
                ? rk_revshare_get_recent(revshare, (uint32_t)slot, start, bound, &data, &auth,
                                         epoch, RK_REVSHARE_EPOCH)
                : rk_revshare_get(revshare, (uint32_t)slot, start, bound, &data, &auth, epoch,
                                  RK_REVSHARE_EPOCH))) {
            rev->epoch = epoch;   /* the request's own buffer: no copy */
            rev->data = data;
            rev->auth = auth;
            return 1;
        }
        gen = rk_revshare_gen(revshare);
    }
    if (!db->dbd && rkm_db_open(r, db) != OK) {
        return -1;
    }
    if (rkm_revision_read(r, db, rev) != 0) {
        return -1;
    }
    if (slot >= 0 && bound > 0) {
        rk_revshare_put(revshare, (uint32_t)slot, gen, start, rev->data, rev->auth, rev->epoch);
    }
    return 0;
}

static int request_revision(request_rec *r, rkm_db *db, rkm_req *rq, enum rev_source from)
{
    int got = revision_shared(r, db, &rq->rev, rq->rev_epoch, from);

    if (got < 0) {
        return -1;
    }
    rq->have_rev = 1;
    rq->rev_shared = got == 1;
    rq->auth_deferred = got == 1 && from == REV_RECENT;
    if (!rq->auth_deferred) {   /* a deferred one may be older than this server's commits */
        rk_stats_set(&rkm_stats->revision, rq->rev.data);
    }
    if (!rq->quick) {   /* the quick handler's once it answers: it may leave the
                         * request to the normal path, which finds them again */
        rkm_request_revision_count(rq);
    }
    return 0;
}

void rkm_request_revision_count(const rkm_req *rq)
{
    rk_stats_add(rq->rev_shared ? &rkm_stats->revision_shared : &rkm_stats->revision_reads, 1);
}

int rkm_request_revision(request_rec *r, rkm_db *db, rkm_req *rq)
{
    /* reads may use the counters another child read lately (RankingRevisionCheck),
     * and so may a lane PUT, whatever this server committed since: its write
     * transaction checks them again (mod_ranking_write.c); other writes and a long
     * poll woken by a change read them */
    if (rq->have_rev) {
        return 0;
    }
    if ((rq->method == RK_M_GET || rq->method == RK_M_HEAD) && !rq->waited) {
        return request_revision(r, db, rq, REV_SHARED);
    }
    return request_revision(r, db, rq, rkm_request_put_deferrable(r, rq) ? REV_RECENT : REV_FRESH);
}

int rkm_request_revision_fresh(request_rec *r, rkm_db *db, rkm_req *rq)
{
    return rq->have_rev && !rq->rev_shared ? 0 : request_revision(r, db, rq, REV_FRESH);
}

/* ---- the change log ---- */

int rkm_changes_record(request_rec *r, rkm_db *db, const rk_route *route, int lane_rows,
                       const char *action, const char *before, const char *after)
{
    char at[32];
    apr_size_t n;
    apr_time_exp_t t;
    const char *args[9];
    int nrows = 0;

    if (lane_rows != 1) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "a lane %s that changed %d lanes: not "
                      "recorded, rolled back", action, lane_rows);
        return -1;   /* one record per revision step */
    }
    apr_time_exp_gmt(&t, r->request_time);
    apr_strftime(at, &n, sizeof(at), "%Y-%m-%dT%H:%M:%SZ", &t);
    args[0] = route->ids[RK_ID_COMPETITION];
    args[1] = route->ids[1];   /* the zone */
    args[2] = route->ids[RK_ID_A_HEAT];
    args[3] = route->ids[RK_ID_A_LANE];
    args[4] = at;
    args[5] = r->user ? r->user : "";
    args[6] = action;
    args[7] = before;
    args[8] = after ? after : "";
    if (rkm_db_query(r, db, RK_Q_HISTORY_INSERT, args, &nrows, APLOG_ERR) != 0) {
        return -1;
    }
    return nrows == 1 ? 0 : -1;
}

int rkm_changes_record_resource(request_rec *r, rkm_db *db, const char *resource,
                                const char *competition, const char *zone, const char *heat,
                                const char *id, const char *action, const char *before,
                                const char *after)
{
    char at[32];
    apr_size_t n;
    apr_time_exp_t t;
    const char *args[11];
    int lane = !strcmp(resource, "lane");
    int nrows = 0;

    apr_time_exp_gmt(&t, r->request_time);
    apr_strftime(at, &n, sizeof(at), "%Y-%m-%dT%H:%M:%SZ", &t);
    args[0] = competition;
    args[1] = zone;      /* NULL: SQL NULL */
    args[2] = heat;
    args[3] = lane ? id : "0";
    args[4] = at;
    args[5] = r->user ? r->user : "";
    args[6] = action;
    args[7] = before ? before : "";
    args[8] = after ? after : "";
    args[9] = resource;
    args[10] = lane ? "0" : id;
    if (rkm_db_query(r, db, RK_Q_HISTORY_RECORD, args, &nrows, APLOG_ERR) != 0) {
        return -1;
    }
    return nrows == 1 ? 0 : -1;
}

int rkm_changes_newest(request_rec *r, rkm_db *db, apr_int64_t *id)
{
    const char *newest[1];

    if (rkm_db_select_one(r, db, RK_Q_HISTORY_LAST, NULL, newest, 1) != 1 || !newest[0]) {
        return -1;
    }
    *id = apr_atoi64(newest[0]);
    return 0;
}

/* A row of RK_Q_HISTORY_SINCE or RK_Q_HISTORY_REPLAY as a change (pointers into the
 * row): 1, or 0 when a column it needs is NULL (the row is skipped). */
static int change_of(const rkm_db *db, apr_dbd_row_t *row, rk_lane_change *c)
{
    c->id = rkm_db_col(db, row, 0);
    c->competition_id = rkm_db_col(db, row, 1);
    c->zone_id = rkm_db_col(db, row, 2);
    c->heat_id = rkm_db_col(db, row, 3);
    c->lane_id = rkm_db_col(db, row, 4);
    c->action = rkm_db_col(db, row, 5);
    c->lane = rkm_db_col(db, row, 6);
    c->before = rkm_db_col(db, row, 7);
    c->publication = rkm_db_col(db, row, 8);
    c->published_score = rkm_db_col(db, row, 9);
    c->published_tiebreak = rkm_db_col(db, row, 10);
    c->resource = rkm_db_col(db, row, 11);
    c->resource_id = rkm_db_col(db, row, 12);
    if (!c->id || !c->competition_id || !c->action) {
        return 0;
    }
    /* a lane is named by its heat and id; another resource by its own id */
    return !c->resource || !strcmp(c->resource, "lane") ? c->heat_id && c->lane_id
           : c->resource_id != NULL;
}

/* FN for each change of RES; the rows read. */
static int each_change(apr_pool_t *p, rkm_db *db, apr_dbd_results_t *res, rkm_change_fn *fn,
                       void *baton)
{
    apr_dbd_row_t *row = NULL;
    int got;

    for (got = 0; apr_dbd_get_row(db->dbd->driver, p, res, &row, -1) == 0; got++) {
        rk_lane_change c;

        if (change_of(db, row, &c)) {
            fn(baton, &c);
        }
    }
    return got;
}

int rkm_changes_since_bg(apr_pool_t *p, server_rec *s, rkm_db *db, apr_int64_t after,
                         rkm_change_fn *fn, void *baton)
{
    apr_dbd_results_t *res;
    const char *args[1];

    args[0] = apr_psprintf(p, "%" APR_INT64_T_FMT, after);
    if (rkm_db_select_bg(s, p, db, RK_Q_HISTORY_SINCE, args, &res) != 0) {
        return -1;
    }
    return each_change(p, db, res, fn, baton);
}

int rkm_changes_replay(request_rec *r, apr_pool_t *p, rkm_db *db, apr_int64_t competition,
                       apr_int64_t after, rkm_change_fn *fn, void *baton)
{
    apr_dbd_results_t *res;
    const char *args[2];

    args[0] = apr_psprintf(p, "%" APR_INT64_T_FMT, competition);
    args[1] = apr_psprintf(p, "%" APR_INT64_T_FMT, after);
    if (rkm_db_select(r, p, db, RK_Q_HISTORY_REPLAY, args, &res) != 0) {
        return -1;
    }
    return each_change(p, db, res, fn, baton);
}

int rkm_changes_follow(request_rec *r, rkm_db *db, apr_int64_t after, apr_uint64_t from,
                       apr_uint64_t to, int max, apr_int64_t *newest)
{
    char hist[32];
    const char *args[1] = { hist }, *n[2];

    apr_snprintf(hist, sizeof(hist), "%" APR_INT64_T_FMT, after);
    if (rkm_db_select_one(r, db, RK_Q_LEADERBOARD_CHANGES, args, n, 2) != 1 || !n[0] || !n[1]) {
        return -1;
    }
    if ((apr_uint64_t)apr_atoi64(n[0]) != to - from || apr_atoi64(n[0]) > max) {
        return 0;
    }
    *newest = apr_atoi64(n[1]);
    return 1;
}

apr_array_header_t *rkm_changes_lanes(request_rec *r, rkm_db *db, const char *competition,
                                      apr_int64_t after)
{
    char hist[32];
    const char *args[2] = { competition, hist };
    apr_array_header_t *out = NULL;

    apr_snprintf(hist, sizeof(hist), "%" APR_INT64_T_FMT, after);
    return rkm_db_select_rows(r, r->pool, r->pool, db, RK_Q_LEADERBOARD_CHANGED_LANES, args, 2, &out) == 0
           ? out : NULL;
}

/* ---- the committed signal ---- */

#define LISTENERS_MAX 4

static rkm_committed_fn *listeners[LISTENERS_MAX];
static int nlisteners;

void rkm_changes_listen(rkm_committed_fn *fn)
{
    int i;

    for (i = 0; i < nlisteners; i++) {
        if (listeners[i] == fn) {
            return;   /* a child_init run again in the same process (httpd -X) */
        }
    }
    if (nlisteners < LISTENERS_MAX) {
        listeners[nlisteners++] = fn;
    }
}

/* The one signal: the shared revision goes stale (every child's next request reads
 * the counters again), and, for a commit of this server, every listener is told. */
static void committed(int here)
{
    int i;

    if (revshare) {
        rk_revshare_bump(revshare);
    }
    for (i = 0; here && i < nlisteners; i++) {
        listeners[i]();
    }
}

void rkm_changes_write_done(rkm_db *db)
{
    rkm_db_write_unlock(db);
    committed(1);
}

void rkm_changes_committed_elsewhere(void)
{
    committed(0);
}
