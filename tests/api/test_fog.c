/*
 * test_fog.c - attacks on hidden information through the real server
 * (game/fog.c, game/takeback.c):
 *   - a takeback never undoes a move after which something was learned: a
 *     solo Because It's There draw, an Everest plan resolved against a
 *     bot's, a Journey Forecast (each refused with 409 no-takeback naming the
 *     row, and with nothing of the secret in any answer);
 *   - a pending simultaneous decision (a Because It's There Night declaration,
 *     an Everest plan, a Journey purchase or Avalanche answer) stays its
 *     owner's: export, log, view and ?at=N as the other seat and a
 *     spectator hold nothing of it until the step resolves, and then only
 *     what the rules reveal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/order.h"
#include "tests/api/harness.h"

/* The scripted Because It's There leader (linked in as by
 * test_because-its-there_game.c). */
#include "tests/engine/because-its-there/policy.c"

#define MAX_POSTS 4000

/* ---- helpers ---- */

static json_t *create(struct harness_server *s, const char *token, const char *title, int seats,
                      const char *options, const char *bots)
{
  struct harness_response r;
  char body[256];
  json_t *g;

  snprintf(body, sizeof body, "{\"title\":\"%s\",\"seats\":%d,\"options\":%s%s%s}", title, seats,
           options, bots ? ",\"bots\":" : "", bots ? bots : "");
  harness_call(s, &r, "POST", token, body, "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  g = json_incref(r.json);
  harness_response_free(&r);
  return g;
}

/* Post `move` (borrowed) for the player at the game's current seq. */
static void play(struct harness_server *s, const char *token, const char *id, const json_t *move)
{
  json_t *g = harness_get_game(s, token, id);
  struct harness_response r;

  harness_post_move(s, &r, token, id, harness_int(g, "seq"), move);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(g);
}

/* POST …/takeback as `token`; caller checks and frees *r. */
static void takeback(struct harness_server *s, const char *token, const char *id,
                     struct harness_response *r)
{
  json_t *g = harness_get_game(s, NULL, id);
  json_t *body = json_pack("{s:O}", "seq", json_object_get(g, "seq"));

  harness_call_json(s, r, "POST", token, body, "/v1/games/%s/takeback", id);
  json_decref(body);
  json_decref(g);
}

/* A refused takeback: 409 no-takeback naming a row; no row was appended. */
static void expect_refused(struct harness_server *s, const char *token, const char *id,
                           struct harness_response *r)
{
  json_t *before = harness_get_game(s, NULL, id), *after;

  takeback(s, token, id, r);
  HARNESS_EXPECT_PROBLEM(r, 409, "no-takeback");
  assert_non_null(strstr(harness_str(r->json, "detail"), "row "));
  assert_non_null(strstr(harness_str(r->json, "detail"), "never be taken back"));
  print_message("refused: %s\n", harness_str(r->json, "detail"));
  after = harness_get_game(s, NULL, id);
  assert_int_equal(harness_int(after, "moves"), harness_int(before, "moves"));
  assert_int_equal(harness_int(after, "seq"), harness_int(before, "seq"));
  json_decref(before);
  json_decref(after);
}

/* True when `j` or any value inside it equals `secret` (key order aside). */
static bool holds(const json_t *j, const json_t *secret)
{
  const char *key;
  const json_t *v;
  size_t i;

  if (json_equal(j, secret))
    return true;
  if (json_is_object(j)) {
    json_object_foreach((json_t *)j, key, v)
    {
      if (holds(v, secret))
        return true;
    }
  }
  json_array_foreach(j, i, v)
  {
    if (holds(v, secret))
      return true;
  }
  return false;
}

/* The answer to GET `path` as `token` holds neither the JSON value
 * `secret` nor the text `text` (either may be NULL). */
static void expect_not_in(struct harness_server *s, const char *token, const char *path,
                          const json_t *secret, const char *text)
{
  struct harness_response r;

  harness_call(s, &r, "GET", token, NULL, "%s", path);
  HARNESS_EXPECT_JSON(&r, 200);
  if (secret && holds(r.json, secret))
    harness_fail_response(&r, __FILE__, __LINE__, "the answer holds the secret");
  if (text && strstr(r.body, text))
    harness_fail_response(&r, __FILE__, __LINE__, "the answer holds \"%s\"", text);
  harness_response_free(&r);
}

/* Every answer `token` (NULL: spectator) can read about the live game
 * `id` (view, log, export and every ?at=N) holds neither `secret` nor
 * `text`. */
static void expect_nowhere(struct harness_server *s, const char *token, const char *id,
                           const json_t *secret, const char *text)
{
  static const char *const paths[] = {"/v1/games/%s", "/v1/games/%s/log", "/v1/games/%s/export"};
  json_t *g = harness_get_game(s, NULL, id);
  long seq = harness_int(g, "seq"), n;
  char path[160];
  size_t i;

  assert_string_equal(harness_str(g, "status"), "active");
  for (i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
    snprintf(path, sizeof path, paths[i], id);
    expect_not_in(s, token, path, secret, text);
  }
  for (n = 0; n <= seq; n++) {
    snprintf(path, sizeof path, "/v1/games/%s?at=%ld", id, n);
    expect_not_in(s, token, path, secret, text);
  }
  json_decref(g);
}

/* Borrowed from `doc` (an export): the entry of row `ord`. */
static const json_t *export_row(const json_t *doc, long ord)
{
  const json_t *row = json_array_get(json_object_get(doc, "moves"), (size_t)ord);

  assert_non_null(row);
  assert_int_equal(harness_int(row, "ord"), ord);
  return row;
}

/* New reference: GET …/export as `token`. */
static json_t *get_export(struct harness_server *s, const char *token, const char *id)
{
  return harness_get_json(s, token, "/v1/games/%s/export", id);
}

/* OUT, caller frees: column `col` of log row `ord` of game `id`, read from
 * the database behind the server's back (the server is paused meanwhile):
 * the test needs the secret to search the answers for it. */
static char *stored(struct harness_server *s, const char *id, long ord, const char *col)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *q = NULL;
  char sql[160];
  char *text = NULL;

  harness_pause(s);
  assert_int_equal(sqlite3_open_v2(s->db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  snprintf(sql, sizeof sql, "SELECT %s FROM moves WHERE game_id = ?1 AND ord = ?2", col);
  assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
  sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(q, 2, ord);
  if (sqlite3_step(q) == SQLITE_ROW)
    text = strdup((const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  sqlite3_close(db);
  harness_resume(s);
  assert_non_null(text);
  return text;
}

/* New reference: member `key` of the JSON text `doc`. */
static json_t *member_of(const char *doc, const char *key)
{
  json_t *j = json_loads(doc, 0, NULL);
  json_t *v = json_incref(json_object_get(j, key));

  assert_non_null(v);
  json_decref(j);
  return v;
}

/* The first legal move of `type` in the game resource `mine`, or NULL. */
static const json_t *legal_of(const json_t *mine, const char *type)
{
  const json_t *m;
  size_t i;

  json_array_foreach(json_object_get(mine, "legal"), i, m)
  {
    if (strcmp(json_string_value(json_object_get(m, "type")), type) == 0)
      return m;
  }
  return NULL;
}

/* ---- (a) solo Because It's There: a draw is never taken back ---- */

static void test_solo_bit_draw_is_never_taken_back(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct harness_response r;
  char id[64];
  json_t *g;
  int posts;

  harness_new_player(s, "soloist", &me);
  g = create(s, me.token, "because-its-there", 1, "{\"scenario\":\"1953\"}", NULL);
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, me.token, id, 0);
  for (posts = 0; posts < MAX_POSTS; posts++) {
    json_t *mine = harness_get_game(s, me.token, id);
    const json_t *draw = legal_of(mine, "draw");
    json_t *legal = json_object_get(mine, "legal");

    if (draw) {
      play(s, me.token, id, draw);
      json_decref(mine);
      break;
    }
    play(s, me.token, id,
         json_array_get(legal, bt_policy(json_object_get(mine, "view"), legal, 0)));
    json_decref(mine);
  }
  /* The draw showed cards nobody knew (drew, private, from a deck shuffled
   * ahead): no opponent to ask, and still no takeback. */
  expect_refused(s, me.token, id, &r);
  harness_response_free(&r);
  harness_expect_verifies(s, id);
}

/* ---- (b) Everest against a bot: plans stay secret, no re-planning ---- */

/* Play the human seat 0 (random legal moves) until round `round`'s
 * planning, where the bot has planned and the human owes a plan. */
static void everest_until_planning(struct harness_server *s, const char *token, const char *id,
                                   long round)
{
  struct harness_rng rng = {0xe7e7};
  int posts;

  for (posts = 0; posts < MAX_POSTS; posts++) {
    json_t *mine = harness_get_game(s, token, id);
    const json_t *view = json_object_get(mine, "view");
    json_t *move;

    assert_string_equal(harness_str(mine, "status"), "active");
    if (harness_int(view, "round") == round && strcmp(harness_str(view, "phase"), "plan") == 0 &&
        harness_may_act(mine, 0)) {
      assert_int_equal(json_array_size(json_object_get(mine, "to_act")), 1);
      json_decref(mine);
      return;
    }
    move = harness_choose_move(mine, &rng);
    play(s, token, id, move);
    json_decref(move);
    json_decref(mine);
  }
  fail_msg("round %ld never came", round);
}

static void test_everest_against_a_bot_takeback_refused_and_plan_hidden(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct harness_response r;
  char id[64], *bot_move, *events;
  json_t *g, *doc, *plan, *event, *move;
  long last;

  harness_new_player(s, "climber", &me);
  g = create(s, me.token, "everest-piecepack", 2, "{}", "[1]");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, me.token, id, 0);
  /* Round 1: the bot planned at once; my plan resolves the step and every
   * plan is revealed. Round 2: the bot has planned again, in secret. */
  everest_until_planning(s, me.token, id, 2);
  g = harness_get_game(s, NULL, id);
  last = harness_int(g, "moves") - 1;
  json_decref(g);
  bot_move = stored(s, id, last, "move_json");
  events = stored(s, id, last, "events_json");
  move = json_loads(bot_move, 0, NULL);
  plan = member_of(bot_move, "plan");
  g = json_loads(events, 0, NULL);
  event = json_incref(json_array_get(g, 0));
  json_decref(g);
  assert_string_equal(harness_str(event, "type"), "plan-submitted");

  /* The old server rewound at once (no person to ask) and showed the bot's
   * plans of round 1 to a human who could then plan again. */
  expect_refused(s, me.token, id, &r);
  assert_false(holds(r.json, plan));
  harness_response_free(&r);

  expect_nowhere(s, me.token, id, plan, bot_move);
  expect_nowhere(s, me.token, id, move, NULL);
  expect_nowhere(s, me.token, id, event, NULL);
  expect_nowhere(s, NULL, id, plan, bot_move);
  doc = get_export(s, me.token, id);
  assert_true(json_is_null(json_object_get(export_row(doc, last), "move")));
  assert_true(json_is_true(json_object_get(export_row(doc, last), "redacted")));
  json_decref(doc);
  json_decref(plan);
  json_decref(move);
  json_decref(event);
  free(bot_move);
  free(events);
  harness_expect_verifies(s, id);
}

/* ---- (c) Journey: a Forecast seen is never taken back ---- */

static void test_journey_forecast_is_never_taken_back(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct harness_response r;
  char id[64];
  json_t *g, *buy = json_pack("{s:s, s:s}", "type", "buy", "item", "forecast");
  json_t *done = json_pack("{s:s}", "type", "done");
  json_t *look = json_pack("{s:s, s:s}", "type", "use", "item", "forecast");

  harness_new_player(s, "tenzing", &me);
  g = create(s, me.token, "journey-to-the-top", 3, "{}", "[1,2]");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, me.token, id, 0);
  play(s, me.token, id, buy);
  play(s, me.token, id, done);
  g = harness_get_game(s, me.token, id);
  assert_string_equal(harness_str(json_object_get(g, "view"), "phase"), "climbers");
  json_decref(g);
  play(s, me.token, id, look); /* the Mountain's hand, seen */
  g = harness_get_game(s, me.token, id);
  assert_true(json_is_object(json_object_get(json_object_get(g, "view"), "forecast")));
  json_decref(g);

  /* Only bots besides me: the old server rewound at once. */
  expect_refused(s, me.token, id, &r);
  harness_response_free(&r);
  g = harness_get_game(s, me.token, id);
  assert_true(json_is_object(json_object_get(json_object_get(g, "view"), "forecast")));
  json_decref(g);
  json_decref(buy);
  json_decref(done);
  json_decref(look);
  harness_expect_verifies(s, id);
}

/* ---- (e) pending simultaneous decisions stay their owner's ---- */

struct bit_duel {
  struct harness_player p[2];
  char id[64];
};

/* The first legal `rest` of the game resource `mine` that declares
 * Unloaded Supplies (a non-empty `use`), or NULL. */
static const json_t *declaring_rest(const json_t *mine)
{
  const json_t *m;
  size_t i;

  json_array_foreach(json_object_get(mine, "legal"), i, m)
  {
    if (strcmp(json_string_value(json_object_get(m, "type")), "rest") == 0 &&
        json_array_size(json_object_get(m, "use")) > 0)
      return m;
  }
  return NULL;
}

/* Play a 1963 game with the scripted leader until a seat may declare
 * Unloaded Supplies at Night while the other has not rested; return that
 * seat, with *use its declaring `rest` move (new reference), or -1 when
 * the game ended without one. */
static int bit_until_night_use(struct harness_server *s, struct bit_duel *d, json_t **use)
{
  int posts, seat;

  for (posts = 0; posts < MAX_POSTS; posts++) {
    json_t *spec = harness_get_game(s, NULL, d->id);
    json_t *to_act = json_object_get(spec, "to_act");

    if (strcmp(harness_str(spec, "status"), "active") != 0) {
      json_decref(spec);
      return -1; /* this deal never offered one */
    }
    seat = (int)json_integer_value(json_array_get(to_act, 0));
    for (size_t k = 0; k < json_array_size(to_act); k++) {
      int who = (int)json_integer_value(json_array_get(to_act, k));
      json_t *mine = harness_get_game(s, d->p[who].token, d->id);
      const json_t *found = declaring_rest(mine);

      if (found && json_array_size(to_act) == 2) {
        *use = json_deep_copy(found);
        json_decref(mine);
        json_decref(spec);
        return who;
      }
      json_decref(mine);
    }
    {
      json_t *mine = harness_get_game(s, d->p[seat].token, d->id);
      json_t *legal = json_object_get(mine, "legal");
      size_t pick = bt_policy(json_object_get(mine, "view"), legal, seat);

      play(s, d->p[seat].token, d->id, json_array_get(legal, pick));
      json_decref(mine);
    }
    json_decref(spec);
  }
  fail_msg("no Night with Supplies to declare");
  return -1;
}

static void test_bit_night_supplies_stay_hidden_until_the_night_resolves(void **state)
{
  struct harness_server *s = *state;
  struct bit_duel d;
  json_t *g, *use = NULL, *rest = json_pack("{s:s}", "type", "rest"), *doc;
  long ord;
  int seat, other, i;

  harness_new_player(s, "north", &d.p[0]);
  harness_new_player(s, "south", &d.p[1]);
  /* Each game has its own seed: deal again until a Night offers a choice. */
  for (seat = -1, i = 0; seat < 0 && i < 12; i++) {
    g = create(s, d.p[0].token, "because-its-there", 2, "{\"scenario\":\"1963\"}", NULL);
    snprintf(d.id, sizeof d.id, "%s", harness_game_id(g));
    json_decref(g);
    harness_join(s, d.p[0].token, d.id, 0);
    harness_join(s, d.p[1].token, d.id, 1);
    seat = bit_until_night_use(s, &d, &use);
  }
  assert_true(seat >= 0);
  other = 1 - seat;
  play(s, d.p[seat].token, d.id, use); /* pending: the other seat still owes */
  g = harness_get_game(s, NULL, d.id);
  ord = harness_int(g, "moves") - 1;
  /* The seat's whole Night decision is this one move: it is done and out
   * of to_act whatever it declared, so that says nothing. */
  assert_int_equal(json_array_size(json_object_get(g, "to_act")), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(g, "to_act"), 0)), other);
  json_decref(g);

  /* The old server exported such a move to everyone: it has no event, so
   * "all its events were public". */
  expect_nowhere(s, d.p[other].token, d.id, use, "\"use_tonight\":true");
  expect_nowhere(s, NULL, d.id, use, "\"use\":[");
  doc = get_export(s, d.p[other].token, d.id);
  assert_true(json_is_true(json_object_get(export_row(doc, ord), "redacted")));
  assert_true(json_is_null(json_object_get(export_row(doc, ord), "move")));
  json_decref(doc);
  doc = get_export(s, d.p[seat].token, d.id); /* its owner sees it */
  assert_true(json_equal(json_object_get(export_row(doc, ord), "move"), use));
  json_decref(doc);

  /* The Night resolves: the recovery shows who used Supplies, so the
   * declaration is shown too. */
  play(s, d.p[other].token, d.id, rest);
  doc = get_export(s, d.p[other].token, d.id);
  assert_true(json_equal(json_object_get(export_row(doc, ord), "move"), use));
  json_decref(doc);
  json_decref(use);
  json_decref(rest);
  harness_expect_verifies(s, d.id);
}

/* Everest among people: seat 0's pending plan is nowhere for seat 1 or a
 * spectator; once seat 1 plans, plans-revealed shows it (the rules), while
 * the pending row's own move stays redacted (its event is private). */
static void test_everest_pending_plan_stays_hidden(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_rng rng = {0x5eed};
  char id[64];
  json_t *g, *mine, *move, *doc;

  harness_new_player(s, "east", &p[0]);
  harness_new_player(s, "west", &p[1]);
  g = create(s, p[0].token, "everest-piecepack", 2, "{}", NULL);
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, p[0].token, id, 0);
  harness_join(s, p[1].token, id, 1);
  /* Rows 0 and 1: the public choice of home bases, in seat order. */
  for (int seat = 0; seat < 2; seat++) {
    mine = harness_get_game(s, p[seat].token, id);
    move = harness_choose_move(mine, &rng);
    play(s, p[seat].token, id, move);
    json_decref(move);
    json_decref(mine);
  }
  mine = harness_get_game(s, p[0].token, id);
  move = harness_choose_move(mine, &rng);
  play(s, p[0].token, id, move);
  expect_nowhere(s, p[1].token, id, json_object_get(move, "plan"), NULL);
  expect_nowhere(s, NULL, id, json_object_get(move, "plan"), NULL);
  doc = get_export(s, p[1].token, id);
  assert_true(json_is_true(json_object_get(export_row(doc, 2), "redacted")));
  json_decref(doc);
  json_decref(move);
  json_decref(mine);

  mine = harness_get_game(s, p[1].token, id);
  move = harness_choose_move(mine, &rng);
  play(s, p[1].token, id, move);
  doc = get_export(s, p[1].token, id);
  assert_true(json_is_true(json_object_get(export_row(doc, 2), "redacted")));
  assert_true(harness_has_event(export_row(doc, 3), "plans-revealed"));
  json_decref(doc);
  json_decref(move);
  json_decref(mine);
}

/* Journey buying: a climber's pending purchase is redacted in the export
 * for the others until the step resolves (the purchase itself is public by
 * the rules: the "bought" event), then shown. */
static void test_journey_pending_buy_is_redacted_until_the_step_resolves(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[3];
  static const char *const names[3] = {"tenzing", "hillary", "everest"};
  char id[64];
  json_t *g, *doc, *buy = json_pack("{s:s, s:s}", "type", "buy", "item", "tent");
  json_t *done = json_pack("{s:s}", "type", "done");
  int i;

  for (i = 0; i < 3; i++)
    harness_new_player(s, names[i], &p[i]);
  g = create(s, p[0].token, "journey-to-the-top", 3, "{}", NULL);
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  for (i = 0; i < 3; i++)
    harness_join(s, p[i].token, id, i);
  play(s, p[0].token, id, buy);
  for (i = 1; i <= 3; i++) {
    doc = get_export(s, i == 3 ? NULL : p[i].token, id);
    assert_true(json_is_null(json_object_get(export_row(doc, 0), "move")));
    json_decref(doc);
  }
  play(s, p[0].token, id, done);
  play(s, p[1].token, id, done);
  doc = get_export(s, p[2].token, id);
  assert_true(json_equal(json_object_get(export_row(doc, 0), "move"), buy));
  json_decref(doc);
  json_decref(buy);
  json_decref(done);
}

/* The first legal move of the game resource `mine` equal to `want`
 * (JSON text), or NULL. */
static const json_t *legal_equal(const json_t *mine, const char *want)
{
  json_t *w = json_loads(want, 0, NULL);
  const json_t *m, *found = NULL;
  size_t i;

  json_array_foreach(json_object_get(mine, "legal"), i, m)
  {
    if (!found && json_equal(m, w))
      found = m;
  }
  json_decref(w);
  return found;
}

/* Whether the Mountain (`view` its own) can pay for an Avalanche (cost 11)
 * this turn, keeping one: the value it holds (RULES.md card table: 3 each,
 * Crevice 4, Blizzard 2) plus the credit paid already. */
static bool can_afford_avalanche(const json_t *view)
{
  const json_t *hand = json_object_get(view, "hand"), *n;
  long value = json_integer_value(json_object_get(json_object_get(view, "mountain"), "credit"));
  const char *card;

  if (json_integer_value(json_object_get(hand, "avalanche")) < 1)
    return false;
  json_object_foreach((json_t *)hand, card, n)
  {
    long each = strcmp(card, "crevice") == 0 ? 4 : strcmp(card, "blizzard") == 0 ? 2 : 3;
    value += each * (json_integer_value(n) - (strcmp(card, "avalanche") == 0));
  }
  return value >= 11;
}

/* One Journey decision for `seat` steering towards an Avalanche on both
 * climbers: they wait together on L1-S with a hook each; the Mountain
 * saves its cards until it can pay for an Avalanche, then plays it on S. */
static const json_t *journey_steer(const json_t *mine, int seat)
{
  static const char *const climber[] = {"{\"type\":\"move\",\"to\":\"L1-S\"}",
                                        "{\"type\":\"end_turn\"}", NULL};
  static const char *const mountain[] = {
      "{\"type\":\"play\",\"card\":\"avalanche\",\"quadrant\":\"S\"}",
      "{\"type\":\"discard\",\"card\":\"crevice\"}",
      "{\"type\":\"discard\",\"card\":\"high_wind\"}",
      "{\"type\":\"discard\",\"card\":\"rockslide\"}",
      "{\"type\":\"discard\",\"card\":\"yeti\"}",
      "{\"type\":\"discard\",\"card\":\"frostbite\"}",
      "{\"type\":\"discard\",\"card\":\"blizzard\"}",
      "{\"type\":\"discard\",\"card\":\"avalanche\"}",
      NULL};
  static const char *const wait[] = {"{\"type\":\"yeti\",\"direction\":\"stay\"}",
                                     "{\"type\":\"end_turn\"}", NULL};
  const char *const *order = seat != 2                                             ? climber
                             : can_afford_avalanche(json_object_get(mine, "view")) ? mountain
                                                                                   : wait;
  size_t i;

  for (i = 0; order[i]; i++)
    if (legal_equal(mine, order[i]))
      return legal_equal(mine, order[i]);
  for (i = 0; wait[i]; i++)
    if (legal_equal(mine, wait[i]))
      return legal_equal(mine, wait[i]);
  return json_array_get(json_object_get(mine, "legal"), 0);
}

/* Journey: both climbers hit by an Avalanche answer at once. Tenzing's
 * answer (pending) is nowhere for Hillary, the Mountain or a spectator;
 * once Hillary answers the avalanche lands and avalanche_hit shows it. */
static void test_journey_avalanche_answer_stays_hidden_until_it_lands(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[3];
  static const char *const names[3] = {"tenzing", "hillary", "everest"};
  char id[64], path[160];
  json_t *g, *doc, *hook = json_pack("{s:s, s:s}", "type", "buy", "item", "grappling_hook");
  json_t *done = json_pack("{s:s}", "type", "done");
  json_t *answer = json_pack("{s:s, s:s}", "type", "avalanche", "protect", "hook");
  json_t *none = json_pack("{s:s, s:s}", "type", "avalanche", "protect", "none");
  long ord;
  int i, posts;

  for (i = 0; i < 3; i++)
    harness_new_player(s, names[i], &p[i]);
  g = create(s, p[0].token, "journey-to-the-top", 3, "{\"turn_limit\":500}", NULL);
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  for (i = 0; i < 3; i++)
    harness_join(s, p[i].token, id, i);
  for (i = 0; i < 2; i++) {
    play(s, p[i].token, id, hook);
    play(s, p[i].token, id, done);
  }
  for (posts = 0; posts < MAX_POSTS; posts++) {
    json_t *spec = harness_get_game(s, NULL, id), *mine;
    const json_t *reaction = json_object_get(json_object_get(spec, "view"), "reaction");
    int seat = (int)json_integer_value(json_array_get(json_object_get(spec, "to_act"), 0));

    if (strcmp(harness_str(spec, "status"), "active") != 0)
      fail_msg("the game ended first: %s", harness_dump(json_object_get(spec, "result")));
    if (json_is_object(reaction) && json_array_size(json_object_get(spec, "to_act")) == 2) {
      json_decref(spec);
      break;
    }
    mine = harness_get_game(s, p[seat].token, id);
    play(s, p[seat].token, id, journey_steer(mine, seat));
    json_decref(mine);
    json_decref(spec);
  }
  assert_true(posts < MAX_POSTS);

  play(s, p[0].token, id, answer); /* pending: Hillary still owes hers */
  g = harness_get_game(s, NULL, id);
  ord = harness_int(g, "moves") - 1;
  json_decref(g);
  /* Hillary's own legal list holds the same object, so for her only the
   * log and the export are searched. */
  expect_nowhere(s, p[2].token, id, answer, "\"protect\":\"hook\"");
  expect_nowhere(s, NULL, id, answer, "\"protect\":\"hook\"");
  snprintf(path, sizeof path, "/v1/games/%s/log", id);
  expect_not_in(s, p[1].token, path, answer, "\"protect\":\"hook\"");
  snprintf(path, sizeof path, "/v1/games/%s/export", id);
  expect_not_in(s, p[1].token, path, answer, "\"protect\":\"hook\"");
  doc = get_export(s, p[1].token, id);
  assert_true(json_is_true(json_object_get(export_row(doc, ord), "redacted")));
  assert_false(holds(doc, answer));
  json_decref(doc);

  play(s, p[1].token, id, none); /* the avalanche lands */
  doc = get_export(s, p[2].token, id);
  assert_true(json_equal(json_object_get(export_row(doc, ord), "move"), answer));
  assert_true(harness_has_event(export_row(doc, ord + 1), "avalanche_hit"));
  json_decref(doc);
  json_decref(hook);
  json_decref(done);
  json_decref(answer);
  json_decref(none);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_solo_bit_draw_is_never_taken_back, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_everest_against_a_bot_takeback_refused_and_plan_hidden,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_journey_forecast_is_never_taken_back, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_bit_night_supplies_stay_hidden_until_the_night_resolves,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_everest_pending_plan_stays_hidden, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_journey_pending_buy_is_redacted_until_the_step_resolves,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_journey_avalanche_answer_stays_hidden_until_it_lands,
                                      harness_setup, harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/fog", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
