/* admin_check.h: what the checks of a competition document (admin_check.c, the
 * shape of its rows in admin_shape.c) share:
 * how they record their errors, and the reading of a row.  Pure C + jansson + APR,
 * no httpd header. */
#ifndef ADMIN_CHECK_H
#define ADMIN_CHECK_H

#include "admin_doc.h"

typedef struct {
    apr_pool_t *p;
    apr_array_header_t *errors;     /* const char *: "PATH: message" */
    int nerrors;                    /* the errors of these checks */
} admin_checker;

/* Append "PATH: message" (PATH NULL: the message alone) to K's errors. */
void admin_fail(admin_checker *k, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What V is, for messages: "an object", "a string", ... */
const char *admin_type_name(const json_t *v);

/* Read the object O of table T at PATH into a row (its columns' values as text, in
 * K's pool): every column present, of its type and range, no other key.  NULL after
 * errors. */
const char **admin_read_row(admin_checker *k, const char *path, admin_table t, json_t *o);

#endif
