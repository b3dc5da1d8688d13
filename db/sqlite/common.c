/*
 * common.c - the plumbing the query files share: the connection lock,
 * the statement cache, transactions, copying columns out, and turning
 * SQLite's results into a cairn_status. SQLite's message goes to the server
 * log (stderr) only; err->detail, which a client may see, says what failed
 * in our terms.
 */
#include "internal.h"
#include "../../log/log.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void db_sqlite_lock(struct db_sqlite *c)
{
  int rc = pthread_mutex_lock(&c->lock);

  /* A default mutex fails only when misused (uninitialised, destroyed). */
  assert(rc == 0);
  (void)rc;
}

void db_sqlite_unlock(struct db_sqlite *c)
{
  int rc = pthread_mutex_unlock(&c->lock);

  assert(rc == 0);
  (void)rc;
}

void db_sqlite_rlock(struct db_sqlite *c)
{
  pthread_mutex_lock(&c->rlock);
}

void db_sqlite_runlock(struct db_sqlite *c)
{
  pthread_mutex_unlock(&c->rlock);
}

void db_sqlite_forget_game(struct db_sqlite *c, const char *game_id)
{
  db_sqlite_rlock(c);
  db_rowcache_game_forget(c->rows, game_id);
  db_sqlite_runlock(c);
}

enum cairn_status db_sqlite_fail(sqlite3 *db, int rc, const char *what, struct cairn_error *err)
{
  log_line(LOG_ERROR, "db", "%s: %s (%s, %d)", what, db ? sqlite3_errmsg(db) : "no connection",
           sqlite3_errstr(rc), rc);
  if ((rc & 0xff) == SQLITE_NOMEM)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory while %s",
                      what);
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "storage failed while %s; nothing was changed", what);
}

enum cairn_status db_sqlite_step_one(sqlite3 *db, sqlite3_stmt *stmt, const char *thing,
                                     const char *id, const char *doing, struct cairn_error *err)
{
  int rc = sqlite3_step(stmt);

  if (rc == SQLITE_ROW)
    return CAIRN_OK;
  if (rc == SQLITE_DONE)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no %s %s", thing, id);
  return db_sqlite_fail(db, rc, doing, err);
}

/*
 * The statement cache is SQLite's own list of a connection's statements
 * (sqlite3_next_stmt), searched by text. The backend has a fixed set of a
 * few dozen texts, so walking the list with strcmp costs far less than the
 * parse it saves, and there is no table of ours to size, to find from the
 * bare sqlite3 * every caller passes, or to keep in step with what SQLite
 * holds: a statement is in the cache exactly while it exists. A statement
 * is idle when not stepped since its last reset, which db_sqlite_release
 * does; a busy one (a caller's, or an outer query still walking its rows)
 * is passed over and a second copy prepared, so nesting costs a statement
 * rather than a clash. The one case the walk cannot see is a statement
 * bound but not yet stepped, or stepped to its end but not released: the
 * query files never prepare a text while holding the same one.
 */
static int cached(sqlite3 *db, const char *sql, sqlite3_stmt **out)
{
  sqlite3_stmt *stmt;
  const char *text;
  const char *tail = NULL;
  int rc;

  for (stmt = sqlite3_next_stmt(db, NULL); stmt; stmt = sqlite3_next_stmt(db, stmt)) {
    text = sqlite3_sql(stmt);
    if (!sqlite3_stmt_busy(stmt) && text && strcmp(text, sql) == 0) {
      *out = stmt;
      return SQLITE_OK;
    }
  }
  /* PERSISTENT: the statement lives until close, so SQLite keeps it out
   * of the short-lived lookaside memory. */
  rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, &tail);
  /* One statement per text: SQLite keeps only the first one's text, which
   * would never match `sql` again, and the rest would never run. */
  assert(rc != SQLITE_OK || !tail || !*tail);
  return rc;
}

enum cairn_status db_sqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out,
                                    struct cairn_error *err)
{
  int rc;

  *out = NULL;
  rc = cached(db, sql, out);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*out);
    *out = NULL;
    return db_sqlite_fail(db, rc, "preparing a statement", err);
  }
  return CAIRN_OK;
}

void db_sqlite_release(sqlite3_stmt *stmt)
{
  /* reset repeats the last step's error, which its caller has handled. It
   * ends the read transaction of a query stopped before its last row, which
   * would otherwise pin the reader's snapshot and hold back checkpoints;
   * clearing drops the pointers to the caller's buffers that STATIC
   * bindings keep. */
  if (!stmt)
    return; /* clear_bindings, unlike reset, does not accept NULL */
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
}

enum cairn_status db_sqlite_prepare_once(sqlite3 *db, const char *sql, sqlite3_stmt **out,
                                         struct cairn_error *err)
{
  int rc;

  *out = NULL;
  rc = sqlite3_prepare_v2(db, sql, -1, out, NULL);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*out);
    *out = NULL;
    return db_sqlite_fail(db, rc, "preparing a statement", err);
  }
  return CAIRN_OK;
}

void db_sqlite_finalize_all(sqlite3 *db)
{
  sqlite3_stmt *stmt;

  if (!db)
    return;
  while ((stmt = sqlite3_next_stmt(db, NULL)))
    sqlite3_finalize(stmt);
}

int db_sqlite_exec(sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = cached(db, sql, &stmt);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return rc;
  }
  rc = sqlite3_step(stmt);
  db_sqlite_release(stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

enum cairn_status db_sqlite_begin(sqlite3 *db, bool write, struct cairn_error *err)
{
  int rc = db_sqlite_exec(db, write ? "BEGIN IMMEDIATE" : "BEGIN");

  if (rc != SQLITE_OK)
    return db_sqlite_fail(db, rc, "starting a transaction", err);
  return CAIRN_OK;
}

enum cairn_status db_sqlite_commit(sqlite3 *db, struct cairn_error *err)
{
  int rc = db_sqlite_exec(db, "COMMIT");

  if (rc != SQLITE_OK)
    return db_sqlite_fail(db, rc, "committing", err);
  return CAIRN_OK;
}

void db_sqlite_rollback(sqlite3 *db)
{
  int rc;

  if (sqlite3_get_autocommit(db))
    return; /* no transaction open: never began, committed, or SQLite ended it */
  rc = db_sqlite_exec(db, "ROLLBACK");
  if (rc != SQLITE_OK)
    log_line(LOG_ERROR, "db", "rolling back: %s (%d)", sqlite3_errmsg(db), rc);
}

/* The text of a column, its length in bytes in *len; NULL for SQL NULL.
 * For any other value a NULL from sqlite3_column_text means converting it
 * ran out of memory. */
static enum cairn_status column_text(sqlite3_stmt *stmt, int col, const char **text, size_t *len,
                                     const char *what, struct cairn_error *err)
{
  *text = NULL;
  *len = 0;
  if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
    return CAIRN_OK;
  *text = (const char *)sqlite3_column_text(stmt, col);
  if (!*text)
    return db_sqlite_fail(sqlite3_db_handle(stmt), SQLITE_NOMEM, what, err);
  *len = (size_t)sqlite3_column_bytes(stmt, col);
  return CAIRN_OK;
}

enum cairn_status db_sqlite_column_copy(sqlite3_stmt *stmt, int col, char *buf, size_t size,
                                        const char *what, struct cairn_error *err)
{
  const char *text;
  size_t len;
  enum cairn_status st;

  assert(size > 0);
  buf[0] = '\0';
  st = column_text(stmt, col, &text, &len, what, err);
  if (st != CAIRN_OK)
    return st;
  if (!text || len >= size) {
    log_line(LOG_ERROR, "db", "%s: column %s is %s", what, sqlite3_column_name(stmt, col),
             text ? "longer than its buffer" : "NULL");
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "storage holds an unreadable row while %s", what);
  }
  memcpy(buf, text, len + 1);
  return CAIRN_OK;
}

enum cairn_status db_sqlite_column_dup(sqlite3_stmt *stmt, int col, char **out, const char *what,
                                       struct cairn_error *err)
{
  const char *text;
  size_t len;
  enum cairn_status st;

  *out = NULL;
  st = column_text(stmt, col, &text, &len, what, err);
  if (st != CAIRN_OK || !text)
    return st;
  *out = malloc(len + 1);
  if (!*out)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory while %s",
                      what);
  memcpy(*out, text, len + 1);
  return CAIRN_OK;
}

enum cairn_status db_sqlite_game_status(sqlite3 *db, const char *game_id, char *status, size_t size,
                                        int *seats, uint32_t *moves, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;

  st = db_sqlite_prepare(db, "SELECT status, seats, moves FROM games WHERE id = ?1", &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  st = db_sqlite_step_one(db, stmt, "game", game_id, "reading a game", err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = db_sqlite_column_copy(stmt, 0, status, size, "reading a game", err);
  if (seats)
    *seats = sqlite3_column_int(stmt, 1);
  if (moves)
    *moves = (uint32_t)sqlite3_column_int64(stmt, 2); /* the schema keeps it within uint32_t */

cleanup:
  db_sqlite_release(stmt);
  return st;
}
