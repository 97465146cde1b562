/* mod_ranking_pools.c: pools with an allocator of their own, for rows (see
 * mod_ranking_db.h): memory given back when the pool goes, not kept by a request's or
 * a connection's allocator. */
#include "mod_ranking_db.h"

apr_pool_t *rkm_db_own_pool(apr_pool_t *parent)
{
    apr_allocator_t *alloc = NULL;
    apr_pool_t *p = NULL;
    apr_status_t rv;

    if (apr_allocator_create(&alloc) != APR_SUCCESS) {
        return NULL;
    }
    rv = parent ? apr_pool_create_ex(&p, parent, NULL, alloc)
                : apr_pool_create_unmanaged_ex(&p, NULL, alloc);
    if (rv != APR_SUCCESS) {
        apr_allocator_destroy(alloc);
        return NULL;
    }
    apr_allocator_owner_set(alloc, p);
    return p;
}

apr_pool_t *rkm_db_rows_pool(request_rec *r)
{
    return rkm_db_own_pool(r->pool);
}
