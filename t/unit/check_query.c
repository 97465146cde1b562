/* check_query.c: Check unit tests of rk_query (query string parameters). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rk_query.h"

typedef struct {
    const char *args;
    int rv;              /* expected return */
    const char *value;   /* expected value when rv == 1 */
} qcase;

static const qcase cases[] = {
    { NULL, 0, NULL },
    { "", 0, NULL },
    { "division=RX", 1, "RX" },
    { "division=RX+Men", 1, "RX Men" },
    { "division=RX%20Men", 1, "RX Men" },
    { "division=RX%2bMen", 1, "RX+Men" },
    { "division=RX%2FMen", 1, "RX/Men" },
    { "division=%C3%89lite", 1, "\xc3\x89lite" },
    { "division=", 1, "" },
    { "division", 1, "" },
    { "x=1&division=Scaled&y=2", 1, "Scaled" },
    { "divi%73ion=Scaled", 1, "Scaled" },           /* an escaped name is the same name */
    { "_=123&division=Masters%2040%2B", 1, "Masters 40+" },
    { "divisions=RX", 0, NULL },
    { "Division=RX", 0, NULL },                     /* names are case-sensitive */
    { "xdivision=RX", 0, NULL },
    { "division=a&division=b", -1, NULL },          /* twice */
    { "division=a&division=a", -1, NULL },
    { "division=%", -1, NULL },
    { "division=%4", -1, NULL },
    { "division=%zz", -1, NULL },
    { "division=%00", -1, NULL },
    { "division=a%00b", -1, NULL },
    { "x=%zz&division=ok", 1, "ok" },               /* a malformed other parameter is ignored */
    { "&&division=ok&&", 1, "ok" },
    { "division=a=b", 1, "a=b" },
};

START_TEST(query_cases)
{
    const qcase *c = &cases[_i];
    char buf[128];
    const char *v = (const char *)1;
    int rv = rk_query_get(c->args, "division", buf, sizeof(buf), &v);

    ck_assert_msg(rv == c->rv, "%s: %d, expected %d", c->args ? c->args : "(null)", rv, c->rv);
    if (c->rv == 1) {
        ck_assert_ptr_nonnull(v);
        ck_assert_str_eq(v, c->value);
    }
    else {
        ck_assert_ptr_null(v);
    }
}
END_TEST

START_TEST(buffer_bounds)
{
    char small[4];
    const char *v;
    const char *args = "division=abcdef";
    char *exact = malloc(strlen(args) + 1);

    ck_assert_int_eq(rk_query_get(args, "division", small, sizeof(small), &v), -1);
    ck_assert_int_eq(rk_query_get("division=abc", "division", small, sizeof(small), &v), 1);
    ck_assert_str_eq(v, "abc");
    /* strlen(ARGS) + 1 always suffices */
    ck_assert_int_eq(rk_query_get(args, "division", exact, strlen(args) + 1, &v), 1);
    ck_assert_str_eq(v, "abcdef");
    free(exact);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("query");
    TCase *tc = tcase_create("get");
    SRunner *sr;
    int failed;

    tcase_add_loop_test(tc, query_cases, 0, (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(tc, buffer_bounds);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
