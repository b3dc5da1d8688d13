/*
 * crashkit.c - the clients and the checks of the crash tests (crashkit.h):
 * test_crash (one SQLite server) and test_crash_pg (two nodes on one
 * PostgreSQL database) play and judge games the same way.
 */
#include "crashkit.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long crash_rounds(const char *env, long fallback)
{
  const char *v = getenv(env);
  long n = v && *v ? strtol(v, NULL, 10) : fallback;
  return n > 0 ? n : fallback;
}

uint64_t crash_seed(void)
{
  const char *v = getenv("CAIRN_CRASH_SEED");
  if (v && *v)
    return strtoull(v, NULL, 0);
  return (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

static void add_ack(struct crash_game *g, long ord, long seq, int seat, char *move)
{
  if (g->n_acks == g->cap_acks) {
    size_t cap = g->cap_acks ? 2 * g->cap_acks : 64;
    struct crash_ack *grown = realloc(g->acks, cap * sizeof(*grown));
    if (!grown) {
      free(move);
      return;
    }
    g->acks = grown;
    g->cap_acks = cap;
  }
  g->acks[g->n_acks++] = (struct crash_ack){.ord = ord, .seq = seq, .seat = seat, .move = move};
}

/* Record a seq and move count the server showed; false when either went
 * backwards (the message goes to `error`). */
static bool saw(struct crash_game *g, const json_t *game, char *error, size_t n)
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
void *crash_drive(void *arg)
{
  struct crash_driver *d = arg;
  struct crash_game *g = d->game;
  struct harness_client c;
  char path[128];

  harness_client_init(&c, d->server);
  while (!atomic_load(d->stop)) {
    struct harness_response r = {0}, mine = {0}, answer = {0};
    struct harness_request post = {.method = "POST", .path = path};
    json_t *legal, *move, *body = NULL;
    char *text = NULL, *move_text = NULL;
    long moves_before;
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
    if (!g->players[seat]) { /* a bot's turn: the server owes it, the client waits */
      usleep(10 * 1000);
      continue;
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
    /* The row this move becomes: nothing else moves the game meanwhile
     * (one client per game; a bot only after this move). */
    moves_before = (long)json_integer_value(json_object_get(mine.json, "moves"));
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
    /* A game with bots answers with their replies in: its move count has
     * moved on past this move's row. */
    add_ack(g, g->has_bot ? moves_before : g->seen_moves - 1,
            (long)json_integer_value(json_object_get(answer.json, "seq")), seat, move_text);
    d->posted++;
    harness_response_free(&answer);
  }
  harness_client_cleanup(&c);
  return NULL;
}

void crash_check_game(struct harness_server *s, struct crash_game *g)
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
    if (!g->players[seat])
      continue; /* a bot's seat: it made no move a client was answered for */
    harness_call(s, &r, "GET", g->players[seat]->token, NULL, "/v1/games/%s/export", g->id);
    HARNESS_EXPECT_JSON(&r, 200);
    json_t *rows = json_object_get(r.json, "moves");
    if ((long)json_array_size(rows) < g->seen_moves)
      harness_fail_response(&r, __FILE__, __LINE__, "export holds %zu rows, %ld were answered",
                            json_array_size(rows), g->seen_moves);
    for (i = 0; i < g->n_acks; i++) {
      const struct crash_ack *a = &g->acks[i];
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

void crash_new_game(struct harness_server *s, struct crash_game *g, int seats,
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

void crash_new_bot_game(struct harness_server *s, struct crash_game *g, struct harness_player *me)
{
  struct harness_response r;

  memset(g, 0, sizeof(*g));
  g->seats = 2;
  g->has_bot = true;
  harness_call(s, &r, "POST", me->token, "{\"title\":\"himalaya\",\"seats\":2,\"bots\":[1]}",
               "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(g->id, sizeof g->id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  g->players[0] = me;
  harness_join(s, me->token, g->id, 0);
}

void crash_game_free(struct crash_game *g)
{
  for (size_t j = 0; j < g->n_acks; j++)
    free(g->acks[j].move);
  free(g->acks);
  g->acks = NULL;
  g->n_acks = g->cap_acks = 0;
}
