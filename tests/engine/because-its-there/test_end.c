/*
 * test_end.c - XI. End of Turn and the Victory Conditions of XII: the turn
 * 20 limit, 1924 (one Climber), 1953 (two Climbers), the 1963 draw/win
 * table and its fixed routes, and Dream Teams VP by route.
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

static void end_turn(struct engine_game **g, int turn)
{
  int seat;

  bt_state(*g)->phase = BIT_P_NIGHT;
  bt_state(*g)->turn = turn;
  bt_state(*g)->done[0] = bt_state(*g)->done[1] = 0;
  for (seat = 0; seat < (*g)->seats; seat++)
    json_decref(kit_apply(g, seat, "{\"type\":\"rest\"}"));
}

static void back_home(struct engine_game *g, int seat, int climber)
{
  bt_team(g, seat, BIT_ABC, (int[]){climber, -1});
  bt_state(g)->summited[climber] = 1;
  bt_state(g)->returned[climber] = 1;
  bt_state(g)->up_route[climber] = (int8_t)bt_state(g)->route[seat];
}

static json_t *winners(struct engine_game *g)
{
  json_t *res = bit_module.result(g);
  assert_non_null(res);
  return res;
}

/* XI "The game also ends if the current turn is turn 20 and no player has
 * met the Victory Conditions." */
static void test_XI_game_ends_after_turn_20(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  json_t *res;

  (void)state;
  bt_clear(g, BIT_P_NIGHT, 19);
  end_turn(&g, 19);
  assert_false(engine_is_over(g));
  assert_int_equal(bt_state(g)->turn, 20);
  end_turn(&g, 20);
  assert_true(engine_is_over(g));
  res = winners(g);
  assert_int_equal(json_array_size(json_object_get(res, "winners")), 0);
  assert_false(json_is_true(json_object_get(res, "success")));
  json_decref(res);
  engine_free(g);
}

/* XII 1924 "successfully completed if at least one Climber reaches the
 * Summit and returns to Advanced Base Camp by Turn 20". */
static void test_XII_1924_one_climber_back_wins(void **state)
{
  struct engine_game *g = bt_new("1924", 1);
  json_t *res;

  (void)state;
  json_decref(kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"north-ridge\"}"));
  bt_clear(g, BIT_P_NIGHT, 7);
  back_home(g, 0, 20);
  end_turn(&g, 7);
  assert_true(engine_is_over(g));
  res = winners(g);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "winners"), 0)), 0);
  json_decref(res);
  engine_free(g);
}

/* XII 1953 "at least two Climbers reach the Summit and return safely". */
static void test_XII_1953_needs_two_climbers_back(void **state)
{
  struct engine_game *g = bt_new("1953", 1);

  (void)state;
  bt_clear(g, BIT_P_NIGHT, 7);
  back_home(g, 0, 27);
  end_turn(&g, 7);
  assert_false(engine_is_over(g));
  bt_clear(g, BIT_P_NIGHT, 8);
  back_home(g, 0, 27);
  back_home(g, 0, 28);
  end_turn(&g, 8);
  assert_true(engine_is_over(g));
  engine_free(g);
}

/* XII 1963 "If both players succeed or both fail the game is a draw. If
 * only one succeeds that player is the winner." */
static void test_XII_1963_draw_and_win_table(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  json_t *res;

  (void)state;
  /* only Player One: play goes on, then Player One wins at turn 20 */
  bt_clear(g, BIT_P_NIGHT, 12);
  back_home(g, 0, 32);
  back_home(g, 0, 33);
  end_turn(&g, 12);
  assert_false(engine_is_over(g));
  bt_clear(g, BIT_P_NIGHT, 20);
  back_home(g, 0, 32);
  back_home(g, 0, 33);
  end_turn(&g, 20);
  res = winners(g);
  assert_int_equal(json_array_size(json_object_get(res, "winners")), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "winners"), 0)), 0);
  assert_false(json_is_true(json_object_get(res, "draw")));
  json_decref(res);
  engine_free(g);
  /* both: the game ends at once in a draw */
  g = bt_new("1963", 1);
  bt_clear(g, BIT_P_NIGHT, 12);
  back_home(g, 0, 32);
  back_home(g, 0, 33);
  back_home(g, 1, 36);
  back_home(g, 1, 37);
  end_turn(&g, 12);
  assert_true(engine_is_over(g));
  res = winners(g);
  assert_true(json_is_true(json_object_get(res, "draw")));
  assert_int_equal(json_array_size(json_object_get(res, "winners")), 0);
  json_decref(res);
  engine_free(g);
}

/* XII 1963 Player Two reaches the Summit "using the West Ridge Route and
 * descending via the South Col Route": coming down the West Ridge does not
 * count. */
static void test_XII_1963_player_two_must_descend_the_south_col(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  int team;
  char buf[96];

  (void)state;
  bt_clear(g, BIT_P_MOVE, 12);
  bt_state(g)->active = 1;
  bt_state(g)->mover = 1;
  team = bt_team(g, 1, bt_route(g, 1, 0), (int[]){36, -1});
  bt_state(g)->summited[36] = 1;
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"down\"}", team);
  json_decref(kit_apply(&g, 1, buf));
  assert_false(bt_state(g)->returned[36]);
  team = bt_team(g, 1, bt_route(g, 0, 0), (int[]){37, -1});
  bt_state(g)->summited[37] = 1;
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"down\"}", team);
  json_decref(kit_apply(&g, 1, buf));
  assert_true(bt_state(g)->returned[37]);
  /* and Player Two may not climb the South Col */
  team = bt_team(g, 1, bt_route(g, 0, 2), (int[]){36, -1});
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"up\"}", team);
  kit_reject(g, 1, buf, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  engine_free(g);
}

/* XII 1963: from the Summit Player Two may go down either route. */
static void test_XII_1963_player_two_descends_from_the_summit_to_the_south_col(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  int team;
  char buf[96];

  (void)state;
  bt_clear(g, BIT_P_MOVE, 12);
  bt_state(g)->active = 1;
  bt_state(g)->mover = 1;
  team = bt_team(g, 1, BIT_SUMMIT, (int[]){36, -1});
  snprintf(buf, sizeof buf,
           "{\"type\":\"move\",\"team\":%d,\"dir\":\"down\",\"route\":\"south-col\"}", team);
  assert_true(bt_is_legal(g, 1, buf));
  json_decref(kit_apply(&g, 1, buf));
  assert_int_equal(bt_state(g)->loc[36].at, bt_route(g, 0, 5));
  engine_free(g);
}

/* XII Dream Teams: VP per Climber on the Summit by route (North Ridge 5,
 * Great Couloir 5, South Col 3, West Ridge 4); "If a Climber dies during
 * the game no VP are received for that Climber". */
static void test_XII_dream_teams_vp_by_route_and_dead_score_nothing(void **state)
{
  struct engine_game *g = bt_new("dream-teams", 2);
  struct bit_state *st;
  json_t *res;
  int i, n;
  char buf[64];

  (void)state;
  for (i = 0; i < 12; i++) {
    snprintf(buf, sizeof buf, "{\"type\":\"draft\",\"climber\":%d}", 20 + i);
    json_decref(kit_apply(&g, bt_state(g)->active, buf));
  }
  json_decref(kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"south-col\"}"));
  json_decref(kit_apply(&g, 1, "{\"type\":\"route\",\"route\":\"west-ridge\"}"));
  st = bt_state(g);
  bt_clear(g, BIT_P_NIGHT, 20);
  for (i = 20, n = 0; i < 32 && n < 2; i++)
    if (st->loc[i].seat == 0) {
      st->summited[i] = 1;
      st->up_route[i] = BIT_SOUTH_COL;
      n++;
    }
  for (i = 20; i < 32; i++)
    if (st->loc[i].seat == 1 && !st->summited[i]) {
      st->summited[i] = 1;
      st->up_route[i] = BIT_WEST_RIDGE;
      bit_put(st, i, BIT_Z_DEAD, 1); /* all of Player Two's summiters died */
    }
  end_turn(&g, 20);
  res = winners(g);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "vp"), 1)), 0);
  assert_true(json_integer_value(json_array_get(json_object_get(res, "vp"), 0)) > 0);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "vp"), 0)), 6);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "winners"), 0)), 0);
  json_decref(res);
  engine_free(g);
}

/* ---- One scripted game end per end of the text, through real moves ----
 * From a set-up position in the Movement Phase, the teams make their last
 * moves, every seat finishes Movement, Setup Camp and Night, and the End
 * of Turn decides. Returns the events of the move that ended the game. */
static json_t *close_turn(struct engine_game **g)
{
  json_t *ev = NULL;
  int seat;

  while (bt_state(*g)->phase == BIT_P_MOVE) {
    json_decref(ev);
    ev = kit_apply(g, bt_state(*g)->active, "{\"type\":\"done\"}");
  }
  for (seat = 0; seat < (*g)->seats; seat++) {
    json_decref(ev);
    ev = kit_apply(g, seat, "{\"type\":\"ready\"}");
  }
  for (seat = 0; seat < (*g)->seats; seat++) {
    json_decref(ev);
    ev = kit_apply(g, seat, "{\"type\":\"rest\"}");
  }
  return ev;
}

/* A team of the -1-terminated Climbers on the lowest card of `route_seat`'s
 * route, back from the Summit of `up` (a set-up position), walks down into
 * Advance Base Camp with a real move. */
static void walk_home(struct engine_game **g, int seat, int route_seat, int up, const int *climbers)
{
  int team = bt_team(*g, seat, bt_route(*g, route_seat, 0), climbers), i;
  char buf[80];

  for (i = 0; climbers[i] >= 0; i++) {
    bt_state(*g)->summited[climbers[i]] = 1;
    bt_state(*g)->up_route[climbers[i]] = (int8_t)up;
  }
  bt_state(*g)->active = seat; /* bt_clear keeps the order 0, 1 */
  bt_state(*g)->mover = seat;
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"down\"}", team);
  json_decref(kit_apply(g, seat, buf));
  for (i = 0; climbers[i] >= 0; i++)
    assert_true(bt_state(*g)->returned[climbers[i]]);
}

/* The result's reason, and the game-over event's, after `ev`. */
static void assert_reason(struct engine_game *g, json_t *ev, const char *reason, int winner)
{
  json_t *res = winners(g), *w = json_object_get(res, "winners");

  assert_true(engine_is_over(g));
  assert_string_equal(json_string_value(json_object_get(res, "reason")), reason);
  assert_string_equal(json_string_value(json_object_get(kit_event(ev, "game-over", 0), "reason")),
                      reason);
  if (winner < 0) {
    assert_int_equal(json_array_size(w), 0);
  } else {
    assert_int_equal(json_array_size(w), 1);
    assert_int_equal(json_integer_value(json_array_get(w, 0)), winner);
  }
  json_decref(res);
}

/* XII 1924 "The scenario is successfully completed if at least one Climber
 * reaches the Summit and returns to Advanced Base Camp by Turn 20"; XI
 * "The game ends immediately if the Victory Conditions for the scenario
 * are met." */
static void test_end_1924_summit_and_return(void **state)
{
  struct engine_game *g = bt_new("1924", 1);
  json_t *ev;

  (void)state;
  json_decref(kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"great-couloir\"}"));
  bt_clear(g, BIT_P_MOVE, 9);
  walk_home(&g, 0, 0, BIT_GREAT_COULOIR, (int[]){20, -1});
  ev = close_turn(&g);
  assert_reason(g, ev, "summit-and-return", 0);
  assert_int_equal(bt_state(g)->turn, 9);
  json_decref(ev);
  engine_free(g);
}

/* XI "The game also ends if the current turn is turn 20 and no player has
 * met the Victory Conditions" (1924 and 1953 alike: a defeat). */
static void test_end_solo_turn_20(void **state)
{
  static const char *const scenarios[] = {"1924", "1953"};
  int i;

  (void)state;
  for (i = 0; i < 2; i++) {
    struct engine_game *g = bt_new(scenarios[i], 1);
    json_t *ev;
    if (i == 0)
      json_decref(kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"north-ridge\"}"));
    bt_clear(g, BIT_P_MOVE, 20);
    /* one Climber up and back is not enough in 1953 */
    if (i == 1)
      walk_home(&g, 0, 0, BIT_SOUTH_COL, (int[]){27, -1});
    ev = close_turn(&g);
    assert_reason(g, ev, "turn-20", -1);
    assert_false(json_is_true(json_object_get(kit_event(ev, "game-over", 0), "success")));
    json_decref(ev);
    engine_free(g);
  }
}

/* XII 1953 "The scenario is completed successfully if at least two
 * Climbers reach the Summit and return safely to Advance Base Camp." */
static void test_end_1953_two_summits_and_return(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  json_t *ev;

  (void)state;
  bt_clear(g, BIT_P_MOVE, 14);
  walk_home(&g, 0, 0, BIT_SOUTH_COL, (int[]){27, 28, -1});
  ev = close_turn(&g);
  assert_reason(g, ev, "two-summits-and-return", 0);
  json_decref(ev);
  engine_free(g);
}

/* XII 1963 "If both players succeed or both fail the game is a draw. If
 * only one succeeds that player is the winner." Both succeeding ends the
 * game at once (XI); the others are decided after turn 20. */
static void test_end_1963_both_succeeded_is_a_draw(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  json_t *ev;

  (void)state;
  bt_clear(g, BIT_P_MOVE, 12);
  walk_home(&g, 0, 0, BIT_SOUTH_COL, (int[]){32, 33, -1});
  json_decref(kit_apply(&g, 0, "{\"type\":\"done\"}"));
  /* Player Two: up the West Ridge, down the South Col */
  walk_home(&g, 1, 0, BIT_WEST_RIDGE, (int[]){36, 37, -1});
  ev = close_turn(&g);
  assert_reason(g, ev, "both-succeeded", -1);
  assert_int_equal(bt_state(g)->turn, 12);
  json_decref(ev);
  engine_free(g);
}

static void test_end_1963_one_succeeded_wins(void **state)
{
  int seat;

  (void)state;
  for (seat = 0; seat < 2; seat++) {
    struct engine_game *g = bt_new("1963", 1);
    json_t *ev;
    bt_clear(g, BIT_P_MOVE, 20);
    if (seat == 0)
      walk_home(&g, 0, 0, BIT_SOUTH_COL, (int[]){32, 33, -1});
    else
      walk_home(&g, 1, 0, BIT_WEST_RIDGE, (int[]){36, 37, -1});
    ev = close_turn(&g);
    assert_reason(g, ev, "one-succeeded", seat);
    json_decref(ev);
    engine_free(g);
  }
}

static void test_end_1963_both_failed_is_a_draw(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  json_t *ev;

  (void)state;
  bt_clear(g, BIT_P_MOVE, 20);
  /* one Climber each up and back: short of "at least two" on both sides */
  walk_home(&g, 0, 0, BIT_SOUTH_COL, (int[]){32, -1});
  json_decref(kit_apply(&g, 0, "{\"type\":\"done\"}"));
  walk_home(&g, 1, 0, BIT_WEST_RIDGE, (int[]){36, -1});
  ev = close_turn(&g);
  assert_reason(g, ev, "both-failed", -1);
  json_decref(ev);
  engine_free(g);
}

/* A Dream Teams game after the draft (seat 0 takes 20..25, seat 1 26..31)
 * and routes, in the Movement Phase of turn 20. */
static struct engine_game *dream_turn_20(void)
{
  struct engine_game *g = bt_new("dream-teams", 2);
  char buf[64];
  int i, next[2] = {20, 26};

  for (i = 0; i < 12; i++) {
    int seat = bt_state(g)->active;
    snprintf(buf, sizeof buf, "{\"type\":\"draft\",\"climber\":%d}", next[seat]++);
    json_decref(kit_apply(&g, seat, buf));
  }
  json_decref(kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"north-ridge\"}"));
  json_decref(kit_apply(&g, 1, "{\"type\":\"route\",\"route\":\"west-ridge\"}"));
  bt_clear(g, BIT_P_MOVE, 20);
  return g;
}

/* XII Dream Teams "The player with the highest number of VP at the end of
 * Turn 20 is the winner": a Climber reaches the Summit with a real move. */
static void test_end_dream_teams_most_vp_wins(void **state)
{
  struct engine_game *g = dream_turn_20();
  int team = bt_team(g, 0, bt_route(g, 0, 5), (int[]){20, -1});
  json_t *ev;
  char buf[64];

  (void)state;
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"up\"}", team);
  json_decref(kit_apply(&g, 0, buf));
  assert_true(bt_state(g)->summited[20]);
  ev = close_turn(&g);
  assert_reason(g, ev, "most-vp", 0);
  json_decref(ev);
  engine_free(g);
}

/* XII Dream Teams: equal VP at the end of turn 20 - the text names no
 * winner, so no one wins (a draw). */
static void test_end_dream_teams_equal_vp_is_a_draw(void **state)
{
  struct engine_game *g = dream_turn_20();
  json_t *ev, *res;

  (void)state;
  ev = close_turn(&g);
  assert_reason(g, ev, "equal-vp", -1);
  res = winners(g);
  assert_true(json_is_true(json_object_get(res, "draw")));
  json_decref(res);
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_XI_game_ends_after_turn_20),
      cmocka_unit_test(test_XII_1924_one_climber_back_wins),
      cmocka_unit_test(test_XII_1953_needs_two_climbers_back),
      cmocka_unit_test(test_XII_1963_draw_and_win_table),
      cmocka_unit_test(test_XII_1963_player_two_must_descend_the_south_col),
      cmocka_unit_test(test_XII_1963_player_two_descends_from_the_summit_to_the_south_col),
      cmocka_unit_test(test_XII_dream_teams_vp_by_route_and_dead_score_nothing),
      cmocka_unit_test(test_end_1924_summit_and_return),
      cmocka_unit_test(test_end_solo_turn_20),
      cmocka_unit_test(test_end_1953_two_summits_and_return),
      cmocka_unit_test(test_end_1963_both_succeeded_is_a_draw),
      cmocka_unit_test(test_end_1963_one_succeeded_wins),
      cmocka_unit_test(test_end_1963_both_failed_is_a_draw),
      cmocka_unit_test(test_end_dream_teams_most_vp_wins),
      cmocka_unit_test(test_end_dream_teams_equal_vp_is_a_draw),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
