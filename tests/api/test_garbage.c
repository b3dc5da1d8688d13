/*
 * test_garbage.c - hostile and broken input over HTTP and over a bare TCP
 * socket. Whatever arrives, the server answers with a well-formed HTTP
 * response (a 4xx problem+json for a bad request, never a 5xx), keeps
 * serving, and stores nothing ("A rejected request never changes stored
 * state", shared/design/api.md). Inputs come from a fixed-seed generator, so
 * a failure names a case that reruns identically.
 *
 * The table: players P0 and P1 seated in the active game G (two moves
 * played), P0 alone in the open game O, and C seated nowhere. Mutated copies
 * of valid move bodies carry a seq far in the future, so no mutation can
 * turn one into an acceptable move; every other endpoint that could store
 * something (players, games) stores it outside G and O, which are compared
 * before and after.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tests/api/harness.h"

#define RANDOM_REQUESTS 2500
#define RAW_CONNECTIONS 150
#define MAX_REPORTED    10 /* failures printed in full; the rest are counted */

static struct {
  struct harness_server *s;
  struct harness_player p0, p1, c;
  char g[64], o[64];
  long seq;
  json_t *legal_move; /* legal for G's mover at seq */
  const char *mover;  /* token */
  json_t *before;     /* the snapshot taken by setup */
  int failures;
  int statuses[600]; /* how often each status answered a curl-made request */
} t;

static json_t *snapshot(void)
{
  json_t *snap = json_array();
  const char *viewers[] = {NULL, t.p0.token, t.p1.token, t.c.token};
  for (size_t i = 0; i < sizeof viewers / sizeof *viewers; i++) {
    json_array_append_new(snap, harness_get_game(t.s, viewers[i], t.g));
    json_array_append_new(snap, harness_get_game(t.s, viewers[i], t.o));
  }
  json_array_append_new(snap, harness_get_log(t.s, NULL, t.g, 0));
  return snap;
}

static void refresh_mover(void)
{
  json_t *pub = harness_get_game(t.s, NULL, t.g);
  int seat = (int)json_integer_value(json_array_get(json_object_get(pub, "to_act"), 0));
  t.seq = harness_int(pub, "seq");
  json_decref(pub);
  t.mover = seat == 0 ? t.p0.token : t.p1.token;
  json_t *mine = harness_get_game(t.s, t.mover, t.g);
  json_decref(t.legal_move);
  t.legal_move = json_incref(json_array_get(json_object_get(mine, "legal"), 0));
  json_decref(mine);
  assert_non_null(t.legal_move);
}

static int setup_table(void **state)
{
  memset(&t, 0, sizeof t);
  if (harness_setup(state) != 0)
    return -1;
  t.s = *state;
  harness_new_player(t.s, "P0", &t.p0);
  harness_new_player(t.s, "P1", &t.p1);
  harness_new_player(t.s, "C", &t.c);
  json_t *g = harness_new_game(t.s, t.p0.token, "himalaya", 2, NULL);
  snprintf(t.g, sizeof t.g, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(t.s, t.p0.token, t.g, 0);
  harness_join(t.s, t.p1.token, t.g, 1);
  json_t *o = harness_new_game(t.s, t.p0.token, "himalaya", 2, NULL);
  snprintf(t.o, sizeof t.o, "%s", harness_game_id(o));
  json_decref(o);
  harness_join(t.s, t.p0.token, t.o, 0);
  for (int i = 0; i < 2; i++) {
    refresh_mover();
    struct harness_response r;
    harness_post_move(t.s, &r, t.mover, t.g, t.seq, t.legal_move);
    HARNESS_EXPECT_JSON(&r, 200);
    harness_response_free(&r);
  }
  refresh_mover();
  t.before = snapshot();
  return 0;
}

static int teardown_table(void **state)
{
  json_decref(t.legal_move);
  json_decref(t.before);
  t.legal_move = NULL;
  t.before = NULL;
  return harness_teardown(state);
}

/* ---- Checking one answer ---- */

/* A short printable rendering of `len` bytes, for messages. */
static void render(char *out, size_t n, const void *data, size_t len)
{
  const unsigned char *p = data;
  size_t o = 0;
  for (size_t i = 0; i < len && o + 5 < n; i++) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
      out[o++] = (char)p[i];
    else
      o += (size_t)snprintf(out + o, n - o, "\\x%02x", p[i]);
  }
  if (o < n)
    out[o] = '\0';
  if (o + 5 >= n)
    snprintf(out + n - 5, 5, "...");
}

static void report(const char *label, const struct harness_request *req,
                   const struct harness_response *r, const char *why)
{
  t.failures++;
  if (t.failures > MAX_REPORTED)
    return;
  char body[400];
  render(body, sizeof body, req && req->body ? req->body : "",
         req && req->body ? req->body_len : 0);
  print_error("[%s] %s\n  request: %s %.300s\n  request body: %s\n  answer: %ld %s: %.400s\n",
              label, why, req ? req->method : "", req ? req->path : "", body, r ? r->status : 0,
              r && r->content_type ? r->content_type : "(no type)", r && r->body ? r->body : "");
}

/* The rules every answer to a curl-made (well-formed HTTP) request obeys. */
static void check_answer(const char *label, const struct harness_request *req,
                         const struct harness_response *r, bool sent)
{
  if (!sent) {
    report(label, req, r, r->error[0] ? r->error : "no HTTP response");
    return;
  }
  if (r->status >= 500) {
    report(label, req, r, "5xx answer to a client's mistake");
    return;
  }
  if (r->status >= 400) {
    const char *code = json_string_value(json_object_get(r->json, "code"));
    json_t *st = json_object_get(r->json, "status");
    if (!harness_media_type_is(r->content_type, "application/problem+json") || !code ||
        !json_is_string(json_object_get(r->json, "type")) ||
        !json_is_string(json_object_get(r->json, "title")) ||
        !json_is_string(json_object_get(r->json, "detail")) || !json_is_integer(st) ||
        json_integer_value(st) != r->status)
      report(label, req, r, "4xx answer is not a complete problem+json");
    return;
  }
  if (r->status < 200) {
    report(label, req, r, "not a final status");
    return;
  }
  /* A 2xx with a body is JSON, except the OpenAPI text and the web
   * client's files (every path outside /v1/). */
  if (r->body_len && !strstr(req->path, "openapi") && strncmp(req->path, "/v1/", 4) == 0 &&
      !r->json)
    report(label, req, r, "2xx answer with a body that is not JSON");
}

static void send_and_check(const char *label, const struct harness_request *req)
{
  struct harness_response r;
  bool sent = harness_send(&t.s->client, req, &r);
  /* curl refuses some URLs itself; nothing reached the server. */
  if (!sent && strstr(r.error, "URL")) {
    harness_response_free(&r);
    return;
  }
  check_answer(label, req, &r, sent);
  if (r.status > 0 && r.status < 600)
    t.statuses[r.status]++;
  harness_response_free(&r);
}

/* One line naming each status seen since the last call, to show what the
 * inputs reached. */
static void print_statuses(void)
{
  char line[512];
  size_t o = 0;
  for (int i = 0; i < 600; i++)
    if (t.statuses[i] && o + 16 < sizeof line)
      o += (size_t)snprintf(line + o, sizeof line - o, " %d:%d", i, t.statuses[i]);
  line[o] = '\0';
  print_message("answers (status:count):%s\n", line);
  memset(t.statuses, 0, sizeof t.statuses);
}

static void finish(void)
{
  /* Still serving, and nothing stored. */
  struct harness_response r;
  harness_call(t.s, &r, "GET", NULL, NULL, "/v1/health");
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  json_t *after = snapshot();
  if (!json_equal(t.before, after)) {
    char *a = harness_dump(t.before);
    char *b = harness_dump(after);
    print_error("stored state changed\n  before: %.2000s\n  after:  %.2000s\n", a, b);
    free(a);
    free(b);
    json_decref(after);
    fail();
  }
  json_decref(after);
  int failures = t.failures;
  t.failures = 0;
  if (failures)
    fail_msg("%d answer(s) broke the rules (first %d shown above)", failures, MAX_REPORTED);
}

/* ---- Generators ---- */

static struct harness_rng rng;

static uint64_t below(uint64_t n)
{
  return harness_rng_below(&rng, n);
}

struct endpoint {
  const char *method;
  char path[160];
};

static size_t endpoints(struct endpoint *e)
{
  size_t n = 0;
#define EP(m, ...) (e[n].method = (m), snprintf(e[n].path, sizeof e[n].path, __VA_ARGS__), n++)
  EP("POST", "/v1/players");
  EP("GET", "/v1/titles");
  EP("POST", "/v1/games");
  EP("GET", "/v1/games/%s", t.g);
  EP("GET", "/v1/games/%s?at=1", t.g);
  EP("GET", "/v1/games/%s", t.o);
  EP("POST", "/v1/games/%s/join", t.g);
  EP("POST", "/v1/games/%s/join", t.o);
  EP("POST", "/v1/games/%s/moves", t.g);
  EP("POST", "/v1/games/%s/moves", t.o);
  EP("GET", "/v1/games/%s/log?from=0", t.g);
  EP("GET", "/v1/health");
  EP("GET", "/v1/openapi.yaml");
#undef EP
  return n;
}

/* Mostly valid tokens, so that bad bodies get past the auth check, but
 * never one that could change G or O through the given path: P1 or C could
 * take O's free seat, so any path naming O only ever sees P0's or worthless
 * tokens. */
static const char *pick_token(const char *path, char *junk, size_t junk_len)
{
  bool o_path = strstr(path, t.o) != NULL;
  switch (below(10)) {
  case 0:
    return NULL;
  case 1:
    return "cairn_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  case 2:
    for (size_t i = 0; i + 1 < junk_len; i++)
      junk[i] = (char)(0x21 + below(0x5e));
    junk[junk_len - 1] = '\0';
    return junk;
  case 3:
  case 4:
  case 5:
    return t.p0.token;
  case 6:
  case 7:
    return o_path ? t.p0.token : t.p1.token;
  default:
    return o_path ? t.p0.token : t.c.token;
  }
}

static size_t random_bytes(unsigned char *buf, size_t max)
{
  size_t len = below(max + 1);
  for (size_t i = 0; i < len; i++)
    buf[i] = (unsigned char)below(256);
  return len;
}

/* Flip, insert, delete, duplicate or truncate a few times. */
static size_t mutate(unsigned char *buf, size_t len, size_t cap)
{
  int ops = 1 + (int)below(4);
  for (int k = 0; k < ops; k++) {
    size_t at = len ? below(len) : 0;
    switch (below(5)) {
    case 0:
      if (len)
        buf[at] = (unsigned char)below(256);
      break;
    case 1:
      if (len + 1 < cap) {
        memmove(buf + at + 1, buf + at, len - at);
        buf[at] =
            below(2) ? (unsigned char)below(256) : (unsigned char)"{}[]\",:0123456789\\"[below(18)];
        len++;
      }
      break;
    case 2:
      if (len) {
        memmove(buf + at, buf + at + 1, len - at - 1);
        len--;
      }
      break;
    case 3: {
      size_t n = len - at < 8 ? len - at : 8;
      if (len + n < cap) {
        memmove(buf + at + n, buf + at, len - at);
        len += n;
      }
      break;
    }
    default:
      len = at;
      break;
    }
  }
  return len;
}

/* OUT, caller frees with free(): a valid body for the endpoint, except that a
 * move carries a seq no mutation can bring back to the current one. */
static char *valid_body(const struct endpoint *e)
{
  char *m = harness_dump(t.legal_move);
  char *b = malloc(strlen(m) + 128);
  assert_non_null(b);
  if (strstr(e->path, "/moves"))
    sprintf(b, "{\"seq\":77777777,\"move\":%s}", m);
  else if (strstr(e->path, "/join"))
    sprintf(b, "{\"seat\":%d}", strstr(e->path, t.o) ? 0 : 1);
  else if (strcmp(e->path, "/v1/games") == 0)
    sprintf(b, "{\"title\":\"himalaya\",\"seats\":2,\"options\":{}}");
  else
    sprintf(b, "{\"name\":\"fuzz\"}");
  free(m);
  return b;
}

static const char *const METHODS[] = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "FROB"};

static void random_path(char *out, size_t n, const struct endpoint *e)
{
  static const char safe[] = "abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?";
  size_t o = 0;
  const char *base = below(2) ? e->path : "/v1/";
  size_t keep = below(strlen(base) + 1);
  if (keep == 0)
    keep = 1; /* always start with "/" */
  o = (size_t)snprintf(out, n, "%.*s", (int)keep, base);
  size_t extra = below(40);
  for (size_t i = 0; i < extra && o + 4 < n; i++) {
    if (below(4) == 0)
      o += (size_t)snprintf(out + o, n - o, "%%%02X", (unsigned)below(256));
    else
      out[o++] = safe[below(sizeof safe - 1)];
  }
  out[o] = '\0';
}

/* ---- The tests ---- */

/* Random bytes, mutated valid bodies, random paths, methods and headers
 * sent to every endpoint. */
static void test_random_requests_get_well_formed_answers_and_store_nothing(void **state)
{
  rng.state = 0xfeedface;
  struct endpoint eps[16];
  size_t n_eps = endpoints(eps);
  unsigned char body[1024];
  char junk[48], path[400], label[64], hname[40], hvalue[120], hline[200];
  char ctype[80];

  for (int i = 0; i < RANDOM_REQUESTS; i++) {
    const struct endpoint *e = &eps[below(n_eps)];
    struct harness_request req = {.method = e->method, .path = e->path};
    const char *headers[3] = {NULL, NULL, NULL};
    size_t len = 0;
    int kind = (int)below(5);
    snprintf(label, sizeof label, "random #%d kind %d", i, kind);

    if (kind == 0) { /* random bytes as the body */
      len = random_bytes(body, 300);
    } else if (kind == 1) { /* a valid body, mutated */
      char *v = valid_body(e);
      len = strlen(v);
      memcpy(body, v, len);
      free(v);
      len = mutate(body, len, sizeof body);
    } else if (kind == 2) { /* random path and method */
      random_path(path, sizeof path, e);
      req.path = path;
      req.method = METHODS[below(sizeof METHODS / sizeof *METHODS)];
      if (below(2))
        len = random_bytes(body, 64);
    } else if (kind == 3) { /* random headers, with a valid body */
      char *v = valid_body(e);
      len = strlen(v);
      memcpy(body, v, len);
      free(v);
      size_t hn = 1 + below(12);
      for (size_t k = 0; k < hn; k++)
        hname[k] =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_!#$%&'*+.^`|~"[below(
                77)];
      hname[hn] = '\0';
      size_t vn = below(100);
      for (size_t k = 0; k < vn; k++)
        hvalue[k] = (char)(0x21 + below(0x5e));
      hvalue[vn] = '\0';
      /* Framing headers would desynchronise curl itself; those are
       * exercised over the raw socket instead. */
      if (strncasecmp(hname, "content-length", 14) && strncasecmp(hname, "transfer-encoding", 17) &&
          strncasecmp(hname, "host", 4) && strncasecmp(hname, "connection", 10) &&
          strncasecmp(hname, "expect", 6) && strncasecmp(hname, "content-type", 12)) {
        snprintf(hline, sizeof hline, "%s: %s", hname, hvalue);
        headers[0] = hline;
      }
      static const char *const types[] = {"application/json",
                                          "text/plain",
                                          "application/jsonx",
                                          "application/json; charset=latin1",
                                          "*/*",
                                          ""};
      snprintf(ctype, sizeof ctype, "Content-Type: %s", types[below(6)]);
      headers[headers[0] ? 1 : 0] = ctype;
      req.headers = headers;
    } else { /* a random Authorization header */
      char *v = valid_body(e);
      len = strlen(v);
      memcpy(body, v, len);
      free(v);
      static const char *const schemes[] = {"Bearer ", "bearer ",  "Basic ",
                                            "",        "Bearer  ", "Token "};
      size_t vn = below(80);
      for (size_t k = 0; k < vn; k++)
        hvalue[k] = (char)(0x21 + below(0x5e));
      hvalue[vn] = '\0';
      snprintf(hline, sizeof hline, "Authorization: %s%s", schemes[below(6)], hvalue);
      headers[0] = hline;
      req.headers = headers;
    }
    if (len || strcmp(req.method, "GET"))
      req.body = body, req.body_len = len;
    if (kind != 4)
      req.token = pick_token(req.path, junk, sizeof junk);
    send_and_check(label, &req);
    if (i % 500 == 499 && !harness_alive(t.s))
      fail_msg("the server died by %s", label);
  }
  print_statuses();
  finish();
}

static void send_body(const char *label, const char *method, const char *path, const char *token,
                      const void *body, size_t len)
{
  struct harness_request req = {
      .method = method, .path = path, .token = token, .body = body, .body_len = len};
  send_and_check(label, &req);
}

/* Every proper prefix of a valid move (with the current seq) is broken JSON. */
static void test_truncated_json_is_refused(void **state)
{
  char path[128], label[64];
  snprintf(path, sizeof path, "/v1/games/%s/moves", t.g);
  char *m = harness_dump(t.legal_move);
  char body[1024];
  int len = snprintf(body, sizeof body, "{\"seq\":%ld,\"move\":%s}", t.seq, m);
  free(m);
  for (int cut = 0; cut < len; cut++) {
    snprintf(label, sizeof label, "prefix of %d bytes", cut);
    struct harness_response r;
    struct harness_request req = {
        .method = "POST", .path = path, .token = t.mover, .body = body, .body_len = (size_t)cut};
    bool sent = harness_send(&t.s->client, &req, &r);
    check_answer(label, &req, &r, sent);
    if (sent && r.status != 400)
      report(label, &req, &r, "a truncated body is not a 400");
    harness_response_free(&r);
  }
  finish();
}

/* Deep nesting must neither crash the parser nor be stored: 100000 '['
 * is over the 64 KiB cap (413), 60000 is under it (400). */
static void test_deeply_nested_json_is_refused(void **state)
{
  char path[128];
  snprintf(path, sizeof path, "/v1/games/%s/moves", t.g);
  size_t depths[] = {100000, 60000, 5000};
  char *buf = malloc(2 * 100000 + 64);
  assert_non_null(buf);
  for (size_t i = 0; i < sizeof depths / sizeof *depths; i++) {
    size_t d = depths[i];
    memset(buf, '[', d);
    send_body("nested [", "POST", path, t.mover, buf, d);
    send_body("nested [ (players)", "POST", "/v1/players", NULL, buf, d);
    /* Balanced, inside the move member: valid JSON, absurd shape. */
    if (d <= 30000) {
      int o = sprintf(buf, "{\"seq\":%ld,\"move\":", t.seq);
      memset(buf + o, '[', d);
      memset(buf + o + d, ']', d);
      buf[o + 2 * d] = '}';
      send_body("balanced nesting in move", "POST", path, t.mover, buf, o + 2 * d + 1);
      o = sprintf(buf, "{\"name\":");
      for (size_t k = 0; k < d / 5; k++)
        memcpy(buf + o + 5 * k, "{\"a\":", 5);
      o += (int)(d / 5 * 5);
      buf[o++] = '1';
      memset(buf + o, '}', d / 5 + 1);
      send_body("nested objects as name", "POST", "/v1/players", NULL, buf, o + d / 5 + 1);
    }
  }
  free(buf);
  finish();
}

/* Numbers jansson cannot hold, and odd ones it can. */
static void test_huge_and_odd_numbers_are_refused(void **state)
{
  char path[128], body[512];
  snprintf(path, sizeof path, "/v1/games/%s/moves", t.g);
  const char *numbers[] = {"1e999",
                           "-1e999",
                           "99999999999999999999999999",
                           "-9223372036854775809",
                           "9223372036854775807",
                           "-1",
                           "1e2",
                           "2.5",
                           "-0",
                           "0.0",
                           "NaN",
                           "Infinity",
                           "0x1",
                           "01",
                           "1E400"};
  char *m = harness_dump(t.legal_move);
  for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
    snprintf(body, sizeof body, "{\"seq\":%s,\"move\":%s}", numbers[i], m);
    send_body(numbers[i], "POST", path, t.mover, body, strlen(body));
    json_t *mv = json_deep_copy(t.legal_move);
    char *raw = NULL;
    json_object_set_new(mv, "value", json_string("@@"));
    raw = harness_dump(mv);
    char *at = strstr(raw, "\"@@\"");
    if (at) {
      snprintf(body, sizeof body, "{\"seq\":%ld,\"move\":%.*s%s%s}", t.seq, (int)(at - raw), raw,
               numbers[i], at + 4);
      send_body(numbers[i], "POST", path, t.mover, body, strlen(body));
    }
    free(raw);
    json_decref(mv);
    snprintf(body, sizeof body, "{\"title\":\"himalaya\",\"seats\":%s}", numbers[i]);
    send_body(numbers[i], "POST", "/v1/games", t.c.token, body, strlen(body));
    snprintf(body, sizeof body, "{\"seat\":%s}", numbers[i]);
    snprintf(path, sizeof path, "/v1/games/%s/join", t.g);
    send_body(numbers[i], "POST", path, t.c.token, body, strlen(body));
    snprintf(path, sizeof path, "/v1/games/%s?at=%s", t.g, numbers[i]);
    send_body(numbers[i], "GET", path, NULL, NULL, 0);
    snprintf(path, sizeof path, "/v1/games/%s/moves", t.g);
  }
  free(m);
  finish();
}

/* Strings that are not UTF-8, and NUL bytes raw, escaped and in the URL. */
static void test_invalid_utf8_and_nul_bytes_are_refused(void **state)
{
  char moves[128], path[256];
  snprintf(moves, sizeof moves, "/v1/games/%s/moves", t.g);
  static const char *const bad[] = {"\xff",         "\xc0\xaf", "\xed\xa0\x80", "\xf5\x80\x80\x80",
                                    "\x80",         "\xe2\x82", "\\ud800",      "\\udc00x",
                                    "\xf0\x9f\x98", "\xc3\x28"};
  char body[256];
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int len = snprintf(body, sizeof body, "{\"name\":\"a%sb\"}", bad[i]);
    send_body(bad[i], "POST", "/v1/players", NULL, body, (size_t)len);
    len = snprintf(body, sizeof body, "{\"seq\":%ld,\"move\":{\"type\":\"die%s\"}}", t.seq, bad[i]);
    send_body(bad[i], "POST", moves, t.mover, body, (size_t)len);
    len = snprintf(body, sizeof body, "{\"title\":\"hima%slaya\",\"seats\":2}", bad[i]);
    send_body(bad[i], "POST", "/v1/games", t.c.token, body, (size_t)len);
  }
  /* Raw NULs: inside a string, between members, before everything. */
  static const char nul1[] = "{\"name\":\"a\0b\"}";
  static const char nul2[] = "{\"name\":\"ab\"}\0";
  static const char nul3[] = "\0{\"name\":\"ab\"}";
  send_body("raw NUL in string", "POST", "/v1/players", NULL, nul1, sizeof nul1 - 1);
  send_body("NUL after body", "POST", "/v1/players", NULL, nul2, sizeof nul2 - 1);
  send_body("NUL before body", "POST", "/v1/players", NULL, nul3, sizeof nul3 - 1);
  int len = snprintf(body, sizeof body, "{\"seq\":%ld,\"move\":{\"type\":\"die\\u0000\"}}", t.seq);
  send_body("escaped NUL in move", "POST", moves, t.mover, body, (size_t)len);
  send_body("escaped NUL in name", "POST", "/v1/players", NULL, "{\"name\":\"a\\u0000b\"}", 20);
  /* NUL and other bytes percent-encoded in paths and queries. */
  static const char *const paths[] = {"/v1/games/%s%%00",   "/v1/games/%s?at=0%%00",
                                      "/v1%%00/titles",     "/v1/games/%s/log?from=%%00",
                                      "/v1/games/%%ff%%fe", "/v1/games/%s/moves%%00"};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    snprintf(path, sizeof path, paths[i], t.g);
    send_body("encoded bytes in path", "GET", path, NULL, NULL, 0);
    send_body("encoded bytes in path", "POST", path, t.mover, "{}", 2);
  }
  finish();
}

/* ---- Raw TCP ---- */

static int connect_raw(void)
{
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_true(fd >= 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)t.s->port)};
  assert_int_equal(inet_pton(AF_INET, t.s->host, &a.sin_addr), 1);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
    fail_msg("connect to %s:%d: %s", t.s->host, t.s->port, strerror(errno));
  return fd;
}

static long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One raw connection: what is sent and what came back. */
struct raw_case {
  char label[48];
  char *data; /* OUT: freed by run_raw */
  size_t len;
  int allowed_5xx; /* the one 5xx that is the right answer for this input, or 0 */
  int fd;
  char *reply; /* OUT: freed by run_raw */
  size_t got;
  bool open;
};

#define REPLY_CAP 65536

static void raw_add(struct raw_case *c, size_t *n, const char *label, const void *data, size_t len,
                    int allowed_5xx)
{
  struct raw_case *x = &c[(*n)++];
  memset(x, 0, sizeof *x);
  snprintf(x->label, sizeof x->label, "%s", label);
  x->data = malloc(len ? len : 1);
  assert_non_null(x->data);
  memcpy(x->data, data, len);
  x->len = len;
  x->allowed_5xx = allowed_5xx;
  x->fd = -1;
}

/* Open every connection, send each its bytes and half-close, then read all
 * answers together until every connection is closed or 2 s have passed. A
 * server may keep a half-closed connection open until its own timeout, so
 * waiting for them one by one would take minutes. */
static void run_raw(struct raw_case *c, size_t n)
{
  struct timeval send_limit = {.tv_sec = 2};
  for (size_t i = 0; i < n; i++) {
    c[i].fd = connect_raw();
    c[i].reply = calloc(1, REPLY_CAP);
    assert_non_null(c[i].reply);
    c[i].open = true;
    setsockopt(c[i].fd, SOL_SOCKET, SO_SNDTIMEO, &send_limit, sizeof send_limit);
    size_t sent = 0;
    while (sent < c[i].len) {
      ssize_t k = send(c[i].fd, c[i].data + sent, c[i].len - sent, MSG_NOSIGNAL);
      if (k <= 0)
        break; /* the server may hang up before reading it all */
      sent += (size_t)k;
    }
    shutdown(c[i].fd, SHUT_WR);
  }

  struct pollfd *pfd = calloc(n, sizeof *pfd);
  size_t *which = calloc(n, sizeof *which);
  assert_non_null(pfd);
  assert_non_null(which);
  long deadline = now_ms() + 2000;
  for (;;) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (c[i].open) {
        pfd[m] = (struct pollfd){.fd = c[i].fd, .events = POLLIN};
        which[m++] = i;
      }
    long left = deadline - now_ms();
    if (m == 0 || left <= 0)
      break;
    if (poll(pfd, m, (int)left) <= 0)
      continue;
    for (size_t k = 0; k < m; k++) {
      if (!pfd[k].revents)
        continue;
      struct raw_case *x = &c[which[k]];
      ssize_t got = recv(x->fd, x->reply + x->got, REPLY_CAP - 1 - x->got, 0);
      if (got <= 0 || (x->got += (size_t)got) + 1 >= REPLY_CAP)
        x->open = false;
    }
  }
  free(pfd);
  free(which);

  for (size_t i = 0; i < n; i++) {
    struct raw_case *x = &c[i];
    close(x->fd);
    x->reply[x->got] = '\0';
    char shown[300];
    render(shown, sizeof shown, x->data, x->len);
    int status = 0;
    /* Nothing at all is a fair answer to garbage: the server hung up. */
    if (x->got && (sscanf(x->reply, "HTTP/1.%*1[01] %3d", &status) != 1 || status < 100)) {
      if (++t.failures <= MAX_REPORTED)
        print_error("[%s] not an HTTP response\n  sent: %s\n  got: %.200s\n", x->label, shown,
                    x->reply);
    } else if (status >= 500 && status != x->allowed_5xx) {
      if (++t.failures <= MAX_REPORTED)
        print_error("[%s] %d answer\n  sent: %s\n  got: %.300s\n", x->label, status, shown,
                    x->reply);
    } else if (status >= 400 &&
               !strcasestr(x->reply, "\r\nContent-Type: application/problem+json")) {
      /* Every error answer, the HTTP library's own included, is a problem. */
      if (++t.failures <= MAX_REPORTED)
        print_error("[%s] %d answer not problem+json\n  sent: %s\n  got: %.300s\n", x->label,
                    status, shown, x->reply);
    }
    free(x->data);
    free(x->reply);
  }
}

static void test_raw_garbage_over_tcp_is_survived(void **state)
{
  rng.state = 0xdeadbeef;
  size_t cap = RAW_CONNECTIONS + 32, n = 0;
  struct raw_case *c = calloc(cap, sizeof *c);
  assert_non_null(c);
  char label[64];
  unsigned char buf[2048];
  for (int i = 0; i < RAW_CONNECTIONS; i++) {
    size_t len = random_bytes(buf, 1000);
    snprintf(label, sizeof label, "raw random #%d", i);
    if (i % 2) {
      /* End in a blank line, so a server waiting for headers must decide. */
      memcpy(buf + len, "\r\n\r\n", 4);
      len += 4;
    }
    raw_add(c, &n, label, buf, len, 0);
  }

  char moves_req[512];
  snprintf(moves_req, sizeof moves_req,
           "POST /v1/games/%s/moves HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
           "Content-Type: application/json\r\n",
           t.g, t.mover);
  struct {
    const char *label;
    const char *head;
    const char *tail;
    int allowed_5xx;
  } cases[] = {
      {"not HTTP", "hello\r\n\r\n", "", 0},
      {"no version", "GET /v1/health\r\n\r\n", "", 0},
      /* RFC 9110 15.6.6: 505 is the answer to an unsupported major version. */
      {"bad version", "GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n", "", 505},
      {"lower-case method", "get /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", "", 0},
      {"no host", "GET /v1/health HTTP/1.1\r\n\r\n", "", 0},
      {"header without colon", "GET /v1/health HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n", "", 0},
      {"bare LF", "GET /v1/health HTTP/1.1\nHost: x\n\n", "", 0},
      {"negative length", moves_req, "Content-Length: -5\r\n\r\n{}", 0},
      {"huge length", moves_req, "Content-Length: 99999999999999999999\r\n\r\n{}", 0},
      {"length over cap", moves_req, "Content-Length: 1000000\r\n\r\n{\"seq\":", 0},
      {"two lengths", moves_req, "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x", 0},
      {"short body", moves_req, "Content-Length: 50\r\n\r\n{\"seq\":1", 0},
      {"bad chunk", moves_req, "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 0},
      {"chunk too big", moves_req, "Transfer-Encoding: chunked\r\n\r\nfffffffffff\r\n{}\r\n", 0},
      {"chunked garbage", moves_req, "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nX\r\n\r\n", 0},
      {"pipelined", "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n", "", 0},
  };
  char req[4096];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int len = snprintf(req, sizeof req, "%s%s", cases[i].head, cases[i].tail);
    raw_add(c, &n, cases[i].label, req, (size_t)len, cases[i].allowed_5xx);
  }

  /* Oversized request line and header, and very many headers. */
  size_t big = 200 * 1024;
  char *huge = malloc(big + 64);
  assert_non_null(huge);
  int o = sprintf(huge, "GET /v1/");
  memset(huge + o, 'a', big);
  sprintf(huge + o + big, " HTTP/1.1\r\nHost: x\r\n\r\n");
  raw_add(c, &n, "huge request line", huge, strlen(huge), 0);
  o = sprintf(huge, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ");
  memset(huge + o, 'b', big);
  sprintf(huge + o + big, "\r\n\r\n");
  raw_add(c, &n, "huge header", huge, strlen(huge), 0);
  o = sprintf(huge, "GET /v1/health HTTP/1.1\r\nHost: x\r\n");
  for (int k = 0; k < 5000 && (size_t)o + 16 < big; k++)
    o += sprintf(huge + o, "X-%d: y\r\n", k);
  sprintf(huge + o, "\r\n");
  raw_add(c, &n, "many headers", huge, strlen(huge), 0);
  free(huge);
  assert_true(n <= cap);
  run_raw(c, n);
  free(c);

  /* A connection that says nothing, and one that stops mid-header: neither
   * may stop the server answering others meanwhile. */
  int idle = connect_raw();
  int half = connect_raw();
  send(half, "GET /v1/hea", 11, MSG_NOSIGNAL);
  struct harness_response r;
  harness_call(t.s, &r, "GET", NULL, NULL, "/v1/health");
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  close(idle);
  close(half);
  finish();
}

/* Send `data` on a fresh connection, without half-closing it (a server
 * waiting for more would show as a hang), and read the answer until the
 * server closes, at most 3 s. True when the server closed; `reply` holds
 * what came. */
static bool answer_then_close(const char *data, size_t len, char *reply, size_t cap)
{
  int fd = connect_raw();
  size_t got = 0;
  long deadline = now_ms() + 3000;
  bool closed = false;
  struct pollfd pfd = {.fd = fd, .events = POLLIN};
  struct timeval send_limit = {.tv_sec = 2};

  /* The server may answer and hang up before reading all of a huge head. */
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_limit, sizeof send_limit);
  send(fd, data, len, MSG_NOSIGNAL);
  while (!closed && got < cap - 1 && now_ms() < deadline) {
    if (poll(&pfd, 1, (int)(deadline - now_ms())) != 1)
      continue;
    ssize_t k = recv(fd, reply + got, cap - 1 - got, 0);
    closed = k <= 0;
    got += k > 0 ? (size_t)k : 0;
  }
  reply[got] = '\0';
  close(fd);
  return closed;
}

/* Issue "Abuse and availability", 3: heads libmicrohttpd used to answer
 * itself in HTML (431, 414, 413, 400 for a malformed chunk), ambiguous
 * framing it accepted (smuggling behind a proxy), and transfer codings on
 * which it waited for ever, all answered at once with problem+json and a
 * closed connection. The connection is not half-closed, so a server
 * waiting for more of the body would show as a hang. */
static void test_refused_framing_and_oversized_heads_are_problem_json(void **state)
{
  static char reply[4096];
  char head[256], *big = malloc(12 * 1024 + 256);
  struct {
    const char *label, *tail;
    int status;
    const char *code;
  } cases[] = {
      {"length and chunked", "Content-Length: 16\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n", 400,
       "bad-framing"},
      {"two lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x", 400, "bad-framing"},
      {"same length twice", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", 400, "bad-framing"},
      {"identity", "Transfer-Encoding: identity\r\n\r\n{}", 501, "unsupported-transfer-coding"},
      {"gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 501,
       "unsupported-transfer-coding"},
      {"bad chunk", "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 411,
       "length-required"},
      {"length over cap", "Content-Length: 1000000\r\n\r\n{\"seq\":", 413, "body-too-large"},
  };

  assert_non_null(big);
  for (size_t i = 0; i < sizeof cases / sizeof *cases + 2; i++) {
    const char *label, *code;
    int status, n;

    if (i < sizeof cases / sizeof *cases) {
      label = cases[i].label, code = cases[i].code, status = cases[i].status;
      snprintf(head, sizeof head,
               "POST /v1/players HTTP/1.1\r\nHost: x\r\n"
               "Content-Type: application/json\r\n");
      n = snprintf(big, 12 * 1024 + 256, "%s%s", head, cases[i].tail);
    } else if (i == sizeof cases / sizeof *cases) {
      label = "10 KiB target", code = "uri-too-long", status = 414;
      n = sprintf(big, "GET /v1/");
      memset(big + n, 'a', 10 * 1024);
      n += 10 * 1024;
      n += sprintf(big + n, " HTTP/1.1\r\nHost: x\r\n\r\n");
    } else {
      label = "12 KiB of headers", code = "headers-too-large", status = 431;
      n = sprintf(big, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ");
      memset(big + n, 'b', 12 * 1024);
      n += 12 * 1024;
      n += sprintf(big + n, "\r\n\r\n");
    }
    if (!answer_then_close(big, (size_t)n, reply, sizeof reply))
      fail_msg("[%s] connection left open: %.300s", label, reply);
    char want_status[32], want_code[64];
    snprintf(want_status, sizeof want_status, "HTTP/1.1 %d ", status);
    snprintf(want_code, sizeof want_code, "\"code\":\"%s\"", code);
    if (strncmp(reply, want_status, strlen(want_status)) != 0 ||
        !strcasestr(reply, "\r\nContent-Type: application/problem+json\r\n") ||
        !strstr(reply, want_code))
      fail_msg("[%s] wanted %d %s as problem+json, got: %.400s", label, status, code, reply);
  }
  free(big);
  /* Still serving. */
  struct harness_response r;
  harness_call(t.s, &r, "GET", NULL, NULL, "/v1/health");
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
}

/* Issue "Abuse and availability", 3: what libmicrohttpd refuses before our
 * code runs (a head past its 16 KiB pool, a Content-Length past 64 bits, a
 * header line without a colon, HTTP/9.9) is answered in problem+json too
 * (api/library_answers.c), not in the library's HTML without a
 * Content-Type. */
static void test_library_answers_are_problem_json(void **state)
{
  enum { BIG = 200 * 1024 };
  static char reply[4096];
  char *req = malloc(BIG + 256);
  struct {
    const char *label;
    int status;
    const char *code;
  } cases[] = {
      {"200 KiB target", 414, "uri-too-long"},
      {"20 KiB header", 431, "headers-too-large"},
      {"Content-Length past 64 bits", 413, "body-too-large"},
      {"header without colon", 400, "bad-request"},
      {"HTTP/9.9", 505, "http-version-not-supported"},
  };

  assert_non_null(req);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int n = 0;

    if (i == 0) {
      n = sprintf(req, "GET /v1/");
      memset(req + n, 'a', BIG);
      n += BIG;
      n += sprintf(req + n, " HTTP/1.1\r\nHost: x\r\n\r\n");
    } else if (i == 1) {
      n = sprintf(req, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ");
      memset(req + n, 'b', 20 * 1024);
      n += 20 * 1024;
      n += sprintf(req + n, "\r\n\r\n");
    } else if (i == 2) {
      n = sprintf(req, "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       "Content-Length: 99999999999999999999\r\n\r\n{}");
    } else if (i == 3) {
      n = sprintf(req, "GET /v1/health HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n");
    } else {
      n = sprintf(req, "GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n");
    }
    if (!answer_then_close(req, (size_t)n, reply, sizeof reply))
      fail_msg("[%s] connection left open: %.300s", cases[i].label, reply);
    char want_status[32], want_code[80];
    snprintf(want_status, sizeof want_status, "HTTP/1.1 %d ", cases[i].status);
    snprintf(want_code, sizeof want_code, "\"code\":\"%s\"", cases[i].code);
    if (strncmp(reply, want_status, strlen(want_status)) != 0 ||
        !strcasestr(reply, "\r\nContent-Type: application/problem+json\r\n") ||
        !strstr(reply, want_code) || strstr(reply, "<html>"))
      fail_msg("[%s] wanted %d %s as problem+json, got: %.400s", cases[i].label, cases[i].status,
               cases[i].code, reply);
  }
  free(req);
  struct harness_response r;
  harness_call(t.s, &r, "GET", NULL, NULL, "/v1/health");
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_requests_get_well_formed_answers_and_store_nothing),
      cmocka_unit_test(test_truncated_json_is_refused),
      cmocka_unit_test(test_deeply_nested_json_is_refused),
      cmocka_unit_test(test_huge_and_odd_numbers_are_refused),
      cmocka_unit_test(test_invalid_utf8_and_nul_bytes_are_refused),
      cmocka_unit_test(test_raw_garbage_over_tcp_is_survived),
      cmocka_unit_test(test_refused_framing_and_oversized_heads_are_problem_json),
      cmocka_unit_test(test_library_answers_are_problem_json),
  };
  harness_global_init();
  int failed = order_run_group_tests(tests, setup_table, teardown_table);
  harness_global_cleanup();
  return failed;
}
