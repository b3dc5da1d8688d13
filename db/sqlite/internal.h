/*
 * internal.h - what the files of the SQLite backend share: the context
 * behind db_ops.ctx and the plumbing every query file uses. Nothing here is
 * visible outside db/sqlite/ (tests of the backend excepted).
 *
 * One connection, one lock. The backend keeps a single sqlite3 connection
 * and serialises every use of it with `lock`: a transaction is a sequence
 * of statements on the connection, and two request threads interleaving
 * theirs would commit each other's half-done work. SQLite's own per-call
 * mutex cannot prevent that, so the connection is opened without it
 * (SQLITE_OPEN_NOMUTEX) and this lock is the only one. A move costs one
 * fsync either way, so a connection pool would buy little until reads
 * dominate; it can be added behind the same ops without touching callers.
 */
#ifndef DB_SQLITE_INTERNAL_H
#define DB_SQLITE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../db.h"
#include "migrations.h"

/* The oldest SQLite the schema runs on: migrations use STRICT tables. */
#define DB_SQLITE_MIN_VERSION 3037000

/* How long a write waits for a lock held by another process (a backup, a
 * sqlite3 shell) before giving up with storage-unavailable. Long enough to
 * ride out a checkpoint, short enough that an HTTP client is not left
 * hanging. */
#define DB_SQLITE_BUSY_MS 5000

/* The backend behind db_ops.ctx. Owned by the ops: created by
 * db_sqlite_open, freed by its close slot. */
/* One move waiting for a group commit (moves.c): lives on its caller's
 * stack until `done`. */
struct db_append {
  const char *game_id;
  const struct db_move *move;
  const char *result_json;
  struct cairn_error *err;
  enum cairn_status st; /* the verdict, valid once done */
  bool done;
  struct db_append *next;
};

struct db_sqlite {
  sqlite3 *db;          /* the writing connection; use it only while holding lock */
  pthread_mutex_t lock; /* serialises every use of db */
  /* A second connection for the slots that only read: WAL lets it read
   * the last committed state while the writer waits for an fsync, so
   * lookups never queue behind a durable commit. */
  sqlite3 *rdb;
  pthread_mutex_t rlock; /* serialises every use of rdb */
  /* group commit: appends waiting for the next transaction */
  pthread_mutex_t queue_lock;
  pthread_cond_t queue_done; /* a batch finished */
  struct db_append *queue;   /* FIFO */
  struct db_append **queue_tail;
  bool committing; /* a committer is at work */
};

/* ---- common.c: locking, statements, transactions, errors ---- */

void db_sqlite_lock(struct db_sqlite *c);
void db_sqlite_unlock(struct db_sqlite *c);
void db_sqlite_rlock(struct db_sqlite *c);
void db_sqlite_runlock(struct db_sqlite *c);

/* Log SQLite's own account of a failure (never shown to clients) and turn
 * `rc` into a status: CAIRN_ENOMEM for SQLITE_NOMEM, else CAIRN_EDB with
 * code storage-unavailable. `what` names the operation for the log and for
 * err->detail. Call with the lock held, before anything else touches the
 * connection, so sqlite3_errmsg still describes this failure. */
enum cairn_status db_sqlite_fail(sqlite3 *db, int rc, const char *what, struct cairn_error *err);

/* Prepare `sql` (static text with ? parameters). On success *out is the
 * caller's, released with sqlite3_finalize. */
enum cairn_status db_sqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out,
                                    struct cairn_error *err);

/* BEGIN IMMEDIATE (`write`: take the write lock now, so two writers never
 * both read a count and then both try to extend it) or a deferred BEGIN
 * for a read that must see one consistent snapshot. */
enum cairn_status db_sqlite_begin(sqlite3 *db, bool write, struct cairn_error *err);

/* COMMIT. On failure the transaction may still be open; the caller's
 * cleanup rolls it back. */
enum cairn_status db_sqlite_commit(sqlite3 *db, struct cairn_error *err);

/* Roll back the open transaction, if any (SQLite ends some transactions by
 * itself after an I/O error). Failure is only logged: the caller is already
 * reporting the error that brought it here. */
void db_sqlite_rollback(sqlite3 *db);

/* Copy the text of column `col` into buf[size], NUL-terminated. Fails with
 * CAIRN_EDB (and a log line naming `what`) when the value is NULL or does
 * not fit: the schema's length checks make both impossible unless the file
 * was changed behind the server's back. */
enum cairn_status db_sqlite_column_copy(sqlite3_stmt *stmt, int col, char *buf, size_t size,
                                        const char *what, struct cairn_error *err);

/* OUT, caller frees with free(): a copy of the text of column `col`, or
 * NULL when the value is SQL NULL. */
enum cairn_status db_sqlite_column_dup(sqlite3_stmt *stmt, int col, char **out, const char *what,
                                       struct cairn_error *err);

/* ---- migrate.c ---- */

/* Bring the schema up to the last entry of `list` (ordered by number,
 * ended by number 0), one transaction per migration, each setting
 * schema_version with its own changes. Refuses (CAIRN_EDB) a database whose
 * schema_version is newer than the last entry. Call before the connection
 * is shared. */
enum cairn_status db_sqlite_migrate(sqlite3 *db, const struct db_migration *list,
                                    struct cairn_error *err);

/* Read schema_version into *out: 0 for a database with no schema yet. */
enum cairn_status db_sqlite_schema_version(sqlite3 *db, int *out, struct cairn_error *err);

/* ---- the db_ops slots, one file per concern ---- */

/* players.c */
/* A game's status, seat count and move count (either pointer may be NULL).
 * CAIRN_ENOTFOUND if no such game. Call with the lock held. */
enum cairn_status db_sqlite_game_status(sqlite3 *db, const char *game_id, char *status, size_t size,
                                        int *seats, uint32_t *moves, struct cairn_error *err);

/* Statements shared by several slots; each runs inside the caller's write
 * transaction with the lock held. */
enum cairn_status db_sqlite_insert_game(sqlite3 *db, const struct db_game *game,
                                        struct cairn_error *err);
enum cairn_status db_sqlite_insert_seat(sqlite3 *db, const char *game_id, int seat,
                                        const char *player_id, struct cairn_error *err);
enum cairn_status db_sqlite_insert_move(sqlite3 *db, const char *game_id,
                                        const struct db_move *move, struct cairn_error *err);
enum cairn_status db_sqlite_update_game(sqlite3 *db, const char *game_id,
                                        const struct db_move *move, const char *result_json,
                                        struct cairn_error *err);

enum cairn_status db_sqlite_game_import(void *ctx, const struct db_game *game,
                                        const struct db_player *players,
                                        const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                        const struct db_move *moves, size_t n_moves,
                                        struct cairn_error *err);

enum cairn_status db_sqlite_games_unfinished_by(void *ctx, const char *creator, int *count,
                                                struct cairn_error *err);
enum cairn_status db_sqlite_game_touch(void *ctx, const char *game_id, int64_t at_ms,
                                       struct cairn_error *err);
enum cairn_status db_sqlite_games_overdue(void *ctx, int64_t now_ms,
                                          enum cairn_status (*cb)(void *arg, const char *game_id,
                                                                  struct cairn_error *err),
                                          void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_clocks_load(void *ctx, const char *game_id, struct db_clock *out,
                                        int *n, struct cairn_error *err);
enum cairn_status db_sqlite_clocks_save(void *ctx, const char *game_id,
                                        const struct db_clock *clocks, int n,
                                        struct cairn_error *err);
enum cairn_status db_sqlite_vacation_add(void *ctx, const char *player_id,
                                         const struct db_vacation *v, struct cairn_error *err);
enum cairn_status db_sqlite_vacations_of(void *ctx, const char *player_id, int64_t from_ms,
                                         struct db_vacation *out, int max, int *n,
                                         struct cairn_error *err);
enum cairn_status db_sqlite_webhook_create(void *ctx, const struct db_webhook *hook,
                                           struct cairn_error *err);
enum cairn_status db_sqlite_webhooks_of_owner(void *ctx, const char *owner, db_webhook_cb cb,
                                              void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_webhooks_of_game(void *ctx, const char *game_id, db_webhook_cb cb,
                                             void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_webhook_delete(void *ctx, const char *id, const char *owner,
                                           struct cairn_error *err);
enum cairn_status db_sqlite_delivery_record(void *ctx, const struct db_delivery *delivery,
                                            struct cairn_error *err);
enum cairn_status db_sqlite_deliveries_of(void *ctx, const char *webhook_id, int limit,
                                          db_delivery_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_player_games(void *ctx, const char *player_id,
                                         enum cairn_status (*cb)(void *arg, const char *game_id,
                                                                 int seat, struct cairn_error *err),
                                         void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_games_each(void *ctx,
                                       enum cairn_status (*cb)(void *arg, const char *game_id,
                                                               struct cairn_error *err),
                                       void *arg, struct cairn_error *err);

enum cairn_status db_sqlite_player_create(void *ctx, const struct db_player *player,
                                          const uint8_t token_hash[DB_HASH_BYTES],
                                          struct cairn_error *err);
enum cairn_status db_sqlite_player_by_token(void *ctx, const uint8_t token_hash[DB_HASH_BYTES],
                                            struct db_player *out, struct cairn_error *err);

/* games.c */
enum cairn_status db_sqlite_game_create(void *ctx, const struct db_game *game,
                                        struct cairn_error *err);
enum cairn_status db_sqlite_game_load(void *ctx, const char *game_id, struct db_game *out,
                                      struct cairn_error *err);

/* seats.c */
enum cairn_status db_sqlite_seat_take(void *ctx, const char *game_id, int seat,
                                      const char *player_id, struct cairn_error *err);

/* moves.c */
enum cairn_status db_sqlite_move_append(void *ctx, const char *game_id, const struct db_move *move,
                                        const char *result_json, struct cairn_error *err);
enum cairn_status db_sqlite_moves_load(void *ctx, const char *game_id, uint32_t from_ord,
                                       db_move_cb cb, void *arg, struct cairn_error *err);

#endif
