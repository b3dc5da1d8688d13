/*
 * backup.c - an online backup of the SQLite store: `VACUUM INTO` on a
 * connection of its own, reading one snapshot of the database (WAL mode:
 * a read transaction sees the last commit before it began and never blocks
 * the writer, nor is blocked by it), while moves keep being committed.
 *
 * Why not sqlite3_backup_step: a backup by steps restarts from its first
 * page whenever another connection writes to the source, so under a steady
 * stream of moves it would never finish. VACUUM INTO copies one snapshot in
 * one statement, and the copy is compact (no free pages). The file is
 * owned by this process (DB_SQLITE_VFS), so the backup runs here, asked
 * for over HTTP (api/admin.c), not in another process.
 */
#include "internal.h"

enum cairn_status db_sqlite_backup_to(void *ctx, const char *path, struct cairn_error *err)
{
  static const char what[] = "backing up the database";
  struct db_sqlite *c = ctx;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st = CAIRN_OK;
  int rc;

  if (!c->path) {
    /* In memory: only the reader's connection sees the data. */
    db_sqlite_rlock(c);
    db = c->rdb;
  } else {
    rc = sqlite3_open_v2(c->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, DB_SQLITE_VFS);
    if (rc != SQLITE_OK) {
      st = db_sqlite_fail(db, rc, what, err);
      sqlite3_close(db);
      return st;
    }
    sqlite3_busy_timeout(db, DB_SQLITE_BUSY_MS);
  }
  rc = sqlite3_prepare_v2(db, "VACUUM INTO ?1", -1, &stmt, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, path, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
  }
  if (rc != SQLITE_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, what, err);
  sqlite3_finalize(stmt);
  if (!c->path)
    db_sqlite_runlock(c);
  else
    sqlite3_close(db);
  return st;
}
