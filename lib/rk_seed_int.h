/* rk_seed_int.h: what the files of heat generation share (rk_seed.c: the planner;
 * rk_seed_body.c: the generate-heats body and the instants; rk_seed_json.c: the answer
 * and the board reader).  Not for any other file: the interface is rk_seed.h. */
#ifndef RK_SEED_INT_H
#define RK_SEED_INT_H

/* the instants rk_seed_format_time writes: the years 0001 to 9999 */
#define RK_SEED_T_MIN (-62135596800LL)   /* 0001-01-01T00:00:00Z */
#define RK_SEED_T_MAX 253402300799LL     /* 9999-12-31T23:59:59Z */

/* division names in block order: strcmp, with NULL (no division) after every name */
int rk_seed_div_cmp(const char *a, const char *b);

#endif
