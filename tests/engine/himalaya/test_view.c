/*
 * test_view.c - what each seat may see (engine/himalaya/view.c) and the
 * canonical serialisation (engine/himalaya/serialize.c).
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

static json_t *get(json_t *obj, const char *path)
{
  char key[64];
  const char *dot;

  while ((dot = strchr(path, '.'))) {
    snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
    obj = json_object_get(obj, key);
    path = dot + 1;
  }
  obj = json_object_get(obj, path);
  if (!obj)
    fail_msg("view has no %s", path);
  return obj;
}

/* Himalaya has no hands: every seat and every spectator sees the same. */
static void test_every_seat_and_spectator_sees_the_same(void **state)
{
  struct engine_game *game = hs_new(4, 71);
  json_t *spectator = engine_view(game, ENGINE_SPECTATOR);
  int seat;

  assert_non_null(spectator);
  for (seat = 0; seat < 4; seat++) {
    json_t *view = engine_view(game, seat);

    assert_true(json_equal(view, spectator));
    json_decref(view);
  }
  json_decref(spectator);
  engine_free(game);
}

/* The view describes the board (Special Spaces) so clients need no copy. */
static void test_view_describes_the_board(void **state)
{
  struct engine_game *game = hs_new(2, 72);
  json_t *view = engine_view(game, 0);
  json_t *slides = get(view, "board.slides");
  json_t *first = json_array_get(slides, 0);

  assert_int_equal(json_integer_value(get(view, "board.summit")), 40);
  assert_int_equal(json_integer_value(get(view, "board.base_camp")), 0);
  assert_int_equal(json_integer_value(get(view, "board.yeti_cave")), 21);
  assert_int_equal(json_array_size(get(view, "board.camps")), 3);
  assert_int_equal(json_integer_value(json_array_get(get(view, "board.high_camps"), 1)), 28);
  assert_int_equal(json_array_size(get(view, "board.snowfields")), 5);
  assert_int_equal(json_array_size(get(view, "board.sherpa_start")), 4);
  assert_int_equal(json_array_size(slides), 6);
  assert_int_equal(kit_int(first, "from"), 7);
  assert_int_equal(kit_int(first, "to"), 3);
  assert_string_equal(json_string_value(json_object_get(first, "kind")), "landslide");
  assert_string_equal(json_string_value(json_object_get(json_array_get(slides, 2), "kind")),
                      "avalanche");
  json_decref(view);
  engine_free(game);
}

/* The view shows the pieces, the dice, the supply cards and the Yeti. */
static void test_view_shows_the_position(void **state)
{
  static const int pool[] = {2, 5, 5};
  struct engine_game *game = hs_new(3, 73);
  struct himalaya_state *st = hs_state(game);
  json_t *view, *supply;

  hs_pool(game, pool, 3);
  st->seat[1].climber = 4;
  st->seat[1].spent[st->seat[1].spent_count++] = 2;
  st->seat[1].camp_used[1] = true;
  st->current = 2;
  view = engine_view(game, ENGINE_SPECTATOR);
  assert_int_equal(json_integer_value(get(view, "seat_to_act")), 2);
  assert_int_equal(json_integer_value(get(view, "yeti")), 21);
  assert_int_equal(json_integer_value(json_array_get(get(view, "climbers"), 1)), 4);
  assert_int_equal(json_integer_value(json_array_get(json_array_get(get(view, "sherpas"), 2), 3)),
                   4);
  assert_int_equal(json_integer_value(get(view, "dice.count")), 6);
  assert_int_equal(json_array_size(get(view, "dice.pool")), 3);
  assert_int_equal(json_integer_value(json_array_get(get(view, "dice.pool"), 2)), 5);
  supply = json_array_get(get(view, "supply"), 1);
  assert_int_equal(json_array_size(json_object_get(supply, "cards")), 2);
  assert_string_equal(json_string_value(json_object_get(
                          json_array_get(json_object_get(supply, "cards"), 1), "card")),
                      "5/6");
  assert_true(
      json_is_true(json_object_get(json_array_get(json_object_get(supply, "cards"), 1), "used")));
  assert_true(
      json_is_false(json_object_get(json_array_get(json_object_get(supply, "cards"), 0), "used")));
  assert_int_equal(json_integer_value(json_array_get(json_object_get(supply, "camps_used"), 0)),
                   28);
  assert_int_equal(json_integer_value(get(view, "yeti_deck.remaining")), 9);
  assert_int_equal(json_array_size(get(view, "yeti_deck.discards")), 0);
  assert_true(json_is_false(get(view, "yeti_deck.bad_weather_in_deck")));
  assert_true(json_is_null(get(view, "result")));
  json_decref(view);
  engine_free(game);
}

/* Moving the Yeti: "he/she uncovers the top Yeti card" - the stack is face
 * down: no seat or spectator learns its order; drawn cards lie face up. Only
 * the audit view (ENGINE_OMNISCIENT) and the serialisation hold it. */
static void test_view_never_shows_the_undrawn_yeti_cards(void **state)
{
  static const int last[] = {6};
  struct engine_game *game = hs_new(2, 74);
  struct engine_game *other = hs_new(2, 74);
  json_t *view, *view_other, *audit;
  char *text, *text_other;
  int swap;

  hs_pool(game, last, 1);
  json_decref(kit_apply(&game, 0, "{\"type\":\"reroll\"}"));
  view = engine_view(game, 0);
  assert_null(json_object_get(get(view, "yeti_deck"), "order"));
  assert_int_equal(json_array_size(get(view, "yeti_deck.discards")), 1);
  assert_int_equal(json_integer_value(get(view, "yeti_deck.remaining")), 8);
  audit = engine_view(game, ENGINE_OMNISCIENT);
  assert_int_equal(json_array_size(get(audit, "yeti_deck.order")), 8);
  json_decref(audit);

  /* Two positions that differ only in the hidden order look the same ... */
  hs_pool(other, last, 1);
  json_decref(kit_apply(&other, 0, "{\"type\":\"reroll\"}"));
  swap = hs_state(other)->deck[0];
  hs_state(other)->deck[0] = hs_state(other)->deck[1];
  hs_state(other)->deck[1] = swap;
  view_other = engine_view(other, 0);
  assert_true(json_equal(view, view_other));
  /* ... but are different states. */
  text = kit_text(game);
  text_other = kit_text(other);
  assert_string_not_equal(text, text_other);
  free(text);
  free(text_other);
  json_decref(view);
  json_decref(view_other);
  engine_free(game);
  engine_free(other);
}

/* Game End: a finished game's view carries its result and nobody to act. */
static void test_view_of_a_finished_game_shows_the_result(void **state)
{
  static const int pool[] = {6, 6};
  struct engine_game *game = hs_new(2, 75);
  json_t *view;

  hs_clear(game);
  hs_pool(game, pool, 2);
  hs_state(game)->seat[0].climber = 36;
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":6,\"pawn\":\"climber\"}"));
  view = engine_view(game, 1);
  assert_true(json_is_null(get(view, "seat_to_act")));
  assert_string_equal(json_string_value(get(view, "result.reason")), "summit");
  assert_int_equal(json_integer_value(json_array_get(get(view, "result.winners"), 0)), 0);
  json_decref(view);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_seat_and_spectator_sees_the_same),
      cmocka_unit_test(test_view_describes_the_board),
      cmocka_unit_test(test_view_shows_the_position),
      cmocka_unit_test(test_view_never_shows_the_undrawn_yeti_cards),
      cmocka_unit_test(test_view_of_a_finished_game_shows_the_result),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
