/*
 * test_parked_moves.c - moves whose connection is parked while their group
 * commit is on disk (api/later.c, issue 22). The server serves every
 * connection with a few threads and holds a game's lock from a move's
 * rules until its answer, so these attack what that could break:
 *   - clients that hang up while their move is on disk must not leave the
 *     game locked, nor lose or half-write the move;
 *   - many connections on ONE game at once (moves racing on one seq, view
 *     GETs, long-polls) land on the same polling thread, where a thread
 *     waiting for the game's lock must never be the one that has to answer
 *     the parked move (the deadlock test_race found at first);
 *   - every move answered 200 is in the log, once, in order.
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tests/api/harness.h"

#define HANGUPS       40 /* games whose first move's client hangs up at once */
#define STORM_CLIENTS 24 /* connections on one game at once: more than the server's threads */
#define STORM_MS      3000

static struct harness_server *server_of(void **state)
{
  return *state;
}

/* A two-seat game of `title` between two new players, started. */
static void new_table(struct harness_server *s, const char *title, struct harness_player p[2],
                      char id[64])
{
  harness_new_player(s, "ana", &p[0]);
  harness_new_player(s, "ben", &p[1]);
  json_t *g = harness_new_game(s, p[0].token, title, 2, NULL);
  snprintf(id, 64, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, p[0].token, id, 0);
  harness_join(s, p[1].token, id, 1);
}

static int first_to_act(const json_t *game)
{
  return (int)json_integer_value(json_array_get(json_object_get(game, "to_act"), 0));
}

static int connect_raw(const struct harness_server *s)
{
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
  int fd = socket(AF_INET, SOCK_STREAM, 0);

  assert_true(fd >= 0);
  assert_int_equal(inet_pton(AF_INET, s->host, &addr.sin_addr), 1);
  assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
  return fd;
}

/* Send a whole move request on a raw connection and hang up at once,
 * before the answer (the commit is still on disk then). */
static void post_and_hang_up(const struct harness_server *s, const char *token, const char *id,
                             const char *body)
{
  char head[512];
  int fd = connect_raw(s);
  int n = snprintf(head, sizeof head,
                   "POST /v1/games/%s/moves HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                   "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                   id, token, strlen(body));

  assert_int_equal(send(fd, head, (size_t)n, MSG_NOSIGNAL), n);
  assert_int_equal(send(fd, body, strlen(body), MSG_NOSIGNAL), (ssize_t)strlen(body));
  close(fd);
}

/* The body of a legal move for the seat to act in `mine` (its own game
 * resource). Caller frees. */
static char *legal_move_body(const json_t *mine, struct harness_rng *rng)
{
  json_t *move = harness_choose_move(mine, rng);
  json_t *body = json_pack("{s:I,s:o}", "seq", (json_int_t)harness_int(mine, "seq"), "move", move);
  char *text = json_dumps(body, JSON_COMPACT);

  json_decref(body);
  return text;
}

/* Clients that hang up while their move is on disk: each move is either in
 * the log or not (never half), the log verifies, and the game is not left
 * locked: its next move is answered at once. */
static void test_hanging_up_during_the_commit_leaves_no_game_locked(void **state)
{
  struct harness_server *s = server_of(state);
  struct harness_rng rng = {.state = 7};
  struct harness_player p[HANGUPS][2];
  char ids[HANGUPS][64];
  int landed = 0;

  for (int g = 0; g < HANGUPS; g++) {
    new_table(s, "himalaya", p[g], ids[g]);
    json_t *pub = harness_get_game(s, NULL, ids[g]);
    int seat = first_to_act(pub);
    json_decref(pub);
    json_t *mine = harness_get_game(s, p[g][seat].token, ids[g]);
    char *body = legal_move_body(mine, &rng);
    post_and_hang_up(s, p[g][seat].token, ids[g], body);
    free(body);
    json_decref(mine);
  }
  for (int g = 0; g < HANGUPS; g++) {
    /* A request on the game waits for its lock: it is answered only if
     * the hung-up move let it go. */
    json_t *pub = harness_get_game(s, NULL, ids[g]);
    long moves = harness_int(pub, "moves");
    json_decref(pub);
    assert_true(moves == 0 || moves == 1);
    landed += (int)moves;
    harness_expect_verifies(s, ids[g]);
    pub = harness_get_game(s, NULL, ids[g]);
    int seat = first_to_act(pub);
    json_decref(pub);
    json_t *mine = harness_get_game(s, p[g][seat].token, ids[g]);
    json_t *move = harness_choose_move(mine, &rng);
    struct harness_response r = {0};
    harness_post_move(s, &r, p[g][seat].token, ids[g], harness_int(mine, "seq"), move);
    HARNESS_EXPECT_JSON(&r, 200);
    harness_response_free(&r);
    json_decref(move);
    json_decref(mine);
  }
  assert_true(harness_alive(s));
  /* Most requests are read before the hang-up is seen: the parked path ran. */
  printf("hung-up moves that landed: %d of %d\n", landed, HANGUPS);
  assert_true(landed > 0);
}

/* One connection's part of the storm on one game. */
struct stormer {
  struct harness_server *s;
  struct harness_client client;
  const char *id;
  struct harness_player *p; /* the two seats' players */
  int kind;                 /* 0: plays whichever seat acts; 1: watches; 2: long-polls */
  struct harness_rng rng;
  long accepted, refused, transport_errors;
  long last_seq; /* the highest seq an answer of this client showed */
  char error[600];
};

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool get(struct stormer *x, const char *path, const char *token, struct harness_response *r)
{
  struct harness_request req = {.method = "GET", .path = path, .token = token};

  if (harness_send(&x->client, &req, r) && r->status == 200 && r->json)
    return true;
  x->transport_errors += r->status == 0;
  snprintf(x->error, sizeof x->error, "%s: %ld %s", r->what, r->status, r->error);
  return false;
}

/* Play a move for the seat to act: view, then POST. */
static void storm_move(struct stormer *x, const char *game_path, const char *move_path)
{
  struct harness_response r = {0}, v = {0};

  if (!get(x, game_path, NULL, &r))
    goto done;
  if (strcmp(harness_str(r.json, "status"), "active") != 0)
    goto done;
  int seat = first_to_act(r.json);
  if (!get(x, game_path, x->p[seat].token, &v) || !json_object_get(v.json, "legal"))
    goto done;
  char *body = legal_move_body(v.json, &x->rng);
  struct harness_request req = {.method = "POST",
                                .path = move_path,
                                .token = x->p[seat].token,
                                .body = body,
                                .body_len = strlen(body)};
  harness_response_free(&r);
  if (!harness_send(&x->client, &req, &r)) {
    x->transport_errors++;
    snprintf(x->error, sizeof x->error, "%s: %s", r.what, r.error);
  } else if (r.status == 200) {
    x->accepted++;
    if (harness_int(r.json, "seq") > x->last_seq)
      x->last_seq = harness_int(r.json, "seq");
  } else {
    x->refused++; /* another client's move on the same seq got there first */
  }
  free(body);
done:
  harness_response_free(&r);
  harness_response_free(&v);
}

static void *storm(void *arg)
{
  struct stormer *x = arg;
  char game_path[128], move_path[128], wait_path[160];
  double until = now_ms() + STORM_MS;

  snprintf(game_path, sizeof game_path, "/v1/games/%s", x->id);
  snprintf(move_path, sizeof move_path, "/v1/games/%s/moves", x->id);
  while (now_ms() < until) {
    struct harness_response r = {0};

    if (x->kind == 0) {
      storm_move(x, game_path, move_path);
    } else if (x->kind == 1) {
      get(x, game_path, x->p[0].token, &r);
    } else if (get(x, game_path, NULL, &r)) {
      snprintf(wait_path, sizeof wait_path, "/v1/games/%s/wait?after=%ld&timeout=1", x->id,
               harness_int(r.json, "seq"));
      harness_response_free(&r);
      get(x, wait_path, NULL, &r);
    }
    harness_response_free(&r);
  }
  return NULL;
}

/* Many connections on one game: every request is answered (a deadlock or a
 * lost wake-up shows as a transport timeout), and the log holds exactly the
 * moves answered 200. */
static void test_many_connections_on_one_game_are_all_answered(void **state)
{
  struct harness_server *s = server_of(state);
  struct harness_player p[2];
  struct stormer x[STORM_CLIENTS];
  pthread_t th[STORM_CLIENTS];
  char id[64];
  long accepted = 0, last_seq = 0;

  new_table(s, "because-its-there", p, id);
  json_t *pub = harness_get_game(s, NULL, id);
  long moves_before = harness_int(pub, "moves");
  json_decref(pub);
  for (int i = 0; i < STORM_CLIENTS; i++) {
    x[i] = (struct stormer){.s = s,
                            .id = id,
                            .p = p,
                            .kind = i % 4 == 3 ? 2 : i % 4 == 2,
                            .rng = {.state = (uint64_t)i + 1}};
    harness_client_init(&x[i].client, s);
    assert_int_equal(pthread_create(&th[i], NULL, storm, &x[i]), 0);
  }
  for (int i = 0; i < STORM_CLIENTS; i++) {
    pthread_join(th[i], NULL);
    harness_client_cleanup(&x[i].client);
    if (x[i].transport_errors)
      fail_msg("client %d: %ld requests unanswered, the last: %s", i, x[i].transport_errors,
               x[i].error);
    accepted += x[i].accepted;
    if (x[i].last_seq > last_seq)
      last_seq = x[i].last_seq;
  }
  pub = harness_get_game(s, NULL, id);
  printf("one game, %d connections: %ld moves accepted\n", STORM_CLIENTS, accepted);
  assert_true(accepted > 0);
  assert_int_equal(harness_int(pub, "moves"), moves_before + accepted);
  assert_true(harness_int(pub, "seq") >= last_seq);
  json_decref(pub);
  harness_expect_verifies(s, id);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_hanging_up_during_the_commit_leaves_no_game_locked,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_many_connections_on_one_game_are_all_answered,
                                      harness_setup, harness_teardown),
  };
  harness_global_init();
  int failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
