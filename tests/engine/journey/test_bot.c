/*
 * test_bot.c - the bots' measure of a Journey position (engine/journey/
 * bot.c, the bot_evaluate slot): what it must rank above what, because a
 * search follows it. Each case is one the strong climbers once got wrong
 * in make bots' traced games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include "support.h"

#define ST js_state(game)

static double climbers(const struct engine_game *game)
{
  double score = -1;

  assert_true(engine_bot_evaluate(game, JOURNEY_TENZING, &score));
  return score;
}

/* A climber in a crevice holding a Rope is better off once it used the
 * Rope: with health all that counted, a Rope kept was worth as much, and
 * climbers sat in crevices with one until they died. */
static void test_using_a_rope_in_a_crevice_raises_the_measure(void **state)
{
  struct engine_game *game = js_climbing(81);
  double before;

  ST->climber[1].items[JOURNEY_ROPE] = 1;
  ST->climber[1].in_crevice = true;
  before = climbers(game);
  json_decref(kit_apply(&game, 1, "{\"type\":\"use\",\"item\":\"rope\"}"));
  assert_false(ST->climber[1].in_crevice);
  assert_true(climbers(game) > before);
  engine_free(game);
}

/* A crevice with no Rope to leave it costs more than the one health it
 * takes at once: it holds a climber for five turns on average. */
static void test_a_crevice_without_a_rope_costs_more_than_a_point_of_health(void **state)
{
  struct engine_game *game = js_climbing(82);
  double hurt;

  ST->climber[0].health = 9;
  hurt = climbers(game);
  ST->climber[0].health = 10;
  ST->climber[0].in_crevice = true;
  assert_true(climbers(game) < hurt);
  engine_free(game);
}

/* Either death loses, so a point of health is worth more to the climber
 * nearer death: 4 and 10 is worse than 5 and 9. */
static void test_health_counts_most_for_the_climber_nearer_death(void **state)
{
  struct engine_game *game = js_climbing(83);
  double apart;

  ST->climber[0].health = 4;
  ST->climber[1].health = 10;
  apart = climbers(game);
  ST->climber[0].health = 5;
  ST->climber[1].health = 9;
  assert_true(climbers(game) > apart);
  engine_free(game);
}

/* The Mountain's measure is the climbers' complement. */
static void test_the_mountains_measure_is_the_climbers_complement(void **state)
{
  struct engine_game *game = js_climbing(84);
  double mountain = -1;

  ST->climber[1].health = 3;
  assert_true(engine_bot_evaluate(game, JOURNEY_MOUNTAIN, &mountain));
  assert_true(mountain > 1 - climbers(game) - 1e-12 && mountain < 1 - climbers(game) + 1e-12);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_using_a_rope_in_a_crevice_raises_the_measure),
      cmocka_unit_test(test_a_crevice_without_a_rope_costs_more_than_a_point_of_health),
      cmocka_unit_test(test_health_counts_most_for_the_climber_nearer_death),
      cmocka_unit_test(test_the_mountains_measure_is_the_climbers_complement),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
