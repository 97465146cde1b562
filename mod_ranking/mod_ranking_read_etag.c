/* mod_ranking_read_etag.c: the ETag of a read's answer (see mod_ranking_read_etag.h). */
#include "mod_ranking_read_etag.h"
#include "mod_ranking_request.h"
#include "rk_cache.h"
#include "rk_cond.h"

/* V's decimal digits, written backwards to end just before END: where they start. */
static char *u64_digits(char *end, apr_uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

const char *rkm_u64_text(apr_pool_t *p, apr_uint64_t v)
{
    char buf[24], *s = u64_digits(buf + sizeof(buf), v);

    return apr_pstrmemdup(p, s, (apr_size_t)(buf + sizeof(buf) - s));
}

/* The digest of the resource object of answer V into D: 0, or -1 when V is not of a
 * single resource's shape. */
static int answer_digest(const void *v, size_t len, unsigned char *d)
{
    const char *obj;
    size_t n;

    if (rk_answer_object(v, len, &obj, &n) != 0) {
        return -1;
    }
    rk_object_digest(obj, n, d);
    return 0;
}

/* The strong ETag of a single resource's answer V (a competition, WOD, spot, zone,
 * heat, voie or line): the resource's own tag, which changes only when what is shown
 * of it changes (rk_lane_etag, rk_resource_etag), so that a conditional write is not
 * refused because something else of a busy competition changed.  Its digest is kept
 * with the cached answer (rkm_answer_etag_prepare); it is computed here only for a
 * value that has none.  NULL when V is not of the expected shape (never, for answers
 * of rk_json_answer). */
static const char *own_answer_etag(request_rec *r, rk_route_id id, const char *epoch,
                                   const void *v, size_t len)
{
    const unsigned char *kept = rk_cache_value_digest(v);
    unsigned char d[RK_OBJECT_DIGEST];

    if (!kept) {
        if (answer_digest(v, len, d) != 0) {
            return NULL;
        }
        kept = d;
    }
    return rk_object_etag(epoch, id == RK_ROUTE_A_VOIE || id == RK_ROUTE_B_LINE ? 'l' : 'r',
                          kept, apr_palloc(r->pool, RK_LANE_ETAG_MAX));
}

_Static_assert(RK_OBJECT_DIGEST == RK_CACHE_DIGEST, "the answer cache keeps a whole digest");

/* One resource (not a list, a leaderboard or a stream): it has a tag of its own. */
static int has_own_etag(rk_route_id id)
{
    const rk_route_def *d = rk_route_def_of(id);

    return d && !d->list && d->answer == RK_ANSWER_ROWS;
}

void rkm_answer_etag_prepare(rk_route_id id, void *value, size_t len)
{
    unsigned char d[RK_OBJECT_DIGEST];

    if (has_own_etag(id) && answer_digest(value, len, d) == 0) {
        rk_cache_value_set_digest(value, d);
    }
}

const char *rkm_answer_etag(request_rec *r, const rkm_req *rq, const char *key,
                            const char *division, const rk_list_query *lq, int published,
                            const void *value, size_t len)
{
    const char *etag;

    if (has_own_etag(rq->route.id)) {
        return own_answer_etag(r, rq->route.id, rq->rev.epoch, value, len);
    }
    if (!published && !division && !lq->given) {   /* the common case: "EPOCH-REVISION" */
        char digits[24], *d = u64_digits(digits + sizeof(digits), rq->rev.data), *tag;
        size_t elen = strlen(rq->rev.epoch), dlen = (size_t)(digits + sizeof(digits) - d);

        tag = apr_palloc(r->pool, elen + dlen + 4);
        tag[0] = '"';
        memcpy(tag + 1, rq->rev.epoch, elen);
        tag[1 + elen] = '-';
        memcpy(tag + 2 + elen, d, dlen);
        memcpy(tag + 2 + elen + dlen, "\"", 2);
        return tag;
    }
    etag = published
           ? apr_psprintf(r->pool, "\"%s-p%016" APR_UINT64_T_HEX_FMT, rq->rev.epoch,
                          (apr_uint64_t)rk_cache_value_tag(value))
           : apr_psprintf(r->pool, "\"%s-%" APR_UINT64_T_FMT, rq->rev.epoch, rq->rev.data);
    return division ? apr_psprintf(r->pool, "%s-d%08x\"", etag, rk_cache_hash(division))
           : lq->given ? apr_psprintf(r->pool, "%s-q%08x\"", etag, rk_cache_hash(strchr(key, '?')))
           : apr_pstrcat(r->pool, etag, "\"", NULL);
}
