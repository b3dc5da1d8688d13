/*
 * bench_load.c - the server under concurrent play on loopback, driven by
 * our own load generator (one keep-alive connection per game, loadconn.c,
 * all watched by one epoll): for 1, 100 and 1,000 games played at once,
 * accepted (durable) moves per second and the p50/p99 latency of the move
 * POSTs, for every title. Then the server's resident memory with 100,000
 * stored games. Prints figures only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "harness.h"
#include "loadconn.h"

#define MOVES_PER_ROUND   2000 /* POSTs measured per concurrency level, at least */
#define MOVES_PER_GAME    5    /* ...and this many per game, so first moves do not dominate */
#define OPEN_LOOP_SECONDS 4    /* an open-loop run lasts at least this long at its rate */
#define MAX_SEATS         5    /* the most any title seats */

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

struct game {
  char id[64];
  int phase; /* 0: GET the view of the seat to act, 1: POST its move */
  int seat;  /* seat to act */
  long seq;
  char *move; /* the move to POST, JSON text (owned) */
  bool over;
  bool waiting; /* a request of this game is out */
  struct load_conn conn;
  char view_path[128], move_path[128];
  char *body; /* request body (owned) */
  double started;
};

/* Who plays what: a title with that many seats, one player per seat. */
struct cast {
  const char *title;
  int seats;
  struct harness_player p[MAX_SEATS];
};

struct load {
  struct harness_server *s;
  const struct cast *cast;
  struct harness_rng rng;       /* the moves' choices */
  char headers[MAX_SEATS][200]; /* each seat's header lines, built once */
  struct game *games;
  int n;
  double *lat;
  long cap; /* room in lat */
  long done, refused;
  int over;      /* games that ended */
  int in_flight; /* requests sent and not answered */
  int epfd;      /* every game's connection is watched here */
  int *answered; /* games whose answer came in, not yet handed to advance */
  int n_answered;
};

static void issue(struct load *l, struct game *g)
{
  free(g->body);
  g->body = NULL;
  if (g->phase == 1) {
    size_t size = strlen(g->move) + 48;

    g->body = malloc(size);
    snprintf(g->body, size, "{\"seq\":%ld,\"move\":%s}", g->seq, g->move);
  }
  g->started = now_ms();
  l->in_flight++;
  g->waiting = true;
  if (!load_conn_request(&g->conn, g->phase ? "POST" : "GET",
                         g->phase ? g->move_path : g->view_path, l->headers[g->seat], g->body)) {
    g->waiting = false; /* answered at once: by nothing, which advance counts as refused */
    l->answered[l->n_answered++] = (int)(g - l->games);
  }
}

/*
 * The generator reads answers without building a JSON tree: it must cost
 * little next to the server it measures (parsing an 11 KB view with
 * jansson took as much CPU as the server spent answering it). A scanner
 * walks the top-level members and keeps the spans of the few it uses; a
 * move is POSTed as the very text the server listed. A scan that goes
 * wrong can only make the server refuse the move, which the figures count.
 */
#define MAX_LEGAL 512

struct span {
  const char *at;
  size_t len;
};

struct answer {
  struct span status, seq, to_act, legal[MAX_LEGAL], game;
  int n_legal;
};

static const char *skip_ws(const char *p)
{
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
    p++;
  return p;
}

/* The end of the JSON value at p (NULL on malformed text). */
static const char *skip_value(const char *p)
{
  int depth = 0;

  do {
    p = skip_ws(p);
    if (*p == '"') {
      for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
          p++;
      if (!*p)
        return NULL;
      p++;
    } else if (*p == '{' || *p == '[') {
      depth++;
      p++;
    } else if (*p == '}' || *p == ']') {
      depth--;
      p++;
    } else if (*p == ',' || *p == ':') {
      p++;
    } else if (*p) {
      while (*p && !strchr(",:]} \n\r\t", *p))
        p++;
    } else {
      return NULL;
    }
  } while (depth > 0);
  return p;
}

static bool is(struct span key, const char *name)
{
  return key.len == strlen(name) && memcmp(key.at, name, key.len) == 0;
}

static void game_member(struct answer *a, struct span key, struct span value)
{
  if (is(key, "status"))
    a->status = value;
  else if (is(key, "seq"))
    a->seq = value;
  else if (is(key, "to_act"))
    a->to_act = value;
  else if (is(key, "game"))
    a->game = value;
  else if (is(key, "legal")) {
    const char *p = skip_ws(value.at + 1), *end;

    while (*p && *p != ']' && a->n_legal < MAX_LEGAL && (end = skip_value(p))) {
      a->legal[a->n_legal++] = (struct span){p, (size_t)(end - p)};
      p = skip_ws(end);
      if (*p == ',')
        p = skip_ws(p + 1);
    }
  }
}

/* Record in *a the members of the object at p that the generator uses. */
static bool scan_object(const char *p, struct answer *a)
{
  p = skip_ws(p);
  if (*p++ != '{')
    return false;
  for (;;) {
    struct span key, value;
    const char *end;

    p = skip_ws(p);
    if (*p == '}')
      return true;
    if (*p != '"' || !(end = skip_value(p)))
      return false;
    key = (struct span){p + 1, (size_t)(end - p - 2)};
    p = skip_ws(end);
    if (*p++ != ':')
      return false;
    p = skip_ws(p);
    if (!(end = skip_value(p)))
      return false;
    value = (struct span){p, (size_t)(end - p)};
    game_member(a, key, value);
    p = skip_ws(end);
    if (*p == ',')
      p++;
  }
}

/* The text of a random legal move (malloc'd): one listed move, or for a
 * compact descriptor (Everest's plan-options) a move built from it. */
static char *choose_text(struct load *l, const struct answer *a)
{
  struct span pick = a->legal[harness_rng_below(&l->rng, (uint64_t)a->n_legal)];
  char *text;

  if (memmem(pick.at, pick.len, "\"plan-options\"", 14)) {
    json_t *mine = json_pack("{s:[o]}", "legal", json_loadb(pick.at, pick.len, 0, NULL));
    json_t *move = harness_choose_move(mine, &l->rng);

    text = json_dumps(move, JSON_COMPACT);
    json_decref(move);
    json_decref(mine);
    return text;
  }
  text = malloc(pick.len + 1);
  memcpy(text, pick.at, pick.len);
  text[pick.len] = '\0';
  return text;
}

/* Read the answer; choose the next request. */
static void advance(struct load *l, struct game *g, long status)
{
  struct answer a = {0}, game = {0};
  bool ok = status != 0 && scan_object(load_conn_body(&g->conn), &a);

  if (g->phase == 1) {
    if (status == 200 && l->done < l->cap)
      l->lat[l->done++] = now_ms() - g->started;
    else if (status != 200)
      l->refused++;
    ok = ok && a.game.at && scan_object(a.game.at, &game);
  } else {
    game = a;
  }
  if (!ok || !game.status.at || game.status.len != 8 || memcmp(game.status.at, "\"active\"", 8)) {
    l->over += !g->over;
    g->over = true;
  } else if (g->phase == 0) {
    free(g->move);
    g->move = game.n_legal ? choose_text(l, &game) : NULL;
    g->seq = game.seq.at ? strtol(game.seq.at, NULL, 10) : 0;
    g->phase = g->move ? 1 : 0;
  } else {
    g->seat = game.to_act.at ? (int)strtol(skip_ws(game.to_act.at + 1), NULL, 10) : 0;
    g->phase = 0;
  }
}

static void new_games(struct load *l, int n)
{
  int i, seat;

  l->games = calloc((size_t)n, sizeof(*l->games));
  l->answered = calloc((size_t)n, sizeof(int));
  l->n = n;
  for (seat = 0; seat < l->cast->seats; seat++)
    snprintf(l->headers[seat], sizeof l->headers[seat],
             "Authorization: Bearer %s\r\nContent-Type: application/json\r\n",
             l->cast->p[seat].token);
  for (i = 0; i < n; i++) {
    struct game *g = &l->games[i];
    json_t *created =
        harness_new_game(l->s, l->cast->p[0].token, l->cast->title, l->cast->seats, "{}");

    snprintf(g->id, sizeof g->id, "%s", harness_game_id(created));
    json_decref(created);
    for (seat = 0; seat < l->cast->seats; seat++)
      harness_join(l->s, l->cast->p[seat].token, g->id, seat);
    snprintf(g->view_path, sizeof g->view_path, "/v1/games/%s", g->id);
    snprintf(g->move_path, sizeof g->move_path, "/v1/games/%s/moves", g->id);
    load_conn_init(&g->conn, l->epfd, l->s->host, l->s->port, (uint64_t)i);
  }
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

/* Wait at most `max_ms` for answers; note the games whose answer is in
 * (or whose connection failed: status 0). */
static void wait_answers(struct load *l, int max_ms)
{
  struct epoll_event ev[64];
  int n = epoll_wait(l->epfd, ev, 64, max_ms), i;

  for (i = 0; i < n; i++) {
    struct game *g = &l->games[ev[i].data.u64];
    int got = load_conn_on_event(&g->conn, ev[i].events);

    /* A connection the server closed between requests is reopened by the
     * next request; only a game waiting for its answer has lost one. */
    if (got != 0 && g->waiting) {
      g->waiting = false;
      l->answered[l->n_answered++] = (int)(g - l->games);
    }
  }
}

/* The next game whose answer is in, with its HTTP status (0 for a failed
 * connection); false when none. */
static bool finished(struct load *l, struct game **g, long *status)
{
  if (l->n_answered == 0)
    return false;
  *g = &l->games[l->answered[--l->n_answered]];
  *status = load_conn_status(&(*g)->conn);
  if ((*g)->conn.fd < 0)
    *status = 0;
  l->in_flight--;
  return true;
}

/* Run every request out to its answer, feeding each to advance (which
 * picks the game's next request but does not issue it). */
static void drain(struct load *l)
{
  struct game *g;
  long status;

  while (l->in_flight > 0) {
    wait_answers(l, 10);
    while (finished(l, &g, &status))
      advance(l, g, status);
  }
}

/* The move latencies' summary and the refusals, ending the line that
 * names the run; then any reconnects, which a keep-alive run should not
 * need (each one is a connection the server closed). Sorts l->lat.
 * Returns the slowest latency, in ms. */
static double print_latency(struct load *l)
{
  long reconnects = 0;
  double slowest;
  int i;

  qsort(l->lat, (size_t)l->done, sizeof(double), by_value);
  slowest = l->done ? l->lat[l->done - 1] : 0.0;
  for (i = 0; i < l->n; i++)
    reconnects += l->games[i].conn.connects > 1 ? l->games[i].conn.connects - 1 : 0;
  printf(" move p50 %.2f ms, p99 %.2f ms, max %.2f ms (%ld refused)\n",
         l->done ? l->lat[l->done / 2] : 0.0,
         l->done ? l->lat[(size_t)(0.99 * (double)(l->done - 1))] : 0.0, slowest, l->refused);
  if (reconnects)
    printf("      %ld reconnects: the server closed kept-alive connections\n", reconnects);
  return slowest;
}

static void free_games(struct load *l)
{
  int i;

  for (i = 0; i < l->n; i++) {
    load_conn_close(&l->games[i].conn);
    free(l->games[i].body);
    free(l->games[i].move);
  }
  free(l->games);
  free(l->answered);
}

/* Play `concurrent` games at once. With rate 0 every game moves again as
 * soon as its last move is answered (closed loop: the server's capacity).
 * With a rate, moves start at that many per second in all, each in a game
 * not already waiting (open loop: latency at a given load). */
/* CPU time (user + system) the process has used so far, in ms. */
static double cpu_ms(pid_t pid)
{
  char path[64];
  unsigned long utime = 0, stime = 0;
  FILE *f;

  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  f = fopen(path, "r");
  /* Fields 14 and 15, after "pid (comm) state" and ten more. */
  if (!f || fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
                   &stime) != 2)
    utime = stime = 0;
  if (f)
    fclose(f);
  return 1e3 * (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static void run_level(struct harness_server *s, const struct cast *cast, int concurrent,
                      double rate)
{
  struct load l = {.s = s, .cast = cast, .rng = {.state = (uint64_t)concurrent}};
  int *idle = calloc((size_t)concurrent, sizeof(int));
  double t0, elapsed, next_slot, cpu0, gen0;
  int i, n_idle = 0;

  l.epfd = epoll_create1(EPOLL_CLOEXEC);
  l.cap = MOVES_PER_ROUND;
  if (rate == 0 && concurrent * MOVES_PER_GAME > l.cap)
    l.cap = concurrent * MOVES_PER_GAME;
  if (rate * OPEN_LOOP_SECONDS > (double)l.cap)
    l.cap = (long)(rate * OPEN_LOOP_SECONDS); /* a few seconds at any rate */
  l.lat = calloc((size_t)l.cap, sizeof(double));
  new_games(&l, concurrent);
  t0 = next_slot = now_ms();
  cpu0 = cpu_ms(s->pid);
  gen0 = cpu_ms(getpid());
  for (i = 0; i < l.n; i++) {
    if (rate > 0)
      idle[n_idle++] = i;
    else
      issue(&l, &l.games[i]);
  }
  while (l.over < l.n && l.done < l.cap) {
    struct game *g;
    long status;

    while (rate > 0 && n_idle && now_ms() >= next_slot) {
      issue(&l, &l.games[idle[--n_idle]]);
      next_slot += 1000.0 / rate;
    }
    wait_answers(&l, rate > 0 ? 1 : 10);
    while (finished(&l, &g, &status)) {
      advance(&l, g, status);
      if (g->over || l.done >= l.cap)
        continue;
      if (rate > 0 && g->phase == 0)
        idle[n_idle++] = (int)(g - l.games); /* its move is done: wait for the next slot */
      else
        issue(&l, g);
    }
  }
  elapsed = now_ms() - t0;
  cpu0 = cpu_ms(s->pid) - cpu0;
  gen0 = cpu_ms(getpid()) - gen0;
  if (rate > 0)
    printf("load %s: %4d concurrent games, open loop at %.0f moves/s offered:", cast->title,
           concurrent, rate);
  else
    printf("load %s: %4d concurrent games, closed loop (each moves again when answered):",
           cast->title, concurrent);
  printf(" %ld accepted moves in %.0f ms = %.0f moves/s;", l.done, elapsed,
         1e3 * (double)l.done / elapsed);
  print_latency(&l);
  if (l.done)
    printf("      server CPU %.0f us per accepted move (its GET and POST), so about %.0f moves/s"
           " per core it had to itself; the load generator took %.0f us of CPU per move\n",
           1e3 * cpu0 / (double)l.done, 1e3 / (cpu0 / (double)l.done), 1e3 * gen0 / (double)l.done);
  free_games(&l);
  free(l.lat);
  free(idle);
  close(l.epfd);
}

/* Commit capacity: in each wave every game first fetches the view of its
 * seat to act (not timed), then all of them POST their move at once. The
 * moves/s of the POST half is what the server commits when `concurrent`
 * moves arrive together: request handling, rules and group commit, without
 * the view rendering a client does between its moves. Returns true when a
 * move went unanswered or took over a second (a stall: see main). */
static bool run_waves(struct harness_server *s, const struct cast *cast, int concurrent, int waves)
{
  struct load l = {.s = s, .cast = cast, .rng = {.state = (uint64_t)concurrent}};
  double posting = 0, cpu = 0, gen = 0;
  bool stalled;
  int w, i;

  l.epfd = epoll_create1(EPOLL_CLOEXEC);
  l.cap = (long)concurrent * waves;
  l.lat = calloc((size_t)l.cap, sizeof(double));
  new_games(&l, concurrent);
  for (w = 0; w < waves; w++) {
    double t0, c0, g0;

    for (i = 0; i < l.n; i++)
      if (!l.games[i].over && l.games[i].phase == 0)
        issue(&l, &l.games[i]);
    drain(&l);
    t0 = now_ms();
    c0 = cpu_ms(s->pid);
    g0 = cpu_ms(getpid());
    for (i = 0; i < l.n; i++)
      if (!l.games[i].over && l.games[i].phase == 1)
        issue(&l, &l.games[i]);
    drain(&l);
    posting += now_ms() - t0;
    cpu += cpu_ms(s->pid) - c0;
    gen += cpu_ms(getpid()) - g0;
  }
  printf(
      "load %s: %4d concurrent games, %d waves of one move each, all POSTed at once: %ld accepted"
      " moves in %.0f ms of posting = %.0f moves/s;",
      cast->title, concurrent, waves, l.done, posting, 1e3 * (double)l.done / posting);
  stalled = print_latency(&l) > 1000.0 || l.refused > 0;
  if (l.done)
    printf("      server CPU %.0f us per accepted move (the POST alone); the load generator took"
           " %.0f us of CPU per move\n",
           1e3 * cpu / (double)l.done, 1e3 * gen / (double)l.done);
  free_games(&l);
  free(l.lat);
  close(l.epfd);
  return stalled;
}

/*
 * CAIRN_BENCH_WAVES=N: N waves (in runs of 5, each on 1,000 fresh games)
 * and how many runs stalled. It is the hunt that found libmicrohttpd
 * 0.9.75's epoll mode leaving requests unread until the 30 s idle timeout
 * closed their connections (6 runs in 99 with epoll, 0 in 120 with poll;
 * server.c), kept so the
 * check can be repeated on another libmicrohttpd or machine.
 */
static void hunt_stalls(struct harness_server *s, const struct cast *cast, int waves)
{
  int runs = (waves + 4) / 5, stalled = 0, i;

  for (i = 0; i < runs; i++) {
    stalled += run_waves(s, cast, 1000, 5);
    fflush(stdout);
  }
  printf(
      "stall hunt %s: %d runs of 5 waves of 1,000 POSTs, %d with a move unanswered or over 1 s\n",
      cast->title, runs, stalled);
}

static long rss_kib(pid_t pid)
{
  char path[64], line[256];
  long kib = -1;
  FILE *f;

  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  return kib;
}

/* 100,000 game rows written straight into the stopped server's database. */
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

/* One cast per title of the catalog: its fewest seats, but two where it
 * allows two (solo play would leave nobody waiting), fresh players each so
 * no one reaches the open-games cap. Returns the number of casts. */
static int cast_titles(struct harness_server *s, struct cast *casts, int max)
{
  struct harness_response r;
  json_t *title;
  size_t i;
  int n = 0, seat;

  harness_call(s, &r, "GET", NULL, NULL, "/v1/titles");
  HARNESS_EXPECT_JSON(&r, 200);
  json_array_foreach(r.json, i, title)
  {
    struct cast *c = &casts[n];

    if (n == max)
      break;
    c->title = strdup(harness_str(title, "id"));
    c->seats = (int)harness_int(title, "min_seats");
    if (c->seats < 2 && harness_int(title, "max_seats") >= 2)
      c->seats = 2;
    for (seat = 0; seat < c->seats; seat++) {
      char name[32];

      snprintf(name, sizeof name, "seat-%d", seat);
      harness_new_player(s, name, &c->p[seat]);
    }
    n++;
  }
  harness_response_free(&r);
  return n;
}

int main(void)
{
  static const int levels[] = {1, 100, 1000};
  static const double open_rates[] = {200, 1000, 2500}; /* moves/s offered */
  struct harness_server s;
  /* CAIRN_BENCH_TITLE=<id>: only that title, for comparing one change. */
  const char *only = getenv("CAIRN_BENCH_TITLE");
  const char *hunt = getenv("CAIRN_BENCH_WAVES");
  struct cast casts[16], *himalaya = NULL;
  int n, t;
  size_t i;

  harness_global_init();
  memset(&s, 0, sizeof s);
  harness_start(&s);
  n = cast_titles(&s, casts, 16);
  if (n == 0) {
    fprintf(stderr, "bench_load: the catalog lists no title\n");
    return 1;
  }
  for (t = 0; t < n; t++) {
    if (only && strcmp(casts[t].title, only) != 0)
      continue;
    if (!himalaya || strcmp(casts[t].title, "himalaya") == 0)
      himalaya = &casts[t];
    for (i = 0; i < sizeof levels / sizeof *levels && !hunt; i++)
      run_level(&s, &casts[t], levels[i], 0);
  }
  /* The open loop and the waves once, on the reference title. */
  if (!himalaya) {
    fprintf(stderr, "bench_load: no title %s in the catalog\n", only);
    return 1;
  }
  if (hunt) {
    hunt_stalls(&s, himalaya, atoi(hunt));
    goto stop;
  }
  /* Latency at 1,000 games in play under an offered load, from light to
   * about half of what the closed loop reaches on 2 cores: a closed loop
   * with 1,000 requests always out measures queueing (Little's law), not
   * the server's latency. */
  for (i = 0; i < sizeof open_rates / sizeof *open_rates; i++)
    run_level(&s, himalaya, 1000, open_rates[i]);
  run_waves(&s, himalaya, 1000, 5);
  if (only)
    goto stop; /* a quick run: the storage figure takes long and does not change with the title */

  store_many_games(&s, himalaya->p[0].id, 100000);
  for (i = 0; i < 1000; i++) { /* touch a spread of them */
    json_t *g;
    char id[32];

    snprintf(id, sizeof id, "bulk%08zu", i * 97);
    g = harness_get_game(&s, NULL, id);
    json_decref(g);
  }
  printf("storage: server RSS with 100,000+ stored games (1,000 of them viewed): %ld KiB\n",
         rss_kib(s.pid));
stop:
  harness_stop(&s);
  for (t = 0; t < n; t++)
    free((char *)casts[t].title);
  harness_global_cleanup();
  return 0;
}
