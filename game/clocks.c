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
 * Clocks are bookkeeping kept beside the log (table clocks): a change's
 * clocks are computed here and saved with its log row (commit.c), read by
 * the sweeper (timeouts.c) and shown by api/. The vacation endpoints are
 * api/vacation.c's; the bank's rules are here.
 */
#include "game.h"
#include "../log/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOUR_MS 3600000LL

bool game_has_time_control(const struct db_game *row)
{
  return row->move_ms > 0 || row->base_ms > 0;
}

static int load_vacations(struct game_service *svc, const char *player, int64_t from,
                          struct db_vacation *v)
{
  struct cairn_error err = {0};
  int n = 0;

  if (!player[0] ||
      db_vacations_of(svc->db, player, from, v, GAME_VACATIONS_MAX, &n, &err) != CAIRN_OK)
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

int game_clocks_next(struct game_service *svc, const struct db_game *row,
                     const struct game_turn *turn, struct db_clock clocks[ENGINE_MAX_SEATS])
{
  struct db_vacation v[GAME_VACATIONS_MAX];
  struct cairn_error err = {0};
  int n = 0, seat, i;
  int64_t now = svc->now_ms();

  if (!game_has_time_control(row))
    return 0;
  if (db_clocks_load(svc->db, row->id, clocks, &n, &err) != CAIRN_OK)
    return 0;
  if (n != row->seats) {
    for (seat = 0; seat < row->seats; seat++)
      clocks[seat] = (struct db_clock){.seat = seat, .bank_ms = full_allowance(row)};
    n = row->seats;
  }
  for (seat = 0; seat < n; seat++) {
    struct db_clock *k = &clocks[seat];
    bool owes = false;
    int nv;

    for (i = 0; i < turn->n; i++)
      owes = owes || turn->seats[i] == seat;
    nv = load_vacations(svc, row->seat_player[seat], k->since_ms ? k->since_ms : now, v);
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

void game_clocks_update(struct game_service *svc, const struct db_game *row,
                        const struct engine_game *state)
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct cairn_error err = {0};
  struct game_turn turn = {.n = 0};
  int n;

  if (state && strcmp(row->status, DB_STATUS_ACTIVE) == 0)
    turn.n = engine_to_act(state, turn.seats);
  n = game_clocks_next(svc, row, &turn, clocks);
  if (n > 0 && db_clocks_save(svc->db, row->id, clocks, n, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "clocks", "clocks of game %s not saved: %s", row->id, err.detail);
}

int game_clocks_overdue(struct game_service *svc, const struct db_game *row, int seats[])
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct cairn_error err = {0};
  int n = 0, i, out = 0;
  int64_t now = svc->now_ms();

  if (db_clocks_load(svc->db, row->id, clocks, &n, &err) != CAIRN_OK)
    return 0;
  for (i = 0; i < n; i++)
    if (clocks[i].deadline_ms && clocks[i].deadline_ms <= now)
      seats[out++] = clocks[i].seat;
  return out;
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
int64_t game_vacation_hours_used(struct game_service *svc, const char *player, int64_t start)
{
  struct db_vacation v[GAME_VACATIONS_MAX];
  int64_t from = year_start_ms(start, 0), to = year_start_ms(start, 1), ms = 0;
  int n = load_vacations(svc, player, from, v), i;

  for (i = 0; i < n; i++)
    if (v[i].start_ms >= from && v[i].start_ms < to)
      ms += v[i].end_ms - v[i].start_ms;
  return ms / HOUR_MS;
}

int game_vacations_of(struct game_service *svc, const char *player_id, int64_t from_ms,
                      struct db_vacation *out)
{
  return load_vacations(svc, player_id, from_ms, out);
}

int game_clocks_of(struct game_service *svc, const struct db_game *row,
                   struct db_clock clocks[ENGINE_MAX_SEATS])
{
  struct cairn_error err = {0};
  int n = 0;

  if (!game_has_time_control(row) || strcmp(row->status, DB_STATUS_ACTIVE) != 0 ||
      db_clocks_load(svc->db, row->id, clocks, &n, &err) != CAIRN_OK)
    return 0;
  return n;
}

/* A new vacation moves the player's deadlines out: recompute them. */
static enum cairn_status recompute_game(void *arg, const char *game_id, int seat,
                                        struct cairn_error *err)
{
  struct game_service *svc = arg;
  struct db_game row = {0};
  const struct engine_game *state = NULL;

  game_lock(svc, game_id);
  if (db_game_load(svc->db, game_id, &row, err) == CAIRN_OK && game_has_time_control(&row) &&
      strcmp(row.status, DB_STATUS_ACTIVE) == 0 &&
      game_live_get(svc, &row, &state, err) == CAIRN_OK)
    game_clocks_update(svc, &row, state);
  game_unlock(svc, game_id);
  db_game_clear(&row);
  return CAIRN_OK;
}

enum cairn_status game_vacation_declare(struct game_service *svc, const char *player_id,
                                        int64_t start_ms, int64_t hours, struct cairn_error *err)
{
  struct db_vacation v = {.start_ms = start_ms};
  int64_t left;
  enum cairn_status st;

  if (start_ms < svc->now_ms())
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "a vacation is declared ahead: start may not be in the past");
  left = svc->vacation_days * 24 - game_vacation_hours_used(svc, player_id, start_ms);
  if (hours < 1 || hours > left)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "hours must be 1 to %lld: what is left of this year's vacation bank",
                      (long long)left);
  v.end_ms = start_ms + hours * HOUR_MS; /* hours is bounded by the bank now */
  st = db_vacation_add(svc->db, player_id, &v, err);
  if (st == CAIRN_OK)
    st = db_player_games(svc->db, player_id, recompute_game, svc, err);
  return st;
}
