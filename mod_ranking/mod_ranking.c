/* mod_ranking.c: the module record, and the table of contents of the httpd glue.
 * Each file that has hooks registers them itself (its rkm_*_register_hooks, called
 * below; their order is that of the child_init hooks).  Glue names are rkm_*, the
 * pure library's (lib/, rk_*.c, no httpd header) rk_*.
 *
 *   mod_ranking_private.h     what every glue file includes (httpd, the module)
 *   mod_ranking_config.c      the directives and the settings of a request
 *   mod_ranking_config_public.c  where RankingPublic On is said (for the quick handler)
 *   mod_ranking_status.c      the module's section of server-status (shared table)
 *   mod_ranking_shared.c      anonymous shared memory the parent maps for the children
 *   mod_ranking_db.c          the database through mod_dbd: connections, statements,
 *                             queries
 *   mod_ranking_pools.c       pools of their own for rows (large answers, kept inputs)
 *   mod_ranking_transaction.c transactions and the ranking-write mutex
 *   mod_ranking_session.c     a connection's driver session: reset (PostgreSQL),
 *                             read-only (SQLite), reopened; database errors once a
 *                             second
 *   mod_ranking_changes.c     changes: the revision (shared between the children, read
 *                             per request), the change log (record, read since,
 *                             replay) and the one committed signal
 *   mod_ranking_handler.c     the hooks a request goes through: claim the mount, the
 *                             token check, the handler (route, method, role, answer);
 *                             the quick handler of a public mount's cached answers
 *   mod_ranking_request.c     the state of a request, the headers of every answer
 *   mod_ranking_answer.c      the module's JSON answers
 *   mod_ranking_errors.c      httpd's own error answers on a mount, made JSON
 *   mod_ranking_body.c        reading a request body
 *   mod_ranking_auth.c        the bearer token of a request
 *   mod_ranking_connect.c     POST /connect (tokens given) and login throttling
 *   mod_ranking_cache.c       the per-child caches: built answers, token checks
 *   mod_ranking_read.c        the read path: answers per revision, ETag, 304, gzip
 *   mod_ranking_read_etag.c   the ETag of a read's answer
 *   mod_ranking_leaderboard.c leaderboards, and the inputs each child keeps for them
 *   mod_ranking_write.c       lane writes: PUT in grouped commits, DELETE
 *   mod_ranking_setup.c       the organizer's writes: POST, PATCH, DELETE of
 *                             competitions, WODs, spots, zones, heats; POST of lanes
 *                             (their database rules: mod_ranking_setup_rules.c;
 *                             a team list as text/csv: mod_ranking_setup_csv.c)
 *   mod_ranking_heatgen.c     POST .../wod/{w}/generate-heats: heats seeded from the
 *                             ranking (lib/rk_seed.h), in one transaction
 *   mod_ranking_idem.c        safe retries: a write's Idempotency-Key (replay, 422),
 *                             its answer kept with the write (lib/rk_idem.h)
 *   mod_ranking_stream.c      live updates, the request side: the event stream and the
 *                             long poll, made, registered with the watcher, refused
 *   mod_ranking_listener.c    live updates, a listener and this child's list of them:
 *                             its queue, its turns, its end (the design of live
 *                             updates: mod_ranking_listener.h)
 *   mod_ranking_parked.c      live updates, a listener's connection: its writes, and
 *                             with the event MPM its parking, turns and end
 *   mod_ranking_watcher.c     live updates, the watcher thread of each child: the
 *                             revision and the change log of the databases that have
 *                             listeners, read every tick or at once after a commit
 *   mod_ranking_places.c      live updates, how many listeners there may be
 */
#define RKM_DECLARES_MODULE
#include "mod_ranking_private.h"
#include "mod_ranking_connect.h"
#include "mod_ranking_leaderboard.h"
#include "mod_ranking_cache.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_config.h"
#include "mod_ranking_db.h"
#include "mod_ranking_errors.h"
#include "mod_ranking_handler.h"
#include "mod_ranking_parked.h"
#include "mod_ranking_places.h"
#include "mod_ranking_watcher.h"
#include "mod_ranking_status.h"
#include "mod_ranking_write.h"

static void rkm_register_hooks(apr_pool_t *p)
{
    (void)p;
    rkm_config_register_hooks();
    rkm_status_register_hooks();
    rkm_db_register_hooks();
    rkm_transaction_register_hooks();
    rkm_changes_register_hooks();
    rkm_connect_register_hooks();
    rkm_write_register_hooks();
    rkm_cache_register_hooks();
    rkm_leaderboard_register_hooks();
    rkm_places_register_hooks();
    rkm_watcher_register_hooks();
    rkm_parked_register_hooks();
    rkm_errors_register_hooks();
    rkm_handler_register_hooks();
}

AP_DECLARE_MODULE(ranking) = {
    STANDARD20_MODULE_STUFF,
    rkm_config_create_dir,
    rkm_config_merge_dir,
    rkm_changes_create_server,
    NULL,   /* each virtual host gets its own at post_config (mod_ranking_changes.c) */
    rkm_config_cmds,
    rkm_register_hooks
#if defined(AP_MODULE_FLAG_ALWAYS_MERGE)
    , AP_MODULE_FLAG_ALWAYS_MERGE
#endif
};
