/* check_sql.c: Check unit tests of rk_sql: the statement table (labels, placeholder
 * counts), the packing of a lane PUT into the update and conflict statements'
 * arguments (rk_lane_args_pack) and the lane the update leaves (rk_lane_after). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rk_sql.h"

/* Placeholders of apr_dbd in SQL: %s and %lld; %% is a literal percent sign. */
static int placeholders(const char *sql)
{
    int n = 0;

    for (; *sql; sql++) {
        if (sql[0] != '%') {
            continue;
        }
        if (sql[1] == '%') {
            sql++;
        }
        else if (sql[1] == 's') {
            n++;
        }
        else if (!strncmp(sql + 1, "lld", 3)) {
            n++;
        }
        else {
            return -1;   /* a placeholder the table does not use */
        }
    }
    return n;
}

START_TEST(statement_table)
{
    int i, j;

    for (i = 0; i < RK_Q_COUNT; i++) {
        const rk_query *q = &rk_queries[i];
        const char *c;

        ck_assert_msg(q->label && q->sql, "statement %d is missing", i);
        ck_assert_msg(!strncmp(q->label, "ranking_", 8), "%s: not prefixed", q->label);
        for (c = q->label; *c; c++) {
            ck_assert_msg((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_',
                          "%s: a label is [a-z0-9_] (PostgreSQL splices it)", q->label);
        }
        ck_assert_msg(placeholders(q->sql) == q->nargs, "%s: %d placeholders, nargs %d",
                      q->label, placeholders(q->sql), q->nargs);
        for (j = 0; j < i; j++) {
            ck_assert_msg(strcmp(q->label, rk_queries[j].label) != 0, "%s twice", q->label);
        }
    }
    ck_assert_int_eq(rk_queries[RK_Q_TOKEN_PURGE].nargs, 1);
    ck_assert_str_eq(rk_queries[RK_Q_TOKEN_PURGE].sql, RK_SQL_TOKEN_PURGE);
    ck_assert_int_ge(rk_sqlite_setup_count, 3);
    for (i = 0; i < rk_sqlite_setup_count; i++) {
        ck_assert_msg(!strncmp(rk_sqlite_setup[i], "PRAGMA ", 7), "%s", rk_sqlite_setup[i]);
    }
}
END_TEST

/* a lane without score, in a competition with publication 'validated' */
static const rk_lane_now now_none = { NULL, NULL, 0 };

/* score_status and the published values (API.md part 3, "Scores: entered, validated,
 * published") */
START_TEST(lane_args_status_and_publication)
{
    rk_lane_patch p;
    rk_lane_args a;
    rk_lane_now now = { "212", "1:00", 0 };

    /* the same score and tiebreak again: the status is kept */
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SCORE | RK_LANE_SET_TIEBREAK;
    strcpy(p.score, "212");
    strcpy(p.tiebreak, "1:00");
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[8], "keep");
    ck_assert_str_eq(a.update[9], "keep");
    /* another tiebreak only: entered */
    strcpy(p.tiebreak, "1:01");
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[8], "entered");
    /* a change of spot or number only: the status is kept */
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_NUMBER;
    p.number = 4;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[8], "keep");
    /* the score taken off: null, whatever the tiebreak */
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SCORE;
    p.score_null = 1;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[8], "null");
    /* publication 'immediate': every write publishes what the lane will hold */
    now.immediate = 1;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[9], "null");
    ck_assert_str_eq(a.update[11], "set");
    ck_assert_str_eq(a.update[12], "1:00");
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SCORE;
    strcpy(p.score, "230");
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[8], "entered");
    ck_assert_str_eq(a.update[9], "set");
    ck_assert_str_eq(a.update[10], "230");
    ck_assert_str_eq(a.update[11], "set");
    ck_assert_str_eq(a.update[12], "1:00");
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SPOT;
    p.spot_null = 1;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_str_eq(a.update[8], "keep");
    ck_assert_str_eq(a.update[10], "212");
}
END_TEST

START_TEST(lane_args_every_key)
{
    rk_lane_patch p;
    rk_lane_args a;

    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_NUMBER | RK_LANE_SET_SPOT | RK_LANE_SET_SCORE;
    p.number = 7;
    strcpy(p.spot_id, "123");
    strcpy(p.score, "07:45");
    p.set |= RK_LANE_SET_TIEBREAK;
    strcpy(p.tiebreak, "1:02.5");
    rk_lane_args_pack(&p, "40", "400", &now_none, &a);
    ck_assert_int_eq(rk_queries[RK_Q_LANE_UPDATE].nargs, 15);
    ck_assert_str_eq(a.update[0], "set");
    ck_assert_str_eq(a.update[1], "7");
    ck_assert_str_eq(a.update[2], "set");
    ck_assert_str_eq(a.update[3], "123");
    ck_assert_str_eq(a.update[4], "set");
    ck_assert_str_eq(a.update[5], "07:45");
    ck_assert_str_eq(a.update[6], "set");
    ck_assert_str_eq(a.update[7], "1:02.5");
    ck_assert_str_eq(a.update[8], "entered");   /* a new score: entered */
    ck_assert_str_eq(a.update[9], "keep");      /* publication 'validated' */
    ck_assert_str_eq(a.update[11], "keep");
    ck_assert_str_eq(a.update[13], "40");
    ck_assert_str_eq(a.update[14], "400");
    ck_assert_int_eq(rk_queries[RK_Q_LANE_CONFLICT].nargs, 4);
    ck_assert_str_eq(a.conflict[0], "40");
    ck_assert_str_eq(a.conflict[1], "400");
    ck_assert_str_eq(a.conflict[2], "7");
    ck_assert_str_eq(a.conflict[3], "123");
}
END_TEST

START_TEST(lane_args_keep_and_null)
{
    rk_lane_patch p;
    rk_lane_args a;

    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SCORE;   /* only the score, as null */
    p.score_null = 1;
    rk_lane_args_pack(&p, "1", "2", &now_none, &a);
    ck_assert_str_eq(a.update[0], "keep");
    ck_assert_str_eq(a.update[1], "0");
    ck_assert_str_eq(a.update[2], "keep");
    ck_assert_str_eq(a.update[3], "0");
    ck_assert_str_eq(a.update[4], "null");
    ck_assert_str_eq(a.update[5], "");
    ck_assert_str_eq(a.update[6], "keep");
    ck_assert_str_eq(a.update[8], "null");   /* no score: no status */
    ck_assert_str_eq(a.update[13], "1");
    ck_assert_str_eq(a.update[14], "2");
    ck_assert_str_eq(a.conflict[2], "0");   /* no number: nothing can be in the way */
    ck_assert_str_eq(a.conflict[3], "0");

    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SPOT;    /* empty the lane */
    p.spot_null = 1;
    strcpy(p.spot_id, "999");    /* ignored when null */
    rk_lane_args_pack(&p, "1", "2", &now_none, &a);
    ck_assert_str_eq(a.update[2], "null");
    ck_assert_str_eq(a.update[3], "0");
    ck_assert_str_eq(a.update[4], "keep");
    ck_assert_str_eq(a.conflict[3], "0");

    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_TIEBREAK;   /* clear the tiebreak */
    p.tiebreak_null = 1;
    rk_lane_args_pack(&p, "1", "2", &now_none, &a);
    ck_assert_str_eq(a.update[4], "keep");
    ck_assert_str_eq(a.update[6], "null");
    ck_assert_str_eq(a.update[7], "");

    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_NUMBER;
    p.number = 999;
    rk_lane_args_pack(&p, "1", "2", &now_none, &a);
    ck_assert_str_eq(a.update[0], "set");
    ck_assert_str_eq(a.update[1], "999");
    ck_assert_str_eq(a.conflict[2], "999");
    ck_assert_ptr_eq(a.update[1], a.number);   /* points into OUT, not a temporary */
}
END_TEST

/* A lane write as the statements apply it: ARG's flag at F, its value at F + 1. */
static const char *apply(const char *flag, const char *value, const char *was)
{
    return !strcmp(flag, "set") || !strcmp(flag, "entered") ? value
         : !strcmp(flag, "null") ? NULL : was;
}

/* rk_lane_state_check accepts every state the API's writes leave a lane in (every
 * PUT from every accepted state, under both publications, and the validation), and
 * the schema-3 upgrade's; and refuses the others, naming the field. */
START_TEST(lane_state_check)
{
    static const char *const scores[] = { NULL, "212", "230" };
    static const char *const tbs[] = { NULL, "1:00", "1:01" };
    static const char *const statuses[] = { NULL, "entered", "validated" };
    const char *why;
    int sc, tb, st, ps, pt, nsc, ntb, imm, accepted = 0, reached = 0;

    for (sc = 0; sc < 3; sc++) for (tb = 0; tb < 3; tb++) for (st = 0; st < 3; st++)
    for (ps = 0; ps < 3; ps++) for (pt = 0; pt < 3; pt++) {
        rk_lane_state s = { scores[sc], tbs[tb], statuses[st], scores[ps], tbs[pt] };
        rk_lane_state up = { scores[sc], tbs[tb], scores[sc] ? "entered" : NULL, scores[sc],
                             tbs[tb] };

        ck_assert_int_eq(rk_lane_state_check(&up, &why), RK_LANE_STATE_OK);
        if (rk_lane_state_check(&s, &why) != RK_LANE_STATE_OK) {
            ck_assert_ptr_nonnull(why);
            continue;
        }
        accepted++;
        if (s.score) {      /* the validation */
            rk_lane_state v = { s.score, s.tiebreak, "validated", s.score, s.tiebreak };

            ck_assert_int_eq(rk_lane_state_check(&v, &why), RK_LANE_STATE_OK);
        }
        for (nsc = 0; nsc < 4; nsc++) for (ntb = 0; ntb < 4; ntb++) for (imm = 0; imm < 2; imm++) {
            rk_lane_now now = { s.score, s.tiebreak, imm };
            rk_lane_patch p;
            rk_lane_args a;
            rk_lane_state t;

            memset(&p, 0, sizeof(p));
            if (nsc) {
                p.set |= RK_LANE_SET_SCORE;
                p.score_null = nsc == 1;
                strcpy(p.score, nsc == 1 ? "" : scores[nsc - 1]);
            }
            if (ntb) {
                p.set |= RK_LANE_SET_TIEBREAK;
                p.tiebreak_null = ntb == 1;
                strcpy(p.tiebreak, ntb == 1 ? "" : tbs[ntb - 1]);
            }
            rk_lane_args_pack(&p, "1", "2", &now, &a);
            t.score = apply(a.update[4], a.update[5], s.score);
            t.tiebreak = apply(a.update[6], a.update[7], s.tiebreak);
            t.status = apply(a.update[8], "entered", s.status);
            t.published_score = apply(a.update[9], a.update[10], s.published_score);
            t.published_tiebreak = apply(a.update[11], a.update[12], s.published_tiebreak);
            ck_assert_msg(rk_lane_state_check(&t, &why) == RK_LANE_STATE_OK,
                          "a PUT from an accepted state gives a refused one: %s", why);
            reached++;
        }
    }
    ck_assert_int_gt(accepted, 0);
    ck_assert_int_lt(accepted, 3 * 3 * 3 * 3 * 3);
    ck_assert_int_gt(reached, 0);
    {
        rk_lane_state no_score = { NULL, NULL, "entered", NULL, NULL };
        rk_lane_state no_status = { "212", NULL, NULL, "212", NULL };
        rk_lane_state bad = { "212", NULL, "checked", "212", NULL };
        rk_lane_state v_score = { "212", NULL, "validated", "230", NULL };
        rk_lane_state v_tb = { "212", "1:00", "validated", "212", NULL };
        rk_lane_state kept = { NULL, "1:00", NULL, "212", "1:01" };   /* taken off */

        ck_assert_int_eq(rk_lane_state_check(&no_score, &why), RK_LANE_STATE_STATUS);
        ck_assert_str_eq(why, "a lane without a score has no score_status (null)");
        ck_assert_int_eq(rk_lane_state_check(&no_status, &why), RK_LANE_STATE_STATUS);
        ck_assert_int_eq(rk_lane_state_check(&bad, &why), RK_LANE_STATE_STATUS);
        ck_assert_int_eq(rk_lane_state_check(&v_score, &why), RK_LANE_STATE_PUBLISHED_SCORE);
        ck_assert_int_eq(rk_lane_state_check(&v_tb, &why), RK_LANE_STATE_PUBLISHED_TIEBREAK);
        ck_assert_int_eq(rk_lane_state_check(&kept, &why), RK_LANE_STATE_OK);
        ck_assert_ptr_null(why);
    }
}
END_TEST

/* which update runs, and the lane it leaves (rk_lane_after), as the statement's CASEs
 * store it */
START_TEST(lane_update_and_after)
{
    rk_lane_patch p;
    rk_lane_args a;
    rk_lane_now now = { "212", "1:00", 1 };
    const char *before[RK_LANE_NCOLS] = { "2", "1", "3", "77", "Team", "212", "1:00", "validated" };
    const char *after[RK_LANE_NCOLS];
    int i;

    ck_assert_int_eq(rk_queries[RK_Q_LANE_UPDATE_SCORE].nargs, 11);
    /* a score: the short update, its arguments the last 11 of the long one's */
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SCORE;
    strcpy(p.score, "230");
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_int_eq(a.query, RK_Q_LANE_UPDATE_SCORE);
    ck_assert_ptr_eq(a.args, a.update + 4);
    ck_assert_str_eq(a.args[0], "set");
    ck_assert_str_eq(a.args[1], "230");
    ck_assert_str_eq(a.args[9], "1");
    ck_assert_str_eq(a.args[10], "2");
    ck_assert_int_eq(rk_lane_after(&p, &a, before, after), 0);
    ck_assert_str_eq(after[RK_LANE_COL_SCORE], "230");
    ck_assert_str_eq(after[RK_LANE_COL_TIEBREAK], "1:00");   /* kept */
    ck_assert_str_eq(after[RK_LANE_COL_STATUS], "entered");
    for (i = 0; i < RK_LANE_COL_SCORE; i++) {
        ck_assert_ptr_eq(after[i], before[i]);
    }
    /* the same score again: the status stays */
    strcpy(p.score, "212");
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_int_eq(rk_lane_after(&p, &a, before, after), 0);
    ck_assert_str_eq(after[RK_LANE_COL_STATUS], "validated");
    /* the score and the tiebreak taken off: no status */
    p.set = RK_LANE_SET_SCORE | RK_LANE_SET_TIEBREAK;
    p.score_null = 1;
    p.tiebreak_null = 1;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_int_eq(rk_lane_after(&p, &a, before, after), 0);
    ck_assert_ptr_null(after[RK_LANE_COL_SCORE]);
    ck_assert_ptr_null(after[RK_LANE_COL_TIEBREAK]);
    ck_assert_ptr_null(after[RK_LANE_COL_STATUS]);
    /* a number: the long update; the lane after has it */
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_NUMBER;
    p.number = 9;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_int_eq(a.query, RK_Q_LANE_UPDATE);
    ck_assert_ptr_eq(a.args, a.update);
    ck_assert_int_eq(rk_lane_after(&p, &a, before, after), 0);
    ck_assert_str_eq(after[RK_LANE_COL_NUMBER], "9");
    ck_assert_str_eq(after[RK_LANE_COL_SCORE], "212");
    ck_assert_str_eq(after[RK_LANE_COL_STATUS], "validated");
    /* a spot: the long update, and the lane is read again (the spot's name) */
    memset(&p, 0, sizeof(p));
    p.set = RK_LANE_SET_SPOT | RK_LANE_SET_SCORE;
    strcpy(p.spot_id, "78");
    strcpy(p.score, "1");
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_int_eq(a.query, RK_Q_LANE_UPDATE);
    ck_assert_int_eq(rk_lane_after(&p, &a, before, after), -1);
    p.spot_null = 1;
    rk_lane_args_pack(&p, "1", "2", &now, &a);
    ck_assert_int_eq(rk_lane_after(&p, &a, before, after), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sql");
    TCase *tc = tcase_create("statements");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, statement_table);
    tcase_add_test(tc, lane_args_every_key);
    tcase_add_test(tc, lane_args_status_and_publication);
    tcase_add_test(tc, lane_args_keep_and_null);
    tcase_add_test(tc, lane_state_check);
    tcase_add_test(tc, lane_update_and_after);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
