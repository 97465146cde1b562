/* admin_values.c: the checks of single values; see admin_values.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_values.h"
#include "rk_sql.h"

#define ID_MAX "9223372036854775807"

int admin_read_ll(const char *s, long long *v)
{
    char *end;

    if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9'))) {
        return 0;
    }
    errno = 0;
    *v = strtoll(s, &end, 10);
    return errno == 0 && *end == '\0';
}

const char *admin_id_digits(const char *s)
{
    size_t n;

    if (!*s || strspn(s, "0123456789") != strlen(s)) {
        return NULL;
    }
    s += strspn(s, "0");
    n = strlen(s);
    if (n == 0 || n > sizeof(ID_MAX) - 1
        || (n == sizeof(ID_MAX) - 1 && strcmp(s, ID_MAX) > 0)) {
        return NULL;
    }
    return s;
}

int admin_id_ok(const char *s)
{
    return admin_id_digits(s) == s;
}

/* The value of the N decimal digits at S. */
static int digits(const char *s, int n)
{
    int v = 0;

    while (n-- > 0) {
        v = v * 10 + (*s++ - '0');
    }
    return v;
}

const char *admin_when_check(const char *s, char *why, size_t whysize)
{
    static const char *const months[12] = {
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December"
    };
    static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
    size_t i, n = strlen(s);
    int y, mo, d, mdays;

    if (n != 10 && n != 20) {
        return "the form is YYYY-MM-DD (midnight UTC) or YYYY-MM-DDTHH:MM:SSZ";
    }
    for (i = 0; i < n; i++) {
        if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != form[i]) {
            return "the form is YYYY-MM-DD (midnight UTC) or YYYY-MM-DDTHH:MM:SSZ";
        }
    }
    y = digits(s, 4);
    mo = digits(s + 5, 2);
    d = digits(s + 8, 2);
    if (y < 1) {
        return "there is no year 0000";
    }
    if (mo < 1 || mo > 12) {
        if (!why) {
            return "there is no such month";
        }
        snprintf(why, whysize, "there is no month %02d", mo);
        return why;
    }
    mdays = mo == 2 ? ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28)
          : mo == 4 || mo == 6 || mo == 9 || mo == 11 ? 30 : 31;
    if (d < 1 || d > mdays) {
        if (!why) {
            return "the month has no such day";
        }
        snprintf(why, whysize, "%s %04d has %d days", months[mo - 1], y, mdays);
        return why;
    }
    if (n == 20 && (digits(s + 11, 2) > 23 || digits(s + 14, 2) > 59
                    || digits(s + 17, 2) > 59)) {
        return "the time must be 00:00:00 to 23:59:59";
    }
    return NULL;
}

int admin_user_name_ok(const char *name)
{
    size_t i, n = strlen(name);

    if (n < 1 || n > RK_USER_NAME_MAX) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];

        if (c <= 0x20 || c >= 0x7f || c == ':') {
            return 0;
        }
    }
    return 1;
}

int admin_role_ok(const char *role)
{
    return strcmp(role, "reader") == 0 || admin_grant_role_ok(role);
}

int admin_grant_role_ok(const char *role)
{
    return strcmp(role, "editor") == 0 || strcmp(role, "organizer") == 0;
}
