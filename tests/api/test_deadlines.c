/*
 * test_deadlines.c - time controls under the test clock (api/sweeper.c):
 * a deadline is shown; when it passes, the absent seat's timeout move is
 * played (or the game is adjudicated) and announced; a move in time
 * restarts the clock. No test sleeps for the deadline itself: the server's
 * clock is moved with POST /v1/test/clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  struct harness_response r;
  char body[64];

  snprintf(body, sizeof body, "{\"advance_ms\":%lld}", (long long)hours * 3600000LL);
  harness_call(s, &r, "POST", NULL, body, "/v1/test/clock");
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
}

/* Poll (bounded) until the game's seq reaches `seq`. */
static json_t *wait_for_seq(struct harness_server *s, const char *id, long seq)
{
  int tries;

  for (tries = 0; tries < 100; tries++) {
    json_t *g = harness_get_game(s, NULL, id);

    if (json_integer_value(json_object_get(g, "seq")) >= seq ||
        strcmp(harness_str(g, "status"), "finished") == 0)
      return g;
    json_decref(g);
    usleep(50 * 1000);
  }
  fail_msg("game %s never reached seq %ld", id, seq);
  return NULL;
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
  usleep(400 * 1000);
  g = harness_get_game(s, NULL, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 0);
  json_decref(g);

  advance_hours(s, 2);
  g = wait_for_seq(s, id, 1);
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
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/verify", id);
  assert_true(json_is_true(json_object_get(json_object_get(r.json, "replay"), "ok")));
  harness_response_free(&r);
}

static void test_expired_deadline_can_adjudicate_the_game(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_response r;
  char id[64];
  json_t *g, *result;

  timed_game(s, "adjudicate", p, id);
  advance_hours(s, 25);
  g = wait_for_seq(s, id, 1);
  assert_string_equal(harness_str(g, "status"), "finished");
  result = json_object_get(g, "result");
  assert_string_equal(harness_str(result, "reason"), "timeout");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "timed_out"), 0)), 0);
  json_decref(g);
  /* The adjudication is a row of the log, and the log still replays. */
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/verify", id);
  assert_true(json_is_true(json_object_get(json_object_get(r.json, "replay"), "ok")));
  harness_response_free(&r);
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
  usleep(400 * 1000);
  g = harness_get_game(s, NULL, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 1);
  json_decref(g);
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
      cmocka_unit_test_setup_teardown(test_bad_time_controls_are_refused, setup, teardown),
  };

  harness_global_init();
  int rc = cmocka_run_group_tests_name("api/deadlines", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
