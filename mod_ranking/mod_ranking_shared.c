/* mod_ranking_shared.c: anonymous shared memory (see mod_ranking_shared.h). */
#include <errno.h>
#include <sys/mman.h>

#include "mod_ranking_shared.h"

typedef struct {
    void *p;
    size_t size;
    void **slot;
} shared_map;

static apr_status_t shared_unmap(void *data)
{
    shared_map *m = data;

    munmap(m->p, m->size);
    if (*m->slot == m->p) {
        *m->slot = NULL;
    }
    return APR_SUCCESS;
}

void *rkm_shared_map(apr_pool_t *pconf, server_rec *s, size_t size, void **slot, const char *what)
{
    shared_map *m = apr_palloc(pconf, sizeof(*m));

    m->p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m->p == MAP_FAILED) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, errno, s, "mod_ranking: cannot map the %s", what);
        return NULL;
    }
    m->size = size;
    m->slot = slot;
    *slot = m->p;
    apr_pool_cleanup_register(pconf, m, shared_unmap, apr_pool_cleanup_null);
    return m->p;
}
