/*
 * test_property.c - random games through the public interface: thousands
 * of games at every player count, each move picked uniformly from
 * legal_moves by a local generator (never the game's), checking that every
 * game ends in time, that listed moves are accepted, and that a seed and a
 * move log replay to the same events and the same state, byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define GAMES       2000
#define CLIMB_GAMES 40

/* splitmix64: the test's own chooser, independent of the game's ChaCha20. */
static uint64_t next_choice(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* The longest possible game: 19 Yeti cards can be drawn (nine, then at most
 * ten with Bad Weather among them), so the dice are thrown at most 20
 * times, each throw giving at most `dice` moves (one of them possibly the
 * re-throw itself); supply cards add at most 3 dealt + 2 restored a seat. */
static int longest_game(int seats)
{
  return 20 * (seats + 3) + 5 * seats;
}

struct play {
  int deep;  /* try every listed move and some random well-formed ones */
  int keep;  /* log moves and events for a replay */
  int climb; /* pick the move that looks best for climbing, not at random */
};

struct log {
  json_t *moves;  /* [[seat, move], ...], or NULL when not kept */
  json_t *events; /* one array of events per move */
  char *final;    /* engine_serialize_text at the end */
  int summit;     /* the game ended on the summit */
};

static void check_events(const json_t *events)
{
  size_t i;
  const json_t *ev;

  json_array_foreach(events, i, ev)
  {
    static const char *const fields[] = {"from", "to", "camp"};
    char name[16];
    size_t k;

    assert_true(json_is_string(json_object_get(ev, "type")));
    /* Himalaya has no private events. */
    assert_null(json_object_get(ev, "private_to"));
    /* Names beside ids: every field number has its name beside it. */
    for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
      if (!json_is_integer(json_object_get(ev, fields[k])))
        continue;
      snprintf(name, sizeof(name), "%s_name", fields[k]);
      assert_true(json_is_string(json_object_get(ev, name)));
    }
  }
}

/* Uniform among all listed moves, or (climbing) the best-rated move after
 * trying each, ties broken by the chooser. */
static json_t *choose(struct engine_game *game, int seat, json_t *list, uint64_t *chooser,
                      int climb)
{
  json_t *move, *best = NULL;
  long best_value = -1;
  size_t i;

  if (!climb)
    return json_array_get(list, next_choice(chooser) % json_array_size(list));
  json_array_foreach(list, i, move)
  {
    struct engine_game *next = NULL;
    json_t *events = NULL;
    long value;

    assert_int_equal(engine_apply(game, seat, move, &next, &events, NULL), CAIRN_OK);
    value = hs_climbing_value(next, seat) * 8 + (long)(next_choice(chooser) % 8);
    if (value > best_value)
      best_value = value, best = move;
    json_decref(events);
    engine_free(next);
  }
  return best;
}

static void check_turn(struct engine_game *game, int seats, int *seat)
{
  int to_act[ENGINE_MAX_SEATS];
  int other;

  assert_int_equal(himalaya_module.to_act(game, to_act), 1);
  *seat = to_act[0];
  for (other = 0; other < seats; other++) {
    json_t *none = other == *seat ? NULL : engine_legal_moves(game, other);

    assert_true(!none || json_array_size(none) == 0);
    json_decref(none);
  }
}

static void play(int seats, int seed, uint64_t *chooser, struct play how, const json_t *candidates,
                 struct log *log)
{
  struct engine_game *game = hs_new(seats, seed);
  int moves = 0;
  json_t *result;

  log->moves = how.keep ? json_array() : NULL;
  log->events = how.keep ? json_array() : NULL;
  while (!engine_is_over(game)) {
    json_t *list, *pick, *events = NULL;
    struct engine_game *next = NULL;
    struct cairn_error err = {0};
    size_t i;
    int seat;

    check_turn(game, seats, &seat);
    list = engine_legal_moves(game, seat);
    /* No running position leaves the player without a move. */
    assert_true(json_array_size(list) > 0);
    if (how.deep) {
      json_array_foreach(list, i, pick)
      {
        assert_true(kit_accepts(game, seat, pick));
      }
      for (i = 0; i < 8; i++) {
        const json_t *any =
            json_array_get(candidates, next_choice(chooser) % json_array_size(candidates));

        assert_int_equal(kit_accepts(game, seat, any), hs_listed(list, any));
      }
    }
    pick = choose(game, seat, list, chooser, how.climb);
    if (engine_apply(game, seat, pick, &next, &events, &err) != CAIRN_OK)
      fail_msg("a listed move was refused: %s", err.detail);
    check_events(events);
    if (log->moves) {
      json_array_append_new(log->moves, json_pack("[i, O]", seat, pick));
      json_array_append_new(log->events, events);
    } else {
      json_decref(events);
    }
    json_decref(list);
    engine_free(game);
    game = next;
    if (++moves > longest_game(seats))
      fail_msg("seed %d, %d seats: still running after %d moves", seed, seats, moves);
  }
  result = himalaya_module.result(game);
  assert_non_null(result);
  assert_true(json_array_size(json_object_get(result, "winners")) >= 1);
  log->summit = strcmp(json_string_value(json_object_get(result, "reason")), "summit") == 0;
  json_decref(result);
  log->final = kit_text(game);
  engine_free(game);
}

/* Replay a log from the same seed: the same events, move by move, and the
 * same final state. */
static void replay(int seats, int seed, const struct log *log)
{
  kit_replay_matches(hs_new(seats, seed), log->moves, log->events, log->final);
}

static void free_log(struct log *log)
{
  json_decref(log->moves);
  json_decref(log->events);
  free(log->final);
}

/* Random games at 2 to 5 seats finish, never stall, accept what they list,
 * and replay exactly. Every 100th game also checks the list against
 * apply_move; every 10th is replayed. */
static void test_random_games_finish_and_replay(void **state)
{
  json_t *candidates = hs_candidates();
  uint64_t chooser = 12345;
  int i;

  for (i = 0; i < kit_games(GAMES); i++) {
    struct play how = {.deep = i % 100 == 0, .keep = i % 10 == 0, .climb = 0};
    struct log log;
    int seats = 2 + i % 4;

    play(seats, i + 1, &chooser, how, candidates, &log);
    if (log.moves)
      replay(seats, i + 1, &log);
    free_log(&log);
  }
  json_decref(candidates);
}

/* Uniformly random players hardly ever bring a climber up (they mostly
 * shuffle Sherpas), so their games end in bad weather. Players who look one
 * move ahead for height sometimes reach the summit - "Whoever first arrives
 * on the summit wins" (Introduction) - and those games replay too. */
static void test_climbing_games_reach_the_summit(void **state)
{
  uint64_t chooser = 777;
  int summits = 0, i;

  for (i = 0; i < CLIMB_GAMES; i++) {
    struct play how = {.deep = 0, .keep = 1, .climb = 1};
    struct log log;
    int seats = 2 + i % 4;

    play(seats, 50000 + i, &chooser, how, NULL, &log);
    summits += log.summit;
    replay(seats, 50000 + i, &log);
    free_log(&log);
  }
  assert_true(summits > 0);
  assert_true(summits < CLIMB_GAMES);
}

/* Determinism: the same seed and the same moves give the same game, on
 * every run - the whole game is played twice and compared. */
static void test_same_seed_and_moves_give_the_same_game(void **state)
{
  struct play how = {.deep = 0, .keep = 1, .climb = 0};
  uint64_t a = 99, b = 99;
  struct log first, second;

  play(4, 4242, &a, how, NULL, &first);
  play(4, 4242, &b, how, NULL, &second);
  assert_true(json_equal(first.moves, second.moves));
  assert_true(json_equal(first.events, second.events));
  assert_string_equal(first.final, second.final);
  free_log(&first);
  free_log(&second);
}

/* FNV-1a, to pin a whole serialisation in one number. */
static uint64_t fnv1a(const char *text)
{
  uint64_t h = 0xcbf29ce484222325u;

  for (; *text; text++)
    h = (h ^ (uint8_t)*text) * 0x100000001b3u;
  return h;
}

/* Replay tests: "a fixed seed and move log give the same events and result
 * on every run and every machine" (style.md 2.8). These figures were
 * recorded once; they change only when the rules or the generator do, and
 * then rules_version must change too. */
static void test_fixed_seed_gives_a_known_game(void **state)
{
  struct play how = {.deep = 0, .keep = 1, .climb = 0};
  uint64_t chooser = 2024;
  struct log log;

  play(3, 7, &chooser, how, NULL, &log);
  assert_int_equal(json_array_size(log.moves), 66);
  assert_int_equal(fnv1a(log.final), 0x801c04dffad0b80cu);
  free_log(&log);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_games_finish_and_replay),
      cmocka_unit_test(test_climbing_games_reach_the_summit),
      cmocka_unit_test(test_same_seed_and_moves_give_the_same_game),
      cmocka_unit_test(test_fixed_seed_gives_a_known_game),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
