/*
 * webhooks.c - the webhook methods of the SQLite backend: registrations and their
 * delivery log. Rows are copied out before any callback runs, so callbacks
 * run unlocked and may use other slots.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns read_hook reads, in its order, of a webhook row named `w`:
 * every query that hands out webhooks selects these first. */
#define HOOK_COLUMNS                                                                               \
  "w.id, w.owner, coalesce(w.game_id, ''), w.url, w.format, w.mention, w.secret, w.created_ms"

enum cairn_status db_sqlite_webhook_create(void *ctx, const struct db_webhook *hook,
                                           struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  assert(c && hook);
  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db,
                         "INSERT INTO webhooks (id, owner, game_id, url, format, mention, secret,"
                         " created_ms) VALUES (?1, ?2, nullif(?3, ''), ?4, ?5, ?6, ?7, ?8)",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, hook->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, hook->owner, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, hook->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, hook->url, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, hook->format, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, hook->mention, -1, SQLITE_STATIC);
    sqlite3_bind_blob(stmt, 7, hook->secret, sizeof(hook->secret), SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 8, hook->created_ms);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
      st =
          cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", hook->game_id);
    else if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "registering a webhook", err);
  }
  if (st == CAIRN_OK)
    atomic_fetch_add(&c->hooks, 1);
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

struct hooks {
  struct db_webhook *at;
  size_t n, cap;
};

static enum cairn_status read_hook(sqlite3_stmt *stmt, struct db_webhook *h,
                                   struct cairn_error *err)
{
  static const char what[] = "loading webhooks";
  enum cairn_status st;

  memset(h, 0, sizeof(*h));
  st = db_sqlite_column_copy(stmt, 0, h->id, sizeof(h->id), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 1, h->owner, sizeof(h->owner), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 2, h->game_id, sizeof(h->game_id), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 3, h->url, sizeof(h->url), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 4, h->format, sizeof(h->format), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 5, h->mention, sizeof(h->mention), what, err);
  if (st == CAIRN_OK && sqlite3_column_bytes(stmt, 6) == (int)sizeof(h->secret))
    memcpy(h->secret, sqlite3_column_blob(stmt, 6), sizeof(h->secret));
  h->created_ms = sqlite3_column_int64(stmt, 7);
  return st;
}

/* Run a webhook query (one text parameter) and visit the rows unlocked. */
static enum cairn_status each_hook(struct db_sqlite *c, const char *sql, const char *param,
                                   db_webhook_cb cb, void *arg, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  struct hooks list = {0};
  enum cairn_status st;
  size_t i;
  int rc = SQLITE_DONE;

  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, sql, &stmt, err);
  if (st == CAIRN_OK)
    sqlite3_bind_text(stmt, 1, param, -1, SQLITE_STATIC);
  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (list.n == list.cap) {
      size_t cap = list.cap ? 2 * list.cap : 8;
      struct db_webhook *grown = realloc(list.at, cap * sizeof(*grown));

      if (!grown) {
        st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
        break;
      }
      list.at = grown;
      list.cap = cap;
    }
    st = read_hook(stmt, &list.at[list.n++], err);
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(c->rdb, rc, "loading webhooks", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < list.n; i++)
    st = cb(arg, &list.at[i], err);
  free(list.at);
  return st;
}

enum cairn_status db_sqlite_webhooks_of_owner(void *ctx, const char *owner, db_webhook_cb cb,
                                              void *arg, struct cairn_error *err)
{
  return each_hook(
      ctx, "SELECT " HOOK_COLUMNS " FROM webhooks w WHERE owner = ?1 ORDER BY created_ms, id",
      owner, cb, arg, err);
}

enum cairn_status db_sqlite_webhooks_of_game(void *ctx, const char *game_id, db_webhook_cb cb,
                                             void *arg, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;

  /* Every move asks, and most servers have no webhook at all: the count
   * (kept under the write lock, read here without one) spares them the
   * query. A webhook registered while this runs is seen or not, as it
   * would be by the query. */
  if (atomic_load(&c->hooks) == 0)
    return CAIRN_OK;
  return each_hook(ctx,
                   "SELECT " HOOK_COLUMNS " FROM webhooks w WHERE game_id = ?1"
                   " OR (game_id IS NULL AND owner IN (SELECT player_id FROM seats"
                   " WHERE game_id = ?1)) ORDER BY created_ms, id",
                   game_id, cb, arg, err);
}

enum cairn_status db_sqlite_webhook_delete(void *ctx, const char *id, const char *owner,
                                           struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = db_sqlite_prepare(c->db,
                           "DELETE FROM deliveries WHERE webhook_id = ?1 AND"
                           " EXISTS (SELECT 1 FROM webhooks WHERE id = ?1 AND owner = ?2)",
                           &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, owner, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "deleting a webhook", err);
    db_sqlite_release(stmt);
    stmt = NULL;
  }
  if (st == CAIRN_OK)
    st = db_sqlite_prepare(c->db, "DELETE FROM webhooks WHERE id = ?1 AND owner = ?2", &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, owner, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "deleting a webhook", err);
    else if (sqlite3_changes(c->db) == 0)
      st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "you have no webhook %s",
                      id);
  }
  db_sqlite_release(stmt);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st == CAIRN_OK)
    atomic_fetch_sub(&c->hooks, 1);
  else
    db_sqlite_rollback(c->db);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_delivery_record(void *ctx, const struct db_delivery *d,
                                            struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db,
                         "INSERT INTO deliveries (webhook_id, event, game_id, attempt, at_ms,"
                         " http_status, error, delivered)"
                         " VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, 0), nullif(?7, ''), ?8)",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, d->webhook_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, d->event, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, d->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 4, d->attempt);
    sqlite3_bind_int64(stmt, 5, d->at_ms);
    sqlite3_bind_int(stmt, 6, d->http_status);
    sqlite3_bind_text(stmt, 7, d->error, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 8, d->delivered);
    rc = sqlite3_step(stmt);
    /* The webhook may have been deleted while its delivery was in flight. */
    if (rc != SQLITE_DONE && rc != SQLITE_CONSTRAINT_FOREIGNKEY)
      st = db_sqlite_fail(c->db, rc, "recording a delivery", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_deliveries_of(void *ctx, const char *webhook_id, int limit,
                                          db_delivery_cb cb, void *arg, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  struct db_delivery *rows = NULL;
  size_t n = 0, i;
  enum cairn_status st;
  int rc = SQLITE_DONE;

  rows = calloc((size_t)(limit > 0 ? limit : 1), sizeof(*rows));
  if (!rows)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT id, webhook_id, event, game_id, attempt, at_ms,"
                         " coalesce(http_status, 0), coalesce(error, ''), delivered"
                         " FROM deliveries WHERE webhook_id = ?1 ORDER BY id DESC LIMIT ?2",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, webhook_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, limit);
  }
  while (st == CAIRN_OK && n < (size_t)limit && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    struct db_delivery *d = &rows[n++];

    d->id = sqlite3_column_int64(stmt, 0);
    st = db_sqlite_column_copy(stmt, 1, d->webhook_id, sizeof(d->webhook_id), "deliveries", err);
    if (st == CAIRN_OK)
      st = db_sqlite_column_copy(stmt, 2, d->event, sizeof(d->event), "deliveries", err);
    if (st == CAIRN_OK)
      st = db_sqlite_column_copy(stmt, 3, d->game_id, sizeof(d->game_id), "deliveries", err);
    if (st == CAIRN_OK)
      st = db_sqlite_column_copy(stmt, 7, d->error, sizeof(d->error), "deliveries", err);
    d->attempt = sqlite3_column_int(stmt, 4);
    d->at_ms = sqlite3_column_int64(stmt, 5);
    d->http_status = sqlite3_column_int(stmt, 6);
    d->delivered = sqlite3_column_int(stmt, 8) != 0;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    st = db_sqlite_fail(c->rdb, rc, "loading deliveries", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, &rows[i], err);
  free(rows);
  return st;
}

/* ---- the outbox: deliveries still owed (migration 0007) ---- */

/* What read_owed reads of an outbox row named `o`, after HOOK_COLUMNS. */
#define OWED_COLUMNS                                                                               \
  "o.delivery_id, o.event, o.game_id, o.body, o.attempt, o.due_ms, coalesce(o.claimed_by, ''),"    \
  " o.claimed_until"

/* Bind `owed` to the first nine parameters of an outbox insert (the last
 * two its lease, migration 0011). */
static void bind_owed(sqlite3_stmt *stmt, const struct db_outbox *owed)
{
  sqlite3_bind_text(stmt, 1, owed->delivery_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, owed->webhook_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 3, owed->event, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 4, owed->game_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 5, owed->body, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 6, owed->attempt);
  sqlite3_bind_int64(stmt, 7, owed->due_ms);
  sqlite3_bind_text(stmt, 8, owed->claimed_by, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 9, owed->claimed_until);
}

enum cairn_status db_sqlite_outbox_put(void *ctx, const struct db_outbox *owed,
                                       struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  assert(c && owed && owed->body);
  db_sqlite_lock(c);
  st =
      db_sqlite_prepare(c->db,
                        "INSERT INTO webhook_outbox (delivery_id, webhook_id, event, game_id, body,"
                        " attempt, due_ms, claimed_by, claimed_until)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, nullif(?8, ''), ?9)"
                        " ON CONFLICT (delivery_id) DO UPDATE SET attempt = ?6, due_ms = ?7",
                        &stmt, err);
  if (st == CAIRN_OK) {
    bind_owed(stmt, owed);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
      st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no webhook %s",
                      owed->webhook_id);
    else if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "storing a webhook delivery", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_write_outbox(sqlite3 *db, const struct db_outbox *owed, int n,
                                         struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i, rc;

  /* A webhook deleted since the change was judged is owed nothing: its
   * row is skipped rather than failing the move that owes it. */
  st =
      db_sqlite_prepare(db,
                        "INSERT INTO webhook_outbox (delivery_id, webhook_id, event, game_id, body,"
                        " attempt, due_ms, claimed_by, claimed_until)"
                        " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, nullif(?8, ''), ?9"
                        " WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ?2)",
                        &stmt, err);
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    assert(owed[i].body);
    sqlite3_reset(stmt);
    bind_owed(stmt, &owed[i]);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(db, rc, "storing the webhook deliveries a move owes", err);
  }
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_outbox_remove(void *ctx, const char *delivery_id,
                                          struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db, "DELETE FROM webhook_outbox WHERE delivery_id = ?1", &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, delivery_id, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "forgetting a webhook delivery", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

/* One owed delivery copied out of SQLite, so the callback runs unlocked. */
struct owed_row {
  struct db_outbox owed;
  struct db_webhook hook;
  char *body; /* owned; owed.body points here */
};

static enum cairn_status read_owed(sqlite3_stmt *stmt, struct owed_row *row,
                                   struct cairn_error *err)
{
  static const char what[] = "loading owed webhook deliveries";
  enum cairn_status st = read_hook(stmt, &row->hook, err);
  const unsigned char *body;

  memset(&row->owed, 0, sizeof(row->owed));
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 8, row->owed.delivery_id, sizeof(row->owed.delivery_id), what,
                               err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 9, row->owed.event, sizeof(row->owed.event), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 10, row->owed.game_id, sizeof(row->owed.game_id), what, err);
  if (st != CAIRN_OK)
    return st;
  body = sqlite3_column_text(stmt, 11);
  row->body = strdup(body ? (const char *)body : "");
  if (!row->body)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  snprintf(row->owed.webhook_id, sizeof(row->owed.webhook_id), "%s", row->hook.id);
  row->owed.body = row->body;
  row->owed.attempt = sqlite3_column_int(stmt, 12);
  row->owed.due_ms = sqlite3_column_int64(stmt, 13);
  row->owed.claimed_until = sqlite3_column_int64(stmt, 15);
  return db_sqlite_column_copy(stmt, 14, row->owed.claimed_by, sizeof(row->owed.claimed_by), what,
                               err);
}

/* Owed rows copied out, so the callbacks run unlocked. */
struct owed_rows {
  struct owed_row *at; /* owned, with each row's body */
  size_t n, cap;
};

static void owed_rows_free(struct owed_rows *rows)
{
  size_t i;

  for (i = 0; i < rows->n; i++)
    free(rows->at[i].body);
  free(rows->at);
  memset(rows, 0, sizeof(*rows));
}

/* Step `stmt` (HOOK_COLUMNS then OWED_COLUMNS) to its end, appending every
 * row to *rows. */
static enum cairn_status collect_owed(sqlite3 *conn, sqlite3_stmt *stmt, struct owed_rows *rows,
                                      struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int rc;

  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (rows->n == rows->cap) {
      size_t grown_cap = rows->cap ? 2 * rows->cap : 16;
      struct owed_row *grown = realloc(rows->at, grown_cap * sizeof(*grown));

      if (!grown)
        return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
      rows->at = grown;
      rows->cap = grown_cap;
    }
    rows->at[rows->n].body = NULL;
    st = read_owed(stmt, &rows->at[rows->n], err);
    rows->n++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(conn, rc, "loading owed webhook deliveries", err);
  return st;
}

/* Call `cb` with each row of `rows`, then free them. */
static enum cairn_status visit_owed(struct owed_rows *rows, enum cairn_status st, db_outbox_cb cb,
                                    void *arg, struct cairn_error *err)
{
  size_t i;

  for (i = 0; st == CAIRN_OK && i < rows->n; i++)
    st = cb(arg, &rows->at[i].owed, &rows->at[i].hook, err);
  owed_rows_free(rows);
  return st;
}

enum cairn_status db_sqlite_outbox_each(void *ctx, db_outbox_cb cb, void *arg,
                                        struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  struct owed_rows rows = {0};
  enum cairn_status st;

  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT " HOOK_COLUMNS ", " OWED_COLUMNS " FROM webhook_outbox o"
                         " JOIN webhooks w ON w.id = o.webhook_id ORDER BY o.due_ms, o.delivery_id",
                         &stmt, err);
  if (st == CAIRN_OK)
    st = collect_owed(c->rdb, stmt, &rows, err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return visit_owed(&rows, st, cb, arg, err);
}

/* ---- leases (migration 0011): one process owns a SQLite store, so the
 * slots keep the contract PostgreSQL's claims need; the writer's lock
 * makes a claim atomic ---- */

/* One statement on the writing connection under the lock, with `node`
 * as ?1 and `at_ms` as ?2 (when given). */
static enum cairn_status write_lease(struct db_sqlite *c, const char *sql, const char *node,
                                     int64_t at_ms, const char *what, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db, sql, &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, node, -1, SQLITE_STATIC);
    if (sqlite3_bind_parameter_count(stmt) >= 2)
      sqlite3_bind_int64(stmt, 2, at_ms);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, what, err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

/* The ids an UPDATE ... RETURNING delivery_id hands back, into ids[0..max). */
static enum cairn_status returned_ids(sqlite3 *conn, sqlite3_stmt *stmt, char (*ids)[17], int max,
                                      int *n, struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int rc;

  *n = 0;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
    if (st == CAIRN_OK && *n < max)
      st = db_sqlite_column_copy(stmt, 0, ids[(*n)++], 17, "claiming owed webhook deliveries", err);
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(conn, rc, "claiming owed webhook deliveries", err);
  return st;
}

enum cairn_status db_sqlite_outbox_claim(void *ctx, const char *node, int64_t now_ms,
                                         int64_t until_ms, int max, db_outbox_cb cb, void *arg,
                                         int *n, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  struct owed_rows rows = {0};
  char(*ids)[17] = max > 0 ? calloc((size_t)max, sizeof(*ids)) : NULL;
  enum cairn_status st;
  int i, claimed = 0;

  assert(c && node && node[0]);
  *n = 0;
  if (!ids)
    return max > 0 ? cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory")
                   : CAIRN_OK;
  /* The writer's lock makes the claim and the reading back one step: no
   * other claim runs between them. */
  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db,
                         "UPDATE webhook_outbox SET claimed_by = ?1, claimed_until = ?3"
                         " WHERE delivery_id IN (SELECT delivery_id FROM webhook_outbox"
                         " WHERE claimed_until <= ?2 ORDER BY due_ms, delivery_id LIMIT ?4)"
                         " RETURNING delivery_id",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, node, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, now_ms);
    sqlite3_bind_int64(stmt, 3, until_ms);
    sqlite3_bind_int(stmt, 4, max);
    st = returned_ids(c->db, stmt, ids, max, &claimed, err);
  }
  db_sqlite_release(stmt);
  stmt = NULL;
  if (st == CAIRN_OK && claimed > 0)
    st = db_sqlite_prepare(c->db,
                           "SELECT " HOOK_COLUMNS ", " OWED_COLUMNS " FROM webhook_outbox o"
                           " JOIN webhooks w ON w.id = o.webhook_id WHERE o.delivery_id = ?1",
                           &stmt, err);
  for (i = 0; st == CAIRN_OK && i < claimed; i++) {
    sqlite3_reset(stmt);
    sqlite3_bind_text(stmt, 1, ids[i], -1, SQLITE_STATIC);
    st = collect_owed(c->db, stmt, &rows, err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  free(ids);
  *n = (int)rows.n;
  return visit_owed(&rows, st, cb, arg, err);
}

enum cairn_status db_sqlite_outbox_renew(void *ctx, const char *node, int64_t until_ms,
                                         struct cairn_error *err)
{
  return write_lease(ctx,
                     "UPDATE webhook_outbox SET claimed_until = max(claimed_until, ?2)"
                     " WHERE claimed_by = ?1",
                     node, until_ms, "renewing webhook delivery leases", err);
}

enum cairn_status db_sqlite_outbox_release(void *ctx, const char *node, struct cairn_error *err)
{
  return write_lease(ctx,
                     "UPDATE webhook_outbox SET claimed_by = NULL, claimed_until = 0"
                     " WHERE claimed_by = ?1",
                     node, 0, "releasing webhook delivery leases", err);
}

enum cairn_status db_sqlite_outbox_unclaim_all(sqlite3 *db, struct cairn_error *err)
{
  /* Once per open: sqlite3_exec, not the statement cache, which opening
   * leaves empty (test_statement_cache). */
  int rc = sqlite3_exec(db,
                        "UPDATE webhook_outbox SET claimed_by = NULL, claimed_until = 0"
                        " WHERE claimed_until <> 0",
                        NULL, NULL, NULL);

  return rc == SQLITE_OK ? CAIRN_OK
                         : db_sqlite_fail(db, rc, "releasing webhook delivery leases", err);
}

/* webhook_get's callback: the one row, copied out. */
static enum cairn_status copy_hook(void *arg, const struct db_webhook *hook,
                                   struct cairn_error *err)
{
  struct db_webhook *out = arg;

  (void)err;
  *out = *hook;
  return CAIRN_OK;
}

enum cairn_status db_sqlite_webhook_get(void *ctx, const char *id, struct db_webhook *out,
                                        struct cairn_error *err)
{
  enum cairn_status st;

  memset(out, 0, sizeof(*out));
  st = each_hook(ctx, "SELECT " HOOK_COLUMNS " FROM webhooks w WHERE id = ?1", id, copy_hook, out,
                 err);
  if (st == CAIRN_OK && !out->id[0])
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no webhook %s", id);
  return st;
}

/* ---- per-player mentions ---- */

enum cairn_status db_sqlite_mention_put(void *ctx, const struct db_mention *m,
                                        struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  bool removing = m->handle[0] == '\0';
  enum cairn_status st;
  int rc;

  assert(c && m);
  db_sqlite_lock(c);
  st = db_sqlite_prepare(c->db,
                         removing ? "DELETE FROM webhook_mentions WHERE webhook_id = ?1 AND"
                                    " player_id = ?2"
                                  : "INSERT INTO webhook_mentions (webhook_id, player_id, handle)"
                                    " VALUES (?1, ?2, ?3) ON CONFLICT (webhook_id, player_id)"
                                    " DO UPDATE SET handle = excluded.handle",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, m->webhook_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, m->player_id, -1, SQLITE_STATIC);
    if (!removing)
      sqlite3_bind_text(stmt, 3, m->handle, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
      st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no webhook %s",
                      m->webhook_id);
    else if (rc == SQLITE_DONE && removing && sqlite3_changes(c->db) == 0)
      st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                      "no mention of %s for webhook %s", m->player_id, m->webhook_id);
    else if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "registering a mention", err);
  }
  db_sqlite_release(stmt);
  db_sqlite_unlock(c);
  return st;
}

enum cairn_status db_sqlite_mentions_of(void *ctx, const char *webhook_id, db_mention_cb cb,
                                        void *arg, struct cairn_error *err)
{
  static const char what[] = "loading mentions";
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  struct db_mention *list = NULL, *grown;
  size_t n = 0, cap = 0, i;
  enum cairn_status st;
  int rc = SQLITE_DONE;

  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT webhook_id, player_id, handle FROM webhook_mentions"
                         " WHERE webhook_id = ?1 ORDER BY player_id",
                         &stmt, err);
  if (st == CAIRN_OK)
    sqlite3_bind_text(stmt, 1, webhook_id, -1, SQLITE_STATIC);
  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (n == cap) {
      cap = cap ? 2 * cap : 8;
      grown = realloc(list, cap * sizeof(*grown));
      if (!grown) {
        st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
        break;
      }
      list = grown;
    }
    memset(&list[n], 0, sizeof(list[n]));
    st = db_sqlite_column_copy(stmt, 0, list[n].webhook_id, sizeof(list[n].webhook_id), what, err);
    if (st == CAIRN_OK)
      st = db_sqlite_column_copy(stmt, 1, list[n].player_id, sizeof(list[n].player_id), what, err);
    if (st == CAIRN_OK)
      st = db_sqlite_column_copy(stmt, 2, list[n].handle, sizeof(list[n].handle), what, err);
    n++;
  }
  if (st == CAIRN_OK && rc != SQLITE_DONE)
    st = db_sqlite_fail(c->rdb, rc, what, err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < n; i++) /* unlocked: cb may use other slots */
    st = cb(arg, &list[i], err);
  free(list);
  return st;
}
