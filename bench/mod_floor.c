/* bench/mod_floor.c: httpd's floor, for the bench (issue 31).  Answers fixed bytes
 * read from a file, as the module answers a cached one: status 200, Content-Type
 * application/json, Content-Length, the body in one bucket that is never copied (and
 * Content-Encoding: gzip with Vary: Accept-Encoding for gzip bytes).  What a request
 * to it costs is what httpd itself costs per request in the bench's configuration;
 * what mod_ranking costs above it is ours.  Two floors:
 *
 *   - the handler's: SetHandler floor in a <Location>, FloorBody FILE [gzip]: every
 *     phase of a request (the <Location> walks, access, type checker, fixups; not
 *     the directory walk, which a handler that serves no file can skip, as the
 *     module's does), then the handler: what any handler of httpd costs, as the
 *     module's answers to a request with a token (whose access hook must run);
 *   - the quick handler's: FloorQuick URI FILE [gzip] (server config): answered in
 *     httpd's quick-handler phase, before any other, as mod_cache answers its hits
 *     and the module its anonymous public answers: the least httpd can do per
 *     request at all.
 *
 * The file is read at the first request that needs it (so that a <Location> can name
 * a file the bench writes after the server started: the module's answer), once per
 * child, into memory that lives as long as the child: the first thread to read it
 * publishes it with a compare-and-swap, a thread that lost the race frees its copy.
 * Not part of the module: bench/bench.pl builds it with apxs into its run directory.
 *
 *   LoadModule floor_module .../mod_floor.so
 *   FloorQuick /floorq/wods /path/to/wods.json
 *   <Location /floor/wods>
 *       SetHandler floor
 *       FloorBody /path/to/wods.json
 *   </Location>
 */
#include "httpd.h"
#include "http_config.h"
#include "http_protocol.h"
#include "http_request.h"
#include "apr_atomic.h"
#include "apr_buckets.h"
#include "apr_file_io.h"
#include "apr_strings.h"

#include <stdlib.h>

module AP_MODULE_DECLARE_DATA floor_module;

#define FLOOR_MAX_HEADERS 16

typedef struct {
    const char *data;
    apr_size_t len;
    int nheaders;                        /* from FILE.headers, when there */
    const char *names[FLOOR_MAX_HEADERS];
    const char *values[FLOOR_MAX_HEADERS];
} floor_bytes;

typedef struct {
    const char *uri;         /* FloorQuick's URI; NULL for a FloorBody */
    const char *path;
    int gzip;
    volatile void *bytes;    /* a floor_bytes, read at the first request (floor_load) */
} floor_body_t;

typedef struct {
    floor_body_t *body;      /* FloorBody of a <Location>, or NULL */
} floor_dir_conf;

typedef struct {
    apr_array_header_t *quick;   /* of floor_body_t */
} floor_srv_conf;

static void *floor_dir_create(apr_pool_t *p, char *dir)
{
    (void)dir;
    return apr_pcalloc(p, sizeof(floor_dir_conf));
}

static void *floor_srv_create(apr_pool_t *p, server_rec *s)
{
    floor_srv_conf *c = apr_pcalloc(p, sizeof(*c));

    (void)s;
    c->quick = apr_array_make(p, 4, sizeof(floor_body_t));
    return c;
}

/* The headers of X from FILE.headers, when there: one "Name: value" a line (the bench
 * writes there the headers of the module's answer that httpd does not write itself:
 * ETag, Vary, Cache-Control, ...), so that the floor's answer is the module's, byte for
 * byte but the Date.  Kept for the child's life, as the bytes. */
static void floor_load_headers(floor_bytes *x, const char *path)
{
    char line[1024];
    char *hpath = malloc(strlen(path) + sizeof(".headers"));
    FILE *f;

    if (!hpath) {
        return;
    }
    strcpy(hpath, path);
    strcat(hpath, ".headers");
    f = fopen(hpath, "r");
    free(hpath);
    if (!f) {
        return;
    }
    while (x->nheaders < FLOOR_MAX_HEADERS && fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':'), *v, *end;

        if (!colon || colon == line) {
            continue;
        }
        *colon = '\0';
        for (v = colon + 1; *v == ' '; v++) {
        }
        for (end = v + strlen(v); end > v && (end[-1] == '\n' || end[-1] == '\r'); end--) {
        }
        *end = '\0';
        if ((x->names[x->nheaders] = strdup(line)) && (x->values[x->nheaders] = strdup(v))) {
            x->nheaders++;
        }
    }
    fclose(f);
}

/* The bytes of B, read from its file once per child (NULL when it cannot be read). */
static const floor_bytes *floor_load(floor_body_t *b)
{
    floor_bytes *got = (floor_bytes *)apr_atomic_casptr(&b->bytes, NULL, NULL);
    FILE *f;
    long n;
    char *buf;

    if (got) {
        return got;
    }
    if (!(f = fopen(b->path, "rb")) || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0
        || fseek(f, 0, SEEK_SET) != 0) {
        if (f) {
            fclose(f);
        }
        return NULL;
    }
    got = calloc(1, sizeof(*got));
    buf = malloc((size_t)n + 1);
    if (!got || !buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(got);
        free(buf);
        return NULL;
    }
    fclose(f);
    got->data = buf;
    got->len = (apr_size_t)n;
    floor_load_headers(got, b->path);
    if (apr_atomic_casptr(&b->bytes, got, NULL) != NULL) {
        free(buf);   /* another thread was first: its copy is the one */
        free(got);
        got = (floor_bytes *)apr_atomic_casptr(&b->bytes, NULL, NULL);
    }
    return got;
}

static int floor_answer(request_rec *r, floor_body_t *b)
{
    const floor_bytes *x = floor_load(b);
    apr_bucket_brigade *bb;
    int i;

    if (!x) {
        return HTTP_NOT_FOUND;
    }
    ap_set_content_type(r, "application/json");
    for (i = 0; i < x->nheaders; i++) {
        apr_table_setn(r->headers_out, x->names[i], x->values[i]);
    }
    if (b->gzip) {
        apr_table_setn(r->headers_out, "Content-Encoding", "gzip");
        if (!x->nheaders) {   /* (FILE.headers has the module's Vary) */
            apr_table_mergen(r->headers_out, "Vary", "Accept-Encoding");
        }
    }
    ap_set_content_length(r, (apr_off_t)x->len);
    if (r->header_only) {
        return OK;
    }
    bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_immortal_create(x->data, x->len, bb->bucket_alloc));
    return ap_pass_brigade(r->output_filters, bb) == APR_SUCCESS ? OK : AP_FILTER_ERROR;
}

static int floor_handler(request_rec *r)
{
    const floor_dir_conf *c;

    if (!r->handler || strcmp(r->handler, "floor") != 0) {
        return DECLINED;
    }
    c = ap_get_module_config(r->per_dir_config, &floor_module);
    return c->body ? floor_answer(r, c->body) : HTTP_NOT_FOUND;
}

/* A <Location> with a FloorBody maps to no file: httpd's directory walk (its stat()s
 * of each directory of the path, which any handler that serves no file can skip, as
 * the module's and mod_proxy's do) is not part of the floor.  httpd puts the server's
 * configuration back before map_to_storage: the translation marks the request (as
 * the module's does), after the <Location> walk that found the FloorBody. */
#define FLOOR_FILENAME "floor:"

static int floor_translate(request_rec *r)
{
    const floor_dir_conf *c = ap_get_module_config(r->per_dir_config, &floor_module);

    if (!c || !c->body || !r->uri) {
        return DECLINED;
    }
    r->filename = apr_pstrcat(r->pool, FLOOR_FILENAME, r->uri, NULL);
    return OK;
}

static int floor_map_to_storage(request_rec *r)
{
    return r->filename && !strncmp(r->filename, FLOOR_FILENAME, sizeof(FLOOR_FILENAME) - 1)
           ? OK : DECLINED;
}

/* FloorQuick: a GET of one of its URIs, answered before every other phase. */
static int floor_quick(request_rec *r, int lookup)
{
    floor_srv_conf *c = ap_get_module_config(r->server->module_config, &floor_module);
    floor_body_t *q = (floor_body_t *)c->quick->elts;
    int i;

    if (lookup || r->main || r->method_number != M_GET || !r->uri) {
        return DECLINED;
    }
    for (i = 0; i < c->quick->nelts; i++) {
        if (!strcmp(r->uri, q[i].uri)) {
            return floor_answer(r, &q[i]);
        }
    }
    return DECLINED;
}

static const char *floor_gzip_arg(const char *arg, int *gzip)
{
    *gzip = 0;
    if (arg) {
        if (strcmp(arg, "gzip") != 0) {
            return "the third argument can only be gzip";
        }
        *gzip = 1;
    }
    return NULL;
}

static const char *floor_body(cmd_parms *cmd, void *cv, const char *path, const char *enc)
{
    floor_dir_conf *c = cv;
    floor_body_t *b = apr_pcalloc(cmd->pool, sizeof(*b));

    b->path = apr_pstrdup(cmd->pool, path);
    c->body = b;
    return floor_gzip_arg(enc, &b->gzip);
}

static const char *floor_quick_cmd(cmd_parms *cmd, void *cv, const char *args)
{
    floor_srv_conf *c = ap_get_module_config(cmd->server->module_config, &floor_module);
    floor_body_t *b = apr_array_push(c->quick);
    const char *uri = ap_getword_conf(cmd->pool, &args);
    const char *path = ap_getword_conf(cmd->pool, &args);
    const char *enc = ap_getword_conf(cmd->pool, &args);

    (void)cv;
    memset(b, 0, sizeof(*b));
    if (!*uri || !*path) {
        return "FloorQuick URI FILE [gzip]";
    }
    b->uri = uri;
    b->path = path;
    return floor_gzip_arg(*enc ? enc : NULL, &b->gzip);
}

static const command_rec floor_cmds[] = {
    AP_INIT_TAKE12("FloorBody", floor_body, NULL, OR_ALL,
                   "the file whose bytes are answered [gzip: they are gzip-encoded]"),
    AP_INIT_RAW_ARGS("FloorQuick", floor_quick_cmd, NULL, RSRC_CONF,
                     "a URI answered by the quick handler, the file of its bytes [gzip]"),
    { NULL }
};

static void floor_hooks(apr_pool_t *p)
{
    (void)p;
    /* before mod_ranking's quick handler (APR_HOOK_MIDDLE): its URIs are not ours */
    ap_hook_quick_handler(floor_quick, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_translate_name(floor_translate, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_map_to_storage(floor_map_to_storage, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_handler(floor_handler, NULL, NULL, APR_HOOK_MIDDLE);
}

AP_DECLARE_MODULE(floor) = {
    STANDARD20_MODULE_STUFF, floor_dir_create, NULL, floor_srv_create, NULL, floor_cmds,
    floor_hooks, AP_MODULE_FLAG_NONE
};
