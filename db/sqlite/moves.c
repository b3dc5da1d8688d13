/*
 * moves.c - the move-log methods of the SQLite backend: appending one move together with
 * the game-row bookkeeping it changes, and walking the log in order.
 *
 * The log is the truth (db.h), so an append is all or nothing: the log row
 * and the game's seq, move count, status and result commit in one
 * transaction, and the ord check runs inside it, under the write lock, so
 * of two writers holding the same ord exactly one wins.
 */
#include "internal.h"

#include "../verdict.h"

#include <assert.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rows moves_load copies out per visit to the connection. The lock is
 * released while the callback runs (see moves_load), so this bounds both
 * the memory held and how long other requests wait; 128 rows covers most
 * whole games in one visit. */
#define LOAD_BATCH 128

/* The most of the file a long walk maps (walk_log): address space only,
 * what it touches is read in place. SQLite caps it at 2 GiB. */
#define LONG_WALK_MAP_BYTES "1073741824"

/* What row `ord` is chained with: the hash of row ord-1 (zeros for ord 0)
 * and the game's chain format and seed, read inside the append's
 * transaction so the chain cannot fork. A row from before the chain existed
 * counts as zeros: the chain restarts there. */
struct link {
  uint8_t prev[DB_HASH_BYTES];
  int format;
  uint8_t seed[ENGINE_SEED_BYTES];
};

/* Insert `move`, chained by `link` (read in this transaction); *hash gets
 * its chain hash. Wipes *link, which holds the seed. */
static enum cairn_status insert_linked(sqlite3 *db, const char *game_id, const struct db_move *move,
                                       struct link *link, uint8_t hash[DB_HASH_BYTES],
                                       struct cairn_error *err)
{
  struct db_chain chain;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_chain_init(&chain, link->format, game_id, link->seed);
  db_chain_hash(&chain, link->prev, move, hash);
  sodium_memzero(&chain, sizeof(chain));
  sodium_memzero(link, sizeof(*link));
  st = db_sqlite_prepare(db,
                         "INSERT INTO moves (game_id, ord, seq, seat, move_json, events_json,"
                         " at_ms, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_blob(stmt, 8, hash, DB_HASH_BYTES, SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, move->ord);
  sqlite3_bind_int64(stmt, 3, move->seq);
  sqlite3_bind_int(stmt, 4, move->seat);
  sqlite3_bind_text(stmt, 5, move->move_json, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 6, move->events_json, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 7, move->at_ms);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "appending a move", err);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

/* What an append checks and chains with, in one read inside its
 * transaction: the game's status and move count, and the link of row
 * `ord` (struct link). */
static enum cairn_status read_for_append(sqlite3 *db, const char *game_id, uint32_t ord,
                                         char status[DB_STATUS_MAX + 1], uint32_t *moves,
                                         struct link *link, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  memset(link, 0, sizeof(*link));
  st = db_sqlite_prepare(db,
                         "SELECT g.status, g.moves, g.chain_format, g.seed, (SELECT hash FROM moves"
                         " WHERE game_id = ?1 AND ord = ?2) FROM games g WHERE g.id = ?1",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, (sqlite3_int64)ord - 1);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE) {
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
    goto cleanup;
  }
  if (rc != SQLITE_ROW) {
    st = db_sqlite_fail(db, rc, "appending a move", err);
    goto cleanup;
  }
  st = db_sqlite_column_copy(stmt, 0, status, DB_STATUS_MAX + 1, "appending a move", err);
  *moves = (uint32_t)sqlite3_column_int64(stmt, 1); /* the schema keeps it within uint32_t */
  link->format = sqlite3_column_int(stmt, 2);
  if (sqlite3_column_bytes(stmt, 3) == ENGINE_SEED_BYTES)
    memcpy(link->seed, sqlite3_column_blob(stmt, 3), ENGINE_SEED_BYTES);
  else if (st == CAIRN_OK) /* CHECK (length(seed) = 32): only a file changed behind our back */
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL, "appending a move");
  if (ord > 0 && sqlite3_column_bytes(stmt, 4) == DB_HASH_BYTES)
    memcpy(link->prev, sqlite3_column_blob(stmt, 4), DB_HASH_BYTES);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_insert_move(sqlite3 *db, const char *game_id,
                                        const struct db_move *move, uint8_t hash[DB_HASH_BYTES],
                                        struct cairn_error *err)
{
  char status[DB_STATUS_MAX + 1]; /* not judged here: an import writes a game's whole log */
  uint32_t moves;
  struct link link;
  enum cairn_status st = read_for_append(db, game_id, move->ord, status, &moves, &link, err);

  if (st == CAIRN_OK)
    st = insert_linked(db, game_id, move, &link, hash, err);
  sodium_memzero(&link, sizeof(link));
  return st;
}

/* The bookkeeping the move changes. updated_ms takes the move's own time:
 * storage never reads the clock. Only a move that ends the game writes
 * status and result: every index on games is partial on status
 * (games_unfinished_by_creator, games_active), and SQLite rewrites a
 * partial index's entry whenever an UPDATE assigns a column its WHERE
 * reads, even to the same value; one UPDATE for both cases (status = CASE
 * ...) so wrote each move's row change three times, once in the table and
 * once in each index. */
enum cairn_status db_sqlite_update_game(sqlite3 *db, const char *game_id,
                                        const struct db_move *move, const char *result_json,
                                        struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  if (result_json)
    st = db_sqlite_prepare(db,
                           "UPDATE games SET seq = ?2, moves = moves + 1, updated_ms = ?3,"
                           " result_json = ?4, status = 'finished' WHERE id = ?1",
                           &stmt, err);
  else
    st = db_sqlite_prepare(
        db, "UPDATE games SET seq = ?2, moves = moves + 1, updated_ms = ?3 WHERE id = ?1", &stmt,
        err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, move->seq);
  sqlite3_bind_int64(stmt, 3, move->at_ms);
  if (result_json)
    sqlite3_bind_text(stmt, 4, result_json, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "appending a move", err);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

/* A resignation's bookkeeping: the seat is the server's bot's from now on. */
static enum cairn_status mark_resigned(sqlite3 *db, const char *game_id, int seat,
                                       struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db, "UPDATE seats SET resigned = 1 WHERE game_id = ?1 AND seat = ?2",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 2, seat);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "recording a resignation", err);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

/* A replacement's bookkeeping: the seat's player is a bot from now on. */
static enum cairn_status hand_seat(sqlite3 *db, const char *game_id, int seat, const char *player,
                                   struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db, "UPDATE seats SET player_id = ?3 WHERE game_id = ?1 AND seat = ?2",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 2, seat);
  sqlite3_bind_text(stmt, 3, player, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "recording a replacement", err);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

/* Check and write one append inside the open transaction. */
static enum cairn_status append_checked(sqlite3 *db, struct db_append *a, struct cairn_error *err)
{
  char status[DB_STATUS_MAX + 1];
  struct link link;
  enum cairn_status st;
  uint32_t moves = 0;

  st = read_for_append(db, a->game_id, a->move->ord, status, &moves, &link, err);
  if (st == CAIRN_OK)
    st = db_verdict_append(a->game_id, status, moves, a->move->ord, err);
  if (st == CAIRN_OK)
    st = insert_linked(db, a->game_id, a->move, &link, a->hash, err);
  sodium_memzero(&link, sizeof(link));
  if (st == CAIRN_OK)
    st = db_sqlite_update_game(db, a->game_id, a->move, a->result_json, err);
  if (st == CAIRN_OK && a->move->n_clocks > 0)
    st = db_sqlite_write_clocks(db, a->game_id, a->move->clocks, a->move->n_clocks, err);
  if (st == CAIRN_OK && a->move->n_outbox > 0)
    st = db_sqlite_write_outbox(db, a->move->outbox, a->move->n_outbox, err);
  if (st == CAIRN_OK && a->move->resigns)
    st = mark_resigned(db, a->game_id, a->move->seat, err);
  if (st == CAIRN_OK && a->move->seat_player_to)
    st = hand_seat(db, a->game_id, a->move->seat, a->move->seat_player_to, err);
  /* The end of a rated game rates its players here (issue 25). */
  if (st == CAIRN_OK && a->move->rating)
    st = db_sqlite_write_ratings(db, a->game_id, a->move->at_ms, a->move->rating, err);
  return st;
}

/* One append of a batch of several, under a savepoint so that a refused
 * append leaves the others of its batch alone. */
static enum cairn_status append_one(sqlite3 *db, struct db_append *a, struct cairn_error *err)
{
  enum cairn_status st;
  int rc;

  rc = db_sqlite_exec(db, "SAVEPOINT one_append");
  if (rc != SQLITE_OK)
    return db_sqlite_fail(db, rc, "appending a move", err);
  st = append_checked(db, a, err);
  if (st != CAIRN_OK)
    db_sqlite_exec(db, "ROLLBACK TO one_append");
  db_sqlite_exec(db, "RELEASE one_append");
  return st;
}

static int64_t mono_ns(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* COMMIT the open transaction, counting it and its time for db_stats. */
static enum cairn_status timed_commit(struct db_sqlite *c, const struct db_append *batch,
                                      struct cairn_error *err)
{
  int64_t t0 = mono_ns();
  enum cairn_status st = db_sqlite_commit(c->db, err);
  long appended = 0;

  for (; batch; batch = batch->next)
    appended += batch->st == CAIRN_OK;
  if (st == CAIRN_OK) {
    atomic_fetch_add(&c->commits, 1);
    atomic_fetch_add(&c->appends, appended);
    atomic_fetch_add(&c->commit_ns, mono_ns() - t0);
  }
  return st;
}

void db_sqlite_stats(void *ctx, struct db_stats *out)
{
  struct db_sqlite *c = ctx;

  out->commits = atomic_load(&c->commits);
  out->appends = atomic_load(&c->appends);
  out->commit_seconds = (double)atomic_load(&c->commit_ns) / 1e9;
}

/* Commit a batch of appends in one transaction: one fsync for all of them.
 * Each keeps its own verdict; a failed COMMIT fails every one. */
void db_sqlite_commit_batch(struct db_sqlite *c, struct db_append *batch)
{
  struct db_append *a;
  struct cairn_error err = {0};
  enum cairn_status st;

  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, &err);
  if (st == CAIRN_OK && !batch->next) {
    /* Alone in its transaction, an append needs no savepoint: if it is
     * refused, rolling the transaction back undoes exactly it. */
    batch->st = append_checked(c->db, batch, batch->err);
    if (batch->st != CAIRN_OK) {
      db_sqlite_rollback(c->db);
      db_sqlite_unlock(c);
      return;
    }
  } else if (st == CAIRN_OK) {
    for (a = batch; a; a = a->next)
      a->st = append_one(c->db, a, a->err);
  }
  /* synchronous=FULL (open.c): COMMIT returns after the WAL is fsynced. */
  if (st == CAIRN_OK)
    st = timed_commit(c, batch, &err);
  if (st != CAIRN_OK) {
    db_sqlite_rollback(c->db);
    /* Nothing of the batch was written: the appends that had passed
     * their checks (or were never tried, BEGIN having failed) fail with
     * the storage error; the others keep theirs. */
    for (a = batch; a; a = a->next)
      if (a->st == CAIRN_OK) {
        a->st = st;
        *a->err = err;
      }
  } else {
    /* Durable: the cached rows move on with the stored ones. */
    db_sqlite_rlock(c);
    for (a = batch; a; a = a->next)
      if (a->st == CAIRN_OK)
        db_rowcache_game_moved(c->rows, a->game_id, a->move, a->result_json, a->hash);
    db_sqlite_runlock(c);
  }
  db_sqlite_unlock(c);
}

/* One visit's rows, copied out of SQLite so the callback can run unlocked.
 * Their texts share one buffer, kept from visit to visit: a malloc and a
 * free per row were a tenth of the walk's own instructions (issue 22). */
struct batch {
  struct db_move rows[LOAD_BATCH]; /* n of them; their strings point into text */
  size_t at[LOAD_BATCH][2];        /* where each row's move_json and events_json start in
                                    * text, until point_rows makes them pointers */
  size_t n;
  char *text;        /* owned: each row's move_json, NUL (and events_json, NUL) */
  size_t used, size; /* bytes of text in use, allocated */
};

/* What a walk reads of each row: everything, or what a replay reads
 * (moves_load_lean). The columns are in the order copy_row reads them. */
static const char *const load_sql[] = {
    "SELECT ord, seq, seat, move_json, events_json, at_ms, hash FROM moves"
    " WHERE game_id = ?1 AND ord >= ?2 ORDER BY ord LIMIT ?3",
    "SELECT ord, seq, seat, move_json FROM moves"
    " WHERE game_id = ?1 AND ord >= ?2 ORDER BY ord LIMIT ?3",
};

/* Append `len` bytes and a NUL to b->text; the offset they start at in
 * *at, or false when out of memory. Offsets, not pointers: the buffer may
 * move as it grows, so point_rows sets the pointers once a visit is done. */
static bool keep_text(struct batch *b, const char *text, size_t len, size_t *at)
{
  if (b->size - b->used < len + 1) {
    size_t size = b->size ? b->size : 16384;
    char *grown;

    while (size - b->used < len + 1)
      size *= 2;
    grown = realloc(b->text, size);
    if (!grown)
      return false;
    b->text = grown;
    b->size = size;
  }
  memcpy(b->text + b->used, text, len);
  b->text[b->used + len] = '\0';
  *at = b->used;
  b->used += len + 1;
  return true;
}

/* Copy the row `stmt` stands on (load_sql[lean]'s columns) into the next
 * of b->rows, its strings' offsets into b->at (point_rows). */
static enum cairn_status copy_row(sqlite3_stmt *stmt, bool lean, struct batch *b,
                                  struct cairn_error *err)
{
  static const char what[] = "loading moves";
  struct db_move *row = &b->rows[b->n];
  size_t *at = b->at[b->n];
  const char *move_json;
  const char *events_json = "";
  size_t move_len;
  size_t events_len = 0;

  /* Text first, then its length: the order SQLite documents as safe. */
  move_json = (const char *)sqlite3_column_text(stmt, 3);
  move_len = (size_t)sqlite3_column_bytes(stmt, 3);
  if (!lean) {
    events_json = (const char *)sqlite3_column_text(stmt, 4);
    events_len = (size_t)sqlite3_column_bytes(stmt, 4);
  }
  if (!move_json || !events_json) {
    /* Both columns are NOT NULL, so NULL here is a failed conversion. */
    return db_sqlite_fail(sqlite3_db_handle(stmt), SQLITE_NOMEM, what, err);
  }
  if (!keep_text(b, move_json, move_len, &at[0]) ||
      (!lean && !keep_text(b, events_json, events_len, &at[1])))
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory while %s",
                      what);
  /* A lean row leaves the rest zeroed: events_json NULL, at_ms 0, no hash. */
  *row = (struct db_move){.ord = (uint32_t)sqlite3_column_int64(stmt, 0),
                          .seq = (uint32_t)sqlite3_column_int64(stmt, 1),
                          .seat = sqlite3_column_int(stmt, 2)};
  b->n++;
  if (lean)
    return CAIRN_OK;
  row->at_ms = sqlite3_column_int64(stmt, 5);
  row->has_hash = sqlite3_column_bytes(stmt, 6) == DB_HASH_BYTES;
  if (row->has_hash)
    memcpy(row->hash, sqlite3_column_blob(stmt, 6), DB_HASH_BYTES);
  return CAIRN_OK;
}

/* The rows' strings, held as offsets while the buffer could still move,
 * made pointers into it. */
static void point_rows(struct batch *b, bool lean)
{
  size_t i;

  for (i = 0; i < b->n; i++) {
    b->rows[i].move_json = b->text + b->at[i][0];
    if (!lean)
      b->rows[i].events_json = b->text + b->at[i][1];
  }
}

/* Copy up to LOAD_BATCH rows with ord >= from_ord into *b, emptied first;
 * `lean`: only what moves_load_lean gives. With `check_game`, first make
 * sure the game exists, in the same read transaction. Call with the lock
 * held. */
static enum cairn_status load_batch(sqlite3 *db, const char *game_id, uint32_t from_ord,
                                    bool check_game, bool lean, struct batch *b,
                                    struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  b->n = 0;
  b->used = 0;
  st = db_sqlite_begin(db, false, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (check_game) {
    st = db_sqlite_prepare(db, "SELECT 1 FROM games WHERE id = ?1", &stmt, err);
    if (st != CAIRN_OK)
      goto cleanup;
    sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
      st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
      goto cleanup;
    }
    if (rc != SQLITE_ROW) {
      st = db_sqlite_fail(db, rc, "loading moves", err);
      goto cleanup;
    }
    db_sqlite_release(stmt);
    stmt = NULL;
  }

  st = db_sqlite_prepare(db, load_sql[lean], &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, from_ord);
  sqlite3_bind_int(stmt, 3, LOAD_BATCH);
  for (;;) {
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW)
      break;
    st = copy_row(stmt, lean, b, err);
    if (st != CAIRN_OK)
      goto cleanup;
  }
  if (rc != SQLITE_DONE) {
    st = db_sqlite_fail(db, rc, "loading moves", err);
    goto cleanup;
  }
  db_sqlite_release(stmt);
  stmt = NULL;
  st = db_sqlite_commit(db, err);
  point_rows(b, lean);

cleanup:
  db_sqlite_release(stmt);
  db_sqlite_rollback(db);
  return st;
}

/* Under rlock: a walk past its first batch is a long log read once, so
 * SQLite reads it from a mapping of the file rather than pread every page
 * into its cache (a third of a 10,000-move replay after a restart, issue
 * 22). The mapping lasts while any long walk runs (`start`: one begins,
 * else one ended) and goes with the last, so an idle server's resident
 * memory never carries the file (bench_idle). Returns `start`. */
static bool map_for_long_walk(struct db_sqlite *c, bool start)
{
  /* sqlite3_exec: prepared once a long walk, not kept among the cached
   * statements (test_statement_cache counts them). A refusal only leaves
   * the walk reading as before. */
  if (start && c->long_walks++ == 0)
    sqlite3_exec(c->rdb, "PRAGMA mmap_size = " LONG_WALK_MAP_BYTES, NULL, NULL, NULL);
  else if (!start && --c->long_walks == 0)
    sqlite3_exec(c->rdb, "PRAGMA mmap_size = 0", NULL, NULL, NULL);
  return start;
}

/*
 * The walk copies rows out in batches and calls `cb` with the lock
 * released: a callback typically replays each move through the engine,
 * which must not stall every other request's storage access, and it may
 * itself call a method of this backend, which would deadlock on a held lock.
 *
 * Between batches other moves may be appended. The log is append-only and
 * dense, so the rows seen are still exactly the log's first rows from
 * from_ord on, possibly more of them than the game row loaded earlier
 * counted; a caller that wants a fixed prefix stops at that count.
 */
static enum cairn_status walk_log(struct db_sqlite *c, const char *game_id, uint32_t from_ord,
                                  bool lean, db_move_cb cb, void *arg, struct cairn_error *err)
{
  struct batch *b;
  enum cairn_status st = CAIRN_OK;
  bool first = true, mapping = false;
  size_t i;

  assert(c && game_id && cb);
  b = calloc(1, sizeof(*b));
  if (!b)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while loading moves");
  for (;;) {
    db_sqlite_rlock(c);
    if (!first && !mapping)
      mapping = map_for_long_walk(c, true);
    st = load_batch(c->rdb, game_id, from_ord, first, lean, b, err);
    db_sqlite_runlock(c);
    if (st != CAIRN_OK)
      goto cleanup;
    first = false;
    for (i = 0; i < b->n; i++) {
      st = cb(arg, &b->rows[i], err);
      if (st == CAIRN_DONE) {
        st = CAIRN_OK;
        goto cleanup;
      }
      if (st != CAIRN_OK)
        goto cleanup;
    }
    /* A short batch reached the end of the log; ord 2^32-1 is the last
     * there can be. */
    if (b->n < LOAD_BATCH || b->rows[b->n - 1].ord == UINT32_MAX)
      break;
    from_ord = b->rows[b->n - 1].ord + 1;
  }

cleanup:
  if (mapping) {
    db_sqlite_rlock(c);
    map_for_long_walk(c, false);
    db_sqlite_runlock(c);
  }
  free(b->text);
  free(b);
  return st;
}

enum cairn_status db_sqlite_moves_load(void *ctx, const char *game_id, uint32_t from_ord,
                                       db_move_cb cb, void *arg, struct cairn_error *err)
{
  return walk_log(ctx, game_id, from_ord, false, cb, arg, err);
}

enum cairn_status db_sqlite_moves_load_lean(void *ctx, const char *game_id, uint32_t from_ord,
                                            db_move_cb cb, void *arg, struct cairn_error *err)
{
  return walk_log(ctx, game_id, from_ord, true, cb, arg, err);
}
