/*
 * moves.c - POST /v1/games/{id}/moves: the one path by which a game changes.
 *
 * Under the game lock: load the row, check who may move and the seq, apply
 * the move to a copy of the cached state, append the log row (the store
 * refuses it if another writer got there first), and only after the commit
 * swap the new state into the cache. A failure at any step leaves the log,
 * the row and the cache exactly as they were.
 */
#include "api.h"
#include "notify.h"

#include <stdlib.h>
#include <string.h>

static const struct api_field move_fields[] = {
    {"seq", API_INT, true},
    {"move", API_OBJECT, true},
    {NULL, 0, false},
};

enum cairn_status api_check_turn(const struct db_game *row, int seat, json_int_t seq,
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

/* New reference: the events `seat` may see, for the move's answer. */
static json_t *visible_events(const json_t *events, int seat, bool over)
{
  json_t *out = json_array();
  size_t i;
  json_t *ev;

  json_array_foreach(events, i, ev)
  {
    if (engine_event_visible(ev, seat, over))
      json_array_append(out, ev);
  }
  return out;
}

/* Append the accepted move to the log; the row is durable when this returns
 * CAIRN_OK. */
static enum cairn_status commit_move(struct api_server *server, struct db_game *row, int seat,
                                     const json_t *move, const json_t *events,
                                     const struct engine_game *next, const char *forced_result,
                                     struct cairn_error *err)
{
  json_t *result = forced_result ? json_loads(forced_result, 0, NULL) : next->module->result(next);
  struct db_clock clocks[ENGINE_MAX_SEATS];
  int n_clocks =
      api_clocks_next(server, row, next, !forced_result && !engine_is_over(next), clocks);
  char *move_text = json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS);
  char *events_text = json_dumps(events, JSON_COMPACT | JSON_SORT_KEYS);
  char *result_text = result ? json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  struct db_move entry = {.ord = row->moves,
                          .seq = next->seq,
                          .seat = seat,
                          .move_json = move_text,
                          .events_json = events_text,
                          .at_ms = server->now_ms(),
                          .clocks = clocks,
                          .n_clocks = n_clocks};
  enum cairn_status st;

  if (!move_text || !events_text || (result && !result_text))
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  else
    st = db_move_append(server->db, row->id, &entry, result_text, err);
  /* The answer to this move publishes the chain's new head, not the one
   * the row was loaded with. */
  if (st == CAIRN_OK && entry.has_hash)
    memcpy(row->log_head, entry.hash, DB_HASH_BYTES);
  if (st == CAIRN_ESTALE)
    cairn_fail(err, CAIRN_ESTALE, CAIRN_CODE_STALE_SEQ, NULL,
               "another move was accepted first; fetch the game and retry");
  free(move_text);
  free(events_text);
  free(result_text);
  json_decref(result);
  return st;
}

static enum cairn_status submit_locked(struct api_request *req, const json_t *doc,
                                       struct api_response *resp, struct cairn_error *err)
{
  struct db_game row = {0};
  const struct engine_game *state = NULL;
  struct engine_game *next = NULL;
  json_t *events = NULL;
  const json_t *move = json_object_get(doc, "move");
  int seat;
  enum cairn_status st;

  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  seat = api_viewer_seat(req, &row);
  st = api_check_turn(&row, seat, json_integer_value(json_object_get(doc, "seq")), err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = api_live_get(req->server, &row, &state, err);
  if (st != CAIRN_OK)
    goto cleanup;
  /* "cairn" marks the platform's own log rows (takeback.c); no title move
   * may carry it, so a row is never both. */
  if (engine_may_act(state, seat) && json_object_get(move, "cairn")) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                    "unknown field \"cairn\" in the move");
    goto cleanup;
  }
  st = engine_apply(state, seat, move, &next, &events, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = api_commit_row(req, &row, seat, move, events, next, resp, err);
  next = NULL;
cleanup:
  engine_free(next);
  json_decref(events);
  db_game_clear(&row);
  return st;
}

enum cairn_status api_append_row(struct api_server *server, struct db_game *row, int seat,
                                 const json_t *move, const json_t *events, struct engine_game *next,
                                 struct cairn_error *err)
{
  return api_append_finished(server, row, seat, move, events, next, NULL, err);
}

enum cairn_status api_append_finished(struct api_server *server, struct db_game *row, int seat,
                                      const json_t *move, const json_t *events,
                                      struct engine_game *next, const char *result_json,
                                      struct cairn_error *err)
{
  const struct engine_game *prev = api_live_peek(server->live, row->id);
  int prev_to_act[ENGINE_MAX_SEATS];
  int prev_n = prev ? prev->module->to_act(prev, prev_to_act) : 0;
  char prev_status[DB_STATUS_MAX + 1];
  enum cairn_status st = commit_move(server, row, seat, move, events, next, result_json, err);

  if (st != CAIRN_OK) {
    engine_free(next);
    return st;
  }
  snprintf(prev_status, sizeof(prev_status), "%s", row->status);
  /* Committed: the row on disk moved on, so mirror it. */ row->moves++;
  row->seq = next->seq;
  row->updated_ms = server->now_ms(); /* close to the row's own time; the clock restarts */
  if (result_json || engine_is_over(next))
    snprintf(row->status, sizeof(row->status), "%s", DB_STATUS_FINISHED);
  if (result_json) {
    free(row->result_json);
    row->result_json = strdup(result_json);
  }
  api_live_put(server->live, row->id, row->moves, next); /* the clocks were saved with the move */
  api_notify_publish(server->notify, row, next);
  api_webhooks_publish(server, row, prev_status, prev_to_act, prev_n, next);
  return CAIRN_OK;
}

enum cairn_status api_commit_row(struct api_request *req, struct db_game *row, int seat,
                                 const json_t *move, const json_t *events, struct engine_game *next,
                                 struct api_response *resp, struct cairn_error *err)
{
  const struct engine_game *now = NULL;
  uint32_t seq = next->seq;
  enum cairn_status st = api_append_row(req->server, row, seat, move, events, next, err);

  if (st != CAIRN_OK)
    return st;
  /* The move is durable and acknowledged whatever the bots do next. */
  api_bots_play(req->server, row);
  st = api_live_get(req->server, row, &now, err);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:I, s:o, s:o}", "seq", (json_int_t)seq, "events",
                         visible_events(events, seat, engine_is_over(now)), "game",
                         api_game_json(req, row, now, false));
  return CAIRN_OK;
}

enum cairn_status api_moves_submit(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  json_t *doc = NULL;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    return st;
  st = api_body_object(req, move_fields, false, &doc, err);
  if (st != CAIRN_OK)
    return st;
  api_game_lock(req->server, req->id);
  st = submit_locked(req, doc, resp, err);
  api_game_unlock(req->server, req->id);
  json_decref(doc);
  return st;
}
