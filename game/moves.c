/*
 * moves.c - a seated player's move: the turn checks api.md orders before the
 * title sees a move, the title's rules on a copy of the cached state, then
 * game_commit. The HTTP side (api/moves.c) decodes the request and renders
 * the answer.
 */
#include "game.h"

#include <string.h>

enum cairn_status game_check_turn(const struct db_game *row, int seat, json_int_t seq,
                                  struct cairn_error *err)
{
  const struct engine_module *m = engine_find(row->title);

  if (seat < 0)
    return cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_SEATED, NULL, "you hold no seat in game %s",
                      row->id);
  if (strcmp(row->status, DB_STATUS_ACTIVE) != 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_ACTIVE, NULL,
                      "game %s is %s; moves are accepted only while it is active", row->id,
                      row->status);
  if (row->seat_resigned[seat])
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_ALREADY_RESIGNED, NULL,
                      "seat %d of game %s resigned; the server plays it now", seat, row->id);
  /* A game is played only under the rules it was created with. This build
   * holds one version of each title; a game pinned to another stays
   * readable (views, log, replay, export) but takes no moves: `cairn
   * revalidate` tells the operator whether it replays identically. */
  if (!m || strcmp(row->rules_version, m->rules_version) != 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_RULES_RETIRED, NULL,
                      "game %s was created under rules %s; this server plays %s", row->id,
                      row->rules_version, m ? m->rules_version : "no version of that title");
  if (seq != (json_int_t)row->seq)
    return cairn_fail(err, CAIRN_ESTALE, CAIRN_CODE_STALE_SEQ, NULL,
                      "seq %lld is not current: game %s is at seq %u", (long long)seq, row->id,
                      row->seq);
  return CAIRN_OK;
}

/* The checks and the rules: on success *next is the state after `move`
 * (owned) and *events its events (a new reference). */
static enum cairn_status check_and_apply(struct game_service *svc, struct db_game *row, int seat,
                                         json_int_t seq, const json_t *move,
                                         struct engine_game **next, json_t **events,
                                         struct cairn_error *err)
{
  const struct engine_game *state = NULL;
  enum cairn_status st;

  *next = NULL;
  *events = NULL;
  st = game_check_turn(row, seat, seq, err);
  if (st == CAIRN_OK)
    st = game_live_get(svc, row, &state, err);
  if (st != CAIRN_OK)
    return st;
  /* "cairn" marks the platform's own log rows (takeback.c); no title move
   * may carry it, so a row is never both. */
  if (json_object_get(move, "cairn") && engine_may_act(state, seat))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                      "unknown field \"cairn\" in the move");
  return engine_apply(state, seat, move, next, events, err);
}

enum cairn_status game_play(struct game_service *svc, struct db_game *row, int seat, json_int_t seq,
                            const json_t *move, json_t **events, uint32_t *seq_after,
                            struct cairn_error *err)
{
  struct engine_game *next = NULL;
  struct game_change change = {.kind = GAME_CHANGE_MOVE, .seat = seat, .move = move};
  enum cairn_status st = check_and_apply(svc, row, seat, seq, move, &next, events, err);

  if (st != CAIRN_OK)
    return st;
  *seq_after = next->seq;
  change.events = *events;
  change.next = next;
  st = game_commit(svc, row, &change, err);
  if (st != CAIRN_OK) {
    json_decref(*events);
    *events = NULL;
  }
  return st;
}

enum cairn_status game_play_async(struct game_service *svc, struct db_game *row, int seat,
                                  json_int_t seq, const json_t *move, game_ready_cb ready,
                                  void *ready_arg, struct game_row_job **job,
                                  struct cairn_error *err)
{
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct game_change change = {.kind = GAME_CHANGE_MOVE, .seat = seat, .move = move};
  enum cairn_status st = check_and_apply(svc, row, seat, seq, move, &next, &events, err);

  *job = NULL;
  if (st != CAIRN_OK)
    return st;
  change.events = events;
  change.next = next;
  st = game_commit_async(svc, row, &change, ready, ready_arg, job, err);
  json_decref(events); /* the job holds its own reference */
  return st;
}
