/*
 * bench_engine.c - engine speed for every registered title: random playouts,
 * reporting moves applied per second (each move through engine_apply, i.e.
 * clone + apply, as the server does); then one long game per title, played
 * with every numeric option at its maximum (the longest game the title
 * allows), to show that move 10,000 costs what move 10 does and how long a
 * whole replay takes, replayed as the server replays a log: each move with
 * engine_replay_step, in place and building no events. Then what a
 * player's view costs to write: the view and the legal-move list of the
 * seat to act, written as JSON text by the write slots the server writes
 * its answers with (engine_write_view, engine_write_legal), over the
 * positions of random games. Prints figures only; nothing here asserts a
 * time.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "tests/bench/figures.h"

#define GAMES_PER_TITLE 300
#define MOVE_CAP        100000
#define LONG_GAME       10000 /* moves: "move 10 versus move 10,000" */
#define LONG_TRIES      20    /* seeds tried for a game that long */
#define VIEW_GAMES      30    /* random games whose every position is viewed */
#define STR(x)          #x
#define XSTR(x)         STR(x)

static double now_s(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift for choosing among legal moves: the bench's own choices, not the
 * game's randomness. */
static uint64_t pick_state = 88172645463325252ull;
static uint32_t pick(uint32_t n)
{
  pick_state ^= pick_state << 13;
  pick_state ^= pick_state >> 7;
  pick_state ^= pick_state << 17;
  return (uint32_t)(pick_state % n);
}

/* Play one random game; append (seat, move) pairs to `log`. Returns moves.
 * With `stall`, a move that would end the game is swapped for another
 * random one when any of STALL_TRIES others keeps it going: the bench's way
 * to the longest game the rules allow, not a strategy. */
#define STALL_TRIES 16
static long playout(const struct engine_module *m, int seats, const json_t *options,
                    const uint8_t seed[32], long cap, bool stall, json_t *log)
{
  struct engine_setup setup = {.seats = seats, .options = options};
  struct engine_game *g = NULL;
  long moves = 0;

  if (engine_new(m, &setup, seed, &g, NULL) != CAIRN_OK)
    return -1;
  while (!engine_is_over(g) && moves < cap) {
    int to_act[ENGINE_MAX_SEATS];
    int n = engine_to_act(g, to_act);
    int seat = to_act[pick((uint32_t)n)];
    json_t *move = NULL;
    struct engine_game *next = NULL;
    json_t *events = NULL;
    int tries;

    for (tries = 0; tries <= (stall ? STALL_TRIES : 0); tries++) {
      json_decref(move);
      json_decref(events);
      engine_free(next);
      next = NULL;
      events = NULL;
      move = engine_sample_move(g, seat, pick(UINT32_MAX));
      if (!move || engine_apply(g, seat, move, &next, &events, NULL) != CAIRN_OK)
        break;
      if (!engine_is_over(next))
        break;
    }
    if (!next) {
      json_decref(move);
      break;
    }
    json_array_append_new(log, json_pack("[i, o]", seat, move));
    json_decref(events);
    engine_free(g);
    g = next;
    moves++;
  }
  engine_free(g);
  return moves;
}

/* Replay `log` as the server does (engine_replay_step: in place, no
 * events); returns the whole time, and the mean cost of one step over the
 * first and the last EDGE moves in *early / *late (seconds): a move late
 * in a long game must cost what an early one does (no replay per move). */
#define EDGE 20
static double replay_seconds(const struct engine_module *m, int seats, const json_t *options,
                             const uint8_t seed[32], const json_t *log, double *early, double *late)
{
  struct engine_setup setup = {.seats = seats, .options = options};
  struct engine_game *g = NULL;
  double t0 = now_s();
  size_t i, n = json_array_size(log);
  json_t *entry;

  *early = *late = 0;
  engine_new(m, &setup, seed, &g, NULL);
  json_array_foreach(log, i, entry)
  {
    double t = now_s();

    if (engine_replay_step(g, (int)json_integer_value(json_array_get(entry, 0)),
                           json_array_get(entry, 1), NULL) != CAIRN_OK) {
      fprintf(stderr, "%s: the replay refused move %zu of its own log\n", m->id, i);
      break;
    }
    t = now_s() - t;
    if (i < EDGE)
      *early += t / EDGE;
    if (n >= 2 * EDGE && i >= n - EDGE)
      *late += t / EDGE;
  }
  engine_free(g);
  return now_s() - t0;
}

/* New reference: the title's options with every integer option that has a
 * maximum set to it (round caps, turn limits): its longest possible game. */
static json_t *longest_options(const struct engine_module *m)
{
  json_t *schema = json_loads(m->options_json ? m->options_json : "{}", 0, NULL);
  json_t *options = json_object();
  const char *key;
  json_t *spec;

  json_object_foreach(schema, key, spec)
  {
    json_t *max = json_object_get(spec, "maximum");

    if (json_is_integer(max))
      json_object_set(options, key, max);
  }
  json_decref(schema);
  return options;
}

/* Moves applied per second over GAMES_PER_TITLE random games. */
static void bench_playouts(const struct engine_module *m, int seats)
{
  long total = 0;
  double t0 = now_s(), elapsed;
  uint8_t seed[32] = {0};
  int i;

  for (i = 0; i < GAMES_PER_TITLE; i++) {
    json_t *log = json_array();
    long moves;

    memcpy(seed, &i, sizeof(i));
    moves = playout(m, seats, NULL, seed, MOVE_CAP, false, log);
    total += moves > 0 ? moves : 0;
    json_decref(log);
  }
  elapsed = now_s() - t0;
  printf("%-20s %d seats: %d random games, %ld moves, %.0f moves/s (sample + apply)\n", m->id,
         seats, GAMES_PER_TITLE, total, (double)total / elapsed);
  figure(FIGURE_HIGHER, (double)total / elapsed, "engine.%s.%d.moves_per_s", m->id, seats);
}

/* The longest of LONG_TRIES games (stopping at LONG_GAME moves), replayed:
 * whole time, and one apply early against one apply at its end. */
static void bench_long_game(const struct engine_module *m, int seats)
{
  json_t *options = longest_options(m), *longest_log = json_array();
  uint8_t seed[32] = {0}, longest_seed[32] = {0};
  long longest = 0;
  double early, late, whole;
  char *shown = json_dumps(options, JSON_COMPACT | JSON_SORT_KEYS);
  int i;

  for (i = 0; i < LONG_TRIES && longest < LONG_GAME; i++) {
    json_t *log = json_array();
    long moves;

    memcpy(seed, &i, sizeof(i));
    seed[31] = 0x4c; /* other seeds than the playouts' */
    moves = playout(m, seats, options, seed, LONG_GAME, true, log);
    if (moves > longest) {
      longest = moves;
      memcpy(longest_seed, seed, sizeof(seed));
      json_decref(longest_log);
      longest_log = json_incref(log);
    }
    json_decref(log);
  }
  whole = replay_seconds(m, seats, options, longest_seed, longest_log, &early, &late);
  printf(
      "%-20s long game (options %s): %ld moves%s; one replay step %.1f us at moves 1-%d, %.1f us "
      "at moves %ld-%ld; whole replay %.1f ms\n",
      m->id, shown, longest,
      longest < LONG_GAME ? " (the longest of " XSTR(
                                LONG_TRIES) " games, ending moves avoided: the rules end it sooner)"
                          : "",
      1e6 * early, EDGE, 1e6 * late, longest - EDGE + 1, longest, 1e3 * whole);
  figure(FIGURE_LOWER, 1e6 * early, "engine.%s.long.apply_us.first", m->id);
  figure(FIGURE_LOWER, 1e6 * late, "engine.%s.long.apply_us.last", m->id);
  figure(FIGURE_LOWER, 1e3 * whole, "engine.%s.long.replay_ms", m->id);
  free(shown);
  json_decref(longest_log);
  json_decref(options);
}

/* Time writing the view and the legal list of the seat to act (the write
 * slots, as the server's answers do) at every position of VIEW_GAMES
 * random games; also the text's mean size. */
static void bench_views(const struct engine_module *m, int seats)
{
  struct engine_setup setup = {.seats = seats};
  uint8_t seed[32] = {0};
  double spent = 0;
  long views = 0, bytes = 0;
  int i;

  for (i = 0; i < VIEW_GAMES; i++) {
    struct engine_game *g = NULL;
    long moves = 0;

    memcpy(seed, &i, sizeof(i));
    seed[31] = 0x56;
    if (engine_new(m, &setup, seed, &g, NULL) != CAIRN_OK)
      return;
    while (!engine_is_over(g) && moves++ < MOVE_CAP) {
      int to_act[ENGINE_MAX_SEATS];
      int seat = to_act[pick((uint32_t)engine_to_act(g, to_act))];
      json_t *move = engine_sample_move(g, seat, pick(UINT32_MAX)), *events = NULL;
      struct engine_game *next = NULL;
      struct json_writer w;
      double t0 = now_s();
      size_t len = 0;
      char *text;

      jw_init(&w);
      jw_array_begin(&w); /* one value holding both, as an answer holds them */
      engine_write_view(g, seat, &w);
      engine_write_legal(g, seat, &w);
      jw_array_end(&w);
      text = jw_finish(&w, &len);
      spent += now_s() - t0;
      bytes += text ? (long)len - 3 : 0; /* the two texts, without "[", "," and "]" */
      free(text);
      views++;
      if (!move || engine_apply(g, seat, move, &next, &events, NULL) != CAIRN_OK) {
        json_decref(move);
        break;
      }
      json_decref(events);
      json_decref(move);
      engine_free(g);
      g = next;
    }
    engine_free(g);
  }
  printf("%-20s views: %ld positions of %d random games; view + legal moves of the seat to act"
         " %.1f us written as text (write_view + write_legal), %ld bytes\n",
         m->id, views, VIEW_GAMES, 1e6 * spent / (double)views, bytes / views);
  figure(FIGURE_LOWER, 1e6 * spent / (double)views, "engine.%s.view_us", m->id);
  figure(FIGURE_LOWER, (double)(bytes / views), "engine.%s.view_bytes", m->id);
}

int main(void)
{
  const struct engine_module *const *m;

  for (m = engine_modules(); *m; m++) {
    bench_playouts(*m, (*m)->max_seats);
    bench_long_game(*m, (*m)->max_seats);
    bench_views(*m, (*m)->max_seats);
  }
  return 0;
}
