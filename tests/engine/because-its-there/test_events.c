/*
 * test_events.c - X.C Event Card Draw: terrain match, random victims from
 * ALL cards on the Terrain card, ALL vs team effects, immunities (weather,
 * skill "+", special skill), the 1924 oxygen rule, end of movement, Storm,
 * Ladders, and Specials drawn going to the drawer's hand.
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

#define MALLORY 20
#define IRVINE  21
#define FINCH   22
#define SOMERV  23
#define NORTON  24
#define HILLARY 27
#define EVANS   30
#define BISHOP  35
#define SHERPA  38

/* A 1953 game in the Movement Phase with one team (cards) on route index
 * `from`, ready to move up onto index from+1 where `event` is drawn. */
static struct engine_game *about_to_draw(const int *cards, int from, int event, int *team)
{
  struct engine_game *g = bt_new("1953", 11);

  bt_clear(g, BIT_P_MOVE, 2);
  *team = bt_team(g, 0, from < 0 ? BIT_ABC : bt_route(g, 0, from), cards);
  bt_event_top(g, event);
  return g;
}

static json_t *up(struct engine_game **g, int team)
{
  char buf[64];
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"up\"}", team);
  return kit_apply(g, 0, buf);
}

static const char *outcome(json_t *ev)
{
  return json_string_value(json_object_get(kit_event(ev, "event", 0), "outcome"));
}

/* X.C "If the border around the Event card matches the Terrain card just
 * entered, apply the effects". South Col index 2 is High: a Glacier
 * Whiteout there does nothing. */
static void test_X_C_event_of_other_terrain_has_no_effect(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, 1, 74, &team);
  json_t *ev;

  (void)state;
  bt_state(g)->weather = BIT_POOR;
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "terrain does not match");
  assert_false(bt_state(g)->team[0][team].moved);
  json_decref(ev);
  engine_free(g);
}

/* X.C.3 "When an Event card specifies "ALL Climbers" the effect impacts
 * ALL Climbers in the Terrain card, not just those in the Climbing Team". */
static void test_X_C_3_all_climbers_hits_other_teams_on_the_card(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, 0, 74, &team); /* Whiteout */
  json_t *ev;

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 1), (int[]){HILLARY, -1});
  bt_state(g)->weather = BIT_POOR; /* not Fair+: no immunity */
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "applies");
  assert_int_equal(bt_state(g)->strength[HILLARY], 7);
  assert_int_equal(bt_state(g)->strength[EVANS], 6 - bit_cards[bt_route(g, 0, 0)].up - 1);
  /* Whiteout ends movement */
  assert_true(bt_state(g)->team[0][team].moved);
  json_decref(ev);
  engine_free(g);
}

/* X.C.4 "Fair+" means Fair weather or better. */
static void test_X_C_4_weather_immunity_with_plus(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, 0, 74, &team);
  json_t *ev;

  (void)state;
  bt_state(g)->weather = BIT_FAIR;
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "immune");
  json_decref(ev);
  engine_free(g);
}

/* X.C.4 "Experienced+" ... "any Climber in the Terrain card matches":
 * a Veteran waiting on the card protects the arriving Novice team. */
static void test_X_C_4_skill_immunity_from_any_climber_on_the_card(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){BISHOP, -1}, 0, 72, &team); /* Icefall */
  json_t *ev;

  (void)state;
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "applies"); /* Bishop alone is a Novice */
  assert_true(bt_state(g)->team[0][team].moved);
  json_decref(ev);
  engine_free(g);
  g = about_to_draw((int[]){BISHOP, -1}, 0, 72, &team);
  bt_team(g, 0, bt_route(g, 0, 1), (int[]){26, -1}); /* Hunt, Veteran */
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "immune");
  json_decref(ev);
  engine_free(g);
}

/* X.C.4 Special Skill immunity: Routefinding (Hillary) vs Lost in the
 * Maze. */
static void test_X_C_4_special_skill_immunity(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){HILLARY, -1}, 0, 79, &team);
  json_t *ev;

  (void)state;
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "immune");
  json_decref(ev);
  engine_free(g);
}

/* X.C.2 random selection "from ALL of the Climbers and/or Sherpas in that
 * Terrain card": Serac Fall kills one of them. */
static void test_X_C_2_random_victim_among_all_on_the_card(void **state)
{
  int team, c, dead = 0;
  struct engine_game *g = about_to_draw((int[]){EVANS, SHERPA, -1}, 0, 71, &team);
  json_t *ev;

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 1), (int[]){HILLARY, -1});
  bt_state(g)->weather = BIT_FAIR; /* immunity is Good only */
  ev = up(&g, team);
  for (c = BIT_CLIMBER_FIRST; c < BIT_SUPPLY_FIRST; c++)
    dead += bt_state(g)->loc[c].zone == BIT_Z_DEAD;
  assert_int_equal(dead, 1);
  assert_true(bt_state(g)->loc[EVANS].zone == BIT_Z_DEAD ||
              bt_state(g)->loc[HILLARY].zone == BIT_Z_DEAD ||
              bt_state(g)->loc[SHERPA].zone == BIT_Z_DEAD);
  json_decref(ev);
  engine_free(g);
}

/* XII 1924 "Ignore any oxygen-related Event cards unless Mallory and/or
 * Irvine are in the Climbing Team." */
static void test_XII_1924_oxygen_events_need_mallory_or_irvine(void **state)
{
  struct engine_game *g = bt_new("1924", 4);
  json_t *ev;
  int team, high;
  char buf[64];

  (void)state;
  ev = kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"north-ridge\"}");
  json_decref(ev);
  bt_clear(g, BIT_P_MOVE, 2);
  high = bt_route(g, 0, 1); /* North Ridge index 1 is High */
  team = bt_team(g, 0, bt_route(g, 0, 0), (int[]){SOMERV, -1});
  bt_event_top(g, 84); /* Oxygen Set Fails */
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"up\"}", team);
  ev = kit_apply(&g, 0, buf);
  assert_string_equal(outcome(ev), "no oxygen in the team (1924)");
  assert_int_equal(bt_state(g)->loc[SOMERV].at, high);
  json_decref(ev);
  engine_free(g);
}

/* H8 Weather Closing In / E5 Storm Breaks: X.3 movement ends when Weather
 * becomes Storm, and X.A.7 strips unattended Supplies and Camps. */
static void test_X_3_storm_from_an_event_ends_all_movement(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, 3, 94, &team); /* Storm Breaks */
  json_t *ev;

  (void)state;
  bt_state(g)->weather = BIT_FAIR;
  bit_place(bt_state(g), 47, 0, bt_route(g, 0, 0), -1, BIT_R_UNLOADED);
  ev = up(&g, team);
  assert_int_equal(bt_state(g)->weather, BIT_STORM);
  assert_int_equal(bt_state(g)->phase, BIT_P_CAMP);
  assert_int_equal(bt_state(g)->loc[47].zone, BIT_Z_DISCARD);
  json_decref(ev);
  engine_free(g);
}

/* RULES.md "Specials": Ladders protect the team from Glacier Events for
 * the rest of the Movement Phase. */
static void test_special_ladders_cancel_a_glacier_event(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, -1, 72, &team);
  json_t *ev;

  (void)state;
  bt_hand(g, 0, 66);
  ev = kit_apply(&g, 0, "{\"type\":\"play\",\"card\":66,\"team\":0}");
  assert_int_equal(bt_state(g)->loc[66].zone, BIT_Z_DEAD);
  json_decref(ev);
  ev = up(&g, team);
  assert_string_equal(outcome(ev), "ladders");
  json_decref(ev);
  engine_free(g);
}

/* RULES.md "Specials": a Special drawn from the Event deck goes to the
 * drawer's hand and the draw is repeated. */
static void test_special_drawn_goes_to_the_drawers_hand(void **state)
{
  int team;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, -1, 90, &team);
  json_t *ev;

  (void)state;
  bt_event_top(g, 65); /* Fixed Ropes on top of Cornice Breaks */
  ev = up(&g, team);
  assert_int_equal(bt_state(g)->loc[65].zone, BIT_Z_HAND);
  assert_int_equal(bt_state(g)->loc[65].seat, 0);
  assert_int_equal(json_integer_value(json_object_get(kit_event(ev, "event", 0), "card")), 90);
  assert_non_null(json_object_get(kit_event(ev, "special-drawn", 0), "private_to"));
  json_decref(ev);
  engine_free(g);
}

/* X.C.1 "When all Event cards from the active Event card pile are used,
 * reshuffle the "used" pile". */
static void test_X_C_1_used_events_are_reshuffled(void **state)
{
  int team, c;
  struct engine_game *g = about_to_draw((int[]){EVANS, -1}, -1, 90, &team);
  json_t *ev;

  (void)state;
  for (c = BIT_EVENT_FIRST; c < BIT_CARDS; c++)
    bit_put(bt_state(g), c, BIT_Z_USED, -1);
  ev = up(&g, team);
  assert_int_equal(kit_count(ev, "event-deck-reshuffled"), 1);
  assert_int_equal(bit_pile_count(bt_state(g), BIT_Z_USED, -1), 1);
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_X_C_event_of_other_terrain_has_no_effect),
      cmocka_unit_test(test_X_C_3_all_climbers_hits_other_teams_on_the_card),
      cmocka_unit_test(test_X_C_4_weather_immunity_with_plus),
      cmocka_unit_test(test_X_C_4_skill_immunity_from_any_climber_on_the_card),
      cmocka_unit_test(test_X_C_4_special_skill_immunity),
      cmocka_unit_test(test_X_C_2_random_victim_among_all_on_the_card),
      cmocka_unit_test(test_XII_1924_oxygen_events_need_mallory_or_irvine),
      cmocka_unit_test(test_X_3_storm_from_an_event_ends_all_movement),
      cmocka_unit_test(test_special_ladders_cancel_a_glacier_event),
      cmocka_unit_test(test_special_drawn_goes_to_the_drawers_hand),
      cmocka_unit_test(test_X_C_1_used_events_are_reshuffled),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
