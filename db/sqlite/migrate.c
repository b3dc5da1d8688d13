/*
 * migrate.c - bringing a database's schema up to the one this binary was
 * built with, at start-up, from the migrations compiled in by build.mk.
 *
 * schema_version holds the number of the last migration applied. Each
 * pending migration runs in its own write transaction together with the
 * update of schema_version, so a crash or a failing migration leaves the
 * database exactly at the previous version, never half-way. The version is
 * read again inside each transaction, so two servers starting on the same
 * file at once do not apply a migration twice.
 *
 * A database newer than the binary (a downgrade after an upgrade) is
 * refused: this code cannot know what a later migration changed, and
 * writing to such a schema could break data the newer server relies on.
 *
 * Migrations run with foreign_keys on (set at open, and SQLite ignores the
 * pragma inside a transaction). A future migration that rebuilds a table
 * must therefore create the new table, copy, drop and rename in an order
 * the keys accept, or be split so that the runner can turn keys off around
 * it; that need has not arisen yet.
 */
#include "internal.h"

#include "../verdict.h"
#include "../../log/log.h"

#include <stdio.h>

enum cairn_status db_sqlite_schema_version(sqlite3 *db, int *out, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  *out = 0;
  /* Before migration 1 there is no schema_version table to read. */
  st = db_sqlite_prepare_once(db,
                              "SELECT count(*) FROM sqlite_master"
                              " WHERE type = 'table' AND name = 'schema_version'",
                              &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_ROW) {
    st = db_sqlite_fail(db, rc, "reading the schema version", err);
    goto cleanup;
  }
  if (sqlite3_column_int(stmt, 0) == 0)
    goto cleanup;
  sqlite3_finalize(stmt);
  stmt = NULL;

  st = db_sqlite_prepare_once(db, "SELECT version FROM schema_version WHERE id = 1", &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE) {
    /* The runner writes the row in the transaction that creates the table,
     * so an empty table means someone edited the file by hand. */
    log_line(LOG_ERROR, "db", "schema_version exists but holds no row");
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "the database has a schema_version table without a version");
    goto cleanup;
  }
  if (rc != SQLITE_ROW) {
    st = db_sqlite_fail(db, rc, "reading the schema version", err);
    goto cleanup;
  }
  *out = sqlite3_column_int(stmt, 0);

cleanup:
  sqlite3_finalize(stmt);
  return st;
}

static enum cairn_status set_version(sqlite3 *db, int version, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare_once(db,
                              "INSERT INTO schema_version (id, version) VALUES (1, ?1)"
                              " ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                              &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_int(stmt, 1, version);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "recording the schema version", err);

cleanup:
  sqlite3_finalize(stmt);
  return st;
}

/* Apply `m` if the database is not yet at its number. */
static enum cairn_status apply(sqlite3 *db, const struct db_migration *m, int known,
                               struct cairn_error *err)
{
  char *msg = NULL;
  enum cairn_status st;
  int current;
  int rc;

  st = db_sqlite_begin(db, true, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = db_sqlite_schema_version(db, &current, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (current > known) {
    st = db_verdict_newer_schema(current, known, err);
    goto cleanup;
  }
  if (current >= m->number)
    goto cleanup; /* applied already, perhaps by another process just now */

  rc = sqlite3_exec(db, m->sql, NULL, NULL, &msg);
  if (rc != SQLITE_OK) {
    log_line(LOG_ERROR, "db", "migration %s failed: %s (%d)", m->name, msg ? msg : "", rc);
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "migration %s failed; the database stays at schema version %d", m->name,
                    current);
    goto cleanup;
  }
  st = set_version(db, m->number, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = db_sqlite_commit(db, err);
  if (st == CAIRN_OK)
    log_line(LOG_INFO, "db", "applied migration %s", m->name);

cleanup:
  sqlite3_free(msg);
  /* Also ends the transaction when the migration was applied already. */
  db_sqlite_rollback(db);
  return st;
}

enum cairn_status db_sqlite_migrate(sqlite3 *db, const struct db_migration *list,
                                    struct cairn_error *err)
{
  const struct db_migration *m;
  enum cairn_status st;
  int known = 0;
  int current;

  /* build.mk sorts by file name; a misnumbered file would apply out of
   * order or be skipped for good, so refuse to start instead. */
  for (m = list; m->number; m++) {
    if (m->number <= known || !m->sql)
      return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                        "migration %s is out of order (after number %d)", m->name ? m->name : "?",
                        known);
    known = m->number;
  }

  /* Checked before the loop too, so a newer database is refused even when
   * every compiled-in migration would be skipped. */
  st = db_sqlite_schema_version(db, &current, err);
  if (st != CAIRN_OK)
    return st;
  if (current > known)
    return db_verdict_newer_schema(current, known, err);

  for (m = list; m->number; m++) {
    if (m->number <= current)
      continue;
    st = apply(db, m, known, err);
    if (st != CAIRN_OK)
      break;
  }
  /* apply's BEGIN, COMMIT and ROLLBACK came from the statement cache.
   * Migrations run once, so keeping them buys nothing, and dropping them
   * hands the connection back as it came: a caller may close it plainly. */
  db_sqlite_finalize_all(db);
  return st;
}
