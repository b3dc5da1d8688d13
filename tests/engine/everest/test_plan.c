/*
 * test_plan.c - "Making a Plan for your Yeti" (engine/everest/plan.c):
 * checking a plan, keeping it secret until all are in, the reveal.
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

#define PLAN3                                                                                      \
  "{\"type\":\"plan\",\"plan\":[{\"coin\":0,\"face\":\"value\",\"dir\":\"N\"},"                    \
  "{\"coin\":5,\"face\":\"suit\",\"dir\":\"E\"},{\"coin\":2,\"face\":\"value\",\"dir\":\"W\"}]}"
#define PLAN2                                                                                      \
  "{\"type\":\"plan\",\"plan\":[{\"coin\":0,\"face\":\"value\",\"dir\":\"N\"},"                    \
  "{\"coin\":5,\"face\":\"suit\",\"dir\":\"E\"}]}"

#define PLAN_RULE EVEREST_RULE_PLAN

/* everest, Making a Plan for your Yeti: "If you have enough coins to plan
 * three actions, then you must use three coins." */
static void test_three_coins_are_mandatory_when_available(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);

  kit_reject(game, 0, PLAN2, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, PLAN_RULE);
  kit_reject(game, 0, "{\"type\":\"plan\",\"plan\":[]}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             PLAN_RULE);
  json_decref(kit_apply(&game, 0, PLAN3));
  engine_free(game);
}

/* everest, Making a Plan for your Yeti: "A player builds a plan by
 * secretly selecting three of the player's coins": four well-formed coins
 * break that rule (422 with the rule), they are not a malformed request;
 * a malformed fourth entry still is. */
static void test_a_plan_of_four_coins_breaks_the_planning_rule(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);

  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":0,\"face\":\"value\",\"dir\":\"N\"},"
             "{\"coin\":5,\"face\":\"suit\",\"dir\":\"E\"},{\"coin\":2,\"face\":\"value\","
             "\"dir\":\"W\"},{\"coin\":3,\"face\":\"value\",\"dir\":\"S\"}]}",
             CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, PLAN_RULE);
  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":0,\"face\":\"value\",\"dir\":\"N\"},"
             "{\"coin\":5,\"face\":\"suit\",\"dir\":\"E\"},{\"coin\":2,\"face\":\"value\","
             "\"dir\":\"W\"},{\"coin\":9,\"face\":\"value\",\"dir\":\"S\"}]}",
             CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  json_decref(kit_apply(&game, 0, PLAN3));
  engine_free(game);
}

/* everest, Making a Plan for your Yeti: "It is possible for a player to
 * have fewer than three coins available ... in this case make a plan as
 * long as possible. A yeti's second or third action will then to be
 * 'stand there and look dazed'". */
static void test_fewer_coins_make_a_shorter_plan(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);

  es_coins(game, 0, (1u << 0) | (1u << 5));
  kit_reject(game, 0, PLAN3, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, PLAN_RULE);
  json_decref(kit_apply(&game, 0, PLAN2));
  assert_int_equal(es_state(game)->seat[0].plan_len, 2);
  assert_null(everest_step_coin(es_state(game), es_state(game)->yeti, 0, 2)); /* dazed */
  engine_free(game);
}

/* everest, Damage: set-aside coins "cannot be used as part of a plan until
 * the yeti is healed"; each coin is one action. */
static void test_a_plan_uses_distinct_available_coins(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);
  struct cairn_error err;

  /* The refusal names the coin that blocks the plan. */
  err = kit_reject(game, 0,
                   "{\"type\":\"plan\",\"plan\":[{\"coin\":0,\"face\":\"value\",\"dir\":\"N\"},"
                   "{\"coin\":0,\"face\":\"suit\",\"dir\":\"E\"},"
                   "{\"coin\":2,\"face\":\"value\",\"dir\":\"W\"}]}",
                   CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, PLAN_RULE);
  assert_non_null(strstr(err.detail, "coin 0 (null) is used twice"));
  es_state(game)->seat[0].aside = 1u << 5;
  err = kit_reject(game, 0, PLAN3, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, PLAN_RULE);
  assert_non_null(strstr(err.detail, "coin 5 is set aside by damage (set-aside coins: 5)"));
  engine_free(game);
}

/* Malformed plans are refused as bad requests, not rule violations. */
static void test_malformed_plans_are_refused(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);

  kit_reject(game, 0, "{\"type\":\"plan\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"plan\",\"plan\":{}}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":\"5\",\"face\":\"value\",\"dir\":\"N\"}]}",
             CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":6,\"face\":\"value\",\"dir\":\"N\"}]}",
             CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(game, 0, "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"edge\",\"dir\":\"N\"}]}",
             CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"value\",\"dir\":\"NE\"}]}",
             CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(game, 0,
             "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"value\",\"dir\":\"N\",\"x\":1}]}",
             CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"value\"}]}",
             CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  /* Entries are read before the length is judged: these are not coins. */
  kit_reject(game, 0, "{\"type\":\"plan\",\"plan\":[1,2,3,4]}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE,
             NULL);
  kit_reject(game, 0, "{\"type\":\"plan\",\"plan\":[],\"extra\":1}", CAIRN_EINVAL,
             CAIRN_CODE_UNKNOWN_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"fly\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(game, 0, "{\"plan\":[]}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 0, "{\"type\":\"heal\",\"heal\":true}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             PLAN_RULE);
  engine_free(game);
}

/* everest, Making a Plan for your Yeti: "A player builds a plan by secretly
 * selecting three of the player's coins". Each submission but the last is
 * pending: seq stays, to_act loses only the submitter, and the one event is
 * private to the submitter. */
static void test_a_submitted_plan_stays_secret_until_all_are_in(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);
  int to_act[ENGINE_MAX_SEATS], seat;
  uint32_t seq = game->seq;
  json_t *events = kit_apply(&game, 2, PLAN3), *ev;

  assert_int_equal(game->seq, seq);
  assert_int_equal(json_array_size(events), 1);
  ev = json_array_get(events, 0);
  assert_string_equal(json_string_value(json_object_get(ev, "type")), "plan-submitted");
  for (seat = 0; seat < 4; seat++)
    assert_int_equal(engine_event_visible(ev, seat, false), seat == 2);
  assert_false(engine_event_visible(ev, ENGINE_SPECTATOR, false));
  assert_true(engine_event_visible(ev, ENGINE_SPECTATOR, true)); /* after the game */
  assert_int_equal(everest_module.to_act(game, to_act), 3);
  assert_int_equal(to_act[0], 0);
  assert_int_equal(to_act[1], 1);
  assert_int_equal(to_act[2], 3);
  for (seat = ENGINE_SPECTATOR; seat < 4; seat++) {
    json_t *view = engine_view(game, seat);
    json_t *mine = es_seat_view(view, 2);

    assert_true(json_is_true(json_object_get(mine, "planned")));
    if (seat == 2)
      assert_int_equal(json_array_size(json_object_get(mine, "plan")), 3);
    else
      assert_null(json_object_get(mine, "plan"));
    json_decref(view);
  }
  kit_reject(game, 2, PLAN3, CAIRN_ETURN, CAIRN_CODE_NOT_YOUR_TURN, NULL);
  json_decref(events);
  engine_free(game);
}

/* everest, Making a Plan for your Yeti: "After all of the plans are
 * finished the players expose them for all to see." The last plan reveals
 * all in one public event, and seq advances once. */
static void test_the_last_plan_reveals_all_plans_together(void **state)
{
  struct engine_game *game = es_new(4, 1, 0);
  json_t *events = NULL, *revealed, *view;
  uint32_t seq = game->seq;
  int seat;

  for (seat = 0; seat < 4; seat++) {
    json_decref(events);
    events = kit_apply(&game, seat,
                       "{\"type\":\"plan\",\"plan\":[{\"coin\":1,\"face\":\"suit\",\"dir\":\"N\"},"
                       "{\"coin\":2,\"face\":\"suit\",\"dir\":\"N\"},"
                       "{\"coin\":3,\"face\":\"suit\",\"dir\":\"N\"}]}");
  }
  assert_int_equal(game->seq, seq + 1);
  revealed = kit_event(events, "plans-revealed", 0);
  assert_non_null(revealed);
  assert_null(json_object_get(revealed, "private_to"));
  assert_int_equal(json_array_size(json_object_get(revealed, "plans")), 4);
  view = engine_view(game, ENGINE_SPECTATOR);
  assert_int_equal(json_array_size(json_object_get(es_seat_view(view, 1), "plan")), 3);
  json_decref(view);
  json_decref(events);
  engine_free(game);
}

/* RULES.md "Dazed for the round": a yeti off the board, or with every coin
 * set aside, owes no plan; a round with no plan owed runs by itself. */
static void test_a_yeti_without_coins_or_board_owes_no_plan(void **state)
{
  struct engine_game *game = es_new(2, 1, 0);
  int to_act[ENGINE_MAX_SEATS];

  es_state(game)->seat[0].aside = 0x3f;
  assert_int_equal(everest_module.to_act(game, to_act), 1);
  assert_int_equal(to_act[0], 1);
  es_place(game, 1, -1, 0);
  assert_int_equal(everest_module.to_act(game, to_act), 0);
  engine_free(game);
}

/* A choices node (openapi/base.yaml, Choices) built with jansson. */
static json_t *node(const char *pointer, json_t *options)
{
  return json_pack("{s:s, s:o}", "choose", pointer, "options", options);
}

/* The coins of step `step` onwards among `left` (a bit per coin), as the
 * tree must give them: each in value order, then the next step's. */
static json_t *coin_node(int step, int length, unsigned left)
{
  char pointer[32];
  json_t *options = json_array();
  int coin;

  snprintf(pointer, sizeof pointer, "/plan/%d/coin", step);
  for (coin = 0; coin < EVEREST_COINS; coin++) {
    json_t *option;

    if (!(left & (1u << coin)))
      continue;
    option = json_pack("{s:i}", "value", coin);
    if (step + 1 < length)
      json_object_set_new(option, "then", coin_node(step + 1, length, left & ~(1u << coin)));
    json_array_append_new(options, option);
  }
  return node(pointer, options);
}

/* README.md "Moves": the plan's choices tree, byte for byte, for every set
 * of coins a seat may hold (everest/legal.c writes it from tables, issue
 * 22): a "plan" whose "all" holds the coins' orders, then each step's face
 * and direction. */
static void test_the_plan_tree_is_every_order_of_the_coins_held(void **state)
{
  unsigned mask;

  (void)state;
  for (mask = 1; mask < (1u << EVEREST_COINS); mask++) {
    struct engine_game *game = es_new(2, 1, 0);
    int length = __builtin_popcount(mask) < 3 ? __builtin_popcount(mask) : 3, step, dir;
    json_t *all = json_array(), *want;
    struct json_writer w;
    char *text, *want_text;
    size_t len = 0;

    es_coins(game, 0, mask);
    json_array_append_new(all, coin_node(0, length, mask));
    for (step = 0; step < length; step++) {
      json_t *dirs = json_array();
      char pointer[32];

      snprintf(pointer, sizeof pointer, "/plan/%d/face", step);
      json_array_append_new(
          all, node(pointer, json_pack("[{s:s},{s:s}]", "value", "value", "value", "suit")));
      for (dir = 0; dir < EVEREST_DIRS; dir++)
        json_array_append_new(dirs, json_pack("{s:s}", "value", everest_dir_name(dir)));
      snprintf(pointer, sizeof pointer, "/plan/%d/dir", step);
      json_array_append_new(all, node(pointer, dirs));
    }
    want = node("/type", json_pack("[{s:s, s:{s:o}}]", "value", "plan", "then", "all", all));
    want_text = json_dumps(want, JSON_COMPACT);
    jw_init(&w);
    engine_write_choices(game, 0, &w);
    text = jw_finish(&w, &len);
    assert_non_null(text);
    assert_string_equal(text, want_text);
    free(text);
    free(want_text);
    json_decref(want);
    engine_free(game);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_three_coins_are_mandatory_when_available),
      cmocka_unit_test(test_fewer_coins_make_a_shorter_plan),
      cmocka_unit_test(test_a_plan_of_four_coins_breaks_the_planning_rule),
      cmocka_unit_test(test_a_plan_uses_distinct_available_coins),
      cmocka_unit_test(test_malformed_plans_are_refused),
      cmocka_unit_test(test_a_submitted_plan_stays_secret_until_all_are_in),
      cmocka_unit_test(test_the_last_plan_reveals_all_plans_together),
      cmocka_unit_test(test_a_yeti_without_coins_or_board_owes_no_plan),
      cmocka_unit_test(test_the_plan_tree_is_every_order_of_the_coins_held),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
