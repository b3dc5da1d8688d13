/*
 * test_limits.c - abuse limits and a clean stop: a client over its rate
 * gets 429 with Retry-After; a player cannot pile up unfinished games; no
 * endpoint lets another player act for a seat it does not hold or read
 * another's webhooks; connections past the cap are closed unanswered;
 * SIGTERM finishes cleanly and leaves no WAL behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <arpa/inet.h>
#include <errno.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/order.h"
#include "harness.h"

static void test_client_over_its_rate_gets_429_with_retry_after(void **state)
{
  struct harness_server s;
  struct harness_response r;
  int i, limited = 0, ok = 0;

  setenv("CAIRN_RATE_LIMIT", "5,5", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  for (i = 0; i < 40; i++) {
    harness_call(&s, &r, "GET", NULL, NULL, "/v1/health");
    if (r.status == 429) {
      HARNESS_EXPECT_PROBLEM(&r, 429, "rate-limited");
      assert_non_null(harness_response_header(&r, "Retry-After"));
      limited++;
    } else {
      ok += r.status == 200;
    }
    harness_response_free(&r);
  }
  assert_true(ok >= 5); /* the burst */
  assert_true(limited > 0);
  assert_true(harness_stop(&s));
  setenv("CAIRN_RATE_LIMIT", "0", 1);
}

static double seconds_since(const struct timespec *t0)
{
  struct timespec t;

  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* GET /v1/players/me/games with this exact Authorization line (it needs a
 * player, so a 200 proves the spelling authenticated). */
static void get_mine_as(struct harness_server *s, const char *auth_line, struct harness_response *r)
{
  const char *headers[] = {auth_line, NULL};
  struct harness_request req = {
      .method = "GET", .path = "/v1/players/me/games", .headers = headers};

  if (!harness_send(&s->client, &req, r))
    fail_msg("GET /v1/players/me/games: %s", r->error);
}

/* Issue "Abuse and availability", 1: every accepted spelling of one token
 * used to get a bucket of its own (3,000 of 3,000 requests passed). With
 * the default limits (50 requests/s per player, burst 100) they now share
 * the player's bucket; a second player and anonymous calls from the same
 * address are not disturbed. */
static void test_every_spelling_of_a_token_shares_one_bucket(void **state)
{
  enum { REQUESTS = 400, RATE = 50, BURST = 100 };
  static const char *const spellings[] = {"Authorization: Bearer %s", "Authorization: bearer %s",
                                          "Authorization: BEARER  %s",
                                          "Authorization: bEaReR     %s"};
  struct harness_server s;
  struct harness_player a, b;
  struct harness_response r;
  struct timespec t0;
  char line[256];
  int i, ok = 0, limited = 0;

  unsetenv("CAIRN_RATE_LIMIT"); /* the harness turns limits off; this test wants the defaults */
  memset(&s, 0, sizeof s);
  harness_start(&s);
  setenv("CAIRN_RATE_LIMIT", "0", 1);
  harness_new_player(&s, "spender", &a);
  harness_new_player(&s, "bystander", &b);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (i = 0; i < REQUESTS; i++) {
    snprintf(line, sizeof line, spellings[i % 4], a.token);
    get_mine_as(&s, line, &r);
    if (r.status == 429) {
      HARNESS_EXPECT_PROBLEM(&r, 429, "rate-limited");
      assert_true(atoi(harness_response_header(&r, "Retry-After")) >= 1);
      assert_int_equal(atoi(harness_response_header(&r, "RateLimit-Limit")), BURST);
      assert_string_equal(harness_response_header(&r, "RateLimit-Remaining"), "0");
      assert_true(atoi(harness_response_header(&r, "RateLimit-Reset")) >= 1);
      limited++;
    } else {
      HARNESS_EXPECT_JSON(&r, 200);
      ok++;
    }
    harness_response_free(&r);
  }
  /* One bucket: the burst plus what refilled meanwhile, never more. */
  print_message("%d of %d passed in %.2f s\n", ok, REQUESTS, seconds_since(&t0));
  assert_true(ok <= BURST + (int)(RATE * seconds_since(&t0)) + 1);
  assert_true(limited > 0);
  /* The spender is still limited, whatever it spells; the others are not. */
  snprintf(line, sizeof line, "Authorization: Bearer %s", b.token);
  get_mine_as(&s, line, &r);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  harness_call(&s, &r, "GET", NULL, NULL, "/v1/health");
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  assert_true(harness_stop(&s));
}

static void test_a_player_cannot_pile_up_unfinished_games(void **state)
{
  struct harness_server s;
  struct harness_player p;
  struct harness_response r;
  const char *body = "{\"title\":\"himalaya\",\"seats\":2}";

  setenv("CAIRN_MAX_OPEN_GAMES", "2", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  harness_new_player(&s, "hoarder", &p);
  json_decref(harness_new_game(&s, p.token, "himalaya", 2, "{}"));
  json_decref(harness_new_game(&s, p.token, "himalaya", 2, "{}"));
  harness_call(&s, &r, "POST", p.token, body, "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 409, "too-many-games");
  harness_response_free(&r);
  assert_true(harness_stop(&s));
  setenv("CAIRN_MAX_OPEN_GAMES", "0", 1);
}

/* Issue "Speed, load and faults", 4: "no endpoint lets a spectator or
 * another seat ... act for a seat it does not hold (tests try every
 * endpoint with the wrong token)". */
static void test_every_acting_endpoint_refuses_a_player_without_the_seat(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b, stranger;
  struct harness_response r;
  char id[64], hook_body[128];
  json_t *g;
  static const char *const acts[] = {"moves", "takeback", "takeback/accept", "takeback/decline"};
  size_t i;

  harness_new_player(s, "seat0", &a);
  harness_new_player(s, "seat1", &b);
  harness_new_player(s, "stranger", &stranger);
  g = harness_new_game(s, a.token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, a.token, id, 0);
  harness_join(s, b.token, id, 1);
  for (i = 0; i < sizeof acts / sizeof *acts; i++) {
    const char *body = strcmp(acts[i], "moves") == 0 ? "{\"seq\":0,\"move\":{\"type\":\"reroll\"}}"
                                                     : "{\"seq\":0}";

    harness_call(s, &r, "POST", stranger.token, body, "/v1/games/%s/%s", id, acts[i]);
    HARNESS_EXPECT_PROBLEM(&r, 403, "not-seated");
    harness_response_free(&r);
    harness_call(s, &r, "POST", NULL, body, "/v1/games/%s/%s", id, acts[i]);
    HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
    harness_response_free(&r);
    harness_call(s, &r, "POST", "cairn_forged", body, "/v1/games/%s/%s", id, acts[i]);
    HARNESS_EXPECT_PROBLEM(&r, 401, "bad-token");
    harness_response_free(&r);
  }
  /* Seat 1 may not move for seat 0, whose turn it is. */
  harness_call(s, &r, "POST", b.token, "{\"seq\":0,\"move\":{\"type\":\"reroll\"}}",
               "/v1/games/%s/moves", id);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-your-turn");
  harness_response_free(&r);
  /* Nobody but the seat itself is offered its legal moves. */
  g = harness_get_game(s, stranger.token, id);
  assert_null(json_object_get(g, "legal"));
  json_decref(g);
  g = harness_get_game(s, NULL, id);
  assert_null(json_object_get(g, "legal"));
  json_decref(g);
  /* Webhooks are their owner's only. */
  snprintf(hook_body, sizeof hook_body, "{\"url\":\"http://example.org/h\",\"format\":\"json\"}");
  harness_call(s, &r, "POST", a.token, hook_body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, sizeof id, "%s", harness_str(r.json, "id"));
  harness_response_free(&r);
  harness_call(s, &r, "GET", stranger.token, NULL, "/v1/webhooks/%s/deliveries", id);
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "DELETE", stranger.token, NULL, "/v1/webhooks/%s", id);
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "GET", stranger.token, NULL, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_int_equal(json_array_size(json_object_get(r.json, "webhooks")), 0);
  harness_response_free(&r);
}

/* A kept-alive connection of our own, so the test decides exactly how many
 * the server holds (curl would pool and reopen them behind our back). */
static int raw_connect(const struct harness_server *s)
{
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  assert_true(fd >= 0);
  assert_int_equal(inet_pton(AF_INET, s->host, &addr.sin_addr), 1);
  assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
  return fd;
}

/* GET /v1/health on `fd`, keeping it open. The status answered, or 0 when
 * the server closed the connection without a word (or said nothing in 5 s). */
static int raw_health(int fd)
{
  static const char request[] = "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
  char reply[1024];
  size_t got = 0;
  int status = 0;
  struct pollfd pfd = {.fd = fd, .events = POLLIN};

  if (send(fd, request, sizeof request - 1, MSG_NOSIGNAL) != (ssize_t)sizeof request - 1)
    return 0;
  /* The whole answer is small; its body ends in '}'. */
  while (got < sizeof reply - 1 && poll(&pfd, 1, 5000) == 1) {
    ssize_t n = recv(fd, reply + got, sizeof reply - 1 - got, 0);

    if (n <= 0)
      break;
    got += (size_t)n;
    reply[got] = '\0';
    if (strstr(reply, "\r\n\r\n") && reply[got - 1] == '}')
      break;
  }
  reply[got] = '\0';
  if (sscanf(reply, "HTTP/1.1 %d", &status) != 1)
    return 0;
  return status;
}

/* A connection to the server from `source` (any 127.x.y.z is on loopback). */
static int raw_connect_from(const struct harness_server *s, const char *source)
{
  struct sockaddr_in from = {.sin_family = AF_INET};
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};

  assert_true(fd >= 0);
  assert_int_equal(inet_pton(AF_INET, source, &from.sin_addr), 1);
  assert_int_equal(bind(fd, (struct sockaddr *)&from, sizeof from), 0);
  assert_int_equal(inet_pton(AF_INET, s->host, &addr.sin_addr), 1);
  assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
  return fd;
}

/* A newcomer from `source` (NULL: any) asking for /v1/health, for
 * harness_wait_until: the server frees a slot when it notices a close, on
 * its own time, so a newcomer is retried until one is served. */
struct newcomer {
  const struct harness_server *s;
  const char *source;
  int fd;     /* OUT: the served connection, open; -1 while none was */
  int status; /* OUT: the last answer's status, 0 for none */
};

static bool newcomer_served(void *arg)
{
  struct newcomer *c = arg;
  int fd = c->source ? raw_connect_from(c->s, c->source) : raw_connect(c->s);

  c->status = raw_health(fd);
  if (c->status != 200) {
    close(fd);
    return false;
  }
  c->fd = fd;
  return true;
}

/* Issue "Speed, load and faults", 4: "a connection cap". With
 * --max-connections 4, four clients are served and held open; a fifth is
 * closed unanswered; once one of the four leaves, a newcomer is served. */
static void test_connections_past_the_cap_are_closed_unanswered(void **state)
{
  enum { CAP = 4 };
  struct harness_server s;
  struct newcomer newcomer = {.s = &s, .fd = -1};
  int held[CAP], extra, i;

  setenv("CAIRN_MAX_CONNECTIONS", "4", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  for (i = 0; i < CAP; i++) {
    held[i] = raw_connect(&s);
    assert_int_equal(raw_health(held[i]), 200);
  }
  extra = raw_connect(&s); /* the kernel completes the handshake; the server hangs up */
  assert_int_equal(raw_health(extra), 0);
  close(extra);
  /* The cap counts what is open, not what was ever opened. */
  close(held[0]);
  harness_wait_until(newcomer_served, &newcomer,
                     5000); /* the server notices the close on its own time */
  assert_int_equal(newcomer.status, 200);
  extra = newcomer.fd;
  for (i = 1; i < CAP; i++) { /* the held ones were never disturbed */
    assert_int_equal(raw_health(held[i]), 200);
    close(held[i]);
  }
  close(extra);
  assert_true(harness_stop(&s));
  unsetenv("CAIRN_MAX_CONNECTIONS");
}

static long mono_ms(void)
{
  struct timespec t;

  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

struct slow {
  int fd;
  long opened_ms, closed_ms; /* closed_ms 0 while open */
  bool told_408;
  char got[512];
  size_t len;
};

/* Read what `c` has to say; note when the server ends it. */
static void slow_read(struct slow *c)
{
  ssize_t n = recv(c->fd, c->got + c->len, sizeof c->got - 1 - c->len, MSG_DONTWAIT);

  if (n > 0) {
    c->len += (size_t)n;
    c->got[c->len] = '\0';
    c->told_408 = c->told_408 || strncmp(c->got, "HTTP/1.1 408 ", 13) == 0;
  }
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || c->len + 1 >= sizeof c->got)
    c->closed_ms = mono_ms();
}

/* The address whose connection slots the slow-client test fills: one
 * nobody else connects from, so that only that test's connections count
 * against it (the harness's own client connects from 127.0.0.1). */
#define SLOW_ADDRESS "127.0.0.3"

/* What a slow connection sends, then trickles: half of them a request head
 * that never ends, half a body that never ends. */
static const char slow_head[] = "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ";
static const char slow_body_head[] =
    "POST /v1/players HTTP/1.1\r\nHost: x\r\n"
    "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n";

/* Open slow connection `i` from SLOW_ADDRESS and send its start. */
static void slow_open(const struct harness_server *s, struct slow *slow, int i)
{
  const char *start = i % 2 ? slow_body_head : slow_head;

  memset(&slow[i], 0, sizeof slow[i]);
  slow[i].fd = raw_connect_from(s, SLOW_ADDRESS);
  slow[i].opened_ms = mono_ms();
  assert_true(send(slow[i].fd, start, strlen(start), MSG_NOSIGNAL) > 0);
}

/* True when the server has closed (or reset) `fd` already. */
static bool closed_by_server(int fd)
{
  char byte;
  ssize_t n = recv(fd, &byte, 1, MSG_DONTWAIT | MSG_PEEK);

  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* The slow connections of one address, read and trickled to, one byte
 * every 500 ms, until the server has closed them all. */
struct trickle {
  const struct harness_server *s;
  struct slow *slow;
  int n;
  long last_ms; /* when the last byte went out */
  int open;     /* OUT: connections still open */
  int reopened; /* OUT: slow connections refused at first and opened again */
};

/*
 * For harness_wait_every: fill SLOW_ADDRESS's slots, then true once a
 * connection beyond them is closed unanswered.
 *
 * The server's polling threads accept from one listening socket and each
 * checks the cap after its own accept(), so under load a connection that
 * arrived later can be counted first: a probe sometimes took the 64th
 * slot and one of the 64 slow connections, accepted earlier by a thread
 * that ran later, was refused (seen with a log of the server's refusals,
 * about 1 run in 6 against the release server). The cap held (never more
 * than 64), but the address was then one short of full for every later
 * probe. So a slow connection the server refused before its deadline is
 * opened again, as a client filling an address would, before each probe.
 */
static bool address_full(void *arg)
{
  struct trickle *t = arg;
  int extra, status, i;

  for (i = 0; i < t->n; i++)
    if (closed_by_server(t->slow[i].fd)) {
      close(t->slow[i].fd);
      slow_open(t->s, t->slow, i);
      t->reopened++;
    }
  extra = raw_connect_from(t->s, SLOW_ADDRESS);
  status = raw_health(extra);
  close(extra);
  return status == 0;
}

/* One round over the connections, for harness_wait_until: true once every
 * one is closed. */
static bool all_slow_closed(void *arg)
{
  struct trickle *t = arg;
  bool now = mono_ms() - t->last_ms >= 500;
  int i;

  t->open = 0;
  for (i = 0; i < t->n; i++) {
    struct slow *c = &t->slow[i];

    if (c->closed_ms)
      continue;
    slow_read(c);
    if (!c->closed_ms && now && send(c->fd, "a", 1, MSG_NOSIGNAL) != 1)
      c->closed_ms = mono_ms();
    t->open += !c->closed_ms;
  }
  if (now)
    t->last_ms = mono_ms();
  return t->open == 0;
}

/* Issue "Abuse and availability", 2. Default flags but for the deadlines:
 * one address holds the 64 connections it may (--max-connections-per-address
 * default), half trickling a request head and half a body, one byte every
 * 500 ms (the idle timeout never fires on them); its 65th is closed
 * unanswered; a client from 127.0.0.2 is served within a second meanwhile;
 * and every slow connection is closed once its deadline passes, not
 * before. The deadlines are 2 s here (--head-timeout/--body-timeout,
 * defaults 30 and 60) only so the test takes seconds, not a minute. */
static void test_one_address_cannot_hold_every_slot_and_slow_requests_are_cut_off(void **state)
{
  enum { PER_ADDRESS = 64, DEADLINE_MS = 2000 };
  struct harness_server s;
  struct slow slow[PER_ADDRESS];
  struct trickle trickle = {.s = &s, .slow = slow, .n = PER_ADDRESS};
  struct newcomer newcomer = {.s = &s, .source = SLOW_ADDRESS, .fd = -1};
  int other, i, told = 0;
  long t0, served_ms;

  unsetenv("CAIRN_MAX_CONNECTIONS_PER_ADDRESS");
  setenv("CAIRN_HEAD_TIMEOUT", "2", 1);
  setenv("CAIRN_BODY_TIMEOUT", "2", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  setenv("CAIRN_MAX_CONNECTIONS_PER_ADDRESS", "0", 1);
  unsetenv("CAIRN_HEAD_TIMEOUT");
  unsetenv("CAIRN_BODY_TIMEOUT");
  for (i = 0; i < PER_ADDRESS; i++)
    slow_open(&s, slow, i);
  /* Once the server's threads have accepted all 64, the address is full:
   * a 65th is closed unanswered. (Retried, as accepting takes its time on
   * a loaded machine; a broken cap never gets there.) Every probe is one
   * more connection from the address, so they go at a calm pace, and only
   * while the 64 are inside their 2 s head deadline: after it they are cut
   * off and the address is never full again. */
  assert_true(harness_wait_every(address_full, &trickle, DEADLINE_MS - 300, 50));
  print_message("%d slow connections refused at first and opened again\n", trickle.reopened);
  /* Another address is served at once while the slots are held. */
  t0 = mono_ms();
  other = raw_connect_from(&s, "127.0.0.2");
  assert_int_equal(raw_health(other), 200);
  served_ms = mono_ms() - t0;
  print_message("127.0.0.2 served in %ld ms\n", served_ms);
  assert_true(served_ms < 1000);
  close(other);
  /* Trickle until every slow connection is closed, 10 s at most: the
   * deadlines run on the server's real (monotonic) clock, so they are waited for. */
  harness_wait_until(all_slow_closed, &trickle, 10000 - (mono_ms() - t0));
  assert_int_equal(trickle.open, 0);
  for (i = 0; i < PER_ADDRESS; i++) {
    /* Never before the deadline (counted from after our connect). */
    if (slow[i].closed_ms - slow[i].opened_ms < DEADLINE_MS - 20)
      fail_msg("slow connection %d closed after %ld ms", i, slow[i].closed_ms - slow[i].opened_ms);
    told += slow[i].told_408;
    close(slow[i].fd);
  }
  print_message("%d of %d told 408 before the close\n", told, PER_ADDRESS);
  assert_true(told > 0); /* a reset may overtake an explanation */
  /* The slots are free again (once the server has noticed the closes). */
  assert_true(harness_wait_until(newcomer_served, &newcomer, 5000));
  close(newcomer.fd);
  assert_true(harness_stop(&s));
}

/* What the server sends on `fd` until it closes it (10 s at most), NUL-ended
 * in `got`; the ms it took. */
static long read_until_closed(int fd, char *got, size_t cap)
{
  struct pollfd pfd = {.fd = fd, .events = POLLIN};
  long t0 = mono_ms();
  size_t n = 0;

  while (n < cap - 1 && poll(&pfd, 1, (int)(10000 - (mono_ms() - t0))) == 1) {
    ssize_t r = recv(fd, got + n, cap - 1 - n, 0);

    if (r <= 0)
      break;
    n += (size_t)r;
  }
  got[n] = '\0';
  return mono_ms() - t0;
}

/* conns.c keeps a connection's deadline and whether it is idle in one
 * atomic word: a kept-alive connection idle past the head timeout is
 * closed without a word, as clients expect of idle ones, and one that
 * never sent its head is told 408; neither before the deadline. */
static void test_an_idle_connection_is_closed_silently_and_a_late_head_is_told_408(void **state)
{
  struct harness_server s;
  char idle_got[1024], late_got[1024];
  long idle_ms, late_ms;
  int idle, late;

  (void)state;
  setenv("CAIRN_HEAD_TIMEOUT", "1", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  unsetenv("CAIRN_HEAD_TIMEOUT");
  idle = raw_connect(&s);
  assert_int_equal(raw_health(idle), 200);
  late = raw_connect(&s);
  assert_true(send(late, "GET /v1/health HTTP/1.1\r\n", 25, MSG_NOSIGNAL) == 25);
  idle_ms = read_until_closed(idle, idle_got, sizeof idle_got);
  late_ms = read_until_closed(late, late_got, sizeof late_got);
  print_message("idle closed after %ld ms, late after %ld ms more\n", idle_ms, late_ms);
  assert_string_equal(idle_got, "");
  assert_true(strncmp(late_got, "HTTP/1.1 408 ", 13) == 0);
  assert_true(idle_ms >= 1000 - 20 && idle_ms < 9000);
  close(idle);
  close(late);
  assert_true(harness_stop(&s));
}

/* Exit status of `CAIRN_SERVER args` (stdout and stderr discarded). */
static int run_server_with(const char *args)
{
  const char *bin = getenv("CAIRN_SERVER") ? getenv("CAIRN_SERVER") : "build/test/cairn";
  char cmd[1024];
  int st;

  snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", bin, args);
  st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Issue "Abuse and availability", 4: the document said --rate-limit and
 * --max-open-games were refused on the command line. Every limit's flag is
 * accepted: flags are read in order and --help exits 0 only once all
 * before it were accepted; an unknown flag is a usage error (2). */
static void test_every_limit_flag_is_accepted_on_the_command_line(void **state)
{
  assert_int_equal(run_server_with("--rate-limit 10,5 --max-open-games 3 --max-connections 100 "
                                   "--max-connections-per-address 8 --head-timeout 5 "
                                   "--body-timeout 7 --help"),
                   0);
  assert_int_equal(run_server_with("--rate-limit 10 --help"), 0);
  assert_int_equal(run_server_with("--rate-limit nonsense --help"), 2);
  assert_int_equal(run_server_with("--no-such-limit 1 --help"), 2);
}

/* Issue "Speed, load and faults", 5: SIGTERM finishes and checkpoints the
 * WAL. */
static void test_sigterm_stops_cleanly_and_checkpoints_the_wal(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char wal[400];
  struct stat st;
  int i;

  for (i = 0; i < 5; i++) {
    char name[16];

    snprintf(name, sizeof name, "w%d", i);
    harness_new_player(s, name, &p);
  }
  harness_pause(s); /* SIGTERM; asserts a clean exit */
  snprintf(wal, sizeof wal, "%s-wal", s->db_path);
  assert_true(stat(wal, &st) != 0 || st.st_size == 0);
  harness_resume(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_client_over_its_rate_gets_429_with_retry_after),
      cmocka_unit_test(test_every_spelling_of_a_token_shares_one_bucket),
      cmocka_unit_test(test_a_player_cannot_pile_up_unfinished_games),
      cmocka_unit_test(test_connections_past_the_cap_are_closed_unanswered),
      cmocka_unit_test(test_one_address_cannot_hold_every_slot_and_slow_requests_are_cut_off),
      cmocka_unit_test(test_an_idle_connection_is_closed_silently_and_a_late_head_is_told_408),
      cmocka_unit_test(test_every_limit_flag_is_accepted_on_the_command_line),
      cmocka_unit_test_setup_teardown(test_every_acting_endpoint_refuses_a_player_without_the_seat,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_sigterm_stops_cleanly_and_checkpoints_the_wal,
                                      harness_setup, harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/limits", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
