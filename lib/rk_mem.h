/* rk_mem.h: memory for large arrays and values that come and go (a leaderboard's
 * working arrays, an answer, its gzip buffer).  From RK_MEM_MAP_MIN bytes, a mapping
 * of its own, returned to the system when freed; below, malloc().  Pure C.
 *
 * Why: glibc serves a malloc() of 128 KiB or more with a mapping of its own, but the
 * first time such a block is freed it raises that threshold to the block's size (up
 * to 32 MiB) and its trim threshold to twice that; from then on, blocks of that size
 * come from the arena of the calling thread and stay there when freed.  With up to 16
 * arenas (8 per core) and a leaderboard build of 1.8 MB in whichever thread takes it,
 * each arena came to keep 2-4 MB it did not use, and a new peak whenever a build met
 * an arena whose free space was split (doc/design.md, "Memory of a child"). */
#ifndef RK_MEM_H
#define RK_MEM_H

#include <stddef.h>

#define RK_MEM_MAP_MIN (64u << 10)

/* Under AddressSanitizer every block is malloc()ed, so that its overflows are still
 * caught (a mapping has no red zone). */
#if defined(__SANITIZE_ADDRESS__)
#define RK_MEM_MAPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RK_MEM_MAPS 0
#endif
#endif
#ifndef RK_MEM_MAPS
#define RK_MEM_MAPS 1
#endif

/* N bytes (rk_mem_calloc: NMEMB x SIZE, zeroed), aligned as malloc's; NULL when out
 * of memory or when the size overflows.  rk_mem_free(NULL) does nothing. */
void *rk_mem_alloc(size_t n);
void *rk_mem_calloc(size_t nmemb, size_t size);
void rk_mem_free(void *p);

/* P (from rk_mem_alloc, or NULL) resized to N bytes, as realloc: its first bytes kept,
 * the block possibly moved; NULL when out of memory (P is then untouched).  A mapping
 * that stays RK_MEM_MAP_MIN bytes or more is resized by the system (mremap), without a
 * copy; any other change is a new block and a copy. */
void *rk_mem_realloc(void *p, size_t n);

/* The same, for a block whose byte HEAD (under a page) should start a page, when it is
 * a mapping: a large answer whose bytes begin right after a header of HEAD bytes.  The
 * kernel copies such an answer into a socket's pages a page at a time, at whole pages
 * (rk_cache: 1-2% more large answers a second, doc/performance.md); the block takes
 * up to a page more.  A block that stays a mapping through rk_mem_realloc, or
 * rk_mem_realloc_at, keeps its place in its page; one that becomes a mapping through
 * rk_mem_realloc_at is placed so.  NULL when HEAD is a page or more. */
void *rk_mem_alloc_at(size_t n, size_t head);
void *rk_mem_realloc_at(void *p, size_t n, size_t head);

/* Bytes currently mapped by rk_mem (atomic; for tests and server-status). */
size_t rk_mem_mapped(void);

#endif
