/*
 * games.c - the game-row methods of the SQLite backend: creating a game and loading it
 * with its seats. Taking a seat is in seats.c; the bookkeeping a move
 * changes (seq, move count, status, result) is written by moves.c.
 */
#include "internal.h"
#include "../verdict.h"
#include "../../log/log.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Insert the creation fields of `game`; status, seq and moves take their
 * defaults (open, 0, 0) whatever the struct says: a new game has no
 * history, and a game's history only ever arrives through the move log.
 * Call inside a write transaction. */
enum cairn_status db_sqlite_insert_game(sqlite3 *db, const struct db_game *game,
                                        struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(
      db,
      "INSERT INTO games (id, title, rules_version, options_json, seed, seats,"
      " creator, created_ms, updated_ms, move_ms, on_timeout, base_ms, increment_ms,"
      " cap_ms, chain_format, imported, signer, signature)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
      &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game->id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, game->title, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 3, game->rules_version, -1, SQLITE_STATIC);
  /* NULL options mean "the title's defaults", which the engine reads from
   * an empty object. */
  sqlite3_bind_text(stmt, 4, game->options_json ? game->options_json : "{}", -1, SQLITE_STATIC);
  sqlite3_bind_blob(stmt, 5, game->seed, ENGINE_SEED_BYTES, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 6, game->seats);
  sqlite3_bind_text(stmt, 7, game->creator, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 8, game->created_ms);
  sqlite3_bind_int64(stmt, 9, game->move_ms);
  sqlite3_bind_text(stmt, 10, game->on_timeout[0] ? game->on_timeout : "move", -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 11, game->base_ms);
  sqlite3_bind_int64(stmt, 12, game->increment_ms);
  sqlite3_bind_int64(stmt, 13, game->cap_ms);
  sqlite3_bind_int(stmt, 14, game->chain_format ? game->chain_format : DB_CHAIN_FORMAT_CURRENT);
  sqlite3_bind_int(stmt, 15, game->imported);
  if (game->has_signer) {
    sqlite3_bind_blob(stmt, 16, game->signer, DB_KEY_BYTES, SQLITE_STATIC);
    sqlite3_bind_blob(stmt, 17, game->signature, DB_SIG_BYTES, SQLITE_STATIC);
  }
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY) {
    st =
        cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no player %s", game->creator);
    goto cleanup;
  }
  if ((rc & 0xff) == SQLITE_CONSTRAINT) {
    /* A repeated random id or a field the struct cannot hold: a caller
     * bug (see players.c). */
    log_line(LOG_ERROR, "db", "creating game %s: %s", game->id, sqlite3_errmsg(db));
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "game %s could not be stored: its id is already in use, or it is malformed",
                    game->id);
    goto cleanup;
  }
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "creating a game", err);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_game_create(void *ctx, const struct db_game *game,
                                        struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  enum cairn_status st;
  bool seated = false;
  bool started = false; /* a game its creator fills starts; nothing else depends on it */
  int seat;

  assert(c && game);
  assert(game->seats >= 1 && game->seats <= ENGINE_MAX_SEATS);
  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = db_sqlite_insert_game(c->db, game, err);
  for (seat = 0; st == CAIRN_OK && seat < game->seats; seat++)
    if (game->seat_player[seat][0]) {
      st = db_sqlite_insert_seat(c->db, game->id, seat, game->seat_player[seat], err);
      seated = true;
    }
  for (seat = 0; st == CAIRN_OK && seat < game->seats; seat++)
    if (game->seat_invited[seat][0])
      st = db_sqlite_insert_invitation(c->db, game->id, seat, game->seat_invited[seat], err);
  if (st == CAIRN_OK && seated)
    st = db_sqlite_start_if_full(c->db, game->id, 0, &started, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  db_sqlite_unlock(c);
  return st;
}

/* Fill out's row fields from the current row of `stmt` (columns as in
 * game_load's first query). */
static enum cairn_status read_row(sqlite3_stmt *stmt, struct db_game *out, struct cairn_error *err)
{
  static const char what[] = "loading a game";
  enum cairn_status st;
  const void *seed;
  sqlite3_int64 n;

  st = db_sqlite_column_copy(stmt, 0, out->id, sizeof(out->id), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 1, out->title, sizeof(out->title), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 2, out->rules_version, sizeof(out->rules_version), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 3, out->status, sizeof(out->status), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_dup(stmt, 5, &out->options_json, what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_dup(stmt, 6, &out->result_json, what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 8, out->creator, sizeof(out->creator), what, err);
  if (st != CAIRN_OK)
    return st;

  /* The schema's checks make these impossible; testing them anyway keeps
   * a hand-edited file from indexing past seat_player or seed. */
  out->seats = sqlite3_column_int(stmt, 4);
  seed = sqlite3_column_blob(stmt, 7);
  if (out->seats < 1 || out->seats > ENGINE_MAX_SEATS || !seed ||
      sqlite3_column_bytes(stmt, 7) != ENGINE_SEED_BYTES || !out->options_json) {
    log_line(LOG_ERROR, "db", "game %s: seats, seed or options unreadable", out->id);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
  }
  memcpy(out->seed, seed, ENGINE_SEED_BYTES);

  out->created_ms = sqlite3_column_int64(stmt, 9);
  /* The schema keeps both within uint32_t. */
  n = sqlite3_column_int64(stmt, 10);
  out->seq = (uint32_t)n;
  n = sqlite3_column_int64(stmt, 11);
  out->moves = (uint32_t)n;
  return CAIRN_OK;
}

/* Columns 22.. of a game_load row: what migration 0008 added. */
static void read_v5(sqlite3_stmt *stmt, struct db_game *out)
{
  out->chain_format = sqlite3_column_int(stmt, 22);
  out->imported = sqlite3_column_int(stmt, 23) != 0;
  out->has_signer = sqlite3_column_bytes(stmt, 24) == DB_KEY_BYTES &&
                    sqlite3_column_bytes(stmt, 25) == DB_SIG_BYTES;
  if (out->has_signer) {
    memcpy(out->signer, sqlite3_column_blob(stmt, 24), DB_KEY_BYTES);
    memcpy(out->signature, sqlite3_column_blob(stmt, 25), DB_SIG_BYTES);
  }
}

/* The names-only seats of an imported game. A second statement outside
 * the first one's snapshot is fine: an imported game is stored whole in one
 * transaction and never changes after. */
static enum cairn_status read_imported_seats(sqlite3 *db, struct db_game *out,
                                             struct cairn_error *err)
{
  static const char what[] = "loading an imported game's seats";
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc = SQLITE_DONE;
  int seat;

  st = db_sqlite_prepare(db, "SELECT seat, claimed_id, name FROM imported_seats WHERE game_id = ?1",
                         &stmt, err);
  if (st == CAIRN_OK)
    sqlite3_bind_text(stmt, 1, out->id, -1, SQLITE_STATIC);
  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    seat = sqlite3_column_int(stmt, 0);
    if (seat < 0 || seat >= out->seats) {
      st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
      break;
    }
    st = db_sqlite_column_copy(stmt, 1, out->import_ids[seat], sizeof(out->import_ids[seat]), what,
                               err);
    if (st == CAIRN_OK)
      st = db_sqlite_column_copy(stmt, 2, out->seat_name[seat], sizeof(out->seat_name[seat]), what,
                                 err);
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, what, err);
  db_sqlite_release(stmt);
  return st;
}

/* Columns 19..21 and 26 of a game_load row: one seat (NULL on the one row
 * of a game nobody has joined). */
static enum cairn_status read_seat(sqlite3_stmt *stmt, struct db_game *out, struct cairn_error *err)
{
  static const char what[] = "loading a game's seats";
  enum cairn_status st;
  int seat;

  if (sqlite3_column_type(stmt, 19) == SQLITE_NULL)
    return CAIRN_OK;
  seat = sqlite3_column_int(stmt, 19);
  if (seat < 0 || seat >= out->seats) {
    log_line(LOG_ERROR, "db", "game %s: seat %d outside 0..%d", out->id, seat, out->seats - 1);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
  }
  out->seat_resigned[seat] = sqlite3_column_int(stmt, 26) != 0; /* migration 0009 */
  st = db_sqlite_column_copy(stmt, 20, out->seat_player[seat], sizeof(out->seat_player[seat]), what,
                             err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 21, out->seat_name[seat], sizeof(out->seat_name[seat]), what,
                               err);
  return st;
}

/*
 * The row and its seats in one statement, one row per seat: a single
 * statement reads one snapshot, so no explicit transaction is needed to
 * keep the seats consistent with the row even if another process writes
 * in between. This is on every request's path; a BEGIN, a second
 * statement and a COMMIT more cost a tenth of a move's server CPU.
 */
enum cairn_status db_sqlite_game_load(void *ctx, const char *game_id, struct db_game *out,
                                      struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  assert(c && game_id && out);
  memset(out, 0, sizeof(*out));
  db_sqlite_rlock(c);
  if (db_rowcache_game_get(c->rows, game_id, out)) {
    db_sqlite_runlock(c);
    return CAIRN_OK;
  }
  st = db_sqlite_prepare(c->rdb,
                         "SELECT g.id, g.title, g.rules_version, g.status, g.seats, g.options_json,"
                         " g.result_json, g.seed, g.creator, g.created_ms, g.seq, g.moves,"
                         " (SELECT hash FROM moves m WHERE m.game_id = g.id"
                         "  AND m.ord = g.moves - 1), g.updated_ms, g.move_ms, g.on_timeout,"
                         " g.base_ms, g.increment_ms, g.cap_ms, s.seat, s.player_id, p.name,"
                         " g.chain_format, g.imported, g.signer, g.signature, s.resigned,"
                         " (SELECT group_concat(i.seat || ':' || i.player_id) FROM invitations i"
                         "  WHERE i.game_id = g.id)"
                         " FROM games g LEFT JOIN seats s ON s.game_id = g.id"
                         " LEFT JOIN players p ON p.id = s.player_id WHERE g.id = ?1",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  st = db_sqlite_step_one(c->rdb, stmt, "game", game_id, "loading a game", err);
  if (st != CAIRN_OK)
    goto cleanup;
  rc = SQLITE_ROW; /* the first seat's row, read below */
  st = read_row(stmt, out, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (sqlite3_column_bytes(stmt, 12) == DB_HASH_BYTES)
    memcpy(out->log_head, sqlite3_column_blob(stmt, 12), DB_HASH_BYTES);
  out->updated_ms = sqlite3_column_int64(stmt, 13);
  out->move_ms = sqlite3_column_int64(stmt, 14);
  out->base_ms = sqlite3_column_int64(stmt, 16);
  out->increment_ms = sqlite3_column_int64(stmt, 17);
  out->cap_ms = sqlite3_column_int64(stmt, 18);
  read_v5(stmt, out);
  st = db_sqlite_column_copy(stmt, 15, out->on_timeout, sizeof(out->on_timeout), "loading a game",
                             err);
  /* Migration 0014; the same on every row of the statement. */
  if (st == CAIRN_OK && !db_invited_parse((const char *)sqlite3_column_text(stmt, 27), out))
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "storage holds an unreadable row while loading a game's invitations");
  while (st == CAIRN_OK && rc == SQLITE_ROW) {
    st = read_seat(stmt, out, err);
    if (st == CAIRN_OK)
      rc = sqlite3_step(stmt);
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(c->rdb, rc, "loading a game's seats", err);
  db_sqlite_release(stmt);
  stmt = NULL;
  if (st == CAIRN_OK && out->imported)
    st = read_imported_seats(c->rdb, out, err);
  if (st == CAIRN_OK)
    db_rowcache_game_put(c->rows, out); /* still under rlock: see rowcache.c */

cleanup:
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  if (st != CAIRN_OK)
    db_game_clear(out);
  return st;
}

/* One (game id, seat) pair of a listing. */
struct listed {
  char id[DB_ID_MAX + 1];
  int seat;
};

/* Run `sql` (one optional text parameter; columns: game id, then an
 * optional seat) under the lock and copy every row out, so the callers can
 * visit them with the lock released. On success *out (free()) holds *n rows. */
static enum cairn_status list_games(struct db_sqlite *c, const char *sql, const char *param,
                                    struct listed **out, size_t *n, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  struct listed *rows = NULL;
  size_t cap = 0;
  enum cairn_status st;
  int rc = SQLITE_DONE;

  *n = 0;
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, sql, &stmt, err);
  if (st == CAIRN_OK && param)
    sqlite3_bind_text(stmt, 1, param, -1, SQLITE_STATIC);
  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (*n == cap) {
      struct listed *grown = realloc(rows, (cap ? 2 * cap : 16) * sizeof(*rows));

      if (!grown) {
        st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
        break;
      }
      rows = grown;
      cap = cap ? 2 * cap : 16;
    }
    st = db_sqlite_column_copy(stmt, 0, rows[*n].id, sizeof(rows[*n].id), "listing games", err);
    rows[*n].seat = sqlite3_column_count(stmt) > 1 ? sqlite3_column_int(stmt, 1) : -1;
    (*n)++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(c->rdb, rc, "listing games", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  if (st != CAIRN_OK) {
    free(rows);
    rows = NULL;
    *n = 0;
  }
  *out = rows;
  return st;
}

/* Call `cb` with every id `sql` lists (one column), read up front so `cb`
 * may call other slots. */
static enum cairn_status each_listed(void *ctx, const char *sql, db_game_id_cb cb, void *arg,
                                     struct cairn_error *err)
{
  struct listed *rows = NULL;
  size_t n = 0, i;
  enum cairn_status st = list_games(ctx, sql, NULL, &rows, &n, err);

  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].id, err);
  free(rows);
  return st;
}

enum cairn_status db_sqlite_games_each(void *ctx, db_game_id_cb cb, void *arg,
                                       struct cairn_error *err)
{
  return each_listed(ctx, "SELECT id FROM games ORDER BY created_ms, id", cb, arg, err);
}

enum cairn_status db_sqlite_games_active_each(void *ctx, db_game_id_cb cb, void *arg,
                                              struct cairn_error *err)
{
  /* games_active (migration 0010) holds just these rows, in this order. */
  return each_listed(ctx, "SELECT id FROM games WHERE status = 'active' ORDER BY created_ms, id",
                     cb, arg, err);
}

enum cairn_status db_sqlite_games_bots_idle(void *ctx, int64_t from_ms, int64_t to_ms,
                                            db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  char sql[512];

  /* The bounds are integers the server computed, printed into the text
   * so list_games' one text parameter serves; games_active (0010) holds the
   * active rows, and the seats of each are found by their primary key. */
  snprintf(sql, sizeof(sql),
           "SELECT g.id FROM games g WHERE g.status = 'active'"
           " AND g.updated_ms >= %lld AND g.updated_ms < %lld"
           " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id"
           " AND (s.player_id LIKE '" DB_BOT_PREFIX "%%' OR s.resigned))"
           " ORDER BY g.created_ms, g.id",
           (long long)from_ms, (long long)to_ms);
  return each_listed(ctx, sql, cb, arg, err);
}

enum cairn_status db_sqlite_player_games(void *ctx, const char *player_id,
                                         enum cairn_status (*cb)(void *arg, const char *game_id,
                                                                 int seat, struct cairn_error *err),
                                         void *arg, struct cairn_error *err)
{
  struct listed *rows = NULL;
  size_t n = 0, i;
  enum cairn_status st = list_games(ctx, "SELECT game_id, seat FROM seats WHERE player_id = ?1",
                                    player_id, &rows, &n, err);

  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].id, rows[i].seat, err);
  free(rows);
  return st;
}

enum cairn_status db_sqlite_games_unfinished_by(void *ctx, const char *creator, int *count,
                                                struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  *count = 0;
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT count(*) FROM games WHERE creator = ?1 AND status <> 'finished'"
                         " AND status <> 'cancelled'",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, creator, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
      *count = sqlite3_column_int(stmt, 0);
    else
      st = db_sqlite_fail(c->rdb, rc, "counting games", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return st;
}

enum cairn_status db_sqlite_game_touch(void *ctx, const char *game_id, int64_t at_ms,
                                       struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db, "UPDATE games SET updated_ms = ?2 WHERE id = ?1", &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, at_ms);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "updating a game", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_forget_game(c, game_id);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_games_overdue(void *ctx, int64_t now_ms,
                                          enum cairn_status (*cb)(void *arg, const char *game_id,
                                                                  struct cairn_error *err),
                                          void *arg, struct cairn_error *err)
{
  struct listed *rows = NULL;
  size_t n = 0, i;
  char now[32];
  enum cairn_status st;

  /* The bound is passed as text to reuse list_games' one text parameter;
   * SQLite compares it as the integer it spells. */
  snprintf(now, sizeof(now), "%lld", (long long)now_ms);
  st = list_games(ctx,
                  "SELECT DISTINCT c.game_id FROM clocks c JOIN games g ON g.id = c.game_id"
                  " WHERE g.status = 'active' AND c.deadline_ms <= CAST(?1 AS INTEGER)"
                  " AND g.on_timeout <> 'wait'",
                  now, &rows, &n, err);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].id, err);
  free(rows);
  return st;
}
