/* mod_ranking_config_public.c: where RankingPublic On is said (see
 * mod_ranking_config_public.h). */
#include "mod_ranking_config_public.h"

static int any_public;   /* a RankingPublic On anywhere in the configuration */
/* the paths of the <Location> sections that say RankingPublic On (const char *), and
 * whether one is said elsewhere (a regular expression, <If>, ...): any path then */
static apr_array_header_t *public_paths;
static int public_anywhere;

void rkm_public_sections_reset(void)
{
    any_public = 0;
    public_paths = NULL;
    public_anywhere = 0;
}

void rkm_public_section_add(cmd_parms *cmd)
{
    const ap_directive_t *section = cmd->directive ? cmd->directive->parent : NULL;

    any_public = 1;
    /* a <Location PATH>: the requests under PATH (the walk then decides) */
    if (section && cmd->path && !strcasecmp(section->directive, "<Location")
        && section->args && section->args[0] != '~' && cmd->path[0] == '/') {
        if (!public_paths) {
            public_paths = apr_array_make(cmd->pool, 4, sizeof(const char *));
        }
        APR_ARRAY_PUSH(public_paths, const char *) = apr_pstrdup(cmd->pool, cmd->path);
    }
    else {
        public_anywhere = 1;
    }
}

int rkm_config_any_public(void)
{
    return any_public;
}

int rkm_config_maybe_public(const char *uri)
{
    int i;

    if (public_anywhere) {
        return 1;
    }
    for (i = 0; public_paths && i < public_paths->nelts; i++) {
        const char *path = APR_ARRAY_IDX(public_paths, i, const char *);

        if (strncmp(uri, path, strlen(path)) == 0) {
            return 1;
        }
    }
    return 0;
}
