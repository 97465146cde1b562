/* mod_ranking_config.h: the directives and the effective settings of a request.
 * The "unset" value of a field never leaves mod_ranking_config.c: the getters
 * return what applies, defaults included. */
#ifndef MOD_RANKING_CONFIG_H
#define MOD_RANKING_CONFIG_H

#include "mod_ranking_private.h"

void *rkm_config_create_dir(apr_pool_t *p, char *dir);
void *rkm_config_merge_dir(apr_pool_t *p, void *basev, void *addv);
extern const command_rec rkm_config_cmds[];

/* register_hooks: back to the defaults of the server-wide settings (pre_config), and
 * whether RankingLoginCache's socache provider is loaded (check_config, which apache2
 * -t runs). */
void rkm_config_register_hooks(void);

/* Per mount (directory context) */
unsigned rkm_config_variants(request_rec *r);        /* RK_VARIANT_* mask */
apr_int64_t rkm_config_token_lifetime(request_rec *r);   /* seconds */
apr_off_t rkm_config_body_limit(request_rec *r);     /* bytes */
const char *rkm_config_base(request_rec *r);         /* RankingBasePath, or NULL */
unsigned rkm_config_login_limit(request_rec *r);     /* failures before 429, 0 = off */
apr_int64_t rkm_config_login_window(request_rec *r); /* seconds */
/* RankingCORSOrigins: the listed origins (*N of them), or NULL with *N 0 (off) */
const char *const *rkm_config_cors_origins(request_rec *r, size_t *n);
/* RankingPublic: 1 when the mount's read routes answer requests without a token */
int rkm_config_public(request_rec *r);
/* RankingPublicQuick: 1 (the default) when the cached public answers are served from
 * the quick handler (mod_ranking_handler.c) */
int rkm_config_public_quick(request_rec *r);
/* RankingPublicCache: the Cache-Control of the public answers, "public,
 * max-age=N[, stale-while-revalidate=M]" (made once, when the directive is read) */
const char *rkm_config_public_cache_control(request_rec *r);


/* Server-wide: RankingLoginCache ("none", or "provider[:arguments]") */
const char *rkm_config_login_cache(void);
int rkm_config_password_cost(void);                  /* RankingPasswordCost, 4..17 */

/* Server-wide, live updates: the longest silence of an event stream (seconds), the
 * most listeners (0: automatic, see mod_ranking_places.c), the most bytes waiting for a
 * slow listener before it is dropped. */
apr_interval_time_t rkm_config_event_keepalive(void);
int rkm_config_event_listeners(void);
apr_size_t rkm_config_event_buffer(void);

/* Server-wide: RankingRevisionCheck, the longest age of the shared change counters a
 * read may use (0: read them from the database on every request). */
apr_interval_time_t rkm_config_revision_check(void);

#endif
