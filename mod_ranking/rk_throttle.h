/* rk_throttle.h: login throttling decisions.  Pure C; the counters are stored by the
 * glue in httpd's socache (shared by every child process). */
#ifndef RK_THROTTLE_H
#define RK_THROTTLE_H

#include <stdint.h>

/* The failures of one key (a client address, or a user name) in the current window. */
typedef struct {
    uint32_t failures;
    uint32_t reserved;
    int64_t window_start;   /* seconds since the epoch */
} rk_throttle_entry;

/* 1 when the key has reached LIMIT failures within WINDOW seconds of its window's
 * start (a login attempt is then refused with 429), with *RETRY_AFTER the seconds
 * until the window ends (at least 1).  LIMIT 0 turns throttling off.  A NULL or
 * expired entry never refuses. */
int rk_throttle_refused(const rk_throttle_entry *e, int64_t now, uint32_t limit,
                        int64_t window, int64_t *retry_after);

/* Count one failure at NOW: starts a new window when E is unused or expired. */
void rk_throttle_fail(rk_throttle_entry *e, int64_t now, int64_t window);

/* Milliseconds to wait before answering a failed login, given the failures counted so
 * far (after rk_throttle_fail): none for the first half of LIMIT, then 250 ms more
 * for each failure, at most 2000 ms. */
uint32_t rk_throttle_delay_ms(const rk_throttle_entry *e, uint32_t limit);

#endif
