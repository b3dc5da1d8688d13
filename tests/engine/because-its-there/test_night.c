/*
 * test_night.c - X. Night Phase: Base Strength Recovery from a drawn
 * Event, the Camp and Unloaded Supplies bonuses, the Storm penalty,
 * maximum Strength, death, Depleted Supplies, Advance Base Camp +2, and
 * Sherpas Desertion.
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

#define HILLARY 27
#define EVANS   30
#define SHERPA  38
#define SHERPA2 39
#define SUPPLY  46
#define CAMP    56

/* A 1953 game at Night on turn 3 (so the next turn's weather is rolled,
 * but that happens after everything checked here). */
static struct engine_game *night(void)
{
  struct engine_game *g = bt_new("1953", 21);

  bt_clear(g, BIT_P_NIGHT, 3);
  return g;
}

static json_t *rest(struct engine_game **g)
{
  return kit_apply(g, 0, "{\"type\":\"rest\"}");
}

/* Night 1-3: "The highlighted number ... is the Base Strength Recovery",
 * +1 for a Camp, +1 for Unloaded Supplies when declared. */
static void test_night_base_recovery_plus_camp_plus_supplies(void **state)
{
  struct engine_game *g = night();
  int at;
  json_t *ev;

  (void)state;
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bt_state(g)->strength[HILLARY] = 2;
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  bit_place(bt_state(g), CAMP, 0, at, -1, BIT_R_CAMP);
  bt_event_top(g, 80); /* BSR -2 */
  ev = kit_apply(&g, 0, "{\"type\":\"use\",\"card\":46}");
  json_decref(ev);
  ev = rest(&g);
  /* -2 + 1 + 1 = 0: no change, supplies kept */
  assert_int_equal(json_integer_value(json_object_get(kit_event(ev, "recovery", 0), "net")), 0);
  assert_int_equal(bt_state(g)->strength[HILLARY], 2);
  assert_int_equal(bt_state(g)->loc[SUPPLY].zone, BIT_Z_MOUNTAIN);
  json_decref(ev);
  engine_free(g);
}

/* Night 7 "If the result ... is negative, and an Unloaded Supplies card is
 * present and the bonus for such was being used, that Supplies card is
 * Depleted". */
static void test_night_7_negative_result_depletes_used_supplies(void **state)
{
  struct engine_game *g = night();
  int at;
  json_t *ev;

  (void)state;
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bt_state(g)->strength[HILLARY] = 5;
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  bt_event_top(g, 80); /* BSR -2 */
  ev = kit_apply(&g, 0, "{\"type\":\"use\",\"card\":46}");
  json_decref(ev);
  ev = rest(&g);
  assert_int_equal(bt_state(g)->strength[HILLARY], 4);
  assert_int_equal(bt_state(g)->loc[SUPPLY].zone, BIT_Z_DISCARD);
  json_decref(ev);
  engine_free(g);
}

/* Night 4 "subtract two (-2) ... for Climbers in Extreme Terrain cards";
 * Night 6 "Climber Death". */
static void test_night_4_storm_penalty_can_kill(void **state)
{
  struct engine_game *g = night();
  json_t *ev;

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 4), (int[]){EVANS, -1}); /* Extreme */
  bt_state(g)->strength[EVANS] = 1;
  bt_state(g)->weather = BIT_STORM;
  bt_event_top(g, 72); /* BSR 2 - 2 = 0 */
  ev = rest(&g);
  assert_int_equal(bt_state(g)->strength[EVANS], 1);
  json_decref(ev);
  bt_clear(g, BIT_P_NIGHT, 3);
  bt_team(g, 0, bt_route(g, 0, 4), (int[]){EVANS, -1});
  bt_state(g)->strength[EVANS] = 1;
  bt_state(g)->weather = BIT_STORM;
  bt_event_top(g, 80); /* BSR -2 - 2 = -4 */
  ev = rest(&g);
  assert_int_equal(bt_state(g)->loc[EVANS].zone, BIT_Z_DEAD);
  json_decref(ev);
  engine_free(g);
}

/* Night 6 "A Climber's Strength may never rise above the Strength level
 * that is printed on that Climber's card"; Night 8 ABC is always +2. */
static void test_night_6_8_maximum_strength_and_abc_plus_two(void **state)
{
  struct engine_game *g = night();
  json_t *ev;

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 0), (int[]){HILLARY, -1});
  bt_team(g, 0, BIT_ABC, (int[]){EVANS, -1});
  bt_state(g)->strength[HILLARY] = 7;
  bt_state(g)->strength[EVANS] = 1;
  bt_event_top(g, 79); /* BSR 3 */
  ev = rest(&g);
  assert_int_equal(bt_state(g)->strength[HILLARY], 8);
  assert_int_equal(bt_state(g)->strength[EVANS], 3);
  json_decref(ev);
  engine_free(g);
}

/* Sherpas Desertion: "If any Sherpas cards are on a Terrain card that does
 * not also contain a Climber card, remove that Sherpas card to the dead
 * pile"; at a Camp it may stay (X.A.1, RULES.md). */
static void test_night_C_lone_sherpas_desert_unless_at_a_camp(void **state)
{
  struct engine_game *g = night();
  json_t *ev;

  (void)state;
  bit_place(bt_state(g), SHERPA, 0, bt_route(g, 0, 1), -1, BIT_R_POSTED);
  bit_place(bt_state(g), SHERPA2, 0, bt_route(g, 0, 2), -1, BIT_R_POSTED);
  bit_place(bt_state(g), CAMP, 0, bt_route(g, 0, 2), -1, BIT_R_CAMP);
  ev = rest(&g);
  assert_int_equal(bt_state(g)->loc[SHERPA].zone, BIT_Z_DEAD);
  assert_int_equal(bt_state(g)->loc[SHERPA2].zone, BIT_Z_MOUNTAIN);
  json_decref(ev);
  engine_free(g);
}

/* X.A.6 "at the end of the Night Phase, no more than one Sherpas may be in
 * a Terrain card. Remove any excess to the dead pile." */
static void test_night_C_excess_sherpas_desert(void **state)
{
  struct engine_game *g = night();
  json_t *ev;
  int at;

  (void)state;
  at = bt_route(g, 0, 1);
  bt_team(g, 0, at, (int[]){HILLARY, SHERPA, SUPPLY, -1});
  bit_place(bt_state(g), SHERPA2, 0, at, -1, BIT_R_POSTED);
  ev = rest(&g);
  assert_int_equal(bt_state(g)->loc[SHERPA].zone, BIT_Z_MOUNTAIN); /* the loaded one stays */
  assert_int_equal(bt_state(g)->loc[SHERPA2].zone, BIT_Z_DEAD);
  json_decref(ev);
  engine_free(g);
}

/* Night 3: "players should declare whether they are using it before
 * drawing": only Unloaded Supplies beside the player's Climbers, one per
 * card. */
static void test_night_3_supplies_bonus_needs_unloaded_supplies_and_climber(void **state)
{
  struct engine_game *g = night();
  int at;

  (void)state;
  at = bt_route(g, 0, 2);
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  kit_reject(g, 0, "{\"type\":\"use\",\"card\":46}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_NIGHT);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bit_place(bt_state(g), 47, 0, at, -1, BIT_R_CACHED);
  kit_reject(g, 0, "{\"type\":\"use\",\"card\":47}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_NIGHT);
  assert_true(bt_is_legal(g, 0, "{\"type\":\"use\",\"card\":46}"));
  engine_free(g);
}

/* RULES.md "Specials": a Bivouac counts as a Camp (+1) for one card. */
static void test_special_bivouac_counts_as_a_camp(void **state)
{
  struct engine_game *g = bt_new("1963", 2);
  json_t *ev;
  int at;

  (void)state;
  bt_clear(g, BIT_P_NIGHT, 3);
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){32, -1});
  bt_state(g)->strength[32] = 3;
  bt_hand(g, 0, 64);
  /* only on a Terrain card holding the player's Climbers */
  kit_reject(g, 0, "{\"type\":\"play\",\"card\":64,\"at\":19}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SPECIAL);
  bt_event_top(g, 75);
  {
    char buf[64];
    snprintf(buf, sizeof buf, "{\"type\":\"play\",\"card\":64,\"at\":%d}", at);
    ev = kit_apply(&g, 0, buf);
    json_decref(ev);
  }
  ev = kit_apply(&g, 0, "{\"type\":\"rest\"}");
  json_decref(ev);
  ev = kit_apply(&g, 1, "{\"type\":\"rest\"}");
  assert_int_equal(bt_state(g)->strength[32], 5); /* 3 + 1 + 1 */
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_night_base_recovery_plus_camp_plus_supplies),
      cmocka_unit_test(test_night_7_negative_result_depletes_used_supplies),
      cmocka_unit_test(test_night_4_storm_penalty_can_kill),
      cmocka_unit_test(test_night_6_8_maximum_strength_and_abc_plus_two),
      cmocka_unit_test(test_night_C_lone_sherpas_desert_unless_at_a_camp),
      cmocka_unit_test(test_night_C_excess_sherpas_desert),
      cmocka_unit_test(test_night_3_supplies_bonus_needs_unloaded_supplies_and_climber),
      cmocka_unit_test(test_special_bivouac_counts_as_a_camp),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
