/*
 * test_setup.c - Setup (engine/journey/setup.c): the start position,
 * options, and buying equipment before the first turn; plus the move
 * shapes (engine/journey/moves.c) since buying is the first thing sent.
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

#define ST js_state(game)

/* journey, Setup 4-6: tokens in base camp, "Tenzing (green token) and
 * Hillary (blue token) begin with ten health", "Tenzing begins with $400
 * and Hillary begins with $600". */
static void test_climbers_start_in_base_camp_with_health_and_money(void **state)
{
  struct engine_game *game = js_new(1);

  assert_int_equal(ST->climber[0].space, JOURNEY_BASE_CAMP);
  assert_int_equal(ST->climber[1].space, JOURNEY_BASE_CAMP);
  assert_int_equal(ST->climber[0].health, 10);
  assert_int_equal(ST->climber[1].health, 10);
  assert_int_equal(ST->climber[0].money, 400);
  assert_int_equal(ST->climber[1].money, 600);
  assert_int_equal(ST->yeti_level, 0);
  engine_free(game);
}

/* journey, Mt. Everest 1: "The environment player begins by drawing 3
 * cards from the environment deck" - at setup (RULES.md); 34 cards in all. */
static void test_mountain_starts_with_three_cards_of_a_34_card_deck(void **state)
{
  struct engine_game *game = js_new(2);
  int c, total = 0;

  assert_int_equal(journey_hand_size(ST), 3);
  assert_int_equal(ST->deck_len, 31);
  for (c = 0; c < JOURNEY_CARDS; c++)
    total += journey_card_count(c);
  assert_int_equal(total, 34);
  engine_free(game);
}

/* journey, Setup 6: "Before the first turn, climbing players buy
 * equipment" - both at once; the step resolves when both are done. */
static void test_buying_is_simultaneous_and_pending_until_both_are_done(void **state)
{
  struct engine_game *game = js_new(3);
  int seats[ENGINE_MAX_SEATS], pending;

  assert_int_equal(journey_module.to_act(game, seats), 2);
  json_decref(js_apply_p(&game, 1, "{\"type\":\"buy\",\"item\":\"rope\"}", &pending));
  assert_true(pending);
  json_decref(js_apply_p(&game, 0, "{\"type\":\"buy\",\"item\":\"tent\"}", &pending));
  assert_true(pending);
  json_decref(js_apply_p(&game, 0, "{\"type\":\"done\"}", &pending));
  assert_true(pending);
  assert_int_equal(journey_module.to_act(game, seats), 1);
  assert_int_equal(seats[0], 1);
  assert_int_equal(game->seq, 0);
  json_decref(js_apply_p(&game, 1, "{\"type\":\"done\"}", &pending));
  assert_false(pending);
  assert_int_equal(game->seq, 1);
  assert_int_equal(ST->phase, JOURNEY_PHASE_CLIMB);
  assert_int_equal(ST->turn, 1);
  assert_int_equal(ST->climber[0].items[JOURNEY_TENT], 1);
  assert_int_equal(ST->climber[0].money, 250);
  assert_int_equal(ST->climber[1].items[JOURNEY_ROPE], 1);
  assert_int_equal(ST->climber[1].money, 525);
  engine_free(game);
}

/* journey, Setup 6: "The cost of the equipment is on the top right corner":
 * no buying beyond the money left. */
static void test_cannot_buy_beyond_the_money_left(void **state)
{
  struct engine_game *game = js_new(4);
  struct cairn_error err;

  ST->climber[0].money = 100;
  err = kit_reject(game, 0, "{\"type\":\"buy\",\"item\":\"bow_and_arrow\"}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_SETUP);
  assert_non_null(strstr(err.detail, "$150"));
  assert_false(js_is_legal(game, 0, "{\"type\":\"buy\",\"item\":\"bow_and_arrow\"}"));
  assert_true(js_is_legal(game, 0, "{\"type\":\"buy\",\"item\":\"o2_tank\"}"));
  engine_free(game);
}

/* journey, Setup 6: "If players buy all the cards of a certain type in the
 * deck, you may make additional cards of that type" - stock is unlimited:
 * Hillary buys 12 food. */
static void test_equipment_stock_is_unlimited(void **state)
{
  struct engine_game *game = js_new(5);
  int i;

  for (i = 0; i < 12; i++)
    json_decref(kit_apply(&game, 1, "{\"type\":\"buy\",\"item\":\"food\"}"));
  assert_int_equal(ST->climber[1].items[JOURNEY_FOOD], 12);
  assert_int_equal(ST->climber[1].money, 0);
  engine_free(game);
}

/* Prices, game-data.md section 2 (Bow & Arrow's $150 is in the rules). */
static void test_prices(void **state)
{
  assert_int_equal(journey_price(JOURNEY_FOOD), 50);
  assert_int_equal(journey_price(JOURNEY_ROPE), 75);
  assert_int_equal(journey_price(JOURNEY_O2_TANK), 100);
  assert_int_equal(journey_price(JOURNEY_HOOK), 125);
  assert_int_equal(journey_price(JOURNEY_TENT), 150);
  assert_int_equal(journey_price(JOURNEY_BOW), 150);
  assert_int_equal(journey_price(JOURNEY_FORECAST), 250);
}

/* The Mountain does not buy and owes nothing while the climbers shop. */
static void test_mountain_waits_while_climbers_buy(void **state)
{
  struct engine_game *game = js_new(6);
  json_t *list = engine_legal_moves(game, JOURNEY_MOUNTAIN);

  assert_int_equal(json_array_size(list), 0);
  json_decref(list);
  kit_reject(game, JOURNEY_MOUNTAIN, "{\"type\":\"end_turn\"}", CAIRN_ETURN,
             CAIRN_CODE_NOT_YOUR_TURN, NULL);
  engine_free(game);
}

/* A move that does not fit the step is a rule violation naming it. */
static void test_climbing_moves_are_refused_while_buying(void **state)
{
  struct engine_game *game = js_new(7);

  kit_reject(game, 0, "{\"type\":\"move\",\"to\":\"L1-S\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_SETUP);
  engine_free(game);
}

static void test_options_are_checked(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};
  json_t *bad = json_pack("{s:i, s:i}", "zeta", 1, "alpha", 2);
  json_t *type = json_pack("{s:s}", "turn_limit", "ten");
  json_t *range = json_pack("{s:i}", "turn_limit", -1);
  json_t *good = json_pack("{s:i}", "turn_limit", 5);
  struct engine_setup setup = {.seats = 3, .options = bad};

  assert_int_equal(engine_new(&journey_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_UNKNOWN_FIELD);
  assert_non_null(strstr(err.detail, "alpha"));
  setup.options = type;
  assert_int_equal(engine_new(&journey_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_WRONG_TYPE);
  setup.options = range;
  assert_int_equal(engine_new(&journey_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_BAD_VALUE);
  setup.options = good;
  assert_int_equal(engine_new(&journey_module, &setup, seed, &game, &err), CAIRN_OK);
  assert_int_equal(js_state(game)->turn_limit, 5);
  engine_free(game);
  /* The text has no turn limit: winter is opt-in, none by default. */
  setup.options = NULL;
  game = NULL;
  assert_int_equal(engine_new(&journey_module, &setup, seed, &game, &err), CAIRN_OK);
  assert_int_equal(js_state(game)->turn_limit, 0);
  engine_free(game);
  setup.seats = 2;
  game = NULL;
  assert_int_equal(engine_new(&journey_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  json_decref(bad);
  json_decref(type);
  json_decref(range);
  json_decref(good);
}

/* Malformed moves: CAIRN_EINVAL with the codes of cairn.h, no rule. */
static void test_malformed_moves(void **state)
{
  struct engine_game *game = js_new(8);

  kit_reject(game, 0, "{\"type\":\"jump\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(game, 0, "{\"item\":\"food\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":7}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(game, 0, "{\"type\":\"buy\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"buy\",\"item\":\"piano\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE,
             NULL);
  kit_reject(game, 0, "{\"type\":\"buy\",\"item\":\"food\",\"b\":1,\"a\":2}", CAIRN_EINVAL,
             CAIRN_CODE_UNKNOWN_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"done\",\"to\":\"L1-S\"}", CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD,
             NULL);
  kit_reject(game, 0, "{\"type\":\"use\",\"item\":\"grappling_hook\"}", CAIRN_EINVAL,
             CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"use\",\"item\":\"food\",\"to\":\"L1-S\"}", CAIRN_EINVAL,
             CAIRN_CODE_UNKNOWN_FIELD, NULL);
  engine_free(game);
}

/* Every listed move round-trips through the parser to itself. */
static void test_listed_moves_are_canonical(void **state)
{
  struct engine_game *game = js_new(9);
  json_t *list = engine_legal_moves(game, 1), *item;
  size_t i;

  assert_int_equal(json_array_size(list), 8); /* seven items and done */
  json_array_foreach(list, i, item)
  {
    struct journey_move m;
    json_t *back;

    assert_int_equal(journey_move_parse(item, &m, NULL), CAIRN_OK);
    back = journey_move_json(&m);
    assert_true(json_equal(back, item));
    json_decref(back);
  }
  json_decref(list);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_climbers_start_in_base_camp_with_health_and_money),
      cmocka_unit_test(test_mountain_starts_with_three_cards_of_a_34_card_deck),
      cmocka_unit_test(test_buying_is_simultaneous_and_pending_until_both_are_done),
      cmocka_unit_test(test_cannot_buy_beyond_the_money_left),
      cmocka_unit_test(test_equipment_stock_is_unlimited),
      cmocka_unit_test(test_prices),
      cmocka_unit_test(test_mountain_waits_while_climbers_buy),
      cmocka_unit_test(test_climbing_moves_are_refused_while_buying),
      cmocka_unit_test(test_options_are_checked),
      cmocka_unit_test(test_malformed_moves),
      cmocka_unit_test(test_listed_moves_are_canonical),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
