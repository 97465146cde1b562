/* mod_ranking_cache.h: the per-child caches (built answers, token checks), each
 * entry valid for one revision of the database.  When a cache could not be set up
 * at child start, every call here answers "not cached" and the module still works. */
#ifndef MOD_RANKING_CACHE_H
#define MOD_RANKING_CACHE_H

#include "mod_ranking_private.h"

/* register_hooks: child_init makes this child's caches. */
void rkm_cache_register_hooks(void);

/* Answers.  The value under KEY for REV with a reference held for the caller
 * (rk_cache_release), or NULL. */
const void *rkm_answer_acquire(const char *key, apr_uint64_t rev, size_t *len);
/* Keep V, a value built in place (rk_cache_value_new, under its key), for REV; the
 * caller keeps its own reference. */
void rkm_answer_insert(apr_uint64_t rev, void *v);
/* One answer is built at a time per key in a child: the lock for KEY, taken (NULL
 * when there is none: build without waiting).  rkm_build_unlock gives it back. */
apr_thread_mutex_t *rkm_build_lock(const char *key);
void rkm_build_unlock(apr_thread_mutex_t *lock);

/* Token checks, keyed by a keyed hash of the token under a per-child random key and
 * the competition of the request's path (the role there). */
typedef struct {
    apr_int64_t expires;
    int server_role;   /* RK_ROLE_*: the user's server-wide role */
    int role;          /* RK_ROLE_*: its role on the key's competition (the higher of
                        * SERVER_ROLE and its grant there) */
    char user[65];     /* RK_USER_NAME_MAX + 1 */
} rkm_token_entry;

/* KEY (RK_TOKEN_KEY_HEX + 1 bytes): the cache key of TOK[0..LEN). */
void rkm_token_cache_key(const char *tok, size_t len, char *key);
/* The entry under KEY for REV copied into *OUT: 1, or 0 when there is none. */
int rkm_token_cache_get(const char *key, apr_uint64_t rev, rkm_token_entry *out);
void rkm_token_cache_put(const char *key, apr_uint64_t rev, const rkm_token_entry *e);

#endif
