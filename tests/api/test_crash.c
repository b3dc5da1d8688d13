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

#include "tests/api/harness.h"

#define DEFAULT_ROUNDS 15
#define LIVE_GAMES     3   /* games being played at once, one thread each */
#define MAX_GAMES      256 /* every game ever played in one run */
#define MAX_KILL_MS    120 /* a kill comes 0..MAX_KILL_MS ms into a round */

/* One move the server answered 200. */
struct ack {
  long ord;   /* game.moves - 1 in the answer: the row it was stored as */
  long seq;   /* the answer's seq */
  int seat;   /* who moved */
  char *move; /* owned: the move sent, compact and key-sorted */
};

struct tracked {
  char id[64];
  int seats;
  struct harness_player *players[5]; /* Borrowed from the test: seat i's player */
  struct ack *acks;                  /* owned, n_acks long */
  size_t n_acks, cap_acks;
  long seen_seq;   /* the highest seq any answer showed */
  long seen_moves; /* the highest move count any answer showed */
  bool finished;
};

/* One client thread's work for one round. */
struct driver {
  struct harness_server *server;
  struct tracked *game;
  const atomic_bool *stop;
  struct harness_rng rng;
  char error[768]; /* set when the server broke a promise; "" otherwise */
  long posted;     /* moves answered 200 in this round */
  long unanswered; /* moves sent whose answer the kill cut off */
};

static long crash_rounds(void)
{
  const char *v = getenv("CAIRN_CRASH_ROUNDS");
  long n = v && *v ? strtol(v, NULL, 10) : DEFAULT_ROUNDS;
  return n > 0 ? n : DEFAULT_ROUNDS;
}

static uint64_t crash_seed(void)
{
  const char *v = getenv("CAIRN_CRASH_SEED");
  if (v && *v)
    return strtoull(v, NULL, 0);
  return (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

static void add_ack(struct tracked *g, long ord, long seq, int seat, char *move)
{
  if (g->n_acks == g->cap_acks) {
    size_t cap = g->cap_acks ? 2 * g->cap_acks : 64;
    struct ack *grown = realloc(g->acks, cap * sizeof(*grown));
    if (!grown) {
      free(move);
      return;
    }
    g->acks = grown;
    g->cap_acks = cap;
  }
  g->acks[g->n_acks++] = (struct ack){.ord = ord, .seq = seq, .seat = seat, .move = move};
}

/* Record a seq and move count the server showed; false when either went
 * backwards (the message goes to `error`). */
static bool saw(struct tracked *g, const json_t *game, char *error, size_t n)
{
  json_t *seq = json_object_get(game, "seq");
  json_t *moves = json_object_get(game, "moves");
  if (!json_is_integer(seq) || !json_is_integer(moves)) {
    snprintf(error, n, "game %s: resource without integer seq and moves", g->id);
    return false;
  }
  if (json_integer_value(seq) < g->seen_seq || json_integer_value(moves) < g->seen_moves) {
    snprintf(error, n, "game %s went backwards: seq %lld moves %lld after seq %ld moves %ld", g->id,
             (long long)json_integer_value(seq), (long long)json_integer_value(moves), g->seen_seq,
             g->seen_moves);
    return false;
  }
  g->seen_seq = (long)json_integer_value(seq);
  g->seen_moves = (long)json_integer_value(moves);
  return true;
}

/* GET a path into *r on the thread's own client; false when no answer came
 * (the server is gone). */
static bool get(struct harness_client *c, const char *token, const char *path,
                struct harness_response *r)
{
  struct harness_request req = {.method = "GET", .path = path, .token = token};
  return harness_send(c, &req, r);
}

/* Play random legal moves until told to stop or the server goes away. Uses
 * no cmocka calls: failures are written to d->error for the main thread. */
static void *drive(void *arg)
{
  struct driver *d = arg;
  struct tracked *g = d->game;
  struct harness_client c;
  char path[128];

  harness_client_init(&c, d->server);
  while (!atomic_load(d->stop)) {
    struct harness_response r = {0}, mine = {0}, answer = {0};
    struct harness_request post = {.method = "POST", .path = path};
    json_t *legal, *move, *body = NULL;
    char *text = NULL, *move_text = NULL;
    int seat;
    bool ok;

    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    if (!get(&c, NULL, path, &r)) {
      harness_response_free(&r);
      break;
    }
    if (r.status != 200 || !saw(g, r.json, d->error, sizeof d->error)) {
      if (!d->error[0])
        snprintf(d->error, sizeof d->error, "GET %s: %ld %.300s", path, r.status, r.body);
      harness_response_free(&r);
      break;
    }
    if (strcmp(json_string_value(json_object_get(r.json, "status")), "finished") == 0) {
      g->finished = true;
      harness_response_free(&r);
      break;
    }
    seat = (int)json_integer_value(json_array_get(json_object_get(r.json, "to_act"), 0));
    harness_response_free(&r);
    if (seat < 0 || seat >= g->seats) {
      snprintf(d->error, sizeof d->error, "game %s: seat to act %d", g->id, seat);
      break;
    }
    ok = get(&c, g->players[seat]->token, path, &mine);
    legal = json_object_get(mine.json, "legal");
    if (!ok || mine.status != 200 || json_array_size(legal) == 0) {
      if (ok && !d->error[0])
        snprintf(d->error, sizeof d->error, "game %s: seat %d has no legal move: %ld %.300s", g->id,
                 seat, mine.status, mine.body);
      harness_response_free(&mine);
      break;
    }
    move = json_array_get(legal, harness_rng_below(&d->rng, json_array_size(legal)));
    body = json_pack("{s:O, s:O}", "seq", json_object_get(mine.json, "seq"), "move", move);
    text = json_dumps(body, JSON_COMPACT);
    move_text = harness_dump(move);
    harness_response_free(&mine);
    snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
    post.token = g->players[seat]->token;
    post.body = text;
    post.body_len = strlen(text);
    ok = harness_send(&c, &post, &answer);
    json_decref(body);
    free(text);
    if (!ok) { /* killed before it answered: the move may or may not be in */
      d->unanswered++;
      free(move_text);
      harness_response_free(&answer);
      break;
    }
    if (answer.status != 200) {
      snprintf(d->error, sizeof d->error, "game %s: a legal move at the current seq got %ld %.300s",
               g->id, answer.status, answer.body);
      free(move_text);
      harness_response_free(&answer);
      break;
    }
    json_t *game = json_object_get(answer.json, "game");
    if (!saw(g, game, d->error, sizeof d->error)) {
      free(move_text);
      harness_response_free(&answer);
      break;
    }
    add_ack(g, g->seen_moves - 1, (long)json_integer_value(json_object_get(answer.json, "seq")),
            seat, move_text);
    d->posted++;
    harness_response_free(&answer);
  }
  harness_client_cleanup(&c);
  return NULL;
}

/* Every promise the server made about `g`, checked after a restart. */
static void check_game(struct harness_server *s, struct tracked *g)
{
  json_t *game = harness_get_game(s, NULL, g->id);
  char error[768] = "";
  struct harness_response r;
  long last_seq = -1;
  size_t i;
  json_t *ev;

  if (!saw(g, game, error, sizeof error))
    fail_msg("after a restart: %s", error);
  if (strcmp(harness_str(game, "status"), "finished") == 0)
    g->finished = true;
  json_decref(game);

  /* Every acknowledged move, at its row, as each mover's own export shows
   * it (a live export redacts only other seats' secret moves). */
  for (int seat = 0; seat < g->seats; seat++) {
    harness_call(s, &r, "GET", g->players[seat]->token, NULL, "/v1/games/%s/export", g->id);
    HARNESS_EXPECT_JSON(&r, 200);
    json_t *rows = json_object_get(r.json, "moves");
    if ((long)json_array_size(rows) < g->seen_moves)
      harness_fail_response(&r, __FILE__, __LINE__, "export holds %zu rows, %ld were answered",
                            json_array_size(rows), g->seen_moves);
    for (i = 0; i < g->n_acks; i++) {
      const struct ack *a = &g->acks[i];
      if (a->seat != seat)
        continue;
      json_t *row = json_array_get(rows, (size_t)a->ord);
      char *stored = row ? harness_dump(json_object_get(row, "move")) : NULL;
      if (!row || json_integer_value(json_object_get(row, "ord")) != a->ord ||
          json_integer_value(json_object_get(row, "seq")) != a->seq ||
          json_integer_value(json_object_get(row, "seat")) != a->seat || !stored ||
          strcmp(stored, a->move) != 0)
        harness_fail_response(&r, __FILE__, __LINE__,
                              "game %s: the move answered 200 as row %ld (seq %ld, seat %d, %s) "
                              "is not in the log after a crash; row holds %s",
                              g->id, a->ord, a->seq, a->seat, a->move, stored ? stored : "nothing");
      free(stored);
    }
    harness_response_free(&r);
  }

  /* The log: seqs never decrease with ord. */
  json_t *log = harness_get_log(s, NULL, g->id, 0);
  json_array_foreach(json_object_get(log, "events"), i, ev)
  {
    long seq = harness_int(ev, "seq");
    if (seq < last_seq)
      fail_msg("game %s: the log's seq goes back from %ld to %ld", g->id, last_seq, seq);
    last_seq = seq;
  }
  json_decref(log);

  /* The audit: hash chain and full replay from the seed. */
  harness_expect_verifies(s, g->id);
}

static void new_game(struct harness_server *s, struct tracked *g, int seats,
                     struct harness_player *players)
{
  memset(g, 0, sizeof(*g));
  g->seats = seats;
  json_t *created = harness_new_game(s, players[0].token, "himalaya", seats, NULL);
  snprintf(g->id, sizeof g->id, "%s", harness_game_id(created));
  json_decref(created);
  for (int i = 0; i < seats; i++) {
    g->players[i] = &players[i];
    harness_join(s, players[i].token, g->id, i);
  }
}

/* api/README.md "Moves": a 200 is sent only after the log row is committed;
 * the log survives SIGKILL at any moment, and every game still replays. */
static void test_moves_answered_200_survive_sigkill_and_games_still_verify(void **state)
{
  struct harness_server *s = *state;
  long rounds = crash_rounds();
  uint64_t seed = crash_seed();
  struct harness_rng rng = {.state = seed};
  struct harness_player players[3];
  static struct tracked games[MAX_GAMES];
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
    new_game(s, &games[n_games++], i == 1 ? 3 : 2, players);
  }

  for (long round = 0; round < rounds; round++) {
    atomic_bool stop = false;
    struct driver drivers[LIVE_GAMES];
    pthread_t threads[LIVE_GAMES];

    for (i = 0; i < LIVE_GAMES; i++) {
      drivers[i] = (struct driver){.server = s,
                                   .game = &games[live[i]],
                                   .stop = &stop,
                                   .rng = {.state = harness_rng_next(&rng)}};
      if (pthread_create(&threads[i], NULL, drive, &drivers[i]) != 0)
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
      struct tracked *g = &games[live[i]];
      check_game(s, g);
      if (g->finished && n_games < MAX_GAMES) {
        live[i] = n_games;
        new_game(s, &games[n_games++], g->seats, players);
      }
    }
  }

  /* A last look at every game, finished ones included. */
  for (size_t k = 0; k < n_games; k++)
    check_game(s, &games[k]);
  print_message("crash test: %ld kills, %ld moves answered 200, %ld cut off unanswered, %zu games, "
                "all verified\n",
                rounds, posted, unanswered, n_games);
  for (size_t k = 0; k < n_games; k++) {
    for (size_t j = 0; j < games[k].n_acks; j++)
      free(games[k].acks[j].move);
    free(games[k].acks);
  }
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
