/*
 * test_weather.c - VII. Weather Phase: no roll on turn 1 (nor in 1963
 * turns 1-10), 1 worsens and 6 improves, the scenario modifiers, a Storm
 * stripping unattended Supplies and Camps, and the Radio re-roll.
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

/* End turn `turn` of a quiet game and return the events of the move that
 * started the next turn (its Weather Phase). */
static json_t *next_turn(struct engine_game **g, int turn, int weather)
{
  json_t *ev;
  int seat;

  bt_clear(*g, BIT_P_NIGHT, turn);
  bt_state(*g)->weather = weather;
  ev = NULL;
  for (seat = 0; seat < (*g)->seats; seat++) {
    json_decref(ev);
    ev = kit_apply(g, seat, "{\"type\":\"rest\"}");
  }
  return ev;
}

static int roll_field(json_t *ev, const char *key)
{
  json_t *roll = kit_event(ev, "weather-roll", 0);
  assert_non_null(roll);
  return (int)json_integer_value(json_object_get(roll, key));
}

/* XII 1963 "Turn 1 through 10 is "Good" -- do not roll for Weather. Roll
 * for Weather Turn 11 and thereafter." */
static void test_XII_1963_no_weather_roll_before_turn_11(void **state)
{
  struct engine_game *g = bt_new("1963", 3);
  json_t *ev;

  (void)state;
  ev = next_turn(&g, 9, BIT_GOOD);
  assert_int_equal(bt_state(g)->turn, 10);
  assert_null(kit_event(ev, "weather-roll", 0));
  assert_int_equal(bt_state(g)->weather, BIT_GOOD);
  json_decref(ev);
  ev = next_turn(&g, 10, BIT_GOOD);
  assert_non_null(kit_event(ev, "weather-roll", 0));
  json_decref(ev);
  engine_free(g);
}

/* XII 1924 "Subtract 1 from the Weather roll on Turn 10 and thereafter";
 * 1953 from turn 15. */
static void test_XII_scenario_weather_modifiers(void **state)
{
  struct engine_game *g = bt_new("1953", 3);
  json_t *ev;

  (void)state;
  ev = next_turn(&g, 13, BIT_FAIR);
  assert_int_equal(roll_field(ev, "modified"), roll_field(ev, "die"));
  json_decref(ev);
  ev = next_turn(&g, 14, BIT_FAIR);
  assert_int_equal(roll_field(ev, "modified"), roll_field(ev, "die") - 1);
  json_decref(ev);
  engine_free(g);
  g = bt_new("1924", 3);
  json_decref(kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"north-ridge\"}"));
  ev = next_turn(&g, 8, BIT_FAIR);
  assert_int_equal(roll_field(ev, "modified"), roll_field(ev, "die"));
  json_decref(ev);
  ev = next_turn(&g, 9, BIT_FAIR);
  assert_int_equal(roll_field(ev, "modified"), roll_field(ev, "die") - 1);
  json_decref(ev);
  engine_free(g);
}

/* VII.B "On a roll of 1, weather worsens ... On a roll of 6, weather
 * improves", otherwise it stays. */
static void test_VII_B_one_worsens_six_improves(void **state)
{
  int seed, seen_worse = 0, seen_better = 0, seen_same = 0;

  (void)state;
  for (seed = 1; seed < 200 && !(seen_worse && seen_better && seen_same); seed++) {
    struct engine_game *g = bt_new("1953", seed);
    json_t *ev = next_turn(&g, 5, BIT_FAIR);
    int die = roll_field(ev, "modified");
    int want = die <= 1 ? BIT_POOR : die >= 6 ? BIT_GOOD : BIT_FAIR;
    assert_int_equal(bt_state(g)->weather, want);
    seen_worse |= die <= 1;
    seen_better |= die >= 6;
    seen_same |= die > 1 && die < 6;
    json_decref(ev);
    engine_free(g);
  }
  assert_true(seen_worse && seen_better && seen_same);
}

/* X.A.7 "any Supplies cards (Cached or Unloaded) and/or Camps on Terrain
 * cards that do not also contain at least one Climber card are immediately
 * removed to the discard pile." */
static void test_X_A_7_storm_strips_unattended_supplies_and_camps(void **state)
{
  int seed;

  (void)state;
  for (seed = 1; seed < 300; seed++) {
    struct engine_game *g = bt_new("1953", seed);
    json_t *ev;
    int at;

    bt_clear(g, BIT_P_NIGHT, 5);
    bt_state(g)->weather = BIT_POOR;
    at = bt_route(g, 0, 2);
    bit_place(bt_state(g), 46, 0, at, -1, BIT_R_UNLOADED);
    bit_place(bt_state(g), 56, 0, at, -1, BIT_R_CAMP);
    bit_place(bt_state(g), 47, 0, bt_route(g, 0, 3), -1, BIT_R_CACHED);
    bt_team(g, 0, bt_route(g, 0, 3), (int[]){27, -1});
    ev = kit_apply(&g, 0, "{\"type\":\"rest\"}");
    if (bt_state(g)->weather == BIT_STORM) {
      assert_int_equal(bt_state(g)->loc[46].zone, BIT_Z_DISCARD);
      assert_int_equal(bt_state(g)->loc[56].zone, BIT_Z_DISCARD);
      assert_int_equal(bt_state(g)->loc[47].zone, BIT_Z_MOUNTAIN); /* a Climber is there */
      json_decref(ev);
      engine_free(g);
      return;
    }
    json_decref(ev);
    engine_free(g);
  }
  fail_msg("no seed rolled a Storm");
}

/* RULES.md "Specials": Radio re-rolls this turn's weather die. */
static void test_special_radio_rerolls_the_weather(void **state)
{
  struct engine_game *g = bt_new("1953", 3);
  json_t *ev;

  (void)state;
  ev = next_turn(&g, 5, BIT_FAIR);
  json_decref(ev);
  bt_hand(g, 0, 69);
  ev = kit_apply(&g, 0, "{\"type\":\"play\",\"card\":69}");
  assert_non_null(kit_event(ev, "weather-roll", 0));
  assert_string_equal(json_string_value(json_object_get(kit_event(ev, "weather-roll", 0), "why")),
                      "radio");
  assert_int_equal(bt_state(g)->loc[69].zone, BIT_Z_DEAD);
  json_decref(ev);
  engine_free(g);
}

/* XII 1963 "Turn 1 through 10 is "Good"": when an Event turned the weather
 * during turns 1-10, the next Weather Phase brings it back to Good and says
 * so with a `weather` event like every other weather change. */
static void test_XII_1963_return_to_good_weather_has_its_event(void **state)
{
  struct engine_game *g = bt_new("1963", 3);
  json_t *ev, *w;

  (void)state;
  ev = next_turn(&g, 5, BIT_POOR);
  assert_int_equal(bt_state(g)->weather, BIT_GOOD);
  assert_null(kit_event(ev, "weather-roll", 0));
  w = kit_event(ev, "weather", 0);
  assert_non_null(w);
  assert_string_equal(json_string_value(json_object_get(w, "from")), "poor");
  assert_string_equal(json_string_value(json_object_get(w, "to")), "good");
  json_decref(ev);
  /* already Good: no change, no event */
  ev = next_turn(&g, 6, BIT_GOOD);
  assert_null(kit_event(ev, "weather", 0));
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_XII_1963_no_weather_roll_before_turn_11),
      cmocka_unit_test(test_XII_1963_return_to_good_weather_has_its_event),
      cmocka_unit_test(test_XII_scenario_weather_modifiers),
      cmocka_unit_test(test_VII_B_one_worsens_six_improves),
      cmocka_unit_test(test_X_A_7_storm_strips_unattended_supplies_and_camps),
      cmocka_unit_test(test_special_radio_rerolls_the_weather),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
