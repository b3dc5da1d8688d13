/*
 * test_roar.c - "Roaring" (engine/everest/roar.c): who is affected, the
 * table of results, roar-back chains. The dice are loaded (support.c
 * es_dice) so each test knows what every yeti rolls; faces are 0 null,
 * 1 ace, 2..5. Yeti not roaring throw harmless snowballs off the south
 * edge.
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

static struct engine_game *quiet(void)
{
  struct engine_game *game = es_new(4, 9, 0);

  es_quiet(game);
  return game;
}

static int cell(struct engine_game *game, int seat)
{
  return es_state(game)->yeti[seat].cell;
}

/* The nth roar-roll of `seat`, or NULL. */
static json_t *roll_of(json_t *events, int seat, int nth)
{
  json_t *ev;
  int i;

  for (i = 0; (ev = kit_event(events, "roar-roll", i)); i++)
    if (kit_int(ev, "seat") == seat && nth-- == 0)
      return ev;
  return NULL;
}

/* The check die rolled for `seat` by the `nth` roar event, or -1. */
static int check_of(json_t *events, int nth, int seat)
{
  json_t *checks = json_object_get(kit_event(events, "roar", nth), "checks"), *c;
  size_t i;

  json_array_foreach(checks, i, c)
  {
    if (kit_int(c, "seat") == seat)
      return kit_int(c, "check");
  }
  return -1;
}

static const char *outcome(json_t *events, int seat, int nth)
{
  json_t *ev = roll_of(events, seat, nth);

  assert_non_null(ev);
  return json_string_value(json_object_get(ev, "outcome"));
}

/* everest, Roaring: "The roar always affects a yeti in the square pointed
 * to by the tick mark on the null coin." and "2-5: the yeti runs away
 * directly away from the roaring yeti using the number of MP shown on the
 * die." No other square holds a yeti, so no check die is rolled. */
static void test_the_pointed_square_is_always_affected_and_runs(void **state)
{
  struct engine_game *game = quiet();
  static const int dice[] = {3};
  json_t *events;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  es_dice(game, dice, 1);
  events = es_act(&game, 1, 2, "suit", "S");
  assert_int_equal(json_array_size(json_object_get(kit_event(events, "roar", 0), "checks")), 0);
  assert_string_equal(outcome(events, 1, 0), "run");
  assert_int_equal(cell(game, 1), AT(5, 7));
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "Yeti in the other three squares are only affected on
 * the roll of a null on owning player's die." A 4 on the check leaves the
 * yeti behind the roarer alone; "Null: The yeti stands there and
 * shivers." */
static void test_other_squares_are_spared_without_a_null_check(void **state)
{
  struct engine_game *game = quiet();
  static const int dice[] = {4, 0};
  json_t *events;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  es_place(game, 2, 5, 2);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  es_dice(game, dice, 2);
  events = es_act(&game, 2, 2, "suit", "S");
  assert_int_equal(check_of(events, 0, 2), 4);
  assert_string_equal(outcome(events, 1, 0), "shiver");
  assert_null(roll_of(events, 2, 0));
  assert_int_equal(cell(game, 1), AT(5, 4));
  assert_int_equal(cell(game, 2), AT(5, 2));
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "Yeti in the other three squares are only affected on
 * the roll of a null on owning player's die" and "Yeti in other surrounding
 * squares must make the check die roll": one check roll for each of them.
 * Seat 0 roars N at nobody; the checks are rolled square by square (N, E,
 * S, W): seat 2 (east) gets a 3 and is spared, seat 1 (west) a null and
 * is affected, and runs 2 squares. The last roars stay in the view. */
static void test_each_side_yeti_gets_its_own_check_die(void **state)
{
  struct engine_game *game = quiet();
  static const int dice[] = {3, 0, 2};
  json_t *events, *view, *roars;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 2);
  es_place(game, 2, 5, 4);
  json_decref(es_act(&game, 0, 0, "value", "N"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  es_dice(game, dice, 3);
  events = es_act(&game, 2, 2, "suit", "S");
  assert_int_equal(check_of(events, 0, 1), 0);
  assert_int_equal(check_of(events, 0, 2), 3);
  assert_int_equal(json_array_size(json_object_get(kit_event(events, "roar", 0), "affected")), 1);
  assert_string_equal(outcome(events, 1, 0), "run");
  assert_null(roll_of(events, 2, 0));
  assert_int_equal(cell(game, 1), AT(5, 0));
  assert_int_equal(cell(game, 2), AT(5, 4));
  view = engine_view(game, ENGINE_SPECTATOR);
  roars = json_object_get(view, "last_roars");
  assert_int_equal(json_array_size(json_object_get(
                       json_array_get(json_object_get(roars, "roars"), 0), "checks")),
                   2);
  assert_string_equal(json_string_value(json_object_get(
                          json_array_get(json_object_get(roars, "rolls"), 0), "outcome")),
                      "run");
  json_decref(view);
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: on a null check the other squares' yeti are affected
 * too, and each runs directly away from the roarer. */
static void test_a_null_check_affects_the_other_squares(void **state)
{
  struct engine_game *game = quiet();
  static const int dice[] = {0, 2, 2};
  json_t *events;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  es_place(game, 2, 5, 2);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  es_dice(game, dice, 3);
  events = es_act(&game, 2, 2, "suit", "S");
  assert_string_equal(outcome(events, 1, 0), "run");
  assert_string_equal(outcome(events, 2, 0), "run");
  assert_int_equal(cell(game, 1), AT(5, 6));
  assert_int_equal(cell(game, 2), AT(5, 0));
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "Ace: the yeti roars back at the roaring yeti, the
 * original yeti must also make a die roll and act accordingly, except that
 * any ace result is treated as a null." The original rolls an ace: it
 * shivers; in a second game it rolls 3 and runs. */
static void test_an_ace_roars_back_and_the_original_treats_ace_as_null(void **state)
{
  static const int ace[] = {1, 1}, three[] = {1, 3};
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  es_dice(game, ace, 2);
  events = es_act(&game, 1, 2, "suit", "S");
  assert_string_equal(outcome(events, 1, 0), "roar-back");
  assert_string_equal(outcome(events, 0, 0), "shiver");
  assert_int_equal(kit_int(roll_of(events, 0, 0), "roll"), EVEREST_NULL);
  assert_int_equal(kit_count(events, "roar"), 2);
  assert_int_equal(cell(game, 0), AT(5, 3));
  json_decref(events);
  engine_free(game);

  game = quiet();
  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  es_dice(game, three, 2);
  events = es_act(&game, 1, 2, "suit", "S");
  assert_string_equal(outcome(events, 0, 0), "run");
  assert_int_equal(cell(game, 0), AT(5, 0));
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "If any aces are rolled again determine which
 * additional yeti are affected and roll on the table for them." A chain
 * with two aces: seat 0 roars at seat 1; seat 1 rolls an ace and roars
 * back, its null check also catches seat 2; seat 0 runs (2), seat 2 rolls
 * the second ace and roars back at seat 1, who - roaring back already -
 * treats its ace as a null and shivers. */
static void test_a_roar_chain_with_two_aces(void **state)
{
  static const int dice[] = {1, 0, 2, 1, 1};
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  es_place(game, 2, 4, 4);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  es_dice(game, dice, 5);
  events = es_act(&game, 2, 2, "suit", "N");
  assert_int_equal(kit_count(events, "roar"), 3);
  assert_int_equal(kit_count(events, "roar-roll"), 4);
  assert_string_equal(outcome(events, 1, 0), "roar-back");
  assert_string_equal(outcome(events, 0, 0), "run");
  assert_string_equal(outcome(events, 2, 0), "roar-back");
  assert_string_equal(outcome(events, 1, 1), "shiver");
  assert_int_equal(check_of(events, 1, 2), 0);
  assert_int_equal(cell(game, 0), AT(5, 1));
  assert_int_equal(cell(game, 1), AT(5, 4));
  assert_int_equal(cell(game, 2), AT(4, 4));
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "once a yeti is determined to be running away from a
 * roar, it does not roll for subsequent roars by any yeti that rolls an
 * ace." Seat 1 runs in the first wave; seat 0's roar back (an ace) with a
 * null check catches it again, but it does not roll. */
static void test_a_running_yeti_does_not_roll_again(void **state)
{
  static const int dice[] = {5, 3, 1, 0, 0};
  struct engine_game *game = quiet();
  json_t *events;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 4);
  es_place(game, 2, 4, 3);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  es_dice(game, dice, 5);
  events = es_act(&game, 2, 0, "value", "S");
  assert_string_equal(outcome(events, 1, 0), "run");
  assert_null(roll_of(events, 1, 1));
  assert_string_equal(outcome(events, 0, 0), "roar-back");
  assert_string_equal(outcome(events, 2, 0), "shiver");
  assert_int_equal(cell(game, 1), AT(5, 7));
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "The roar of a yeti can only affect any yeti that are in
 * one of the four squares next to the yeti." A roar at an empty square
 * with nobody near rolls nothing. */
static void test_a_roar_with_nobody_near_rolls_nothing(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;
  uint64_t drawn;

  es_place(game, 0, 5, 3);
  es_place(game, 1, 5, 5);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  drawn = game->rng.drawn;
  events = es_act(&game, 1, 2, "suit", "S");
  assert_int_equal(kit_count(events, "roar-roll"), 0);
  assert_true(json_is_null(json_object_get(kit_event(events, "roar", 0), "target")));
  assert_int_equal(game->rng.drawn, drawn);
  json_decref(events);
  engine_free(game);
}

/* everest, Roaring: "After all yeti that are running away are determined,
 * treat any resulting movement like a regular action turn including
 * conflict resolution". Two runners whose paths meet conflict; the high
 * roller orders them. */
static void test_running_away_is_a_turn_with_conflict_resolution(void **state)
{
  static const int dice[] = {2, 2, 5, 0, 0, 0};
  struct engine_game *game = quiet();
  json_t *events, *legal;

  es_place(game, 0, 5, 2);
  es_place(game, 1, 5, 3);
  es_place(game, 2, 4, 4);
  es_place(game, 3, 5, 4);
  json_decref(es_act(&game, 0, 0, "value", "E"));
  json_decref(es_act(&game, 1, 2, "suit", "S"));
  json_decref(es_act(&game, 2, 0, "value", "S"));
  es_dice(game, dice, 6);
  events = es_act(&game, 3, 2, "suit", "S");
  assert_int_equal(kit_int(kit_event(events, "conflict", 0), "chooser"), 0);
  assert_string_equal(
      json_string_value(json_object_get(
          json_array_get(json_object_get(kit_event(events, "conflict", 0), "items"), 0), "kind")),
      "run");
  legal = engine_legal_moves(game, 0);
  assert_int_equal(json_array_size(legal), 2);
  json_decref(legal);
  json_decref(events);
  /* Seat 3 runs south off the board first, so seat 1 runs east freely. */
  json_decref(kit_apply(&game, 0, "{\"type\":\"order\",\"order\":[3,1]}"));
  assert_int_equal(cell(game, 3), EVEREST_OFF);
  assert_int_equal(cell(game, 1), AT(5, 5));
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_the_pointed_square_is_always_affected_and_runs),
      cmocka_unit_test(test_other_squares_are_spared_without_a_null_check),
      cmocka_unit_test(test_a_null_check_affects_the_other_squares),
      cmocka_unit_test(test_each_side_yeti_gets_its_own_check_die),
      cmocka_unit_test(test_an_ace_roars_back_and_the_original_treats_ace_as_null),
      cmocka_unit_test(test_a_roar_chain_with_two_aces),
      cmocka_unit_test(test_a_running_yeti_does_not_roll_again),
      cmocka_unit_test(test_a_roar_with_nobody_near_rolls_nothing),
      cmocka_unit_test(test_running_away_is_a_turn_with_conflict_resolution),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
