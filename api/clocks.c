/*
 * clocks.c - the HTTP side of time controls: a game's deadlines and seat
 * clocks as JSON, and the vacation endpoints (POST and GET
 * /v1/players/me/vacation). How clocks move and what a vacation bank
 * allows are the game layer's (game/clocks.c).
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

api_clock_fn api_clock(const struct api_server *server)
{
  return server->game->now_ms;
}

int64_t api_now_ms(const struct api_server *server)
{
  return server->game->now_ms();
}

json_t *api_deadline_json(struct api_server *server, const struct db_game *row, json_t **per_seat)
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  int64_t first = 0;
  int n = game_clocks_of(server->game, row, clocks), i;

  if (per_seat)
    *per_seat = json_array();
  if (n == 0)
    return json_null();
  for (i = 0; i < n; i++) {
    if (per_seat)
      json_array_append_new(
          *per_seat,
          json_pack("{s:i, s:I, s:o}", "seat", clocks[i].seat, "bank_ms",
                    (json_int_t)clocks[i].bank_ms, "deadline",
                    clocks[i].deadline_ms ? api_time_json(clocks[i].deadline_ms) : json_null()));
    if (clocks[i].deadline_ms && (!first || clocks[i].deadline_ms < first))
      first = clocks[i].deadline_ms;
  }
  return first ? api_time_json(first) : json_null();
}

static bool parse_time(const char *text, int64_t *ms)
{
  struct tm tm;
  const char *end;

  memset(&tm, 0, sizeof(tm));
  end = text ? strptime(text, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
  if (!end)
    return false;
  if (*end == '.')
    while (*++end >= '0' && *end <= '9')
      ;
  if (strcmp(end, "Z") != 0)
    return false;
  *ms = (int64_t)timegm(&tm) * 1000;
  return true;
}

static const struct api_field vacation_fields[] = {
    {"start", API_STRING, true},
    {"hours", API_INT, true},
    {NULL, 0, false},
};

static json_t *vacations_json(struct api_server *server, const char *player)
{
  struct game_service *svc = server->game;
  struct db_vacation v[GAME_VACATIONS_MAX];
  int64_t now = api_now_ms(server);
  int n = game_vacations_of(svc, player, now, v), i;
  int64_t used = game_vacation_hours_used(svc, player, now);
  json_t *list = json_array();

  for (i = 0; i < n; i++)
    json_array_append_new(list, json_pack("{s:o, s:o}", "start", api_time_json(v[i].start_ms),
                                          "end", api_time_json(v[i].end_ms)));
  return json_pack("{s:i, s:I, s:I, s:o}", "days_per_year", svc->vacation_days,
                   "used_hours_this_year", (json_int_t)used, "left_hours_this_year",
                   (json_int_t)(svc->vacation_days * 24 - used), "vacations", list);
}

enum cairn_status api_vacation_get(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = vacations_json(req->server, req->player.id);
  }
  return st;
}

enum cairn_status api_vacation_declare(struct api_request *req, struct api_response *resp,
                                       struct cairn_error *err)
{
  json_t *doc = NULL;
  int64_t start_ms = 0;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_body_object(req, vacation_fields, false, &doc, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (!parse_time(json_string_value(json_object_get(doc, "start")), &start_ms)) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "start must be an RFC 3339 UTC time, like 2026-12-24T00:00:00Z");
    goto cleanup;
  }
  st = game_vacation_declare(req->server->game, req->player.id, start_ms,
                             json_integer_value(json_object_get(doc, "hours")), err);
  if (st == CAIRN_OK) {
    resp->status = 201;
    resp->body = vacations_json(req->server, req->player.id);
  }
cleanup:
  json_decref(doc);
  return st;
}
