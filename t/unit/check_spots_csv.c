/* check_spots_csv.c: Check unit tests of the team lists from CSV (lib/rk_spots_csv.c),
 * the rules that `ranking-admin import-spots` and the API's POST of spots as
 * text/csv share: the header, the cells, the plan against the competition's spots,
 * the errors with their line numbers (sorted), the ';' separator, all or nothing. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_strings.h>

#include "rk_spots_csv.h"

static apr_pool_t *pool;
static apr_array_header_t *errors;

static void setup(void)
{
    ck_assert_int_eq(apr_pool_create(&pool, NULL), APR_SUCCESS);
}

static void teardown(void)
{
    apr_pool_destroy(pool);
}

/* The competition's spots of the tests. */
static const rk_spot_known known[] = {
    { "8", "Old team", "9" },
    { "10", "Twin", NULL },
    { "11", "Twin", NULL },
    { "12", "Bibless", NULL },
    { "13", "Numbered", "20" },
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

static rk_spots_plan *plan(const char *csv, int with_known)
{
    errors = apr_array_make(pool, 4, sizeof(const char *));
    return rk_spots_csv_plan(pool, csv, strlen(csv), with_known ? known : NULL,
                             with_known ? NKNOWN : 0, errors);
}

static const rk_spot_line *line_of(const rk_spots_plan *p, int i)
{
    ck_assert_int_lt(i, p->lines->nelts);
    return &APR_ARRAY_IDX(p->lines, i, rk_spot_line);
}

/* CSV is refused, and its first error is FIRST (the smallest line). */
static void refused(const char *csv, int with_known, const char *first)
{
    const char *all = "";
    int i;

    ck_assert_ptr_null(plan(csv, with_known));
    ck_assert_int_gt(errors->nelts, 0);
    for (i = 0; i < errors->nelts; i++) {
        all = apr_pstrcat(pool, all, "\n  ", APR_ARRAY_IDX(errors, i, const char *), NULL);
    }
    ck_assert_msg(strcmp(APR_ARRAY_IDX(errors, 0, const char *), first) == 0,
                  "first error is not '%s' in:%s", first, all);
}

START_TEST(rows_read_by_the_header)
{
    rk_spots_plan *p;
    const rk_spot_line *l;

    p = plan("\xEF\xBB\xBF" "Bib, NAME ,division,Affiliate\r\n"
             "007,\"Team \"\"A\"\"\",RX,\r\n,,,\r\n,B,,Box\r\n", 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->lines->nelts, 2);
    ck_assert_int_eq(p->added, 2);
    ck_assert_int_eq(p->updated, 0);
    ck_assert_int_eq(p->separator, ',');
    l = line_of(p, 0);
    ck_assert_uint_eq(l->line, 2);
    ck_assert_str_eq(l->name, "Team \"A\"");
    ck_assert_str_eq(l->division, "RX");
    ck_assert_ptr_null(l->affiliate);       /* an empty cell is null */
    ck_assert_str_eq(l->bib, "7");          /* leading zeros go */
    ck_assert_ptr_null(l->id);
    l = line_of(p, 1);
    ck_assert_uint_eq(l->line, 4);          /* the empty row is skipped */
    ck_assert_ptr_null(l->bib);
    ck_assert_str_eq(l->affiliate, "Box");
    /* name alone; a line break inside a quoted name */
    p = plan("name\n\"Two\nLines\"\nThree\n", 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(line_of(p, 0)->name, "Two\nLines");
    ck_assert_ptr_null(line_of(p, 0)->division);
    ck_assert_uint_eq(line_of(p, 1)->line, 4);
    /* a header only: nothing to do */
    p = plan("name,bib\r\n", 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->lines->nelts, 0);
}
END_TEST

START_TEST(semicolon_separator)
{
    rk_spots_plan *p = plan("Name;Division;Bib\r\n\"Nord; Sud\";RX;5\r\nÉquipe, Lyon;Scaled;\r\n", 0);

    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->separator, ';');
    ck_assert_str_eq(line_of(p, 0)->name, "Nord; Sud");
    ck_assert_str_eq(line_of(p, 0)->bib, "5");
    ck_assert_str_eq(line_of(p, 1)->name, "Équipe, Lyon");   /* a comma is text then */
    ck_assert_ptr_null(line_of(p, 1)->bib);
    /* a header with both: commas */
    p = plan("name,division\nA;B,RX\n", 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->separator, ',');
    ck_assert_str_eq(line_of(p, 0)->name, "A;B");
}
END_TEST

START_TEST(plan_against_the_competition)
{
    rk_spots_plan *p;

    /* by bib: renames spot 8 */
    p = plan("name,bib\nRenamed,9\n", 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(line_of(p, 0)->id, "8");
    ck_assert_int_eq(line_of(p, 0)->bib_changes, 0);
    ck_assert_int_eq(p->updated, 1);
    ck_assert_int_eq(p->added, 0);
    /* by name, with another bib */
    p = plan("name,bib\nOld team,12\n", 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(line_of(p, 0)->id, "8");
    ck_assert_int_eq(line_of(p, 0)->bib_changes, 1);
    /* by name, without a bib: the bib goes to null */
    p = plan("name,bib\nNumbered,\n", 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(line_of(p, 0)->id, "13");
    ck_assert_int_eq(line_of(p, 0)->bib_changes, 1);
    /* a bib of no spot and a new name: added; a null bib kept null: no change */
    p = plan("name,bib\nNew,77\nBibless,\n", 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(line_of(p, 0)->id);
    ck_assert_str_eq(line_of(p, 1)->id, "12");
    ck_assert_int_eq(line_of(p, 1)->bib_changes, 0);
    ck_assert_int_eq(p->added, 1);
    ck_assert_int_eq(p->updated, 1);
    /* two spots swap bibs */
    p = plan("name,bib\nOld team,20\nNumbered,9\n", 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(line_of(p, 0)->id, "13");   /* bib 20 is spot 13's */
    ck_assert_str_eq(line_of(p, 1)->id, "8");
    ck_assert_int_eq(line_of(p, 0)->bib_changes, 0);
    /* the bib wins over the name: Twin with bib 9 updates spot 8 */
    p = plan("name,bib\nTwin,9\n", 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(line_of(p, 0)->id, "8");
    refused("name\nTwin\n", 1, "line 2: 2 spots of the competition have this team's name: give its bib");
    refused("name,bib\nOld team,\nX,9\n", 1, "line 3: the team of line 2 is already spot 8");
}
END_TEST

START_TEST(errors_with_line_numbers)
{
    refused("", 0, "line 1: no header line (the columns: name, division, affiliate, bib)");
    refused("team,bib\n", 0, "line 1: unknown column 'team' (column 1 of the header; the columns: name, division, affiliate, bib)");
    refused("name,T\xC3\xA9\n", 0, "line 1: unknown column (column 2 of the header; the columns: name, division, affiliate, bib)");
    refused("bib\n1\n", 0, "line 1: the header has no column 'name' (the columns: name, division, affiliate, bib)");
    refused("name,NAME\n", 0, "line 1: column 'name' twice in the header");
    refused("name,bib\nA,1\nB\n", 0, "line 3: 1 field, the header has 2");
    refused("name,bib\nA,1\nB,x\n", 0, "line 3: bib 'x' is not a whole number from 1 to 2147483647");
    refused("name,bib\nA,1\nB,0\n", 0, "line 3: bib '0' is not a whole number from 1 to 2147483647");
    refused("name,bib\nA,2147483648\n", 0, "line 2: bib '2147483648' is not a whole number from 1 to 2147483647");
    refused("name,bib\nA,12\nB,3\nC,4\nD,5\nE,6\nF,012\n", 0, "line 7: bib 12 is used twice");
    refused("name,bib\n,1\n", 0, "line 2: the team has no name");
    refused("name,bib\n  ,1\n", 0, "line 2: the team has no name");
    refused("name\n\"A\nB\n", 0, "line 2: a quoted field is never closed");
    refused("name\nA\n\xFF\n", 0, "line 3: not UTF-8 text (save the file as CSV in UTF-8)");
    /* all errors, sorted by line: a bib used twice (found late) before a later one */
    refused("name,bib\nA,1\nB,1\nC,x\n", 0, "line 3: bib 1 is used twice");
    ck_assert_int_eq(errors->nelts, 2);
    ck_assert_str_eq(APR_ARRAY_IDX(errors, 1, const char *),
                     "line 4: bib 'x' is not a whole number from 1 to 2147483647");
}
END_TEST

START_TEST(lengths_and_no_echo_of_names)
{
    char csv[1024] = "name,division\nA,";
    size_t i;

    for (i = 0; i < 201; i++) {
        strcat(csv, "d");
    }
    strcat(csv, "\n");
    refused(csv, 0, "line 2: the division is longer than 200 characters");
    /* 200 characters of two bytes each: accepted */
    strcpy(csv, "name\n");
    for (i = 0; i < 200; i++) {
        strcat(csv, "\xC3\xA9");
    }
    ck_assert_ptr_nonnull(plan(csv, 0));
    /* a bib that is not short printable ASCII is not echoed */
    refused("name,bib\nA,<script>alert(1)</script>-this-is-long-enough-to-hide\n", 0,
            "line 2: bib is not a whole number from 1 to 2147483647");
}
END_TEST

static Suite *spots_suite(void)
{
    Suite *s = suite_create("rk_spots_csv");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, rows_read_by_the_header);
    tcase_add_test(tc, semicolon_separator);
    tcase_add_test(tc, plan_against_the_competition);
    tcase_add_test(tc, errors_with_line_numbers);
    tcase_add_test(tc, lengths_and_no_echo_of_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;

    apr_initialize();
    sr = srunner_create(spots_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    apr_terminate();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
