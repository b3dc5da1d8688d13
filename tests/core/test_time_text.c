/*
 * test_time_text.c - api_time_text (api/time.c), the RFC 3339 form of every
 * time an answer carries, written by hand since issue 22. It must equal
 * what gmtime_r and a printf format give, which it replaced: checked at the
 * dates where calendars go wrong (leap days, century years, year ends) and
 * at random instants from 1970 to 9999.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/api.h"

/* The text as the library writes it. */
static void by_library(int64_t ms, char text[API_TIME_TEXT])
{
  time_t secs = (time_t)(ms / 1000);
  struct tm tm;

  gmtime_r(&secs, &tm);
  snprintf(text, API_TIME_TEXT, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

static void expect_same(int64_t ms)
{
  char mine[API_TIME_TEXT], theirs[API_TIME_TEXT];

  api_time_text(ms, mine);
  by_library(ms, theirs);
  if (strcmp(mine, theirs) != 0)
    fail_msg("%lld ms: %s, the library says %s", (long long)ms, mine, theirs);
}

static void test_known_instants(void **state)
{
  char text[API_TIME_TEXT];

  (void)state;
  api_time_text(0, text);
  assert_string_equal(text, "1970-01-01T00:00:00.000Z");
  api_time_text(951782400000 + 86399999, text); /* the last millisecond of a century leap day */
  assert_string_equal(text, "2000-02-29T23:59:59.999Z");
  api_time_text(4107542400000, text); /* 2100 is no leap year */
  assert_string_equal(text, "2100-03-01T00:00:00.000Z");
  api_time_text(253402300799999, text);
  assert_string_equal(text, "9999-12-31T23:59:59.999Z");
}

/* Every day boundary, and the millisecond either side, of 1970-2104. */
static void test_every_day_boundary_matches_the_library(void **state)
{
  int64_t day;

  (void)state;
  for (day = 0; day < 366 * 134; day++) {
    expect_same(day * 86400000);
    expect_same(day * 86400000 + 1);
    if (day > 0)
      expect_same(day * 86400000 - 1);
  }
}

static void test_random_instants_match_the_library(void **state)
{
  uint64_t x = 0x9E3779B97F4A7C15u;
  int i;

  (void)state;
  for (i = 0; i < 200000; i++) {
    x ^= x << 13; /* xorshift64 */
    x ^= x >> 7;
    x ^= x << 17;
    expect_same((int64_t)(x % 253402300800000u));
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_instants),
      cmocka_unit_test(test_every_day_boundary_matches_the_library),
      cmocka_unit_test(test_random_instants_match_the_library),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
