/* check_json.c: Check unit tests of rk_json (response shaping).
 * Contract: shared/API.md "Bodies" (field names, order and types) and "Other errors". */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_json.h"

/* ------------------------------------------------------------------ expectations */

typedef struct {
    const rk_resource *res;
    const char *singular, *plural;
    int nfields;
    const char *names[8];
    rk_ftype types[8];
    const char *values[8];   /* a full row */
    const char *full;        /* its compact JSON */
    const char *nulls;       /* the compact JSON of a row of SQL NULLs */
} res_case;

#define I RK_F_ID
#define N RK_F_INT
#define S RK_F_STR
#define Z RK_F_NSTR

static const res_case cases[] = {
    { &rk_res_competition, "competition", "competitions", 7,
      { "id", "name", "location", "start_date", "end_date", "timezone", "status" },
      { I, S, Z, Z, Z, Z, Z },
      { "1", "Open de Paris", "Paris", "2026-11-21", "2026-11-22", "Europe/Paris", "upcoming" },
      "{\"id\":\"1\",\"name\":\"Open de Paris\",\"location\":\"Paris\",\"start_date\":\"2026-11-21\","
      "\"end_date\":\"2026-11-22\",\"timezone\":\"Europe/Paris\",\"status\":\"upcoming\"}",
      "{\"id\":null,\"name\":\"\",\"location\":null,\"start_date\":null,\"end_date\":null,"
      "\"timezone\":null,\"status\":null}" },
    { &rk_res_wod, "wod", "wods", 7,
      { "id", "name", "description", "competition_id", "position", "scoring", "time_cap" },
      { I, S, S, I, N, Z, N },
      { "12", "Fran", "21-15-9 thrusters, pull-ups", "1", "2", "time", "600" },
      "{\"id\":\"12\",\"name\":\"Fran\",\"description\":\"21-15-9 thrusters, pull-ups\","
      "\"competition_id\":\"1\",\"position\":2,\"scoring\":\"time\",\"time_cap\":600}",
      "{\"id\":null,\"name\":\"\",\"description\":\"\",\"competition_id\":null,\"position\":null,"
      "\"scoring\":null,\"time_cap\":null}" },
    { &rk_res_spot, "spot", "spots", 6,
      { "id", "competition_id", "name", "division", "affiliate", "bib" },
      { I, I, S, Z, Z, N },
      { "7", "1", "Les Costauds", "RX", "CrossFit Lutece", "101" },
      "{\"id\":\"7\",\"competition_id\":\"1\",\"name\":\"Les Costauds\",\"division\":\"RX\","
      "\"affiliate\":\"CrossFit Lutece\",\"bib\":101}",
      "{\"id\":null,\"competition_id\":null,\"name\":\"\",\"division\":null,\"affiliate\":null,"
      "\"bib\":null}" },
    { &rk_res_zone, "zone", "zones", 4,
      { "id", "competition_id", "name", "lane_count" },
      { I, I, S, N },
      { "3", "1", "Floor A", "8" },
      "{\"id\":\"3\",\"competition_id\":\"1\",\"name\":\"Floor A\",\"lane_count\":8}",
      "{\"id\":null,\"competition_id\":null,\"name\":\"\",\"lane_count\":null}" },
    { &rk_res_heat, "heat", "heats", 7,
      { "id", "competition_id", "zone_id", "wod_id", "number", "start_time", "status" },
      { I, I, I, I, N, Z, Z },
      { "40", "1", "3", "12", "5", "2026-11-21T09:30:00Z", "scheduled" },
      "{\"id\":\"40\",\"competition_id\":\"1\",\"zone_id\":\"3\",\"wod_id\":\"12\",\"number\":5,"
      "\"start_time\":\"2026-11-21T09:30:00Z\",\"status\":\"scheduled\"}",
      "{\"id\":null,\"competition_id\":null,\"zone_id\":null,\"wod_id\":null,\"number\":null,"
      "\"start_time\":null,\"status\":null}" },
    { &rk_res_voie, "voie", "voies", 6,
      { "id", "heat_id", "number", "spot_id", "spot_name", "score" },
      { I, I, N, I, Z, Z },
      { "900", "40", "3", "7", "Les Costauds", "07:45" },
      "{\"id\":\"900\",\"heat_id\":\"40\",\"number\":3,\"spot_id\":\"7\","
      "\"spot_name\":\"Les Costauds\",\"score\":\"07:45\"}",
      "{\"id\":null,\"heat_id\":null,\"number\":null,\"spot_id\":null,\"spot_name\":null,"
      "\"score\":null}" },
    { &rk_res_line, "line", "lines", 6,
      { "id", "heat_id", "number", "spot_id", "spot_name", "score" },
      { I, I, N, I, Z, Z },
      { "901", "41", "1", "8", "Team 8", "212" },
      "{\"id\":\"901\",\"heat_id\":\"41\",\"number\":1,\"spot_id\":\"8\","
      "\"spot_name\":\"Team 8\",\"score\":\"212\"}",
      "{\"id\":null,\"heat_id\":null,\"number\":null,\"spot_id\":null,\"spot_name\":null,"
      "\"score\":null}" },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static const char *const type_names[] = { "ID", "INT", "STR", "NSTR" };

/* dump, compare with WANT exactly, free */
static void expect_dump(json_t *j, const char *want)
{
    ck_assert_ptr_nonnull(j);
    size_t len = 12345;
    char *s = rk_json_dump(j, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, want);
    ck_assert_uint_eq(len, strlen(want));
    free(s);
}

/* the same, then drop J */
static void expect_dump_take(json_t *j, const char *want)
{
    expect_dump(j, want);
    json_decref(j);
}

/* ------------------------------------------------------------------ tables */

START_TEST(test_resource_table)
{
    const res_case *c = &cases[_i];
    const rk_resource *r = c->res;
    ck_assert_str_eq(r->singular, c->singular);
    ck_assert_str_eq(r->plural, c->plural);
    ck_assert_int_eq(r->nfields, c->nfields);
    ck_assert_ptr_nonnull(r->fields);
    for (int f = 0; f < c->nfields; f++) {
        ck_assert_msg(strcmp(r->fields[f].name, c->names[f]) == 0, "%s field %d: '%s', want '%s'",
                      c->singular, f, r->fields[f].name, c->names[f]);
        ck_assert_msg(r->fields[f].type == c->types[f], "%s.%s: type %s, want %s", c->singular,
                      c->names[f], type_names[r->fields[f].type], type_names[c->types[f]]);
    }
}
END_TEST

START_TEST(test_row_full)
{
    const res_case *c = &cases[_i];
    json_t *row = rk_json_row(c->res, c->values);
    ck_assert_ptr_nonnull(row);
    ck_assert(json_is_object(row));
    ck_assert_uint_eq(json_object_size(row), (size_t)c->nfields);
    for (int f = 0; f < c->nfields; f++) {
        json_t *v = json_object_get(row, c->names[f]);
        ck_assert_msg(v != NULL, "%s: no key '%s'", c->singular, c->names[f]);
        if (c->types[f] == RK_F_INT) {
            ck_assert_msg(json_is_integer(v), "%s.%s is not an integer", c->singular, c->names[f]);
            ck_assert_int_eq(json_integer_value(v), strtoll(c->values[f], NULL, 10));
        } else {
            ck_assert_msg(json_is_string(v), "%s.%s is not a string", c->singular, c->names[f]);
            ck_assert_str_eq(json_string_value(v), c->values[f]);
        }
    }
    expect_dump(row, c->full);
    json_decref(row);
}
END_TEST

START_TEST(test_row_nulls)
{
    const res_case *c = &cases[_i];
    const char *values[8] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    json_t *row = rk_json_row(c->res, values);
    ck_assert_ptr_nonnull(row);
    ck_assert_uint_eq(json_object_size(row), (size_t)c->nfields);
    for (int f = 0; f < c->nfields; f++) {
        json_t *v = json_object_get(row, c->names[f]);
        ck_assert_msg(v != NULL, "%s: no key '%s'", c->singular, c->names[f]);
        if (c->types[f] == RK_F_STR) {
            ck_assert_msg(json_is_string(v), "%s.%s: NULL must give \"\"", c->singular, c->names[f]);
            ck_assert_str_eq(json_string_value(v), "");
        } else {
            ck_assert_msg(json_is_null(v), "%s.%s: NULL must give null", c->singular, c->names[f]);
        }
    }
    expect_dump(row, c->nulls);
    json_decref(row);
}
END_TEST

/* One NULL at a time: only that field changes. */
START_TEST(test_row_one_null)
{
    const res_case *c = &cases[_i];
    for (int f = 0; f < c->nfields; f++) {
        const char *values[8];
        memcpy(values, c->values, sizeof values);
        values[f] = NULL;
        json_t *row = rk_json_row(c->res, values);
        ck_assert_ptr_nonnull(row);
        ck_assert_uint_eq(json_object_size(row), (size_t)c->nfields);
        for (int g = 0; g < c->nfields; g++) {
            json_t *v = json_object_get(row, c->names[g]);
            ck_assert_ptr_nonnull(v);
            if (g != f)
                ck_assert(!json_is_null(v));
            else if (c->types[g] == RK_F_STR)
                ck_assert(json_is_string(v) && strcmp(json_string_value(v), "") == 0);
            else
                ck_assert(json_is_null(v));
        }
        json_decref(row);
    }
}
END_TEST

/* ------------------------------------------------------------------ values */

START_TEST(test_row_values)
{
    /* big ids stay strings; ints of every size are integers */
    const char *v1[] = { "123456789012345678", "999999999999999999", "0", "-3",
                         "9223372036854775807" };
    /* wod: id, name, description, competition_id, position, scoring, time_cap */
    const char *w[] = { v1[0], "n", "", v1[1], v1[2], "reps", v1[4] };
    expect_dump_take(rk_json_row(&rk_res_wod, w),
                "{\"id\":\"123456789012345678\",\"name\":\"n\",\"description\":\"\","
                "\"competition_id\":\"999999999999999999\",\"position\":0,\"scoring\":\"reps\","
                "\"time_cap\":9223372036854775807}");
    const char *w2[] = { "5", "n", "d", "1", v1[3], "load", NULL };
    json_t *row = rk_json_row(&rk_res_wod, w2);
    ck_assert_int_eq(json_integer_value(json_object_get(row, "position")), -3);
    expect_dump(row, "{\"id\":\"5\",\"name\":\"n\",\"description\":\"d\",\"competition_id\":\"1\","
                     "\"position\":-3,\"scoring\":\"load\",\"time_cap\":null}");
    json_decref(row);
}
END_TEST

START_TEST(test_row_utf8_and_escapes)
{
    /* UTF-8 passes through unescaped; quote, backslash and control chars are escaped */
    const char *s[] = { "7", "1", "\xc3\x89quipe \xce\x94 \xf0\x9f\x8f\x8b \xe2\x82\xac",
                        "a\"b\\c", "line1\nline2\ttab\x01", "42" };
    json_t *row = rk_json_row(&rk_res_spot, s);
    ck_assert_str_eq(json_string_value(json_object_get(row, "name")), s[2]);
    expect_dump(row, "{\"id\":\"7\",\"competition_id\":\"1\","
                     "\"name\":\"\xc3\x89quipe \xce\x94 \xf0\x9f\x8f\x8b \xe2\x82\xac\","
                     "\"division\":\"a\\\"b\\\\c\",\"affiliate\":\"line1\\nline2\\ttab\\u0001\","
                     "\"bib\":42}");
    json_decref(row);
    /* a score of 64 emoji */
    char score[4 * 64 + 1];
    for (int i = 0; i < 64; i++)
        memcpy(score + 4 * i, "\xf0\x9f\x98\x80", 4);
    score[256] = '\0';
    const char *l[] = { "1", "2", "3", NULL, NULL, score };
    row = rk_json_row(&rk_res_voie, l);
    size_t len;
    char *d = rk_json_dump(row, &len);
    ck_assert_ptr_nonnull(strstr(d, score));
    ck_assert_ptr_null(strstr(d, "\\u"));
    free(d);
    json_decref(row);
}
END_TEST

/* A value that is not valid UTF-8 (a damaged database) must never give invalid JSON
 * nor crash: either NULL or a row whose dump parses back. */
START_TEST(test_row_invalid_utf8)
{
    const char *s[] = { "7", "1", "bad \xff\xfe name", "\xc3", NULL, "1" };
    json_t *row = rk_json_row(&rk_res_spot, s);
    if (row) {
        size_t len;
        char *d = rk_json_dump(row, &len);
        if (d) {
            json_error_t e;
            json_t *back = json_loads(d, 0, &e);
            ck_assert_msg(back != NULL, "dump '%s' is not valid JSON: %s", d, e.text);
            json_decref(back);
            free(d);
        }
        json_decref(row);
    }
}
END_TEST

/* ------------------------------------------------------------------ envelopes */

START_TEST(test_success_list)
{
    json_t *list = json_array();
    json_array_append_new(list, rk_json_row(&rk_res_zone, (const char *[]){ "3", "1", "Floor A", "8" }));
    json_array_append_new(list, rk_json_row(&rk_res_zone, (const char *[]){ "4", "1", NULL, NULL }));
    expect_dump_take(rk_json_success("zones", list),
                "{\"status\":\"success\",\"zones\":["
                "{\"id\":\"3\",\"competition_id\":\"1\",\"name\":\"Floor A\",\"lane_count\":8},"
                "{\"id\":\"4\",\"competition_id\":\"1\",\"name\":\"\",\"lane_count\":null}]}");
}
END_TEST

START_TEST(test_success_shapes)
{
    json_t *j = rk_json_success("wods", json_array());
    expect_dump(j, "{\"status\":\"success\",\"wods\":[]}");
    json_decref(j);

    j = rk_json_success("voie", NULL);
    expect_dump(j, "{\"status\":\"success\"}");
    json_decref(j);

    j = rk_json_success("voie", rk_json_row(&rk_res_voie, cases[5].values));
    expect_dump(j, "{\"status\":\"success\",\"voie\":{\"id\":\"900\",\"heat_id\":\"40\",\"number\":3,"
                   "\"spot_id\":\"7\",\"spot_name\":\"Les Costauds\",\"score\":\"07:45\"}}");
    json_decref(j);

    /* the /connect answer is built the same way */
    j = rk_json_success("access_token", json_string("tok"));
    json_object_set_new(j, "token_type", json_string("Bearer"));
    json_object_set_new(j, "expires_in", json_integer(3600));
    expect_dump(j, "{\"status\":\"success\",\"access_token\":\"tok\",\"token_type\":\"Bearer\","
                   "\"expires_in\":3600}");
    json_decref(j);
}
END_TEST

/* rk_json_success steals VALUE: one reference moves into the envelope. */
START_TEST(test_success_steals)
{
    json_t *v = json_array();
    json_incref(v);                       /* ours: 2 */
    json_t *j = rk_json_success("heats", v);
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_eq(json_object_get(j, "heats"), v);
    ck_assert_int_eq((int)v->refcount, 2);   /* ours + the envelope's */
    json_decref(j);
    ck_assert_int_eq((int)v->refcount, 1);
    json_decref(v);
}
END_TEST

START_TEST(test_error)
{
    json_t *j = rk_json_error("Not found");
    ck_assert_ptr_nonnull(j);
    ck_assert_uint_eq(json_object_size(j), 2);
    expect_dump(j, "{\"status\":\"error\",\"message\":\"Not found\"}");
    json_decref(j);
    j = rk_json_error("Unauthorized");
    expect_dump(j, "{\"status\":\"error\",\"message\":\"Unauthorized\"}");
    json_decref(j);
    j = rk_json_error("Invalid body: unknown key");
    expect_dump(j, "{\"status\":\"error\",\"message\":\"Invalid body: unknown key\"}");
    json_decref(j);
    j = rk_json_error("say \"hi\" \\ \xc3\xa9t\xc3\xa9");
    expect_dump(j, "{\"status\":\"error\",\"message\":\"say \\\"hi\\\" \\\\ \xc3\xa9t\xc3\xa9\"}");
    json_decref(j);
    j = rk_json_error("");
    expect_dump(j, "{\"status\":\"error\",\"message\":\"\"}");
    json_decref(j);
}
END_TEST

START_TEST(test_dump_compact_order)
{
    json_t *o = json_object();
    json_object_set_new(o, "zeta", json_integer(1));
    json_object_set_new(o, "alpha", json_array());
    json_object_set_new(o, "mid", json_pack("{s:[i,i],s:n,s:b}", "x", 1, 2, "y", "t", 1));
    json_object_set_new(o, "beta", json_string("a/b"));
    expect_dump(o, "{\"zeta\":1,\"alpha\":[],\"mid\":{\"x\":[1,2],\"y\":null,\"t\":true},"
                   "\"beta\":\"a/b\"}");
    json_decref(o);
}
END_TEST

/* ------------------------------------------------------------------ messages */

START_TEST(test_status_messages)
{
    static const struct { int status; const char *msg; } m[] = {
        { 400, "Bad request" }, { 401, "Unauthorized" }, { 403, "Forbidden" },
        { 404, "Not found" }, { 405, "Method not allowed" }, { 409, "Conflict" },
        { 413, "Request body too large" }, { 415, "Unsupported media type" },
        { 429, "Too many requests" }, { 500, "Internal server error" },
        { 503, "Service unavailable" },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        const char *got = rk_status_message(m[i].status);
        ck_assert_msg(got != NULL, "status %d: NULL", m[i].status);
        ck_assert_msg(strcmp(got, m[i].msg) == 0, "status %d: '%s', want '%s'", m[i].status, got,
                      m[i].msg);
    }
}
END_TEST

/* ------------------------------------------------------------------ main */

static Suite *json_suite(void)
{
    Suite *s = suite_create("rk_json");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, test_resource_table, 0, NCASES);
    tcase_add_loop_test(tc, test_row_full, 0, NCASES);
    tcase_add_loop_test(tc, test_row_nulls, 0, NCASES);
    tcase_add_loop_test(tc, test_row_one_null, 0, NCASES);
    tcase_add_test(tc, test_row_values);
    tcase_add_test(tc, test_row_utf8_and_escapes);
    tcase_add_test(tc, test_row_invalid_utf8);
    suite_add_tcase(s, tc);

    tc = tcase_create("envelopes");
    tcase_add_test(tc, test_success_list);
    tcase_add_test(tc, test_success_shapes);
    tcase_add_test(tc, test_success_steals);
    tcase_add_test(tc, test_error);
    tcase_add_test(tc, test_dump_compact_order);
    suite_add_tcase(s, tc);

    tc = tcase_create("messages");
    tcase_add_test(tc, test_status_messages);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(json_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
