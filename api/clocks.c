/*
 * clocks.c - time controls: how each seat's clock moves, deadlines, and the
 * players' vacation banks.
 *
 * Two controls. Per move ("move_hours"): every decision has the same
 * allowance. Pace ("base_hours", "increment_hours", "cap_hours"): a seat
 * starts with a bank of base; the time a decision takes comes out of it,
 * then the increment goes in, up to the cap. Time inside a vacation the
 * player declared is not counted: the clock is paused, and the deadline
 * moves out by the vacation's length.
 *
 * Vacations are declared ahead (they may not start in the past), spent by
 * the hour from a bank of --vacation-days days per calendar year (UTC),
 * charged to the year in which each vacation starts.
 *
 * Clocks are bookkeeping kept beside the log (table clocks): updated under
 * the game lock after every change, read by the sweeper (sweeper.c).
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VACATIONS_MAX 64
#define HOUR_MS       3600000LL

bool api_has_time_control(const struct db_game *row)
{
  return row->move_ms > 0 || row->base_ms > 0;
}

static int load_vacations(struct api_server *server, const char *player, int64_t from,
                          struct db_vacation *v)
{
  struct cairn_error err = {0};
  int n = 0;

  if (!player[0] ||
      db_vacations_of(server->db, player, from, v, VACATIONS_MAX, &n, &err) != CAIRN_OK)
    return 0;
  return n;
}

/* Milliseconds of [from, to) that fall inside the vacations (sorted,
 * non-overlapping as declared; overlaps are clipped). */
static int64_t paused(const struct db_vacation *v, int n, int64_t from, int64_t to)
{
  int64_t total = 0, covered_to = from;
  int i;

  for (i = 0; i < n; i++) {
    int64_t a = v[i].start_ms > covered_to ? v[i].start_ms : covered_to;
    int64_t b = v[i].end_ms < to ? v[i].end_ms : to;

    if (b > a) {
      total += b - a;
      covered_to = b;
    }
  }
  return total;
}

/* When `bank` ms of clock time starting at `since` run out, skipping the
 * vacations. */
static int64_t deadline_after(const struct db_vacation *v, int n, int64_t since, int64_t bank)
{
  int64_t t = since, left = bank;
  int i;

  for (i = 0; i < n && left > 0; i++) {
    if (v[i].end_ms <= t)
      continue;
    if (v[i].start_ms > t) {
      int64_t run = v[i].start_ms - t < left ? v[i].start_ms - t : left;

      t += run;
      left -= run;
      if (!left)
        break;
    }
    t = v[i].end_ms > t ? v[i].end_ms : t; /* the clock stands still */
  }
  return t + left;
}

static int64_t full_allowance(const struct db_game *row)
{
  return row->move_ms > 0 ? row->move_ms : row->base_ms;
}

int api_clocks_next(struct api_server *server, const struct db_game *row,
                    const struct engine_game *state, bool active,
                    struct db_clock clocks[ENGINE_MAX_SEATS])
{
  struct db_vacation v[VACATIONS_MAX];
  struct cairn_error err = {0};
  int to_act[ENGINE_MAX_SEATS], n_to_act = 0, n = 0, seat, i;
  int64_t now = server->now_ms();

  if (!api_has_time_control(row))
    return 0;
  if (db_clocks_load(server->db, row->id, clocks, &n, &err) != CAIRN_OK)
    return 0;
  if (n != row->seats) {
    for (seat = 0; seat < row->seats; seat++)
      clocks[seat] = (struct db_clock){.seat = seat, .bank_ms = full_allowance(row)};
    n = row->seats;
  }
  if (active && state)
    n_to_act = state->module->to_act(state, to_act);
  for (seat = 0; seat < n; seat++) {
    struct db_clock *k = &clocks[seat];
    bool owes = false;
    int nv;

    for (i = 0; i < n_to_act; i++)
      owes = owes || to_act[i] == seat;
    nv = load_vacations(server, row->seat_player[seat], k->since_ms ? k->since_ms : now, v);
    if (k->since_ms && !owes) {
      /* The decision is made: pay for it, then earn the increment. */
      int64_t used = now - k->since_ms - paused(v, nv, k->since_ms, now);

      if (row->move_ms > 0) {
        k->bank_ms = row->move_ms;
      } else {
        k->bank_ms = k->bank_ms - used + row->increment_ms;
        if (row->cap_ms > 0 && k->bank_ms > row->cap_ms)
          k->bank_ms = row->cap_ms;
      }
      k->since_ms = 0;
    } else if (owes && !k->since_ms) {
      k->since_ms = now;
      if (row->move_ms > 0)
        k->bank_ms = row->move_ms;
    }
    k->deadline_ms = k->since_ms ? deadline_after(v, nv, k->since_ms, k->bank_ms) : 0;
  }
  return n;
}

void api_clocks_update(struct api_server *server, const struct db_game *row,
                       const struct engine_game *state)
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct cairn_error err = {0};
  int n = api_clocks_next(server, row, state, strcmp(row->status, DB_STATUS_ACTIVE) == 0, clocks);

  if (n > 0 && db_clocks_save(server->db, row->id, clocks, n, &err) != CAIRN_OK)
    fprintf(stderr, "cairn: clocks of game %s not saved: %s\n", row->id, err.detail);
}

int api_clocks_overdue(struct api_server *server, const struct db_game *row, int seats[])
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct cairn_error err = {0};
  int n = 0, i, out = 0;
  int64_t now = server->now_ms();

  if (db_clocks_load(server->db, row->id, clocks, &n, &err) != CAIRN_OK)
    return 0;
  for (i = 0; i < n; i++)
    if (clocks[i].deadline_ms && clocks[i].deadline_ms <= now)
      seats[out++] = clocks[i].seat;
  return out;
}

json_t *api_deadline_json(struct api_server *server, const struct db_game *row, json_t **per_seat)
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct cairn_error err = {0};
  int64_t first = 0;
  int n = 0, i;

  if (per_seat)
    *per_seat = json_array();
  if (!api_has_time_control(row) || strcmp(row->status, DB_STATUS_ACTIVE) != 0 ||
      db_clocks_load(server->db, row->id, clocks, &n, &err) != CAIRN_OK)
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

/* ---- vacations ---- */

static int64_t year_start_ms(int64_t ms, int add_years)
{
  time_t secs = (time_t)(ms / 1000);
  struct tm tm;

  gmtime_r(&secs, &tm);
  tm.tm_year += add_years;
  tm.tm_mon = 0;
  tm.tm_mday = 1;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  return (int64_t)timegm(&tm) * 1000;
}

/* Hours of vacation already declared to start in `start`'s year. */
static int64_t hours_used(struct api_server *server, const char *player, int64_t start)
{
  struct db_vacation v[VACATIONS_MAX];
  int64_t from = year_start_ms(start, 0), to = year_start_ms(start, 1), ms = 0;
  int n = load_vacations(server, player, from, v), i;

  for (i = 0; i < n; i++)
    if (v[i].start_ms >= from && v[i].start_ms < to)
      ms += v[i].end_ms - v[i].start_ms;
  return ms / HOUR_MS;
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

struct recompute {
  struct api_server *server;
};

/* A new vacation moves the player's deadlines out: recompute them. */
static enum cairn_status recompute_game(void *arg, const char *game_id, int seat,
                                        struct cairn_error *err)
{
  struct recompute *r = arg;
  struct db_game row = {0};
  const struct engine_game *state = NULL;

  api_game_lock(r->server, game_id);
  if (db_game_load(r->server->db, game_id, &row, err) == CAIRN_OK && api_has_time_control(&row) &&
      strcmp(row.status, DB_STATUS_ACTIVE) == 0 &&
      api_live_get(r->server, &row, &state, err) == CAIRN_OK)
    api_clocks_update(r->server, &row, state);
  api_game_unlock(r->server, game_id);
  db_game_clear(&row);
  return CAIRN_OK;
}

static json_t *vacations_json(struct api_server *server, const char *player)
{
  struct db_vacation v[VACATIONS_MAX];
  int64_t now = server->now_ms();
  int n = load_vacations(server, player, now, v), i;
  json_t *list = json_array();

  for (i = 0; i < n; i++)
    json_array_append_new(list, json_pack("{s:o, s:o}", "start", api_time_json(v[i].start_ms),
                                          "end", api_time_json(v[i].end_ms)));
  return json_pack("{s:i, s:I, s:I, s:o}", "days_per_year", server->vacation_days,
                   "used_hours_this_year", (json_int_t)hours_used(server, player, now),
                   "left_hours_this_year",
                   (json_int_t)(server->vacation_days * 24 - hours_used(server, player, now)),
                   "vacations", list);
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
  struct recompute r = {req->server};
  struct db_vacation v;
  json_t *doc = NULL;
  json_int_t hours;
  int64_t left;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_body_object(req, vacation_fields, false, &doc, err);
  if (st != CAIRN_OK)
    goto cleanup;
  hours = json_integer_value(json_object_get(doc, "hours"));
  if (!parse_time(json_string_value(json_object_get(doc, "start")), &v.start_ms)) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "start must be an RFC 3339 UTC time, like 2026-12-24T00:00:00Z");
    goto cleanup;
  }
  if (v.start_ms < req->server->now_ms()) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "a vacation is declared ahead: start may not be in the past");
    goto cleanup;
  }
  left = req->server->vacation_days * 24 - hours_used(req->server, req->player.id, v.start_ms);
  if (hours < 1 || hours > left) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "hours must be 1 to %lld: what is left of this year's vacation bank",
                    (long long)left);
    goto cleanup;
  }
  v.end_ms = v.start_ms + hours * HOUR_MS;
  st = db_vacation_add(req->server->db, req->player.id, &v, err);
  if (st == CAIRN_OK)
    st = db_player_games(req->server->db, req->player.id, recompute_game, &r, err);
  if (st == CAIRN_OK) {
    resp->status = 201;
    resp->body = vacations_json(req->server, req->player.id);
  }
cleanup:
  json_decref(doc);
  return st;
}
