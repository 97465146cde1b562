/* check_resource.c: Check unit tests of rk_resource (the bodies of API.md part 3's
 * POST and PATCH: competitions, WODs, spots, zones, heats, lanes).
 * Contract: /work/shared/API.md part 3 "Setup and day-of changes"; doc/api.md
 * "Part 3 decisions (work in progress)". */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_resource.h"

#define MARK "XYZZY"   /* put into bad inputs: must never appear in an error message */

/* ------------------------------------------------------------------ helpers */

static int post(rk_resource_kind k, const char *body, rk_resource_body *out, const char **err)
{
    *err = NULL;
    return rk_resource_post_parse(k, body, strlen(body), out, err);
}

static int patch(rk_resource_kind k, const char *body, rk_resource_body *out, const char **err)
{
    *err = NULL;
    return rk_resource_patch_parse(k, body, strlen(body), out, err);
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;

    while (n--) {
        if (*c++) {
            return 0;
        }
    }
    return 1;
}

/* BODY refused by POST (PATCH when !IS_POST) of K with exactly message MSG (or a
 * message starting "Invalid body: " and containing MSG when PARTIAL) */
static void refused(rk_resource_kind k, int is_post, const char *body, const char *msg,
                    int partial)
{
    rk_resource_body b;
    const char *err = NULL;
    int rv = is_post ? post(k, body, &b, &err) : patch(k, body, &b, &err);

    ck_assert_msg(rv == -1, "accepted: %s", body);
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(strncmp(err, "Invalid body: ", 14) == 0, "message '%s'", err);
    ck_assert_msg(strstr(err, MARK) == NULL, "echo in '%s'", err);
    if (partial) {
        ck_assert_msg(strstr(err, msg) != NULL, "'%s' lacks '%s' (body %s)", err, msg, body);
    }
    else {
        ck_assert_str_eq(err, msg);
    }
    ck_assert(all_zero(&b, sizeof(b)));
    rk_resource_body_free(&b);   /* safe on a refused body */
}

/* ------------------------------------------------------------------ tables */

START_TEST(test_tables)
{
    static const char *const keys[RK_RES_COUNT][RK_RES_MAX_FIELDS + 1] = {
        { "name", "location", "start_date", "end_date", "timezone", "status", "ranking",
          "publication", "advance", NULL },
        { "name", "description", "position", "scoring", "time_cap", NULL },
        { "name", "division", "affiliate", "bib", NULL },
        { "name", "lane_count", NULL },
        { "number", "wod_id", "zone_id", "start_time", "status", NULL },
        { "number", "spot_id", "score", "tiebreak", NULL },
    };
    static const int nfields[RK_RES_COUNT] = {
        RK_COMP_NFIELDS, RK_WOD_NFIELDS, RK_SPOT_NFIELDS, RK_ZONE_NFIELDS, RK_HEAT_NFIELDS,
        RK_LANE_NFIELDS
    };
    int k, f;

    for (k = 0; k < RK_RES_COUNT; k++) {
        const rk_resource_def *d = rk_resource_def_of((rk_resource_kind)k);

        ck_assert_ptr_nonnull(d);
        ck_assert_int_eq(d->kind, k);
        ck_assert_int_eq(d->nfields, nfields[k]);
        ck_assert_int_le(d->nfields, RK_RES_MAX_FIELDS);
        for (f = 0; f < d->nfields; f++) {
            ck_assert_str_eq(d->fields[f].key, keys[k][f]);
            ck_assert_ptr_nonnull(d->fields[f].bad);
            ck_assert(strncmp(d->fields[f].bad, "Invalid body: ", 14) == 0);
            /* the message names its key */
            ck_assert_msg(strstr(d->fields[f].bad, d->fields[f].key) != NULL, "%s",
                          d->fields[f].bad);
            if (!(d->fields[f].flags & RK_FIELD_NULLABLE)) {
                ck_assert_ptr_nonnull(d->fields[f].null_msg);
                ck_assert(strstr(d->fields[f].null_msg, d->fields[f].key) != NULL);
            }
            if (d->fields[f].type == RK_WT_ENUM) {
                ck_assert_ptr_nonnull(d->fields[f].values);
            }
        }
        ck_assert_ptr_null(keys[k][f]);
    }
    ck_assert_ptr_null(rk_resource_def_of(RK_RES_COUNT));
    ck_assert_ptr_null(rk_resource_def_of((rk_resource_kind)-1));
}
END_TEST

/* ------------------------------------------------------------------ formats */

START_TEST(test_dates)
{
    static const char *const good[] = { "2026-11-21", "2024-02-29", "2000-02-29", "1000-01-01",
                                        "9999-12-31", "2026-04-30" };
    static const char *const bad[] = { "2026-11-31", "2025-02-29", "1900-02-29", "2026-13-01",
                                       "2026-00-10", "2026-01-00", "0999-12-31", "2026-1-01",
                                       "2026/11/21", "26-11-21", "2026-11-21T", " 2026-11-21",
                                       "2026-11-2a", "", "2026-11-21Z", "+026-11-21" };
    size_t i;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ck_assert_msg(rk_date_valid(good[i], strlen(good[i])), "%s", good[i]);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(!rk_date_valid(bad[i], strlen(bad[i])), "%s", bad[i]);
    }
}
END_TEST

START_TEST(test_instants)
{
    static const char *const good[] = { "2026-11-21T09:30:00Z", "2024-02-29T23:59:59Z",
                                        "2026-01-01T00:00:00Z" };
    static const char *const bad[] = { "2026-11-21T24:00:00Z", "2026-11-21T09:60:00Z",
                                       "2026-11-21T09:30:60Z", "2026-11-21T09:30:00",
                                       "2026-11-21T09:30:00+01:00", "2026-11-21 09:30:00Z",
                                       "2026-11-21T09:30Z", "2026-11-21T09:30:00.5Z",
                                       "2026-11-21t09:30:00z", "2026-02-30T09:30:00Z",
                                       "2026-11-21T9:30:00Z", "" };
    size_t i;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ck_assert_msg(rk_instant_valid(good[i], strlen(good[i])), "%s", good[i]);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(!rk_instant_valid(bad[i], strlen(bad[i])), "%s", bad[i]);
    }
}
END_TEST

START_TEST(test_timezones)
{
    static const char *const good[] = { "Europe/Paris", "UTC", "America/Argentina/Buenos_Aires",
                                        "Etc/GMT+1", "Etc/GMT-14", "EST5EDT", "America/Port-au-Prince",
                                        "America/North_Dakota/New_Salem" };
    static const char *const bad[] = { "", "/Europe", "Europe/", "Europe//Paris", "Europe/Paris ",
                                       " UTC", "Europe/Paris/X/Y", "1Europe/Paris", "Europe/_Paris",
                                       "Europe/../etc", "../passwd", "Europe/Pa ris", "Europe\\Paris",
                                       "Europe/Paris\n", "+01:00", "Ame..s", "America/Sa..o", "Europe/Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" };
    size_t i;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ck_assert_msg(rk_timezone_valid(good[i], strlen(good[i])), "%s", good[i]);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(!rk_timezone_valid(bad[i], strlen(bad[i])), "%s", bad[i]);
    }
    /* 64 bytes at most */
    ck_assert(rk_timezone_valid("Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/Cccc", 64));
    ck_assert(!rk_timezone_valid("Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/Ccccc", 65));
}
END_TEST

START_TEST(test_dates_check)
{
    ck_assert_ptr_null(rk_resource_dates_check("2026-11-20", "2026-11-22"));
    ck_assert_ptr_null(rk_resource_dates_check("2026-11-20", "2026-11-20"));
    ck_assert_ptr_null(rk_resource_dates_check(NULL, "2026-11-20"));
    ck_assert_ptr_null(rk_resource_dates_check("2026-11-20", NULL));
    ck_assert_ptr_nonnull(rk_resource_dates_check("2026-11-22", "2026-11-20"));
}
END_TEST

/* ------------------------------------------------------------------ POST */

START_TEST(test_post_competition_full)
{
    rk_resource_body b;
    const char *err;

    ck_assert_int_eq(post(RK_RES_COMPETITION,
        "{\"name\":\"Paris Throwdown 2026\",\"location\":\"Paris\",\"start_date\":\"2026-11-20\","
        "\"end_date\":\"2026-11-22\",\"timezone\":\"Europe/Paris\",\"status\":\"in_progress\","
        "\"ranking\":\"chart100\",\"publication\":\"validated\",\"advance\":8}", &b, &err), 0);
    ck_assert_uint_eq(b.set, (1u << RK_COMP_NFIELDS) - 1);
    ck_assert_int_eq(b.kind, RK_RES_COMPETITION);
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_NAME), "Paris Throwdown 2026");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_LOCATION), "Paris");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_START_DATE), "2026-11-20");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_END_DATE), "2026-11-22");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_TIMEZONE), "Europe/Paris");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_STATUS), "in_progress");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_RANKING), "chart100");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_PUBLICATION), "validated");
    ck_assert_str_eq(rk_resource_param(&b, RK_COMP_ADVANCE), "8");
    ck_assert_int_eq(b.v[RK_COMP_ADVANCE].i, 8);
    ck_assert_uint_eq(b.v[RK_COMP_NAME].len, strlen("Paris Throwdown 2026"));
    ck_assert_ptr_nonnull(b.json);
    rk_resource_body_free(&b);
    ck_assert(all_zero(&b, sizeof(b)));
}
END_TEST

START_TEST(test_post_minimal)
{
    static const struct {
        rk_resource_kind kind;
        const char *body;
        unsigned set;
    } ok[] = {
        { RK_RES_COMPETITION, "{\"name\":\"C\"}", RK_RES_BIT(RK_COMP_NAME) },
        { RK_RES_WOD, "{\"name\":\"Fran\",\"scoring\":\"time\"}",
          RK_RES_BIT(RK_WOD_NAME) | RK_RES_BIT(RK_WOD_SCORING) },
        { RK_RES_SPOT, "{\"name\":\"Iron Lions\"}", RK_RES_BIT(RK_SPOT_NAME) },
        { RK_RES_ZONE, "{\"name\":\"Floor A\",\"lane_count\":10}",
          RK_RES_BIT(RK_ZONE_NAME) | RK_RES_BIT(RK_ZONE_LANE_COUNT) },
        { RK_RES_HEAT, "{\"number\":1}", RK_RES_BIT(RK_HEAT_NUMBER) },
        { RK_RES_LANE, "{\"number\":4}", RK_RES_BIT(RK_LANE_NUMBER) },
    };
    size_t i;

    for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        rk_resource_body b;
        const char *err;

        ck_assert_msg(post(ok[i].kind, ok[i].body, &b, &err) == 0, "%s: %s", ok[i].body, err);
        ck_assert_uint_eq(b.set, ok[i].set);
        rk_resource_body_free(&b);
    }
}
END_TEST

START_TEST(test_post_missing)
{
    refused(RK_RES_COMPETITION, 1, "{}", "Invalid body: a competition needs a name", 0);
    refused(RK_RES_COMPETITION, 1, "{\"location\":\"Paris\"}", "a competition needs a name", 1);
    refused(RK_RES_WOD, 1, "{\"name\":\"Fran\"}", "a WOD needs a name and a scoring", 1);
    refused(RK_RES_WOD, 1, "{\"scoring\":\"time\"}", "a WOD needs a name and a scoring", 1);
    refused(RK_RES_SPOT, 1, "{\"bib\":12}", "a spot needs a name", 1);
    refused(RK_RES_ZONE, 1, "{\"name\":\"A\"}", "a zone needs a name and a lane_count", 1);
    refused(RK_RES_ZONE, 1, "{\"lane_count\":3}", "a zone needs a name and a lane_count", 1);
    refused(RK_RES_HEAT, 1, "{\"wod_id\":\"16\"}", "a heat needs a number", 1);
    refused(RK_RES_LANE, 1, "{\"spot_id\":\"151\"}", "a lane needs a number", 1);
}
END_TEST

START_TEST(test_post_heat_zone_id)
{
    rk_resource_body b;
    const char *err;

    /* on POST the zone is the path's; PATCH may move the heat */
    refused(RK_RES_HEAT, 1, "{\"number\":1,\"zone_id\":\"26\"}", "zone_id is the URL's", 1);
    ck_assert_int_eq(patch(RK_RES_HEAT, "{\"zone_id\":\"26\"}", &b, &err), 0);
    ck_assert_uint_eq(b.set, RK_RES_BIT(RK_HEAT_ZONE_ID));
    ck_assert_str_eq(rk_resource_param(&b, RK_HEAT_ZONE_ID), "26");
    rk_resource_body_free(&b);
    refused(RK_RES_HEAT, 0, "{\"zone_id\":null}", "Invalid body: zone_id cannot be null", 1);
}
END_TEST

/* ------------------------------------------------------------------ PATCH */

START_TEST(test_patch_null)
{
    rk_resource_body b;
    const char *err;

    ck_assert_int_eq(patch(RK_RES_WOD, "{\"time_cap\":null,\"description\":\"\"}", &b, &err), 0);
    ck_assert_uint_eq(b.set, RK_RES_BIT(RK_WOD_TIME_CAP) | RK_RES_BIT(RK_WOD_DESCRIPTION));
    ck_assert_int_eq(b.v[RK_WOD_TIME_CAP].is_null, 1);
    ck_assert_ptr_null(rk_resource_param(&b, RK_WOD_TIME_CAP));
    ck_assert_str_eq(rk_resource_param(&b, RK_WOD_DESCRIPTION), "");
    ck_assert_ptr_null(rk_resource_param(&b, RK_WOD_NAME));      /* not given */
    ck_assert_ptr_null(rk_resource_param(&b, 99));
    ck_assert_ptr_null(rk_resource_param(&b, -1));
    rk_resource_body_free(&b);

    ck_assert_int_eq(patch(RK_RES_COMPETITION, "{\"location\":null,\"start_date\":null,"
                           "\"end_date\":null,\"timezone\":null,\"advance\":null}", &b, &err), 0);
    ck_assert_uint_eq(b.set, RK_RES_BIT(RK_COMP_LOCATION) | RK_RES_BIT(RK_COMP_START_DATE)
                      | RK_RES_BIT(RK_COMP_END_DATE) | RK_RES_BIT(RK_COMP_TIMEZONE)
                      | RK_RES_BIT(RK_COMP_ADVANCE));
    rk_resource_body_free(&b);

    ck_assert_int_eq(patch(RK_RES_SPOT, "{\"division\":null,\"affiliate\":null,\"bib\":null}",
                           &b, &err), 0);
    rk_resource_body_free(&b);
    ck_assert_int_eq(patch(RK_RES_HEAT, "{\"wod_id\":null,\"start_time\":null}", &b, &err), 0);
    rk_resource_body_free(&b);
    ck_assert_int_eq(patch(RK_RES_LANE, "{\"spot_id\":null,\"score\":null,\"tiebreak\":null}",
                           &b, &err), 0);
    rk_resource_body_free(&b);

    /* null on a field that cannot be null */
    refused(RK_RES_COMPETITION, 0, "{\"name\":null}", "Invalid body: name cannot be null", 1);
    refused(RK_RES_COMPETITION, 0, "{\"status\":null}", "status cannot be null", 1);
    refused(RK_RES_COMPETITION, 0, "{\"ranking\":null}", "ranking cannot be null", 1);
    refused(RK_RES_COMPETITION, 0, "{\"publication\":null}", "publication cannot be null", 1);
    refused(RK_RES_WOD, 0, "{\"description\":null}", "description cannot be null", 1);
    refused(RK_RES_WOD, 0, "{\"position\":null}", "position cannot be null", 1);
    refused(RK_RES_WOD, 0, "{\"scoring\":null}", "scoring cannot be null", 1);
    refused(RK_RES_ZONE, 0, "{\"lane_count\":null}", "lane_count cannot be null", 1);
    refused(RK_RES_HEAT, 0, "{\"number\":null}", "number cannot be null", 1);
    refused(RK_RES_HEAT, 0, "{\"status\":null}", "status cannot be null", 1);
    refused(RK_RES_LANE, 0, "{\"number\":null}", "number cannot be null", 1);
}
END_TEST

START_TEST(test_patch_empty)
{
    int k;

    for (k = 0; k < RK_RES_COUNT; k++) {
        refused((rk_resource_kind)k, 0, "{}", "Invalid body: no field to change", 0);
        refused((rk_resource_kind)k, 0, " { } ", "Invalid body: no field to change", 0);
    }
}
END_TEST

START_TEST(test_read_only)
{
    refused(RK_RES_COMPETITION, 0, "{\"id\":\"1\"}", "Invalid body: id is read-only", 1);
    refused(RK_RES_WOD, 0, "{\"competition_id\":\"1\"}", "competition_id is read-only", 1);
    refused(RK_RES_SPOT, 1, "{\"name\":\"x\",\"id\":\"5\"}", "id is read-only", 1);
    refused(RK_RES_ZONE, 0, "{\"competition_id\":\"1\",\"name\":\"A\"}", "competition_id is read-only", 1);
    refused(RK_RES_HEAT, 0, "{\"id\":\"40\"}", "id is read-only", 1);
    refused(RK_RES_LANE, 1, "{\"number\":1,\"heat_id\":\"40\"}", "heat_id is read-only", 1);
    refused(RK_RES_LANE, 1, "{\"number\":1,\"spot_name\":\"x\"}", "spot_name is read-only", 1);
    refused(RK_RES_LANE, 1, "{\"number\":1,\"score_status\":\"validated\"}",
            "score_status is read-only", 1);
    /* a key that is another resource's is unknown here */
    refused(RK_RES_WOD, 0, "{\"heat_id\":\"40\"}", "Invalid body: unknown key; a WOD's writable keys are", 1);
    refused(RK_RES_COMPETITION, 0, "{\"competition_id\":\"1\"}", "unknown key; a competition's", 1);
}
END_TEST

START_TEST(test_unknown)
{
    refused(RK_RES_COMPETITION, 0, "{\"" MARK "\":1}",
            "Invalid body: unknown key; a competition's writable keys are name, location, "
            "start_date, end_date, timezone, status, ranking, publication, advance", 0);
    refused(RK_RES_WOD, 1, "{\"name\":\"x\",\"scoring\":\"time\",\"Name\":\"y\"}", "unknown key", 1);
    refused(RK_RES_SPOT, 0, "{\"name \":\"x\"}", "unknown key", 1);
    refused(RK_RES_ZONE, 0, "{\"lanes\":3}", "unknown key; a zone's writable keys are name, lane_count", 1);
    refused(RK_RES_HEAT, 0, "{\"voies\":[]}", "unknown key", 1);
    refused(RK_RES_LANE, 0, "{\"published_score\":\"1\"}", "unknown key", 1);
}
END_TEST

/* ------------------------------------------------------------------ values */

static const struct {
    rk_resource_kind kind;
    const char *body;
    const char *msg;      /* part of the message */
} bad_values[] = {
    /* competition */
    { RK_RES_COMPETITION, "{\"name\":\"\"}", "name is the competition's name" },
    { RK_RES_COMPETITION, "{\"name\":\"   \"}", "not only spaces" },
    { RK_RES_COMPETITION, "{\"name\":7}", "name is" },
    { RK_RES_COMPETITION, "{\"name\":[\"" MARK "\"]}", "name is" },
    { RK_RES_COMPETITION, "{\"location\":true}", "location is a string" },
    { RK_RES_COMPETITION, "{\"start_date\":\"21/11/2026\"}", "start_date is a date YYYY-MM-DD" },
    { RK_RES_COMPETITION, "{\"start_date\":\"2026-02-30\"}", "e.g. 2026-11-20" },
    { RK_RES_COMPETITION, "{\"end_date\":20261122}", "end_date is a date YYYY-MM-DD" },
    { RK_RES_COMPETITION, "{\"start_date\":\"2026-11-22\",\"end_date\":\"2026-11-20\"}",
      "end_date is before start_date" },
    { RK_RES_COMPETITION, "{\"timezone\":\"Paris " MARK "\"}", "timezone is an IANA time zone name" },
    { RK_RES_COMPETITION, "{\"timezone\":\"+01:00\"}", "e.g. Europe/Paris" },
    { RK_RES_COMPETITION, "{\"status\":\"running\"}", "status is upcoming, in_progress or finished" },
    { RK_RES_COMPETITION, "{\"status\":\"Upcoming\"}", "status is upcoming" },
    { RK_RES_COMPETITION, "{\"ranking\":\"points\"}", "ranking is places or chart100" },
    { RK_RES_COMPETITION, "{\"publication\":\"now\"}", "publication is immediate or validated" },
    { RK_RES_COMPETITION, "{\"advance\":0}", "advance is how many spots" },
    { RK_RES_COMPETITION, "{\"advance\":\"8\"}", "advance is" },
    { RK_RES_COMPETITION, "{\"advance\":8.0}", "advance is" },
    { RK_RES_COMPETITION, "{\"advance\":2147483648}", "advance is" },
    /* wod */
    { RK_RES_WOD, "{\"time_cap\":\"12:00\"}", "time_cap is seconds" },
    { RK_RES_WOD, "{\"time_cap\":0}", "time_cap is seconds: an integer from 1 to 359999" },
    { RK_RES_WOD, "{\"time_cap\":360000}", "e.g. 720" },
    { RK_RES_WOD, "{\"time_cap\":720.5}", "time_cap is seconds" },
    { RK_RES_WOD, "{\"scoring\":\"weight\"}", "scoring is time, reps, load or points" },
    { RK_RES_WOD, "{\"position\":0}", "position is" },
    { RK_RES_WOD, "{\"position\":-3}", "position is" },
    { RK_RES_WOD, "{\"description\":5}", "description is a string" },
    /* spot */
    { RK_RES_SPOT, "{\"bib\":\"12\"}", "bib is an integer" },
    { RK_RES_SPOT, "{\"bib\":0}", "bib is an integer of at least 1" },
    { RK_RES_SPOT, "{\"bib\":-1}", "bib is" },
    { RK_RES_SPOT, "{\"division\":\"\"}", "division is a string of 1 to 200" },
    { RK_RES_SPOT, "{\"division\":\" \"}", "division is" },
    { RK_RES_SPOT, "{\"affiliate\":{}}", "affiliate is" },
    /* zone */
    { RK_RES_ZONE, "{\"lane_count\":0}", "lane_count is the number of lanes" },
    { RK_RES_ZONE, "{\"lane_count\":1000}", "from 1 to 999" },
    { RK_RES_ZONE, "{\"lane_count\":\"10\"}", "lane_count is" },
    /* heat */
    { RK_RES_HEAT, "{\"start_time\":\"2026-11-21 09:30\"}",
      "start_time is UTC, YYYY-MM-DDTHH:MM:SSZ, or null, e.g. 2026-11-21T09:30:00Z" },
    { RK_RES_HEAT, "{\"start_time\":\"2026-11-21T09:30:00+01:00\"}", "start_time is UTC" },
    { RK_RES_HEAT, "{\"start_time\":1795000000}", "start_time is UTC" },
    { RK_RES_HEAT, "{\"number\":0}", "number is the heat's number" },
    { RK_RES_HEAT, "{\"number\":\"1\"}", "number is" },
    { RK_RES_HEAT, "{\"wod_id\":16}", "wod_id is the id of a WOD" },
    { RK_RES_HEAT, "{\"wod_id\":\"016\"}", "wod_id is" },
    { RK_RES_HEAT, "{\"wod_id\":\"\"}", "wod_id is" },
    { RK_RES_HEAT, "{\"zone_id\":\"0\"}", "zone_id is the id of a zone" },
    { RK_RES_HEAT, "{\"status\":\"done\"}", "status is scheduled, running or finished" },
    /* lane */
    { RK_RES_LANE, "{\"number\":1000}", "number is the lane's number" },
    { RK_RES_LANE, "{\"number\":0}", "number is" },
    { RK_RES_LANE, "{\"spot_id\":\"abc\"}", "spot_id is the id of a spot" },
    { RK_RES_LANE, "{\"score\":12}", "score is a string of at most 64 characters" },
    { RK_RES_LANE, "{\"tiebreak\":\"soon\"}", "tiebreak" },
};

START_TEST(test_bad_value)
{
    refused(bad_values[_i].kind, 0, bad_values[_i].body, bad_values[_i].msg, 1);
}
END_TEST

START_TEST(test_lengths)
{
    char body[4096 * 4 + 64];
    rk_resource_body b;
    const char *err;
    int n;

    /* 200 characters (3 bytes each: "é" is 2, "€" is 3) are a name; 201 are not */
    n = sprintf(body, "{\"name\":\"");
    for (int i = 0; i < 200; i++) {
        n += sprintf(body + n, "\xe2\x82\xac");
    }
    sprintf(body + n, "\"}");
    ck_assert_int_eq(patch(RK_RES_SPOT, body, &b, &err), 0);
    ck_assert_uint_eq(b.v[RK_SPOT_NAME].len, 600);
    rk_resource_body_free(&b);
    sprintf(body + n, "x\"}");
    refused(RK_RES_SPOT, 0, body, "name is the team's name", 1);

    /* a description of 4000 characters, not 4001 */
    n = sprintf(body, "{\"description\":\"");
    memset(body + n, 'd', 4000);
    sprintf(body + n + 4000, "\"}");
    ck_assert_int_eq(patch(RK_RES_WOD, body, &b, &err), 0);
    rk_resource_body_free(&b);
    memset(body + n, 'd', 4001);
    sprintf(body + n + 4001, "\"}");
    refused(RK_RES_WOD, 0, body, "description is a string of at most 4000", 1);

    /* a lane's score: 64 characters */
    n = sprintf(body, "{\"number\":1,\"score\":\"");
    memset(body + n, '7', 64);
    sprintf(body + n + 64, "\"}");
    ck_assert_int_eq(post(RK_RES_LANE, body, &b, &err), 0);
    rk_resource_body_free(&b);
    memset(body + n, '7', 65);
    sprintf(body + n + 65, "\"}");
    refused(RK_RES_LANE, 1, body, "score is a string of at most 64", 1);
}
END_TEST

START_TEST(test_good_values)
{
    rk_resource_body b;
    const char *err;

    ck_assert_int_eq(patch(RK_RES_WOD, "{\"time_cap\":359999,\"position\":2147483647,"
                           "\"scoring\":\"points\"}", &b, &err), 0);
    ck_assert_str_eq(rk_resource_param(&b, RK_WOD_TIME_CAP), "359999");
    ck_assert_int_eq(b.v[RK_WOD_TIME_CAP].i, 359999);
    ck_assert_str_eq(rk_resource_param(&b, RK_WOD_POSITION), "2147483647");
    rk_resource_body_free(&b);

    ck_assert_int_eq(patch(RK_RES_SPOT, "{\"bib\":9223372036854775807,\"division\":\"RX Men\","
                           "\"affiliate\":\"\"}", &b, &err), 0);
    ck_assert_str_eq(rk_resource_param(&b, RK_SPOT_BIB), "9223372036854775807");
    ck_assert_str_eq(rk_resource_param(&b, RK_SPOT_AFFILIATE), "");
    rk_resource_body_free(&b);

    ck_assert_int_eq(post(RK_RES_HEAT, "{\"number\":3,\"wod_id\":\"16\",\"start_time\":"
                          "\"2026-11-21T09:30:00Z\",\"status\":\"running\"}", &b, &err), 0);
    ck_assert_str_eq(rk_resource_param(&b, RK_HEAT_NUMBER), "3");
    ck_assert_str_eq(rk_resource_param(&b, RK_HEAT_WOD_ID), "16");
    ck_assert_str_eq(rk_resource_param(&b, RK_HEAT_START_TIME), "2026-11-21T09:30:00Z");
    ck_assert_str_eq(rk_resource_param(&b, RK_HEAT_STATUS), "running");
    rk_resource_body_free(&b);

    ck_assert_int_eq(post(RK_RES_LANE, "{\"number\":999,\"spot_id\":\"151\",\"score\":\"07:45\","
                          "\"tiebreak\":\"1:02.5\"}", &b, &err), 0);
    ck_assert_uint_eq(b.set, 0xFu);
    ck_assert_str_eq(rk_resource_param(&b, RK_LANE_SCORE), "07:45");
    ck_assert_str_eq(rk_resource_param(&b, RK_LANE_TIEBREAK), "1:02.5");
    rk_resource_body_free(&b);

    /* a copy of the body gives the same parameters (integers included) */
    ck_assert_int_eq(patch(RK_RES_ZONE, "{\"lane_count\":12,\"name\":\"Floor \\u00e9\"}", &b, &err), 0);
    {
        rk_resource_body copy = b;

        memset(b.v[RK_ZONE_LANE_COUNT].num, 0, sizeof(b.v[RK_ZONE_LANE_COUNT].num));
        ck_assert_str_eq(rk_resource_param(&copy, RK_ZONE_LANE_COUNT), "12");
        ck_assert_str_eq(rk_resource_param(&copy, RK_ZONE_NAME), "Floor \xc3\xa9");
        rk_resource_body_free(&copy);
    }
}
END_TEST

/* ------------------------------------------------------------------ body rules */

START_TEST(test_common_rules)
{
    static const struct {
        const char *body;
        size_t len;        /* 0: strlen */
        const char *msg;
    } bad[] = {
        { "", 0, "Invalid body: empty" },
        { "{\"name\":\"a\",\"name\":\"b\"}", 0, "Invalid body: duplicate key" },
        { "{\"name\":\"a\"} x", 0, "Invalid body: not valid JSON" },
        { "{\"name\":\"a\"}{}", 0, "Invalid body: not valid JSON" },
        { "{\"name\":\"\xff\"}", 0, "Invalid body: not valid JSON" },
        { "{\"name\":\"\xc0\xaf\"}", 0, "Invalid body: not valid JSON" },
        { "{\"name\":\"a\\u0000b\"}", 0, "Invalid body: not valid JSON" },
        { "{\"name\":\"a\"", 0, "Invalid body: not valid JSON" },
        { "[{\"name\":\"a\"}]", 0, "Invalid body: not a JSON object" },
        { "\"name\"", 0, "Invalid body: not valid JSON" },
        { "{\"name\":\"a\"}\0", 13, "Invalid body: not valid JSON" },
    };
    size_t i;
    int post_too;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        for (post_too = 0; post_too < 2; post_too++) {
            rk_resource_body b;
            const char *err = NULL;
            size_t len = bad[i].len ? bad[i].len : strlen(bad[i].body);
            int rv = post_too ? rk_resource_post_parse(RK_RES_SPOT, bad[i].body, len, &b, &err)
                              : rk_resource_patch_parse(RK_RES_SPOT, bad[i].body, len, &b, &err);

            ck_assert_msg(rv == -1, "accepted #%zu", i);
            ck_assert_msg(err && (strcmp(err, bad[i].msg) == 0
                                  || (strcmp(bad[i].msg, "Invalid body: not valid JSON") == 0
                                      && strcmp(err, "Invalid body: not a JSON object") == 0)),
                          "#%zu: '%s', expected '%s'", i, err ? err : "(null)", bad[i].msg);
            ck_assert(all_zero(&b, sizeof(b)));
        }
    }
    /* the length is honoured: the bytes after LEN are not read */
    {
        rk_resource_body b;
        const char *err;

        ck_assert_int_eq(rk_resource_patch_parse(RK_RES_SPOT, "{\"bib\":12}garbage", 10, &b, &err), 0);
        ck_assert_str_eq(rk_resource_param(&b, RK_SPOT_BIB), "12");
        rk_resource_body_free(&b);
    }
    /* an unknown resource */
    {
        rk_resource_body b;
        const char *err = NULL;

        ck_assert_int_eq(rk_resource_patch_parse(RK_RES_COUNT, "{\"a\":1}", 7, &b, &err), -1);
        ck_assert_ptr_nonnull(err);
    }
}
END_TEST

START_TEST(test_messages_never_echo)
{
    /* every refused value carries MARK somewhere; no message repeats it */
    refused(RK_RES_COMPETITION, 0, "{\"status\":\"" MARK "\"}", "status is", 1);
    refused(RK_RES_COMPETITION, 0, "{\"start_date\":\"" MARK "\"}", "start_date is", 1);
    refused(RK_RES_HEAT, 0, "{\"start_time\":\"" MARK "\"}", "start_time is", 1);
    refused(RK_RES_HEAT, 0, "{\"wod_id\":\"" MARK "\"}", "wod_id is", 1);
    refused(RK_RES_LANE, 0, "{\"tiebreak\":\"" MARK "\"}", "tiebreak", 1);
    refused(RK_RES_ZONE, 0, "{\"" MARK "\":1}", "unknown key", 1);
}
END_TEST

static Suite *resource_suite(void)
{
    Suite *s = suite_create("resource");
    TCase *tc = tcase_create("formats");

    tcase_add_test(tc, test_tables);
    tcase_add_test(tc, test_dates);
    tcase_add_test(tc, test_instants);
    tcase_add_test(tc, test_timezones);
    tcase_add_test(tc, test_dates_check);
    suite_add_tcase(s, tc);

    tc = tcase_create("post");
    tcase_add_test(tc, test_post_competition_full);
    tcase_add_test(tc, test_post_minimal);
    tcase_add_test(tc, test_post_missing);
    tcase_add_test(tc, test_post_heat_zone_id);
    suite_add_tcase(s, tc);

    tc = tcase_create("patch");
    tcase_add_test(tc, test_patch_null);
    tcase_add_test(tc, test_patch_empty);
    tcase_add_test(tc, test_read_only);
    tcase_add_test(tc, test_unknown);
    tcase_add_loop_test(tc, test_bad_value, 0, (int)(sizeof bad_values / sizeof bad_values[0]));
    tcase_add_test(tc, test_lengths);
    tcase_add_test(tc, test_good_values);
    tcase_add_test(tc, test_common_rules);
    tcase_add_test(tc, test_messages_never_echo);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(resource_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
