/* check_doc.c: Check unit tests of ranking-admin's competition document and import
 * checks (tools/admin_doc.c): the shape, references inside the document and to the
 * database's rows, uniqueness, typed scores, --replace, the plan of the writes, the
 * export form, and the statements built from the tables. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_strings.h>

#include "admin_doc.h"
#include "rk_token.h"

static apr_pool_t *pool;

static void setup(void)
{
    ck_assert_int_eq(apr_pool_create(&pool, NULL), APR_SUCCESS);
}

static void teardown(void)
{
    apr_pool_destroy(pool);
}

/* A valid document of competition 1, with the parts given in place of the defaults. */
#define COMP "\"competition\":{\"id\":\"1\",\"name\":\"C\",\"location\":null,\"start_date\":\"2026-11-21\"," \
             "\"end_date\":null,\"timezone\":\"Europe/Paris\",\"status\":\"upcoming\",\"ranking\":\"places\"," \
             "\"publication\":\"validated\",\"advance\":2}"
#define WODS "\"wods\":[{\"id\":\"11\",\"competition_id\":\"1\",\"name\":\"Fran\",\"description\":\"\"," \
             "\"position\":1,\"scoring\":\"time\",\"time_cap\":600}," \
             "{\"id\":\"12\",\"competition_id\":\"1\",\"name\":\"Max\",\"description\":\"\"," \
             "\"position\":2,\"scoring\":\"reps\",\"time_cap\":null}]"
#define SPOTS "\"spots\":[{\"id\":\"21\",\"competition_id\":\"1\",\"name\":\"A\",\"division\":\"RX\",\"affiliate\":null,\"bib\":1}," \
              "{\"id\":\"22\",\"competition_id\":\"1\",\"name\":\"B\",\"division\":\"RX\",\"affiliate\":\"Box\",\"bib\":2}]"
#define ZONES "\"zones\":[{\"id\":\"31\",\"competition_id\":\"1\",\"name\":\"Floor\",\"lane_count\":4}]"
#define HEATS "\"heats\":[{\"id\":\"41\",\"competition_id\":\"1\",\"zone_id\":\"31\",\"wod_id\":\"11\",\"number\":1," \
              "\"start_time\":\"2026-11-21T09:30:00Z\",\"status\":\"scheduled\"}," \
              "{\"id\":\"42\",\"competition_id\":\"1\",\"zone_id\":null,\"wod_id\":null,\"number\":2," \
              "\"start_time\":null,\"status\":\"finished\"}]"
#define LANES "\"lanes\":[{\"id\":\"51\",\"heat_id\":\"41\",\"number\":1,\"spot_id\":\"21\",\"score\":\"7:45\",\"tiebreak\":\"3:00\"," \
              "\"score_status\":\"entered\",\"published_score\":\"7:40\",\"published_tiebreak\":\"3:00\"}," \
              "{\"id\":\"52\",\"heat_id\":\"41\",\"number\":2,\"spot_id\":\"22\",\"score\":\"CAP+3\",\"tiebreak\":null," \
              "\"score_status\":\"validated\",\"published_score\":\"CAP+3\",\"published_tiebreak\":null}]"
#define DOC(c, w, s, z, h, l) "{\"version\":2," c "," w "," s "," z "," h "," l "}"
#define GOOD DOC(COMP, WODS, SPOTS, ZONES, HEATS, LANES)

static const char *foreign_owner;   /* what the fake database says of any other id */

static const char *owner(void *ctx, admin_table t, const char *id)
{
    (void)ctx;
    (void)t;
    (void)id;
    return foreign_owner;
}

static apr_array_header_t *errors;

/* Check TEXT against BASE (NULL: an empty database). */
static admin_import *check(const char *text, const admin_doc *base, int replace)
{
    json_error_t je;
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    admin_import *im;

    ck_assert_msg(j != NULL, "test document does not parse: %s", je.text);
    errors = apr_array_make(pool, 4, sizeof(const char *));
    im = admin_doc_check(pool, j, base ? base : admin_doc_make(pool), owner, NULL, replace,
                         errors);
    json_decref(j);
    return im;
}

/* Refused with exactly the error WANT among its errors. */
static void refused(const char *text, const admin_doc *base, int replace, const char *want)
{
    admin_import *im = check(text, base, replace);
    int i, found = 0;
    const char *all = "";

    ck_assert_msg(im == NULL, "accepted; expected error: %s", want);
    for (i = 0; i < errors->nelts; i++) {
        const char *e = APR_ARRAY_IDX(errors, i, const char *);

        found |= strcmp(e, want) == 0;
        all = apr_pstrcat(pool, all, "\n  ", e, NULL);
    }
    ck_assert_msg(found, "no error '%s' in:%s", want, all);
}

static char *replace_in(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);

    ck_assert_msg(at != NULL, "no '%s' in the test document", from);
    return apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), to,
                       at + strlen(from), NULL);
}

START_TEST(good_document_is_accepted)
{
    admin_import *im;

    foreign_owner = NULL;
    im = check(GOOD, NULL, 0);
    ck_assert_ptr_nonnull(im);
    ck_assert_int_eq(errors->nelts, 0);
    ck_assert_int_eq(im->doc->rows[AD_WOD]->nelts, 2);
    ck_assert_int_eq(im->doc->rows[AD_LANE]->nelts, 2);
    ck_assert_int_eq(im->competition_exists, 0);
    ck_assert_int_eq(im->exists[AD_LANE][0], 0);
    /* integers as decimal text, nulls as NULL */
    ck_assert_str_eq(APR_ARRAY_IDX(im->doc->rows[AD_WOD], 0, const char **)[AD_WOD_TIME_CAP], "600");
    ck_assert_ptr_null(APR_ARRAY_IDX(im->doc->rows[AD_WOD], 1, const char **)[AD_WOD_TIME_CAP]);
}
END_TEST

START_TEST(export_form_round_trips)
{
    admin_import *im;
    json_t *j;
    char *a, *b;

    foreign_owner = NULL;
    im = check(GOOD, NULL, 0);
    ck_assert_ptr_nonnull(im);
    j = admin_doc_to_json(im->doc);
    ck_assert_ptr_nonnull(j);
    a = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    ck_assert_str_eq(a, GOOD);
    im = check(a, NULL, 0);
    ck_assert_ptr_nonnull(im);
    j = admin_doc_to_json(im->doc);
    b = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

START_TEST(shape_errors_name_the_place)
{
    foreign_owner = NULL;
    refused("[]", NULL, 0, "the document must be a JSON object, not an array");
    refused(DOC(COMP, WODS, SPOTS, ZONES, HEATS, "\"lanes\":{}"), NULL, 0,
            "lanes: must be an array, not an object");
    /* an empty list may be left out; the competition may not */
    ck_assert_ptr_nonnull(check("{\"version\":2," COMP "," WODS "," SPOTS "," ZONES "," HEATS "}",
                                NULL, 0));
    ck_assert_ptr_nonnull(check("{\"version\":2," COMP "}", NULL, 0));
    refused("{\"version\":2," WODS "}", NULL, 0, "competition: missing");
    refused(replace_in(GOOD, "\"version\":2", "\"version\":3"), NULL, 0,
            "version: must be 1 to 2 (this ranking-admin reads version 1 to 2 documents)");
    refused(replace_in(GOOD, "\"version\":2,", "\"version\":2,\"extra\":0,"), NULL, 0,
            "extra: unknown key of the document");
    refused(replace_in(GOOD, "\"lane_count\":4", "\"lane_count\":4,\"color\":\"red\""), NULL, 0,
            "zones[0].color: unknown field of a zone");
    refused(replace_in(GOOD, ",\"description\":\"\",\"position\":2", ",\"position\":2"), NULL, 0,
            "wods[1].description: missing");
    refused(replace_in(GOOD, "\"id\":\"22\"", "\"id\":22"), NULL, 0,
            "spots[1].id: must be a string, not an integer");
    refused(replace_in(GOOD, "\"id\":\"22\"", "\"id\":\"022\""), NULL, 0,
            "spots[1].id: an id is a string of decimal digits, 1 to 9223372036854775807 "
            "without leading zero");
    refused(replace_in(GOOD, "\"bib\":2", "\"bib\":0"), NULL, 0,
            "spots[1].bib: 0 is out of range (1 to 9223372036854775807)");
    refused(replace_in(GOOD, "\"bib\":2", "\"bib\":2.5"), NULL, 0,
            "spots[1].bib: must be an integer or null, not a number with a fraction or exponent");
    refused(replace_in(GOOD, "\"lane_count\":4", "\"lane_count\":1000"), NULL, 0,
            "zones[0].lane_count: 1000 is out of range (1 to 999)");
    refused(replace_in(GOOD, "\"status\":\"upcoming\"", "\"status\":\"done\""), NULL, 0,
            "competition.status: must be one of upcoming, in_progress, finished");
    refused(replace_in(GOOD, "\"2026-11-21\"", "\"2026-02-30\""), NULL, 0,
            "competition.start_date: must be a date YYYY-MM-DD (e.g. 2026-11-21) or null");
    refused(replace_in(GOOD, "\"2026-11-21T09:30:00Z\"", "\"2026-11-21T24:00:00Z\""), NULL, 0,
            "heats[0].start_time: must be a time in UTC, YYYY-MM-DDTHH:MM:SSZ (e.g. "
            "2026-11-21T08:30:00Z for 9:30 in Paris in winter), or null");
    refused(replace_in(GOOD, "\"time_cap\":600", "\"time_cap\":\"10:00\""), NULL, 0,
            "wods[0].time_cap: must be an integer of seconds (e.g. 720 for a cap of 12:00) "
            "or null, not a string");
    refused(replace_in(GOOD, "\"time_cap\":600", "\"time_cap\":360000"), NULL, 0,
            "wods[0].time_cap: 360000 is out of range (1 to 359999 seconds, e.g. 720 for a "
            "cap of 12:00)");
    refused(replace_in(GOOD, "\"name\":\"C\"", "\"name\":null"), NULL, 0,
            "competition.name: must not be null");
    refused(replace_in(GOOD, "\"id\":\"12\"", "\"id\":\"11\""), NULL, 0,
            "wods[1].id: wod 11 is also wods[0]");
}
END_TEST

START_TEST(references_and_competition)
{
    foreign_owner = NULL;
    refused(replace_in(GOOD, "\"zone_id\":\"31\"", "\"zone_id\":\"7\""), NULL, 0,
            "heats[0].zone_id: zone 7 is not in competition 1");
    refused(replace_in(GOOD, "\"wod_id\":\"11\"", "\"wod_id\":\"99\""), NULL, 0,
            "heats[0].wod_id: wod 99 is not in competition 1");
    refused(replace_in(GOOD, "\"heat_id\":\"41\",\"number\":2", "\"heat_id\":\"43\",\"number\":2"), NULL, 0,
            "lanes[1].heat_id: heat 43 is not in competition 1");
    refused(replace_in(GOOD, "\"spot_id\":\"22\"", "\"spot_id\":\"23\""), NULL, 0,
            "lanes[1].spot_id: spot 23 is not in competition 1");
    refused(replace_in(GOOD, "\"id\":\"31\",\"competition_id\":\"1\"", "\"id\":\"31\",\"competition_id\":\"2\""),
            NULL, 0, "zones[0].competition_id: must be the competition's id, 1");
    /* an id the database has in another competition */
    foreign_owner = "2";
    refused(GOOD, NULL, 0, "wods[0].id: wod 11 is in competition 2");
    refused(GOOD, NULL, 0, "lanes[1].id: lane 52 is in competition 2");
    foreign_owner = "1";
    ck_assert_ptr_nonnull(check(GOOD, NULL, 0));
    foreign_owner = NULL;
}
END_TEST

START_TEST(uniqueness_in_heat_and_bibs)
{
    foreign_owner = NULL;
    refused(replace_in(GOOD, "\"number\":2,\"spot_id\":\"22\"", "\"number\":1,\"spot_id\":\"22\""), NULL, 0,
            "lanes[1].number: lane number 1 of heat 41 is also that of lanes[0]");
    refused(replace_in(GOOD, "\"number\":2,\"spot_id\":\"22\"", "\"number\":2,\"spot_id\":\"21\""), NULL, 0,
            "lanes[1].spot_id: spot 21 is already in lanes[0] of heat 41");
    refused(replace_in(GOOD, "\"bib\":2", "\"bib\":1"), NULL, 0,
            "spots[1].bib: bib 1 is also the bib of spots[0]");
    refused(replace_in(GOOD, "\"number\":2,\"spot_id\":\"22\"", "\"number\":5,\"spot_id\":\"22\""), NULL, 0,
            "lanes[1].number: 5 is beyond the 4 lanes of zone 31");
}
END_TEST

START_TEST(scores_by_the_wods_scoring)
{
    foreign_owner = NULL;
    refused(replace_in(GOOD, "\"score\":\"7:45\"", "\"score\":\"10:01\""), NULL, 0,
            "lanes[0].score: score must be a time like 7:45 (within the time cap), CAP+N or WD (wod 11)");
    refused(replace_in(GOOD, "\"score\":\"7:45\"", "\"score\":\"212\""), NULL, 0,
            "lanes[0].score: score must be a time like 7:45 (within the time cap), CAP+N or WD (wod 11)");
    ck_assert_ptr_nonnull(check(replace_in(GOOD, "\"score\":\"7:45\"", "\"score\":\"10:00\""), NULL, 0));
    refused(replace_in(GOOD, "\"tiebreak\":\"3:00\"", "\"tiebreak\":\"CAP+1\""), NULL, 0,
            "lanes[0].tiebreak: tiebreak must be a time like 1:02.5");
    /* the heat's WOD counts: on a reps WOD, 212 is right and 7:45 is not */
    {
        const char *reps = replace_in(GOOD, "\"wod_id\":\"11\"", "\"wod_id\":\"12\"");

        refused(reps, NULL, 0, "lanes[0].score: score must be a number of reps from 0 to 999999999 or WD (wod 12)");
        reps = replace_in(replace_in(replace_in(reps, "\"CAP+3\"", "\"212\""), "\"CAP+3\"", "\"212\""),
                          "\"7:45\"", "\"WD\"");     /* lane 52 validated: its published score too */
        ck_assert_ptr_nonnull(check(reps, NULL, 0));
    }
    /* a heat without WOD keeps free text, at most 64 characters */
    ck_assert_ptr_nonnull(check(replace_in(GOOD, "\"heat_id\":\"41\",\"number\":2", "\"heat_id\":\"42\",\"number\":2")
                                , NULL, 0));
}
END_TEST

/* A database holding competition 1 with zone 7 (2 lanes), spot 8 (bib 9), heat 61 in
 * zone 7 with lane 71 (number 1, spot 8). */
static admin_doc *db_rows(void)
{
    admin_doc *d = admin_doc_make(pool);
    const char *c[] = { "1", "Old", NULL, NULL, NULL, NULL, "upcoming", "places", "immediate",
                        NULL };
    const char *z[] = { "7", "1", "Old floor", "2" };
    const char *s[] = { "8", "1", "Old team", NULL, NULL, "9" };
    const char *h[] = { "61", "1", "7", NULL, "1", NULL, "scheduled" };
    const char *l[] = { "71", "61", "1", "8", NULL, NULL, NULL, NULL, NULL };

    admin_doc_add(pool, d, AD_COMPETITION, c);
    admin_doc_add(pool, d, AD_ZONE, z);
    admin_doc_add(pool, d, AD_SPOT, s);
    admin_doc_add(pool, d, AD_HEAT, h);
    admin_doc_add(pool, d, AD_LANE, l);
    return d;
}

START_TEST(merge_with_the_database)
{
    admin_import *im;
    const char *uses_zone7 = replace_in(GOOD, "\"zone_id\":\"31\"", "\"zone_id\":\"7\"");

    foreign_owner = NULL;
    /* the database's zone 7 stays: a heat may use it */
    im = check(uses_zone7, db_rows(), 0);
    ck_assert_ptr_nonnull(im);
    ck_assert_int_eq(im->competition_exists, 1);
    ck_assert_int_eq(im->exists[AD_COMPETITION][0], 1);
    ck_assert_int_eq(im->remove[AD_ZONE]->nelts, 0);
    /* zone 7 has 2 lanes: lane numbers beyond are refused */
    refused(replace_in(uses_zone7, "\"number\":2,\"spot_id\":\"22\"", "\"number\":3,\"spot_id\":\"22\""),
            db_rows(), 0, "lanes[1].number: 3 is beyond the 2 lanes of zone 7");
    /* --replace: what the document lacks goes, so zone 7 is not there */
    refused(uses_zone7, db_rows(), 1, "heats[0].zone_id: zone 7 is not in competition 1");
    im = check(GOOD, db_rows(), 1);
    ck_assert_ptr_nonnull(im);
    ck_assert_int_eq(im->remove[AD_ZONE]->nelts, 1);
    ck_assert_str_eq(APR_ARRAY_IDX(im->remove[AD_ZONE], 0, const char *), "7");
    ck_assert_int_eq(im->remove[AD_LANE]->nelts, 1);
    ck_assert_int_eq(im->remove[AD_HEAT]->nelts, 1);
    ck_assert_int_eq(im->remove[AD_SPOT]->nelts, 1);
    /* a bib the database's spot 8 keeps */
    refused(replace_in(GOOD, "\"bib\":2", "\"bib\":9"), db_rows(), 0,
            "spots[1].bib: bib 9 is also the bib of spot 8 in the database");
    /* ... which the document may take when it gives spot 8 another */
    im = check(replace_in(replace_in(GOOD, "\"bib\":2", "\"bib\":9"), "\"id\":\"21\"", "\"id\":\"8\""),
               db_rows(), 0);
    ck_assert_ptr_null(im);     /* lanes[0] names spot 21, now gone */
}
END_TEST

START_TEST(merge_lane_conflicts_with_database_rows)
{
    admin_doc *base = db_rows();
    const char *doc = replace_in(GOOD, "\"id\":\"52\",\"heat_id\":\"41\",\"number\":2",
                                 "\"id\":\"52\",\"heat_id\":\"61\",\"number\":1");

    foreign_owner = NULL;
    refused(doc, base, 0, "lanes[1].number: lane number 1 of heat 61 is also that of lane 71 in the database");
    /* the same lane id in the document: it replaces the database's row */
    ck_assert_ptr_nonnull(check(replace_in(doc, "\"id\":\"52\"", "\"id\":\"71\""), base, 0));
    ck_assert_int_eq(check(replace_in(doc, "\"id\":\"52\"", "\"id\":\"71\""), base, 0)->exists[AD_LANE][1], 1);
    /* with --replace, heat 61 goes, and lane 71 with it */
    refused(doc, base, 1, "lanes[1].heat_id: heat 61 is not in competition 1");
}
END_TEST

/* ---- stored scores under new rules, and the origin of an export */

/* The rows of the GOOD document, as the database would hold them. */
static admin_doc *good_rows(void)
{
    admin_import *im = check(GOOD, NULL, 0);

    ck_assert_ptr_nonnull(im);
    return im->doc;
}

START_TEST(stored_scores_under_new_rules)
{
    admin_doc *base = good_rows();
    const char *no_lanes = replace_in(GOOD, "," LANES, "");

    foreign_owner = NULL;
    /* a lower cap: 7:45 no longer fits 300 s (CAP+3 does) */
    refused(replace_in(no_lanes, "\"time_cap\":600", "\"time_cap\":300"), base, 0,
            "wods[0]: 1 stored score of its heats' lanes would no longer fit its scoring and "
            "time_cap (seconds) (lane 51: \"7:45\"): change that score too, or keep the "
            "scoring and time_cap");
    /* with the lanes in the document, unchanged: the same one message */
    refused(replace_in(GOOD, "\"time_cap\":600", "\"time_cap\":300"), base, 0,
            "wods[0]: 1 stored score of its heats' lanes would no longer fit its scoring and "
            "time_cap (seconds) (lane 51: \"7:45\"): change that score too, or keep the "
            "scoring and time_cap");
    ck_assert_int_eq(errors->nelts, 1);
    /* reps: both refused */
    refused(replace_in(no_lanes, "\"scoring\":\"time\",\"time_cap\":600",
                       "\"scoring\":\"reps\",\"time_cap\":null"), base, 0,
            "wods[0]: 2 stored scores of its heats' lanes would no longer fit its scoring and "
            "time_cap (seconds) (lane 51: \"7:45\"): change those scores too, or keep the "
            "scoring and time_cap");
    /* a heat moved to a WOD whose rules its scores do not fit */
    refused(replace_in(no_lanes, "\"wod_id\":\"11\"", "\"wod_id\":\"12\""), base, 0,
            "heats[0].wod_id: 2 stored scores of lanes would no longer fit the scoring and "
            "time_cap of the WOD (lane 51: \"7:45\"): change those scores too, or keep the WOD");
    /* a higher cap, or a new score that fits: accepted */
    ck_assert_ptr_nonnull(check(replace_in(no_lanes, "\"time_cap\":600", "\"time_cap\":900"),
                                base, 0));
    ck_assert_ptr_nonnull(check(replace_in(replace_in(GOOD, "\"time_cap\":600", "\"time_cap\":300"),
                                           "\"score\":\"7:45\"", "\"score\":\"4:59\""), base, 0));
}
END_TEST

START_TEST(origin_conflicts)
{
    admin_doc *base = good_rows(), *now;
    json_t *doc = admin_doc_to_json(base);
    apr_array_header_t *out = apr_array_make(pool, 4, sizeof(const char *));
    admin_import *im;
    const char **lane;
    char *text;
    json_t *given[3];

    foreign_owner = NULL;
    ck_assert_int_eq(admin_origin_add(pool, doc, base), 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(
        json_object_get(doc, "origin"), "tags"), "lanes"), "52")),
        admin_row_tag(pool, AD_LANE, ADMIN_DOC_ROW(base, AD_LANE, 1)));
    text = json_dumps(doc, 0);
    /* unchanged database: no conflict */
    im = check(text, base, 0);
    ck_assert_ptr_nonnull(im);
    given[0] = json_loads(text, 0, NULL);
    ck_assert_int_eq(admin_origin_conflicts(pool, given[0], im, base, out), 0);
    /* a judge changed lane 52 since: the import would overwrite it */
    now = good_rows();
    lane = ADMIN_DOC_ROW(now, AD_LANE, 1);
    lane[AD_LANE_SCORE] = "CAP+1";
    im = check(text, now, 0);
    ck_assert_ptr_nonnull(im);
    given[1] = json_loads(text, 0, NULL);
    ck_assert_int_eq(admin_origin_conflicts(pool, given[1], im, now, out), 1);
    ck_assert_str_eq(APR_ARRAY_IDX(out, 0, const char *),
                     "lanes[1]: lane 52 changed in the database since the export: score "
                     "\"CAP+1\" in the database, \"CAP+3\" in the document");
    /* a bad origin is an error */
    apr_array_clear(out);
    given[2] = json_loads(replace_in(text, "\"tags\": {", "\"tags\": 1, \"x\": {"), 0, NULL);
    ck_assert_int_eq(admin_origin_conflicts(pool, given[2], im, now, out), -1);
    for (int i = 0; i < 3; i++) {
        json_decref(given[i]);
    }
    free(text);
    json_decref(doc);
}
END_TEST

/* The version 1 document of GOOD: the release before schema version 3's. */
#define COMP_V1 "\"competition\":{\"id\":\"1\",\"name\":\"C\",\"location\":null,\"start_date\":\"2026-11-21\"," \
                "\"end_date\":null,\"timezone\":\"Europe/Paris\",\"status\":\"upcoming\",\"ranking\":\"places\"}"
#define LANES_V1 "\"lanes\":[{\"id\":\"51\",\"heat_id\":\"41\",\"number\":1,\"spot_id\":\"21\",\"score\":\"7:45\",\"tiebreak\":\"3:00\"}," \
                 "{\"id\":\"52\",\"heat_id\":\"41\",\"number\":2,\"spot_id\":null,\"score\":null,\"tiebreak\":\"1:00\"}]"
#define GOOD_V1 "{\"version\":1," COMP_V1 "," WODS "," SPOTS "," ZONES "," HEATS "," LANES_V1 "}"

/* A version 1 document: read with the upgrade's values, exported as version 2; a key
 * of version 2 in it refused; its tags those of its columns (admin_row_tag_version). */
START_TEST(version_1_documents)
{
    admin_import *im;
    const char **c, **l0, **l1;
    json_t *j;
    char *a;

    foreign_owner = NULL;
    im = check(GOOD_V1, NULL, 0);
    ck_assert_ptr_nonnull(im);
    ck_assert_int_eq(im->version, 1);
    c = ADMIN_DOC_ROW(im->doc, AD_COMPETITION, 0);
    l0 = ADMIN_DOC_ROW(im->doc, AD_LANE, 0);
    l1 = ADMIN_DOC_ROW(im->doc, AD_LANE, 1);
    ck_assert_str_eq(c[AD_COMPETITION_PUBLICATION], "immediate");
    ck_assert_ptr_null(c[AD_COMPETITION_ADVANCE]);
    ck_assert_str_eq(l0[AD_LANE_STATUS], "entered");
    ck_assert_str_eq(l0[AD_LANE_PUBLISHED_SCORE], "7:45");
    ck_assert_str_eq(l0[AD_LANE_PUBLISHED_TIEBREAK], "3:00");
    ck_assert_ptr_null(l1[AD_LANE_STATUS]);          /* no score: no status */
    ck_assert_ptr_null(l1[AD_LANE_PUBLISHED_SCORE]);
    ck_assert_str_eq(l1[AD_LANE_PUBLISHED_TIEBREAK], "1:00");
    j = admin_doc_to_json(im->doc);
    a = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    ck_assert_ptr_nonnull(strstr(a, "{\"version\":2,"));
    ck_assert_ptr_nonnull(strstr(a, "\"ranking\":\"places\",\"publication\":\"immediate\",\"advance\":null}"));
    free(a);
    /* a version 1 row's tag is that of its columns (what the release before wrote:
     * the hash of "V<length>:<text>" of each), when the others are the upgrade's */
    {
        static const char v1[] = "V2:51V2:41V1:1V2:21V4:7:45V4:3:00";
        const char *row[9];
        char hex[RK_HASH_HEX + 1];
        rk_sha256_ctx h;

        rk_sha256_init(&h);
        rk_sha256_update(&h, v1, strlen(v1));
        rk_sha256_final_hex(&h, hex);
        hex[16] = '\0';
        memcpy(row, l0, sizeof(row));
        ck_assert_str_eq(admin_row_tag_version(pool, AD_LANE, row, 1), hex);
        ck_assert_str_ne(admin_row_tag_version(pool, AD_LANE, row, 2), hex);
        /* validated since, or published otherwise: no version 1 export gave it */
        row[AD_LANE_STATUS] = "validated";
        ck_assert_ptr_null(admin_row_tag_version(pool, AD_LANE, row, 1));
        row[AD_LANE_STATUS] = "entered";
        row[AD_LANE_PUBLISHED_SCORE] = "7:50";
        ck_assert_ptr_null(admin_row_tag_version(pool, AD_LANE, row, 1));
    }
    refused(replace_in(GOOD_V1, "\"ranking\":\"places\"", "\"ranking\":\"places\",\"advance\":3"), NULL, 0,
            "competition.advance: not a field of a version 1 document (a competition has it "
            "from version 2: say \"version\": 2)");
    refused(replace_in(GOOD, "\"version\":2", "\"version\":1"), NULL, 0,
            "lanes[0].score_status: not a field of a version 1 document (a lane has it from "
            "version 2: say \"version\": 2)");
}
END_TEST

/* The lanes' score_status and published values, publication and advance. */
START_TEST(status_and_publication)
{
    foreign_owner = NULL;
    refused(replace_in(GOOD, "\"score_status\":\"entered\"", "\"score_status\":null"), NULL, 0,
            "lanes[0].score_status: a lane with a score is entered or validated, not null");
    refused(replace_in(GOOD, "\"score_status\":\"entered\"", "\"score_status\":\"done\""), NULL, 0,
            "lanes[0].score_status: must be one of entered, validated, or null");
    refused(replace_in(GOOD, "\"score\":\"CAP+3\"", "\"score\":null"), NULL, 0,
            "lanes[1].score_status: a lane without a score has no score_status (null)");
    refused(replace_in(GOOD, "\"published_score\":\"CAP+3\"", "\"published_score\":\"CAP+5\""), NULL, 0,
            "lanes[1].published_score: a validated lane publishes its score: published_score "
            "is the score");
    refused(replace_in(GOOD, "\"published_score\":\"CAP+3\",\"published_tiebreak\":null",
                       "\"published_score\":\"CAP+3\",\"published_tiebreak\":\"1:00\""), NULL, 0,
            "lanes[1].published_tiebreak: a validated lane publishes its tiebreak: "
            "published_tiebreak is the tiebreak");
    refused(replace_in(GOOD, "\"published_tiebreak\":\"3:00\"", "\"published_tiebreak\":\"late\""),
            NULL, 0, "lanes[0].published_tiebreak: tiebreak must be a time like 1:02.5");
    refused(replace_in(GOOD, "\"published_score\":\"7:40\",", ""), NULL, 0,
            "lanes[0].published_score: missing");
    refused(replace_in(GOOD, "\"publication\":\"validated\"", "\"publication\":\"later\""), NULL, 0,
            "competition.publication: must be one of immediate, validated");
    refused(replace_in(GOOD, "\"advance\":2", "\"advance\":0"), NULL, 0,
            "competition.advance: 0 is out of range (1 to 2147483647)");
    /* an entered lane publishes what an earlier validation did (7:40), or nothing; a
     * lane whose score was taken off keeps it published, without status */
    ck_assert_ptr_nonnull(check(replace_in(GOOD, "\"published_score\":\"7:40\"",
                                           "\"published_score\":null"), NULL, 0));
    ck_assert_ptr_nonnull(check(replace_in(replace_in(GOOD, "\"score\":\"7:45\"", "\"score\":null"),
                                           "\"score_status\":\"entered\"", "\"score_status\":null"),
                                NULL, 0));
}
END_TEST

START_TEST(statements_from_the_tables)
{
    ck_assert_str_eq(admin_sql_update(pool, AD_ZONE),
                     "UPDATE zone SET competition_id = %lld, name = %s, lane_count = %lld WHERE id = %lld");
    ck_assert_str_eq(admin_sql_insert(pool, AD_LANE),
                     "INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak, score_status,"
                     " published_score, published_tiebreak)"
                     " VALUES (%lld, %lld, %lld, %lld, %s, %s, %s, %s, %s)");
    ck_assert_str_eq(admin_sql_update(pool, AD_COMPETITION),
                     "UPDATE competition SET name = %s, location = %s, start_date = %s, end_date = %s,"
                     " timezone = %s, status = %s, ranking = %s, publication = %s, advance = %lld"
                     " WHERE id = %lld");
    ck_assert_str_eq(admin_sql_select(pool, AD_LANE),
                     "SELECT x.id, x.heat_id, x.number, x.spot_id, x.score, x.tiebreak, x.score_status,"
                     " x.published_score, x.published_tiebreak FROM lane x"
                     " JOIN heat h ON h.id = x.heat_id WHERE h.competition_id = %lld ORDER BY x.id");
    ck_assert_str_eq(admin_sql_owner(pool, AD_HEAT), "SELECT competition_id FROM heat WHERE id = %lld");
    ck_assert_str_eq(admin_sql_delete(pool, AD_SPOT), "DELETE FROM spot WHERE id = %lld");
}
END_TEST

static Suite *doc_suite(void)
{
    Suite *s = suite_create("admin_doc");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, good_document_is_accepted);
    tcase_add_test(tc, export_form_round_trips);
    tcase_add_test(tc, shape_errors_name_the_place);
    tcase_add_test(tc, references_and_competition);
    tcase_add_test(tc, uniqueness_in_heat_and_bibs);
    tcase_add_test(tc, scores_by_the_wods_scoring);
    tcase_add_test(tc, merge_with_the_database);
    tcase_add_test(tc, merge_lane_conflicts_with_database_rows);
    tcase_add_test(tc, stored_scores_under_new_rules);
    tcase_add_test(tc, origin_conflicts);
    tcase_add_test(tc, version_1_documents);
    tcase_add_test(tc, status_and_publication);
    tcase_add_test(tc, statements_from_the_tables);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;

    apr_initialize();
    sr = srunner_create(doc_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    apr_terminate();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
