/*
 * migrate.c - bringing a PostgreSQL database's schema up to the one this
 * binary was built with, at start-up, from the migrations compiled in by
 * build.mk (migrations/postgres/).
 *
 * As for SQLite (db/sqlite/migrate.c), schema_version holds the number of
 * the last migration applied, and each pending migration runs in its own
 * transaction together with the update of schema_version. Several nodes may
 * start on one database at once, so each transaction first takes a
 * transaction-scoped advisory lock (pg_advisory_xact_lock, released by the
 * COMMIT or ROLLBACK) and only then reads the version: the second node
 * waits for the first's commit, sees the migration applied and skips it.
 * DDL is transactional in PostgreSQL, so a failing migration leaves the
 * database exactly at the previous version.
 *
 * A database newer than the binary is refused, as for SQLite.
 */
#include "internal.h"

#include "../verdict.h"
#include "../../log/log.h"

#include <stdio.h>

/* The version recorded in the database, 0 before the first migration.
 * Call inside the transaction holding the advisory lock. */
static enum cairn_status read_version(PGconn *conn, int *out, struct cairn_error *err)
{
  static const char what[] = "reading the schema version";
  PGresult *res = NULL;
  enum cairn_status st;

  *out = 0;
  st = db_pg_exec(conn, "SELECT to_regclass('schema_version') IS NOT NULL", NULL, &res, NULL, what,
                  err);
  if (st != CAIRN_OK || !db_pg_bool(res, 0, 0)) {
    PQclear(res);
    return st;
  }
  PQclear(res);
  st = db_pg_exec(conn, "SELECT version FROM schema_version WHERE id = 1", NULL, &res, NULL, what,
                  err);
  if (st == CAIRN_OK && PQntuples(res) == 0) {
    /* Written in the transaction that creates the table: an empty one was
     * edited by hand. */
    log_line(LOG_ERROR, "db", "schema_version exists but holds no row");
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "the database has a schema_version table without a version");
  }
  if (st == CAIRN_OK)
    *out = (int)db_pg_int64(res, 0, 0);
  PQclear(res);
  return st;
}

/* The migration's statements: several in one text, which only the simple
 * query protocol (PQexec, no parameters) accepts. The text is the
 * binary's own, never a value from outside. */
static enum cairn_status run_script(PGconn *conn, const struct db_pg_migration *m, int current,
                                    struct cairn_error *err)
{
  PGresult *res = PQexec(conn, m->sql);
  enum cairn_status st = CAIRN_OK;

  if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK) {
    log_line(LOG_ERROR, "db", "migration %s failed: %s", m->name, PQerrorMessage(conn));
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "migration %s failed; the database stays at schema version %d", m->name,
                    current);
  }
  PQclear(res);
  return st;
}

/* Apply `m` unless the database is at its number already. */
static enum cairn_status apply(PGconn *conn, const struct db_pg_migration *m, int known,
                               struct cairn_error *err)
{
  struct db_pg_params p = {0};
  enum cairn_status st;
  int current = 0;

  st = db_pg_begin(conn, err);
  db_pg_int(&p, DB_PG_MIGRATION_LOCK);
  if (st == CAIRN_OK)
    st = db_pg_run(conn, "SELECT pg_advisory_xact_lock($1::bigint)", &p,
                   "waiting for another node's migration", err);
  if (st == CAIRN_OK)
    st = read_version(conn, &current, err);
  if (st == CAIRN_OK && current > known)
    st = db_verdict_newer_schema(current, known, err);
  if (st != CAIRN_OK || current >= m->number) {
    db_pg_rollback(conn); /* applied already, perhaps by another node just now */
    return st;
  }
  st = run_script(conn, m, current, err);
  p = (struct db_pg_params){0};
  db_pg_int(&p, m->number);
  if (st == CAIRN_OK)
    st = db_pg_run(conn,
                   "INSERT INTO schema_version (id, version) VALUES (1, $1)"
                   " ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                   &p, "recording the schema version", err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  if (st == CAIRN_OK)
    log_line(LOG_INFO, "db", "applied migration %s", m->name);
  db_pg_rollback(conn);
  return st;
}

enum cairn_status db_pg_migrate(PGconn *conn, const struct db_pg_migration *list,
                                struct cairn_error *err)
{
  const struct db_pg_migration *m;
  enum cairn_status st = CAIRN_OK;
  int known = 0;

  /* build.mk sorts by file name; a misnumbered file would apply out of
   * order or be skipped for good, so refuse to start instead. */
  for (m = list; m->number; m++) {
    if (m->number <= known || !m->sql)
      return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                        "migration %s is out of order (after number %d)", m->name ? m->name : "?",
                        known);
    known = m->number;
  }
  for (m = list; st == CAIRN_OK && m->number; m++)
    st = apply(conn, m, known, err);
  return st;
}
