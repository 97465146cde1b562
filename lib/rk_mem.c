/* rk_mem.c: see rk_mem.h.  Each block starts with a header of 16 bytes (the alignment
 * malloc gives) holding the bytes mapped (0 for a malloc()ed block), then the bytes
 * asked for. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* mremap */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rk_mem.h"

#define HEADER 16u

/* A mapping is filled at once (its pages are all written soon: a leaderboard's arrays,
 * an answer): one call into the kernel instead of a fault per page. */
#ifdef MAP_POPULATE
#define RK_MEM_POPULATE MAP_POPULATE
#else
#define RK_MEM_POPULATE 0
#endif

static size_t mapped_total;   /* atomic */

/* The bytes a mapping leaves before its block's header so that byte HEAD of the block
 * starts a page (HEAD < 0: none, the header at the mapping's start).  Under a page:
 * the mapping's start is its header's page, whatever the block's placement. */
static size_t skip_for(long head, size_t page)
{
    return head < 0 ? 0 : (page - (HEADER + (size_t)head) % page) % page;
}

/* The mapping holding the block whose header is H (a mapped block). */
static void *mapping_of(size_t *h, size_t page)
{
    return (void *)((uintptr_t)h & ~(uintptr_t)(page - 1));
}

static void *alloc(size_t n, int zero, long head)
{
    size_t total, *h = NULL;

    if (n > SIZE_MAX - HEADER - 65536) {
        return NULL;
    }
    total = n + HEADER;
#ifdef MAP_ANONYMOUS
    if (RK_MEM_MAPS && total >= RK_MEM_MAP_MIN) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE), skip = skip_for(head, page);
        size_t len = (skip + total + page - 1) / page * page;
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | RK_MEM_POPULATE, -1, 0);

        if (m == MAP_FAILED) {
            return NULL;
        }
        h = (size_t *)((char *)m + skip);   /* zeroed by the system */
        h[0] = len;
        h[1] = n;
        __atomic_add_fetch(&mapped_total, len, __ATOMIC_RELAXED);
        return (char *)h + HEADER;
    }
#endif
    (void)head;
    h = zero ? calloc(1, total) : malloc(total);
    if (!h) {
        return NULL;
    }
    h[0] = 0;
    h[1] = n;
    return (char *)h + HEADER;
}

void *rk_mem_alloc(size_t n)
{
    return alloc(n, 0, -1);
}

void *rk_mem_alloc_at(size_t n, size_t head)
{
    return head < (size_t)sysconf(_SC_PAGESIZE) ? alloc(n, 0, (long)head) : NULL;
}

void *rk_mem_calloc(size_t nmemb, size_t size)
{
    if (size && nmemb > SIZE_MAX / size) {
        return NULL;
    }
    return alloc(nmemb * size, 1, -1);
}

void rk_mem_free(void *p)
{
    size_t *h;

    if (!p) {
        return;
    }
    h = (size_t *)((char *)p - HEADER);
#ifdef MAP_ANONYMOUS
    if (*h) {
        __atomic_sub_fetch(&mapped_total, *h, __ATOMIC_RELAXED);
        munmap(mapping_of(h, (size_t)sysconf(_SC_PAGESIZE)), *h);
        return;
    }
#endif
    free(h);
}

/* P resized to N bytes; a block that becomes a mapping (a copy) placed as HEAD says
 * (rk_mem_alloc_at; < 0: nowhere in particular).  A mapping stays where it is in its
 * page. */
static void *resize(void *p, size_t n, long head)
{
    size_t *h, old;
    void *q;

    if (!p) {
        return alloc(n, 0, head);
    }
    h = (size_t *)((char *)p - HEADER);
    old = h[1];
#if defined(MAP_ANONYMOUS) && defined(MREMAP_MAYMOVE)
    /* a mapping that stays one: moved or resized by the system, nothing copied; the
     * block keeps its place in its page (the system moves whole pages) */
    if (h[0] && n <= SIZE_MAX - HEADER - 65536 && n + HEADER >= RK_MEM_MAP_MIN) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        char *start = mapping_of(h, page), *m;
        size_t skip = (size_t)((char *)h - start), len = (skip + n + HEADER + page - 1) / page * page;

        m = len == h[0] ? start : mremap(start, h[0], len, MREMAP_MAYMOVE);
        if (m == MAP_FAILED) {
            return NULL;
        }
        h = (size_t *)(m + skip);
        __atomic_add_fetch(&mapped_total, len - h[0], __ATOMIC_RELAXED);   /* wraps when smaller */
        h[0] = len;
        h[1] = n;
        return (char *)h + HEADER;
    }
#endif
    /* a malloc()ed block that stays one: resized by the allocator (in place when it
     * can: a block cut to its length gives its tail back without a copy) */
    if (!h[0] && n <= SIZE_MAX - HEADER - 65536 && (!RK_MEM_MAPS || n + HEADER < RK_MEM_MAP_MIN)) {
        size_t *m = realloc(h, n + HEADER);

        if (!m) {
            return NULL;
        }
        m[1] = n;
        return (char *)m + HEADER;
    }
    if (!(q = alloc(n, 0, head))) {
        return NULL;
    }
    memcpy(q, p, old < n ? old : n);
    rk_mem_free(p);
    return q;
}

void *rk_mem_realloc(void *p, size_t n)
{
    return resize(p, n, -1);
}

void *rk_mem_realloc_at(void *p, size_t n, size_t head)
{
    return head < (size_t)sysconf(_SC_PAGESIZE) ? resize(p, n, (long)head) : NULL;
}

size_t rk_mem_mapped(void)
{
    return __atomic_load_n(&mapped_total, __ATOMIC_RELAXED);
}
