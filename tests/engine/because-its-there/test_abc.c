/*
 * test_abc.c - IX. Advance Base Camp Phase: valid Climbing Teams only, and
 * Sherpas/Supplies outside a team go to the discard pile.
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
#define SUPPLY2 47

static struct engine_game *abc(void)
{
  struct engine_game *g = bt_new("1953", 8);
  int cards[] = {HILLARY, EVANS, SHERPA, SHERPA2, SUPPLY, SUPPLY2};
  int i;

  bt_clear(g, BIT_P_ABC, 2);
  for (i = 0; i < 6; i++)
    bt_hand(g, 0, cards[i]);
  return g;
}

/* IX "A Climbing Team may not contain a Sherpas card unless it also
 * contains at least one Climber card." */
static void test_IX_sherpas_needs_a_climber(void **state)
{
  struct engine_game *g = abc();

  (void)state;
  kit_reject(g, 0, "{\"type\":\"deploy\",\"card\":38}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_ABC);
  engine_free(g);
}

/* IX "A Climbing Team may not contain a Supplies card unless it also
 * contains a Sherpas card ... at most one Sherpas card and one Supplies
 * card, but may contain any number of Climber cards." */
static void test_IX_team_composition(void **state)
{
  struct engine_game *g = abc();
  json_t *ev;

  (void)state;
  ev = kit_apply(&g, 0, "{\"type\":\"deploy\",\"card\":27}");
  json_decref(ev);
  kit_reject(g, 0, "{\"type\":\"deploy\",\"card\":46,\"team\":0}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_ABC);
  ev = kit_apply(&g, 0, "{\"type\":\"deploy\",\"card\":30,\"team\":0}");
  json_decref(ev);
  ev = kit_apply(&g, 0, "{\"type\":\"deploy\",\"card\":38,\"team\":0}");
  json_decref(ev);
  /* refusals say why: which card and which sentence of IX */
  assert_non_null(strstr(kit_reject(g, 0, "{\"type\":\"deploy\",\"card\":39,\"team\":0}",
                                    CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_ABC)
                             .detail,
                         "at most one Sherpas card"));
  ev = kit_apply(&g, 0, "{\"type\":\"deploy\",\"card\":46,\"team\":0}");
  json_decref(ev);
  kit_reject(g, 0, "{\"type\":\"deploy\",\"card\":47,\"team\":0}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_ABC);
  assert_int_equal(bit_team_count(bt_state(g), 0, 0, -1, -1), 4);
  assert_int_equal(bt_state(g)->loc[SUPPLY].role, BIT_R_LOADED);
  /* the last Climber may not leave a Sherpas behind */
  ev = kit_apply(&g, 0, "{\"type\":\"deploy\",\"card\":30}");
  json_decref(ev);
  assert_non_null(strstr(kit_reject(g, 0, "{\"type\":\"deploy\",\"card\":27,\"team\":1}",
                                    CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_ABC)
                             .detail,
                         "Hillary"));
  engine_free(g);
}

/* IX "If at any time a Sherpas or Supplies card is at Advance Base Camp
 * and it is NOT part of a Climbing Team, that card must be removed to the
 * player's discard pile." */
static void test_IX_orphaned_sherpas_and_supplies_are_discarded(void **state)
{
  struct engine_game *g = abc();
  json_t *ev;

  (void)state;
  bit_place(bt_state(g), SHERPA2, 0, BIT_ABC, -1, BIT_R_POSTED);
  bit_place(bt_state(g), SUPPLY2, 0, BIT_ABC, -1, BIT_R_CACHED);
  ev = kit_apply(&g, 0, "{\"type\":\"ready\"}");
  assert_int_equal(bt_state(g)->loc[SHERPA2].zone, BIT_Z_DISCARD);
  assert_int_equal(bt_state(g)->loc[SUPPLY2].zone, BIT_Z_DISCARD);
  assert_int_equal(bt_state(g)->phase, BIT_P_MOVE);
  json_decref(ev);
  engine_free(g);
}

/* IX "Only Climber, Sherpas, and Supplies cards may be deployed". */
static void test_IX_camps_are_not_deployed(void **state)
{
  struct engine_game *g = abc();

  (void)state;
  bt_hand(g, 0, 56);
  kit_reject(g, 0, "{\"type\":\"deploy\",\"card\":56}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_ABC);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_IX_sherpas_needs_a_climber),
      cmocka_unit_test(test_IX_team_composition),
      cmocka_unit_test(test_IX_orphaned_sherpas_and_supplies_are_discarded),
      cmocka_unit_test(test_IX_camps_are_not_deployed),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
