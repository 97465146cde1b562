/* mod_ranking_changes.h: changes, the module's core idea.  Every answer is keyed by
 * the data revision of its database, and live updates are fed by its change log.
 * This file owns both, and the one signal that a write of this server is over:
 *
 * - The revision (table revision: a random epoch per database, and the data and auth
 *   counters that the database's triggers move on every change): read from the
 *   database, shared between the children of this server (a table of shared memory,
 *   RankingRevisionCheck) and found once per request (rkm_request_revision).
 * - The change log (table lane_history): one record per accepted change of a lane
 *   (rkm_changes_record) or, since API.md part 3, of a competition, WOD, spot, zone or
 *   heat (rkm_changes_record_resource), written by the writers through these two
 *   functions only, in the transaction of the change; read after an id by the
 *   watcher, replayed for a new event stream, counted and read by the leaderboard
 *   inputs, listed by GET /competition/{c}/changes.
 * - The committed signal (rkm_changes_write_done), sent by every writer once its write
 *   is over.  Who listens:
 *     - the revision the children share (here): it goes stale, so that every child's
 *       next request reads the counters again; the answer and token caches
 *       (mod_ranking_cache.c) and the leaderboard inputs (mod_ranking_leaderboard.c)
 *       are keyed by that revision, so they follow it;
 *     - what registered with rkm_changes_listen: the watcher (mod_ranking_watcher.c),
 *       which reads the database at once, not at its next tick, and so feeds the event
 *       streams and answers the long polls.
 *
 * The rule of the change log, which the leaderboard inputs rely on
 * (rkm_changes_follow): every accepted lane PUT or DELETE moves the data revision by
 * exactly one (the lane's trigger: one changed row) and writes exactly one record, in
 * the same transaction.  rkm_changes_record enforces it: it refuses a change that
 * did not touch exactly one lane and a record that was not exactly one row, and then
 * the writer rolls the transaction back.  Any other change (of another resource, or
 * a lane created) never passes for a lane update: its record has no lane id (another
 * resource) or the action "create", and a leaderboard input that meets such a record
 * of its competition reads the whole competition again (mod_ranking_leaderboard.c);
 * a change that moves the revision by more than one (a heat deleted with its lanes)
 * makes the counts differ, which reads everything again too.  Nothing is ever
 * skipped: at worst an input is read in full. */
#ifndef MOD_RANKING_CHANGES_H
#define MOD_RANKING_CHANGES_H

#include "mod_ranking_private.h"
#include "mod_ranking_db.h"
#include "rk_sse.h"
#include "rk_router.h"

struct rkm_req;

/* The database's change counters (table revision). */
typedef struct {
    const char *epoch;               /* random per database */
    apr_uint64_t data, auth;         /* moved by every data / account change */
} rkm_rev;

void rkm_changes_register_hooks(void);

/* The module's per-server configuration (no directive): what each virtual host's
 * requests find in one load, its slot in the shared revision table. */
void *rkm_changes_create_server(apr_pool_t *p, server_rec *s);

/* ---- the revision ---- */

/* Read the change counters into REV.  0, or -1 on a database error. */
int rkm_revision_read(request_rec *r, rkm_db *db, rkm_rev *rev);
/* The same for a thread of the module's own (errors logged for S, the epoch in P):
 * 1, 0 when the table has no row (REV untouched), -1 on a database error. */
int rkm_revision_read_bg(apr_pool_t *p, server_rec *s, rkm_db *db, rkm_rev *rev);

/* The change counters of the request, found once into RQ->rev: for a GET or HEAD,
 * those another child of this server read lately when RankingRevisionCheck allows
 * (no database), else read (DB opened if its dbd is NULL).  0, or -1 on a database
 * error. */
int rkm_request_revision(request_rec *r, rkm_db *db, struct rkm_req *rq);
/* Count how RQ found its counters (server-status: RankingRevisionReads, or
 * RankingRevisionShared); rkm_request_revision does, but for the quick handler, whose
 * request counts once it is answered there (mod_ranking_handler.c). */
void rkm_request_revision_count(const struct rkm_req *rq);
/* The same, read from the database whatever RQ->rev holds (an answer about to be
 * built reads it, so that the answer and its ETag tell the same revision). */
int rkm_request_revision_fresh(request_rec *r, rkm_db *db, struct rkm_req *rq);

/* ---- the change log ---- */

/* The records are read a page at a time: a page of fewer rows is the last. */
#define RKM_CHANGES_PAGE 500

/* Record a change of the lane of ROUTE (variant A) inside the transaction of the
 * change: when, who, what (ACTION "create", "update" or "delete"), the lane before
 * (NULL: created) and after (NULL: deleted).  LANE_ROWS is the count of lanes the change's statement changed:
 * anything but 1 is refused (the rule above).  0, or -1 (the writer rolls back). */
int rkm_changes_record(request_rec *r, rkm_db *db, const rk_route *route, int lane_rows,
                       const char *action, const char *before, const char *after);

/* Record a change of a resource (API.md part 3) inside the transaction of the change:
 * RESOURCE ("competition", "wod", "spot", "zone", "heat" or "lane") and its ID, its
 * COMPETITION, and where it is (ZONE: a zone's own id or a heat's or lane's zone,
 * HEAT: a heat's own id or a lane's heat; NULL otherwise), ACTION ("create",
 * "update", "delete"), the resource as shown BEFORE and AFTER (NULL: none).  The
 * setup writes record this way; so does a heat generation (mod_ranking_heatgen.c),
 * every heat and lane it inserted or deleted, each of which moved the data revision
 * by one (its trigger): the rule above holds in count, and since these records are
 * no lane updates, a kept leaderboard input reads its competition again
 * (mod_ranking_leaderboard.c).  0, or -1 (the writer rolls back). */
int rkm_changes_record_resource(request_rec *r, rkm_db *db, const char *resource,
                                const char *competition, const char *zone, const char *heat,
                                const char *id, const char *action, const char *before,
                                const char *after);

/* The id of the newest record (0 when none) into *ID: 0, or -1 on a database error. */
int rkm_changes_newest(request_rec *r, rkm_db *db, apr_int64_t *id);

/* Called for each record read; pointers into the row, valid during the call. */
typedef void rkm_change_fn(void *baton, const rk_lane_change *c);

/* One page of the records after AFTER, of every competition, for a thread of the
 * module's own (the watcher): FN for each.  The rows read, or -1 on a database
 * error. */
int rkm_changes_since_bg(apr_pool_t *p, server_rec *s, rkm_db *db, apr_int64_t after,
                         rkm_change_fn *fn, void *baton);
/* One page of the records of COMPETITION after AFTER (a stream's replay), the driver's
 * structures in P: FN for each.  The rows read, or -1 on a database error. */
int rkm_changes_replay(request_rec *r, apr_pool_t *p, rkm_db *db, apr_int64_t competition,
                       apr_int64_t after, rkm_change_fn *fn, void *baton);

/* Whether the data moved from revision FROM to TO by recorded lane changes only,
 * those after record AFTER: by the rule above, when the records after AFTER number
 * TO - FROM (at most MAX of them).  1 with *NEWEST the newest record's id, 0 (some
 * other change happened, or more than MAX), -1 on a database error. */
int rkm_changes_follow(request_rec *r, rkm_db *db, apr_int64_t after, apr_uint64_t from,
                       apr_uint64_t to, int max, apr_int64_t *newest);
/* The lanes of COMPETITION changed after record AFTER, in order: an array of
 * (lane id, action) pairs of strings in R's pool, or NULL on a database error. */
apr_array_header_t *rkm_changes_lanes(request_rec *r, rkm_db *db, const char *competition,
                                      apr_int64_t after);

/* ---- the committed signal ---- */

/* Called with no lock held, on the writer's thread, after every write of this
 * server. */
typedef void rkm_committed_fn(void);
/* child_init: call FN on every commit (at most a few listeners). */
void rkm_changes_listen(rkm_committed_fn *fn);

/* The committed signal, from its two senders (one function behind them):
 * - a write of this server is over (committed, or rolled back: nobody needs to tell
 *   which): the write mutex (DB's, taken by rkm_db_write_lock) is given back, then
 *   the shared revision goes stale and every listener is told.  Every writer ends
 *   its write here.
 * - the watcher saw a change committed elsewhere (another server, ranking-admin): the
 *   shared revision goes stale, the watcher itself is not told again. */
void rkm_changes_write_done(rkm_db *db);
void rkm_changes_committed_elsewhere(void);

#endif
