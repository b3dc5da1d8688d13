/*
 * test_view.c - what each viewer may see (engine/everest/view.c), the
 * compact `legal` description and sample_move (engine/everest/legal.c),
 * and the canonical serialisation.
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

/* The planning description: the available coins, the plan length, faces
 * and directions - enough to build every legal plan without guessing. */
static void test_legal_describes_plans_compactly(void **state)
{
  struct engine_game *game = es_new(4, 21, 0);
  json_t *legal, *options;

  es_state(game)->seat[1].aside = (1u << 0) | (1u << 3) | (1u << 4) | (1u << 5);
  legal = engine_legal_moves(game, 1);
  assert_int_equal(json_array_size(legal), 1);
  options = json_array_get(legal, 0);
  assert_string_equal(json_string_value(json_object_get(options, "type")), "plan-options");
  assert_int_equal(kit_int(options, "length"), 2);
  assert_int_equal(json_array_size(json_object_get(options, "coins")), 2);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(options, "coins"), 1)), 2);
  assert_int_equal(json_array_size(json_object_get(options, "faces")), 2);
  assert_int_equal(json_array_size(json_object_get(options, "directions")), 4);
  json_decref(legal);
  legal = engine_legal_moves(game, 7);
  assert_int_equal(json_array_size(legal), 0);
  json_decref(legal);
  engine_free(game);
}

/* Every plan the description allows is accepted: all 2-coin plans of a
 * seat with coins 1 and 2 (2 orders x 4 faces x 16 directions). */
static void test_every_described_plan_is_accepted(void **state)
{
  struct engine_game *game = es_new(4, 21, 0);
  static const char *const faces[] = {"value", "suit"}, *const dirs[] = {"N", "E", "S", "W"};
  int order, f, d, count = 0;

  es_coins(game, 1, (1u << 1) | (1u << 2));
  for (order = 0; order < 2; order++)
    for (f = 0; f < 4; f++)
      for (d = 0; d < 16; d++) {
        json_t *move =
            json_pack("{s:s, s:[{s:i, s:s, s:s}, {s:i, s:s, s:s}]}", "type", "plan", "plan", "coin",
                      order ? 2 : 1, "face", faces[f & 1], "dir", dirs[d & 3], "coin",
                      order ? 1 : 2, "face", faces[f >> 1], "dir", dirs[d >> 2]);

        count += kit_accepts(game, 1, move);
        json_decref(move);
      }
  assert_int_equal(count, 128);
  engine_free(game);
}

/* sample_move: deterministic in `choice`, accepted, never touches the
 * game's generator, NULL for a seat that may not act. */
static void test_sample_move_is_deterministic_and_legal(void **state)
{
  struct engine_game *game = es_new(4, 21, 0);
  uint64_t drawn = game->rng.drawn;
  char *before = kit_text(game), *after;
  uint64_t choice;

  for (choice = 0; choice < 200; choice++) {
    json_t *a = everest_module.sample_move(game, choice % 4, choice * 7919);
    json_t *b = everest_module.sample_move(game, choice % 4, choice * 7919);

    assert_true(json_equal(a, b));
    assert_true(kit_accepts(game, (int)(choice % 4), a));
    json_decref(a);
    json_decref(b);
  }
  assert_null(everest_module.sample_move(game, 9, 1));
  assert_int_equal(game->rng.drawn, drawn);
  after = kit_text(game);
  assert_string_equal(before, after);
  free(before);
  free(after);
  engine_free(game);
}

/* A view shows the mountain and the public position; nothing of the
 * generator. */
static void test_view_shows_the_mountain_and_the_yeti(void **state)
{
  struct engine_game *game = es_new(4, 21, 0);
  json_t *view = engine_view(game, ENGINE_SPECTATOR);
  char *text = json_dumps(view, JSON_COMPACT);

  assert_int_equal(json_array_size(json_object_get(view, "heights")), EVEREST_ROWS);
  assert_string_equal(json_string_value(json_object_get(view, "phase")), "plan");
  assert_int_equal(json_array_size(json_object_get(view, "seats")), 4);
  assert_true(json_is_array(json_object_get(es_seat_view(view, 2), "at")));
  assert_null(strstr(text, "rng"));
  assert_null(strstr(text, "roared_back"));
  free(text);
  json_decref(view);
  engine_free(game);
}

/* Issue 20: a running yeti's direction reads N, E, S or W, as in every move
 * and event of the title, not as a number. */
static void test_a_running_yeti_shows_its_direction_by_name(void **state)
{
  static const char *const names[] = {"N", "E", "S", "W"};

  for (int dir = 0; dir < 4; dir++) {
    struct engine_game *game = es_new(4, 21, 0);
    json_t *view;

    es_state(game)->seat[1].running = true;
    es_state(game)->seat[1].run_dir = dir;
    es_state(game)->seat[1].run_mp = 2;
    view = engine_view(game, ENGINE_SPECTATOR);
    assert_string_equal(json_string_value(json_object_get(es_seat_view(view, 1), "run_dir")),
                        names[dir]);
    json_decref(view);
    engine_free(game);
  }
}

/* The omniscient view (finished-game audit) shows every plan. */
static void test_the_omniscient_view_sees_unrevealed_plans(void **state)
{
  struct engine_game *game = es_new(4, 21, 0);
  json_t *view;

  json_decref(kit_apply(&game, 3,
                        "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"suit\",\"dir\":\"N\"},"
                        "{\"coin\":2,\"face\":\"suit\",\"dir\":\"N\"},"
                        "{\"coin\":3,\"face\":\"suit\",\"dir\":\"N\"}]}"));
  view = engine_view(game, ENGINE_OMNISCIENT);
  assert_int_equal(json_array_size(json_object_get(es_seat_view(view, 3), "plan")), 3);
  json_decref(view);
  engine_free(game);
}

/* Serialisation is canonical: equal states give equal text, and a change
 * anywhere (here a secret plan) changes it. */
static void test_serialisation_covers_secrets(void **state)
{
  struct engine_game *a = es_new(4, 21, 0), *b = es_new(4, 21, 0);
  char *ta = kit_text(a), *tb = kit_text(b);

  assert_string_equal(ta, tb);
  free(tb);
  json_decref(kit_apply(&b, 3,
                        "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"suit\",\"dir\":\"N\"},"
                        "{\"coin\":2,\"face\":\"suit\",\"dir\":\"N\"},"
                        "{\"coin\":3,\"face\":\"suit\",\"dir\":\"N\"}]}"));
  tb = kit_text(b);
  assert_string_not_equal(ta, tb);
  free(ta);
  free(tb);
  engine_free(a);
  engine_free(b);
}

/* What the table shows: the notches (no tile, off the board: "0 marks the
 * notches" of the height map) marked as such, the inside corners and whose
 * base each is, and no dice before any conflict or roar. */
static void test_the_view_marks_notches_and_corners(void **state)
{
  struct engine_game *game = es_new(3, 21, 0);
  json_t *view = engine_view(game, ENGINE_SPECTATOR), *notches, *corners;

  notches = json_object_get(view, "notches");
  assert_int_equal(json_array_size(notches), 4);
  assert_int_equal(json_integer_value(json_array_get(json_array_get(notches, 0), 0)), 2);
  assert_int_equal(json_integer_value(json_array_get(json_array_get(notches, 0), 1)), 0);
  corners = json_object_get(view, "corners");
  assert_int_equal(json_array_size(corners), 4);
  assert_int_equal(kit_int(json_array_get(corners, 2), "home_of"), 2);
  assert_true(json_is_null(json_object_get(json_array_get(corners, 3), "home_of")));
  assert_true(json_is_null(json_object_get(view, "last_conflict")));
  assert_true(json_is_null(json_object_get(view, "last_roars")));
  assert_string_equal(json_string_value(json_object_get(es_seat_view(view, 1), "seat_name")),
                      "seat 1");
  json_decref(view);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_the_view_marks_notches_and_corners),
      cmocka_unit_test(test_legal_describes_plans_compactly),
      cmocka_unit_test(test_every_described_plan_is_accepted),
      cmocka_unit_test(test_sample_move_is_deterministic_and_legal),
      cmocka_unit_test(test_view_shows_the_mountain_and_the_yeti),
      cmocka_unit_test(test_a_running_yeti_shows_its_direction_by_name),
      cmocka_unit_test(test_the_omniscient_view_sees_unrevealed_plans),
      cmocka_unit_test(test_serialisation_covers_secrets),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
