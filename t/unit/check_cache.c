/* check_cache.c: the bounded, revision-keyed cache (rk_cache.c). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* memfd_create's flags, seen as rk_cache.c sees them */
#endif
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdint.h>

#include "rk_cache.h"
#include "rk_mem.h"

START_TEST(test_get_put_and_revisions)
{
    rk_cache *c = rk_cache_create(1 << 20, 100);
    size_t len = 0;
    const char *v;

    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_null(rk_cache_get(c, "k", 1, &len));
    ck_assert_int_eq(rk_cache_put(c, "k", 1, "hello", 5), 0);
    v = rk_cache_get(c, "k", 1, &len);
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(len, 5);
    ck_assert_int_eq(memcmp(v, "hello", 5), 0);
    /* another revision: a miss, and the stale entry is gone */
    ck_assert_ptr_null(rk_cache_get(c, "k", 2, &len));
    ck_assert_uint_eq(rk_cache_entries(c), 0);
    ck_assert_uint_eq(rk_cache_bytes(c), 0);
    /* replacing a key keeps one entry */
    ck_assert_int_eq(rk_cache_put(c, "k", 3, "a", 1), 0);
    ck_assert_int_eq(rk_cache_put(c, "k", 3, "bb", 2), 0);
    ck_assert_uint_eq(rk_cache_entries(c), 1);
    v = rk_cache_get(c, "k", 3, &len);
    ck_assert_uint_eq(len, 2);
    ck_assert_int_eq(memcmp(v, "bb", 2), 0);
    /* empty values and binary values */
    ck_assert_int_eq(rk_cache_put(c, "empty", 3, "", 0), 0);
    ck_assert_ptr_nonnull(rk_cache_get(c, "empty", 3, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(rk_cache_put(c, "bin", 3, "a\0b", 3), 0);
    v = rk_cache_get(c, "bin", 3, &len);
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(memcmp(v, "a\0b", 3), 0);
    rk_cache_destroy(c);
}
END_TEST

START_TEST(test_bounds)
{
    rk_cache *c = rk_cache_create(100, 3);
    char key[16], big[200];
    size_t len;
    int i;

    memset(big, 'x', sizeof(big));
    /* a value larger than the whole cache is not stored */
    ck_assert_int_eq(rk_cache_put(c, "big", 1, big, sizeof(big)), -1);
    ck_assert_uint_eq(rk_cache_entries(c), 0);
    /* the entry bound: the fourth put empties the cache first */
    for (i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "k%d", i);
        ck_assert_int_eq(rk_cache_put(c, key, 1, "v", 1), 0);
    }
    ck_assert_uint_eq(rk_cache_entries(c), 1);
    ck_assert_ptr_nonnull(rk_cache_get(c, "k3", 1, &len));
    ck_assert_ptr_null(rk_cache_get(c, "k0", 1, &len));
    /* the byte bound (keys count too) */
    ck_assert_int_eq(rk_cache_put(c, "a", 1, big, 60), 0);
    ck_assert_int_eq(rk_cache_put(c, "b", 1, big, 60), 0);
    ck_assert(rk_cache_bytes(c) <= 100);
    ck_assert_ptr_nonnull(rk_cache_get(c, "b", 1, &len));
    ck_assert_uint_eq(len, 60);
    rk_cache_destroy(c);
    /* a cache of no entries stores nothing */
    c = rk_cache_create(100, 0);
    ck_assert_int_eq(rk_cache_put(c, "k", 1, "v", 1), -1);
    rk_cache_destroy(c);
    rk_cache_destroy(NULL);
}
END_TEST

START_TEST(test_many_keys)
{
    rk_cache *c = rk_cache_create(1 << 24, 100000);
    char key[32], val[32];
    size_t len;
    const char *v;
    int i;

    for (i = 0; i < 20000; i++) {
        snprintf(key, sizeof(key), "key-%d", i);
        snprintf(val, sizeof(val), "value-%d", i);
        ck_assert_int_eq(rk_cache_put(c, key, (uint64_t)i, val, strlen(val)), 0);
    }
    ck_assert_uint_eq(rk_cache_entries(c), 20000);
    for (i = 0; i < 20000; i += 997) {
        snprintf(key, sizeof(key), "key-%d", i);
        snprintf(val, sizeof(val), "value-%d", i);
        v = rk_cache_get(c, key, (uint64_t)i, &len);
        ck_assert_ptr_nonnull(v);
        ck_assert_uint_eq(len, strlen(val));
        ck_assert_int_eq(memcmp(v, val, len), 0);
    }
    rk_cache_destroy(c);
}
END_TEST

/* The keys of a busy competition (the bench's 2,000 spots, 2,400 heats, 24,000
 * lanes) spread over the buckets: no bucket holds many more than the mean, whatever
 * the key's length (its last word is partial for most lengths). */
START_TEST(test_keys_spread)
{
    static unsigned count[RK_CACHE_BUCKETS];
    char key[96];
    unsigned i, max = 0, used = 0, n = 0, b;

    memset(count, 0, sizeof(count));
    for (i = 0; i < 24000; i++, n++) {
        snprintf(key, sizeof(key), "c4706ba77c03301a|A_VOIE/100/%u/%u/%u", 300001 + i % 8,
                 400001 + i / 10, i % 10 + 1);
        count[rk_cache_bucket(key)]++;
    }
    for (i = 0; i < 2400; i++, n++) {
        snprintf(key, sizeof(key), "c4706ba77c03301a|B_HEAT/100/%u", 400001 + i);
        count[rk_cache_bucket(key)]++;
    }
    for (i = 0; i < 2000; i++, n++) {
        snprintf(key, sizeof(key), "c4706ba77c03301a|SPOT/%u/%u", 100 + i % 3, 200001 + i);
        count[rk_cache_bucket(key)]++;
    }
    for (i = 0; i < RK_CACHE_BUCKETS; i++) {
        max = count[i] > max ? count[i] : max;
        used += count[i] > 0;
    }
    ck_assert_uint_eq(used, RK_CACHE_BUCKETS);        /* 27 keys a bucket on average */
    ck_assert_uint_lt(max, 3 * n / RK_CACHE_BUCKETS);
    /* every length from none to 3 words and a half: in range, and the same each time;
     * keys that differ in one byte anywhere, or in their length only, differ */
    memset(key, 'k', sizeof(key));
    for (i = 0; i < 29; i++) {
        key[i] = '\0';
        b = rk_cache_bucket(key);
        ck_assert_uint_lt(b, RK_CACHE_BUCKETS);
        ck_assert_uint_eq(b, rk_cache_bucket(key));
        key[i] = 'k';
    }
    used = 0;
    key[28] = '\0';
    b = rk_cache_bucket(key);
    for (i = 0; i < 28; i++) {
        key[i] = 'x';
        used += rk_cache_bucket(key) != b;
        key[i] = 'k';
    }
    ck_assert_uint_ge(used, 26);
}
END_TEST

START_TEST(test_acquired_values_outlive_the_cache)
{
    rk_cache *c = rk_cache_create(1 << 20, 100);
    const char *a, *b, *d;
    size_t len = 0;

    ck_assert_int_eq(rk_cache_put(c, "k", 1, "first", 5), 0);
    a = rk_cache_acquire(c, "k", 1, &len);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(len, 5);
    /* replaced: the old value stays readable for its holder */
    ck_assert_int_eq(rk_cache_put(c, "k", 1, "second", 6), 0);
    ck_assert_int_eq(memcmp(a, "first", 5), 0);
    b = rk_cache_acquire(c, "k", 1, &len);
    ck_assert_int_eq(memcmp(b, "second", 6), 0);
    d = rk_cache_acquire(c, "k", 1, &len);
    ck_assert_ptr_eq(b, d);
    /* dropped by a revision change, then the whole cache destroyed */
    ck_assert_ptr_null(rk_cache_acquire(c, "k", 2, &len));
    rk_cache_destroy(c);
    ck_assert_int_eq(memcmp(b, "second", 6), 0);
    /* each release once; the last frees (ASan/LSan would report a leak or a misuse) */
    rk_cache_release(a);
    rk_cache_release(b);
    rk_cache_release(d);
    rk_cache_release(NULL);
}
END_TEST

/* Values built in place and inserted without a copy; small ones and large ones
 * (which get a mapping of their own) alike; every value freed exactly when its last
 * reference goes (rk_cache_values_alive counts them). */
START_TEST(test_values_built_in_place)
{
    static const size_t sizes[] = { 0, 1, 100, (64u << 10) - 200, 64u << 10, 300000, 1u << 20 };
    rk_cache *c = rk_cache_create(8u << 20, 100);
    size_t base = rk_cache_values_alive(), len = 0, i;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        char key[32];
        char *v;
        const char *got;

        snprintf(key, sizeof(key), "answer/%zu", i);
        v = rk_cache_value_new(key, sizes[i]);
        ck_assert_ptr_nonnull(v);
        ck_assert_uint_eq(rk_cache_values_alive(), base + 1);
        memset(v, 'a' + (int)i, sizes[i]);   /* writable, all of it */
        ck_assert_int_eq(rk_cache_insert(c, 7, v), 0);
        got = rk_cache_acquire(c, key, 7, &len);
        ck_assert_ptr_eq(got, v);             /* the same bytes, not a copy */
        ck_assert_uint_eq(len, sizes[i]);
        rk_cache_release(got);
        rk_cache_release(v);                  /* the builder's reference: the cache keeps it */
        ck_assert_uint_eq(rk_cache_values_alive(), base + 1);
        ck_assert_ptr_null(rk_cache_get(c, key, 8, &len));   /* another revision: dropped */
        ck_assert_uint_eq(rk_cache_values_alive(), base);
    }
    /* a value not inserted is freed by its only release */
    char *v = rk_cache_value_new("never", 500000);
    ck_assert_ptr_nonnull(v);
    v[499999] = 'z';
    rk_cache_release(v);
    ck_assert_uint_eq(rk_cache_values_alive(), base);
    /* a value larger than the whole cache is refused, and stays the builder's */
    rk_cache *small = rk_cache_create(1000, 10);
    v = rk_cache_value_new("big", 2000);
    ck_assert_int_eq(rk_cache_insert(small, 1, v), -1);
    ck_assert_uint_eq(rk_cache_entries(small), 0);
    ck_assert_uint_eq(rk_cache_values_alive(), base + 1);
    rk_cache_release(v);
    /* inserting replaces the key's entry; destroying the cache frees what only it held */
    v = rk_cache_value_new("k", 10);
    ck_assert_int_eq(rk_cache_insert(c, 1, v), 0);
    rk_cache_release(v);
    v = rk_cache_value_new("k", 200000);
    ck_assert_int_eq(rk_cache_insert(c, 2, v), 0);
    ck_assert_uint_eq(rk_cache_bytes(c), 200000 + 2);
    rk_cache_release(v);
    ck_assert_uint_eq(rk_cache_values_alive(), base + 1);
    rk_cache_destroy(small);
    rk_cache_destroy(c);
    ck_assert_uint_eq(rk_cache_values_alive(), base);
}
END_TEST

START_TEST(test_value_meta)
{
    rk_cache *c = rk_cache_create(1 << 20, 16);
    void *v = rk_cache_value_new("k", 3);
    const void *got;
    size_t len = 0;

    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(rk_cache_value_meta(v), 0);
    ck_assert_uint_eq(rk_cache_value_tag(v), 0);
    ck_assert_ptr_null(rk_cache_value_digest(v));
    ck_assert_str_eq(rk_cache_value_key(v), "k");
    {
        void *once = rk_cache_value_new(NULL, 1);   /* only sent, never cached */

        ck_assert_ptr_nonnull(once);
        ck_assert_ptr_null(rk_cache_value_key(once));
        rk_cache_release(once);
    }
    rk_cache_value_set_meta(v, 4000000000u);
    rk_cache_value_set_tag(v, 0x0123456789abcdefULL);
    {
        unsigned char d[RK_CACHE_DIGEST];
        size_t i;

        for (i = 0; i < sizeof(d); i++) {
            d[i] = (unsigned char)(0xf0 + i);
        }
        rk_cache_value_set_digest(v, d);
        d[0] = 0;   /* a copy is kept, not the caller's buffer */
    }
    memcpy(v, "abc", 3);
    ck_assert_int_eq(rk_cache_insert(c, 7, v), 0);
    rk_cache_release(v);
    got = rk_cache_acquire(c, "k", 7, &len);
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(len, 3);
    ck_assert_uint_eq(rk_cache_value_meta(got), 4000000000u);
    ck_assert(rk_cache_value_tag(got) == 0x0123456789abcdefULL);
    ck_assert_ptr_nonnull(rk_cache_value_digest(got));
    ck_assert_uint_eq(rk_cache_value_digest(got)[0], 0xf0);
    ck_assert_uint_eq(rk_cache_value_digest(got)[RK_CACHE_DIGEST - 1], 0xf0 + RK_CACHE_DIGEST - 1);
    rk_cache_release(got);
    /* the content hash: FNV-1a 64 ("a": af63dc4c8601ec8c), the seed counts, every byte counts */
    ck_assert(rk_cache_hash_bytes("a", 1, 0) == 0xaf63dc4c8601ec8cULL);
    ck_assert(rk_cache_hash_bytes("a", 1, 1) != rk_cache_hash_bytes("a", 1, 0));
    ck_assert(rk_cache_hash_bytes("ab", 2, 0) != rk_cache_hash_bytes("ba", 2, 0));
    ck_assert(rk_cache_hash_bytes("ab", 1, 0) == rk_cache_hash_bytes("a", 1, 0));
    rk_cache_destroy(c);
}
END_TEST

/* rk_mem: malloc below RK_MEM_MAP_MIN bytes (with its header), a mapping of its own
 * from there, counted by rk_mem_mapped until freed; aligned as malloc's; calloc zeroed;
 * sizes that overflow refused. */
START_TEST(test_mem)
{
    static const size_t sizes[] = { 0, 1, 100, RK_MEM_MAP_MIN - 17, RK_MEM_MAP_MIN - 16,
                                    RK_MEM_MAP_MIN, 1344000, 3u << 20 };
    size_t base = rk_mem_mapped(), i, j;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t n = sizes[i];
        unsigned char *p = rk_mem_alloc(n), *z = rk_mem_calloc(n, 1);

        ck_assert_ptr_nonnull(p);
        ck_assert_ptr_nonnull(z);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        ck_assert_uint_eq((uintptr_t)z % 16, 0);
        memset(p, 0xab, n);
        /* one assertion for the whole block: Check records every assertion it
         * passes (a write to its pipe under CK_FORK), 3 MiB of them took longer
         * than the test's timeout on a loaded machine */
        for (j = 0; j < n && z[j] == 0; j++) {
        }
        ck_assert_uint_eq(j, n);
        if (RK_MEM_MAPS && n + 16 >= RK_MEM_MAP_MIN) {
            ck_assert_uint_ge(rk_mem_mapped(), base + 2 * (n + 16));
        }
        else {
            ck_assert_uint_eq(rk_mem_mapped(), base);
        }
        rk_mem_free(p);
        rk_mem_free(z);
        ck_assert_uint_eq(rk_mem_mapped(), base);
    }
    {   /* a zeroed array of 16-byte items, mapped: calloc's two arguments */
        uint64_t *a = rk_mem_calloc(100000, 16);

        ck_assert_ptr_nonnull(a);
        ck_assert_uint_eq(a[199999], 0);
        ck_assert_uint_ge(rk_mem_mapped(), base + (RK_MEM_MAPS ? 1600000 : 0));
        rk_mem_free(a);
    }
    ck_assert_ptr_null(rk_mem_calloc(SIZE_MAX / 2, 4));
    ck_assert_ptr_null(rk_mem_alloc(SIZE_MAX - 8));
    rk_mem_free(NULL);
    ck_assert_uint_eq(rk_mem_mapped(), base);
    /* a large cache value is one of these mappings, gone with its last reference */
    {
        void *v = rk_cache_value_new("large", 1u << 20);

        ck_assert_ptr_nonnull(v);
        ck_assert_uint_ge(rk_mem_mapped(), base + (RK_MEM_MAPS ? 1u << 20 : 0));
        rk_cache_release(v);
        ck_assert_uint_eq(rk_mem_mapped(), base);
    }
}
END_TEST

/* How many of the first KEEP bytes of P still hold the pattern a resize must keep; then
 * bytes KEEP to N get it (the bytes a resize gave are the caller's to fill). */
static size_t pattern_kept(unsigned char *p, size_t keep, size_t n)
{
    size_t j, k;

    for (j = 0; j < keep && p[j] == (unsigned char)(j * 7 + 3); j++) {
    }
    for (k = keep; k < n; k++) {
        p[k] = (unsigned char)(k * 7 + 3);
    }
    return j;
}

/* rk_mem_realloc: the first bytes kept through every change of size, across the
 * malloc/mapping line both ways and within mappings (remapped); mapped bytes counted
 * right after each; NULL grows from nothing; an overflowing size refused, the block
 * left as it was. */
START_TEST(test_mem_realloc)
{
    static const size_t sizes[] = { 1, 100, RK_MEM_MAP_MIN - 16, RK_MEM_MAP_MIN, 300000,
                                    1669199, 4000, 2u << 20, 70000, 65536, 10, 0, 5 };
    size_t base = rk_mem_mapped(), i, have = 0;
    unsigned char *p = rk_mem_realloc(NULL, 0);

    ck_assert_ptr_nonnull(p);
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t n = sizes[i], keep = have < n ? have : n;

        p = rk_mem_realloc(p, n);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        /* one assertion per block (see test_mem) */
        ck_assert_uint_eq(pattern_kept(p, keep, n), keep);
        have = n;
        if (RK_MEM_MAPS && n + 16 >= RK_MEM_MAP_MIN) {
            ck_assert_uint_ge(rk_mem_mapped(), base + n + 16);
            ck_assert_uint_lt(rk_mem_mapped(), base + n + 16 + 65536);
        }
        else {
            ck_assert_uint_eq(rk_mem_mapped(), base);
        }
    }
    ck_assert_ptr_null(rk_mem_realloc(p, SIZE_MAX - 8));
    ck_assert_uint_eq(p[4], (unsigned char)(4 * 7 + 3));
    rk_mem_free(p);
    ck_assert_uint_eq(rk_mem_mapped(), base);
}
END_TEST

/* rk_mem_alloc_at / rk_mem_realloc_at: a mapped block's byte HEAD starts a page, and
 * stays so through every resize that keeps it mapped (plain rk_mem_realloc too); a
 * block that becomes a mapping through rk_mem_realloc_at is placed so; the bytes kept
 * and counted as in test_mem_realloc; a HEAD of a page or more refused.  So a large
 * cache value starts a page. */
START_TEST(test_mem_at)
{
    static const size_t sizes[] = { 100, RK_MEM_MAP_MIN, 300000, 1669199, 70000, 4000,
                                    2u << 20, 10 };
    size_t page = (size_t)sysconf(_SC_PAGESIZE), base = rk_mem_mapped(), i, have = 0;
    unsigned char *p = rk_mem_alloc_at(1u << 20, 80);

    ck_assert_ptr_nonnull(p);
    if (RK_MEM_MAPS) {
        ck_assert_uint_eq(((uintptr_t)p + 80) % page, 0);
        ck_assert_uint_ge(rk_mem_mapped(), base + (1u << 20) + 16);
        ck_assert_uint_le(rk_mem_mapped(), base + (1u << 20) + 16 + 2 * page);
    }
    rk_mem_free(p);
    ck_assert_uint_eq(rk_mem_mapped(), base);
    ck_assert_ptr_null(rk_mem_alloc_at(100, page));
    p = rk_mem_alloc_at(10, 80);   /* malloc()ed: placed as malloc places it */
    ck_assert_ptr_nonnull(p);
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t n = sizes[i], keep = have < n ? have : n;

        /* every other step through plain rk_mem_realloc: a mapping keeps its place */
        p = (i % 2 && have + 16 >= RK_MEM_MAP_MIN) ? rk_mem_realloc(p, n) : rk_mem_realloc_at(p, n, 80);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        /* one assertion per block (see test_mem) */
        ck_assert_uint_eq(pattern_kept(p, keep, n), keep);
        have = n;
        if (RK_MEM_MAPS && n + 16 >= RK_MEM_MAP_MIN) {
            ck_assert_uint_eq(((uintptr_t)p + 80) % page, 0);
            ck_assert_uint_ge(rk_mem_mapped(), base + n + 16);
            ck_assert_uint_le(rk_mem_mapped(), base + n + 16 + 2 * page);
        }
        else {
            ck_assert_uint_eq(rk_mem_mapped(), base);
        }
    }
    ck_assert_ptr_null(rk_mem_realloc_at(p, 100, page));
    rk_mem_free(p);
    ck_assert_uint_eq(rk_mem_mapped(), base);
    {   /* a large cache value starts a page, made larger and cut as it is built */
        char *v = rk_cache_value_new("large", 1u << 20);

        ck_assert_ptr_nonnull(v);
        if (RK_MEM_MAPS) {
            ck_assert_uint_eq((uintptr_t)v % page, 0);
        }
        memset(v, 'x', 1u << 20);
        v = rk_cache_value_resize(v, 3u << 20);
        ck_assert_ptr_nonnull(v);
        v = rk_cache_value_resize(v, 300000);
        ck_assert_ptr_nonnull(v);
        if (RK_MEM_MAPS) {
            ck_assert_uint_eq((uintptr_t)v % page, 0);
        }
        ck_assert_int_eq(v[299999], 'x');
        ck_assert_str_eq(rk_cache_value_key(v), "large");
        rk_cache_release(v);
        ck_assert_uint_eq(rk_mem_mapped(), base);
    }
}
END_TEST

/* rk_cache_value_resize: a value made larger then cut keeps its first bytes and its
 * key, and goes into the cache at its new length; a value without a key too; a size
 * that overflows is refused, the value untouched. */
/* rk_cache_value_file: a sealed memory file with the value's bytes, made once,
 * read at explicit offsets, closed with the value */
START_TEST(test_value_file)
{
    rk_cache *c = rk_cache_create(4u << 20, 10);
    size_t n = 300001, i, len = 0;
    unsigned char *v = rk_cache_value_new("big", n), *back = malloc(n);
    const void *held;
    int fd;
    struct stat st;

    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(v);
    ck_assert_ptr_nonnull(back);
    for (i = 0; i < n; i++) {
        v[i] = (unsigned char)(i * 7 + i / 251);
    }
    ck_assert_int_eq(rk_cache_insert(c, 1, v), 0);
    rk_cache_release(v);   /* the cache's reference only */
    held = rk_cache_acquire(c, "big", 1, &len);
    ck_assert_ptr_eq(held, v);
    fd = rk_cache_value_file(held);
#if !(defined(MFD_CLOEXEC) && defined(MFD_ALLOW_SEALING) && defined(F_ADD_SEALS))
    if (fd < 0) {   /* a system without memfd_create: the caller sends the bytes */
        rk_cache_release(held);
        rk_cache_destroy(c);
        free(back);
        return;
    }
#endif
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(rk_cache_value_file(held), fd);   /* made once */
    ck_assert_int_eq(fstat(fd, &st), 0);
    ck_assert_int_eq(st.st_size, (off_t)n);
    ck_assert_int_eq(pread(fd, back, n, 0), (ssize_t)n);
    ck_assert_int_eq(memcmp(back, v, n), 0);
    ck_assert_int_eq(pread(fd, back, 10, (off_t)n - 10), 10);
    ck_assert_int_eq(memcmp(back, v + n - 10, 10), 0);
    /* sealed: no write, no truncation */
    ck_assert_int_eq(pwrite(fd, "x", 1, 0), -1);
    ck_assert_int_eq(ftruncate(fd, 1), -1);
    /* FD_CLOEXEC: not inherited by a program httpd starts */
    ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    /* dropped from the cache (a new revision): the file lives while the value is held */
    ck_assert_ptr_null(rk_cache_get(c, "big", 2, &len));
    ck_assert_int_eq(pread(fd, back, 1, 0), 1);
    rk_cache_release(held);   /* the last reference: value and file gone */
    errno = 0;
    ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
    ck_assert_int_eq(errno, EBADF);
    rk_cache_destroy(c);
    free(back);
}
END_TEST

START_TEST(test_value_resize)
{
    static const size_t sizes[] = { 10, 70000, 2000000, 1669199, 100, 0, 300000, 50 };
    rk_cache *c = rk_cache_create(8u << 20, 100);
    size_t base = rk_cache_values_alive(), len = 0, i, j, have = 0;
    char *v = rk_cache_value_new("board/1", 0), *n;
    const char *got;

    ck_assert_ptr_nonnull(v);
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t keep = have < sizes[i] ? have : sizes[i];

        v = rk_cache_value_resize(v, sizes[i]);
        ck_assert_ptr_nonnull(v);
        ck_assert_str_eq(rk_cache_value_key(v), "board/1");
        for (j = 0; j < keep && v[j] == (char)('a' + j % 26); j++) {
        }
        ck_assert_uint_eq(j, keep);
        for (j = keep; j < sizes[i]; j++) {
            v[j] = (char)('a' + j % 26);
        }
        have = sizes[i];
        ck_assert_uint_eq(rk_cache_values_alive(), base + 1);
    }
    ck_assert_ptr_null(rk_cache_value_resize(v, SIZE_MAX - 8));
    ck_assert_str_eq(rk_cache_value_key(v), "board/1");
    ck_assert_int_eq(rk_cache_insert(c, 3, v), 0);
    ck_assert_uint_eq(rk_cache_bytes(c), 50 + sizeof("board/1"));
    got = rk_cache_acquire(c, "board/1", 3, &len);
    ck_assert_ptr_eq(got, v);
    ck_assert_uint_eq(len, 50);
    ck_assert_int_eq(memcmp(got, "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx", 50), 0);
    rk_cache_release(got);
    rk_cache_release(v);
    /* no key: only sent */
    v = rk_cache_value_new(NULL, 100);
    ck_assert_ptr_nonnull(v);
    memset(v, 'q', 100);
    n = rk_cache_value_resize(v, 500000);
    ck_assert_ptr_nonnull(n);
    ck_assert_ptr_null(rk_cache_value_key(n));
    ck_assert_int_eq(n[99], 'q');
    n = rk_cache_value_resize(n, 20);
    ck_assert_int_eq(n[19], 'q');
    ck_assert_int_eq(rk_cache_insert(c, 3, n), -1);
    rk_cache_release(n);
    rk_cache_destroy(c);
    ck_assert_uint_eq(rk_cache_values_alive(), base);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rk_cache");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, test_get_put_and_revisions);
    tcase_add_test(tc, test_bounds);
    tcase_add_test(tc, test_many_keys);
    tcase_add_test(tc, test_keys_spread);
    tcase_add_test(tc, test_acquired_values_outlive_the_cache);
    tcase_add_test(tc, test_values_built_in_place);
    tcase_add_test(tc, test_value_meta);
    tcase_add_test(tc, test_mem);
    tcase_add_test(tc, test_mem_realloc);
    tcase_add_test(tc, test_mem_at);
    tcase_add_test(tc, test_value_resize);
    tcase_add_test(tc, test_value_file);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
