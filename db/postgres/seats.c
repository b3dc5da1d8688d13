/*
 * seats.c - the seat_take method of the PostgreSQL backend: seating a
 * player in an open game and starting the game when the last seat fills,
 * with what the start owes (its clock start, the first clocks, the webhook
 * outbox rows). The transaction first locks the game's row, so two joins
 * racing for the last seat, from one node or two, are judged one after the
 * other and cannot both win.
 */
#include "internal.h"

#include "../verdict.h"

#include <assert.h>
#include <string.h>

/* A seat row in the way: the player already seated (which wins, so that a
 * repeated join hears "you are in"), the seat held by someone, or kept for
 * another player (an invitation: the second column). */
static enum cairn_status find_clash(PGconn *conn, const char *game_id, int seat,
                                    const char *player_id, enum db_seat_clash *clash,
                                    struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;
  int row;

  *clash = DB_SEAT_CLEAR;
  db_pg_text(&p, game_id);
  db_pg_text(&p, player_id);
  db_pg_int(&p, seat);
  st = db_pg_exec(conn,
                  "SELECT player_id = $2, false FROM seats"
                  " WHERE game_id = $1 AND (player_id = $2 OR seat = $3)"
                  " UNION ALL SELECT false, true FROM invitations"
                  " WHERE game_id = $1 AND seat = $3 AND player_id <> $2",
                  &p, &res, NULL, "taking a seat", err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res); row++) {
    if (db_pg_bool(res, row, 0))
      *clash = DB_SEAT_ALREADY_SEATED;
    else if (*clash == DB_SEAT_CLEAR)
      *clash = db_pg_bool(res, row, 1) ? DB_SEAT_RESERVED : DB_SEAT_TAKEN;
  }
  PQclear(res);
  return st;
}

enum cairn_status db_pg_insert_seat(PGconn *conn, const char *game_id, int seat,
                                    const char *player_id, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char state[6];
  enum cairn_status st;

  db_pg_text(&p, game_id);
  db_pg_int(&p, seat);
  db_pg_text(&p, player_id);
  st = db_pg_exec(conn, "INSERT INTO seats (game_id, seat, player_id) VALUES ($1, $2, $3)", &p,
                  &res, state, "taking a seat", err);
  PQclear(res);
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no player %s", player_id);
  return st;
}

enum cairn_status db_pg_start_if_full(PGconn *conn, const char *game_id, int64_t at_ms,
                                      bool *started, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  *started = false;
  db_pg_text(&p, game_id);
  db_pg_int(&p, at_ms);
  st = db_pg_exec(conn,
                  "UPDATE games SET status = 'active',"
                  " updated_ms = CASE WHEN $2::bigint > 0 THEN $2::bigint ELSE updated_ms END"
                  " WHERE id = $1 AND status = 'open'"
                  " AND seats = (SELECT count(*) FROM seats WHERE game_id = $1)",
                  &p, &res, NULL, "starting a game", err);
  if (st == CAIRN_OK)
    *started = strcmp(PQcmdTuples(res), "0") != 0;
  PQclear(res);
  return st;
}

/* The checks that may refuse a join, under the game's row lock: the game
 * open, the seat in range, nobody in the way. */
static enum cairn_status check_join(PGconn *conn, const char *game_id, const struct db_join *join,
                                    struct cairn_error *err)
{
  char status[DB_STATUS_MAX + 1];
  enum cairn_status st;
  enum db_seat_clash clash;
  int seats = 0;

  st = db_pg_lock_game(conn, game_id, status, sizeof(status), &seats, NULL, err);
  if (st == CAIRN_OK)
    st = find_clash(conn, game_id, join->seat, join->player_id, &clash, err);
  if (st == CAIRN_OK)
    st = db_verdict_join(game_id, status, seats, join, clash, err);
  return st;
}

/* The seat is in: start the game if it was the last, and write what the
 * start owes, unless that is not what the caller expected (as
 * db/sqlite/seats.c). */
static enum cairn_status write_join(PGconn *conn, const char *game_id, const struct db_join *join,
                                    struct cairn_error *err)
{
  enum cairn_status st = db_pg_insert_seat(conn, game_id, join->seat, join->player_id, err);
  bool started = false;

  if (st == CAIRN_OK)
    st = db_pg_uninvite(conn, game_id, join->player_id, NULL, err);
  if (st == CAIRN_OK)
    st = db_pg_start_if_full(conn, game_id, join->at_ms, &started, err);
  if (st != CAIRN_OK)
    return st;
  st = db_verdict_join_start(game_id, join, started, err);
  if (st != CAIRN_OK)
    return st;
  if (!started && join->expect != DB_JOIN_EITHER)
    return CAIRN_OK;
  if (join->n_clocks > 0)
    st = db_pg_write_clocks(conn, game_id, join->clocks, join->n_clocks, err);
  if (st == CAIRN_OK && join->n_outbox > 0)
    st = db_pg_write_outbox(conn, join->outbox, join->n_outbox, err);
  return st;
}

enum cairn_status db_pg_seat_take(void *ctx, const char *game_id, const struct db_join *join,
                                  struct cairn_error *err)
{
  struct db_pg *c = ctx;
  PGconn *conn = NULL;
  enum cairn_status st;

  assert(c && game_id && join && join->player_id);
  st = db_pg_acquire(c, &conn, err);
  if (st != CAIRN_OK)
    return st;
  st = db_pg_begin(conn, err);
  if (st == CAIRN_OK)
    st = check_join(conn, game_id, join, err);
  if (st == CAIRN_OK)
    st = write_join(conn, game_id, join, err);
  if (st == CAIRN_OK)
    st = db_pg_commit(conn, err);
  db_pg_release(c, conn); /* rolls back what did not commit */
  return st;
}
