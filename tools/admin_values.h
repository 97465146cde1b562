/* admin_values.h: the checks of single values that ranking-admin reads from its
 * command line, a competition document or a team list: integers, ids, dates and
 * times, user names and roles.  Pure C, no APR, no httpd header. */
#ifndef ADMIN_VALUES_H
#define ADMIN_VALUES_H

#include <stddef.h>

/* Read S as a whole decimal integer (optional '-', digits) into *V.  1 when it is one
 * within long long. */
int admin_read_ll(const char *s, long long *v);

/* S, decimal digits with leading zeros allowed, as an id: a whole number from 1 to
 * 9223372036854775807.  Its first digit after the leading zeros when it is one,
 * else NULL. */
const char *admin_id_digits(const char *s);

/* An id as the API writes it: 1 to 9223372036854775807, decimal, no leading zero. */
int admin_id_ok(const char *s);

/* S, "YYYY-MM-DD" (midnight UTC) or "YYYY-MM-DDTHH:MM:SSZ", a real date and time of
 * the Gregorian calendar (years 0001 to 9999, no leap second)?  NULL when it is,
 * else why not: a constant, or WHY (WHYSIZE bytes) filled in; WHY may be NULL. */
const char *admin_when_check(const char *s, char *why, size_t whysize);

/* A user name: 1 to RK_USER_NAME_MAX printable ASCII characters, no space, no ':'. */
int admin_user_name_ok(const char *name);

/* A server-wide role: "reader", "editor" or "organizer". */
int admin_role_ok(const char *role);

/* The role of a grant on one competition: "editor" or "organizer". */
int admin_grant_role_ok(const char *role);

#endif
