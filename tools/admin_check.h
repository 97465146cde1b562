/* admin_check.h: what the checks of a competition document (admin_check.c, the
 * shape of its rows in admin_shape.c, its lanes in admin_scores.c) share:
 * how they record their errors, and the reading of a row.  Pure C + jansson + APR,
 * no httpd header. */
#ifndef ADMIN_CHECK_H
#define ADMIN_CHECK_H

#include <apr_hash.h>

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

/* Read the object O of table T at PATH, of a document of version VERSION, into a row
 * (its columns' values as text, in K's pool): every column of that version present,
 * of its type and range, no other key; a version 1 row completed by
 * admin_row_upgrade.  NULL after errors. */
const char **admin_read_row(admin_checker *k, const char *path, admin_table t, json_t *o,
                            int version);

/* ------------------------------------------------------------------ an import's checks */

/* A row of the merged competition (the database's, or the document's over it). */
typedef struct {
    const char **row;
    int doc;            /* its index in the document's list, or -1: a database row */
} merged;

/* The state of one import's checks. */
typedef struct {
    admin_checker k;
    admin_import *im;
    admin_doc *doc;                     /* the document's rows */
    const admin_doc *base;              /* the database's rows of the competition */
    apr_hash_t *ids[AD_NTABLES];        /* id -> merged: the competition's rows */
    apr_hash_t *doc_ids[AD_NTABLES];    /* id -> index + 1 (as a pointer), doc rows */
    apr_hash_t *base_ids[AD_NTABLES];   /* id -> row: the database's rows */
    const char *cid;                    /* the document's competition id */
    int version;                        /* the document's version */
} import_check;

/* Where a merged row is named in messages: "lanes[3]", "lane 7 in the database". */
const char *admin_where(apr_pool_t *p, admin_table t, const merged *m);

merged *admin_new_merged(apr_pool_t *p, const char **row, int doc);

/* The competition's row of table T with id ID, or NULL. */
const merged *admin_find(const import_check *c, admin_table t, const char *id);

/* The lanes (admin_scores.c): the database's that stay, then the document's: heat,
 * spot, number, score and tiebreak, numbers and spots unique in a heat. */
void admin_check_lanes(import_check *c);

/* The stored scores that would stay under new rules (admin_scores.c). */
void admin_check_stored_scores(import_check *c);

#endif
