/* rk_leaderboard_index.c: the leaderboard's sorting, comparisons and lookups by id (see
 * rk_leaderboard.c for the layout). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rk_leaderboard_int.h"
#include "rk_mem.h"

/* ------------------------------------------------------------------ helpers */


/* Stable merge sort of N indices, TMP of the same size. */
void rk_leaderboard_msort(idx_t *a, idx_t *tmp, size_t n, cmp_fn cmp, const void *ctx)
{
    size_t half = n / 2, i = 0, j = half, k = 0;

    if (n < 2) {
        return;
    }
    rk_leaderboard_msort(a, tmp, half, cmp, ctx);
    rk_leaderboard_msort(a + half, tmp, n - half, cmp, ctx);
    if (cmp(ctx, a[half - 1], a[half]) <= 0) {
        return;   /* already in order: sorted input costs O(n) */
    }
    while (i < half && j < n) {
        tmp[k++] = cmp(ctx, a[j], a[i]) < 0 ? a[j++] : a[i++];
    }
    while (i < half) {
        tmp[k++] = a[i++];
    }
    /* what is left of the right half is already in place */
    memcpy(a, tmp, k * sizeof(*a));
}

/* An allocation size of N items, at least one: every array exists, even empty, so
 * that &array[0] is always a valid address. */
size_t rk_leaderboard_nonzero(size_t n)
{
    return n ? n : 1;
}

int rk_leaderboard_cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* An integer column as rk_json shows one (RK_F_INT): the whole string, in range. */
int rk_leaderboard_parse_int(const char *s, long long *v)
{
    char *end;

    if (!s) {
        return 0;
    }
    errno = 0;
    *v = strtoll(s, &end, 10);
    return !errno && end != s && *end == '\0';
}

/* Compare decimal ids by value: leading zeros skipped, then the longer is larger;
 * strcmp breaks what is left (an id is digits, but this stays a total order on any
 * string). */
int rk_leaderboard_id_cmp(const char *a, const char *b)
{
    const char *x = a, *y = b;
    size_t lx, ly;
    int c;

    while (*x == '0' && x[1]) {
        x++;
    }
    while (*y == '0' && y[1]) {
        y++;
    }
    lx = strlen(x);
    ly = strlen(y);
    if (lx != ly) {
        return lx < ly ? -1 : 1;
    }
    if ((c = strcmp(x, y)) != 0) {
        return c;
    }
    return strcmp(a, b);
}

int rk_leaderboard_nullable_strcmp(const char *a, const char *b)   /* NULL after any string */
{
    if (!a || !b) {
        return (a == NULL) - (b == NULL);
    }
    return strcmp(a, b);
}

/* ------------------------------------------------------------------ lookups by id */



static const char *item_id(const by_id_ctx *c, size_t i)
{
    const char *id = *(const char *const *)(const void *)((const char *)c->ids + i * c->stride);

    return id ? id : "";
}



static uint32_t id_hash(const char *s)   /* FNV-1a */
{
    uint32_t h = 2166136261u;

    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

idx_t rk_leaderboard_table_find(const id_table *t, const char *id)
{
    uint32_t h;
    size_t j;

    if (!id) {
        return NO_IDX;
    }
    h = id_hash(id);
    for (j = h & t->mask; t->slots[j] != NO_IDX; j = (j + 1) & t->mask) {
        idx_t i = t->slots[j];

        if (t->hashes[i] == h && strcmp(item_id(&t->items, i), id) == 0) {
            return i;
        }
    }
    return NO_IDX;
}

/* Fill T with the N items of ITEMS (a load factor of at most 1/2).  0, or -1 when
 * out of memory. */
int rk_leaderboard_table_build(id_table *t, const char *const *ids, size_t stride, size_t n)
{
    size_t size = 4, i;

    t->items.ids = ids;
    t->items.stride = stride;
    while (size < 2 * n) {
        size *= 2;
    }
    t->mask = size - 1;
    t->slots = rk_mem_alloc(size * sizeof(*t->slots));
    t->hashes = rk_mem_alloc(rk_leaderboard_nonzero(n) * sizeof(*t->hashes));
    if (!t->slots || !t->hashes) {
        return -1;
    }
    memset(t->slots, 0xff, size * sizeof(*t->slots));   /* NO_IDX everywhere */
    for (i = 0; i < n; i++) {
        const char *id = item_id(&t->items, i);
        size_t j;

        t->hashes[i] = id_hash(id);
        if (rk_leaderboard_table_find(t, id) != NO_IDX) {
            continue;   /* a second item with that id: never found */
        }
        j = t->hashes[i] & t->mask;
        while (t->slots[j] != NO_IDX) {
            j = (j + 1) & t->mask;
        }
        t->slots[j] = (idx_t)i;
    }
    return 0;
}

void rk_leaderboard_table_free(id_table *t)
{
    rk_mem_free(t->slots);
    rk_mem_free(t->hashes);
}
