/*
 * rng.c - ChaCha20 keystream as the game generator (see rng.h for why).
 * The block function follows RFC 8439 section 2.3, with the original
 * 64-bit counter / 64-bit nonce layout that libsodium's
 * crypto_stream_chacha20 uses. Pure: no globals, no I/O.
 */
#include "rng.h"

#include <string.h>

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define QUARTER(a, b, c, d)                                                                        \
  do {                                                                                             \
    a += b;                                                                                        \
    d ^= a;                                                                                        \
    d = ROTL32(d, 16);                                                                             \
    c += d;                                                                                        \
    b ^= c;                                                                                        \
    b = ROTL32(b, 12);                                                                             \
    a += b;                                                                                        \
    d ^= a;                                                                                        \
    d = ROTL32(d, 8);                                                                              \
    c += d;                                                                                        \
    b ^= c;                                                                                        \
    b = ROTL32(b, 7);                                                                              \
  } while (0)

static void chacha20_block(const uint32_t key[8], uint64_t counter, uint32_t out[16])
{
  /* "expand 32-byte k" */
  uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  uint32_t x[16];
  int i;

  memcpy(in + 4, key, 8 * sizeof(uint32_t));
  in[12] = (uint32_t)counter;
  in[13] = (uint32_t)(counter >> 32);
  in[14] = 0; /* nonce: zero, one stream per seed */
  in[15] = 0;
  memcpy(x, in, sizeof(x));
  for (i = 0; i < 10; i++) {
    QUARTER(x[0], x[4], x[8], x[12]);
    QUARTER(x[1], x[5], x[9], x[13]);
    QUARTER(x[2], x[6], x[10], x[14]);
    QUARTER(x[3], x[7], x[11], x[15]);
    QUARTER(x[0], x[5], x[10], x[15]);
    QUARTER(x[1], x[6], x[11], x[12]);
    QUARTER(x[2], x[7], x[8], x[13]);
    QUARTER(x[3], x[4], x[9], x[14]);
  }
  for (i = 0; i < 16; i++)
    out[i] = x[i] + in[i];
}

void engine_rng_seed(struct engine_rng *rng, const uint8_t seed[ENGINE_SEED_BYTES])
{
  int i;

  for (i = 0; i < 8; i++)
    rng->key[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
                  (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
  rng->drawn = 0;
  rng->cache_block = UINT64_MAX;
  memset(rng->cache, 0, sizeof(rng->cache));
}

uint32_t engine_rng_next(struct engine_rng *rng)
{
  uint64_t block = rng->drawn / 16;

  if (rng->cache_block != block) {
    chacha20_block(rng->key, block, rng->cache);
    rng->cache_block = block;
  }
  return rng->cache[rng->drawn++ % 16];
}

uint32_t engine_rng_below(struct engine_rng *rng, uint32_t bound)
{
  /* Reject the low `2^32 mod bound` values so every residue is equally
   * likely; at most half the range is ever rejected. */
  uint32_t threshold = (uint32_t)(-bound) % bound;
  uint32_t r;

  do {
    r = engine_rng_next(rng);
  } while (r < threshold);
  return r % bound;
}

int engine_rng_die(struct engine_rng *rng, int sides)
{
  return 1 + (int)engine_rng_below(rng, (uint32_t)sides);
}

void engine_rng_shuffle(struct engine_rng *rng, int *items, int n)
{
  int i;

  for (i = n - 1; i > 0; i--) {
    int j = (int)engine_rng_below(rng, (uint32_t)i + 1);
    int tmp = items[i];

    items[i] = items[j];
    items[j] = tmp;
  }
}
