/*
 * test_crash_pg.c - crash safety of two nodes on one PostgreSQL database
 * (issue 23): clients play through both nodes while one of them is killed
 * with SIGKILL at random moments and restarted, over and over.
 *
 * After every kill, through the node that lived and the restarted one in
 * turn, every game keeps test_crash's promises (crashkit.h): every move
 * answered 200 is in the log at its row, no seq or move count went
 * backwards, and the game verifies (hash chain and replay from the seed:
 * no game is half-applied). At the end, everything owed was done by some
 * node: every webhook delivery the changes owed was delivered (the outbox
 * is empty and no attempt failed; every player has a webhook, so every
 * change owes some), and no bot game waits on its bot.
 *
 * Games: LIVE_GAMES between people and BOT_GAMES of a person against the
 * built-in bot, whose replies the killed node may owe when it dies (then
 * the other node's sweep or the restarted node plays them). Round r
 * drives game i through node (i + r) % 2, so both nodes take moves of
 * every game; node 0 is the one killed.
 *
 * CAIRN_CRASH_PG_ROUNDS sets the number of kills (default 6, `make
 * crashtest` runs 60); CAIRN_CRASH_SEED fixes the delays and moves (it is
 * printed, so a failing run can be repeated).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/crashkit.h"
#include "tests/api/harness.h"
#include "tests/api/hookrx.h"
#include "tests/api/pgdb.h"

#define DEFAULT_ROUNDS 6
#define LIVE_GAMES     2 /* people only, one thread each */
#define BOT_GAMES      2 /* a person against the bot, one thread each */
#define GAMES          (LIVE_GAMES + BOT_GAMES)
#define MAX_GAMES      128 /* every game ever played in one run */
#define MAX_KILL_MS    300 /* a kill comes 0..MAX_KILL_MS ms into a round */
#define SETTLE_MS      30000

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
  setenv("CAIRN_WEBHOOK_LEASE_MS", "1000", 1);
  setenv("CAIRN_WEBHOOK_BACKOFF_MS", "50", 1);
  hookrx_start();
  pgnodes_start(&f->n, 0);
  pgnodes_start(&f->n, 1);
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
  free(f);
  return rc;
}

static void add_hook(struct harness_server *s, const struct harness_player *owner)
{
  struct harness_response r;
  char body[256];

  snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d/ok\",\"format\":\"json\"}",
           hookrx_port());
  harness_call(s, &r, "POST", owner->token, body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  harness_response_free(&r);
}

static void new_game_of_kind(struct harness_server *s, struct crash_game *g, int kind,
                             struct harness_player *players)
{
  if (kind < LIVE_GAMES)
    crash_new_game(s, g, kind == 1 ? 3 : 2, players);
  else
    crash_new_bot_game(s, g, &players[kind]);
}

struct settled {
  struct fixture *f;
  struct crash_game *games;
  size_t n;
};

/* Nothing is owed any more: no delivery in the outbox, and no bot game
 * waiting on its bot. */
static bool all_owed_done(void *arg)
{
  struct settled *w = arg;
  size_t k;

  if (pgdb_number(&w->f->n.db, "SELECT count(*) FROM webhook_outbox") != 0)
    return false;
  for (k = 0; k < w->n; k++) {
    struct crash_game *g = &w->games[k];
    json_t *game;
    bool waiting;

    if (!g->has_bot)
      continue;
    game = harness_get_game(&w->f->n.node[k % 2], NULL, g->id);
    waiting = strcmp(harness_str(game, "status"), "active") == 0 && !harness_may_act(game, 0);
    json_decref(game);
    if (waiting)
      return false;
  }
  return true;
}

/* Issue 23: "kill -9 of a node under load loses no acknowledged move and
 * leaves no half-applied game", and background work a dead node held is
 * finished by another. */
static void test_two_nodes_one_killed_repeatedly_keep_every_promise(void **state)
{
  struct fixture *f = *state;
  struct harness_server *n = f->n.node;
  long rounds = crash_rounds("CAIRN_CRASH_PG_ROUNDS", DEFAULT_ROUNDS);
  uint64_t seed = crash_seed();
  struct harness_rng rng = {.state = seed};
  struct harness_player players[GAMES + 1];
  static struct crash_game games[MAX_GAMES];
  struct settled w = {.f = f, .games = games};
  size_t n_games = 0, live[GAMES], k;
  long posted = 0, unanswered = 0;
  char name[32];
  int i;

  print_message("two-node crash test: %ld rounds, CAIRN_CRASH_SEED=%llu\n", rounds,
                (unsigned long long)seed);
  for (i = 0; i <= GAMES; i++) {
    snprintf(name, sizeof name, "crash-%d", i);
    harness_new_player(&n[i % 2], name, &players[i]);
    add_hook(&n[i % 2], &players[i]);
  }
  for (i = 0; i < GAMES; i++) {
    live[i] = n_games;
    new_game_of_kind(&n[i % 2], &games[n_games++], i, players);
  }

  for (long round = 0; round < rounds; round++) {
    atomic_bool stop = false;
    struct crash_driver drivers[GAMES];
    pthread_t threads[GAMES];

    for (i = 0; i < GAMES; i++) {
      drivers[i] = (struct crash_driver){.server = &n[(i + round) % 2],
                                         .game = &games[live[i]],
                                         .stop = &stop,
                                         .rng = {.state = harness_rng_next(&rng)}};
      if (pthread_create(&threads[i], NULL, crash_drive, &drivers[i]) != 0)
        fail_msg("pthread_create failed");
    }
    /* A random moment for the kill: the point of this test, not a wait. */
    usleep((useconds_t)(1000 * harness_rng_below(&rng, MAX_KILL_MS + 1)));
    harness_kill(&n[0]);
    atomic_store(&stop, true);
    for (i = 0; i < GAMES; i++)
      pthread_join(threads[i], NULL);
    for (i = 0; i < GAMES; i++) {
      if (drivers[i].error[0])
        fail_msg("round %ld: %s", round, drivers[i].error);
      posted += drivers[i].posted;
      unanswered += drivers[i].unanswered;
    }
    /* The node that lived answers for every game while the other is down. */
    for (i = 0; i < GAMES; i++)
      crash_check_game(&n[1], &games[live[i]]);
    harness_resume(&n[0]);
    for (i = 0; i < GAMES; i++) {
      struct crash_game *g = &games[live[i]];

      crash_check_game(&n[0], g);
      if (g->finished && n_games < MAX_GAMES) {
        live[i] = n_games;
        new_game_of_kind(&n[1], &games[n_games++], i, players);
      }
    }
  }

  /* Everything owed is done by some node: deliveries and bot replies. */
  w.n = n_games;
  if (!harness_wait_every(all_owed_done, &w, SETTLE_MS, 100))
    fail_msg("after %ld kills, deliveries or bot moves are still owed %d s later", rounds,
             SETTLE_MS / 1000);
  assert_int_equal(pgdb_number(&f->n.db, "SELECT count(*) FROM deliveries WHERE NOT delivered"), 0);
  assert_true(pgdb_number(&f->n.db, "SELECT count(*) FROM deliveries") > 0);
  for (k = 0; k < n_games; k++) {
    crash_check_game(&n[k % 2], &games[k]);
    crash_game_free(&games[k]);
  }
  print_message("two-node crash test: %ld kills, %ld moves answered 200, %ld cut off unanswered, "
                "%zu games, all verified, %d deliveries received, nothing left owed\n",
                rounds, posted, unanswered, n_games, hookrx_count(NULL));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_two_nodes_one_killed_repeatedly_keep_every_promise,
                                      setup, teardown),
  };
  int rc;

  harness_global_init();
  rc = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
