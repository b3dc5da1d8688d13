/*
 * clocks.c - the time-control methods of the SQLite backend: each seat's clock, and the
 * players' declared vacations. The rules for how clocks move are
 * api/clocks.c's; this file only keeps them.
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

enum cairn_status db_sqlite_clocks_load(void *ctx, const char *game_id, struct db_clock *out,
                                        int *n, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc = SQLITE_DONE;

  *n = 0;
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT seat, bank_ms, coalesce(since_ms, 0), coalesce(deadline_ms, 0)"
                         " FROM clocks WHERE game_id = ?1 ORDER BY seat",
                         &stmt, err);
  if (st == CAIRN_OK)
    sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  while (st == CAIRN_OK && *n < ENGINE_MAX_SEATS && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    struct db_clock *k = &out[(*n)++];

    k->seat = sqlite3_column_int(stmt, 0);
    k->bank_ms = sqlite3_column_int64(stmt, 1);
    k->since_ms = sqlite3_column_int64(stmt, 2);
    k->deadline_ms = sqlite3_column_int64(stmt, 3);
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    st = db_sqlite_fail(c->rdb, rc, "loading clocks", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return st;
}

enum cairn_status db_sqlite_write_clocks(sqlite3 *db, const char *game_id,
                                         const struct db_clock *clocks, int n,
                                         struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i, rc;

  assert(n >= 0 && n <= ENGINE_MAX_SEATS);
  st = db_sqlite_prepare(db,
                         "INSERT INTO clocks (game_id, seat, bank_ms, since_ms, deadline_ms)"
                         " VALUES (?1, ?2, ?3, nullif(?4, 0), nullif(?5, 0))"
                         " ON CONFLICT (game_id, seat) DO UPDATE SET bank_ms = ?3,"
                         " since_ms = nullif(?4, 0), deadline_ms = nullif(?5, 0)",
                         &stmt, err);
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    sqlite3_reset(stmt);
    sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, clocks[i].seat);
    sqlite3_bind_int64(stmt, 3, clocks[i].bank_ms);
    sqlite3_bind_int64(stmt, 4, clocks[i].since_ms);
    sqlite3_bind_int64(stmt, 5, clocks[i].deadline_ms);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(db, rc, "saving clocks", err);
  }
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_clocks_save(void *ctx, const char *game_id,
                                        const struct db_clock *clocks, int n,
                                        struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  enum cairn_status st;

  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = db_sqlite_write_clocks(c->db, game_id, clocks, n, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_vacation_add(void *ctx, const char *player_id,
                                         const struct db_vacation *v, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_sqlite_lock(c);
  st = db_sqlite_prepare(
      c->db, "INSERT INTO vacations (player_id, start_ms, end_ms) VALUES (?1, ?2, ?3)", &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, v->start_ms);
    sqlite3_bind_int64(stmt, 3, v->end_ms);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "declaring a vacation", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_vacations_of(void *ctx, const char *player_id, int64_t from_ms,
                                         struct db_vacation *out, int max, int *n,
                                         struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc = SQLITE_DONE;

  *n = 0;
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT start_ms, end_ms FROM vacations WHERE player_id = ?1"
                         " AND end_ms > ?2 ORDER BY start_ms",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, from_ms);
  }
  while (st == CAIRN_OK && *n < max && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    out[*n].start_ms = sqlite3_column_int64(stmt, 0);
    out[*n].end_ms = sqlite3_column_int64(stmt, 1);
    (*n)++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    st = db_sqlite_fail(c->rdb, rc, "loading vacations", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return st;
}
