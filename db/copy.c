/*
 * copy.c - db_copy_store: every row of an embedded (SQLite) store into an
 * empty PostgreSQL database, for a community moving from one node to
 * several (`cairn migrate-db`, issue 23).
 *
 * The rows are copied as they are stored, not replayed through the slots:
 * players keep their ids and token hashes (so every bearer token goes on
 * working), games their seeds, seats, resignations and clocks, the log its
 * rows and chain hashes byte for byte, webhooks their secrets, deliveries
 * owed stay owed under the same delivery ids. Both schemas hold the same
 * columns under the same names (migrations/postgres/0001 mirrors SQLite's
 * 0001-0010); each store's own migrations are applied first (db_open), so
 * both are at this build's version. Columns a later PostgreSQL migration
 * adds keep their defaults.
 *
 * One PostgreSQL transaction holds the whole copy (COPY ... FROM STDIN per
 * table), so a failure leaves the target as empty as it was. The log's
 * trigger that wants each new row to extend its game's move count cannot
 * hold while whole games arrive at once, so it is disabled inside the
 * transaction and the copy checks instead, before committing, that every
 * game's log is dense and as long as its row says. The SQLite file is read
 * in one read transaction: a consistent snapshot.
 */
#include "db.h"

#include "../log/log.h"
#include "postgres/internal.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A table to copy: its columns (the same in both schemas), in an order
 * that keeps every foreign key satisfied. Identity columns (deliveries.id,
 * vacations.id) are left to PostgreSQL; `order` keeps their rows in the
 * order SQLite numbered them, so the newest stays the newest. */
static const struct copied_table {
  const char *name;
  const char *columns;
  const char *order;
} copied_tables[DB_COPY_TABLES] = {
    {"players", "id, name, token_hash, created_ms", "rowid"},
    {"games",
     "id, title, rules_version, options_json, seed, seats, creator, created_ms, status, seq, moves,"
     " result_json, updated_ms, move_ms, on_timeout, base_ms, increment_ms, cap_ms, chain_format,"
     " imported, signer, signature",
     "rowid"},
    {"seats", "game_id, seat, player_id, joined_ms, resigned", "game_id, seat"},
    {"imported_seats", "game_id, seat, claimed_id, name", "game_id, seat"},
    {"invitations", "game_id, seat, player_id", "game_id, seat"}, /* issue 25 */
    {"moves", "game_id, ord, seq, seat, move_json, events_json, at_ms, hash", "game_id, ord"},
    {"webhooks", "id, owner, game_id, url, format, mention, secret, created_ms", "rowid"},
    {"deliveries", "webhook_id, event, game_id, attempt, at_ms, http_status, error, delivered",
     "id"},
    {"clocks", "game_id, seat, bank_ms, since_ms, deadline_ms", "game_id, seat"},
    {"vacations", "player_id, start_ms, end_ms", "id"},
    {"webhook_outbox", "delivery_id, webhook_id, event, game_id, body, attempt, due_ms", "due_ms"},
    {"tokens", "token_hash, player_id, created_ms", "rowid"},
    {"sign_in_codes", "code_hash, player_id, expires_ms", "rowid"},
    {"webhook_mentions", "webhook_id, player_id, handle", "webhook_id, player_id"},
    /* Issue 25: chat, ratings (their doubles exact: put_value's REAL case)
     * and the end order, renumbered by PostgreSQL in the same order. */
    {"chat_messages", "id, game_id, channel, n, author, author_name, text, at_ms, deleted_ms",
     "rowid"},
    {"ratings", "title, player, mu, sigma, ordinal, games, wins, draws, losses, updated_ms",
     "title, player"},
    {"rated_games", "game_id, at_ms", "ord"},
};

/* A COPY stream's pending bytes: rows are sent a block at a time. */
#define COPY_BLOCK (64 * 1024)
struct copy_buffer {
  char bytes[COPY_BLOCK + 8];
  size_t n;
};

static enum cairn_status copy_failed(PGconn *pg, const char *table, struct cairn_error *err)
{
  log_line(LOG_ERROR, "db", "copying %s: %s", table, pg ? PQerrorMessage(pg) : "");
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "storage failed while copying table %s; the target was left unchanged", table);
}

static enum cairn_status flush(PGconn *pg, struct copy_buffer *b, const char *table,
                               struct cairn_error *err)
{
  if (b->n && PQputCopyData(pg, b->bytes, (int)b->n) != 1)
    return copy_failed(pg, table, err);
  b->n = 0;
  return CAIRN_OK;
}

/* Append one byte, sending the block when it is full. */
static enum cairn_status put(PGconn *pg, struct copy_buffer *b, char c, const char *table,
                             struct cairn_error *err)
{
  b->bytes[b->n++] = c;
  return b->n >= COPY_BLOCK ? flush(pg, b, table, err) : CAIRN_OK;
}

static enum cairn_status put_text(PGconn *pg, struct copy_buffer *b, const char *s,
                                  const char *table, struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;

  for (; *s && st == CAIRN_OK; s++)
    st = put(pg, b, *s, table, err);
  return st;
}

/* One value in COPY's text format: \N for NULL, bytes as bytea's hex
 * input ("\x..", its backslash doubled for COPY), text with COPY's own
 * escapes for the characters that would end a field or a row. */
static enum cairn_status put_value(PGconn *pg, struct copy_buffer *b, sqlite3_stmt *row, int col,
                                   const char *table, struct cairn_error *err)
{
  static const char hex[] = "0123456789abcdef";
  enum cairn_status st = CAIRN_OK;
  char number[32];

  switch (sqlite3_column_type(row, col)) {
  case SQLITE_NULL:
    return put_text(pg, b, "\\N", table, err);
  case SQLITE_INTEGER:
    snprintf(number, sizeof(number), "%lld", (long long)sqlite3_column_int64(row, col));
    return put_text(pg, b, number, table, err);
  case SQLITE_FLOAT: /* a rating (issue 25): 17 digits read back as the same double */
    snprintf(number, sizeof(number), "%.17g", sqlite3_column_double(row, col));
    return put_text(pg, b, number, table, err);
  case SQLITE_BLOB: {
    const unsigned char *bytes = sqlite3_column_blob(row, col);
    int n = sqlite3_column_bytes(row, col);

    st = put_text(pg, b, "\\\\x", table, err);
    for (int i = 0; i < n && st == CAIRN_OK; i++) {
      st = put(pg, b, hex[bytes[i] >> 4], table, err);
      if (st == CAIRN_OK)
        st = put(pg, b, hex[bytes[i] & 15], table, err);
    }
    return st;
  }
  default: { /* TEXT */
    const char *s = (const char *)sqlite3_column_text(row, col);

    for (; s && *s && st == CAIRN_OK; s++) {
      const char *escaped = *s == '\\'   ? "\\\\"
                            : *s == '\n' ? "\\n"
                            : *s == '\r' ? "\\r"
                            : *s == '\t' ? "\\t"
                                         : NULL;

      st = escaped ? put_text(pg, b, escaped, table, err) : put(pg, b, *s, table, err);
    }
    return st;
  }
  }
}

static enum cairn_status sqlite_failed(sqlite3 *db, const char *what, struct cairn_error *err)
{
  log_line(LOG_ERROR, "db", "%s: %s", what, sqlite3_errmsg(db));
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "reading the SQLite store failed while %s", what);
}

/* Stream the rows of `select` into the COPY that `pg` has open. */
static enum cairn_status stream_rows(sqlite3 *src, PGconn *pg, const char *table,
                                     const char *select, long *rows, struct cairn_error *err)
{
  struct copy_buffer *b = malloc(sizeof(*b));
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st = CAIRN_OK;
  int rc;

  if (!b)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  b->n = 0;
  if (sqlite3_prepare_v2(src, select, -1, &stmt, NULL) != SQLITE_OK) {
    free(b);
    return sqlite_failed(src, table, err);
  }
  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int col = 0; col < sqlite3_column_count(stmt) && st == CAIRN_OK; col++) {
      if (col > 0)
        st = put(pg, b, '\t', table, err);
      if (st == CAIRN_OK)
        st = put_value(pg, b, stmt, col, table, err);
    }
    if (st == CAIRN_OK)
      st = put(pg, b, '\n', table, err);
    (*rows)++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = sqlite_failed(src, table, err);
  if (st == CAIRN_OK)
    st = flush(pg, b, table, err);
  sqlite3_finalize(stmt);
  free(b);
  return st;
}

/* Copy one table: COPY ... FROM STDIN fed from a SELECT of the same
 * columns, then PostgreSQL's own count of the rows it took. */
static enum cairn_status copy_table(sqlite3 *src, PGconn *pg, const struct copied_table *t,
                                    long *rows, struct cairn_error *err)
{
  char sql[1024];
  PGresult *res;
  enum cairn_status st;

  snprintf(sql, sizeof(sql), "COPY %s (%s) FROM STDIN", t->name, t->columns);
  res = PQexec(pg, sql);
  if (PQresultStatus(res) != PGRES_COPY_IN) {
    PQclear(res);
    return copy_failed(pg, t->name, err);
  }
  PQclear(res);
  snprintf(sql, sizeof(sql), "SELECT %s FROM %s ORDER BY %s", t->columns, t->name, t->order);
  st = stream_rows(src, pg, t->name, sql, rows, err);
  if (PQputCopyEnd(pg, st == CAIRN_OK ? NULL : "the source could not be read") != 1 &&
      st == CAIRN_OK)
    st = copy_failed(pg, t->name, err);
  while ((res = PQgetResult(pg))) {
    if (PQresultStatus(res) != PGRES_COMMAND_OK && st == CAIRN_OK)
      st = copy_failed(pg, t->name, err);
    PQclear(res);
  }
  return st;
}

/* A single integer a query answers (a count). */
static enum cairn_status query_count(PGconn *pg, const char *sql, long *out,
                                     struct cairn_error *err)
{
  PGresult *res = NULL;
  enum cairn_status st = db_pg_exec(pg, sql, NULL, &res, NULL, "checking the copy", err);

  if (st == CAIRN_OK)
    *out = (long)db_pg_int64(res, 0, 0);
  PQclear(res);
  return st;
}

/* The target must hold no player and no game: the copy fills a new
 * database, it never merges two communities' ids. */
static enum cairn_status check_empty(PGconn *pg, struct cairn_error *err)
{
  long n = 0;
  enum cairn_status st = query_count(
      pg, "SELECT (SELECT count(*) FROM players) + (SELECT count(*) FROM games)", &n, err);

  if (st == CAIRN_OK && n > 0)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_BAD_VALUE, "to",
                    "the target database already holds players or games: migrate-db fills an "
                    "empty one, and nothing was copied");
  return st;
}

/* Every game's log is dense from 0 and as long as its row says: what the
 * disabled trigger would have checked row by row. */
static enum cairn_status check_logs(PGconn *pg, struct cairn_error *err)
{
  long bad = 0;
  enum cairn_status st =
      query_count(pg,
                  "SELECT count(*) FROM games g WHERE g.moves <>"
                  " (SELECT count(*) FROM moves m WHERE m.game_id = g.id)"
                  " OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.ord >= g.moves)",
                  &bad, err);

  if (st == CAIRN_OK && bad > 0)
    st = cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "%ld games' logs do not match their rows in the source; nothing was copied",
                    bad);
  return st;
}

static enum cairn_status copy_all(sqlite3 *src, PGconn *pg, struct db_copy_counts *out,
                                  struct cairn_error *err)
{
  enum cairn_status st;
  long n;

  /* Two copies into one database wait for each other; the second then
   * finds it full. */
  st = db_pg_run(pg, "SELECT pg_advisory_xact_lock(6513212993645047918)", NULL,
                 "locking the target", err);
  if (st == CAIRN_OK)
    st = check_empty(pg, err);
  if (st == CAIRN_OK)
    st = db_pg_run(pg, "ALTER TABLE moves DISABLE TRIGGER moves_dense", NULL, "preparing the log",
                   err);
  for (int i = 0; i < DB_COPY_TABLES && st == CAIRN_OK; i++) {
    char sql[128];

    out->table[i] = copied_tables[i].name;
    st = copy_table(src, pg, &copied_tables[i], &out->rows[i], err);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", copied_tables[i].name);
    if (st == CAIRN_OK)
      st = query_count(pg, sql, &n, err);
    if (st == CAIRN_OK && n != out->rows[i])
      st =
          cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                     "table %s: %ld rows read, %ld stored", copied_tables[i].name, out->rows[i], n);
  }
  if (st == CAIRN_OK)
    st = db_pg_run(pg, "ALTER TABLE moves ENABLE TRIGGER moves_dense", NULL, "restoring the log",
                   err);
  if (st == CAIRN_OK)
    st = check_logs(pg, err);
  return st;
}

/* Apply the store's pending migrations, so both schemas are this build's. */
static enum cairn_status migrate(const char *url, struct cairn_error *err)
{
  struct db *db = NULL;
  enum cairn_status st = db_open(url, &db, err);

  db_close(db);
  return st;
}

static bool is_postgres_url(const char *url)
{
  return strncmp(url, "postgres://", 11) == 0 || strncmp(url, "postgresql://", 13) == 0;
}

enum cairn_status db_copy_store(const char *from_url, const char *to_url,
                                struct db_copy_counts *out, struct cairn_error *err)
{
  char path[4096];
  sqlite3 *src = NULL;
  PGconn *pg = NULL;
  enum cairn_status st;

  memset(out, 0, sizeof(*out));
  if (!db_local_file(from_url, path, sizeof(path)))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "from",
                      "the source must be an SQLite store's file");
  if (!is_postgres_url(to_url))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "to",
                      "the target must be a postgres:// or postgresql:// URL");
  st = migrate(from_url, err);
  if (st == CAIRN_OK)
    st = migrate(to_url, err);
  if (st != CAIRN_OK)
    return st;
  if (sqlite3_open_v2(path, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
      sqlite3_exec(src, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
    st = sqlite_failed(src, "opening it", err);
    sqlite3_close(src);
    return st;
  }
  st = db_pg_connect(to_url, &pg, err);
  if (st == CAIRN_OK)
    st = db_pg_begin(pg, err);
  if (st == CAIRN_OK)
    st = copy_all(src, pg, out, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(pg, err);
  else if (pg)
    db_pg_rollback(pg);
  PQfinish(pg);
  sqlite3_exec(src, "COMMIT", NULL, NULL, NULL);
  sqlite3_close(src);
  return st;
}
