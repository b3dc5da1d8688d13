/*
 * test_equipment.c - using equipment cards (engine/journey/equipment.c):
 * Food, Rope, Grappling Hook, Tent, Bow & Arrow, Forecast, and the O2 tank
 * that is never "used".
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

#define ST             js_state(game)
#define USE(item)      "{\"type\":\"use\",\"item\":\"" item "\"}"
#define HOOK(to)       "{\"type\":\"use\",\"item\":\"grappling_hook\",\"to\":\"" to "\"}"
#define BOW(target)    "{\"type\":\"use\",\"item\":\"bow_and_arrow\",\"target\":\"" target "\"}"
#define END            "{\"type\":\"end_turn\"}"
#define EQUIP(c, i, n) (ST->climber[c].items[i] = (n))

/* journey, Food: "Discard to restore 1 health." */
static void test_food_restores_one_health(void **state)
{
  struct engine_game *game = js_climbing(31);

  EQUIP(0, JOURNEY_FOOD, 2);
  ST->climber[0].health = 7;
  json_decref(kit_apply(&game, 0, USE("food")));
  assert_int_equal(ST->climber[0].health, 8);
  assert_int_equal(ST->climber[0].items[JOURNEY_FOOD], 1);
  assert_int_equal(ST->climber[0].actions, 2);
  ST->climber[0].health = 10;
  kit_reject(game, 0, USE("food"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  engine_free(game);
}

/* Using a card one does not hold is refused. */
static void test_cannot_use_equipment_not_held(void **state)
{
  struct engine_game *game = js_climbing(32);

  kit_reject(game, 0, USE("tent"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  engine_free(game);
}

/* journey, Rope: "Discard to escape Crevice". */
static void test_rope_escapes_a_crevice(void **state)
{
  struct engine_game *game = js_climbing(33);

  EQUIP(1, JOURNEY_ROPE, 1);
  kit_reject(game, 1, USE("rope"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  ST->climber[1].in_crevice = true;
  json_decref(kit_apply(&game, 1, USE("rope")));
  assert_false(ST->climber[1].in_crevice);
  assert_int_equal(ST->climber[1].items[JOURNEY_ROPE], 0);
  json_decref(kit_apply(&game, 1, "{\"type\":\"move\",\"to\":\"L1-S\"}"));
  engine_free(game);
}

/* journey, Grappling Hook: "Discard to move two spaces in any direction
 * without paying costs." */
static void test_grappling_hook_moves_two_spaces_without_costs(void **state)
{
  struct engine_game *game = js_climbing(34);

  EQUIP(0, JOURNEY_HOOK, 2);
  js_put(game, 0, "L3-W"); /* ascending from L3-W costs 2 food; none held */
  json_decref(kit_apply(&game, 0, HOOK("L5-W")));
  assert_int_equal(ST->climber[0].space, js_space("L5-W"));
  assert_int_equal(ST->climber[0].items[JOURNEY_HOOK], 1);
  kit_reject(game, 0, HOOK("L2-W"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_EQUIPMENT);
  engine_free(game);
}

/* journey, Grappling Hook: "If an impasse is jumped, move one space
 * instead." */
static void test_grappling_hook_jumps_an_impasse_one_space(void **state)
{
  struct engine_game *game = js_climbing(35);

  EQUIP(0, JOURNEY_HOOK, 1);
  js_put(game, 0, "L1-N");
  kit_reject(game, 0, HOOK("L3-N"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_EQUIPMENT);
  json_decref(kit_apply(&game, 0, HOOK("L2-N")));
  assert_int_equal(ST->climber[0].space, js_space("L2-N"));
  engine_free(game);
}

/* journey, Tent: "Pitch to prevent High Wind damage"; "Players in the same
 * location may share a tent." */
static void test_tent_shelters_everyone_on_its_space(void **state)
{
  struct engine_game *game = js_climbing(36);

  EQUIP(0, JOURNEY_TENT, 1);
  js_put(game, 0, "L5-S");
  js_put(game, 1, "L5-S");
  json_decref(kit_apply(&game, 0, USE("tent")));
  assert_int_equal(ST->climber[0].tent, js_space("L5-S"));
  assert_true(journey_sheltered(ST, 0));
  assert_true(journey_sheltered(ST, 1));
  kit_reject(game, 0, USE("tent"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  /* Leaving the space strikes the tent. */
  json_decref(kit_apply(&game, 0, "{\"type\":\"move\",\"to\":\"L5-W\"}"));
  assert_int_equal(ST->climber[0].tent, -1);
  assert_false(journey_sheltered(ST, 1));
  engine_free(game);
}

/* journey, Bow & Arrow: "Below tree line, roll 2 dice for 8+ to obtain one
 * food." */
static void test_bow_finds_food_below_the_tree_line_on_eight(void **state)
{
  struct engine_game *game = js_climbing(37);
  json_t *events;
  int hits = 0, i;

  EQUIP(0, JOURNEY_BOW, 1);
  js_put(game, 0, "L3-E");
  kit_reject(game, 0, BOW("food"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  js_put(game, 0, "L2-S");
  for (i = 0; i < 40; i++) {
    json_t *ev;
    int before = ST->climber[0].items[JOURNEY_FOOD], sum;

    ST->climber[0].actions = 3;
    events = kit_apply(&game, 0, BOW("food"));
    ev = kit_event(events, "bow", 0);
    sum = (int)(json_integer_value(json_array_get(json_object_get(ev, "dice"), 0)) +
                json_integer_value(json_array_get(json_object_get(ev, "dice"), 1)));
    assert_int_equal(json_is_true(json_object_get(ev, "hit")), sum >= 8);
    assert_int_equal(ST->climber[0].items[JOURNEY_FOOD], before + (sum >= 8));
    hits += sum >= 8;
    json_decref(events);
  }
  /* The bow is not discarded. */
  assert_int_equal(ST->climber[0].items[JOURNEY_BOW], 1);
  assert_true(hits > 0 && hits < 40);
  engine_free(game);
}

/* journey, Bow & Arrow: "Roll 2 dice for 7+ to deal 2 damage to Yeti." */
static void test_bow_wounds_the_yeti_on_seven(void **state)
{
  struct engine_game *game = js_climbing(38);
  json_t *events;
  int i;

  EQUIP(1, JOURNEY_BOW, 1);
  kit_reject(game, 1, BOW("yeti"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  ST->yeti_level = 7;
  ST->yeti_health = 6;
  for (i = 0; i < 60 && ST->yeti_level > 0; i++) {
    json_t *ev;
    int before = ST->yeti_health, sum;

    ST->climber[1].actions = 2;
    ST->climber[1].done = false;
    events = kit_apply(&game, 1, BOW("yeti"));
    ev = kit_event(events, "bow", 0);
    sum = (int)(json_integer_value(json_array_get(json_object_get(ev, "dice"), 0)) +
                json_integer_value(json_array_get(json_object_get(ev, "dice"), 1)));
    assert_int_equal(ST->yeti_health, sum >= 7 ? before - 2 : before);
    json_decref(events);
  }
  /* Three hits kill it: it leaves the mountain. */
  assert_int_equal(ST->yeti_level, 0);
  assert_int_equal(ST->yeti_health, 0);
  engine_free(game);
}

/* journey, Forecast: "Discard to look at the environment's hand. Choose one
 * card from the hand to remove from play for the entirety of the game." The
 * hand is shown to that climber only. */
static void test_forecast_shows_the_hand_to_its_user_and_removes_a_card(void **state)
{
  static const int hand[JOURNEY_CARDS] = {[JOURNEY_AVALANCHE] = 2, [JOURNEY_CREVICE] = 1};
  struct engine_game *game = js_climbing(39);
  json_t *events, *ev, *mine, *other, *mountain;

  EQUIP(0, JOURNEY_FORECAST, 1);
  js_hand(game, hand);
  events = kit_apply(&game, 0, USE("forecast"));
  ev = kit_event(events, "forecast", 0);
  assert_non_null(ev);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(ev, "private_to"), 0)), 0);
  assert_int_equal(kit_int(json_object_get(ev, "hand"), "avalanche"), 2);
  /* Names beside ids, in the same private event: "Avalanche" x 2. */
  assert_int_equal(kit_int(json_object_get(ev, "hand_names"), "Avalanche"), 2);
  assert_string_equal(json_string_value(json_object_get(ev, "seat_name")), "Tenzing");
  assert_false(engine_event_visible(ev, 1, false));
  assert_false(engine_event_visible(ev, JOURNEY_MOUNTAIN, false));
  assert_false(engine_event_visible(ev, ENGINE_SPECTATOR, false));
  json_decref(events);
  /* The choice comes before anything else. */
  kit_reject(game, 0, END, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  kit_reject(game, 0, "{\"type\":\"remove\",\"card\":\"yeti\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  events = kit_apply(&game, 0, "{\"type\":\"remove\",\"card\":\"avalanche\"}");
  assert_int_equal(ST->hand[JOURNEY_AVALANCHE], 1);
  assert_int_equal(ST->removed[JOURNEY_AVALANCHE], 1);
  json_decref(events);
  mine = engine_view(game, 0);
  other = engine_view(game, 1);
  mountain = engine_view(game, JOURNEY_MOUNTAIN);
  assert_int_equal(kit_int(json_object_get(json_object_get(mine, "forecast"), "hand"), "avalanche"),
                   2);
  assert_true(json_is_null(json_object_get(other, "forecast")));
  assert_null(json_object_get(other, "hand"));
  assert_null(json_object_get(mountain, "forecast"));
  json_decref(mine);
  json_decref(other);
  json_decref(mountain);
  engine_free(game);
}

/* Both climbers look in the same turn (RULES.md "Forecast"): when the first
 * removal empties the hand, the second climber's choice lapses, and a
 * climber with no actions left is then done. */
static void test_second_forecast_lapses_when_the_hand_is_emptied(void **state)
{
  static const int hand[JOURNEY_CARDS] = {[JOURNEY_YETI] = 1};
  struct engine_game *game = js_climbing(42);
  json_t *events;
  int pending;

  EQUIP(0, JOURNEY_FORECAST, 1);
  EQUIP(1, JOURNEY_FORECAST, 1);
  js_hand(game, hand);
  ST->climber[1].actions = 1;
  json_decref(kit_apply(&game, 0, USE("forecast")));
  json_decref(kit_apply(&game, 1, USE("forecast")));
  assert_true(ST->climber[0].choosing && ST->climber[1].choosing);
  events = js_apply_p(&game, 0, "{\"type\":\"remove\",\"card\":\"yeti\"}", &pending);
  assert_int_equal(kit_int(kit_event(events, "nothing_to_remove", 0), "seat"), 1);
  json_decref(events);
  assert_false(ST->climber[1].choosing);
  assert_true(ST->climber[1].done);
  assert_true(pending); /* Tenzing still has actions */
  assert_int_equal(ST->removed[JOURNEY_YETI], 1);
  engine_free(game);
}

/* journey, O2 Tank: "Player does not take high altitude damage" - it works
 * by being held and is never spent as an action. */
static void test_o2_tank_is_never_used_as_an_action(void **state)
{
  struct engine_game *game = js_climbing(40);

  EQUIP(0, JOURNEY_O2_TANK, 1);
  kit_reject(game, 0, USE("o2_tank"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_EQUIPMENT);
  engine_free(game);
}

/* journey, Frostbite: "Target player cannot use equipment on their next
 * turn" - giving is not using and stays allowed. */
static void test_frostbitten_climber_cannot_use_equipment(void **state)
{
  struct engine_game *game = js_climbing(41);

  EQUIP(0, JOURNEY_FOOD, 1);
  ST->climber[0].health = 5;
  ST->climber[0].no_equipment = true;
  kit_reject(game, 0, USE("food"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_ENVIRONMENT);
  json_decref(kit_apply(&game, 0, "{\"type\":\"give\",\"item\":\"food\"}"));
  engine_free(game);
}

/* High Wind: "Players cannot move next turn" - the hook is movement too. */
static void test_grappling_hook_is_movement_and_obeys_cannot_move(void **state)
{
  struct engine_game *game = js_climbing(43);

  EQUIP(0, JOURNEY_HOOK, 1);
  ST->climber[0].cannot_move = true;
  kit_reject(game, 0, HOOK("L2-S"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_ENVIRONMENT);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_food_restores_one_health),
      cmocka_unit_test(test_cannot_use_equipment_not_held),
      cmocka_unit_test(test_rope_escapes_a_crevice),
      cmocka_unit_test(test_grappling_hook_moves_two_spaces_without_costs),
      cmocka_unit_test(test_grappling_hook_jumps_an_impasse_one_space),
      cmocka_unit_test(test_tent_shelters_everyone_on_its_space),
      cmocka_unit_test(test_bow_finds_food_below_the_tree_line_on_eight),
      cmocka_unit_test(test_bow_wounds_the_yeti_on_seven),
      cmocka_unit_test(test_forecast_shows_the_hand_to_its_user_and_removes_a_card),
      cmocka_unit_test(test_second_forecast_lapses_when_the_hand_is_emptied),
      cmocka_unit_test(test_o2_tank_is_never_used_as_an_action),
      cmocka_unit_test(test_frostbitten_climber_cannot_use_equipment),
      cmocka_unit_test(test_grappling_hook_is_movement_and_obeys_cannot_move),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
