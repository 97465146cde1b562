/* rk_revshare.c: the change counters shared by the children (rk_revshare.h). */
#include <string.h>

#include "rk_revshare.h"

#define EPOCH_WORDS (RK_REVSHARE_EPOCH / 8)

size_t rk_revshare_size(size_t n)
{
    return sizeof(rk_revshare) + n * sizeof(rk_revshare_slot);
}

void rk_revshare_init(rk_revshare *t, size_t n)
{
    memset(t, 0, rk_revshare_size(n));
    t->nslots = (uint32_t)n;
    t->gen = 1;              /* a slot never written (gen 0) is never good */
}

uint64_t rk_revshare_gen(const rk_revshare *t)
{
    return __atomic_load_n(&t->gen, __ATOMIC_ACQUIRE);
}

void rk_revshare_bump(rk_revshare *t)
{
    __atomic_fetch_add(&t->gen, 1, __ATOMIC_SEQ_CST);
}

static uint64_t ld(const uint64_t *w)
{
    return __atomic_load_n(w, __ATOMIC_RELAXED);
}

static void st(uint64_t *w, uint64_t v)
{
    __atomic_store_n(w, v, __ATOMIC_RELAXED);
}

/* Slot I's value when it is younger than MAX_AGE at NOW and, unless ANY_GEN, of the
 * table's generation (rk_revshare_get, rk_revshare_get_recent). */
static int get(const rk_revshare *t, uint32_t i, int64_t now, int64_t max_age, int any_gen,
               uint64_t *data, uint64_t *auth, char *epoch, size_t n)
{
    const rk_revshare_slot *s;
    uint64_t words[EPOCH_WORDS], gen, d, a;
    int64_t at;
    uint32_t seq;
    int tries, k;

    if (!t || i >= t->nslots || n < RK_REVSHARE_EPOCH || max_age <= 0) {
        return 0;
    }
    s = &t->slot[i];
    for (tries = 0; tries < 4; tries++) {
        seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
        if (seq & 1) {
            return 0;        /* a writer at work: ask the database */
        }
        gen = ld(&s->gen);
        at = (int64_t)ld((const uint64_t *)&s->read_at);
        d = ld(&s->data);
        a = ld(&s->auth);
        for (k = 0; k < EPOCH_WORDS; k++) {
            words[k] = ld(&s->epoch[k]);
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq) {
            continue;        /* moved while copied */
        }
        if ((!any_gen && gen != rk_revshare_gen(t)) || now - at >= max_age || now < at) {
            return 0;
        }
        memcpy(epoch, words, RK_REVSHARE_EPOCH);
        epoch[RK_REVSHARE_EPOCH - 1] = '\0';
        *data = d;
        *auth = a;
        return 1;
    }
    return 0;
}

int rk_revshare_get(const rk_revshare *t, uint32_t i, int64_t now, int64_t max_age,
                    uint64_t *data, uint64_t *auth, char *epoch, size_t n)
{
    return get(t, i, now, max_age, 0, data, auth, epoch, n);
}

int rk_revshare_get_recent(const rk_revshare *t, uint32_t i, int64_t now, int64_t max_age,
                           uint64_t *data, uint64_t *auth, char *epoch, size_t n)
{
    return get(t, i, now, max_age, 1, data, auth, epoch, n);
}

/* Is the value (GEN, READ_AT, DATA, AUTH, EPOCH) more recent than slot S's (held by
 * the caller)?  A value of a later generation stays (ours was read before a commit it
 * has seen); one of an earlier generation, or of another database (epoch), goes;
 * within one generation and epoch, the later read, unless its counters are lower. */
static int newer(const rk_revshare_slot *s, uint64_t gen, int64_t read_at, uint64_t data,
                 uint64_t auth, const uint64_t *words)
{
    uint64_t sgen = ld(&s->gen);
    int k;

    if (sgen != gen) {
        return sgen < gen;
    }
    for (k = 0; k < EPOCH_WORDS; k++) {
        if (ld(&s->epoch[k]) != words[k]) {
            return 1;
        }
    }
    return read_at >= (int64_t)ld((const uint64_t *)&s->read_at)
           && data >= ld(&s->data) && auth >= ld(&s->auth);
}

int rk_revshare_put(rk_revshare *t, uint32_t i, uint64_t gen, int64_t read_at,
                    uint64_t data, uint64_t auth, const char *epoch)
{
    rk_revshare_slot *s;
    uint64_t words[EPOCH_WORDS];
    uint32_t seq;
    size_t len;
    int k, kept = 0;

    if (!t || i >= t->nslots || !epoch || (len = strlen(epoch)) >= RK_REVSHARE_EPOCH) {
        return 0;
    }
    memset(words, 0, sizeof(words));
    memcpy(words, epoch, len);
    s = &t->slot[i];
    seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
    if ((seq & 1)
        || !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
        return 0;            /* another writer: its value will do */
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (newer(s, gen, read_at, data, auth, words)) {
        st(&s->gen, gen);
        st((uint64_t *)&s->read_at, (uint64_t)read_at);
        st(&s->data, data);
        st(&s->auth, auth);
        for (k = 0; k < EPOCH_WORDS; k++) {
            st(&s->epoch[k], words[k]);
        }
        kept = 1;
    }
    __atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
    return kept;
}
