/*
 * test_resign.c - resignation through the real server (api/seat_changes.c,
 * game/resign.c): POST /v1/games/{id}/resign {seq}. One or two seats: the
 * game ends, won by the seats that did not resign; more seats: the server's
 * bot plays the resigned seat, until no person is left unresigned. The row
 * is a platform row: it replays, verifies (online and offline), exports,
 * shows in everyone's log, is never taken back nor lets a takeback reach
 * past it, fires the webhooks a move fires, and a restart replays to the
 * game the live cache held.
 *
 * Abandoning (issue 25, game/replace.c), under the test clock: under
 * on_timeout "wait" a seat past its deadline waits; the votes to hand it
 * to a bot (POST /v1/games/{id}/replace) are log rows, refused without a
 * change when they cannot be; the last one hands the seat to a bot, which
 * then moves; the rows replay, verify, export and survive a restart;
 * racing votes commit once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>

#include "tests/order.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "racer.h"

#define HOUR_MS 3600000LL

struct table {
  struct harness_player p[3];
  int n;
  char id[64];
};

/* A `title` game of n seats, seat i held by p[i]. */
static void seat_table(struct harness_server *s, struct table *t, const char *title, int n)
{
  static const char *const names[] = {"north", "east", "south"};
  json_t *created;
  int i;

  t->n = n;
  for (i = 0; i < n; i++)
    harness_new_player(s, names[i], &t->p[i]);
  created = harness_new_game(s, t->p[0].token, title, n, "{}");
  snprintf(t->id, sizeof t->id, "%s", harness_game_id(created));
  json_decref(created);
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

/* POST …/resign {seq: the game's current seq} as `token`. */
static void post_resign(struct harness_server *s, const char *token, const char *id,
                        struct harness_response *r)
{
  json_t *body = json_pack("{s:I}", "seq", (json_int_t)game_seq(s, id));

  harness_call_json(s, r, "POST", token, body, "/v1/games/%s/resign", id);
  json_decref(body);
}

static void resign_ok(struct harness_server *s, const char *token, const char *id)
{
  struct harness_response r;

  post_resign(s, token, id, &r);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_true(harness_has_event(r.json, "resigned"));
  harness_response_free(&r);
}

/* The first seat in the game's to_act, or -1. */
static int first_to_act(struct harness_server *s, const char *id)
{
  json_t *g = harness_get_game(s, NULL, id);
  json_t *to_act = json_object_get(g, "to_act");
  int seat = json_array_size(to_act) ? (int)json_integer_value(json_array_get(to_act, 0)) : -1;

  json_decref(g);
  return seat;
}

/* Every position replays, the record verifies online, and its export
 * verifies offline (`cairn verify`). */
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
  snprintf(path, sizeof path, "%s/resigned.json", s->dir);
  assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
  snprintf(args, sizeof args, "verify %s", path);
  assert_int_equal(harness_run_tool(args, &report), 0);
  assert_true(json_is_true(json_object_get(report, "ok")));
  json_decref(report);
  json_decref(doc);
}

/* The game each seat (and a spectator) sees is the same after a restart,
 * which rebuilds it from the log: replay equals live. */
static void expect_same_after_restart(struct harness_server *s, const struct table *t)
{
  json_t *before[4], *after;
  int i;

  for (i = 0; i <= t->n; i++)
    before[i] = harness_get_game(s, i < t->n ? t->p[i].token : NULL, t->id);
  harness_restart(s);
  for (i = 0; i <= t->n; i++) {
    after = harness_get_game(s, i < t->n ? t->p[i].token : NULL, t->id);
    if (!json_equal(before[i], after)) {
      char *a = harness_dump(before[i]), *b = harness_dump(after);

      fail_msg("viewer %d: the game differs after a restart:\n%s\n%s", i, a, b);
    }
    json_decref(after);
    json_decref(before[i]);
  }
}

/* Two seats: "the other seat wins"; the result says why and who. */
static void test_resigning_a_duel_gives_it_to_the_other_seat(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  json_t *g, *result;

  seat_table(s, &t, "himalaya", 2);
  resign_ok(s, t.p[1].token, t.id);
  g = harness_get_game(s, NULL, t.id);
  assert_string_equal(harness_str(g, "status"), "finished");
  assert_int_equal(harness_int(g, "seq"), 1);
  assert_non_null(json_object_get(g, "seed")); /* a finished game shows its seed */
  result = json_object_get(g, "result");
  assert_string_equal(harness_str(result, "reason"), "resignation");
  assert_int_equal(harness_int(result, "seat"), 1);
  assert_int_equal(json_array_size(json_object_get(result, "winners")), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 0);
  assert_int_equal(json_array_size(json_object_get(g, "to_act")), 0);
  json_decref(g);
  expect_whole(s, t.id);
  expect_same_after_restart(s, &t);
}

/* One seat (solo): the game ends with no winner. */
static void test_a_solo_resignation_ends_the_game_without_a_winner(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  json_t *g, *result;

  seat_table(s, &t, "because-its-there", 1);
  resign_ok(s, t.p[0].token, t.id);
  g = harness_get_game(s, NULL, t.id);
  assert_string_equal(harness_str(g, "status"), "finished");
  result = json_object_get(g, "result");
  assert_string_equal(harness_str(result, "reason"), "resignation");
  assert_int_equal(harness_int(result, "seat"), 0);
  assert_int_equal(json_array_size(json_object_get(result, "winners")), 0);
  json_decref(g);
  expect_whole(s, t.id);
}

/* Who may resign, and when: clear problems, and nothing changes. */
static void test_resignations_that_cannot_be_are_refused_without_a_change(void **state)
{
  struct harness_server *s = *state;
  struct harness_player stranger;
  struct harness_response r;
  struct table t;
  json_t *before, *after;

  seat_table(s, &t, "himalaya", 2);
  harness_new_player(s, "stranger", &stranger);
  before = harness_get_game(s, NULL, t.id);
  post_resign(s, stranger.token, t.id, &r);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-seated");
  harness_response_free(&r);
  post_resign(s, NULL, t.id, &r);
  HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
  harness_response_free(&r);
  harness_call(s, &r, "POST", t.p[0].token, "{\"seq\":7}", "/v1/games/%s/resign", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "stale-seq");
  harness_response_free(&r);
  harness_call(s, &r, "POST", t.p[0].token, "{}", "/v1/games/%s/resign", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "missing-field");
  harness_response_free(&r);
  after = harness_get_game(s, NULL, t.id);
  assert_true(json_equal(before, after));
  json_decref(after);

  resign_ok(s, t.p[0].token, t.id);
  after = harness_get_game(s, NULL, t.id);
  post_resign(s, t.p[1].token, t.id, &r); /* finished: nobody resigns any more */
  HARNESS_EXPECT_PROBLEM(&r, 409, "game-not-active");
  harness_response_free(&r);
  post_resign(s, t.p[0].token, t.id, &r);
  HARNESS_EXPECT_PROBLEM(&r, 409, "game-not-active");
  harness_response_free(&r);
  json_decref(before);
  before = harness_get_game(s, NULL, t.id);
  assert_true(json_equal(before, after));
  json_decref(after);
  json_decref(before);
}

/* Rows seat `seat` made after its resignation, from the export; and the
 * resignation shows in everyone's log. */
static int rows_after_resign(struct harness_server *s, const char *id, int seat)
{
  json_t *log = harness_get_log(s, NULL, id, 0);
  json_t *doc = harness_get_json(s, NULL, "/v1/games/%s/export", id);
  json_t *e;
  size_t i;
  bool resigned = false, logged = false;
  int n = 0;

  json_array_foreach(json_object_get(log, "events"), i, e)
  {
    const json_t *ev = json_object_get(e, "event");

    logged = logged ||
             (strcmp(harness_str(ev, "type"), "resigned") == 0 && harness_int(ev, "seat") == seat);
  }
  json_array_foreach(json_object_get(doc, "moves"), i, e)
  {
    const json_t *move = json_object_get(e, "move");
    const char *platform = json_string_value(json_object_get(move, "cairn"));

    if (harness_int(e, "seat") != seat)
      continue;
    if (platform && strcmp(platform, "resign") == 0)
      resigned = true;
    else if (resigned && !platform)
      n++;
  }
  assert_true(logged); /* everyone sees the resignation */
  assert_true(resigned);
  json_decref(doc);
  json_decref(log);
  return n;
}

/* More seats: the bot plays the resigned seat from then on; its player may
 * neither move nor resign again; once no person is left unresigned the game
 * ends, won by the seats that did not resign (none here). */
static void test_a_resigned_seat_of_three_is_played_by_the_bot(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct table t;
  json_t *g, *mine, *move, *result;
  struct harness_rng rng = {11};
  int seat = -1, other, last;

  seat_table(s, &t, "himalaya", 3);
  seat = first_to_act(s, t.id);
  assert_true(seat >= 0);
  resign_ok(s, t.p[seat].token, t.id); /* it owed a decision: the bot makes it */
  g = harness_get_game(s, NULL, t.id);
  assert_string_equal(harness_str(g, "status"), "active");
  assert_true(harness_int(g, "seq") >= 2);
  json_decref(g);
  assert_true(rows_after_resign(s, t.id, seat) >= 1);

  post_resign(s, t.p[seat].token, t.id, &r);
  HARNESS_EXPECT_PROBLEM(&r, 409, "already-resigned");
  harness_response_free(&r);
  mine = harness_get_game(s, t.p[seat].token, t.id);
  move = json_pack("{s:s}", "type", "pass");
  harness_post_move(s, &r, t.p[seat].token, t.id, harness_int(mine, "seq"), move);
  HARNESS_EXPECT_PROBLEM(&r, 409, "already-resigned");
  harness_response_free(&r);
  json_decref(move);
  json_decref(mine);

  /* The people still play; the bot answers for the resigned seat. */
  other = first_to_act(s, t.id);
  assert_true(other >= 0 && other != seat);
  mine = harness_get_game(s, t.p[other].token, t.id);
  move = harness_choose_move(mine, &rng);
  harness_post_move(s, &r, t.p[other].token, t.id, harness_int(mine, "seq"), move);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  json_decref(move);
  json_decref(mine);
  expect_same_after_restart(s, &t);

  /* A second resignation leaves one person: the game goes on. */
  other = (seat + 1) % 3;
  last = (seat + 2) % 3;
  resign_ok(s, t.p[other].token, t.id);
  g = harness_get_game(s, NULL, t.id);
  assert_string_equal(harness_str(g, "status"), "active");
  json_decref(g);
  /* The last person resigns: nobody is left to play for. */
  resign_ok(s, t.p[last].token, t.id);
  g = harness_get_game(s, NULL, t.id);
  assert_string_equal(harness_str(g, "status"), "finished");
  result = json_object_get(g, "result");
  assert_string_equal(harness_str(result, "reason"), "resignation");
  assert_int_equal(harness_int(result, "seat"), last);
  assert_int_equal(json_array_size(json_object_get(result, "winners")), 0);
  json_decref(g);
  expect_whole(s, t.id);
  expect_same_after_restart(s, &t);
}

/* Each title's rule, as its README's "Resigning and abandoning" says: a
 * two-seat game of every two-seat title goes to the other seat; in
 * Journey, both climbers resigning against the (bot) Mountain give the
 * Mountain the game, and the Mountain resigning against bot climbers gives
 * it to both climbers, a team. */
static void expect_winners(struct harness_server *s, const char *id, const char *winners)
{
  json_t *g = harness_get_game(s, NULL, id);
  json_t *want = json_loads(winners, 0, NULL);
  json_t *result = json_object_get(g, "result");

  assert_string_equal(harness_str(g, "status"), "finished");
  assert_string_equal(harness_str(result, "reason"), "resignation");
  if (!json_equal(json_object_get(result, "winners"), want))
    fail_msg("game %s: winners %s, not %s", id, harness_dump(json_object_get(result, "winners")),
             winners);
  json_decref(want);
  json_decref(g);
}

/* A Journey game with the bots of `bots` (JSON) and people in `people`. */
static void journey_table(struct harness_server *s, struct table *t, const char *bots,
                          const int *people, int n)
{
  static const char *const names[] = {"tenzing", "hillary", "mountain"};
  struct harness_response r;
  char body[200];
  int i;

  harness_new_player(s, "creator", &t->p[2]);
  snprintf(body, sizeof body, "{\"title\":\"journey-to-the-top\",\"seats\":3,\"bots\":%s}", bots);
  harness_call(s, &r, "POST", t->p[2].token, body, "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(t->id, sizeof t->id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  for (i = 0; i < n; i++) {
    harness_new_player(s, names[people[i]], &t->p[people[i]]);
    harness_join(s, t->p[people[i]].token, t->id, people[i]);
  }
  t->n = 3;
}

static void test_each_title_states_what_a_resignation_means(void **state)
{
  struct harness_server *s = *state;
  static const char *const duels[] = {"himalaya", "everest-piecepack", "because-its-there"};
  static const int climbers[] = {0, 1}, mountain[] = {2};
  struct table t;
  json_t *g;
  size_t i;

  for (i = 0; i < sizeof duels / sizeof duels[0]; i++) {
    seat_table(s, &t, duels[i], 2);
    resign_ok(s, t.p[1].token, t.id);
    expect_winners(s, t.id, "[0]");
  }
  journey_table(s, &t, "[{\"seat\":2,\"level\":\"random\"}]", climbers, 2);
  resign_ok(s, t.p[0].token, t.id); /* Hillary still climbs; the bot climbs for Tenzing */
  g = harness_get_game(s, NULL, t.id);
  assert_string_equal(harness_str(g, "status"), "active");
  json_decref(g);
  resign_ok(s, t.p[1].token, t.id);
  expect_winners(s, t.id, "[2]");
  expect_whole(s, t.id);
  journey_table(s, &t, "[{\"seat\":0,\"level\":\"random\"},{\"seat\":1,\"level\":\"random\"}]",
                mountain, 1);
  resign_ok(s, t.p[2].token, t.id);
  expect_winners(s, t.id, "[0,1]");
}

/* Takeback: a move from before a resignation is never taken back, since a
 * rewind past the resignation would undo it. */
static void test_no_takeback_reaches_past_a_resignation(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct table t;
  json_t *mine, *move = NULL, *m, *body, *before, *after;
  size_t i;
  int mover, next, resigner;

  seat_table(s, &t, "himalaya", 3);
  mover = first_to_act(s, t.id);
  mine = harness_get_game(s, t.p[mover].token, t.id);
  json_array_foreach(json_object_get(mine, "legal"), i, m)
  {
    if (strcmp(harness_str(m, "type"), "die") == 0) {
      move = m; /* takes one of the dice: draws nothing */
      break;
    }
  }
  assert_non_null(move);
  harness_post_move(s, &r, t.p[mover].token, t.id, harness_int(mine, "seq"), move);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  json_decref(mine);
  next = first_to_act(s, t.id);
  for (resigner = 0; resigner == mover || resigner == next; resigner++)
    ;
  assert_true(resigner < 3);
  resign_ok(s, t.p[resigner].token, t.id);
  before = harness_get_game(s, NULL, t.id);
  body = json_pack("{s:I}", "seq", (json_int_t)harness_int(before, "seq"));
  harness_call_json(s, &r, "POST", t.p[mover].token, body, "/v1/games/%s/takeback", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);
  /* nor may the resigned seat ask for one */
  harness_call_json(s, &r, "POST", t.p[resigner].token, body, "/v1/games/%s/takeback", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "already-resigned");
  harness_response_free(&r);
  after = harness_get_game(s, NULL, t.id);
  assert_true(json_equal(before, after));
  json_decref(after);
  json_decref(before);
  json_decref(body);
}

/* Webhooks: a resignation that ends the game fires "end", as a move that
 * ends it does, with the resignation's result. */
static void test_a_resignation_fires_the_end_webhook(void **state)
{
  struct harness_server own, *s = &own;
  struct harness_response r;
  struct table t;
  char hook[64];
  json_t *list = NULL, *d;
  size_t i;
  int tries;
  bool ended = false;

  (void)state;
  /* A server of its own, which may reach loopback (where nothing listens). */
  setenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS", "1", 1);
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "50", 1);
  memset(&own, 0, sizeof own);
  harness_start(&own);
  unsetenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS");
  unsetenv("CAIRN_WEBHOOK_BACKOFF_MS");
  seat_table(s, &t, "himalaya", 2);
  /* Port 9 (discard) on loopback: nothing listens, so every attempt fails
   * at once and is logged. */
  {
    char body[256];

    snprintf(body, sizeof body,
             "{\"url\":\"http://127.0.0.1:9/h\",\"format\":\"json\",\"game\":\"%s\"}", t.id);
    harness_call(s, &r, "POST", t.p[0].token, body, "/v1/webhooks");
    HARNESS_EXPECT_STATUS(&r, 201);
    snprintf(hook, sizeof hook, "%s", harness_str(r.json, "id"));
    harness_response_free(&r);
  }
  resign_ok(s, t.p[1].token, t.id);
  for (tries = 0; tries < 200 && !ended; tries++) {
    json_decref(list);
    list = harness_get_json(s, t.p[0].token, "/v1/webhooks/%s/deliveries", hook);
    json_array_foreach(json_object_get(list, "deliveries"), i, d)
    {
      if (strcmp(harness_str(d, "event"), "end") == 0)
        ended = true;
    }
    if (!ended)
      usleep(50 * 1000);
  }
  json_decref(list);
  assert_true(harness_stop(&own));
  assert_true(ended);
}

/* A Himalaya game of n seats with 24 hours a move and `on_timeout`, seat i
 * held by p[i]; seat 0 owes the first move. */
static void timed_table(struct harness_server *s, struct table *t, int n, const char *on_timeout)
{
  static const char *const names[] = {"late", "east", "south"}; /* seat 0 is late */
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
  json_t *g;

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
  expect_same_after_restart(s, &t);
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
static void test_racing_votes_in_a_duel_replace_once(void **state)
{
  struct harness_server *s = *state;
  struct racer x[2];
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
  }
  racer_run_all(x, 2);
  for (i = 0; i < 2; i++) {
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
  resign_ok(s, t.p[1].token, t.id); /* the person left: the bot's seat wins */
  expect_winners(s, t.id, "[0]");
  assert_int_equal(rated_games(s, t.p[1].id), 0);
  assert_int_equal(rated_games(s, t.p[0].id), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resigning_a_duel_gives_it_to_the_other_seat),
      cmocka_unit_test(test_a_solo_resignation_ends_the_game_without_a_winner),
      cmocka_unit_test(test_resignations_that_cannot_be_are_refused_without_a_change),
      cmocka_unit_test(test_a_resigned_seat_of_three_is_played_by_the_bot),
      cmocka_unit_test(test_each_title_states_what_a_resignation_means),
      cmocka_unit_test(test_no_takeback_reaches_past_a_resignation),
      cmocka_unit_test(test_a_resignation_fires_the_end_webhook),
      cmocka_unit_test(test_two_people_replace_the_late_third_by_a_bot),
      cmocka_unit_test(test_no_replacement_under_on_timeout_move),
      cmocka_unit_test(test_a_late_seat_may_still_move_and_cancels_the_votes),
      cmocka_unit_test(test_racing_votes_in_a_duel_replace_once),
  };

  harness_global_init();
  setenv("CAIRN_TEST_CLOCK", "1", 1); /* the replacements' deadlines (no test sleeps) */
  int rc = order_run_group_tests_name("api/resign", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return rc;
}
