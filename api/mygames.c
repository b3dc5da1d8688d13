/*
 * mygames.c - GET /v1/players/me/games: the caller's games, the ones
 * awaiting the caller first (then the nearest deadline, then the most
 * recently moved), so a bot or a page can show "your turn" at a glance.
 * Optional filter ?status=open|active|finished. Each game's row and who owes
 * a decision come from the game layer (game_glance); the list of the
 * caller's games is a plain read (db_player_games). The open games with a
 * seat kept for the caller (invitations, issue 25; db_invitations_of) are
 * listed too, with `invitation` true and `my_seat` the seat kept.
 */
#include "api.h"

#include <microhttpd.h>

#include <stdlib.h>
#include <string.h>

struct listing {
  struct api_request *req;
  const char *status; /* filter, or NULL */
  json_t *games;      /* borrowed: the list being filled */
  bool invitations;   /* the games being added are invitations */
};

static enum cairn_status add_game(void *arg, const char *game_id, int seat, struct cairn_error *err)
{
  struct listing *l = arg;
  struct api_server *server = l->req->server;
  struct db_game row = {0};
  json_t *to_act = json_array();
  bool mine = false;
  int seats[ENGINE_MAX_SEATS];
  int n = 0, i;
  enum cairn_status st;

  st = game_glance(server->game, game_id, l->status, &row, seats, &n, err);
  if (st != CAIRN_OK || (l->status && strcmp(row.status, l->status) != 0))
    goto cleanup;
  for (i = 0; i < n; i++) {
    json_array_append_new(to_act, json_integer(seats[i]));
    mine = mine || seats[i] == seat;
  }
  /* An invitation listed a moment ago may have been answered since. */
  if (l->invitations && strcmp(row.seat_invited[seat], l->req->player.id) != 0)
    goto cleanup;
  json_array_append_new(l->games,
                        json_pack("{s:s, s:s, s:s, s:I, s:i, s:O, s:b, s:o, s:o, s:I, s:b}", "id",
                                  row.id, "title", row.title, "status", row.status, "seq",
                                  (json_int_t)row.seq, "my_seat", seat, "to_act", to_act, "my_turn",
                                  mine, "last_move_at", api_time_json(row.updated_ms), "deadline",
                                  api_deadline_json(server, &row, NULL), "updated_ms",
                                  (json_int_t)row.updated_ms, "invitation", l->invitations));
cleanup:
  json_decref(to_act);
  db_game_clear(&row);
  return st;
}

/* Awaiting me first; then by deadline (none last); then most recent. */
static int by_urgency(const void *pa, const void *pb)
{
  const json_t *a = *(const json_t *const *)pa, *b = *(const json_t *const *)pb;
  bool ta = json_is_true(json_object_get(a, "my_turn"));
  bool tb = json_is_true(json_object_get(b, "my_turn"));
  json_int_t ua = json_integer_value(json_object_get(a, "updated_ms"));
  json_int_t ub = json_integer_value(json_object_get(b, "updated_ms"));

  const char *da = json_string_value(json_object_get(a, "deadline"));
  const char *db = json_string_value(json_object_get(b, "deadline"));

  if (ta != tb)
    return ta ? -1 : 1;
  /* RFC 3339 times in one format compare as text. */
  if (da && db && strcmp(da, db) != 0)
    return strcmp(da, db);
  if (!da != !db)
    return da ? -1 : 1;
  return (ub > ua) - (ub < ua);
}

enum cairn_status api_players_my_games(struct api_request *req, struct api_response *resp,
                                       struct cairn_error *err)
{
  struct listing l = {.req = req, .games = json_array()};
  const char *status =
      MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, "status");
  json_t **items = NULL;
  json_t *sorted = NULL;
  size_t i, n, awaiting = 0;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (status && strcmp(status, DB_STATUS_OPEN) != 0 && strcmp(status, DB_STATUS_ACTIVE) != 0 &&
      strcmp(status, DB_STATUS_FINISHED) != 0 && strcmp(status, DB_STATUS_CANCELLED) != 0) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                    "status must be open, active, finished or cancelled");
    goto cleanup;
  }
  l.status = status;
  st = db_player_games(req->server->db, req->player.id, add_game, &l, err);
  if (st != CAIRN_OK)
    goto cleanup;
  l.invitations = true;
  st = db_invitations_of(req->server->db, req->player.id, add_game, &l, err);
  if (st != CAIRN_OK)
    goto cleanup;
  n = json_array_size(l.games);
  items = calloc(n ? n : 1, sizeof(*items));
  if (!items) {
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    goto cleanup;
  }
  for (i = 0; i < n; i++)
    items[i] = json_array_get(l.games, i);
  qsort(items, n, sizeof(*items), by_urgency);
  sorted = json_array();
  for (i = 0; i < n; i++) {
    json_object_del(items[i], "updated_ms");
    awaiting += json_is_true(json_object_get(items[i], "my_turn"));
    json_array_append(sorted, items[i]);
  }
  resp->status = 200;
  resp->body = json_pack("{s:I, s:o}", "awaiting", (json_int_t)awaiting, "games", sorted);
cleanup:
  free(items);
  json_decref(l.games);
  return st;
}
