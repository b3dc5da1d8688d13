/*
 * test_dice.c - The Game (engine/himalaya/dice.c): choosing dice, the turn
 * order, throwing again, the last-die exception, supply cards and taking a
 * die that moves nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static int pool_total(struct engine_game *game)
{
  int v, n = 0;

  for (v = 1; v <= 6; v++)
    n += hs_state(game)->pool[v];
  return n;
}

/* himalaya, The Game: "The start-player throws all dice and selects one of
 * them." Only a die lying in the pool can be selected. */
static void test_die_must_lie_in_the_pool(void **state)
{
  struct engine_game *game = hs_new(2, 1);
  static const int pool[] = {2, 3, 5};
  struct cairn_error err;

  hs_clear(game);
  hs_pool(game, pool, 3);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME);
  assert_non_null(strstr(err.detail, "2 3 5"));
  engine_free(game);
}

/* himalaya, The Game: "He/she sets this die before them and moves one of
 * his/her pawns (mountain climber or Sherpa) according to the die number." */
static void test_taking_a_die_moves_a_pawn_by_its_number(void **state)
{
  struct engine_game *game = hs_new(3, 1);
  static const int pool[] = {2, 3, 5};
  json_t *events, *ev;

  hs_clear(game);
  hs_pool(game, pool, 3);
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0}");
  assert_int_equal(hs_state(game)->seat[0].sherpa[0], 3);
  assert_int_equal(hs_state(game)->pool[3], 0);
  assert_int_equal(pool_total(game), 2);
  ev = kit_event(events, "moved", 0);
  assert_non_null(ev);
  assert_string_equal(json_string_value(json_object_get(ev, "via")), "die");
  assert_int_equal(kit_int(ev, "value"), 3);
  assert_int_equal(kit_int(ev, "from"), 0);
  assert_int_equal(kit_int(ev, "to"), 3);
  json_decref(events);
  engine_free(game);
}

/* himalaya, The Game: "The next player chooses another die, etc." and
 * Preparations: "play continues in a clockwise fashion" - seat 0, 1, 2, 0. */
static void test_play_passes_to_the_next_seat_in_turn(void **state)
{
  struct engine_game *game = hs_new(3, 1);
  static const int pool[] = {1, 2, 3, 4, 5};
  struct cairn_error err = {0};
  json_t *move =
      json_pack("{s:s, s:i, s:s, s:i}", "type", "die", "value", 2, "pawn", "sherpa", "sherpa", 0);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  int seat;

  hs_clear(game);
  hs_pool(game, pool, 5);
  assert_int_equal(engine_apply(game, 1, move, &next, &events, &err), CAIRN_ETURN);
  assert_string_equal(err.code, CAIRN_CODE_NOT_YOUR_TURN);
  json_decref(move);
  for (seat = 0; seat < 3; seat++) {
    char text[96];

    assert_int_equal(hs_state(game)->current, seat);
    snprintf(text, sizeof(text), "{\"type\":\"die\",\"value\":%d,\"pawn\":\"sherpa\",\"sherpa\":1}",
             seat + 1);
    json_decref(kit_apply(&game, seat, text));
  }
  assert_int_equal(hs_state(game)->current, 0);
  assert_int_equal(pool_total(game), 2);
  engine_free(game);
}

/* himalaya, The Game: "... until all dice are taken. The next player then
 * throws all the dice again and can select the first one. Before he/she
 * selects a die a Yeti card must always be pulled." */
static void test_empty_pool_is_thrown_again_with_a_yeti_card(void **state)
{
  struct engine_game *game = hs_new(2, 4);
  static const int pool[] = {4};
  static const int deck[] = {2, -1, 3};
  json_t *events, *rolled, *card, *moved;

  hs_clear(game);
  hs_pool(game, pool, 1);
  hs_deck(game, deck, 3);
  hs_state(game)->yeti = 30;
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}");
  assert_int_equal(hs_state(game)->current, 1);
  assert_int_equal(pool_total(game), 5);
  rolled = kit_event(events, "dice_rolled", 0);
  assert_non_null(rolled);
  assert_int_equal(json_array_size(json_object_get(rolled, "dice")), 5);
  card = kit_event(events, "yeti_card", 0);
  assert_non_null(card);
  assert_string_equal(json_string_value(json_object_get(card, "card")), "up 2");
  moved = kit_event(events, "yeti_moved", 0);
  assert_int_equal(kit_int(moved, "from"), 30);
  assert_int_equal(kit_int(moved, "to"), 32);
  assert_int_equal(hs_state(game)->yeti, 32);
  assert_int_equal(hs_state(game)->deck_len, 2);
  /* Dice first, then the card: "After rolling, but still before the
   * player chooses a die" (Moving the Yeti). */
  assert_true(json_array_size(events) >= 4);
  json_decref(events);
  engine_free(game);
}

/* himalaya, The Game, exception 1: "If a player only has one die to chose
 * from, he/she can take this die or can immediately throw all the dice and
 * then pick one with which to move." Throwing again draws a Yeti card as
 * every new throw does, and the same player then chooses. */
static void test_last_die_may_be_thrown_again_by_the_same_player(void **state)
{
  struct engine_game *game = hs_new(2, 4);
  static const int pool[] = {6};
  static const int deck[] = {-3, 1};
  json_t *events;

  hs_clear(game);
  hs_state(game)->current = 1;
  hs_pool(game, pool, 1);
  hs_deck(game, deck, 2);
  hs_state(game)->yeti = 30;
  assert_true(hs_is_legal(game, 1, "{\"type\":\"reroll\"}"));
  events = kit_apply(&game, 1, "{\"type\":\"reroll\"}");
  assert_int_equal(hs_state(game)->current, 1);
  assert_int_equal(pool_total(game), 5);
  assert_non_null(kit_event(events, "rerolled", 0));
  assert_non_null(kit_event(events, "dice_rolled", 0));
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "yeti_card", 0), "card")),
                      "down 3");
  assert_int_equal(hs_state(game)->yeti, 27);
  assert_int_equal(hs_state(game)->deck_len, 1);
  json_decref(events);
  engine_free(game);
}

/* himalaya, The Game, exception 1: "If a player only has one die to chose
 * from" - with more dice left there is no new throw. */
static void test_dice_are_thrown_again_only_for_the_last_die(void **state)
{
  struct engine_game *game = hs_new(2, 4);
  static const int pool[] = {3, 6};

  hs_clear(game);
  hs_pool(game, pool, 2);
  assert_false(hs_is_legal(game, 0, "{\"type\":\"reroll\"}"));
  kit_reject(game, 0, "{\"type\":\"reroll\"}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             HIMALAYA_RULE_GAME);
  engine_free(game);
}

/* himalaya, The Game, exception 2: "He/she may prefer one of the figures
 * stated on the card (for example with card 3/4, a player may move 3 or 4
 * spaces). The supplies are spent and are set beside the board." A card is
 * played "instead of selecting a die": the pool keeps its dice. */
static void test_supply_card_moves_either_of_its_numbers(void **state)
{
  struct engine_game *game = hs_new(2, 1);
  static const int pool[] = {6, 6, 6};
  json_t *events, *spent;

  hs_clear(game);
  hs_pool(game, pool, 3);
  assert_true(hs_is_legal(game, 0,
                          "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":3,\"pawn\":\"sherpa\","
                          "\"sherpa\":0}"));
  assert_true(hs_is_legal(game, 0,
                          "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"sherpa\","
                          "\"sherpa\":0}"));
  events = kit_apply(&game, 0,
                     "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":3,\"pawn\":\"sherpa\","
                     "\"sherpa\":0}");
  spent = kit_event(events, "supply_spent", 0);
  assert_non_null(spent);
  assert_string_equal(json_string_value(json_object_get(spent, "card")), "3/4");
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "moved", 0), "via")),
                      "supply");
  assert_int_equal(hs_state(game)->seat[0].sherpa[0], 3);
  assert_int_equal(pool_total(game), 3);
  assert_int_equal(hs_state(game)->current, 1);
  json_decref(events);
  json_decref(kit_apply(&game, 1,
                        "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"sherpa\","
                        "\"sherpa\":0}"));
  assert_int_equal(hs_state(game)->seat[1].sherpa[0], 4);
  assert_int_equal(pool_total(game), 3);
  engine_free(game);
}

/* himalaya, The Game: "with card 3/4, a player may move 3 or 4 spaces" -
 * and no other number. */
static void test_supply_card_offers_only_its_two_numbers(void **state)
{
  struct engine_game *game = hs_new(2, 1);

  hs_clear(game);
  kit_reject(game, 0,
             "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":5,\"pawn\":\"sherpa\",\"sherpa\":0}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME);
  engine_free(game);
}

/* himalaya, The Game: "The supplies are spent and are set beside the
 * board." A spent card cannot be played again. */
static void test_spent_supply_card_cannot_be_played_again(void **state)
{
  struct engine_game *game = hs_new(2, 1);
  static const int pool[] = {6, 6, 6};
  const char *play =
      "{\"type\":\"supply\",\"card\":\"5/6\",\"value\":5,\"pawn\":\"sherpa\",\"sherpa\":1}";

  hs_clear(game);
  hs_pool(game, pool, 3);
  json_decref(kit_apply(&game, 0, play));
  json_decref(
      kit_apply(&game, 1, "{\"type\":\"die\",\"value\":6,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  assert_false(hs_is_legal(game, 0, play));
  kit_reject(game, 0, play, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME);
  engine_free(game);
}

/* himalaya, Preparations: "Each player gets one or more supply cards" -
 * with three players nobody holds 1/2 (RULES.md). */
static void test_supply_card_must_have_been_dealt(void **state)
{
  struct engine_game *game = hs_new(3, 1);
  struct cairn_error err;

  hs_clear(game);
  err = kit_reject(
      game, 0,
      "{\"type\":\"supply\",\"card\":\"1/2\",\"value\":1,\"pawn\":\"sherpa\",\"sherpa\":0}",
      CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME);
  assert_non_null(strstr(err.detail, "not dealt"));
  engine_free(game);
}

/* himalaya, The Game: "moves one of his/her pawns (mountain climber or
 * Sherpa)" - a supply card can power the climber too. */
static void test_supply_card_may_move_the_climber(void **state)
{
  struct engine_game *game = hs_new(2, 1);

  hs_clear(game);
  hs_sherpas(game, 0, 4, 4, 0, 0);
  json_decref(kit_apply(&game, 0,
                        "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"climber\"}"));
  assert_int_equal(hs_state(game)->seat[0].climber, 4);
  engine_free(game);
}

/* Our addition (RULES.md "A die that moves nothing"): a die may be taken
 * without moving a pawn only when no pawn can move by its number; here the
 * Yeti on field 5 blocks every 5 from base camp, while a 6 can move. */
static void test_die_moving_nothing_may_be_taken_without_a_move(void **state)
{
  struct engine_game *game = hs_new(2, 1);
  static const int pool[] = {5, 6};
  json_t *events;

  hs_clear(game);
  hs_state(game)->yeti = 5;
  hs_pool(game, pool, 2);
  assert_false(hs_is_legal(game, 0, "{\"type\":\"die\",\"value\":6,\"pawn\":\"none\"}"));
  kit_reject(game, 0, "{\"type\":\"die\",\"value\":6,\"pawn\":\"none\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME);
  assert_true(hs_is_legal(game, 0, "{\"type\":\"die\",\"value\":5,\"pawn\":\"none\"}"));
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":5,\"pawn\":\"none\"}");
  assert_int_equal(kit_int(kit_event(events, "die_unused", 0), "value"), 5);
  assert_int_equal(hs_state(game)->pool[5], 0);
  assert_int_equal(hs_state(game)->current, 1);
  json_decref(events);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_die_must_lie_in_the_pool),
      cmocka_unit_test(test_taking_a_die_moves_a_pawn_by_its_number),
      cmocka_unit_test(test_play_passes_to_the_next_seat_in_turn),
      cmocka_unit_test(test_empty_pool_is_thrown_again_with_a_yeti_card),
      cmocka_unit_test(test_last_die_may_be_thrown_again_by_the_same_player),
      cmocka_unit_test(test_dice_are_thrown_again_only_for_the_last_die),
      cmocka_unit_test(test_supply_card_moves_either_of_its_numbers),
      cmocka_unit_test(test_supply_card_offers_only_its_two_numbers),
      cmocka_unit_test(test_spent_supply_card_cannot_be_played_again),
      cmocka_unit_test(test_supply_card_must_have_been_dealt),
      cmocka_unit_test(test_supply_card_may_move_the_climber),
      cmocka_unit_test(test_die_moving_nothing_may_be_taken_without_a_move),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
