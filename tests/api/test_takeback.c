/*
 * test_takeback.c - undo through the real server (api/takeback.c): a seat
 * takes back its own last move at once when nothing was drawn or revealed
 * since; an earlier harmless move is a request the other seats accept or
 * decline; a move after which anything was drawn or revealed is never
 * taken back (the fog; test_fog.c attacks it per title); every takeback is
 * appended to the log, which still verifies and replays at every position.
 * Also: a game pinned to a retired rules version takes no moves.
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
#include "harness.h"

struct duel {
  struct harness_player p[2];
  char id[64];
};

static void start_duel(struct harness_server *s, struct duel *d)
{
  json_t *created;

  harness_new_player(s, "north", &d->p[0]);
  harness_new_player(s, "south", &d->p[1]);
  created = harness_new_game(s, d->p[0].token, "himalaya", 2, "{}");
  snprintf(d->id, sizeof d->id, "%s", harness_game_id(created));
  json_decref(created);
  harness_join(s, d->p[0].token, d->id, 0);
  harness_join(s, d->p[1].token, d->id, 1);
}

static long game_seq(struct harness_server *s, const char *id)
{
  json_t *g = harness_get_game(s, NULL, id);
  long seq = (long)json_integer_value(json_object_get(g, "seq"));

  json_decref(g);
  return seq;
}

/* The seat to act plays its first legal die move; returns that seat. */
static int play_die(struct harness_server *s, struct duel *d)
{
  json_t *spec = harness_get_game(s, NULL, d->id);
  int seat = (int)json_integer_value(json_array_get(json_object_get(spec, "to_act"), 0));
  json_t *mine = harness_get_game(s, d->p[seat].token, d->id);
  json_t *legal = json_object_get(mine, "legal");
  json_t *move = NULL, *body, *m;
  struct harness_response r;
  size_t i;

  json_array_foreach(legal, i, m)
  {
    if (strcmp(json_string_value(json_object_get(m, "type")), "die") == 0) {
      move = m;
      break;
    }
  }
  assert_non_null(move);
  body = json_pack("{s:O, s:O}", "seq", json_object_get(mine, "seq"), "move", move);
  harness_call_json(s, &r, "POST", d->p[seat].token, body, "/v1/games/%s/moves", d->id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  json_decref(mine);
  json_decref(spec);
  return seat;
}

static void post_takeback(struct harness_server *s, struct duel *d, int seat, const char *what,
                          struct harness_response *r)
{
  json_t *body = json_pack("{s:I}", "seq", (json_int_t)game_seq(s, d->id));

  harness_call_json(s, r, "POST", d->p[seat].token, body, "/v1/games/%s/takeback%s", d->id, what);
  json_decref(body);
}

static void expect_verifies(struct harness_server *s, const char *id)
{
  struct harness_response r;
  long seq = game_seq(s, id), n;

  harness_expect_verifies(s, id);
  for (n = 0; n <= seq; n++) {
    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s?at=%ld", id, n);
    HARNESS_EXPECT_STATUS(&r, 200);
    harness_response_free(&r);
  }
}

/* Issue "Replay and audit", 6: "a seat may take back its own last move
 * while no other seat has acted since, no hidden information was revealed
 * and no random draw happened since; the take-back is appended to the log". */
static void test_own_last_move_without_a_draw_is_taken_back_at_once(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;
  json_t *before, *after;
  int seat;

  start_duel(s, &d);
  before = harness_get_game(s, NULL, d.id);
  seat = play_die(s, &d); /* takes one of five dice: nothing is drawn */
  post_takeback(s, &d, seat, "", &r);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_has_event(r.json, "taken_back"));
  assert_int_equal(json_integer_value(json_object_get(r.json, "seq")), 2);
  harness_response_free(&r);
  after = harness_get_game(s, NULL, d.id);
  assert_true(json_equal(json_object_get(before, "view"), json_object_get(after, "view")));
  assert_true(json_equal(json_object_get(before, "to_act"), json_object_get(after, "to_act")));
  assert_int_equal(json_integer_value(json_object_get(after, "moves")), 2); /* appended */
  json_decref(before);
  json_decref(after);
  expect_verifies(s, d.id);
}

static void test_takeback_without_a_move_is_refused(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;

  start_duel(s, &d);
  post_takeback(s, &d, 1, "", &r);
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);
  post_takeback(s, &d, 0, "/accept", &r);
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);
  assert_int_equal(game_seq(s, d.id), 0);
}

/* A move that emptied the pool made the next throw and drew a Yeti card:
 * both seats have seen them, so it is never taken back, even with the
 * other seat's consent; the refusal names the row and changes nothing. */
static void test_takeback_after_a_draw_is_refused(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;
  long seq_before;
  int seat = -1, i;

  start_duel(s, &d);
  for (i = 0; i < 5; i++) /* two seats play five dice: the fifth empties the pool */
    seat = play_die(s, &d);
  seq_before = game_seq(s, d.id);
  post_takeback(s, &d, seat, "", &r);
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  assert_non_null(strstr(harness_str(r.json, "detail"), "row 4 "));
  harness_response_free(&r);
  post_takeback(s, &d, 1 - seat, "/accept", &r); /* nothing was asked */
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);
  assert_int_equal(game_seq(s, d.id), seq_before);
  expect_verifies(s, d.id);
}

/* Among people, an earlier move after which nothing was drawn or revealed
 * is a request: declined, asked again, accepted; the game goes on. */
static void test_an_earlier_harmless_move_is_taken_back_by_request(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;
  json_t *before, *g, *after;
  long seq_before;
  int seat;

  start_duel(s, &d);
  before = harness_get_game(s, NULL, d.id);
  seat = play_die(s, &d);
  play_die(s, &d); /* the other seat: my move is no longer the last row */
  seq_before = game_seq(s, d.id);
  post_takeback(s, &d, seat, "", &r);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_has_event(r.json, "takeback_requested"));
  harness_response_free(&r);
  assert_int_equal(game_seq(s, d.id), seq_before); /* a request changes nothing */

  post_takeback(s, &d, seat, "/accept", &r); /* the asker cannot answer */
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);
  post_takeback(s, &d, 1 - seat, "/accept", &r);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_has_event(r.json, "taken_back"));
  harness_response_free(&r);

  g = harness_get_game(s, NULL, d.id);
  assert_true(json_equal(json_object_get(before, "view"), json_object_get(g, "view")));
  assert_int_equal(json_integer_value(json_object_get(g, "seq")), seq_before + 1);
  json_decref(g);
  json_decref(before);
  expect_verifies(s, d.id);

  /* The game goes on after the takeback, and stays verifiable. */
  play_die(s, &d);
  after = harness_get_game(s, NULL, d.id);
  assert_int_equal(json_integer_value(json_object_get(after, "seq")), seq_before + 2);
  json_decref(after);
  expect_verifies(s, d.id);
}

/* A duel two moves in, where the first mover has asked to take its move
 * back (the other's move since makes it a request). Returns that seat. */
static int duel_with_a_request(struct harness_server *s, struct duel *d)
{
  struct harness_response r;
  int seat;

  start_duel(s, d);
  seat = play_die(s, d);
  play_die(s, d);
  post_takeback(s, d, seat, "", &r);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_has_event(r.json, "takeback_requested"));
  harness_response_free(&r);
  return seat;
}

/* Issue "Abuse", 5: request and decline cycles appended rows forever. A
 * seat asks once a turn: after a decline it may ask again only once a
 * move has been made, and a refused request stores nothing. */
static void test_a_seat_asks_for_a_takeback_once_a_turn(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;
  json_t *g;
  long moves;
  int seat;

  seat = duel_with_a_request(s, &d);
  post_takeback(s, &d, 1 - seat, "/decline", &r);
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_has_event(r.json, "takeback_declined"));
  harness_response_free(&r);
  post_takeback(s, &d, 1 - seat, "/accept", &r); /* nothing left to accept */
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);

  g = harness_get_game(s, NULL, d.id);
  moves = harness_int(g, "moves");
  json_decref(g);
  for (int i = 0; i < 5; i++) {
    post_takeback(s, &d, seat, "", &r);
    HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
    assert_non_null(strstr(harness_str(r.json, "detail"), "one request a turn"));
    harness_response_free(&r);
  }
  g = harness_get_game(s, NULL, d.id);
  assert_int_equal(harness_int(g, "moves"), moves);
  json_decref(g);

  play_die(s, &d); /* a move: a new turn */
  post_takeback(s, &d, seat, "", &r);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
}

/* A move cancels an open request. */
static void test_a_move_cancels_an_open_request(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;
  int seat;

  seat = duel_with_a_request(s, &d);
  play_die(s, &d);
  post_takeback(s, &d, 1 - seat, "/accept", &r);
  HARNESS_EXPECT_PROBLEM(&r, 409, "no-takeback");
  harness_response_free(&r);
  expect_verifies(s, d.id);
}

/* Issue "Replay and audit", 5: a live game pinned to a rules version this
 * server no longer plays stays readable and takes no moves. */
static void test_game_pinned_to_a_retired_rules_version_takes_no_moves(void **state)
{
  struct harness_server *s = *state;
  struct duel d;
  struct harness_response r;
  sqlite3 *db = NULL;
  char sql[256];
  json_t *g, *body;

  start_duel(s, &d);
  harness_pause(s);
  assert_int_equal(sqlite3_open(s->db_path, &db), SQLITE_OK);
  snprintf(sql, sizeof sql,
           "DROP TRIGGER IF EXISTS games_fixed;"
           "UPDATE games SET rules_version = 'himalaya-0' WHERE id = '%s'",
           d.id);
  assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  harness_resume(s);
  g = harness_get_game(s, d.p[0].token, d.id);
  assert_string_equal(harness_str(g, "rules_version"), "himalaya-0");
  body = json_pack("{s:i, s:O}", "seq", 0, "move", json_array_get(json_object_get(g, "legal"), 0));
  harness_call_json(s, &r, "POST", d.p[0].token, body, "/v1/games/%s/moves", d.id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "rules-version-retired");
  harness_response_free(&r);
  json_decref(body);
  json_decref(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_own_last_move_without_a_draw_is_taken_back_at_once),
      cmocka_unit_test(test_takeback_without_a_move_is_refused),
      cmocka_unit_test(test_takeback_after_a_draw_is_refused),
      cmocka_unit_test(test_an_earlier_harmless_move_is_taken_back_by_request),
      cmocka_unit_test(test_a_seat_asks_for_a_takeback_once_a_turn),
      cmocka_unit_test(test_a_move_cancels_an_open_request),
      cmocka_unit_test(test_game_pinned_to_a_retired_rules_version_takes_no_moves),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/takeback", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return rc;
}
