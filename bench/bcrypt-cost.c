/* bench/bcrypt-cost.c: the time of one bcrypt password check, the same call
 * (apr_password_validate) that POST /connect makes, so that the benchmark can set the
 * /connect latency beside it.
 *
 *   bcrypt-cost PASSWORD HASH [N]   prints "<microseconds per check> <checks>"
 */
#include <stdio.h>
#include <stdlib.h>

#include <apr_general.h>
#include <apr_md5.h>
#include <apr_time.h>

int main(int argc, char **argv)
{
    int n = argc > 3 ? atoi(argv[3]) : 20, i;
    apr_time_t t0;

    if (argc < 3 || n < 1) {
        fprintf(stderr, "usage: %s PASSWORD HASH [N]\n", argv[0]);
        return 2;
    }
    if (apr_initialize() != APR_SUCCESS) {
        return 1;
    }
    t0 = apr_time_now();
    for (i = 0; i < n; i++) {
        if (apr_password_validate(argv[1], argv[2]) != APR_SUCCESS) {
            fprintf(stderr, "%s: the password does not match the hash\n", argv[0]);
            return 1;
        }
    }
    printf("%.1f %d\n", (double)(apr_time_now() - t0) / n, n);
    apr_terminate();
    return 0;
}
