/* rk_stats.h: the figures each child process publishes for server-status, in a table
 * shared by the children (anonymous shared memory mapped by the parent before it
 * forks).  Pure C, no httpd header.
 *
 * Each child claims a slot with its pid (compare-and-swap, so two children starting
 * at once never share one) and writes only its own slot; the status page, served by
 * any child, reads every slot.  Counters are updated with relaxed atomics: a reader
 * may see one counter a few updates ahead of another, never a torn value.  A slot
 * whose child died without releasing it (a crash) is taken back when a new child
 * finds no free slot, and is not shown. */
#ifndef RK_STATS_H
#define RK_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int32_t pid;                    /* 0: free */
    uint32_t pad;
    uint64_t answer_entries, answer_bytes, answer_hits, answer_misses;
    uint64_t token_entries, token_hits, token_misses;
    uint64_t commit_groups;         /* transactions of grouped lane writes */
    uint64_t commit_lanes;          /* lane writes in them */
    uint64_t streams;               /* event streams open now */
    uint64_t polls;                 /* long polls waiting now */
    uint64_t revision;              /* the data revision last read from the database */
    uint64_t revision_reads;        /* requests that read the change counters */
    uint64_t revision_shared;       /* requests that took them from the shared table */
} rk_stats_child;

typedef struct {
    uint32_t nslots;
    uint32_t pad;
    rk_stats_child slot[];
} rk_stats_table;

/* Bytes for a table of N slots; then rk_stats_init on that memory (zeroed). */
size_t rk_stats_size(size_t n);
void rk_stats_init(rk_stats_table *t, size_t n);

/* A slot for process PID: a free one, else one whose process ALIVE says is gone
 * (ALIVE(pid) 0).  The slot's figures are reset.  NULL when every slot is taken. */
rk_stats_child *rk_stats_claim(rk_stats_table *t, int32_t pid, int (*alive)(int32_t pid));
/* Give the slot back (only if PID still holds it). */
void rk_stats_release(rk_stats_child *c, int32_t pid);

void rk_stats_add(uint64_t *field, int64_t delta);
void rk_stats_set(uint64_t *field, uint64_t value);
uint64_t rk_stats_get(const uint64_t *field);

/* Write the section of server-status: for every slot held by a live process (ALIVE
 * NULL: every held slot), in slot order, then the totals.  SHORT 1: the "?auto" form,
 * lines "Key: value" (totals) and one "RankingChild: pid=... ..." line per child;
 * else an HTML heading and table.  Text goes out through EMIT (NUL-terminated
 * pieces).  Returns the number of children shown. */
typedef void (*rk_stats_emit)(void *ctx, const char *text);
int rk_stats_write(const rk_stats_table *t, int short_form, int (*alive)(int32_t pid),
                   rk_stats_emit emit, void *ctx);

#endif
