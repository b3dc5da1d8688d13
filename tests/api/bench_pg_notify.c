/*
 * bench_pg_notify.c - how soon a client waiting on one node hears of a
 * move made on another (issue 23): two release servers on one PostgreSQL
 * database; a long-poll parked on node A (GET /v1/games/{id}/wait), a move
 * POSTed on node B, and the time from sending the POST to A's answer,
 * over SAMPLES moves, one at a time: p50, p99 and max. The POST's own
 * round trip is printed beside it, and the same measure with the
 * long-poll on B itself, so what crossing nodes adds (PostgreSQL's
 * notification, node A reading the row) stands apart from the commit.
 *
 * On the cluster CAIRN_BENCH_PG names (make bench starts a throwaway one:
 * build.mk), in a database of its own, dropped after; without it the bench
 * says so and measures nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "loadconn.h"
#include "pgdb.h"
#include "tests/bench/figures.h"

#define SAMPLES 300 /* moves measured per figure */
#define PARK_MS 2000

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A two-seat Himalaya game, made and played on one node. */
struct duel {
  struct harness_player p[2];
  char id[64];
};

static void start_duel(struct harness_server *s, struct duel *d)
{
  json_t *created;

  harness_new_player(s, "Tenzing", &d->p[0]);
  harness_new_player(s, "Hillary", &d->p[1]);
  created = harness_new_game(s, d->p[0].token, "himalaya", 2, "{}");
  snprintf(d->id, sizeof d->id, "%s", harness_game_id(created));
  json_decref(created);
  harness_join(s, d->p[0].token, d->id, 0);
  harness_join(s, d->p[1].token, d->id, 1);
}

/* The next move of `d` as a POST: its body (OUT, caller frees with free())
 * and headers; the seq it is made at. False when the game is over. */
static bool next_move(struct harness_server *s, const struct duel *d, struct harness_rng *rng,
                      char **body, char headers[256], long *seq)
{
  json_t *pub = harness_get_game(s, NULL, d->id);
  bool active = strcmp(harness_str(pub, "status"), "active") == 0;
  int seat = (int)json_integer_value(json_array_get(json_object_get(pub, "to_act"), 0));
  json_t *mine, *move, *post;

  json_decref(pub);
  if (!active)
    return false;
  mine = harness_get_game(s, d->p[seat].token, d->id);
  move = harness_choose_move(mine, rng);
  *seq = harness_int(mine, "seq");
  post = json_pack("{s:I, s:O}", "seq", (json_int_t)*seq, "move", move);
  *body = json_dumps(post, JSON_COMPACT);
  snprintf(headers, 256, "Authorization: Bearer %s\r\nContent-Type: application/json\r\n",
           d->p[seat].token);
  json_decref(post);
  json_decref(move);
  json_decref(mine);
  return *body != NULL;
}

static bool one_parked(void *arg)
{
  /* Long-polls parked on the node now. */
  return harness_metric(arg, "cairn_waiting_clients{kind=\"long_poll\"}") >= 1;
}

/* Wait for both connections' answers; false when one did not come in
 * time. at[i] gets when connection i was answered. */
static bool answers(int epfd, struct load_conn conns[2], double at[2])
{
  int left = 2;

  at[0] = at[1] = 0;
  while (left > 0) {
    struct epoll_event ev[2];
    int n = epoll_wait(epfd, ev, 2, 10000), k;

    if (n <= 0)
      return false;
    for (k = 0; k < n; k++) {
      int i = (int)ev[k].data.u64;
      int got = load_conn_on_event(&conns[i], ev[k].events);

      if (got < 0)
        return false;
      if (got > 0 && at[i] == 0) {
        at[i] = now_ms();
        left--;
      }
    }
  }
  return true;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double percentile(const double *v, int n, double p)
{
  int rank = (int)(p * n + 0.999999);

  return n ? v[rank < 1 ? 0 : rank > n ? n - 1 : rank - 1] : 0.0;
}

/* SAMPLES moves POSTed on `mover`, each heard by a long-poll parked on
 * `waiter` first; the figures under `key`. False when a wait went
 * unanswered or answered with another seq. */
static bool measure(struct harness_server *waiter, struct harness_server *mover, const char *key,
                    const char *what)
{
  static double delay[SAMPLES], post[SAMPLES];
  struct harness_rng rng = {0x10ad};
  struct load_conn conns[2]; /* 0: the long-poll, on `waiter`; 1: the POST, on `mover` */
  int epfd = epoll_create1(EPOLL_CLOEXEC), n = 0, i;
  bool ok = true;
  struct duel d;

  load_conn_init(&conns[0], epfd, waiter->host, waiter->port, 0);
  load_conn_init(&conns[1], epfd, mover->host, mover->port, 1);
  start_duel(mover, &d);
  while (ok && n < SAMPLES) {
    char wait_path[160], move_path[128], headers[256], *body = NULL;
    double t0, at[2];
    long seq;

    if (!next_move(mover, &d, &rng, &body, headers, &seq)) {
      start_duel(mover, &d);
      continue;
    }
    snprintf(wait_path, sizeof wait_path, "/v1/games/%s/wait?after=%ld&timeout=10", d.id, seq);
    snprintf(move_path, sizeof move_path, "/v1/games/%s/moves", d.id);
    ok = load_conn_request(&conns[0], "GET", wait_path, "", NULL) &&
         harness_wait_every(one_parked, waiter, PARK_MS, 1);
    t0 = now_ms();
    ok = ok && load_conn_request(&conns[1], "POST", move_path, headers, body) &&
         answers(epfd, conns, at) && load_conn_status(&conns[1]) == 200 &&
         load_conn_status(&conns[0]) == 200;
    if (ok) {
      char want[32];

      snprintf(want, sizeof want, "\"seq\":%ld", seq + 1);
      ok = strstr(load_conn_body(&conns[0]), want) != NULL;
    }
    if (!ok)
      fprintf(stderr, "bench_pg_notify: move %d at seq %ld: no answer, or not of this move\n", n,
              seq);
    delay[n] = at[0] - t0;
    post[n++] = at[1] - t0;
    free(body);
  }
  for (i = 0; i < 2; i++)
    load_conn_close(&conns[i]);
  close(epfd);
  if (!ok)
    return false;
  qsort(delay, SAMPLES, sizeof(double), by_value);
  qsort(post, SAMPLES, sizeof(double), by_value);
  printf("%s: %d moves, one at a time, %s: from sending the POST to the long-poll's answer"
         " p50 %.2f ms, p99 %.2f ms, max %.2f ms (the POST's own answer: p50 %.2f ms, p99 %.2f"
         " ms)\n",
         key, SAMPLES, what, percentile(delay, SAMPLES, 0.5), percentile(delay, SAMPLES, 0.99),
         delay[SAMPLES - 1], percentile(post, SAMPLES, 0.5), percentile(post, SAMPLES, 0.99));
  figure(FIGURE_LOWER, percentile(delay, SAMPLES, 0.5), "%s.p50_ms", key);
  figure(FIGURE_LOWER, percentile(delay, SAMPLES, 0.99), "%s.p99_ms", key);
  figure(FIGURE_LOWER, delay[SAMPLES - 1], "%s.max_ms", key);
  figure(FIGURE_LOWER, percentile(post, SAMPLES, 0.5), "%s.post_p50_ms", key);
  return true;
}

int main(void)
{
  const char *cluster = getenv("CAIRN_BENCH_PG");
  struct harness_server nodes[2];
  struct pgdb db;
  bool ok;

  if (!cluster || !cluster[0]) {
    printf("bench_pg_notify: skipped: CAIRN_BENCH_PG names no PostgreSQL cluster (make bench"
           " starts one; by hand: sh tests/db/pg_cluster.sh start)\n");
    return 0;
  }
  harness_global_init();
  if (!pgdb_create(&db, cluster, "cairn_notify")) {
    harness_global_cleanup();
    return 1;
  }
  memset(nodes, 0, sizeof nodes);
  harness_start_on(&nodes[0], db.url);
  harness_start_on(&nodes[1], db.url);
  ok = measure(&nodes[0], &nodes[1], "pg.notify_delay", "posted on node B, waited for on node A");
  fflush(stdout);
  ok = ok &&
       measure(&nodes[1], &nodes[1], "pg.notify_local", "posted and waited for on the same node");
  harness_stop(&nodes[1]);
  harness_stop(&nodes[0]);
  ok = pgdb_drop(&db) && ok;
  harness_global_cleanup();
  return ok ? 0 : 1;
}
