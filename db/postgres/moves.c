/*
 * moves.c - the move-log methods of the PostgreSQL backend: appending one
 * move together with the game-row bookkeeping it changes, and walking the
 * log in order.
 *
 * An append is one transaction that begins by locking the game's row
 * (SELECT ... FOR UPDATE) and reads the status, the move count and the
 * chain's link under that lock. A second writer of the same ord, on
 * another connection of this node or on another node, waits on the lock,
 * then reads the count the first one committed and is refused stale-seq;
 * should anything write a row without the lock, the primary key on
 * (game_id, ord) refuses the second row, with the same verdict.
 */
#include "internal.h"

#include "../verdict.h"

#include <assert.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows a walk copies out per visit to the database, as db/sqlite/moves.c:
 * the connection goes back to the pool while the callback runs. */
#define LOAD_BATCH 128

/* What row `ord` is chained with, read under the game's lock. */
struct link {
  char status[DB_STATUS_MAX + 1];
  uint32_t moves;
  uint8_t prev[DB_HASH_BYTES]; /* zeros for ord 0, or after a row older than the chain */
  int format;
  uint8_t seed[ENGINE_SEED_BYTES];
};

/* Lock the game's row and read *link for row `ord`. */
static enum cairn_status read_for_append(PGconn *conn, const char *game_id, uint32_t ord,
                                         struct link *link, struct cairn_error *err)
{
  static const char what[] = "appending a move";
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  memset(link, 0, sizeof(*link));
  db_pg_text(&p, game_id);
  db_pg_int(&p, (int64_t)ord - 1);
  st = db_pg_exec(conn,
                  "SELECT g.status, g.moves, g.chain_format, g.seed, (SELECT hash FROM moves"
                  " WHERE game_id = $1 AND ord = $2) FROM games g WHERE g.id = $1 FOR UPDATE",
                  &p, &res, NULL, what, err);
  if (st == CAIRN_OK && PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 0, link->status, sizeof(link->status), what, err);
  if (st == CAIRN_OK && !db_pg_bytes_of(res, 0, 3, link->seed, ENGINE_SEED_BYTES))
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "storage holds an unreadable row while %s", what);
  if (st == CAIRN_OK) {
    link->moves = (uint32_t)db_pg_int64(res, 0, 1); /* the schema keeps it within uint32_t */
    link->format = (int)db_pg_int64(res, 0, 2);
    if (ord > 0)
      db_pg_bytes_of(res, 0, 4, link->prev, DB_HASH_BYTES);
  }
  PQclear(res);
  return st;
}

/* Insert `move` chained by `link`; *hash gets its chain hash. Wipes
 * *link, which holds the seed. */
static enum cairn_status insert_linked(PGconn *conn, const char *game_id,
                                       const struct db_move *move, struct link *link,
                                       uint8_t hash[DB_HASH_BYTES], struct cairn_error *err)
{
  struct db_pg_params p = {0};
  struct db_chain chain;
  PGresult *res = NULL;
  char state[6];
  enum cairn_status st;

  db_chain_init(&chain, link->format, game_id, link->seed);
  db_chain_hash(&chain, link->prev, move, hash);
  sodium_memzero(&chain, sizeof(chain));
  sodium_memzero(link, sizeof(*link));
  db_pg_text(&p, game_id);
  db_pg_int(&p, move->ord);
  db_pg_int(&p, move->seq);
  db_pg_int(&p, move->seat);
  db_pg_text(&p, move->move_json);
  db_pg_text(&p, move->events_json);
  db_pg_int(&p, move->at_ms);
  db_pg_bytes(&p, hash, DB_HASH_BYTES);
  st = db_pg_exec(conn,
                  "INSERT INTO moves (game_id, ord, seq, seat, move_json, events_json, at_ms, hash)"
                  " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                  &p, &res, state, "appending a move", err);
  PQclear(res);
  /* Another writer's row holds this ord: the lost race SQLite reports. */
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_UNIQUE_VIOLATION))
    return cairn_fail(err, CAIRN_ESTALE, CAIRN_CODE_STALE_SEQ, NULL,
                      "game %s has a move %" PRIu32 " already", game_id, move->ord);
  return st;
}

enum cairn_status db_pg_insert_move(PGconn *conn, const char *game_id, const struct db_move *move,
                                    uint8_t hash[DB_HASH_BYTES], struct cairn_error *err)
{
  struct link link;
  enum cairn_status st = read_for_append(conn, game_id, move->ord, &link, err);

  if (st == CAIRN_OK)
    st = insert_linked(conn, game_id, move, &link, hash, err);
  sodium_memzero(&link, sizeof(link));
  return st;
}

/* updated_ms takes the move's own time: storage never reads the clock.
 * Only a move that ends the game writes status and result. */
enum cairn_status db_pg_update_game(PGconn *conn, const char *game_id, const struct db_move *move,
                                    const char *result_json, struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, game_id);
  db_pg_int(&p, move->seq);
  db_pg_int(&p, move->at_ms);
  if (!result_json)
    return db_pg_run(conn,
                     "UPDATE games SET seq = $2, moves = moves + 1, updated_ms = $3 WHERE id = $1",
                     &p, "appending a move", err);
  db_pg_text(&p, result_json);
  return db_pg_run(conn,
                   "UPDATE games SET seq = $2, moves = moves + 1, updated_ms = $3,"
                   " result_json = $4, status = 'finished' WHERE id = $1",
                   &p, "appending a move", err);
}

/* A resignation's bookkeeping: the seat is the server's bot's from now on. */
static enum cairn_status mark_resigned(PGconn *conn, const char *game_id, int seat,
                                       struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, game_id);
  db_pg_int(&p, seat);
  return db_pg_run(conn, "UPDATE seats SET resigned = true WHERE game_id = $1 AND seat = $2", &p,
                   "recording a resignation", err);
}

/* A replacement's bookkeeping: the seat's player is a bot from now on. */
static enum cairn_status hand_seat(PGconn *conn, const char *game_id, int seat, const char *player,
                                   struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, game_id);
  db_pg_int(&p, seat);
  db_pg_text(&p, player);
  return db_pg_run(conn, "UPDATE seats SET player_id = $3 WHERE game_id = $1 AND seat = $2", &p,
                   "recording a replacement", err);
}

/* Check and write one append inside the open transaction. */
static enum cairn_status append_checked(PGconn *conn, const char *game_id,
                                        const struct db_move *move, const char *result_json,
                                        uint8_t hash[DB_HASH_BYTES], struct cairn_error *err)
{
  struct link link;
  enum cairn_status st = read_for_append(conn, game_id, move->ord, &link, err);

  if (st == CAIRN_OK)
    st = db_verdict_append(game_id, link.status, link.moves, move->ord, err);
  if (st == CAIRN_OK)
    st = insert_linked(conn, game_id, move, &link, hash, err);
  sodium_memzero(&link, sizeof(link));
  if (st == CAIRN_OK)
    st = db_pg_update_game(conn, game_id, move, result_json, err);
  if (st == CAIRN_OK && move->n_clocks > 0)
    st = db_pg_write_clocks(conn, game_id, move->clocks, move->n_clocks, err);
  if (st == CAIRN_OK && move->n_outbox > 0)
    st = db_pg_write_outbox(conn, move->outbox, move->n_outbox, err);
  if (st == CAIRN_OK && move->resigns)
    st = mark_resigned(conn, game_id, move->seat, err);
  if (st == CAIRN_OK && move->seat_player_to)
    st = hand_seat(conn, game_id, move->seat, move->seat_player_to, err);
  /* The end of a rated game rates its players here (issue 25). */
  if (st == CAIRN_OK && move->rating)
    st = db_pg_write_ratings(conn, game_id, move->at_ms, move->rating, err);
  return st;
}

enum cairn_status db_pg_move_append(void *ctx, const char *game_id, struct db_move *move,
                                    const char *result_json, struct cairn_error *err)
{
  struct db_pg *c = ctx;
  uint8_t hash[DB_HASH_BYTES];
  PGconn *conn = NULL;
  enum cairn_status st;

  assert(c && game_id && move && move->move_json && move->events_json);
  assert(move->seat >= 0 && move->seat < ENGINE_MAX_SEATS);
  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = append_checked(conn, game_id, move, result_json, hash, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err); /* durable when it returns (conn.c) */
  db_pg_release(c, conn);         /* rolls back what did not commit */
  if (st == CAIRN_OK) {
    memcpy(move->hash, hash, DB_HASH_BYTES);
    move->has_hash = true;
  }
  return st;
}

/* One log row copied out of a result, so the callback runs with the
 * connection back in the pool. */
struct row {
  struct db_move move;
  char *text; /* owned: move_json, NUL, events_json, NUL (a lean row: move_json, NUL) */
};

/* What a walk reads of each row: everything, or what a replay reads. */
static const char *const load_sql[] = {
    "SELECT ord, seq, seat, move_json, events_json, at_ms, hash FROM moves"
    " WHERE game_id = $1 AND ord >= $2 ORDER BY ord LIMIT $3",
    "SELECT ord, seq, seat, move_json FROM moves"
    " WHERE game_id = $1 AND ord >= $2 ORDER BY ord LIMIT $3",
};

static void free_rows(struct row *rows, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    free(rows[i].text);
}

/* Copy result row `r` (load_sql[lean]'s columns) into *row. */
static enum cairn_status copy_row(const PGresult *res, int r, bool lean, struct row *row,
                                  struct cairn_error *err)
{
  size_t move_len = (size_t)PQgetlength(res, r, 3);
  size_t events_len = lean ? 0 : (size_t)PQgetlength(res, r, 4);

  row->text = malloc(move_len + 1 + (lean ? 0 : events_len + 1));
  if (!row->text)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while loading moves");
  memcpy(row->text, PQgetvalue(res, r, 3), move_len + 1);
  row->move.ord = (uint32_t)db_pg_int64(res, r, 0);
  row->move.seq = (uint32_t)db_pg_int64(res, r, 1);
  row->move.seat = (int)db_pg_int64(res, r, 2);
  row->move.move_json = row->text;
  if (lean)
    return CAIRN_OK; /* the rest stays as zeroed: events_json NULL, at_ms 0, no hash */
  memcpy(row->text + move_len + 1, PQgetvalue(res, r, 4), events_len + 1);
  row->move.events_json = row->text + move_len + 1;
  row->move.at_ms = db_pg_int64(res, r, 5);
  row->move.has_hash = db_pg_bytes_of(res, r, 6, row->move.hash, DB_HASH_BYTES);
  return CAIRN_OK;
}

/* Up to LOAD_BATCH rows with ord >= from_ord into rows[] (zeroed), their
 * number in *n. With `check_game`, first make sure the game exists, in
 * the same snapshot (REPEATABLE READ: both statements see one). On
 * failure *n rows may still need free_rows. */
static enum cairn_status load_batch(PGconn *conn, const char *game_id, uint32_t from_ord,
                                    bool check_game, bool lean, struct row *rows, size_t *n,
                                    struct cairn_error *err)
{
  static const char what[] = "loading moves";
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st = CAIRN_OK;
  int r;

  *n = 0;
  db_pg_text(&p, game_id);
  if (check_game)
    st = db_pg_run(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL, what, err);
  if (st == CAIRN_OK && check_game)
    st = db_pg_exec(conn, "SELECT 1 FROM games WHERE id = $1", &p, &res, NULL, what, err);
  if (st == CAIRN_OK && check_game && PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
  PQclear(res);
  res = NULL;
  db_pg_int(&p, from_ord);
  db_pg_int(&p, LOAD_BATCH);
  if (st == CAIRN_OK)
    st = db_pg_exec(conn, load_sql[lean], &p, &res, NULL, what, err);
  for (r = 0; st == CAIRN_OK && r < PQntuples(res); r++) {
    st = copy_row(res, r, lean, &rows[*n], err);
    if (st == CAIRN_OK)
      (*n)++;
  }
  PQclear(res);
  db_pg_rollback(conn); /* a read-only snapshot: nothing to commit */
  return st;
}

/*
 * The walk copies rows out in batches and calls `cb` with the connection
 * back in the pool: a callback replays each move through the engine, and
 * may itself call a slot of this backend. Between batches other moves may
 * be appended; the log is append-only and dense, so the rows seen are still
 * exactly its first rows from from_ord on (as db/sqlite/moves.c).
 */
static enum cairn_status walk_log(struct db_pg *c, const char *game_id, uint32_t from_ord,
                                  bool lean, db_move_cb cb, void *arg, struct cairn_error *err)
{
  struct row *rows = NULL;
  PGconn *conn = NULL;
  enum cairn_status st = CAIRN_OK;
  bool first = true;
  size_t n = 0;
  size_t i;

  assert(c && game_id && cb);
  rows = calloc(LOAD_BATCH, sizeof(*rows));
  if (!rows)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while loading moves");
  for (;;) {
    st = db_pg_acquire(c, &conn, err);
    if (st == CAIRN_OK)
      st = load_batch(conn, game_id, from_ord, first, lean, rows, &n, err);
    db_pg_release(c, conn);
    conn = NULL;
    if (st != CAIRN_OK)
      goto cleanup;
    first = false;
    for (i = 0; i < n; i++) {
      st = cb(arg, &rows[i].move, err);
      if (st == CAIRN_DONE) {
        st = CAIRN_OK;
        goto cleanup;
      }
      if (st != CAIRN_OK)
        goto cleanup;
    }
    /* A short batch reached the end of the log; ord 2^32-1 is the last
     * there can be. */
    if (n < LOAD_BATCH || rows[n - 1].move.ord == UINT32_MAX)
      break;
    from_ord = rows[n - 1].move.ord + 1;
    free_rows(rows, n);
    memset(rows, 0, n * sizeof(*rows));
    n = 0;
  }

cleanup:
  free_rows(rows, n);
  free(rows);
  return st;
}

enum cairn_status db_pg_moves_load(void *ctx, const char *game_id, uint32_t from_ord, db_move_cb cb,
                                   void *arg, struct cairn_error *err)
{
  return walk_log(ctx, game_id, from_ord, false, cb, arg, err);
}

enum cairn_status db_pg_moves_load_lean(void *ctx, const char *game_id, uint32_t from_ord,
                                        db_move_cb cb, void *arg, struct cairn_error *err)
{
  return walk_log(ctx, game_id, from_ord, true, cb, arg, err);
}
