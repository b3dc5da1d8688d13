/*
 * test_crash.c - crash safety: the server is killed with SIGKILL at random
 * moments while clients are moving, restarted on the same database, and
 * must have kept every promise it made before it died.
 *
 * api/README.md "Moves": "200 {seq, events, game} only after the log row is
 * committed". So after any crash:
 *   - every move that was answered 200 is in the log, at the row the answer
 *     named (game.moves - 1), with the seq, seat and move of the answer;
 *   - no seq or move count that any answer showed goes backwards;
 *   - the log's seqs never decrease with ord;
 *   - every game still verifies (GET /v1/games/{id}/verify: ok, the hash
 *     chain and the replay from the seed both ok).
 * A move whose answer never arrived may or may not be in the log; either is
 * fine, and the next round goes on from whatever the server says.
 *
 * Each round runs one client thread per game (Himalaya, 2 and 3 seats),
 * each playing random legal moves, kills the server after a random delay,
 * joins the threads, restarts the server and checks every game. A finished
 * game is replaced by a new one and checked again at the end.
 *
 * CAIRN_CRASH_ROUNDS sets the number of kills (default 15, `make crashtest`
 * runs 200); CAIRN_CRASH_SEED fixes the random delays and moves (it is
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
#include <time.h>
#include <unistd.h>

#include "tests/api/crashkit.h"
#include "tests/api/harness.h"

#define DEFAULT_ROUNDS 15
#define LIVE_GAMES     3   /* games being played at once, one thread each */
#define MAX_GAMES      256 /* every game ever played in one run */
#define MAX_KILL_MS    120 /* a kill comes 0..MAX_KILL_MS ms into a round */

/* api/README.md "Moves": a 200 is sent only after the log row is committed;
 * the log survives SIGKILL at any moment, and every game still replays. */
static void test_moves_answered_200_survive_sigkill_and_games_still_verify(void **state)
{
  struct harness_server *s = *state;
  long rounds = crash_rounds("CAIRN_CRASH_ROUNDS", DEFAULT_ROUNDS);
  uint64_t seed = crash_seed();
  struct harness_rng rng = {.state = seed};
  struct harness_player players[3];
  static struct crash_game games[MAX_GAMES];
  size_t n_games = 0;
  size_t live[LIVE_GAMES];
  long posted = 0, unanswered = 0;
  char name[32];
  int i;

  print_message("crash test: %ld rounds, CAIRN_CRASH_SEED=%llu\n", rounds,
                (unsigned long long)seed);
  for (i = 0; i < 3; i++) {
    snprintf(name, sizeof name, "crash-%d", i);
    harness_new_player(s, name, &players[i]);
  }
  for (i = 0; i < LIVE_GAMES; i++) {
    live[i] = n_games;
    crash_new_game(s, &games[n_games++], i == 1 ? 3 : 2, players);
  }

  for (long round = 0; round < rounds; round++) {
    atomic_bool stop = false;
    struct crash_driver drivers[LIVE_GAMES];
    pthread_t threads[LIVE_GAMES];

    for (i = 0; i < LIVE_GAMES; i++) {
      drivers[i] = (struct crash_driver){.server = s,
                                         .game = &games[live[i]],
                                         .stop = &stop,
                                         .rng = {.state = harness_rng_next(&rng)}};
      if (pthread_create(&threads[i], NULL, crash_drive, &drivers[i]) != 0)
        fail_msg("pthread_create failed");
    }
    /* A random moment for the kill: the point of this test, not a wait. */
    usleep((useconds_t)(1000 * harness_rng_below(&rng, MAX_KILL_MS + 1)));
    harness_kill(s);
    atomic_store(&stop, true);
    for (i = 0; i < LIVE_GAMES; i++)
      pthread_join(threads[i], NULL);
    harness_resume(s);
    for (i = 0; i < LIVE_GAMES; i++) {
      if (drivers[i].error[0])
        fail_msg("round %ld: %s", round, drivers[i].error);
      posted += drivers[i].posted;
      unanswered += drivers[i].unanswered;
    }
    for (i = 0; i < LIVE_GAMES; i++) {
      struct crash_game *g = &games[live[i]];
      crash_check_game(s, g);
      if (g->finished && n_games < MAX_GAMES) {
        live[i] = n_games;
        crash_new_game(s, &games[n_games++], g->seats, players);
      }
    }
  }

  /* A last look at every game, finished ones included. */
  for (size_t k = 0; k < n_games; k++)
    crash_check_game(s, &games[k]);
  print_message("crash test: %ld kills, %ld moves answered 200, %ld cut off unanswered, %zu games, "
                "all verified\n",
                rounds, posted, unanswered, n_games);
  for (size_t k = 0; k < n_games; k++)
    crash_game_free(&games[k]);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(
          test_moves_answered_200_survive_sigkill_and_games_still_verify, harness_setup,
          harness_teardown),
  };
  int rc;

  harness_global_init();
  rc = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
