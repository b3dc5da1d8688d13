/*
 * conn.c - the plumbing of the PostgreSQL backend: the pool of
 * connections, running a statement with its parameters, transactions,
 * reading a result's text, and turning libpq's failures into statuses
 * (internal.h has each contract).
 */
#include "internal.h"
#include "../../log/log.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One log line per failure: libpq's message spans lines (ERROR, DETAIL,
 * HINT) and ends with a newline, so its line breaks become "; " (the
 * log's JSON would escape them, but one line reads better). */
static void log_failure(const char *what, const char *message)
{
  char flat[1024];
  size_t n = 0;

  for (size_t i = 0; message[i] && n + 3 < sizeof(flat); i++) {
    if (message[i] == '\n') {
      flat[n++] = ';';
      flat[n++] = ' ';
    } else {
      flat[n++] = message[i];
    }
  }
  while (n > 0 && (flat[n - 1] == ' ' || flat[n - 1] == ';'))
    n--;
  flat[n] = '\0';
  log_line(LOG_ERROR, "db", "%s: %s", what, flat);
}

static enum cairn_status storage_failed(const char *what, struct cairn_error *err)
{
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "storage failed while %s; nothing was changed", what);
}

/* Notices (a DROP of what is not there, ...) are not the log's business. */
static void ignore_notice(void *arg, const char *message)
{
  (void)arg;
  (void)message;
}

enum cairn_status db_pg_connect(const char *conninfo, PGconn **out, struct cairn_error *err)
{
  PGconn *conn = PQconnectdb(conninfo);

  *out = NULL;
  if (!conn)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while connecting to the database");
  if (PQstatus(conn) != CONNECTION_OK) {
    log_failure("connecting", PQerrorMessage(conn));
    PQfinish(conn);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "the database server cannot be reached");
  }
  PQsetNoticeProcessor(conn, ignore_notice, NULL);
  *out = conn;
  return CAIRN_OK;
}

/* A connection that is usable now: a broken one is reset (the server
 * restarted, a network hiccup) before it is lent again. */
static enum cairn_status usable(PGconn *conn, struct cairn_error *err)
{
  if (PQstatus(conn) == CONNECTION_OK)
    return CAIRN_OK;
  PQreset(conn);
  if (PQstatus(conn) == CONNECTION_OK)
    return CAIRN_OK;
  log_failure("reconnecting", PQerrorMessage(conn));
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "the database server cannot be reached");
}

enum cairn_status db_pg_acquire(struct db_pg *c, PGconn **out, struct cairn_error *err)
{
  enum cairn_status st;
  PGconn *conn = NULL;

  *out = NULL;
  pthread_mutex_lock(&c->lock);
  while (c->n_idle == 0 && c->n_open >= DB_PG_POOL_MAX)
    pthread_cond_wait(&c->freed, &c->lock);
  if (c->n_idle > 0)
    conn = c->idle[--c->n_idle];
  else
    c->n_open++; /* a place kept for the connection opened below */
  pthread_mutex_unlock(&c->lock);

  /* Connecting takes a round trip or more: never under the pool's lock. */
  st = conn ? usable(conn, err) : db_pg_connect(c->conninfo, &conn, err);
  if (st != CAIRN_OK) {
    if (conn)
      PQfinish(conn);
    pthread_mutex_lock(&c->lock);
    c->n_open--;
    pthread_cond_signal(&c->freed);
    pthread_mutex_unlock(&c->lock);
    return st;
  }
  *out = conn;
  return CAIRN_OK;
}

void db_pg_release(struct db_pg *c, PGconn *conn)
{
  if (!conn)
    return;
  if (PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) != PQTRANS_IDLE)
    db_pg_rollback(conn);
  pthread_mutex_lock(&c->lock);
  if (PQstatus(conn) == CONNECTION_OK) {
    c->idle[c->n_idle++] = conn;
  } else {
    PQfinish(conn); /* quick: a broken connection has nothing to say */
    c->n_open--;
  }
  pthread_cond_signal(&c->freed);
  pthread_mutex_unlock(&c->lock);
}

/* ---- parameters ---- */

static void add(struct db_pg_params *p, const char *value, int length, int format)
{
  assert(p->n < DB_PG_PARAMS_MAX);
  p->values[p->n] = value;
  p->lengths[p->n] = length;
  p->formats[p->n] = format;
  p->n++;
}

void db_pg_text(struct db_pg_params *p, const char *text)
{
  add(p, text, 0, 0);
}

void db_pg_int(struct db_pg_params *p, int64_t value)
{
  assert(p->n < DB_PG_PARAMS_MAX);
  snprintf(p->numbers[p->n], sizeof(p->numbers[p->n]), "%" PRId64, value);
  add(p, p->numbers[p->n], 0, 0);
}

void db_pg_bytes(struct db_pg_params *p, const uint8_t *bytes, size_t n)
{
  add(p, (const char *)bytes, (int)n, 1);
}

/* ---- statements ---- */

bool db_pg_state_is(const char sqlstate[6], const char *code)
{
  return strcmp(sqlstate, code) == 0;
}

bool db_pg_state_is_integrity(const char sqlstate[6])
{
  return strncmp(sqlstate, "23", 2) == 0;
}

static PGresult *send_statement(PGconn *conn, const char *sql, const struct db_pg_params *params)
{
  return PQexecParams(conn, sql, params ? params->n : 0, NULL, params ? params->values : NULL,
                      params ? params->lengths : NULL, params ? params->formats : NULL, 0);
}

static bool succeeded(const PGresult *res)
{
  return PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK;
}

/* A statement that may be sent again on a fresh connection when the first
 * one broke under it: one that opens a transaction or only reads, sent
 * outside a transaction. Anything else might have committed before the
 * connection went, so it fails instead of running twice. */
static bool may_repeat(const char *sql, bool was_idle)
{
  return was_idle && (strncmp(sql, "BEGIN", 5) == 0 || strncmp(sql, "SELECT", 6) == 0);
}

enum cairn_status db_pg_exec(PGconn *conn, const char *sql, const struct db_pg_params *params,
                             PGresult **out, char sqlstate[6], const char *what,
                             struct cairn_error *err)
{
  bool was_idle = PQtransactionStatus(conn) == PQTRANS_IDLE;
  PGresult *res;
  const char *state;

  *out = NULL;
  if (sqlstate)
    sqlstate[0] = '\0';
  res = send_statement(conn, sql, params);
  /* An idle pooled connection looks fine until its first statement finds
   * the server gone (restarted, or the connection was ended): reconnect
   * once and try again where that is safe. */
  if (!succeeded(res) && PQstatus(conn) == CONNECTION_BAD && may_repeat(sql, was_idle)) {
    log_failure(what, PQerrorMessage(conn));
    PQclear(res);
    PQreset(conn);
    if (PQstatus(conn) != CONNECTION_OK) {
      log_failure("reconnecting", PQerrorMessage(conn));
      return storage_failed(what, err);
    }
    res = send_statement(conn, sql, params);
  }
  if (!res)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory while %s",
                      what);
  if (succeeded(res)) {
    *out = res;
    return CAIRN_OK;
  }
  state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
  if (sqlstate && state)
    snprintf(sqlstate, 6, "%s", state);
  log_failure(what, PQresultErrorMessage(res));
  PQclear(res);
  return storage_failed(what, err);
}

enum cairn_status db_pg_run(PGconn *conn, const char *sql, const struct db_pg_params *params,
                            const char *what, struct cairn_error *err)
{
  PGresult *res = NULL;
  enum cairn_status st = db_pg_exec(conn, sql, params, &res, NULL, what, err);

  PQclear(res);
  return st;
}

enum cairn_status db_pg_read(struct db_pg *c, const char *sql, const struct db_pg_params *params,
                             PGresult **out, const char *what, struct cairn_error *err)
{
  PGconn *conn = NULL;
  enum cairn_status st = db_pg_acquire(c, &conn, err);

  *out = NULL;
  if (st == CAIRN_OK)
    st = db_pg_exec(conn, sql, params, out, NULL, what, err);
  db_pg_release(c, conn);
  return st;
}

enum cairn_status db_pg_each_row(struct db_pg *c, const char *sql,
                                 const struct db_pg_params *params, const char *what,
                                 size_t row_size, db_pg_row_reader read, db_pg_row_visitor visit,
                                 void *arg, struct cairn_error *err)
{
  char *rows = NULL;
  PGresult *res = NULL;
  enum cairn_status st;
  int i, n = 0;

  st = db_pg_read(c, sql, params, &res, what, err);
  if (st == CAIRN_OK) {
    n = PQntuples(res);
    rows = calloc(n > 0 ? (size_t)n : 1, row_size);
    if (!rows)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = read(res, i, rows + (size_t)i * row_size, err);
  PQclear(res);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = visit(arg, rows + (size_t)i * row_size, err);
  free(rows);
  return st;
}

enum cairn_status db_pg_write(struct db_pg *c, const char *sql, const struct db_pg_params *params,
                              PGresult **out, char sqlstate[6], const char *what,
                              struct cairn_error *err)
{
  PGresult *res = NULL;
  PGconn *conn = NULL;
  enum cairn_status st;

  if (out)
    *out = NULL;
  if (sqlstate)
    sqlstate[0] = '\0';
  st = db_pg_acquire(c, &conn, err);
  if (st == CAIRN_OK)
    st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_exec(conn, sql, params, &res, sqlstate, what, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  if (st == CAIRN_OK && out)
    *out = res;
  else
    PQclear(res);
  return st;
}

enum cairn_status db_pg_begin(PGconn *conn, struct cairn_error *err)
{
  return db_pg_run(conn, "BEGIN", NULL, "starting a transaction", err);
}

/* COMMIT returns once the commit record is flushed (synchronous_commit
 * on, the server's default), so a slot returning after it is durable. */
enum cairn_status db_pg_commit(PGconn *conn, struct cairn_error *err)
{
  PGresult *res = NULL;
  enum cairn_status st = db_pg_exec(conn, "COMMIT", NULL, &res, NULL, "committing", err);

  /* A COMMIT of a transaction that had failed answers ROLLBACK, not an
   * error: nothing was written, and the slot must not say otherwise. */
  if (st == CAIRN_OK && strcmp(PQcmdStatus(res), "COMMIT") != 0)
    st = storage_failed("committing", err);
  PQclear(res);
  return st;
}

void db_pg_rollback(PGconn *conn)
{
  PGresult *res;

  if (PQtransactionStatus(conn) == PQTRANS_IDLE || PQstatus(conn) != CONNECTION_OK)
    return;
  res = PQexec(conn, "ROLLBACK");
  if (PQresultStatus(res) != PGRES_COMMAND_OK)
    log_failure("rolling back", PQerrorMessage(conn));
  PQclear(res);
}

/* ---- reading results ---- */

static enum cairn_status unreadable(const PGresult *res, int col, const char *why, const char *what,
                                    struct cairn_error *err)
{
  log_line(LOG_ERROR, "db", "%s: column %s is %s", what, PQfname(res, col), why);
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "storage holds an unreadable row while %s", what);
}

enum cairn_status db_pg_copy(const PGresult *res, int row, int col, char *buf, size_t size,
                             const char *what, struct cairn_error *err)
{
  size_t len;

  assert(size > 0);
  buf[0] = '\0';
  if (PQgetisnull(res, row, col))
    return unreadable(res, col, "NULL", what, err);
  len = (size_t)PQgetlength(res, row, col);
  if (len >= size)
    return unreadable(res, col, "longer than its buffer", what, err);
  memcpy(buf, PQgetvalue(res, row, col), len + 1);
  return CAIRN_OK;
}

enum cairn_status db_pg_dup(const PGresult *res, int row, int col, char **out, const char *what,
                            struct cairn_error *err)
{
  size_t len;

  *out = NULL;
  if (PQgetisnull(res, row, col))
    return CAIRN_OK;
  len = (size_t)PQgetlength(res, row, col);
  *out = malloc(len + 1);
  if (!*out)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory while %s",
                      what);
  memcpy(*out, PQgetvalue(res, row, col), len + 1);
  return CAIRN_OK;
}

int64_t db_pg_int64(const PGresult *res, int row, int col)
{
  if (PQgetisnull(res, row, col))
    return 0;
  return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

bool db_pg_bool(const PGresult *res, int row, int col)
{
  return !PQgetisnull(res, row, col) && PQgetvalue(res, row, col)[0] == 't';
}

static int hex_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* bytea in text results is "\x" and two hex digits a byte (bytea_output
 * hex, the default since PostgreSQL 9.0; open.c sets it anyway). */
bool db_pg_bytes_of(const PGresult *res, int row, int col, uint8_t *out, size_t n)
{
  const char *text;
  size_t i;

  if (PQgetisnull(res, row, col) || (size_t)PQgetlength(res, row, col) != 2 + 2 * n)
    return false;
  text = PQgetvalue(res, row, col);
  if (text[0] != '\\' || text[1] != 'x')
    return false;
  for (i = 0; i < n; i++) {
    int hi = hex_digit(text[2 + 2 * i]), lo = hex_digit(text[3 + 2 * i]);

    if (hi < 0 || lo < 0)
      return false;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return true;
}

enum cairn_status db_pg_lock_game(PGconn *conn, const char *game_id, char *status, size_t size,
                                  int *seats, uint32_t *moves, struct cairn_error *err)
{
  static const char what[] = "reading a game";
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  db_pg_text(&p, game_id);
  st = db_pg_exec(conn, "SELECT status, seats, moves FROM games WHERE id = $1 FOR UPDATE", &p, &res,
                  NULL, what, err);
  if (st != CAIRN_OK)
    return st;
  if (PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
  if (st == CAIRN_OK && status)
    st = db_pg_copy(res, 0, 0, status, size, what, err);
  if (st == CAIRN_OK && seats)
    *seats = (int)db_pg_int64(res, 0, 1);
  if (st == CAIRN_OK && moves)
    *moves = (uint32_t)db_pg_int64(res, 0, 2); /* the schema keeps it within uint32_t */
  PQclear(res);
  return st;
}
