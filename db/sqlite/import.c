/*
 * import.c - the game_import slot: a whole verified game stored in one
 * transaction, through the same statements that create games, take seats
 * and append moves, so an imported game is indistinguishable from one
 * played here and the schema's own checks (dense ords, the chain) apply.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

static enum cairn_status game_exists(sqlite3 *db, const char *game_id, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db, "SELECT 1 FROM games WHERE id = ?1", &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_EXISTS, NULL,
                    "a game with id %s exists already", game_id);
  else if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "importing a game", err);
  db_sqlite_release(stmt);
  return st;
}

/* A player of the record: kept if this server knows the id already. */
static enum cairn_status ensure_player(sqlite3 *db, const struct db_player *player,
                                       const uint8_t token_hash[DB_HASH_BYTES],
                                       struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db,
                         "INSERT INTO players (id, name, token_hash) VALUES (?1, ?2, ?3)"
                         " ON CONFLICT (id) DO NOTHING",
                         &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, player->id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, player->name, -1, SQLITE_STATIC);
  sqlite3_bind_blob(stmt, 3, token_hash, DB_HASH_BYTES, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "importing a player", err);
  db_sqlite_release(stmt);
  return st;
}

/* A seat of an import this server cannot vouch for: a name and the id the
 * document claimed, as text; no player is created or matched (db.h). */
static enum cairn_status insert_imported_seat(sqlite3 *db, const char *game_id, int seat,
                                              const struct db_player *player,
                                              struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db,
                         "INSERT INTO imported_seats (game_id, seat, claimed_id, name)"
                         " VALUES (?1, ?2, ?3, ?4)",
                         &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 2, seat);
  sqlite3_bind_text(stmt, 3, player->id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 4, player->name, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "importing a seat", err);
  db_sqlite_release(stmt);
  return st;
}

static enum cairn_status import_locked(sqlite3 *db, const struct db_game *game,
                                       const struct db_player *players,
                                       const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                       const struct db_move *moves, size_t n_moves,
                                       struct cairn_error *err)
{
  enum cairn_status st;
  size_t i;
  int seat;

  st = game_exists(db, game->id, err);
  if (st != CAIRN_OK)
    return st;
  st = db_sqlite_insert_game(db, game, err);
  for (seat = 0; st == CAIRN_OK && seat < game->seats; seat++) {
    if (game->imported) {
      st = insert_imported_seat(db, game->id, seat, &players[seat], err);
      continue;
    }
    if (!players[seat].id[0])
      continue;
    st = ensure_player(db, &players[seat], token_hashes[seat], err);
    if (st == CAIRN_OK)
      st = db_sqlite_insert_seat(db, game->id, seat, players[seat].id, err);
  }
  if (st != CAIRN_OK)
    return st;
  /* Moves are appended to an active game, as they were when played. */
  {
    sqlite3_stmt *stmt = NULL;
    int rc;

    st = db_sqlite_prepare(db, "UPDATE games SET status = 'active' WHERE id = ?1", &stmt, err);
    if (st != CAIRN_OK)
      return st;
    sqlite3_bind_text(stmt, 1, game->id, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(db, rc, "importing a game", err);
    db_sqlite_release(stmt);
    if (st != CAIRN_OK)
      return st;
  }
  for (i = 0; st == CAIRN_OK && i < n_moves; i++) {
    const char *result = i + 1 == n_moves ? game->result_json : NULL;
    uint8_t hash[DB_HASH_BYTES];

    st = db_sqlite_insert_move(db, game->id, &moves[i], hash, err);
    if (st == CAIRN_OK)
      st = db_sqlite_update_game(db, game->id, &moves[i], result, err);
  }
  return st;
}

enum cairn_status db_sqlite_game_import(void *ctx, const struct db_game *game,
                                        const struct db_player *players,
                                        const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                        const struct db_move *moves, size_t n_moves,
                                        struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  enum cairn_status st;

  assert(c && game && players && token_hashes && (moves || !n_moves));
  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = import_locked(c->db, game, players, token_hashes, moves, n_moves, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  db_sqlite_unlock(c);
  return st;
}
