/* rk_cond.c: conditional requests and lane entity tags.  See rk_cond.h. */
#include <string.h>

#include "rk_cond.h"
#include "rk_token.h"

static const char *skip_ows(const char *p)
{
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    return p;
}

/* etagc = %x21 / %x23-7E / obs-text */
static int etagc(unsigned char c)
{
    return c == 0x21 || (c >= 0x23 && c != 0x7f);
}

int rk_etag_list_match(const char *list, const char *etag, int strong)
{
    const char *p;
    size_t elen;
    int found = 0, any = 0;

    if (!list || !etag) {
        return 0;
    }
    p = skip_ows(list);
    if (*p == '*') {
        p = skip_ows(p + 1);
        return *p == '\0';
    }
    elen = strlen(etag);
    /* #entity-tag: elements separated by commas and OWS; empty elements allowed */
    while (*p) {
        const char *start;
        int weak = 0;

        if (*p == ',' || *p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        if (p[0] == 'W' && p[1] == '/') {
            weak = 1;
            p += 2;
        }
        if (*p != '"') {
            return 0;   /* malformed: names nothing */
        }
        start = p++;
        while (*p && *p != '"' && etagc((unsigned char)*p)) {
            p++;
        }
        if (*p != '"') {
            return 0;
        }
        p++;
        any = 1;
        if ((size_t)(p - start) == elen && memcmp(start, etag, elen) == 0
            && !(strong && weak)) {
            found = 1;
        }
        p = skip_ows(p);
        if (*p && *p != ',') {
            return 0;
        }
    }
    return any && found;
}

rk_cond rk_cond_eval(const char *if_match, const char *if_none_match, const char *etag,
                     int safe)
{
    if (if_match && !rk_etag_list_match(if_match, etag, 1)) {
        return RK_COND_FAILED;
    }
    if (if_none_match && rk_etag_list_match(if_none_match, etag, 0)) {
        return safe ? RK_COND_NOT_MODIFIED : RK_COND_FAILED;
    }
    return RK_COND_PASS;
}

void rk_object_digest(const char *obj, size_t len, unsigned char *digest)
{
    unsigned char d[32];

    rk_sha256(obj, len, d);
    memcpy(digest, d, RK_OBJECT_DIGEST);
}

char *rk_object_etag(const char *epoch, char kind, const unsigned char *digest, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t elen = strlen(epoch), i;
    char *p = out;

    /* "\"EPOCH-K<32 hex>\"" and its NUL */
    if (elen + 4 + 2 * RK_OBJECT_DIGEST >= RK_LANE_ETAG_MAX) {
        return NULL;
    }
    *p++ = '"';
    memcpy(p, epoch, elen);
    p += elen;
    *p++ = '-';
    *p++ = kind;
    for (i = 0; i < RK_OBJECT_DIGEST; i++) {
        *p++ = hex[digest[i] >> 4];
        *p++ = hex[digest[i] & 15];
    }
    *p++ = '"';
    *p = '\0';
    return out;
}

static char *object_etag(const char *epoch, char kind, const char *obj, size_t len, char *out)
{
    unsigned char d[RK_OBJECT_DIGEST];

    rk_object_digest(obj, len, d);
    return rk_object_etag(epoch, kind, d, out);
}

char *rk_lane_etag(const char *epoch, const char *obj, size_t len, char *out)
{
    return object_etag(epoch, 'l', obj, len, out);
}

char *rk_resource_etag(const char *epoch, const char *obj, size_t len, char *out)
{
    return object_etag(epoch, 'r', obj, len, out);
}

int rk_answer_object(const char *body, size_t len, const char **obj, size_t *objlen)
{
    static const char head[] = "{\"status\":\"success\",\"";
    size_t n = sizeof(head) - 1, i;

    if (!body || len < n + 5 || memcmp(body, head, n) != 0 || body[len - 1] != '}') {
        return -1;
    }
    /* the key: letters only, then ": and the object */
    for (i = n; i < len && body[i] >= 'a' && body[i] <= 'z'; i++) {
    }
    if (i == n || i + 2 >= len - 1 || body[i] != '"' || body[i + 1] != ':'
        || body[i + 2] != '{' || body[len - 2] != '}') {
        return -1;
    }
    *obj = body + i + 2;
    *objlen = len - 1 - (i + 2);
    return 0;
}
