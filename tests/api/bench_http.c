/*
 * bench_http.c - the server over HTTP on loopback, one client: accepted
 * moves per second with latency percentiles (each a durable commit), and the
 * cost of GET ?at=N across a whole game, first with no replay checkpoints
 * (fresh server) and then with them. Prints figures only
 * (tests/bench/figures.h).
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

#define GAMES 20

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double percentile(double *v, size_t n, double p)
{
  qsort(v, n, sizeof(*v), by_value);
  return v[(size_t)(p * (double)(n - 1))];
}

/* Time every GET ?at=N of a game; returns the mean in ms. */
static double replay_all(struct harness_server *s, const char *id, long seq, double *worst)
{
  double total = 0;
  long n;

  *worst = 0;
  for (n = 0; n <= seq; n++) {
    struct harness_response r;
    double t0 = now_ms(), dt;

    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s?at=%ld", id, n);
    dt = now_ms() - t0;
    if (r.status != 200)
      fprintf(stderr, "bench: ?at=%ld answered %ld\n", n, r.status);
    harness_response_free(&r);
    total += dt;
    if (dt > *worst)
      *worst = dt;
  }
  return total / (double)(seq + 1);
}

int main(void)
{
  struct harness_server s;
  struct harness_player players[5];
  char id[64], longest[64] = "";
  long longest_seq = 0, moves = 0;
  double t0, elapsed, mean, worst;
  int g;

  harness_global_init();
  memset(&s, 0, sizeof(s));
  harness_start(&s);
  t0 = now_ms();
  for (g = 0; g < GAMES; g++) {
    json_t *game;
    long seq;

    harness_play_random(&s, "himalaya", 5, "{}", (uint64_t)g + 1, players, id);
    game = harness_get_game(&s, NULL, id);
    seq = (long)json_integer_value(json_object_get(game, "seq"));
    json_decref(game);
    moves += seq;
    if (seq > longest_seq) {
      longest_seq = seq;
      snprintf(longest, sizeof(longest), "%s", id);
    }
  }
  elapsed = now_ms() - t0;
  /* Each move in the playout is 3 requests (spectator view, seat view with
   * legal, the POST); the rate counts only the accepted, committed moves. */
  printf("http himalaya: %d games, %ld moves played by one client in %.0f ms: %.0f moves/s "
         "(each with 2 GETs beside it)\n",
         GAMES, moves, elapsed, 1e3 * (double)moves / elapsed);
  figure(FIGURE_HIGHER, 1e3 * (double)moves / elapsed, "http.one_client.moves_per_s");

  harness_restart(&s); /* no checkpoints held */
  mean = replay_all(&s, longest, longest_seq, &worst);
  printf("http replay ?at=N over a %ld-move game, cold: mean %.2f ms, worst %.2f ms\n", longest_seq,
         mean, worst);
  figure(FIGURE_LOWER, mean, "http.at_cold.mean_ms");
  mean = replay_all(&s, longest, longest_seq, &worst);
  printf("http replay ?at=N over a %ld-move game, warm: mean %.2f ms, worst %.2f ms\n", longest_seq,
         mean, worst);
  figure(FIGURE_LOWER, mean, "http.at_warm.mean_ms");

  {
    double lat[400];
    size_t n = 0;
    struct harness_player p[2];
    json_t *created;
    char gid[64];

    harness_new_player(&s, "a", &p[0]);
    harness_new_player(&s, "b", &p[1]);
    for (n = 0; n < 400;) {
      created = harness_new_game(&s, p[0].token, "himalaya", 2, "{}");
      snprintf(gid, sizeof(gid), "%s", harness_game_id(created));
      json_decref(created);
      harness_join(&s, p[0].token, gid, -1);
      harness_join(&s, p[1].token, gid, -1);
      for (;;) {
        json_t *spec = harness_get_game(&s, NULL, gid);
        int seat = (int)json_integer_value(json_array_get(json_object_get(spec, "to_act"), 0));
        bool over = strcmp(harness_str(spec, "status"), "finished") == 0;
        json_t *mine, *body;
        struct harness_response r;
        double t;

        json_decref(spec);
        if (over || n == 400)
          break;
        mine = harness_get_game(&s, p[seat].token, gid);
        body = json_pack("{s:O, s:O}", "seq", json_object_get(mine, "seq"), "move",
                         json_array_get(json_object_get(mine, "legal"), 0));
        t = now_ms();
        harness_call_json(&s, &r, "POST", p[seat].token, body, "/v1/games/%s/moves", gid);
        lat[n++] = now_ms() - t;
        harness_response_free(&r);
        json_decref(body);
        json_decref(mine);
      }
    }
    double p50 = percentile(lat, n, 0.5), p99 = percentile(lat, n, 0.99);

    printf("http POST move latency, one client, %zu moves: p50 %.2f ms, p99 %.2f ms\n", n, p50,
           p99);
    figure(FIGURE_LOWER, p50, "http.one_client.post_p50_ms");
    figure(FIGURE_LOWER, p99, "http.one_client.post_p99_ms");
  }
  harness_stop(&s);
  harness_global_cleanup();
  return 0;
}
