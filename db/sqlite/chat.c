/*
 * chat.c - the chat methods of the SQLite backend (issue 25): a game's
 * messages, stored beside its log and never in it, numbered per game and
 * channel, deleted as tombstones. Rows are copied out before any callback
 * runs, so callbacks run unlocked and may use other slots.
 */
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The columns read_chat reads, in its order. */
#define CHAT_COLUMNS "id, game_id, channel, n, author, author_name, text, at_ms, deleted_ms"

static enum cairn_status read_chat(sqlite3_stmt *stmt, struct db_chat *m, struct cairn_error *err)
{
  static const char what[] = "loading chat messages";
  enum cairn_status st;

  memset(m, 0, sizeof(*m));
  st = db_sqlite_column_copy(stmt, 0, m->id, sizeof(m->id), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 1, m->game_id, sizeof(m->game_id), what, err);
  m->channel = sqlite3_column_int(stmt, 2);
  m->n = (uint32_t)sqlite3_column_int64(stmt, 3);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 4, m->author, sizeof(m->author), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 5, m->author_name, sizeof(m->author_name), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 6, m->text, sizeof(m->text), what, err);
  m->at_ms = sqlite3_column_int64(stmt, 7);
  m->deleted_ms = sqlite3_column_int64(stmt, 8);
  return st;
}

/* Insert `msg` as the next of its channel, inside the open transaction:
 * the write lock (BEGIN IMMEDIATE) makes the max and the insert one step. */
static enum cairn_status insert_chat(sqlite3 *db, struct db_chat *msg, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db,
                         "INSERT INTO chat_messages (id, game_id, channel, n, author, author_name,"
                         " text, at_ms) SELECT ?1, ?2, ?3, coalesce(max(n), 0) + 1, ?4, ?5, ?6, ?7"
                         " FROM chat_messages WHERE game_id = ?2 AND channel = ?3 RETURNING n",
                         &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, msg->id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, msg->game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 3, msg->channel);
  sqlite3_bind_text(stmt, 4, msg->author, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 5, msg->author_name, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 6, msg->text, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 7, msg->at_ms);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    msg->n = (uint32_t)sqlite3_column_int64(stmt, 0);
    rc = sqlite3_step(stmt);
  }
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", msg->game_id);
  else if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "storing a chat message", err);
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_chat_post(void *ctx, struct db_chat *msg, const struct db_outbox *owed,
                                      int n_owed, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  enum cairn_status st;

  assert(c && msg && (owed || n_owed == 0));
  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = insert_chat(c->db, msg, err);
  if (st == CAIRN_OK && n_owed > 0)
    st = db_sqlite_write_outbox(c->db, owed, n_owed, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  db_sqlite_unlock(c);
  return st;
}

struct chats {
  struct db_chat *at; /* owned */
  int n;
};

/* Read every row `stmt` gives into *out (caller frees out->at). */
static enum cairn_status collect(sqlite3 *db, sqlite3_stmt *stmt, int max, struct chats *out,
                                 struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int rc;

  out->at = calloc(max > 0 ? (size_t)max : 1, sizeof(*out->at));
  if (!out->at)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  while (st == CAIRN_OK && out->n < max && (rc = sqlite3_step(stmt)) != SQLITE_DONE) {
    if (rc != SQLITE_ROW)
      return db_sqlite_fail(db, rc, "loading chat messages", err);
    st = read_chat(stmt, &out->at[out->n], err);
    out->n += st == CAIRN_OK;
  }
  return st;
}

enum cairn_status db_sqlite_chat_list(void *ctx, const char *game_id, int channel, uint32_t after,
                                      int limit, db_chat_cb cb, void *arg, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  struct chats rows = {0};
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i;

  assert(c && game_id && cb && limit >= 0);
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb,
                         "SELECT " CHAT_COLUMNS " FROM chat_messages WHERE game_id = ?1"
                         " AND channel = ?2 AND n > ?3 ORDER BY n LIMIT ?4",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, channel);
    sqlite3_bind_int64(stmt, 3, after);
    sqlite3_bind_int(stmt, 4, limit);
    st = collect(c->rdb, stmt, limit, &rows, err);
  }
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < rows.n; i++)
    st = cb(arg, &rows.at[i], err);
  free(rows.at);
  return st;
}

enum cairn_status db_sqlite_chat_get(void *ctx, const char *id, struct db_chat *out,
                                     struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;

  assert(c && id && out);
  memset(out, 0, sizeof(*out));
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, "SELECT " CHAT_COLUMNS " FROM chat_messages WHERE id = ?1", &stmt,
                         err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    st = db_sqlite_step_one(c->rdb, stmt, "chat message", id, "loading a chat message", err);
  }
  if (st == CAIRN_OK)
    st = read_chat(stmt, out, err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return st;
}

enum cairn_status db_sqlite_chat_delete(void *ctx, const char *id, const char *author,
                                        int64_t at_ms, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc, deleted = -1;

  assert(c && id && author);
  db_sqlite_lock(c);
  /* One statement: the tombstone is written only over a standing message
   * of this author, and RETURNING tells which case it was. */
  st = db_sqlite_prepare(c->db,
                         "UPDATE chat_messages SET text = '', deleted_ms = ?3"
                         " WHERE id = ?1 AND author = ?2 AND deleted_ms = 0 RETURNING 1",
                         &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, author, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, at_ms);
    rc = sqlite3_step(stmt);
    deleted = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW)
      rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(c->db, rc, "deleting a chat message", err);
  }
  db_sqlite_release(stmt);
  stmt = NULL;
  if (st == CAIRN_OK && !deleted) {
    /* Why nothing was written: no such message of this author, or a
     * tombstone already. */
    st = db_sqlite_prepare(
        c->db, "SELECT deleted_ms FROM chat_messages WHERE id = ?1 AND author = ?2", &stmt, err);
    if (st == CAIRN_OK) {
      sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
      sqlite3_bind_text(stmt, 2, author, -1, SQLITE_STATIC);
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW)
        st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_CHAT_DELETED, NULL,
                        "chat message %s was deleted already", id);
      else if (rc == SQLITE_DONE)
        st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                        "no chat message %s of yours", id);
      else
        st = db_sqlite_fail(c->db, rc, "deleting a chat message", err);
    }
    db_sqlite_release(stmt);
  }
  db_sqlite_unlock(c);
  return st;
}
