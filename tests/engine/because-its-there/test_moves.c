/*
 * test_moves.c - reading move objects: malformed moves are CAIRN_EINVAL
 * with the codes of api.md, and change nothing; a move of another phase is
 * a rule violation of VI. Sequence of Play.
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

static void test_malformed_moves(void **state)
{
  struct engine_game *g = bt_new("1953", 1);

  (void)state;
  kit_reject(g, 0, "[1]", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(g, 0, "{}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(g, 0, "{\"type\":3}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(g, 0, "{\"type\":\"fly\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(g, 0, "{\"type\":\"draw\",\"card\":1}", CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL);
  kit_reject(g, 0, "{\"type\":\"discard\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(g, 0, "{\"type\":\"discard\",\"card\":\"x\"}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE,
             NULL);
  kit_reject(g, 0, "{\"type\":\"discard\",\"card\":100}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(g, 0, "{\"type\":\"move\",\"team\":0,\"dir\":\"left\"}", CAIRN_EINVAL,
             CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(g, 0, "{\"type\":\"route\",\"route\":\"everest\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE,
             NULL);
  engine_free(g);
}

/* VI "phases that must be performed in the order outlined". */
static void test_VI_moves_of_another_phase_are_illegal(void **state)
{
  struct engine_game *g = bt_new("1953", 1);

  (void)state;
  kit_reject(g, 0, "{\"type\":\"rest\"}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_SEQUENCE);
  kit_reject(g, 0, "{\"type\":\"done\"}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_SEQUENCE);
  kit_reject(g, 0, "{\"type\":\"ready\"}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_SEQUENCE);
  engine_free(g);
}

/* Every listed move is accepted, in every phase of a few turns. */
static void test_every_listed_move_is_accepted(void **state)
{
  struct engine_game *g = bt_new("1963", 7);
  int steps;

  (void)state;
  for (steps = 0; steps < 300 && !engine_is_over(g); steps++) {
    int seats[ENGINE_MAX_SEATS], n = bit_module.to_act(g, seats), seat = seats[steps % n];
    json_t *legal = engine_legal_moves(g, seat), *m;
    size_t i;
    json_array_foreach(legal, i, m)
    {
      struct engine_game *next = NULL;
      json_t *events = NULL;
      struct cairn_error err = {0};
      assert_int_equal(engine_apply(g, seat, m, &next, &events, &err), CAIRN_OK);
      engine_free(next);
      json_decref(events);
    }
    {
      json_t *m0 = json_array_get(legal, (size_t)steps % json_array_size(legal));
      struct engine_game *next = NULL;
      json_t *events = NULL;
      struct cairn_error err = {0};
      assert_int_equal(engine_apply(g, seat, m0, &next, &events, &err), CAIRN_OK);
      engine_free(g);
      g = next;
      json_decref(events);
    }
    json_decref(legal);
  }
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_malformed_moves),
      cmocka_unit_test(test_VI_moves_of_another_phase_are_illegal),
      cmocka_unit_test(test_every_listed_move_is_accepted),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
