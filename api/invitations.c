/*
 * invitations.c - answering an invitation (issue 25): a seat of an open
 * game kept for a named player by its creator (POST /v1/games with
 * `invite`). The invitee takes it (POST /v1/games/{id}/invitation/accept:
 * a join of that seat, which starts the game when it is the last) or
 * declines it (.../decline: the seat is free for anyone from then on, and
 * the game stays open, in the lobby). Nobody else may take a kept seat.
 * The invitee finds the game in GET /v1/players/me/games (mygames.c).
 *
 * The creator may cancel an open game (POST /v1/games/{id}/cancel): its
 * status becomes cancelled and its invitations go with it.
 */
#include "api.h"

enum cairn_status api_invitation_accept(struct api_request *req, struct api_response *resp,
                                        struct cairn_error *err)
{
  int seat = -1;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = game_accept(req->server->game, req->id, &req->player, &seat, err);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:i}", "seat", seat);
  return CAIRN_OK;
}

enum cairn_status api_invitation_decline(struct api_request *req, struct api_response *resp,
                                         struct cairn_error *err)
{
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = game_decline(req->server->game, req->id, &req->player, err);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:b}", "id", req->id, "declined", true);
  return CAIRN_OK;
}

enum cairn_status api_games_cancel(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = game_cancel(req->server->game, req->id, &req->player, err);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:s}", "id", req->id, "status", DB_STATUS_CANCELLED);
  return CAIRN_OK;
}
