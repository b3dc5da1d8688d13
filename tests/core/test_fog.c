/*
 * test_fog.c - game/fog.c on hand-made logs: which rows of a live game a
 * viewer may see, and which rows no takeback may undo. Covers what the
 * HTTP tests cannot reach under the current policy: a pending decision
 * undone by a rewind (only in logs written before the fog) stays hidden.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <string.h>

#include "game/fog.h"
#include "engine/engine.h"

#define ROW(o, q, s, mv, ev)                                                                       \
  {                                                                                                \
    .ord = (o), .seq = (q), .seat = (s), .move_json = (mv), .events_json = (ev)                    \
  }

static const char USE[] = "{\"card\":46,\"type\":\"use\"}";
static const char REST[] = "{\"type\":\"rest\"}";

/* Seat 0 declared (pending), then a rewind moved seq on before seat 1
 * decided: the declaration was undone unrevealed. */
static void test_a_pending_decision_undone_by_a_rewind_stays_hidden(void **state)
{
  const struct db_move log[] = {
      ROW(0, 0, 0, USE, "[]"),
      ROW(1, 1, 0, "{\"cairn\":\"rewind\",\"to_ord\":0}", "[{\"type\":\"taken_back\"}]"),
      ROW(2, 2, 1, REST, "[]"),
  };

  assert_true(game_fog_pending(log, 0));
  assert_false(game_fog_pending(log, 1)); /* a platform row */
  assert_false(game_fog_pending(log, 2));
  assert_true(game_fog_move_visible(log, 3, 0, 0)); /* its owner */
  assert_false(game_fog_move_visible(log, 3, 0, 1));
  assert_false(game_fog_move_visible(log, 3, 0, ENGINE_SPECTATOR));
  assert_true(game_fog_move_visible(log, 3, 1, 1));
  assert_true(game_fog_move_visible(log, 3, 2, 0));
}

/* A pending decision is its owner's until a title move resolves the
 * step; then it shows unless one of its events is private. */
static void test_a_pending_decision_shows_once_a_move_resolves_its_step(void **state)
{
  const struct db_move log[] = {
      ROW(0, 0, 0, USE, "[]"),
      ROW(1, 0, 0, REST, "[]"),
      ROW(2, 0, 1, "{\"cairn\":\"takeback-request\",\"to_ord\":0}", "[]"),
      ROW(3, 1, 1, REST, "[{\"type\":\"recovery\"}]"),
      ROW(4, 1, 0, "{\"type\":\"plan\"}", "[{\"type\":\"plan-submitted\",\"private_to\":[0]}]"),
      ROW(5, 2, 1, "{\"type\":\"plan\"}", "[{\"type\":\"plans-revealed\"}]"),
  };

  assert_false(game_fog_move_visible(log, 3, 0, 1)); /* still pending then */
  assert_false(game_fog_move_visible(log, 1, 0, ENGINE_SPECTATOR));
  assert_true(game_fog_move_visible(log, 6, 0, 1));
  assert_true(game_fog_move_visible(log, 6, 1, ENGINE_SPECTATOR));
  assert_false(game_fog_move_visible(log, 6, 4, 1)); /* private event */
  assert_true(game_fog_move_visible(log, 6, 4, 0));
  assert_true(game_fog_move_visible(log, 6, 5, 0));
}

static void test_rows_that_showed_something_are_named(void **state)
{
  const struct engine_module *himalaya = engine_find("himalaya");
  const struct engine_module *bit = engine_find("because-its-there");
  const struct db_move dice[] = {
      ROW(0, 1, 0, "{\"type\":\"die\"}", "[{\"type\":\"moved\"}]"),
      ROW(1, 2, 1, "{\"type\":\"die\"}", "[{\"type\":\"moved\"},{\"type\":\"yeti_card\"}]"),
      ROW(2, 3, 0, "{\"type\":\"die\"}", "[{\"type\":\"drew\",\"private_to\":[0]}]"),
  };
  const struct db_move night[] = {
      ROW(0, 0, 0, USE, "[]"),
      ROW(1, 1, 1, REST, "[]"),
      ROW(2, 2, 1, "{\"type\":\"load\"}", "[]"),
      ROW(3, 2, 1, "{\"cairn\":\"takeback-request\",\"to_ord\":2}", "[]"),
  };

  assert_null(game_fog_row_secret(himalaya, dice, 0));
  assert_non_null(strstr(game_fog_row_secret(himalaya, dice, 1), "revealed"));
  assert_non_null(strstr(game_fog_row_secret(himalaya, dice, 2), "private"));
  assert_non_null(strstr(game_fog_row_secret(bit, night, 0), "simultaneous"));
  assert_non_null(strstr(game_fog_row_secret(bit, night, 1), "simultaneous")); /* resolved it */
  assert_null(game_fog_row_secret(bit, night, 2));
  assert_null(game_fog_row_secret(bit, night, 3));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_pending_decision_undone_by_a_rewind_stays_hidden),
      cmocka_unit_test(test_a_pending_decision_shows_once_a_move_resolves_its_step),
      cmocka_unit_test(test_rows_that_showed_something_are_named),
  };

  return order_run_group_tests_name("core/fog", tests, NULL, NULL);
}
