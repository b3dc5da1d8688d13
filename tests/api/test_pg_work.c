/*
 * test_pg_work.c - background work shared by two server processes on one
 * PostgreSQL database (issue 23), over HTTP against the real binary:
 * webhook deliveries claimed under leases (each sent by one node, a dead
 * node's sent by the other once its lease ran out), the bots a node killed
 * before they replied played by the other, and a deadline both nodes see
 * pass applied once.
 *
 * The nodes share a signing key (CAIRN_KEY) and run with leases of
 * LEASE_MS, so a dead node's deliveries move within a few seconds. Each
 * test has a database of its own on the cluster CAIRN_TEST_PG names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/harness.h"
#include "tests/api/hookrx.h"
#include "tests/api/pgdb.h"

#define LEASE_MS   "1500"
#define SETTLE_MS  20000 /* the most a test waits for what the nodes do on their own */
#define MOVES      16    /* played through the two nodes in turn */
#define RACE_GAMES 6     /* games whose deadline both nodes see pass at once */

struct fixture {
  struct pgnodes n; /* the test's database and its two nodes */
};

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));

  if (!f || !pgnodes_open(&f->n, "cairn_work")) {
    free(f);
    return -1;
  }
  setenv("CAIRN_KEY", f->n.db.key, 1);
  setenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS", "1", 1);
  setenv("CAIRN_WEBHOOK_LEASE_MS", LEASE_MS, 1);
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "50", 1);
  hookrx_start();
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  int rc = 0;

  hookrx_stop();
  if (!pgnodes_close(&f->n))
    rc = -1;
  unsetenv("CAIRN_KEY");
  unsetenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS");
  unsetenv("CAIRN_WEBHOOK_LEASE_MS");
  unsetenv("CAIRN_WEBHOOK_BACKOFF_MS");
  unsetenv("CAIRN_TEST_HOLD_BOTS");
  unsetenv("CAIRN_TEST_CLOCK");
  free(f);
  return rc;
}

static struct harness_server *start_node(struct fixture *f, int i)
{
  return pgnodes_start(&f->n, i);
}

/* ---- helpers ---- */

/* A game-less webhook of `owner` to the receiver's `path` (json format). */
static void add_hook(struct harness_server *s, const struct harness_player *owner, const char *path)
{
  struct harness_response r;
  char body[256];

  snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d%s\",\"format\":\"json\"}",
           hookrx_port(), path);
  harness_call(s, &r, "POST", owner->token, body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  harness_response_free(&r);
}

/* A two-seat Himalaya game of p[0] (seat 0) and p[1], created and joined
 * through `s`. */
static void new_table(struct harness_server *s, struct harness_player p[2], char id[64])
{
  json_t *g = harness_new_game(s, p[0].token, "himalaya", 2, NULL);

  snprintf(id, 64, "%s", harness_game_id(g));
  json_decref(g);
  assert_int_equal(harness_join(s, p[0].token, id, 0), 0);
  assert_int_equal(harness_join(s, p[1].token, id, 1), 1);
}

/* Play one legal move through `s` for whichever of p[] acts; false when
 * the game is over. */
static bool play_one(struct harness_server *s, struct harness_player *p, const char *id,
                     struct harness_rng *rng)
{
  struct harness_response r;
  json_t *pub = harness_get_game(s, NULL, id), *mine, *move;
  long seq = harness_int(pub, "seq");
  int seat = (int)json_integer_value(json_array_get(json_object_get(pub, "to_act"), 0));
  bool active = strcmp(harness_str(pub, "status"), "active") == 0;

  json_decref(pub);
  if (!active)
    return false;
  mine = harness_get_game(s, p[seat].token, id);
  move = harness_choose_move(mine, rng);
  harness_post_move(s, &r, p[seat].token, id, seq, move);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(move);
  json_decref(mine);
  return true;
}

struct outbox_wait {
  const struct pgdb *pg;
};

static bool outbox_empty(void *arg)
{
  const struct outbox_wait *w = arg;

  return pgdb_number(w->pg, "SELECT count(*) FROM webhook_outbox") == 0;
}

/* A delivery is logged after its row leaves the outbox. */
static bool one_delivered(void *arg)
{
  const struct outbox_wait *w = arg;

  return pgdb_number(w->pg, "SELECT count(*) FROM deliveries WHERE delivered") >= 1;
}

/* ---- webhooks ---- */

/* Issue 23: "webhook deliveries ... are claimed ..., so each happens exactly
 * once across nodes". Moves through both nodes in turn, and a restart of
 * one of them (whose start claims what nobody holds), owe deliveries; the
 * receiver refuses them (503) for a few seconds, so each is retried by its
 * holder over several leases and claim rounds of both nodes. Then every
 * delivery is answered 200 exactly once and never sent again: had both
 * nodes held one, both would have retried it. */
static void test_each_delivery_is_sent_once_across_two_nodes(void **state)
{
  struct fixture *f = *state;
  struct harness_server *n0, *n1;
  struct harness_rng rng = {.state = 23};
  struct harness_player p[2];
  struct outbox_wait w = {&f->n.db};
  static struct hookrx_seen seen[HOOKRX_MAX];
  char id[64];
  int i, j, n, ids = 0;

  /* Retries 1, 2, 4 and 8 s apart: still owed when the receiver is back. */
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "1000", 1);
  n0 = start_node(f, 0);
  n1 = start_node(f, 1);
  hookrx_set_down(true);
  harness_new_player(n0, "Tenzing", &p[0]);
  harness_new_player(n1, "Hillary", &p[1]);
  add_hook(n0, &p[0], "/down");
  add_hook(n1, &p[1], "/down");
  new_table(n0, p, id);
  for (i = 0; i < MOVES && play_one(i % 2 ? n1 : n0, p, id, &rng); i++)
    if (i == MOVES / 2)
      harness_restart(n1);
  /* Two leases of refusals, in real time: the point of the test. */
  usleep(2 * 1000 * atoi(LEASE_MS));
  hookrx_set_down(false);
  /* The deliveries go out on the nodes' own time. */
  assert_true(harness_wait_every(outbox_empty, &w, SETTLE_MS, 50));
  /* Two leases more: a delivery sent twice would have come by now. */
  usleep(2 * 1000 * atoi(LEASE_MS));
  n = hookrx_copy(seen, HOOKRX_MAX);
  for (i = 0; i < n; i++) {
    int answered = 0;
    bool first = true;

    for (j = 0; j < n; j++)
      if (strcmp(seen[i].delivery, seen[j].delivery) == 0) {
        answered += seen[j].status == 200;
        first = first && j >= i;
      }
    if (answered != 1)
      fail_msg("delivery %s (%s) was answered 200 %d times", seen[i].delivery, seen[i].event,
               answered);
    ids += first;
  }
  assert_true(ids > MOVES / 2); /* a start, and a turn for nearly every move */
  assert_int_equal(pgdb_number(&f->n.db, "SELECT count(*) FROM deliveries WHERE delivered"), ids);
}

struct lease_wait {
  const struct pgdb *pg;
  char holder[64]; /* the node that held the row before */
};

/* The owed row is held by a node other than w->holder, or gone (sent). */
static bool left_its_holder(void *arg)
{
  struct lease_wait *w = arg;
  char now[64];

  if (pgdb_number(w->pg, "SELECT count(*) FROM webhook_outbox") == 0)
    return true;
  pgdb_text(w->pg, "SELECT coalesce(claimed_by, '') FROM webhook_outbox", now, sizeof now);
  return now[0] && strcmp(now, w->holder) != 0;
}

/* Issue 23: "work claimed by a node that dies is finished by another". A
 * node owes a retry (the receiver said 503) and holds its row: while it
 * lives it keeps renewing the lease and the other node leaves the row
 * alone; killed (SIGKILL), its lease runs out, the other node claims the
 * row and sends the retry, under the same delivery id. */
static void test_a_killed_nodes_delivery_is_sent_by_the_other_after_its_lease(void **state)
{
  struct fixture *f = *state;
  struct harness_server *n0, *n1;
  struct harness_player p[2];
  struct outbox_wait w = {&f->n.db};
  struct lease_wait lw = {.pg = &f->n.db};
  struct hookrx_seen seen[2];
  char id[64], until[32], later[32], holder[64];

  /* Node 0 waits 4 s before its retry: long enough to die holding it. */
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "4000", 1);
  n0 = start_node(f, 0);
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "50", 1);
  n1 = start_node(f, 1);
  hookrx_set_down(true);
  harness_new_player(n0, "Tenzing", &p[0]);
  harness_new_player(n0, "Hillary", &p[1]);
  add_hook(n0, &p[1], "/down");
  new_table(n0, p, id); /* the start is owed to p[1]'s hook, by node 0 */
  assert_int_equal(hookrx_wait("/down", 1, SETTLE_MS), 1);

  pgdb_text(&f->n.db, "SELECT claimed_by FROM webhook_outbox", lw.holder, sizeof lw.holder);
  pgdb_text(&f->n.db, "SELECT claimed_until FROM webhook_outbox", until, sizeof until);
  assert_int_equal(strlen(lw.holder), 16);
  /* More than a lease passes: node 0 renews, node 1 claims nothing. The
   * wait is the point here: a lease is real time. */
  usleep(2 * 1000 * atoi(LEASE_MS));
  pgdb_text(&f->n.db, "SELECT claimed_by FROM webhook_outbox", holder, sizeof holder);
  pgdb_text(&f->n.db, "SELECT claimed_until FROM webhook_outbox", later, sizeof later);
  assert_string_equal(holder, lw.holder);
  assert_true(strtoll(later, NULL, 10) > strtoll(until, NULL, 10));
  assert_int_equal(hookrx_count("/down"), 1);

  harness_kill(n0);
  hookrx_set_down(false);
  assert_true(harness_wait_every(left_its_holder, &lw, SETTLE_MS, 50));
  assert_int_equal(hookrx_wait("/down", 2, SETTLE_MS), 2);
  assert_true(harness_wait_every(outbox_empty, &w, SETTLE_MS, 50));
  assert_int_equal(hookrx_copy(seen, 2), 2);
  assert_string_equal(seen[0].event, "start");
  assert_string_equal(seen[1].delivery, seen[0].delivery);
  assert_true(harness_wait_every(one_delivered, &w, SETTLE_MS, 50));
  assert_int_equal(pgdb_number(&f->n.db, "SELECT count(*) FROM deliveries WHERE delivered"), 1);
  assert_int_equal(pgdb_number(&f->n.db, "SELECT max(attempt) FROM deliveries WHERE delivered"), 2);
  (void)n1;
}

/* ---- bots ---- */

struct bot_wait {
  struct harness_server *server;
  const char *id;
  long seq; /* the seq the human's move made */
};

static bool bot_replied(void *arg)
{
  struct bot_wait *w = arg;
  json_t *g = harness_get_game(w->server, NULL, w->id);
  bool replied = harness_int(g, "seq") > w->seq;

  json_decref(g);
  return replied;
}

/* Issue 23: bot moves are finished by another node. A person moves on a
 * node that dies before its bot replies (CAIRN_TEST_HOLD_BOTS: the bot
 * owes its move and is not played, as after a kill between the two
 * commits); the other node, started before the game existed, so its own
 * start did not look at it, plays the bot once the game has been idle for
 * the grace period. */
static void test_a_bot_owed_by_a_killed_node_is_played_by_the_other(void **state)
{
  struct fixture *f = *state;
  struct harness_server *n0, *n1;
  struct harness_player me;
  struct harness_response r;
  struct harness_rng rng = {.state = 7};
  struct bot_wait w = {0};
  json_t *mine, *move, *g;
  char id[64];

  n1 = start_node(f, 1);
  setenv("CAIRN_TEST_HOLD_BOTS", "1", 1);
  n0 = start_node(f, 0);
  unsetenv("CAIRN_TEST_HOLD_BOTS");
  harness_new_player(n0, "solo", &me);
  harness_call(n0, &r, "POST", me.token, "{\"title\":\"himalaya\",\"seats\":2,\"bots\":[1]}",
               "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, sizeof id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  assert_int_equal(harness_join(n0, me.token, id, 0), 0);

  mine = harness_get_game(n0, me.token, id);
  assert_true(harness_may_act(mine, 0));
  move = harness_choose_move(mine, &rng);
  harness_post_move(n0, &r, me.token, id, harness_int(mine, "seq"), move);
  HARNESS_EXPECT_STATUS(&r, 200);
  w.seq = harness_int(r.json, "seq");
  harness_response_free(&r);
  json_decref(move);
  json_decref(mine);
  g = harness_get_game(n0, NULL, id);
  assert_int_equal(harness_int(g, "seq"), w.seq); /* held: the bot owes its move */
  assert_false(harness_may_act(g, 0));
  json_decref(g);

  harness_kill(n0);
  w.server = n1;
  w.id = id;
  assert_true(harness_wait_every(bot_replied, &w, SETTLE_MS, 100));
  g = harness_get_game(n1, me.token, id);
  assert_true(harness_may_act(g, 0) || strcmp(harness_str(g, "status"), "finished") == 0);
  json_decref(g);
  harness_expect_verifies(n1, id);
}

/* ---- timeouts ---- */

struct stepper {
  struct harness_server *server;
};

static void *step_clock(void *arg)
{
  struct stepper *st = arg;

  harness_advance_clock(st->server, 25LL * 3600000LL);
  return NULL;
}

/* Issue 23: deadline timeouts happen once across nodes. Both nodes' clocks
 * (--test-clock) step past the deadlines of RACE_GAMES games at the same
 * moment, so both sweepers act on each; the append is checked against the
 * log's head, so each game gets exactly one timeout row. */
static void test_a_deadline_both_nodes_see_pass_is_applied_once(void **state)
{
  struct fixture *f = *state;
  struct harness_server *n[2];
  struct harness_player p[2];
  struct stepper steppers[2];
  pthread_t threads[2];
  char ids[RACE_GAMES][64];
  int i;

  setenv("CAIRN_TEST_CLOCK", "1", 1);
  n[0] = start_node(f, 0);
  n[1] = start_node(f, 1);
  harness_new_player(n[0], "prompt", &p[0]);
  harness_new_player(n[1], "absent", &p[1]);
  for (i = 0; i < RACE_GAMES; i++) {
    struct harness_response r;

    harness_call(n[i % 2], &r, "POST", p[0].token,
                 "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"move_hours\":24},"
                 "\"on_timeout\":\"move\"}",
                 "/v1/games");
    HARNESS_EXPECT_STATUS(&r, 201);
    snprintf(ids[i], 64, "%s", harness_game_id(r.json));
    harness_response_free(&r);
    harness_join(n[i % 2], p[1].token, ids[i], 0); /* the absent player moves first */
    harness_join(n[i % 2], p[0].token, ids[i], 1);
  }
  for (i = 0; i < 2; i++) {
    steppers[i].server = n[i];
    assert_int_equal(pthread_create(&threads[i], NULL, step_clock, &steppers[i]), 0);
  }
  for (i = 0; i < 2; i++)
    pthread_join(threads[i], NULL);
  for (i = 0; i < RACE_GAMES; i++) {
    json_t *g = harness_get_game(n[i % 2], NULL, ids[i]);
    json_t *log = harness_get_log(n[(i + 1) % 2], NULL, ids[i], 0);

    /* One row: the absent seat's timeout move; the prompt seat's deadline
     * is a day after the node's stepped clock, not past on either. */
    assert_int_equal(harness_int(g, "moves"), 1);
    assert_int_equal(harness_int(g, "seq"), 1);
    assert_true(harness_may_act(g, 1));
    assert_int_equal(json_array_size(json_object_get(log, "events")) > 0, 1);
    json_decref(log);
    json_decref(g);
    harness_expect_verifies(n[i % 2], ids[i]);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_each_delivery_is_sent_once_across_two_nodes, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          test_a_killed_nodes_delivery_is_sent_by_the_other_after_its_lease, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_bot_owed_by_a_killed_node_is_played_by_the_other,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_deadline_both_nodes_see_pass_is_applied_once, setup,
                                      teardown),
  };
  int rc;

  harness_global_init();
  rc = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
