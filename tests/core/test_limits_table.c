/*
 * test_limits_table.c - the rate limits' bucket table (api/limits.c),
 * driven with a clock of our own. Issue "Abuse and availability", 1: the
 * old table was direct-mapped and started a fresh bucket on a collision,
 * so enough other callers handed a throttled one a new burst. Now a
 * caller's partly spent bucket is never reset, however many others come;
 * the table is bounded (65,536 buckets), newcomers past it are refused
 * until buckets refill, and callers do not disturb each other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <string.h>

#include "api/api.h"

#define RATE    50 /* per second; the burst is twice that */
#define BUCKETS 65536
#define CROWD   (3 * BUCKETS)

static int64_t clock_ms = 1000000;

static int64_t test_clock(void)
{
  return clock_ms;
}

/* One request by player `n`; true when allowed. */
static bool request_as(struct api_server *server, int n, struct api_rate_refusal *why)
{
  struct api_request req = {.server = server, .has_player = true};
  struct cairn_error err = {0};

  snprintf(req.player.id, sizeof req.player.id, "p%d", n);
  return api_limits_check(&req, why, &err) == CAIRN_OK;
}

static void test_a_spent_bucket_survives_any_crowd_and_the_table_is_bounded(void **state)
{
  static struct game_service clock_only = {.now_ms = test_clock}; /* the server's one clock */
  struct api_server server = {.game = &clock_only};
  struct api_rate_refusal why;
  int i, allowed = 0, admitted = 0;

  server.limits = api_limits_new(100, RATE);
  assert_non_null(server.limits);
  /* Player 0 spends its burst. */
  while (request_as(&server, 0, &why))
    allowed++;
  assert_int_equal(allowed, 2 * RATE);
  assert_int_equal(why.limit, 2 * RATE);
  assert_int_equal(why.retry_after, 1);
  assert_int_equal(why.reset, 2);
  /* A crowd three times the table's size arrives at the same instant. */
  for (i = 1; i <= CROWD; i++) {
    admitted += request_as(&server, i, &why);
    if (i % 1000 == 0) /* player 0 is never handed a fresh bucket */
      assert_false(request_as(&server, 0, &why));
  }
  print_message("%d of %d newcomers admitted\n", admitted, CROWD);
  assert_true(admitted <= BUCKETS - 1);
  assert_true(admitted > BUCKETS / 2); /* sets fill unevenly, but most of the table is used */
  assert_false(request_as(&server, 0, &why));
  /* Player 1 got in and keeps its own bucket, untouched by player 0. */
  assert_true(request_as(&server, 1, &why));
  /* Two seconds on, every bucket is full again: player 0 has its burst,
   * and full buckets make room for newcomers that were refused. */
  clock_ms += 2000;
  for (allowed = 0; request_as(&server, 0, &why);)
    allowed++;
  assert_int_equal(allowed, 2 * RATE);
  for (i = CROWD + 1, admitted = 0; i <= CROWD + 1000; i++)
    admitted += request_as(&server, i, &why);
  assert_int_equal(admitted, 1000);
  api_limits_free(server.limits);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_spent_bucket_survives_any_crowd_and_the_table_is_bounded),
  };

  return order_run_group_tests_name("core/limits_table", tests, NULL, NULL);
}
