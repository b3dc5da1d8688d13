/*
 * players.c - the player methods of the SQLite backend: creating a player and finding one
 * by the hash of a bearer token. Tokens are minted and hashed in api/auth.c;
 * storage sees only the hash.
 */
#include "internal.h"
#include "../../log/log.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

enum cairn_status db_sqlite_player_create(void *ctx, const struct db_player *player,
                                          const uint8_t token_hash[DB_HASH_BYTES],
                                          struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  assert(c && player && token_hash);
  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = db_sqlite_prepare(c->db, "INSERT INTO players (id, name, token_hash) VALUES (?1, ?2, ?3)",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, player->id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, player->name, -1, SQLITE_STATIC);
  sqlite3_bind_blob(stmt, 3, token_hash, DB_HASH_BYTES, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if ((rc & 0xff) == SQLITE_CONSTRAINT) {
    /* Ids and tokens carry 80 and 256 random bits, so a repeat (or an empty
     * id) means the caller is broken, not that a client asked for
     * something conflicting. */
    log_line(LOG_ERROR, "db", "creating player %s: %s", player->id, sqlite3_errmsg(c->db));
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "player %s could not be stored: its id or token is already in use, or it is "
                    "malformed",
                    player->id);
    goto cleanup;
  }
  if (rc != SQLITE_DONE) {
    st = db_sqlite_fail(c->db, rc, "creating a player", err);
    goto cleanup;
  }
  db_sqlite_release(stmt);
  stmt = NULL;
  st = db_sqlite_commit(c->db, err);

cleanup:
  db_sqlite_release(stmt);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_player_by_token(void *ctx, const uint8_t token_hash[DB_HASH_BYTES],
                                            struct db_player *out, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  assert(c && token_hash && out);
  memset(out, 0, sizeof(*out));
  db_sqlite_rlock(c);
  if (db_rowcache_player_get(c->rows, token_hash, out)) {
    db_sqlite_runlock(c);
    return CAIRN_OK;
  }
  /* An indexed equality lookup on a hash: an attacker timing it learns
   * about hashes of guesses, not about any stored token. */
  st = db_sqlite_prepare(c->rdb,
                         "SELECT id, name FROM players WHERE token_hash = ?1"
                         " UNION ALL SELECT p.id, p.name FROM tokens t"
                         " JOIN players p ON p.id = t.player_id WHERE t.token_hash = ?1",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_blob(stmt, 1, token_hash, DB_HASH_BYTES, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE) {
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_BAD_TOKEN, NULL, "no player holds this token");
    goto cleanup;
  }
  if (rc != SQLITE_ROW) {
    st = db_sqlite_fail(c->rdb, rc, "looking up a token", err);
    goto cleanup;
  }
  st = db_sqlite_column_copy(stmt, 0, out->id, sizeof(out->id), "looking up a token", err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = db_sqlite_column_copy(stmt, 1, out->name, sizeof(out->name), "looking up a token", err);
  if (st == CAIRN_OK)
    db_rowcache_player_put(c->rows, token_hash, out); /* tokens_replace evicts (tokens.c) */

cleanup:
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  if (st != CAIRN_OK)
    memset(out, 0, sizeof(*out));
  return st;
}
