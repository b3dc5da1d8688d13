/*
 * lobby.c - the lobby's listing for the SQLite backend (issue 25): a page
 * of the open or the active games, newest first, from a keyset cursor.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The status and the time control are written into the text, not bound:
 * SQLite uses a partial index (games_open, games_active) only when the
 * query's own text implies its WHERE, and a bound status does not. Two
 * statuses by four clocks: eight texts, each prepared once. */
static const char *const clock_terms[] = {
    [DB_CLOCK_ANY] = "",
    [DB_CLOCK_NONE] = " AND move_ms = 0 AND base_ms = 0",
    [DB_CLOCK_MOVE] = " AND move_ms > 0",
    [DB_CLOCK_PACE] = " AND base_ms > 0",
};

static void lobby_sql(const struct db_lobby_query *q, char *sql, size_t size)
{
  bool open = strcmp(q->status, DB_STATUS_OPEN) == 0;

  /* The row value (created_ms, id) < (?3, ?4) is the cursor, a range of
   * the index: a later page costs what the first does. */
  snprintf(sql, size,
           "SELECT id FROM games WHERE status = '%s'"
           " AND (?1 IS NULL OR title = ?1) AND (?2 = 0 OR seats = ?2)%s"
           " AND (created_ms, id) < (?3, ?4) ORDER BY created_ms DESC, id DESC LIMIT ?5",
           open ? DB_STATUS_OPEN : DB_STATUS_ACTIVE, clock_terms[q->clock]);
}

/* OUT ids[0..*n), caller frees with free(); read under the lock. */
static enum cairn_status read_page(struct db_sqlite *c, const struct db_lobby_query *q,
                                   char (**ids)[DB_ID_MAX + 1], int *n, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  char sql[512];
  enum cairn_status st;
  int rc = SQLITE_DONE;

  *n = 0;
  *ids = calloc((size_t)q->limit, sizeof(**ids));
  if (!*ids)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  lobby_sql(q, sql, sizeof(sql));
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, sql, &stmt, err);
  if (st == CAIRN_OK) {
    if (q->title)
      sqlite3_bind_text(stmt, 1, q->title, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, q->seats);
    sqlite3_bind_int64(stmt, 3, q->after_id ? q->after_ms : INT64_MAX);
    sqlite3_bind_text(stmt, 4, q->after_id ? q->after_id : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 5, q->limit);
  }
  while (st == CAIRN_OK && *n < q->limit && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
    st = db_sqlite_column_copy(stmt, 0, (*ids)[(*n)++], sizeof(**ids), "listing the lobby", err);
  if (st == CAIRN_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    st = db_sqlite_fail(c->rdb, rc, "listing the lobby", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return st;
}

enum cairn_status db_sqlite_games_lobby(void *ctx, const struct db_lobby_query *query,
                                        db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  char(*ids)[DB_ID_MAX + 1] = NULL;
  int n = 0, i;
  enum cairn_status st = read_page(ctx, query, &ids, &n, err);

  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, ids[i], err);
  free(ids);
  return st;
}
