/* rk_idem.c: safe retries.  See rk_idem.h. */
#include <stdio.h>
#include <string.h>

#include "rk_idem.h"
#include "rk_token.h"

int rk_idem_key_valid(const char *value, size_t len)
{
    size_t i;

    if (!value || len == 0 || len > RK_IDEM_KEY_MAX) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)value[i];

        if (c < 0x21 || c > 0x7E) {
            return 0;
        }
    }
    return 1;
}

/* LEN as "<decimal>:" into CTX, then the LEN bytes of P. */
static void piece(rk_sha256_ctx *ctx, const void *p, size_t len)
{
    char n[32];
    int k = snprintf(n, sizeof(n), "%zu:", len);

    rk_sha256_update(ctx, n, (size_t)k);
    if (len) {
        rk_sha256_update(ctx, p, len);
    }
}

void rk_idem_fingerprint(const char *method, const char *path, const void *body, size_t len,
                         char out[RK_IDEM_HASH_HEX + 1])
{
    rk_sha256_ctx ctx;

    rk_sha256_init(&ctx);
    rk_sha256_update(&ctx, "rk-idem-1\n", 10);
    piece(&ctx, method ? method : "", method ? strlen(method) : 0);
    piece(&ctx, path ? path : "", path ? strlen(path) : 0);
    piece(&ctx, body, body ? len : 0);
    rk_sha256_final_hex(&ctx, out);
}

int rk_idem_storable(int status)
{
    return status >= 200 && status <= 499 && status != 429;
}

int rk_idem_live(long long created, long long now)
{
    return now - created < RK_IDEM_TTL;
}

rk_idem_verdict rk_idem_check(const char *stored_hash, long long created, long long now,
                              const char *hash)
{
    if (!stored_hash || !rk_idem_live(created, now)) {
        return RK_IDEM_NEW;
    }
    return strcmp(stored_hash, hash) == 0 ? RK_IDEM_REPLAY : RK_IDEM_REUSED;
}
