/*
 * test_end.c - Game End (engine/himalaya/end.c): Bad Weather and who is
 * closest to the top, the tie rule, the summit, and a finished game.
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

#define SEAT(who) hs_state(game)->seat[who]

/* A seed whose two climbing players reach the summit before Bad Weather
 * (found by trying seeds; any change to the rules may need a new one). */
#define SUMMIT_SEED 5

/* Put Bad Weather on top of the stack and throw the last die again.
 * New reference: the events. */
static json_t *bad_weather(struct engine_game **game)
{
  static const int last[] = {6};
  static const int deck[] = {HIMALAYA_BAD_WEATHER, 2};

  hs_pool(*game, last, 1);
  hs_deck(*game, deck, 2);
  hs_state(*game)->bad_weather_in_deck = true;
  return kit_apply(game, hs_state(*game)->current, "{\"type\":\"reroll\"}");
}

static int winner_count(struct engine_game *game, json_t **result)
{
  *result = himalaya_module.result(game);
  assert_non_null(*result);
  return (int)json_array_size(json_object_get(*result, "winners"));
}

static int winner(json_t *result, int i)
{
  return (int)json_integer_value(json_array_get(json_object_get(result, "winners"), (size_t)i));
}

/* himalaya, Game End: "The game finishes prematurely as soon as the bad
 * weather card is uncovered from the Yeti card deck. The player whose
 * mountain climber is closest to the top wins in this case." */
static void test_bad_weather_ends_the_game_closest_to_the_top_wins(void **state)
{
  struct engine_game *game = hs_new(3, 51);
  json_t *events, *result, *over;
  int seats[ENGINE_MAX_SEATS];

  hs_clear(game);
  SEAT(0).climber = 9;
  SEAT(1).climber = 13;
  SEAT(2).climber = 4;
  hs_state(game)->yeti = 30;
  events = bad_weather(&game);
  assert_string_equal(json_string_value(json_object_get(kit_event(events, "yeti_card", 0), "card")),
                      "bad weather");
  assert_int_equal(kit_count(events, "yeti_moved"), 0);
  over = kit_event(events, "game_over", 0);
  assert_non_null(over);
  assert_string_equal(json_string_value(json_object_get(over, "reason")), "bad-weather");
  assert_true(engine_is_over(game));
  assert_int_equal(himalaya_module.to_act(game, seats), 0);
  assert_int_equal(winner_count(game, &result), 1);
  assert_int_equal(winner(result, 0), 1);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "bad-weather");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "climbers"), 0)), 9);
  json_decref(result);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Game End: "closest to the top" - climbers share a field only at
 * base camp; there the higher sum of Sherpa fields wins (RULES.md "Bad
 * weather ties"). */
static void test_bad_weather_tie_goes_to_the_sherpas_further_up(void **state)
{
  struct engine_game *game = hs_new(2, 52);
  json_t *result;

  hs_clear(game);
  hs_sherpas(game, 0, 5, 5, 5, 5);
  hs_sherpas(game, 1, 2, 6, 6, 9);
  json_decref(bad_weather(&game));
  assert_int_equal(winner_count(game, &result), 1);
  assert_int_equal(winner(result, 0), 1);
  json_decref(result);
  engine_free(game);
}

/* himalaya, Game End: when climbers and Sherpa sums are both level, the
 * tied players share the win (RULES.md "Bad weather ties"). */
static void test_bad_weather_full_tie_is_shared(void **state)
{
  struct engine_game *game = hs_new(3, 53);
  json_t *result;

  hs_clear(game);
  hs_sherpas(game, 0, 1, 2, 3, 4);
  hs_sherpas(game, 1, 0, 0, 0, 9);
  hs_sherpas(game, 2, 10, 0, 0, 0);
  json_decref(bad_weather(&game));
  assert_int_equal(winner_count(game, &result), 2);
  assert_int_equal(winner(result, 0), 0);
  assert_int_equal(winner(result, 1), 2);
  json_decref(result);
  engine_free(game);
}

/* himalaya, Game End: "As soon as a mountain climber reaches the summit
 * space (goal), the game ends" - even with the pool now empty, nobody
 * throws again. */
static void test_summit_ends_the_game_at_once(void **state)
{
  static const int last[] = {6};
  struct engine_game *game = hs_new(2, 54);
  json_t *events;

  hs_clear(game);
  hs_pool(game, last, 1);
  SEAT(0).climber = 37;
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":6,\"pawn\":\"climber\"}");
  assert_int_equal(kit_count(events, "dice_rolled"), 0);
  assert_int_equal(kit_count(events, "yeti_card"), 0);
  assert_non_null(kit_event(events, "game_over", 0));
  assert_int_equal(hs_state(game)->deck_len, 9);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Game End: "As soon as a mountain climber reaches the summit
 * space (goal), the game ends" - so the summit move picks up no supply
 * card, even with two Sherpas waiting in a high camp. */
static void test_summit_move_picks_up_nothing(void **state)
{
  static const int last[] = {6};
  struct engine_game *game = hs_new(2, 56);
  struct cairn_error err;

  hs_clear(game);
  hs_pool(game, last, 1);
  SEAT(0).climber = 37;
  SEAT(0).spent[SEAT(0).spent_count++] = 2;
  hs_sherpas(game, 0, 28, 28, 0, 0);
  err =
      kit_reject(game, 0, "{\"type\":\"die\",\"value\":6,\"pawn\":\"climber\",\"restore\":\"5/6\"}",
                 CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_END);
  assert_non_null(strstr(err.detail, "reaches the summit"));
  engine_free(game);
}

/* himalaya, Game End: once the game has ended nobody moves: no seat is to
 * act, no move is legal, and engine_apply refuses. While it runs there is
 * no result. */
static void test_finished_game_takes_no_more_moves(void **state)
{
  struct engine_game *game = hs_new(2, 55);
  json_t *move = json_pack("{s:s}", "type", "reroll");
  json_t *list, *result;
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  int seat;

  hs_clear(game);
  result = himalaya_module.result(game);
  assert_null(result);
  json_decref(bad_weather(&game));
  for (seat = 0; seat < 2; seat++) {
    list = engine_legal_moves(game, seat);
    assert_int_equal(json_array_size(list), 0);
    json_decref(list);
    assert_int_equal(engine_apply(game, seat, move, &next, &events, &err), CAIRN_ECONFLICT);
    assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_ACTIVE);
  }
  json_decref(move);
  engine_free(game);
}

/* ---- Whole games from a fresh start, through legal_moves and engine_apply
 * only (no position edited): one per end of the text. ---- */

/* Borrowed from `list`: the first best-rated move. */
static json_t *climbing_move(struct engine_game *game, int seat, json_t *list)
{
  json_t *move, *best = NULL;
  long best_value = -1;
  size_t i;

  json_array_foreach(list, i, move)
  {
    struct engine_game *next = NULL;
    json_t *events = NULL;
    long value;

    assert_int_equal(engine_apply(game, seat, move, &next, &events, NULL), CAIRN_OK);
    value = hs_climbing_value(next, seat);
    if (value > best_value)
      best_value = value, best = move;
    json_decref(events);
    engine_free(next);
  }
  return best;
}

/* Borrowed from `list`: the first move that leaves every climber at base
 * camp. */
static json_t *sherpa_move(json_t *list)
{
  json_t *move;
  size_t i;

  json_array_foreach(list, i, move)
  {
    const char *pawn = json_string_value(json_object_get(move, "pawn"));

    if (!pawn || strcmp(pawn, "climber") != 0)
      return move;
  }
  fail_msg("no move besides climbing");
  return NULL;
}

/* Play a fresh game to its end, every seat by the same policy. New
 * reference: the game_over event. */
static json_t *play_out(struct engine_game **game, int climb)
{
  json_t *over = NULL;

  while (!engine_is_over(*game)) {
    int seat[ENGINE_MAX_SEATS];
    json_t *list, *move, *events = NULL;
    struct engine_game *next = NULL;

    assert_int_equal(himalaya_module.to_act(*game, seat), 1);
    list = engine_legal_moves(*game, seat[0]);
    move = climb ? climbing_move(*game, seat[0], list) : sherpa_move(list);
    assert_int_equal(engine_apply(*game, seat[0], move, &next, &events, NULL), CAIRN_OK);
    json_decref(list);
    engine_free(*game);
    *game = next;
    if (kit_event(events, "game_over", 0))
      over = json_incref(kit_event(events, "game_over", 0));
    json_decref(events);
  }
  assert_non_null(over);
  return over;
}

/* himalaya, Game End: "As soon as a mountain climber reaches the summit
 * space (goal), the game ends and this player has won." Reason "summit". */
static void test_whole_game_ends_on_the_summit(void **state)
{
  struct engine_game *game = hs_new(2, SUMMIT_SEED);
  json_t *over, *result;
  int w;

  over = play_out(&game, 1);
  assert_string_equal(json_string_value(json_object_get(over, "reason")), "summit");
  assert_int_equal(winner_count(game, &result), 1);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "summit");
  w = winner(result, 0);
  assert_int_equal(SEAT(w).climber, HIMALAYA_SUMMIT);
  assert_int_equal(SEAT(1 - w).climber < HIMALAYA_SUMMIT, 1);
  json_decref(result);
  json_decref(over);
  engine_free(game);
}

/* himalaya, Game End: "The game finishes prematurely as soon as the bad
 * weather card is uncovered from the Yeti card deck. The player whose
 * mountain climber is closest to the top wins in this case." Nobody moves
 * a climber here, so all stand at base camp and our tie rule decides:
 * the higher sum of Sherpa fields (RULES.md "Game End"). */
static void test_whole_game_ends_in_bad_weather_with_the_tie_rule(void **state)
{
  struct engine_game *game = hs_new(3, 71);
  json_t *over, *result;
  int sums[3] = {0, 0, 0}, best = 0, seat, s, n;

  over = play_out(&game, 0);
  assert_string_equal(json_string_value(json_object_get(over, "reason")), "bad-weather");
  for (seat = 0; seat < 3; seat++) {
    assert_int_equal(SEAT(seat).climber, HIMALAYA_BASE_CAMP);
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      sums[seat] += SEAT(seat).sherpa[s];
    best = sums[seat] > best ? sums[seat] : best;
  }
  n = winner_count(game, &result);
  assert_string_equal(json_string_value(json_object_get(result, "reason")), "bad-weather");
  for (seat = 0, s = 0; seat < 3; seat++)
    if (sums[seat] == best)
      assert_int_equal(winner(result, s++), seat);
  assert_int_equal(n, s);
  assert_true(n < 3); /* the Sherpa sums told the climbers apart */
  json_decref(result);
  json_decref(over);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_weather_ends_the_game_closest_to_the_top_wins),
      cmocka_unit_test(test_bad_weather_tie_goes_to_the_sherpas_further_up),
      cmocka_unit_test(test_bad_weather_full_tie_is_shared),
      cmocka_unit_test(test_summit_ends_the_game_at_once),
      cmocka_unit_test(test_summit_move_picks_up_nothing),
      cmocka_unit_test(test_finished_game_takes_no_more_moves),
      cmocka_unit_test(test_whole_game_ends_on_the_summit),
      cmocka_unit_test(test_whole_game_ends_in_bad_weather_with_the_tie_rule),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
