/* check_json.c: Check unit tests of rk_json (response shaping: rk_json_answer, the writer,
 * checked against literal answers and, on random rows, against jansson's dump).
 * Contract: doc/api.md "Bodies" (field names, order and types) and "Other errors". */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_json.h"

/* ------------------------------------------------------------------ expectations */

typedef struct {
    const rk_resource *res;
    const char *singular, *plural;
    int nfields;
    const char *names[12];
    rk_ftype types[12];
    const char *values[12];   /* a full row */
    const char *full;        /* its compact JSON */
    const char *nulls;       /* the compact JSON of a row of SQL NULLs */
} res_case;

#define I RK_F_ID
#define N RK_F_INT
#define S RK_F_STR
#define Z RK_F_NSTR

static const res_case cases[] = {
    { &rk_res_competition, "competition", "competitions", 10,
      { "id", "name", "location", "start_date", "end_date", "timezone", "status", "ranking",
        "publication", "advance" },
      { I, S, Z, Z, Z, Z, Z, Z, Z, N },
      { "1", "Open de Paris", "Paris", "2026-11-21", "2026-11-22", "Europe/Paris", "upcoming",
        "chart100", "validated", "8" },
      "{\"id\":\"1\",\"name\":\"Open de Paris\",\"location\":\"Paris\",\"start_date\":\"2026-11-21\","
      "\"end_date\":\"2026-11-22\",\"timezone\":\"Europe/Paris\",\"status\":\"upcoming\","
      "\"ranking\":\"chart100\",\"publication\":\"validated\",\"advance\":8}",
      "{\"id\":null,\"name\":\"\",\"location\":null,\"start_date\":null,\"end_date\":null,"
      "\"timezone\":null,\"status\":null,\"ranking\":null,\"publication\":null,"
      "\"advance\":null}" },
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
    { &rk_res_voie, "voie", "voies", 8,
      { "id", "heat_id", "number", "spot_id", "spot_name", "score", "tiebreak", "score_status" },
      { I, I, N, I, Z, Z, Z, Z },
      { "900", "40", "3", "7", "Les Costauds", "07:45", "1:02.5", "entered" },
      "{\"id\":\"900\",\"heat_id\":\"40\",\"number\":3,\"spot_id\":\"7\","
      "\"spot_name\":\"Les Costauds\",\"score\":\"07:45\",\"tiebreak\":\"1:02.5\","
      "\"score_status\":\"entered\"}",
      "{\"id\":null,\"heat_id\":null,\"number\":null,\"spot_id\":null,\"spot_name\":null,"
      "\"score\":null,\"tiebreak\":null,\"score_status\":null}" },
    { &rk_res_line, "line", "lines", 8,
      { "id", "heat_id", "number", "spot_id", "spot_name", "score", "tiebreak", "score_status" },
      { I, I, N, I, Z, Z, Z, Z },
      { "901", "41", "1", "8", "Team 8", "212", "0:58", "validated" },
      "{\"id\":\"901\",\"heat_id\":\"41\",\"number\":1,\"spot_id\":\"8\","
      "\"spot_name\":\"Team 8\",\"score\":\"212\",\"tiebreak\":\"0:58\","
      "\"score_status\":\"validated\"}",
      "{\"id\":null,\"heat_id\":null,\"number\":null,\"spot_id\":null,\"spot_name\":null,"
      "\"score\":null,\"tiebreak\":null,\"score_status\":null}" },
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

/* ------------------------------------------------------------------ the writer */

/* One answer through rk_json_answer, counted then written (the two calls must agree):
 * a list of N rows when LIST, else the single row ROWS[0].  malloc()ed, NUL-ended. */
static char *write_answer(const rk_resource *res, int list, int n, const char *const *const *rows)
{
    const char *flat[4 * 8];   /* the rows one after the other, as rk_json_answer takes them */
    ck_assert_int_le(n * res->nfields, (int)(sizeof flat / sizeof flat[0]));
    for (int i = 0; i < n; i++)
        memcpy(flat + i * res->nfields, rows[i], (size_t)res->nfields * sizeof(char *));
    size_t counted = rk_json_answer(NULL, res, list, flat, (size_t)n);
    char *out = malloc(counted + 1);
    ck_assert_ptr_nonnull(out);
    memset(out, '#', counted + 1);
    ck_assert_uint_eq(rk_json_answer(out, res, list, flat, (size_t)n), counted);
    ck_assert_int_eq(out[counted], '#');   /* nothing written past the count */
    out[counted] = '\0';
    return out;
}

/* The row alone, out of {"status":"success","<singular>":<row>}. */
static char *write_row(const rk_resource *res, const char *const *values)
{
    char *a = write_answer(res, 0, 1, &values);
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "{\"status\":\"success\",\"%s\":", res->singular);
    size_t len = strlen(a);
    ck_assert_msg(strncmp(a, prefix, (size_t)n) == 0, "answer '%s' does not start with '%s'", a, prefix);
    ck_assert_int_eq(a[len - 1], '}');
    memmove(a, a + n, len - (size_t)n - 1);
    a[len - (size_t)n - 1] = '\0';
    return a;
}

/* The written row, parsed back (it must be valid JSON). */
static json_t *row_json(const rk_resource *res, const char *const *values)
{
    char *text = write_row(res, values);
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    ck_assert_msg(j != NULL, "'%s' is not valid JSON: %s", text, e.text);
    free(text);
    return j;
}

static void expect_row(const rk_resource *res, const char *const *values, const char *want)
{
    char *got = write_row(res, values);
    ck_assert_str_eq(got, want);
    free(got);
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
    json_t *row = row_json(c->res, c->values);
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
    expect_row(c->res, c->values, c->full);
    json_decref(row);
}
END_TEST

START_TEST(test_row_nulls)
{
    const res_case *c = &cases[_i];
    const char *values[12] = { NULL };
    json_t *row = row_json(c->res, values);
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
    expect_row(c->res, values, c->nulls);
    json_decref(row);
}
END_TEST

/* One NULL at a time: only that field changes. */
START_TEST(test_row_one_null)
{
    const res_case *c = &cases[_i];
    for (int f = 0; f < c->nfields; f++) {
        const char *values[12];
        memcpy(values, c->values, sizeof values);
        values[f] = NULL;
        json_t *row = row_json(c->res, values);
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
    expect_row(&rk_res_wod, w,
               "{\"id\":\"123456789012345678\",\"name\":\"n\",\"description\":\"\","
               "\"competition_id\":\"999999999999999999\",\"position\":0,\"scoring\":\"reps\","
               "\"time_cap\":9223372036854775807}");
    const char *w2[] = { "5", "n", "d", "1", v1[3], "load", NULL };
    json_t *row = row_json(&rk_res_wod, w2);
    ck_assert_int_eq(json_integer_value(json_object_get(row, "position")), -3);
    json_decref(row);
    expect_row(&rk_res_wod, w2, "{\"id\":\"5\",\"name\":\"n\",\"description\":\"d\",\"competition_id\":\"1\","
                                "\"position\":-3,\"scoring\":\"load\",\"time_cap\":null}");
    /* what is not an integer in an integer column is shown as unknown */
    const char *w3[] = { "5", "n", "d", "1", "12abc", "load", "9223372036854775808" };
    expect_row(&rk_res_wod, w3, "{\"id\":\"5\",\"name\":\"n\",\"description\":\"d\",\"competition_id\":\"1\","
                                "\"position\":null,\"scoring\":\"load\",\"time_cap\":null}");
    const char *w4[] = { "5", "n", "d", "1", "", "load", "007" };
    expect_row(&rk_res_wod, w4, "{\"id\":\"5\",\"name\":\"n\",\"description\":\"d\",\"competition_id\":\"1\","
                                "\"position\":null,\"scoring\":\"load\",\"time_cap\":7}");
}
END_TEST

START_TEST(test_row_utf8_and_escapes)
{
    /* UTF-8 passes through unescaped; quote, backslash and control chars are escaped */
    const char *s[] = { "7", "1", "\xc3\x89quipe \xce\x94 \xf0\x9f\x8f\x8b \xe2\x82\xac",
                        "a\"b\\c", "line1\nline2\ttab\x01\x1f\b\f\r/\x7f", "42" };
    json_t *row = row_json(&rk_res_spot, s);
    ck_assert_str_eq(json_string_value(json_object_get(row, "name")), s[2]);
    ck_assert_str_eq(json_string_value(json_object_get(row, "affiliate")), s[4]);
    json_decref(row);
    expect_row(&rk_res_spot, s, "{\"id\":\"7\",\"competition_id\":\"1\","
               "\"name\":\"\xc3\x89quipe \xce\x94 \xf0\x9f\x8f\x8b \xe2\x82\xac\","
               "\"division\":\"a\\\"b\\\\c\","
               "\"affiliate\":\"line1\\nline2\\ttab\\u0001\\u001F\\b\\f\\r/\x7f\","
               "\"bib\":42}");
    /* a score of 64 emoji */
    char score[4 * 64 + 1];
    for (int i = 0; i < 64; i++)
        memcpy(score + 4 * i, "\xf0\x9f\x98\x80", 4);
    score[256] = '\0';
    const char *l[] = { "1", "2", "3", NULL, NULL, score, NULL, "entered" };
    char *d = write_row(&rk_res_voie, l);
    ck_assert_ptr_nonnull(strstr(d, score));
    ck_assert_ptr_null(strstr(d, "\\u"));
    free(d);
}
END_TEST

/* A value that is not valid UTF-8 (a damaged database) never gives invalid JSON: it
 * is shown as unknown (null, or "" for a string that is always one). */
START_TEST(test_row_invalid_utf8)
{
    const char *s[] = { "7", "1", "bad \xff\xfe name", "\xc3", "\xed\xa0\x80", "1" };
    expect_row(&rk_res_spot, s, "{\"id\":\"7\",\"competition_id\":\"1\",\"name\":\"\","
                                "\"division\":null,\"affiliate\":null,\"bib\":1}");
    const char *t[] = { "\xc0\xaf", "1", "\xf4\x90\x80\x80", "\xf0\x80\x80\x80", "\xe0\x80\xaf", "x" };
    expect_row(&rk_res_spot, t, "{\"id\":null,\"competition_id\":\"1\",\"name\":\"\","
                                "\"division\":null,\"affiliate\":null,\"bib\":null}");
    /* the largest code point and the last ones before and after the surrogates pass */
    const char *u[] = { "7", "1", "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf", "\xee\x80\x80", "1" };
    expect_row(&rk_res_spot, u, "{\"id\":\"7\",\"competition_id\":\"1\",\"name\":\"\xf4\x8f\xbf\xbf\","
                                "\"division\":\"\xed\x9f\xbf\",\"affiliate\":\"\xee\x80\x80\",\"bib\":1}");
}
END_TEST

/* ------------------------------------------------------------------ against jansson */

/* The shaping the writer replaced, through a jansson tree: the oracle of the
 * differential test below (the writer must give exactly these bytes). */
static json_t *oracle_value(rk_ftype type, const char *v)
{
    char *end;
    long long n;
    json_t *j = NULL;

    switch (type) {
    case RK_F_STR:
        j = json_string(v ? v : "");
        return j ? j : json_string("");
    case RK_F_NSTR:
    case RK_F_ID:
        j = v ? json_string(v) : NULL;
        return j ? j : json_null();
    case RK_F_INT:
        if (!v)
            return json_null();
        errno = 0;
        n = strtoll(v, &end, 10);
        return errno || end == v || *end ? json_null() : json_integer((json_int_t)n);
    case RK_F_JSON:
        /* JSON kept as text: the value it holds (the differential test's resources
         * have none; test_history_rows covers them) */
        j = v ? json_loads(v, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL) : NULL;
        return j ? j : json_null();
    }
    return json_null();
}

static json_t *oracle_answer(const rk_resource *res, int list, int n, const char *const *const *rows)
{
    json_t *items = json_array(), *one = NULL;
    for (int i = 0; i < n; i++) {
        json_t *o = json_object();
        for (int f = 0; f < res->nfields; f++)
            json_object_set_new(o, res->fields[f].name, oracle_value(res->fields[f].type, rows[i][f]));
        if (list)
            json_array_append_new(items, o);
        else
            one = o;
    }
    json_t *a = json_pack("{s:s}", "status", "success");
    if (list)
        json_object_set_new(a, res->plural, items);
    else {
        json_decref(items);
        json_object_set_new(a, res->singular, one);
    }
    return a;
}

/* pieces of values: ASCII, escapes, UTF-8 of every length, and bytes that are not UTF-8 */
static const char *const pieces[] = {
    "a", "Z", "0", "7", "-", "+", " ", "/", "\"", "\\", "\n", "\t", "\x01", "\x1f", "\x7f",
    "\xc3\xa9", "\xce\x94", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbf",
    "\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xed\xbf\xbf",
    "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf8", "\xff", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
    "12", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e3",
};
#define NPIECES ((unsigned)(sizeof pieces / sizeof pieces[0]))

static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 16) % n;
}

/* A lane's change: before and after are JSON kept as text, written as they are when
 * they are one valid JSON value, else null; rk_json_object is the row of an answer. */
START_TEST(test_history_rows)
{
    const char *lane = "{\"id\":\"9\",\"score\":\"7:45\",\"tiebreak\":null}";
    const char *row[] = { "81", "2026-11-21T09:31:02Z", "judge", "update", lane, lane };
    const char *del[] = { "82", "2026-11-21T09:32:00Z", "judge", "delete", lane, NULL };
    const char *bad[] = { "83", "x", "u\"q", "update", "{\"a\":1", "{\"a\":1,\"a\":2}" };
    char *a;
    size_t n;
    char obj[256];

    ck_assert_str_eq(rk_res_history.plural, "history");
    ck_assert_int_eq(rk_res_history.nfields, 6);
    a = write_row(&rk_res_history, row);
    ck_assert_str_eq(a, "{\"id\":\"81\",\"at\":\"2026-11-21T09:31:02Z\",\"user\":\"judge\","
                        "\"action\":\"update\",\"before\":{\"id\":\"9\",\"score\":\"7:45\","
                        "\"tiebreak\":null},\"after\":{\"id\":\"9\",\"score\":\"7:45\",\"tiebreak\":null}}");
    free(a);
    a = write_row(&rk_res_history, del);
    ck_assert_ptr_nonnull(strstr(a, "\"after\":null}"));
    free(a);
    /* not JSON, or a duplicate key: null, never text that breaks the answer */
    a = write_row(&rk_res_history, bad);
    ck_assert_ptr_nonnull(strstr(a, "\"before\":null,\"after\":null}"));
    ck_assert_ptr_nonnull(strstr(a, "\"user\":\"u\\\"q\""));
    free(a);
    /* rk_json_object: the object alone, the same bytes as inside an answer */
    n = rk_json_object(NULL, &rk_res_voie, cases[5].values);
    ck_assert_uint_eq(n, strlen(cases[5].full));
    ck_assert_uint_lt(n, sizeof(obj));
    ck_assert_uint_eq(rk_json_object(obj, &rk_res_voie, cases[5].values), n);
    obj[n] = '\0';
    ck_assert_str_eq(obj, cases[5].full);
    /* rk_json_object_bound: at least that; exactly it for the worst strings (control
     * characters, six bytes each) and integers (the longest) */
    ck_assert_uint_ge(rk_json_object_bound(&rk_res_voie, cases[5].values), n);
    {
        const char *worst[8] = { "\x01\x02\x1f", "\x7f", "-9223372036854775808", NULL, "\x01",
                                 "", "\x1f\x1f", NULL };
        char big[512];
        size_t b = rk_json_object_bound(&rk_res_voie, worst);

        ck_assert_uint_lt(b, sizeof(big));
        ck_assert_uint_ge(b, rk_json_object(NULL, &rk_res_voie, worst));
        ck_assert_uint_eq(rk_json_object(big, &rk_res_voie, worst), rk_json_object(NULL, &rk_res_voie, worst));
        big[rk_json_object(NULL, &rk_res_voie, worst)] = '\0';
        ck_assert_ptr_nonnull(strstr(big, "\"number\":-9223372036854775808,"));
        ck_assert_ptr_nonnull(strstr(big, "\"id\":\"\\u0001\\u0002\\u001F\""));
    }
    /* rk_json_answer_of: the answer around that object, the bytes rk_json_answer writes */
    {
        char whole[512], around[512];
        size_t w = rk_json_answer(NULL, &rk_res_voie, 0, cases[5].values, 1);

        ck_assert_uint_lt(w, sizeof(whole));
        ck_assert_uint_eq(rk_json_answer(whole, &rk_res_voie, 0, cases[5].values, 1), w);
        ck_assert_uint_eq(rk_json_answer_of(NULL, &rk_res_voie, obj, n), w);
        ck_assert_uint_eq(rk_json_answer_of(around, &rk_res_voie, obj, n), w);
        ck_assert_int_eq(memcmp(whole, around, w), 0);
    }
}
END_TEST

START_TEST(test_writer_matches_jansson)
{
    static const rk_resource *const all[] = { &rk_res_competition, &rk_res_wod, &rk_res_spot,
                                              &rk_res_zone, &rk_res_heat, &rk_res_voie, &rk_res_line };
    char buf[4][12][64];
    const char *vals[4][12];
    const char *const *rows[4] = { vals[0], vals[1], vals[2], vals[3] };

    for (int iter = 0; iter < 20000; iter++) {
        const rk_resource *res = all[iter % 7];
        int list = rnd(2), n = list ? (int)rnd(4) : 1;
        for (int i = 0; i < n; i++) {
            for (int f = 0; f < res->nfields; f++) {
                unsigned k = rnd(6);
                buf[i][f][0] = '\0';
                for (unsigned p = 0; p < k; p++)
                    strcat(buf[i][f], pieces[rnd(NPIECES)]);
                /* now and then a plain number or NULL */
                vals[i][f] = rnd(8) == 0 ? NULL : buf[i][f];
                if (rnd(4) == 0)
                    snprintf(buf[i][f], sizeof buf[i][f], "%d", (int)rnd(100000) - 50000);
            }
        }
        for (int i = 0; i < n; i++) {   /* the bound of each object holds it */
            ck_assert_uint_ge(rk_json_object_bound(res, rows[i]), rk_json_object(NULL, res, rows[i]));
        }
        char *got = write_answer(res, list, n, rows);
        json_t *o = oracle_answer(res, list, n, rows);
        char *want = json_dumps(o, JSON_COMPACT);
        ck_assert_msg(strcmp(got, want) == 0, "iteration %d (%s): writer '%s', jansson '%s'",
                      iter, res->singular, got, want);
        free(want);
        json_decref(o);
        free(got);
    }
}
END_TEST

/* ------------------------------------------------------------------ envelopes */

START_TEST(test_success_list)
{
    const char *const z1[] = { "3", "1", "Floor A", "8" }, *const z2[] = { "4", "1", NULL, NULL };
    const char *const *const rows[] = { z1, z2 };
    char *a = write_answer(&rk_res_zone, 1, 2, rows);
    ck_assert_str_eq(a, "{\"status\":\"success\",\"zones\":["
                        "{\"id\":\"3\",\"competition_id\":\"1\",\"name\":\"Floor A\",\"lane_count\":8},"
                        "{\"id\":\"4\",\"competition_id\":\"1\",\"name\":\"\",\"lane_count\":null}]}");
    free(a);
}
END_TEST

START_TEST(test_success_shapes)
{
    char *a = write_answer(&rk_res_wod, 1, 0, NULL);
    ck_assert_str_eq(a, "{\"status\":\"success\",\"wods\":[]}");
    free(a);

    json_t *j = rk_json_success("voie", NULL);
    expect_dump(j, "{\"status\":\"success\"}");
    json_decref(j);

    const char *const *const one[] = { cases[5].values };
    a = write_answer(&rk_res_voie, 0, 1, one);
    ck_assert_str_eq(a, "{\"status\":\"success\",\"voie\":{\"id\":\"900\",\"heat_id\":\"40\",\"number\":3,"
                        "\"spot_id\":\"7\",\"spot_name\":\"Les Costauds\",\"score\":\"07:45\","
                        "\"tiebreak\":\"1:02.5\",\"score_status\":\"entered\"}}");
    free(a);

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
        { 412, "Precondition failed" },
        { 413, "Request body too large" }, { 415, "Unsupported media type" },
        { 429, "Too many requests" }, { 500, "Internal server error" },
        { 503, "Service unavailable" }, { 408, "Request timeout" }, { 411, "Length required" },
        { 414, "URI too long" }, { 417, "Expectation failed" },
        { 431, "Request header fields too large" }, { 501, "Not implemented" },
        { 505, "HTTP version not supported" }, { 410, "Request refused" },
        { 416, "Request refused" }, { 502, "Internal server error" },
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
    tcase_add_test(tc, test_history_rows);
    tcase_add_test(tc, test_writer_matches_jansson);
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
