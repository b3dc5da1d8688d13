/*
 * bench_load.c - the server under concurrent play on loopback, driven by
 * our own load generator (one keep-alive connection per game, loadconn.c,
 * all watched by one epoll): for 1, 100 and 1,000 games played at once,
 * accepted (durable) moves per second, the p50/p99/p99.9/max latency of
 * the move POSTs and the CPU per move of server and generator, for every
 * title; then, on Himalaya, 1,000 games under open loads up to the speed
 * issue's 5,000 moves/s, and waves of simultaneous POSTs. Each figure is
 * printed beside its target (tests/bench/figures.h), with a figure line
 * for the history. Prints figures only; the stored-games memory figure is
 * bench_idle's.
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
#include <sys/epoll.h>
#include <unistd.h>

#include "harness.h"
#include "loadconn.h"
#include "pgdb.h"
#include "tests/bench/figures.h"

#define MOVES_PER_ROUND   2000 /* POSTs measured per concurrency level, at least */
#define MOVES_PER_GAME    5    /* ...and this many per game, so first moves do not dominate */
#define OPEN_LOOP_SECONDS 4    /* an open-loop run lasts about this long at its rate */
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
  bool over;
  bool waiting; /* a request of this game is out */
  struct load_conn conn;
  char view_path[128], move_path[128];
  /* The next POST's body, {"seq":..,"move":..}, written when its view is
   * read (owned; grown, never shrunk, so a game allocates it about once). */
  char *body;
  size_t body_cap;
  double started;
};

/* Who plays what: a title with that many seats, one player per seat. */
struct cast {
  const char *title;
  int seats;
  struct harness_player p[MAX_SEATS];
};

struct load {
  struct harness_server *s; /* where games are made */
  /* The servers the games' clients talk to, game i to nodes[i % n_nodes]:
   * `s` alone, or several nodes on one PostgreSQL database. */
  struct harness_server *const *nodes;
  int n_nodes;
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
  g->started = now_ms();
  l->in_flight++;
  g->waiting = true;
  if (!load_conn_request(&g->conn, g->phase ? "POST" : "GET",
                         g->phase ? g->move_path : g->view_path, l->headers[g->seat],
                         g->phase ? g->body : NULL)) {
    g->waiting = false; /* answered at once: by nothing, which advance counts as refused */
    l->answered[l->n_answered++] = (int)(g - l->games);
  }
}

/*
 * The generator reads answers without building a JSON tree: it must cost
 * little next to the server it measures (parsing an 11 KB view with
 * jansson took as much CPU as the server spent answering it). A scanner
 * walks the top-level members, keeps the spans of the few it was asked
 * for and stops once it has them; the values it skips are crossed in one
 * pass that only follows strings and nesting. A move is POSTed as the
 * very text the server listed. A scan that goes wrong can only make the
 * server refuse the move, which the figures count.
 */
#define MAX_OPTIONS 64 /* options of one node the walker picks among */
#define MAX_STEPS   16 /* members one walked move sets */

struct span {
  const char *at;
  size_t len;
};

enum member { M_STATUS = 1, M_SEQ = 2, M_TO_ACT = 4, M_CHOICES = 8, M_GAME = 16 };

struct answer {
  unsigned wanted; /* the members to find (enum member bits); the scan stops once all are */
  unsigned found;
  struct span status, seq, to_act, choices, game;
};

static const char *skip_ws(const char *p)
{
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
    p++;
  return p;
}

/* The bytes that end a run of plain text inside a value being skipped:
 * quotes, backslashes, brackets and NUL. One table look-up per byte is
 * what keeps crossing a 12 KB view cheap. */
static bool stops_skip(char c)
{
  static const bool table[256] = {[0] = true,   ['"'] = true, ['\\'] = true, ['{'] = true,
                                  ['}'] = true, ['['] = true, [']'] = true};

  return table[(unsigned char)c];
}

/* The closing quote of the string whose opening quote is at p, or NULL. */
static const char *string_end(const char *p)
{
  for (p++;; p++) {
    while (!stops_skip(*p))
      p++;
    if (*p == '"')
      return p;
    if (!*p || (*p == '\\' && !*++p))
      return NULL;
  }
}

/* The end of the JSON value at p (NULL on malformed text). */
static const char *skip_value(const char *p)
{
  int depth = 0;

  p = skip_ws(p);
  if (*p == '"')
    return (p = string_end(p)) ? p + 1 : NULL;
  if (*p != '{' && *p != '[') { /* a number or a literal */
    while (*p && *p != ',' && *p != ']' && *p != '}' && *p != ' ' && *p != '\n' && *p != '\r' &&
           *p != '\t')
      p++;
    return *p ? p : NULL;
  }
  for (;; p++) {
    while (!stops_skip(*p))
      p++;
    if (*p == '"') {
      if (!(p = string_end(p)))
        return NULL;
    } else if (*p == '{' || *p == '[') {
      depth++;
    } else if (*p == '}' || *p == ']') {
      if (--depth == 0)
        return p + 1;
    } else {
      return NULL; /* NUL, or a backslash outside a string */
    }
  }
}

static bool is(struct span key, const char *name)
{
  return key.len == strlen(name) && memcmp(key.at, name, key.len) == 0;
}

/* The member `key` whose value is at p, if wanted; the value's end. The
 * game object of a move's answer is the one exception: it is kept by its
 * start alone (its end is not sought, len is 0) for a scan of its own. */
static const char *member(struct answer *a, struct span key, const char *p)
{
  static const struct {
    const char *name;
    enum member bit;
    size_t offset;
  } spans[] = {{"status", M_STATUS, offsetof(struct answer, status)},
               {"seq", M_SEQ, offsetof(struct answer, seq)},
               {"to_act", M_TO_ACT, offsetof(struct answer, to_act)},
               {"choices", M_CHOICES, offsetof(struct answer, choices)}};
  const char *end;
  size_t i;

  if ((a->wanted & M_GAME) && is(key, "game")) {
    a->found |= M_GAME;
    a->game = (struct span){p, 0};
    return p;
  }
  if (!(end = skip_value(p)))
    return NULL;
  for (i = 0; i < sizeof spans / sizeof *spans; i++)
    if ((a->wanted & spans[i].bit) && is(key, spans[i].name)) {
      *(struct span *)((char *)a + spans[i].offset) = (struct span){p, (size_t)(end - p)};
      a->found |= spans[i].bit;
    }
  return end;
}

/* Ready *a to find the `wanted` members. */
static void answer_init(struct answer *a, unsigned wanted)
{
  a->wanted = wanted;
  a->found = 0;
  a->status = a->seq = a->to_act = a->choices = a->game = (struct span){NULL, 0};
}

/* Record in *a the wanted members of the object at p. */
static bool scan_object(const char *p, struct answer *a)
{
  p = skip_ws(p);
  if (*p++ != '{')
    return false;
  while ((a->found & a->wanted) != a->wanted) {
    struct span key;
    const char *end;

    p = skip_ws(p);
    if (*p == '}')
      return true;
    if (*p != '"' || !(end = string_end(p)))
      return false;
    key = (struct span){p + 1, (size_t)(end - p - 1)};
    p = skip_ws(end + 1);
    if (*p++ != ':')
      return false;
    if (!(p = member(a, key, skip_ws(p))))
      return false;
    p = skip_ws(p);
    if (*p == ',')
      p++;
  }
  return true;
}

/* Room for `need` bytes in g's body. */
static bool body_room(struct game *g, size_t need)
{
  char *grown;

  if (need <= g->body_cap)
    return true;
  grown = realloc(g->body, need);
  if (!grown)
    return false;
  g->body = grown;
  g->body_cap = need;
  return true;
}

/* ---- A random walk of the `choices` tree, on its text ----
 * The view's tree (openapi/base.yaml, Choices) is walked as the document's
 * pickMove walks it, reading only the nodes on the path: each member the
 * walk sets is kept as (pointer, value text), then the move is written as
 * text from them. No tree is built (see above). */

struct step {
  struct span pointer; /* without its quotes */
  struct span value;
};

struct walk {
  struct harness_rng *rng;
  struct step steps[MAX_STEPS];
  int n;
};

/* The members of the object at p named in `names` (NULL-terminated), into
 * out[] (at NULL when absent); false on malformed text. */
static bool members_of(const char *p, const char *const *names, struct span *out)
{
  int i;

  for (i = 0; names[i]; i++)
    out[i] = (struct span){NULL, 0};
  p = skip_ws(p);
  if (*p++ != '{')
    return false;
  for (;;) {
    struct span key;
    const char *end;

    p = skip_ws(p);
    if (*p == '}')
      return true;
    if (*p != '"' || !(end = string_end(p)))
      return false;
    key = (struct span){p + 1, (size_t)(end - p - 1)};
    p = skip_ws(end + 1);
    if (*p++ != ':')
      return false;
    p = skip_ws(p);
    if (!(end = skip_value(p)))
      return false;
    for (i = 0; names[i]; i++)
      if (is(key, names[i]))
        out[i] = (struct span){p, (size_t)(end - p)};
    p = skip_ws(end);
    if (*p == ',')
      p++;
  }
}

/* The items of the array at p, at most `max`, into items[]; how many, or
 * -1 on malformed text. */
static int items_of(const char *p, struct span *items, int max)
{
  const char *end;
  int n = 0;

  p = skip_ws(p);
  if (*p++ != '[')
    return -1;
  for (p = skip_ws(p); *p && *p != ']'; p = skip_ws(p)) {
    if (!(end = skip_value(p)))
      return -1;
    if (n < max)
      items[n++] = (struct span){p, (size_t)(end - p)};
    p = skip_ws(end);
    if (*p == ',')
      p++;
  }
  return *p ? n : -1;
}

static bool walk_node(struct walk *w, const char *node)
{
  static const char *const node_names[] = {"choose", "options", "all", NULL};
  static const char *const option_names[] = {"value", "then", "done", NULL};
  struct span m[3], o[3], items[MAX_OPTIONS];
  int n, i;

  if (!members_of(node, node_names, m))
    return false;
  if (m[2].at) { /* "all": every part */
    n = items_of(m[2].at, items, MAX_OPTIONS);
    for (i = 0; i < n; i++)
      if (!walk_node(w, items[i].at))
        return false;
    return n > 0;
  }
  n = m[1].at ? items_of(m[1].at, items, MAX_OPTIONS) : -1;
  if (n <= 0 || !m[0].at || w->n == MAX_STEPS ||
      !members_of(items[harness_rng_below(w->rng, (uint64_t)n)].at, option_names, o) || !o[0].at)
    return false;
  w->steps[w->n++] = (struct step){{m[0].at + 1, m[0].len - 2}, o[0]};
  if (o[1].at && !(o[2].at && harness_rng_below(w->rng, 2)))
    return walk_node(w, o[1].at);
  return true;
}

/* The pointer's segment after `depth` slashes (its text, or len 0). */
static struct span segment(struct span pointer, int depth)
{
  const char *p = pointer.at, *end = pointer.at + pointer.len, *q;

  for (; depth >= 0 && p < end; depth--) {
    p++; /* the slash */
    for (q = p; q < end && *q != '/'; q++)
      ;
    if (depth == 0)
      return (struct span){p, (size_t)(q - p)};
    p = q;
  }
  return (struct span){NULL, 0};
}

static bool same(struct span a, struct span b)
{
  return a.len == b.len && memcmp(a.at, b.at, a.len) == 0;
}

/* Write the members of steps[from..to) that share their first `depth`
 * segments, as one object or array (an array when the next segment is an
 * index), each member's steps grouped in the order first set. */
static size_t write_level(const struct walk *w, bool *used, int depth, struct span prefix[],
                          char *out, size_t room)
{
  size_t len = 0;
  bool array = false, first = true;
  int i, k, d;

  for (i = 0; i < w->n; i++) {
    struct span key;
    bool below = true;

    if (used[i])
      continue;
    for (d = 0; d < depth && below; d++)
      below = same(segment(w->steps[i].pointer, d), prefix[d]);
    if (!below)
      continue;
    key = segment(w->steps[i].pointer, depth);
    if (first)
      array = key.len && key.at[0] >= '0' && key.at[0] <= '9';
    len += (size_t)snprintf(out + len, room > len ? room - len : 0, "%s",
                            first ? (array ? "[" : "{") : ",");
    first = false;
    if (!array)
      len += (size_t)snprintf(out + len, room > len ? room - len : 0, "\"%.*s\":", (int)key.len,
                              key.at);
    if (!segment(w->steps[i].pointer, depth + 1).at) {
      used[i] = true;
      len += (size_t)snprintf(out + len, room > len ? room - len : 0, "%.*s",
                              (int)w->steps[i].value.len, w->steps[i].value.at);
      continue;
    }
    prefix[depth] = key;
    len += write_level(w, used, depth + 1, prefix, out + len, room > len ? room - len : 0);
    for (k = 0; k < w->n; k++) { /* every step under this key was written */
      bool under = same(segment(w->steps[k].pointer, depth), key);

      for (d = 0; d < depth && under; d++)
        under = same(segment(w->steps[k].pointer, d), prefix[d]);
      used[k] = used[k] || under;
    }
  }
  len += (size_t)snprintf(out + len, room > len ? room - len : 0, "%s",
                          first ? "{}" : (array ? "]" : "}"));
  return len;
}

/* Write g's next POST body: `seq` and a random walk of the view's
 * `choices`. False when there is none to write. */
static bool write_move(struct load *l, struct game *g, const struct answer *a)
{
  struct walk w = {.rng = &l->rng};
  bool used[MAX_STEPS] = {false};
  struct span prefix[MAX_STEPS];
  long seq = a->seq.at ? strtol(a->seq.at, NULL, 10) : 0;
  size_t need, head;

  if (!a->choices.at || *a->choices.at != '{' || !walk_node(&w, a->choices.at))
    return false;
  /* The move is at most its values plus its pointers' names and punctuation. */
  need = 64;
  for (int i = 0; i < w.n; i++)
    need += w.steps[i].value.len + w.steps[i].pointer.len + 8;
  if (!body_room(g, need))
    return false;
  head = (size_t)snprintf(g->body, g->body_cap, "{\"seq\":%ld,\"move\":", seq);
  head += write_level(&w, used, 0, prefix, g->body + head, g->body_cap - head);
  if (head + 2 > g->body_cap)
    return false;
  memcpy(g->body + head, "}", 2);
  return true;
}

static bool is_active(const struct answer *game)
{
  return game->status.len == 8 && memcmp(game->status.at, "\"active\"", 8) == 0;
}

/* Read the answer; choose the next request. A view (asked with
 * ?legal=none: the tree alone) is read up to its choices; a move's answer
 * only for its game's status and seats to act. */
static void advance(struct load *l, struct game *g, long status)
{
  struct answer answer, game;
  bool ok;

  if (g->phase == 0) {
    answer_init(&game, M_STATUS | M_SEQ | M_CHOICES);
    ok = status != 0 && scan_object(load_conn_body(&g->conn), &game);
  } else {
    if (status == 200 && l->done < l->cap)
      l->lat[l->done++] = now_ms() - g->started;
    else if (status != 200)
      l->refused++;
    answer_init(&answer, M_GAME);
    answer_init(&game, M_STATUS | M_TO_ACT);
    ok = status != 0 && scan_object(load_conn_body(&g->conn), &answer) && answer.game.at &&
         scan_object(answer.game.at, &game);
  }
  if (!ok || !game.status.at || !is_active(&game)) {
    l->over += !g->over;
    g->over = true;
  } else if (g->phase == 0) {
    g->phase = write_move(l, g, &game) ? 1 : 0;
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
    snprintf(g->view_path, sizeof g->view_path, "/v1/games/%s?legal=none", g->id);
    /* A client of the tree asks for it alone in the move's answer too. */
    snprintf(g->move_path, sizeof g->move_path, "/v1/games/%s/moves?legal=none", g->id);
    load_conn_init(&g->conn, l->epfd, l->nodes[i % l->n_nodes]->host,
                   l->nodes[i % l->n_nodes]->port, (uint64_t)i);
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

/* The nearest-rank percentile p of the n sorted values in v. */
static double percentile(const double *v, long n, double p)
{
  long rank = (long)(p * (double)n + 0.999999);

  if (n == 0)
    return 0.0;
  return v[rank < 1 ? 0 : rank > n ? n - 1 : rank - 1];
}

/* What one run measured. */
struct figures {
  double moves_per_s;             /* accepted */
  double p50, p99, p999, max;     /* move POST latency, ms */
  double server_us, generator_us; /* CPU per accepted move */
  long refused;
};

/* The move latencies' summary and the refusals; then any reconnects,
 * which a keep-alive run should not need (each one is a connection the
 * server closed). Sorts l->lat and fills f's latencies. */
static void print_latency(struct load *l, struct figures *f)
{
  long reconnects = 0;
  int i;

  qsort(l->lat, (size_t)l->done, sizeof(double), by_value);
  f->p50 = percentile(l->lat, l->done, 0.50);
  f->p99 = percentile(l->lat, l->done, 0.99);
  f->p999 = percentile(l->lat, l->done, 0.999);
  f->max = l->done ? l->lat[l->done - 1] : 0.0;
  f->refused = l->refused;
  for (i = 0; i < l->n; i++)
    reconnects += l->games[i].conn.connects > 1 ? l->games[i].conn.connects - 1 : 0;
  printf("      move POST latency p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms"
         " (%ld refused)\n",
         f->p50, f->p99, f->p999, f->max, l->refused);
  if (reconnects)
    printf("      %ld reconnects: the server closed kept-alive connections\n", reconnects);
}

/* The figure lines of a run under `key` (e.g. load.himalaya.100). */
static void print_figures(const char *key, const struct figures *f, bool throughput)
{
  if (throughput)
    figure(FIGURE_HIGHER, f->moves_per_s, "%s.moves_per_s", key);
  figure(FIGURE_LOWER, f->p50, "%s.p50_ms", key);
  figure(FIGURE_LOWER, f->p99, "%s.p99_ms", key);
  figure(FIGURE_LOWER, f->p999, "%s.p999_ms", key);
  figure(FIGURE_LOWER, f->max, "%s.max_ms", key);
  figure(FIGURE_LOWER, f->server_us, "%s.server_us_per_move", key);
  figure(FIGURE_LOWER, f->generator_us, "%s.generator_us_per_move", key);
}

static void free_games(struct load *l)
{
  int i;

  for (i = 0; i < l->n; i++) {
    load_conn_close(&l->games[i].conn);
    free(l->games[i].body);
  }
  free(l->games);
  free(l->answered);
}

/* The speed issue's (22) targets, as numbers and as printed. */
#define ISSUE_TARGET_MOVES_PER_S 20000.0 /* closed loop, at 100 and at 1,000 games */
#define ISSUE_TARGET_MOVES_TEXT  "≥ 20,000"
#define ISSUE_TARGET_SERVER_US   50.0 /* server CPU per accepted move, GET + POST */
#define ISSUE_TARGET_SERVER_TEXT "≤ 50 us"
#define ISSUE_TARGET_P99_MS      2.0 /* at 1,000 games, 5,000 moves/s offered */
#define ISSUE_TARGET_P99_TEXT    "p99 ≤ 2 ms"
#define ISSUE_LATENCY_RATE       5000.0
#define LATE_MS                  2.0 /* a start this late means the offer slipped */

/* How the open loop kept to its plan: starts are due every 1000/rate ms;
 * a start is late when no game was free to move (every one waiting for
 * an answer) or the generator was busy. */
struct offer {
  double rate; /* planned, moves/s */
  long started;
  long late;          /* started more than LATE_MS after their slot */
  double first, last; /* first and last start, ms */
};

static double offered_rate(const struct offer *o)
{
  double span = o->last - o->first + 1000.0 / o->rate;

  return o->started ? 1e3 * (double)o->started / span : 0.0;
}

/* The generator kept to its plan: it offered at least 97% of the rate
 * and at most 1% of the starts were late. */
static bool kept_offer(const struct offer *o)
{
  return offered_rate(o) >= 0.97 * o->rate && (double)o->late <= 0.01 * (double)o->started;
}

static void print_offer(const struct offer *o)
{
  if (kept_offer(o))
    printf("      offered as planned: %.0f moves/s, %ld of %ld starts more than %.0f ms late\n",
           offered_rate(o), o->late, o->started, LATE_MS);
  else
    printf("      the generator FELL BEHIND: not the steady %.0f moves/s planned, it offered %.0f"
           " moves/s on average with %ld of %ld starts more than %.0f ms late (every game was"
           " waiting for an answer, or the generator was busy); the latencies are of the load it"
           " did offer\n",
           o->rate, offered_rate(o), o->late, o->started, LATE_MS);
}

static void print_cpu(const struct figures *f)
{
  printf("      server CPU %.0f us per accepted move, its GET and POST "
         "(target " ISSUE_TARGET_SERVER_TEXT
         ": %s); the load generator took %.0f us of CPU per move\n",
         f->server_us, figure_verdict(f->server_us <= ISSUE_TARGET_SERVER_US), f->generator_us);
}

/* Whole ms until `due` (epoll's unit, rounded up so a wait never ends
 * early); 0 when it is due. A generator that polled every ms would spend
 * more CPU waking than moving at the light rates. */
static int until_ms(double due)
{
  double left = due - now_ms();

  return left > 0 ? (int)left + 1 : 0;
}

/* CAIRN_BENCH_MOVES=<n>: a longer closed loop than MOVES_PER_ROUND, for a
 * profiler to watch (the figures then differ from the history's). */
static long moves_per_round(void)
{
  const char *asked = getenv("CAIRN_BENCH_MOVES");

  return asked && atol(asked) > 0 ? atol(asked) : MOVES_PER_ROUND;
}

/* Play `concurrent` games at once. With rate 0 every game moves again as
 * soon as its last move is answered (closed loop: the server's capacity).
 * With a rate, moves start at that many per second in all, each in a game
 * not already waiting (open loop: latency at a given load). */
/* The CPU every server of the run has used so far, ms. */
static double servers_cpu_ms(const struct load *l)
{
  double ms = 0;

  for (int i = 0; i < l->n_nodes; i++)
    ms += figure_cpu_ms(l->nodes[i]->pid);
  return ms;
}

/* run_level on nodes[0..n_nodes) (games made on the first), its figures
 * under `key` (pg.one_node, ...; NULL: load.<title>.<games>, with the
 * speed issue's targets). */
static void run_level_on(struct harness_server *const *nodes, int n_nodes, const struct cast *cast,
                         int concurrent, double rate, const char *given_key)
{
  struct harness_server *s = nodes[0];
  struct load l = {.s = s,
                   .nodes = nodes,
                   .n_nodes = n_nodes,
                   .cast = cast,
                   .rng = {.state = (uint64_t)concurrent}};
  struct offer o = {.rate = rate};
  struct figures f = {0};
  int *idle = calloc((size_t)concurrent, sizeof(int));
  double t0, elapsed, next_slot, cpu0, gen0;
  char key[96];
  int i, n_idle = 0;

  l.epfd = epoll_create1(EPOLL_CLOEXEC);
  l.cap = moves_per_round();
  if (rate == 0 && concurrent * MOVES_PER_GAME > l.cap)
    l.cap = concurrent * MOVES_PER_GAME;
  if (rate > 0)
    l.cap = (long)(rate * OPEN_LOOP_SECONDS); /* a few seconds at any rate */
  l.lat = calloc((size_t)l.cap, sizeof(double));
  new_games(&l, concurrent);
  t0 = next_slot = now_ms();
  cpu0 = servers_cpu_ms(&l);
  gen0 = figure_cpu_ms(getpid());
  for (i = 0; i < l.n; i++) {
    if (rate > 0)
      idle[n_idle++] = i;
    else
      issue(&l, &l.games[i]);
  }
  while (l.over < l.n && l.done < l.cap) {
    struct game *g;
    long status;
    double now;

    while (rate > 0 && n_idle && (now = now_ms()) >= next_slot) {
      o.late += now - next_slot > LATE_MS;
      o.first = o.started++ ? o.first : now;
      o.last = now;
      issue(&l, &l.games[idle[--n_idle]]);
      next_slot += 1000.0 / rate;
    }
    wait_answers(&l, rate > 0 && n_idle ? until_ms(next_slot) : 10);
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
  cpu0 = servers_cpu_ms(&l) - cpu0;
  gen0 = figure_cpu_ms(getpid()) - gen0;
  f.moves_per_s = 1e3 * (double)l.done / elapsed;
  f.server_us = l.done ? 1e3 * cpu0 / (double)l.done : 0.0;
  f.generator_us = l.done ? 1e3 * gen0 / (double)l.done : 0.0;
  if (rate > 0) {
    printf("load %s: %4d concurrent games, open loop at %.0f moves/s planned: %ld accepted"
           " moves in %.0f ms = %.0f moves/s\n",
           cast->title, concurrent, rate, l.done, elapsed, f.moves_per_s);
    print_offer(&o);
    snprintf(key, sizeof key, "load.%s.%d.open%.0f", cast->title, concurrent, rate);
  } else if (given_key) {
    printf("%s: %s, %4d concurrent games on %d node%s, closed loop (each moves again when"
           " answered): %ld accepted moves in %.0f ms = %.0f moves/s\n",
           given_key, cast->title, concurrent, n_nodes, n_nodes > 1 ? "s" : "", l.done, elapsed,
           f.moves_per_s);
    snprintf(key, sizeof key, "%s", given_key);
  } else {
    bool targeted = concurrent >= 100;

    printf("load %s: %4d concurrent games, closed loop (each moves again when answered): %ld"
           " accepted moves in %.0f ms = %.0f moves/s",
           cast->title, concurrent, l.done, elapsed, f.moves_per_s);
    if (targeted)
      printf(" (target " ISSUE_TARGET_MOVES_TEXT ": %s)",
             figure_verdict(f.moves_per_s >= ISSUE_TARGET_MOVES_PER_S));
    printf("\n");
    snprintf(key, sizeof key, "load.%s.%d", cast->title, concurrent);
  }
  print_latency(&l, &f);
  if (rate == ISSUE_LATENCY_RATE)
    printf("      latency at %.0f moves/s offered: p99 %.2f ms (target " ISSUE_TARGET_P99_TEXT
           ": %s)\n",
           rate, f.p99,
           kept_offer(&o) ? figure_verdict(f.p99 <= ISSUE_TARGET_P99_MS)
                          : "NOT met: the rate was not offered");
  if (l.done && !given_key)
    print_cpu(&f);
  else if (l.done)
    printf("      server CPU %.0f us per accepted move, its GET and POST, all nodes together;"
           " the load generator took %.0f us of CPU per move\n",
           f.server_us, f.generator_us);
  print_figures(key, &f, rate == 0);
  if (rate > 0)
    figure(FIGURE_HIGHER, offered_rate(&o), "%s.offered_moves_per_s", key);
  free_games(&l);
  free(l.lat);
  free(idle);
  close(l.epfd);
}

static void run_level(struct harness_server *s, const struct cast *cast, int concurrent,
                      double rate)
{
  struct harness_server *const nodes[] = {s};

  run_level_on(nodes, 1, cast, concurrent, rate, NULL);
}

/* Commit capacity: in each wave every game first fetches the view of its
 * seat to act (not timed), then all of them POST their move at once. The
 * moves/s of the POST half is what the server commits when `concurrent`
 * moves arrive together: request handling, rules and group commit, without
 * the view rendering a client does between its moves. Returns true when a
 * move went unanswered or took over a second (a stall: see main). */
/* What a floor's connection GETs, again and again. */
struct floor_target {
  char path[128];
  char headers[200];
  const char *what; /* Static: said in the printed line */
};

static bool floor_request(struct load_conn *c, const struct floor_target *t)
{
  return load_conn_request(c, "GET", t->path, t->headers, NULL);
}

/*
 * The floors under the move figures: `concurrent` keep-alive connections,
 * each GETting `path` again as soon as it is answered, `requests` in all.
 * /v1/health costs the server what libmicrohttpd, the kernel's loopback TCP
 * and the scheduler take before any game work; a seat's view of a game adds
 * the token check, the game's lock and the rendering of its view and
 * legal list (nothing changes, so no commit). A move is that view and a
 * POST: the rest of its cost is the POST's.
 */
static void run_floor(struct harness_server *s, int concurrent, long requests,
                      const struct floor_target *targets, int n_targets, const char *label)
{
  struct load_conn *conns = calloc((size_t)concurrent, sizeof(*conns));
  int epfd = epoll_create1(EPOLL_CLOEXEC), i;
  long sent = 0, done = 0, failed = 0;
  double t0, cpu0, gen0, elapsed, server_us, gen_us;

  for (i = 0; i < concurrent; i++)
    load_conn_init(&conns[i], epfd, s->host, s->port, (uint64_t)i);
  t0 = now_ms();
  cpu0 = figure_cpu_ms(s->pid);
  gen0 = figure_cpu_ms(getpid());
  for (i = 0; i < concurrent && sent < requests; i++, sent++)
    if (!floor_request(&conns[i], &targets[i % n_targets]))
      failed++;
  while (done + failed < sent) {
    struct epoll_event ev[64];
    int n = epoll_wait(epfd, ev, 64, 5000), k;

    if (n <= 0)
      break;
    for (k = 0; k < n; k++) {
      struct load_conn *c = &conns[ev[k].data.u64];
      int r = load_conn_on_event(c, ev[k].events);

      if (r == 0)
        continue;
      if (r < 0 || load_conn_status(c) != 200)
        failed++;
      else
        done++;
      if (sent < requests) {
        sent++;
        if (!floor_request(c, &targets[ev[k].data.u64 % (uint64_t)n_targets]))
          failed++;
      }
    }
  }
  elapsed = now_ms() - t0;
  server_us = (figure_cpu_ms(s->pid) - cpu0) * 1e3 / (double)(done ? done : 1);
  gen_us = (figure_cpu_ms(getpid()) - gen0) * 1e3 / (double)(done ? done : 1);
  printf("floor %s: %d connections, GET %s again when answered: %ld answered (%ld failed) in"
         " %.0f ms = %.0f requests/s; server CPU %.1f us per request; the load generator took"
         " %.1f us per request\n",
         label, concurrent, targets[0].what, done, failed, elapsed, (double)done * 1e3 / elapsed,
         server_us, gen_us);
  figure(FIGURE_LOWER, server_us, "load.floor.%s.server_us_per_request", label);
  figure(FIGURE_HIGHER, (double)done * 1e3 / elapsed, "load.floor.%s.requests_per_s", label);
  for (i = 0; i < concurrent; i++)
    load_conn_close(&conns[i]);
  close(epfd);
  free(conns);
}

static bool run_waves(struct harness_server *s, const struct cast *cast, int concurrent, int waves)
{
  struct harness_server *const nodes[] = {s};
  struct load l = {
      .s = s, .nodes = nodes, .n_nodes = 1, .cast = cast, .rng = {.state = (uint64_t)concurrent}};
  struct figures f = {0};
  double posting = 0, cpu = 0, gen = 0;
  char key[96];
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
    c0 = figure_cpu_ms(s->pid);
    g0 = figure_cpu_ms(getpid());
    for (i = 0; i < l.n; i++)
      if (!l.games[i].over && l.games[i].phase == 1)
        issue(&l, &l.games[i]);
    drain(&l);
    posting += now_ms() - t0;
    cpu += figure_cpu_ms(s->pid) - c0;
    gen += figure_cpu_ms(getpid()) - g0;
  }
  f.moves_per_s = 1e3 * (double)l.done / posting;
  f.server_us = l.done ? 1e3 * cpu / (double)l.done : 0.0;
  f.generator_us = l.done ? 1e3 * gen / (double)l.done : 0.0;
  printf("load %s: %4d concurrent games, %d waves of one move each, all POSTed at once: %ld"
         " accepted moves in %.0f ms of posting = %.0f moves/s (no target: the POSTs alone)\n",
         cast->title, concurrent, waves, l.done, posting, f.moves_per_s);
  print_latency(&l, &f);
  if (l.done)
    printf("      server CPU %.0f us per accepted move (the POST alone; the "
           "target " ISSUE_TARGET_SERVER_TEXT
           " is for GET + POST); the load generator took %.0f us of CPU per move\n",
           f.server_us, f.generator_us);
  snprintf(key, sizeof key, "load.%s.%d.waves", cast->title, concurrent);
  print_figures(key, &f, true);
  free_games(&l);
  free(l.lat);
  close(l.epfd);
  return f.max > 1000.0 || f.refused > 0;
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

/* The floors: /v1/health, then the view of Himalaya's seat to act at the
 * start of a two-seat game (its legal list is one of the longest). */
/* The floors: /v1/health, then the views of the seats to act at the start
 * of FLOOR_GAMES two-seat Himalaya games (its legal lists are the longest;
 * a start's dice are random, so one game's list could be short or long:
 * the connections spread over many). */
#define FLOOR_GAMES 25

/* Bytes of the seat's view as the server answers it by default (`legal`
 * beside `choices`), compact (?legal=none: `choices` alone), and as it was
 * before the tree (`legal` alone): issue 24's figure for the views above. */
static void view_bytes(struct harness_server *s, const struct floor_target *views, int n)
{
  double both = 0, compact = 0, before = 0;
  int g;

  for (g = 0; g < n; g++) {
    const char *token = strstr(views[g].headers, "Bearer ") + 7;
    char bearer[128];
    struct harness_response r;
    char *text;

    snprintf(bearer, sizeof bearer, "%.*s", (int)strcspn(token, "\r"), token);
    harness_call(s, &r, "GET", bearer, NULL, "%s", views[g].path);
    both += (double)r.body_len;
    harness_response_free(&r);
    harness_call(s, &r, "GET", bearer, NULL, "%s?legal=none", views[g].path);
    compact += (double)r.body_len;
    text = json_dumps(json_object_get(r.json, "choices"), JSON_COMPACT | JSON_ENCODE_ANY);
    /* Before: this answer less ,"choices":<tree> (11 bytes and the tree),
     * plus ,"legal":<list>, which is what the default adds to it (below). */
    before += (double)r.body_len - (text ? (double)strlen(text) + 11 : 0);
    free(text);
    harness_response_free(&r);
  }
  before += both - compact;
  printf("view of a Himalaya game's seat to act (%d games), mean bytes: %.0f before the tree "
         "(`legal` only), %.0f by default (`legal` and `choices`), %.0f compact "
         "(?legal=none: `choices` only)\n",
         n, before / n, both / n, compact / n);
  figure(FIGURE_LOWER, before / n, "view.himalaya_start.list_bytes");
  figure(FIGURE_LOWER, compact / n, "view.himalaya_start.compact_bytes");
}

static void run_floors(struct harness_server *s, const struct cast *casts, int n)
{
  static struct floor_target views[FLOOR_GAMES], compact[FLOOR_GAMES];
  struct floor_target health = {.path = "/v1/health", .what = "/v1/health"};
  char id[64];
  json_t *game;
  int t, g, seat;

  run_floor(s, 100, 20000, &health, 1, "health");
  for (t = 0; t < n && strcmp(casts[t].title, "himalaya") != 0; t++)
    ;
  if (t == n)
    return;
  for (g = 0; g < FLOOR_GAMES; g++) {
    game = harness_new_game(s, casts[t].p[0].token, "himalaya", casts[t].seats, "{}");
    snprintf(id, sizeof id, "%s", harness_game_id(game));
    json_decref(game);
    for (seat = 0; seat < casts[t].seats; seat++)
      harness_join(s, casts[t].p[seat].token, id, seat);
    game = harness_get_game(s, NULL, id);
    seat = (int)json_integer_value(json_array_get(json_object_get(game, "to_act"), 0));
    json_decref(game);
    snprintf(views[g].path, sizeof views[g].path, "/v1/games/%s", id);
    snprintf(views[g].headers, sizeof views[g].headers, "Authorization: Bearer %s\r\n",
             casts[t].p[seat].token);
    views[g].what = "the view of a Himalaya game's seat to act (25 games)";
  }
  run_floor(s, 100, 20000, views, FLOOR_GAMES, "himalaya_view");
  /* The same views as the closed loop GETs them (?legal=none): the view
   * half of a move's cost. */
  for (g = 0; g < FLOOR_GAMES; g++) {
    size_t len = strlen(views[g].path);

    compact[g] = views[g];
    if (len + sizeof "?legal=none" <= sizeof compact[g].path)
      memcpy(compact[g].path + len, "?legal=none", sizeof "?legal=none");
    compact[g].what = "the compact view (?legal=none) of a Himalaya game's seat to act (25 games)";
  }
  run_floor(s, 100, 20000, compact, FLOOR_GAMES, "himalaya_compact_view");
  view_bytes(s, views, FLOOR_GAMES);
}

/*
 * PostgreSQL (issue 23): the closed loop at PG_GAMES Himalaya games on one
 * node, then on two nodes sharing the database, the games' clients spread
 * over both (game i talks to node i % 2, as a balancer would spread them).
 * On the cluster CAIRN_BENCH_PG names (make bench starts a throwaway one:
 * build.mk), in a database of its own, dropped after. Figures pg.one_node.*
 * and pg.two_nodes.*; no target: the issue asks for the figures.
 */
#define PG_GAMES 100

static bool run_postgres(const char *cluster)
{
  struct harness_server nodes[2];
  struct harness_server *const both[] = {&nodes[0], &nodes[1]};
  struct cast cast = {.title = "himalaya", .seats = 2};
  struct pgdb db;
  int seat;

  if (!pgdb_create(&db, cluster, "cairn_bench")) {
    fprintf(stderr, "bench_load: no database on %s\n", cluster);
    return false;
  }
  memset(nodes, 0, sizeof nodes);
  harness_start_on(&nodes[0], db.url);
  for (seat = 0; seat < cast.seats; seat++)
    harness_new_player(&nodes[0], seat ? "Hillary" : "Tenzing", &cast.p[seat]);
  run_level_on(both, 1, &cast, PG_GAMES, 0, "pg.one_node");
  fflush(stdout);
  harness_start_on(&nodes[1], db.url);
  run_level_on(both, 2, &cast, PG_GAMES, 0, "pg.two_nodes");
  fflush(stdout);
  harness_stop(&nodes[1]);
  harness_stop(&nodes[0]);
  return pgdb_drop(&db);
}

/* CAIRN_BENCH_LEVEL=<games>: only the closed loop at that many games;
 * CAIRN_BENCH_RATE=<moves/s>: only the open loop at that rate. Either
 * skips the rest, waves included. */
static bool level_wanted(int games)
{
  const char *asked = getenv("CAIRN_BENCH_LEVEL");

  return !getenv("CAIRN_BENCH_RATE") && (!asked || atoi(asked) == games);
}

static bool rate_wanted(double rate)
{
  const char *asked = getenv("CAIRN_BENCH_RATE");

  return !getenv("CAIRN_BENCH_LEVEL") && (!asked || atof(asked) == rate);
}

int main(void)
{
  static const int levels[] = {1, 100, 1000};
  /* moves/s offered at 1,000 games: lighter loads, then the issue's point */
  static const double open_rates[] = {200, 1000, 2500, ISSUE_LATENCY_RATE};
  struct harness_server s;
  /* CAIRN_BENCH_TITLE=<id>: only that title, for comparing one change. */
  const char *only = getenv("CAIRN_BENCH_TITLE");
  const char *hunt = getenv("CAIRN_BENCH_WAVES");
  struct cast casts[16], *himalaya = NULL;
  int n, t, status = 0;
  size_t i;

  harness_global_init();
  /* CAIRN_BENCH_PG_ONLY=1: only the PostgreSQL figures. */
  if (getenv("CAIRN_BENCH_PG_ONLY")) {
    bool ok = getenv("CAIRN_BENCH_PG") && run_postgres(getenv("CAIRN_BENCH_PG"));

    harness_global_cleanup();
    return ok ? 0 : 1;
  }
  memset(&s, 0, sizeof s);
  harness_start(&s);
  n = cast_titles(&s, casts, 16);
  if (!getenv("CAIRN_BENCH_LEVEL") && !getenv("CAIRN_BENCH_RATE") && !hunt)
    run_floors(&s, casts, n);
  /* CAIRN_BENCH_FLOORS=1: only the floors, for comparing a change to the
   * HTTP layer or the view. */
  if (getenv("CAIRN_BENCH_FLOORS"))
    goto stop;
  if (n == 0) {
    fprintf(stderr, "bench_load: the catalog lists no title\n");
    return 1;
  }
  for (t = 0; t < n; t++) {
    if (only && strcmp(casts[t].title, only) != 0)
      continue;
    if (!himalaya || strcmp(casts[t].title, "himalaya") == 0)
      himalaya = &casts[t];
    for (i = 0; i < sizeof levels / sizeof *levels && !hunt; i++) {
      if (!level_wanted(levels[i]))
        continue;
      run_level(&s, &casts[t], levels[i], 0);
      fflush(stdout);
    }
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
   * the issue's 5,000 moves/s: a closed loop with 1,000 requests always
   * out measures queueing (Little's law), not the server's latency. */
  for (i = 0; i < sizeof open_rates / sizeof *open_rates; i++) {
    if (!rate_wanted(open_rates[i]))
      continue;
    run_level(&s, himalaya, 1000, open_rates[i]);
    fflush(stdout);
  }
  if (!getenv("CAIRN_BENCH_LEVEL") && !getenv("CAIRN_BENCH_RATE"))
    run_waves(&s, himalaya, 1000, 5);
stop:
  harness_stop(&s);
  /* The same closed loop on PostgreSQL, when a cluster is given, on the
   * full run only. */
  if (getenv("CAIRN_BENCH_PG") && !only && !hunt && !getenv("CAIRN_BENCH_FLOORS") &&
      !getenv("CAIRN_BENCH_LEVEL") && !getenv("CAIRN_BENCH_RATE") &&
      !run_postgres(getenv("CAIRN_BENCH_PG")))
    status = 1;
  for (t = 0; t < n; t++)
    free((char *)casts[t].title);
  harness_global_cleanup();
  return status;
}
