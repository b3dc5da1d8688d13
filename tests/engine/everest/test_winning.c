/*
 * test_winning.c - "Winning the Game" and the round cap
 * (engine/everest/round.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "support.h"

#define NO_HEAL "{\"type\":\"heal\",\"heal\":false,\"set_aside\":[]}"

/* Every seat that owes an end-of-round choice declines to heal. */
static json_t *decline_all(struct engine_game **game)
{
  int to_act[ENGINE_MAX_SEATS], n, i;
  json_t *events = NULL;

  n = everest_module.to_act(*game, to_act);
  for (i = 0; i < n; i++) {
    json_decref(events);
    events = kit_apply(game, to_act[i], NO_HEAL);
  }
  return events;
}

/* One round: each yeti on the board gets one coin and throws it harmlessly
 * off the nearest edge (or into a slope), then nobody heals. */
static json_t *harmless_round(struct engine_game **game)
{
  static const char *const away[] = {"W", "E", "E", "W"};
  json_t *events = NULL;
  int seat;

  for (seat = 0; seat < (*game)->seats; seat++) {
    int cell = es_state(*game)->yeti[seat].cell;

    if (cell == EVEREST_OFF)
      continue;
    json_decref(events);
    events = es_act(game, seat, 2, "suit", everest_on_peak(cell) ? "N" : away[seat]);
  }
  json_decref(events);
  return decline_all(game);
}

/* everest, Winning the Game: "A yeti wins the game if it starts a round as
 * the sole occupant of the peak tile and is still the sole occupant at the
 * end of the round." Round 1 brings it there (it starts at home), round 2
 * is the full round on the peak. */
static void test_sole_occupant_for_a_full_round_wins(void **state)
{
  struct engine_game *game = es_new(4, 17, 0);
  json_t *events, *result;

  es_place(game, 0, 2, 3);
  events = harmless_round(&game);
  assert_null(everest_module.result(game));
  assert_int_equal(es_state(game)->peak_holder, 0);
  json_decref(events);
  events = harmless_round(&game);
  assert_non_null(kit_event(events, "win", 0));
  result = everest_module.result(game);
  assert_non_null(result);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 0);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "peak");
  assert_int_equal(everest_module.to_act(game, (int[ENGINE_MAX_SEATS]){0}), 0);
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

/* "sole occupant": two yeti on the peak tile, nobody wins. */
static void test_a_shared_peak_wins_nothing(void **state)
{
  struct engine_game *game = es_new(4, 17, 0);

  es_place(game, 0, 2, 3);
  es_place(game, 1, 3, 4);
  json_decref(harmless_round(&game));
  assert_int_equal(es_state(game)->peak_holder, -1);
  json_decref(harmless_round(&game));
  assert_null(everest_module.result(game));
  engine_free(game);
}

/* RULES.md "Round cap": after round_cap rounds without a winner the game
 * ends in a draw with no winners. */
static void test_the_round_cap_ends_in_a_draw(void **state)
{
  struct engine_game *game = es_new(2, 17, 2);
  json_t *events, *result;

  json_decref(harmless_round(&game));
  assert_null(everest_module.result(game));
  events = harmless_round(&game);
  assert_non_null(kit_event(events, "round-cap", 0));
  result = everest_module.result(game);
  assert_int_equal(json_array_size(json_object_get(result, "winners")), 0);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "round-cap");
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sole_occupant_for_a_full_round_wins),
      cmocka_unit_test(test_a_shared_peak_wins_nothing),
      cmocka_unit_test(test_the_round_cap_ends_in_a_draw),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
