/* rk_cors.c: origins of CORS.  See rk_cors.h. */
#include <string.h>

#include "rk_cors.h"

static int lower(char c) { return c >= 'a' && c <= 'z'; }
static int digit(char c) { return c >= '0' && c <= '9'; }

int rk_cors_origin_valid(const char *s)
{
    const char *p = s;

    if (!s || !lower(*p)) {
        return 0;
    }
    while (lower(*p) || digit(*p) || *p == '+' || *p == '-' || *p == '.') {
        p++;
    }
    if (strncmp(p, "://", 3) != 0) {
        return 0;
    }
    p += 3;
    if (*p == '[') {   /* an IPv6 literal */
        const char *start = ++p;
        while (digit(*p) || (*p >= 'a' && *p <= 'f') || *p == ':' || *p == '.') {
            p++;
        }
        if (p == start || *p != ']') {
            return 0;
        }
        p++;
    }
    else {
        const char *start = p;
        while (lower(*p) || digit(*p) || *p == '-' || *p == '.') {
            p++;
        }
        if (p == start || *start == '.' || p[-1] == '.') {
            return 0;
        }
    }
    if (*p == ':') {
        long port = 0;
        const char *start = ++p;

        while (digit(*p) && p - start < 6) {
            port = port * 10 + (*p - '0');
            p++;
        }
        if (p == start || *start == '0' || port < 1 || port > 65535) {
            return 0;
        }
    }
    return *p == '\0';
}

int rk_cors_origin_listed(const char *origin, const char *const *list, size_t n)
{
    size_t i;

    if (!origin) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (strcmp(origin, list[i]) == 0) {
            return 1;
        }
    }
    return 0;
}
