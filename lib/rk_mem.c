/* rk_mem.c: see rk_mem.h.  Each block starts with a header of 16 bytes (the alignment
 * malloc gives) holding the bytes mapped, or 0 for a malloc()ed block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rk_mem.h"

#define HEADER 16u

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
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

        if (m == MAP_FAILED) {
            return NULL;
        }
        h = m;   /* zeroed by the system */
        *h = len;
        __atomic_add_fetch(&mapped_total, len, __ATOMIC_RELAXED);
        return (char *)h + HEADER;
    }
#endif
    h = zero ? calloc(1, total) : malloc(total);
    if (!h) {
        return NULL;
    }
    *h = 0;
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

size_t rk_mem_mapped(void)
{
    return __atomic_load_n(&mapped_total, __ATOMIC_RELAXED);
}
