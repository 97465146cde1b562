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

static void *alloc(size_t n, int zero)
{
    size_t total, *h = NULL;

    if (n > SIZE_MAX - HEADER - 65536) {
        return NULL;
    }
    total = n + HEADER;
#ifdef MAP_ANONYMOUS
    if (RK_MEM_MAPS && total >= RK_MEM_MAP_MIN) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (total + page - 1) / page * page;
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | RK_MEM_POPULATE, -1, 0);

        if (m == MAP_FAILED) {
            return NULL;
        }
        h = m;   /* zeroed by the system */
        h[0] = len;
        h[1] = n;
        __atomic_add_fetch(&mapped_total, len, __ATOMIC_RELAXED);
        return (char *)h + HEADER;
    }
#endif
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
    return alloc(n, 0);
}

void *rk_mem_calloc(size_t nmemb, size_t size)
{
    if (size && nmemb > SIZE_MAX / size) {
        return NULL;
    }
    return alloc(nmemb * size, 1);
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
        munmap(h, *h);
        return;
    }
#endif
    free(h);
}

void *rk_mem_realloc(void *p, size_t n)
{
    size_t *h, old;
    void *q;

    if (!p) {
        return rk_mem_alloc(n);
    }
    h = (size_t *)((char *)p - HEADER);
    old = h[1];
#if defined(MAP_ANONYMOUS) && defined(MREMAP_MAYMOVE)
    /* a mapping that stays one: moved or resized by the system, nothing copied */
    if (h[0] && n <= SIZE_MAX - HEADER - 65536 && n + HEADER >= RK_MEM_MAP_MIN) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (n + HEADER + page - 1) / page * page;
        size_t *m = len == h[0] ? h : mremap(h, h[0], len, MREMAP_MAYMOVE);

        if (m == MAP_FAILED) {
            return NULL;
        }
        __atomic_add_fetch(&mapped_total, len - m[0], __ATOMIC_RELAXED);   /* wraps when smaller */
        m[0] = len;
        m[1] = n;
        return (char *)m + HEADER;
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
    if (!(q = rk_mem_alloc(n))) {
        return NULL;
    }
    memcpy(q, p, old < n ? old : n);
    rk_mem_free(p);
    return q;
}

size_t rk_mem_mapped(void)
{
    return __atomic_load_n(&mapped_total, __ATOMIC_RELAXED);
}
