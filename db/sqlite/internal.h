/*
 * internal.h - what the files of the SQLite backend share: the context
 * behind struct db's ctx and the plumbing every query file uses. Nothing here is
 * visible outside db/sqlite/ (tests of the backend excepted).
 *
 * Two connections, one lock each. `db` does every write: a transaction is
 * a sequence of statements on it, and two request threads interleaving
 * theirs would commit each other's half-done work, so `lock` serialises
 * every use of it. `rdb` is read-only and serves the slots that only read:
 * under WAL it reads the last committed state while the writer waits for
 * an fsync, so lookups never queue behind a durable commit; `rlock`
 * serialises it the same way, since a read that must see one snapshot is a
 * transaction too. SQLite's own per-call mutex cannot give either
 * guarantee, so both are opened without it (SQLITE_OPEN_NOMUTEX) and these
 * locks are the only ones. More writers would gain nothing (SQLite takes
 * one at a time, and group commit already shares an fsync among moves);
 * more readers could be added behind the same methods without touching callers.
 *
 * Each connection caches its prepared statements (common.c). Parsing SQL
 * was a fifth of the server's CPU per move, and every query's text is a
 * fixed literal, so each is prepared once per connection and reused until
 * close. The cache lives on the connection and is used only under the
 * connection's lock, so it needs no lock of its own.
 */
#ifndef DB_SQLITE_INTERNAL_H
#define DB_SQLITE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../backends.h"
#include "../db.h"
#include "migrations.h"

/* The oldest SQLite the schema runs on: migrations use STRICT tables. */
#define DB_SQLITE_MIN_VERSION 3037000

/* How long a statement waits for a lock held by this process's other
 * connection (the reader during a checkpoint) before giving up with
 * storage-unavailable. Long enough to ride out a checkpoint, short enough
 * that an HTTP client is not left hanging. */
#define DB_SQLITE_BUSY_MS 5000

/*
 * The file belongs to one server process (issue 22). SQLite's "unix-excl"
 * VFS takes the file's lock once and keeps it, and keeps the WAL index in
 * this process's memory instead of a shared -shm mapping: the two
 * connections of this process share it, every other process is refused
 * (SQLITE_BUSY) while the server runs. Measured on a Himalaya move (perf
 * stat, bench_load at 100 games): the POSIX lock calls went from 9 per
 * move to 0 and the page reads from 9 to about 1, because a connection
 * that owns the file need not check for other writers before each
 * transaction. A second server on the same file now fails at start-up
 * instead of sharing it. Offline tools (cairn verify/revalidate, a sqlite3
 * shell, a backup) run while the server is stopped; durability is the
 * WAL's and synchronous=FULL's, unchanged.
 */
#define DB_SQLITE_VFS "unix-excl"

/* One move waiting for a group commit (groupcommit.c): on its caller's
 * stack until `done` when the caller waits (move_append), else allocated
 * by move_append_async and freed once its `on_done` has been called. */
struct db_append {
  const char *game_id;
  const struct db_move *move;
  const char *result_json;
  struct cairn_error *err;
  enum cairn_status st;        /* the verdict, valid once done */
  uint8_t hash[DB_HASH_BYTES]; /* the row's chain hash, once written */
  bool done;
  pthread_cond_t wake; /* a waiting caller's: signalled when done */
  /* An async caller's verdict callback (NULL for a waiting caller): called
   * on the committer thread, outside queue_lock. */
  db_append_done on_done;
  void *on_done_arg;
  struct db_move *async_move; /* the async caller's move, which gets the hash */
  struct db_append *next;
};

/* The backend behind struct db's ctx: created by db_sqlite_open, freed by
 * its close method. */
struct db_sqlite {
  sqlite3 *db;          /* the writing connection; use it only while holding lock */
  pthread_mutex_t lock; /* serialises every use of db */
  /* A second connection for the slots that only read: WAL lets it read
   * the last committed state while the writer waits for an fsync, so
   * lookups never queue behind a durable commit. */
  sqlite3 *rdb;
  pthread_mutex_t rlock; /* serialises every use of rdb */
  int long_walks;        /* log walks reading rdb's file mapped (moves.c), under rlock */
  char *path;            /* owned: the database file, NULL in memory (backup.c opens it) */
  /* group commit (groupcommit.c): appends waiting for the next
   * transaction, and the thread that commits them */
  pthread_mutex_t queue_lock;
  struct db_append *queue; /* FIFO */
  struct db_append **queue_tail;
  pthread_cond_t queued; /* signalled when the queue gains a first append, or at stop */
  bool stopping;         /* close: the committer drains the queue and ends */
  pthread_t committer;
  bool committer_running;
  /* Copies of rows the read slots found (rowcache.c); used under rlock. */
  struct db_rowcache *rows;
  /* db_stats: what the group commit did (moves.c) */
  atomic_long commits, appends, commit_ns;
  /* Registered webhooks, counted so that a move in a server with none
   * skips the query for them (webhooks.c). */
  atomic_long hooks;
  /* Copies the WAL into the database file on its own thread and
   * connection (checkpoint.c); NULL for an in-memory database. */
  struct db_checkpointer *checkpointer;
};

/* ---- checkpoint.c: WAL checkpoints off the commit path ---- */

/* WAL frames (pages) past the last checkpoint after which the next is due:
 * 32 MiB of WAL with 4 KiB pages. Each checkpoint ends with a pass that
 * holds the writer's lock for its last frames and the file's fsync (1-3.6
 * ms measured under bench_load's open loop at 5,000 moves/s, while helpers
 * shared the machine): at SQLite's default 1,000 frames that pause came
 * every ~330 moves, some 15 times a second at that rate, enough to show in
 * the 99th percentile; at 8,000, twice a second. A longer WAL costs disk
 * (the file keeps its high-water mark until a clean stop truncates it) and
 * a longer recovery after a crash, both small. */
#define DB_SQLITE_CHECKPOINT_FRAMES 8000

struct db_checkpointer;

/* Turn off `writer`'s automatic checkpoint and start a thread that
 * checkpoints the database at `path` on its own connection whenever a
 * commit of `writer` leaves the WAL long; it holds `writer_lock` (the
 * mutex every use of `writer` holds, borrowed) for a checkpoint's last
 * frames. *out is NULL on failure. */
enum cairn_status db_sqlite_checkpointer_start(sqlite3 *writer, pthread_mutex_t *writer_lock,
                                               const char *path, struct db_checkpointer **out,
                                               struct cairn_error *err);
/* Stop and free `k` (NULL is fine); `writer` stays open. */
void db_sqlite_checkpointer_stop(sqlite3 *writer, struct db_checkpointer *k);

/* ---- rowcache.c: copies of game rows and players; call with rlock held ---- */

/* A new, empty cache, or NULL when out of memory. Free with
 * db_rowcache_free (NULL is fine). */
struct db_rowcache *db_rowcache_new(void);
void db_rowcache_free(struct db_rowcache *rc);

/* True and a deep copy of the row in *out (the caller's, db_game_clear)
 * when the cache holds game_id. */
bool db_rowcache_game_get(struct db_rowcache *rc, const char *game_id, struct db_game *out);
/* Keep a copy of `row`, read from SQLite under the same hold of rlock. */
void db_rowcache_game_put(struct db_rowcache *rc, const struct db_game *row);
/* Drop the copy of game_id, if any: a write slot changed its row. */
void db_rowcache_game_forget(struct db_rowcache *rc, const char *game_id);
/* A committed append: move the copy on as db_sqlite_update_game moved the
 * row (`hash` is the new row's chain hash), or drop it. */
void db_rowcache_game_moved(struct db_rowcache *rc, const char *game_id, const struct db_move *move,
                            const char *result_json, const uint8_t hash[DB_HASH_BYTES]);

/* True and the player in *out when the cache holds token_hash. */
bool db_rowcache_player_get(struct db_rowcache *rc, const uint8_t token_hash[DB_HASH_BYTES],
                            struct db_player *out);
void db_rowcache_player_put(struct db_rowcache *rc, const uint8_t token_hash[DB_HASH_BYTES],
                            const struct db_player *player);
/* Drop token_hash's copy, if any: the token was revoked (tokens.c). */
void db_rowcache_player_forget(struct db_rowcache *rc, const uint8_t token_hash[DB_HASH_BYTES]);

/* ---- common.c: locking, statements, transactions, errors ---- */

void db_sqlite_lock(struct db_sqlite *c);
void db_sqlite_unlock(struct db_sqlite *c);
void db_sqlite_rlock(struct db_sqlite *c);
void db_sqlite_runlock(struct db_sqlite *c);

/* A write slot changed game_id's row: drop the cached copy (rowcache.c).
 * Call after the commit, holding lock (never rlock: lock comes first). */
void db_sqlite_forget_game(struct db_sqlite *c, const char *game_id);

/* Log SQLite's own account of a failure (never shown to clients) and turn
 * `rc` into a status: CAIRN_ENOMEM for SQLITE_NOMEM, else CAIRN_EDB with
 * code storage-unavailable. `what` names the operation for the log and for
 * err->detail. Call with the lock held, before anything else touches the
 * connection, so sqlite3_errmsg still describes this failure. */
enum cairn_status db_sqlite_fail(sqlite3 *db, int rc, const char *what, struct cairn_error *err);

/* Step `stmt` (of `db`), which reads the row of the `thing` named `id`:
 * CAIRN_OK with that row to read, CAIRN_ENOTFOUND ("no <thing> <id>")
 * when there is none, db_sqlite_fail while `doing` otherwise. */
enum cairn_status db_sqlite_step_one(sqlite3 *db, sqlite3_stmt *stmt, const char *thing,
                                     const char *id, const char *doing, struct cairn_error *err);

/* The connection's statement for `sql`, ready to bind and step: the cached
 * one if idle, else newly prepared. `sql` must be a literal (one statement,
 * ? parameters; the few texts a helper picks from are fine): each distinct
 * text stays prepared until close, so text built at run time would grow
 * the cache without bound. The statement belongs to the connection's
 * cache: release it with db_sqlite_release, never finalize it, and release
 * it before preparing the same text again (the cache cannot tell a held
 * statement that has not stepped from an idle one). */
enum cairn_status db_sqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out,
                                    struct cairn_error *err);

/* Hand a statement from db_sqlite_prepare back to the cache (NULL is
 * fine): reset, so it holds no read transaction and no row, and bindings
 * cleared, so it keeps no pointer into the caller's memory. Text and blob
 * pointers from sqlite3_column_* die here: copy them out first. */
void db_sqlite_release(sqlite3_stmt *stmt);

/* Prepare `sql` outside the cache, for statements run once per connection
 * (start-up pragmas, migrations) that would only lengthen the cache's
 * list. *out is the caller's, finalized with sqlite3_finalize. */
enum cairn_status db_sqlite_prepare_once(sqlite3 *db, const char *sql, sqlite3_stmt **out,
                                         struct cairn_error *err);

/* Finalize every statement of `db` (NULL is fine), cached or not. Call
 * before sqlite3_close, which refuses a connection that still has
 * statements and so would leak it. */
void db_sqlite_finalize_all(sqlite3 *db);

/* Run one statement that returns no rows (BEGIN, SAVEPOINT, ...) through
 * the cache, in place of sqlite3_exec, which parses its text every time.
 * Returns SQLITE_OK or the failing step's code; sqlite3_errmsg still
 * describes the failure. */
int db_sqlite_exec(sqlite3 *db, const char *sql);

/* BEGIN IMMEDIATE (`write`: take the write lock now, so two writers never
 * both read a count and then both try to extend it) or a deferred BEGIN
 * for a read that must see one consistent snapshot. */
enum cairn_status db_sqlite_begin(sqlite3 *db, bool write, struct cairn_error *err);

/* COMMIT. On failure the transaction may still be open; the caller's
 * cleanup rolls it back. Release the transaction's statements first: one
 * stopped mid-query keeps its read open past the COMMIT, and with it a
 * snapshot that hides later commits and holds back checkpoints. */
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
 * is shared and with no statement of the caller's open on it: it finalizes
 * every statement of the connection before returning. */
enum cairn_status db_sqlite_migrate(sqlite3 *db, const struct db_migration *list,
                                    struct cairn_error *err);

/* Read schema_version into *out: 0 for a database with no schema yet.
 * Caches nothing, so a plain connection can be closed plainly after it. */
enum cairn_status db_sqlite_schema_version(sqlite3 *db, int *out, struct cairn_error *err);

/* ---- the methods, one file per concern ---- */

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
/* Upsert clocks[0..n) of game_id (clocks_save's statement). */
enum cairn_status db_sqlite_write_clocks(sqlite3 *db, const char *game_id,
                                         const struct db_clock *clocks, int n,
                                         struct cairn_error *err);
/* Insert owed[0..n) into the webhook outbox inside the open transaction
 * (a move's own), skipping rows whose webhook is gone. */
enum cairn_status db_sqlite_write_outbox(sqlite3 *db, const struct db_outbox *owed, int n,
                                         struct cairn_error *err);
/* Flip an open game to active once no seat is empty, with updated_ms
 * `at_ms` (0 keeps it): one conditional UPDATE. *started: it flipped. */
enum cairn_status db_sqlite_start_if_full(sqlite3 *db, const char *game_id, int64_t at_ms,
                                          bool *started, struct cairn_error *err);
enum cairn_status db_sqlite_insert_move(sqlite3 *db, const char *game_id,
                                        const struct db_move *move, uint8_t hash[DB_HASH_BYTES],
                                        struct cairn_error *err);
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
enum cairn_status db_sqlite_webhook_get(void *ctx, const char *id, struct db_webhook *out,
                                        struct cairn_error *err);
enum cairn_status db_sqlite_mention_put(void *ctx, const struct db_mention *mention,
                                        struct cairn_error *err);
enum cairn_status db_sqlite_mentions_of(void *ctx, const char *webhook_id, db_mention_cb cb,
                                        void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_deliveries_of(void *ctx, const char *webhook_id, int limit,
                                          db_delivery_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_outbox_put(void *ctx, const struct db_outbox *owed,
                                       struct cairn_error *err);
enum cairn_status db_sqlite_outbox_remove(void *ctx, const char *delivery_id,
                                          struct cairn_error *err);
enum cairn_status db_sqlite_outbox_claim(void *ctx, const char *node, int64_t now_ms,
                                         int64_t until_ms, int max, db_outbox_cb cb, void *arg,
                                         int *n, struct cairn_error *err);
enum cairn_status db_sqlite_outbox_renew(void *ctx, const char *node, int64_t until_ms,
                                         struct cairn_error *err);
enum cairn_status db_sqlite_outbox_release(void *ctx, const char *node, struct cairn_error *err);
/* At open: every lease found is a dead process's (the store has one
 * process), so all are released and the owed rows claimable at once. */
enum cairn_status db_sqlite_outbox_unclaim_all(sqlite3 *db, struct cairn_error *err);
enum cairn_status db_sqlite_games_bots_idle(void *ctx, int64_t from_ms, int64_t to_ms,
                                            db_game_id_cb cb, void *arg, struct cairn_error *err);
/* lobby.c */
enum cairn_status db_sqlite_games_lobby(void *ctx, const struct db_lobby_query *query,
                                        db_game_id_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_invitations_of(void *ctx, const char *player_id, db_game_seat_cb cb,
                                           void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_invitation_decline(void *ctx, const char *game_id,
                                               const char *player_id, struct cairn_error *err);
enum cairn_status db_sqlite_games_archive(void *ctx, const struct db_archive_query *query,
                                          db_game_seat_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_game_cancel(void *ctx, const char *game_id, int64_t at_ms,
                                        struct cairn_error *err);
/* In the caller's write transaction: keep `seat` of `game_id` for
 * `player_id` (CAIRN_ENOTFOUND when no such player). */
enum cairn_status db_sqlite_insert_invitation(sqlite3 *db, const char *game_id, int seat,
                                              const char *player_id, struct cairn_error *err);
/* In the caller's write transaction: delete `player_id`'s invitation to
 * `game_id`, if any; *deleted (NULL: not wanted) says whether there was. */
enum cairn_status db_sqlite_uninvite(sqlite3 *db, const char *game_id, const char *player_id,
                                     bool *deleted, struct cairn_error *err);

enum cairn_status db_sqlite_outbox_each(void *ctx, db_outbox_cb cb, void *arg,
                                        struct cairn_error *err);
/* tokens.c */
enum cairn_status db_sqlite_token_add(void *ctx, const char *player_id,
                                      const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                                      struct cairn_error *err);
enum cairn_status db_sqlite_tokens_replace(void *ctx, const char *player_id,
                                           const uint8_t token_hash[DB_HASH_BYTES],
                                           struct cairn_error *err);
enum cairn_status db_sqlite_sign_in_code_put(void *ctx, const char *player_id,
                                             const uint8_t code_hash[DB_HASH_BYTES],
                                             int64_t expires_ms, struct cairn_error *err);
enum cairn_status db_sqlite_sign_in_code_take(void *ctx, const uint8_t code_hash[DB_HASH_BYTES],
                                              int64_t now_ms, struct db_player *out,
                                              struct cairn_error *err);
enum cairn_status db_sqlite_player_games(void *ctx, const char *player_id,
                                         enum cairn_status (*cb)(void *arg, const char *game_id,
                                                                 int seat, struct cairn_error *err),
                                         void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_games_each(void *ctx, db_game_id_cb cb, void *arg,
                                       struct cairn_error *err);
enum cairn_status db_sqlite_games_active_each(void *ctx, db_game_id_cb cb, void *arg,
                                              struct cairn_error *err);

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
enum cairn_status db_sqlite_seat_take(void *ctx, const char *game_id, const struct db_join *join,
                                      struct cairn_error *err);

/* moves.c */
/* Commit `batch` (a list through ->next) in one transaction, setting each
 * append's st (and hash); under the writer's lock, which it takes. */
void db_sqlite_commit_batch(struct db_sqlite *c, struct db_append *batch);
void db_sqlite_stats(void *ctx, struct db_stats *out);
enum cairn_status db_sqlite_backup_to(void *ctx, const char *path, struct cairn_error *err);

/* groupcommit.c */
/* Start the committer thread (false when it cannot start); stop it once
 * every queued append is committed. */
bool db_sqlite_committer_start(struct db_sqlite *c);
void db_sqlite_committer_stop(struct db_sqlite *c);
enum cairn_status db_sqlite_move_append(void *ctx, const char *game_id, struct db_move *move,
                                        const char *result_json, struct cairn_error *err);
void db_sqlite_move_append_async(void *ctx, const char *game_id, struct db_move *move,
                                 const char *result_json, struct cairn_error *err,
                                 db_append_done done, void *arg);
enum cairn_status db_sqlite_moves_load_lean(void *ctx, const char *game_id, uint32_t from_ord,
                                            db_move_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_moves_load(void *ctx, const char *game_id, uint32_t from_ord,
                                       db_move_cb cb, void *arg, struct cairn_error *err);

/* chat.c (issue 25) */
enum cairn_status db_sqlite_chat_post(void *ctx, struct db_chat *msg, const struct db_outbox *owed,
                                      int n_owed, struct cairn_error *err);
enum cairn_status db_sqlite_chat_list(void *ctx, const char *game_id, int channel, uint32_t after,
                                      int limit, db_chat_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_chat_get(void *ctx, const char *id, struct db_chat *out,
                                     struct cairn_error *err);
enum cairn_status db_sqlite_chat_delete(void *ctx, const char *id, const char *author,
                                        int64_t at_ms, struct cairn_error *err);

/* ratings.c (issue 25) */
/* Inside the open transaction: the update `u` of the append ending game_id. */
enum cairn_status db_sqlite_write_ratings(sqlite3 *db, const char *game_id, int64_t at_ms,
                                          const struct db_rating_update *u,
                                          struct cairn_error *err);
enum cairn_status db_sqlite_ratings_of(void *ctx, const char *player, db_rating_cb cb, void *arg,
                                       struct cairn_error *err);
enum cairn_status db_sqlite_leaderboard(void *ctx, const char *title, int offset, int limit,
                                        db_rating_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_sqlite_ratings_each(void *ctx, db_rating_cb cb, void *arg,
                                         struct cairn_error *err);
enum cairn_status db_sqlite_player_get(void *ctx, const char *id, struct db_player *out,
                                       struct cairn_error *err);
enum cairn_status db_sqlite_rated_games_each(void *ctx, db_game_id_cb cb, void *arg,
                                             struct cairn_error *err);

#endif
