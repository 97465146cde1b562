/* rk_revshare.h: the database's change counters (epoch, data and auth revisions) as
 * last read by any child process of this server, in a table of anonymous shared
 * memory mapped by the parent before it forks, so that a read request need not ask
 * the database for them (RankingRevisionCheck).  Pure C, no httpd header.
 *
 * One slot per virtual host (each may use its own database).  A value is good while
 *   - it was read less than MAX_AGE before now (the read's start counts), and
 *   - no commit of this server happened since the read began: every commit moves the
 *     table's generation (rk_revshare_bump, after the commit), and a value carries the
 *     generation seen before its read (rk_revshare_gen, before the read).
 * So a change committed through this server is seen by every child's next request,
 * and one committed through another server (or by hand) within MAX_AGE.
 *
 * A slot is a sequence lock: writers take it by compare-and-swap (a writer that finds
 * it taken drops its value: the table is only a cache), readers copy it and retry
 * when it moved meanwhile; every word is accessed atomically, so a reader never sees
 * a torn value. */
#ifndef RK_REVSHARE_H
#define RK_REVSHARE_H

#include <stddef.h>
#include <stdint.h>

#define RK_REVSHARE_EPOCH 64          /* longest epoch kept, NUL included */

typedef struct {
    uint32_t seq;                     /* odd while a writer fills the slot */
    uint32_t pad;
    uint64_t gen;                     /* the table's generation before the read */
    int64_t read_at;                  /* when the read began (microseconds) */
    uint64_t data, auth;
    uint64_t epoch[RK_REVSHARE_EPOCH / 8];   /* NUL-terminated text */
} rk_revshare_slot;

typedef struct {
    uint64_t gen;                     /* moved by every commit of this server */
    uint32_t nslots, pad;
    rk_revshare_slot slot[];
} rk_revshare;

/* Bytes for a table of N slots; then rk_revshare_init on that memory. */
size_t rk_revshare_size(size_t n);
void rk_revshare_init(rk_revshare *t, size_t n);

/* The generation to remember before reading the counters from the database. */
uint64_t rk_revshare_gen(const rk_revshare *t);
/* A commit of this server is done: every value read before it is out of date. */
void rk_revshare_bump(rk_revshare *t);

/* Slot I's value when it is good at NOW (see above): 1 with *DATA, *AUTH and EPOCH
 * (N bytes, N >= RK_REVSHARE_EPOCH); 0 otherwise (none, too old, a commit since, a
 * writer at work, I out of range). */
int rk_revshare_get(const rk_revshare *t, uint32_t i, int64_t now, int64_t max_age,
                    uint64_t *data, uint64_t *auth, char *epoch, size_t n);
/* The same, whatever this server committed since the read: for a caller that checks
 * the counters again where it matters (a lane PUT, in its write transaction). */
int rk_revshare_get_recent(const rk_revshare *t, uint32_t i, int64_t now, int64_t max_age,
                           uint64_t *data, uint64_t *auth, char *epoch, size_t n);

/* Keep in slot I the counters read from the database by a read that began at
 * READ_AT, after rk_revshare_gen gave GEN.  Not kept when the slot holds a value at
 * least as recent (same generation and epoch, and a later read or higher counters),
 * when another writer holds the slot, or when EPOCH is too long.  1 when kept. */
int rk_revshare_put(rk_revshare *t, uint32_t i, uint64_t gen, int64_t read_at,
                    uint64_t data, uint64_t auth, const char *epoch);

#endif
