/*
 * test_moves.c - the move JSON (engine/himalaya/moves.c): malformed moves
 * are refused as CAIRN_EINVAL with a code naming the member, defaults are
 * filled in, and the canonical form reads back the same.
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

struct bad_move {
  const char *move;   /* JSON text */
  const char *code;   /* expected err.code */
  const char *member; /* must appear in err.detail */
};

static void expect_all(const struct bad_move *cases, size_t n)
{
  struct engine_game *game = hs_new(2, 61);
  size_t i;

  for (i = 0; i < n; i++) {
    struct cairn_error err = kit_reject(game, 0, cases[i].move, CAIRN_EINVAL, cases[i].code, NULL);

    if (!strstr(err.detail, cases[i].member))
      fail_msg("%s: detail \"%s\" does not name %s", cases[i].move, err.detail, cases[i].member);
  }
  engine_free(game);
}

/* The move shapes (README.md): "type" is one of die, supply, reroll. */
static void test_move_type_is_required_and_known(void **state)
{
  static const struct bad_move cases[] = {
      {"{}", CAIRN_CODE_MISSING_FIELD, "type"},
      {"{\"type\":3}", CAIRN_CODE_WRONG_TYPE, "type"},
      {"{\"type\":\"jump\"}", CAIRN_CODE_BAD_MOVE, "type"},
      {"{\"value\":3,\"pawn\":\"climber\"}", CAIRN_CODE_MISSING_FIELD, "type"},
  };

  expect_all(cases, sizeof(cases) / sizeof(cases[0]));
}

/* himalaya, The Game: a die or card move names the number and the pawn. */
static void test_die_and_supply_moves_need_value_and_pawn(void **state)
{
  static const struct bad_move cases[] = {
      {"{\"type\":\"die\",\"pawn\":\"climber\"}", CAIRN_CODE_MISSING_FIELD, "value"},
      {"{\"type\":\"die\",\"value\":\"3\",\"pawn\":\"climber\"}", CAIRN_CODE_WRONG_TYPE, "value"},
      {"{\"type\":\"die\",\"value\":3.0,\"pawn\":\"climber\"}", CAIRN_CODE_WRONG_TYPE, "value"},
      {"{\"type\":\"die\",\"value\":7,\"pawn\":\"climber\"}", CAIRN_CODE_BAD_MOVE, "value"},
      {"{\"type\":\"die\",\"value\":0,\"pawn\":\"climber\"}", CAIRN_CODE_BAD_MOVE, "value"},
      {"{\"type\":\"die\",\"value\":3}", CAIRN_CODE_MISSING_FIELD, "pawn"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":true}", CAIRN_CODE_WRONG_TYPE, "pawn"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"yeti\"}", CAIRN_CODE_BAD_MOVE, "pawn"},
      {"{\"type\":\"supply\",\"value\":3,\"pawn\":\"climber\"}", CAIRN_CODE_MISSING_FIELD, "card"},
      {"{\"type\":\"supply\",\"card\":34,\"value\":3,\"pawn\":\"climber\"}", CAIRN_CODE_WRONG_TYPE,
       "card"},
      {"{\"type\":\"supply\",\"card\":\"2/3\",\"value\":3,\"pawn\":\"climber\"}",
       CAIRN_CODE_BAD_MOVE, "card"},
      {"{\"type\":\"supply\",\"card\":\"3/4\",\"value\":3,\"pawn\":\"none\"}", CAIRN_CODE_BAD_MOVE,
       "pawn"},
  };

  expect_all(cases, sizeof(cases) / sizeof(cases[0]));
}

/* himalaya, Moving the Sherpas and Take-along rule: the Sherpa members. */
static void test_sherpa_members_are_checked(void **state)
{
  static const struct bad_move cases[] = {
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\"}", CAIRN_CODE_MISSING_FIELD, "sherpa"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":4}", CAIRN_CODE_BAD_MOVE,
       "sherpa"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":\"0\"}", CAIRN_CODE_WRONG_TYPE,
       "sherpa"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"direction\":\"left\"}",
       CAIRN_CODE_BAD_MOVE, "direction"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"direction\":1}",
       CAIRN_CODE_WRONG_TYPE, "direction"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":1}",
       CAIRN_CODE_WRONG_TYPE, "take_along"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true,"
       "\"companions\":1}",
       CAIRN_CODE_WRONG_TYPE, "companions"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true,"
       "\"companions\":[\"1\"]}",
       CAIRN_CODE_WRONG_TYPE, "companions[0]"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true,"
       "\"companions\":[1,5]}",
       CAIRN_CODE_BAD_MOVE, "companions[1]"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true,"
       "\"companions\":[0]}",
       CAIRN_CODE_BAD_MOVE, "companions[0]"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"take_along\":true,"
       "\"companions\":[2,2]}",
       CAIRN_CODE_BAD_MOVE, "companions[1]"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"companions\":[1]}",
       CAIRN_CODE_BAD_MOVE, "companions"},
  };

  expect_all(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Exact shapes: a member that the move's shape does not have is refused. */
static void test_unknown_members_are_refused(void **state)
{
  static const struct bad_move cases[] = {
      {"{\"type\":\"reroll\",\"value\":3}", CAIRN_CODE_UNKNOWN_FIELD, "value"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\",\"sherpa\":0}", CAIRN_CODE_UNKNOWN_FIELD,
       "sherpa"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"none\",\"take_along\":false}",
       CAIRN_CODE_UNKNOWN_FIELD, "take_along"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"card\":\"3/4\"}",
       CAIRN_CODE_UNKNOWN_FIELD, "card"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":0,\"Sherpa\":0}",
       CAIRN_CODE_UNKNOWN_FIELD, "Sherpa"},
  };

  expect_all(cases, sizeof(cases) / sizeof(cases[0]));
}

/* The engine never lets a decision depend on JSON key order (style.md
 * 2.7): with two unknown members the smaller name is reported, whichever
 * comes first. */
static void test_errors_do_not_depend_on_key_order(void **state)
{
  struct engine_game *game = hs_new(2, 62);
  struct cairn_error a = kit_reject(
      game, 0, "{\"zulu\":1,\"type\":\"die\",\"value\":3,\"pawn\":\"climber\",\"alpha\":2}",
      CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL);
  struct cairn_error b = kit_reject(
      game, 0, "{\"alpha\":2,\"pawn\":\"climber\",\"value\":3,\"type\":\"die\",\"zulu\":1}",
      CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL);

  assert_string_equal(a.detail, b.detail);
  assert_non_null(strstr(a.detail, "alpha"));
  engine_free(game);
}

static void expect_canonical(const char *text, const char *canonical)
{
  json_t *in = json_loads(text, 0, NULL);
  json_t *want = json_loads(canonical, 0, NULL);
  struct himalaya_move m;
  struct himalaya_move again;
  json_t *out;

  assert_non_null(in);
  assert_non_null(want);
  assert_int_equal(himalaya_move_parse(in, &m, NULL), CAIRN_OK);
  out = himalaya_move_json(&m);
  assert_non_null(out);
  if (!json_equal(out, want)) {
    char *got = json_dumps(out, JSON_SORT_KEYS);

    fail_msg("%s gave %s, not %s", text, got, canonical);
  }
  assert_int_equal(himalaya_move_parse(out, &again, NULL), CAIRN_OK);
  assert_memory_equal(&m, &again, sizeof(m));
  json_decref(in);
  json_decref(want);
  json_decref(out);
}

/* Sherpa moves default to "direction":"up", "take_along":false and no
 * companions; the canonical form spells every member out. */
static void test_sherpa_move_defaults_and_canonical_form(void **state)
{
  expect_canonical("{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":1}",
                   "{\"type\":\"die\",\"value\":3,\"pawn\":\"sherpa\",\"sherpa\":1,"
                   "\"direction\":\"up\",\"take_along\":false,\"companions\":[]}");
  expect_canonical("{\"type\":\"supply\",\"card\":\"5/6\",\"value\":6,\"pawn\":\"sherpa\","
                   "\"sherpa\":0,\"take_along\":true,\"companions\":[3,1]}",
                   "{\"type\":\"supply\",\"card\":\"5/6\",\"value\":6,\"pawn\":\"sherpa\","
                   "\"sherpa\":0,\"direction\":\"up\",\"take_along\":true,\"companions\":[1,3]}");
  expect_canonical("{\"type\":\"die\",\"value\":2,\"pawn\":\"none\"}",
                   "{\"type\":\"die\",\"value\":2,\"pawn\":\"none\"}");
  expect_canonical("{\"pawn\":\"climber\",\"value\":5,\"type\":\"die\"}",
                   "{\"type\":\"die\",\"value\":5,\"pawn\":\"climber\"}");
  expect_canonical("{\"type\":\"reroll\"}", "{\"type\":\"reroll\"}");
}

/* himalaya, Special Spaces: "a supply card that has already been used may
 * be picked up" - the optional "restore" names a card; null or absent is
 * none, and a reroll has no such member. */
static void test_restore_member_names_a_supply_card(void **state)
{
  static const struct bad_move cases[] = {
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\",\"restore\":2}", CAIRN_CODE_WRONG_TYPE,
       "restore"},
      {"{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\",\"restore\":\"7/8\"}",
       CAIRN_CODE_BAD_MOVE, "restore"},
      {"{\"type\":\"reroll\",\"restore\":\"1/2\"}", CAIRN_CODE_UNKNOWN_FIELD, "restore"},
  };

  expect_all(cases, sizeof(cases) / sizeof(cases[0]));
  expect_canonical("{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\",\"restore\":null}",
                   "{\"type\":\"die\",\"value\":3,\"pawn\":\"climber\"}");
  expect_canonical("{\"restore\":\"5/6\",\"type\":\"die\",\"value\":2,\"pawn\":\"none\"}",
                   "{\"type\":\"die\",\"value\":2,\"pawn\":\"none\",\"restore\":\"5/6\"}");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_move_type_is_required_and_known),
      cmocka_unit_test(test_die_and_supply_moves_need_value_and_pawn),
      cmocka_unit_test(test_sherpa_members_are_checked),
      cmocka_unit_test(test_unknown_members_are_refused),
      cmocka_unit_test(test_errors_do_not_depend_on_key_order),
      cmocka_unit_test(test_sherpa_move_defaults_and_canonical_form),
      cmocka_unit_test(test_restore_member_names_a_supply_card),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
