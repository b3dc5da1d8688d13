/*
 * test_rng.c - the game generator (engine/rng.c): it must be exactly
 * libsodium's crypto_stream_chacha20 keystream, so anyone holding a revealed
 * seed can re-derive every roll and shuffle with a stock library, and it must
 * be deterministic and unbiased in the ways the games rely on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "tests/order.h"
#include "engine/rng.h"

static void seed_bytes(uint8_t seed[ENGINE_SEED_BYTES], uint8_t base)
{
  int i;

  for (i = 0; i < ENGINE_SEED_BYTES; i++)
    seed[i] = (uint8_t)(base + 7 * i);
}

static void test_keystream_equals_libsodium_chacha20(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES];
  uint8_t expected[64 * 5];
  uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {0};
  struct engine_rng rng;
  size_t i;

  assert_true(sodium_init() >= 0);
  seed_bytes(seed, 3);
  crypto_stream_chacha20(expected, sizeof(expected), nonce, seed);
  engine_rng_seed(&rng, seed);
  for (i = 0; i < sizeof(expected) / 4; i++) {
    uint32_t want = (uint32_t)expected[4 * i] | (uint32_t)expected[4 * i + 1] << 8 |
                    (uint32_t)expected[4 * i + 2] << 16 | (uint32_t)expected[4 * i + 3] << 24;

    assert_int_equal(engine_rng_next(&rng), want);
  }
  assert_int_equal(rng.drawn, sizeof(expected) / 4);
}

static void test_same_seed_same_sequence(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES];
  struct engine_rng a, b;
  int i;

  seed_bytes(seed, 9);
  engine_rng_seed(&a, seed);
  engine_rng_seed(&b, seed);
  for (i = 0; i < 1000; i++)
    assert_int_equal(engine_rng_die(&a, 6), engine_rng_die(&b, 6));
}

/* The cache is derived: a copy that resumes mid-block must continue the
 * same stream as the original, which replay-from-snapshot relies on. */
static void test_position_alone_determines_the_stream(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES];
  struct engine_rng a, b;
  int i;

  seed_bytes(seed, 1);
  engine_rng_seed(&a, seed);
  for (i = 0; i < 37; i++)
    engine_rng_next(&a);
  engine_rng_seed(&b, seed);
  b.drawn = a.drawn;
  for (i = 0; i < 100; i++)
    assert_int_equal(engine_rng_next(&a), engine_rng_next(&b));
}

static void test_die_rolls_stay_in_range_and_cover_every_face(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES];
  struct engine_rng rng;
  int counts[7] = {0};
  int i;

  seed_bytes(seed, 42);
  engine_rng_seed(&rng, seed);
  for (i = 0; i < 60000; i++) {
    int d = engine_rng_die(&rng, 6);

    assert_in_range(d, 1, 6);
    counts[d]++;
  }
  /* 10000 expected per face; 9000..11000 is > 10 standard deviations. */
  for (i = 1; i <= 6; i++)
    assert_in_range(counts[i], 9000, 11000);
}

static void test_shuffle_is_a_permutation(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES];
  struct engine_rng rng;
  int items[10], seen[10] = {0};
  int i;

  seed_bytes(seed, 5);
  engine_rng_seed(&rng, seed);
  for (i = 0; i < 10; i++)
    items[i] = i;
  engine_rng_shuffle(&rng, items, 10);
  for (i = 0; i < 10; i++)
    seen[items[i]]++;
  for (i = 0; i < 10; i++)
    assert_int_equal(seen[i], 1);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_keystream_equals_libsodium_chacha20),
      cmocka_unit_test(test_same_seed_same_sequence),
      cmocka_unit_test(test_position_alone_determines_the_stream),
      cmocka_unit_test(test_die_rolls_stay_in_range_and_cover_every_face),
      cmocka_unit_test(test_shuffle_is_a_permutation),
  };

  return order_run_group_tests_name("engine/rng", tests, NULL, NULL);
}
