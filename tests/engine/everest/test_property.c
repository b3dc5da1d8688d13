/*
 * test_property.c - random games through the public interface: thousands
 * of 4-player games (and some 2- and 3-player ones), every decision drawn
 * with engine_sample_move from a local chooser (never the game's
 * generator), checking that every sampled move is accepted, that every
 * game ends by the text's own end - a yeti holding the peak for a full
 * round - within a generous move budget (there is no round cap unless a
 * game opts in; a stuck game is a failure), that a seed and a move log
 * replay to the same events and state byte for byte, and that no view or
 * visible event given to a seat or spectator ever holds another seat's
 * unrevealed plan or end-of-round choice. Random and greedy tables of 2,
 * 3 and 4 seats print their round distributions (README.md "Playouts").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

#define GAMES       1000
#define TABLE_GAMES 200 /* per policy and seat count */
/* Moves a game may take before it counts as stuck: some 4,000 rounds at two
 * seats, eight times the longest game measured (490 rounds; README.md
 * "Playouts"). */
#define MOVE_BUDGET 20000L

static uint64_t next_choice(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

struct log;
static void play_as(int seats, int seed, uint64_t *chooser, int keep, int climbing, int cap,
                    struct log *log);

struct log {
  json_t *moves;  /* [[seat, move], ...] */
  json_t *events; /* one array per move */
  char *final;
  int won;
  int conflicts;
  int rounds;
};

/* No seat or spectator sees a secret of another seat: the plan of a seat
 * that has submitted while others still owe theirs, or an end-of-round
 * choice before all are in. */
static void check_views(struct engine_game *game)
{
  const struct everest_state *st = es_state(game);
  int viewer, seat;

  for (viewer = ENGINE_SPECTATOR; viewer < game->seats; viewer++) {
    json_t *view = engine_view(game, viewer);
    json_t *seats = json_object_get(view, "seats");

    assert_non_null(view);
    for (seat = 0; seat < game->seats; seat++) {
      json_t *s = json_array_get(seats, (size_t)seat);

      if (seat == viewer)
        continue;
      if (st->phase == EVEREST_PHASE_PLAN)
        assert_null(json_object_get(s, "plan"));
      if (st->phase == EVEREST_PHASE_HEAL) {
        assert_null(json_object_get(s, "heal"));
        assert_null(json_object_get(s, "set_aside"));
      }
    }
    json_decref(view);
  }
}

/* Private events are addressed to their author alone. */
static void check_events(const json_t *events, int seats, int seat, bool pending)
{
  size_t i;
  const json_t *ev;

  json_array_foreach(events, i, ev)
  {
    const char *type = json_string_value(json_object_get(ev, "type"));
    const json_t *to = json_object_get(ev, "private_to");

    assert_non_null(type);
    if (strcmp(type, "plan-submitted") == 0 || strcmp(type, "heal-chosen") == 0) {
      assert_int_equal(json_array_size(to), 1);
      assert_int_equal(json_integer_value(json_array_get(to, 0)), seat);
      assert_false(engine_event_visible(ev, ENGINE_SPECTATOR, false));
      for (int other = 0; other < seats; other++)
        assert_int_equal(engine_event_visible(ev, other, false), other == seat);
    } else {
      assert_null(to);
      /* a pending step reveals nothing public */
      assert_false(pending);
    }
  }
}

/* Squares from `cell` to the peak tile along a route a yeti can climb
 * (never up a cliff): a search back from the peak. */
static int peak_distance(int cell)
{
  int dist[EVEREST_CELLS], queue[EVEREST_CELLS], head = 0, tail = 0, c, dir;

  if (cell == EVEREST_OFF)
    return 2 * EVEREST_CELLS;
  for (c = 0; c < EVEREST_CELLS; c++) {
    dist[c] = everest_on_peak(c) ? 0 : -1;
    if (!dist[c])
      queue[tail++] = c;
  }
  while (head < tail) {
    int at = queue[head++];

    for (dir = 0; dir < EVEREST_DIRS; dir++) {
      int from = everest_neighbour(at, dir);

      if (from != EVEREST_OFF && dist[from] < 0 && everest_height(at) - everest_height(from) < 2) {
        dist[from] = dist[at] + 1;
        queue[tail++] = from;
      }
    }
  }
  return dist[cell] < 0 ? 2 * EVEREST_CELLS : dist[cell];
}

/* A greedy player that moves toward the peak: among 24 sampled plans, the
 * one whose moves (tried alone on the current board) end nearest the peak;
 * heals only when fewer than three coins would be left (one that never
 * heals can be left with coins 4 and 5 alone, which overshoot every route
 * up: measured, README.md "Playouts"). */
static json_t *climb(struct engine_game *game, int seat, uint64_t *chooser)
{
  const struct everest_state *st = es_state(game);
  json_t *best = NULL, *legal;
  int best_score = 1000, k;
  size_t i;

  if (st->phase == EVEREST_PHASE_HEAL) {
    json_t *move;

    bool heal = everest_available(st, seat) - st->yeti[seat].damage < EVEREST_PLAN_LEN;

    legal = engine_legal_moves(game, seat);
    json_array_foreach(legal, i, move)
    {
      if (json_is_boolean(json_object_get(move, "heal")) &&
          json_is_true(json_object_get(move, "heal")) == heal) {
        best = json_incref(move);
        break;
      }
    }
    json_decref(legal);
    return best ? best : engine_sample_move(game, seat, next_choice(chooser));
  }
  if (st->phase != EVEREST_PHASE_PLAN)
    return engine_sample_move(game, seat, next_choice(chooser));
  for (k = 0; k < 24; k++) {
    json_t *move = engine_sample_move(game, seat, next_choice(chooser));
    struct everest_yeti yeti[EVEREST_MAX_SEATS];
    json_t *coin;
    int score;

    memcpy(yeti, st->yeti, sizeof(yeti));
    json_array_foreach(json_object_get(move, "plan"), i, coin)
    {
      const char *face = json_string_value(json_object_get(coin, "face"));
      int value = (int)json_integer_value(json_object_get(coin, "coin"));

      if (strcmp(face, "value") == 0 && value > 0)
        everest_move_yeti(yeti, game->seats, seat,
                          everest_dir_parse(json_string_value(json_object_get(coin, "dir"))), value,
                          "plan", NULL);
    }
    score = peak_distance(yeti[seat].cell) * 10 + yeti[seat].damage;
    if (score < best_score) {
      json_decref(best);
      best = move;
      best_score = score;
    } else {
      json_decref(move);
    }
  }
  return best;
}

static void play(int seats, int seed, uint64_t *chooser, int keep, struct log *log)
{
  play_as(seats, seed, chooser, keep, 0, 0, log);
}

static void play_as(int seats, int seed, uint64_t *chooser, int keep, int climbing, int cap,
                    struct log *log)
{
  struct engine_game *game = es_new(seats, seed, cap);
  long moves = 0;
  json_t *result;

  memset(log, 0, sizeof(*log));
  log->moves = keep ? json_array() : NULL;
  log->events = keep ? json_array() : NULL;
  while (!engine_is_over(game)) {
    int to_act[ENGINE_MAX_SEATS], n, seat, other;
    struct engine_game *next = NULL;
    json_t *move, *events = NULL, *legal;
    struct cairn_error err = {0};
    uint32_t seq = game->seq;

    n = everest_module.to_act(game, to_act);
    assert_true(n > 0);
    if (keep || moves % 7 == 0)
      check_views(game);
    seat = to_act[next_choice(chooser) % (uint64_t)n];
    /* legal is empty for seats that may not act (checked on every fifth
     * move, for time) */
    for (other = 0; moves % 5 == 0 && other < seats; other++) {
      legal = engine_legal_moves(game, other);
      assert_int_equal(json_array_size(legal) > 0, engine_may_act(game, other));
      json_decref(legal);
    }
    move = climbing ? climb(game, seat, chooser)
                    : engine_sample_move(game, seat, next_choice(chooser));
    assert_non_null(move);
    if (engine_apply(game, seat, move, &next, &events, &err) != CAIRN_OK)
      fail_msg("seed %d: a sampled move was refused: %s", seed, err.detail);
    check_events(events, seats, seat, next->seq == seq);
    log->conflicts += kit_count(events, "conflict");
    if (keep) {
      json_array_append_new(log->moves, json_pack("[i, O]", seat, move));
      json_array_append_new(log->events, events);
    } else {
      json_decref(events);
    }
    json_decref(move);
    engine_free(game);
    game = next;
    if (++moves > MOVE_BUDGET)
      fail_msg("seed %d, %d seats: stuck, still running after %ld moves", seed, seats, moves);
  }
  assert_int_equal(everest_module.to_act(game, (int[ENGINE_MAX_SEATS]){0}), 0);
  result = everest_module.result(game);
  assert_non_null(result);
  log->won = json_array_size(json_object_get(result, "winners")) == 1;
  log->rounds = es_state(game)->round;
  /* "A yeti wins the game if it starts a round as the sole occupant of the
   * peak tile and is still the sole occupant at the end of the round." The
   * text's only end; the round cap exists only when a game opts in. */
  if (!cap) {
    assert_true(log->won);
    assert_string_equal(json_string_value(json_object_get(result, "reason")), "peak");
  } else if (!log->won) {
    assert_string_equal(json_string_value(json_object_get(result, "reason")), "round-cap");
  }
  json_decref(result);
  log->final = kit_text(game);
  engine_free(game);
}

static void replay(int seats, int seed, int cap, const struct log *log)
{
  kit_replay_matches(es_new(seats, seed, cap), log->moves, log->events, log->final);
}

static void free_log(struct log *log)
{
  json_decref(log->moves);
  json_decref(log->events);
  free(log->final);
}

/* A thousand random games: mostly 4 players ("4 is the designed game"),
 * every 10th game with 2 or 3. Every 10th game is replayed. Each ends on
 * the peak within the move budget. */
static void test_random_games_end_on_the_peak_and_replay(void **state)
{
  uint64_t chooser = 2026;
  int i, conflicts = 0;

  for (i = 0; i < kit_games(GAMES); i++) {
    struct log log;
    int seats = i % 10 == 3 ? 2 : i % 10 == 7 ? 3 : 4;

    play(seats, i + 1, &chooser, i % 10 == 0, &log);
    conflicts += log.conflicts;
    if (log.moves)
      replay(seats, i + 1, 0, &log);
    free_log(&log);
  }
  print_message("everest: %d random games, all won on the peak, %d conflicts\n", kit_games(GAMES),
                conflicts);
  assert_true(conflicts > 0);
}

/* Round distribution of TABLE_GAMES games of one policy and seat count;
 * every game ends on the peak (play_as fails a stuck one). */
static void table(int seats, int greedy, uint64_t seed)
{
  int hist[6] = {0}, i, longest = 0;
  long total = 0;

  for (i = 0; i < TABLE_GAMES; i++) {
    struct log log;
    int r;

    play_as(seats, 50000 + i, &seed, 0, greedy, 0, &log);
    r = log.rounds;
    total += r;
    longest = r > longest ? r : longest;
    hist[r <= 5 ? 0 : r <= 10 ? 1 : r <= 20 ? 2 : r <= 50 ? 3 : r <= 100 ? 4 : 5]++;
    free_log(&log);
  }
  print_message("everest: %d %s games of %d seats, all won on the peak: mean %.1f rounds, longest "
                "%d; rounds <=5: %d, 6-10: %d, 11-20: %d, 21-50: %d, 51-100: %d, >100: %d\n",
                TABLE_GAMES, greedy ? "greedy" : "random", seats, (double)total / TABLE_GAMES,
                longest, hist[0], hist[1], hist[2], hist[3], hist[4], hist[5]);
}

/* Random players (engine_sample_move) and greedy players (toward the peak)
 * at 2, 3 and 4 seats all reach the text's end: two seats included, which
 * once ran into the round cap every time. */
static void test_random_and_greedy_tables_end_on_the_peak(void **state)
{
  int seats;

  for (seats = EVEREST_MIN_SEATS; seats <= EVEREST_MAX_SEATS; seats++) {
    table(seats, 0, 11u * (uint64_t)seats);
    table(seats, 1, 13u * (uint64_t)seats);
  }
}

/* Greedy games replay too. */
static void test_greedy_games_replay(void **state)
{
  uint64_t chooser = 77;
  int i;

  for (i = 0; i < 10; i++) {
    struct log log;

    play_as(2 + i % 3, 90000 + i, &chooser, 1, 1, 0, &log);
    assert_true(log.won);
    replay(2 + i % 3, 90000 + i, 0, &log);
    free_log(&log);
  }
}

/* The same seed and the same choices give the same game twice. */
static void test_same_seed_and_moves_give_the_same_game(void **state)
{
  uint64_t a = 7, b = 7;
  struct log first, second;

  play(4, 4242, &a, 1, &first);
  play(4, 4242, &b, 1, &second);
  assert_true(json_equal(first.moves, second.moves));
  assert_true(json_equal(first.events, second.events));
  assert_string_equal(first.final, second.final);
  free_log(&first);
  free_log(&second);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_games_end_on_the_peak_and_replay),
      cmocka_unit_test(test_random_and_greedy_tables_end_on_the_peak),
      cmocka_unit_test(test_greedy_games_replay),
      cmocka_unit_test(test_same_seed_and_moves_give_the_same_game),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
