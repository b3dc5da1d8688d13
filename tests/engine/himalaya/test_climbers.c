/*
 * test_climbers.c - Moving the Mountain Climbers
 * (engine/himalaya/climbers.c), including reaching the summit.
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

static struct engine_game *board(int seats)
{
  static const int pool[] = {1, 2, 3, 4, 5, 6};
  struct engine_game *game = hs_new(seats, 21);

  hs_clear(game);
  hs_pool(game, pool, 6);
  return game;
}

#define CLIMBER(who) hs_state(game)->seat[who].climber

/* himalaya, Moving the Mountain Climbers: "A mountain climber may move on to
 * a field only if at least two of his/her own Sherpas stand there." */
static void test_climber_needs_two_own_sherpas(void **state)
{
  struct engine_game *game = board(2);
  struct cairn_error err;

  CLIMBER(0) = 5;
  hs_sherpas(game, 0, 9, 0, 0, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_CLIMBERS);
  assert_string_equal(err.detail, "climber of seat 0 cannot move to field 9: only 1 of your "
                                  "Sherpas stands there, 2 are needed");
  hs_sherpas(game, 0, 9, 9, 0, 0);
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}"));
  assert_int_equal(CLIMBER(0), 9);
  engine_free(game);
}

/* himalaya, Moving the Mountain Climbers: "Sherpas of other players are not
 * taken into account." */
static void test_other_players_sherpas_do_not_carry_a_climber(void **state)
{
  struct engine_game *game = board(2);
  struct cairn_error err;

  CLIMBER(0) = 5;
  hs_sherpas(game, 0, 9, 0, 0, 0);
  hs_sherpas(game, 1, 9, 9, 9, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_CLIMBERS);
  assert_non_null(strstr(err.detail, "other players do not count"));
  engine_free(game);
}

/* himalaya, Moving the Mountain Climbers: "Only one mountaineer may be on
 * any space at one time (together with any number of Sherpas)." */
static void test_one_climber_per_field(void **state)
{
  struct engine_game *game = board(2);
  struct cairn_error err;

  CLIMBER(0) = 5;
  CLIMBER(1) = 9;
  hs_sherpas(game, 0, 9, 9, 0, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_CLIMBERS);
  assert_non_null(strstr(err.detail, "climber of seat 1"));
  engine_free(game);
}

/* himalaya, Preparations: "The mountain climber starts at the base camp" -
 * every climber does, so base camp holds them all (RULES.md). */
static void test_base_camp_holds_every_climber(void **state)
{
  struct engine_game *game = hs_new(5, 3);
  int seat;

  for (seat = 0; seat < 5; seat++)
    assert_int_equal(CLIMBER(seat), HIMALAYA_BASE_CAMP);
  engine_free(game);
}

/* himalaya, Moving the Mountain Climbers: "The Sherpas can move further
 * along the path in order to erect new bases. A mountain climber is allowed
 * to remain behind, alone, without Sherpas, after they have moved along." */
static void test_climber_may_remain_behind_alone(void **state)
{
  struct engine_game *game = board(2);

  CLIMBER(0) = 9;
  hs_sherpas(game, 0, 9, 9, 0, 0);
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  json_decref(
      kit_apply(&game, 1, "{\"type\":\"die\",\"value\":1,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":1}"));
  assert_int_equal(CLIMBER(0), 9);
  assert_int_equal(hs_own(game, 0, 9), 0);
  engine_free(game);
}

/* himalaya, Moving the Sherpas: "Sherpas may also go backwards" - only
 * Sherpas; a climber move has no direction (RULES.md). */
static void test_climber_only_climbs(void **state)
{
  struct engine_game *game = board(2);
  json_t *list;
  json_t *move;
  size_t i;

  CLIMBER(0) = 9;
  hs_sherpas(game, 0, 6, 6, 0, 0);
  kit_reject(game, 0, "{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\",\"direction\":\"down\"}",
             CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL);
  list = engine_legal_moves(game, 0);
  json_array_foreach(list, i, move)
  {
    const char *pawn = json_string_value(json_object_get(move, "pawn"));

    assert_true(strcmp(pawn, "climber") != 0);
  }
  json_decref(list);
  engine_free(game);
}

/* himalaya, Game End: "As soon as a mountain climber reaches the summit
 * space (goal), the game ends and this player has won. In this event one
 * can leave points on the die unused." */
static void test_climber_reaches_the_summit_with_points_to_spare(void **state)
{
  struct engine_game *game = board(3);
  json_t *events, *over, *result;

  CLIMBER(1) = 37;
  hs_state(game)->current = 1;
  events = kit_apply(&game, 1, "{\"type\":\"die\",\"value\":6,\"pawn\":\"climber\"}");
  assert_int_equal(CLIMBER(1), 40);
  over = kit_event(events, "game_over", 0);
  assert_non_null(over);
  assert_string_equal(json_string_value(json_object_get(over, "reason")), "summit");
  result = himalaya_module.result(game);
  assert_non_null(result);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "summit");
  assert_int_equal(json_array_size(json_object_get(result, "winners")), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "climbers"), 1)), 40);
  assert_true(engine_is_over(game));
  /* Nothing follows the summit: no new throw, no Yeti card. */
  assert_int_equal(kit_count(events, "dice_rolled"), 0);
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Game End: "The mountain climber is allowed to reach the summit
 * alone, without support of Sherpas." - and by the exact number too. */
static void test_summit_needs_no_sherpas(void **state)
{
  struct engine_game *game = board(2);

  CLIMBER(0) = 36;
  assert_int_equal(hs_own(game, 0, 40), 0);
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"climber\"}"));
  assert_int_equal(CLIMBER(0), 40);
  assert_true(engine_is_over(game));
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_climber_needs_two_own_sherpas),
      cmocka_unit_test(test_other_players_sherpas_do_not_carry_a_climber),
      cmocka_unit_test(test_one_climber_per_field),
      cmocka_unit_test(test_base_camp_holds_every_climber),
      cmocka_unit_test(test_climber_may_remain_behind_alone),
      cmocka_unit_test(test_climber_only_climbs),
      cmocka_unit_test(test_climber_reaches_the_summit_with_points_to_spare),
      cmocka_unit_test(test_summit_needs_no_sherpas),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
