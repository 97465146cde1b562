/* rk_throttle.c: see rk_throttle.h. */
#include <string.h>

#include "rk_throttle.h"

#define RK_DELAY_STEP_MS 250u
#define RK_DELAY_MAX_MS 2000u

static int live(const rk_throttle_entry *e, int64_t now, int64_t window)
{
    return e && e->failures > 0 && now >= e->window_start && now < e->window_start + window;
}

int rk_throttle_refused(const rk_throttle_entry *e, int64_t now, uint32_t limit,
                        int64_t window, int64_t *retry_after)
{
    if (limit == 0 || !live(e, now, window) || e->failures < limit) {
        return 0;
    }
    *retry_after = e->window_start + window - now;
    if (*retry_after < 1) {
        *retry_after = 1;
    }
    return 1;
}

void rk_throttle_fail(rk_throttle_entry *e, int64_t now, int64_t window)
{
    if (!live(e, now, window)) {
        memset(e, 0, sizeof(*e));
        e->window_start = now;
    }
    if (e->failures < UINT32_MAX) {
        e->failures++;
    }
}

uint32_t rk_throttle_delay_ms(const rk_throttle_entry *e, uint32_t limit)
{
    uint32_t free_tries = limit / 2, over;

    if (limit == 0 || !e || e->failures <= free_tries) {
        return 0;
    }
    over = e->failures - free_tries;
    return over >= RK_DELAY_MAX_MS / RK_DELAY_STEP_MS ? RK_DELAY_MAX_MS : over * RK_DELAY_STEP_MS;
}

unsigned rk_throttle_waiters_max(int max_workers)
{
    int n = max_workers / 4;

    return n < 1 ? 1u : n > RK_THROTTLE_WAITERS_MAX ? RK_THROTTLE_WAITERS_MAX : (unsigned)n;
}

int rk_throttle_waiter_take(rk_throttle_waiters *w, unsigned n, int64_t now_ms,
                            uint32_t delay_ms)
{
    unsigned i;

    if (n > RK_THROTTLE_WAITERS_MAX) {
        n = RK_THROTTLE_WAITERS_MAX;
    }
    for (i = 0; i < n; i++) {
        /* a slot further in the future than any delay: a clock set back; free it */
        if (w->until_ms[i] <= now_ms || w->until_ms[i] > now_ms + RK_DELAY_MAX_MS) {
            w->until_ms[i] = now_ms + delay_ms;
            return 1;
        }
    }
    return 0;
}
