/*
 * bench_engine.c - engine speed for every registered title: random playouts
 * through `legal_moves`, reporting moves applied per second (each move
 * through engine_apply, i.e. clone + apply, as the server does) and the time
 * to replay a whole game from its seed and move list. Prints figures only;
 * nothing here asserts a time.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"

#define GAMES_PER_TITLE 300
#define MOVE_CAP        100000

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

/* Play one random game; append (seat, move) pairs to `log`. Returns moves. */
static long playout(const struct engine_module *m, int seats, const uint8_t seed[32], json_t *log)
{
  struct engine_setup setup = {.seats = seats};
  struct engine_game *g = NULL;
  long moves = 0;

  if (engine_new(m, &setup, seed, &g, NULL) != CAIRN_OK)
    return -1;
  while (!engine_is_over(g) && moves < MOVE_CAP) {
    int to_act[ENGINE_MAX_SEATS];
    int n = m->to_act(g, to_act);
    int seat = to_act[pick((uint32_t)n)];
    json_t *move = engine_sample_move(g, seat, pick(UINT32_MAX));
    struct engine_game *next = NULL;
    json_t *events = NULL;

    if (!move || engine_apply(g, seat, move, &next, &events, NULL) != CAIRN_OK) {
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

/* Replay `log`; returns the whole time, and the mean cost of one apply over
 * the first and the last EDGE moves in *early / *late (seconds): a move
 * late in a long game must cost what an early one does (no replay per move). */
#define EDGE 20
static double replay_seconds(const struct engine_module *m, int seats, const uint8_t seed[32],
                             const json_t *log, double *early, double *late)
{
  struct engine_setup setup = {.seats = seats};
  struct engine_game *g = NULL;
  double t0 = now_s();
  size_t i, n = json_array_size(log);
  json_t *entry;

  *early = *late = 0;
  engine_new(m, &setup, seed, &g, NULL);
  json_array_foreach(log, i, entry)
  {
    struct engine_game *next = NULL;
    json_t *events = NULL;
    double t = now_s();

    if (engine_apply(g, (int)json_integer_value(json_array_get(entry, 0)), json_array_get(entry, 1),
                     &next, &events, NULL) != CAIRN_OK)
      break;
    t = now_s() - t;
    if (i < EDGE)
      *early += t / EDGE;
    if (n >= 2 * EDGE && i >= n - EDGE)
      *late += t / EDGE;
    json_decref(events);
    engine_free(g);
    g = next;
  }
  engine_free(g);
  return now_s() - t0;
}

int main(void)
{
  const struct engine_module *const *m;

  for (m = engine_modules(); *m; m++) {
    long total = 0, longest = 0;
    double t0 = now_s(), elapsed;
    uint8_t seed[32] = {0}, longest_seed[32] = {0};
    json_t *longest_log = json_array();
    int seats = (*m)->max_seats, i;

    for (i = 0; i < GAMES_PER_TITLE; i++) {
      json_t *log = json_array();
      long moves;

      memcpy(seed, &i, sizeof(i));
      moves = playout(*m, seats, seed, log);
      total += moves > 0 ? moves : 0;
      if (moves > longest) {
        longest = moves;
        memcpy(longest_seed, seed, sizeof(seed));
        json_decref(longest_log);
        longest_log = json_incref(log);
      }
      json_decref(log);
    }
    elapsed = now_s() - t0;
    printf("%-20s %d seats: %d random games, %ld moves, %.0f moves/s (sample + apply)\n", (*m)->id,
           seats, GAMES_PER_TITLE, total, (double)total / elapsed);
    {
      double early, late,
          whole = replay_seconds(*m, seats, longest_seed, longest_log, &early, &late);

      printf("%-20s longest game %ld moves replays in %.3f ms; one apply: %.1f us for moves "
             "1-%d, %.1f us for the last %d\n",
             (*m)->id, longest, 1e3 * whole, 1e6 * early, EDGE, 1e6 * late, EDGE);
    }
    json_decref(longest_log);
  }
  return 0;
}
