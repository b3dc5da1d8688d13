/*
 * test_mountain.c - the Mountain's turn (engine/journey/mountain.c):
 * drawing, reshuffling the discard pile under the deck, paying a card's
 * cost with other cards' value, leftover value, and the Yeti's turn step.
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

#define ST            js_state(game)
#define M             JOURNEY_MOUNTAIN
#define END           "{\"type\":\"end_turn\"}"
#define DISCARD(card) "{\"type\":\"discard\",\"card\":\"" card "\"}"
#define CREVICE_ON_T  "{\"type\":\"play\",\"card\":\"crevice\",\"target\":\"tenzing\"}"

/* journey, Mt. Everest 2: "Each turn, the environment player begins by
 * drawing 2 cards" - everyone learns how many, only the Mountain which. */
static void test_mountain_draws_two_cards_each_turn_in_secret(void **state)
{
  struct engine_game *game = js_climbing(51);
  json_t *events, *drew;

  json_decref(kit_apply(&game, 0, END));
  events = kit_apply(&game, 1, END);
  assert_int_equal(journey_hand_size(ST), 5);
  assert_int_equal(ST->deck_len, 29);
  assert_int_equal(kit_int(kit_event(events, "mountain_drew", 0), "count"), 2);
  drew = kit_event(events, "drew", 0);
  assert_int_equal(json_array_size(json_object_get(drew, "cards")), 2);
  assert_true(engine_event_visible(drew, M, false));
  assert_false(engine_event_visible(drew, 0, false));
  assert_false(engine_event_visible(drew, 1, false));
  assert_false(engine_event_visible(drew, ENGINE_SPECTATOR, false));
  json_decref(events);
  engine_free(game);
}

/* journey, Mt. Everest 2: "If there are not enough cards in the environment
 * pile, shuffle the cards in the discard pile and place them at the bottom
 * of the environment pile." */
static void test_discard_pile_is_reshuffled_under_the_deck(void **state)
{
  struct engine_game *game = js_climbing(52);
  json_t *events;
  int top, c, total = 0;

  ST->deck_len = 1;
  top = ST->deck[0];
  memset(ST->discard, 0, sizeof(ST->discard));
  ST->discard[JOURNEY_FROSTBITE] = 5;
  ST->discard[JOURNEY_HIGH_WIND] = 3;
  json_decref(kit_apply(&game, 0, END));
  events = kit_apply(&game, 1, END);
  assert_int_equal(kit_int(kit_event(events, "reshuffled", 0), "cards"), 8);
  assert_string_equal(
      json_string_value(json_array_get(json_object_get(kit_event(events, "drew", 0), "cards"), 0)),
      journey_card_name(top));
  assert_int_equal(ST->deck_len, 7);
  for (c = 0; c < JOURNEY_CARDS; c++)
    total += ST->discard[c];
  assert_int_equal(total, 0);
  json_decref(events);
  engine_free(game);
}

/* journey, Mt. Everest 3: "In order to play a card, the player must discard
 * cards with a total value equal to or greater than the cost of the card
 * being played." */
static void test_a_card_is_paid_with_other_cards_values(void **state)
{
  static const int hand[JOURNEY_CARDS] = {[JOURNEY_ROCKSLIDE] = 1, [JOURNEY_CREVICE] = 2};
  struct engine_game *game = js_mountain(53);
  struct cairn_error err;
  json_t *events;

  js_hand(game, hand);
  err = kit_reject(game, M, CREVICE_ON_T, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                   JOURNEY_RULE_MOUNTAIN);
  assert_non_null(strstr(err.detail, "costs 4"));
  assert_false(js_is_legal(game, M, CREVICE_ON_T));
  json_decref(kit_apply(&game, M, DISCARD("rockslide"))); /* value 3 */
  kit_reject(game, M, CREVICE_ON_T, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_MOUNTAIN);
  json_decref(kit_apply(&game, M, DISCARD("crevice"))); /* value 4: credit 7 */
  assert_int_equal(ST->credit, 7);
  assert_true(js_is_legal(game, M, CREVICE_ON_T));
  events = kit_apply(&game, M, CREVICE_ON_T);
  assert_int_equal(ST->credit, 3);
  assert_non_null(kit_event(events, "played", 0));
  /* "Cards played and cards used for value must both be discarded to the
   * discard pile, face up." */
  assert_int_equal(ST->discard[JOURNEY_CREVICE], 2);
  assert_int_equal(ST->discard[JOURNEY_ROCKSLIDE], 1);
  assert_int_equal(journey_hand_size(ST), 0);
  json_decref(events);
  engine_free(game);
}

/* The card being played never pays for itself. */
static void test_a_card_cannot_pay_for_itself(void **state)
{
  static const int hand[JOURNEY_CARDS] = {[JOURNEY_CREVICE] = 1};
  struct engine_game *game = js_mountain(54);

  js_hand(game, hand);
  json_decref(kit_apply(&game, M, DISCARD("crevice")));
  kit_reject(game, M, CREVICE_ON_T, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_MOUNTAIN);
  engine_free(game);
}

/* journey, Mt. Everest 3: "Leftover value must be used on another card or
 * it is lost at the end of the current turn." */
static void test_leftover_value_is_lost_at_the_end_of_the_turn(void **state)
{
  static const int hand[JOURNEY_CARDS] = {[JOURNEY_HIGH_WIND] = 2};
  struct engine_game *game = js_mountain(55);
  json_t *events;

  js_hand(game, hand);
  json_decref(kit_apply(&game, M, DISCARD("high_wind")));
  events = kit_apply(&game, M, END);
  assert_int_equal(kit_int(kit_event(events, "mountain_turn_ended", 0), "value_lost"), 3);
  assert_int_equal(ST->credit, 0);
  assert_int_equal(ST->phase, JOURNEY_PHASE_CLIMB);
  assert_int_equal(ST->turn, 2);
  json_decref(events);
  engine_free(game);
}

/* journey, Mt. Everest 4: "The environment's turn ends when s/he can't, or
 * no longer wants to, play any cards." end_turn is always open. */
static void test_the_mountain_may_always_end_its_turn(void **state)
{
  static const int hand[JOURNEY_CARDS] = {[JOURNEY_HIGH_WIND] = 1};
  struct engine_game *game = js_mountain(56);

  js_hand(game, hand);
  assert_true(js_is_legal(game, M, END));
  kit_reject(game, M, DISCARD("blizzard"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             JOURNEY_RULE_MOUNTAIN);
  engine_free(game);
}

/* journey, Yeti: "The environment player can move the Yeti up or down one
 * level each turn" - once a turn, within the mountain; left alone, it
 * stays and still attacks at the end of the turn (RULES.md). */
static void test_yeti_moves_once_a_turn_within_the_mountain(void **state)
{
  struct engine_game *game = js_mountain(57);
  json_t *events;

  kit_reject(game, M, "{\"type\":\"yeti\",\"direction\":\"down\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT);
  ST->yeti_level = 7;
  ST->yeti_health = 6;
  kit_reject(game, M, "{\"type\":\"yeti\",\"direction\":\"up\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT);
  json_decref(kit_apply(&game, M, "{\"type\":\"yeti\",\"direction\":\"down\"}"));
  assert_int_equal(ST->yeti_level, 6);
  kit_reject(game, M, "{\"type\":\"yeti\",\"direction\":\"down\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT);
  events = kit_apply(&game, M, END);
  assert_int_equal(kit_count(events, "yeti_moved"), 0);
  json_decref(events);
  json_decref(kit_apply(&game, 0, END));
  json_decref(kit_apply(&game, 1, END));
  events = kit_apply(&game, M, END);
  assert_int_equal(kit_count(events, "yeti_moved"), 1);
  assert_string_equal(
      json_string_value(json_object_get(kit_event(events, "yeti_moved", 0), "direction")), "stay");
  json_decref(events);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mountain_draws_two_cards_each_turn_in_secret),
      cmocka_unit_test(test_discard_pile_is_reshuffled_under_the_deck),
      cmocka_unit_test(test_a_card_is_paid_with_other_cards_values),
      cmocka_unit_test(test_a_card_cannot_pay_for_itself),
      cmocka_unit_test(test_leftover_value_is_lost_at_the_end_of_the_turn),
      cmocka_unit_test(test_the_mountain_may_always_end_its_turn),
      cmocka_unit_test(test_yeti_moves_once_a_turn_within_the_mountain),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
