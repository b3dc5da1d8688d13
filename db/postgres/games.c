/*
 * games.c - the game-row methods of the PostgreSQL backend: creating a
 * game and loading it with its seats, and the listings of games. Taking a
 * seat is in seats.c; the bookkeeping a move changes is written by moves.c.
 */
#include "internal.h"
#include "../verdict.h"
#include "../../log/log.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Insert the creation fields of `game`; status, seq and moves take their
 * defaults (open, 0, 0): a game's history only arrives through the log.
 * Call inside a transaction. */
enum cairn_status db_pg_insert_game(PGconn *conn, const struct db_game *game,
                                    struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char state[6];
  enum cairn_status st;

  db_pg_text(&p, game->id);
  db_pg_text(&p, game->title);
  db_pg_text(&p, game->rules_version);
  /* NULL options mean "the title's defaults", read from an empty object. */
  db_pg_text(&p, game->options_json ? game->options_json : "{}");
  db_pg_bytes(&p, game->seed, ENGINE_SEED_BYTES);
  db_pg_int(&p, game->seats);
  db_pg_text(&p, game->creator);
  db_pg_int(&p, game->created_ms);
  db_pg_int(&p, game->move_ms);
  db_pg_text(&p, game->on_timeout[0] ? game->on_timeout : "move");
  db_pg_int(&p, game->base_ms);
  db_pg_int(&p, game->increment_ms);
  db_pg_int(&p, game->cap_ms);
  db_pg_int(&p, game->chain_format ? game->chain_format : DB_CHAIN_FORMAT_CURRENT);
  db_pg_text(&p, game->imported ? "true" : "false");
  if (game->has_signer) {
    db_pg_bytes(&p, game->signer, DB_KEY_BYTES);
    db_pg_bytes(&p, game->signature, DB_SIG_BYTES);
  } else {
    db_pg_text(&p, NULL);
    db_pg_text(&p, NULL);
  }
  st = db_pg_exec(
      conn,
      "INSERT INTO games (id, title, rules_version, options_json, seed, seats, creator,"
      " created_ms, updated_ms, move_ms, on_timeout, base_ms, increment_ms, cap_ms, chain_format,"
      " imported, signer, signature) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11,"
      " $12, $13, $14, $15, $16, $17)",
      &p, &res, state, "creating a game", err);
  PQclear(res);
  if (st == CAIRN_OK)
    return st;
  if (db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no player %s",
                      game->creator);
  /* A repeated random id or a field the struct cannot hold: a caller bug
   * (as db/sqlite/games.c). */
  if (db_pg_state_is_integrity(state))
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "game %s could not be stored: its id is already in use, or it is malformed",
                      game->id);
  return st;
}

enum cairn_status db_pg_game_create(void *ctx, const struct db_game *game, struct cairn_error *err)
{
  struct db_pg *c = ctx;
  PGconn *conn = NULL;
  enum cairn_status st;
  bool seated = false;
  bool started = false; /* a game its creator fills starts; nothing else depends on it */
  int seat;

  assert(c && game);
  assert(game->seats >= 1 && game->seats <= ENGINE_MAX_SEATS);
  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_insert_game(conn, game, err);
  for (seat = 0; st == CAIRN_OK && seat < game->seats; seat++)
    if (game->seat_player[seat][0]) {
      st = db_pg_insert_seat(conn, game->id, seat, game->seat_player[seat], err);
      seated = true;
    }
  for (seat = 0; st == CAIRN_OK && seat < game->seats; seat++)
    if (game->seat_invited[seat][0])
      st = db_pg_insert_invitation(conn, game->id, seat, game->seat_invited[seat], err);
  if (st == CAIRN_OK && seated)
    st = db_pg_start_if_full(conn, game->id, 0, &started, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}

/* game_load's columns, in this order. */
enum {
  COL_ID,
  COL_TITLE,
  COL_RULES,
  COL_STATUS,
  COL_SEATS,
  COL_OPTIONS,
  COL_RESULT,
  COL_SEED,
  COL_CREATOR,
  COL_CREATED,
  COL_SEQ,
  COL_MOVES,
  COL_HEAD,
  COL_UPDATED,
  COL_MOVE_MS,
  COL_ON_TIMEOUT,
  COL_BASE,
  COL_INCREMENT,
  COL_CAP,
  COL_CHAIN,
  COL_IMPORTED,
  COL_SIGNER,
  COL_SIGNATURE,
  COL_SEAT,
  COL_PLAYER,
  COL_NAME,
  COL_RESIGNED,
  COL_INVITED,
};

static const char load_sql[] =
    "SELECT g.id, g.title, g.rules_version, g.status, g.seats, g.options_json, g.result_json,"
    " g.seed, g.creator, g.created_ms, g.seq, g.moves,"
    " (SELECT hash FROM moves m WHERE m.game_id = g.id AND m.ord = g.moves - 1),"
    " g.updated_ms, g.move_ms, g.on_timeout, g.base_ms, g.increment_ms, g.cap_ms,"
    " g.chain_format, g.imported, g.signer, g.signature, s.seat, s.player_id, p.name, s.resigned,"
    " (SELECT string_agg(i.seat || ':' || i.player_id, ',') FROM invitations i"
    "  WHERE i.game_id = g.id)"
    " FROM games g LEFT JOIN seats s ON s.game_id = g.id"
    " LEFT JOIN players p ON p.id = s.player_id WHERE g.id = $1";

/* The row's own fields, from the first row of game_load's result. */
static enum cairn_status read_row(const PGresult *res, struct db_game *out, struct cairn_error *err)
{
  static const char what[] = "loading a game";
  enum cairn_status st;

  st = db_pg_copy(res, 0, COL_ID, out->id, sizeof(out->id), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, COL_TITLE, out->title, sizeof(out->title), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, COL_RULES, out->rules_version, sizeof(out->rules_version), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, COL_STATUS, out->status, sizeof(out->status), what, err);
  if (st == CAIRN_OK)
    st = db_pg_dup(res, 0, COL_OPTIONS, &out->options_json, what, err);
  if (st == CAIRN_OK)
    st = db_pg_dup(res, 0, COL_RESULT, &out->result_json, what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, COL_CREATOR, out->creator, sizeof(out->creator), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, COL_ON_TIMEOUT, out->on_timeout, sizeof(out->on_timeout), what, err);
  if (st != CAIRN_OK)
    return st;
  /* The schema's checks make these impossible; testing them anyway keeps
   * a hand-edited row from indexing past seat_player or seed. */
  out->seats = (int)db_pg_int64(res, 0, COL_SEATS);
  if (out->seats < 1 || out->seats > ENGINE_MAX_SEATS || !out->options_json ||
      !db_pg_bytes_of(res, 0, COL_SEED, out->seed, ENGINE_SEED_BYTES)) {
    log_line(LOG_ERROR, "db", "game %s: seats, seed or options unreadable", out->id);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
  }
  out->created_ms = db_pg_int64(res, 0, COL_CREATED);
  out->seq = (uint32_t)db_pg_int64(res, 0, COL_SEQ); /* the schema keeps both within uint32_t */
  out->moves = (uint32_t)db_pg_int64(res, 0, COL_MOVES);
  db_pg_bytes_of(res, 0, COL_HEAD, out->log_head, DB_HASH_BYTES); /* zeros while there is none */
  out->updated_ms = db_pg_int64(res, 0, COL_UPDATED);
  out->move_ms = db_pg_int64(res, 0, COL_MOVE_MS);
  out->base_ms = db_pg_int64(res, 0, COL_BASE);
  out->increment_ms = db_pg_int64(res, 0, COL_INCREMENT);
  out->cap_ms = db_pg_int64(res, 0, COL_CAP);
  out->chain_format = (int)db_pg_int64(res, 0, COL_CHAIN);
  out->imported = db_pg_bool(res, 0, COL_IMPORTED);
  out->has_signer = db_pg_bytes_of(res, 0, COL_SIGNER, out->signer, DB_KEY_BYTES) &&
                    db_pg_bytes_of(res, 0, COL_SIGNATURE, out->signature, DB_SIG_BYTES);
  /* Migration 0006; the same on every row of the result. */
  if (!db_invited_parse(PQgetisnull(res, 0, COL_INVITED) ? NULL : PQgetvalue(res, 0, COL_INVITED),
                        out))
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while loading a game's invitations");
  return CAIRN_OK;
}

/* Row `row`'s seat (none on the one row of a game nobody has joined). */
static enum cairn_status read_seat(const PGresult *res, int row, struct db_game *out,
                                   struct cairn_error *err)
{
  static const char what[] = "loading a game's seats";
  enum cairn_status st;
  int seat;

  if (PQgetisnull(res, row, COL_SEAT))
    return CAIRN_OK;
  seat = (int)db_pg_int64(res, row, COL_SEAT);
  if (seat < 0 || seat >= out->seats) {
    log_line(LOG_ERROR, "db", "game %s: seat %d outside 0..%d", out->id, seat, out->seats - 1);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
  }
  out->seat_resigned[seat] = db_pg_bool(res, row, COL_RESIGNED);
  st = db_pg_copy(res, row, COL_PLAYER, out->seat_player[seat], sizeof(out->seat_player[seat]),
                  what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, COL_NAME, out->seat_name[seat], sizeof(out->seat_name[seat]), what,
                    err);
  return st;
}

/* The names-only seats of an imported game. Outside the first query's
 * snapshot, which is fine: an import is stored whole and never changes. */
static enum cairn_status read_imported_seats(PGconn *conn, struct db_game *out,
                                             struct cairn_error *err)
{
  static const char what[] = "loading an imported game's seats";
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;
  int row, seat;

  db_pg_text(&p, out->id);
  st = db_pg_exec(conn, "SELECT seat, claimed_id, name FROM imported_seats WHERE game_id = $1", &p,
                  &res, NULL, what, err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res); row++) {
    seat = (int)db_pg_int64(res, row, 0);
    if (seat < 0 || seat >= out->seats) {
      st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
      break;
    }
    st = db_pg_copy(res, row, 1, out->import_ids[seat], sizeof(out->import_ids[seat]), what, err);
    if (st == CAIRN_OK)
      st = db_pg_copy(res, row, 2, out->seat_name[seat], sizeof(out->seat_name[seat]), what, err);
  }
  PQclear(res);
  return st;
}

/* The row and its seats in one statement, one result row per seat: one
 * statement reads one snapshot, so the seats agree with the row. */
enum cairn_status db_pg_game_load(void *ctx, const char *game_id, struct db_game *out,
                                  struct cairn_error *err)
{
  struct db_pg *c = ctx;
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  PGconn *conn = NULL;
  enum cairn_status st;
  int row;

  assert(c && game_id && out);
  memset(out, 0, sizeof(*out));
  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  db_pg_text(&p, game_id);
  st = db_pg_exec(conn, load_sql, &p, &res, NULL, "loading a game", err);
  if (st == CAIRN_OK && PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
  if (st == CAIRN_OK)
    st = read_row(res, out, err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res); row++)
    st = read_seat(res, row, out, err);
  PQclear(res);
  if (st == CAIRN_OK && out->imported)
    st = read_imported_seats(conn, out, err);
  db_pg_release(c, conn);
  if (st != CAIRN_OK)
    db_game_clear(out);
  return st;
}

/* One (game id, seat) pair of a listing. */
struct listed {
  char id[DB_ID_MAX + 1];
  int seat;
};

/* Run `sql` (parameters `p`; columns: game id, then an optional seat) and
 * copy every row out, so the callers visit them with the connection back in
 * the pool. On success *out (free()) holds *n rows. */
static enum cairn_status list_games(struct db_pg *c, const char *sql, const struct db_pg_params *p,
                                    struct listed **out, size_t *n, struct cairn_error *err)
{
  PGresult *res = NULL;
  struct listed *rows = NULL;
  enum cairn_status st;
  size_t i;

  *out = NULL;
  *n = 0;
  st = db_pg_read(c, sql, p, &res, "listing games", err);
  if (st == CAIRN_OK && PQntuples(res) > 0) {
    rows = calloc((size_t)PQntuples(res), sizeof(*rows));
    if (!rows)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  for (i = 0; st == CAIRN_OK && i < (size_t)PQntuples(res); i++) {
    st = db_pg_copy(res, (int)i, 0, rows[i].id, sizeof(rows[i].id), "listing games", err);
    rows[i].seat = PQnfields(res) > 1 ? (int)db_pg_int64(res, (int)i, 1) : -1;
  }
  if (st == CAIRN_OK) {
    *n = i;
    *out = rows;
  } else {
    free(rows);
  }
  PQclear(res);
  return st;
}

/* Call `cb` with every id `sql` lists, read up front so `cb` may call
 * other slots. */
static enum cairn_status each_listed(struct db_pg *c, const char *sql, const struct db_pg_params *p,
                                     db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  struct listed *rows = NULL;
  size_t n = 0, i;
  enum cairn_status st = list_games(c, sql, p, &rows, &n, err);

  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].id, err);
  free(rows);
  return st;
}

enum cairn_status db_pg_games_each(void *ctx, db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  return each_listed(ctx, "SELECT id FROM games ORDER BY created_ms, id", NULL, cb, arg, err);
}

enum cairn_status db_pg_games_active_each(void *ctx, db_game_id_cb cb, void *arg,
                                          struct cairn_error *err)
{
  /* games_active (the partial index) holds just these rows, in this order. */
  return each_listed(ctx, "SELECT id FROM games WHERE status = 'active' ORDER BY created_ms, id",
                     NULL, cb, arg, err);
}

enum cairn_status db_pg_games_overdue(void *ctx, int64_t now_ms, db_game_id_cb cb, void *arg,
                                      struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_int(&p, now_ms);
  return each_listed(ctx,
                     "SELECT DISTINCT c.game_id FROM clocks c JOIN games g ON g.id = c.game_id"
                     " WHERE g.status = 'active' AND c.deadline_ms <= $1"
                     " AND g.on_timeout <> 'wait'",
                     &p, cb, arg, err);
}

enum cairn_status db_pg_games_bots_idle(void *ctx, int64_t from_ms, int64_t to_ms, db_game_id_cb cb,
                                        void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_int(&p, from_ms);
  db_pg_int(&p, to_ms);
  /* games_active holds the active rows; each one's seats by their key. */
  return each_listed(ctx,
                     "SELECT g.id FROM games g WHERE g.status = 'active'"
                     " AND g.updated_ms >= $1 AND g.updated_ms < $2"
                     " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id"
                     " AND (s.player_id LIKE '" DB_BOT_PREFIX "%' OR s.resigned))"
                     " ORDER BY g.created_ms, g.id",
                     &p, cb, arg, err);
}

enum cairn_status db_pg_player_games(void *ctx, const char *player_id, db_game_seat_cb cb,
                                     void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  struct listed *rows = NULL;
  size_t n = 0, i;
  enum cairn_status st;

  db_pg_text(&p, player_id);
  st = list_games(ctx, "SELECT game_id, seat FROM seats WHERE player_id = $1", &p, &rows, &n, err);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, rows[i].id, rows[i].seat, err);
  free(rows);
  return st;
}

enum cairn_status db_pg_games_unfinished_by(void *ctx, const char *creator, int *count,
                                            struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  *count = 0;
  db_pg_text(&p, creator);
  st = db_pg_read(ctx,
                  "SELECT count(*) FROM games WHERE creator = $1 AND status <> 'finished'"
                  " AND status <> 'cancelled'",
                  &p, &res, "counting games", err);
  if (st == CAIRN_OK)
    *count = (int)db_pg_int64(res, 0, 0);
  PQclear(res);
  return st;
}

enum cairn_status db_pg_game_touch(void *ctx, const char *game_id, int64_t at_ms,
                                   struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, game_id);
  db_pg_int(&p, at_ms);
  return db_pg_write(ctx, "UPDATE games SET updated_ms = $2 WHERE id = $1", &p, NULL, NULL,
                     "updating a game", err);
}
