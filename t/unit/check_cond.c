/* check_cond.c: Check unit tests of rk_cond (If-Match / If-None-Match, lane ETags). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_cond.h"
#include "rk_json.h"
#include "rk_token.h"

#define TAG "\"3f2a-l00ff\""

typedef struct {
    const char *list;
    int strong, weak;   /* expected result of the strong and the weak comparison */
} mcase;

static const mcase mcases[] = {
    { NULL, 0, 0 },
    { "", 0, 0 },
    { "*", 1, 1 },
    { "  *  ", 1, 1 },
    { TAG, 1, 1 },
    { " " TAG " ", 1, 1 },
    { "W/" TAG, 0, 1 },                       /* a weak tag never matches strongly */
    { "\"x\", " TAG, 1, 1 },
    { "\"x\",W/" TAG ",\"y\"", 0, 1 },
    { "\"x\" ,\t" TAG, 1, 1 },
    { ", ," TAG ",", 1, 1 },                  /* empty list elements are allowed */
    { "\"x\"", 0, 0 },
    { "\"3f2a-l00fe\"", 0, 0 },
    { "\"3f2a-l00ff", 0, 0 },                 /* unterminated */
    { "3f2a-l00ff", 0, 0 },                   /* unquoted */
    { "\"3F2A-L00FF\"", 0, 0 },               /* opaque tags are case-sensitive */
    { "*, " TAG, 0, 0 },                      /* "*" among tags: malformed */
    { TAG ", *", 0, 0 },
    { TAG " x", 0, 0 },                       /* garbage after a tag */
    { TAG "\"x\"", 0, 0 },                    /* two tags without a comma */
    { "w/" TAG, 0, 0 },                       /* W/ is case-sensitive */
    { "\"a\"b\"", 0, 0 },
    { "\"\"", 0, 0 },
    { "\"3f2a l00ff\"", 0, 0 },               /* a space is not an etagc */
};

START_TEST(list_match)
{
    const mcase *c = &mcases[_i];

    ck_assert_msg(rk_etag_list_match(c->list, TAG, 1) == c->strong, "strong: [%s]",
                  c->list ? c->list : "(null)");
    ck_assert_msg(rk_etag_list_match(c->list, TAG, 0) == c->weak, "weak: [%s]",
                  c->list ? c->list : "(null)");
}
END_TEST

typedef struct {
    const char *im, *inm;
    int safe;
    rk_cond want;
} ecase;

static const ecase ecases[] = {
    { NULL, NULL, 1, RK_COND_PASS },
    { NULL, NULL, 0, RK_COND_PASS },
    { TAG, NULL, 0, RK_COND_PASS },
    { "*", NULL, 0, RK_COND_PASS },
    { "\"old\"", NULL, 0, RK_COND_FAILED },
    { "\"old\"", NULL, 1, RK_COND_FAILED },        /* GET with a failing If-Match: 412 */
    { "W/" TAG, NULL, 0, RK_COND_FAILED },
    { "garbage", NULL, 0, RK_COND_FAILED },
    { NULL, "*", 0, RK_COND_FAILED },              /* PUT If-None-Match: * on what exists */
    { NULL, "*", 1, RK_COND_NOT_MODIFIED },
    { NULL, TAG, 1, RK_COND_NOT_MODIFIED },
    { NULL, "W/" TAG, 1, RK_COND_NOT_MODIFIED },   /* weak comparison */
    { NULL, TAG, 0, RK_COND_FAILED },
    { NULL, "\"old\"", 0, RK_COND_PASS },
    { NULL, "\"old\"", 1, RK_COND_PASS },
    { TAG, "\"old\"", 0, RK_COND_PASS },
    { TAG, TAG, 1, RK_COND_NOT_MODIFIED },
    { "\"old\"", TAG, 1, RK_COND_FAILED },          /* If-Match first */
    { "\"old\"", "\"old\"", 0, RK_COND_FAILED },
};

START_TEST(eval)
{
    const ecase *c = &ecases[_i];

    ck_assert_int_eq(rk_cond_eval(c->im, c->inm, TAG, c->safe), c->want);
}
END_TEST

static const char *lane[8] = { "2019", "255", "3", "7", "Team \"A\"", "212", NULL, "entered" };

static char *answer(const rk_resource *res, const char *const *v, size_t *len)
{
    char *out;

    *len = rk_json_answer(NULL, res, 0, v, 1);
    out = malloc(*len + 1);
    rk_json_answer(out, res, 0, v, 1);
    out[*len] = '\0';
    return out;
}

START_TEST(lane_tags)
{
    char t1[RK_LANE_ETAG_MAX], t2[RK_LANE_ETAG_MAX], t3[RK_LANE_ETAG_MAX];
    char *obj, *a_voie, *a_line;
    const char *o, *changed[8];
    size_t n, la, ll, on;
    int i;

    n = rk_json_object(NULL, &rk_res_voie, lane);
    obj = malloc(n + 1);
    rk_json_object(obj, &rk_res_voie, lane);
    obj[n] = '\0';
    ck_assert_ptr_nonnull(rk_lane_etag("3f2a", obj, n, t1));
    ck_assert_int_eq((int)strlen(t1), 1 + 4 + 2 + 32 + 1);
    ck_assert(strncmp(t1, "\"3f2a-l", 7) == 0 && t1[strlen(t1) - 1] == '"');
    for (i = 7; i < 39; i++) {
        ck_assert(strchr("0123456789abcdef", t1[i]) != NULL);
    }
    /* the object found in a voie answer and in a line answer is the lane's object */
    a_voie = answer(&rk_res_voie, lane, &la);
    a_line = answer(&rk_res_line, lane, &ll);
    ck_assert_int_eq(rk_answer_object(a_voie, la, &o, &on), 0);
    ck_assert_int_eq((int)on, (int)n);
    ck_assert(memcmp(o, obj, n) == 0);
    ck_assert_int_eq(rk_answer_object(a_line, ll, &o, &on), 0);
    ck_assert(memcmp(o, obj, n) == 0);
    /* the same lane, the same tag; every change of a field, another tag */
    ck_assert_str_eq(rk_lane_etag("3f2a", o, on, t2), t1);
    for (i = 0; i < 8; i++) {
        size_t cn;
        char *co;

        memcpy(changed, lane, sizeof(changed));
        changed[i] = i == 6 ? "1:00" : i == 4 ? NULL : "9";
        cn = rk_json_object(NULL, &rk_res_voie, changed);
        co = malloc(cn);
        rk_json_object(co, &rk_res_voie, changed);
        rk_lane_etag("3f2a", co, cn, t3);
        ck_assert_str_ne(t3, t1);
        free(co);
    }
    /* another database (epoch), another tag */
    ck_assert_str_ne(rk_lane_etag("3f2b", obj, n, t3), t1);
    /* an epoch too long for the buffer */
    ck_assert_ptr_null(rk_lane_etag("0123456789012345678901234567890123456789012345678901234567890123",
                                    obj, n, t3));
    free(obj);
    free(a_voie);
    free(a_line);
}
END_TEST

/* Tags of the other resources: "-r", the hash of the object as shown; a change of
 * a shown field changes it, the same heat read through both variants keeps it. */
START_TEST(resource_tags)
{
    static const char *heat[7] = { "40", "1", "2", "3", "1", "2026-11-21T09:30:00Z", "scheduled" };
    const char *running[7];
    char t1[RK_LANE_ETAG_MAX], t2[RK_LANE_ETAG_MAX], t3[RK_LANE_ETAG_MAX];
    char obj[512], obj2[512];
    size_t n, n2;

    n = rk_json_object(NULL, &rk_res_heat, heat);
    ck_assert_uint_lt(n, sizeof(obj));
    rk_json_object(obj, &rk_res_heat, heat);
    ck_assert_ptr_nonnull(rk_resource_etag("3f2a", obj, n, t1));
    ck_assert(strncmp(t1, "\"3f2a-r", 7) == 0 && strlen(t1) == 1 + 4 + 2 + 32 + 1);
    ck_assert_str_eq(rk_resource_etag("3f2a", obj, n, t2), t1);
    /* a lane's tag of the same bytes differs (its kind letter) */
    ck_assert_str_ne(rk_lane_etag("3f2a", obj, n, t3), t1);
    memcpy(running, heat, sizeof(running));
    running[6] = "running";
    n2 = rk_json_object(NULL, &rk_res_heat, running);
    rk_json_object(obj2, &rk_res_heat, running);
    ck_assert_str_ne(rk_resource_etag("3f2a", obj2, n2, t3), t1);
    ck_assert_ptr_null(rk_resource_etag("0123456789012345678901234567890123456789012345678901234567890123",
                                        obj, n, t3));
}
END_TEST

/* The two steps of a tag: the digest is the SHA-256's first 16 bytes, the tag is
 * "EPOCH-K" and their hex; the longest epoch that fits the buffer, and one more. */
START_TEST(object_digest_tags)
{
    static const char obj[] = "{\"id\":\"7\",\"name\":\"Open\"}";
    unsigned char d[RK_OBJECT_DIGEST];
    char hex[RK_HASH_HEX + 1], want[RK_LANE_ETAG_MAX], t1[RK_LANE_ETAG_MAX],
         t2[RK_LANE_ETAG_MAX], epoch[64];

    rk_object_digest(obj, strlen(obj), d);
    rk_sha256_hex(obj, strlen(obj), hex);
    snprintf(want, sizeof(want), "\"ep1-r%.32s\"", hex);
    ck_assert_str_eq(rk_object_etag("ep1", 'r', d, t1), want);
    ck_assert_str_eq(rk_resource_etag("ep1", obj, strlen(obj), t2), want);
    want[5] = 'l';
    ck_assert_str_eq(rk_lane_etag("ep1", obj, strlen(obj), t2), want);
    /* "\"" EPOCH "-r" 32 hex "\"" and the NUL: 59 characters of epoch fit, 60 do not */
    memset(epoch, 'e', sizeof(epoch));
    epoch[59] = '\0';
    ck_assert_ptr_nonnull(rk_object_etag(epoch, 'r', d, t1));
    ck_assert_uint_eq(strlen(t1), RK_LANE_ETAG_MAX - 1);
    epoch[59] = 'e';
    epoch[60] = '\0';
    ck_assert_ptr_null(rk_object_etag(epoch, 'r', d, t1));
}
END_TEST

START_TEST(answer_shapes)
{
    static const char *bad[] = {
        "", "{}", "{\"status\":\"success\"}", "{\"status\":\"success\",\"voie\":null}",
        "{\"status\":\"success\",\"voie\":[1]}", "{\"status\":\"error\",\"voie\":{}}",
        "{\"status\":\"success\",\"\":{\"a\":1}}", "{\"status\":\"success\",\"voie\":{\"a\":1}",
    };
    const char *o;
    size_t on, i;
    const char *ok = "{\"status\":\"success\",\"line\":{\"a\":1}}";

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(rk_answer_object(bad[i], strlen(bad[i]), &o, &on) == -1, "%s", bad[i]);
    }
    ck_assert_int_eq(rk_answer_object(ok, strlen(ok), &o, &on), 0);
    ck_assert_int_eq((int)on, 7);
    ck_assert(memcmp(o, "{\"a\":1}", 7) == 0);
    ck_assert_int_eq(rk_answer_object(NULL, 0, &o, &on), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cond");
    TCase *tc = tcase_create("cond");
    SRunner *sr;
    int failed;

    tcase_add_loop_test(tc, list_match, 0, (int)(sizeof(mcases) / sizeof(mcases[0])));
    tcase_add_loop_test(tc, eval, 0, (int)(sizeof(ecases) / sizeof(ecases[0])));
    tcase_add_test(tc, lane_tags);
    tcase_add_test(tc, resource_tags);
    tcase_add_test(tc, object_digest_tags);
    tcase_add_test(tc, answer_shapes);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
