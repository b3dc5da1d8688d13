/*
 * test_deadlines.c - time controls under the test clock (game/timeouts.c):
 * a deadline is shown; when it passes, the absent seat's timeout move is
 * played (or the game is adjudicated) and announced; a move in time
 * restarts the clock. No test sleeps: the server's clock is moved with
 * POST /v1/test/clock, which sweeps the deadlines it passed before it
 * answers, so each test asserts right after the step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/order.h"
#include "harness.h"

static int setup(void **state)
{
  setenv("CAIRN_TEST_CLOCK", "1", 1);
  return harness_setup(state);
}

static int teardown(void **state)
{
  unsetenv("CAIRN_TEST_CLOCK");
  return harness_teardown(state);
}

static void timed_game(struct harness_server *s, const char *on_timeout, struct harness_player p[2],
                       char id[64])
{
  struct harness_response r;
  char body[200];

  harness_new_player(s, "prompt", &p[0]);
  harness_new_player(s, "absent", &p[1]);
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"move_hours\":24},"
           "\"on_timeout\":\"%s\"}",
           on_timeout);
  harness_call(s, &r, "POST", p[0].token, body, "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, 64, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  harness_join(s, p[0].token, id, 1); /* the prompt player moves second */
  harness_join(s, p[1].token, id, 0);
}

static void advance_hours(struct harness_server *s, int hours)
{
  harness_advance_clock(s, (long long)hours * 3600000LL);
}

/* The game right after a clock step, which must have reached `seq` (or,
 * with `finished`, be over): the step answers only after the sweep it
 * triggers (game_sweep_now), so there is nothing to wait for. New reference. */
static json_t *reached(struct harness_server *s, const char *id, long seq, bool finished)
{
  json_t *g = harness_get_game(s, NULL, id);

  if (finished ? strcmp(harness_str(g, "status"), "finished") != 0
               : json_integer_value(json_object_get(g, "seq")) < seq) {
    json_decref(g);
    fail_msg("game %s has not reached seq %ld%s right after the clock step", id, seq,
             finished ? " and its end" : "");
  }
  return g;
}

/* Issue "Asynchronous play", 4: "a deadline expires under a test clock and
 * the timeout move is applied and notified". */
static void test_expired_deadline_plays_the_timeout_move(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_response r;
  char id[64];
  json_t *g, *log;

  timed_game(s, "move", p, id);
  g = harness_get_game(s, NULL, id);
  assert_true(json_is_string(json_object_get(g, "deadline")));
  assert_string_equal(harness_str(g, "on_timeout"), "move");
  json_decref(g);

  advance_hours(s, 23); /* not yet */
  g = harness_get_game(s, NULL, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 0);
  json_decref(g);

  advance_hours(s, 2);
  g = reached(s, id, 1, false);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(g, "to_act"), 0)), 1);
  json_decref(g);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/log", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  log = json_object_get(r.json, "events");
  assert_true(json_array_size(log) > 0);
  harness_response_free(&r);
  /* The announcement went out like any move's: a long-poll sees seq 1. */
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/wait?after=0&timeout=1", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_int_equal(json_integer_value(json_object_get(r.json, "seq")), 1);
  harness_response_free(&r);
  harness_expect_verifies(s, id);
}

static void test_expired_deadline_can_adjudicate_the_game(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  char id[64];
  json_t *g, *result;

  timed_game(s, "adjudicate", p, id);
  advance_hours(s, 25);
  g = reached(s, id, 1, true);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 1);
  result = json_object_get(g, "result");
  assert_string_equal(harness_str(result, "reason"), "timeout");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "timed_out"), 0)), 0);
  json_decref(g);
  /* The adjudication is a row of the log, and the log still replays. */
  harness_expect_verifies(s, id);
}

static void test_a_move_in_time_restarts_the_clock(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_response r;
  char id[64];
  json_t *g, *body;

  timed_game(s, "move", p, id);
  advance_hours(s, 20);
  g = harness_get_game(s, p[1].token, id);
  body = json_pack("{s:i, s:O}", "seq", 0, "move", json_array_get(json_object_get(g, "legal"), 0));
  harness_call_json(s, &r, "POST", p[1].token, body, "/v1/games/%s/moves", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  json_decref(g);
  advance_hours(s, 20); /* 40 h since the start, 20 h since the move */
  g = harness_get_game(s, NULL, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 1);
  json_decref(g);
}

/* The server's test-clock time, as RFC 3339 text shifted by `hours`. */
static void clock_plus(struct harness_server *s, int hours, char out[40])
{
  struct harness_response r;
  struct tm tm;
  time_t t;

  harness_call(s, &r, "POST", NULL, "{\"advance_ms\":0}", "/v1/test/clock");
  HARNESS_EXPECT_STATUS(&r, 200);
  memset(&tm, 0, sizeof tm);
  assert_non_null(strptime(harness_str(r.json, "now"), "%Y-%m-%dT%H:%M:%S", &tm));
  harness_response_free(&r);
  t = timegm(&tm) + 1 + (time_t)hours * 3600; /* +1 s: "ahead", whatever the milliseconds */
  gmtime_r(&t, &tm);
  strftime(out, 40, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_int_t bank_of(const json_t *game, int seat)
{
  return json_integer_value(
      json_object_get(json_array_get(json_object_get(game, "clocks"), (size_t)seat), "bank_ms"));
}

/* "a pace of base + increment with a cap": the time a decision takes comes
 * out of the seat's bank, then the increment goes in, up to the cap. */
static void test_pace_clock_keeps_a_bank_per_seat(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_response r;
  const char *body = "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":"
                     "{\"base_hours\":10,\"increment_hours\":2,\"cap_hours\":11}}";
  char id[64];
  json_t *g, *move;

  harness_new_player(s, "swift", &p[0]);
  harness_new_player(s, "slow", &p[1]);
  harness_call(s, &r, "POST", p[0].token, body, "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, sizeof id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  harness_join(s, p[0].token, id, 0);
  harness_join(s, p[1].token, id, 1);
  advance_hours(s, 3); /* seat 0 thinks for 3 h */
  g = harness_get_game(s, p[0].token, id);
  move = json_pack("{s:i, s:O}", "seq", 0, "move", json_array_get(json_object_get(g, "legal"), 0));
  harness_call_json(s, &r, "POST", p[0].token, move, "/v1/games/%s/moves", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(move);
  json_decref(g);
  g = harness_get_game(s, NULL, id);
  /* 10 - 3 + 2 h, less the real milliseconds the requests themselves took
   * (the test clock runs on from the real one). */
  assert_in_range(bank_of(g, 0), 9 * 3600000LL - 5000, 9 * 3600000LL);
  assert_int_equal(bank_of(g, 1), 10 * 3600000LL);
  assert_true(json_is_string(json_object_get(g, "deadline")));
  json_decref(g);
  advance_hours(s, 9); /* seat 1 has 10 h: not yet */
  g = harness_get_game(s, NULL, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 1);
  json_decref(g);
  advance_hours(s, 2);
  g = reached(s, id, 2, false);
  json_decref(g);
}

/* "a vacation bank per player (days per year, spent by the hour, declared
 * ahead) ... Paused clocks while a player is on vacation". */
static void test_a_declared_vacation_pauses_the_clock(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_response r;
  char id[64], start[40], body[128];
  json_t *g;

  timed_game(s, "move", p, id); /* p[1] is in seat 0, to act, 24 h per move */
  clock_plus(s, 1, start);
  snprintf(body, sizeof body, "{\"start\":\"%s\",\"hours\":48}", start);
  harness_call(s, &r, "POST", p[1].token, body, "/v1/players/me/vacation");
  HARNESS_EXPECT_STATUS(&r, 201);
  assert_int_equal(json_integer_value(json_object_get(r.json, "used_hours_this_year")) +
                       json_integer_value(json_object_get(r.json, "left_hours_this_year")),
                   21 * 24);
  harness_response_free(&r);
  advance_hours(s, 30); /* 30 h later, 24 of them not counted */
  g = harness_get_game(s, NULL, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 0);
  json_decref(g);
  advance_hours(s, 44); /* 74 h: 26 h counted */
  g = reached(s, id, 1, false);
  json_decref(g);
}

static void test_vacations_are_declared_ahead_within_the_bank(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  char start[40], body[128];

  harness_new_player(s, "planner", &p);
  clock_plus(s, -48, start);
  snprintf(body, sizeof body, "{\"start\":\"%s\",\"hours\":2}", start);
  harness_call(s, &r, "POST", p.token, body, "/v1/players/me/vacation");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value"); /* in the past */
  harness_response_free(&r);
  clock_plus(s, 2, start);
  snprintf(body, sizeof body, "{\"start\":\"%s\",\"hours\":%d}", start, 21 * 24 + 1);
  harness_call(s, &r, "POST", p.token, body, "/v1/players/me/vacation");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value"); /* more than the bank */
  harness_response_free(&r);
  harness_call(s, &r, "POST", p.token, "{\"start\":\"tomorrow\",\"hours\":2}",
               "/v1/players/me/vacation");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
  harness_call(s, &r, "GET", p.token, NULL, "/v1/players/me/vacation");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_int_equal(json_array_size(json_object_get(r.json, "vacations")), 0);
  harness_response_free(&r);
}

static void test_bad_time_controls_are_refused(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;

  harness_new_player(s, "picky", &p);
  harness_call(s, &r, "POST", p.token,
               "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"move_hours\":0}}",
               "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
  harness_call(s, &r, "POST", p.token,
               "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"days\":1}}", "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 400, "unknown-field");
  harness_response_free(&r);
  harness_call(s, &r, "POST", p.token, "{\"title\":\"himalaya\",\"seats\":2,\"on_timeout\":\"x\"}",
               "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_expired_deadline_plays_the_timeout_move, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_expired_deadline_can_adjudicate_the_game, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_a_move_in_time_restarts_the_clock, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pace_clock_keeps_a_bank_per_seat, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_declared_vacation_pauses_the_clock, setup, teardown),
      cmocka_unit_test_setup_teardown(test_vacations_are_declared_ahead_within_the_bank, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_bad_time_controls_are_refused, setup, teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/deadlines", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
