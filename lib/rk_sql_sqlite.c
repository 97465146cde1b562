/* rk_sql_sqlite.c: what runs on each new SQLite connection (rk_sql.h): the PRAGMAs the
 * admin command and the module share, and the module's own busy timeout and page
 * cache. */
#include "rk_sql.h"

/* SQLite's busy timeout, per statement step: apr_dbd's sqlite3 driver retries a step
 * that is still busy 15 more times with 100 ms pauses, so a statement of the admin
 * command waits for a lock held by another process at most 16 x 250 ms + 1.5 s,
 * about 5.5 s, then fails.  The module lowers it (rk_sqlite_module_busy) and retries
 * its BEGIN IMMEDIATE itself until the writer's deadline (the module's RKM_WRITE_WAIT_MS); its
 * writers never wait there for each other: they queue on the ranking-write mutex. */
const char *const rk_sqlite_setup[] = {
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 250",
    "PRAGMA synchronous = FULL",
};
const int rk_sqlite_setup_count = (int)(sizeof(rk_sqlite_setup) / sizeof(rk_sqlite_setup[0]));

#define RK_STR_(x) #x
#define RK_STR(x) RK_STR_(x)
const char rk_sqlite_module_busy[] = "PRAGMA busy_timeout = " RK_STR(RK_SQLITE_BUSY_MS);
const char rk_sqlite_module_cache[] = "PRAGMA cache_size = -" RK_STR(RK_SQLITE_CACHE_KIB);
