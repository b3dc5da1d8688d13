/*
 * test_sherpas.c - Moving the Sherpas and the Take-along rule
 * (engine/himalaya/sherpas.c).
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

/* A two-seat game on the quiet board with plenty of dice in the pool. */
static struct engine_game *board(void)
{
  static const int pool[] = {1, 2, 3, 4, 5, 6};
  struct engine_game *game = hs_new(2, 11);

  hs_clear(game);
  hs_pool(game, pool, 6);
  return game;
}

#define SHERPA(s) hs_state(game)->seat[0].sherpa[s]

/* himalaya, The Game: "moves one of his/her pawns ... according to the die
 * number" - forward by exactly that number. */
static void test_sherpa_moves_forward_by_the_die_number(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 5, 0, 0, 0);
  json_decref(kit_apply(&game, 0,
                        "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                        "\"direction\":\"up\"}"));
  assert_int_equal(SHERPA(0), 9);
  engine_free(game);
}

/* himalaya, Moving the Sherpas: "Sherpas may also go backwards. During these
 * moves, they move only half the die number of the selected die. With an
 * odd number, the total is rounded up (1=1, 3=2, 5=3)." */
static void test_sherpa_goes_backwards_half_rounded_up(void **state)
{
  static const int expect[7] = {0, 1, 1, 2, 2, 3, 3};
  int v;

  for (v = 1; v <= 6; v++) {
    struct engine_game *game = board();
    char move[128];
    json_t *events;

    hs_sherpas(game, 0, 30, 0, 0, 0);
    snprintf(move, sizeof(move),
             "{\"type\":\"die\",\"value\":%d,\"pawn\":\"sherpa\",\"sherpa\":0,"
             "\"direction\":\"down\"}",
             v);
    events = kit_apply(&game, 0, move);
    assert_int_equal(SHERPA(0), 30 - expect[v]);
    assert_string_equal(
        json_string_value(json_object_get(kit_event(events, "moved", 0), "direction")), "down");
    json_decref(events);
    engine_free(game);
  }
}

/* himalaya, Moving the Sherpas: backwards ends at base camp, the start of
 * the path; a move that would go below it is not allowed (RULES.md). */
static void test_sherpa_cannot_go_below_base_camp(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 1, 0, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
             "\"direction\":\"down\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SHERPAS);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":1,\"pawn\":\"sherpa\",\"sherpa\":1,"
             "\"direction\":\"down\"}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SHERPAS);
  json_decref(kit_apply(&game, 0,
                        "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0,"
                        "\"direction\":\"down\"}"));
  assert_int_equal(SHERPA(0), 0);
  engine_free(game);
}

/* himalaya, Moving the Sherpas: the path ends at the summit; a Sherpa may
 * land on it exactly but not go beyond (RULES.md). */
static void test_sherpa_may_reach_but_not_pass_the_summit(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_state(game)->yeti = 30;
  hs_sherpas(game, 0, 37, 36, 0, 0);
  err = kit_reject(game, 0, "{\"type\":\"die\",\"value\":5,\"pawn\":\"sherpa\",\"sherpa\":0}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SHERPAS);
  assert_non_null(strstr(err.detail, "summit"));
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":1}"));
  assert_int_equal(SHERPA(1), 40);
  assert_null(himalaya_module.result(game));
  engine_free(game);
}

/* himalaya, Take-along rule: "1. The Sherpa additionally moves as many
 * spaces as the number of Sherpas he has found already on the space." -
 * "their own or another player's Sherpas" both count. */
static void test_take_along_adds_the_sherpas_found(void **state)
{
  struct engine_game *game = board();
  json_t *events, *took;

  hs_sherpas(game, 0, 5, 9, 0, 0);
  hs_sherpas(game, 1, 9, 0, 0, 0);
  events = kit_apply(&game, 0,
                     "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                     "\"take_along\":true}");
  assert_int_equal(SHERPA(0), 11);
  assert_int_equal(SHERPA(1), 9); /* not asked to travel along */
  took = kit_event(events, "took_along", 0);
  assert_non_null(took);
  assert_int_equal(kit_int(took, "from"), 9);
  assert_int_equal(kit_int(took, "to"), 11);
  assert_int_equal(kit_int(took, "extra"), 2);
  assert_int_equal(json_array_size(json_object_get(took, "companions")), 0);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Take-along rule: "If a Sherpa lands on a space that already
 * contains their own or another player's Sherpas" - other players' alone
 * are enough. */
static void test_take_along_counts_other_players_sherpas(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 13, 0, 0, 0);
  hs_sherpas(game, 1, 16, 0, 0, 0);
  json_decref(kit_apply(&game, 0,
                        "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,"
                        "\"take_along\":true,\"companions\":[]}"));
  assert_int_equal(SHERPA(0), 17);
  engine_free(game);
}

/* himalaya, Take-along rule: "1a. He/she is allowed to (but does not have
 * to) move other Sherpas that belong to him/her along with the Sherpa whose
 * move started this sequence." */
static void test_take_along_companions_travel_along(void **state)
{
  struct engine_game *game = board();
  json_t *events, *list;

  hs_sherpas(game, 0, 5, 9, 9, 0);
  events = kit_apply(&game, 0,
                     "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                     "\"take_along\":true,\"companions\":[2]}");
  assert_int_equal(SHERPA(0), 11);
  assert_int_equal(SHERPA(1), 9);
  assert_int_equal(SHERPA(2), 11);
  list = json_object_get(kit_event(events, "took_along", 0), "companions");
  assert_int_equal(json_array_size(list), 1);
  assert_int_equal(json_integer_value(json_array_get(list, 0)), 2);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Take-along rule: "1a ... other Sherpas that belong to
 * him/her" standing on the landing field, not elsewhere. */
static void test_take_along_companion_must_stand_on_the_landing_field(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 5, 9, 3, 0);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
             "\"take_along\":true,\"companions\":[2]}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG);
  engine_free(game);
}

/* himalaya, Take-along rule: "2. He/she doesn't apply the take-along rule
 * and remains on that space." */
static void test_take_along_may_be_declined(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 5, 9, 0, 0);
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  assert_int_equal(SHERPA(0), 9);
  engine_free(game);
}

/* himalaya, Take-along rule: "If a Sherpa lands on a space that already
 * contains ... Sherpas" - an empty field gives nothing to take along. */
static void test_take_along_needs_sherpas_on_the_field(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 5, 0, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG);
  engine_free(game);
}

/* himalaya, Take-along rule: "When moving backwards ... the take-along rule
 * cannot be used." */
static void test_no_take_along_when_moving_backwards(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 13, 11, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
             "\"direction\":\"down\",\"take_along\":true}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG);
  assert_false(hs_is_legal(game, 0,
                           "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                           "\"direction\":\"down\",\"take_along\":true}"));
  json_decref(kit_apply(&game, 0,
                        "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                        "\"direction\":\"down\"}"));
  assert_int_equal(SHERPA(0), 11);
  engine_free(game);
}

/* himalaya, Take-along rule: "... or when falling back through an avalanche
 * the take-along rule cannot be used." Field 7 slides to 3, where Sherpas
 * stand. */
static void test_no_take_along_after_a_slide(void **state)
{
  struct engine_game *game = board();
  struct cairn_error err;

  hs_sherpas(game, 0, 4, 3, 0, 0);
  err = kit_reject(game, 0,
                   "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,"
                   "\"take_along\":true}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG);
  assert_non_null(strstr(err.detail, "slides"));
  json_decref(
      kit_apply(&game, 0, "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0}"));
  assert_int_equal(SHERPA(0), 3);
  engine_free(game);
}

/* himalaya, Take-along rule: "More than one such move in a turn is not
 * allowed. The turn ends after a single take-along rule." Landing on 9
 * (one Sherpa) carries to 10, where two more stand: the move ends there. */
static void test_only_one_take_along_per_turn(void **state)
{
  struct engine_game *game = board();
  json_t *events;

  hs_sherpas(game, 0, 5, 0, 0, 0);
  hs_sherpas(game, 1, 9, 10, 10, 0);
  events = kit_apply(&game, 0,
                     "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                     "\"take_along\":true}");
  assert_int_equal(SHERPA(0), 10);
  assert_int_equal(kit_count(events, "took_along"), 1);
  assert_int_equal(hs_state(game)->current, 1);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Avalanches and Landslides: "If a Sherpa lands on one of these
 * fields, he immediately slides" - also at the end of a take-along, and
 * the companions who arrived with him slide too. 9 + 3 = 12 slides to 8. */
static void test_take_along_ending_on_a_landslide_slides_everyone(void **state)
{
  struct engine_game *game = board();
  json_t *events;

  hs_sherpas(game, 0, 5, 9, 0, 0);
  hs_sherpas(game, 1, 9, 9, 0, 0);
  events = kit_apply(&game, 0,
                     "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                     "\"take_along\":true,\"companions\":[1]}");
  assert_int_equal(SHERPA(0), 8);
  assert_int_equal(SHERPA(1), 8);
  assert_int_equal(kit_count(events, "slid"), 2);
  assert_int_equal(kit_int(kit_event(events, "slid", 0), "from"), 12);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Special Spaces: the take-along leg obeys the same stops as any
 * move - "On the space that the Yeti stands, no other pawns may be moved",
 * nor into the Yeti cave. */
static void test_take_along_cannot_end_on_the_yeti_or_its_cave(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 5, 0, 0, 0);
  hs_sherpas(game, 1, 9, 9, 0, 0);
  hs_state(game)->yeti = 11;
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  hs_state(game)->yeti = 30;
  hs_sherpas(game, 0, 18, 0, 0, 0);
  hs_sherpas(game, 1, 20, 0, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":2,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES);
  engine_free(game);
}

/* himalaya, Take-along rule: the extra move still ends at the summit
 * (RULES.md): 39 with two Sherpas cannot carry to 41. */
static void test_take_along_cannot_pass_the_summit(void **state)
{
  struct engine_game *game = board();

  hs_state(game)->yeti = 30;
  hs_sherpas(game, 0, 36, 0, 0, 0);
  hs_sherpas(game, 1, 39, 39, 0, 0);
  kit_reject(game, 0,
             "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sherpa_moves_forward_by_the_die_number),
      cmocka_unit_test(test_sherpa_goes_backwards_half_rounded_up),
      cmocka_unit_test(test_sherpa_cannot_go_below_base_camp),
      cmocka_unit_test(test_sherpa_may_reach_but_not_pass_the_summit),
      cmocka_unit_test(test_take_along_adds_the_sherpas_found),
      cmocka_unit_test(test_take_along_counts_other_players_sherpas),
      cmocka_unit_test(test_take_along_companions_travel_along),
      cmocka_unit_test(test_take_along_companion_must_stand_on_the_landing_field),
      cmocka_unit_test(test_take_along_may_be_declined),
      cmocka_unit_test(test_take_along_needs_sherpas_on_the_field),
      cmocka_unit_test(test_no_take_along_when_moving_backwards),
      cmocka_unit_test(test_no_take_along_after_a_slide),
      cmocka_unit_test(test_only_one_take_along_per_turn),
      cmocka_unit_test(test_take_along_ending_on_a_landslide_slides_everyone),
      cmocka_unit_test(test_take_along_cannot_end_on_the_yeti_or_its_cave),
      cmocka_unit_test(test_take_along_cannot_pass_the_summit),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
