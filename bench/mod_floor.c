/* bench/mod_floor.c: httpd's floor, for the bench (issue 31).  A handler that answers
 * a fixed body read once at start-up, as the module answers a cached one: status 200,
 * Content-Type application/json, Content-Length, the body in one bucket that is never
 * copied.  What a request to it costs is what httpd itself costs per request in the
 * bench's configuration; what mod_ranking costs above it is ours.  Not part of the
 * module: bench/bench.pl builds it with apxs into its run directory.
 *
 *   LoadModule floor_module .../mod_floor.so
 *   <Location /floor/wods>
 *       SetHandler floor
 *       FloorBody /path/to/wods.json
 *   </Location>
 */
#include "httpd.h"
#include "http_config.h"
#include "http_protocol.h"
#include "http_request.h"
#include "apr_buckets.h"
#include "apr_file_io.h"
#include "apr_strings.h"

module AP_MODULE_DECLARE_DATA floor_module;

typedef struct {
    const char *body;
    apr_size_t len;
} floor_conf;

static void *floor_create(apr_pool_t *p, char *dir)
{
    (void)dir;
    return apr_pcalloc(p, sizeof(floor_conf));
}

static const char *floor_body(cmd_parms *cmd, void *cv, const char *path)
{
    floor_conf *c = cv;
    apr_file_t *f;
    apr_finfo_t fi;
    char *buf;
    apr_size_t n;

    if (apr_file_open(&f, path, APR_FOPEN_READ | APR_FOPEN_BINARY, 0, cmd->pool) != APR_SUCCESS
        || apr_file_info_get(&fi, APR_FINFO_SIZE, f) != APR_SUCCESS) {
        return apr_pstrcat(cmd->pool, "FloorBody: cannot read ", path, NULL);
    }
    n = (apr_size_t)fi.size;
    buf = apr_palloc(cmd->pool, n + 1);
    if (apr_file_read_full(f, buf, n, &n) != APR_SUCCESS) {
        apr_file_close(f);
        return apr_pstrcat(cmd->pool, "FloorBody: cannot read ", path, NULL);
    }
    apr_file_close(f);
    c->body = buf;
    c->len = n;
    return NULL;
}

static int floor_handler(request_rec *r)
{
    const floor_conf *c;
    apr_bucket_brigade *bb;

    if (!r->handler || strcmp(r->handler, "floor") != 0) {
        return DECLINED;
    }
    c = ap_get_module_config(r->per_dir_config, &floor_module);
    if (!c->body) {
        return HTTP_NOT_FOUND;
    }
    ap_set_content_type(r, "application/json");
    ap_set_content_length(r, (apr_off_t)c->len);
    if (r->header_only) {
        return OK;
    }
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_immortal_create(c->body, c->len, bb->bucket_alloc));
    return ap_pass_brigade(r->output_filters, bb) == APR_SUCCESS ? OK : AP_FILTER_ERROR;
}

static const command_rec floor_cmds[] = {
    AP_INIT_TAKE1("FloorBody", floor_body, NULL, OR_ALL, "the file whose bytes are answered"),
    { NULL }
};

static void floor_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_handler(floor_handler, NULL, NULL, APR_HOOK_MIDDLE);
}

AP_DECLARE_MODULE(floor) = {
    STANDARD20_MODULE_STUFF, floor_create, NULL, NULL, NULL, floor_cmds, floor_hooks
};
