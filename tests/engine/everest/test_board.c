/*
 * test_board.c - the mountain (engine/everest/board.c) and the start of a
 * game (engine/everest/setup.c).
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

/* everest, Game set up: "This should leave you with a board that looks like
 * the following where the numbers are the height in tiles." */
static void test_height_map_matches_the_rules(void **state)
{
  static const int want[EVEREST_ROWS][EVEREST_COLS] = {
      {1, 1, 1, 1, 1, 1, 1, 1}, {1, 2, 3, 3, 3, 3, 2, 1}, {0, 2, 4, 5, 5, 4, 2, 0},
      {0, 2, 4, 5, 5, 4, 2, 0}, {1, 2, 3, 3, 3, 3, 2, 1}, {1, 1, 1, 1, 1, 1, 1, 1},
  };
  int r, c;

  for (r = 0; r < EVEREST_ROWS; r++)
    for (c = 0; c < EVEREST_COLS; c++)
      assert_int_equal(everest_height(everest_cell(r, c)), want[r][c]);
}

/* game-data.md 3: the notch cells r3-4 c1 and c8 have no tile and are off
 * the board. */
static void test_the_two_notches_are_off_the_board(void **state)
{
  assert_int_equal(everest_cell(2, 0), EVEREST_OFF);
  assert_int_equal(everest_cell(3, 0), EVEREST_OFF);
  assert_int_equal(everest_cell(2, 7), EVEREST_OFF);
  assert_int_equal(everest_cell(3, 7), EVEREST_OFF);
  assert_int_equal(everest_neighbour(es_cell(1, 0), EVEREST_S), EVEREST_OFF);
  assert_int_equal(everest_neighbour(es_cell(0, 0), EVEREST_N), EVEREST_OFF);
}

/* everest, Game set up: "steps are one tile tall, while cliffs are two
 * tiles tall": 16 cliff edges, 20 step edges. */
static void test_sixteen_cliffs_and_twenty_steps(void **state)
{
  int cliffs = 0, steps = 0, cell, dir;

  for (cell = 0; cell < EVEREST_CELLS; cell++)
    for (dir = EVEREST_E; dir <= EVEREST_S; dir++) {
      int next = everest_neighbour(cell, dir);
      int diff;

      if (everest_height(cell) == 0 || next == EVEREST_OFF)
        continue;
      diff = abs(everest_height(next) - everest_height(cell));
      cliffs += diff == 2;
      steps += diff == 1;
      assert_true(diff <= 2);
    }
  assert_int_equal(cliffs, 16);
  assert_int_equal(steps, 20);
}

/* everest, Winning the Game: "the peak tile" is the 2x2 top of the mountain. */
static void test_the_peak_tile_is_two_by_two(void **state)
{
  int cell, n = 0;

  for (cell = 0; cell < EVEREST_CELLS; cell++)
    n += everest_on_peak(cell);
  assert_int_equal(n, 4);
  assert_true(everest_on_peak(es_cell(2, 3)));
  assert_true(everest_on_peak(es_cell(3, 4)));
  assert_false(everest_on_peak(es_cell(2, 2)));
}

/* everest, Game set up: "Players place their pawns on one of the inside
 * corners marked by the X's" - r2c1, r2c8, r5c8, r5c1 (es_new has seat n
 * choose corner n). */
static void test_yeti_start_on_the_four_home_bases(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);
  struct everest_state *st = es_state(game);

  assert_int_equal(st->yeti[0].cell, es_cell(1, 0));
  assert_int_equal(st->yeti[1].cell, es_cell(1, 7));
  assert_int_equal(st->yeti[2].cell, es_cell(4, 7));
  assert_int_equal(st->yeti[3].cell, es_cell(4, 0));
  assert_int_equal(st->round, 1);
  assert_int_equal(st->phase, EVEREST_PHASE_PLAN);
  assert_int_equal(everest_available(st, 0), EVEREST_COINS);
  engine_free(game);
}

/* everest, Game set up: "Players place their pawns on one of the inside
 * corners marked by the X's." RULES.md "Home bases": one base move per
 * seat in seat order, each a free inside corner; two players may take
 * opposite sides. The last choice starts round 1. */
static void test_players_choose_free_inside_corners_in_seat_order(void **state)
{
  struct engine_game *game = es_new_unplaced(2, 1);
  int to_act[ENGINE_MAX_SEATS];
  json_t *legal, *view;

  assert_int_equal(es_state(game)->phase, EVEREST_PHASE_BASE);
  assert_int_equal(everest_module.to_act(game, to_act), 1);
  assert_int_equal(to_act[0], 0);
  legal = engine_legal_moves(game, 0);
  assert_int_equal(json_array_size(legal), 4);
  json_decref(legal);
  legal = engine_legal_moves(game, 1);
  assert_int_equal(json_array_size(legal), 0);
  json_decref(legal);
  json_decref(kit_apply(&game, 0, "{\"type\":\"base\",\"base\":[4,7]}"));
  assert_int_equal(everest_module.to_act(game, to_act), 1);
  assert_int_equal(to_act[0], 1);
  legal = engine_legal_moves(game, 1);
  assert_int_equal(json_array_size(legal), 3);
  json_decref(legal);
  json_decref(kit_apply(&game, 1, "{\"type\":\"base\",\"base\":[1,0]}"));
  assert_int_equal(es_state(game)->yeti[0].cell, es_cell(4, 7));
  assert_int_equal(es_state(game)->yeti[1].cell, es_cell(1, 0));
  assert_int_equal(es_state(game)->round, 1);
  assert_int_equal(es_state(game)->phase, EVEREST_PHASE_PLAN);
  view = engine_view(game, ENGINE_SPECTATOR);
  assert_int_equal(
      json_integer_value(json_array_get(json_object_get(es_seat_view(view, 0), "home"), 0)), 4);
  assert_true(json_is_null(json_object_get(view, "base_chooser")));
  json_decref(view);
  engine_free(game);
}

/* Game set up: a base is "one of the inside corners", and one pawn each:
 * a taken corner, a square that is no inside corner, or another move type
 * is refused, naming what blocks it; a malformed square is a bad request. */
static void test_a_taken_corner_or_another_square_is_refused(void **state)
{
  struct engine_game *game = es_new_unplaced(3, 1);
  struct cairn_error err;

  json_decref(kit_apply(&game, 0, "{\"type\":\"base\",\"base\":[1,7]}"));
  err = kit_reject(game, 1, "{\"type\":\"base\",\"base\":[1,7]}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_SETUP);
  assert_non_null(strstr(err.detail, "seat 0"));
  err = kit_reject(game, 1, "{\"type\":\"base\",\"base\":[0,0]}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_SETUP);
  assert_non_null(strstr(err.detail, "no inside corner"));
  kit_reject(game, 1, "{\"type\":\"plan\",\"plan\":[]}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             EVEREST_RULE_SETUP);
  kit_reject(game, 1, "{\"type\":\"base\",\"base\":[9,0]}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE,
             NULL);
  kit_reject(game, 1, "{\"type\":\"base\",\"base\":\"NW\"}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE,
             NULL);
  kit_reject(game, 1, "{\"type\":\"base\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  engine_free(game);
}

/* The default for a bot, a timed-out seat or a random player: sample_move
 * always finds a free corner, and three players end on three corners. */
static void test_sample_move_picks_a_free_corner(void **state)
{
  struct engine_game *game = es_new_unplaced(4, 3);
  int seat;

  for (seat = 0; seat < 4; seat++) {
    json_t *move = engine_sample_move(game, seat, 1234u + (uint64_t)seat);
    char *text = json_dumps(move, JSON_COMPACT);

    assert_string_equal(json_string_value(json_object_get(move, "type")), "base");
    json_decref(kit_apply(&game, seat, text));
    free(text);
    json_decref(move);
  }
  for (seat = 0; seat < 4; seat++)
    assert_int_not_equal(everest_corner_of(es_state(game)->yeti[seat].cell), -1);
  assert_int_equal(es_state(game)->phase, EVEREST_PHASE_PLAN);
  engine_free(game);
}

/* Options: only round_cap, an integer 0 (no cap, the default) ..5000. */
static void test_unknown_or_bad_options_are_refused(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};
  json_t *bad = json_pack("{s:i}", "colour", 1), *range = json_pack("{s:i}", "round_cap", -1),
         *type = json_pack("{s:s}", "round_cap", "x");
  struct engine_setup setup = {.seats = 4, .options = bad};

  assert_int_equal(engine_new(&everest_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_UNKNOWN_FIELD);
  setup.options = range;
  assert_int_equal(engine_new(&everest_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_BAD_VALUE);
  setup.options = type;
  assert_int_equal(engine_new(&everest_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_WRONG_TYPE);
  setup.seats = 5;
  setup.options = NULL;
  assert_int_equal(engine_new(&everest_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_null(game);
  json_decref(bad);
  json_decref(range);
  json_decref(type);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_height_map_matches_the_rules),
      cmocka_unit_test(test_the_two_notches_are_off_the_board),
      cmocka_unit_test(test_sixteen_cliffs_and_twenty_steps),
      cmocka_unit_test(test_the_peak_tile_is_two_by_two),
      cmocka_unit_test(test_yeti_start_on_the_four_home_bases),
      cmocka_unit_test(test_players_choose_free_inside_corners_in_seat_order),
      cmocka_unit_test(test_a_taken_corner_or_another_square_is_refused),
      cmocka_unit_test(test_sample_move_picks_a_free_corner),
      cmocka_unit_test(test_unknown_or_bad_options_are_refused),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
