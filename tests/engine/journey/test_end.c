/*
 * test_end.c - Ending the game (engine/journey/end.c): one whole game per
 * end, from a fresh start, driven only through engine_apply with the moves
 * a player would send (no position edited): the climbers' win, a death, and
 * the opt-in winter. The Mountain plays no card in these games, so the
 * script alone decides how they end.
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

#define ST js_state(game)

/* What the climbers of a script do. */
struct script {
  const char *buy[JOURNEY_CLIMBERS]; /* one item each to buy before turn 1, or NULL */
  int up_to;                         /* the level they climb to and stay on */
  int come_back;                     /* after summiting, go back to base camp */
};

/* The shortest route from base camp to the top that costs no food (a
 * breadth-first search over the board), base camp first. Returns its
 * length in spaces. */
static int free_route(int route[JOURNEY_SPACES])
{
  int from[JOURNEY_SPACES], queue[JOURNEY_SPACES];
  int head = 0, tail = 0, at = -1, n = 0, s, t, vertical;

  for (s = 0; s < JOURNEY_SPACES; s++)
    from[s] = -2;
  from[JOURNEY_BASE_CAMP] = -1;
  queue[tail++] = JOURNEY_BASE_CAMP;
  while (head < tail && at < 0) {
    s = queue[head++];
    for (t = 0; t < JOURNEY_SPACES; t++) {
      if (from[t] != -2 || !journey_adjacent(s, t, &vertical))
        continue;
      if (vertical > 0 && journey_ascend_cost(s) != 0)
        continue;
      from[t] = s;
      queue[tail++] = t;
      if (journey_level(t) == JOURNEY_TOP) {
        at = t;
        break;
      }
    }
  }
  assert_true(at >= 0);
  for (s = at; s >= 0; s = from[s])
    n++;
  for (s = at, t = n - 1; s >= 0; s = from[s])
    route[t--] = s;
  return n;
}

static int place_on(const int *route, int n, int space)
{
  int i;

  for (i = 0; i < n; i++)
    if (route[i] == space)
      return i;
  fail_msg("climber left the route: space %d", space);
  return -1;
}

/* The next move of climber `seat` by the script: up the route to level
 * `up_to`, wait there, then (after summiting) down again. */
static void climber_move(struct engine_game *game, int seat, const struct script *how,
                         const int *route, int n, char *move, size_t size)
{
  const struct journey_climber *p = &ST->climber[seat];
  int i = place_on(route, n, p->space);
  int to = -1;

  if (!p->summited && journey_level(p->space) < how->up_to)
    to = route[i + 1];
  else if (p->summited && how->come_back && p->space != JOURNEY_BASE_CAMP)
    to = route[i - 1];
  if (to < 0)
    snprintf(move, size, "{\"type\":\"end_turn\"}");
  else
    snprintf(move, size, "{\"type\":\"move\",\"to\":\"%s\"}", journey_space_name(to));
}

/* The next move of `seat`, which owes one. */
static void next_move(struct engine_game *game, int seat, const struct script *how,
                      const int *route, int n, char *move, size_t size)
{
  const struct journey_climber *p = seat < JOURNEY_CLIMBERS ? &ST->climber[seat] : NULL;

  if (seat == JOURNEY_MOUNTAIN)
    snprintf(move, size, "{\"type\":\"end_turn\"}");
  else if (ST->phase == JOURNEY_PHASE_BUY && how->buy[seat] &&
           p->items[journey_item_named(how->buy[seat])] == 0)
    snprintf(move, size, "{\"type\":\"buy\",\"item\":\"%s\"}", how->buy[seat]);
  else if (ST->phase == JOURNEY_PHASE_BUY)
    snprintf(move, size, "{\"type\":\"done\"}");
  else
    climber_move(game, seat, how, route, n, move, size);
}

/* Play the game to its end, or until climbers' turn `stop` has begun.
 * New reference: the game_over event, or NULL when stopped. */
static json_t *play(struct engine_game **game_p, const struct script *how, int stop)
{
  int route[JOURNEY_SPACES];
  int n = free_route(route);
  json_t *over = NULL;
  int moves = 0;

  while (!engine_is_over(*game_p) && js_state(*game_p)->turn < stop) {
    struct engine_game *game = *game_p;
    int seats[ENGINE_MAX_SEATS];
    char move[96];
    json_t *events;

    assert_true(journey_module.to_act(game, seats) > 0);
    next_move(game, seats[0], how, route, n, move, sizeof(move));
    events = kit_apply(game_p, seats[0], move);
    if (kit_event(events, "game_over", 0))
      over = json_incref(kit_event(events, "game_over", 0));
    json_decref(events);
    assert_true(++moves < 5000);
  }
  return over;
}

static const char *text_of(const json_t *obj, const char *key)
{
  return json_string_value(json_object_get(obj, key));
}

/* journey, Ending the game: "... or when both players reach the summit and
 * then return to the base camp (players win)"; Objective: "Both climbers
 * must end a turn on the top of the mountain to win." Reason
 * "summit-and-back". O2 tanks keep the altitude off ("If a player owns the
 * O2 tank item, they do not take this damage"). */
static void test_whole_game_climbers_summit_and_come_back(void **state)
{
  const struct script how = {{"o2_tank", "o2_tank"}, JOURNEY_TOP, 1};
  struct engine_game *game = js_new(301);
  json_t *over = play(&game, &how, 1000), *result;

  assert_non_null(over);
  assert_string_equal(text_of(over, "reason"), "summit-and-back");
  assert_int_equal(json_array_size(json_object_get(over, "winners")), 2);
  assert_string_equal(json_string_value(json_array_get(json_object_get(over, "winner_names"), 1)),
                      "Hillary");
  result = journey_module.result(game);
  assert_string_equal(text_of(result, "reason"), "summit-and-back");
  assert_true(ST->climber[0].summited && ST->climber[1].summited);
  assert_int_equal(ST->climber[0].space, JOURNEY_BASE_CAMP);
  assert_int_equal(ST->climber[1].space, JOURNEY_BASE_CAMP);
  json_decref(result);
  json_decref(over);
  engine_free(game);
}

/* journey, Ending the game: "The game ends when either of the players dies
 * (Everest wins)"; "Players ending their turn on or above the O2 zone lose
 * 1 health." Climbers without tanks wait on the top until one dies. Reason
 * "death". */
static void test_whole_game_a_climber_dies_and_everest_wins(void **state)
{
  const struct script how = {{NULL, NULL}, JOURNEY_TOP, 0};
  struct engine_game *game = js_new(302);
  json_t *over = play(&game, &how, 1000), *result;

  assert_non_null(over);
  assert_string_equal(text_of(over, "reason"), "death");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(over, "winners"), 0)),
                   JOURNEY_MOUNTAIN);
  assert_string_equal(json_string_value(json_array_get(json_object_get(over, "winner_names"), 0)),
                      "Mt. Everest");
  result = journey_module.result(game);
  assert_string_equal(text_of(result, "reason"), "death");
  /* Tenzing, with three actions, reaches the O2 zone first. */
  assert_string_equal(text_of(result, "dead"), "tenzing");
  assert_int_equal(ST->climber[0].health, 0);
  json_decref(result);
  json_decref(over);
  engine_free(game);
}

/* journey: "Remember Winter is Coming / Hurry up!!!" sets no limit, so a
 * turn limit exists only as the opt-in option turn_limit (RULES.md
 * "Winter is coming"): with it the Mountain wins when that turn ends
 * (reason "winter"); without it the same dawdling game runs on. */
static void test_whole_game_winter_comes_only_when_chosen(void **state)
{
  const struct script how = {{NULL, NULL}, 0, 0};
  struct engine_game *game = js_new_limit(303, 3);
  json_t *over = play(&game, &how, 1000);

  assert_non_null(over);
  assert_string_equal(text_of(over, "reason"), "winter");
  assert_int_equal(json_integer_value(json_object_get(over, "turn")), 3);
  engine_free(game);
  json_decref(over);
  game = js_new(303);
  assert_null(play(&game, &how, 60));
  assert_false(engine_is_over(game));
  assert_int_equal(ST->turn, 60);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_game_climbers_summit_and_come_back),
      cmocka_unit_test(test_whole_game_a_climber_dies_and_everest_wins),
      cmocka_unit_test(test_whole_game_winter_comes_only_when_chosen),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
