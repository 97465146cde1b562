/* rk_query.h: the query string of a request (r->args), read strictly.  Pure C. */
#ifndef RK_QUERY_H
#define RK_QUERY_H

#include <stddef.h>

/* Look for the parameter NAME in ARGS ("a=1&b=x+y", without the '?'; NULL or "" when
 * there is none).  Names and values are decoded as HTML forms encode them: '+' is a
 * space, %XX a byte.  Returns 0 when NAME is absent; 1 when present once, with *VALUE
 * its decoded value, NUL-terminated, written into BUF (BUFSIZE bytes; strlen(ARGS) + 1
 * always suffices); -1 when NAME is there but unusable: given twice, a malformed %
 * escape, an encoded NUL, or too long for BUF.  Other parameters are ignored, even
 * malformed ones (clients add cache-busters). */
int rk_query_get(const char *args, const char *name, char *buf, size_t bufsize,
                 const char **value);

#endif
