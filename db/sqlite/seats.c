/*
 * seats.c - the seat_take method of the SQLite backend: seating a player in an open game
 * and starting the game when the last seat fills, with what the start owes
 * (its clock start, the first clocks, the webhook outbox rows). Every check
 * runs inside the write transaction that inserts the seat, so two players
 * racing for the last seat (or one player racing for two seats) cannot both
 * win, and a crash cannot leave a started game without its clocks. Also
 * the two rows that hold a seat for a player, for the other slots'
 * transactions: a seat taken, and a seat kept (an invitation).
 */
#include "internal.h"

#include "../verdict.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* Look for a seat row that stands in the way: the player already seated,
 * the seat held by someone, or kept for another player (an invitation: the
 * second column). DB_SEAT_ALREADY_SEATED wins when it holds, so that
 * repeating a join, whichever seat it names, answers "you are in" rather
 * than "someone is there". */
static enum cairn_status find_clash(sqlite3 *db, const char *game_id, int seat,
                                    const char *player_id, enum db_seat_clash *clash,
                                    struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  *clash = DB_SEAT_CLEAR;
  st = db_sqlite_prepare(db,
                         "SELECT player_id = ?2, 0 FROM seats"
                         " WHERE game_id = ?1 AND (player_id = ?2 OR seat = ?3)"
                         " UNION ALL SELECT 0, 1 FROM invitations"
                         " WHERE game_id = ?1 AND seat = ?3 AND player_id <> ?2",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, player_id, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 3, seat);
  for (;;) {
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW)
      break;
    if (sqlite3_column_int(stmt, 0))
      *clash = DB_SEAT_ALREADY_SEATED;
    else if (*clash == DB_SEAT_CLEAR)
      *clash = sqlite3_column_int(stmt, 1) ? DB_SEAT_RESERVED : DB_SEAT_TAKEN;
  }
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "taking a seat", err);

cleanup:
  db_sqlite_release(stmt);
  return st;
}

/* Run `insert`, an INSERT of (game_id ?1, seat ?2, player_id ?3), while
 * `doing`: a player who does not exist is not found (the foreign key). */
static enum cairn_status insert_player_seat(sqlite3 *db, const char *insert, const char *game_id,
                                            int seat, const char *player_id, const char *doing,
                                            struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st = db_sqlite_prepare(db, insert, &stmt, err);
  if (st != CAIRN_OK)
    return st;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 2, seat);
  sqlite3_bind_text(stmt, 3, player_id, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no player %s", player_id);
  else if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, doing, err);
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_insert_seat(sqlite3 *db, const char *game_id, int seat,
                                        const char *player_id, struct cairn_error *err)
{
  return insert_player_seat(db, "INSERT INTO seats (game_id, seat, player_id) VALUES (?1, ?2, ?3)",
                            game_id, seat, player_id, "taking a seat", err);
}

enum cairn_status db_sqlite_insert_invitation(sqlite3 *db, const char *game_id, int seat,
                                              const char *player_id, struct cairn_error *err)
{
  return insert_player_seat(
      db, "INSERT INTO invitations (game_id, seat, player_id) VALUES (?1, ?2, ?3)", game_id, seat,
      player_id, "inviting a player", err);
}

enum cairn_status db_sqlite_start_if_full(sqlite3 *db, const char *game_id, int64_t at_ms,
                                          bool *started, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  *started = false;
  st = db_sqlite_prepare(db,
                         "UPDATE games SET status = 'active',"
                         " updated_ms = CASE WHEN ?2 > 0 THEN ?2 ELSE updated_ms END"
                         " WHERE id = ?1 AND status = 'open'"
                         " AND seats = (SELECT count(*) FROM seats WHERE game_id = ?1)",
                         &stmt, err);
  if (st != CAIRN_OK)
    goto cleanup;
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, at_ms);
  rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE)
    st = db_sqlite_fail(db, rc, "starting a game", err);
  else
    *started = sqlite3_changes(db) > 0;

cleanup:
  db_sqlite_release(stmt);
  return st;
}

/* The checks that may refuse a join, in the transaction: the game open, the
 * seat in range, nobody in the way. */
static enum cairn_status check_join(sqlite3 *db, const char *game_id, const struct db_join *join,
                                    struct cairn_error *err)
{
  char status[DB_STATUS_MAX + 1];
  enum cairn_status st;
  enum db_seat_clash clash;
  int seats = 0;

  st = db_sqlite_game_status(db, game_id, status, sizeof(status), &seats, NULL, err);
  if (st == CAIRN_OK)
    st = find_clash(db, game_id, join->seat, join->player_id, &clash, err);
  if (st == CAIRN_OK)
    st = db_verdict_join(game_id, status, seats, join, clash, err);
  return st;
}

/* The seat is in: start the game if it was the last (one conditional
 * UPDATE, which also stamps the start's updated_ms; check_join saw the
 * game open, so a change means this join started it), and write what the
 * start owes, unless that is not what the caller expected. The game row is
 * written once: before issue 22 the start, a status read and a second
 * UPDATE for updated_ms. */
static enum cairn_status write_join(sqlite3 *db, const char *game_id, const struct db_join *join,
                                    struct cairn_error *err)
{
  enum cairn_status st = db_sqlite_insert_seat(db, game_id, join->seat, join->player_id, err);
  bool started = false;

  if (st == CAIRN_OK)
    st = db_sqlite_uninvite(db, game_id, join->player_id, NULL, err);
  if (st == CAIRN_OK)
    st = db_sqlite_start_if_full(db, game_id, join->at_ms, &started, err);
  if (st != CAIRN_OK)
    return st;
  st = db_verdict_join_start(game_id, join, started, err);
  if (st != CAIRN_OK)
    return st;
  if (!started && join->expect != DB_JOIN_EITHER)
    return CAIRN_OK;
  if (join->n_clocks > 0)
    st = db_sqlite_write_clocks(db, game_id, join->clocks, join->n_clocks, err);
  if (st == CAIRN_OK && join->n_outbox > 0)
    st = db_sqlite_write_outbox(db, join->outbox, join->n_outbox, err);
  return st;
}

enum cairn_status db_sqlite_seat_take(void *ctx, const char *game_id, const struct db_join *join,
                                      struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  enum cairn_status st;

  assert(c && game_id && join && join->player_id);
  db_sqlite_lock(c);
  st = db_sqlite_begin(c->db, true, err);
  if (st == CAIRN_OK)
    st = check_join(c->db, game_id, join, err);
  if (st == CAIRN_OK)
    st = write_join(c->db, game_id, join, err);
  if (st == CAIRN_OK)
    st = db_sqlite_commit(c->db, err);
  if (st != CAIRN_OK)
    db_sqlite_rollback(c->db);
  else
    db_sqlite_forget_game(c, game_id);
  db_sqlite_unlock(c);
  return st;
}
