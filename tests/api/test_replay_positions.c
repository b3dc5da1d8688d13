/*
 * test_replay_positions.c - GET /v1/games/{id}?at=N answers as the game
 * stood after move N, for every N and every title: status, to_act, result
 * and seq as the live game answered then, and (while the game runs, when
 * both follow the same per-viewer rules) the very same view for every seat
 * and a spectator. Once the game is over, an early position must not show
 * the end: status "finished", to_act [] or the result there would be the
 * final position's, not the one asked for. Each move's 200 carries the
 * new log_head.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/harness.h"

#define MAX_SEATS 5
#define MAX_POSTS 4000

/* What the live game answered at each seq, kept for the comparison after
 * the end. The last answer at a seq wins: ?at=N includes every row of that
 * seq (a simultaneous step's pending decisions too). */
struct position_record {
  json_t *by_seq; /* object: seq (decimal text) -> {status, to_act, result} */
};

static json_t *position_fields(const json_t *game)
{
  return json_pack("{s:O, s:O, s:O, s:O}", "status", json_object_get(game, "status"), "to_act",
                   json_object_get(game, "to_act"), "result", json_object_get(game, "result"),
                   "seq", json_object_get(game, "seq"));
}

static void assert_same(const json_t *want, const json_t *got, const char *what, long seq)
{
  char *a = harness_dump(want);
  char *b = harness_dump(got);

  if (strcmp(a, b) != 0)
    fail_msg("%s at seq %ld differs:\n live:   %s\n replay: %s", what, seq, a, b);
  free(a);
  free(b);
}

/* GET ?at=seq as `token`; new reference to the answer. */
static json_t *get_at(struct harness_server *s, const char *token, const char *id, long seq)
{
  struct harness_response r;
  json_t *out;

  harness_call(s, &r, "GET", token, NULL, "/v1/games/%s?at=%ld", id, seq);
  HARNESS_EXPECT_JSON(&r, 200);
  out = json_incref(r.json);
  harness_response_free(&r);
  return out;
}

/* While the game runs: the replay of the current seq equals the live answer
 * for every viewer, view included. */
static void compare_live(struct harness_server *s, const struct harness_player *players, int seats,
                         const char *id, struct position_record *rec)
{
  int viewer;

  for (viewer = -1; viewer < seats; viewer++) {
    const char *token = viewer < 0 ? NULL : players[viewer].token;
    json_t *live = harness_get_game(s, token, id);
    long seq = harness_int(live, "seq");
    json_t *past = get_at(s, token, id, seq);
    json_t *want = position_fields(live);
    json_t *got = position_fields(past);

    assert_same(want, got, "status, to_act, result", seq);
    assert_same(json_object_get(live, "view"), json_object_get(past, "view"), "view", seq);
    if (viewer < 0) {
      char key[24];

      snprintf(key, sizeof key, "%ld", seq);
      json_object_set(rec->by_seq, key, want);
    }
    json_decref(want);
    json_decref(got);
    json_decref(past);
    json_decref(live);
  }
}

/* After the end: every earlier position answers its own status, to_act and
 * result, never the final ones. */
static void compare_after_end(struct harness_server *s, const char *id,
                              const struct position_record *rec, long final_seq)
{
  const char *key;
  json_t *want;
  int earlier_active = 0;

  json_object_foreach(rec->by_seq, key, want)
  {
    long seq = strtol(key, NULL, 10);
    json_t *past = get_at(s, NULL, id, seq);
    json_t *got = position_fields(past);

    assert_same(want, got, "finished game: status, to_act, result", seq);
    if (seq < final_seq && strcmp(harness_str(past, "status"), "active") == 0)
      earlier_active++;
    json_decref(got);
    json_decref(past);
  }
  /* The test can fail: a game has positions before its end. */
  assert_true(earlier_active > 0);
}

/* A move's 200 carries the chain head with that move in it: the head the
 * game resource shows next, never the one before the move. */
static void expect_fresh_log_head(struct harness_server *s, const char *id, const json_t *answered,
                                  const char *before)
{
  json_t *now = harness_get_game(s, NULL, id);
  const char *head = harness_str(answered, "log_head");

  if (strcmp(head, harness_str(now, "log_head")) != 0 || strcmp(head, before) == 0)
    fail_msg("game %s: the move's answer has log_head %s; the game now has %s, before it %s", id,
             head, harness_str(now, "log_head"), before);
  json_decref(now);
}

static void play_and_compare(struct harness_server *s, const char *title, int seats,
                             const char *options, uint64_t seed)
{
  struct harness_player players[MAX_SEATS];
  struct harness_rng rng = {seed};
  struct position_record rec = {json_object()};
  char name[32], id[64];
  json_t *created;
  long posts, final_seq = -1;
  char last_head[80] = "";
  int i;

  for (i = 0; i < seats; i++) {
    snprintf(name, sizeof name, "replayer-%d", i);
    harness_new_player(s, name, &players[i]);
  }
  created = harness_new_game(s, players[0].token, title, seats, options);
  snprintf(id, sizeof id, "%s", harness_game_id(created));
  json_decref(created);
  for (i = 0; i < seats; i++)
    harness_join(s, players[i].token, id, i);
  compare_live(s, players, seats, id, &rec);
  for (posts = 0; posts < MAX_POSTS; posts++) {
    json_t *g = harness_get_game(s, NULL, id);
    json_t *mine, *move;
    struct harness_response r;
    int seat;

    if (strcmp(harness_str(g, "status"), "finished") == 0) {
      final_seq = harness_int(g, "seq");
      json_decref(g);
      break;
    }
    seat = (int)json_integer_value(json_array_get(json_object_get(g, "to_act"), 0));
    json_decref(g);
    mine = harness_get_game(s, players[seat].token, id);
    move = harness_choose_move(mine, &rng);
    harness_post_move(s, &r, players[seat].token, id, harness_int(mine, "seq"), move);
    HARNESS_EXPECT_JSON(&r, 200);
    expect_fresh_log_head(s, id, json_object_get(r.json, "game"), last_head);
    snprintf(last_head, sizeof last_head, "%s",
             harness_str(json_object_get(r.json, "game"), "log_head"));
    harness_response_free(&r);
    json_decref(move);
    json_decref(mine);
    compare_live(s, players, seats, id, &rec);
  }
  if (final_seq < 0)
    fail_msg("%s game %s did not finish in %d posts", title, id, MAX_POSTS);
  compare_after_end(s, id, &rec, final_seq);
  json_decref(rec.by_seq);
}

static void test_himalaya_positions_replay_as_they_were(void **state)
{
  play_and_compare(*state, "himalaya", 2, NULL, 11);
}

static void test_everest_positions_replay_as_they_were(void **state)
{
  /* Random HTTP play never holds the peak; the opt-in cap (no longer on by
   * default) ends it after as many rounds as the old default did. */
  play_and_compare(*state, "everest-piecepack", 2, "{\"round_cap\":200}", 12);
}

static void test_because_its_there_solo_positions_replay_as_they_were(void **state)
{
  play_and_compare(*state, "because-its-there", 1, NULL, 13);
}

static void test_because_its_there_duel_positions_replay_as_they_were(void **state)
{
  play_and_compare(*state, "because-its-there", 2, NULL, 14);
}

static void test_journey_positions_replay_as_they_were(void **state)
{
  play_and_compare(*state, "journey-to-the-top", 3, NULL, 15);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_himalaya_positions_replay_as_they_were, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_everest_positions_replay_as_they_were, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_because_its_there_solo_positions_replay_as_they_were,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_because_its_there_duel_positions_replay_as_they_were,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_journey_positions_replay_as_they_were, harness_setup,
                                      harness_teardown),
  };
  int failed;

  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
