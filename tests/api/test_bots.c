/*
 * test_bots.c - built-in bot seats (api/bots.c): one person plays a whole
 * game against bots; a bot that moves first does so as soon as the game
 * starts; bad bot lists are refused; bots never hold up a takeback.
 * Levels (issue 26): a strong bot thinks on the pool, so the answer to
 * the move that handed it the turn does not wait for it; it then plays,
 * also after a restart; bad levels are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/order.h"
#include "harness.h"

static json_t *create_with_bots(struct harness_server *s, const char *token, int seats,
                                const char *bots, struct harness_response *r)
{
  char body[256];

  snprintf(body, sizeof body, "{\"title\":\"himalaya\",\"seats\":%d,\"bots\":%s}", seats, bots);
  harness_call(s, r, "POST", token, body, "/v1/games");
  return r->json;
}

/* A game of `seats` with `bots` is refused: 400 `code`, its detail
 * naming `in_detail` (NULL: not looked at). */
static void expect_refused(struct harness_server *s, const char *token, int seats, const char *bots,
                           const char *code, const char *in_detail)
{
  struct harness_response r;

  create_with_bots(s, token, seats, bots, &r);
  HARNESS_EXPECT_PROBLEM(&r, 400, code);
  if (in_detail)
    assert_non_null(strstr(harness_str(r.json, "detail"), in_detail));
  harness_response_free(&r);
}

/* A new player `name` (*me) creates a Himalaya game of `seats` seats with
 * `bots`; its id in id[64]. New reference: the game as created. */
static json_t *new_game_with_bots(struct harness_server *s, const char *name,
                                  struct harness_player *me, int seats, const char *bots,
                                  char id[64])
{
  struct harness_response r;
  json_t *game;

  harness_new_player(s, name, me);
  create_with_bots(s, me->token, seats, bots, &r);
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, 64, "%s", harness_game_id(r.json));
  game = json_incref(r.json);
  harness_response_free(&r);
  return game;
}

/* Issue "Asynchronous play", 5: "a human versus three bots plays a whole
 * Himalaya game". */
static void test_one_person_plays_a_whole_game_against_three_bots(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct harness_response r;
  char id[64];
  int moves;
  json_t *created = new_game_with_bots(s, "soloist", &me, 4, "[1,2,3]", id);

  assert_string_equal(
      harness_str(json_object_get(json_array_get(json_object_get(created, "seats"), 1), "player"),
                  "name"),
      "Random bot");
  json_decref(created);
  assert_int_equal(harness_join(s, me.token, id, 0), 0);
  for (moves = 0; moves < 1000; moves++) {
    json_t *g = harness_get_game(s, me.token, id);
    json_t *body;

    if (strcmp(harness_str(g, "status"), "finished") == 0) {
      assert_non_null(json_object_get(g, "result"));
      json_decref(g);
      return;
    }
    /* Whenever the server answers, the bots have played: it is our turn. */
    assert_int_equal(json_array_size(json_object_get(g, "to_act")), 1);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(g, "to_act"), 0)), 0);
    body = json_pack("{s:O, s:O}", "seq", json_object_get(g, "seq"), "move",
                     json_array_get(json_object_get(g, "legal"), 0));
    harness_call_json(s, &r, "POST", me.token, body, "/v1/games/%s/moves", id);
    HARNESS_EXPECT_STATUS(&r, 200);
    harness_response_free(&r);
    json_decref(body);
    json_decref(g);
  }
  fail_msg("the game did not finish");
}

/* A two-seat game whose bot (seat 0) moves first, joined by a new player
 * `name` (*me) in seat 1; its id in id[64]. */
static void join_a_bot_moving_first(struct harness_server *s, const char *name,
                                    struct harness_player *me, char id[64])
{
  json_decref(new_game_with_bots(s, name, me, 2, "[0]", id));
  assert_int_equal(harness_join(s, me->token, id, -1), 1);
}

static void test_bot_moving_first_plays_as_soon_as_the_game_starts(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  char id[64];
  json_t *g;

  join_a_bot_moving_first(s, "second", &me, id);
  g = harness_get_game(s, me.token, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(g, "to_act"), 0)), 1);
  json_decref(g);
}

static void test_bot_lists_that_leave_no_person_or_repeat_a_seat_are_refused(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;

  harness_new_player(s, "picky", &me);
  expect_refused(s, me.token, 2, "[0,1]", "bad-value", NULL);
  expect_refused(s, me.token, 3, "[1,1]", "bad-value", NULL);
  expect_refused(s, me.token, 3, "[7]", "bad-value", NULL);
  expect_refused(s, me.token, 3, "1", "wrong-type", NULL);
}

/* api/README.md "Takebacks": a request that only bots would answer rewinds
 * at once (a bot would never answer it, leaving it open until someone moved). */
static void test_a_takeback_against_a_bot_rewinds_at_once(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct harness_response r;
  json_t *before, *g, *body;
  char id[64];

  json_decref(new_game_with_bots(s, "undoer", &me, 2, "[1]", id));
  assert_int_equal(harness_join(s, me.token, id, 0), 0);

  before = harness_get_game(s, me.token, id);
  body = json_pack("{s:O, s:O}", "seq", json_object_get(before, "seq"), "move",
                   json_array_get(json_object_get(before, "legal"), 0));
  harness_call_json(s, &r, "POST", me.token, body, "/v1/games/%s/moves", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);

  /* The bot has answered: my move is no longer the last row. */
  g = harness_get_game(s, me.token, id);
  assert_int_equal(harness_int(g, "moves"), 2);
  body = json_pack("{s:O}", "seq", json_object_get(g, "seq"));
  harness_call_json(s, &r, "POST", me.token, body, "/v1/games/%s/takeback", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_has_event(r.json, "taken_back"));
  assert_false(harness_has_event(r.json, "takeback_requested"));
  harness_response_free(&r);
  json_decref(body);
  json_decref(g);

  g = harness_get_game(s, me.token, id);
  assert_true(json_equal(json_object_get(before, "view"), json_object_get(g, "view")));
  assert_true(harness_may_act(g, 0));
  json_decref(g);
  json_decref(before);

  harness_expect_verifies(s, id);
}

/* A server whose bots owe their moves but do not play them (the state a
 * crash between a join and the bot's reply leaves behind). */
static int setup_holding_bots(void **state)
{
  setenv("CAIRN_TEST_HOLD_BOTS", "1", 1);
  return harness_setup(state);
}

struct game_seq {
  struct harness_server *server;
  const char *token, *id;
};

static bool bot_has_moved(void *arg)
{
  struct game_seq *w = arg;
  json_t *g = harness_get_game(w->server, w->token, w->id);
  bool moved = json_integer_value(json_object_get(g, "seq")) >= 1;

  json_decref(g);
  return moved;
}

/* Issue "One way to change a game": a crash cannot leave "an open game
 * without its bots". A join and the bot's reply are two commits; when the
 * server dies between them, the restarted server plays the bot's move. */
static void test_a_bot_owing_a_move_at_a_crash_plays_after_the_restart(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct game_seq wait = {s, NULL, NULL};
  char id[64];
  json_t *g;

  join_a_bot_moving_first(s, "patient", &me, id);
  g = harness_get_game(s, me.token, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")),
                   0); /* the bot owes seat 0's move */
  assert_int_equal(json_integer_value(json_array_get(json_object_get(g, "to_act"), 0)), 0);
  json_decref(g);

  harness_kill(s);
  unsetenv("CAIRN_TEST_HOLD_BOTS");
  harness_resume(s);
  wait.token = me.token;
  wait.id = id;
  /* The restarted server's sweeper thread plays the owed move on its own
   * time, with no request to wait on. */
  assert_true(harness_wait_until(bot_has_moved, &wait, 10000));
  g = harness_get_game(s, me.token, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 1);
  assert_true(harness_may_act(g, 1));
  json_decref(g);
  harness_expect_verifies(s, id);
}

struct game_turn_wait {
  struct harness_server *server;
  const char *token, *id;
  int seat;
};

/* True once `seat` may act in the game (or the game is over). */
static bool seat_may_act(void *arg)
{
  struct game_turn_wait *w = arg;
  json_t *g = harness_get_game(w->server, w->token, w->id);
  bool ready = harness_may_act(g, w->seat) || strcmp(harness_str(g, "status"), "finished") == 0;

  json_decref(g);
  return ready;
}

/* A strong bot's seat is named for its level, and its move is not in the
 * answer that handed it the turn: it follows, played by the pool. */
/* A person (`me`) against a strong bot in a new two-seat game (its id into
 * id[64]): up to `moves` of the person's moves, each answered before the
 * bot's reply, which comes off the request path. */
static void play_against_a_strong_bot(struct harness_server *s, struct harness_player *me,
                                      int moves, char id[64])
{
  struct harness_response r;
  struct game_turn_wait wait = {s, NULL, NULL, 0};
  json_t *seat1, *g, *body;
  int made;

  create_with_bots(s, me->token, 2, "[{\"seat\":1,\"level\":\"strong\"}]", &r);
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, 64, "%s", harness_game_id(r.json));
  seat1 = json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "player");
  assert_string_equal(harness_str(seat1, "name"), "Strong bot");
  assert_int_equal(strncmp(harness_str(seat1, "id"), "bot-strong-", 11), 0);
  harness_response_free(&r);
  assert_int_equal(harness_join(s, me->token, id, 0), 0);
  wait.token = me->token;
  wait.id = id;
  for (made = 0; made < moves; made++) {
    g = harness_get_game(s, me->token, id);
    if (strcmp(harness_str(g, "status"), "finished") == 0) {
      json_decref(g);
      break;
    }
    body = json_pack("{s:O, s:O}", "seq", json_object_get(g, "seq"), "move",
                     json_array_get(json_object_get(g, "legal"), 0));
    harness_call_json(s, &r, "POST", me->token, body, "/v1/games/%s/moves", id);
    HARNESS_EXPECT_STATUS(&r, 200);
    /* The answer is built under the game's lock, which the worker needs
     * to commit: it never shows the strong bot's reply. */
    if (strcmp(harness_str(json_object_get(r.json, "game"), "status"), "active") == 0)
      assert_true(harness_may_act(json_object_get(r.json, "game"), 1));
    harness_response_free(&r);
    json_decref(body);
    json_decref(g);
    assert_true(harness_wait_until(seat_may_act, &wait, 60000));
  }
}

static void test_a_strong_bot_thinks_off_the_request_path(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  json_t *g;
  char id[64];

  harness_new_player(s, "challenger", &me);
  play_against_a_strong_bot(s, &me, 3, id);
  g = harness_get_game(s, me.token, id);
  assert_true(harness_int(g, "moves") >= 2); /* the person's and the bot's, at least */
  json_decref(g);
  harness_expect_verifies(s, id);
}

/* A server started with CAIRN_BOT_THREADS=3 (the --bot-threads flag's
 * variable): the child inherits it, the tests that follow do not. */
static int setup_three_bot_threads(void **state)
{
  int rc;

  setenv("CAIRN_BOT_THREADS", "3", 1);
  rc = harness_setup(state);
  unsetenv("CAIRN_BOT_THREADS");
  return rc;
}

struct metric_wait {
  struct harness_server *server;
  const char *key;
  double least;
};

/* Whether the metric has reached its least value: a worker counts a
 * decision just after committing it, so the scrape may be a moment behind
 * the game. */
static bool metric_reached(void *arg)
{
  struct metric_wait *w = arg;

  return harness_metric(w->server, w->key) >= w->least;
}

static void test_metrics_show_the_bot_pool_its_size_and_its_work(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct metric_wait decided = {s, "cairn_bot_decisions_total{kind=\"move\"}", 0};
  json_t *g;
  char id[64];
  int bot_moves;

  assert_true(harness_metric(s, "cairn_bot_threads") == 3);
  assert_true(harness_metric(s, "cairn_bot_queue_length") == 0);
  assert_true(harness_metric(s, "cairn_bot_decisions_total{kind=\"move\"}") == 0);
  assert_true(harness_metric(s, "cairn_bot_thinking_seconds_total") == 0);
  harness_new_player(s, "challenger", &me);
  play_against_a_strong_bot(s, &me, 2, id);
  g = harness_get_game(s, me.token, id);
  bot_moves = (int)harness_int(g, "moves") - 2; /* the person made two */
  json_decref(g);
  assert_true(bot_moves >= 1);
  /* Every bot move is one decision a worker made; a decision it had to
   * drop (the game moved on) counts too, so at least as many. */
  decided.least = bot_moves;
  assert_true(harness_wait_until(metric_reached, &decided, 10000));
  assert_true(harness_metric(s, "cairn_bot_thinking_seconds_total") > 0);
  assert_true(harness_metric(s, "cairn_bot_decisions_total{kind=\"hint\"}") == 0);
}

static void test_bot_levels_that_do_not_exist_are_refused(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;

  harness_new_player(s, "leveller", &me);
  expect_refused(s, me.token, 2, "[{\"seat\":1,\"level\":\"godlike\"}]", "bad-value", "level");
  expect_refused(s, me.token, 2, "[{\"seat\":1,\"colour\":\"red\"}]", "unknown-field", NULL);
  expect_refused(s, me.token, 2, "[{\"level\":\"easy\"}]", "bad-value", NULL);
  expect_refused(s, me.token, 3, "[1,{\"seat\":1,\"level\":\"easy\"}]", "bad-value", NULL);
}

/* A strong bot owing the first move when the server stopped plays it
 * after the restart (game_bots_resume hands it to the pool). */
static void test_a_strong_bot_owing_a_move_at_a_crash_plays_after_the_restart(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct game_seq wait = {s, NULL, NULL};
  char id[64];
  json_t *g;

  json_decref(new_game_with_bots(s, "patient2", &me, 2, "[{\"seat\":0,\"level\":\"strong\"}]", id));
  assert_int_equal(harness_join(s, me.token, id, -1), 1);
  g = harness_get_game(s, me.token, id);
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), 0);
  json_decref(g);

  harness_kill(s);
  unsetenv("CAIRN_TEST_HOLD_BOTS");
  harness_resume(s);
  wait.token = me.token;
  wait.id = id;
  assert_true(harness_wait_until(bot_has_moved, &wait, 60000));
  g = harness_get_game(s, me.token, id);
  assert_true(harness_may_act(g, 1));
  json_decref(g);
  harness_expect_verifies(s, id);
}

/* GET /v1/games/{id}/hint: against bots, the strong bot's suggestion for
 * the caller's seat, the same when asked again, and a move the game takes. */
struct hint_ask {
  struct harness_server *server;
  const char *token, *id;
};

/* True once the hint is worked out (200). */
static bool hint_ready(void *arg)
{
  struct hint_ask *a = arg;
  struct harness_response r;
  bool ready;

  harness_call(a->server, &r, "GET", a->token, NULL, "/v1/games/%s/hint", a->id);
  ready = r.status == 200;
  harness_response_free(&r);
  return ready;
}

static void test_a_hint_against_bots_is_a_move_the_game_takes(void **state)
{
  struct harness_server *s = *state;
  struct hint_ask ask;
  struct harness_player me, other;
  struct harness_response r, again;
  json_t *body;
  char id[64];

  json_decref(new_game_with_bots(s, "hinted", &me, 2, "[1]", id));
  harness_new_player(s, "onlooker", &other);
  assert_int_equal(harness_join(s, me.token, id, 0), 0);

  /* The first ask starts the search on the pool: 202 until it is done. */
  harness_call(s, &r, "GET", me.token, NULL, "/v1/games/%s/hint", id);
  HARNESS_EXPECT_STATUS(&r, 202);
  assert_string_equal(harness_str(r.json, "status"), "thinking");
  harness_response_free(&r);
  ask.server = s;
  ask.token = me.token;
  ask.id = id;
  assert_true(harness_wait_every(hint_ready, &ask, 120000, 200));
  harness_call(s, &r, "GET", me.token, NULL, "/v1/games/%s/hint", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_string_equal(harness_str(r.json, "level"), "strong");
  assert_int_equal(harness_int(r.json, "seat"), 0);
  assert_true(json_is_object(json_object_get(r.json, "move")));
  harness_call(s, &again, "GET", me.token, NULL, "/v1/games/%s/hint", id);
  HARNESS_EXPECT_STATUS(&again, 200);
  assert_true(json_equal(json_object_get(r.json, "move"), json_object_get(again.json, "move")));
  harness_response_free(&again);

  harness_call(s, &again, "GET", other.token, NULL, "/v1/games/%s/hint", id);
  HARNESS_EXPECT_PROBLEM(&again, 403, "not-seated");
  harness_response_free(&again);

  body = json_pack("{s:O, s:O}", "seq", json_object_get(r.json, "seq"), "move",
                   json_object_get(r.json, "move"));
  harness_response_free(&r);
  harness_call_json(s, &r, "POST", me.token, body, "/v1/games/%s/moves", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  harness_expect_verifies(s, id);
}

/* A game between two people has no hints: 409 no-hint, for either seat. */
static void test_a_game_between_people_gives_no_hint(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b;
  struct harness_response r;
  json_t *g;
  char id[64];

  harness_new_player(s, "alice", &a);
  harness_new_player(s, "bob", &b);
  g = harness_new_game(s, a.token, "himalaya", 2, NULL);
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  assert_int_equal(harness_join(s, a.token, id, 0), 0);
  assert_int_equal(harness_join(s, b.token, id, 1), 1);
  harness_call(s, &r, "GET", a.token, NULL, "/v1/games/%s/hint", id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-hint");
  assert_non_null(strstr(harness_str(r.json, "detail"), "exactly one person"));
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_person_plays_a_whole_game_against_three_bots),
      cmocka_unit_test(test_bot_moving_first_plays_as_soon_as_the_game_starts),
      cmocka_unit_test(test_bot_lists_that_leave_no_person_or_repeat_a_seat_are_refused),
      cmocka_unit_test(test_a_takeback_against_a_bot_rewinds_at_once),
      cmocka_unit_test_setup_teardown(test_a_bot_owing_a_move_at_a_crash_plays_after_the_restart,
                                      setup_holding_bots, harness_teardown),
      cmocka_unit_test(test_a_strong_bot_thinks_off_the_request_path),
      cmocka_unit_test(test_bot_levels_that_do_not_exist_are_refused),
      cmocka_unit_test(test_a_hint_against_bots_is_a_move_the_game_takes),
      cmocka_unit_test(test_a_game_between_people_gives_no_hint),
      cmocka_unit_test_setup_teardown(
          test_a_strong_bot_owing_a_move_at_a_crash_plays_after_the_restart, setup_holding_bots,
          harness_teardown),
      cmocka_unit_test_setup_teardown(test_metrics_show_the_bot_pool_its_size_and_its_work,
                                      setup_three_bot_threads, harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/bots", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return rc;
}
