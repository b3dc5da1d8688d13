/*
 * sweeper.c - acting on expired deadlines, and the test clock.
 *
 * Each seat's clock and deadline are clocks.c's. A thread wakes every
 * SWEEP_MS, asks storage for the active games with a deadline past and,
 * under the game lock, re-checks and acts for every seat out of time: with on_timeout "move" it
 * plays a random legal move for the absent seat (the same move a bot would choose; every title's
 * timeout move); with "adjudicate" it ends the game against those seats, recorded as a platform row
 * so the log stays the truth. Either way the change is committed, announced and sent to webhooks
 * like any move.
 *
 * All times come from server->now_ms. With --test-clock that clock runs
 * `offset` ahead of the real one and POST /v1/test/clock {"advance_ms": N}
 * moves it on, so tests of deadlines need no sleeps.
 */
#include "api.h"

#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SWEEP_MS 100

static _Atomic int64_t test_offset_ms; /* the test clock's lead; process-wide, as the clock is */

int64_t api_clock_test(void)
{
  return api_clock_realtime() + atomic_load(&test_offset_ms);
}

static const struct api_field clock_fields[] = {
    {"advance_ms", API_INT, true},
    {NULL, 0, false},
};

enum cairn_status api_test_clock(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  json_t *doc = NULL;
  json_int_t ms;
  enum cairn_status st;

  if (req->server->now_ms != api_clock_test)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                      "no resource at %s (the server runs on the real clock)", req->path);
  st = api_body_object(req, clock_fields, false, &doc, err);
  if (st != CAIRN_OK)
    return st;
  ms = json_integer_value(json_object_get(doc, "advance_ms"));
  json_decref(doc);
  if (ms < 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "the clock only moves on");
  atomic_fetch_add(&test_offset_ms, (int64_t)ms);
  resp->status = 200;
  resp->body = json_pack("{s:o}", "now", api_time_json(api_clock_test()));
  return CAIRN_OK;
}

/* The seats in seats[0..n) ran out of time. */
static enum cairn_status time_out(struct api_server *server, struct db_game *row,
                                  const struct engine_game *state, const int *seats, int n,
                                  struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int i;

  if (strcmp(row->on_timeout, "adjudicate") == 0) {
    json_t *timed_out = json_array();
    json_t *winners = json_array();
    json_t *move, *result, *events = NULL;
    struct engine_game *next = engine_clone(state);
    char *result_text;
    int seat;

    for (seat = 0; seat < row->seats; seat++) {
      bool late = false;

      for (i = 0; i < n; i++)
        late = late || seats[i] == seat;
      json_array_append_new(late ? timed_out : winners, json_integer(seat));
    }
    move = json_pack("{s:s, s:O}", "cairn", "adjudicate", "timed_out", timed_out);
    result = json_pack("{s:O, s:s, s:O}", "winners", winners, "reason", "timeout", "timed_out",
                       timed_out);
    result_text = json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS);
    if (next && move && result_text) {
      struct db_move probe = {.ord = row->moves, .seq = row->seq};

      st = api_platform_apply(move, &probe, &next, &events, NULL, NULL, err);
      if (st == CAIRN_OK)
        st = api_append_finished(server, row, seats[0], move, events, next, result_text, err);
      else
        engine_free(next);
    } else {
      engine_free(next);
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    }
    free(result_text);
    json_decref(result);
    json_decref(move);
    json_decref(events);
    json_decref(timed_out);
    json_decref(winners);
    return st;
  }
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    const struct engine_game *now = NULL;
    struct engine_game *next = NULL;
    json_t *move, *events = NULL;

    st = api_live_get(server, row, &now, err);
    if (st != CAIRN_OK || !engine_may_act(now, seats[i]))
      continue;
    move = engine_sample_move(now, seats[i],
                              randombytes_random() | (uint64_t)randombytes_random() << 32);
    st = move ? engine_apply(now, seats[i], move, &next, &events, err)
              : cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "no legal move");
    if (st == CAIRN_OK)
      st = api_append_row(server, row, seats[i], move, events, next, err);
    json_decref(move);
    json_decref(events);
  }
  return st;
}

static enum cairn_status sweep_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct api_server *server = arg;
  struct db_game row = {0};
  const struct engine_game *state = NULL;
  int seats[ENGINE_MAX_SEATS], n = 0;
  enum cairn_status st;

  api_game_lock(server, game_id);
  /* Re-checked under the lock: a move may have landed since the query. */
  st = db_game_load(server->db, game_id, &row, err);
  if (st == CAIRN_OK && strcmp(row.status, DB_STATUS_ACTIVE) == 0 &&
      (n = api_clocks_overdue(server, &row, seats)) > 0) {
    st = api_live_get(server, &row, &state, err);
    if (st == CAIRN_OK)
      st = time_out(server, &row, state, seats, n, err);
    if (st == CAIRN_OK)
      api_bots_play(server, &row);
  }
  api_game_unlock(server, game_id);
  if (st != CAIRN_OK)
    fprintf(stderr, "cairn: sweeper: game %s: %s\n", game_id, err->detail);
  db_game_clear(&row);
  return CAIRN_OK; /* one game's trouble does not stop the sweep */
}

static void *sweeper_main(void *arg)
{
  struct api_server *server = arg;
  struct timespec pause = {0, SWEEP_MS * 1000000L};
  struct cairn_error err = {0};

  while (!atomic_load(&server->stopping)) {
    nanosleep(&pause, NULL);
    db_games_overdue(server->db, server->now_ms(), sweep_game, server, &err);
  }
  return NULL;
}

bool api_sweeper_start(struct api_server *server)
{
  return pthread_create(&server->sweeper, NULL, sweeper_main, server) == 0;
}

void api_sweeper_stop(struct api_server *server)
{
  atomic_store(&server->stopping, true);
  pthread_join(server->sweeper, NULL);
}
