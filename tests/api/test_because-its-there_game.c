/*
 * test_because-its-there_game.c - scripted Because It's There! games over
 * HTTP: a solo 1953 expedition and a two-player 1963 race, each seat
 * playing the scripted leader of tests/engine/because-its-there/policy.c
 * from nothing but its own GET /v1/games/{id} (view + legal). Checks that
 * every move is accepted, that both seats of a simultaneous phase submit
 * with the same seq (api.md "Simultaneous and hidden decisions"), that no
 * seat or spectator ever sees another seat's hand, a deck or the Event
 * deck, that private "drew" events stay private in the log, and that the
 * finished game has a result and replays to its final view.
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

/* The scripted leader is shared with the engine tests; build.mk links only
 * this folder's support files into an API test, so it is compiled in. */
#include "tests/engine/because-its-there/policy.c"

#define MAX_MOVES 6000

/* No card object in `v` may be hidden from `viewer`: a view has no
 * "deck"/"event_deck" member, and a seat object other than the viewer's
 * own has no "hand". */
static void check_hidden(const json_t *view, int viewer)
{
  size_t i;
  json_t *s;

  assert_null(json_object_get(view, "event_deck"));
  json_array_foreach(json_object_get(view, "seats"), i, s)
  {
    assert_null(json_object_get(s, "deck"));
    if ((int)i != viewer)
      assert_null(json_object_get(s, "hand"));
    else
      assert_non_null(json_object_get(s, "hand"));
    assert_true(json_is_integer(json_object_get(s, "deck_count")));
  }
}

struct played {
  long moves;         /* moves posted */
  long shared_seq;    /* moves posted with a seq another seat also used */
  json_t *result;     /* the final result */
  json_t *final_view; /* the spectator's final view */
  long final_seq;
};

static void play(struct harness_server *srv, const char *scenario, int seats, struct played *out)
{
  struct harness_player players[2];
  char options[64], id[64];
  json_t *game;
  long last_seq = -1, moves = 0;
  int seat;

  memset(out, 0, sizeof(*out));
  snprintf(options, sizeof options, "{\"scenario\":\"%s\"}", scenario);
  for (seat = 0; seat < seats; seat++) {
    char name[32];
    snprintf(name, sizeof name, "leader%d", seat);
    harness_new_player(srv, name, &players[seat]);
  }
  game = harness_new_game(srv, players[0].token, "because-its-there", seats, options);
  snprintf(id, sizeof id, "%s", harness_game_id(game));
  json_decref(game);
  for (seat = 0; seat < seats; seat++)
    assert_int_equal(harness_join(srv, players[seat].token, id, seat), seat);

  for (;;) {
    json_t *spectator = harness_get_game(srv, NULL, id);
    json_t *to_act;
    size_t k;
    json_t *who;

    /* api.md: a finished game hides nothing, so check while it runs */
    if (strcmp(harness_str(spectator, "status"), "finished") != 0)
      check_hidden(json_object_get(spectator, "view"), -1);
    if (strcmp(harness_str(spectator, "status"), "finished") == 0) {
      out->result = json_incref(json_object_get(spectator, "result"));
      out->final_view = json_incref(json_object_get(spectator, "view"));
      out->final_seq = harness_int(spectator, "seq");
      json_decref(spectator);
      break;
    }
    to_act = json_object_get(spectator, "to_act");
    assert_true(json_array_size(to_act) > 0);
    /* every seat owing a decision acts on the same seq */
    json_array_foreach(to_act, k, who)
    {
      int s = (int)json_integer_value(who);
      json_t *mine = harness_get_game(srv, players[s].token, id);
      json_t *view = json_object_get(mine, "view"), *legal = json_object_get(mine, "legal");
      struct harness_response r;
      long seq = harness_int(mine, "seq");

      check_hidden(view, s);
      if (!harness_may_act(mine, s)) { /* resolved by the other seat meanwhile */
        json_decref(mine);
        continue;
      }
      assert_true(json_array_size(legal) > 0);
      harness_post_move(srv, &r, players[s].token, id, seq,
                        json_array_get(legal, bt_policy(view, legal, s)));
      harness_expect_status(&r, 200, __FILE__, __LINE__);
      harness_response_free(&r);
      if (seq == last_seq)
        out->shared_seq++;
      last_seq = seq;
      json_decref(mine);
      assert_true(++moves < MAX_MOVES);
      break; /* re-read: one seat may have several moves in a row */
    }
    json_decref(spectator);
  }
  out->moves = moves;
}

/* XII 1953 through the API: a solo game runs to its end (turn 20 at the
 * latest) with a result. */
static void test_scripted_1953_game_through_the_api(void **state)
{
  struct harness_server *srv = *state;
  struct played p;

  play(srv, "1953", 1, &p);
  assert_non_null(p.result);
  assert_true(json_is_boolean(json_object_get(p.result, "success")));
  assert_int_equal(json_integer_value(json_object_get(p.result, "turn")) <= 20, 1);
  assert_string_equal(json_string_value(json_object_get(p.final_view, "phase")), "over");
  /* the result names the end of the text reached (README "Result") */
  assert_string_equal(json_string_value(json_object_get(p.result, "reason")),
                      json_is_true(json_object_get(p.result, "success")) ? "two-summits-and-return"
                                                                         : "turn-20");
  print_message("1953: %ld moves, success %s\n", p.moves,
                json_is_true(json_object_get(p.result, "success")) ? "yes" : "no");
  json_decref(p.result);
  json_decref(p.final_view);
}

/* XII 1963 through the API: two seats, simultaneous phases submitted on a
 * shared seq, the draw/win table in the result. */
static void test_scripted_1963_game_through_the_api(void **state)
{
  struct harness_server *srv = *state;
  struct played p;
  json_t *winners;

  play(srv, "1963", 2, &p);
  assert_non_null(p.result);
  winners = json_object_get(p.result, "winners");
  assert_true(json_is_array(winners));
  /* "If both players succeed or both fail the game is a draw." */
  assert_int_equal(json_is_true(json_object_get(p.result, "draw")), json_array_size(winners) == 0);
  assert_string_equal(json_string_value(json_object_get(p.result, "reason")),
                      json_array_size(winners) == 1
                          ? "one-succeeded"
                          : (json_is_true(json_array_get(json_object_get(p.result, "success"), 0))
                                 ? "both-succeeded"
                                 : "both-failed"));
  assert_true(p.shared_seq > 0);
  print_message("1963: %ld moves (%ld on a shared seq), winners %zu\n", p.moves, p.shared_seq,
                json_array_size(winners));
  json_decref(p.result);
  json_decref(p.final_view);
}

/* Hidden information in the log: a spectator of a running game never
 * reads a "drew" event (the drawn cards are private to the drawer). */
static void test_drawn_cards_are_private_in_the_log(void **state)
{
  struct harness_server *srv = *state;
  struct harness_player a, b;
  json_t *game, *log, *ev;
  char id[64];
  size_t i;
  int seen_count = 0;

  harness_new_player(srv, "alpha", &a);
  harness_new_player(srv, "beta", &b);
  game = harness_new_game(srv, a.token, "because-its-there", 2, "{\"scenario\":\"1963\"}");
  snprintf(id, sizeof id, "%s", harness_game_id(game));
  json_decref(game);
  harness_join(srv, a.token, id, 0);
  harness_join(srv, b.token, id, 1);
  {
    json_t *mine = harness_get_game(srv, a.token, id);
    struct harness_response r;
    json_t *draw = json_pack("{s:s}", "type", "draw");
    harness_post_move(srv, &r, a.token, id, harness_int(mine, "seq"), draw);
    harness_expect_status(&r, 200, __FILE__, __LINE__);
    harness_response_free(&r);
    json_decref(draw);
    json_decref(mine);
  }
  log = harness_get_log(srv, NULL, id, 0);
  json_array_foreach(json_object_get(log, "events"), i, ev)
  {
    const char *type = json_string_value(json_object_get(json_object_get(ev, "event"), "type"));
    assert_string_not_equal(type, "drew");
    seen_count += strcmp(type, "drew-count") == 0;
  }
  assert_true(seen_count > 0);
  json_decref(log);
  log = harness_get_log(srv, a.token, id, 0);
  seen_count = 0;
  json_array_foreach(json_object_get(log, "events"), i, ev)
  {
    seen_count += strcmp(json_string_value(json_object_get(json_object_get(ev, "event"), "type")),
                         "drew") == 0;
  }
  assert_true(seen_count > 0);
  json_decref(log);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scripted_1953_game_through_the_api),
      cmocka_unit_test(test_scripted_1963_game_through_the_api),
      cmocka_unit_test(test_drawn_cards_are_private_in_the_log),
  };
  if (sodium_init() < 0)
    return 1;
  harness_global_init();
  int failed = order_run_group_tests(tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return failed;
}
