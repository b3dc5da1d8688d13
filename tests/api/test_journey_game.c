/*
 * test_journey_game.c - whole games of Journey to the Top of the World
 * over HTTP with three players (Tenzing, Hillary, the Mountain): joining,
 * the simultaneous steps (buying and the climbers' turn: moves at the same
 * seq, which advances only when the step resolves), playing legal moves to
 * the end, and the hidden hand: while the game runs no climber or
 * spectator view or log holds the Mountain's cards, the Mountain sees
 * them, and once it is over everything is public and the seed matches its
 * commitment (shared/design/api.md "Simultaneous and hidden decisions",
 * "Determinism"). Each test plays a game of its own up to the point it
 * checks, through the same steps, so none depends on another having run
 * first.
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

#define TITLE      "journey-to-the-top"
#define MOUNTAIN   2
#define MAX_POSTS  3000
#define TURN_LIMIT 10

struct played {
  bool finished;
  struct harness_player players[3];
  char id[64];
  char commitment[80];
  long final_seq;
  long posts;
  json_t *spectator_at; /* [N] = the last spectator view seen at seq N */
};

static struct played game;

/* True when the JSON text of `j` contains `needle`. */
static bool mentions(const json_t *j, const char *needle)
{
  char *text = harness_dump(j);
  bool found = text && strstr(text, needle) != NULL;

  free(text);
  return found;
}

/* A running game's view for a climber or spectator never holds the hand
 * or the deck; the Mountain's holds its hand. */
static void check_secrets(const json_t *g, int viewer)
{
  const json_t *view = json_object_get(g, "view");

  assert_true(json_is_object(view));
  assert_null(json_object_get(view, "deck"));
  if (viewer == MOUNTAIN) {
    assert_true(json_is_object(json_object_get(view, "hand")));
    assert_null(json_object_get(view, "forecast"));
  } else {
    assert_null(json_object_get(view, "hand"));
  }
  if (viewer < 0)
    assert_null(json_object_get(view, "forecast"));
}

/* The log as a climber or spectator sees it while the game runs: no card
 * draws, and a Forecast only for the climber who used it. */
static void check_log_hides_cards(struct harness_server *s, const char *token, int viewer)
{
  json_t *log = harness_get_log(s, token, game.id, 0);
  json_t *events = json_object_get(log, "events"), *e;
  size_t i;

  json_array_foreach(events, i, e)
  {
    const json_t *ev = json_object_get(e, "event");
    const char *type = harness_str(ev, "type");

    if (viewer != MOUNTAIN)
      assert_string_not_equal(type, "drew");
    if (strcmp(type, "forecast") == 0)
      assert_int_equal(harness_int(ev, "seat"), viewer);
  }
  json_decref(log);
}

static void check_commitment(const char *seed_hex, const char *game_id, const char *commitment)
{
  unsigned char seed[32], hash[32];
  char hex[65];
  size_t seed_len = 0, id_len = strlen(game_id);
  unsigned char *msg = malloc(32 + id_len);

  assert_non_null(msg);
  assert_int_equal(sodium_hex2bin(seed, sizeof seed, seed_hex, 64, NULL, &seed_len, NULL), 0);
  assert_int_equal(seed_len, 32);
  memcpy(msg, seed, 32);
  memcpy(msg + 32, game_id, id_len);
  assert_int_equal(crypto_generichash(hash, sizeof hash, msg, 32 + id_len, NULL, 0), 0);
  free(msg);
  sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
  assert_string_equal(hex, commitment);
}

/* The title is in the catalog with exactly three seats. */
static void test_journey_is_listed_with_three_seats(void **state)
{
  harness_expect_title(*state, TITLE, "Journey to the Top of the World", 3, 3, "journey-2");
}

/* The view's options, byte for byte: the request's text (spaced) as
 * json_dumps(JSON_COMPACT | JSON_SORT_KEYS) writes it. games.c copies
 * the stored text rather than parsing it again (issue 22). */
static void expect_options_text(struct harness_server *s, const char *id, const char *options)
{
  struct harness_response r;
  json_t *parsed = json_loads(options, 0, NULL);
  char *canon = json_dumps(parsed, JSON_COMPACT | JSON_SORT_KEYS);
  char expected[128];

  snprintf(expected, sizeof expected, "\"options\":%s,", canon);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s", id);
  HARNESS_EXPECT_JSON(&r, 200);
  if (!strstr(r.body, expected))
    harness_fail_response(&r, __FILE__, __LINE__, "the options are not written canonically");
  harness_response_free(&r);
  free(canon);
  json_decref(parsed);
}

/* Three players join; the game becomes active with both climbers owing
 * their purchases at once, each seeing its own role. */
static void join_three(struct harness_server *s)
{
  static const char *const names[3] = {"Tenzing", "Hillary", "Everest"};
  static const char *const roles[3] = {"tenzing", "hillary", "mountain"};
  char options[64];
  json_t *created, *g;
  int i;

  json_decref(game.spectator_at); /* a game of this test's own */
  memset(&game, 0, sizeof game);
  game.spectator_at = json_array();
  for (i = 0; i < 3; i++)
    harness_new_player(s, names[i], &game.players[i]);
  snprintf(options, sizeof options, "{\"turn_limit\": %d}", TURN_LIMIT);
  created = harness_new_game(s, game.players[0].token, TITLE, 3, options);
  snprintf(game.id, sizeof game.id, "%s", harness_game_id(created));
  snprintf(game.commitment, sizeof game.commitment, "%s", harness_str(created, "seed_commitment"));
  json_decref(created);
  for (i = 0; i < 3; i++)
    assert_int_equal(harness_join(s, game.players[i].token, game.id, i), i);

  expect_options_text(s, game.id, options);
  g = harness_get_game(s, NULL, game.id);
  assert_string_equal(harness_str(g, "status"), "active");
  assert_int_equal(json_array_size(json_object_get(g, "to_act")), 2);
  assert_true(harness_may_act(g, 0) && harness_may_act(g, 1) && !harness_may_act(g, MOUNTAIN));
  check_secrets(g, -1);
  json_array_append(game.spectator_at, json_object_get(g, "view"));
  json_decref(g);
  for (i = 0; i < 3; i++) {
    g = harness_get_game(s, game.players[i].token, game.id);
    assert_string_equal(harness_str(json_object_get(g, "view"), "your_role"), roles[i]);
    check_secrets(g, i);
    assert_int_equal(json_array_size(json_object_get(g, "legal")) > 0, i != MOUNTAIN);
    json_decref(g);
  }
}

static void test_three_players_join_and_both_climbers_buy_at_once(void **state)
{
  join_three(*state);
}

/* api.md: simultaneous steps take moves at the current seq; seq advances
 * when the step resolves. Tenzing buys and finishes; the seq stays; the
 * Mountain may not move; Hillary finishes and turn 1 begins at seq 1. */
static void buy_and_finish_both(struct harness_server *s)
{
  struct harness_response r;
  json_t *buy = json_pack("{s:s, s:s}", "type", "buy", "item", "grappling_hook");
  json_t *done = json_pack("{s:s}", "type", "done");

  harness_post_move(s, &r, game.players[0].token, game.id, 0, buy);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_int_equal(harness_int(r.json, "seq"), 0);
  harness_response_free(&r);
  harness_post_move(s, &r, game.players[0].token, game.id, 0, done);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_int_equal(harness_int(r.json, "seq"), 0);
  harness_response_free(&r);
  harness_post_move(s, &r, game.players[MOUNTAIN].token, game.id, 0, done);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-your-turn");
  harness_response_free(&r);
  harness_post_move(s, &r, game.players[1].token, game.id, 0, buy);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  harness_post_move(s, &r, game.players[1].token, game.id, 0, done);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_int_equal(harness_int(r.json, "seq"), 1);
  assert_string_equal(
      harness_str(json_object_get(json_object_get(r.json, "game"), "view"), "phase"), "climbers");
  harness_response_free(&r);
  json_decref(buy);
  json_decref(done);
  game.posts = 4;
}

static void test_buying_is_pending_until_both_climbers_are_done(void **state)
{
  join_three(*state);
  buy_and_finish_both(*state);
}

/* Play on with random legal moves (either climber may go next in their
 * turn) until the game ends, checking the secrets at every step. */
static void play_to_the_end(struct harness_server *s)
{
  struct harness_rng rng = {0x8848u};
  long seq = 1;
  bool illegal_checked = false;

  for (;;) {
    json_t *spectator = harness_get_game(s, NULL, game.id), *to_act, *mine, *legal, *move;
    struct harness_response r;
    int mover, i;

    if (strcmp(harness_str(spectator, "status"), "finished") == 0) {
      json_decref(spectator);
      break;
    }
    assert_int_equal(harness_int(spectator, "seq"), seq);
    check_secrets(spectator, -1);
    while ((long)json_array_size(game.spectator_at) <= seq)
      json_array_append_new(game.spectator_at, json_null());
    json_array_set(game.spectator_at, (size_t)seq, json_object_get(spectator, "view"));
    to_act = json_object_get(spectator, "to_act");
    assert_true(json_array_size(to_act) > 0);
    mover = (int)json_integer_value(
        json_array_get(to_act, harness_rng_below(&rng, json_array_size(to_act))));
    json_decref(spectator);
    if (++game.posts > MAX_POSTS)
      fail_msg("still running after %d moves", MAX_POSTS);

    for (i = 0; i < 3 && game.posts % 10 == 0; i++) {
      json_t *g = harness_get_game(s, game.players[i].token, game.id);

      check_secrets(g, i);
      json_decref(g);
      check_log_hides_cards(s, game.players[i].token, i);
    }
    mine = harness_get_game(s, game.players[mover].token, game.id);
    check_secrets(mine, mover);
    legal = json_object_get(mine, "legal");
    assert_true(json_array_size(legal) > 0);
    move = json_incref(json_array_get(legal, harness_rng_below(&rng, json_array_size(legal))));

    /* Once, a rule violation: with no value paid yet this turn, no card
     * can be played (the cheapest costs 4). 422 with the rule. */
    if (!illegal_checked && mover == MOUNTAIN &&
        harness_int(json_object_get(json_object_get(mine, "view"), "mountain"), "credit") == 0) {
      json_t *bad = json_pack("{s:s, s:s}", "type", "play", "card", "yeti");

      harness_post_move(s, &r, game.players[MOUNTAIN].token, game.id, seq, bad);
      HARNESS_EXPECT_PROBLEM(&r, 422, "illegal-move");
      assert_string_equal(harness_str(r.json, "rule"),
                          "journey-to-the-top: Mt. Everest (environment player)");
      harness_response_free(&r);
      illegal_checked = true;
      json_decref(bad);
    }
    json_decref(mine);

    harness_post_move(s, &r, game.players[mover].token, game.id, seq, move);
    HARNESS_EXPECT_JSON(&r, 200);
    {
      long next = harness_int(r.json, "seq");

      /* A pending move keeps the seq; a resolving one advances it by 1. */
      if (next != seq && next != seq + 1)
        harness_fail_response(&r, __FILE__, __LINE__, "seq went from %ld to %ld", seq, next);
      if (next == seq && mover == MOUNTAIN)
        harness_fail_response(&r, __FILE__, __LINE__, "the Mountain's move was left pending");
      seq = next;
    }
    harness_response_free(&r);
    json_decref(move);

    /* While running, a replay equals what a spectator saw then. */
    if (game.posts % 7 == 0) {
      long n = (long)harness_rng_below(&rng, (uint64_t)seq);
      json_t *g = harness_get_game(s, NULL, game.id);

      if (strcmp(harness_str(g, "status"), "active") == 0 && n >= 1) {
        harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s?at=%ld", game.id, n);
        HARNESS_EXPECT_JSON(&r, 200);
        assert_true(json_equal(json_array_get(game.spectator_at, (size_t)n),
                               json_object_get(r.json, "view")));
        harness_response_free(&r);
      }
      json_decref(g);
    }
  }
  assert_true(illegal_checked);
  game.final_seq = seq;
  game.finished = true;
  print_message("journey: finished at seq %ld after %ld moves\n", seq, game.posts);
}

static void test_whole_game_is_played_to_the_end(void **state)
{
  join_three(*state);
  buy_and_finish_both(*state);
  play_to_the_end(*state);
}

/* Once finished: a result with winners (the climbers or the Mountain), the
 * seed matches the commitment, and nothing is hidden any more. */
static void test_finished_game_reveals_seed_and_everything(void **state)
{
  struct harness_server *s = *state;
  json_t *g, *result, *log, *events, *e;
  size_t i;
  bool drew = false;

  join_three(s);
  buy_and_finish_both(s);
  play_to_the_end(s);
  assert_true(game.finished);
  g = harness_get_game(s, game.players[0].token, game.id);
  assert_string_equal(harness_str(g, "status"), "finished");
  assert_int_equal(json_array_size(json_object_get(g, "to_act")), 0);
  result = json_object_get(g, "result");
  assert_true(json_array_size(json_object_get(result, "winners")) >= 1);
  assert_true(mentions(result, "winter") || mentions(result, "death") ||
              mentions(result, "summit-and-back"));
  check_commitment(harness_str(g, "seed"), game.id, game.commitment);
  /* Finished games are shown unfiltered: the hand and the deck too. */
  assert_non_null(json_object_get(json_object_get(g, "view"), "hand"));
  assert_non_null(json_object_get(json_object_get(g, "view"), "deck"));
  json_decref(g);
  log = harness_get_log(s, NULL, game.id, 0);
  events = json_object_get(log, "events");
  json_array_foreach(events, i, e)
  {
    drew = drew || strcmp(harness_str(json_object_get(e, "event"), "type"), "drew") == 0;
  }
  assert_true(drew);
  json_decref(log);
}

static int release(void **state)
{
  json_decref(game.spectator_at);
  memset(&game, 0, sizeof game);
  return harness_teardown(state);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_journey_is_listed_with_three_seats),
      cmocka_unit_test(test_three_players_join_and_both_climbers_buy_at_once),
      cmocka_unit_test(test_buying_is_pending_until_both_climbers_are_done),
      cmocka_unit_test(test_whole_game_is_played_to_the_end),
      cmocka_unit_test(test_finished_game_reveals_seed_and_everything),
  };
  int failed;

  if (sodium_init() < 0)
    return 1;
  harness_global_init();
  failed = order_run_group_tests(tests, harness_setup, release);
  harness_global_cleanup();
  return failed;
}
