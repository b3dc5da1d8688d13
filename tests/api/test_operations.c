/*
 * test_operations.c - issue "PostgreSQL: many Cairn nodes", operations: what
 * an administrator of several nodes watches and drives, over HTTP against
 * the real server.
 *
 *   GET /metrics   Prometheus' text format: requests and latency by route
 *                  and status, changes committed, the group commit's
 *                  fsyncs and time, open connections and waiting clients,
 *                  the webhook backlog and failures, rate-limit refusals;
 *                  counts that move by exactly what was done, and nothing
 *                  that names a game, a player or a token.
 *   X-Request-Id   on every answer, the client's own echoed when it is safe
 *                  to, else a fresh one.
 *   /livez /readyz for a load balancer; on SIGTERM with --drain-seconds,
 *                  readiness says 503 while every request is still served,
 *                  then the server stops cleanly and nothing acknowledged is lost.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "longpoll.h"
#include "tests/order.h"

/* A scrape of GET /metrics (owned text), checked for its media type. */
static char *scrape(struct harness_server *s)
{
  struct harness_response r;
  char *text;

  harness_call(s, &r, "GET", NULL, NULL, "/metrics");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(harness_media_type_is(r.content_type, "text/plain"));
  assert_non_null(strstr(r.content_type, "version=0.0.4"));
  text = strdup(r.body);
  harness_response_free(&r);
  assert_non_null(text);
  return text;
}

/* The value of the sample whose name and labels are exactly `key`; 0 when
 * the scrape has no such line (a counter not yet moved is not written). */
static double sample(const char *text, const char *key)
{
  return harness_metrics_sample(text, key, 0);
}

static double requests(const char *text, const char *method, const char *route, int status)
{
  char key[256];

  snprintf(key, sizeof key, "cairn_http_requests_total{method=\"%s\",route=\"%s\",status=\"%d\"}",
           method, route, status);
  return sample(text, key);
}

/* The family a sample line belongs to: its name, less a histogram's
 * suffix. */
static void family_of(const char *line, char *out, size_t size)
{
  static const char *const suffixes[] = {"_bucket", "_sum", "_count"};
  size_t n = strcspn(line, "{ ");

  snprintf(out, size, "%.*s", (int)n, line);
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
    size_t k = strlen(suffixes[i]), len = strlen(out);

    if (len > k && strcmp(out + len - k, suffixes[i]) == 0 &&
        strncmp(out, "cairn_http_request_duration_seconds", len - k) == 0)
      out[len - k] = '\0';
  }
}

/* Every line of the exposition format: "# HELP name text", "# TYPE name
 * kind" before the family's first sample, then "name{labels} number". And
 * every latency histogram's buckets never fall, ending at its count. */
static void expect_exposition_format(const char *text)
{
  char typed[64][96];
  int n_typed = 0;
  char *copy = strdup(text), *save = NULL;
  double last_bucket = -1;

  assert_non_null(copy);
  for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char family[96];
    const char *value;
    char *end;
    bool known = false;

    if (strncmp(line, "# HELP ", 7) == 0)
      continue;
    if (strncmp(line, "# TYPE ", 7) == 0) {
      assert_true(n_typed < 64);
      sscanf(line + 7, "%95s", typed[n_typed++]);
      continue;
    }
    assert_true(islower((unsigned char)line[0]));
    family_of(line, family, sizeof family);
    for (int i = 0; i < n_typed; i++)
      known = known || strcmp(typed[i], family) == 0;
    if (!known)
      fail_msg("sample before its # TYPE line: %s", line);
    value = strrchr(line, ' ');
    assert_non_null(value);
    strtod(value + 1, &end);
    if (*end != '\0' || end == value + 1)
      fail_msg("not a number: %s", line);
    if (strstr(line, "_bucket{")) {
      double v = strtod(value + 1, NULL);

      if (strstr(line, "le=\"0.0001\""))
        last_bucket = -1; /* a new route's buckets */
      assert_true(v >= last_bucket);
      last_bucket = v;
    } else if (strstr(line, "_count{")) {
      assert_true(strtod(value + 1, NULL) == last_bucket); /* +Inf holds every one */
    }
  }
  free(copy);
}

/* A Himalaya game of two new players, `a` in seat 0 and `b` in seat 1,
 * every seat taken: p[] gets the players, id[64] the game. */
static void start_duel(struct harness_server *s, const char *a, const char *b,
                       struct harness_player p[2], char id[64])
{
  json_t *game;

  harness_new_player(s, a, &p[0]);
  harness_new_player(s, b, &p[1]);
  game = harness_new_game(s, p[0].token, "himalaya", 2, "{}");
  snprintf(id, 64, "%s", harness_game_id(game));
  json_decref(game);
  harness_join(s, p[0].token, id, 0);
  harness_join(s, p[1].token, id, 1);
}

/* Play the first move of `id` as whichever seat acts; its token in *mover. */
static void play_first_move(struct harness_server *s, const char *id, struct harness_player *p)
{
  struct harness_rng rng = {.state = 7};
  struct harness_response r;

  for (int seat = 0; seat < 2; seat++) {
    json_t *mine = harness_get_game(s, p[seat].token, id);

    if (harness_may_act(mine, seat)) {
      json_t *move = harness_choose_move(mine, &rng);

      harness_post_move(s, &r, p[seat].token, id, harness_int(mine, "seq"), move);
      HARNESS_EXPECT_STATUS(&r, 200);
      harness_response_free(&r);
      json_decref(move);
      json_decref(mine);
      return;
    }
    json_decref(mine);
  }
  fail_msg("nobody may act in %s", id);
}

static void test_metrics_count_what_was_done_and_name_no_game_or_player(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct harness_response r;
  char *before, *after;
  char id[64];

  start_duel(s, "Tenzing", "Hillary", p, id);
  before = scrape(s);
  for (int i = 0; i < 3; i++) {
    harness_call(s, &r, "GET", NULL, NULL, "/v1/health");
    harness_response_free(&r);
  }
  for (int i = 0; i < 2; i++) {
    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/ffffffffffffffffffff");
    HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
    harness_response_free(&r);
  }
  harness_call(s, &r, "GET", NULL, NULL, "/v1/no/such/thing");
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  play_first_move(s, id, p);
  after = scrape(s);

  assert_true(
      requests(after, "GET", "/v1/health", 200) - requests(before, "GET", "/v1/health", 200) == 3);
  assert_true(requests(after, "GET", "/v1/games/{id}", 404) -
                  requests(before, "GET", "/v1/games/{id}", 404) ==
              2);
  assert_true(requests(after, "-", "unmatched", 404) - requests(before, "-", "unmatched", 404) ==
              1);
  assert_true(requests(after, "POST", "/v1/games/{id}/moves", 200) -
                  requests(before, "POST", "/v1/games/{id}/moves", 200) ==
              1);
  /* The first scrape is counted once it is answered: the second sees it. */
  assert_true(requests(after, "GET", "/metrics", 200) >= 1);
  assert_true(sample(after, "cairn_changes_committed_total{kind=\"move\"}") -
                  sample(before, "cairn_changes_committed_total{kind=\"move\"}") ==
              1);
  {
    double commits =
        sample(after, "cairn_db_commits_total") - sample(before, "cairn_db_commits_total");
    double appended = sample(after, "cairn_db_appended_moves_total") -
                      sample(before, "cairn_db_appended_moves_total");

    assert_true(commits >= 1 && appended >= commits);
    assert_true(sample(after, "cairn_db_commit_seconds_total") > 0);
  }
  assert_true(sample(after, "cairn_connections_open") >= 1);
  expect_exposition_format(after);
  /* Labels are routes, never ids: nothing here tells who plays what. */
  assert_null(strstr(after, id));
  for (int i = 0; i < 2; i++) {
    assert_null(strstr(after, p[i].id));
    assert_null(strstr(after, p[i].token));
  }
  free(before);
  free(after);
}

struct gauge_wait {
  struct harness_server *s;
  const char *key;
  double want;
};

static bool gauge_is(void *arg)
{
  struct gauge_wait *g = arg;
  char *text = scrape(g->s);
  bool ok = sample(text, g->key) == g->want;

  free(text);
  return ok;
}

static void test_metrics_show_waiting_clients_while_they_wait(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct long_poll a;
  struct gauge_wait parked = {.s = s, .key = "cairn_waiting_clients{kind=\"long_poll\"}"};
  char id[64];

  start_duel(s, "Norgay", "Mallory", p, id);
  long_poll_start(&a, s, "/v1/games/%s/wait?after=0&timeout=60", id);
  parked.want = 1;
  assert_true(harness_wait_every(gauge_is, &parked, 10000, 20));
  play_first_move(s, id, p);
  long_poll_free(&a);
  assert_int_equal(a.status, 200);
  parked.want = 0;
  assert_true(harness_wait_every(gauge_is, &parked, 10000, 20));
}

static void test_rate_limit_refusals_are_counted_one_for_one(void **state)
{
  struct harness_server s;
  struct harness_response r;
  int refused = 0;
  char *text;

  (void)state;
  setenv("CAIRN_RATE_LIMIT", "5,5", 1);
  harness_start(&s);
  unsetenv("CAIRN_RATE_LIMIT");
  for (int i = 0; i < 40; i++) {
    harness_call(&s, &r, "GET", NULL, NULL, "/v1/titles");
    refused += r.status == 429;
    harness_response_free(&r);
  }
  assert_true(refused > 0);
  /* The scrape may itself be refused while the bucket refills. */
  do {
    harness_call(&s, &r, "GET", NULL, NULL, "/metrics");
    if (r.status == 429)
      refused++;
    text = r.status == 200 ? strdup(r.body) : NULL;
    harness_response_free(&r);
    if (!text)
      usleep(300 * 1000);
  } while (!text);
  assert_true(sample(text, "cairn_rate_limit_refusals_total") == refused);
  assert_true(requests(text, "GET", "/v1/titles", 429) + requests(text, "GET", "/metrics", 429) ==
              refused);
  free(text);
  assert_true(harness_stop(&s));
}

struct hooks_wait {
  struct harness_server *s;
  double backlog, failed, delivered; /* OUT: the last scrape's */
  bool want_empty;                   /* wait for no backlog; else for some */
};

static bool hooks_are(void *arg)
{
  struct hooks_wait *h = arg;
  char *text = scrape(h->s);

  h->backlog = sample(text, "cairn_webhook_backlog");
  h->failed = sample(text, "cairn_webhook_attempts_total{outcome=\"failed\"}");
  h->delivered = sample(text, "cairn_webhook_attempts_total{outcome=\"delivered\"}");
  free(text);
  return h->want_empty ? h->backlog == 0 && h->failed > 0 : h->backlog > 0;
}

/* A receiver that refuses every connection: the deliveries it is owed
 * show as backlog while they are retried, then as failed attempts, five
 * each, once given up. */
static void test_webhook_backlog_and_failures_are_shown(void **state)
{
  struct harness_server s;
  struct harness_player p[2];
  struct harness_response r;
  struct hooks_wait h = {.s = &s};
  json_t *game;
  char id[64], body[256];

  (void)state;
  setenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS", "1", 1);
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "100", 1);
  harness_start(&s);
  unsetenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS");
  unsetenv("CAIRN_WEBHOOK_BACKOFF_MS");
  harness_new_player(&s, "Irvine", &p[0]);
  harness_new_player(&s, "Odell", &p[1]);
  game = harness_new_game(&s, p[0].token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(game));
  json_decref(game);
  snprintf(body, sizeof body,
           "{\"url\":\"http://127.0.0.1:1/hook\",\"format\":\"json\",\"game\":\"%s\"}", id);
  harness_call(&s, &r, "POST", p[0].token, body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  harness_response_free(&r);
  harness_join(&s, p[0].token, id, 0);
  harness_join(&s, p[1].token, id, 1);
  play_first_move(&s, id, p);
  assert_true(harness_wait_every(hooks_are, &h, 10000, 20));
  h.want_empty = true;
  assert_true(harness_wait_every(hooks_are, &h, 20000, 50));
  assert_true(h.delivered == 0);
  assert_true(h.failed >= 5 && (long)h.failed % 5 == 0);
  assert_true(harness_stop(&s));
}

static bool generated_id(const char *id)
{
  if (!id || strlen(id) != 20)
    return false;
  for (const char *c = id; *c; c++)
    if (!isxdigit((unsigned char)*c) || isupper((unsigned char)*c))
      return false;
  return true;
}

/* The X-Request-Id of `method path` sent with `headers`. Owned. */
static char *request_id_of(struct harness_server *s, const char *method, const char *path,
                           const char *const *headers, long want_status)
{
  struct harness_request req = {.method = method, .path = path, .headers = headers};
  struct harness_response r;
  char *id;

  if (!harness_send(&s->client, &req, &r))
    fail_msg("%s: %s", r.what, r.error);
  if (want_status)
    HARNESS_EXPECT_STATUS(&r, want_status);
  id = harness_response_header(&r, "X-Request-Id")
           ? strdup(harness_response_header(&r, "X-Request-Id"))
           : NULL;
  if (!id)
    harness_fail_response(&r, __FILE__, __LINE__, "no X-Request-Id");
  harness_response_free(&r);
  return id;
}

static int by_string(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_every_answer_carries_a_request_id(void **state)
{
  struct harness_server *s = *state;
  static const char *const mine[] = {"X-Request-Id: bot-42.relay:7_A", NULL};
  static const char *const spaced[] = {"X-Request-Id: two words", NULL};
  static const char *const quoted[] = {"X-Request-Id: a\"b", NULL};
  char long_id[80], long_line[100], pad[9000];
  const char *too_long[] = {long_line, NULL};
  const char *padded[] = {pad, NULL};
  char *ids[100];
  char *id;

  /* A success, a problem, a 405, the web client's files, the metrics. */
  static const struct {
    const char *method, *path;
    long status;
  } answers[] = {{"GET", "/v1/health", 200},    {"GET", "/v1/games/nothing", 404},
                 {"DELETE", "/v1/titles", 405}, {"GET", "/", 200},
                 {"GET", "/metrics", 200},      {"GET", "/livez", 200},
                 {"GET", "/readyz", 200}};
  for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
    id = request_id_of(s, answers[i].method, answers[i].path, NULL, answers[i].status);
    assert_true(generated_id(id));
    free(id);
  }
  /* A head refused before it is routed (431) carries one too. */
  snprintf(pad, sizeof pad, "X-Pad: ");
  memset(pad + 7, 'a', sizeof pad - 8);
  pad[sizeof pad - 1] = '\0';
  id = request_id_of(s, "GET", "/v1/health", padded, 431);
  assert_true(generated_id(id));
  free(id);
  /* A client's own id is echoed when it is plain; otherwise replaced. */
  id = request_id_of(s, "GET", "/v1/health", mine, 200);
  assert_string_equal(id, "bot-42.relay:7_A");
  free(id);
  id = request_id_of(s, "GET", "/v1/health", spaced, 200);
  assert_true(generated_id(id));
  free(id);
  id = request_id_of(s, "GET", "/v1/health", quoted, 200);
  assert_true(generated_id(id));
  free(id);
  memset(long_id, 'x', 65);
  long_id[65] = '\0';
  snprintf(long_line, sizeof long_line, "X-Request-Id: %s", long_id);
  id = request_id_of(s, "GET", "/v1/health", too_long, 200);
  assert_true(generated_id(id));
  free(id);
  /* Ours never repeat. */
  for (int i = 0; i < 100; i++)
    ids[i] = request_id_of(s, "GET", "/v1/health", NULL, 200);
  qsort(ids, 100, sizeof ids[0], by_string);
  for (int i = 1; i < 100; i++)
    assert_string_not_equal(ids[i - 1], ids[i]);
  for (int i = 0; i < 100; i++)
    free(ids[i]);
}

/* Every line of the server's log, parsed: each must be a JSON object with
 * string time, level, component and message. New reference (an array). */
static json_t *log_lines(const struct harness_server *s)
{
  FILE *f = fopen(s->log_path, "r");
  json_t *lines = json_array();
  char line[8192];

  assert_non_null(f);
  while (fgets(line, sizeof line, f)) {
    json_error_t e;
    json_t *j = json_loads(line, 0, &e);

    if (!json_is_object(j))
      fail_msg("not a JSON line: %s", line);
    for (const char *const *k =
             (const char *const[]){"time", "level", "component", "message", NULL};
         *k; k++)
      if (!json_is_string(json_object_get(j, *k)))
        fail_msg("no string \"%s\" in: %s", *k, line);
    json_array_append_new(lines, j);
  }
  fclose(f);
  return lines;
}

/* The first line naming `request_id` with `message`, or NULL. Borrowed. */
static json_t *line_of(json_t *lines, const char *request_id, const char *message)
{
  size_t i;
  json_t *j;

  json_array_foreach(lines, i, j)
  {
    const char *id = json_string_value(json_object_get(j, "request_id"));

    if (id && strcmp(id, request_id) == 0 &&
        strcmp(json_string_value(json_object_get(j, "message")), message) == 0)
      return j;
  }
  return NULL;
}

/* --access-log: a JSON line per answer naming its request id, and no
 * query string (where a client might have put what a log must not keep). */
static void test_the_log_is_json_lines_that_name_each_request(void **state)
{
  struct harness_server s;
  static const char *const traced[] = {"X-Request-Id: trace-me-7", NULL};
  struct harness_request req = {
      .method = "GET", .path = "/v1/health?token=sekrit", .headers = traced};
  struct harness_response r;
  json_t *lines, *line;
  char *text;
  size_t len;
  FILE *f;

  (void)state;
  setenv("CAIRN_ACCESS_LOG", "1", 1);
  harness_start(&s);
  unsetenv("CAIRN_ACCESS_LOG");
  assert_true(harness_send(&s.client, &req, &r));
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  harness_pause(&s); /* stopped, its folder (and log) kept until harness_stop */
  lines = log_lines(&s);
  line = line_of(lines, "trace-me-7", "request");
  assert_non_null(line);
  assert_string_equal(harness_str(line, "component"), "http");
  assert_string_equal(harness_str(line, "method"), "GET");
  assert_string_equal(harness_str(line, "path"), "/v1/health");
  assert_int_equal(harness_int(line, "status"), 200);
  assert_true(json_is_number(json_object_get(line, "ms")));
  json_decref(lines);
  f = fopen(s.log_path, "r");
  assert_non_null(f);
  text = calloc(1, 1 << 20);
  len = fread(text, 1, (1 << 20) - 1, f);
  fclose(f);
  assert_true(len > 0);
  assert_null(strstr(text, "sekrit"));
  free(text);
  assert_true(harness_stop(&s));
}

struct exit_wait {
  pid_t pid;
  int wstatus;
};

static bool exited(void *arg)
{
  struct exit_wait *w = arg;

  return waitpid(w->pid, &w->wstatus, WNOHANG) == w->pid;
}

/* --drain-seconds: after SIGTERM the node says it is not ready, yet serves
 * every request (a move is accepted and kept), then stops by itself with
 * status 0. */
static void test_a_draining_node_is_not_ready_but_serves_and_loses_nothing(void **state)
{
  struct harness_server s;
  struct harness_player p[2];
  struct harness_response r;
  struct exit_wait w;
  json_t *game, *lines;
  char id[64], refused_id[80];

  (void)state;
  setenv("CAIRN_DRAIN_SECONDS", "3", 1);
  harness_start(&s);
  unsetenv("CAIRN_DRAIN_SECONDS");
  harness_call(&s, &r, "GET", NULL, NULL, "/readyz");
  HARNESS_EXPECT_JSON(&r, 200);
  assert_string_equal(harness_str(r.json, "status"), "ready");
  harness_response_free(&r);
  start_duel(&s, "Whymper", "Carrel", p, id);

  assert_int_equal(kill(s.pid, SIGTERM), 0);
  usleep(200 * 1000);
  harness_call(&s, &r, "GET", NULL, NULL, "/readyz");
  HARNESS_EXPECT_PROBLEM(&r, 503, "draining");
  assert_non_null(harness_response_header(&r, "Retry-After"));
  snprintf(refused_id, sizeof refused_id, "%s", harness_response_header(&r, "X-Request-Id"));
  harness_response_free(&r);
  harness_call(&s, &r, "GET", NULL, NULL, "/livez");
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  play_first_move(&s, id, p);

  w.pid = s.pid;
  assert_true(harness_wait_until(exited, &w, 15000));
  assert_true(WIFEXITED(w.wstatus) && WEXITSTATUS(w.wstatus) == 0);
  s.pid = 0;
  harness_pause(&s); /* the exit was seen here: this only closes the harness's side */
  harness_resume(&s);
  game = harness_get_game(&s, p[0].token, id);
  assert_int_equal(harness_int(game, "seq"), 1);
  json_decref(game);
  harness_pause(&s);
  /* The refusal is in the log, named by the id its answer carried. */
  lines = log_lines(&s);
  {
    size_t i;
    json_t *j;
    bool found = false;

    json_array_foreach(lines, i, j)
    {
      const char *rid = json_string_value(json_object_get(j, "request_id"));

      found = found || (rid && strcmp(rid, refused_id) == 0 &&
                        strcmp(harness_str(j, "level"), "error") == 0 &&
                        strstr(harness_str(j, "message"), "draining"));
    }
    assert_true(found);
  }
  json_decref(lines);
  assert_true(harness_stop(&s));
}

/* A stop answers the requests in flight: a long-poll parked when SIGTERM
 * comes gets its answer (nothing changed) before the server exits 0. */
static void test_a_stop_answers_the_requests_in_flight(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  struct long_poll a;
  struct gauge_wait parked = {
      .s = s, .key = "cairn_waiting_clients{kind=\"long_poll\"}", .want = 1};
  char id[64];

  start_duel(s, "Bonington", "Haston", p, id);
  long_poll_start(&a, s, "/v1/games/%s/wait?after=0&timeout=60", id);
  assert_true(harness_wait_every(gauge_is, &parked, 10000, 20));
  harness_pause(s); /* SIGTERM, and a clean exit within the harness's limit */
  long_poll_free(&a);
  assert_int_equal(a.status, 200);
  harness_resume(s);
}

/* Nodes on one database name one key file (--key): both sign as one
 * server, whichever made the key (tests/core/test_sign_key.c races the
 * making itself). */
static void test_nodes_given_one_key_file_sign_as_one(void **state)
{
  struct harness_server a, b;
  char key[300];
  json_t *ka, *kb;

  (void)state;
  snprintf(key, sizeof key, "/tmp/cairn-key-%d", (int)getpid());
  unlink(key);
  setenv("CAIRN_KEY", key, 1);
  harness_start(&a);
  harness_start(&b);
  unsetenv("CAIRN_KEY");
  ka = harness_get_json(&a, NULL, "/v1/server-key");
  kb = harness_get_json(&b, NULL, "/v1/server-key");
  assert_string_equal(harness_str(ka, "public_key"), harness_str(kb, "public_key"));
  json_decref(ka);
  json_decref(kb);
  assert_true(harness_stop(&a));
  assert_true(harness_stop(&b));
  unlink(key);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_metrics_count_what_was_done_and_name_no_game_or_player,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_metrics_show_waiting_clients_while_they_wait,
                                      harness_setup, harness_teardown),
      cmocka_unit_test(test_rate_limit_refusals_are_counted_one_for_one),
      cmocka_unit_test_setup_teardown(test_every_answer_carries_a_request_id, harness_setup,
                                      harness_teardown),
      cmocka_unit_test(test_a_draining_node_is_not_ready_but_serves_and_loses_nothing),
      cmocka_unit_test(test_webhook_backlog_and_failures_are_shown),
      cmocka_unit_test(test_the_log_is_json_lines_that_name_each_request),
      cmocka_unit_test(test_nodes_given_one_key_file_sign_as_one),
      cmocka_unit_test_setup_teardown(test_a_stop_answers_the_requests_in_flight, harness_setup,
                                      harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/operations", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
