/*
 * moves.c - POST /v1/games/{id}/moves: decode the request, let the game
 * layer play the move (game_play: the turn checks, the rules, game_commit),
 * and answer {seq, events, game}. The answer is rendered under the game
 * lock, from the state the commit (and any bot moves after it) left.
 */
#include "api.h"

#include <string.h>

static const struct api_field move_fields[] = {
    {"seq", API_INT, true},
    {"move", API_OBJECT, true},
    {NULL, 0, false},
};

/* The events `seat` may see, for the move's answer. */
static void write_visible_events(struct json_writer *w, const json_t *events, int seat, bool over)
{
  size_t i;
  json_t *ev;

  jw_array_begin(w);
  json_array_foreach(events, i, ev)
  {
    if (engine_event_visible(ev, seat, over))
      jw_json(w, ev);
  }
  jw_array_end(w);
}

enum cairn_status api_change_answer(struct api_request *req, const struct db_game *row, int seat,
                                    uint32_t seq, const json_t *events, struct api_response *resp,
                                    struct cairn_error *err)
{
  const struct engine_game *now = NULL;
  enum cairn_status st = game_live_get(req->server->game, row, &now, err);
  struct json_writer w;

  if (st != CAIRN_OK)
    return st;
  jw_init(&w);
  jw_object_begin(&w);
  jw_key_int(&w, "seq", seq);
  jw_key(&w, "events");
  /* Over by the rules or by a resignation: the row was mirrored from the
   * commit, and a finished game hides nothing (api_write_game). */
  write_visible_events(&w, events, seat, strcmp(row->status, DB_STATUS_FINISHED) == 0);
  jw_key(&w, "game");
  api_write_game(&w, req, row, now, false);
  jw_object_end(&w);
  return api_answer_json(resp, 200, &w, err);
}

static enum cairn_status submit_locked(struct api_request *req, const json_t *doc,
                                       struct api_response *resp, struct cairn_error *err)
{
  struct db_game row = {0};
  json_t *events = NULL;
  uint32_t seq = 0;
  int seat;
  enum cairn_status st;

  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  seat = api_viewer_seat(req, &row);
  st = game_play(req->server->game, &row, seat, json_integer_value(json_object_get(doc, "seq")),
                 json_object_get(doc, "move"), &events, &seq, err);
  if (st == CAIRN_OK)
    st = api_change_answer(req, &row, seat, seq, events, resp, err);
cleanup:
  json_decref(events);
  db_game_clear(&row);
  return st;
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
  game_lock(req->server->game, req->id);
  st = submit_locked(req, doc, resp, err);
  game_unlock(req->server->game, req->id);
  json_decref(doc);
  return st;
}
