/* rk_cache.c: see rk_cache.h.  Chained hash table of entries allocated one by one;
 * when full, it is emptied (answers are cheap to rebuild and revisions move on
 * anyway). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* memfd_create */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rk_cache.h"
#include "rk_mem.h"

#define NBUCKETS RK_CACHE_BUCKETS

static size_t alive;   /* entries allocated and not yet freed (atomic) */

/* One allocation (rk_mem: a value of RK_MEM_MAP_MIN bytes or more gets a mapping of
 * its own, returned to the system when the entry goes, so that a large answer,
 * replaced at every revision, never pins a malloc arena nor raises malloc's own mmap
 * threshold): the header, the value (right after it, so that a value pointer leads
 * back to its entry), then the key.  REFS counts the cache's own reference (while the
 * entry is in the table) and each acquired value. */
typedef struct entry {
    struct entry *next;
    uint64_t rev;
    size_t len;        /* of the value */
    size_t size;       /* bytes accounted: key + value */
    char *key;         /* after the value, inside the same allocation */
    unsigned refs;
    uint32_t meta;     /* the caller's (a list's whole length) */
    uint64_t tag;      /* the caller's (a published answer's content hash) */
    unsigned char digest[RK_CACHE_DIGEST];   /* the caller's (a resource's ETag) */
    unsigned char has_digest;
    int fd;            /* the value's memory file (rk_cache_value_file), or -1 */
} entry;

#define VALUE(e) ((char *)((e) + 1))
#define ENTRY(v) ((entry *)(v) - 1)

static entry *entry_alloc(size_t total)
{
    /* a large value starts a page (rk_mem_alloc_at) */
    entry *e = rk_mem_alloc_at(total, sizeof(entry));

    if (e) {
        __atomic_add_fetch(&alive, 1, __ATOMIC_RELAXED);
    }
    return e;
}

static void unref(entry *e)
{
    if (__atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        __atomic_sub_fetch(&alive, 1, __ATOMIC_RELAXED);
        if (e->fd >= 0) {
            close(e->fd);
        }
        rk_mem_free(e);
    }
}

size_t rk_cache_values_alive(void)
{
    return __atomic_load_n(&alive, __ATOMIC_RELAXED);
}

struct rk_cache {
    entry *bucket[NBUCKETS];
    size_t max_bytes, max_entries, bytes, entries;
};

unsigned rk_cache_hash(const char *s)
{
    unsigned h = 2166136261u;   /* FNV-1a */

    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

/* The bucket of key S: eight bytes a step (a key is about 30 bytes: the epoch, the
 * route's name and ids), the rest in one last word, then the bits folded so that the
 * bucket depends on every byte.  About a third of rk_cache_hash's cost on a key,
 * which every lookup pays; not rk_cache_hash itself, whose values are in ETags. */
static unsigned hash(const char *s)
{
    size_t n = strlen(s);
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

    for (; n >= 8; n -= 8, s += 8) {
        memcpy(&w, s, 8);
        h = ((h << 27 | h >> 37) ^ w) * 0x100000001b3ULL;
    }
    w = 0;
    memcpy(&w, s, n);
    h = ((h << 27 | h >> 37) ^ w) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return (unsigned)(h % NBUCKETS);
}

unsigned rk_cache_bucket(const char *key)
{
    return hash(key);
}

rk_cache *rk_cache_create(size_t max_bytes, size_t max_entries)
{
    rk_cache *c = calloc(1, sizeof(*c));

    if (c) {
        c->max_bytes = max_bytes;
        c->max_entries = max_entries;
    }
    return c;
}

static void clear(rk_cache *c)
{
    unsigned i;

    for (i = 0; i < NBUCKETS; i++) {
        while (c->bucket[i]) {
            entry *e = c->bucket[i];
            c->bucket[i] = e->next;
            unref(e);
        }
    }
    c->bytes = 0;
    c->entries = 0;
}

void rk_cache_destroy(rk_cache *c)
{
    if (c) {
        clear(c);
        free(c);
    }
}

/* Unlink and free KEY's entry, if any. */
static void drop(rk_cache *c, const char *key)
{
    entry **p = &c->bucket[hash(key)];

    for (; *p; p = &(*p)->next) {
        if (strcmp((*p)->key, key) == 0) {
            entry *e = *p;
            *p = e->next;
            c->bytes -= e->size;
            c->entries--;
            unref(e);
            return;
        }
    }
}

static entry *find(rk_cache *c, const char *key, uint64_t rev)
{
    entry *e;

    for (e = c->bucket[hash(key)]; e; e = e->next) {
        if (strcmp(e->key, key) == 0) {
            if (e->rev != rev) {
                drop(c, key);
                return NULL;
            }
            return e;
        }
    }
    return NULL;
}

const void *rk_cache_get(rk_cache *c, const char *key, uint64_t rev, size_t *len)
{
    entry *e = find(c, key, rev);

    if (!e) {
        return NULL;
    }
    *len = e->len;
    return VALUE(e);
}

const void *rk_cache_acquire(rk_cache *c, const char *key, uint64_t rev, size_t *len)
{
    entry *e = find(c, key, rev);

    if (!e) {
        return NULL;
    }
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_ACQ_REL);
    *len = e->len;
    return VALUE(e);
}

void rk_cache_release(const void *value)
{
    if (value) {
        unref(ENTRY(value));
    }
}

void *rk_cache_value_new(const char *key, size_t len)
{
    size_t klen = key ? strlen(key) + 1 : 0;
    entry *e;

    if (len > SIZE_MAX - sizeof(*e) - klen || !(e = entry_alloc(sizeof(*e) + len + klen))) {
        return NULL;
    }
    e->key = key ? VALUE(e) + len : NULL;
    if (key) {
        memcpy(e->key, key, klen);
    }
    e->next = NULL;
    e->refs = 1;
    e->len = len;
    e->size = klen + len;
    e->rev = 0;
    e->meta = 0;
    e->tag = 0;
    e->has_digest = 0;
    e->fd = -1;
    return VALUE(e);
}

void *rk_cache_value_resize(void *value, size_t len)
{
    entry *e = ENTRY(value), *n;
    size_t klen = e->size - e->len;

    if (len > SIZE_MAX - sizeof(*e) - klen) {
        return NULL;
    }
    if (len < e->len) {
        /* the key moves down first, while the bytes after LEN are still the value's */
        memmove(VALUE(e) + len, VALUE(e) + e->len, klen);
        e->key = klen ? VALUE(e) + len : NULL;
        e->len = len;
        e->size = klen + len;
        if (!(n = rk_mem_realloc_at(e, sizeof(*e) + len + klen, sizeof(*e)))) {
            return value;   /* not shrunk: the block as it was, still right */
        }
        n->key = klen ? VALUE(n) + len : NULL;   /* moved, perhaps */
        return VALUE(n);
    }
    if (!(n = rk_mem_realloc_at(e, sizeof(*e) + len + klen, sizeof(*e)))) {
        return NULL;
    }
    memmove(VALUE(n) + len, VALUE(n) + n->len, klen);
    n->key = klen ? VALUE(n) + len : NULL;
    n->len = len;
    n->size = klen + len;
    return VALUE(n);
}

const char *rk_cache_value_key(const void *value)
{
    return ENTRY(value)->key;
}

void rk_cache_value_set_meta(void *value, uint32_t meta)
{
    ENTRY(value)->meta = meta;
}

uint32_t rk_cache_value_meta(const void *value)
{
    return ENTRY(value)->meta;
}

void rk_cache_value_set_tag(void *value, uint64_t tag)
{
    ENTRY(value)->tag = tag;
}

uint64_t rk_cache_value_tag(const void *value)
{
    return ENTRY(value)->tag;
}

void rk_cache_value_set_digest(void *value, const unsigned char *digest)
{
    memcpy(ENTRY(value)->digest, digest, RK_CACHE_DIGEST);
    ENTRY(value)->has_digest = 1;
}

const unsigned char *rk_cache_value_digest(const void *value)
{
    const entry *e = ENTRY(value);

    return e->has_digest ? e->digest : NULL;
}

/* A new memory file holding LEN bytes of DATA, sealed against any change; -1 when the
 * system has none or it cannot be written whole. */
static int memory_file(const char *data, size_t len)
{
#if defined(MFD_CLOEXEC) && defined(MFD_ALLOW_SEALING) && defined(F_ADD_SEALS)
    int fd = memfd_create("rk-answer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    size_t done = 0;

    if (fd < 0) {
        return -1;
    }
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
        close(fd);
        return -1;
    }
    return fd;
#else
    (void)data;
    (void)len;
    return -1;
#endif
}

int rk_cache_value_file(const void *value)
{
    entry *e = ENTRY(value);
    int fd = __atomic_load_n(&e->fd, __ATOMIC_ACQUIRE), none = -1, mine;

    if (fd >= 0) {
        return fd;
    }
    if ((mine = memory_file(value, e->len)) < 0) {
        return -1;
    }
    /* two threads may make one at once: the first one kept serves both */
    if (!__atomic_compare_exchange_n(&e->fd, &none, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        close(mine);
        return none;
    }
    return mine;
}

/* FNV-1a, 64 bits */
uint64_t rk_cache_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 14695981039346656037ULL ^ seed;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

int rk_cache_insert(rk_cache *c, uint64_t rev, void *value)
{
    entry *e = ENTRY(value);
    unsigned h;

    if (!e->key) {
        return -1;   /* a value made to be sent once, not to be cached */
    }
    drop(c, e->key);
    if (e->size > c->max_bytes || c->max_entries == 0) {
        return -1;
    }
    if (c->bytes + e->size > c->max_bytes || c->entries + 1 > c->max_entries) {
        clear(c);
    }
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_ACQ_REL);   /* the cache's own */
    e->rev = rev;
    h = hash(e->key);
    e->next = c->bucket[h];
    c->bucket[h] = e;
    c->bytes += e->size;
    c->entries++;
    return 0;
}

int rk_cache_put(rk_cache *c, const char *key, uint64_t rev, const void *val, size_t len)
{
    void *v = rk_cache_value_new(key, len);
    int rv;

    if (!v) {
        drop(c, key);
        return -1;
    }
    if (len) {
        memcpy(v, val, len);
    }
    rv = rk_cache_insert(c, rev, v);
    rk_cache_release(v);
    return rv;
}

size_t rk_cache_entries(const rk_cache *c)
{
    return c->entries;
}

size_t rk_cache_bytes(const rk_cache *c)
{
    return c->bytes;
}
