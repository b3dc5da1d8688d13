/*
 * players.c - the player methods of the PostgreSQL backend: creating a
 * player and finding one by the hash of a bearer token (api/auth.c mints
 * and hashes tokens; storage sees only the hash).
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

enum cairn_status db_pg_player_create(void *ctx, const struct db_player *player,
                                      const uint8_t token_hash[DB_HASH_BYTES],
                                      struct cairn_error *err)
{
  struct db_pg_params p = {0};
  char state[6];
  enum cairn_status st;

  assert(ctx && player && token_hash);
  db_pg_text(&p, player->id);
  db_pg_text(&p, player->name);
  db_pg_bytes(&p, token_hash, DB_HASH_BYTES);
  st = db_pg_write(ctx, "INSERT INTO players (id, name, token_hash) VALUES ($1, $2, $3)", &p, NULL,
                   state, "creating a player", err);
  /* Ids and tokens carry 80 and 256 random bits, so a repeat (or an empty
   * id) means the caller is broken, not that a client asked for something
   * conflicting (as db/sqlite/players.c). */
  if (st != CAIRN_OK && db_pg_state_is_integrity(state))
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "player %s could not be stored: its id or token is already in use, or it is "
                      "malformed",
                      player->id);
  return st;
}

enum cairn_status db_pg_player_by_token(void *ctx, const uint8_t token_hash[DB_HASH_BYTES],
                                        struct db_player *out, struct cairn_error *err)
{
  static const char what[] = "looking up a token";
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  assert(ctx && token_hash && out);
  memset(out, 0, sizeof(*out));
  db_pg_bytes(&p, token_hash, DB_HASH_BYTES);
  st = db_pg_read(ctx,
                  "SELECT id, name FROM players WHERE token_hash = $1"
                  " UNION ALL SELECT p.id, p.name FROM tokens t"
                  " JOIN players p ON p.id = t.player_id WHERE t.token_hash = $1",
                  &p, &res, what, err);
  if (st == CAIRN_OK && PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_BAD_TOKEN, NULL, "no player holds this token");
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 0, out->id, sizeof(out->id), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 1, out->name, sizeof(out->name), what, err);
  PQclear(res);
  if (st != CAIRN_OK)
    memset(out, 0, sizeof(*out));
  return st;
}
