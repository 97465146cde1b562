/* rk_token.c: SHA-256, bearer tokens, the Authorization header, bcrypt.
 * See rk_token.h.  APR only, no httpd header. */
#include <string.h>
#include <strings.h>

#include <apr_general.h>
#include <apr_md5.h>       /* apr_password_validate, apr_bcrypt_encode */
#include <apr_strings.h>

#include "rk_token.h"

/* Lower-case hex of the N bytes of IN, NUL-terminated (OUT: 2 N + 1 chars). */
static void hex_lower(const unsigned char *in, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = '\0';
}

/* ---- SipHash-2-4 ---- */

#define ROTL64(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                              \
    do {                                                                      \
        v0 += v1; v1 = ROTL64(v1, 13); v1 ^= v0; v0 = ROTL64(v0, 32);         \
        v2 += v3; v3 = ROTL64(v3, 16); v3 ^= v2;                              \
        v0 += v3; v3 = ROTL64(v3, 21); v3 ^= v0;                              \
        v2 += v1; v1 = ROTL64(v1, 17); v1 ^= v2; v2 = ROTL64(v2, 32);         \
    } while (0)

static apr_uint64_t le64(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    apr_uint64_t v;

    memcpy(&v, p, 8);
    return v;
#else
    return (apr_uint64_t)p[0] | (apr_uint64_t)p[1] << 8 | (apr_uint64_t)p[2] << 16
           | (apr_uint64_t)p[3] << 24 | (apr_uint64_t)p[4] << 32 | (apr_uint64_t)p[5] << 40
           | (apr_uint64_t)p[6] << 48 | (apr_uint64_t)p[7] << 56;
#endif
}

static void put_le64(unsigned char *p, apr_uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

void rk_siphash(const void *data, size_t len, const unsigned char key[16], unsigned char *out,
                size_t outlen)
{
    const unsigned char *in = data, *end = in + (len - len % 8);
    apr_uint64_t k0 = le64(key), k1 = le64(key + 8), m, b = (apr_uint64_t)len << 56;
    apr_uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1;
    apr_uint64_t v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
    size_t left = len % 8;

    if (outlen == 16) {
        v1 ^= 0xee;
    }
    for (; in != end; in += 8) {
        m = le64(in);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    while (left--) {
        b |= (apr_uint64_t)in[left] << (8 * left);
    }
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= outlen == 16 ? 0xee : 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    put_le64(out, v0 ^ v1 ^ v2 ^ v3);
    if (outlen != 16) {
        return;
    }
    v1 ^= 0xdd;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    put_le64(out + 8, v0 ^ v1 ^ v2 ^ v3);
}

void rk_token_cache_key(const char *tok, size_t len, const unsigned char key[16],
                        char out[RK_TOKEN_KEY_HEX + 1])
{
    unsigned char h[RK_TOKEN_KEY_HEX / 2];

    rk_siphash(tok, len, key, h, sizeof(h));
    hex_lower(h, sizeof(h), out);
}

/* ---- SHA-256 (FIPS 180-4) ---- */

static const apr_uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* One round on the state (A..H), K[I] and W[I]: D becomes the next e, H the next a */
#define ROUND(A, B, C, D, E, F, G, H, I) do { \
        apr_uint32_t t1_ = (H) + (ROTR(E, 6) ^ ROTR(E, 11) ^ ROTR(E, 25)) \
                           + ((G) ^ ((E) & ((F) ^ (G)))) + K[I] + w[I]; \
        (D) += t1_; \
        (H) = t1_ + (ROTR(A, 2) ^ ROTR(A, 13) ^ ROTR(A, 22)) + (((A) & (B)) | ((C) & ((A) | (B)))); \
    } while (0)

static void sha256_block(apr_uint32_t h[8], const unsigned char *p)
{
    apr_uint32_t w[64], a, b, c, d, e, f, g, hh;
    int i;

    for (i = 0; i < 16; i++) {
        w[i] = (apr_uint32_t)p[4 * i] << 24 | (apr_uint32_t)p[4 * i + 1] << 16
               | (apr_uint32_t)p[4 * i + 2] << 8 | (apr_uint32_t)p[4 * i + 3];
    }
    for (i = 16; i < 64; i++) {
        apr_uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        apr_uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
    /* eight rounds per turn, the variables renamed instead of moved (a round's new
     * a and e land in its h and d): a lane's ETag hashes four blocks per write */
    for (i = 0; i < 64; i += 8) {
        ROUND(a, b, c, d, e, f, g, hh, i);
        ROUND(hh, a, b, c, d, e, f, g, i + 1);
        ROUND(g, hh, a, b, c, d, e, f, i + 2);
        ROUND(f, g, hh, a, b, c, d, e, i + 3);
        ROUND(e, f, g, hh, a, b, c, d, i + 4);
        ROUND(d, e, f, g, hh, a, b, c, i + 5);
        ROUND(c, d, e, f, g, hh, a, b, i + 6);
        ROUND(b, c, d, e, f, g, hh, a, i + 7);
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void rk_sha256(const void *data, size_t len, unsigned char out[32])
{
    apr_uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    const unsigned char *p = data;
    unsigned char tail[128];
    size_t rest, tlen;
    apr_uint64_t bits = (apr_uint64_t)len * 8;
    int i;

    for (; len >= 64; len -= 64, p += 64) {
        sha256_block(h, p);
    }
    rest = len;
    memset(tail, 0, sizeof(tail));
    if (rest) {
        memcpy(tail, p, rest);
    }
    tail[rest] = 0x80;
    tlen = rest < 56 ? 64 : 128;
    for (i = 0; i < 8; i++) {
        tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
    }
    sha256_block(h, tail);
    if (tlen == 128) {
        sha256_block(h, tail + 64);
    }
    for (i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(h[i] >> 8);
        out[4 * i + 3] = (unsigned char)h[i];
    }
}

void rk_sha256_init(rk_sha256_ctx *ctx)
{
    static const apr_uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

    memcpy(ctx->h, h0, sizeof(h0));
    ctx->total = 0;
    ctx->n = 0;
}

void rk_sha256_update(rk_sha256_ctx *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;

    ctx->total += len;
    if (ctx->n) {
        size_t take = 64 - ctx->n < len ? 64 - ctx->n : len;

        memcpy(ctx->buf + ctx->n, p, take);
        ctx->n += take;
        p += take;
        len -= take;
        if (ctx->n < 64) {
            return;
        }
        sha256_block(ctx->h, ctx->buf);
        ctx->n = 0;
    }
    for (; len >= 64; len -= 64, p += 64) {
        sha256_block(ctx->h, p);
    }
    if (len) {
        memcpy(ctx->buf, p, len);
        ctx->n = len;
    }
}

void rk_sha256_final(rk_sha256_ctx *ctx, unsigned char out[32])
{
    unsigned char tail[128];
    size_t tlen = ctx->n < 56 ? 64 : 128;
    apr_uint64_t bits = ctx->total * 8;
    int i;

    memset(tail, 0, sizeof(tail));
    memcpy(tail, ctx->buf, ctx->n);
    tail[ctx->n] = 0x80;
    for (i = 0; i < 8; i++) {
        tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
    }
    sha256_block(ctx->h, tail);
    if (tlen == 128) {
        sha256_block(ctx->h, tail + 64);
    }
    for (i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(ctx->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(ctx->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(ctx->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)ctx->h[i];
    }
}

void rk_sha256_final_hex(rk_sha256_ctx *ctx, char out[RK_HASH_HEX + 1])
{
    unsigned char md[RK_HASH_HEX / 2];

    rk_sha256_final(ctx, md);
    hex_lower(md, sizeof(md), out);
}

void rk_sha256_hex(const void *data, size_t len, char out[RK_HASH_HEX + 1])
{
    unsigned char md[RK_HASH_HEX / 2];

    rk_sha256(data, len, md);
    hex_lower(md, sizeof(md), out);
}

/* ---- tokens ---- */

static const char b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void rk_token_encode(const unsigned char raw[RK_TOKEN_RAW_BYTES], char out[RK_TOKEN_CHARS + 1])
{
    size_t i, o = 0;

    for (i = 0; i + 3 <= RK_TOKEN_RAW_BYTES; i += 3) {
        apr_uint32_t v = (apr_uint32_t)raw[i] << 16 | (apr_uint32_t)raw[i + 1] << 8 | raw[i + 2];
        out[o++] = b64url[v >> 18];
        out[o++] = b64url[(v >> 12) & 63];
        out[o++] = b64url[(v >> 6) & 63];
        out[o++] = b64url[v & 63];
    }
    /* 32 = 3 * 10 + 2: two bytes left, three characters */
    {
        apr_uint32_t v = (apr_uint32_t)raw[i] << 16 | (apr_uint32_t)raw[i + 1] << 8;
        out[o++] = b64url[v >> 18];
        out[o++] = b64url[(v >> 12) & 63];
        out[o++] = b64url[(v >> 6) & 63];
    }
    out[o] = '\0';
}

int rk_token_generate(char out[RK_TOKEN_CHARS + 1])
{
    unsigned char raw[RK_TOKEN_RAW_BYTES];

    if (apr_generate_random_bytes(raw, sizeof(raw)) != APR_SUCCESS) {
        return -1;
    }
    rk_token_encode(raw, out);
    memset(raw, 0, sizeof(raw));
    return 0;
}

/* 1 for the characters of base64url (a table: this runs on every request) */
static const unsigned char is_b64url[256] = {
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
    ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
    ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
    ['Y'] = 1, ['Z'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
    ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
    ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1,
    ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1,
    ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['_'] = 1,
};

int rk_token_shape_ok(const char *tok, size_t len)
{
    size_t i;
    unsigned ok = 1;

    if (len != RK_TOKEN_CHARS) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        ok &= is_b64url[(unsigned char)tok[i]];
    }
    /* the last character carries 2 bits of data and 4 zero bits */
    return ok && strchr("AEIMQUYcgkosw048", tok[len - 1]) != NULL;
}

rk_auth_kind rk_bearer_parse(const char *header, const char **tok, size_t *len)
{
    const char *p, *cred, *end;

    if (!header) {
        return RK_AUTH_NONE;
    }
    for (p = header; *p == ' ' || *p == '\t'; p++)
        ;
    if (strncasecmp(p, "Bearer", 6) != 0 || (p[6] != ' ' && p[6] != '\t' && p[6] != '\0')) {
        return RK_AUTH_OTHER;
    }
    for (cred = p + 6; *cred == ' ' || *cred == '\t'; cred++)
        ;
    for (end = cred + strlen(cred); end > cred && (end[-1] == ' ' || end[-1] == '\t'); end--)
        ;
    if (end == cred) {
        return RK_AUTH_OTHER;   /* the scheme without a credential */
    }
    if (!rk_token_shape_ok(cred, (size_t)(end - cred))) {
        return RK_AUTH_BEARER_BAD;
    }
    *tok = cred;
    *len = (size_t)(end - cred);
    return RK_AUTH_BEARER;
}

/* ---- passwords ---- */

static int is_bcrypt(const char *hash)
{
    return hash && strlen(hash) == 60 && rk_password_cost(hash) >= 0;
}

int rk_password_cost(const char *hash)
{
    int cost;

    if (!hash || hash[0] != '$' || hash[1] != '2'
        || (hash[2] != 'y' && hash[2] != 'a' && hash[2] != 'b') || hash[3] != '$'
        || hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9' || hash[6] != '$') {
        return -1;
    }
    cost = (hash[4] - '0') * 10 + (hash[5] - '0');
    return cost >= 4 && cost <= 31 ? cost : -1;
}

int rk_password_policy_init(rk_password_policy *pol, int cost)
{
    unsigned char raw[24];
    char secret[2 * sizeof(raw) + 1];
    int c;

    memset(pol, 0, sizeof(*pol));
    if (cost < RK_PASSWORD_COST_MIN || cost > RK_PASSWORD_COST_MAX
        || apr_generate_random_bytes(raw, sizeof(raw)) != APR_SUCCESS) {
        return -1;
    }
    /* a password nobody knows (not even this process, once wiped) */
    hex_lower(raw, sizeof(raw), secret);
    for (c = RK_PASSWORD_COST_MIN; c <= cost; c++) {
        if (rk_password_hash(secret, c, pol->dummy[c], sizeof(pol->dummy[c])) != 0) {
            memset(secret, 0, sizeof(secret));
            return -1;
        }
    }
    memset(secret, 0, sizeof(secret));
    memset(raw, 0, sizeof(raw));
    pol->cost = cost;
    return 0;
}

/* bcrypt's work doubles with each step of cost, so a check at cost C takes as long as
 * checks at C-1, C-2, ..., K and one more at K: a hash of cost K < C is padded with
 * the dummies of costs K to C-1.  A hash of a higher cost cannot be made cheaper: it
 * is rehashed at the next successful login. */
/* POL's dummy at cost C (RK_PASSWORD_COST_MIN..RK_PASSWORD_COST_MAX) into OUT: the one
 * made at C when C is not above POL's cost, else POL's with its cost digits
 * rewritten (a bcrypt hash says its cost in its characters 4 and 5: "$2y$NN$"). */
static const char *dummy_at(const rk_password_policy *pol, int c, char out[61])
{
    if (c <= pol->cost) {
        return pol->dummy[c];
    }
    memcpy(out, pol->dummy[pol->cost], 61);
    out[4] = (char)('0' + c / 10);
    out[5] = (char)('0' + c % 10);
    return out;
}

int rk_password_verify_at(const rk_password_policy *pol, const char *password,
                          const char *hash, int floor, int *rehash)
{
    int ok, cost, c;
    char buf[61];

    *rehash = 0;
    if (!password) {
        password = "";
    }
    if (!pol || pol->cost == 0) {
        return 0;   /* no policy: nothing matches */
    }
    if (floor < pol->cost) {
        floor = pol->cost;
    }
    if (floor > RK_PASSWORD_COST_MAX) {
        floor = RK_PASSWORD_COST_MAX;
    }
    if (!is_bcrypt(hash)) {
        /* unknown user or a hash that is not bcrypt (never accepted): same cost */
        apr_password_validate(password, dummy_at(pol, floor, buf));
        return 0;
    }
    ok = apr_password_validate(password, hash) == APR_SUCCESS;
    cost = rk_password_cost(hash);
    for (c = cost < RK_PASSWORD_COST_MIN ? RK_PASSWORD_COST_MIN : cost; c < floor; c++) {
        apr_password_validate(password, dummy_at(pol, c, buf));
    }
    /* bcrypt reads 72 bytes at most: a longer secret would match on its prefix */
    if (strlen(password) > RK_PASSWORD_MAX) {
        return 0;
    }
    *rehash = ok && cost != pol->cost;
    return ok;
}

int rk_password_verify(const rk_password_policy *pol, const char *password,
                       const char *hash, int *rehash)
{
    return rk_password_verify_at(pol, password, hash, 0, rehash);
}

int rk_password_hash(const char *password, int cost, char *out, size_t outlen)
{
    unsigned char salt[16];
    apr_status_t rv;

    if (!password || cost < 4 || cost > 31 || outlen < 61) {
        return -1;
    }
    if (apr_generate_random_bytes(salt, sizeof(salt)) != APR_SUCCESS) {
        return -1;
    }
    rv = apr_bcrypt_encode(password, (unsigned int)cost, salt, sizeof(salt), out, outlen);
    return rv == APR_SUCCESS && is_bcrypt(out) ? 0 : -1;
}
