/*
 * import.c - the game_import slot of the PostgreSQL backend: a whole
 * verified game stored in one transaction, through the same statements
 * that create games, take seats and append moves, so an imported game is
 * indistinguishable from one played here.
 */
#include "internal.h"

#include <assert.h>

static enum cairn_status game_exists(PGconn *conn, const char *game_id, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  db_pg_text(&p, game_id);
  st = db_pg_exec(conn, "SELECT 1 FROM games WHERE id = $1", &p, &res, NULL, "importing a game",
                  err);
  if (st == CAIRN_OK && PQntuples(res) > 0)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_EXISTS, NULL,
                    "a game with id %s exists already", game_id);
  PQclear(res);
  return st;
}

/* A player of the record: kept if this server knows the id already. */
static enum cairn_status ensure_player(PGconn *conn, const struct db_player *player,
                                       const uint8_t token_hash[DB_HASH_BYTES],
                                       struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, player->id);
  db_pg_text(&p, player->name);
  db_pg_bytes(&p, token_hash, DB_HASH_BYTES);
  return db_pg_run(conn,
                   "INSERT INTO players (id, name, token_hash) VALUES ($1, $2, $3)"
                   " ON CONFLICT (id) DO NOTHING",
                   &p, "importing a player", err);
}

/* A seat of an import this server cannot vouch for: a name and the id the
 * document claimed, as text; no player is created or matched (db.h). */
static enum cairn_status insert_imported_seat(PGconn *conn, const char *game_id, int seat,
                                              const struct db_player *player,
                                              struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, game_id);
  db_pg_int(&p, seat);
  db_pg_text(&p, player->id);
  db_pg_text(&p, player->name);
  return db_pg_run(conn,
                   "INSERT INTO imported_seats (game_id, seat, claimed_id, name)"
                   " VALUES ($1, $2, $3, $4)",
                   &p, "importing a seat", err);
}

static enum cairn_status insert_seats(PGconn *conn, const struct db_game *game,
                                      const struct db_player *players,
                                      const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                      struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int seat;

  for (seat = 0; st == CAIRN_OK && seat < game->seats; seat++) {
    if (game->imported) {
      st = insert_imported_seat(conn, game->id, seat, &players[seat], err);
      continue;
    }
    if (!players[seat].id[0])
      continue;
    st = ensure_player(conn, &players[seat], token_hashes[seat], err);
    if (st == CAIRN_OK)
      st = db_pg_insert_seat(conn, game->id, seat, players[seat].id, err);
  }
  return st;
}

static enum cairn_status import_in(PGconn *conn, const struct db_game *game,
                                   const struct db_player *players,
                                   const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                   const struct db_move *moves, size_t n_moves,
                                   struct cairn_error *err)
{
  struct db_pg_params p = {0};
  enum cairn_status st;
  size_t i;

  st = game_exists(conn, game->id, err);
  if (st == CAIRN_OK)
    st = db_pg_insert_game(conn, game, err);
  if (st == CAIRN_OK)
    st = insert_seats(conn, game, players, token_hashes, err);
  /* Moves are appended to an active game, as they were when played. */
  db_pg_text(&p, game->id);
  if (st == CAIRN_OK)
    st = db_pg_run(conn, "UPDATE games SET status = 'active' WHERE id = $1", &p, "importing a game",
                   err);
  for (i = 0; st == CAIRN_OK && i < n_moves; i++) {
    const char *result = i + 1 == n_moves ? game->result_json : NULL;
    uint8_t hash[DB_HASH_BYTES];

    st = db_pg_insert_move(conn, game->id, &moves[i], hash, err);
    if (st == CAIRN_OK)
      st = db_pg_update_game(conn, game->id, &moves[i], result, err);
  }
  return st;
}

enum cairn_status db_pg_game_import(void *ctx, const struct db_game *game,
                                    const struct db_player *players,
                                    const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                    const struct db_move *moves, size_t n_moves,
                                    struct cairn_error *err)
{
  struct db_pg *c = ctx;
  PGconn *conn = NULL;
  enum cairn_status st;

  assert(c && game && players && token_hashes && (moves || !n_moves));
  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = import_in(conn, game, players, token_hashes, moves, n_moves, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}
