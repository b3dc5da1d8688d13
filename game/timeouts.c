/*
 * timeouts.c - acting on expired deadlines: the sweeper thread.
 *
 * Each seat's clock and deadline are clocks.c's. A thread wakes every
 * SWEEP_MS, asks storage for the active games with a deadline past and,
 * under the game lock, re-checks and acts for every seat out of time: with on_timeout "move" it
 * plays a random legal move for the absent seat (the same move a bot would choose; every title's
 * timeout move); with "adjudicate" it ends the game against those seats, recorded as a platform row
 * so the log stays the truth; with "wait" it does nothing (storage does not even list such games):
 * the late seat may still move, or the other people may vote to hand it to a bot (replace.c).
 * Either way the change is committed, announced and sent to webhooks like any move.
 *
 * All times come from svc->now_ms. With --test-clock that clock runs
 * `offset` ahead of the real one and POST /v1/test/clock {"advance_ms": N}
 * moves it on, then sweeps at once (game_sweep_now), so tests of deadlines
 * need no sleeps.
 */
#include "game.h"
#include "../log/log.h"
#include "fog.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SWEEP_MS 100
/* The sweep for bots a dead node owed (bots.c) runs every BOT_SWEEP_TICKS
 * sweeps (a second). Its windows overlap by a grace period, so a change
 * whose row became visible late (a slow commit, another node's clock a
 * little behind) is still looked at: a game looked at twice costs one
 * re-check under its lock. */
#define BOT_SWEEP_TICKS 10

/* with on_timeout "adjudicate": end the game against the seats in
 * seats[0..n), one platform row whose result the game row keeps. */
static enum cairn_status adjudicate_late(struct game_service *svc, struct db_game *row,
                                         const struct engine_game *state, const int *seats, int n,
                                         struct cairn_error *err)
{
  json_t *timed_out = json_array();
  json_t *winners = json_array();
  json_t *move = NULL, *result = NULL, *events = NULL;
  struct engine_game *next = engine_clone(state);
  struct db_move probe = {.ord = row->moves, .seq = row->seq}; /* the row to be */
  char *result_text = NULL;
  enum cairn_status st;
  int seat, i;

  for (seat = 0; seat < row->seats; seat++) {
    bool late = false;

    for (i = 0; i < n; i++)
      late = late || seats[i] == seat;
    json_array_append_new(late ? timed_out : winners, json_integer(seat));
  }
  move = json_pack("{s:s, s:O}", "cairn", "adjudicate", "timed_out", timed_out);
  result =
      json_pack("{s:O, s:s, s:O}", "winners", winners, "reason", "timeout", "timed_out", timed_out);
  result_text = json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS);
  if (!next || !move || !result_text) {
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    goto cleanup;
  }
  st = game_platform_apply(move, &probe, &next, &events, NULL, NULL, err);
  if (st == CAIRN_OK) {
    struct game_change change = {.kind = GAME_CHANGE_TIMEOUT,
                                 .seat = seats[0],
                                 .move = move,
                                 .events = events,
                                 .next = next,
                                 .result_json = result_text};

    next = NULL; /* taken */
    st = game_commit(svc, row, &change, err);
  }
cleanup:
  engine_free(next);
  free(result_text);
  json_decref(result);
  json_decref(move);
  json_decref(events);
  json_decref(timed_out);
  json_decref(winners);
  return st;
}

/* with on_timeout "move": play a random legal move for each seat in
 * seats[0..n) that still owes a decision (the move a bot would choose). */
static enum cairn_status move_for_late(struct game_service *svc, struct db_game *row,
                                       const int *seats, int n, struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int i;

  for (i = 0; st == CAIRN_OK && i < n; i++) {
    const struct engine_game *now = NULL;

    st = game_live_get(svc, row, &now, err);
    if (st == CAIRN_OK && engine_may_act(now, seats[i]))
      st = game_play_sampled(svc, row, now, seats[i], GAME_CHANGE_TIMEOUT, NULL, err);
  }
  return st;
}

static enum cairn_status sweep_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct game_service *svc = arg;
  struct db_game row = {0};
  const struct engine_game *state = NULL;
  int seats[ENGINE_MAX_SEATS], n = 0;
  enum cairn_status st;

  game_lock(svc, game_id);
  /* Re-checked under the lock: a move may have landed since the query. */
  st = db_game_load(svc->db, game_id, &row, err);
  if (st == CAIRN_OK && strcmp(row.status, DB_STATUS_ACTIVE) == 0 &&
      strcmp(row.on_timeout, "wait") != 0 && (n = game_clocks_overdue(svc, &row, seats)) > 0) {
    st = game_live_get(svc, &row, &state, err);
    if (st == CAIRN_OK && strcmp(row.on_timeout, "adjudicate") == 0)
      st = adjudicate_late(svc, &row, state, seats, n, err);
    else if (st == CAIRN_OK)
      st = move_for_late(svc, &row, seats, n, err);
  }
  game_unlock(svc, game_id);
  /* Stale: another node (or a request) moved the game first; with several
   * nodes, every sweeper sees one deadline pass and only one append lands,
   * since each is checked against the log's head. */
  if (st == CAIRN_ESTALE)
    log_line(LOG_INFO, "sweeper", "game %s: acted on by another node first", game_id);
  else if (st != CAIRN_OK)
    log_line(LOG_ERROR, "sweeper", "game %s: %s", game_id, err->detail);
  db_game_clear(&row);
  return CAIRN_OK; /* one game's trouble does not stop the sweep */
}

enum cairn_status game_sweep_now(struct game_service *svc, struct cairn_error *err)
{
  return db_games_overdue(svc->db, svc->now_ms(), sweep_game, svc, err);
}

static void *sweeper_main(void *arg)
{
  struct game_service *svc = arg;
  struct timespec pause = {0, SWEEP_MS * 1000000L};
  struct cairn_error err = {0};
  /* game_bots_resume covers every game changed before now; the sweep for
   * bots covers later ones, window after window. */
  int64_t swept_to = svc->now_ms() - GAME_BOT_GRACE_MS;
  long tick = 0;

  if (!svc->bots_held)
    game_bots_resume(svc);
  while (!atomic_load(&svc->stopping)) {
    nanosleep(&pause, NULL);
    game_sweep_now(svc, &err);
    if (++tick % BOT_SWEEP_TICKS == 0) {
      int64_t to = svc->now_ms() - GAME_BOT_GRACE_MS;

      game_bots_sweep(svc, swept_to - GAME_BOT_GRACE_MS, to);
      swept_to = to;
    }
  }
  return NULL;
}

bool game_sweeper_start(struct game_service *svc)
{
  svc->sweeping = pthread_create(&svc->sweeper, NULL, sweeper_main, svc) == 0;
  return svc->sweeping;
}

void game_sweeper_stop(struct game_service *svc)
{
  if (!svc->sweeping)
    return;
  atomic_store(&svc->stopping, true);
  pthread_join(svc->sweeper, NULL);
  svc->sweeping = false;
}
