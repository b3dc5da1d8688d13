/*
 * test_spaces.c - Special Spaces (engine/himalaya/spaces.c): the Yeti cave,
 * the Yeti's field, avalanches and landslides, snowfields and the summit
 * for supply cards, and freshening supplies at the high camps.
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

static struct engine_game *board(void)
{
  static const int pool[] = {1, 2, 3, 4, 5, 6};
  struct engine_game *game = hs_new(2, 31);

  hs_clear(game);
  hs_pool(game, pool, 6);
  return game;
}

#define SHERPA(s)   hs_state(game)->seat[0].sherpa[s]
#define P0          hs_state(game)->seat[0]
#define SPEND(card) (P0.spent[P0.spent_count++] = (card))

/* himalaya, Special Spaces: "Yeti Cave: The Yeti starts here. Here, no pawn
 * may stand during the entire game, other than the Yeti." - even after the
 * Yeti has left it (here the Yeti is on 39). */
static void test_no_pawn_stops_in_the_yeti_cave(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_sherpas(game, 0, 17, 0, 0, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "Yeti cave"));
  P0.climber = 18;
  kit_reject(game, 0, "{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  engine_free(game);
}

/* himalaya, Special Spaces: "Movement across the space is of course
 * allowed." */
static void test_pawns_may_cross_the_yeti_cave(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 18, 0, 0, 0);
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"die\",\"value\":5,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  assert_int_equal(SHERPA(0), 23);
  engine_free(game);
}

/* himalaya, Special Spaces: "Spaces where the Yeti sits: On the space that
 * the Yeti stands, no other pawns may be moved." */
static void test_no_pawn_stops_where_the_yeti_stands(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_state(game)->yeti = 11;
  hs_sherpas(game, 0, 9, 9, 9, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "the Yeti stands there"));
  P0.climber = 9;
  kit_reject(game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"climber\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  engine_free(game);
}

/* himalaya, Special Spaces: "Jumping across this field is allowed." */
static void test_pawns_may_jump_over_the_yeti(void **state)
{
  struct engine_game *game = board();

  hs_state(game)->yeti = 11;
  hs_sherpas(game, 0, 9, 13, 13, 0);
  P0.climber = 9;
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}"));
  assert_int_equal(P0.climber, 13);
  engine_free(game);
}

/* himalaya, Special Spaces: "Avalanches and Landslides: If a Sherpa lands on
 * one of these fields, he immediately slides to the field beneath it
 * (arrow)." Landslide 7 -> 3. */
static void test_sherpa_slides_down_a_landslide(void **state)
{
  struct engine_game *game = board();
  json_t *events, *slid;

  hs_sherpas(game, 0, 5, 0, 0, 0);
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0}");
  assert_int_equal(SHERPA(0), 3);
  assert_int_equal(kit_int(kit_event(events, "moved", 0), "to"), 7);
  slid = kit_event(events, "slid", 0);
  assert_int_equal(kit_int(slid, "from"), 7);
  assert_int_equal(kit_int(slid, "to"), 3);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Special Spaces: "If a Sherpa lands on one of these fields" -
 * landing backwards counts too. From 22 down 5 (3 fields) is avalanche 19,
 * which slides to 16. */
static void test_sherpa_moving_backwards_slides_down_an_avalanche(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 22, 0, 0, 0);
  json_decref(kit_apply(&game, 0,
                        "{\"type\":\"die\",\"value\":5,\"pawn\":\"sherpa\",\"sherpa\":0,"
                        "\"direction\":\"down\"}"));
  assert_int_equal(SHERPA(0), 16);
  engine_free(game);
}

/* himalaya, Special Spaces: "On the space that the Yeti stands, no other
 * pawns may be moved" - a slide ending there is such a move (RULES.md). */
static void test_slide_may_not_end_on_the_yeti(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_state(game)->yeti = 16;
  hs_sherpas(game, 0, 17, 0, 0, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "slide"));
  engine_free(game);
}

/* himalaya, Special Spaces: "Snowfields: On these spaces and on the summit
 * space (goal) movement with a supply card is not allowed." A die may. */
static void test_supply_card_may_not_land_on_a_snowfield(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_sherpas(game, 0, 6, 0, 0, 0);
  err = kit_reject(
      game, 0,
      "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}",
      CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "snowfield"));
  P0.climber = 6;
  hs_sherpas(game, 0, 10, 10, 0, 0);
  kit_reject(game, 0, "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"climber\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}"));
  assert_int_equal(P0.climber, 10);
  engine_free(game);
}

/* himalaya, Special Spaces: "Snowfields: On these spaces ... movement with a
 * supply card is not allowed" - the card powers the take-along leg too, so
 * 5 + 4 = 9 carrying on to snowfield 10 is refused (RULES.md). */
static void test_supply_take_along_may_not_end_on_a_snowfield(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 5, 9, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
             "\"take_along\":true}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  json_decref(kit_apply(
      &game, 0,
      "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  assert_int_equal(SHERPA(0), 9);
  engine_free(game);
}

/* himalaya, Special Spaces: "... and on the summit space (goal) movement
 * with a supply card is not allowed." Neither a Sherpa nor a climber, not
 * even with points to spare. */
static void test_supply_card_may_not_reach_the_summit(void **state)
{
  struct engine_game *game = board();

  hs_state(game)->yeti = 30;
  hs_sherpas(game, 0, 36, 0, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  P0.climber = 36;
  kit_reject(game, 0, "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":4,\"pawn\":\"climber\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  kit_reject(game, 0, "{\"type\":\"supply\",\"card\":\"5/6\",\"value\":6,\"pawn\":\"climber\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  engine_free(game);
}

/* himalaya, Special Spaces: "High Camps: ... If two or more Sherpas of a
 * player meet in a high camp, then a supply card that has already been used
 * may be picked up and taken into the hand again." The player chooses which
 * used card (the move's "restore"), and legal_moves offers each. */
static void test_high_camp_lets_the_player_choose_a_used_card(void **state)
{
  struct engine_game *game = board();
  json_t *events, *restored;

  SPEND(2);
  SPEND(0);
  hs_sherpas(game, 0, 15, 13, 0, 0);
  assert_true(
      hs_is_legal(game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1}"));
  assert_true(hs_is_legal(
      game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1,\"restore\":\"5/6\"}"));
  assert_true(hs_is_legal(
      game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1,\"restore\":\"1/2\"}"));
  assert_false(hs_is_legal(
      game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1,\"restore\":\"3/4\"}"));
  events = kit_apply(
      &game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1,\"restore\":\"5/6\"}");
  restored = kit_event(events, "supply_restored", 0);
  assert_non_null(restored);
  assert_string_equal(json_string_value(json_object_get(restored, "card")), "5/6");
  assert_int_equal(kit_int(restored, "camp"), 15);
  assert_string_equal(json_string_value(json_object_get(restored, "camp_name")), "High Camp I");
  assert_int_equal(kit_int(restored, "seat"), 0);
  assert_int_equal(P0.spent_count, 1);
  assert_int_equal(P0.spent[0], 0);
  assert_true(P0.camp_used[0]);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Special Spaces: "a supply card that has already been used *may*
 * be picked up" - a choice: declining takes nothing back and leaves the
 * camp's gain for a later move while the Sherpas stay (RULES.md). */
static void test_high_camp_gain_may_be_declined_and_taken_later(void **state)
{
  struct engine_game *game = board();
  json_t *events;

  SPEND(2);
  hs_sherpas(game, 0, 15, 13, 0, 0);
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1}");
  assert_int_equal(kit_count(events, "supply_restored"), 0);
  assert_int_equal(P0.spent_count, 1);
  assert_false(P0.camp_used[0]);
  json_decref(events);
  json_decref(
      kit_apply(&game, 1, "{\"type\":\"die\",\"value\":1,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  events = kit_apply(
      &game, 0,
      "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":2,\"restore\":\"5/6\"}");
  assert_int_equal(kit_count(events, "supply_restored"), 1);
  assert_int_equal(P0.spent_count, 0);
  assert_true(P0.camp_used[0]);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Special Spaces: "However this gain is allowed only once per
 * camp!" The refusal says which camp's gain is gone. */
static void test_high_camp_gain_only_once_per_camp(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  SPEND(2);
  SPEND(1);
  P0.camp_used[0] = true;
  hs_sherpas(game, 0, 15, 15, 11, 0);
  err = kit_reject(
      game, 0,
      "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":2,\"restore\":\"5/6\"}",
      CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "high camp 15: 3 Sherpas, gain already taken"));
  assert_false(hs_is_legal(
      game, 0,
      "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":2,\"restore\":\"5/6\"}"));
  engine_free(game);
}

/* himalaya, Special Spaces: "a supply card that has already been used" -
 * the card powering this very move is not yet one, so it cannot come
 * straight back (RULES.md "High camps"); a card still in the hand neither. */
static void test_card_played_in_the_move_is_not_picked_up_at_once(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_sherpas(game, 0, 15, 13, 0, 0);
  err = kit_reject(game, 0,
                   "{\"type\":\"supply\",\"card\":\"1/2\",\"value\":2,\"pawn\":\"sherpa\","
                   "\"sherpa\":1,\"restore\":\"1/2\"}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "only a card used before it"));
  err = kit_reject(
      game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1,\"restore\":\"3/4\"}",
      CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "still holds this supply card"));
  engine_free(game);
}

/* himalaya, Special Spaces: "If two or more Sherpas of a player meet in a
 * high camp" - one Sherpa there, or two in an ordinary field, gives
 * nothing. */
static void test_restore_needs_two_own_sherpas_in_a_high_camp(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  SPEND(2);
  hs_sherpas(game, 0, 15, 0, 9, 0);
  hs_sherpas(game, 1, 15, 0, 0, 0);
  err = kit_reject(
      game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":1,\"restore\":\"5/6\"}",
      CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "high camp 15: 1 Sherpa;"));
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":3,\"restore\":\"5/6\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  engine_free(game);
}

/* himalaya, Special Spaces: "only once per camp" - each of the two high
 * camps gives its own gain. */
static void test_each_high_camp_gives_its_own_gain(void **state)
{
  struct engine_game *game = board();
  json_t *events;

  SPEND(0);
  SPEND(1);
  P0.camp_used[0] = true;
  hs_sherpas(game, 0, 15, 15, 28, 26);
  events = kit_apply(
      &game, 0,
      "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":3,\"restore\":\"1/2\"}");
  assert_int_equal(kit_int(kit_event(events, "supply_restored", 0), "camp"), 28);
  assert_int_equal(P0.spent_count, 1);
  assert_int_equal(P0.spent[0], 1);
  assert_true(P0.camp_used[1]);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Special Spaces: "Snowfields: On these spaces ... movement with a
 * supply card is not allowed." A pawn leaving a snowfield moves on it, so a
 * card may not move it off (RULES.md); a die may. */
static void test_supply_card_may_not_leave_a_snowfield(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_sherpas(game, 0, 10, 13, 13, 0);
  err = kit_reject(
      game, 0,
      "{\"type\":\"supply\",\"card\":\"1/2\",\"value\":1,\"pawn\":\"sherpa\",\"sherpa\":0}",
      CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "stands on snowfield 10 and cannot leave it"));
  kit_reject(game, 0,
             "{\"type\":\"supply\",\"card\":\"1/2\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0,"
             "\"direction\":\"down\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  P0.climber = 10;
  err =
      kit_reject(game, 0, "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":3,\"pawn\":\"climber\"}",
                 CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  assert_non_null(strstr(err.detail, "climber of seat 0 stands on snowfield 10"));
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\"}"));
  assert_int_equal(P0.climber, 13);
  engine_free(game);
}

/* himalaya, Special Spaces: the Yeti cave's "Movement across the space is of
 * course allowed" tells crossing apart from moving on a space; a card may
 * carry a Sherpa over a snowfield (RULES.md). */
static void test_supply_card_may_cross_a_snowfield(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 8, 0, 0, 0);
  json_decref(kit_apply(
      &game, 0,
      "{\"type\":\"supply\",\"card\":\"3/4\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  assert_int_equal(SHERPA(0), 11);
  engine_free(game);
}

/* "Last camp" (Moving the Yeti: "back to the last camp, even to the base
 * camp") - the highest of 0, 15, 28 strictly below the field. */
static void test_last_camp_is_the_highest_camp_below(void **state)
{
  int f;

  for (f = 1; f <= 40; f++)
    assert_int_equal(himalaya_last_camp(f), f <= 15 ? 0 : f <= 28 ? 15 : 28);
  assert_true(himalaya_is_camp(0) && himalaya_is_camp(15) && himalaya_is_camp(28));
  assert_false(himalaya_is_camp(21));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_pawn_stops_in_the_yeti_cave),
      cmocka_unit_test(test_pawns_may_cross_the_yeti_cave),
      cmocka_unit_test(test_no_pawn_stops_where_the_yeti_stands),
      cmocka_unit_test(test_pawns_may_jump_over_the_yeti),
      cmocka_unit_test(test_sherpa_slides_down_a_landslide),
      cmocka_unit_test(test_sherpa_moving_backwards_slides_down_an_avalanche),
      cmocka_unit_test(test_slide_may_not_end_on_the_yeti),
      cmocka_unit_test(test_supply_card_may_not_land_on_a_snowfield),
      cmocka_unit_test(test_supply_take_along_may_not_end_on_a_snowfield),
      cmocka_unit_test(test_supply_card_may_not_reach_the_summit),
      cmocka_unit_test(test_high_camp_lets_the_player_choose_a_used_card),
      cmocka_unit_test(test_high_camp_gain_may_be_declined_and_taken_later),
      cmocka_unit_test(test_high_camp_gain_only_once_per_camp),
      cmocka_unit_test(test_card_played_in_the_move_is_not_picked_up_at_once),
      cmocka_unit_test(test_restore_needs_two_own_sherpas_in_a_high_camp),
      cmocka_unit_test(test_each_high_camp_gives_its_own_gain),
      cmocka_unit_test(test_supply_card_may_not_leave_a_snowfield),
      cmocka_unit_test(test_supply_card_may_cross_a_snowfield),
      cmocka_unit_test(test_last_camp_is_the_highest_camp_below),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
