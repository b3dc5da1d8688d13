/*
 * test_everest_game.c - a 4-player game of Everest (piecepack) over HTTP:
 * the title in the catalog, home bases chosen in seat order, secret plans
 * (pending at one seq, hidden from other seats and spectators in views and
 * the log, revealed together), plans built from the compact `legal`
 * descriptor, conflicts and end-of-round choices from full lists, played to
 * the end (the opt-in round cap keeps random play short), then the
 * finished game's public seed and log. Each test plays a game of its own
 * up to the point it checks, through the same steps, so none depends on
 * another having run first.
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

#define TITLE     "everest-piecepack"
#define SEATS     4
#define MAX_POSTS 3000

struct played {
  bool started;
  bool finished;
  struct harness_player players[SEATS];
  char id[64];
  long posts;
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

/* While the game runs, no one but `seat` sees its unrevealed plan: the
 * other seats' and the spectator's views carry no "plan" for it, and their
 * logs no plan-submitted event of another seat. */
static void check_plan_hidden(struct harness_server *s, int seat)
{
  int viewer;

  for (viewer = -1; viewer < SEATS; viewer++) {
    const char *token = viewer < 0 ? NULL : game.players[viewer].token;
    json_t *g, *log, *e;
    size_t i;

    if (viewer == seat)
      continue;
    g = harness_get_game(s, token, game.id);
    if (strcmp(harness_str(json_object_get(g, "view"), "phase"), "plan") == 0)
      assert_null(json_object_get(
          json_array_get(json_object_get(json_object_get(g, "view"), "seats"), (size_t)seat),
          "plan"));
    json_decref(g);
    log = harness_get_log(s, token, game.id, 0);
    json_array_foreach(json_object_get(log, "events"), i, e)
    {
      const json_t *ev = json_object_get(e, "event");

      if (strcmp(harness_str(ev, "type"), "plan-submitted") == 0)
        assert_int_equal(harness_int(ev, "seat"), viewer);
    }
    json_decref(log);
  }
}

/* The title is in the catalog with 2 to 4 seats. */
static void test_everest_is_listed_with_two_to_four_seats(void **state)
{
  harness_expect_title(*state, TITLE, "Everest (piecepack)", 2, 4, "everest-2");
}

/* Four players join; they choose their home bases one after another
 * ("Players place their pawns on one of the inside corners"), a taken
 * corner is refused with the set-up rule; then every seat owes a plan at
 * once, and legal is the compact descriptor. A bad option is refused when
 * the game is created. */
static void join_four_and_choose_bases(struct harness_server *s)
{
  static const char *const names[SEATS] = {"Ang", "Pemba", "Dawa", "Mingma"};
  struct harness_response r;
  json_t *created, *g;
  int seat;

  memset(&game, 0, sizeof game); /* a game of this test's own */
  harness_call(s, &r, "POST", NULL, "{\"name\":\"Host\"}", "/v1/players");
  HARNESS_EXPECT_JSON(&r, 201);
  {
    const char *host = harness_str(r.json, "token");
    struct harness_response bad;

    harness_call(s, &bad, "POST", host,
                 "{\"title\":\"" TITLE "\",\"seats\":4,\"options\":{\"round_cap\":-1}}",
                 "/v1/games");
    HARNESS_EXPECT_PROBLEM(&bad, 400, "bad-value");
    harness_response_free(&bad);
  }
  harness_response_free(&r);
  for (seat = 0; seat < SEATS; seat++)
    harness_new_player(s, names[seat], &game.players[seat]);
  created = harness_new_game(s, game.players[0].token, TITLE, SEATS, "{\"round_cap\":8}");
  snprintf(game.id, sizeof game.id, "%s", harness_game_id(created));
  json_decref(created);
  for (seat = 0; seat < SEATS; seat++)
    assert_int_equal(harness_join(s, game.players[seat].token, game.id, seat), seat);
  for (seat = 0; seat < SEATS; seat++) {
    json_t *base;
    struct harness_response r2;

    g = harness_get_game(s, game.players[seat].token, game.id);
    assert_int_equal(json_array_size(json_object_get(g, "to_act")), 1);
    assert_true(harness_may_act(g, seat));
    assert_int_equal(json_array_size(json_object_get(g, "legal")), (size_t)(SEATS - seat));
    if (seat == 1) {
      /* seat 0 took [1,0], the first corner listed to it */
      base = json_pack("{s:s, s:[i, i]}", "type", "base", "base", 1, 0);
      harness_post_move(s, &r2, game.players[seat].token, game.id, harness_int(g, "seq"), base);
      HARNESS_EXPECT_PROBLEM(&r2, 422, "illegal-move");
      assert_string_equal(harness_str(r2.json, "rule"), "everest-piecepack: Game set up");
      harness_response_free(&r2);
      json_decref(base);
    }
    base = json_incref(json_array_get(json_object_get(g, "legal"), 0));
    harness_post_move(s, &r2, game.players[seat].token, game.id, harness_int(g, "seq"), base);
    HARNESS_EXPECT_JSON(&r2, 200);
    harness_response_free(&r2);
    json_decref(base);
    json_decref(g);
  }
  g = harness_get_game(s, game.players[2].token, game.id);
  assert_string_equal(harness_str(g, "status"), "active");
  assert_int_equal(json_array_size(json_object_get(g, "to_act")), SEATS);
  assert_string_equal(harness_str(json_array_get(json_object_get(g, "legal"), 0), "type"),
                      "plan-options");
  json_decref(g);
  game.started = true;
}

static void test_four_players_join_and_all_owe_plans(void **state)
{
  join_four_and_choose_bases(*state);
}

/* A plan is pending at the same seq and hidden from everyone else; a
 * malformed or short plan is refused; the last plan reveals all four. */
static void submit_the_first_plans(struct harness_server *s)
{
  struct harness_rng rng = {.state = 7};
  struct harness_response r;
  json_t *g, *move, *log;
  long seq;
  int seat;

  assert_true(game.started);
  g = harness_get_game(s, NULL, game.id);
  seq = harness_int(g, "seq");
  json_decref(g);

  move = json_pack("{s:s, s:[{s:i, s:s, s:s}]}", "type", "plan", "plan", "coin", 1, "face", "value",
                   "dir", "N");
  harness_post_move(s, &r, game.players[0].token, game.id, seq, move);
  HARNESS_EXPECT_PROBLEM(&r, 422, "illegal-move");
  assert_string_equal(harness_str(r.json, "rule"),
                      "everest-piecepack: Making a Plan for your Yeti");
  harness_response_free(&r);
  json_decref(move);
  move = json_pack("{s:s}", "type", "plan-options");
  harness_post_move(s, &r, game.players[0].token, game.id, seq, move);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-move");
  harness_response_free(&r);
  json_decref(move);

  for (seat = 0; seat < SEATS; seat++) {
    json_t *mine = harness_get_game(s, game.players[seat].token, game.id);

    move = harness_choose_move(mine, &rng);
    json_decref(mine);
    harness_post_move(s, &r, game.players[seat].token, game.id, seq, move);
    HARNESS_EXPECT_JSON(&r, 200);
    game.posts++;
    if (seat < SEATS - 1) {
      /* pending: the same seq, the submitter leaves to_act */
      assert_int_equal(harness_int(r.json, "seq"), seq);
      assert_false(harness_may_act(json_object_get(r.json, "game"), seat));
      check_plan_hidden(s, seat);
    } else {
      assert_int_equal(harness_int(r.json, "seq"), seq + 1);
    }
    harness_response_free(&r);
    json_decref(move);
  }
  log = harness_get_log(s, NULL, game.id, 0);
  assert_true(mentions(log, "plans-revealed"));
  assert_false(mentions(log, "plan-submitted"));
  json_decref(log);
}

static void test_plans_are_secret_until_all_are_in(void **state)
{
  join_four_and_choose_bases(*state);
  submit_the_first_plans(*state);
}

/* Play on to the end: plans from the descriptor, orders and end-of-round
 * choices from the lists, every seat that owes a decision in turn. */
static void play_to_the_end(struct harness_server *s)
{
  struct harness_rng rng = {.state = 2026};
  json_t *g;

  assert_true(game.started);
  for (;;) {
    json_t *to_act;
    long seq;
    int mover;

    g = harness_get_game(s, NULL, game.id);
    if (strcmp(harness_str(g, "status"), "finished") == 0)
      break;
    to_act = json_object_get(g, "to_act");
    assert_true(json_array_size(to_act) > 0);
    seq = harness_int(g, "seq");
    mover = (int)json_integer_value(json_array_get(to_act, 0));
    json_decref(g);
    {
      json_t *mine = harness_get_game(s, game.players[mover].token, game.id);
      json_t *move = harness_choose_move(mine, &rng);
      struct harness_response r;
      bool planning = strcmp(harness_str(json_object_get(mine, "view"), "phase"), "plan") == 0;

      json_decref(mine);
      harness_post_move(s, &r, game.players[mover].token, game.id, seq, move);
      HARNESS_EXPECT_JSON(&r, 200);
      if (planning && harness_int(r.json, "seq") == seq && game.posts % 5 == 0)
        check_plan_hidden(s, mover);
      harness_response_free(&r);
      json_decref(move);
    }
    if (++game.posts > MAX_POSTS)
      fail_msg("still running after %ld moves", game.posts);
  }
  assert_non_null(json_object_get(g, "result"));
  assert_true(json_is_array(json_object_get(json_object_get(g, "result"), "winners")));
  assert_non_null(json_object_get(g, "seed"));
  print_message("everest over HTTP: %ld moves, %s\n", game.posts,
                harness_str(json_object_get(g, "result"), "reason"));
  json_decref(g);
  game.finished = true;
}

static void test_whole_game_is_played_to_the_end(void **state)
{
  join_four_and_choose_bases(*state);
  submit_the_first_plans(*state);
  play_to_the_end(*state);
}

/* Once finished, the log hides nothing: every plan-submitted event is
 * there for everyone. */
static void test_finished_game_shows_every_plan(void **state)
{
  struct harness_server *s = *state;
  json_t *log;

  join_four_and_choose_bases(s);
  submit_the_first_plans(s);
  play_to_the_end(s);
  assert_true(game.finished);
  log = harness_get_log(s, NULL, game.id, 0);
  assert_true(mentions(log, "plan-submitted"));
  json_decref(log);
}

static int release(void **state)
{
  memset(&game, 0, sizeof game);
  return harness_teardown(state);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_everest_is_listed_with_two_to_four_seats),
      cmocka_unit_test(test_four_players_join_and_all_owe_plans),
      cmocka_unit_test(test_plans_are_secret_until_all_are_in),
      cmocka_unit_test(test_whole_game_is_played_to_the_end),
      cmocka_unit_test(test_finished_game_shows_every_plan),
  };
  int failed;

  if (sodium_init() < 0)
    return 1;
  harness_global_init();
  failed = order_run_group_tests(tests, harness_setup, release);
  harness_global_cleanup();
  return failed;
}
