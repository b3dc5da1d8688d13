/*
 * test_ratings.c - ratings through the real server (game/ratings.c,
 * api/profiles.c, cli/ratings.c; issue 25, docs/ratings.md): the end of a
 * rated game updates its players' ratings in the same transaction, and
 * `cairn ratings-recompute` reproduces every stored rating bit for bit
 * from the finished games; games against bots and games ended by a
 * timeout are not rated; a solo game rates its player against the
 * scenario; GET /v1/players/{id} and GET /v1/leaderboards/{title}.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define POOL 24 /* players the random games draw their seats from */

struct pool {
  struct harness_player p[POOL];
  int rated_games[POOL]; /* rated games each took part in, as the test counts them */
};

static void make_pool(struct harness_server *s, struct pool *pool)
{
  char name[32];
  int i;

  memset(pool, 0, sizeof(*pool));
  for (i = 0; i < POOL; i++) {
    snprintf(name, sizeof name, "climber-%02d", i);
    harness_new_player(s, name, &pool->p[i]);
  }
}

/* `n` distinct players of the pool into who[0..n). */
static void draw_players(struct harness_rng *rng, int n, int who[])
{
  int i, j;

  for (i = 0; i < n; i++) {
    bool fresh;

    do {
      who[i] = (int)harness_rng_below(rng, POOL);
      fresh = true;
      for (j = 0; j < i; j++)
        fresh = fresh && who[j] != who[i];
    } while (!fresh);
  }
}

/* Create a `title` game of the players who[0..n) (seat i: who[i]). */
static void seat_game(struct harness_server *s, struct pool *pool, const char *title, int n,
                      const int who[], const char *options, char id[64])
{
  json_t *g = harness_new_game(s, pool->p[who[0]].token, title, n, options);
  int i;

  snprintf(id, 64, "%s", harness_game_id(g));
  json_decref(g);
  for (i = 0; i < n; i++)
    harness_join(s, pool->p[who[i]].token, id, i);
}

/* One random legal move by a seat that owes one; false once the game is
 * over. */
static bool play_one(struct harness_server *s, struct pool *pool, const int who[], const char *id,
                     struct harness_rng *rng)
{
  json_t *g = harness_get_game(s, NULL, id);
  json_t *mine, *move, *body;
  struct harness_response r;
  int seat;
  bool over = strcmp(harness_str(g, "status"), "finished") == 0;

  seat = over ? -1 : (int)json_integer_value(json_array_get(json_object_get(g, "to_act"), 0));
  json_decref(g);
  if (over)
    return false;
  mine = harness_get_game(s, pool->p[who[seat]].token, id);
  move = harness_choose_move(mine, rng);
  body = json_pack("{s:O, s:o}", "seq", json_object_get(mine, "seq"), "move", move);
  harness_call_json(s, &r, "POST", pool->p[who[seat]].token, body, "/v1/games/%s/moves", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  json_decref(mine);
  return true;
}

/* Seat `seat` resigns (any time: a resignation needs no turn). */
static void resign(struct harness_server *s, const char *token, const char *id)
{
  json_t *g = harness_get_game(s, NULL, id);
  json_t *body = json_pack("{s:O}", "seq", json_object_get(g, "seq"));
  struct harness_response r;

  harness_call_json(s, &r, "POST", token, body, "/v1/games/%s/resign", id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  json_decref(g);
}

static bool finished(struct harness_server *s, const char *id)
{
  json_t *g = harness_get_game(s, NULL, id);
  bool over = strcmp(harness_str(g, "status"), "finished") == 0;

  json_decref(g);
  return over;
}

/* A random rated game: mostly two seats ended by a resignation after a
 * few moves, some played out to the rules' end (two to four seats), some
 * solo scenarios. */
static void random_game(struct harness_server *s, struct pool *pool, struct harness_rng *rng)
{
  static const char *const duel_titles[] = {"himalaya", "everest-piecepack", "because-its-there"};
  static const char *const duel_options[] = {NULL, NULL, "{\"scenario\":\"1963\"}"};
  uint64_t title = harness_rng_below(rng, 3);
  uint64_t kind = harness_rng_below(rng, 10);
  int who[4], n = 2, moves, i;
  char id[64];

  if (kind < 7) {
    draw_players(rng, n, who);
    seat_game(s, pool, duel_titles[title], n, who, duel_options[title], id);
    for (moves = (int)harness_rng_below(rng, 6); moves > 0 && play_one(s, pool, who, id, rng);)
      moves--;
    if (!finished(s, id))
      resign(s, pool->p[who[harness_rng_below(rng, n)]].token, id);
  } else if (kind < 9) {
    n = 2 + (int)harness_rng_below(rng, 3);
    draw_players(rng, n, who);
    seat_game(s, pool, "himalaya", n, who, NULL, id);
    for (moves = 0; moves < 5000 && play_one(s, pool, who, id, rng); moves++)
      ;
  } else {
    n = 1;
    draw_players(rng, n, who);
    seat_game(s, pool, "because-its-there", 1, who, "{\"scenario\":\"1953\"}", id);
    for (moves = (int)harness_rng_below(rng, 8); moves > 0 && play_one(s, pool, who, id, rng);)
      moves--;
    if (!finished(s, id))
      resign(s, pool->p[who[0]].token, id);
  }
  assert_true(finished(s, id));
  for (i = 0; i < n; i++)
    pool->rated_games[who[i]]++;
}

/* Games a player's profile counts in `title` (0 when not rated there). */
static long profile_games(struct harness_server *s, const char *player, const char *title)
{
  json_t *profile = harness_get_json(s, NULL, "/v1/players/%s", player);
  json_t *ratings = json_object_get(profile, "ratings");
  long games = 0;
  size_t i;
  json_t *r;

  json_array_foreach(ratings, i, r)
  {
    if (strcmp(harness_str(r, "title"), title) == 0)
      games = harness_int(r, "games");
  }
  json_decref(profile);
  return games;
}

static long profile_games_all(struct harness_server *s, const char *player)
{
  json_t *profile = harness_get_json(s, NULL, "/v1/players/%s", player);
  json_t *ratings = json_object_get(profile, "ratings");
  long games = 0;
  size_t i;
  json_t *r;

  json_array_foreach(ratings, i, r)
  {
    games += harness_int(r, "games");
  }
  json_decref(profile);
  return games;
}

/* Run the recomputation on a copy of the store: its exit status, and its
 * report in *out (new reference). */
static int recompute(const char *db_path, json_t **out)
{
  char args[1300];

  snprintf(args, sizeof args, "ratings-recompute --db %s", db_path);
  return harness_run_tool(args, out);
}

/* Nudge one stored rating by the smallest step a double takes. */
static void nudge_one_rating(const char *db_path)
{
  sqlite3 *db = NULL;

  assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db,
                                "UPDATE ratings SET mu = mu + mu * 2.3e-16"
                                " WHERE rowid = (SELECT min(rowid) FROM ratings)",
                                NULL, NULL, NULL),
                   SQLITE_OK);
  assert_int_equal(sqlite3_changes(db), 1);
  sqlite3_close(db);
}

/* Issue 25: "a rating recomputation equals the stored ratings after a few
 * hundred random games". */
static void test_recomputing_after_hundreds_of_games_gives_the_stored_ratings(void **state)
{
  struct harness_server own = {0}, *s = &own; /* its own store: every rated game is this test's */
  struct harness_rng rng = {.state = 0x25};
  struct pool pool;
  char snapshot[1200];
  json_t *report = NULL;
  long total = 0;
  int i;

  (void)state;
  harness_start(s);
  make_pool(s, &pool);
  for (i = 0; i < 300; i++)
    random_game(s, &pool, &rng);
  for (i = 0; i < POOL; i++) {
    assert_int_equal(profile_games_all(s, pool.p[i].id), pool.rated_games[i]);
    total += pool.rated_games[i];
  }
  assert_true(total >= 300);

  snprintf(snapshot, sizeof snapshot, "%s/copy.db", s->dir);
  harness_db_snapshot(s, snapshot);
  assert_int_equal(recompute(snapshot, &report), 0);
  assert_int_equal(harness_int(report, "games"), 300);
  assert_int_equal(harness_int(report, "mismatches"), 0);
  assert_int_equal(harness_int(report, "stored"), harness_int(report, "ratings"));
  json_decref(report);

  /* The comparison is bit for bit: one rating off by one ulp is caught. */
  nudge_one_rating(snapshot);
  assert_int_equal(recompute(snapshot, &report), 1);
  assert_int_equal(harness_int(report, "mismatches"), 1);
  json_decref(report);
  assert_true(harness_stop(s));
}

/* Issue 25: "games against bots ... and abandoned games are unrated". */
static void test_a_game_against_a_bot_is_not_rated(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me;
  struct harness_response r;
  char id[64];

  harness_new_player(s, "bot-fighter", &me);
  harness_call(s, &r, "POST", me.token, "{\"title\":\"himalaya\",\"seats\":2,\"bots\":[1]}",
               "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, sizeof id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  harness_join(s, me.token, id, 0);
  resign(s, me.token, id);
  assert_true(finished(s, id));
  assert_int_equal(profile_games(s, me.id, "himalaya"), 0);
}

/* Issue 25: "abandoned games are unrated": a game the sweeper ends for a
 * missed deadline (on_timeout "adjudicate") rates nobody. */
static void test_a_game_ended_by_a_timeout_is_not_rated(void **state)
{
  struct harness_server own = {0};
  struct harness_player p[2];
  struct harness_response r;
  json_t *g;
  char id[64];

  (void)state;
  setenv("CAIRN_TEST_CLOCK", "1", 1);
  harness_start(&own);
  harness_new_player(&own, "prompt", &p[0]);
  harness_new_player(&own, "absent", &p[1]);
  harness_call(&own, &r, "POST", p[0].token,
               "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"move_hours\":24},"
               "\"on_timeout\":\"adjudicate\"}",
               "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, sizeof id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  harness_join(&own, p[0].token, id, 1);
  harness_join(&own, p[1].token, id, 0); /* seat 0 owes the first move, and never makes it */
  harness_advance_clock(&own, 25LL * 3600000LL);
  g = harness_get_game(&own, NULL, id);
  assert_string_equal(harness_str(g, "status"), "finished");
  assert_string_equal(harness_str(json_object_get(g, "result"), "reason"), "timeout");
  json_decref(g);
  assert_int_equal(profile_games(&own, p[0].id, "himalaya"), 0);
  assert_int_equal(profile_games(&own, p[1].id, "himalaya"), 0);
  unsetenv("CAIRN_TEST_CLOCK");
  assert_true(harness_stop(&own));
}

/* A resignation ends a duel rated: the winner gains, the resigner loses. */
static void test_a_resigned_duel_rates_the_winner_above_the_loser(void **state)
{
  struct harness_server *s = *state;
  struct pool pool;
  int who[2] = {0, 1};
  json_t *winner, *loser;
  char id[64];

  make_pool(s, &pool);
  seat_game(s, &pool, "everest-piecepack", 2, who, NULL, id);
  resign(s, pool.p[1].token, id);
  winner = harness_get_json(s, NULL, "/v1/players/%s", pool.p[0].id);
  loser = harness_get_json(s, NULL, "/v1/players/%s", pool.p[1].id);
  {
    json_t *w = json_array_get(json_object_get(winner, "ratings"), 0);
    json_t *l = json_array_get(json_object_get(loser, "ratings"), 0);

    assert_string_equal(harness_str(w, "title"), "everest-piecepack");
    assert_int_equal(harness_int(w, "wins"), 1);
    assert_int_equal(harness_int(l, "losses"), 1);
    assert_true(json_real_value(json_object_get(w, "mu")) > 25.0);
    assert_true(json_real_value(json_object_get(l, "mu")) < 25.0);
    assert_true(json_real_value(json_object_get(w, "sigma")) < 25.0 / 3.0);
    assert_string_equal(harness_str(winner, "name"), pool.p[0].name);
  }
  json_decref(winner);
  json_decref(loser);
}

/* Solo: the player is rated against the scenario, which is no player and
 * so on no leaderboard. */
static void test_a_solo_game_rates_its_player_against_the_scenario(void **state)
{
  struct harness_server *s = *state;
  struct pool pool;
  int who[1] = {3};
  json_t *board;
  char id[64];
  size_t i;
  json_t *e;

  make_pool(s, &pool);
  seat_game(s, &pool, "because-its-there", 1, who, "{\"scenario\":\"1953\"}", id);
  resign(s, pool.p[3].token, id);
  assert_int_equal(profile_games(s, pool.p[3].id, "because-its-there"), 1);
  board = harness_get_json(s, NULL, "/v1/leaderboards/because-its-there?limit=100");
  json_array_foreach(json_object_get(board, "players"), i, e)
  {
    assert_null(strstr(harness_str(json_object_get(e, "player"), "id"), "scenario:"));
  }
  json_decref(board);
}

/* A leaderboard lists a title's rated players best first, a page at a
 * time. */
static void test_a_leaderboard_pages_through_players_best_first(void **state)
{
  struct harness_server *s = *state;
  struct harness_rng rng = {.state = 7};
  struct harness_response r;
  struct pool pool;
  json_t *page, *next;
  double last = 1e9;
  long seen = 0, offset = 0;
  int i, who[2];
  char id[64];

  make_pool(s, &pool);
  for (i = 0; i < 12; i++) {
    draw_players(&rng, 2, who);
    seat_game(s, &pool, "everest-piecepack", 2, who, NULL, id);
    resign(s, pool.p[who[1]].token, id);
  }
  do {
    size_t j;
    json_t *e;

    page =
        harness_get_json(s, NULL, "/v1/leaderboards/everest-piecepack?limit=5&offset=%ld", offset);
    assert_string_equal(harness_str(page, "title"), "everest-piecepack");
    json_array_foreach(json_object_get(page, "players"), j, e)
    {
      double rating = json_real_value(json_object_get(e, "rating"));

      assert_true(rating <= last);
      last = rating;
      assert_int_equal(harness_int(e, "rank"), offset + (long)j + 1);
      seen++;
    }
    next = json_object_get(page, "next");
    offset = json_is_integer(next) ? (long)json_integer_value(next) : -1;
    json_decref(page);
  } while (offset >= 0);
  assert_true(seen >= 2);

  harness_call(s, &r, "GET", NULL, NULL, "/v1/leaderboards/no-such-title");
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/leaderboards/everest-piecepack?limit=101");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/players/nosuchplayer");
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_recomputing_after_hundreds_of_games_gives_the_stored_ratings),
      cmocka_unit_test(test_a_game_against_a_bot_is_not_rated),
      cmocka_unit_test(test_a_game_ended_by_a_timeout_is_not_rated),
      cmocka_unit_test(test_a_resigned_duel_rates_the_winner_above_the_loser),
      cmocka_unit_test(test_a_solo_game_rates_its_player_against_the_scenario),
      cmocka_unit_test(test_a_leaderboard_pages_through_players_best_first),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/ratings", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return rc;
}
