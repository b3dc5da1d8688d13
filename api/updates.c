/*
 * updates.c - the endpoints that wait for a game to move: long-poll
 * (GET /v1/games/{id}/wait?after=N&timeout=S) and Server-Sent Events
 * (GET /v1/games/{id}/events, GET /v1/players/me/events). They only say
 * "game X is at seq N, these seats to act"; clients fetch their own view.
 * The waiting itself is notify.c's.
 */
#include "api.h"
#include "notify.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_DEFAULT_S 30
#define WAIT_MAX_S     300

enum cairn_status api_games_wait(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  struct db_game row = {0};
  uint32_t after = 0, timeout = WAIT_DEFAULT_S;
  bool has_after = false, has_timeout = false;
  int64_t now = api_now_ms(req->server);
  int seats[ENGINE_MAX_SEATS];
  int n = 0;
  enum cairn_status st;

  st = api_query_uint(req, "after", &after, &has_after, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "timeout", &timeout, &has_timeout, err);
  if (st != CAIRN_OK)
    return st;
  if (!has_after)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                      "query parameter \"after\" (a seq) is required");
  if (timeout > WAIT_MAX_S)
    timeout = WAIT_MAX_S;
  /* The row and who owes a decision, read together under the game lock. */
  st = game_glance(req->server->game, req->id, NULL, &row, seats, &n, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (*req->wait_deadline_ms == 0)
    *req->wait_deadline_ms = now + (int64_t)timeout * 1000;
  if (row.seq <= after && strcmp(row.status, DB_STATUS_FINISHED) != 0 &&
      now < *req->wait_deadline_ms && req->server->notify) {
    resp->wait_until_ms = *req->wait_deadline_ms;
    snprintf(resp->wait_game, sizeof(resp->wait_game), "%s", row.id);
    resp->wait_after = after;
    goto cleanup;
  }
  resp->status = 200;
  resp->body = api_notice_json(row.id, row.seq, row.status, seats, n);
  if (resp->body)
    json_object_set_new(resp->body, "changed", json_boolean(row.seq > after));
cleanup:
  db_game_clear(&row);
  return st;
}

/* Last-Event-ID, the standard SSE resume header; 0 when absent or bad. */
static uint64_t last_event_id(const struct api_request *req)
{
  const char *text = MHD_lookup_connection_value(req->connection, MHD_HEADER_KIND, "Last-Event-ID");
  char *end = NULL;
  unsigned long long v;

  if (!text)
    return 0;
  errno = 0;
  v = strtoull(text, &end, 10);
  return errno || *end ? 0 : (uint64_t)v;
}

static enum cairn_status open_stream(struct api_request *req, struct api_response *resp,
                                     const char *game, const char *player, struct cairn_error *err)
{
  if (!req->server->notify)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "notifications are off");
  resp->stream =
      api_stream_open(req->server->notify, req->connection, game, player, last_event_id(req));
  if (!resp->stream)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  resp->status = 200;
  return CAIRN_OK;
}

enum cairn_status api_games_events(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct db_game row = {0};
  enum cairn_status st = api_load_game(req, &row, err);

  if (st == CAIRN_OK)
    st = open_stream(req, resp, row.id, NULL, err);
  /* Chat (issue 25): the stream carries the players' channel's notices
   * only when its reader is seated. */
  if (st == CAIRN_OK && req->has_player)
    api_stream_set_viewer(resp->stream, req->player.id);
  db_game_clear(&row);
  return st;
}

enum cairn_status api_players_events(struct api_request *req, struct api_response *resp,
                                     struct cairn_error *err)
{
  struct db_player ticketed;
  enum cairn_status st;

  /* A browser's EventSource sends no Authorization: a ticket stands in
   * for the token here, and only here (tickets.c). */
  if (!req->has_player &&
      MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, "ticket")) {
    st = api_stream_ticket_check(req, &ticketed, err);
    return st == CAIRN_OK ? open_stream(req, resp, NULL, ticketed.id, err) : st;
  }
  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = open_stream(req, resp, NULL, req->player.id, err);
  return st;
}
