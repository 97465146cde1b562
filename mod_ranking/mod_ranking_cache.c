/* mod_ranking_cache.c: the per-child caches.  malloc()ed and bounded (rk_cache), never
 * in a request's pool; one mutex guards both. */
#include "apr_thread_mutex.h"

#include "mod_ranking_cache.h"
#include "mod_ranking_status.h"
#include "rk_cache.h"
#include "rk_sql.h"
#include "rk_token.h"

#define ANSWER_CACHE_BYTES (32u << 20)
#define ANSWER_CACHE_ENTRIES 4096u
/* answers of a query string (a page, a filter, a division): a cache of their own, so
 * that a flood of distinct parameter sets empties only that one */
#define QUERIED_CACHE_BYTES (8u << 20)
#define QUERIED_CACHE_ENTRIES 1024u
#define TOKEN_CACHE_BYTES (2u << 20)
#define TOKEN_CACHE_ENTRIES 8192u
#define BUILD_LOCKS 32

static rk_cache *answers, *queried, *tokens;
static apr_thread_mutex_t *cache_mutex;
static unsigned char token_hash_key[16];   /* drawn at child start */
static apr_thread_mutex_t *build_locks[BUILD_LOCKS];

static apr_status_t caches_destroy(void *unused)
{
    (void)unused;
    rk_cache_destroy(answers);
    rk_cache_destroy(queried);
    rk_cache_destroy(tokens);
    answers = queried = tokens = NULL;
    return APR_SUCCESS;
}

static void cache_child_init(apr_pool_t *p, server_rec *s)
{
    int i;

    if (apr_thread_mutex_create(&cache_mutex, APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "mod_ranking: no cache mutex: caches off");
        cache_mutex = NULL;
        return;
    }
    if (apr_generate_random_bytes(token_hash_key, sizeof(token_hash_key)) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "mod_ranking: no random bytes for the "
                     "token cache: caches off");
        apr_thread_mutex_destroy(cache_mutex);
        cache_mutex = NULL;
        return;
    }
    for (i = 0; i < BUILD_LOCKS; i++) {
        if (apr_thread_mutex_create(&build_locks[i], APR_THREAD_MUTEX_DEFAULT, p) != APR_SUCCESS) {
            build_locks[i] = NULL;   /* that share of the keys is built without waiting */
        }
    }
    answers = rk_cache_create(ANSWER_CACHE_BYTES, ANSWER_CACHE_ENTRIES);
    queried = rk_cache_create(QUERIED_CACHE_BYTES, QUERIED_CACHE_ENTRIES);
    tokens = rk_cache_create(TOKEN_CACHE_BYTES, TOKEN_CACHE_ENTRIES);
    apr_pool_cleanup_register(p, NULL, caches_destroy, apr_pool_cleanup_null);
}

/* The one guard of both caches: 1 with the lock held, 0 when C is off. */
static int lock(rk_cache *c)
{
    return c && cache_mutex && apr_thread_mutex_lock(cache_mutex) == APR_SUCCESS;
}

static void unlock(void)
{
    apr_thread_mutex_unlock(cache_mutex);
}

/* The cache of KEY: a key with a query ('?') goes to the cache of queried answers. */
static rk_cache *cache_of(const char *key)
{
    return strchr(key, '?') ? queried : answers;
}

/* What the answer caches hold, for server-status (the cache lock held). */
static void publish_sizes(void)
{
    rk_stats_set(&rkm_stats->answer_entries, rk_cache_entries(answers) + rk_cache_entries(queried));
    rk_stats_set(&rkm_stats->answer_bytes, rk_cache_bytes(answers) + rk_cache_bytes(queried));
}

const void *rkm_answer_acquire(const char *key, apr_uint64_t rev, size_t *len)
{
    rk_cache *c = cache_of(key);
    const void *v;

    if (!lock(c)) {
        return NULL;
    }
    v = rk_cache_acquire(c, key, rev, len);
    if (v) {
        rk_stats_add(&rkm_stats->answer_hits, 1);   /* a hit changes no size */
    }
    else {
        publish_sizes();   /* a miss may have dropped the entry of another revision */
    }
    unlock();
    return v;
}

void rkm_answer_insert(apr_uint64_t rev, void *v)
{
    const char *key = rk_cache_value_key(v);
    rk_cache *c = key ? cache_of(key) : NULL;

    if (lock(c)) {
        rk_cache_insert(c, rev, v);
        rk_stats_add(&rkm_stats->answer_misses, 1);   /* a miss is an answer built */
        publish_sizes();
        unlock();
    }
}

/* After a write, the threads that ask for the same route wait for the first one's
 * answer instead of all building it (a leaderboard polled by many screens).  Keys
 * are spread over a few locks with the cache's own hash. */
apr_thread_mutex_t *rkm_build_lock(const char *key)
{
    apr_thread_mutex_t *m;

    if (!answers) {
        return NULL;
    }
    m = build_locks[rk_cache_hash(key) % BUILD_LOCKS];
    return m && apr_thread_mutex_lock(m) == APR_SUCCESS ? m : NULL;
}

void rkm_build_unlock(apr_thread_mutex_t *m)
{
    if (m) {
        apr_thread_mutex_unlock(m);
    }
}

void rkm_token_cache_key(const char *tok, size_t len, char *key)
{
    rk_token_cache_key(tok, len, token_hash_key, key);
}

int rkm_token_cache_get(const char *key, apr_uint64_t rev, rkm_token_entry *out)
{
    const void *v;
    size_t n = 0;
    int found = 0;

    if (!lock(tokens)) {
        return 0;
    }
    if ((v = rk_cache_get(tokens, key, rev, &n)) != NULL && n == sizeof(*out)) {
        memcpy(out, v, sizeof(*out));
        found = 1;
    }
    rk_stats_add(found ? &rkm_stats->token_hits : &rkm_stats->token_misses, 1);
    rk_stats_set(&rkm_stats->token_entries, rk_cache_entries(tokens));
    unlock();
    return found;
}

void rkm_token_cache_put(const char *key, apr_uint64_t rev, const rkm_token_entry *e)
{
    if (lock(tokens)) {
        rk_cache_put(tokens, key, rev, e, sizeof(*e));
        rk_stats_set(&rkm_stats->token_entries, rk_cache_entries(tokens));
        unlock();
    }
}

void rkm_cache_register_hooks(void)
{
    ap_hook_child_init(cache_child_init, NULL, NULL, APR_HOOK_MIDDLE);
}
