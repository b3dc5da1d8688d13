/*
 * rng.h - the per-game deterministic random generator.
 *
 * Why ChaCha20 and not a small PRNG: dice rolls and shuffles are visible to
 * players, and a non-cryptographic generator (xorshift, PCG, Mersenne
 * Twister) can have its state recovered from enough outputs, which would let
 * a player predict the next Yeti card. ChaCha20 keyed with the game's secret
 * 32-byte seed is unpredictable without the seed, and once the seed is
 * revealed at the end anyone can re-run it: it is exactly libsodium's
 * crypto_stream_chacha20 (64-bit nonce of zeros, 64-bit block counter), which
 * tests/engine/test_rng.c checks byte for byte.
 *
 * The generator lives inside the game state; the engine has no global one.
 * Its serialisable state is the key and the number of 32-bit words drawn;
 * `block`/`cache` are a derived cache of the current keystream block.
 */
#ifndef ENGINE_RNG_H
#define ENGINE_RNG_H

#include <stdint.h>

#define ENGINE_SEED_BYTES 32

struct engine_rng {
  uint32_t key[8];      /* the seed, as eight little-endian words */
  uint64_t drawn;       /* 32-bit words consumed so far */
  uint64_t cache_block; /* block index held in `cache`, UINT64_MAX if none */
  uint32_t cache[16];   /* keystream block `cache_block` */
};

/* Initialise from a 32-byte seed. */
void engine_rng_seed(struct engine_rng *rng, const uint8_t seed[ENGINE_SEED_BYTES]);

/* The next 32-bit word of the keystream (little-endian, as libsodium emits it). */
uint32_t engine_rng_next(struct engine_rng *rng);

/* A uniform integer in [0, bound), bound >= 1, without modulo bias. */
uint32_t engine_rng_below(struct engine_rng *rng, uint32_t bound);

/* A die roll in [1, sides]. */
int engine_rng_die(struct engine_rng *rng, int sides);

/* Fisher-Yates shuffle of `n` ints in place. */
void engine_rng_shuffle(struct engine_rng *rng, int *items, int n);

#endif
