/* check_gzip.c: Check unit tests of rk_gzip: Accept-Encoding read as RFC 9110 says
 * (q values, identity, "*", case, bad items ignored) and gzip members that zlib
 * inflates back to the same bytes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "rk_gzip.h"

#define I RK_ENC_IDENTITY
#define G RK_ENC_GZIP

START_TEST(accept_encoding)
{
    static const struct { const char *h; int want; } cases[] = {
        { NULL, I },
        { "", I },
        { "gzip", I | G },
        { "GZip", I | G },
        { "x-gzip", I | G },
        { "gzip, deflate, br", I | G },
        { " gzip ;q=0.5 , br", I | G },
        { "gzip;q=0", I },
        { "gzip;q=0.000", I },
        { "gzip;q=0.001", I | G },
        { "gzip; Q=1.000", I | G },
        { "gzip;q=1.001", I },          /* unreadable: ignored */
        { "gzip;q=2", I },
        { "gzip;q=", I },
        { "gzip;q=0.5000", I },
        { "gzip;level=1", I },
        { "deflate, br", I },
        { "*", I | G },
        { "*;q=0", 0 },
        { "*;q=0, gzip", G },
        { "*;q=0, identity", I },
        { "identity;q=0", 0 },
        { "identity;q=0, gzip", G },
        { "identity", I },
        { "gzip;q=0, *", I },            /* gzip refused by name, whatever * says */
        { "gzip;q=0, x-gzip;q=0.5", I | G },
        { ",,, gzip ,,", I | G },
        { "gzipx, xgzip, gzi", I },
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ck_assert_msg(rk_accept_encoding(cases[i].h) == cases[i].want, "%s: %d, not %d",
                      cases[i].h ? cases[i].h : "(none)", rk_accept_encoding(cases[i].h),
                      cases[i].want);
    }
}
END_TEST

static void round_trip(const unsigned char *in, size_t n, int level)
{
    unsigned char *gz = malloc(rk_gzip_bound(n)), *back = malloc(n + 1);
    size_t len = rk_gzip(in, n, gz, level);
    z_stream z;

    ck_assert_uint_gt(len, 0);
    ck_assert_uint_le(len, rk_gzip_bound(n));
    ck_assert_int_eq(gz[0], 0x1f);
    ck_assert_int_eq(gz[1], 0x8b);
    memset(&z, 0, sizeof(z));
    ck_assert_int_eq(inflateInit2(&z, 16 + 15), Z_OK);
    z.next_in = gz;
    z.avail_in = (uInt)len;
    z.next_out = back;
    z.avail_out = (uInt)(n + 1);
    ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
    ck_assert_uint_eq(z.total_out, n);
    ck_assert_uint_eq(z.avail_in, 0);   /* one member, nothing after it */
    ck_assert(n == 0 || memcmp(in, back, n) == 0);
    inflateEnd(&z);
    free(gz);
    free(back);
}

START_TEST(gzip_round_trip)
{
    size_t sizes[] = { 0, 1, 1023, 1024, 65536, 1 << 20 };
    unsigned char *buf = malloc(1 << 20);
    size_t i, k;
    unsigned x = 12345;

    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        for (i = 0; i < sizes[k]; i++) {     /* incompressible */
            x = x * 1103515245u + 12345u;
            buf[i] = (unsigned char)(x >> 16);
        }
        round_trip(buf, sizes[k], 6);
        for (i = 0; i < sizes[k]; i++) {     /* like a JSON list */
            buf[i] = (unsigned char)"{\"id\":\"1\",\"name\":\"Team\"},"[i % 25];
        }
        round_trip(buf, sizes[k], 1);
        round_trip(buf, sizes[k], 9);
    }
    /* a JSON-like megabyte shrinks to a small part of itself */
    {
        unsigned char *gz = malloc(rk_gzip_bound(1 << 20));
        ck_assert_uint_lt(rk_gzip(buf, 1 << 20, gz, 6), (1 << 20) / 20);
        free(gz);
    }
    free(buf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gzip");
    TCase *tc = tcase_create("gzip");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, accept_encoding);
    tcase_add_test(tc, gzip_round_trip);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
