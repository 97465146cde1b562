/* rk_cache.h: a bounded map from a string key to bytes, each entry valid for one
 * revision of the database.  Pure C (rk_mem: malloc, or a mapping of its own for a
 * large value; not pools: entries outlive requests).  Not thread-safe: the caller
 * serialises access to a cache (values are reference-counted atomically). */
#ifndef RK_CACHE_H
#define RK_CACHE_H

#include <stddef.h>
#include <stdint.h>

typedef struct rk_cache rk_cache;

/* A cache holding at most MAX_BYTES of keys and values in at most MAX_ENTRIES
 * entries.  NULL on allocation failure. */
rk_cache *rk_cache_create(size_t max_bytes, size_t max_entries);
void rk_cache_destroy(rk_cache *c);

/* The value stored under KEY for revision REV, or NULL (absent, or stored for another
 * revision: such an entry is dropped).  The pointer is valid until the next call that
 * changes the cache. */
const void *rk_cache_get(rk_cache *c, const char *key, uint64_t rev, size_t *len);

/* Like rk_cache_get, but the value stays valid, whatever happens to the cache, until
 * rk_cache_release(value) is called once for it (from any thread, without the
 * caller's lock: entries are reference-counted atomically). */
const void *rk_cache_acquire(rk_cache *c, const char *key, uint64_t rev, size_t *len);
void rk_cache_release(const void *value);

/* Store a copy of VAL under KEY for revision REV, replacing what was there.  When the
 * cache would exceed its bounds, it is emptied first; a value larger than the whole
 * cache is not stored.  0 on success, -1 when not stored. */
int rk_cache_put(rk_cache *c, const char *key, uint64_t rev, const void *val, size_t len);

/* A value built in place: LEN writable bytes for KEY, not in any cache yet, with one
 * reference held by the caller (rk_cache_release drops it).  KEY NULL: a value that
 * is only sent, never cached (rk_cache_insert refuses it).  rk_cache_insert then
 * stores the value itself (no copy) for revision REV, replacing what was under KEY,
 * with a reference of the cache's own; the same bounds as rk_cache_put apply (0, or
 * -1 when not stored).  A value goes into one cache once.  NULL when out of memory. */
void *rk_cache_value_new(const char *key, size_t len);
int rk_cache_insert(rk_cache *c, uint64_t rev, void *value);

/* VALUE (from rk_cache_value_new, not inserted yet) resized to LEN bytes, as realloc:
 * its first bytes and its key kept, possibly moved (a large value is remapped, not
 * copied: rk_mem_realloc).  NULL when out of memory; VALUE is then as it was.  A value
 * made larger than its answer can be written in one pass, then cut to its length. */
void *rk_cache_value_resize(void *value, size_t len);

/* The key a value was made for (rk_cache_value_new), or NULL. */
const char *rk_cache_value_key(const void *value);

/* A number kept with a value (set before it is shared; 0 unless set): the answer
 * cache keeps a list's whole length there, for X-Total-Count. */
void rk_cache_value_set_meta(void *value, uint32_t meta);
uint32_t rk_cache_value_meta(const void *value);

/* Another number kept with a value (set before it is shared; 0 unless set): the
 * answer cache keeps there the content hash of an answer whose ETag is its content's
 * (the published view, mod_ranking_read.c). */
void rk_cache_value_set_tag(void *value, uint64_t tag);
uint64_t rk_cache_value_tag(const void *value);
/* RK_CACHE_DIGEST bytes kept with a value (set before it is shared): the answer cache
 * keeps there the digest that a single resource's ETag is made of, computed once when
 * the answer is built rather than at every read (mod_ranking_read_etag.c).  NULL
 * unless set. */
#define RK_CACHE_DIGEST 16
void rk_cache_value_set_digest(void *value, const unsigned char *digest);
const unsigned char *rk_cache_value_digest(const void *value);

/* A memory file (memfd_create, sealed) holding the bytes of VALUE, a shared value
 * (inserted in a cache, or acquired: no longer written), for sendfile(2): made at
 * the first call, the same descriptor at every later one, closed when the value is
 * freed (the caller holds a reference while it uses it; it reads the file only at
 * explicit offsets, pread or sendfile, the descriptor being shared).  Any thread,
 * without the cache's lock.  -1 when the system has none or out of memory: the
 * caller then sends the bytes themselves.  The file holds a second copy of the
 * value, outside the cache's bounds (not mapped: no part of the process's RSS). */
int rk_cache_value_file(const void *value);

/* A 64-bit hash of LEN bytes of DATA (FNV-1a, its start mixed with SEED): for tags
 * that change when the content does, not against an adversary. */
uint64_t rk_cache_hash_bytes(const void *data, size_t len, uint64_t seed);

/* The bucket of KEY in a cache's table, of RK_CACHE_BUCKETS (for tests: how keys
 * spread). */
#define RK_CACHE_BUCKETS 1024u
unsigned rk_cache_bucket(const char *key);

/* Values allocated and not yet freed, over every cache of the process (for tests). */
size_t rk_cache_values_alive(void);

/* The string hash the cache spreads its keys with (FNV-1a), for callers that spread
 * the same keys over something of their own. */
unsigned rk_cache_hash(const char *s);

/* Entries and bytes held (for tests and logs). */
size_t rk_cache_entries(const rk_cache *c);
size_t rk_cache_bytes(const rk_cache *c);

#endif
