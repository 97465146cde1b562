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

/* The query parameters of a list (doc/api.md, "Query parameters"). */
#define RK_QP_LIMIT    0x01u   /* 1 to 1000 */
#define RK_QP_OFFSET   0x02u   /* 0 or more */
#define RK_QP_DIVISION 0x04u   /* any text */
#define RK_QP_STATUS   0x08u   /* a heat status: scheduled, running, finished */
#define RK_QP_WOD      0x10u   /* an id: 1 to 18 digits, no leading zero */
#define RK_LIST_LIMIT_MAX 1000

typedef struct {
    unsigned given;             /* RK_QP_* present */
    long long limit, offset;    /* limit 0: the whole list */
    const char *division, *status, *wod;   /* NULL when not given */
    char norm[64];              /* limit/offset/status/wod in a fixed order, for keys;
                                 * "" when none is given */
} rk_list_query;

/* Read the parameters of ALLOWED (RK_QP_*) from ARGS (see rk_query_get) into Q, the
 * decoded texts in BUF (BUFSIZE bytes: 3 * (strlen(ARGS) + 1) suffices).  0, or -1
 * when one of them is given twice or has a value out of its rules ("Invalid query").
 * Parameters not in ALLOWED are ignored, as unknown ones are. */
int rk_list_query_parse(const char *args, unsigned allowed, char *buf, size_t bufsize,
                        rk_list_query *q);

/* ARGS with every "offset" parameter removed and "offset=OFFSET" appended: the query
 * of the next page, written into OUT (OUTSIZE bytes; strlen(ARGS) + 32 suffices).
 * The length, or 0 when OUT is too small. */
size_t rk_query_with_offset(const char *args, long long offset, char *out, size_t outsize);

#endif
