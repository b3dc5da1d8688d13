/*
 * tokens.c - one player on several devices, SQLite's side (db.h has each
 * slot's contract): a player's further tokens (tokens, migration 0012) and
 * the one-use sign-in codes that mint them. Like a token, a code is seen
 * here only as its hash.
 *
 * The row cache keeps players by token hash and assumed a token never
 * stops naming its player; replacing a player's tokens evicts every hash
 * it held, inside the writing transaction's lock, so no reader is served a
 * revoked token from the cache.
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

/* Run `stmt` (prepared on the writer, bound) to its end. */
static enum cairn_status step_done(struct db_sqlite *c, sqlite3_stmt *stmt, const char *what,
                                   struct cairn_error *err)
{
  int rc = sqlite3_step(stmt);

  if (rc == SQLITE_DONE)
    return CAIRN_OK;
  if ((rc & 0xff) == SQLITE_CONSTRAINT)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no such player");
  return db_sqlite_fail(c->db, rc, what, err);
}

enum cairn_status db_sqlite_token_add(void *ctx, const char *player_id,
                                      const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                                      struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;

  assert(c && player_id && token_hash);
  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db,
                         "INSERT INTO tokens (token_hash, player_id, created_ms)"
                         " SELECT ?1, id, ?3 FROM players WHERE id = ?2",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_blob(stmt, 1, token_hash, DB_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, at_ms);
    st = step_done(c, stmt, "adding a token", err);
  }
  if (st == CAIRN_OK && sqlite3_changes(c->db) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no such player");
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

/* Evict from the row cache every token hash `player_id` holds now. */
static enum cairn_status forget_cached_tokens(struct db_sqlite *c, const char *player_id,
                                              struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st =
      db_sqlite_prepare(c->db,
                        "SELECT token_hash FROM players WHERE id = ?1"
                        " UNION ALL SELECT token_hash FROM tokens WHERE player_id = ?1",
                        &stmt, err);
  int rc = SQLITE_DONE;

  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, player_id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
    if (sqlite3_column_bytes(stmt, 0) == DB_HASH_BYTES)
      db_rowcache_player_forget(c->rows, sqlite3_column_blob(stmt, 0));
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(c->db, rc, "replacing tokens", err);
  db_sqlite_release(stmt);
  return st;
}

static enum cairn_status run(struct db_sqlite *c, const char *sql, const char *player_id,
                             const uint8_t *hash, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st = db_sqlite_prepare(c->db, sql, &stmt, err);

  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, player_id, -1, SQLITE_STATIC);
  if (hash)
    sqlite3_bind_blob(stmt, 2, hash, DB_HASH_BYTES, SQLITE_STATIC);
  st = step_done(c, stmt, "replacing tokens", err);
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_tokens_replace(void *ctx, const char *player_id,
                                           const uint8_t token_hash[DB_HASH_BYTES],
                                           struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  enum cairn_status st;

  assert(c && player_id && token_hash);
  db_sqlite_lock(c);
  /* The reader's lock too: between the eviction and the commit no lookup
   * may put a revoked hash back into the cache. */
  db_sqlite_rlock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = forget_cached_tokens(c, player_id, err);
  if (st == CAIRN_OK)
    st = run(c, "UPDATE players SET token_hash = ?2 WHERE id = ?1", player_id, token_hash, err);
  if (st == CAIRN_OK && sqlite3_changes(c->db) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no such player");
  if (st == CAIRN_OK)
    st = run(c, "DELETE FROM tokens WHERE player_id = ?1", player_id, NULL, err);
  if (st == CAIRN_OK)
    st = run(c, "DELETE FROM sign_in_codes WHERE player_id = ?1", player_id, NULL, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  db_sqlite_runlock(c);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_sign_in_code_put(void *ctx, const char *player_id,
                                             const uint8_t code_hash[DB_HASH_BYTES],
                                             int64_t expires_ms, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;

  assert(c && player_id && code_hash);
  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db,
                         "INSERT INTO sign_in_codes (code_hash, player_id, expires_ms)"
                         " VALUES (?1, ?2, ?3) ON CONFLICT (player_id) DO UPDATE"
                         " SET code_hash = excluded.code_hash, expires_ms = excluded.expires_ms",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_blob(stmt, 1, code_hash, DB_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, expires_ms);
    st = step_done(c, stmt, "storing a sign-in code", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

/* The name of player `id` into out->name. */
static enum cairn_status player_name(struct db_sqlite *c, struct db_player *out,
                                     struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st =
      db_sqlite_prepare(c->db, "SELECT name FROM players WHERE id = ?1", &stmt, err);
  int rc;

  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, out->id, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW)
    st = db_sqlite_column_copy(stmt, 0, out->name, sizeof(out->name), "taking a sign-in code", err);
  else
    st = db_sqlite_fail(c->db, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc, "taking a sign-in code",
                        err);
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_sign_in_code_take(void *ctx, const uint8_t code_hash[DB_HASH_BYTES],
                                              int64_t now_ms, struct db_player *out,
                                              struct cairn_error *err)
{
  static const char what[] = "taking a sign-in code";
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  bool fresh = false;
  int rc;

  assert(c && code_hash && out);
  memset(out, 0, sizeof(*out));
  db_sqlite_lock(c);
  /* One statement deletes the code and says whose it was: of two takers
   * the writer's lock lets one through, and the other finds it gone. */
  st = db_sqlite_prepare(c->db,
                         "DELETE FROM sign_in_codes WHERE code_hash = ?1"
                         " RETURNING player_id, expires_ms",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_blob(stmt, 1, code_hash, DB_HASH_BYTES, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    fresh = sqlite3_column_int64(stmt, 1) > now_ms;
    st = db_sqlite_column_copy(stmt, 0, out->id, sizeof(out->id), what, err);
    /* Step to the end, so the deletion (an expired code's too) is done. */
    while (rc == SQLITE_ROW)
      rc = sqlite3_step(stmt);
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(c->db, rc, what, err);
  db_sqlite_release(stmt);
  stmt = NULL;
  if (st == CAIRN_OK && !fresh)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "no such sign-in code, or it expired or was used");
  if (st == CAIRN_OK)
    st = player_name(c, out, err);

cleanup:
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  if (st != CAIRN_OK)
    memset(out, 0, sizeof(*out));
  return st;
}
