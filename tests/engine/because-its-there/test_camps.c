/*
 * test_camps.c - IX. Camps: setting up needs a Climber and an Unloaded
 * Supplies card; striking needs a Climber.
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

#define HILLARY 27
#define SUPPLY  46
#define CAMP    56

/* IX.A "Camps may not be placed on Terrain cards containing only a Cached
 * Supplies card." */
static void test_IX_A_camp_needs_unloaded_supplies_and_a_climber(void **state)
{
  struct engine_game *g = bt_new("1953", 6);
  char buf[64];
  int at;
  json_t *ev;

  (void)state;
  bt_clear(g, BIT_P_CAMP, 2);
  at = bt_route(g, 0, 1);
  bt_hand(g, 0, CAMP);
  snprintf(buf, sizeof buf, "{\"type\":\"camp\",\"card\":56,\"at\":%d}", at);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_CACHED);
  /* the refusal says why: the Unloaded Supplies card is missing */
  assert_non_null(
      strstr(kit_reject(g, 0, buf, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_CAMPS).detail,
             "Unloaded Supplies"));
  bt_state(g)->loc[SUPPLY].role = BIT_R_UNLOADED;
  assert_true(bt_is_legal(g, 0, buf));
  ev = kit_apply(&g, 0, buf);
  assert_int_equal(bt_state(g)->loc[CAMP].role, BIT_R_CAMP);
  assert_int_equal(bt_state(g)->loc[CAMP].at, at);
  json_decref(ev);
  engine_free(g);
}

/* IX.B "Camps may be struck ... as long as at least one Climber card is in
 * the same Terrain card". */
static void test_IX_B_strike_needs_a_climber(void **state)
{
  struct engine_game *g = bt_new("1953", 6);
  json_t *ev;
  int at;

  (void)state;
  bt_clear(g, BIT_P_CAMP, 2);
  at = bt_route(g, 0, 1);
  bit_place(bt_state(g), CAMP, 0, at, -1, BIT_R_CAMP);
  assert_non_null(strstr(kit_reject(g, 0, "{\"type\":\"strike\",\"card\":56}", CAIRN_EILLEGAL,
                                    CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_CAMPS)
                             .detail,
                         "at least one Climber"));
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  ev = kit_apply(&g, 0, "{\"type\":\"strike\",\"card\":56}");
  assert_int_equal(bt_state(g)->loc[CAMP].zone, BIT_Z_DISCARD);
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_IX_A_camp_needs_unloaded_supplies_and_a_climber),
      cmocka_unit_test(test_IX_B_strike_needs_a_climber),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
