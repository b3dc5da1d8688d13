/*
 * lobby.c - the lobby's listing for the PostgreSQL backend (issue 25): a
 * page of the open or the active games, newest first, from a keyset cursor;
 * invitations, the seats kept for named players; and the archive, a
 * player's finished games.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The status and the time control are in the text, as SQLite's (its
 * lobby.c): a partial index (games_open, games_active) serves a query whose
 * own text implies its WHERE. */
static const char *const clock_terms[] = {
    [DB_CLOCK_ANY] = "",
    [DB_CLOCK_NONE] = " AND move_ms = 0 AND base_ms = 0",
    [DB_CLOCK_MOVE] = " AND move_ms > 0",
    [DB_CLOCK_PACE] = " AND base_ms > 0",
};

/* An open game is listed only while a seat is free for anyone (as
 * SQLite's lobby.c). */
#define FREE_FOR_ANYONE                                                                            \
  " AND (SELECT count(*) FROM seats s WHERE s.game_id = games.id)"                                 \
  " + (SELECT count(*) FROM invitations i WHERE i.game_id = games.id) < seats"

enum cairn_status db_pg_games_lobby(void *ctx, const struct db_lobby_query *query, db_game_id_cb cb,
                                    void *arg, struct cairn_error *err)
{
  bool open = strcmp(query->status, DB_STATUS_OPEN) == 0;
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char sql[768];
  char(*ids)[DB_ID_MAX + 1] = NULL;
  int n = 0, i;
  enum cairn_status st;

  snprintf(sql, sizeof(sql),
           "SELECT id FROM games WHERE status = '%s'"
           " AND ($1::text IS NULL OR title = $1) AND ($2::int = 0 OR seats = $2)%s%s"
           " AND (created_ms, id) < ($3::bigint, $4::text COLLATE \"C\")"
           " ORDER BY created_ms DESC, id DESC LIMIT $5",
           open ? DB_STATUS_OPEN : DB_STATUS_ACTIVE, clock_terms[query->clock],
           open ? FREE_FOR_ANYONE : "");
  db_pg_text(&p, query->title);
  db_pg_int(&p, query->seats);
  db_pg_int(&p, query->after_id ? query->after_ms : INT64_MAX);
  db_pg_text(&p, query->after_id ? query->after_id : "");
  db_pg_int(&p, query->limit);
  /* The ids are copied out and the result cleared before any callback:
   * `cb` may call other slots. */
  st = db_pg_read(ctx, sql, &p, &res, "listing the lobby", err);
  if (st == CAIRN_OK) {
    n = PQntuples(res);
    ids = calloc(n ? (size_t)n : 1, sizeof(*ids));
    if (!ids)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = db_pg_copy(res, i, 0, ids[i], sizeof(ids[i]), "listing the lobby", err);
  PQclear(res);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, ids[i], err);
  free(ids);
  return st;
}

/* ---- invitations ---- */

enum cairn_status db_pg_insert_invitation(PGconn *conn, const char *game_id, int seat,
                                          const char *player_id, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char sqlstate[6] = "";
  enum cairn_status st;

  db_pg_text(&p, game_id);
  db_pg_int(&p, seat);
  db_pg_text(&p, player_id);
  st = db_pg_exec(conn, "INSERT INTO invitations (game_id, seat, player_id) VALUES ($1, $2, $3)",
                  &p, &res, sqlstate, "inviting a player", err);
  PQclear(res);
  if (st != CAIRN_OK && db_pg_state_is(sqlstate, DB_PG_FOREIGN_KEY_VIOLATION))
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no player %s", player_id);
  return st;
}

enum cairn_status db_pg_uninvite(PGconn *conn, const char *game_id, const char *player_id,
                                 bool *deleted, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  db_pg_text(&p, game_id);
  db_pg_text(&p, player_id);
  st = db_pg_exec(conn, "DELETE FROM invitations WHERE game_id = $1 AND player_id = $2", &p, &res,
                  NULL, "withdrawing an invitation", err);
  if (st == CAIRN_OK && deleted)
    *deleted = atoi(PQcmdTuples(res)) > 0;
  PQclear(res);
  return st;
}

/* Under the game's row lock, as a join: a decline and a join of the same
 * invitee meet one at a time, and only an open game's invitation goes. */
enum cairn_status db_pg_invitation_decline(void *ctx, const char *game_id, const char *player_id,
                                           struct cairn_error *err)
{
  struct db_pg *c = ctx;
  PGconn *conn = NULL;
  char status[DB_STATUS_MAX + 1] = "";
  bool deleted = false;
  int seats = 0;
  enum cairn_status st;

  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_lock_game(conn, game_id, status, sizeof(status), &seats, NULL, err);
  if (st == CAIRN_OK && strcmp(status, DB_STATUS_OPEN) == 0)
    st = db_pg_uninvite(conn, game_id, player_id, &deleted, err);
  if (st == CAIRN_OK && !deleted)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "no invitation of %s to game %s is open", player_id, game_id);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}

enum cairn_status db_pg_invitations_of(void *ctx, const char *player_id, db_game_seat_cb cb,
                                       void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char ids[DB_INVITATIONS_MAX][DB_ID_MAX + 1];
  int seats[DB_INVITATIONS_MAX];
  int n = 0, i;
  enum cairn_status st;

  db_pg_text(&p, player_id);
  st = db_pg_read(ctx,
                  "SELECT game_id, seat FROM invitations WHERE player_id = $1"
                  " ORDER BY game_id LIMIT " DB_INVITATIONS_MAX_TEXT,
                  &p, &res, "listing invitations", err);
  for (i = 0; st == CAIRN_OK && i < PQntuples(res) && i < DB_INVITATIONS_MAX; i++, n++) {
    seats[i] = (int)db_pg_int64(res, i, 1);
    st = db_pg_copy(res, i, 0, ids[i], sizeof(ids[i]), "listing invitations", err);
  }
  PQclear(res);
  /* Called with the result cleared and the connection back: `cb` may call
   * other slots. */
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, ids[i], seats[i], err);
  return st;
}

/* ---- the archive ---- */

enum cairn_status db_pg_games_archive(void *ctx, const struct db_archive_query *q,
                                      db_game_seat_cb cb, void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char(*ids)[DB_ID_MAX + 1] = NULL;
  int *seats = NULL;
  int n = 0, i;
  enum cairn_status st;

  db_pg_text(&p, q->player_id);
  db_pg_text(&p, q->title);
  db_pg_text(&p, q->opponent);
  db_pg_int(&p, q->after_id ? q->after_ms : INT64_MAX);
  db_pg_text(&p, q->after_id ? q->after_id : "");
  db_pg_int(&p, q->limit);
  /* The player's seats (seats_by_player), their finished games, by the
   * keyset (updated_ms, id) descending. */
  st = db_pg_read(ctx,
                  "SELECT g.id, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
                  " WHERE s.player_id = $1 AND g.status = 'finished'"
                  " AND ($2::text IS NULL OR g.title = $2)"
                  " AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id"
                  "  AND o.player_id = $3 AND o.seat <> s.seat))"
                  " AND (g.updated_ms, g.id) < ($4::bigint, $5::text COLLATE \"C\")"
                  " ORDER BY g.updated_ms DESC, g.id DESC LIMIT $6",
                  &p, &res, "listing the archive", err);
  if (st == CAIRN_OK) {
    n = PQntuples(res);
    ids = calloc(n ? (size_t)n : 1, sizeof(*ids));
    seats = calloc(n ? (size_t)n : 1, sizeof(*seats));
    if (!ids || !seats)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    seats[i] = (int)db_pg_int64(res, i, 1);
    st = db_pg_copy(res, i, 0, ids[i], sizeof(ids[i]), "listing the archive", err);
  }
  PQclear(res);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, ids[i], seats[i], err);
  free(ids);
  free(seats);
  return st;
}

/* ---- cancelling an open game ---- */

/* Under the game's row lock, as a join: a cancel and a join meet one at a
 * time. */
enum cairn_status db_pg_game_cancel(void *ctx, const char *game_id, int64_t at_ms,
                                    struct cairn_error *err)
{
  struct db_pg *c = ctx;
  struct db_pg_params p = {0};
  PGconn *conn = NULL;
  char status[DB_STATUS_MAX + 1] = "";
  int seats = 0;
  enum cairn_status st;

  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = db_pg_lock_game(conn, game_id, status, sizeof(status), &seats, NULL, err);
  if (st == CAIRN_OK && strcmp(status, DB_STATUS_OPEN) != 0)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_OPEN, NULL,
                    "game %s is %s: only an open game is cancelled", game_id, status);
  db_pg_text(&p, game_id);
  db_pg_int(&p, at_ms);
  if (st == CAIRN_OK)
    st = db_pg_run(conn, "UPDATE games SET status = 'cancelled', updated_ms = $2 WHERE id = $1", &p,
                   "cancelling a game", err);
  p.n = 1;
  if (st == CAIRN_OK)
    st =
        db_pg_run(conn, "DELETE FROM invitations WHERE game_id = $1", &p, "cancelling a game", err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}
