/* mod_ranking_write.c: lane writes.
 *
 * Lane PUTs are committed in groups (rk_group.c).  SQLite commits one transaction at
 * a time and each commit waits for the disk (WAL, synchronous=FULL), so the writers
 * of a child process queue their checked updates; the leader takes the write mutex,
 * runs every queued update in one transaction, each inside its own savepoint (a
 * refused update is rolled back alone), commits once, and wakes the others.  Every
 * writer answers only after the commit that holds its update: as durable as one
 * transaction per request, with one disk sync for the whole group.  The leader
 * allocates a job's results in the job's request pool while that request's thread
 * waits, so a pool is never used by two threads at once.  PostgreSQL groups them the
 * same way: there every write transaction locks the one revision row first (see
 * rkm_db_begin_write), so writers serialise there too, and each commit waits for its
 * WAL flush; one transaction per group makes one flush per group. */
#include "mod_ranking_write.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_auth.h"
#include "mod_ranking_body.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_request.h"
#include "mod_ranking_status.h"
#include "mod_ranking_changes.h"
#include "rk_body.h"
#include "rk_cache.h"
#include "rk_cond.h"
#include "rk_group.h"
#include "rk_json.h"
#include "rk_score.h"

#define LANE_FIELDS RKM_LANE_FIELDS

int rkm_lane_row(request_rec *r, rkm_db *db, const rk_route *route, const char **v)
{
    const char *args[RK_MAX_IDS];

    rk_route_args(route, args);
    return rkm_db_select_one(r, db, RK_Q_A_VOIE, args, v, LANE_FIELDS);
}

const char *rkm_lane_json(request_rec *r, const char *const *v)
{
    char *out = apr_palloc(r->pool, rk_json_object_bound(&rk_res_voie, v) + 1);

    out[rk_json_object(out, &rk_res_voie, v)] = '\0';
    return out;
}

/* The lane's strong ETag from its row V (LANE_FIELDS values): the tag a GET of the
 * voie (or line) shows (rk_lane_etag of the same object bytes). */
const char *rkm_lane_etag(request_rec *r, const rkm_req *rq, const char *lane_obj)
{
    return rk_lane_etag(rq->rev.epoch, lane_obj, strlen(lane_obj),
                        apr_palloc(r->pool, RK_LANE_ETAG_MAX));
}

/* The preconditions of a write (If-Match, If-None-Match) against the lane as it is
 * now (its JSON object): RK_COND_PASS or RK_COND_FAILED (412).  A request without
 * them passes without a look at the lane. */
static rk_cond write_cond(request_rec *r, const rkm_req *rq, const char *lane_obj);

int rkm_lane_cond_failed(request_rec *r, const rkm_req *rq, const char *lane_obj)
{
    return rkm_request_has_conditions(r) && write_cond(r, rq, lane_obj) == RK_COND_FAILED;
}

static rk_cond write_cond(request_rec *r, const rkm_req *rq, const char *lane_obj)
{
    const char *etag = rkm_lane_etag(r, rq, lane_obj);

    if (!etag) {
        return RK_COND_FAILED;
    }
    return rk_cond_eval(apr_table_get(r->headers_in, "If-Match"),
                        apr_table_get(r->headers_in, "If-None-Match"), etag, 0);
}

typedef struct {
    rk_group_job link;    /* first: a batch is a list of these */
    request_rec *r;
    rkm_req *rq;
    rk_lane_patch *patch;
    int status;           /* HTTP_OK, or the error answer's status, or JOB_RECHECK */
    const char *err;      /* its message (NULL: the status's own) */
    void *answer;         /* on success, the answer: the lane as stored */
    size_t len;
    const char *etag;     /* on success, the lane's new ETag */
} put_job;

static rk_group *group;   /* this child's queue; NULL: each PUT commits on its own */

/* A job not run: its token was checked with counters (the auth revision, the epoch)
 * that its transaction found out of date.  Its thread checks the token again and
 * queues it once more (rkm_put_lane). */
#define JOB_RECHECK 1

/* Whether the job of RQ may write in the transaction whose epoch and auth revision
 * are EPOCH and AUTH (text, as read): a PUT whose token was checked with the
 * children's shared counters writes only when they are still the database's (no
 * change of an account, a token or a grant since, the same database); the others
 * were checked with counters read from the database. */
static int job_current(const rkm_req *rq, const char *epoch, const char *auth)
{
    return !rq->auth_deferred
           || (epoch && auth && rq->rev.auth == (apr_uint64_t)apr_atoi64(auth)
               && strcmp(rq->rev.epoch, epoch) == 0);
}

static void write_child_init(apr_pool_t *p, server_rec *s)
{
    if ((group = rk_group_create(p)) == NULL) {
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, "mod_ranking: no lane write queue: "
                     "each lane PUT commits on its own");
    }
}

/* The checks and the update of one job, in the open transaction: HTTP_OK with the
 * answer, or the error status and message.  1 when the update reached the database
 * and was refused there (a UNIQUE constraint, or a failure): the caller looks for
 * the lane in the way once the savepoint is rolled back. */
static int apply(rkm_db *db, put_job *job, rk_lane_args *la)
{
    request_rec *r = job->r;
    const rk_route *route = &job->rq->route;
    const rk_lane_patch *patch = job->patch;
    const char *args[RK_MAX_IDS], *lane[LANE_FIELDS + 6], *found_spot[1];
    const char *const *before = lane, *const *extra = lane + LANE_FIELDS;
    const char *after[LANE_FIELDS], *after_obj;
    apr_int64_t lane_count;
    rk_lane_now now;
    rk_score score;
    int nrows;

    rk_route_args(route, args);
    /* the lane before, then lane_count, the heat's WOD's scoring and time_cap, the
     * publication, the database's epoch and auth revision (EXTRA) */
    switch (rkm_db_select_one(r, db, RK_Q_LANE_FOR_UPDATE, args, lane, LANE_FIELDS + 6)) {
    case -1: job->status = HTTP_SERVICE_UNAVAILABLE; return 0;
    case 0:  job->status = HTTP_NOT_FOUND; return 0;   /* deleted meanwhile */
    }
    /* a token checked with counters out of date: its thread checks it again (no 404
     * before that: a lane deleted meanwhile is found then) */
    if (!job_current(job->rq, extra[4], extra[5])) {
        job->status = JOB_RECHECK;
        return 0;
    }
    /* its counters are the database's: whatever this job answers now, its token
     * needs no check again (its thread waits: the leader may write its state) */
    job->rq->auth_deferred = 0;
    /* If-Match / If-None-Match, against the lane in this transaction: a writer with a
     * stale ETag cannot overwrite a change committed since it read the lane (the
     * check before the queue may have passed against an older state) */
    if (rkm_request_has_conditions(r) && write_cond(r, job->rq, rkm_lane_json(r, before)) == RK_COND_FAILED) {
        job->status = HTTP_PRECONDITION_FAILED;
        return 0;
    }
    lane_count = extra[0] ? apr_atoi64(extra[0]) : RK_LANE_NUMBER_MAX;
    if ((patch->set & RK_LANE_SET_NUMBER) && patch->number > lane_count) {
        job->status = HTTP_BAD_REQUEST;
        job->err = "Invalid body: number greater than the zone's lane_count";
        return 0;
    }
    /* the score is read by the heat's WOD (free text without one), stored as sent */
    if ((patch->set & RK_LANE_SET_SCORE) && !patch->score_null
        && rk_score_parse(rk_scoring_parse(extra[1]), extra[2] ? apr_atoi64(extra[2]) : 0,
                          patch->score, &score, &job->err) != 0) {
        job->status = HTTP_BAD_REQUEST;
        return 0;
    }
    if ((patch->set & RK_LANE_SET_SPOT) && !patch->spot_null) {
        const char *sargs[2] = { route->ids[RK_ID_COMPETITION], patch->spot_id };
        switch (rkm_db_select_one(r, db, RK_Q_SPOT_IN_COMPETITION, sargs, found_spot, 1)) {
        case -1: job->status = HTTP_SERVICE_UNAVAILABLE; return 0;
        case 0:
            job->status = HTTP_BAD_REQUEST;
            job->err = "Invalid body: spot_id is not a spot of this competition";
            return 0;
        }
    }
    /* its score_status and published values follow from the lane as it is now */
    now.score = before[RK_LANE_COL_SCORE];
    now.tiebreak = before[RK_LANE_COL_TIEBREAK];
    now.immediate = !extra[3] || strcmp(extra[3], "validated") != 0;
    rk_lane_args_pack(patch, route->ids[RK_ID_A_HEAT], route->ids[RK_ID_A_LANE], &now, la);
    if (rkm_db_query(r, db, la->query, la->args, &nrows, APLOG_INFO) != 0) {
        job->status = HTTP_SERVICE_UNAVAILABLE;
        return 1;
    }
    /* the lane as stored: the answer, its ETag, and the change log's "after" (what
     * the update stored, from the lane before it; read again when the spot changed) */
    if ((rk_lane_after(patch, la, before, after) != 0 && rkm_lane_row(r, db, route, after) != 1)
        || !(after_obj = rkm_lane_json(r, after))
        || rkm_changes_record(r, db, route, nrows, "update", rkm_lane_json(r, before), after_obj) != 0
        || !(job->etag = rkm_lane_etag(r, job->rq, after_obj))) {
        job->status = HTTP_SERVICE_UNAVAILABLE;
        return 0;
    }
    job->len = rk_json_answer_of(NULL, &rk_res_voie, after_obj, strlen(after_obj));
    if ((job->answer = rk_cache_value_new(NULL, job->len)) == NULL) {
        job->status = HTTP_INTERNAL_SERVER_ERROR;
        return 0;
    }
    rk_json_answer_of(job->answer, &rk_res_voie, after_obj, strlen(after_obj));
    /* its Idempotency-Key, in the job's savepoint (a refused job's 4xx is kept after
     * the group: mod_ranking_idem.h) */
    if (rkm_idem_keep(r, db, HTTP_OK, job->answer, job->len, NULL, job->etag) != 0) {
        job->status = HTTP_SERVICE_UNAVAILABLE;
    }
    return 0;
}

/* One job inside its savepoint; a refused job changes nothing.  The FIRST job of a
 * batch sets the savepoint; each job but the LAST releases its own and sets the next
 * job's (one round trip on PostgreSQL); the COMMIT releases the last.  0, or -1 when
 * the transaction itself failed (the whole batch is then rolled back). */
static int put_one(request_rec *leader, rkm_db *db, put_job *job, int first, int last)
{
    request_rec *r = job->r;
    rk_lane_args la;
    const char *cnt[1];
    int refused;

    if (first && rkm_db_savepoint(leader, db) != 0) {
        return -1;
    }
    refused = apply(db, job, &la);
    if (job->status != HTTP_OK) {
        rk_cache_release(job->answer);
        job->answer = NULL;
        /* undo it (PostgreSQL refuses any statement before that) */
        if (rkm_db_rollback_to(leader, db) != 0) {
            return -1;
        }
    }
    if (refused && rkm_db_select_one(r, db, RK_Q_LANE_CONFLICT, la.conflict, cnt, 1) == 1
        && cnt[0] && apr_atoi64(cnt[0]) > 0) {
        job->status = HTTP_CONFLICT;
        job->err = (job->patch->set & RK_LANE_SET_NUMBER)
            ? "Conflict: the lane number or the spot is already used in this heat"
            : "Conflict: the spot is already in another lane of this heat";
    }
    return last || rkm_db_savepoint_next(leader, db) == 0 ? 0 : -1;
}

typedef struct {
    request_rec *r;   /* the leader's request, for the transaction's own log lines */
    rkm_db *db;        /* the leader's connection */
} batch_ctx;

/* Run the jobs of BATCH in one transaction and commit it.  Each job ends with its
 * status set; a job that failed changed nothing. */
static void put_batch(void *ctxv, rk_group_job *batch)
{
    batch_ctx *ctx = ctxv;
    request_rec *r = ctx->r;
    rkm_db *db = ctx->db;
    rk_group_job *l;
    apr_time_t deadline;
    int locked, begun = 0, failed, n = 0, refused = 0, recheck = 0;

    for (l = batch; l; l = l->next) {
        put_job *j = (put_job *)l;

        j->status = HTTP_OK;
        j->err = NULL;
        j->answer = NULL;
    }
    /* the earliest deadline of the batch: no writer waits past its own */
    deadline = rk_group_batch_deadline(batch);
    locked = (db->dbd || rkm_db_open(r, db) == OK) && rkm_db_write_lock_until(r, db, deadline) == 0;
    begun = locked && rkm_db_begin_write(r, db, deadline) == 0;
    failed = !begun;
    for (l = batch; l && !failed; l = l->next) {
        failed = put_one(r, db, (put_job *)l, l == batch, !l->next) != 0;
        recheck += ((put_job *)l)->status == JOB_RECHECK;
    }
    if (!failed && rkm_db_commit(r, db) != 0) {
        failed = 1;
    }
    if (failed && begun) {
        rkm_db_rollback(r, db);
    }
    if (locked) {
        rkm_changes_write_done(db);
    }
    for (l = batch; l; l = l->next) {
        put_job *j = (put_job *)l;

        if (failed) {
            rk_cache_release(j->answer);
            j->answer = NULL;
            if (j->status == HTTP_OK || j->status == JOB_RECHECK) {   /* not kept, or not reached */
                j->status = HTTP_SERVICE_UNAVAILABLE;
                j->err = NULL;
            }
        }
        n++;
        refused += j->status != HTTP_OK && j->status != JOB_RECHECK;
    }
    if (!failed) {
        rk_stats_add(&rkm_stats->commit_groups, 1);
        rk_stats_add(&rkm_stats->commit_lanes, n - refused - recheck);
    }
    ap_log_rerror(APLOG_MARK, APLOG_TRACE1, 0, r, "lane writes: %d in one transaction, "
                  "%d refused, %s; %d left to their token's check again", n, refused,
                  failed ? "rolled back" : "committed", failed ? 0 : recheck);
}

/* The checked body of a lane PUT into JOB's patch: 0, or 1 when the request is
 * answered (*ANSWERED: what the handler returns).  404 comes before the body's
 * refusals (415, 413, 400: the order of checks, doc/api.md): the lane is looked up
 * only then, unless CHECKED (found already); an accepted body meets its lane in the
 * transaction, 404 there when there is none. */
static int take_patch(request_rec *r, rkm_req *rq, rkm_db *db, put_job *job, int checked,
                      int *answered)
{
    const char *args[RK_MAX_IDS], *lane[1];
    char *body;
    apr_size_t len;
    int rv = rkm_json_body(r, &body, &len);

    job->patch = apr_pcalloc(r->pool, sizeof(*job->patch));
    if (rv == OK && rk_lane_patch_parse(body, len, job->patch, &job->err) == 0) {
        return 0;
    }
    /* a token checked with shared counters: 401 or 403 before the body's refusal */
    if (rkm_auth_confirm(r, rq) != OK) {
        *answered = OK;
        return 1;
    }
    if (rv != AP_FILTER_ERROR && !checked) {
        rk_route_args(&rq->route, args);
        switch (db->dbd || rkm_db_open(r, db) == OK
                ? rkm_db_select_one(r, db, RK_Q_LANE_EXISTS, args, lane, 1) : -1) {
        case -1: *answered = rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE); return 1;
        case 0:  *answered = rkm_send_status(r, HTTP_NOT_FOUND); return 1;
        }
    }
    *answered = rv == OK ? rkm_send_error(r, HTTP_BAD_REQUEST, job->err) : rkm_refuse_body(r, rv);
    return 1;
}

int rkm_put_lane(request_rec *r, rkm_req *rq)
{
    const char *now[LANE_FIELDS];
    put_job *job = apr_pcalloc(r->pool, sizeof(*job));
    batch_ctx ctx;
    int rv, checked = 0;
    rkm_db db;

    /* the connection is opened when the database is asked: a PUT whose counters and
     * token are known asks it only if its thread leads its group (put_batch) */
    memset(&db, 0, sizeof(db));
    /* the database's epoch, for the lane's ETag (read once per request) */
    if (rkm_request_revision(r, &db, rq) != 0) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    /* 404, then 412, before the body (415, 413, 400) when the lane already fails the
     * preconditions; the transaction checks again */
    if (rkm_request_has_conditions(r)) {
        if (!db.dbd && (rv = rkm_db_open(r, &db)) != OK) {
            return rkm_send_status(r, rv);
        }
        switch (rkm_lane_row(r, &db, &rq->route, now)) {
        case -1: return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
        case 0:  return rkm_send_status(r, HTTP_NOT_FOUND);
        }
        if (write_cond(r, rq, rkm_lane_json(r, now)) == RK_COND_FAILED) {
            return rkm_send_status(r, HTTP_PRECONDITION_FAILED);
        }
        checked = 1;
    }
    if (take_patch(r, rq, &db, job, checked, &rv)) {
        return rv;
    }
    job->r = r;
    job->rq = rq;
    ctx.r = r;
    ctx.db = &db;
    /* the whole wait for the write lock (queue, mutex, SQLite) ends by then */
    job->link.deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);
    do {
        job->link.next = NULL;
        if (group) {
            if (rk_group_submit(group, &job->link, job->link.deadline, put_batch, &ctx) != 0) {
                ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "lane write: still queued "
                              "behind another write after %d ms: gave up", RKM_WRITE_WAIT_MS);
                return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
            }
        }
        else {
            put_batch(&ctx, &job->link);
        }
        /* not run: its token is checked again with the database's counters (401 or
         * 403 answered), then it queues once more, no longer deferred (runs as is) */
        if (job->status == JOB_RECHECK && rkm_auth_confirm(r, rq) != OK) {
            return OK;
        }
    } while (job->status == JOB_RECHECK);
    if (job->status != HTTP_OK) {
        /* a refusal of a job whose counters its transaction could not compare (a lane
         * deleted meanwhile, a failure; rkm_auth_confirm does nothing for the others):
         * the token checked again first */
        if (rkm_auth_confirm(r, rq) != OK) {
            return OK;
        }
        return rkm_send_error(r, job->status, job->err);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "lane %s of heat %s changed by %s:%s%s%s%s",
                  rq->route.ids[RK_ID_A_LANE], rq->route.ids[RK_ID_A_HEAT],
                  r->user ? r->user : "-",
                  (job->patch->set & RK_LANE_SET_NUMBER) ? " number" : "",
                  (job->patch->set & RK_LANE_SET_SPOT) ? " spot_id" : "",
                  (job->patch->set & RK_LANE_SET_SCORE) ? " score" : "",
                  (job->patch->set & RK_LANE_SET_TIEBREAK) ? " tiebreak" : "");
    apr_table_setn(r->headers_out, "ETag", job->etag);
    return rkm_send_value(r, job->answer, job->len);
}

int rkm_delete_lane(request_rec *r, rkm_req *rq)
{
    const char *args[RK_MAX_IDS], *before[LANE_FIELDS];
    int rv, nrows = 0, found = -1, begun, failed_cond = 0;
    apr_time_t deadline;
    size_t oklen = 0;
    const char *ok = rkm_json_text(r, rk_json_success(NULL, NULL), &oklen);
    rkm_db db;

    if ((rv = rkm_db_open(r, &db)) != OK) {
        return rkm_send_status(r, rv);
    }
    if (rkm_request_has_conditions(r) && rkm_request_revision(r, &db, rq) != 0) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);   /* the epoch of the ETag */
    }
    rk_route_args(&rq->route, args);
    deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);
    if (rkm_db_write_lock_until(r, &db, deadline) != 0) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    /* the lane, gone, and its last state in the change log: all or nothing */
    begun = rkm_db_begin_write(r, &db, deadline) == 0;
    if (begun && (found = rkm_lane_row(r, &db, &rq->route, before)) == 1 && rkm_request_has_conditions(r)
        && write_cond(r, rq, rkm_lane_json(r, before)) == RK_COND_FAILED) {
        failed_cond = 1;   /* 412: nothing deleted, rolled back */
        rv = -1;
    }
    else if (begun && found == 1) {
        rv = rkm_db_query(r, &db, RK_Q_LANE_DELETE, args, &nrows, APLOG_ERR);
        if (rv == 0) {
            rv = rkm_changes_record(r, &db, &rq->route, nrows, "delete", rkm_lane_json(r, before), NULL);
        }
        if (rv == 0) {   /* its Idempotency-Key, with it */
            rv = ok ? rkm_idem_keep(r, &db, HTTP_OK, ok, oklen, NULL, NULL) : -1;
        }
        rv = rv == 0 ? rkm_db_commit(r, &db) : -1;
    }
    if (begun && (found != 1 || rv != 0)) {
        rkm_db_rollback(r, &db);
    }
    rkm_changes_write_done(&db);
    if (found == 0) {
        return rkm_send_status(r, HTTP_NOT_FOUND);
    }
    if (failed_cond) {
        return rkm_send_status(r, HTTP_PRECONDITION_FAILED);
    }
    if (found != 1 || rv != 0) {
        return rkm_send_status(r, HTTP_SERVICE_UNAVAILABLE);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "lane %s of heat %s deleted by %s",
                  rq->route.ids[RK_ID_A_LANE], rq->route.ids[RK_ID_A_HEAT],
                  r->user ? r->user : "-");
    return rkm_send_body(r, HTTP_OK, ok, oklen);
}

void rkm_write_register_hooks(void)
{
    ap_hook_child_init(write_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}
