/*
 * test_movement.c - "Yeti Movement" and "Pushing other Yeti"
 * (engine/everest/movement.c), played through whole plans: every other
 * yeti is off the board, so each test sees only the yeti it places.
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
  struct engine_game *game = es_new(4, 3, 0);

  es_quiet(game);
  return game;
}

static int cell(struct engine_game *game, int seat)
{
  return es_state(game)->yeti[seat].cell;
}

static int damage(struct engine_game *game, int seat)
{
  return es_state(game)->yeti[seat].damage;
}

/* everest, Yeti Movement: "Move one square to the same or a lower level
 * 1 MP." - and "Yeti always move in a straight line". */
static void test_same_level_costs_one_mp_per_square(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 0, 0);
  json_decref(es_act(&game, 0, 3, "value", "E"));
  assert_int_equal(cell(game, 0), AT(0, 3));
  engine_free(game);
}

/* everest, Yeti Movement: "Move one square up a step to a higher-level
 * 2 MP." With 3 MP from r2c1 east: up to r2c2 (2 MP), and the next step up
 * would need 2 more: the last MP is lost. */
static void test_a_step_up_costs_two_mp(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 1, 0);
  json_decref(es_act(&game, 0, 3, "value", "E"));
  assert_int_equal(cell(game, 0), AT(1, 1));
  engine_free(game);
  game = quiet();
  es_place(game, 0, 1, 0);
  json_decref(es_act(&game, 0, 4, "value", "E"));
  assert_int_equal(cell(game, 0), AT(1, 2));
  engine_free(game);
}

/* everest, Yeti Movement: "If a yeti's movement runs it into a cliff from
 * below, it stops and looses the remainder of it movement for that
 * action." */
static void test_a_cliff_from_below_stops_the_yeti(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 0, 3);
  events = es_act(&game, 0, 5, "value", "S");
  assert_int_equal(cell(game, 0), AT(0, 3));
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "stopped", 0), "reason")),
                      "cliff");
  assert_int_equal(damage(game, 0), 0);
  json_decref(events);
  engine_free(game);
}

/* everest, Yeti Movement: "If it runs off a cliff from above, it falls off
 * the cliff to the square below and then continues moving in the same
 * direction." and Damage: "Whenever a yeti falls off a cliff ... it takes
 * damage." From the peak north with 2 MP: two falls, 5 -> 3 -> 1. */
static void test_falling_off_a_cliff_damages_and_continues(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 2, 3);
  events = es_act(&game, 0, 2, "value", "N");
  assert_int_equal(cell(game, 0), AT(0, 3));
  assert_int_equal(damage(game, 0), 2);
  assert_int_equal(kit_count(events, "fall"), 2);
  json_decref(events);
  engine_free(game);
}

/* everest, Yeti Movement: "Moving off the edge of the board, not only ends
 * the yeti's movement, but also cancels any remaining actions for this
 * round." The second coin (a snowball at a yeti) is never thrown. */
static void test_leaving_the_board_cancels_remaining_actions(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 0, 1);
  es_place(game, 1, 0, 4);
  es_coins(game, 0, 0x3f);
  json_decref(
      kit_apply(&game, 0,
                "{\"type\":\"plan\",\"plan\":[{\"coin\":3,\"face\":\"value\",\"dir\":\"N\"},"
                "{\"coin\":1,\"face\":\"value\",\"dir\":\"E\"},"
                "{\"coin\":2,\"face\":\"suit\",\"dir\":\"E\"}]}"));
  events = es_act(&game, 1, 0, "suit", "N");
  assert_int_equal(cell(game, 0), EVEREST_OFF);
  assert_true(es_state(game)->yeti[0].cancelled);
  assert_int_equal(kit_count(events, "left-board"), 1);
  assert_int_equal(kit_count(events, "moved"), 1); /* only the first coin moved */
  assert_int_equal(damage(game, 1), 0);            /* the snowball was never thrown */
  json_decref(events);
  engine_free(game);
}

/* game-data.md 3: "The notch cells ... are off the board. Entering one
 * counts as leaving the board." */
static void test_entering_a_notch_leaves_the_board(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 1, 0);
  json_decref(es_act(&game, 0, 2, "value", "S"));
  assert_int_equal(cell(game, 0), EVEREST_OFF);
  assert_true(es_state(game)->yeti[0].left_board);
  engine_free(game);
}

/* everest, Pushing other Yeti: "+1 MP" to push to the same or lower level:
 * 3 MP moves one square and pushes once (1 + 1 + 1 short for a second
 * push: "If a yeti has insufficient MP to push another yeti, it ends its
 * movement and looses any remaining MP"). */
static void test_pushing_to_the_same_level_costs_one_more(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 0, 0);
  es_place(game, 1, 0, 1);
  json_decref(es_act(&game, 0, 3, "value", "E"));
  events = es_act(&game, 1, 0, "suit", "N");
  assert_int_equal(cell(game, 0), AT(0, 1));
  assert_int_equal(cell(game, 1), AT(0, 2));
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "stopped", 0), "reason")),
                      "push-too-costly");
  json_decref(events);
  engine_free(game);
}

/* everest, Pushing other Yeti: "pushing it to a square up one level +2 MP",
 * on top of the 2 MP of the step up: 4 MP in all. */
static void test_pushing_up_one_level_costs_two_more(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 1, 0);
  es_place(game, 1, 1, 1);
  json_decref(es_act(&game, 0, 3, "value", "E"));
  json_decref(es_act(&game, 1, 0, "suit", "N"));
  assert_int_equal(cell(game, 0), AT(1, 0)); /* 3 MP is one short */
  assert_int_equal(cell(game, 1), AT(1, 1));
  engine_free(game);
  game = quiet();
  es_place(game, 0, 1, 0);
  es_place(game, 1, 1, 1);
  json_decref(es_act(&game, 0, 4, "value", "E"));
  json_decref(es_act(&game, 1, 0, "suit", "N"));
  assert_int_equal(cell(game, 0), AT(1, 1));
  assert_int_equal(cell(game, 1), AT(1, 2));
  engine_free(game);
}

/* everest, Pushing other Yeti: "A yeti cannot be pushed ... into a square
 * occupied by another yeti, in these cases the pushing yeti stops and
 * looses any remaining movement for this action." */
static void test_no_push_into_another_yeti(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 5, 0);
  es_place(game, 1, 5, 1);
  es_place(game, 2, 5, 2);
  json_decref(es_act(&game, 0, 5, "value", "E"));
  json_decref(es_act(&game, 1, 0, "suit", "S"));
  events = es_act(&game, 2, 0, "suit", "S");
  assert_int_equal(cell(game, 0), AT(5, 0));
  assert_int_equal(cell(game, 1), AT(5, 1));
  assert_int_equal(cell(game, 2), AT(5, 2));
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "stopped", 0), "reason")),
                      "cannot-push");
  json_decref(events);
  engine_free(game);
}

/* everest, Pushing other Yeti: "Note that falling off a cliff gives your
 * yeti a free push on any yeti in the square you fall into." 1 MP is enough
 * to fall onto a yeti and push it (down the next cliff, where it falls:
 * RULES.md). */
static void test_falling_gives_a_free_push(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 2, 3);
  es_place(game, 1, 1, 3);
  json_decref(es_act(&game, 0, 1, "value", "N"));
  json_decref(es_act(&game, 1, 0, "suit", "E"));
  assert_int_equal(cell(game, 0), AT(1, 3));
  assert_int_equal(cell(game, 1), AT(0, 3));
  assert_int_equal(damage(game, 0), 1);
  assert_int_equal(damage(game, 1), 1);
  engine_free(game);
}

/* everest, Pushing other Yeti: "A yeti that is pushed off the edge of the
 * board looses any unperformed actions for this round." */
static void test_pushed_off_the_board_loses_its_actions(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 0, 1);
  es_place(game, 1, 0, 0);
  es_place(game, 2, 0, 5);
  json_decref(es_act(&game, 0, 2, "value", "W"));
  es_coins(game, 1, 0x07);
  json_decref(kit_apply(&game, 1,
                        "{\"type\":\"plan\",\"plan\":[{\"coin\":0,\"face\":\"suit\",\"dir\":\"N\"},"
                        "{\"coin\":1,\"face\":\"suit\",\"dir\":\"E\"},"
                        "{\"coin\":2,\"face\":\"suit\",\"dir\":\"E\"}]}"));
  events = es_act(&game, 2, 0, "suit", "N");
  /* Seat 0 pushes seat 1 off in step 1 (no conflict with seat 1's
   * harmless throw north: both orders give the same board). */
  assert_int_equal(cell(game, 1), EVEREST_OFF);
  assert_true(es_state(game)->yeti[1].cancelled);
  /* Its eastward throws of steps 2 and 3 never came. */
  for (int i = 0; kit_event(events, "snowball", i); i++)
    assert_string_not_equal(
        json_string_value(json_object_get(kit_event(events, "snowball", i), "dir")), "E");
  assert_int_equal(damage(game, 2), 0);
  json_decref(events);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_level_costs_one_mp_per_square),
      cmocka_unit_test(test_a_step_up_costs_two_mp),
      cmocka_unit_test(test_a_cliff_from_below_stops_the_yeti),
      cmocka_unit_test(test_falling_off_a_cliff_damages_and_continues),
      cmocka_unit_test(test_leaving_the_board_cancels_remaining_actions),
      cmocka_unit_test(test_entering_a_notch_leaves_the_board),
      cmocka_unit_test(test_pushing_to_the_same_level_costs_one_more),
      cmocka_unit_test(test_pushing_up_one_level_costs_two_more),
      cmocka_unit_test(test_no_push_into_another_yeti),
      cmocka_unit_test(test_falling_gives_a_free_push),
      cmocka_unit_test(test_pushed_off_the_board_loses_its_actions),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
