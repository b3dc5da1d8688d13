/*
 * test_damage.c - "Damage" (engine/everest/round.c, end of round): coins
 * set aside, healing, the forced return, and the yeti that left the board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <string.h>

#include "support.h"

#define AT(r, c) everest_cell(r, c)
#define NO_HEAL  "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[]}"
#define DAMAGE   EVEREST_RULE_DAMAGE

static struct engine_game *quiet(void)
{
  struct engine_game *game = es_new(4, 13, 0);

  es_quiet(game);
  return game;
}

/* Seats 1-3 (off the board, no damage) decline to heal. */
static void others_decline(struct engine_game **game)
{
  int seat;

  for (seat = 1; seat < 4; seat++)
    json_decref(kit_apply(game, seat, NO_HEAL));
}

/* Seat 0 on the peak with coins 1 and 4 falls once north (5 -> 3) and then
 * throws a harmless snowball: one damage, two coins, a choice to make. */
static struct engine_game *fallen(void)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 2, 3);
  es_coins(game, 0, (1u << 1) | (1u << 4));
  json_decref(
      kit_apply(&game, 0,
                "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"value\",\"dir\":\"N\"},"
                "{\"coin\":4,\"face\":\"suit\",\"dir\":\"N\"}]}"));
  assert_int_equal(es_state(game)->phase, EVEREST_PHASE_HEAL);
  assert_int_equal(es_state(game)->yeti[0].damage, 1);
  return game;
}

/* everest, Damage: "At the end of each round, count up how many times each
 * yeti took damage during the round and that yeti's player must set aside
 * that many coins. These coins cannot be used as part of a plan until the
 * yeti is healed." */
static void test_damage_sets_coins_aside(void **state)
{
  struct engine_game *game = fallen();
  json_t *legal = engine_legal_moves(game, 0);

  assert_int_equal(json_array_size(legal), 3); /* heal, aside [1], aside [4] */
  json_decref(legal);
  json_decref(kit_apply(&game, 0, "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[4]}"));
  others_decline(&game);
  assert_int_equal(es_state(game)->round, 2);
  assert_int_equal(es_state(game)->seat[0].aside & (1u << 4), 1u << 4);
  assert_int_equal(es_state(game)->yeti[0].cell, AT(1, 3)); /* stays where it fell */
  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":4,\"face\":\"value\",\"dir\":\"N\"}]}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_PLAN);
  engine_free(game);
}

/* everest, Damage: exactly one coin per damage, from the available ones;
 * a healing yeti sets none aside. */
static void test_the_wrong_coins_are_refused(void **state)
{
  struct engine_game *game = fallen();
  struct cairn_error err;

  /* Each refusal says which count or which coin blocks it. */
  err = kit_reject(game, 0, NO_HEAL, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, DAMAGE);
  assert_non_null(strstr(err.detail, "exactly 1 coins"));
  kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[1,4]}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, DAMAGE);
  err = kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[0]}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, DAMAGE);
  assert_non_null(strstr(err.detail, "coin 0 is already set aside"));
  kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":true,\"set_aside\":[1]}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, DAMAGE);
  kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":1}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(game, 0, "{\"type\":\"heal\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[9]}", CAIRN_EINVAL,
             CAIRN_CODE_BAD_MOVE, NULL);
  engine_free(game);
}

/* everest, Damage: "At the end of any round, instead of setting aside
 * coins, a player can move their yeti back to its starting square; all
 * coins set aside due to damage are returned". The choice is secret until
 * every choice is in. */
static void test_healing_returns_the_yeti_home_with_all_coins(void **state)
{
  struct engine_game *game = fallen();
  json_t *events, *view;

  events = kit_apply(&game, 0, "{\"type\":\"heal\",\"heal\":true}");
  assert_non_null(json_object_get(kit_event(events, "heal-chosen", 0), "private_to"));
  view = engine_view(game, 1);
  assert_null(json_object_get(es_seat_view(view, 0), "heal"));
  assert_true(json_is_true(json_object_get(es_seat_view(view, 0), "heal_decided")));
  json_decref(view);
  json_decref(events);
  others_decline(&game);
  assert_int_equal(es_state(game)->yeti[0].cell, everest_corner(0));
  assert_int_equal(es_state(game)->seat[0].aside, 0);
  engine_free(game);
}

/* everest, Damage: "If damage causes a yeti to lose its last coin, then it
 * must be returned to its starting square to heal." No choice is asked. */
static void test_losing_the_last_coin_forces_a_return(void **state)
{
  struct engine_game *game = quiet();
  int to_act[ENGINE_MAX_SEATS], n, i;

  es_place(game, 0, 2, 3);
  json_decref(es_act(&game, 0, 1, "value", "N"));
  n = everest_module.to_act(game, to_act);
  for (i = 0; i < n; i++)
    assert_int_not_equal(to_act[i], 0);
  others_decline(&game);
  assert_int_equal(es_state(game)->yeti[0].cell, everest_corner(0));
  assert_int_equal(es_state(game)->seat[0].aside, 0);
  engine_free(game);
}

/* everest, Damage: "if a yeti falls off the edge of the board, at the end
 * of the round it is also returned to its starting square, but does not get
 * any of its coins back; it can not heal until the end of the next round."
 * Its damage still sets coins aside. */
static void test_a_yeti_off_the_edge_returns_without_its_coins(void **state)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 2, 3);
  es_state(game)->seat[0].aside = 1u << 5; /* damage from an earlier round */
  es_coins(game, 0, 0x0f);                 /* coins 0..3: 4 available */
  json_decref(
      kit_apply(&game, 0,
                "{\"type\":\"plan\",\"plan\":[{\"coin\":3,\"face\":\"value\",\"dir\":\"N\"},"
                "{\"coin\":1,\"face\":\"suit\",\"dir\":\"N\"},"
                "{\"coin\":2,\"face\":\"suit\",\"dir\":\"N\"}]}"));
  assert_int_equal(es_state(game)->yeti[0].cell, EVEREST_OFF);
  assert_int_equal(es_state(game)->yeti[0].damage, 2);
  kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":true}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             DAMAGE);
  json_decref(kit_apply(&game, 0, "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[0,3]}"));
  others_decline(&game);
  assert_int_equal(es_state(game)->yeti[0].cell, everest_corner(0));
  assert_int_equal(es_state(game)->seat[0].aside, 0x30 | 0x09);
  engine_free(game);
}

/* RULES.md "An occupied home base" (our reading of "move their yeti back
 * to its starting square" when another yeti stands there): the yeti takes
 * the free inside corner nearest its base, at once, and plans next round. */
static void test_a_yeti_whose_base_is_occupied_takes_the_nearest_free_corner(void **state)
{
  struct engine_game *game = quiet();
  int to_act[ENGINE_MAX_SEATS], n, i;
  bool owes = false;
  json_t *events = NULL, *outcome;

  es_place(game, 0, 0, 0);
  es_place(game, 1, 1, 0); /* on seat 0's base */
  json_decref(es_act(&game, 0, 1, "value", "N"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  assert_int_equal(es_state(game)->yeti[0].cell, EVEREST_OFF);
  for (i = 1; i < 4; i++) {
    json_decref(events);
    events = kit_apply(&game, i, NO_HEAL);
  }
  /* Seats 2 and 3 (off the board) come back to their own bases [4,7] and
   * [4,0] first; [1,7] is the one corner left. */
  assert_int_equal(es_state(game)->yeti[2].cell, es_cell(4, 7));
  assert_int_equal(es_state(game)->yeti[3].cell, es_cell(4, 0));
  assert_int_equal(es_state(game)->yeti[0].cell, es_cell(1, 7));
  outcome = json_array_get(json_object_get(kit_event(events, "heals-revealed", 0), "outcomes"), 0);
  assert_true(json_is_true(json_object_get(outcome, "detour")));
  n = everest_module.to_act(game, to_act);
  for (i = 0; i < n; i++)
    owes = owes || to_act[i] == 0;
  assert_true(owes);
  json_decref(events);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_damage_sets_coins_aside),
      cmocka_unit_test(test_the_wrong_coins_are_refused),
      cmocka_unit_test(test_healing_returns_the_yeti_home_with_all_coins),
      cmocka_unit_test(test_losing_the_last_coin_forces_a_return),
      cmocka_unit_test(test_a_yeti_off_the_edge_returns_without_its_coins),
      cmocka_unit_test(test_a_yeti_whose_base_is_occupied_takes_the_nearest_free_corner),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
