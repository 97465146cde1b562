/* rk_stats.c: the children's figures for server-status (rk_stats.h). */
#include <stdio.h>
#include <string.h>

#include "rk_stats.h"

/* The mean size of a group of lane commits, 0 without any group. */
static double mean(uint64_t lanes, uint64_t groups)
{
    return groups ? (double)lanes / (double)groups : 0.0;
}

/* The figures, in the order they are shown: the name of the total in the "?auto"
 * form, the key on a child's line, the column heading, where it is in a slot, and
 * whether the total is a sum (0: the largest, for the revision). */
static const struct {
    const char *total, *key, *heading;
    size_t offset;
    int sum;
} fields[] = {
    { "RankingAnswerEntries", "answers", "answers", offsetof(rk_stats_child, answer_entries), 1 },
    { "RankingAnswerBytes", "answer_bytes", "answer bytes", offsetof(rk_stats_child, answer_bytes), 1 },
    { "RankingAnswerHits", "answer_hits", "hits", offsetof(rk_stats_child, answer_hits), 1 },
    { "RankingAnswerMisses", "answer_misses", "misses", offsetof(rk_stats_child, answer_misses), 1 },
    { "RankingTokenEntries", "tokens", "tokens", offsetof(rk_stats_child, token_entries), 1 },
    { "RankingTokenHits", "token_hits", "token hits", offsetof(rk_stats_child, token_hits), 1 },
    { "RankingTokenMisses", "token_misses", "token misses", offsetof(rk_stats_child, token_misses), 1 },
    { "RankingCommitGroups", "commit_groups", "lane commits", offsetof(rk_stats_child, commit_groups), 1 },
    { "RankingCommitLanes", "commit_lanes", "lanes committed", offsetof(rk_stats_child, commit_lanes), 1 },
    { "RankingStreams", "streams", "event streams", offsetof(rk_stats_child, streams), 1 },
    { "RankingPolls", "polls", "long polls", offsetof(rk_stats_child, polls), 1 },
    { "RankingRevision", "revision", "data revision", offsetof(rk_stats_child, revision), 0 },
    { "RankingRevisionReads", "revision_reads", "counters read", offsetof(rk_stats_child, revision_reads), 1 },
    { "RankingRevisionShared", "revision_shared", "counters shared", offsetof(rk_stats_child, revision_shared), 1 },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))
#define COMMIT_GROUPS 7     /* indices in fields */
#define COMMIT_LANES 8

size_t rk_stats_size(size_t n)
{
    return sizeof(rk_stats_table) + n * sizeof(rk_stats_child);
}

void rk_stats_init(rk_stats_table *t, size_t n)
{
    memset(t, 0, rk_stats_size(n));
    t->nslots = (uint32_t)n;
}

void rk_stats_add(uint64_t *field, int64_t delta)
{
    __atomic_fetch_add(field, (uint64_t)delta, __ATOMIC_RELAXED);
}

void rk_stats_set(uint64_t *field, uint64_t value)
{
    __atomic_store_n(field, value, __ATOMIC_RELAXED);
}

uint64_t rk_stats_get(const uint64_t *field)
{
    return __atomic_load_n(field, __ATOMIC_RELAXED);
}

static void reset(rk_stats_child *c)
{
    size_t i;

    for (i = 0; i < NFIELDS; i++) {
        rk_stats_set((uint64_t *)((char *)c + fields[i].offset), 0);
    }
}

rk_stats_child *rk_stats_claim(rk_stats_table *t, int32_t pid, int (*alive)(int32_t pid))
{
    uint32_t i;
    int pass;

    /* first a free slot; then one of a process that is gone */
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < t->nslots; i++) {
            rk_stats_child *c = &t->slot[i];
            int32_t held = __atomic_load_n(&c->pid, __ATOMIC_ACQUIRE);

            if (pass == 0 ? held != 0 : (held == 0 || !alive || alive(held))) {
                continue;
            }
            if (__atomic_compare_exchange_n(&c->pid, &held, pid, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                reset(c);
                return c;
            }
        }
    }
    return NULL;
}

void rk_stats_release(rk_stats_child *c, int32_t pid)
{
    int32_t held = pid;

    if (c) {
        __atomic_compare_exchange_n(&c->pid, &held, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
}

static uint64_t field_of(const rk_stats_child *c, size_t f)
{
    return rk_stats_get((const uint64_t *)((const char *)c + fields[f].offset));
}

int rk_stats_write(const rk_stats_table *t, int short_form, int (*alive)(int32_t pid),
                   rk_stats_emit emit, void *ctx)
{
    uint64_t total[NFIELDS];
    char buf[64];
    uint32_t i;
    size_t f;
    int shown = 0;

    memset(total, 0, sizeof(total));
    if (!short_form) {
        emit(ctx, "<hr /><h2>mod_ranking</h2>\n<table border=\"0\"><tr><th>child pid</th>");
        for (f = 0; f < NFIELDS; f++) {
            emit(ctx, "<th>");
            emit(ctx, fields[f].heading);
            emit(ctx, "</th>");
        }
        emit(ctx, "<th>mean group</th></tr>\n");
    }
    for (i = 0; t && i < t->nslots; i++) {
        const rk_stats_child *c = &t->slot[i];
        int32_t pid = __atomic_load_n(&c->pid, __ATOMIC_ACQUIRE);

        if (pid == 0 || (alive && !alive(pid))) {
            continue;
        }
        shown++;
        snprintf(buf, sizeof(buf), short_form ? "RankingChild: pid=%ld" : "<tr><td>%ld</td>",
                 (long)pid);
        emit(ctx, buf);
        for (f = 0; f < NFIELDS; f++) {
            uint64_t v = field_of(c, f);

            total[f] = fields[f].sum ? total[f] + v : (v > total[f] ? v : total[f]);
            if (short_form) {
                snprintf(buf, sizeof(buf), " %s=%llu", fields[f].key, (unsigned long long)v);
            }
            else {
                snprintf(buf, sizeof(buf), "<td>%llu</td>", (unsigned long long)v);
            }
            emit(ctx, buf);
        }
        snprintf(buf, sizeof(buf), short_form ? " commit_mean=%.2f\n" : "<td>%.2f</td></tr>\n",
                 mean(field_of(c, COMMIT_LANES), field_of(c, COMMIT_GROUPS)));
        emit(ctx, buf);
    }
    if (short_form) {
        snprintf(buf, sizeof(buf), "RankingChildren: %d\n", shown);
        emit(ctx, buf);
        for (f = 0; f < NFIELDS; f++) {
            snprintf(buf, sizeof(buf), "%s: %llu\n", fields[f].total, (unsigned long long)total[f]);
            emit(ctx, buf);
        }
        snprintf(buf, sizeof(buf), "RankingCommitMeanGroup: %.2f\n",
                 mean(total[COMMIT_LANES], total[COMMIT_GROUPS]));
        emit(ctx, buf);
    }
    else {
        emit(ctx, "<tr><td>all</td>");
        for (f = 0; f < NFIELDS; f++) {
            snprintf(buf, sizeof(buf), "<td>%llu</td>", (unsigned long long)total[f]);
            emit(ctx, buf);
        }
        snprintf(buf, sizeof(buf), "<td>%.2f</td></tr>\n</table>\n",
                 mean(total[COMMIT_LANES], total[COMMIT_GROUPS]));
        emit(ctx, buf);
    }
    return shown;
}
