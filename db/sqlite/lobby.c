/*
 * lobby.c - the lobby's listing for the SQLite backend (issue 25): a page
 * of the open or the active games, newest first, from a keyset cursor;
 * invitations, the seats kept for named players; and the archive, a
 * player's finished games.
 */
#include "internal.h"
#include "../verdict.h"

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

/* An open game is listed only while a seat is free for anyone: neither
 * taken nor kept for an invited player (an invitation's row lives only
 * while its seat is free, so the two counts never overlap). */
#define FREE_FOR_ANYONE                                                                            \
  " AND (SELECT count(*) FROM seats s WHERE s.game_id = games.id)"                                 \
  " + (SELECT count(*) FROM invitations i WHERE i.game_id = games.id) < seats"

static void lobby_sql(const struct db_lobby_query *q, char *sql, size_t size)
{
  bool open = strcmp(q->status, DB_STATUS_OPEN) == 0;

  /* The row value (created_ms, id) < (?3, ?4) is the cursor, a range of
   * the index: a later page costs what the first does. */
  snprintf(sql, size,
           "SELECT id FROM games WHERE status = '%s'"
           " AND (?1 IS NULL OR title = ?1) AND (?2 = 0 OR seats = ?2)%s%s"
           " AND (created_ms, id) < (?3, ?4) ORDER BY created_ms DESC, id DESC LIMIT ?5",
           open ? DB_STATUS_OPEN : DB_STATUS_ACTIVE, clock_terms[q->clock],
           open ? FREE_FOR_ANYONE : "");
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

/* ---- invitations ---- */

enum cairn_status db_sqlite_uninvite(sqlite3 *db, const char *game_id, const char *player_id,
                                     bool *deleted, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db, "DELETE FROM invitations WHERE game_id = ?1 AND player_id = ?2", &stmt,
                         err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, player_id, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "withdrawing an invitation", err);
  else if (deleted)
    *deleted = sqlite3_changes(db) > 0;
  db_sqlite_release(stmt);
  return st;
}

/* An invitation is declined only while its game is open: once the game
 * starts there is none left (the join deleted it), and a decline of a game
 * that moved on is a plain not-found. */
enum cairn_status db_sqlite_invitation_decline(void *ctx, const char *game_id,
                                               const char *player_id, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  char status[DB_STATUS_MAX + 1];
  bool deleted = false;
  int seats = 0;
  enum cairn_status st;

  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = db_sqlite_game_status(c->db, game_id, status, sizeof(status), &seats, NULL, err);
  if (st == CAIRN_OK && strcmp(status, DB_STATUS_OPEN) == 0)
    st = db_sqlite_uninvite(c->db, game_id, player_id, &deleted, err);
  if (st == CAIRN_OK && !deleted)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "no invitation of %s to game %s is open", player_id, game_id);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  else
    db_sqlite_forget_game(c, game_id);
  db_sqlite_unlock(c);
  return st;
}

/* One (game, seat) of a player's invitations. */
struct invited {
  char game_id[DB_ID_MAX + 1];
  int seat;
};

enum cairn_status db_sqlite_invitations_of(void *ctx, const char *player_id, db_game_seat_cb cb,
                                           void *arg, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  struct invited rows[DB_INVITATIONS_MAX];
  int n = 0, i, rc = SQLITE_DONE;
  enum cairn_status st;

  /* Read under the lock, called without it: `cb` may call other slots. */
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT game_id, seat FROM invitations WHERE player_id = ?1"
                         " ORDER BY game_id LIMIT " DB_INVITATIONS_MAX_TEXT,
                         &stmt, err);
  if (st == CAIRN_OK)
    sqlite3_bind_text(stmt, 1, player_id, -1, SQLITE_STATIC);
  while (st == CAIRN_OK && n < DB_INVITATIONS_MAX && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    rows[n].seat = sqlite3_column_int(stmt, 1);
    st = db_sqlite_column_copy(stmt, 0, rows[n].game_id, sizeof(rows[n].game_id),
                               "listing invitations", err);
    n++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    st = db_sqlite_fail(c->rdb, rc, "listing invitations", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].game_id, rows[i].seat, err);
  return st;
}

/* ---- the archive ---- */

enum cairn_status db_sqlite_games_archive(void *ctx, const struct db_archive_query *q,
                                          db_game_seat_cb cb, void *arg, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  struct invited *rows = calloc((size_t)q->limit, sizeof(*rows));
  int n = 0, i, rc = SQLITE_DONE;
  enum cairn_status st = CAIRN_OK;

  if (!rows)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  /* The player's seats (seats_by_player, 0014), their finished games, by
   * the keyset (updated_ms, id) descending. */
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(
      c->rdb,
      "SELECT g.id, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
      " WHERE s.player_id = ?1 AND g.status = 'finished' AND (?2 IS NULL OR g.title = ?2)"
      " AND (?3 IS NULL OR EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id"
      "  AND o.player_id = ?3 AND o.seat <> s.seat))"
      " AND (g.updated_ms, g.id) < (?4, ?5) ORDER BY g.updated_ms DESC, g.id DESC LIMIT ?6",
      &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, q->player_id, -1, SQLITE_STATIC);
    if (q->title)
      sqlite3_bind_text(stmt, 2, q->title, -1, SQLITE_STATIC);
    if (q->opponent)
      sqlite3_bind_text(stmt, 3, q->opponent, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 4, q->after_id ? q->after_ms : INT64_MAX);
    sqlite3_bind_text(stmt, 5, q->after_id ? q->after_id : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 6, q->limit);
  }
  while (st == CAIRN_OK && n < q->limit && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    rows[n].seat = sqlite3_column_int(stmt, 1);
    st = db_sqlite_column_copy(stmt, 0, rows[n].game_id, sizeof(rows[n].game_id),
                               "listing the archive", err);
    n++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    st = db_sqlite_fail(c->rdb, rc, "listing the archive", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].game_id, rows[i].seat, err);
  free(rows);
  return st;
}

/* ---- cancelling an open game ---- */

static enum cairn_status mark_cancelled(sqlite3 *db, const char *game_id, int64_t at_ms,
                                        struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db,
                         "UPDATE games SET status = 'cancelled', updated_ms = ?2"
                         " WHERE id = ?1 AND status = 'open'",
                         &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, at_ms);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "cancelling a game", err);
  db_sqlite_release(stmt);
  return st;
}

static enum cairn_status drop_invitations(sqlite3 *db, const char *game_id, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db, "DELETE FROM invitations WHERE game_id = ?1", &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "cancelling a game", err);
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_game_cancel(void *ctx, const char *game_id, int64_t at_ms,
                                        struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  char status[DB_STATUS_MAX + 1] = "";
  int seats = 0;
  enum cairn_status st;

  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = db_sqlite_game_status(c->db, game_id, status, sizeof(status), &seats, NULL, err);
  if (st == CAIRN_OK && strcmp(status, DB_STATUS_OPEN) != 0)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_OPEN, NULL,
                    "game %s is %s: only an open game is cancelled", game_id, status);
  if (st == CAIRN_OK)
    st = mark_cancelled(c->db, game_id, at_ms, err);
  if (st == CAIRN_OK)
    st = drop_invitations(c->db, game_id, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  else
    db_sqlite_forget_game(c, game_id);
  db_sqlite_unlock(c);
  return st;
}
