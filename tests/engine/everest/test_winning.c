/*
 * test_winning.c - "Winning the Game", the text's only end, and the
 * opt-in round cap (engine/everest/round.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
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

/* A full three-coin plan for seat 0 (a move, then two snowballs north,
 * which fly off the board) and for seat 1 (three snowballs east, off the
 * board from its corner), submitted through the engine like any client's;
 * then both decline to heal. New reference: the round's last events. */
static json_t *scripted_round(struct engine_game **game, int coin, const char *dir)
{
  char plan[256];
  json_t *events;

  snprintf(plan, sizeof(plan),
           "{\"type\":\"plan\",\"plan\":[{\"coin\":%d,\"face\":\"value\",\"dir\":\"%s\"},"
           "{\"coin\":4,\"face\":\"suit\",\"dir\":\"N\"},{\"coin\":5,\"face\":\"suit\","
           "\"dir\":\"N\"}]}",
           coin, dir);
  json_decref(kit_apply(game, 0, plan));
  json_decref(kit_apply(game, 1,
                        "{\"type\":\"plan\",\"plan\":[{\"coin\":3,\"face\":\"suit\",\"dir\":"
                        "\"E\"},{\"coin\":4,\"face\":\"suit\",\"dir\":\"E\"},{\"coin\":5,"
                        "\"face\":\"suit\",\"dir\":\"E\"}]}"));
  events = decline_all(game);
  return events;
}

/* The text's one end, reached only through moves a client can send (no
 * position edits): everest, Game set up: "Players place their pawns on one
 * of the inside corners"; Yeti Movement: "Move one square up a step to a
 * higher-level 2 MP"; Winning the Game: "A yeti wins the game if it starts
 * a round as the sole occupant of the peak tile and is still the sole
 * occupant at the end of the round." Seat 0 climbs from [1,0] by [1,1],
 * [1,2] and [2,2] to the peak [2,3] in four rounds, holds it through the
 * fifth (stepping to [2,4], the same tile) and wins; the result names the end "peak". */
static void test_a_scripted_climb_wins_on_the_peak(void **state)
{
  static const char *const route[] = {"E", "E", "S", "E"};
  struct engine_game *game = es_new_unplaced(2, 5);
  json_t *events = NULL, *result;
  int round;

  json_decref(kit_apply(&game, 0, "{\"type\":\"base\",\"base\":[1,0]}"));
  json_decref(kit_apply(&game, 1, "{\"type\":\"base\",\"base\":[1,7]}"));
  for (round = 0; round < 4; round++) {
    json_decref(scripted_round(&game, 2, route[round]));
    assert_null(everest_module.result(game));
  }
  assert_int_equal(es_state(game)->yeti[0].cell, es_cell(2, 3));
  assert_int_equal(es_state(game)->peak_holder, 0);
  events = scripted_round(&game, 1, "E"); /* an ace east: [2,4], still the peak */
  assert_non_null(kit_event(events, "win", 0));
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "win", 0), "seat_name")),
                      "seat 0");
  result = everest_module.result(game);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 0);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "peak");
  assert_int_equal(json_integer_value(json_object_get(result, "rounds")), 5);
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

/* The text has no other end: no defeat, no draw. Without the opt-in cap a
 * game that nobody wins goes on (the default round_cap is 0, none). */
static void test_without_the_option_there_is_no_round_cap(void **state)
{
  struct engine_game *game = es_new(2, 17, 0);
  int round;

  assert_int_equal(es_state(game)->round_cap, 0);
  for (round = 0; round < 12; round++)
    json_decref(scripted_round(&game, 1, "W"));
  assert_null(everest_module.result(game));
  assert_int_equal(es_state(game)->round, 13);
  engine_free(game);
}

/* RULES.md "Round cap" (opt-in, not in the text): after round_cap rounds
 * without a winner the game ends in a draw with no winners, through moves
 * alone. */
static void test_the_round_cap_ends_in_a_draw(void **state)
{
  struct engine_game *game = es_new(2, 17, 2);
  json_t *events, *result;

  json_decref(scripted_round(&game, 1, "W"));
  assert_null(everest_module.result(game));
  events = scripted_round(&game, 1, "W");
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
      cmocka_unit_test(test_a_scripted_climb_wins_on_the_peak),
      cmocka_unit_test(test_without_the_option_there_is_no_round_cap),
      cmocka_unit_test(test_the_round_cap_ends_in_a_draw),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
