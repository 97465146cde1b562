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

#define ALL (RK_QP_LIMIT | RK_QP_OFFSET | RK_QP_DIVISION | RK_QP_STATUS | RK_QP_WOD)

static int lq(const char *args, unsigned allowed, rk_list_query *q)
{
    static char buf[3 * 256];

    return rk_list_query_parse(args, allowed, buf, sizeof(buf), q);
}

START_TEST(list_query)
{
    rk_list_query q, q2;
    static const char *bad[] = {
        "limit=0", "limit=1001", "limit=abc", "limit=", "limit=-1", "limit=+5", "limit=1e3",
        "limit=5&limit=5", "offset=-1", "offset=x", "offset=1&offset=2", "offset=",
        "offset=9999999999999999999", "limit=%", "status=bogus", "status=", "status=Running",
        "wod=x", "wod=0", "wod=012", "wod=", "wod=1&wod=1", "division=a&division=b",
        "division=%00", "limit=5%00",
    };
    size_t i;

    ck_assert_int_eq(lq(NULL, ALL, &q), 0);
    ck_assert_uint_eq(q.given, 0);
    ck_assert_int_eq(q.limit, 0);
    ck_assert_ptr_null(q.division);
    ck_assert_str_eq(q.norm, "");   /* nothing given: no key part */
    ck_assert_int_eq(lq("limit=20&offset=40&division=Masters+40%2B&status=running&wod=7&x=1&_=9",
                        ALL, &q), 0);
    ck_assert_uint_eq(q.given, ALL);
    ck_assert_int_eq(q.limit, 20);
    ck_assert_int_eq(q.offset, 40);
    ck_assert_str_eq(q.division, "Masters 40+");
    ck_assert_str_eq(q.status, "running");
    ck_assert_str_eq(q.wod, "7");
    /* the order of the parameters and leading zeros do not change the key */
    ck_assert_int_eq(lq("wod=7&status=running&offset=040&limit=020", ALL, &q2), 0);
    ck_assert_str_eq(q.norm, q2.norm);
    ck_assert_int_eq(lq("limit=1000&offset=0", ALL, &q), 0);
    ck_assert_int_eq(q.limit, 1000);
    ck_assert_int_eq(lq("limit=1", ALL, &q2), 0);
    ck_assert_str_ne(q.norm, q2.norm);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(lq(bad[i], ALL, &q) == -1, "%s accepted", bad[i]);
    }
    /* a parameter a route does not have is ignored, even with a bad value */
    ck_assert_int_eq(lq("status=bogus&wod=x&division=a&division=b&limit=5",
                        RK_QP_LIMIT | RK_QP_OFFSET, &q), 0);
    ck_assert_int_eq(q.limit, 5);
    ck_assert_ptr_null(q.status);
}
END_TEST

START_TEST(next_offset)
{
    char out[128];

    ck_assert_uint_gt(rk_query_with_offset("limit=20&offset=0&division=RX", 20, out, sizeof(out)), 0);
    ck_assert_str_eq(out, "limit=20&division=RX&offset=20");
    ck_assert_uint_gt(rk_query_with_offset("limit=5&%6Fffset=3&_=1", 8, out, sizeof(out)), 0);
    ck_assert_str_eq(out, "limit=5&_=1&offset=8");
    ck_assert_uint_gt(rk_query_with_offset("limit=5", 5, out, sizeof(out)), 0);
    ck_assert_str_eq(out, "limit=5&offset=5");
    ck_assert_uint_gt(rk_query_with_offset(NULL, 5, out, sizeof(out)), 0);
    ck_assert_str_eq(out, "offset=5");
    ck_assert_uint_eq(rk_query_with_offset("limit=20&division=RX", 20, out, 10), 0);
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
    tcase_add_test(tc, list_query);
    tcase_add_test(tc, next_offset);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
