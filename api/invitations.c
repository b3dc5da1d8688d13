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
 *
 * Both answers are told, as the invitation was (api_webhooks_invite): a
 * decline to the creator's webhooks and, as `event: invitation`, to the
 * game's streams and the creator's; a cancel to the webhooks of every
 * invitee and seated player and, as the game's notice (status cancelled),
 * to their streams and the game's (notify.c). Who was invited is read from
 * the game as it was before the answer, which withdraws the invitations.
 * On PostgreSQL the other nodes hear of each invitation so ended
 * (migrations/postgres/0010_notify_invitations.sql) and tell their own
 * streams the same (api_invitation_remote).
 */
#include "api.h"
#include "notify.h"
#include "../log/log.h"

/* The game as it stands before an answer, for whom to tell afterwards;
 * false (and nobody told) when it cannot be read, which the answer itself
 * then reports. */
static bool read_before(struct api_request *req, struct db_game *row)
{
  struct cairn_error ignored = {0};

  return game_load(req->server->game, req->id, row, &ignored) == CAIRN_OK;
}

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
  struct db_game before = {0};
  bool known;
  int seat;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    return st;
  known = read_before(req, &before);
  st = game_decline(req->server->game, req->id, &req->player, err);
  seat = known ? game_invited_seat(&before, req->player.id) : -1;
  if (st == CAIRN_OK && seat >= 0) {
    /* The seat is free now; nothing else of the game changed. */
    before.seat_invited[seat][0] = '\0';
    api_notify_declined(req->server->notify, &before, seat);
    api_webhooks_declined(req->server, &before, seat);
  }
  db_game_clear(&before);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:b}", "id", req->id, "declined", true);
  return CAIRN_OK;
}

enum cairn_status api_games_cancel(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct db_game before = {0}, after = {0};
  struct cairn_error ignored = {0};
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    return st;
  if (!read_before(req, &before))
    return game_cancel(req->server->game, req->id, &req->player, err);
  st = game_cancel(req->server->game, req->id, &req->player, err);
  /* Told from the row as the cancel left it (a join may have come between
   * the read before and the cancel: its player is told as seated), with
   * the invitations the row had before. */
  if (st == CAIRN_OK && game_load(req->server->game, req->id, &after, &ignored) == CAIRN_OK) {
    api_notify_cancelled(req->server->notify, &after,
                         (const char(*)[DB_ID_MAX + 1]) before.seat_invited);
    api_webhooks_cancelled(req->server, &after, (const char(*)[DB_ID_MAX + 1]) before.seat_invited);
  }
  db_game_clear(&before);
  db_game_clear(&after);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:s}", "id", req->id, "status", DB_STATUS_CANCELLED);
  return CAIRN_OK;
}

void api_invitation_remote(struct api_server *server, const struct db_change *change)
{
  struct db_game row = {0};
  struct cairn_error err = {0};

  if (!api_notify_cares(server->notify, change->game_id))
    return;
  /* The row as it stands: the invitation is gone from it already. */
  if (game_load(server->game, change->game_id, &row, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "invitations", "another node's answer to an invitation to game %s: %s",
             change->game_id, err.detail);
  else if (change->invitation == DB_INVITATION_DECLINED)
    api_notify_declined(server->notify, &row, change->invitation_seat);
  else
    api_notify_cancelled_to(server->notify, &row, change->invitee);
  db_game_clear(&row);
}
