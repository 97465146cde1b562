/* check_csv.c: Check unit tests of the CSV reader and writer
 * (lib/rk_csv.c): RFC 4180 quoting, line ends, the byte order mark, errors with
 * line numbers, UTF-8. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_csv.h"

/* The records read, as text: fields joined by '|', records by '/', each record
 * preceded by its line number and ':'. */
typedef struct {
    char out[1024];
    int stop_at;        /* stop (return 7) at this record, 1-based; 0: never */
    int records;
    size_t fields;
} collect;

static int on_record(void *ctx, size_t line, size_t nfields, char *const *fields,
                     const size_t *lens)
{
    collect *c = ctx;
    size_t i, n = strlen(c->out);

    c->records++;
    if (c->stop_at && c->records == c->stop_at) {
        return 7;
    }
    c->fields += nfields;
    for (i = 0; i < nfields; i++) {
        ck_assert_uint_eq(strlen(fields[i]), lens[i]);
    }
    if (nfields > 16) {         /* only counted */
        return 0;
    }
    n += (size_t)snprintf(c->out + n, sizeof(c->out) - n, "%s%zu:", n ? "/" : "", line);
    for (i = 0; i < nfields && n < sizeof(c->out); i++) {
        n += (size_t)snprintf(c->out + n, sizeof(c->out) - n, "%s%s", i ? "|" : "", fields[i]);
    }
    return 0;
}

static int parse(const char *in, size_t len, collect *c, char *err)
{
    memset(c, 0, sizeof(*c));
    return rk_csv_parse(in, len, ',', on_record, c, err, 256);
}

#define OK(in, want) do { collect c_; char e_[256]; \
    ck_assert_int_eq(parse(in, sizeof(in) - 1, &c_, e_), 0); \
    ck_assert_str_eq(c_.out, want); } while (0)
#define BAD(in, want) do { collect c_; char e_[256]; \
    ck_assert_int_eq(parse(in, sizeof(in) - 1, &c_, e_), -1); \
    ck_assert_str_eq(e_, want); } while (0)

START_TEST(plain_records)
{
    OK("name,bib\nA,1\nB,2\n", "1:name|bib/2:A|1/3:B|2");
    OK("name,bib\r\nA,1\r\nB,2", "1:name|bib/2:A|1/3:B|2");      /* CRLF, no last newline */
    OK("a,,c\n,\n", "1:a||c/2:|");
    OK("", "");
    OK("x", "1:x");
    OK("a\n\nb\n", "1:a/2:/3:b");                                  /* a blank line */
}
END_TEST

START_TEST(quoted_fields)
{
    OK("\"a,b\",c\n", "1:a,b|c");
    OK("\"say \"\"hi\"\"\",x\n", "1:say \"hi\"|x");
    OK("\"two\nlines\",x\nnext\n", "1:two\nlines|x/3:next");      /* line numbers go on */
    OK("\"cr\r\nlf\"\r\n", "1:cr\r\nlf");
    OK("\"\",\"\"\n", "1:|");
    OK("a,\"\"\n", "1:a|");
}
END_TEST

START_TEST(bom_and_utf8)
{
    OK("\xEF\xBB\xBFname\n\xC3\xA9quipe\n", "1:name/2:\xC3\xA9quipe");
    OK("\xF0\x9F\x8F\x8B\n", "1:\xF0\x9F\x8F\x8B");
    /* a BOM later than the first bytes is text */
    OK("a\n\xEF\xBB\xBF" "b\n", "1:a/2:\xEF\xBB\xBF" "b");
    BAD("ok\n\xC3\n", "line 2: not UTF-8 text (save the file as CSV in UTF-8)");
    BAD("ok\nok\n\xC0\xAF\n", "line 3: not UTF-8 text (save the file as CSV in UTF-8)");           /* overlong */
    BAD("\xED\xA0\x80\n", "line 1: not UTF-8 text (save the file as CSV in UTF-8)");                /* surrogate */
    BAD("\xF4\x90\x80\x80\n", "line 1: not UTF-8 text (save the file as CSV in UTF-8)");            /* > U+10FFFF */
    BAD("a\nb\0c\n", "line 2: a NUL byte");
}
END_TEST

START_TEST(syntax_errors)
{
    BAD("a,b\nc,\"open\n\nmore", "line 2: a quoted field is never closed");
    BAD("a\nb\"c,d\n", "line 2: a quote inside a field that does not start with one "
        "(quote the field and double the quote)");
    BAD("a\n\"x\"y,z\n", "line 2: text after the closing quote of a field");
    BAD("a\n\"x\n\"y\n", "line 3: text after the closing quote of a field");
    BAD("a\rb\n", "line 1: a carriage return that does not end the line");
}
END_TEST

START_TEST(semicolon_separator)
{
    collect c;
    char e[256];

    ck_assert_int_eq(rk_csv_separator("name;bib\nA,B;1\n", 15), ';');
    ck_assert_int_eq(rk_csv_separator("\xEF\xBB\xBFname;bib\r\n", 13), ';');
    ck_assert_int_eq(rk_csv_separator("name;x,bib\n", 11), ',');  /* both: commas */
    ck_assert_int_eq(rk_csv_separator("name\nA;B\n", 10), ',');   /* the header decides */
    ck_assert_int_eq(rk_csv_separator("", 0), ',');
    memset(&c, 0, sizeof(c));
    ck_assert_int_eq(rk_csv_parse("a;\"b;c\";d,e\n", 12, ';', on_record, &c, e, sizeof(e)), 0);
    ck_assert_str_eq(c.out, "1:a|b;c|d,e");
    memset(&c, 0, sizeof(c));
    ck_assert_int_eq(rk_csv_parse("a;\"b\",c\n", 8, ';', on_record, &c, e, sizeof(e)), -1);
    ck_assert_str_eq(e, "line 1: text after the closing quote of a field");
}
END_TEST

START_TEST(records_before_an_error_and_stop)
{
    collect c;
    char e[256];

    ck_assert_int_eq(parse("a\nb\n\"c\n", 7, &c, e), -1);
    ck_assert_str_eq(c.out, "1:a/2:b");
    memset(&c, 0, sizeof(c));
    c.stop_at = 2;
    ck_assert_int_eq(rk_csv_parse("a\nb\nc\n", 6, ',', on_record, &c, e, sizeof(e)), 7);
    ck_assert_int_eq(c.records, 2);
}
END_TEST

START_TEST(long_fields_and_many_fields)
{
    size_t n = 100000, i;
    char *in = malloc(n + 8);
    collect c;
    char e[256];
    int rc;

    for (i = 0; i < n; i++) {
        in[i] = (i % 2) ? ',' : 'x';
    }
    in[n] = '\n';
    memset(&c, 0, sizeof(c));
    c.stop_at = 0;
    rc = rk_csv_parse(in, n + 1, ',', on_record, &c, e, sizeof(e));
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(c.records, 1);
    ck_assert_uint_eq(c.fields, n / 2 + 1);   /* the last comma opens an empty field */
    free(in);
}
END_TEST

static char written[256];

static void write_field(const char *s)
{
    FILE *f;

    memset(written, 0, sizeof(written));
    f = fmemopen(written, sizeof(written), "w");
    ck_assert_ptr_nonnull(f);
    rk_csv_field(f, s);
    fclose(f);
}

START_TEST(writer_quotes_what_needs_it)
{
    write_field("plain");
    ck_assert_str_eq(written, "plain");
    write_field(NULL);
    ck_assert_str_eq(written, "");
    write_field("a,b");
    ck_assert_str_eq(written, "\"a,b\"");
    write_field("say \"hi\"");
    ck_assert_str_eq(written, "\"say \"\"hi\"\"\"");
    write_field("two\nlines");
    ck_assert_str_eq(written, "\"two\nlines\"");
    write_field(" padded");
    ck_assert_str_eq(written, "\" padded\"");
    write_field("\xEF\xBB\xBFx");     /* not a byte order mark when read back */
    ck_assert_str_eq(written, "\"\xEF\xBB\xBFx\"");
}
END_TEST

START_TEST(writer_reads_back)
{
    static const char *const fields[] = { "a,b", "\"q\"", "x\r\ny", " s ", "", "plain" };
    char buf[512];
    FILE *f = fmemopen(buf, sizeof(buf), "w");
    collect c;
    char e[256];
    size_t i;

    for (i = 0; i < 6; i++) {
        if (i) {
            fputc(',', f);
        }
        rk_csv_field(f, fields[i]);
    }
    fputs("\r\n", f);
    fclose(f);
    ck_assert_int_eq(parse(buf, strlen(buf), &c, e), 0);
    ck_assert_str_eq(c.out, "1:a,b|\"q\"|x\r\ny| s ||plain");
}
END_TEST

static Suite *csv_suite(void)
{
    Suite *s = suite_create("rk_csv");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, plain_records);
    tcase_add_test(tc, quoted_fields);
    tcase_add_test(tc, bom_and_utf8);
    tcase_add_test(tc, syntax_errors);
    tcase_add_test(tc, semicolon_separator);
    tcase_add_test(tc, records_before_an_error_and_stop);
    tcase_add_test(tc, long_fields_and_many_fields);
    tcase_add_test(tc, writer_quotes_what_needs_it);
    tcase_add_test(tc, writer_reads_back);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(csv_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
