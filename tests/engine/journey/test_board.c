/*
 * test_board.c - the mountain (engine/journey/board.c): spaces, base camp,
 * ascend costs, impasses and the landmarks, as reconstructed in
 * shared/research/game-data.md section 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <string.h>

#include "support.h"

/* journey, Setup: "Place the base camp on the south side of the mountain,
 * below the first level"; "You may move from the base camp to the lowest
 * space on the South side of the mountain without paying any costs." */
static void test_base_camp_leads_only_to_the_south_of_level_one(void **state)
{
  int s, v, n = 0;

  for (s = 1; s < JOURNEY_SPACES; s++)
    if (journey_adjacent(JOURNEY_BASE_CAMP, s, &v)) {
      n++;
      assert_int_equal(s, js_space("L1-S"));
      assert_int_equal(v, 1);
    }
  assert_int_equal(n, 1);
  assert_true(journey_adjacent(js_space("L1-S"), JOURNEY_BASE_CAMP, &v));
  assert_int_equal(v, -1);
}

/* journey, Gameplay 1a: "Can move to an adjacent section on the same level
 * for free": four quadrants in a ring. */
static void test_quadrants_form_a_ring_on_each_level(void **state)
{
  int v;

  assert_true(journey_adjacent(js_space("L3-N"), js_space("L3-E"), &v) && v == 0);
  assert_true(journey_adjacent(js_space("L3-W"), js_space("L3-N"), &v) && v == 0);
  assert_false(journey_adjacent(js_space("L3-N"), js_space("L3-S"), &v));
  assert_false(journey_adjacent(js_space("L3-N"), js_space("L4-E"), &v));
}

/* journey, Gameplay 1a: "The cost indicated on a space is the cost to move
 * up one level from that space" - free, food, or an impasse. */
static void test_ascend_costs_are_free_food_or_impasse(void **state)
{
  assert_int_equal(journey_ascend_cost(js_space("L1-S")), 0);
  assert_int_equal(journey_ascend_cost(js_space("L1-E")), 1);
  assert_int_equal(journey_ascend_cost(js_space("L3-W")), 2);
  assert_int_equal(journey_ascend_cost(js_space("L1-N")), JOURNEY_IMPASSE);
  assert_int_equal(journey_ascend_cost(js_space("L6-E")), JOURNEY_IMPASSE);
}

/* game-data.md: "Each level has exactly one impasse". */
static void test_each_level_below_the_top_has_one_impasse(void **state)
{
  int level, q;

  for (level = 1; level < JOURNEY_LEVELS; level++) {
    int impasses = 0;

    for (q = 0; q < JOURNEY_QUADRANTS; q++)
      impasses += journey_ascend_cost(journey_space(level, q)) == JOURNEY_IMPASSE;
    assert_int_equal(impasses, 1);
  }
}

/* journey, Gameplay 1a: "you may not move through impassable regions in
 * any direction". */
static void test_impasse_blocks_ascent_and_descent(void **state)
{
  int v;

  assert_false(journey_adjacent(js_space("L1-N"), js_space("L2-N"), &v));
  assert_false(journey_adjacent(js_space("L2-N"), js_space("L1-N"), &v));
  assert_true(journey_adjacent(js_space("L2-N"), js_space("L3-N"), &v) && v == 1);
}

/* game-data.md: "there is a fully free route to the top that takes 15
 * actions": a breadth-first search over free steps. */
static void test_a_free_route_to_the_top_takes_fifteen_moves(void **state)
{
  int dist[JOURNEY_SPACES], queue[JOURNEY_SPACES], head = 0, tail = 0, s, t, v, best = -1;

  memset(dist, -1, sizeof(dist));
  dist[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    s = queue[head++];
    for (t = 0; t < JOURNEY_SPACES; t++)
      if (dist[t] < 0 && journey_adjacent(s, t, &v) && (v <= 0 || journey_ascend_cost(s) == 0)) {
        dist[t] = dist[s] + 1;
        queue[tail++] = t;
      }
  }
  for (s = 0; s < JOURNEY_SPACES; s++)
    if (journey_level(s) == JOURNEY_TOP && dist[s] >= 0 && (best < 0 || dist[s] < best))
      best = dist[s];
  assert_int_equal(best, 15);
}

/* Landmarks (RULES.md): tree line between L2 and L3, ice bridge L4, O2 zone
 * L6 and up, the top L7. */
static void test_landmarks(void **state)
{
  assert_true(journey_below_tree_line(JOURNEY_BASE_CAMP));
  assert_true(journey_below_tree_line(js_space("L2-W")));
  assert_false(journey_below_tree_line(js_space("L3-W")));
  assert_false(journey_on_ice_bridge_or_above(js_space("L3-E")));
  assert_true(journey_on_ice_bridge_or_above(js_space("L4-E")));
  assert_false(journey_in_o2_zone(js_space("L5-S")));
  assert_true(journey_in_o2_zone(js_space("L6-S")));
  assert_true(journey_in_o2_zone(js_space("L7-S")));
  assert_int_equal(journey_level(js_space("L7-W")), JOURNEY_TOP);
}

/* Names round-trip, so moves and views can use them. */
static void test_space_names_round_trip(void **state)
{
  int s;

  for (s = 0; s < JOURNEY_SPACES; s++)
    assert_int_equal(journey_space_named(journey_space_name(s)), s);
  assert_int_equal(journey_space_named("L8-N"), -1);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_base_camp_leads_only_to_the_south_of_level_one),
      cmocka_unit_test(test_quadrants_form_a_ring_on_each_level),
      cmocka_unit_test(test_ascend_costs_are_free_food_or_impasse),
      cmocka_unit_test(test_each_level_below_the_top_has_one_impasse),
      cmocka_unit_test(test_impasse_blocks_ascent_and_descent),
      cmocka_unit_test(test_a_free_route_to_the_top_takes_fifteen_moves),
      cmocka_unit_test(test_landmarks),
      cmocka_unit_test(test_space_names_round_trip),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
