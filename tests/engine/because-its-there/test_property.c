/*
 * test_property.c - random games of every scenario through the public
 * interface: each move picked from legal_moves by a local generator (never
 * the game's). Checks that every listed move is accepted, that the 100
 * cards stay consistent at every step, that every game ends by turn 20,
 * that a seed and a move log replay to the same state byte for byte, and
 * that no seat's or spectator's view ever names a card hidden from it
 * (other hands, any active pile, the Event deck).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "support.h"

#ifndef BT_GAMES
#define BT_GAMES 2000 /* per scenario: the issue asks for thousands of each */
#endif
#define BT_LEADER_GAMES 12    /* per scenario, played by policy.c */
#define MAX_MOVES       20000 /* a documented cap: never reached in practice */

static uint64_t next_choice(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Whether `card` is hidden from `viewer`. */
static bool hidden(const struct bit_state *st, int card, int viewer)
{
  const struct bit_loc *l = &st->loc[card];

  if (l->zone == BIT_Z_DECK || l->zone == BIT_Z_EVENTS)
    return true;
  return l->zone == BIT_Z_HAND && l->seat != viewer;
}

/* Every card object (with "id" and "kind") in the view must be visible. */
static void check_ids(const struct bit_state *st, const json_t *v, int viewer)
{
  size_t i;
  const char *key;
  json_t *x;

  if (json_is_object(v)) {
    json_t *id = json_object_get(v, "id"), *kind = json_object_get(v, "kind");
    if (json_is_integer(id) && json_is_string(kind)) {
      if (hidden(st, (int)json_integer_value(id), viewer))
        fail_msg("viewer %d sees hidden card %d", viewer, (int)json_integer_value(id));
    }
    assert_null(json_object_get(v, "deck"));
    assert_null(json_object_get(v, "event_deck"));
    json_object_foreach((json_t *)v, key, x) check_ids(st, x, viewer);
  } else if (json_is_array(v)) {
    json_array_foreach(v, i, x) check_ids(st, x, viewer);
  }
}

static void check_views(const struct engine_game *game)
{
  const struct bit_state *st = (const struct bit_state *)game;
  int viewer;

  for (viewer = ENGINE_SPECTATOR; viewer < game->seats; viewer++) {
    json_t *v = engine_view(game, viewer);
    assert_non_null(v);
    check_ids(st, v, viewer);
    json_decref(v);
  }
}

/* Events with a hidden card must be private to the drawer. */
static void check_events(const json_t *events)
{
  size_t i;
  json_t *ev;

  json_array_foreach(events, i, ev)
  {
    const char *type = json_string_value(json_object_get(ev, "type"));
    assert_non_null(type);
    if (strcmp(type, "drew") == 0 || strcmp(type, "special-drawn") == 0)
      assert_non_null(json_object_get(ev, "private_to"));
  }
}

/* Moves that finish a step or climb; the random player takes one of these
 * over a shuffling move (deploy, cache, carry...) two times in three, so
 * a game is not mostly Climbers walking between teams in Advance Base
 * Camp. Every move still comes from engine_sample_move. */
static bool progress(const json_t *move)
{
  static const char *const types[] = {"draw", "ready", "rest",  "done",  "end",
                                      "move", "camp",  "route", "draft", "play"};
  const char *type = json_string_value(json_object_get(move, "type"));
  size_t i;

  for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    if (strcmp(type, types[i]) == 0)
      return true;
  return false;
}

static json_t *pick(const struct engine_game *game, int seat, uint64_t *chooser)
{
  json_t *move = engine_sample_move(game, seat, next_choice(chooser));
  int tries;

  for (tries = 0; move && !progress(move) && tries < 3 && next_choice(chooser) % 3 != 0; tries++) {
    json_decref(move);
    move = engine_sample_move(game, seat, next_choice(chooser));
  }
  return move;
}

/* "the card count of every game stays 100": the cards of every zone, of
 * every owner, add up to 100 (and bit_check_cards finds the locations
 * consistent). */
static void check_card_count(const struct engine_game *game)
{
  const struct bit_state *st = (const struct bit_state *)game;
  int zone, total = 0;

  for (zone = BIT_Z_BOX; zone <= BIT_Z_MOUNTAIN; zone++)
    total += bit_pile_count(st, zone, -1);
  assert_int_equal(total, BIT_CARDS);
  assert_true(bit_check_cards(st));
  /* and no player's card is lost or duplicated: once dealt, each player
   * owns its scenario's Climbers, Sherpas, Supplies and Camps (XII) in
   * its piles, hand, on the mountain or in the dead pile */
  if (st->phase >= BIT_P_DISCARD) {
    static const int owned[4][2] = {{17, 0}, {22, 0}, {17, 15}, {19, 19}};
    int seat, c;
    for (seat = 0; seat < game->seats; seat++) {
      int n = 0;
      for (c = BIT_CLIMBER_FIRST; c < BIT_SPECIAL_FIRST; c++)
        n += st->loc[c].seat == seat && st->loc[c].zone != BIT_Z_BOX;
      assert_int_equal(n, owned[st->scenario][seat]);
    }
    /* the 6 Specials and 30 Events are all somewhere too */
    for (c = BIT_EVENT_FIRST, total = 0; c < BIT_CARDS; c++)
      total += st->loc[c].zone == BIT_Z_EVENTS || st->loc[c].zone == BIT_Z_USED;
    assert_int_equal(total, 30);
  }
}

struct stats {
  long games, moves, summits, wins;
  int max_turn;
};

static void play(const char *scenario, int seed, bool leader, struct stats *stats)
{
  struct engine_game *game = bt_new(scenario, seed), *replay;
  json_t *log = json_array();
  uint64_t chooser = (uint64_t)seed * 7919u + 17u;
  int moves = 0;
  size_t i;
  json_t *entry;
  char *a, *b;

  while (!engine_is_over(game)) {
    int seats[ENGINE_MAX_SEATS], n = bit_module.to_act(game, seats), seat;
    json_t *move, *events = NULL;
    struct engine_game *next = NULL;
    struct cairn_error err = {0};

    assert_true(n > 0);
    seat = seats[next_choice(&chooser) % (uint64_t)n];
    if (leader) { /* the scripted leader: reaches the Summit and wins often */
      json_t *view = engine_view(game, seat), *legal = engine_legal_moves(game, seat);
      move = json_incref(json_array_get(legal, bt_policy(view, legal, seat)));
      json_decref(view);
      json_decref(legal);
    } else {
      move = pick(game, seat, &chooser);
    }
    assert_non_null(move);
    if (moves % 50 == 0) { /* the sampled move is one of the listed ones */
      json_t *legal = engine_legal_moves(game, seat), *x;
      size_t k;
      int listed = 0;
      json_array_foreach(legal, k, x) listed |= json_equal(x, move);
      assert_true(listed);
      json_decref(legal);
    }
    if (engine_apply(game, seat, move, &next, &events, &err) != CAIRN_OK) {
      char *text = json_dumps(move, JSON_COMPACT);
      fail_msg("%s seed %d: listed move %s refused: %s", scenario, seed, text, err.detail);
    }
    check_events(events);
    json_array_append_new(log, json_pack("[i,o]", seat, move));
    json_decref(events);
    engine_free(game);
    game = next;
    check_card_count(game);
    assert_true(bt_state(game)->turn <= BIT_LAST_TURN);
    if (moves % 97 == 0)
      check_views(game);
    assert_true(++moves < MAX_MOVES);
  }
  check_views(game);
  {
    json_t *res = bit_module.result(game);
    assert_non_null(res);
    if (json_array_size(json_object_get(res, "winners")) > 0)
      stats->wins++;
    json_decref(res);
  }
  for (int c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    stats->summits += bt_state(game)->summited[c];
  if (bt_state(game)->turn > stats->max_turn)
    stats->max_turn = bt_state(game)->turn;
  stats->games++;
  stats->moves += moves;

  /* replay */
  replay = bt_new(scenario, seed);
  json_array_foreach(log, i, entry)
  {
    json_t *events = NULL;
    struct engine_game *next = NULL;
    struct cairn_error err = {0};
    assert_int_equal(engine_apply(replay, (int)json_integer_value(json_array_get(entry, 0)),
                                  json_array_get(entry, 1), &next, &events, &err),
                     CAIRN_OK);
    json_decref(events);
    engine_free(replay);
    replay = next;
  }
  a = kit_text(game);
  b = kit_text(replay);
  assert_string_equal(a, b);
  free(a);
  free(b);
  engine_free(replay);
  engine_free(game);
  json_decref(log);
}

static void random_games(const char *scenario)
{
  struct stats stats = {0};
  int seed;

  for (seed = 1; seed <= kit_games(BT_GAMES); seed++)
    play(scenario, seed, false, &stats);
  for (seed = 1; seed <= BT_LEADER_GAMES; seed++)
    play(scenario, 100000 + seed, true, &stats);
  print_message("%s: %ld games, %ld moves, %ld summits, %ld wins, last turn %d\n", scenario,
                stats.games, stats.moves, stats.summits, stats.wins, stats.max_turn);
}

/* XI: "The game also ends if the current turn is turn 20". */
static void test_random_1924_games_end_by_turn_20(void **state)
{
  (void)state;
  random_games("1924");
}

static void test_random_1953_games_end_by_turn_20(void **state)
{
  (void)state;
  random_games("1953");
}

static void test_random_1963_games_end_by_turn_20(void **state)
{
  (void)state;
  random_games("1963");
}

static void test_random_dream_teams_games_end_by_turn_20(void **state)
{
  (void)state;
  random_games("dream-teams");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_1924_games_end_by_turn_20),
      cmocka_unit_test(test_random_1953_games_end_by_turn_20),
      cmocka_unit_test(test_random_1963_games_end_by_turn_20),
      cmocka_unit_test(test_random_dream_teams_games_end_by_turn_20),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
