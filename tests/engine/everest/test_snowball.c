/*
 * test_snowball.c - "Throwing Snowballs" (engine/everest/snowball.c),
 * through whole plans with only the placed yeti on the board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"
#include "support.h"

#define AT(r, c) everest_cell(r, c)

static struct engine_game *quiet(void)
{
  struct engine_game *game = es_new(4, 5, 0);

  es_quiet(game);
  return game;
}

static struct everest_yeti *yeti(struct engine_game *game, int seat)
{
  return &es_state(game)->yeti[seat];
}

/* everest, Throwing Snowballs: "A thrown snowball travels in a straight line
 * until it hits a yeti ... A yeti hit by a snowball takes damage and is
 * pushed one square in the direction that the snowball was thrown." */
static void test_a_hit_damages_and_pushes_one_square(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 0, 0);
  es_place(game, 1, 0, 4);
  json_decref(es_act(&game, 0, 2, "suit", "E"));
  events = es_act(&game, 1, 0, "suit", "N");
  assert_int_equal(yeti(game, 1)->damage, 1);
  assert_int_equal(yeti(game, 1)->cell, AT(0, 5));
  assert_int_equal(kit_int(kit_event(events, "snowball", 0), "hit"), 1);
  json_decref(events);
  engine_free(game);
}

/* everest, Throwing Snowballs: "A snowball freely goes downhill" - from the
 * peak down a step and a cliff to a yeti two levels below. */
static void test_a_snowball_freely_goes_downhill(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 2, 3);
  es_place(game, 1, 4, 3); /* r5c4, height 3, below the peak's cliff */
  json_decref(es_act(&game, 0, 4, "suit", "S"));
  json_decref(es_act(&game, 1, 0, "suit", "E"));
  /* One for the hit, one for being knocked down the r5|r6 cliff: a fall
   * (RULES.md "Pushed down a cliff"). */
  assert_int_equal(yeti(game, 1)->damage, 2);
  assert_int_equal(yeti(game, 1)->cell, AT(5, 3));
  engine_free(game);
}

/* everest, Throwing Snowballs: "if it hits an upward step or cliff, it goes
 * splat and has no effect" - the yeti behind the step is not hit. */
static void test_an_upward_step_stops_the_snowball(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 1, 0);
  es_place(game, 1, 1, 2);
  json_decref(es_act(&game, 0, 2, "suit", "E"));
  events = es_act(&game, 1, 0, "suit", "N");
  assert_int_equal(yeti(game, 1)->damage, 0);
  assert_true(json_is_null(json_object_get(kit_event(events, "snowball", 0), "hit")));
  json_decref(events);
  engine_free(game);
}

/* everest, Throwing Snowballs: "unless there is a yeti standing on the
 * square directly at the top of the step or cliff, then the yeti gets hit
 * instead" - and "A snowball cannot push a yeti up a step or cliff": the
 * hit yeti stays. Step (r2c2, height 2) and cliff (r2c4, height 3). */
static void test_a_yeti_at_the_top_of_a_step_or_cliff_is_hit_but_not_pushed(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 1, 0);
  es_place(game, 1, 1, 1);
  es_place(game, 2, 0, 3);
  es_place(game, 3, 1, 3);
  json_decref(es_act(&game, 0, 2, "suit", "E"));
  json_decref(es_act(&game, 1, 0, "suit", "N"));
  json_decref(es_act(&game, 2, 3, "suit", "S"));
  json_decref(es_act(&game, 3, 5, "suit", "E"));
  assert_int_equal(yeti(game, 1)->damage, 1);
  assert_int_equal(yeti(game, 1)->cell, AT(1, 1));
  assert_int_equal(yeti(game, 3)->damage, 1);
  assert_int_equal(yeti(game, 3)->cell, AT(1, 3));
  engine_free(game);
}

/* everest, Throwing Snowballs: "A snowball cannot push a yeti ... into a
 * square occupied by another yeti; in those cases the hit yeti does not
 * move." */
static void test_no_push_into_an_occupied_square(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 5, 0);
  es_place(game, 1, 5, 3);
  es_place(game, 2, 5, 4);
  json_decref(es_act(&game, 0, 2, "suit", "E"));
  json_decref(es_act(&game, 1, 0, "suit", "S"));
  json_decref(es_act(&game, 2, 0, "suit", "S"));
  assert_int_equal(yeti(game, 1)->damage, 1);
  assert_int_equal(yeti(game, 1)->cell, AT(5, 3));
  assert_int_equal(yeti(game, 2)->damage, 0);
  engine_free(game);
}

/* everest, Executing the plans: "all snowball throws still happen
 * simultaneously" - two yeti pelt each other; both are hit from where they
 * stood and both are pushed apart. */
static void test_snowballs_are_simultaneous(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 5, 2);
  es_place(game, 1, 5, 5);
  json_decref(es_act(&game, 0, 2, "suit", "E"));
  events = es_act(&game, 1, 3, "suit", "W");
  assert_int_equal(kit_count(events, "conflict"), 0);
  assert_int_equal(yeti(game, 0)->damage, 1);
  assert_int_equal(yeti(game, 1)->damage, 1);
  assert_int_equal(yeti(game, 0)->cell, AT(5, 1));
  assert_int_equal(yeti(game, 1)->cell, AT(5, 6));
  json_decref(events);
  engine_free(game);
}

/* everest, Throwing Snowballs: "or flies off the board" - and a hit yeti
 * knocked off the edge loses its remaining actions (Pushing other Yeti). */
static void test_a_snowball_can_knock_a_yeti_off_the_board(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 2, 3);
  es_place(game, 1, 2, 1);
  json_decref(es_act(&game, 0, 2, "suit", "W"));
  json_decref(es_act(&game, 1, 0, "suit", "N"));
  assert_int_equal(yeti(game, 1)->damage, 1);
  assert_int_equal(yeti(game, 1)->cell, EVEREST_OFF);
  assert_true(yeti(game, 1)->cancelled);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_hit_damages_and_pushes_one_square),
      cmocka_unit_test(test_a_snowball_freely_goes_downhill),
      cmocka_unit_test(test_an_upward_step_stops_the_snowball),
      cmocka_unit_test(test_a_yeti_at_the_top_of_a_step_or_cliff_is_hit_but_not_pushed),
      cmocka_unit_test(test_no_push_into_an_occupied_square),
      cmocka_unit_test(test_snowballs_are_simultaneous),
      cmocka_unit_test(test_a_snowball_can_knock_a_yeti_off_the_board),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
