/* rk_throttle.h: login throttling decisions.  Pure C; the counters are stored by the
 * glue in httpd's socache (shared by every child process). */
#ifndef RK_THROTTLE_H
#define RK_THROTTLE_H

#include <stdint.h>

/* The failures of one key in the current window.  The glue keeps two per failed login:
 * one per client address (refused at the limit: rk_throttle_refused) and one per user
 * name (never refused, whatever the count: only slowed, rk_throttle_delay_ms, so that
 * nobody can lock a user out by failing on purpose from many addresses). */
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

/* At most this many failed logins wait out their delay at the same time, whatever the
 * configuration (see rk_throttle_waiters_max). */
#define RK_THROTTLE_WAITERS_MAX 64

/* The delays being waited, shared by the server's processes: slot I is busy until
 * UNTIL_MS[I] (milliseconds since the epoch; 0 or past: free).  A slot frees itself
 * when its time passes, so that a process that dies while waiting leaks nothing. */
typedef struct {
    int64_t until_ms[RK_THROTTLE_WAITERS_MAX];
} rk_throttle_waiters;

/* How many failed logins may wait at once on a server of MAX_WORKERS request threads
 * (or processes, with prefork): a quarter of them, at least 1, at most
 * RK_THROTTLE_WAITERS_MAX.  The rest of the workers keep serving whoever fails on
 * purpose. */
unsigned rk_throttle_waiters_max(int max_workers);

/* Take a slot among the first N of W for DELAY_MS from NOW_MS: 1 (the caller waits
 * DELAY_MS), or 0 when all N are busy (the caller answers at once). */
int rk_throttle_waiter_take(rk_throttle_waiters *w, unsigned n, int64_t now_ms,
                            uint32_t delay_ms);

#endif
