/* rk_leaderboard_int.h: what the files of the leaderboard share (rk_leaderboard.c: ranking;
 * rk_leaderboard_json.c: the bodies; rk_leaderboard_index.c: sorting and lookups by id).
 * Not for any other file: the interface is rk_leaderboard.h. */
#ifndef RK_LEADERBOARD_INT_H
#define RK_LEADERBOARD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "rk_leaderboard.h"
#include "rk_score.h"

typedef uint32_t idx_t;     /* a spot, WOD or cell index (inputs are far smaller) */
#define NO_IDX UINT32_MAX

typedef struct {
    const char *id, *name, *division;
    long long bib;
    int has_bib;
    idx_t pos;          /* position in the base order */
    idx_t div;          /* index in divs */
    int64_t total;      /* overall points */
    int64_t rank;       /* overall place, >= 1 */
} lb_spot;

typedef struct {
    const char *id, *scoring_name;
    rk_scoring scoring;
    int64_t cap;        /* seconds, 0 = none */
} lb_wod;

/* One spot in one WOD where it has at least one lane: the lane shown and its result.
 * 64 bytes; what an overall entry writes (rank, score) in its first 16.  A short score
 * is kept in the cell too (STEXT): the bodies write 24,000 scores in rank order, and
 * reading each from the input's rows, in lane order, was a cache miss apiece. */
#define LB_STEXT 8
typedef struct {
    int32_t rank;       /* 0 = no place */
    uint8_t skind;      /* rk_score_kind of the score; NONE: none or unreadable */
    uint8_t tkind;      /* rk_score_kind of the tiebreak; NONE: none or unreadable */
    uint8_t slen;       /* 1..LB_STEXT: SCORE is STEXT's bytes, printable ASCII that
                           JSON writes as they are; 0: write SCORE */
    char stext[LB_STEXT + 1];
    int64_t sv, tv;     /* the parsed score's and tiebreak's values */
    const char *score, *tiebreak, *heat_id, *lane_id;
} lb_cell;

typedef struct {
    const char *name;   /* NULL: the group of spots without a division */
    idx_t start, count;
} lb_div;

/* Items of an array by id: IDS points at the id of item 0, STRIDE bytes between two
 * items' ids (the WODs and the spots keep their id at the same place). */
typedef struct {
    const char *const *ids;
    size_t stride;
} by_id_ctx;

/* An open-addressing hash table of item indices by id (exact bytes, as strcmp): every
 * lane looks up its WOD and its spot, and a binary search over strings was most of
 * the compute time of a large leaderboard.  The first item of an id wins. */
typedef struct {
    by_id_ctx items;
    idx_t *slots;       /* item index, or NO_IDX for an empty slot */
    uint32_t *hashes;   /* [item]: the hash of its id */
    size_t mask;
} id_table;

struct rk_leaderboard {
    const char *competition_id;
    int chart;                  /* 1: chart100, 0: places */
    long long advance;          /* the cut line (advancing), 0: none */
    size_t nspots, nwods, ndivs, ncells;
    lb_spot *spots;
    lb_wod *wods;
    id_table wod_by_id;         /* WOD indices by id */
    lb_div *divs;               /* strcmp order, the no-division group last */
    lb_cell *cells;
    idx_t *cell_of;             /* [w * nspots + s]: the cell, or NO_IDX (no lane) */
    idx_t *placed;              /* [w * ndivs + d]: spots of division d with a place in w */
    idx_t *order;               /* [w * nspots + k]: WOD w's entry order; [nwods * nspots
                                   + k]: overall; [(nwods + 1) * nspots + k]: base order */
};

typedef int (*cmp_fn)(const void *ctx, idx_t a, idx_t b);

/* rk_leaderboard_index.c */
void rk_leaderboard_msort(idx_t *a, idx_t *tmp, size_t n, cmp_fn cmp, const void *ctx);
size_t rk_leaderboard_nonzero(size_t n);
int rk_leaderboard_cmp_i64(int64_t a, int64_t b);
int rk_leaderboard_parse_int(const char *s, long long *v);
int rk_leaderboard_id_cmp(const char *a, const char *b);
int rk_leaderboard_nullable_strcmp(const char *a, const char *b);
idx_t rk_leaderboard_table_find(const id_table *t, const char *id);
int rk_leaderboard_table_build(id_table *t, const char *const *ids, size_t stride, size_t n);
void rk_leaderboard_table_free(id_table *t);

/* A spot's cell in WOD W (NULL: no lane), its place (0: none); inline, as the bodies
 * and the ranking ask them for every cell, several times */
static inline const lb_cell *rk_leaderboard_cell_at(const rk_leaderboard *lb, size_t w, size_t s)
{
    idx_t c = lb->cell_of[w * lb->nspots + s];

    return c == NO_IDX ? NULL : &lb->cells[c];
}

static inline int32_t rk_leaderboard_rank_at(const rk_leaderboard *lb, size_t w, size_t s)
{
    const lb_cell *c = rk_leaderboard_cell_at(lb, w, s);

    return c ? c->rank : 0;
}

/* rk_leaderboard.c: a spot's points in WOD W */
int64_t rk_leaderboard_points_at(const rk_leaderboard *lb, size_t w, size_t s);

#endif
