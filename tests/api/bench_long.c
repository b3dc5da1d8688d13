/*
 * bench_long.c - one long game through the server: an Everest game (4 seats,
 * round_cap 5000, so random play does not end it) played over HTTP to
 * 10,000 moves. The POST of move 10 must cost what the POST of move 10,000
 * does: the server keeps the live state and appends, it never replays the
 * log per move. Then, after a restart (every cache empty), the cost of the
 * one full replay a cold game needs, of a warm view, of ?at=N, and of the
 * whole audit (hash chain + replay). Prints figures only.
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

#define LONG_GAME 10000 /* moves */
#define EDGE      20    /* moves averaged at each end */
#define SEATS     4

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double mean(const double *v, size_t n)
{
  double sum = 0;
  size_t i;

  for (i = 0; i < n; i++)
    sum += v[i];
  return n ? sum / (double)n : 0;
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

/* Play to LONG_GAME moves (or the end); latency[i] is the POST of move i.
 * Returns the moves played. */
static long play_long(struct harness_server *s, struct harness_player p[SEATS], const char *id,
                      double *latency)
{
  struct harness_rng rng = {.state = 2026};
  json_t *game = harness_get_game(s, NULL, id);
  long moves = 0;

  while (moves < LONG_GAME && strcmp(harness_str(game, "status"), "active") == 0) {
    int seat = (int)json_integer_value(json_array_get(json_object_get(game, "to_act"), 0));
    json_t *mine = harness_get_game(s, p[seat].token, id);
    json_t *move = harness_choose_move(mine, &rng);
    struct harness_response r;
    double t = now_ms();

    harness_post_move(s, &r, p[seat].token, id, harness_int(mine, "seq"), move);
    latency[moves++] = now_ms() - t;
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

int main(void)
{
  static double latency[LONG_GAME];
  struct harness_server s;
  struct harness_player p[SEATS];
  char id[64], at_path[96];
  json_t *created;
  long moves, half_seq;
  double t0, elapsed, cold, warm, at_cold, at_warm, audit;
  int i;

  harness_global_init();
  memset(&s, 0, sizeof(s));
  harness_start(&s);
  for (i = 0; i < SEATS; i++) {
    char name[16];

    snprintf(name, sizeof name, "yeti-%d", i);
    harness_new_player(&s, name, &p[i]);
  }
  created = harness_new_game(&s, p[0].token, "everest-piecepack", SEATS, "{\"round_cap\":5000}");
  snprintf(id, sizeof id, "%s", harness_game_id(created));
  json_decref(created);
  for (i = 0; i < SEATS; i++)
    harness_join(&s, p[i].token, id, i);

  t0 = now_ms();
  moves = play_long(&s, p, id, latency);
  elapsed = now_ms() - t0;
  printf("http long game: everest-piecepack, %ld moves by one client in %.1f s (a GET of the seat's"
         " view beside each POST)\n",
         moves, elapsed / 1e3);
  if (moves >= 2 * EDGE)
    printf("http long game: POST of one move: %.2f ms at moves 1-%d, %.2f ms at moves %ld-%ld\n",
           mean(latency, EDGE), EDGE, mean(latency + moves - EDGE, EDGE), moves - EDGE + 1, moves);

  {
    json_t *game = harness_get_game(&s, NULL, id);

    half_seq = harness_int(game, "seq") / 2; /* ?at= counts seqs; plans share one */
    json_decref(game);
  }
  harness_restart(&s); /* every derived cache is gone */
  snprintf(at_path, sizeof at_path, "/v1/games/%%s?at=%ld", half_seq);
  cold = timed_get(&s, p[0].token, "/v1/games/%s", id);
  warm = timed_get(&s, p[0].token, "/v1/games/%s", id);
  at_cold = timed_get(&s, NULL, at_path, id);
  at_warm = timed_get(&s, NULL, at_path, id);
  audit = timed_get(&s, NULL, "/v1/games/%s/verify", id);
  printf("http long game after a restart: first view (full replay of %ld moves) %.1f ms, next view"
         " %.2f ms; ?at=%ld (seq) %.1f ms first, %.2f ms again; verify (chain + replay) %.1f ms\n",
         moves, cold, warm, half_seq, at_cold, at_warm, audit);
  harness_stop(&s);
  harness_global_cleanup();
  return 0;
}
