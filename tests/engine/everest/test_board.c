/*
 * test_board.c - the mountain (engine/everest/board.c) and the start of a
 * game (engine/everest/setup.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>

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
 * corners marked by the X's" - r2c1, r2c8, r5c8, r5c1 in suit order. */
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

/* RULES.md "Fewer than four players": the first home bases in suit order. */
static void test_two_and_three_players_use_the_first_bases(void **state)
{
  struct engine_game *two = es_new(2, 1, 0), *three = es_new(3, 1, 0);

  assert_int_equal(es_state(two)->yeti[0].cell, es_cell(1, 0));
  assert_int_equal(es_state(two)->yeti[1].cell, es_cell(1, 7));
  assert_int_equal(es_state(three)->yeti[2].cell, es_cell(4, 7));
  engine_free(two);
  engine_free(three);
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
      cmocka_unit_test(test_two_and_three_players_use_the_first_bases),
      cmocka_unit_test(test_unknown_or_bad_options_are_refused),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
