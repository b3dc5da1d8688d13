/*
 * tokens.c - one player on several devices, PostgreSQL's side (db.h has
 * each slot's contract): a player's further tokens and the one-use sign-in
 * codes that mint them (migrations/postgres/0004). Nothing is cached here,
 * so a revoked token stops working on every node at the commit.
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

static enum cairn_status no_player(struct cairn_error *err)
{
  return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no such player");
}

enum cairn_status db_pg_token_add(void *ctx, const char *player_id,
                                  const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                                  struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char state[6];
  enum cairn_status st;

  assert(ctx && player_id && token_hash);
  db_pg_bytes(&p, token_hash, DB_HASH_BYTES);
  db_pg_text(&p, player_id);
  db_pg_int(&p, at_ms);
  st = db_pg_write(ctx,
                   "INSERT INTO tokens (token_hash, player_id, created_ms)"
                   " SELECT $1, id, $3 FROM players WHERE id = $2",
                   &p, &res, state, "adding a token", err);
  if (st == CAIRN_OK && strcmp(PQcmdTuples(res), "0") == 0)
    st = no_player(err);
  PQclear(res);
  return st;
}

enum cairn_status db_pg_tokens_replace(void *ctx, const char *player_id,
                                       const uint8_t token_hash[DB_HASH_BYTES],
                                       struct cairn_error *err)
{
  struct db_pg_params p = {0}, who = {0};
  PGconn *conn = NULL;
  PGresult *res = NULL;
  enum cairn_status st;

  assert(ctx && player_id && token_hash);
  db_pg_text(&p, player_id);
  db_pg_bytes(&p, token_hash, DB_HASH_BYTES);
  db_pg_text(&who, player_id);
  st = db_pg_acquire(ctx, &conn, err);
  if (st == CAIRN_OK)
    st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_exec(conn, "UPDATE players SET token_hash = $2 WHERE id = $1", &p, &res, NULL,
                    "replacing tokens", err);
  if (st == CAIRN_OK && strcmp(PQcmdTuples(res), "0") == 0)
    st = no_player(err);
  if (st == CAIRN_OK)
    st = db_pg_run(conn, "DELETE FROM tokens WHERE player_id = $1", &who, "replacing tokens", err);
  if (st == CAIRN_OK)
    st = db_pg_run(conn, "DELETE FROM sign_in_codes WHERE player_id = $1", &who, "replacing tokens",
                   err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  PQclear(res);
  db_pg_release(ctx, conn); /* rolls back what is left open */
  return st;
}

enum cairn_status db_pg_sign_in_code_put(void *ctx, const char *player_id,
                                         const uint8_t code_hash[DB_HASH_BYTES], int64_t expires_ms,
                                         struct cairn_error *err)
{
  struct db_pg_params p = {0};
  char state[6];
  enum cairn_status st;

  assert(ctx && player_id && code_hash);
  db_pg_bytes(&p, code_hash, DB_HASH_BYTES);
  db_pg_text(&p, player_id);
  db_pg_int(&p, expires_ms);
  st = db_pg_write(ctx,
                   "INSERT INTO sign_in_codes (code_hash, player_id, expires_ms)"
                   " VALUES ($1, $2, $3) ON CONFLICT (player_id) DO UPDATE"
                   " SET code_hash = excluded.code_hash, expires_ms = excluded.expires_ms",
                   &p, NULL, state, "storing a sign-in code", err);
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    st = no_player(err);
  return st;
}

enum cairn_status db_pg_sign_in_code_take(void *ctx, const uint8_t code_hash[DB_HASH_BYTES],
                                          int64_t now_ms, struct db_player *out,
                                          struct cairn_error *err)
{
  static const char what[] = "taking a sign-in code";
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char state[6];
  enum cairn_status st;

  assert(ctx && code_hash && out);
  memset(out, 0, sizeof(*out));
  db_pg_bytes(&p, code_hash, DB_HASH_BYTES);
  /* One statement deletes the code and says whose it was: of two takers,
   * on one node or two, the row lock lets one through and the other finds
   * it gone. An expired code is deleted all the same. */
  st = db_pg_write(ctx,
                   "DELETE FROM sign_in_codes c USING players p"
                   " WHERE c.code_hash = $1 AND p.id = c.player_id"
                   " RETURNING p.id, p.name, c.expires_ms",
                   &p, &res, state, what, err);
  if (st == CAIRN_OK && (PQntuples(res) == 0 || db_pg_int64(res, 0, 2) <= now_ms))
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "no such sign-in code, or it expired or was used");
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 0, out->id, sizeof(out->id), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 1, out->name, sizeof(out->name), what, err);
  PQclear(res);
  if (st != CAIRN_OK)
    memset(out, 0, sizeof(*out));
  return st;
}
