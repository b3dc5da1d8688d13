/*
 * test_climbers.c - the climbers' turn (engine/journey/climbers.c): actions,
 * moving, giving, the simultaneous turn, end-of-turn damage, reaching the
 * top and the climbers' win.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

#define ST         js_state(game)
#define MOVE(to)   "{\"type\":\"move\",\"to\":\"" to "\"}"
#define END        "{\"type\":\"end_turn\"}"
#define GIVE(item) "{\"type\":\"give\",\"item\":\"" item "\"}"

/* journey, Gameplay 1: "Tenzing can take 3, while Hillary can take 2"; a
 * climber who spent them is done without end_turn. */
static void test_tenzing_takes_three_actions_and_hillary_two(void **state)
{
  struct engine_game *game = js_climbing(11);
  int seats[ENGINE_MAX_SEATS];

  assert_int_equal(ST->climber[0].actions, 3);
  assert_int_equal(ST->climber[1].actions, 2);
  json_decref(kit_apply(&game, 1, MOVE("L1-S")));
  json_decref(kit_apply(&game, 1, MOVE("L1-W")));
  assert_true(ST->climber[1].done);
  assert_int_equal(journey_module.to_act(game, seats), 1);
  assert_int_equal(seats[0], 0);
  kit_reject(game, 1, MOVE("L1-S"), CAIRN_ETURN, CAIRN_CODE_NOT_YOUR_TURN, NULL);
  json_decref(kit_apply(&game, 0, MOVE("L1-S")));
  json_decref(kit_apply(&game, 0, MOVE("L1-E")));
  assert_int_equal(ST->phase, JOURNEY_PHASE_CLIMB);
  json_decref(kit_apply(&game, 0, MOVE("L1-N")));
  assert_int_equal(ST->phase, JOURNEY_PHASE_MOUNTAIN);
  engine_free(game);
}

/* journey, Gameplay 2: "Both climbing players take their actions
 * simultaneously" - any interleaving; the step (seq) resolves only when
 * both are done. */
static void test_climbers_act_simultaneously_in_any_interleaving(void **state)
{
  struct engine_game *game = js_climbing(12);
  uint32_t seq = game->seq;
  int pending;

  json_decref(js_apply_p(&game, 0, MOVE("L1-S"), &pending));
  assert_true(pending);
  json_decref(js_apply_p(&game, 1, MOVE("L1-S"), &pending));
  assert_true(pending);
  json_decref(js_apply_p(&game, 0, MOVE("L1-W"), &pending));
  assert_true(pending);
  json_decref(js_apply_p(&game, 1, END, &pending));
  assert_true(pending);
  assert_int_equal(game->seq, seq);
  json_decref(js_apply_p(&game, 0, END, &pending));
  assert_false(pending);
  assert_int_equal(game->seq, seq + 1);
  assert_int_equal(ST->climber[0].space, js_space("L1-W"));
  assert_int_equal(ST->climber[1].space, js_space("L1-S"));
  engine_free(game);
}

/* journey, Gameplay 1a: "Can move to an adjacent section on the same level
 * for free or to the adjacent space on the next level if you pay the
 * cost"; "You may not ascend from a space if you do not have the required
 * equipment." */
static void test_ascending_pays_food_and_needs_it(void **state)
{
  struct engine_game *game = js_climbing(13);
  struct cairn_error err;

  js_put(game, 0, "L1-E");
  err = kit_reject(game, 0, MOVE("L2-E"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                   JOURNEY_RULE_CLIMBERS);
  assert_non_null(strstr(err.detail, "costs 1 food"));
  ST->climber[0].items[JOURNEY_FOOD] = 1;
  json_decref(kit_apply(&game, 0, MOVE("L2-E")));
  assert_int_equal(ST->climber[0].items[JOURNEY_FOOD], 0);
  assert_int_equal(ST->climber[0].space, js_space("L2-E"));
  engine_free(game);
}

/* journey, Gameplay 1a: the free ascent ("No cost to ascend"). */
static void test_free_ascent_costs_nothing(void **state)
{
  struct engine_game *game = js_climbing(14);
  json_t *events;

  js_put(game, 0, "L1-S");
  events = kit_apply(&game, 0, MOVE("L2-S"));
  assert_int_equal(kit_int(kit_event(events, "moved", 0), "food_paid"), 0);
  json_decref(events);
  engine_free(game);
}

/* journey, Gameplay 1a: "Cannot ascend (an impasse)"; "you may not move
 * through impassable regions in any direction". */
static void test_impasse_cannot_be_crossed_up_or_down(void **state)
{
  struct engine_game *game = js_climbing(15);

  ST->climber[0].items[JOURNEY_FOOD] = 5;
  js_put(game, 0, "L1-N");
  kit_reject(game, 0, MOVE("L2-N"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  js_put(game, 0, "L2-N");
  kit_reject(game, 0, MOVE("L1-N"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  engine_free(game);
}

/* journey, Gameplay 1a: "You may move downward without paying the
 * associated cost." */
static void test_descending_is_free(void **state)
{
  struct engine_game *game = js_climbing(16);

  js_put(game, 0, "L4-W"); /* L3-W costs 2 food to ascend */
  json_decref(kit_apply(&game, 0, MOVE("L3-W")));
  assert_int_equal(ST->climber[0].space, js_space("L3-W"));
  engine_free(game);
}

/* journey, Gameplay 1a: one space only. */
static void test_moves_are_one_space(void **state)
{
  struct engine_game *game = js_climbing(17);

  kit_reject(game, 0, MOVE("L1-W"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  assert_true(js_is_legal(game, 0, MOVE("L1-S")));
  assert_false(js_is_legal(game, 0, MOVE("L1-W")));
  engine_free(game);
}

/* journey, Gameplay 1c: "Giving an equipment card to another climbing
 * player at the cost of one action per card.. Players can only trade
 * equipment if they are in the same location." */
static void test_giving_equipment_needs_the_same_space_and_costs_an_action(void **state)
{
  struct engine_game *game = js_climbing(18);

  ST->climber[0].items[JOURNEY_ROPE] = 2;
  json_decref(kit_apply(&game, 0, GIVE("rope")));
  assert_int_equal(ST->climber[0].items[JOURNEY_ROPE], 1);
  assert_int_equal(ST->climber[1].items[JOURNEY_ROPE], 1);
  assert_int_equal(ST->climber[0].actions, 2);
  json_decref(kit_apply(&game, 0, MOVE("L1-S")));
  kit_reject(game, 0, GIVE("rope"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  kit_reject(game, 0, GIVE("tent"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  engine_free(game);
}

/* journey, Gameplay 3: "Players ending their turn on or above the O2 zone
 * lose 1 health. If a player owns the O2 tank item, they do not take this
 * damage." */
static void test_o2_zone_hurts_at_end_of_turn_unless_holding_a_tank(void **state)
{
  struct engine_game *game = js_climbing(19);
  json_t *events;

  js_put(game, 0, "L6-S");
  js_put(game, 1, "L7-S");
  ST->climber[1].items[JOURNEY_O2_TANK] = 1;
  json_decref(kit_apply(&game, 0, END));
  events = kit_apply(&game, 1, END);
  assert_int_equal(ST->climber[0].health, 9);
  assert_int_equal(ST->climber[1].health, 10);
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "damaged", 0), "cause")),
                      "altitude");
  json_decref(events);
  engine_free(game);
}

/* journey, Objective: "Both climbers must end a turn on the top of the
 * mountain to win"; Ending the game: "when both players reach the summit
 * and then return to the base camp (players win)". */
static void test_climbers_win_after_both_summit_and_return_to_base_camp(void **state)
{
  struct engine_game *game = js_climbing(20);
  json_t *events, *result;

  js_put(game, 0, "L7-S");
  js_put(game, 1, "L7-N");
  ST->climber[0].items[JOURNEY_O2_TANK] = 1;
  ST->climber[1].items[JOURNEY_O2_TANK] = 1;
  json_decref(kit_apply(&game, 0, END));
  events = kit_apply(&game, 1, END);
  assert_int_equal(kit_count(events, "summited"), 2);
  assert_true(ST->climber[0].summited && ST->climber[1].summited);
  json_decref(events);
  json_decref(kit_apply(&game, JOURNEY_MOUNTAIN, END));
  /* Back down (placed directly), then a turn ends in base camp. */
  js_put(game, 0, "L1-S");
  js_put(game, 1, "base_camp");
  json_decref(kit_apply(&game, 0, MOVE("base_camp")));
  json_decref(kit_apply(&game, 0, END));
  events = kit_apply(&game, 1, END);
  assert_non_null(kit_event(events, "game_over", 0));
  result = journey_module.result(game);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "summit-and-back");
  assert_int_equal(json_array_size(json_object_get(result, "winners")), 2);
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

/* Only a climber who ended a turn on the top counts: passing through
 * during a turn does not. */
static void test_passing_the_top_within_a_turn_does_not_count(void **state)
{
  struct engine_game *game = js_climbing(21);

  js_put(game, 0, "L7-S");
  json_decref(kit_apply(&game, 0, MOVE("L6-S")));
  json_decref(kit_apply(&game, 0, END));
  json_decref(kit_apply(&game, 1, END));
  assert_false(ST->climber[0].summited);
  engine_free(game);
}

/* Winter is coming (RULES.md): when the turn limit's turn ends without the
 * climbers' win, the Mountain wins. */
static void test_winter_ends_the_game_at_the_turn_limit(void **state)
{
  struct engine_game *game = js_climbing(22);
  json_t *result;

  ST->turn_limit = 1;
  json_decref(kit_apply(&game, 0, END));
  json_decref(kit_apply(&game, 1, END));
  result = journey_module.result(game);
  assert_non_null(result);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "winter");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)),
                   JOURNEY_MOUNTAIN);
  json_decref(result);
  engine_free(game);
}

/* High Wind / Blizzard: "cannot move next turn" - the flag set during the
 * Mountain's turn binds the following climbers' turn only. */
static void test_cannot_move_binds_the_next_turn_only(void **state)
{
  struct engine_game *game = js_mountain(23);

  ST->climber[0].next_cannot_move = true;
  json_decref(kit_apply(&game, JOURNEY_MOUNTAIN, END));
  kit_reject(game, 0, MOVE("L1-S"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_ENVIRONMENT);
  json_decref(kit_apply(&game, 0, END));
  json_decref(kit_apply(&game, 1, END));
  json_decref(kit_apply(&game, JOURNEY_MOUNTAIN, END));
  json_decref(kit_apply(&game, 0, MOVE("L1-S")));
  engine_free(game);
}

/* The Mountain cannot act in the climbers' turn. */
static void test_mountain_does_not_act_in_the_climbers_turn(void **state)
{
  struct engine_game *game = js_climbing(24);

  kit_reject(game, JOURNEY_MOUNTAIN, END, CAIRN_ETURN, CAIRN_CODE_NOT_YOUR_TURN, NULL);
  engine_free(game);
}

/* A Mountain move in the climbers' turn is refused under the climbers'
 * heading (Gameplay 2: the environment player's turn comes "once they've
 * finished their actions"). */
static void test_moves_of_another_step_are_refused(void **state)
{
  struct engine_game *game = js_climbing(25);
  struct cairn_error err;

  err = kit_reject(game, 0, "{\"type\":\"discard\",\"card\":\"yeti\"}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  assert_non_null(strstr(err.detail, "a \"discard\" move does not fit the current step"));
  kit_reject(game, 1, "{\"type\":\"buy\",\"item\":\"food\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tenzing_takes_three_actions_and_hillary_two),
      cmocka_unit_test(test_climbers_act_simultaneously_in_any_interleaving),
      cmocka_unit_test(test_ascending_pays_food_and_needs_it),
      cmocka_unit_test(test_free_ascent_costs_nothing),
      cmocka_unit_test(test_impasse_cannot_be_crossed_up_or_down),
      cmocka_unit_test(test_descending_is_free),
      cmocka_unit_test(test_moves_are_one_space),
      cmocka_unit_test(test_giving_equipment_needs_the_same_space_and_costs_an_action),
      cmocka_unit_test(test_o2_zone_hurts_at_end_of_turn_unless_holding_a_tank),
      cmocka_unit_test(test_climbers_win_after_both_summit_and_return_to_base_camp),
      cmocka_unit_test(test_passing_the_top_within_a_turn_does_not_count),
      cmocka_unit_test(test_winter_ends_the_game_at_the_turn_limit),
      cmocka_unit_test(test_cannot_move_binds_the_next_turn_only),
      cmocka_unit_test(test_mountain_does_not_act_in_the_climbers_turn),
      cmocka_unit_test(test_moves_of_another_step_are_refused),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
