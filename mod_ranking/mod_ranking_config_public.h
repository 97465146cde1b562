/* mod_ranking_config_public.h: where RankingPublic On is said, for the quick handler
 * (mod_ranking_handler.c), which runs before the <Location> sections are walked: it
 * looks no further for a request no such section can apply to. */
#ifndef MOD_RANKING_CONFIG_PUBLIC_H
#define MOD_RANKING_CONFIG_PUBLIC_H

#include "mod_ranking_private.h"

/* pre_config: none said yet (mod_ranking_config.c) */
void rkm_public_sections_reset(void);
/* RankingPublic On read in the section of CMD (mod_ranking_config.c) */
void rkm_public_section_add(cmd_parms *cmd);

/* 1 when RankingPublic On appears anywhere in the configuration */
int rkm_config_any_public(void);
/* 0 when no section that says RankingPublic On can apply to URI (the <Location>
 * paths that say it are not a prefix of it), 1 when one may */
int rkm_config_maybe_public(const char *uri);

#endif
