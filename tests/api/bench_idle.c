/*
 * bench_idle.c - 10,000 idle clients held on loopback: half waiting on
 * long-polls, half on SSE streams, none holding a server thread. Prints the
 * server's resident memory before and with them, and checks a move still
 * wakes them. Then, restarted on 100,000 more stored games, the server's
 * memory alone and with 10,000 idle clients again: the speed issue's
 * memory figure, beside its target. Prints figures only
 * (tests/bench/figures.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <arpa/inet.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tests/bench/figures.h"

#define CLIENTS 10000

static long rss_kib(pid_t pid)
{
  char path[64], line[256];
  long kib = -1;
  FILE *f;

  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  f = fopen(path, "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
      break;
  fclose(f);
  return kib;
}

static long threads_of(pid_t pid)
{
  char path[64], line[256];
  long n = -1;
  FILE *f;

  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  f = fopen(path, "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %ld", &n) == 1)
      break;
  fclose(f);
  return n;
}

/* A raw socket that sends one request and then just waits. */
static int open_idle(int port, const char *request)
{
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  int fd = socket(AF_INET, SOCK_STREAM, 0);

  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
      write(fd, request, strlen(request)) != (ssize_t)strlen(request)) {
    if (fd >= 0)
      close(fd);
    return -1;
  }
  return fd;
}

/* Open CLIENTS idle clients on game `id` (odd ones on the SSE stream, even
 * ones long-polling for a move after `after`); fds[i] is -1 where one
 * failed. Returns how many are held. */
static int open_clients(const struct harness_server *s, const char *id, long after, int *fds)
{
  char poll_req[256], sse_req[256];
  int i, held = 0;

  snprintf(poll_req, sizeof poll_req,
           "GET /v1/games/%s/wait?after=%ld&timeout=300 HTTP/1.1\r\nHost: x\r\n\r\n", id, after);
  snprintf(sse_req, sizeof sse_req, "GET /v1/games/%s/events HTTP/1.1\r\nHost: x\r\n\r\n", id);
  for (i = 0; i < CLIENTS; i++) {
    fds[i] = open_idle(s->port, i % 2 ? sse_req : poll_req);
    held += fds[i] >= 0;
  }
  sleep(2); /* a settling window before the measurement, not a wait for a condition */
  return held;
}

static void close_clients(int *fds)
{
  int i;

  for (i = 0; i < CLIENTS; i++)
    if (fds[i] >= 0)
      close(fds[i]);
}

/* `n` game rows written straight into the stopped server's database; the
 * server starts again (a fresh process) on it. */
static void store_many_games(struct harness_server *s, const char *creator, int n)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  char id[32];
  uint8_t seed[32] = {0};
  int i;

  harness_pause(s);
  sqlite3_open(s->db_path, &db);
  sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
  sqlite3_prepare_v2(db,
                     "INSERT INTO games (id, title, rules_version, options_json, seed, seats,"
                     " creator, created_ms, updated_ms) VALUES (?1, 'himalaya', 'himalaya-2',"
                     " '{}', ?2, 2, ?3, 0, 0)",
                     -1, &st, NULL);
  for (i = 0; i < n; i++) {
    snprintf(id, sizeof id, "bulk%08d", i);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_blob(st, 2, seed, sizeof seed, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, creator, -1, SQLITE_STATIC);
    sqlite3_step(st);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  sqlite3_close(db);
  harness_resume(s);
}

/* One move (seat 0's first legal one) in game `id`; the clients wake. */
static void play_first_move(struct harness_server *s, const struct harness_player *p,
                            const char *id)
{
  json_t *mine = harness_get_game(s, p->token, id);
  json_t *body =
      json_pack("{s:i, s:O}", "seq", 0, "move", json_array_get(json_object_get(mine, "legal"), 0));
  struct harness_response r;

  harness_call_json(s, &r, "POST", p->token, body, "/v1/games/%s/moves", id);
  harness_response_free(&r);
  json_decref(body);
  json_decref(mine);
}

/* How many of the clients have something to read. */
/* Server CPU per move, in us, of a whole random two-seat Himalaya game that
 * no idle client watches (the client's GETs of the view included). */
static double other_game_us_per_move(struct harness_server *s, uint64_t seed)
{
  struct harness_player players[2];
  char id[64];
  double cpu0 = figure_cpu_ms(s->pid), cpu;
  json_t *g;
  long moves;

  harness_play_random(s, "himalaya", 2, "{}", seed, players, id);
  cpu = figure_cpu_ms(s->pid) - cpu0;
  g = harness_get_game(s, NULL, id);
  moves = harness_int(g, "moves");
  json_decref(g);
  return moves ? cpu * 1e3 / (double)moves : 0.0;
}

static long woken_clients(const int *fds)
{
  char buf[512];
  long woken = 0;
  int i;

  for (i = 0; i < CLIENTS; i++)
    if (fds[i] >= 0)
      woken += recv(fds[i], buf, sizeof buf, MSG_DONTWAIT) > 0;
  return woken;
}

/* The speed issue's (22) memory target, with 100,000 stored games and
 * 10,000 idle stream clients at once: 100 MB, counted as 10^8 bytes. */
#define TARGET_RSS_KIB (100e6 / 1024)

/* With the clients gone, the server restarted on 100,000 more stored
 * games (1,000 of them viewed): its RSS alone, then with CLIENTS idle
 * clients again, the memory figure. */
static void stored_and_idle(struct harness_server *s, const struct harness_player *p,
                            const char *id, int *fds)
{
  long stored, both;
  int i, held;

  store_many_games(s, p->id, 100000);
  for (i = 0; i < 1000; i++) { /* touch a spread of them */
    char bulk[32];

    snprintf(bulk, sizeof bulk, "bulk%08d", i * 97);
    json_decref(harness_get_game(s, NULL, bulk));
  }
  stored = rss_kib(s->pid);
  printf("storage: server RSS with 100,000+ stored games (1,000 of them viewed), a fresh process:"
         " %ld KiB\n",
         stored);
  figure(FIGURE_LOWER, (double)stored, "storage.rss_kib");
  held = open_clients(s, id, 1, fds); /* one move was played: wait for the second */
  both = rss_kib(s->pid);
  printf("memory: server RSS with 100,000+ stored games and %d of %d idle clients held at once:"
         " %ld KiB (target ≤ 100 MB, %.0f KiB: %s)\n",
         held, CLIENTS, both, TARGET_RSS_KIB, figure_verdict((double)both <= TARGET_RSS_KIB));
  figure(FIGURE_LOWER, (double)both, "memory.stored_and_idle_rss_kib");
  close_clients(fds);
}

int main(void)
{
  static int fds[CLIENTS];
  struct harness_server s;
  struct harness_player p[2];
  struct rlimit lim;
  json_t *g;
  char id[64];
  long before, with, woken;
  double alone_us, watched_us;
  int held;

  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  harness_global_init();
  memset(&s, 0, sizeof s);
  harness_start(&s);
  harness_new_player(&s, "a", &p[0]);
  harness_new_player(&s, "b", &p[1]);
  g = harness_new_game(&s, p[0].token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(&s, p[0].token, id, 0);
  harness_join(&s, p[1].token, id, 1);
  other_game_us_per_move(&s, 11); /* warm: the first game pays for the caches */
  alone_us = other_game_us_per_move(&s, 11);
  before = rss_kib(s.pid);
  held = open_clients(&s, id, 0, fds);
  with = rss_kib(s.pid);
  watched_us = other_game_us_per_move(&s, 11);
  printf("idle clients: %d of %d held (half long-poll, half SSE); server RSS %ld KiB before, "
         "%ld KiB with them (%.1f KiB per client); server threads %ld\n",
         held, CLIENTS, before, with, held ? (double)(with - before) / held : 0.0,
         threads_of(s.pid));
  figure(FIGURE_LOWER, (double)with, "idle.rss_kib");
  figure(FIGURE_LOWER, held ? (double)(with - before) / held : 0.0, "idle.kib_per_client");
  /* A move tells the clients that watch its game, not every client: the
   * hub keeps them in chains by game and player (api/notify.c). */
  printf("idle clients: a move of another game (the same random game each time, views included)"
         " costs the server %.0f us of CPU with them held, %.0f us without\n",
         watched_us, alone_us);
  figure(FIGURE_LOWER, watched_us, "idle.other_game_server_us_per_move");
  figure(FIGURE_LOWER, alone_us, "idle.alone_server_us_per_move");
  play_first_move(&s, &p[0], id);
  sleep(2); /* the figure is what one move wakes within 2 s: a window, not a wait */
  woken = woken_clients(fds);
  printf("idle clients: one move woke %ld of them within 2 s\n", woken);
  figure(FIGURE_HIGHER, (double)woken, "idle.woken");
  close_clients(fds);
  stored_and_idle(&s, &p[0], id, fds);
  harness_stop(&s);
  harness_global_cleanup();
  return 0;
}
