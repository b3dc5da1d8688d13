/*
 * test_view.c - what each seat may see (engine/journey/view.c) and the
 * canonical serialisation (engine/journey/serialize.c).
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

static const char *str(const json_t *obj, const char *key)
{
  const char *s = json_string_value(json_object_get(obj, key));

  if (!s)
    fail_msg("no string member %s", key);
  return s;
}

/* The view names the three roles: seat 0 tenzing, 1 hillary, 2 mountain. */
static void test_view_names_the_roles(void **state)
{
  struct engine_game *game = js_new(81);
  json_t *view = engine_view(game, 1);
  json_t *roles = json_object_get(view, "roles");

  assert_string_equal(json_string_value(json_array_get(roles, 0)), "tenzing");
  assert_string_equal(json_string_value(json_array_get(roles, 1)), "hillary");
  assert_string_equal(json_string_value(json_array_get(roles, 2)), "mountain");
  assert_string_equal(str(view, "your_role"), "hillary");
  assert_string_equal(str(json_array_get(json_object_get(view, "climbers"), 0), "role"), "tenzing");
  assert_string_equal(str(json_object_get(view, "mountain"), "role"), "mountain");
  assert_string_equal(str(view, "phase"), "buy");
  json_decref(view);
  engine_free(game);
}

/* "The Mountain's hand and deck order are hidden from the climbers and
 * spectators": only the Mountain sees its hand; nobody sees the deck order
 * while the game runs; everyone sees the hand's size. */
static void test_only_the_mountain_sees_its_hand(void **state)
{
  struct engine_game *game = js_new(82);
  int viewers[4] = {0, 1, ENGINE_SPECTATOR, JOURNEY_MOUNTAIN}, v;

  for (v = 0; v < 4; v++) {
    json_t *view = engine_view(game, viewers[v]);

    assert_int_equal(kit_int(json_object_get(view, "mountain"), "hand_size"), 3);
    assert_int_equal(kit_int(json_object_get(view, "mountain"), "deck_size"), 31);
    assert_null(json_object_get(view, "deck"));
    if (viewers[v] == JOURNEY_MOUNTAIN)
      assert_non_null(json_object_get(view, "hand"));
    else
      assert_null(json_object_get(view, "hand"));
    json_decref(view);
  }
  engine_free(game);
}

/* The audit view of a finished game shows everything. */
static void test_omniscient_view_shows_hand_and_deck(void **state)
{
  struct engine_game *game = js_new(83);
  json_t *view = engine_view(game, ENGINE_OMNISCIENT);

  assert_int_equal(json_array_size(json_object_get(view, "deck")), 31);
  assert_non_null(json_object_get(view, "hand"));
  assert_non_null(json_object_get(view, "forecasts"));
  json_decref(view);
  engine_free(game);
}

/* The board travels with the view, so clients need no copy of it. */
static void test_view_describes_the_board(void **state)
{
  struct engine_game *game = js_new(84);
  json_t *view = engine_view(game, ENGINE_SPECTATOR);
  json_t *board = json_object_get(view, "board");
  json_t *spaces = json_object_get(board, "spaces");

  assert_int_equal(json_array_size(spaces), 29);
  assert_string_equal(str(json_array_get(spaces, 1), "space"), "L1-N");
  assert_string_equal(str(json_array_get(spaces, 1), "ascend_food"), "impasse");
  assert_int_equal(kit_int(json_array_get(spaces, 2), "ascend_food"), 1);
  assert_int_equal(kit_int(board, "o2_zone_level"), 6);
  json_decref(view);
  engine_free(game);
}

/* Restrictions and equipment are public: both climbers and the Mountain
 * see them. */
static void test_view_shows_climbers_state(void **state)
{
  struct engine_game *game = js_climbing(85);
  json_t *view, *t;

  ST->climber[0].items[JOURNEY_ROPE] = 2;
  ST->climber[0].in_crevice = true;
  js_put(game, 0, "L3-E");
  view = engine_view(game, JOURNEY_MOUNTAIN);
  t = json_array_get(json_object_get(view, "climbers"), 0);
  assert_string_equal(str(t, "space"), "L3-E");
  assert_int_equal(kit_int(t, "level"), 3);
  assert_string_equal(str(t, "quadrant"), "E");
  assert_int_equal(kit_int(json_object_get(t, "equipment"), "rope"), 2);
  assert_true(json_is_true(json_object_get(t, "in_crevice")));
  assert_int_equal(kit_int(t, "actions_left"), 3);
  json_decref(view);
  engine_free(game);
}

/* Serialisation is canonical: a clone serialises identically and a change
 * to a secret (the deck order) changes it. */
static void test_serialisation_covers_the_secrets(void **state)
{
  struct engine_game *game = js_new(86);
  struct engine_game *copy = engine_clone(game);
  char *a = kit_text(game), *b = kit_text(copy), *c;
  int t;

  assert_string_equal(a, b);
  t = js_state(copy)->deck[0];
  js_state(copy)->deck[0] = js_state(copy)->deck[30];
  js_state(copy)->deck[30] = t;
  c = kit_text(copy);
  if (js_state(copy)->deck[0] != js_state(copy)->deck[30])
    assert_string_not_equal(a, c);
  free(a);
  free(b);
  free(c);
  engine_free(copy);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_view_names_the_roles),
      cmocka_unit_test(test_only_the_mountain_sees_its_hand),
      cmocka_unit_test(test_omniscient_view_shows_hand_and_deck),
      cmocka_unit_test(test_view_describes_the_board),
      cmocka_unit_test(test_view_shows_climbers_state),
      cmocka_unit_test(test_serialisation_covers_the_secrets),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
