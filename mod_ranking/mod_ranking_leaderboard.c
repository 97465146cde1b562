/* mod_ranking_leaderboard.c: a leaderboard is computed by the pure rk_leaderboard (the
 * ranking rules) from the competition's rows: its WODs, spots and every lane that may
 * rank.  The read path caches each answer per data revision; here, each child also
 * keeps the rows of the last few competitions it ranked (the "input"), so that a new
 * revision made only of lane changes costs a read of the changed lanes instead of the
 * whole competition (24,000 lanes took 21 ms to read, 3 ms to free).
 *
 * An input at revision R, holding the change log up to id H, follows the database to
 * revision R' without a full read when R' - R equals the number of change-log records
 * after H (rkm_changes_follow): by the rule of the change log (mod_ranking_changes.h),
 * every accepted lane PUT or DELETE moves the revision by exactly one and writes
 * exactly one record, in one transaction, so the equality holds only when
 * nothing but recorded lane changes happened (a change of any other row moves the
 * revision without a record; a record that commits late with an id below H, which
 * PostgreSQL allows, is counted in R' but not after H).  Then each changed lane of
 * this competition is read again: a new score, tiebreak or spot is patched in place;
 * anything else (a deleted lane, a new lane number, a lane that can no longer rank)
 * reads the whole competition again.  All of it in one read-only transaction.
 *
 * A competition has two inputs (API.md part 3): its current scores (the full view) and
 * its published ones (the published view of a competition with publication
 * 'validated'), kept in two slots and followed alike (a validation is a recorded lane
 * change too: its lane's published values are read again). */
#include "mod_ranking_leaderboard.h"
#include "mod_ranking_changes.h"
#include "rk_cache.h"
#include "rk_leaderboard.h"

#define LANE_NCOLS 7         /* RK_Q_LEADERBOARD_LANES: wod, spot, heat, lane, score, tiebreak, number */
#define INPUTS 4                /* inputs kept per child (least recently used goes) */
#define MAX_PATCH 64            /* changes followed at once; more: a full read */
#define MAX_PATCHED 4096        /* patches before a full read gives the pool's memory back */

typedef struct {
    /* under inputs_lock: the competition (and view: "<id>p" for the published one)
     * this slot serves, and when it last did */
    char owner[RK_ID_MAX_DIGITS + 2];
    apr_uint64_t used;
    /* under the slot's own lock: what it holds */
    apr_thread_mutex_t *lock;   /* held while the input is read, patched or ranked */
    apr_pool_t *pool;           /* the input's rows; NULL: nothing kept */
    const char *cid, *epoch;    /* cid: the owner it was read for */
    int published;              /* the published values, not the current ones */
    apr_uint64_t rev;           /* the data revision the input shows */
    apr_int64_t hist;           /* the newest change-log id it includes */
    rk_leaderboard_input in;
    rk_leaderboard_lane *lanes;          /* in.lanes, to patch */
    const char **numbers;       /* [i]: the lane number of lanes[i] */
    unsigned patched;
    size_t hint[4];             /* [(wod ? 2 : 0) + (division ? 1 : 0)]: room for its next body */
} kept_input;

static kept_input inputs[INPUTS];
static apr_thread_mutex_t *inputs_lock;   /* the table: which input is whose */
static apr_uint64_t inputs_clock;

static void leaderboard_child_init(apr_pool_t *p, server_rec *s)
{
    int i;

    if (apr_thread_mutex_create(&inputs_lock, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
        inputs_lock = NULL;
    }
    for (i = 0; inputs_lock && i < INPUTS; i++) {
        if (apr_thread_mutex_create(&inputs[i].lock, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
            inputs_lock = NULL;
        }
    }
    if (!inputs_lock) {
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, "mod_ranking: no mutex for the kept "
                     "leaderboard inputs: every leaderboard reads its whole competition");
    }
}

/* The input kept for competition CID, locked; else the least recently used one,
 * given to CID and emptied, locked.  NULL when inputs are not kept (no mutex).  Which
 * competition a slot serves (owner) is read and changed only under inputs_lock; what
 * it holds, only under its own lock: a thread never reads another's rows. */
static kept_input *input_take(const char *cid)
{
    kept_input *in = NULL;
    int i;

    if (!inputs_lock) {
        return NULL;
    }
    apr_thread_mutex_lock(inputs_lock);
    for (i = 0; i < INPUTS; i++) {
        if (strcmp(inputs[i].owner, cid) == 0) {
            in = &inputs[i];
            break;
        }
        if (!in || inputs[i].used < in->used) {
            in = &inputs[i];
        }
    }
    apr_cpystrn(in->owner, cid, sizeof(in->owner));
    in->used = ++inputs_clock;
    apr_thread_mutex_unlock(inputs_lock);
    apr_thread_mutex_lock(in->lock);
    if (in->pool && strcmp(in->cid, cid) != 0) {   /* another competition's: dropped */
        apr_pool_destroy(in->pool);
        in->pool = NULL;
    }
    return in;
}

static void input_drop(kept_input *in)
{
    if (in->pool) {
        apr_pool_destroy(in->pool);
        in->pool = NULL;
    }
}

/* The whole input of competition CID into IN, its rows in P (the driver's structures
 * in TMP).  OK, 404 when there is no such competition, or 503. */
static int read_rows(request_rec *r, apr_pool_t *tmp, apr_pool_t *p, rkm_db *db,
                     const char *cid, kept_input *in)
{
    rk_query_id timed = in->published ? RK_Q_LEADERBOARD_LANES_PUB : RK_Q_LEADERBOARD_LANES;
    rk_query_id untimed = in->published ? RK_Q_LEADERBOARD_LANES_UNTIMED_PUB
                                        : RK_Q_LEADERBOARD_LANES_UNTIMED;
    const char *args[1] = { cid };
    apr_array_header_t *comp = NULL, *wods = NULL, *spots = NULL, *lanes = NULL;
    const char **v;
    rk_leaderboard_wod *w;
    rk_leaderboard_spot *s;
    int i;

    if (rkm_db_select_rows(r, tmp, p, db, RK_Q_LEADERBOARD_COMPETITION, args, 3, &comp) != 0
        || rkm_db_select_rows(r, tmp, p, db, RK_Q_LEADERBOARD_WODS, args, 3, &wods) != 0
        || rkm_db_select_rows(r, tmp, p, db, RK_Q_LEADERBOARD_SPOTS, args, 4, &spots) != 0
        || rkm_db_select_rows(r, tmp, p, db, timed, args, LANE_NCOLS, &lanes) != 0
        || rkm_db_select_rows(r, tmp, p, db, untimed, args, LANE_NCOLS, &lanes) != 0
        || rkm_changes_newest(r, db, &in->hist) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (comp->nelts == 0) {
        return HTTP_NOT_FOUND;
    }
    memset(&in->in, 0, sizeof(in->in));
    v = (const char **)comp->elts;
    in->in.competition_id = v[0];
    in->in.ranking = v[1];
    in->in.advance = v[2];

    in->in.nwods = (size_t)wods->nelts;
    in->in.wods = w = apr_pcalloc(p, (in->in.nwods + 1) * sizeof(*w));
    for (i = 0, v = (const char **)wods->elts; i < wods->nelts; i++, v += 3) {
        w[i].id = v[0];
        w[i].scoring = v[1];
        w[i].time_cap = v[2];
    }
    in->in.nspots = (size_t)spots->nelts;
    in->in.spots = s = apr_pcalloc(p, (in->in.nspots + 1) * sizeof(*s));
    for (i = 0, v = (const char **)spots->elts; i < spots->nelts; i++, v += 4) {
        s[i].id = v[0];
        s[i].name = v[1];
        s[i].division = v[2];
        s[i].bib = v[3];
    }
    in->in.nlanes = (size_t)lanes->nelts;
    in->in.lanes = in->lanes = apr_pcalloc(p, (in->in.nlanes + 1) * sizeof(*in->lanes));
    in->numbers = apr_pcalloc(p, (in->in.nlanes + 1) * sizeof(*in->numbers));
    for (i = 0, v = (const char **)lanes->elts; i < lanes->nelts; i++, v += LANE_NCOLS) {
        rk_leaderboard_lane *l = &in->lanes[i];

        l->wod_id = v[0];
        l->spot_id = v[1];
        l->heat_id = v[2];
        l->lane_id = v[3];
        l->score = v[4];
        l->tiebreak = v[5];
        in->numbers[i] = v[6];
    }
    return OK;
}

/* The whole input of competition CID into IN (its pool P, already created).  OK, 404
 * when there is no such competition, 503 or 500. */
static int read_all(request_rec *r, apr_pool_t *p, rkm_db *db, const char *cid,
                    kept_input *in)
{
    apr_pool_t *tmp = rkm_db_rows_pool(r);
    int rv = tmp ? read_rows(r, tmp, p, db, cid, in) : HTTP_INTERNAL_SERVER_ERROR;

    if (tmp) {
        apr_pool_destroy(tmp);
    }
    return rv;
}

static int same(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

/* Patch the lanes changed after IN->hist into IN (the records after it account for
 * every revision step since IN->rev: rkm_changes_follow).  OK; DECLINED when IN cannot follow
 * them (read it all again); 503. */
static int patch(request_rec *r, rkm_db *db, kept_input *in)
{
    apr_array_header_t *changes = rkm_changes_lanes(r, db, in->in.competition_id, in->hist);
    const char **c;
    int i;

    if (!changes) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    for (i = 0, c = (const char **)changes->elts; i < changes->nelts; i++, c += 2) {
        const char *largs[2] = { in->in.competition_id, c[0] }, *v[LANE_NCOLS];
        size_t k;

        /* a lane's new values (an update), or its published ones (a validation) */
        if (!c[0] || !(same(c[1], "update") || same(c[1], "validate"))) {
            return DECLINED;
        }
        switch (rkm_db_select_one(r, db, in->published ? RK_Q_LEADERBOARD_LANE_PUB
                                  : RK_Q_LEADERBOARD_LANE, largs, v, LANE_NCOLS)) {
        case -1: return HTTP_SERVICE_UNAVAILABLE;
        case 0:  return DECLINED;   /* it can no longer rank: its spot was taken off */
        }
        for (k = 0; k < in->in.nlanes && strcmp(in->lanes[k].lane_id, c[0]) != 0; k++) {
        }
        /* not there before (it could not rank), or moved in the heat-list order */
        if (k == in->in.nlanes || !same(in->lanes[k].heat_id, v[2])
            || !same(in->lanes[k].wod_id, v[0]) || !same(in->numbers[k], v[6])) {
            return DECLINED;
        }
        if (!same(in->lanes[k].spot_id, v[1])) {
            in->lanes[k].spot_id = apr_pstrdup(in->pool, v[1]);
        }
        if (!same(in->lanes[k].score, v[4])) {
            in->lanes[k].score = v[4] ? apr_pstrdup(in->pool, v[4]) : NULL;
        }
        if (!same(in->lanes[k].tiebreak, v[5])) {
            in->lanes[k].tiebreak = v[5] ? apr_pstrdup(in->pool, v[5]) : NULL;
        }
        in->patched++;
    }
    return OK;
}

/* Bring IN (kept for competition CID and its view, OWNER, or empty) to what the open
 * read transaction sees.  OK, 404 (no such competition: IN is empty), 503 or 500. */
static int refresh(request_rec *r, rkm_db *db, const char *cid, const char *owner,
                   kept_input *in)
{
    rkm_rev rev;
    apr_pool_t *p;
    apr_int64_t newest;
    int rv;

    if (rkm_revision_read(r, db, &rev) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (in->pool && strcmp(in->epoch, rev.epoch) == 0 && rev.data >= in->rev
        && in->patched < MAX_PATCHED) {
        if (rev.data == in->rev) {
            return OK;
        }
        switch (rkm_changes_follow(r, db, in->hist, in->rev, rev.data, MAX_PATCH, &newest)) {
        case -1:
            return HTTP_SERVICE_UNAVAILABLE;
        case 1:
            if ((rv = patch(r, db, in)) == OK) {
                ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "leaderboard input of competition "
                              "%s: %" APR_UINT64_T_FMT " lane changes followed", cid,
                              rev.data - in->rev);
                in->rev = rev.data;
                in->hist = newest;
            }
            if (rv != DECLINED) {
                if (rv != OK) {
                    input_drop(in);   /* half patched */
                }
                return rv;
            }
        }
    }
    input_drop(in);
    if (!(p = rkm_db_own_pool(NULL))) {   /* kept until the input is dropped */
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    in->pool = p;
    in->patched = 0;
    if ((rv = read_all(r, p, db, cid, in)) != OK) {
        input_drop(in);
        return rv;
    }
    ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "leaderboard input of competition %s: "
                  "read whole (%" APR_SIZE_T_FMT " lanes)", cid, in->in.nlanes);
    in->cid = apr_pstrdup(p, owner);
    in->epoch = apr_pstrdup(p, rev.epoch);
    in->rev = rev.data;
    return OK;
}

/* The answer's value grown as its body is written (rk_leaderboard_json_grow); CTX: its
 * key (NULL: a value only sent) */
static char *value_resize(void *ctx, char *buf, size_t n)
{
    return buf ? rk_cache_value_resize(buf, n) : rk_cache_value_new(ctx, n);
}

/* Rank IN and write the leaderboard of WOD (NULL: overall) and DIVISION (NULL: all)
 * into a value for the answer cache under KEY.  The body is written in one pass into a
 * value of *HINT bytes (the last such body's length and a little; 0: none yet), grown
 * as needed, then cut to its length; *HINT is set for the next one. */
static void *rank(request_rec *r, const rk_leaderboard_input *in, const char *wod, const char *division,
                  const char *key, size_t *hint, int *status, size_t *len)
{
    rk_leaderboard *lb = rk_leaderboard_compute(in);
    char *out = NULL;
    size_t n;

    *status = HTTP_INTERNAL_SERVER_ERROR;
    if (lb == NULL) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "out of memory ranking competition %s",
                      in->competition_id);
    }
    else if ((wod && !rk_leaderboard_has_wod(lb, wod)) || (division && !rk_leaderboard_has_division(lb, division))) {
        *status = HTTP_NOT_FOUND;
    }
    else {
        out = *hint ? rk_cache_value_new(key, *hint) : NULL;
        n = rk_leaderboard_json_grow(lb, wod, division, &out, out ? *hint : 0, value_resize,
                                     (void *)key);
        if (n == (size_t)-1) {
            ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "out of memory writing the leaderboard "
                          "of competition %s", in->competition_id);
            if (out) {
                rk_cache_release(out);
                out = NULL;
            }
        }
        else {
            out = rk_cache_value_resize(out, n);   /* smaller: never NULL */
            *len = n;
            *hint = n + n / 64;
            *status = HTTP_OK;
        }
    }
    rk_leaderboard_free(lb);
    return out;
}

void *rkm_leaderboard_build(request_rec *r, rkm_db *db, const rk_route *route, const char *division,
                     int published, const char *key, int *status, size_t *len)
{
    const char *cid = route->ids[RK_ID_COMPETITION];
    const char *wod = route->id == RK_ROUTE_WOD_LEADERBOARD ? route->ids[1] : NULL;
    const char *owner = published ? apr_pstrcat(r->pool, cid, "p", NULL) : cid;
    kept_input *in = input_take(owner), scratch;
    void *out = NULL;

    if (!in) {   /* nothing kept: read into an input of this request's */
        memset(&scratch, 0, sizeof(scratch));
        in = &scratch;
    }
    in->published = published;
    if (rkm_db_begin_read(r, db) != 0) {
        *status = HTTP_SERVICE_UNAVAILABLE;
    }
    else {
        *status = refresh(r, db, cid, owner, in);
        rkm_db_end_read(r, db);
    }
    if (*status == OK) {
        out = rank(r, &in->in, wod, division, key, &in->hint[(wod ? 2 : 0) + (division ? 1 : 0)],
                   status, len);
    }
    if (in == &scratch) {
        input_drop(in);
    }
    else {
        apr_thread_mutex_unlock(in->lock);
    }
    return out;
}
int rkm_leaderboard_with(request_rec *r, rkm_db *db, const char *cid, rkm_leaderboard_fn *fn,
                         void *baton)
{
    kept_input *in = input_take(cid), scratch;
    rk_leaderboard *lb = NULL;
    int status;

    if (!in) {
        memset(&scratch, 0, sizeof(scratch));
        in = &scratch;
    }
    in->published = 0;   /* the full view: its input is kept under the competition's id */
    if (rkm_db_begin_read(r, db) != 0) {
        status = HTTP_SERVICE_UNAVAILABLE;
    }
    else {
        status = refresh(r, db, cid, cid, in);
        rkm_db_end_read(r, db);
    }
    if (status == OK && !(lb = rk_leaderboard_compute(&in->in))) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "out of memory ranking competition %s", cid);
        status = HTTP_INTERNAL_SERVER_ERROR;
    }
    if (lb) {
        fn(baton, lb);
        rk_leaderboard_free(lb);
    }
    if (in == &scratch) {
        input_drop(in);
    }
    else {
        apr_thread_mutex_unlock(in->lock);
    }
    return status;
}

int rkm_leaderboard_exists(request_rec *r, rkm_db *db, const rk_route *route)
{
    const char *args[RK_MAX_IDS], *id[1];

    rk_route_args(route, args);
    switch (rkm_db_select_one(r, db, route->id == RK_ROUTE_WOD_LEADERBOARD ? RK_Q_WOD
                             : RK_Q_COMPETITION, args, id, 1)) {
    case 1:  return OK;
    case 0:  return HTTP_NOT_FOUND;
    default: return HTTP_SERVICE_UNAVAILABLE;
    }
}

void rkm_leaderboard_register_hooks(void)
{
    ap_hook_child_init(leaderboard_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}
