/*
 * test_full_game.c - whole Himalaya games over HTTP, 2 and 5 seats: joining,
 * playing legal moves until the game ends, then the promises that only a
 * finished game can show: the seed matches its commitment, every position
 * replays, the log is ordered, a finished game refuses moves, and all of it
 * survives a restart (shared/design/api.md "Determinism", api/README.md
 * "Seed commitment", "Replay", "Log").
 *
 * Every test plays the game of each size it needs (the same seed and moves
 * each time: play_game) and records what it saw live, then checks those
 * records against what the server says now, so no test depends on another
 * having run first.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/harness.h"

/* Himalaya always ends: the bad weather card is shuffled in after the nine
 * Yeti cards, one card per throw of the dice. Far fewer moves than this. */
#define MAX_MOVES 2000

struct played {
  bool finished;                    /* the game was played to its end */
  int seats;                        /* 2..5 */
  struct harness_player players[5]; /* players[i] holds seat i */
  char id[64];                      /* the game id */
  char commitment[80];              /* seed_commitment as first seen */
  long final_seq;                   /* seq once finished */
  json_t *spectator_views;          /* [N] = spectator "view" after move N (N=0: start) */
  json_t *mover_views;              /* [N] = "view" in the 200 of move N (N=0: null) */
  json_t *movers;                   /* [N] = seat that made move N (N=0: null) */
  json_t *events;                   /* [N] = "events" in the 200 of move N (N=0: []) */
  json_t *last_move;                /* the final move sent */
};

static struct played games[2]; /* [0]: 2 seats, [1]: 5 seats */

static bool is_lower_hex(const char *s, size_t len)
{
  if (!s || strlen(s) != len)
    return false;
  for (size_t i = 0; i < len; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* Print where two JSON values differ: the first differing member or element,
 * followed down, so a message names the path instead of two whole views. */
static void print_difference(const json_t *want, const json_t *got, char *path, size_t len)
{
  size_t n = strlen(path);
  if (json_is_object(want) && json_is_object(got)) {
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)want, key, v)
    {
      json_t *w = json_object_get(got, key);
      if (!w || !json_equal(v, w)) {
        snprintf(path + n, len - n, ".%s", key);
        if (w) {
          print_difference(v, w, path, len);
        } else {
          print_error("  %s: missing\n", path);
        }
        return;
      }
    }
    json_object_foreach((json_t *)got, key, v)
    {
      if (!json_object_get(want, key)) {
        snprintf(path + n, len - n, ".%s", key);
        print_error("  %s: unexpected member\n", path);
        return;
      }
    }
  }
  if (json_is_array(want) && json_is_array(got) && json_array_size(want) == json_array_size(got)) {
    for (size_t i = 0; i < json_array_size(want); i++) {
      if (!json_equal(json_array_get(want, i), json_array_get(got, i))) {
        snprintf(path + n, len - n, "[%zu]", i);
        print_difference(json_array_get(want, i), json_array_get(got, i), path, len);
        return;
      }
    }
  }
  char *a = harness_dump(want);
  char *b = harness_dump(got);
  print_error("  at %s\n    expected: %.600s\n    got:      %.600s\n", path[0] ? path : "(top)",
              a ? a : "?", b ? b : "?");
  free(a);
  free(b);
}

static void assert_json_equal(const json_t *want, const json_t *got, const char *what, long n)
{
  if (json_equal((json_t *)want, (json_t *)got))
    return;
  char path[512] = "";
  print_error("%s (N=%ld) differs:\n", what, n);
  print_difference(want, got, path, sizeof path);
  fail();
}

/* True when every member and element of `want` is in `got` with the same
 * value; `got` may have more members. */
static bool json_contains(const json_t *want, const json_t *got)
{
  if (json_is_object(want) && json_is_object(got)) {
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)want, key, v)
    {
      json_t *w = json_object_get(got, key);
      if (!w || !json_contains(v, w))
        return false;
    }
    return true;
  }
  if (json_is_array(want) && json_is_array(got)) {
    if (json_array_size(want) != json_array_size(got))
      return false;
    for (size_t i = 0; i < json_array_size(want); i++)
      if (!json_contains(json_array_get(want, i), json_array_get(got, i)))
        return false;
    return true;
  }
  return json_equal((json_t *)want, (json_t *)got);
}

/* api.md: a finished game's seed is public, and api/games.c then shows
 * everything ("A finished game hides nothing"), so a replay of a finished
 * game may show more than was visible live, but never something else. */
static void assert_json_contains(const json_t *want, const json_t *got, const char *what, long n)
{
  if (json_contains(want, got))
    return;
  char path[512] = "";
  print_error("%s (N=%ld) does not contain what was seen live:\n", what, n);
  print_difference(want, got, path, sizeof path);
  fail();
}

/* Per-viewer invariants of one GET /v1/games/{id} answer during play.
 * README: "legal appears only when the viewer holds a seat that may act
 * now"; "seed (hex) appears only once finished"; "your_seat is the viewer's
 * seat or null". */
static void check_view_invariants(const json_t *g, const struct played *p, int viewer, long seq)
{
  assert_string_equal(harness_str(g, "id"), p->id);
  assert_string_equal(harness_str(g, "title"), "himalaya");
  assert_true(strlen(harness_str(g, "rules_version")) > 0);
  assert_int_equal(harness_int(g, "seq"), seq);
  assert_string_equal(harness_str(g, "seed_commitment"), p->commitment);
  if (strcmp(harness_str(g, "status"), "finished") != 0)
    assert_null(json_object_get(g, "seed"));
  assert_int_equal(json_array_size(json_object_get(g, "seats")), p->seats);
  assert_true(json_is_object(json_object_get(g, "view")));
  json_t *your = json_object_get(g, "your_seat");
  json_t *legal = json_object_get(g, "legal");
  if (viewer < 0) {
    assert_true(json_is_null(your));
    assert_null(legal);
  } else {
    assert_int_equal(harness_int(g, "your_seat"), viewer);
    if (harness_may_act(g, viewer)) {
      assert_true(json_is_array(legal));
      assert_true(json_array_size(legal) > 0);
    } else {
      assert_null(legal);
    }
  }
}

static void check_commitment(const char *seed_hex, const char *game_id, const char *commitment)
{
  unsigned char seed[32];
  unsigned char hash[32];
  char hex[65];
  size_t seed_len = 0;
  assert_true(is_lower_hex(seed_hex, 64));
  assert_int_equal(sodium_hex2bin(seed, sizeof seed, seed_hex, 64, NULL, &seed_len, NULL), 0);
  assert_int_equal(seed_len, 32);

  size_t id_len = strlen(game_id);
  unsigned char *msg = malloc(32 + id_len);
  assert_non_null(msg);
  memcpy(msg, seed, 32);
  memcpy(msg + 32, game_id, id_len);
  assert_int_equal(crypto_generichash(hash, sizeof hash, msg, 32 + id_len, NULL, 0), 0);
  free(msg);
  sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
  assert_string_equal(hex, commitment);
}

/* Create, join every seat, play random legal moves to the end. */
static void play(struct harness_server *s, struct played *p, int seats, uint64_t rng_seed,
                 long restart_at)
{
  struct harness_rng rng = {rng_seed};
  char name[32];
  memset(p, 0, sizeof *p);
  p->seats = seats;
  p->spectator_views = json_array();
  p->mover_views = json_array();
  p->movers = json_array();
  p->events = json_array();

  for (int i = 0; i < seats; i++) {
    snprintf(name, sizeof name, "climber-%d", i);
    harness_new_player(s, name, &p->players[i]);
  }
  json_t *created = harness_new_game(s, p->players[0].token, "himalaya", seats, "{}");
  snprintf(p->id, sizeof p->id, "%s", harness_game_id(created));
  const char *commitment = harness_str(created, "seed_commitment");
  assert_true(is_lower_hex(commitment, 64));
  snprintf(p->commitment, sizeof p->commitment, "%s", commitment);
  assert_int_equal(harness_int(created, "seq"), 0);
  assert_int_equal(json_array_size(json_object_get(created, "to_act")), 0);
  assert_null(json_object_get(created, "seed"));
  json_decref(created);

  /* README: "{} or empty body takes the lowest free seat"; api.md: "the game
   * starts (status active) when every seat is taken". */
  for (int i = 0; i < seats; i++) {
    json_t *before = harness_get_game(s, NULL, p->id);
    assert_string_equal(harness_str(before, "status"), "open");
    assert_int_equal(json_array_size(json_object_get(before, "to_act")), 0);
    json_decref(before);
    assert_int_equal(harness_join(s, p->players[i].token, p->id, -1), i);
  }

  json_t *g = harness_get_game(s, NULL, p->id);
  assert_string_equal(harness_str(g, "status"), "active");
  for (int i = 0; i < seats; i++) {
    json_t *seat = json_array_get(json_object_get(g, "seats"), (size_t)i);
    assert_int_equal(harness_int(seat, "seat"), i);
    assert_string_equal(harness_str(json_object_get(seat, "player"), "id"), p->players[i].id);
  }
  json_array_append(p->spectator_views, json_object_get(g, "view"));
  json_array_append_new(p->mover_views, json_null());
  json_array_append_new(p->movers, json_null());
  json_array_append_new(p->events, json_array());
  json_decref(g);

  long seq = 0;
  for (;;) {
    json_t *spectator = harness_get_game(s, NULL, p->id);
    check_view_invariants(spectator, p, -1, seq);
    const char *status = harness_str(spectator, "status");
    if (strcmp(status, "finished") == 0) {
      json_decref(spectator);
      break;
    }
    assert_string_equal(status, "active");
    json_t *to_act = json_object_get(spectator, "to_act");
    assert_true(json_array_size(to_act) > 0);
    int mover = (int)json_integer_value(json_array_get(to_act, 0));
    assert_in_range(mover, 0, seats - 1);
    if (seq >= MAX_MOVES)
      fail_msg("the game is still active after %d moves", MAX_MOVES);

    json_t *legal = NULL;
    for (int i = 0; i < seats; i++) {
      json_t *mine = harness_get_game(s, p->players[i].token, p->id);
      check_view_invariants(mine, p, i, seq);
      assert_true(json_equal(json_object_get(mine, "to_act"), to_act));
      if (i == mover)
        legal = json_incref(json_object_get(mine, "legal"));
      json_decref(mine);
    }
    json_decref(spectator);

    json_t *move =
        json_incref(json_array_get(legal, harness_rng_below(&rng, json_array_size(legal))));
    json_decref(legal);

    struct harness_response r;
    harness_post_move(s, &r, p->players[mover].token, p->id, seq, move);
    HARNESS_EXPECT_JSON(&r, 200);
    if (harness_int(r.json, "seq") != seq + 1)
      harness_fail_response(&r, __FILE__, __LINE__, "seq did not advance from %ld", seq);
    if (!json_is_array(json_object_get(r.json, "events")))
      harness_fail_response(&r, __FILE__, __LINE__, "no 'events' array");
    json_t *game = json_object_get(r.json, "game");
    if (!json_is_object(game) || harness_int(game, "seq") != seq + 1 ||
        strcmp(harness_str(game, "id"), p->id) != 0)
      harness_fail_response(&r, __FILE__, __LINE__, "no 'game' at the new seq");
    seq++;
    json_array_append(p->mover_views, json_object_get(game, "view"));
    json_array_append_new(p->movers, json_integer(mover));
    json_array_append(p->events, json_object_get(r.json, "events"));
    harness_response_free(&r);
    json_decref(p->last_move);
    p->last_move = move;

    json_t *after = harness_get_game(s, NULL, p->id);
    json_array_append(p->spectator_views, json_object_get(after, "view"));

    /* A restart mid-game must not change what anyone sees. */
    if (seq == restart_at) {
      json_t *mover_before = harness_get_game(s, p->players[mover].token, p->id);
      harness_restart(s);
      json_t *again = harness_get_game(s, NULL, p->id);
      assert_json_equal(after, again, "spectator resource across a restart", seq);
      json_t *mover_again = harness_get_game(s, p->players[mover].token, p->id);
      assert_json_equal(mover_before, mover_again, "mover resource across a restart", seq);
      json_decref(again);
      json_decref(mover_before);
      json_decref(mover_again);
    }
    bool running = strcmp(harness_str(after, "status"), "active") == 0;
    json_decref(after);

    /* While the game runs, a replay follows the live visibility rules, so
     * it equals exactly what was seen at the time (README "Replay": "same
     * per-viewer rules"). Once it is over, everything is public. */
    if (running && seq % 5 == 0) {
      long n = (long)harness_rng_below(&rng, (uint64_t)seq + 1);
      harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s?at=%ld", p->id, n);
      HARNESS_EXPECT_JSON(&r, 200);
      assert_int_equal(harness_int(r.json, "seq"), n);
      assert_null(json_object_get(r.json, "legal"));
      assert_json_equal(json_array_get(p->spectator_views, (size_t)n),
                        json_object_get(r.json, "view"), "live spectator replay view", n);
      harness_response_free(&r);
      if (n > 0) {
        int who = (int)json_integer_value(json_array_get(p->movers, (size_t)n));
        harness_call(s, &r, "GET", p->players[who].token, NULL, "/v1/games/%s?at=%ld", p->id, n);
        HARNESS_EXPECT_JSON(&r, 200);
        assert_json_equal(json_array_get(p->mover_views, (size_t)n),
                          json_object_get(r.json, "view"), "live mover replay view", n);
        harness_response_free(&r);
      }
    }
  }
  p->final_seq = seq;
  p->finished = true;
  print_message("%d seats: finished after %ld moves%s\n", seats, seq,
                restart_at > 0 && restart_at <= seq ? ", with a restart mid-game" : "");
}

static void release_played(struct played *p)
{
  json_decref(p->spectator_views);
  json_decref(p->mover_views);
  json_decref(p->movers);
  json_decref(p->events);
  json_decref(p->last_move);
  memset(p, 0, sizeof *p);
}

/* Play game `which` (0: 2 seats, 1: 5 seats) anew into games[which], in
 * place of any earlier one, and return it, finished. */
static struct played *play_game(struct harness_server *s, int which)
{
  struct played *p = &games[which];

  release_played(p);
  if (which == 0)
    /* A restart after move 7 checks the live cache is rebuilt from storage. */
    play(s, p, 2, 0x2a2a2a2au, 7);
  else
    play(s, p, 5, 0x5eed5u, -1);
  assert_true(p->finished);
  return p;
}

/* api.md: status becomes active when every seat is taken; each accepted
 * move answers 200 {seq, events, game} with seq one higher. */
static void test_two_player_game_is_played_to_the_end(void **state)
{
  play_game(*state, 0);
}

static void test_five_player_game_is_played_to_the_end(void **state)
{
  play_game(*state, 1);
}

/* api.md: "the seed itself is revealed only when the game is finished";
 * README: BLAKE2b-256 over the 32 seed bytes then the game id's ASCII. */
static void check_finished(struct harness_server *s, struct played *p)
{
  json_t *g = harness_get_game(s, NULL, p->id);
  assert_string_equal(harness_str(g, "status"), "finished");
  assert_int_equal(harness_int(g, "seq"), p->final_seq);
  assert_int_equal(json_array_size(json_object_get(g, "to_act")), 0);
  assert_null(json_object_get(g, "legal"));
  json_t *result = json_object_get(g, "result");
  assert_true(json_is_object(result));
  json_t *winners = json_object_get(result, "winners");
  assert_true(json_is_array(winners));
  assert_true(json_array_size(winners) > 0);
  size_t i;
  json_t *w;
  json_array_foreach(winners, i, w)
  {
    assert_true(json_is_integer(w));
    assert_in_range(json_integer_value(w), 0, p->seats - 1);
  }
  assert_true(strlen(harness_str(result, "reason")) > 0);
  assert_string_equal(harness_str(g, "seed_commitment"), p->commitment);
  check_commitment(harness_str(g, "seed"), p->id, p->commitment);

  /* Seated players see the same ending, and no seat has anything to do. */
  for (int k = 0; k < p->seats; k++) {
    json_t *mine = harness_get_game(s, p->players[k].token, p->id);
    assert_string_equal(harness_str(mine, "status"), "finished");
    assert_null(json_object_get(mine, "legal"));
    assert_string_equal(harness_str(mine, "seed"), harness_str(g, "seed"));
    assert_true(json_equal(json_object_get(mine, "result"), result));
    json_decref(mine);
  }
  json_decref(g);
}

static void test_finished_two_player_game_reveals_seed_matching_commitment(void **state)
{
  check_finished(*state, play_game(*state, 0));
}

static void test_finished_five_player_game_reveals_seed_matching_commitment(void **state)
{
  check_finished(*state, play_game(*state, 1));
}

/* README "Replay": GET ?at=N, 0 <= N <= seq, rebuilt from the seed and the
 * log, "same per-viewer rules", no `legal`. Every N is compared with the
 * spectator view seen live; every seventh (and the last) also with the view
 * the mover received in its 200. */
static void check_replay(struct harness_server *s, struct played *p)
{
  for (long n = 0; n <= p->final_seq; n++) {
    struct harness_response r;
    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s?at=%ld", p->id, n);
    HARNESS_EXPECT_JSON(&r, 200);
    if (harness_int(r.json, "seq") != n)
      harness_fail_response(&r, __FILE__, __LINE__, "replay is not at seq %ld", n);
    assert_null(json_object_get(r.json, "legal"));
    assert_json_contains(json_array_get(p->spectator_views, (size_t)n),
                         json_object_get(r.json, "view"), "spectator replay view", n);
    harness_response_free(&r);

    if (n > 0 && (n % 7 == 0 || n == p->final_seq)) {
      int mover = (int)json_integer_value(json_array_get(p->movers, (size_t)n));
      harness_call(s, &r, "GET", p->players[mover].token, NULL, "/v1/games/%s?at=%ld", p->id, n);
      HARNESS_EXPECT_JSON(&r, 200);
      assert_int_equal(harness_int(r.json, "seq"), n);
      assert_null(json_object_get(r.json, "legal"));
      assert_json_contains(json_array_get(p->mover_views, (size_t)n),
                           json_object_get(r.json, "view"), "mover replay view", n);
      harness_response_free(&r);
    }
  }
}

static void test_every_position_of_the_two_player_game_replays(void **state)
{
  check_replay(*state, play_game(*state, 0));
}

static void test_every_position_of_the_five_player_game_replays(void **state)
{
  check_replay(*state, play_game(*state, 1));
}

/* README "Log": {game, seq, events:[{seq, ord, at, event}]} with every event
 * of every move whose resulting seq >= N, in order. */
static void check_log(struct harness_server *s, struct played *p)
{
  json_t *log = harness_get_log(s, NULL, p->id, 0);
  assert_string_equal(harness_str(log, "game"), p->id);
  assert_int_equal(harness_int(log, "seq"), p->final_seq);
  json_t *events = json_object_get(log, "events");
  assert_true(json_is_array(events));
  assert_true(json_array_size(events) > 0);
  long last_seq = 0, last_ord = -1;
  size_t i;
  json_t *e;
  json_array_foreach(events, i, e)
  {
    long seq = harness_int(e, "seq");
    long ord = harness_int(e, "ord");
    assert_in_range(seq, 1, p->final_seq);
    assert_true(seq >= last_seq);
    assert_true(ord >= last_ord);
    assert_non_null(json_object_get(e, "at"));
    assert_true(json_is_object(json_object_get(e, "event")));
    assert_true(strlen(harness_str(json_object_get(e, "event"), "type")) > 0);
    last_seq = seq;
    last_ord = ord;
  }
  /* The last move made events, so the log reaches the final seq; and in a
   * game with no simultaneous steps each move has its own ord. */
  assert_int_equal(last_seq, p->final_seq);
  assert_int_equal(last_ord, p->final_seq - 1);

  /* The log holds exactly the events each mover was sent in its 200, move
   * by move (Himalaya has no private events, so the mover saw them all). */
  json_t *by_seq = json_array();
  for (long n = 0; n <= p->final_seq; n++)
    json_array_append_new(by_seq, json_array());
  json_array_foreach(events, i, e)
  {
    json_array_append(json_array_get(by_seq, (size_t)harness_int(e, "seq")),
                      json_object_get(e, "event"));
  }
  for (long n = 1; n <= p->final_seq; n++)
    assert_json_equal(json_array_get(p->events, (size_t)n), json_array_get(by_seq, (size_t)n),
                      "logged events of move", n);
  json_decref(by_seq);

  /* from=N is the tail of from=0 that starts at seq N. */
  long from = p->final_seq / 2;
  json_t *tail = harness_get_log(s, NULL, p->id, from);
  json_t *want = json_array();
  json_array_foreach(events, i, e)
  {
    if (json_integer_value(json_object_get(e, "seq")) >= from)
      json_array_append(want, e);
  }
  assert_json_equal(want, json_object_get(tail, "events"), "log from the middle", from);
  json_decref(want);
  json_decref(tail);
  json_decref(log);
}

static void test_log_of_the_two_player_game_is_in_seq_order(void **state)
{
  check_log(*state, play_game(*state, 0));
}

static void test_log_of_the_five_player_game_is_in_seq_order(void **state)
{
  check_log(*state, play_game(*state, 1));
}

/* README: 409 game-not-active for "moves on an open or finished game". */
static void check_refuses_moves(struct harness_server *s, struct played *p)
{
  json_t *before = harness_get_game(s, NULL, p->id);
  json_t *log_before = harness_get_log(s, NULL, p->id, 0);
  for (int k = 0; k < p->seats; k++) {
    struct harness_response r;
    harness_post_move(s, &r, p->players[k].token, p->id, p->final_seq, p->last_move);
    HARNESS_EXPECT_PROBLEM(&r, 409, "game-not-active");
    harness_response_free(&r);
  }
  json_t *after = harness_get_game(s, NULL, p->id);
  json_t *log_after = harness_get_log(s, NULL, p->id, 0);
  assert_json_equal(before, after, "finished game after refused moves", p->final_seq);
  assert_json_equal(log_before, log_after, "log after refused moves", p->final_seq);
  json_decref(before);
  json_decref(after);
  json_decref(log_before);
  json_decref(log_after);
}

static void test_finished_two_player_game_refuses_moves(void **state)
{
  check_refuses_moves(*state, play_game(*state, 0));
}

static void test_finished_five_player_game_refuses_moves(void **state)
{
  check_refuses_moves(*state, play_game(*state, 1));
}

/* Storage is the truth: after a restart the finished games, their logs and
 * their replays read exactly as before, for spectators and players. */
static void test_finished_games_survive_a_restart(void **state)
{
  struct harness_server *s = *state;
  struct played *ps[2] = {play_game(s, 0), play_game(s, 1)};
  json_t *before = json_array();
  for (int k = 0; k < 2; k++) {
    struct played *p = ps[k];
    json_array_append_new(before, harness_get_game(s, NULL, p->id));
    for (int i = 0; i < p->seats; i++)
      json_array_append_new(before, harness_get_game(s, p->players[i].token, p->id));
    json_array_append_new(before, harness_get_log(s, NULL, p->id, 0));
  }

  harness_restart(s);

  size_t at = 0;
  for (int k = 0; k < 2; k++) {
    struct played *p = ps[k];
    json_t *g = harness_get_game(s, NULL, p->id);
    assert_json_equal(json_array_get(before, at++), g, "spectator resource after restart", k);
    json_decref(g);
    for (int i = 0; i < p->seats; i++) {
      g = harness_get_game(s, p->players[i].token, p->id);
      assert_json_equal(json_array_get(before, at++), g, "player resource after restart", i);
      json_decref(g);
    }
    json_t *log = harness_get_log(s, NULL, p->id, 0);
    assert_json_equal(json_array_get(before, at++), log, "log after restart", k);
    json_decref(log);
  }
  json_decref(before);
  check_replay(s, ps[0]);
}

static int release_games(void **state)
{
  for (size_t i = 0; i < sizeof games / sizeof *games; i++)
    release_played(&games[i]);
  return harness_teardown(state);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_player_game_is_played_to_the_end),
      cmocka_unit_test(test_five_player_game_is_played_to_the_end),
      cmocka_unit_test(test_finished_two_player_game_reveals_seed_matching_commitment),
      cmocka_unit_test(test_finished_five_player_game_reveals_seed_matching_commitment),
      cmocka_unit_test(test_every_position_of_the_two_player_game_replays),
      cmocka_unit_test(test_every_position_of_the_five_player_game_replays),
      cmocka_unit_test(test_log_of_the_two_player_game_is_in_seq_order),
      cmocka_unit_test(test_log_of_the_five_player_game_is_in_seq_order),
      cmocka_unit_test(test_finished_two_player_game_refuses_moves),
      cmocka_unit_test(test_finished_five_player_game_refuses_moves),
      cmocka_unit_test(test_finished_games_survive_a_restart),
  };
  if (sodium_init() < 0)
    return 1;
  harness_global_init();
  int failed = order_run_group_tests(tests, harness_setup, release_games);
  harness_global_cleanup();
  return failed;
}
