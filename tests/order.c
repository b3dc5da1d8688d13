/*
 * order.c - the shuffled run order of every test binary (order.h). It only
 * permutes a copy of the tests array; running the tests is cmocka's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "order.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* splitmix64: small, and the same permutation for a seed on every machine. */
static uint64_t next_random(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t fresh_seed(void)
{
  uint64_t seed;
  struct timespec ts;

  if (getrandom(&seed, sizeof(seed), 0) == (ssize_t)sizeof(seed))
    return seed;
  /* No entropy source: time and pid still differ from run to run. */
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32;
}

bool order_seed(uint64_t *seed)
{
  /* One seed per process, so a binary with several groups (one per storage
   * backend) is reproduced by the one number it printed. */
  static bool chosen;
  static uint64_t chosen_seed;
  const char *text = getenv("CAIRN_TEST_SEED");
  char *end = NULL;

  if (!chosen && text && *text) {
    errno = 0;
    chosen_seed = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || *text == '-')
      return false;
    chosen = true;
  }
  if (!chosen) {
    chosen_seed = fresh_seed();
    chosen = true;
  }
  *seed = chosen_seed;
  return true;
}

/* Fisher-Yates over tests[0..n). */
static void shuffle(struct CMUnitTest *tests, size_t n, uint64_t seed)
{
  uint64_t state = seed;
  size_t i;

  for (i = n; i > 1; i--) {
    size_t j = (size_t)(next_random(&state) % i);
    struct CMUnitTest swap = tests[i - 1];

    tests[i - 1] = tests[j];
    tests[j] = swap;
  }
}

int order_run_group(const char *group_name, const struct CMUnitTest *tests, size_t n,
                    CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
  struct CMUnitTest *shuffled = NULL;
  uint64_t seed;
  int failed;

  if (!order_seed(&seed)) {
    fprintf(stderr, "CAIRN_TEST_SEED=%s is not a decimal number\n", getenv("CAIRN_TEST_SEED"));
    return 1;
  }
  shuffled = malloc(n ? n * sizeof(*shuffled) : 1);
  if (!shuffled) {
    fprintf(stderr, "out of memory shuffling %s\n", group_name);
    return 1;
  }
  if (n)
    memcpy(shuffled, tests, n * sizeof(*shuffled));
  shuffle(shuffled, n, seed);
  printf("test order seed: %" PRIu64 "\n", seed);
  /* The API harness forks the server: flush first so the child does not
   * inherit (and print again) what is still buffered. */
  fflush(stdout);
  failed = _cmocka_run_group_tests(group_name, shuffled, n, group_setup, group_teardown);
  free(shuffled);
  return failed;
}
