/*
 * test_environment.c - each environment card (engine/journey/environment.c)
 * and the answers two of them ask for: High Wind, Avalanche (with the
 * Grappling Hook and Rope), Rockslide, Yeti, Crevice, Frostbite (with the
 * Tent), Blizzard; and death.
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

#define ST  js_state(game)
#define M   JOURNEY_MOUNTAIN
#define END "{\"type\":\"end_turn\"}"

/* A Mountain's turn holding one `card` with enough value paid for it. */
static struct engine_game *ready(int seed, int card)
{
  struct engine_game *game = js_mountain(seed);

  memset(ST->hand, 0, sizeof(ST->hand));
  ST->hand[card] = 1;
  ST->credit = 20;
  return game;
}

static const char *cause(json_t *events, int nth)
{
  return json_string_value(json_object_get(kit_event(events, "damaged", nth), "cause"));
}

/* journey, High Wind: "Players cannot move next turn. Take 1 damage for
 * every level above the tree line." */
static void test_high_wind_hurts_by_levels_above_the_tree_line(void **state)
{
  struct engine_game *game = ready(61, JOURNEY_HIGH_WIND);
  json_t *events;

  js_put(game, 0, "L5-N");
  js_put(game, 1, "L2-N");
  events = kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"high_wind\"}");
  assert_int_equal(ST->climber[0].health, 7);
  assert_int_equal(ST->climber[1].health, 10);
  assert_true(ST->climber[0].next_cannot_move && ST->climber[1].next_cannot_move);
  assert_string_equal(cause(events, 0), "high_wind");
  /* Names beside ids: "Tenzing took 3 damage from High Wind" from the
   * event alone. */
  assert_string_equal(
      json_string_value(json_object_get(kit_event(events, "damaged", 0), "seat_name")), "Tenzing");
  assert_string_equal(
      json_string_value(json_object_get(kit_event(events, "damaged", 0), "cause_name")),
      "High Wind");
  assert_string_equal(
      json_string_value(json_object_get(kit_event(events, "played", 0), "card_name")), "High Wind");
  json_decref(events);
  json_decref(kit_apply(&game, M, END));
  assert_true(ST->climber[0].cannot_move && ST->climber[1].cannot_move);
  engine_free(game);
}

/* journey, High Wind: "Players cannot move next turn." The refusal names
 * the card that holds the climber. */
static void test_high_wind_refusal_names_the_card(void **state)
{
  struct engine_game *game = ready(62, JOURNEY_HIGH_WIND);
  struct cairn_error err;

  json_decref(kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"high_wind\"}"));
  json_decref(kit_apply(&game, M, END));
  err = kit_reject(game, 1, "{\"type\":\"move\",\"to\":\"L1-S\"}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT);
  assert_non_null(strstr(err.detail, "hillary cannot move this turn: High Wind"));
  engine_free(game);
}

/* journey, Tent: "Pitch to prevent High Wind damage" - shared on a space. */
static void test_pitched_tent_prevents_high_wind_damage(void **state)
{
  struct engine_game *game = ready(62, JOURNEY_HIGH_WIND);

  js_put(game, 0, "L5-N");
  js_put(game, 1, "L5-N");
  ST->climber[1].items[JOURNEY_TENT] = 1;
  ST->climber[1].tent = js_space("L5-N");
  json_decref(kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"high_wind\"}"));
  assert_int_equal(ST->climber[0].health, 10);
  assert_int_equal(ST->climber[1].health, 10);
  assert_true(ST->climber[0].next_cannot_move);
  engine_free(game);
}

#define AVALANCHE_S "{\"type\":\"play\",\"card\":\"avalanche\",\"quadrant\":\"S\"}"

/* journey, Avalanche: "Choose a quadrant. Every player in that quadrant
 * drops 2 levels and loses 2 health." Base camp lies in no quadrant. */
static void test_avalanche_drops_the_quadrant_two_levels(void **state)
{
  struct engine_game *game = ready(63, JOURNEY_AVALANCHE);
  json_t *events;

  js_put(game, 0, "L5-S");
  js_put(game, 1, "L5-E");
  events = kit_apply(&game, M, AVALANCHE_S);
  assert_int_equal(ST->climber[0].space, js_space("L3-S")); /* through L4-S..L3-S */
  assert_int_equal(ST->climber[0].health, 8);
  assert_int_equal(ST->climber[1].space, js_space("L5-E"));
  assert_int_equal(ST->climber[1].health, 10);
  assert_int_equal(ST->phase, JOURNEY_PHASE_MOUNTAIN);
  assert_non_null(kit_event(events, "avalanche_hit", 0));
  json_decref(events);
  engine_free(game);
}

/* RULES.md: the drop stops at L1 and ignores impasses. */
static void test_avalanche_stops_at_level_one(void **state)
{
  struct engine_game *game = ready(64, JOURNEY_AVALANCHE);

  js_put(game, 0, "L2-S");
  js_put(game, 1, "base_camp");
  json_decref(kit_apply(&game, M, AVALANCHE_S));
  assert_int_equal(ST->climber[0].space, js_space("L1-S"));
  assert_int_equal(ST->climber[1].health, 10);
  engine_free(game);
}

/* journey, Grappling Hook: "May be discarded to halve the effects of
 * Avalanche. Discard with Rope to nullify effects of Avalanche." The
 * climbers holding a hook answer first, together. */
static void test_hook_halves_and_hook_with_rope_nullifies_an_avalanche(void **state)
{
  struct engine_game *game = ready(65, JOURNEY_AVALANCHE);
  int seats[ENGINE_MAX_SEATS], pending;

  js_put(game, 0, "L5-S");
  js_put(game, 1, "L6-S");
  ST->climber[0].items[JOURNEY_HOOK] = 1;
  ST->climber[1].items[JOURNEY_HOOK] = 1;
  ST->climber[1].items[JOURNEY_ROPE] = 1;
  json_decref(kit_apply(&game, M, AVALANCHE_S));
  assert_int_equal(ST->phase, JOURNEY_PHASE_REACT);
  assert_int_equal(journey_module.to_act(game, seats), 2);
  kit_reject(game, 0, "{\"type\":\"avalanche\",\"protect\":\"hook_and_rope\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT);
  json_decref(js_apply_p(&game, 0, "{\"type\":\"avalanche\",\"protect\":\"hook\"}", &pending));
  assert_true(pending);
  assert_int_equal(ST->climber[0].space, js_space("L5-S")); /* not yet landed */
  json_decref(
      js_apply_p(&game, 1, "{\"type\":\"avalanche\",\"protect\":\"hook_and_rope\"}", &pending));
  assert_false(pending);
  assert_int_equal(ST->climber[0].space, js_space("L4-S"));
  assert_int_equal(ST->climber[0].health, 9);
  assert_int_equal(ST->climber[0].items[JOURNEY_HOOK], 0);
  assert_int_equal(ST->climber[1].space, js_space("L6-S"));
  assert_int_equal(ST->climber[1].health, 10);
  assert_int_equal(ST->climber[1].items[JOURNEY_HOOK] + ST->climber[1].items[JOURNEY_ROPE], 0);
  assert_int_equal(ST->phase, JOURNEY_PHASE_MOUNTAIN);
  engine_free(game);
}

/* journey, Rockslide: "Target player chooses one: (1) Lose 2 health or (2)
 * discard 1 equipment card." */
static void test_rockslide_target_chooses_health_or_equipment(void **state)
{
  struct engine_game *game = ready(66, JOURNEY_ROCKSLIDE);
  int seats[ENGINE_MAX_SEATS];

  ST->climber[1].items[JOURNEY_FOOD] = 1;
  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"rockslide\",\"target\":\"hillary\"}"));
  assert_int_equal(journey_module.to_act(game, seats), 1);
  assert_int_equal(seats[0], 1);
  kit_reject(game, 1, "{\"type\":\"rockslide\",\"choice\":\"discard\",\"item\":\"tent\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT);
  assert_true(js_is_legal(game, 1, "{\"type\":\"rockslide\",\"choice\":\"health\"}"));
  json_decref(
      kit_apply(&game, 1, "{\"type\":\"rockslide\",\"choice\":\"discard\",\"item\":\"food\"}"));
  assert_int_equal(ST->climber[1].items[JOURNEY_FOOD], 0);
  assert_int_equal(ST->climber[1].health, 10);
  assert_int_equal(ST->phase, JOURNEY_PHASE_MOUNTAIN);
  ST->hand[JOURNEY_ROCKSLIDE] = 1;
  ST->credit = 6;
  /* Now holding nothing, Hillary has no choice: 2 health. */
  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"rockslide\",\"target\":\"hillary\"}"));
  assert_int_equal(ST->climber[1].health, 8);
  assert_int_equal(ST->phase, JOURNEY_PHASE_MOUNTAIN);
  engine_free(game);
}

/* journey, Yeti: "Summon Yeti to the peak (6 health ...)". */
static void test_yeti_is_summoned_to_the_peak_with_six_health(void **state)
{
  struct engine_game *game = ready(67, JOURNEY_YETI);

  json_decref(kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"yeti\"}"));
  assert_int_equal(ST->yeti_level, 7);
  assert_int_equal(ST->yeti_health, 6);
  assert_int_equal(ST->credit, 5);
  engine_free(game);
}

/* journey, Yeti: "... then deals damage to all other players on that level.
 * After dealing damage, roll a 4+ to draw a card." */
static void test_yeti_hurts_its_level_and_draws_on_four(void **state)
{
  struct engine_game *game = js_mountain(68);
  json_t *events;
  int hand = journey_hand_size(ST);

  ST->yeti_level = 7;
  ST->yeti_health = 6;
  js_put(game, 0, "L6-N");
  js_put(game, 1, "L6-E");
  js_next_die(game, 4);
  events = kit_apply(&game, M, "{\"type\":\"yeti\",\"direction\":\"down\"}");
  assert_int_equal(ST->climber[0].health, 9);
  assert_int_equal(ST->climber[1].health, 9);
  assert_string_equal(cause(events, 0), "yeti");
  assert_int_equal(kit_int(kit_event(events, "yeti_roll", 0), "roll"), 4);
  assert_int_equal(journey_hand_size(ST), hand + 1);
  json_decref(events);
  engine_free(game);
}

/* ... and on a 3 no card is drawn; nobody on the level: no roll at all. */
static void test_yeti_draws_nothing_below_four_or_without_victims(void **state)
{
  struct engine_game *game = js_mountain(69);
  json_t *events;
  int hand = journey_hand_size(ST);

  ST->yeti_level = 5;
  ST->yeti_health = 6;
  js_put(game, 0, "L5-N");
  js_next_die(game, 3);
  events = kit_apply(&game, M, "{\"type\":\"yeti\",\"direction\":\"stay\"}");
  assert_int_equal(journey_hand_size(ST), hand);
  assert_int_equal(kit_int(kit_event(events, "yeti_roll", 0), "roll"), 3);
  json_decref(events);
  js_put(game, 0, "L1-N");
  ST->yeti_acted = false;
  events = kit_apply(&game, M, "{\"type\":\"yeti\",\"direction\":\"up\"}");
  assert_int_equal(kit_count(events, "yeti_roll"), 0);
  json_decref(events);
  engine_free(game);
}

/* journey, Crevice: "Choose a player to fall into a crevice. Player cannot
 * move and loses 1 health at the end of the turn." */
static void test_crevice_holds_a_climber_and_hurts_at_end_of_turn(void **state)
{
  struct engine_game *game = ready(70, JOURNEY_CREVICE);

  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"crevice\",\"target\":\"tenzing\"}"));
  assert_true(ST->climber[0].in_crevice);
  js_next_die(game, 2);
  json_decref(kit_apply(&game, M, END));
  assert_true(ST->climber[0].in_crevice);
  kit_reject(game, 0, "{\"type\":\"move\",\"to\":\"L1-S\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT);
  json_decref(kit_apply(&game, 0, END));
  json_decref(kit_apply(&game, 1, END));
  assert_int_equal(ST->climber[0].health, 9);
  engine_free(game);
}

/* journey, Crevice: "At the beginning of their turn, if they roll 4 with
 * one die, they escape the crevice." A 4 exactly (RULES.md). */
static void test_crevice_is_escaped_on_a_four(void **state)
{
  struct engine_game *game = js_mountain(71);
  json_t *events;

  ST->climber[1].in_crevice = true;
  js_next_die(game, 5);
  events = kit_apply(&game, M, END);
  assert_true(ST->climber[1].in_crevice);
  assert_int_equal(kit_int(kit_event(events, "crevice_roll", 0), "roll"), 5);
  json_decref(events);
  json_decref(kit_apply(&game, 0, END));
  json_decref(kit_apply(&game, 1, END));
  js_next_die(game, 4);
  events = kit_apply(&game, M, END);
  assert_false(ST->climber[1].in_crevice);
  json_decref(events);
  engine_free(game);
}

#define FROSTBITE_T "{\"type\":\"play\",\"card\":\"frostbite\",\"target\":\"tenzing\"}"

/* journey, Frostbite: "Target player cannot use equipment on their next
 * turn. If they are on or above the ice bridge, they take 1 damage." */
static void test_frostbite_bars_equipment_and_hurts_on_the_ice_bridge(void **state)
{
  struct engine_game *game = ready(72, JOURNEY_FROSTBITE);

  js_put(game, 0, "L4-S");
  json_decref(kit_apply(&game, M, FROSTBITE_T));
  assert_true(ST->climber[0].next_no_equipment);
  assert_int_equal(ST->climber[0].health, 9);
  ST->hand[JOURNEY_FROSTBITE] = 1;
  js_put(game, 0, "L3-S");
  ST->climber[0].health = 10;
  json_decref(kit_apply(&game, M, FROSTBITE_T));
  assert_int_equal(ST->climber[0].health, 10);
  json_decref(kit_apply(&game, M, END));
  assert_true(ST->climber[0].no_equipment);
  engine_free(game);
}

/* journey, Tent: "roll 1 die for 3+ to prevent Frostbite when pitched". */
static void test_pitched_tent_prevents_frostbite_on_three(void **state)
{
  struct engine_game *game = ready(73, JOURNEY_FROSTBITE);
  json_t *events;

  js_put(game, 0, "L4-S");
  ST->climber[0].items[JOURNEY_TENT] = 1;
  ST->climber[0].tent = js_space("L4-S");
  js_next_die(game, 3);
  events = kit_apply(&game, M, FROSTBITE_T);
  assert_true(json_is_true(json_object_get(kit_event(events, "tent_roll", 0), "prevented")));
  assert_false(ST->climber[0].next_no_equipment);
  assert_int_equal(ST->climber[0].health, 10);
  json_decref(events);
  ST->hand[JOURNEY_FROSTBITE] = 1;
  js_next_die(game, 2);
  json_decref(kit_apply(&game, M, FROSTBITE_T));
  assert_true(ST->climber[0].next_no_equipment);
  assert_int_equal(ST->climber[0].health, 9);
  engine_free(game);
}

/* journey, Blizzard: "Players take 1 damage and move 1 square in a
 * direction of the environment's choice. If they are above the tree line,
 * they cannot move next turn." */
static void test_blizzard_hurts_and_blows_climbers_the_chosen_way(void **state)
{
  struct engine_game *game = ready(74, JOURNEY_BLIZZARD);

  js_put(game, 0, "L4-N");
  js_put(game, 1, "L2-W");
  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"blizzard\",\"direction\":\"clockwise\"}"));
  assert_int_equal(ST->climber[0].space, js_space("L4-E"));
  assert_int_equal(ST->climber[1].space, js_space("L2-N"));
  assert_int_equal(ST->climber[0].health, 9);
  assert_int_equal(ST->climber[1].health, 9);
  assert_true(ST->climber[0].next_cannot_move);
  assert_false(ST->climber[1].next_cannot_move);
  engine_free(game);
}

/* RULES.md: a climber with no space that way (here an impasse) stays. */
static void test_blizzard_cannot_blow_through_an_impasse(void **state)
{
  struct engine_game *game = ready(75, JOURNEY_BLIZZARD);

  js_put(game, 0, "L2-N");
  js_put(game, 1, "L1-S");
  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"blizzard\",\"direction\":\"down\"}"));
  assert_int_equal(ST->climber[0].space, js_space("L2-N"));
  assert_int_equal(ST->climber[1].space, JOURNEY_BASE_CAMP);
  engine_free(game);
}

/* journey, Objective: "If either player dies, Mt. Everest wins." */
static void test_a_dead_climber_gives_the_mountain_the_win(void **state)
{
  struct engine_game *game = ready(76, JOURNEY_AVALANCHE);
  json_t *events, *result;

  js_put(game, 1, "L3-S");
  ST->climber[1].health = 2;
  events = kit_apply(&game, M, AVALANCHE_S);
  assert_non_null(kit_event(events, "game_over", 0));
  result = journey_module.result(game);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "death");
  assert_string_equal(json_string_value(json_object_get(result, "dead")), "hillary");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), M);
  assert_int_equal(journey_module.to_act(game, (int[ENGINE_MAX_SEATS]){0}), 0);
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

/* Rockslide answered by discarding the last tent strikes the pitched tent
 * (RULES.md "Tent"). */
static void test_discarding_the_last_tent_strikes_it(void **state)
{
  struct engine_game *game = ready(77, JOURNEY_ROCKSLIDE);

  js_put(game, 0, "L3-E");
  ST->climber[0].items[JOURNEY_TENT] = 1;
  ST->climber[0].tent = js_space("L3-E");
  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"rockslide\",\"target\":\"tenzing\"}"));
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"rockslide\",\"choice\":\"discard\",\"item\":\"tent\"}"));
  assert_int_equal(ST->climber[0].tent, -1);
  assert_false(journey_sheltered(ST, 0));
  engine_free(game);
}

/* journey, Blizzard: the Mountain may blow climbers up too; from base camp
 * the only way up is L1-S. */
static void test_blizzard_up_from_base_camp_reaches_the_south_of_level_one(void **state)
{
  struct engine_game *game = ready(78, JOURNEY_BLIZZARD);

  json_decref(
      kit_apply(&game, M, "{\"type\":\"play\",\"card\":\"blizzard\",\"direction\":\"up\"}"));
  assert_int_equal(ST->climber[0].space, js_space("L1-S"));
  assert_int_equal(ST->climber[1].space, js_space("L1-S"));
  assert_false(ST->climber[0].next_cannot_move);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_high_wind_hurts_by_levels_above_the_tree_line),
      cmocka_unit_test(test_high_wind_refusal_names_the_card),
      cmocka_unit_test(test_pitched_tent_prevents_high_wind_damage),
      cmocka_unit_test(test_avalanche_drops_the_quadrant_two_levels),
      cmocka_unit_test(test_avalanche_stops_at_level_one),
      cmocka_unit_test(test_hook_halves_and_hook_with_rope_nullifies_an_avalanche),
      cmocka_unit_test(test_rockslide_target_chooses_health_or_equipment),
      cmocka_unit_test(test_yeti_is_summoned_to_the_peak_with_six_health),
      cmocka_unit_test(test_yeti_hurts_its_level_and_draws_on_four),
      cmocka_unit_test(test_yeti_draws_nothing_below_four_or_without_victims),
      cmocka_unit_test(test_crevice_holds_a_climber_and_hurts_at_end_of_turn),
      cmocka_unit_test(test_crevice_is_escaped_on_a_four),
      cmocka_unit_test(test_frostbite_bars_equipment_and_hurts_on_the_ice_bridge),
      cmocka_unit_test(test_pitched_tent_prevents_frostbite_on_three),
      cmocka_unit_test(test_blizzard_hurts_and_blows_climbers_the_chosen_way),
      cmocka_unit_test(test_blizzard_cannot_blow_through_an_impasse),
      cmocka_unit_test(test_a_dead_climber_gives_the_mountain_the_win),
      cmocka_unit_test(test_discarding_the_last_tent_strikes_it),
      cmocka_unit_test(test_blizzard_up_from_base_camp_reaches_the_south_of_level_one),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
