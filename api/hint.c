/*
 * hint.c - GET /v1/games/{id}/hint: the strong bot's suggestion for the
 * caller's seat (issue 26), in games where exactly one seat is a
 * person's (solo scenarios, games against bots); refused elsewhere with
 * 409 no-hint, so a game between people never has a bot whispering.
 * The search (game_hint) sees only the seat's view, as the bots do, and
 * runs on the bots' pool: until it is done the answer is 202 with
 * "status": "thinking", and the caller asks again.
 */
#include "api.h"

enum cairn_status api_games_hint(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  struct db_game row = {0};
  json_t *move = NULL;
  uint32_t seq = 0;
  enum cairn_status st;
  int seat;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  seat = api_viewer_seat(req, &row);
  if (seat < 0) {
    st = cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_SEATED, NULL,
                    "you hold no seat in game %s: hints are for the seat to act", row.id);
    goto cleanup;
  }
  st = game_hint_ask(req->server->game, row.id, seat, &move, &seq, err);
  if (st == CAIRN_DONE) {
    resp->status = 202;
    resp->body = json_pack("{s:s, s:i, s:s, s:i}", "game", row.id, "seat", seat, "status",
                           "thinking", "retry_after_ms", 500);
    st = CAIRN_OK;
    goto cleanup;
  }
  if (st != CAIRN_OK)
    goto cleanup;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:I, s:i, s:s, s:O}", "game", row.id, "seq", (json_int_t)seq,
                         "seat", seat, "level", "strong", "move", move);
cleanup:
  json_decref(move);
  db_game_clear(&row);
  return st;
}
