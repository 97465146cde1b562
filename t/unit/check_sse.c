/* check_sse.c: Check unit tests of rk_sse: the headers of a listener (Accept,
 * Last-Event-ID, Prefer: wait=N) and the text of a lane's event. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rk_sse.h"

START_TEST(accept_header)
{
    ck_assert_int_eq(rk_sse_accepts("text/event-stream"), 1);
    ck_assert_int_eq(rk_sse_accepts("TEXT/Event-Stream"), 1);
    ck_assert_int_eq(rk_sse_accepts("application/json, text/event-stream;q=0.5"), 1);
    ck_assert_int_eq(rk_sse_accepts(" text/event-stream ; charset=utf-8"), 1);
    ck_assert_int_eq(rk_sse_accepts("text/event-stream;q=0.001"), 1);
    ck_assert_int_eq(rk_sse_accepts("text/event-stream;q=0"), 0);
    ck_assert_int_eq(rk_sse_accepts("text/event-stream; q=0.000"), 0);
    ck_assert_int_eq(rk_sse_accepts("*/*"), 0);         /* a default, not a request */
    ck_assert_int_eq(rk_sse_accepts("text/*"), 0);
    ck_assert_int_eq(rk_sse_accepts("application/json"), 0);
    ck_assert_int_eq(rk_sse_accepts("text/event-streams"), 0);
    ck_assert_int_eq(rk_sse_accepts("text/event"), 0);
    ck_assert_int_eq(rk_sse_accepts(""), 0);
    ck_assert_int_eq(rk_sse_accepts(NULL), 0);
}
END_TEST

START_TEST(last_event_id)
{
    int64_t id = -7;

    ck_assert_int_eq(rk_sse_last_event_id(NULL, &id), 0);
    ck_assert_int_eq(rk_sse_last_event_id("", &id), 0);
    ck_assert_int_eq(rk_sse_last_event_id("  ", &id), 0);
    ck_assert_int_eq(rk_sse_last_event_id("81", &id), 1);
    ck_assert_int_eq(id, 81);
    ck_assert_int_eq(rk_sse_last_event_id(" 0081 ", &id), 1);
    ck_assert_int_eq(id, 81);
    ck_assert_int_eq(rk_sse_last_event_id("0", &id), 1);
    ck_assert_int_eq(id, 0);
    ck_assert_int_eq(rk_sse_last_event_id("999999999999999999", &id), 1);
    ck_assert(id == INT64_C(999999999999999999));
    ck_assert_int_eq(rk_sse_last_event_id("1000000000000000000", &id), -1);   /* 19 digits */
    ck_assert_int_eq(rk_sse_last_event_id("-1", &id), -1);
    ck_assert_int_eq(rk_sse_last_event_id("+1", &id), -1);
    ck_assert_int_eq(rk_sse_last_event_id("1a", &id), -1);
    ck_assert_int_eq(rk_sse_last_event_id("1 2", &id), -1);
    ck_assert_int_eq(rk_sse_last_event_id("abc", &id), -1);
}
END_TEST

START_TEST(prefer_wait)
{
    ck_assert_int_eq(rk_prefer_wait(NULL), 0);
    ck_assert_int_eq(rk_prefer_wait("wait=10"), 10);
    ck_assert_int_eq(rk_prefer_wait("Wait=1"), 1);
    ck_assert_int_eq(rk_prefer_wait("wait=60"), 60);
    ck_assert_int_eq(rk_prefer_wait("return=minimal, wait=5"), 5);
    ck_assert_int_eq(rk_prefer_wait("wait = 5"), 5);
    ck_assert_int_eq(rk_prefer_wait("wait=5; foo=bar"), 5);
    ck_assert_int_eq(rk_prefer_wait("wait=0"), 0);
    ck_assert_int_eq(rk_prefer_wait("wait=61"), 0);
    ck_assert_int_eq(rk_prefer_wait("wait=100000"), 0);
    ck_assert_int_eq(rk_prefer_wait("wait=-1"), 0);
    ck_assert_int_eq(rk_prefer_wait("wait=5s"), 0);
    ck_assert_int_eq(rk_prefer_wait("wait"), 0);
    ck_assert_int_eq(rk_prefer_wait("waited=5"), 0);
    ck_assert_int_eq(rk_prefer_wait("respond-async"), 0);
}
END_TEST

static char *event(const rk_lane_change *c, const char *key)
{
    size_t n = rk_sse_lane_event(NULL, c, key);
    char *out = malloc(n + 1);

    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(rk_sse_lane_event(out, c, key), n);
    out[n] = '\0';
    return out;
}

/* the fields of the published view: none */
#define NO_VIEW NULL, NULL, NULL, NULL

START_TEST(lane_events)
{
    rk_lane_change up = { "81", "1", "2", "40", "400", "update",
                          "{\"id\":\"400\",\"score\":\"07:45\"}", NULL, NULL, NO_VIEW };
    rk_lane_change del = { "82", "1", NULL, "40", "400", "delete", NULL, "lane", NULL, NO_VIEW };
    rk_lane_change bad = { "83", "1", "2", "40", "400", "update", "{\"id\":\n\"400\"}", NULL, NULL, NO_VIEW };
    rk_lane_change made = { "84", "1", "2", "40", "401", "create", "{\"id\":\"401\"}", "lane", NULL, NO_VIEW };
    char *e;

    e = event(&up, "voie");
    ck_assert_str_eq(e, "id: 81\nevent: lane\ndata: {\"action\":\"update\",\"competition_id\":\"1\","
                        "\"zone_id\":\"2\",\"heat_id\":\"40\",\"voie\":{\"id\":\"400\",\"score\":\"07:45\"}}\n\n");
    free(e);
    e = event(&up, "line");
    ck_assert_ptr_nonnull(strstr(e, "\"line\":{\"id\":\"400\""));
    free(e);
    e = event(&del, "voie");
    ck_assert_str_eq(e, "id: 82\nevent: lane\ndata: {\"action\":\"delete\",\"competition_id\":\"1\","
                        "\"zone_id\":null,\"heat_id\":\"40\",\"lane_id\":\"400\"}\n\n");
    free(e);
    /* a lane that would break the event's one line of data is not sent as such */
    e = event(&bad, "voie");
    ck_assert_ptr_null(strstr(e, "\"voie\""));
    ck_assert_ptr_nonnull(strstr(e, "\"lane_id\":\"400\"}\n\n"));
    ck_assert_ptr_null(strstr(e + strlen("id: 83\nevent: lane\ndata: "), "\n\n\n"));
    free(e);
    /* a lane created by POST (part 3): a lane event of action create, with the lane */
    e = event(&made, "voie");
    ck_assert_str_eq(e, "id: 84\nevent: lane\ndata: {\"action\":\"create\",\"competition_id\":\"1\","
                        "\"zone_id\":\"2\",\"heat_id\":\"40\",\"voie\":{\"id\":\"401\"}}\n\n");
    free(e);
}
END_TEST

/* Changes of other resources (part 3): event: change, the resource under its kind's
 * name (whatever the mount's lane key), a delete without it. */
START_TEST(change_events)
{
    rk_lane_change up = { "90", "1", "2", "40", NULL, "update", "{\"id\":\"40\",\"status\":\"running\"}",
                          "heat", "40", NO_VIEW };
    rk_lane_change del = { "91", "1", NULL, NULL, NULL, "delete", NULL, "spot", "7", NO_VIEW };
    rk_lane_change bad = { "92", "1", NULL, NULL, NULL, "create", "{\"id\":\n1}", "wod", "3", NO_VIEW };
    char *e;

    e = event(&up, "line");
    ck_assert_str_eq(e, "id: 90\nevent: change\ndata: {\"action\":\"update\",\"resource\":\"heat\","
                        "\"id\":\"40\",\"competition_id\":\"1\",\"heat\":{\"id\":\"40\",\"status\":\"running\"}}\n\n");
    free(e);
    e = event(&del, "voie");
    ck_assert_str_eq(e, "id: 91\nevent: change\ndata: {\"action\":\"delete\",\"resource\":\"spot\","
                        "\"id\":\"7\",\"competition_id\":\"1\"}\n\n");
    free(e);
    e = event(&bad, "voie");
    ck_assert_ptr_null(strstr(e, "\"wod\":"));
    ck_assert_ptr_nonnull(strstr(e, "\"id\":\"3\",\"competition_id\":\"1\"}\n\n"));
    free(e);
}
END_TEST

/* The published view of a change (API.md part 3, "Scores: entered, validated,
 * published"). */
#define LANE_A "{\"id\":\"400\",\"heat_id\":\"40\",\"number\":2,\"spot_id\":\"7\",\"spot_name\":\"T\"," \
               "\"score\":\"130\",\"tiebreak\":\"1:00\",\"score_status\":\"entered\"}"
START_TEST(published_view)
{
    rk_lane_change c = { "90", "1", "2", "40", "400", "update", LANE_A, "lane", NULL,
                         "{\"id\":\"400\",\"heat_id\":\"40\",\"number\":2,\"spot_id\":\"7\","
                         "\"spot_name\":\"T\",\"score\":\"120\",\"tiebreak\":null,"
                         "\"score_status\":\"validated\"}", "validated", "120", NULL };
    rk_lane_change out;
    char *lane;

    /* a new score only: nothing the published view shows */
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 0);
    ck_assert_ptr_null(lane);
    /* publication immediate: the change as it is */
    c.publication = "immediate";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    ck_assert_ptr_null(lane);
    ck_assert_str_eq(out.lane, LANE_A);
    /* a validation, a delete: as they are */
    c.publication = "validated";
    c.action = "validate";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    ck_assert_str_eq(out.lane, LANE_A);
    c.action = "delete";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    /* another number: the lane with its published values, in the fields' order */
    c.action = "update";
    c.before = "{\"id\":\"400\",\"number\":1,\"spot_id\":\"7\",\"spot_name\":\"T\"}";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    ck_assert_ptr_nonnull(lane);
    ck_assert_str_eq(out.lane, "{\"id\":\"400\",\"heat_id\":\"40\",\"number\":2,\"spot_id\":\"7\","
                               "\"spot_name\":\"T\",\"score\":\"120\",\"tiebreak\":null,"
                               "\"score_status\":\"validated\"}");
    free(lane);
    /* nothing published: score, tiebreak and score_status null */
    c.published_score = NULL;
    c.published_tiebreak = "0:59";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    ck_assert_ptr_nonnull(strstr(out.lane, "\"score\":null,\"tiebreak\":\"0:59\",\"score_status\":null}"));
    free(lane);
    /* a lane that is not JSON: as it is (sent without the lane) */
    c.lane = "{broken";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    ck_assert_ptr_null(lane);
    /* validate events carry the lane */
    c.lane = LANE_A;
    c.action = "validate";
    lane = event(&c, "voie");
    ck_assert_ptr_nonnull(strstr(lane, "\"action\":\"validate\""));
    ck_assert_ptr_nonnull(strstr(lane, "\"voie\":" LANE_A "}"));
    free(lane);
    /* another resource's update (a heat): as it is, even with publication validated */
    c.action = "update";
    c.resource = "heat";
    c.resource_id = "40";
    c.lane = "{\"id\":\"40\",\"number\":3}";
    ck_assert_int_eq(rk_sse_published(&c, &out, &lane), 1);
    ck_assert_ptr_null(lane);
    ck_assert_str_eq(out.lane, c.lane);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("live");
    TCase *tc = tcase_create("headers");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, accept_header);
    tcase_add_test(tc, last_event_id);
    tcase_add_test(tc, prefer_wait);
    tcase_add_test(tc, lane_events);
    tcase_add_test(tc, change_events);
    tcase_add_test(tc, published_view);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
