/*
 * test_replace.c - a late seat handed to a bot when the other people agree
 * (issue 25, game/replace.c), against the real server under the test
 * clock: under on_timeout "wait" a seat past its deadline waits; the votes
 * (POST /v1/games/{id}/replace) are log rows, refused without a change
 * when they cannot be; the last one hands the seat to a bot, which then
 * moves; the rows replay, verify, export and survive a restart; racing
 * votes commit once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/order.h"
#include "harness.h"

#define HOUR_MS 3600000LL

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

struct table {
  struct harness_player p[3];
  int n;
  char id[64];
};

/* A Himalaya game of n seats with 24 hours a move and `on_timeout`, seat i
 * held by p[i]; seat 0 owes the first move. */
static void timed_table(struct harness_server *s, struct table *t, int n, const char *on_timeout)
{
  static const char *const names[] = {"late", "east", "south"};
  struct harness_response r;
  char body[200];
  int i;

  t->n = n;
  for (i = 0; i < n; i++)
    harness_new_player(s, names[i], &t->p[i]);
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":%d,\"time_control\":{\"move_hours\":24},"
           "\"on_timeout\":\"%s\"}",
           n, on_timeout);
  harness_call(s, &r, "POST", t->p[0].token, body, "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(t->id, sizeof t->id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  for (i = 0; i < n; i++)
    harness_join(s, t->p[i].token, t->id, i);
}

static long game_seq(struct harness_server *s, const char *id)
{
  json_t *g = harness_get_game(s, NULL, id);
  long seq = harness_int(g, "seq");

  json_decref(g);
  return seq;
}

/* The number of log rows (the export's moves). */
static size_t log_rows(struct harness_server *s, const char *id)
{
  json_t *doc = harness_get_json(s, NULL, "/v1/games/%s/export", id);
  size_t n = json_array_size(json_object_get(doc, "moves"));

  json_decref(doc);
  return n;
}

/* POST …/replace {seq (the current one), seat, level?} as `token`. */
static void post_vote(struct harness_server *s, const char *token, const char *id, int seat,
                      const char *level, struct harness_response *r)
{
  json_t *body = json_pack("{s:I, s:i}", "seq", (json_int_t)game_seq(s, id), "seat", seat);

  if (level)
    json_object_set_new(body, "level", json_string(level));
  harness_call_json(s, r, "POST", token, body, "/v1/games/%s/replace", id);
  json_decref(body);
}

/* A vote refused with `status` and `code`, and nothing stored. */
static void expect_refused(struct harness_server *s, const char *token, const char *id, int seat,
                           const char *level, long status, const char *code)
{
  struct harness_response r;
  size_t rows = log_rows(s, id);

  post_vote(s, token, id, seat, level, &r);
  HARNESS_EXPECT_PROBLEM(&r, status, code);
  harness_response_free(&r);
  assert_int_equal(log_rows(s, id), rows);
}

/* The player of `seat` as the game shows it: its id into out. */
static void seat_player(struct harness_server *s, const char *id, int seat, char out[64])
{
  json_t *g = harness_get_game(s, NULL, id);
  json_t *player =
      json_object_get(json_array_get(json_object_get(g, "seats"), (size_t)seat), "player");

  snprintf(out, 64, "%s", harness_str(player, "id"));
  json_decref(g);
}

struct moved {
  struct harness_server *s;
  const char *id;
  long seq;
};

static bool moved_on(void *arg)
{
  struct moved *m = arg;

  return game_seq(m->s, m->id) > m->seq;
}

/* The platform rows of `kind` in the export, each checked to be seat `seat`'s. */
static int platform_rows(struct harness_server *s, const char *id, const char *kind, int seat)
{
  json_t *doc = harness_get_json(s, NULL, "/v1/games/%s/export", id);
  json_t *e;
  size_t i;
  int n = 0;

  json_array_foreach(json_object_get(doc, "moves"), i, e)
  {
    const char *platform = json_string_value(json_object_get(json_object_get(e, "move"), "cairn"));

    if (platform && strcmp(platform, kind) == 0) {
      assert_int_equal(harness_int(e, "seat"), seat);
      n++;
    }
  }
  json_decref(doc);
  return n;
}

/* Every position replays, the record verifies online (a full replay from
 * the seed) and its export offline (`cairn verify`). */
static void expect_whole(struct harness_server *s, const char *id)
{
  struct harness_response r;
  char path[400], args[480];
  json_t *doc, *report = NULL;
  long seq = game_seq(s, id), n;

  harness_expect_verifies(s, id);
  for (n = 0; n <= seq; n++) {
    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s?at=%ld", id, n);
    HARNESS_EXPECT_STATUS(&r, 200);
    harness_response_free(&r);
  }
  doc = harness_get_json(s, NULL, "/v1/games/%s/export", id);
  snprintf(path, sizeof path, "%s/replaced.json", s->dir);
  assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
  snprintf(args, sizeof args, "verify %s", path);
  assert_int_equal(harness_run_tool(args, &report), 0);
  assert_true(json_is_true(json_object_get(report, "ok")));
  json_decref(report);
  json_decref(doc);
}

/* Whether the public log (a spectator's) holds an event of `type` for seat `seat`. */
static bool logged(struct harness_server *s, const char *id, const char *type, int seat)
{
  json_t *log = harness_get_log(s, NULL, id, 0);
  json_t *e;
  size_t i;
  bool found = false;

  json_array_foreach(json_object_get(log, "events"), i, e)
  {
    const json_t *ev = json_object_get(e, "event");

    found =
        found || (strcmp(harness_str(ev, "type"), type) == 0 && harness_int(ev, "seat") == seat);
  }
  json_decref(log);
  return found;
}

/* Rated games `player` played, all titles. */
static long rated_games(struct harness_server *s, const char *player)
{
  json_t *profile = harness_get_json(s, NULL, "/v1/players/%s", player);
  json_t *r;
  size_t i;
  long games = 0;

  json_array_foreach(json_object_get(profile, "ratings"), i, r)
  {
    games += harness_int(r, "games");
  }
  json_decref(profile);
  return games;
}

/* Himalaya, three seats: seat 0 lets its deadline pass under "wait"; the
 * two others vote; the second vote hands the seat to an easy bot, which
 * moves off the request path; every refusal on the way changes nothing. */
static void test_two_people_replace_the_late_third_by_a_bot(void **state)
{
  struct harness_server *s = *state;
  struct harness_player stranger;
  struct harness_response r;
  struct table t;
  char before[64], after[64];
  json_t *g, *g_after;

  timed_table(s, &t, 3, "wait");
  harness_new_player(s, "stranger", &stranger);
  expect_refused(s, t.p[1].token, t.id, 0, NULL, 409, "no-replace"); /* not out of time yet */
  harness_advance_clock(s, 25 * HOUR_MS);
  assert_int_equal(game_seq(s, t.id), 0); /* "wait": the sweeper left it */
  assert_int_equal(log_rows(s, t.id), 0);

  expect_refused(s, t.p[0].token, t.id, 0, NULL, 409, "no-replace");   /* its own seat */
  expect_refused(s, stranger.token, t.id, 0, NULL, 403, "not-seated"); /* no seat here */
  expect_refused(s, NULL, t.id, 0, NULL, 401, "missing-token");        /* a spectator */
  expect_refused(s, t.p[1].token, t.id, 3, NULL, 400, "bad-value");    /* no such seat */
  expect_refused(s, t.p[1].token, t.id, 2, NULL, 409, "no-replace");   /* seat 2 is not late */
  expect_refused(s, t.p[1].token, t.id, 0, "hard", 400, "bad-value");  /* no such level */

  post_vote(s, t.p[1].token, t.id, 0, "easy", &r);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_true(harness_has_event(r.json, "replace_voted"));
  assert_int_equal(harness_int(r.json, "seq"), 0); /* a vote is no step */
  harness_response_free(&r);
  expect_refused(s, t.p[1].token, t.id, 0, NULL, 409, "no-replace");     /* twice */
  expect_refused(s, t.p[2].token, t.id, 0, "strong", 409, "no-replace"); /* another level */
  seat_player(s, t.id, 0, before);
  assert_string_equal(before, t.p[0].id);

  post_vote(s, t.p[2].token, t.id, 0, NULL, &r);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_true(harness_has_event(r.json, "seat_replaced"));
  assert_int_equal(harness_int(r.json, "seq"), 1);
  harness_response_free(&r);
  seat_player(s, t.id, 0, after);
  assert_int_equal(strncmp(after, "bot-easy-", 9), 0);
  assert_int_equal(platform_rows(s, t.id, "replace-vote", 1), 1);
  assert_int_equal(platform_rows(s, t.id, "replace", 0), 1);
  assert_true(logged(s, t.id, "replace_voted", 1)); /* public, as every platform row */
  assert_true(logged(s, t.id, "seat_replaced", 0));

  /* The easy bot thinks on the pool, off the request path: its move lands
   * on its own time. */
  assert_true(harness_wait_until(moved_on, &(struct moved){s, t.id, 1}, 20000));
  expect_refused(s, t.p[1].token, t.id, 0, NULL, 409, "no-replace"); /* a bot's now */

  /* Its person sits there no more; the log says why. */
  g = harness_get_game(s, t.p[0].token, t.id);
  assert_true(json_is_null(json_object_get(g, "your_seat")));
  json_decref(g);
  expect_whole(s, t.id);
  g = harness_get_game(s, t.p[1].token, t.id);
  harness_restart(s);
  g_after = harness_get_game(s, t.p[1].token, t.id);
  assert_true(json_equal(g, g_after));
  json_decref(g);
  json_decref(g_after);
  seat_player(s, t.id, 0, before);
  assert_string_equal(before, after);
}

/* Under "move" the sweeper plays for the late seat at once, so it is never
 * out of time when asked: nothing to replace. */
static void test_no_replacement_under_on_timeout_move(void **state)
{
  struct harness_server *s = *state;
  struct table t;

  timed_table(s, &t, 2, "move");
  harness_advance_clock(s, 25 * HOUR_MS);
  assert_int_equal(game_seq(s, t.id), 1); /* the sweeper moved for seat 0 */
  expect_refused(s, t.p[1].token, t.id, 0, NULL, 409, "no-replace");
}

/* The seat that owes the first decision in `id` plays its first legal move. */
static int play_first_legal(struct harness_server *s, const struct table *t)
{
  json_t *g = harness_get_game(s, NULL, t->id);
  int seat = (int)json_integer_value(json_array_get(json_object_get(g, "to_act"), 0));
  struct harness_response r;
  json_t *mine, *move;

  json_decref(g);
  mine = harness_get_game(s, t->p[seat].token, t->id);
  move = json_incref(json_array_get(json_object_get(mine, "legal"), 0));
  harness_post_move(s, &r, t->p[seat].token, t->id, harness_int(mine, "seq"), move);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  json_decref(move);
  json_decref(mine);
  return seat;
}

/* Play (in time) until seat 0 owes a decision again after another seat moved. */
static void on_to_next_turn_of_seat_0(struct harness_server *s, const struct table *t)
{
  bool others_moved = false, owes = false;
  int moves;

  for (moves = 0; moves < 200 && !(others_moved && owes); moves++) {
    json_t *g;

    others_moved = play_first_legal(s, t) != 0 || others_moved;
    g = harness_get_game(s, NULL, t->id);
    owes = harness_may_act(g, 0);
    json_decref(g);
  }
  assert_true(others_moved && owes);
}

/* Under "wait" a late seat may still move while a vote stands; its move
 * cancels the votes before it, so when it is late again the vote starts
 * over: the other voter's vote alone replaces nobody. */
static void test_a_late_seat_may_still_move_and_cancels_the_votes(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  struct harness_response r;

  timed_table(s, &t, 3, "wait");
  harness_advance_clock(s, 25 * HOUR_MS);
  post_vote(s, t.p[1].token, t.id, 0, NULL, &r);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  assert_int_equal(play_first_legal(s, &t), 0); /* late, but in before the others agreed */
  expect_refused(s, t.p[2].token, t.id, 0, NULL, 409, "no-replace"); /* not late now */
  on_to_next_turn_of_seat_0(s, &t);
  harness_advance_clock(s, 25 * HOUR_MS);
  post_vote(s, t.p[2].token, t.id, 0, NULL, &r);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_true(harness_has_event(r.json, "replace_voted")); /* seat 1's old vote counts no more */
  assert_false(harness_has_event(r.json, "seat_replaced"));
  harness_response_free(&r);
}

/* Two seats: the one other person's vote is the replacement. Sent twice at
 * once, it commits once; the other answer is a refusal. */
struct racer {
  struct harness_client client;
  pthread_barrier_t *start;
  const char *token;
  char path[128];
  char body[128];
  struct harness_response r;
};

static void *race(void *arg)
{
  struct racer *x = arg;
  struct harness_request req = {.method = "POST",
                                .path = x->path,
                                .token = x->token,
                                .body = x->body,
                                .body_len = strlen(x->body)};

  pthread_barrier_wait(x->start);
  harness_send(&x->client, &req, &x->r);
  return NULL;
}

/* The person left resigns the duel: it ends, won by the bot's seat. */
static void post_resign_duel(struct harness_server *s, const char *token, const char *id)
{
  struct harness_response r;
  json_t *body = json_pack("{s:I}", "seq", (json_int_t)game_seq(s, id));
  json_t *g;

  harness_call_json(s, &r, "POST", token, body, "/v1/games/%s/resign", id);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  g = harness_get_game(s, NULL, id);
  assert_string_equal(harness_str(g, "status"), "finished");
  assert_int_equal(json_integer_value(
                       json_array_get(json_object_get(json_object_get(g, "result"), "winners"), 0)),
                   0);
  json_decref(g);
}

static void test_racing_votes_in_a_duel_replace_once(void **state)
{
  struct harness_server *s = *state;
  struct racer x[2];
  pthread_t th[2];
  pthread_barrier_t start;
  struct table t;
  char player[64];
  int i, ok = 0;

  timed_table(s, &t, 2, "wait");
  harness_advance_clock(s, 25 * HOUR_MS);
  pthread_barrier_init(&start, NULL, 2);
  for (i = 0; i < 2; i++) {
    memset(&x[i], 0, sizeof x[i]);
    harness_client_init(&x[i].client, s);
    x[i].start = &start;
    x[i].token = t.p[1].token;
    snprintf(x[i].path, sizeof x[i].path, "/v1/games/%s/replace", t.id);
    snprintf(x[i].body, sizeof x[i].body, "{\"seq\":0,\"seat\":0,\"level\":\"random\"}");
    pthread_create(&th[i], NULL, race, &x[i]);
  }
  for (i = 0; i < 2; i++) {
    pthread_join(th[i], NULL);
    if (x[i].r.status == 200)
      ok++;
    else
      assert_int_equal(x[i].r.status, 409); /* no-replace, or stale-seq */
    harness_response_free(&x[i].r);
    harness_client_cleanup(&x[i].client);
  }
  pthread_barrier_destroy(&start);
  assert_int_equal(ok, 1);
  assert_int_equal(platform_rows(s, t.id, "replace", 0), 1);
  assert_int_equal(platform_rows(s, t.id, "replace-vote", 1), 0);
  seat_player(s, t.id, 0, player);
  assert_int_equal(strncmp(player, "bot-", 4), 0);
  /* The random bot answers inline, in the replacement's own follow-up. */
  assert_true(game_seq(s, t.id) >= 2);
  expect_whole(s, t.id);

  /* A game with a replaced seat holds a bot: its end rates nobody. */
  post_resign_duel(s, t.p[1].token, t.id);
  assert_int_equal(rated_games(s, t.p[1].id), 0);
  assert_int_equal(rated_games(s, t.p[0].id), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_two_people_replace_the_late_third_by_a_bot, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_no_replacement_under_on_timeout_move, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_late_seat_may_still_move_and_cancels_the_votes, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_racing_votes_in_a_duel_replace_once, setup, teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/replace", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
