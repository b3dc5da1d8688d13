/*
 * harness.c - starting and stopping the real server binary, and talking to it
 * over HTTP with libcurl, for the tests in tests/api/. Test cases and their
 * expectations live in the test_*.c files; this file only knows the
 * contract's general shape (problem+json, the resource paths).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/api/harness.h"

/* The server prints its listen line right after binding; under ASan with a
 * fresh database that takes well under a second, so 10 s means it is stuck. */
#define START_TIMEOUT_MS 10000
/* SIGTERM to exit: a clean shutdown plus ASan's leak scan. */
#define STOP_TIMEOUT_MS 10000
/* No single request should take this long, even the replay of a long game. */
#define REQUEST_TIMEOUT_MS 15000L
/* The largest body we keep; the OpenAPI text is far smaller. */
#define MAX_BODY (16u << 20)

static const char LISTEN_PREFIX[] = "cairn: listening on http://";

static long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void harness_global_init(void)
{
  /* A server that dies mid-request must not kill the test with SIGPIPE. */
  signal(SIGPIPE, SIG_IGN);
  /* Tests send requests far faster than any client, and from one address
   * play as hundreds of clients (bench_idle holds 10,000 connections); the
   * rate limits and the per-address connection cap are tested on their own
   * (test_limits.c), which sets these itself. */
  setenv("CAIRN_RATE_LIMIT", "0", 0);
  setenv("CAIRN_MAX_OPEN_GAMES", "0", 0);
  setenv("CAIRN_MAX_CONNECTIONS_PER_ADDRESS", "0", 0);
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    fail_msg("curl_global_init failed");
}

void harness_global_cleanup(void)
{
  curl_global_cleanup();
}

/* ---- Server lifecycle ---- */

static const char *server_path(void)
{
  const char *p = getenv("CAIRN_SERVER");
  if (!p || !*p)
    p = "build/test/cairn";
  return p;
}

static void *drain_main(void *arg)
{
  int fd = *(int *)arg;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0)
      continue;
    if (n < 0 && errno == EINTR)
      continue;
    break;
  }
  return NULL;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

static void remove_dir(const char *dir)
{
  if (dir[0])
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *describe_status(int wstatus, char *buf, size_t n)
{
  if (WIFEXITED(wstatus))
    snprintf(buf, n, "exited with status %d", WEXITSTATUS(wstatus));
  else if (WIFSIGNALED(wstatus))
    snprintf(buf, n, "killed by signal %d (%s)", WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
  else
    snprintf(buf, n, "wait status 0x%x", wstatus);
  return buf;
}

static void print_server_log(const struct harness_server *s);

/* Start the binary on s->db_path; the folder already exists. */
static void spawn(struct harness_server *s)
{
  const char *bin = server_path();
  char abs_bin[4096];
  int fds[2];
  /* A server run in its folder (in_dir) needs the binary by a path that
   * does not depend on the working directory. */
  if (s->in_dir && bin[0] != '/' && realpath(bin, abs_bin))
    bin = abs_bin;
  if (access(bin, X_OK) != 0) {
    int e = errno;
    harness_stop(s);
    fail_msg("server binary '%s' is not executable (%s); set CAIRN_SERVER", bin, strerror(e));
  }
  if (pipe2(fds, O_CLOEXEC) != 0) {
    int e = errno;
    harness_stop(s);
    fail_msg("pipe: %s", strerror(e));
  }

  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0)
    fail_msg("fork: %s", strerror(errno));
  if (pid == 0) {
    /* Never outlive the test binary, even if it crashes before teardown. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    dup2(fds[1], STDOUT_FILENO);
    /* The server's stderr (its log, and any sanitizer report) goes to a file
     * that stop_process() prints when the server did not exit cleanly;
     * CAIRN_TEST_VERBOSE=1 lets it through as it is written. */
    const char *verbose = getenv("CAIRN_TEST_VERBOSE");
    if (!verbose || strcmp(verbose, "1") != 0) {
      int log = open(s->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
      if (log >= 0)
        dup2(log, STDERR_FILENO);
    }
    if (s->in_dir && chdir(s->dir) != 0)
      _exit(127);
    char *argv[] = {(char *)bin, "--host", "127.0.0.1", "--port", "0", "--db", s->db_path, NULL};
    execv(bin, argv);
    fprintf(stderr, "harness: exec %s: %s\n", bin, strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  s->pid = pid;
  s->out_fd = fds[0];

  /* Read the listen line, with a deadline. */
  char line[512];
  size_t len = 0;
  long deadline = now_ms() + START_TIMEOUT_MS;
  for (;;) {
    if (len && memchr(line, '\n', len))
      break;
    long left = deadline - now_ms();
    if (left <= 0) {
      harness_stop(s);
      fail_msg("server printed no listen line within %d ms (got %zu bytes: '%.*s')",
               START_TIMEOUT_MS, len, (int)len, line);
    }
    struct pollfd pfd = {.fd = s->out_fd, .events = POLLIN};
    int pr = poll(&pfd, 1, (int)left);
    if (pr < 0 && errno == EINTR)
      continue;
    if (pr <= 0)
      continue;
    ssize_t n = read(s->out_fd, line + len, sizeof line - 1 - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int wstatus = 0;
      char why[128] = "still running";
      if (waitpid(s->pid, &wstatus, 0) == s->pid) {
        describe_status(wstatus, why, sizeof why);
        s->pid = 0;
      }
      print_server_log(s);
      harness_stop(s);
      fail_msg("server closed stdout before the listen line (%s); got '%.*s'", why, (int)len, line);
    }
    len += (size_t)n;
    if (len >= sizeof line - 1) {
      harness_stop(s);
      fail_msg("server printed %zu bytes without a newline", len);
    }
  }
  line[len] = '\0';
  *strchr(line, '\n') = '\0';

  /* Only the first line matters; it must be exactly the documented one. */
  const char *hostport = NULL;
  if (strncmp(line, LISTEN_PREFIX, sizeof LISTEN_PREFIX - 1) == 0)
    hostport = line + sizeof LISTEN_PREFIX - 1;
  const char *colon = hostport ? strrchr(hostport, ':') : NULL;
  char *end = NULL;
  long port = colon ? strtol(colon + 1, &end, 10) : 0;
  if (!colon || end == colon + 1 || *end != '\0' || port <= 0 || port > 65535 ||
      (size_t)(colon - hostport) >= sizeof s->host || colon == hostport) {
    harness_stop(s);
    fail_msg("first stdout line is not 'cairn: listening on http://HOST:PORT': '%s'", line);
  }
  memcpy(s->host, hostport, (size_t)(colon - hostport));
  s->host[colon - hostport] = '\0';
  s->port = (int)port;
  snprintf(s->base_url, sizeof s->base_url, "http://%s:%d", s->host, s->port);

  /* Keep the pipe drained so a chatty server never blocks on stdout. */
  if (pthread_create(&s->drain, NULL, drain_main, &s->out_fd) != 0) {
    harness_stop(s);
    fail_msg("pthread_create failed");
  }
  s->drain_running = true;
}

void harness_start(struct harness_server *s)
{
  harness_start_on(s, NULL);
}

void harness_start_on(struct harness_server *s, const char *db_url)
{
  memset(s, 0, sizeof *s);
  s->out_fd = -1;
  snprintf(s->dir, sizeof s->dir, "/tmp/cairn-api-XXXXXX");
  if (!mkdtemp(s->dir)) {
    s->dir[0] = '\0';
    fail_msg("mkdtemp: %s", strerror(errno));
  }
  if (db_url) {
    snprintf(s->db_path, sizeof s->db_path, "%s", db_url);
    s->in_dir = true;
  } else {
    snprintf(s->db_path, sizeof s->db_path, "%s/cairn.db", s->dir);
  }
  snprintf(s->log_path, sizeof s->log_path, "%s/server.log", s->dir);
  harness_client_init(&s->client, s);
  spawn(s);
}

/* Print the end of the server's stderr log, for a failure message. */
static void print_server_log(const struct harness_server *s)
{
  char buf[8192];
  int fd = s->log_path[0] ? open(s->log_path, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0)
    return;
  off_t size = lseek(fd, 0, SEEK_END);
  off_t from = size > (off_t)sizeof buf - 1 ? size - (off_t)sizeof buf + 1 : 0;
  ssize_t n = pread(fd, buf, sizeof buf - 1, from);
  close(fd);
  if (n <= 0)
    return;
  buf[n] = '\0';
  fprintf(stderr, "harness: --- server stderr%s ---\n%s\nharness: --- end of server stderr ---\n",
          from ? " (last 8 KiB)" : "", buf);
}

bool harness_wait_every(bool (*done)(void *arg), void *arg, long timeout_ms, long pause_ms)
{
  const struct timespec pause = {pause_ms / 1000, (pause_ms % 1000) * 1000 * 1000};
  long deadline = now_ms() + timeout_ms;
  bool held;

  while (!(held = done(arg)) && now_ms() < deadline)
    nanosleep(&pause, NULL);
  return held;
}

bool harness_wait_until(bool (*done)(void *arg), void *arg, long timeout_ms)
{
  return harness_wait_every(done, arg, timeout_ms, 10);
}

double harness_metrics_sample(const char *text, const char *key, double absent)
{
  size_t n = strlen(key);

  for (const char *line = text; line && *line;
       line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
    if (strncmp(line, key, n) == 0 && line[n] == ' ')
      return strtod(line + n + 1, NULL);
  return absent;
}

double harness_metric(struct harness_server *s, const char *key)
{
  struct harness_response r;
  double value;

  harness_call(s, &r, "GET", NULL, NULL, "/metrics");
  value = harness_metrics_sample(r.status == 200 ? r.body : NULL, key, -1);
  harness_response_free(&r);
  return value;
}

struct exit_wait {
  pid_t pid;
  int wstatus;
  pid_t got; /* waitpid's answer: 0 while the process runs */
};

static bool process_exited(void *arg)
{
  struct exit_wait *w = arg;

  w->got = waitpid(w->pid, &w->wstatus, WNOHANG);
  return w->got != 0;
}

/* Stop the process only; returns true on a clean exit (status 0). */
static bool stop_process(struct harness_server *s, char *why, size_t why_len)
{
  bool clean = true;
  snprintf(why, why_len, "not running");
  if (s->pid > 0) {
    struct exit_wait w = {.pid = s->pid};
    int wstatus;
    pid_t got;
    kill(s->pid, SIGTERM);
    /* The exit is the server's own shutdown: nothing to step, only to wait for. */
    harness_wait_until(process_exited, &w, STOP_TIMEOUT_MS);
    wstatus = w.wstatus;
    got = w.got;
    if (got == 0) {
      kill(s->pid, SIGKILL);
      waitpid(s->pid, &wstatus, 0);
      snprintf(why, why_len, "did not exit within %d ms of SIGTERM", STOP_TIMEOUT_MS);
      clean = false;
    } else if (got < 0) {
      snprintf(why, why_len, "waitpid: %s", strerror(errno));
      clean = false;
    } else {
      describe_status(wstatus, why, why_len);
      clean = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
    }
    s->pid = 0;
    if (!clean)
      print_server_log(s);
  }
  if (s->drain_running) {
    pthread_join(s->drain, NULL);
    s->drain_running = false;
  }
  if (s->out_fd >= 0) {
    close(s->out_fd);
    s->out_fd = -1;
  }
  return clean;
}

bool harness_stop(struct harness_server *s)
{
  char why[160];
  bool clean = stop_process(s, why, sizeof why);
  if (!clean)
    fprintf(stderr, "harness: server stop was not clean: %s\n", why);
  harness_client_cleanup(&s->client);
  remove_dir(s->dir);
  s->dir[0] = '\0';
  return clean;
}

static void copy_file(const char *from, const char *to)
{
  char buf[65536];
  size_t n;
  FILE *in = fopen(from, "rb");
  FILE *out = fopen(to, "wb");

  if (!in || !out)
    fail_msg("cannot copy %s to %s: %s", from, to, strerror(errno));
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n)
      fail_msg("cannot write %s: %s", to, strerror(errno));
  if (ferror(in) || fclose(out) != 0)
    fail_msg("cannot copy %s to %s", from, to);
  fclose(in);
}

/* The WAL is read after the main file: a checkpoint running meanwhile only
 * copies frames that the WAL, read later, still holds, and a reader of the
 * copy takes each page from the WAL first. */
void harness_db_snapshot(const struct harness_server *s, const char *out)
{
  char from[320], to[320];

  copy_file(s->db_path, out);
  snprintf(from, sizeof from, "%s-wal", s->db_path);
  snprintf(to, sizeof to, "%s-wal", out);
  if (access(from, F_OK) == 0)
    copy_file(from, to);
  else
    unlink(to);
}

void harness_pause(struct harness_server *s)
{
  char why[160];
  if (!stop_process(s, why, sizeof why))
    fail_msg("server did not stop cleanly: %s", why);
}

void harness_resume(struct harness_server *s)
{
  spawn(s);
}

void harness_restart(struct harness_server *s)
{
  harness_pause(s);
  harness_resume(s);
}

void harness_kill(struct harness_server *s)
{
  if (s->pid > 0) {
    kill(s->pid, SIGKILL);
    while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
      ;
    s->pid = 0;
  }
  /* The pipe's write end died with the server, so the drain thread ends. */
  if (s->drain_running) {
    pthread_join(s->drain, NULL);
    s->drain_running = false;
  }
  if (s->out_fd >= 0) {
    close(s->out_fd);
    s->out_fd = -1;
  }
}

void harness_advance_clock(struct harness_server *s, long long ms)
{
  struct harness_response r;
  char body[64];

  snprintf(body, sizeof body, "{\"advance_ms\":%lld}", ms);
  harness_call(s, &r, "POST", NULL, body, "/v1/test/clock");
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
}

/* Seat `seats` new players in a new game of `title` and play it to the end
 * with moves walked from `choices` (views asked with ?legal=none), seeded
 * with `seed`. */
void harness_play_random(struct harness_server *s, const char *title, int seats,
                         const char *options_json, uint64_t seed, struct harness_player players[],
                         char game_id[64])
{
  struct harness_rng rng = {seed ? seed : 1};
  json_t *created;
  char name[32];
  int i, moves;

  for (i = 0; i < seats; i++) {
    snprintf(name, sizeof name, "player-%d", i);
    harness_new_player(s, name, &players[i]);
  }
  created = harness_new_game(s, players[0].token, title, seats, options_json);
  snprintf(game_id, 64, "%s", harness_game_id(created));
  json_decref(created);
  for (i = 0; i < seats; i++)
    harness_join(s, players[i].token, game_id, -1);
  for (moves = 0; moves < 100000; moves++) {
    json_t *g = harness_get_game(s, NULL, game_id);
    json_t *mine, *body;
    struct harness_response r;
    int seat;

    if (strcmp(harness_str(g, "status"), "finished") == 0) {
      json_decref(g);
      return;
    }
    seat = (int)json_integer_value(json_array_get(json_object_get(g, "to_act"), 0));
    json_decref(g);
    mine = harness_get_json(s, players[seat].token, "/v1/games/%s?legal=none", game_id);
    assert_null(json_object_get(mine, "legal"));
    body = json_pack("{s:O, s:o}", "seq", json_object_get(mine, "seq"), "move",
                     harness_choose_move(mine, &rng));
    harness_call_json(s, &r, "POST", players[seat].token, body, "/v1/games/%s/moves", game_id);
    harness_expect_status(&r, 200, __FILE__, __LINE__);
    harness_response_free(&r);
    json_decref(body);
    json_decref(mine);
  }
  fail_msg("game %s did not finish", game_id);
}

bool harness_alive(struct harness_server *s)
{
  if (s->pid <= 0)
    return false;
  int wstatus = 0;
  pid_t got = waitpid(s->pid, &wstatus, WNOHANG);
  if (got == 0)
    return true;
  if (got == s->pid) {
    char why[128];
    fprintf(stderr, "harness: server is gone: %s\n", describe_status(wstatus, why, sizeof why));
    print_server_log(s);
    s->pid = 0;
  }
  return false;
}

int harness_setup(void **state)
{
  struct harness_server *s = calloc(1, sizeof *s);
  if (!s)
    return -1;
  *state = s;
  harness_start(s);
  return 0;
}

int harness_teardown(void **state)
{
  struct harness_server *s = *state;
  int rc = 0;
  if (!s)
    return 0;
  if (!s->dir[0]) { /* never started, or already stopped after a failure */
    free(s);
    *state = NULL;
    return -1;
  }
  if (!harness_alive(s)) {
    fprintf(stderr, "harness: the server died during the test\n");
    rc = -1;
  }
  if (!harness_stop(s))
    rc = -1;
  free(s);
  *state = NULL;
  return rc;
}

/* ---- Requests ---- */

struct sink {
  struct harness_response *r;
  size_t cap;
  bool overflow;
};

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
  struct sink *k = arg;
  struct harness_response *r = k->r;
  size_t n = size * nmemb;
  if (r->body_len + n + 1 > MAX_BODY) {
    k->overflow = true;
    return 0;
  }
  if (r->body_len + n + 1 > k->cap) {
    size_t cap = k->cap ? k->cap : 4096;
    while (cap < r->body_len + n + 1)
      cap *= 2;
    char *p = realloc(r->body, cap);
    if (!p)
      return 0;
    r->body = p;
    k->cap = cap;
  }
  memcpy(r->body + r->body_len, data, n);
  r->body_len += n;
  r->body[r->body_len] = '\0';
  return n;
}

static void clear_headers(struct harness_response *r)
{
  for (size_t i = 0; i < r->n_headers; i++)
    free(r->headers[i]);
  free(r->headers);
  r->headers = NULL;
  r->n_headers = 0;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *arg)
{
  struct harness_response *r = arg;
  size_t n = size * nmemb;
  size_t len = n;
  /* A new status line (after "100 Continue") starts a new header block. */
  if (len >= 5 && memcmp(data, "HTTP/", 5) == 0) {
    clear_headers(r);
    return n;
  }
  while (len && (data[len - 1] == '\n' || data[len - 1] == '\r'))
    len--;
  if (!len)
    return n;
  char **hs = realloc(r->headers, (r->n_headers + 1) * sizeof *hs);
  if (!hs)
    return 0;
  r->headers = hs;
  char *line = malloc(len + 1);
  if (!line)
    return 0;
  memcpy(line, data, len);
  line[len] = '\0';
  r->headers[r->n_headers++] = line;
  return n;
}

void harness_response_free(struct harness_response *r)
{
  free(r->content_type);
  free(r->body);
  json_decref(r->json);
  clear_headers(r);
  memset(r, 0, sizeof *r);
}

const char *harness_response_header(const struct harness_response *r, const char *name)
{
  size_t n = strlen(name);
  for (size_t i = 0; i < r->n_headers; i++) {
    const char *h = r->headers[i];
    if (strncasecmp(h, name, n) == 0 && h[n] == ':') {
      h += n + 1;
      while (*h == ' ' || *h == '\t')
        h++;
      return h;
    }
  }
  return NULL;
}

void harness_client_init(struct harness_client *c, const struct harness_server *s)
{
  c->server = s;
  c->curl = curl_easy_init();
  if (!c->curl)
    fail_msg("curl_easy_init failed");
}

void harness_client_cleanup(struct harness_client *c)
{
  if (c->curl)
    curl_easy_cleanup(c->curl);
  c->curl = NULL;
}

/* True when `headers` has a line for `name`: "Name: value", or curl's
 * "Name;" (send the header with an empty value). */
static bool names_header(const char *const *headers, const char *name)
{
  size_t n = strlen(name);
  for (const char *const *h = headers; h && *h; h++)
    if (strncasecmp(*h, name, n) == 0 && ((*h)[n] == ':' || (*h)[n] == ';'))
      return true;
  return false;
}

bool harness_send(struct harness_client *c, const struct harness_request *req,
                  struct harness_response *out)
{
  CURL *curl = c->curl;
  struct curl_slist *hdrs = NULL;
  struct sink sink = {.r = out};
  char url[8192];
  char auth[512];
  CURLcode rc;
  bool ok = false;

  memset(out, 0, sizeof *out);
  snprintf(out->what, sizeof out->what, "%s %.200s", req->method, req->path);
  if (snprintf(url, sizeof url, "%s%s", c->server->base_url, req->path) >= (int)sizeof url) {
    snprintf(out->error, sizeof out->error, "path too long");
    return false;
  }

  curl_easy_reset(curl);
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, REQUEST_TIMEOUT_MS);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, out);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, NULL);

  bool has_body = req->body != NULL;
  bool wants_body = has_body || strcmp(req->method, "POST") == 0 ||
                    strcmp(req->method, "PUT") == 0 || strcmp(req->method, "PATCH") == 0;
  if (strcmp(req->method, "GET") == 0 && !has_body) {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else if (strcmp(req->method, "HEAD") == 0 && !has_body) {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req->method);
    if (wants_body) {
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                       (curl_off_t)(has_body ? req->body_len : 0));
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, has_body ? req->body : "");
    }
  }

  /* Defaults first; curl lets a later line for the same name win. */
  if (wants_body && !names_header(req->headers, "Content-Type"))
    hdrs = curl_slist_append(hdrs, has_body && req->body_len ? "Content-Type: application/json"
                                                             : "Content-Type:");
  if (!names_header(req->headers, "Expect"))
    hdrs = curl_slist_append(hdrs, "Expect:");
  if (req->token) {
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", req->token);
    hdrs = curl_slist_append(hdrs, auth);
  }
  for (const char *const *h = req->headers; h && *h; h++)
    hdrs = curl_slist_append(hdrs, *h);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);

  rc = curl_easy_perform(curl);
  if (rc != CURLE_OK) {
    snprintf(out->error, sizeof out->error, "%s%s", curl_easy_strerror(rc),
             sink.overflow ? " (body over the harness cap)" : "");
    /* A response may still have arrived (e.g. before the server closed). */
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
  } else {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    ok = out->status != 0;
  }
  char *ct = NULL;
  curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &ct);
  if (ct)
    out->content_type = strdup(ct);
  if (!out->body) {
    out->body = calloc(1, 1);
    out->body_len = 0;
  }
  if (out->body_len)
    out->json = json_loadb(out->body, out->body_len, 0, NULL);
  curl_slist_free_all(hdrs);
  return ok;
}

static void vcall(struct harness_server *s, struct harness_response *out, const char *method,
                  const char *token, const char *body, size_t body_len, const char *fmt, va_list ap)
{
  char path[4096];
  vsnprintf(path, sizeof path, fmt, ap);
  struct harness_request req = {
      .method = method, .path = path, .token = token, .body = body, .body_len = body_len};
  if (!harness_send(&s->client, &req, out)) {
    char msg[600];
    snprintf(msg, sizeof msg, "%s: no HTTP response: %s (server %s)", out->what, out->error,
             harness_alive(s) ? "alive" : "DEAD");
    harness_response_free(out);
    fail_msg("%s", msg);
  }
}

void harness_call(struct harness_server *s, struct harness_response *out, const char *method,
                  const char *token, const char *body, const char *path_fmt, ...)
{
  va_list ap;
  va_start(ap, path_fmt);
  vcall(s, out, method, token, body, body ? strlen(body) : 0, path_fmt, ap);
  va_end(ap);
}

void harness_call_json(struct harness_server *s, struct harness_response *out, const char *method,
                       const char *token, const json_t *body, const char *path_fmt, ...)
{
  char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
  va_list ap;
  va_start(ap, path_fmt);
  vcall(s, out, method, token, text, text ? strlen(text) : 0, path_fmt, ap);
  va_end(ap);
  free(text);
}

/* ---- Assertions ---- */

void harness_fail_response(const struct harness_response *r, const char *file, int line,
                           const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  print_error("%s\n  request:  %s\n  response: %ld, Content-Type %s\n  body: %.1500s%s\n", msg,
              r->what, r->status, r->content_type ? r->content_type : "(none)",
              r->body ? r->body : "", r->body_len > 1500 ? "..." : "");
  _fail(file, line);
}

bool harness_media_type_is(const char *ct, const char *type)
{
  size_t n = strlen(type);
  if (!ct || strncasecmp(ct, type, n) != 0)
    return false;
  ct += n;
  while (*ct == ' ')
    ct++;
  return *ct == '\0' || *ct == ';';
}

void harness_expect_status(const struct harness_response *r, long status, const char *file,
                           int line)
{
  if (r->status != status)
    harness_fail_response(r, file, line, "expected HTTP %ld, got %ld", status, r->status);
}

void harness_expect_json(const struct harness_response *r, long status, const char *file, int line)
{
  harness_expect_status(r, status, file, line);
  if (!harness_media_type_is(r->content_type, "application/json"))
    harness_fail_response(r, file, line, "expected Content-Type application/json");
  if (!r->json)
    harness_fail_response(r, file, line, "body is not a JSON object or array");
}

void harness_expect_problem(const struct harness_response *r, long status, const char *code,
                            const char *file, int line)
{
  harness_expect_status(r, status, file, line);
  if (!harness_media_type_is(r->content_type, "application/problem+json"))
    harness_fail_response(r, file, line, "expected Content-Type application/problem+json");
  if (!json_is_object(r->json))
    harness_fail_response(r, file, line, "problem body is not a JSON object");
  static const char *const strings[] = {"type", "title", "detail", "code"};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
    if (!json_is_string(json_object_get(r->json, strings[i])))
      harness_fail_response(r, file, line, "problem member '%s' is missing or not a string",
                            strings[i]);
  json_t *st = json_object_get(r->json, "status");
  if (!json_is_integer(st) || json_integer_value(st) != status)
    harness_fail_response(r, file, line, "problem member 'status' is not %ld", status);
  const char *got = json_string_value(json_object_get(r->json, "code"));
  if (code && strcmp(got, code) != 0)
    harness_fail_response(r, file, line, "expected code '%s', got '%s'", code, got);
  char type[128];
  snprintf(type, sizeof type, "urn:cairn:problem:%s", got);
  if (strcmp(json_string_value(json_object_get(r->json, "type")), type) != 0)
    harness_fail_response(r, file, line, "problem type is not '%s'", type);
}

/* ---- Resource helpers ---- */

static void copy_str(char *dst, size_t n, const char *src, const char *what)
{
  if (!src)
    fail_msg("%s is missing", what);
  if (strlen(src) >= n)
    fail_msg("%s is too long (%zu chars)", what, strlen(src));
  memcpy(dst, src, strlen(src) + 1);
}

void harness_new_player(struct harness_server *s, const char *name, struct harness_player *p)
{
  struct harness_response r;
  json_t *body = json_pack("{s:s}", "name", name);
  harness_call_json(s, &r, "POST", NULL, body, "/v1/players");
  json_decref(body);
  HARNESS_EXPECT_JSON(&r, 201);
  copy_str(p->id, sizeof p->id, json_string_value(json_object_get(r.json, "id")), "player id");
  copy_str(p->name, sizeof p->name, json_string_value(json_object_get(r.json, "name")),
           "player name");
  copy_str(p->token, sizeof p->token, json_string_value(json_object_get(r.json, "token")),
           "player token");
  harness_response_free(&r);
}

json_t *harness_new_game(struct harness_server *s, const char *token, const char *title, int seats,
                         const char *options_json)
{
  struct harness_response r;
  char body[1024];
  if (options_json)
    snprintf(body, sizeof body, "{\"title\":\"%s\",\"seats\":%d,\"options\":%s}", title, seats,
             options_json);
  else
    snprintf(body, sizeof body, "{\"title\":\"%s\",\"seats\":%d}", title, seats);
  harness_call(s, &r, "POST", token, body, "/v1/games");
  HARNESS_EXPECT_JSON(&r, 201);
  const char *status = json_string_value(json_object_get(r.json, "status"));
  if (!status || strcmp(status, "open") != 0)
    harness_fail_response(&r, __FILE__, __LINE__, "a new game is not 'open'");
  if (!json_is_string(json_object_get(r.json, "id")))
    harness_fail_response(&r, __FILE__, __LINE__, "a new game has no id");
  json_t *game = json_incref(r.json);
  harness_response_free(&r);
  return game;
}

int harness_join(struct harness_server *s, const char *token, const char *game_id, int seat)
{
  struct harness_response r;
  char body[64];
  if (seat >= 0)
    snprintf(body, sizeof body, "{\"seat\":%d}", seat);
  harness_call(s, &r, "POST", token, seat >= 0 ? body : NULL, "/v1/games/%s/join", game_id);
  HARNESS_EXPECT_JSON(&r, 200);
  json_t *got = json_object_get(r.json, "seat");
  if (!json_is_integer(got))
    harness_fail_response(&r, __FILE__, __LINE__, "join answer has no integer 'seat'");
  int result = (int)json_integer_value(got);
  if (seat >= 0 && result != seat)
    harness_fail_response(&r, __FILE__, __LINE__, "asked for seat %d", seat);
  harness_response_free(&r);
  return result;
}

json_t *harness_get_json(struct harness_server *s, const char *token, const char *path_fmt, ...)
{
  struct harness_response r;
  json_t *body;
  va_list ap;

  va_start(ap, path_fmt);
  vcall(s, &r, "GET", token, NULL, 0, path_fmt, ap);
  va_end(ap);
  HARNESS_EXPECT_JSON(&r, 200);
  body = json_incref(r.json);
  harness_response_free(&r);
  return body;
}

json_t *harness_get_game(struct harness_server *s, const char *token, const char *game_id)
{
  return harness_get_json(s, token, "/v1/games/%s", game_id);
}

json_t *harness_get_log(struct harness_server *s, const char *token, const char *game_id, long from)
{
  struct harness_response r;
  json_t *log = NULL;
  long from_ord = 0;

  /* The log comes in pages (api/README.md): follow `next` to the end. */
  for (;;) {
    harness_call(s, &r, "GET", token, NULL, "/v1/games/%s/log?from=%ld&from_ord=%ld", game_id, from,
                 from_ord);
    HARNESS_EXPECT_JSON(&r, 200);
    if (!log)
      log = json_incref(r.json);
    else
      json_array_extend(json_object_get(log, "events"), json_object_get(r.json, "events"));
    if (!json_is_integer(json_object_get(r.json, "next"))) {
      harness_response_free(&r);
      break;
    }
    from_ord = (long)json_integer_value(json_object_get(r.json, "next"));
    harness_response_free(&r);
  }
  json_object_set_new(log, "next", json_null());
  return log;
}

void harness_post_move(struct harness_server *s, struct harness_response *out, const char *token,
                       const char *game_id, long seq, const json_t *move)
{
  json_t *body = json_pack("{s:I,s:O}", "seq", (json_int_t)seq, "move", move);
  harness_call_json(s, out, "POST", token, body, "/v1/games/%s/moves", game_id);
  json_decref(body);
}

const char *harness_game_id(const json_t *game)
{
  const char *id = json_string_value(json_object_get(game, "id"));
  if (!id)
    fail_msg("game resource has no string 'id'");
  return id;
}

long harness_int(const json_t *obj, const char *key)
{
  json_t *v = json_object_get(obj, key);
  if (!json_is_integer(v)) {
    char *text = json_dumps(obj, JSON_COMPACT);
    print_error("member '%s' is missing or not an integer in %.800s\n", key, text ? text : "?");
    free(text);
    fail();
  }
  return (long)json_integer_value(v);
}

const char *harness_str(const json_t *obj, const char *key)
{
  const char *v = json_string_value(json_object_get(obj, key));
  if (!v) {
    char *text = json_dumps(obj, JSON_COMPACT);
    print_error("member '%s' is missing or not a string in %.800s\n", key, text ? text : "?");
    free(text);
    fail();
  }
  return v;
}

bool harness_may_act(const json_t *game, int seat)
{
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(game, "to_act"), i, v)
  {
    if (json_is_integer(v) && json_integer_value(v) == seat)
      return true;
  }
  return false;
}

bool harness_has_event(const json_t *answer, const char *type)
{
  const json_t *ev;
  size_t i;

  json_array_foreach(json_object_get(answer, "events"), i, ev)
  {
    if (json_is_string(json_object_get(ev, "type")) &&
        strcmp(json_string_value(json_object_get(ev, "type")), type) == 0)
      return true;
  }
  return false;
}

void harness_expect_verifies(struct harness_server *s, const char *game_id)
{
  struct harness_response r;

  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/verify", game_id);
  HARNESS_EXPECT_JSON(&r, 200);
  if (!json_is_true(json_object_get(r.json, "ok")) ||
      !json_is_true(json_object_get(json_object_get(r.json, "chain"), "ok")) ||
      !json_is_true(json_object_get(json_object_get(r.json, "replay"), "ok")))
    harness_fail_response(&r, __FILE__, __LINE__, "game %s does not verify", game_id);
  harness_response_free(&r);
}

char *harness_dump(const json_t *j)
{
  return json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* ---- splitmix64 ---- */

uint64_t harness_rng_next(struct harness_rng *r)
{
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t harness_rng_below(struct harness_rng *r, uint64_t n)
{
  return harness_rng_next(r) % n;
}

/* Set the member `pointer` (a JSON pointer of plain segments) of `move`
 * to `value` (borrowed), making a missing container an array when the
 * segment after it is an index: Choices' rule (openapi/base.yaml). */
static void put_member(json_t *move, const char *pointer, const json_t *value)
{
  char path[128], *segment = path, *next;
  json_t *at = move, *child;

  assert_true(pointer[0] == '/' && strlen(pointer) < sizeof path);
  snprintf(path, sizeof path, "%s", pointer + 1);
  while ((next = strchr(segment, '/'))) {
    *next++ = '\0';
    child = json_is_array(at) ? json_array_get(at, strtoul(segment, NULL, 10))
                              : json_object_get(at, segment);
    if (!child) {
      child = (*next >= '0' && *next <= '9') ? json_array() : json_object();
      if (json_is_array(at))
        json_array_append_new(at, child);
      else
        json_object_set_new(at, segment, child);
    }
    at = child;
    segment = next;
  }
  if (json_is_array(at))
    json_array_append(at, (json_t *)value);
  else
    json_object_set(at, segment, (json_t *)value);
}

/* The reference walker of openapi/base.yaml's Choices, in C: a random
 * option of each node, every part of an "all", into `move`. */
static void walk_choices(const json_t *node, json_t *move, struct harness_rng *rng)
{
  const json_t *parts = json_object_get(node, "all"), *options, *option, *then;
  size_t i;

  if (parts) {
    for (i = 0; i < json_array_size(parts); i++)
      walk_choices(json_array_get(parts, i), move, rng);
    return;
  }
  options = json_object_get(node, "options");
  assert_true(json_array_size(options) > 0);
  option = json_array_get(options, harness_rng_below(rng, json_array_size(options)));
  put_member(move, harness_str(node, "choose"), json_object_get(option, "value"));
  then = json_object_get(option, "then");
  if (then && !(json_is_true(json_object_get(option, "done")) && harness_rng_below(rng, 2)))
    walk_choices(then, move, rng);
}

json_t *harness_walk_choices(const json_t *choices, struct harness_rng *rng)
{
  json_t *move = json_object();

  assert_true(json_is_object(choices));
  walk_choices(choices, move, rng);
  return move;
}

json_t *harness_choose_move(const json_t *mine, struct harness_rng *rng)
{
  return harness_walk_choices(json_object_get(mine, "choices"), rng);
}

void harness_expect_title(struct harness_server *s, const char *id, const char *name, int min_seats,
                          int max_seats, const char *rules_version)
{
  struct harness_response r;
  json_t *t;
  size_t i;
  bool found = false;

  harness_call(s, &r, "GET", NULL, NULL, "/v1/titles");
  HARNESS_EXPECT_JSON(&r, 200);
  json_array_foreach(r.json, i, t)
  {
    if (strcmp(harness_str(t, "id"), id) != 0)
      continue;
    found = true;
    assert_string_equal(harness_str(t, "name"), name);
    assert_int_equal(harness_int(t, "min_seats"), min_seats);
    assert_int_equal(harness_int(t, "max_seats"), max_seats);
    assert_string_equal(harness_str(t, "rules_version"), rules_version);
  }
  if (!found)
    harness_fail_response(&r, __FILE__, __LINE__, "%s is not in the catalog", id);
  harness_response_free(&r);
}

int harness_run_tool(const char *args, json_t **out)
{
  char cmd[1024];
  FILE *p;
  int status;
  json_error_t jerr;

  snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", getenv("CAIRN_SERVER"), args);
  p = popen(cmd, "r");
  assert_non_null(p);
  *out = json_loadf(p, JSON_DISABLE_EOF_CHECK, &jerr);
  status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
