/*
 * bench_long.c - one long game through the server: an Everest game (4 seats,
 * round_cap 5000, so random play does not end it) played over HTTP to
 * 10,000 moves. The POST of move 10 must cost what the POST of move 10,000
 * does: the server keeps the live state and appends, it never replays the
 * log per move: the server CPU of each POST, move 10 against move 10,000,
 * as a ratio beside the speed issue's target. Then, after a restart (every
 * cache empty), the one full replay a cold game needs (its first view less
 * a warm one), ?at=N, and the whole audit (hash chain + replay). Prints
 * figures only (tests/bench/figures.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "tests/bench/figures.h"

#define LONG_GAME 10000 /* moves */
#define EDGE      20    /* moves averaged at each end */
#define SEATS     4

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Time one GET, in ms; fails on anything but 200. */
static double timed_get(struct harness_server *s, const char *token, const char *path_fmt,
                        const char *id)
{
  struct harness_response r;
  double t = now_ms();

  harness_call(s, &r, "GET", token, NULL, path_fmt, id);
  t = now_ms() - t;
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  return t;
}

/* CPU time (all threads) the server has used so far, in us. */
static double server_cpu_us(const struct harness_server *s)
{
  return figure_cpu_ms(s->pid) * 1e3;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

/* The median of n values (reorders them). */
static double median(double *v, size_t n)
{
  qsort(v, n, sizeof *v, by_value);
  return n ? v[n / 2] : 0.0;
}

/* What each move of the long game cost: its POST's round trip, and the
 * server CPU spent while it was out (ms, us). */
struct costs {
  double latency[LONG_GAME];
  double cpu[LONG_GAME];
};

/* Play to LONG_GAME moves (or the end). Returns the moves played. */
static long play_long(struct harness_server *s, struct harness_player p[SEATS], const char *id,
                      struct costs *costs)
{
  struct harness_rng rng = {.state = 2026};
  json_t *game = harness_get_game(s, NULL, id);
  long moves = 0;

  while (moves < LONG_GAME && strcmp(harness_str(game, "status"), "active") == 0) {
    int seat = (int)json_integer_value(json_array_get(json_object_get(game, "to_act"), 0));
    json_t *mine = harness_get_game(s, p[seat].token, id);
    json_t *move = harness_choose_move(mine, &rng);
    struct harness_response r;
    double t = now_ms(), cpu = server_cpu_us(s);

    harness_post_move(s, &r, p[seat].token, id, harness_int(mine, "seq"), move);
    costs->cpu[moves] = server_cpu_us(s) - cpu;
    costs->latency[moves++] = now_ms() - t;
    HARNESS_EXPECT_JSON(&r, 200);
    json_decref(game);
    game = json_incref(json_object_get(r.json, "game"));
    harness_response_free(&r);
    json_decref(move);
    json_decref(mine);
  }
  json_decref(game);
  return moves;
}

#define TARGET_FLAT_RATIO 1.2  /* a move at 10,000 within 1.2x of one at 10 (issue 22) */
#define TARGET_REPLAY_MS  10.0 /* the full replay of a 10,000-move game */

/* Move 10 against move 10,000: the median over EDGE moves at each end of
 * the server CPU of one POST (the cost; the round trip, with its fsync, is
 * shown beside it). */
static void print_flatness(struct costs *c, long moves)
{
  double cpu_early = median(c->cpu, EDGE), cpu_late = median(c->cpu + moves - EDGE, EDGE);
  double lat_early = median(c->latency, EDGE), lat_late = median(c->latency + moves - EDGE, EDGE);
  double ratio = cpu_early > 0 ? cpu_late / cpu_early : 0.0;

  printf("http long game: POST of one move, median of %d: server CPU %.0f us at moves 1-%d, %.0f us"
         " at moves %ld-%ld: %.2fx (target ≤ %.1fx: %s); round trip %.2f ms, %.2f ms\n",
         EDGE, cpu_early, EDGE, cpu_late, moves - EDGE + 1, moves, ratio, TARGET_FLAT_RATIO,
         figure_verdict(ratio <= TARGET_FLAT_RATIO), lat_early, lat_late);
  figure(FIGURE_LOWER, cpu_early, "long.post_server_us.first");
  figure(FIGURE_LOWER, cpu_late, "long.post_server_us.last");
  figure(FIGURE_LOWER, ratio, "long.post_cost_ratio");
  figure(FIGURE_LOWER, lat_early, "long.post_ms.first");
  figure(FIGURE_LOWER, lat_late, "long.post_ms.last");
}

/* One GET after a restart, timed (ms) with the server CPU it took (us). */
struct timed {
  double ms, cpu_us;
};

static struct timed timed_view(struct harness_server *s, const char *token, const char *id)
{
  struct timed t = {.ms = now_ms(), .cpu_us = server_cpu_us(s)};

  json_decref(harness_get_game(s, token, id));
  t.ms = now_ms() - t.ms;
  t.cpu_us = server_cpu_us(s) - t.cpu_us;
  return t;
}

/* The full replay: after a restart (every derived cache gone) and a
 * warm-up on another game (so the server's own first-request costs are
 * not counted), the first view of the long game loads its log and replays
 * it; the next view is the same request without the replay. The replay is
 * the difference. */
static void print_replay(struct harness_server *s, const char *token, const char *id,
                         const char *other, long moves)
{
  struct timed cold, warm;
  double replay;

  harness_restart(s);
  timed_view(s, token, other); /* the warm-up */
  cold = timed_view(s, token, id);
  warm = timed_view(s, token, id);
  replay = cold.ms - warm.ms;
  printf("http long game after a restart: the seat's first view %.1f ms (the round trip, reading"
         " the %ld-move log from SQLite, the full replay, rendering), the next view %.2f ms (the"
         " same without the replay): the replay %.1f ms (target ≤ %.0f ms: %s); server CPU %.1f ms"
         " and %.2f ms\n",
         cold.ms, moves, warm.ms, replay, TARGET_REPLAY_MS,
         figure_verdict(replay <= TARGET_REPLAY_MS), cold.cpu_us / 1e3, warm.cpu_us / 1e3);
  figure(FIGURE_LOWER, replay, "long.replay_ms");
  figure(FIGURE_LOWER, cold.cpu_us / 1e3, "long.cold_view_server_cpu_ms");
  figure(FIGURE_LOWER, warm.ms, "long.warm_view_ms");
}

/* A 4-seat Everest game with every seat taken; its id goes in id. */
static void new_game(struct harness_server *s, struct harness_player p[SEATS], char id[64])
{
  json_t *created =
      harness_new_game(s, p[0].token, "everest-piecepack", SEATS, "{\"round_cap\":5000}");
  int i;

  snprintf(id, 64, "%s", harness_game_id(created));
  json_decref(created);
  for (i = 0; i < SEATS; i++)
    harness_join(s, p[i].token, id, i);
}

int main(void)
{
  static struct costs costs;
  struct harness_server s;
  struct harness_player p[SEATS];
  char id[64], other[64], at_path[96];
  long moves, half_seq;
  double t0, elapsed, at_cold, at_warm, audit;
  int i;

  harness_global_init();
  memset(&s, 0, sizeof(s));
  harness_start(&s);
  for (i = 0; i < SEATS; i++) {
    char name[16];

    snprintf(name, sizeof name, "yeti-%d", i);
    harness_new_player(&s, name, &p[i]);
  }
  new_game(&s, p, id);
  new_game(&s, p, other); /* unplayed: the warm-up after the restart */

  t0 = now_ms();
  moves = play_long(&s, p, id, &costs);
  elapsed = now_ms() - t0;
  printf("http long game: everest-piecepack, %ld moves by one client in %.1f s (a GET of the seat's"
         " view beside each POST)\n",
         moves, elapsed / 1e3);
  if (moves >= 2 * EDGE)
    print_flatness(&costs, moves);

  {
    json_t *game = harness_get_game(&s, NULL, id);

    half_seq = harness_int(game, "seq") / 2; /* ?at= counts seqs; plans share one */
    json_decref(game);
  }
  print_replay(&s, p[0].token, id, other, moves);
  snprintf(at_path, sizeof at_path, "/v1/games/%%s?at=%ld", half_seq);
  at_cold = timed_get(&s, NULL, at_path, id);
  at_warm = timed_get(&s, NULL, at_path, id);
  audit = timed_get(&s, NULL, "/v1/games/%s/verify", id);
  printf("http long game after the replay: ?at=%ld (seq) %.1f ms first, %.2f ms again; verify"
         " (chain + replay) %.1f ms\n",
         half_seq, at_cold, at_warm, audit);
  figure(FIGURE_LOWER, at_cold, "long.at_half_first_ms");
  figure(FIGURE_LOWER, audit, "long.verify_ms");
  harness_stop(&s);
  harness_global_cleanup();
  return 0;
}
