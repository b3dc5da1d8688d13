/*
 * open.c - opening and closing the SQLite backend: the connection, the
 * settings every later query relies on, the start-up migrations, and the
 * method table that hands the slots (players.c, games.c, seats.c, moves.c)
 * to db_open.
 */
#include "internal.h"
#include "../../log/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The context with its locks, queue and cache, and no connection yet; NULL
 * when memory or mutexes run out. Freed by free_context. */
static struct db_sqlite *new_context(void)
{
  struct db_sqlite *c = calloc(1, sizeof(*c));

  if (!c)
    return NULL;
  c->rows = db_rowcache_new();
  if (!c->rows || pthread_mutex_init(&c->lock, NULL) != 0) {
    db_rowcache_free(c->rows);
    free(c);
    return NULL;
  }
  if (pthread_mutex_init(&c->rlock, NULL) != 0) {
    pthread_mutex_destroy(&c->lock);
    db_rowcache_free(c->rows);
    free(c);
    return NULL;
  }
  pthread_mutex_init(&c->queue_lock, NULL);
  pthread_cond_init(&c->queued, NULL);
  c->queue_tail = &c->queue;
  return c;
}

/* What new_context made; the connections are closed already. */
static void free_context(struct db_sqlite *c)
{
  pthread_mutex_destroy(&c->lock);
  pthread_mutex_destroy(&c->rlock);
  pthread_mutex_destroy(&c->queue_lock);
  pthread_cond_destroy(&c->queued);
  db_rowcache_free(c->rows);
  free(c->path);
  free(c);
}

/* A clean stop leaves the whole database in the main file: the next start
 * (or a backup taken now) needs no WAL. On a full disk the copy cannot
 * grow the main file and fails; the WAL then stays, whole, and the next
 * start replays it (test_disk_full.c), so this only tells the operator. */
static void checkpoint_at_close(sqlite3 *db)
{
  int rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);

  if (rc != SQLITE_OK)
    log_line(LOG_WARN, "db",
             "checkpoint at close: %s (%d); the WAL is kept and replayed at the next start",
             sqlite3_errmsg(db), rc);
}

static void close_backend(void *ctx)
{
  struct db_sqlite *c = ctx;
  int rc;

  if (!c)
    return;
  /* Every queued append is committed and answered first. */
  db_sqlite_committer_stop(c);
  /* The cached statements (internal.h) go with their connections. */
  db_sqlite_checkpointer_stop(c->db, c->checkpointer);
  db_sqlite_finalize_all(c->rdb);
  sqlite3_close(c->rdb); /* first: a reader would hold the checkpoint back */
  /* Lets SQLite refresh the query planner's statistics where it sees a
   * need; its documentation asks long-lived connections to do this before
   * closing. Failure only costs plan quality. */
  sqlite3_exec(c->db, "PRAGMA optimize", NULL, NULL, NULL);
  checkpoint_at_close(c->db);
  /* With every statement finalized, a busy close is a leak in this
   * backend. */
  db_sqlite_finalize_all(c->db);
  rc = sqlite3_close(c->db);
  if (rc != SQLITE_OK)
    log_line(LOG_ERROR, "db", "closing: %s (%d)", sqlite3_errmsg(c->db), rc);
  free_context(c);
}

/* Run one PRAGMA (or another statement with a single value for an answer)
 * and return that answer as text in buf[size] (empty if it answers
 * nothing). Each runs once per connection, so none is cached. */
static enum cairn_status pragma(sqlite3 *db, const char *sql, char *buf, size_t size,
                                struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  const char *text;
  int rc;

  buf[0] = '\0';
  st = db_sqlite_prepare_once(db, sql, &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    text = (const char *)sqlite3_column_text(stmt, 0);
    snprintf(buf, size, "%s", text ? text : "");
    rc = sqlite3_step(stmt);
  }
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "configuring the database", err);

cleanup:
  sqlite3_finalize(stmt);
  return st;
}

/* Whether `db` is an in-memory database (":memory:", ""): no file, so no
 * WAL and no durability to lose. */
static bool in_memory(sqlite3 *db)
{
  const char *file = sqlite3_db_filename(db, "main");

  return file && !file[0];
}

/* The settings the rest of the backend takes for granted. */
static enum cairn_status configure(sqlite3 *db, struct cairn_error *err)
{
  enum cairn_status st;
  char answer[32];

  sqlite3_extended_result_codes(db, 1); /* tells a foreign-key failure from others */
  sqlite3_busy_timeout(db, DB_SQLITE_BUSY_MS);
  /* Refuse writes to the schema's internals even through SQL, so a bug or
   * a hostile string can never corrupt the file's structure. */
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);

  /* WAL lets readers carry on while a move commits, and makes each commit
   * one sequential append to the log file. */
  st = pragma(db, "PRAGMA journal_mode = WAL", answer, sizeof(answer), err);
  if (st != CAIRN_OK)
    return st;
  /* Anything but an in-memory database that is not in WAL mode is
   * refused. */
  if (strcmp(answer, "wal") != 0 && !(in_memory(db) && strcmp(answer, "memory") == 0)) {
    log_line(LOG_ERROR, "db", "journal_mode is %s, not wal", answer);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "the database could not be switched to WAL mode");
  }
  /* FULL: in WAL mode every COMMIT fsyncs the log, so a move is
   * acknowledged only once it would survive a power cut (NORMAL could lose
   * the last commits). */
  st = pragma(db, "PRAGMA synchronous = FULL", answer, sizeof(answer), err);
  if (st != CAIRN_OK)
    return st;
  st = pragma(db, "PRAGMA foreign_keys = ON", answer, sizeof(answer), err);
  if (st != CAIRN_OK)
    return st;
  /* The pragma is silently ignored by a build without foreign keys, and
   * the schema's integrity depends on them. */
  st = pragma(db, "PRAGMA foreign_keys", answer, sizeof(answer), err);
  if (st != CAIRN_OK)
    return st;
  if (strcmp(answer, "1") != 0) {
    log_line(LOG_ERROR, "db", "foreign keys unavailable in this SQLite build");
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "this SQLite build cannot enforce foreign keys");
  }
  return CAIRN_OK;
}

/* Without this, the last connection to close after a checkpoint deletes
 * the -wal, and the next start creates it again. Kept, it is reused in
 * place and left empty (the TRUNCATE checkpoint at close), so a clean stop
 * still leaves the whole database in the main file. (Before unix-excl,
 * internal.h, the -shm went the same way, and a start on a full disk could
 * not write a new one: SQLITE_IOERR_SHMSIZE, and no start at all. Now the
 * index lives in memory and there is no -shm.) */
static void keep_wal_files(sqlite3 *db)
{
  int keep = 1;

  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &keep);
}

/* Webhooks registered so far: the count webhooks.c keeps from here on. */
static enum cairn_status count_hooks(sqlite3 *db, long *out, struct cairn_error *err)
{
  char answer[32];
  enum cairn_status st = pragma(db, "SELECT count(*) FROM webhooks", answer, sizeof(answer), err);

  *out = atol(answer);
  return st;
}

/* SQLite counts every allocation under a global mutex for its memory
 * statistics, which nothing here reads: about a hundred mutex calls per move.
 * The switch only takes before the library initialises, hence once, first. */
static pthread_once_t library_configured = PTHREAD_ONCE_INIT;

static void configure_library(void)
{
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

enum cairn_status db_sqlite_open(const char *path, void **ctx, struct cairn_error *err)
{
  struct db_sqlite *c = NULL;
  sqlite3 *db = NULL;
  enum cairn_status st;
  long hooks = 0;
  int rc;

  *ctx = NULL;
  if (sqlite3_libversion_number() < DB_SQLITE_MIN_VERSION) {
    log_line(LOG_ERROR, "db", "SQLite %s is too old", sqlite3_libversion());
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "SQLite %s is older than 3.37.0, which the schema needs",
                      sqlite3_libversion());
  }
  /* Request threads share the connection under our lock, which is enough
   * unless the library was built with no thread support at all. */
  if (!sqlite3_threadsafe())
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "this SQLite build is not thread-safe");
  pthread_once(&library_configured, configure_library);

  rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                       DB_SQLITE_VFS);
  if (rc != SQLITE_OK) {
    log_line(LOG_ERROR, "db", "opening %s", path);
    st = db_sqlite_fail(db, rc, "opening the database", err);
    goto cleanup;
  }
  keep_wal_files(db);
  st = configure(db, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = db_sqlite_migrate(db, db_migrations, err);
  if (st == CAIRN_OK)
    st = db_sqlite_outbox_unclaim_all(db, err);
  if (st != CAIRN_OK)
    goto cleanup;

  st = count_hooks(db, &hooks, err);
  if (st != CAIRN_OK)
    goto cleanup;
  c = new_context();
  if (c && !in_memory(db) && !(c->path = strdup(path))) {
    free_context(c);
    c = NULL;
  }
  if (!c) {
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                    "out of memory while opening the database");
    goto cleanup;
  }
  atomic_store(&c->hooks, hooks);
  /* After the migrations, so the reader sees the final schema. */
  rc = sqlite3_open_v2(path, &c->rdb, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, DB_SQLITE_VFS);
  if (rc != SQLITE_OK) {
    st = db_sqlite_fail(c->rdb, rc, "opening the database for reading", err);
    sqlite3_close(c->rdb);
    free_context(c);
    goto cleanup;
  }
  sqlite3_busy_timeout(c->rdb, DB_SQLITE_BUSY_MS);
  if (!in_memory(db)) {
    st = db_sqlite_checkpointer_start(db, &c->lock, path, &c->checkpointer, err);
    if (st != CAIRN_OK) {
      sqlite3_close(c->rdb);
      free_context(c);
      goto cleanup;
    }
  }
  c->db = db;
  db = NULL; /* the backend owns it now */
  if (!db_sqlite_committer_start(c)) {
    close_backend(c);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "cannot start the group commit's thread");
  }
  *ctx = c;

cleanup:
  db_sqlite_finalize_all(db);
  sqlite3_close(db); /* accepts NULL; also frees the handle a failed open returns */
  return st;
}

/* The slots, each defined in the file for its rows (internal.h). */
const struct db_methods db_sqlite_methods = {
    .name = "sqlite",
    .close = close_backend,
    .player_create = db_sqlite_player_create,
    .player_by_token = db_sqlite_player_by_token,
    .game_create = db_sqlite_game_create,
    .game_load = db_sqlite_game_load,
    .seat_take = db_sqlite_seat_take,
    .stats = db_sqlite_stats,
    .backup_to = db_sqlite_backup_to,
    .move_append = db_sqlite_move_append,
    .move_append_async = db_sqlite_move_append_async,
    .moves_load = db_sqlite_moves_load,
    .moves_load_lean = db_sqlite_moves_load_lean,
    .game_import = db_sqlite_game_import,
    .player_games = db_sqlite_player_games,
    .games_unfinished_by = db_sqlite_games_unfinished_by,
    .game_touch = db_sqlite_game_touch,
    .games_overdue = db_sqlite_games_overdue,
    .clocks_load = db_sqlite_clocks_load,
    .clocks_save = db_sqlite_clocks_save,
    .vacation_add = db_sqlite_vacation_add,
    .vacations_of = db_sqlite_vacations_of,
    .webhook_create = db_sqlite_webhook_create,
    .webhooks_of_owner = db_sqlite_webhooks_of_owner,
    .webhooks_of_game = db_sqlite_webhooks_of_game,
    .webhook_delete = db_sqlite_webhook_delete,
    .webhook_get = db_sqlite_webhook_get,
    .mention_put = db_sqlite_mention_put,
    .mentions_of = db_sqlite_mentions_of,
    .delivery_record = db_sqlite_delivery_record,
    .deliveries_of = db_sqlite_deliveries_of,
    .games_each = db_sqlite_games_each,
    .games_active_each = db_sqlite_games_active_each,
    .outbox_put = db_sqlite_outbox_put,
    .outbox_remove = db_sqlite_outbox_remove,
    .outbox_each = db_sqlite_outbox_each,
    .token_add = db_sqlite_token_add,
    .tokens_replace = db_sqlite_tokens_replace,
    .sign_in_code_put = db_sqlite_sign_in_code_put,
    .sign_in_code_take = db_sqlite_sign_in_code_take,
    .outbox_claim = db_sqlite_outbox_claim,
    .outbox_renew = db_sqlite_outbox_renew,
    .outbox_release = db_sqlite_outbox_release,
    .games_bots_idle = db_sqlite_games_bots_idle,
    .games_lobby = db_sqlite_games_lobby,
    .invitations_of = db_sqlite_invitations_of,
    .invitation_decline = db_sqlite_invitation_decline,
    .games_archive = db_sqlite_games_archive,
    .game_cancel = db_sqlite_game_cancel,
    .chat_post = db_sqlite_chat_post,
    .chat_list = db_sqlite_chat_list,
    .chat_get = db_sqlite_chat_get,
    .chat_delete = db_sqlite_chat_delete,
    .ratings_of = db_sqlite_ratings_of,
    .leaderboard = db_sqlite_leaderboard,
    .ratings_each = db_sqlite_ratings_each,
    .rated_games_each = db_sqlite_rated_games_each,
    .player_get = db_sqlite_player_get,
};
