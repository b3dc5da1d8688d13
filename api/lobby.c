/*
 * lobby.c - GET /v1/lobby (issue 25): the open games with a seat to take,
 * or the active ones to watch, newest first, a page at a time. Only what
 * anyone may see of a game: its title, options, time control, who sits
 * where and who owes a decision; never a view, a seed or a log.
 *
 * Query: ?status=open (default) | active, ?title=<id>, ?seats=<n>,
 * ?clock=none|move|pace, ?limit=1..LOBBY_MAX_LIMIT, ?cursor=<the previous
 * page's next>. The cursor is the last listed game's (created_ms, id),
 * which never change, sealed as base64url so clients treat it as opaque:
 * a page starts right after it whatever came or went meanwhile.
 */
#include "api.h"

#include <microhttpd.h>
#include <sodium.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOBBY_DEFAULT_LIMIT 20
#define LOBBY_MAX_LIMIT     50
/* "<created_ms>:<id>" at its longest, and its base64url form. */
#define LOBBY_CURSOR_TEXT (20 + 1 + DB_ID_MAX + 1)
#define LOBBY_CURSOR_MAX  (((LOBBY_CURSOR_TEXT + 2) / 3) * 4 + 1)

struct lobby_page {
  struct api_request *req;
  const char *status; /* borrowed: the status listed */
  json_t *games;      /* borrowed: the page being filled */
  int listed;         /* ids storage gave, shown or not */
  int limit;          /* games shown at most */
  int64_t last_ms;    /* the last shown game's created_ms, for the cursor */
  char last_id[DB_ID_MAX + 1];
};

static const char *query_value(const struct api_request *req, const char *name)
{
  return MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, name);
}

json_t *api_seats_json(const struct db_game *row)
{
  json_t *seats = json_array();
  json_t *entry;
  int i;

  for (i = 0; i < row->seats; i++) {
    entry = json_pack("{s:i, s:o}", "seat", i, "player",
                      row->seat_player[i][0] ? json_pack("{s:s, s:s}", "id", row->seat_player[i],
                                                         "name", row->seat_name[i])
                                             : json_null());
    /* Kept for an invited player, as in the game resource (games.c). */
    if (entry && !row->seat_player[i][0] && row->seat_invited[i][0])
      json_object_set_new(entry, "kept", json_true());
    json_array_append_new(seats, entry);
  }
  return seats;
}

static json_t *lobby_entry(const struct db_game *row, const int *to_act, int n_to_act)
{
  json_t *acting = json_array();
  json_t *options = json_loads(row->options_json ? row->options_json : "{}", 0, NULL);
  int i, free_seats = 0;

  for (i = 0; i < n_to_act; i++)
    json_array_append_new(acting, json_integer(to_act[i]));
  /* A seat kept for an invited player is not free for the lobby. */
  for (i = 0; i < row->seats; i++)
    free_seats += !row->seat_player[i][0] && !row->seat_invited[i][0];
  return json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:I, s:o}", "id", row->id,
                   "title", row->title, "status", row->status, "seats", row->seats, "free_seats",
                   free_seats, "players", api_seats_json(row), "options",
                   options ? options : json_object(), "time_control", api_time_control_json(row),
                   "created_at", api_time_json(row->created_ms), "moves", (json_int_t)row->moves,
                   "to_act", acting);
}

/* One listed id: shown if it still has the status listed (a game may have
 * started, or ended, since storage listed it). Storage was asked for one
 * more than a page: that one only says a next page exists. */
static enum cairn_status add_entry(void *arg, const char *game_id, struct cairn_error *err)
{
  struct lobby_page *page = arg;
  struct db_game row = {0};
  int to_act[ENGINE_MAX_SEATS];
  int n = 0;
  json_t *entry;
  enum cairn_status st;

  if (++page->listed > page->limit)
    return CAIRN_OK;
  st = game_glance(page->req->server->game, game_id, page->status, &row, to_act, &n, err);
  if (st == CAIRN_ENOTFOUND) {
    cairn_error_clear(err);
    return CAIRN_OK;
  }
  if (st != CAIRN_OK)
    goto cleanup;
  page->last_ms = row.created_ms;
  snprintf(page->last_id, sizeof(page->last_id), "%s", row.id);
  if (strcmp(row.status, page->status) != 0)
    goto cleanup;
  entry = lobby_entry(&row, to_act, n);
  if (!entry || json_array_append_new(page->games, entry) != 0)
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
cleanup:
  db_game_clear(&row);
  return st;
}

static enum cairn_status bad_query(struct cairn_error *err, const char *what)
{
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL, "%s", what);
}

/* The cursor a page ends with: base64url of "<created_ms>:<id>". */
static void seal_cursor(int64_t ms, const char *id, char out[LOBBY_CURSOR_MAX])
{
  char text[LOBBY_CURSOR_TEXT];
  int n = snprintf(text, sizeof(text), "%" PRId64 ":%s", ms, id);

  sodium_bin2base64(out, LOBBY_CURSOR_MAX, (const unsigned char *)text, (size_t)n,
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

/* Read back a cursor seal_cursor made; anything else is bad-query. */
static enum cairn_status open_cursor(const char *cursor, int64_t *ms, char id[DB_ID_MAX + 1],
                                     struct cairn_error *err)
{
  unsigned char text[LOBBY_CURSOR_TEXT];
  size_t n = 0;
  char *colon, *end;
  long long value;

  if (strlen(cursor) >= LOBBY_CURSOR_MAX ||
      sodium_base642bin(text, sizeof(text) - 1, cursor, strlen(cursor), NULL, &n, NULL,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
    return bad_query(err, "cursor: not one a lobby page gave");
  text[n] = '\0';
  colon = strchr((char *)text, ':');
  if (!colon || colon[1] == '\0' || strlen(colon + 1) > DB_ID_MAX)
    return bad_query(err, "cursor: not one a lobby page gave");
  *colon = '\0';
  value = strtoll((char *)text, &end, 10);
  if (*end != '\0' || end == (char *)text || value < 0)
    return bad_query(err, "cursor: not one a lobby page gave");
  *ms = value;
  snprintf(id, DB_ID_MAX + 1, "%s", colon + 1);
  return CAIRN_OK;
}

static enum cairn_status read_status(const struct api_request *req, struct db_lobby_query *q,
                                     struct cairn_error *err)
{
  const char *status = query_value(req, "status");

  q->status = DB_STATUS_OPEN;
  if (!status || strcmp(status, DB_STATUS_OPEN) == 0)
    return CAIRN_OK;
  if (strcmp(status, DB_STATUS_ACTIVE) != 0)
    return bad_query(err, "status must be open (seats to take) or active (games to watch)");
  q->status = DB_STATUS_ACTIVE;
  return CAIRN_OK;
}

static enum cairn_status read_clock(const struct api_request *req, struct db_lobby_query *q,
                                    struct cairn_error *err)
{
  static const char *const names[] = {
      [DB_CLOCK_NONE] = "none", [DB_CLOCK_MOVE] = "move", [DB_CLOCK_PACE] = "pace"};
  const char *clock = query_value(req, "clock");
  int i;

  q->clock = DB_CLOCK_ANY;
  if (!clock)
    return CAIRN_OK;
  for (i = DB_CLOCK_NONE; i <= DB_CLOCK_PACE; i++)
    if (strcmp(clock, names[i]) == 0) {
      q->clock = i;
      return CAIRN_OK;
    }
  return bad_query(err, "clock must be none, move (per-move control) or pace (a bank)");
}

static enum cairn_status read_numbers(const struct api_request *req, struct db_lobby_query *q,
                                      struct cairn_error *err)
{
  uint32_t seats = 0, limit = LOBBY_DEFAULT_LIMIT;
  bool given = false;
  enum cairn_status st;

  st = api_query_uint(req, "seats", &seats, &given, err);
  if (st != CAIRN_OK)
    return st;
  if (given && (seats < 1 || seats > ENGINE_MAX_SEATS))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL, "seats must be 1 to %d",
                      ENGINE_MAX_SEATS);
  st = api_query_uint(req, "limit", &limit, &given, err);
  if (st != CAIRN_OK)
    return st;
  if (limit < 1 || limit > LOBBY_MAX_LIMIT)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL, "limit must be 1 to %d",
                      LOBBY_MAX_LIMIT);
  q->seats = (int)seats;
  q->limit = (int)limit;
  return CAIRN_OK;
}

/* The query's filters into q; the cursor's id into after_id (q points at
 * it when a cursor was given). */
static enum cairn_status read_query(const struct api_request *req, struct db_lobby_query *q,
                                    char after_id[DB_ID_MAX + 1], struct cairn_error *err)
{
  const char *cursor = query_value(req, "cursor");
  enum cairn_status st;

  q->title = query_value(req, "title");
  if (q->title && !engine_find(q->title))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                      "title \"%.64s\" is not one of GET /v1/titles", q->title);
  st = read_status(req, q, err);
  if (st == CAIRN_OK)
    st = read_clock(req, q, err);
  if (st == CAIRN_OK)
    st = read_numbers(req, q, err);
  if (st == CAIRN_OK && cursor) {
    st = open_cursor(cursor, &q->after_ms, after_id, err);
    q->after_id = after_id;
  }
  return st;
}

enum cairn_status api_lobby_list(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  struct db_lobby_query q = {0};
  struct lobby_page page = {.req = req};
  char after_id[DB_ID_MAX + 1];
  char next[LOBBY_CURSOR_MAX];
  enum cairn_status st;

  st = read_query(req, &q, after_id, err);
  if (st != CAIRN_OK)
    return st;
  page.status = q.status;
  page.limit = q.limit;
  page.games = json_array();
  /* One more than a page: its presence alone says a next page exists. */
  q.limit++;
  st = db_games_lobby(req->server->db, &q, add_entry, &page, err);
  if (st != CAIRN_OK) {
    json_decref(page.games);
    return st;
  }
  if (page.listed > page.limit)
    seal_cursor(page.last_ms, page.last_id, next);
  resp->status = 200;
  resp->body = json_pack("{s:o, s:o}", "games", page.games, "next",
                         page.listed > page.limit ? json_string(next) : json_null());
  return CAIRN_OK;
}
