/*
 * chat.c - the chat methods of the PostgreSQL backend (issue 25), as
 * db/sqlite/chat.c: a game's messages beside its log, numbered per game and
 * channel, deleted as tombstones. A post numbers its message under the
 * game's row lock, so two nodes posting at once never take one number.
 * Rows are copied out before any callback runs.
 */
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The columns read_chat reads, in its order. */
#define CHAT_COLUMNS "id, game_id, channel, n, author, author_name, text, at_ms, deleted_ms"

/* A db_pg_row_reader: `out` is a struct db_chat. */
static enum cairn_status read_chat(const PGresult *res, int row, void *out, struct cairn_error *err)
{
  static const char what[] = "loading chat messages";
  struct db_chat *m = out;
  enum cairn_status st;

  memset(m, 0, sizeof(*m));
  st = db_pg_copy(res, row, 0, m->id, sizeof(m->id), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 1, m->game_id, sizeof(m->game_id), what, err);
  m->channel = (int)db_pg_int64(res, row, 2);
  m->n = (uint32_t)db_pg_int64(res, row, 3);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 4, m->author, sizeof(m->author), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 5, m->author_name, sizeof(m->author_name), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 6, m->text, sizeof(m->text), what, err);
  m->at_ms = db_pg_int64(res, row, 7);
  m->deleted_ms = db_pg_int64(res, row, 8);
  return st;
}

/* Insert `msg` as the next of its channel, in the open transaction, which
 * holds the game's row lock. */
static enum cairn_status insert_chat(PGconn *conn, struct db_chat *msg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  db_pg_text(&p, msg->id);
  db_pg_text(&p, msg->game_id);
  db_pg_int(&p, msg->channel);
  db_pg_text(&p, msg->author);
  db_pg_text(&p, msg->author_name);
  db_pg_text(&p, msg->text);
  db_pg_int(&p, msg->at_ms);
  st = db_pg_exec(conn,
                  "INSERT INTO chat_messages (id, game_id, channel, n, author, author_name, text,"
                  " at_ms) SELECT $1, $2, $3::integer, coalesce(max(n), 0) + 1, $4, $5, $6, $7"
                  " FROM chat_messages WHERE game_id = $2 AND channel = $3::integer RETURNING n",
                  &p, &res, NULL, "storing a chat message", err);
  if (st == CAIRN_OK && PQntuples(res) == 1)
    msg->n = (uint32_t)db_pg_int64(res, 0, 0);
  PQclear(res);
  return st;
}

enum cairn_status db_pg_chat_post(void *ctx, struct db_chat *msg, const struct db_outbox *owed,
                                  int n_owed, struct cairn_error *err)
{
  struct db_pg *c = ctx;
  PGconn *conn = NULL;
  enum cairn_status st;

  assert(c && msg && (owed || n_owed == 0));
  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_lock_game(conn, msg->game_id, NULL, 0, NULL, NULL, err);
  if (st == CAIRN_OK)
    st = insert_chat(conn, msg, err);
  if (st == CAIRN_OK && n_owed > 0)
    st = db_pg_write_outbox(conn, owed, n_owed, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}

/* The caller's db_chat_cb, as db_pg_each_row's visitor. */
struct chat_visit {
  db_chat_cb cb;
  void *arg;
};

static enum cairn_status visit_chat(void *arg, const void *row, struct cairn_error *err)
{
  const struct chat_visit *v = arg;

  return v->cb(v->arg, row, err);
}

enum cairn_status db_pg_chat_list(void *ctx, const char *game_id, int channel, uint32_t after,
                                  int limit, db_chat_cb cb, void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  struct chat_visit v = {cb, arg};

  assert(ctx && game_id && cb && limit >= 0);
  db_pg_text(&p, game_id);
  db_pg_int(&p, channel);
  db_pg_int(&p, after);
  db_pg_int(&p, limit);
  return db_pg_each_row(ctx,
                        "SELECT " CHAT_COLUMNS " FROM chat_messages WHERE game_id = $1"
                        " AND channel = $2::integer AND n > $3::bigint ORDER BY n LIMIT $4::bigint",
                        &p, "loading chat messages", sizeof(struct db_chat), read_chat, visit_chat,
                        &v, err);
}

enum cairn_status db_pg_chat_get(void *ctx, const char *id, struct db_chat *out,
                                 struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  assert(ctx && id && out);
  memset(out, 0, sizeof(*out));
  db_pg_text(&p, id);
  st = db_pg_read(ctx, "SELECT " CHAT_COLUMNS " FROM chat_messages WHERE id = $1", &p, &res,
                  "loading a chat message", err);
  if (st == CAIRN_OK && PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no chat message %s", id);
  else if (st == CAIRN_OK)
    st = read_chat(res, 0, out, err);
  PQclear(res);
  return st;
}

enum cairn_status db_pg_chat_delete(void *ctx, const char *id, const char *author, int64_t at_ms,
                                    struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  assert(ctx && id && author);
  db_pg_text(&p, id);
  db_pg_text(&p, author);
  db_pg_int(&p, at_ms);
  /* One statement tells the three cases apart: the row before the update
   * (if any) and whether the update wrote. */
  st = db_pg_write(ctx,
                   "WITH old AS (SELECT deleted_ms FROM chat_messages WHERE id = $1 AND author = $2"
                   " FOR UPDATE), upd AS (UPDATE chat_messages SET text = '', deleted_ms = $3"
                   " WHERE id = $1 AND author = $2 AND deleted_ms = 0 RETURNING 1)"
                   " SELECT (SELECT count(*) FROM old), (SELECT count(*) FROM upd)",
                   &p, &res, NULL, "deleting a chat message", err);
  if (st == CAIRN_OK && db_pg_int64(res, 0, 0) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no chat message %s of yours",
                    id);
  else if (st == CAIRN_OK && db_pg_int64(res, 0, 1) == 0)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_CHAT_DELETED, NULL,
                    "chat message %s was deleted already", id);
  PQclear(res);
  return st;
}
