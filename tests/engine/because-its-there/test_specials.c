/*
 * test_specials.c - II.B.6 Special cards (reconstruction, RULES.md §9):
 * Fixed Ropes, Oxygen, and that a Special is played only from the hand,
 * in its phase, and then goes to the dead pile. (Ladders: test_events.c;
 * Bivouac: test_night.c; Radio: test_weather.c.)
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

#define HILLARY     27
#define FIXED_ROPES 65
#define OPEN_O2     67
#define CLOSED_O2   68

static struct engine_game *moving(void)
{
  struct engine_game *g = bt_new("1953", 17);

  bt_clear(g, BIT_P_MOVE, 2);
  return g;
}

/* Fixed Ropes: "one Climbing Team pays 1 less Strength per exit (minimum
 * 0)" for the rest of the Movement Phase. */
static void test_special_fixed_ropes_lower_exit_costs(void **state)
{
  struct engine_game *g = moving();
  int from = bt_route(g, 0, 2), team;
  char buf[64];

  (void)state;
  team = bt_team(g, 0, from, (int[]){HILLARY, -1});
  bt_hand(g, 0, FIXED_ROPES);
  bt_event_top(g, 70); /* a Glacier Event: no match on High/Extreme */
  json_decref(kit_apply(&g, 0, "{\"type\":\"play\",\"card\":65,\"team\":0}"));
  assert_int_equal(bt_state(g)->loc[FIXED_ROPES].zone, BIT_Z_DEAD);
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"up\"}", team);
  json_decref(kit_apply(&g, 0, buf));
  assert_int_equal(bt_state(g)->strength[HILLARY], 8 - (bit_cards[from].up - 1));
  engine_free(g);
}

/* Open-/Closed-Circuit Oxygen: one Climber regains 2 / 3 Strength, never
 * above its printed maximum (Night 6 by analogy). */
static void test_special_oxygen_restores_strength_up_to_the_maximum(void **state)
{
  struct engine_game *g = moving();

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 4), (int[]){HILLARY, -1});
  bt_state(g)->strength[HILLARY] = 2;
  bt_hand(g, 0, OPEN_O2);
  bt_hand(g, 0, CLOSED_O2);
  json_decref(kit_apply(&g, 0, "{\"type\":\"play\",\"card\":67,\"climber\":27}"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 4);
  bt_state(g)->strength[HILLARY] = 7;
  json_decref(kit_apply(&g, 0, "{\"type\":\"play\",\"card\":68,\"climber\":27}"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 8);
  engine_free(g);
}

/* A Special is played from the hand, in its phase. */
static void test_special_only_from_hand_and_in_its_phase(void **state)
{
  struct engine_game *g = moving();

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 4), (int[]){HILLARY, -1});
  bt_state(g)->strength[HILLARY] = 2;
  kit_reject(g, 0, "{\"type\":\"play\",\"card\":67,\"climber\":27}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SPECIAL);
  bt_hand(g, 0, 69); /* Radio: only in the Discard/Draw Phase */
  kit_reject(g, 0, "{\"type\":\"play\",\"card\":69}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_SPECIAL);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_special_fixed_ropes_lower_exit_costs),
      cmocka_unit_test(test_special_oxygen_restores_strength_up_to_the_maximum),
      cmocka_unit_test(test_special_only_from_hand_and_in_its_phase),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
