/*
 * seat_changes.c - the platform changes a seat asks for with a body of just
 * {seq}: POST /v1/games/{id}/takeback, …/takeback/accept, …/takeback/decline
 * and …/resign, and POST /v1/games/{id}/replace with {seq, seat, level?}.
 * Each decodes its body, lets the game layer judge and commit the change
 * (game_takeback: the policy, the fog, the platform row; game_resign: what
 * a resignation means; game_replace: the votes to hand a late seat to a
 * bot) and answers {seq, events, game} like a move. The rules of each are
 * game/takeback.c's, game/resign.c's and game/replace.c's; only the
 * decoding and the answer are shared here.
 */
#include "api.h"

static const struct api_field seq_fields[] = {
    {"seq", API_INT, true},
    {NULL, 0, false},
};

static const struct api_field replace_fields[] = {
    {"seq", API_INT, true},
    {"seat", API_INT, true},
    {"level", API_STRING, false},
    {NULL, 0, false},
};

/* The five changes; a takeback's three keep game_takeback's action. */
enum seat_change {
  CHANGE_TAKEBACK_ASK = GAME_TAKEBACK_ASK,
  CHANGE_TAKEBACK_ACCEPT = GAME_TAKEBACK_ACCEPT,
  CHANGE_TAKEBACK_DECLINE = GAME_TAKEBACK_DECLINE,
  CHANGE_RESIGN,
  CHANGE_REPLACE,
};

static enum cairn_status commit_change(struct game_service *svc, struct db_game *row, int seat,
                                       const json_t *doc, enum seat_change change, json_t **events,
                                       uint32_t *seq_after, struct cairn_error *err)
{
  json_int_t seq = json_integer_value(json_object_get(doc, "seq"));

  if (change == CHANGE_RESIGN)
    return game_resign(svc, row, seat, seq, events, seq_after, err);
  if (change == CHANGE_REPLACE)
    return game_replace(svc, row, seat, seq, json_integer_value(json_object_get(doc, "seat")),
                        json_string_value(json_object_get(doc, "level")), events, seq_after, err);
  return game_takeback(svc, row, seat, seq, (enum game_takeback_action)change, events, seq_after,
                       err);
}

static enum cairn_status seat_change(struct api_request *req, enum seat_change change,
                                     struct api_response *resp, struct cairn_error *err)
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
    st = api_body_object(req, change == CHANGE_REPLACE ? replace_fields : seq_fields, false, &doc,
                         err);
  if (st != CAIRN_OK)
    return st;
  game_lock(svc, req->id);
  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  seat = api_viewer_seat(req, &row);
  st = commit_change(svc, &row, seat, doc, change, &events, &seq, err);
  if (st == CAIRN_OK)
    st = api_change_answer(req, &row, seat, seq, events, resp, err);
cleanup:
  game_unlock(svc, req->id);
  json_decref(events);
  db_game_clear(&row);
  json_decref(doc);
  return st;
}

enum cairn_status api_takeback_request(struct api_request *req, struct api_response *resp,
                                       struct cairn_error *err)
{
  return seat_change(req, CHANGE_TAKEBACK_ASK, resp, err);
}

enum cairn_status api_takeback_accept(struct api_request *req, struct api_response *resp,
                                      struct cairn_error *err)
{
  return seat_change(req, CHANGE_TAKEBACK_ACCEPT, resp, err);
}

enum cairn_status api_takeback_decline(struct api_request *req, struct api_response *resp,
                                       struct cairn_error *err)
{
  return seat_change(req, CHANGE_TAKEBACK_DECLINE, resp, err);
}

enum cairn_status api_games_resign(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  return seat_change(req, CHANGE_RESIGN, resp, err);
}

enum cairn_status api_games_replace(struct api_request *req, struct api_response *resp,
                                    struct cairn_error *err)
{
  return seat_change(req, CHANGE_REPLACE, resp, err);
}
