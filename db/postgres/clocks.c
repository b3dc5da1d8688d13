/*
 * clocks.c - the time-control methods of the PostgreSQL backend: each
 * seat's clock, and the players' declared vacations (game/ has the rules
 * for how clocks move; this file only keeps them).
 */
#include "internal.h"

#include <assert.h>

enum cairn_status db_pg_clocks_load(void *ctx, const char *game_id, struct db_clock *out, int *n,
                                    struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;
  int row;

  *n = 0;
  db_pg_text(&p, game_id);
  st = db_pg_read(ctx,
                  "SELECT seat, bank_ms, coalesce(since_ms, 0), coalesce(deadline_ms, 0)"
                  " FROM clocks WHERE game_id = $1 ORDER BY seat",
                  &p, &res, "loading clocks", err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res) && *n < ENGINE_MAX_SEATS; row++) {
    struct db_clock *k = &out[(*n)++];

    k->seat = (int)db_pg_int64(res, row, 0);
    k->bank_ms = db_pg_int64(res, row, 1);
    k->since_ms = db_pg_int64(res, row, 2);
    k->deadline_ms = db_pg_int64(res, row, 3);
  }
  PQclear(res);
  return st;
}

enum cairn_status db_pg_write_clocks(PGconn *conn, const char *game_id,
                                     const struct db_clock *clocks, int n, struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int i;

  assert(n >= 0 && n <= ENGINE_MAX_SEATS);
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    struct db_pg_params p = {0};

    db_pg_text(&p, game_id);
    db_pg_int(&p, clocks[i].seat);
    db_pg_int(&p, clocks[i].bank_ms);
    db_pg_int(&p, clocks[i].since_ms);
    db_pg_int(&p, clocks[i].deadline_ms);
    st = db_pg_run(conn,
                   "INSERT INTO clocks (game_id, seat, bank_ms, since_ms, deadline_ms)"
                   " VALUES ($1, $2, $3, nullif($4::bigint, 0), nullif($5::bigint, 0))"
                   " ON CONFLICT (game_id, seat) DO UPDATE SET bank_ms = excluded.bank_ms,"
                   " since_ms = excluded.since_ms, deadline_ms = excluded.deadline_ms",
                   &p, "saving clocks", err);
  }
  return st;
}

enum cairn_status db_pg_clocks_save(void *ctx, const char *game_id, const struct db_clock *clocks,
                                    int n, struct cairn_error *err)
{
  struct db_pg *c = ctx;
  PGconn *conn = NULL;
  enum cairn_status st;

  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_write_clocks(conn, game_id, clocks, n, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}

enum cairn_status db_pg_vacation_add(void *ctx, const char *player_id, const struct db_vacation *v,
                                     struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, player_id);
  db_pg_int(&p, v->start_ms);
  db_pg_int(&p, v->end_ms);
  return db_pg_write(ctx, "INSERT INTO vacations (player_id, start_ms, end_ms) VALUES ($1, $2, $3)",
                     &p, NULL, NULL, "declaring a vacation", err);
}

enum cairn_status db_pg_vacations_of(void *ctx, const char *player_id, int64_t from_ms,
                                     struct db_vacation *out, int max, int *n,
                                     struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;
  int row;

  *n = 0;
  db_pg_text(&p, player_id);
  db_pg_int(&p, from_ms);
  st = db_pg_read(ctx,
                  "SELECT start_ms, end_ms FROM vacations WHERE player_id = $1 AND end_ms > $2"
                  " ORDER BY start_ms",
                  &p, &res, "loading vacations", err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res) && *n < max; row++) {
    out[*n].start_ms = db_pg_int64(res, row, 0);
    out[*n].end_ms = db_pg_int64(res, row, 1);
    (*n)++;
  }
  PQclear(res);
  return st;
}
