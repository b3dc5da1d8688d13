/*
 * updates.c - the endpoints that wait for a game to move: long-poll
 * (GET /v1/games/{id}/wait?after=N&timeout=S) and Server-Sent Events
 * (GET /v1/games/{id}/events, GET /v1/players/me/events). They say "game
 * X is at seq N, these seats to act"; clients fetch their own view, or ask
 * for it with each event (?view=1: `state`, the game as GET
 * /v1/games/{id} answers the caller, rendered through the same path).
 * The waiting itself is notify.c's.
 */
#include "api.h"
#include "notify.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_DEFAULT_S 30
#define WAIT_MAX_S     300

/* New string (free()): game `game` as GET /v1/games/{id} answers `viewer`
 * (a player id, "" a spectator) as it stands, or NULL. The one sanitising
 * path: api_write_game under the game's lock, as for that GET, with a
 * request that carries only who asks. notify.c's api_view_fn. */
static char *render_view(void *ctx, const char *game, const char *viewer)
{
  struct api_request as = {.server = ctx, .has_player = viewer[0] != '\0'};
  struct db_game row = {0};
  const struct engine_game *state = NULL;
  struct cairn_error err = {0};
  struct json_writer w;
  char *text = NULL;

  snprintf(as.player.id, sizeof(as.player.id), "%s", viewer);
  if (game_load(as.server->game, game, &row, &err) != CAIRN_OK)
    return NULL;
  game_lock(as.server->game, row.id);
  if (game_live_get(as.server->game, &row, &state, &err) == CAIRN_OK) {
    jw_init(&w);
    api_write_game(&w, &as, &row, state, false);
    text = jw_finish(&w, NULL);
  }
  game_unlock(as.server->game, row.id);
  db_game_clear(&row);
  return text;
}

/* ?view=1: the caller wants its own view with each notification. Any
 * other value than 0 or 1 is bad-query. */
static enum cairn_status wants_view(const struct api_request *req, bool *out,
                                    struct cairn_error *err)
{
  uint32_t v = 0;
  bool present = false;
  enum cairn_status st = api_query_uint(req, "view", &v, &present, err);

  if (st == CAIRN_OK && v > 1)
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                    "query parameter \"view\" is 0 or 1");
  *out = st == CAIRN_OK && v == 1;
  return st;
}

enum cairn_status api_games_wait(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  struct db_game row = {0};
  uint32_t after = 0, timeout = WAIT_DEFAULT_S;
  bool has_after = false, has_timeout = false;
  int64_t now = api_now_ms(req->server);
  int seats[ENGINE_MAX_SEATS];
  int n = 0;
  bool view = false;
  enum cairn_status st;

  st = api_query_uint(req, "after", &after, &has_after, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "timeout", &timeout, &has_timeout, err);
  if (st == CAIRN_OK)
    st = wants_view(req, &view, err);
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
  if (resp->body && view) {
    char *text = render_view(req->server, row.id, req->has_player ? req->player.id : "");
    json_t *state = text ? json_loads(text, 0, NULL) : NULL;

    free(text);
    json_object_set_new(resp->body, "state", state ? state : json_null());
  }
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

/* `viewer`: whose view the events carry with ?view=1 (a player id, or ""
 * for a spectator). */
static enum cairn_status open_stream(struct api_request *req, struct api_response *resp,
                                     const char *game, const char *player, const char *viewer,
                                     struct cairn_error *err)
{
  struct api_stream_view view = {.render = render_view, .ctx = req->server};
  bool with_view = false;
  enum cairn_status st = wants_view(req, &with_view, err);

  if (st != CAIRN_OK)
    return st;
  if (!req->server->notify)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "notifications are off");
  snprintf(view.viewer, sizeof(view.viewer), "%s", viewer);
  resp->stream = api_stream_open(req->server->notify, req->connection, game, player,
                                 last_event_id(req), with_view ? &view : NULL);
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
    st = open_stream(req, resp, row.id, NULL, req->has_player ? req->player.id : "", err);
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
    return st == CAIRN_OK ? open_stream(req, resp, NULL, ticketed.id, ticketed.id, err) : st;
  }
  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = open_stream(req, resp, NULL, req->player.id, req->player.id, err);
  return st;
}
