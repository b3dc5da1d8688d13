/*
 * resign.c - POST /v1/games/{id}/resign: decode {seq}, as a takeback
 * request does, let the game layer judge and commit the resignation
 * (game_resign: the checks, what it means, the platform row), and answer
 * {seq, events, game} like a move. What a resignation means is
 * game/resign.c's.
 */
#include "api.h"

static const struct api_field seq_fields[] = {
    {"seq", API_INT, true},
    {NULL, 0, false},
};

enum cairn_status api_games_resign(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct game_service *svc = req->server->game;
  struct db_game row = {0};
  json_t *doc = NULL;
  json_t *events = NULL;
  uint32_t seq = 0;
  int seat;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_body_object(req, seq_fields, false, &doc, err);
  if (st != CAIRN_OK)
    return st;
  game_lock(svc, req->id);
  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  seat = api_viewer_seat(req, &row);
  st = game_resign(svc, &row, seat, json_integer_value(json_object_get(doc, "seq")), &events, &seq,
                   err);
  if (st == CAIRN_OK)
    st = api_change_answer(req, &row, seat, seq, events, resp, err);
cleanup:
  game_unlock(svc, req->id);
  json_decref(events);
  db_game_clear(&row);
  json_decref(doc);
  return st;
}
