/*
 * ratings.c - the ratings of the SQLite backend (issue 25): writing the
 * new ratings of a rated game's players inside the append that ends it
 * (move_append calls db_sqlite_write_ratings in the row's transaction,
 * under the write lock, so no other end reads a rating between this read
 * and this write), and the listings a profile, a leaderboard and
 * `cairn ratings-recompute` read. The rating update itself is the caller's
 * (db_rating_update.rate): storage only reads and writes the numbers.
 */
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define RATING_COLUMNS "title, player, mu, sigma, ordinal, games, wins, draws, losses, updated_ms"
/* What read_rating reads: the columns, then the player's name. */
#define RATING_SELECT                                                                              \
  "SELECT r.title, r.player, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.draws, r.losses,"        \
  " r.updated_ms, coalesce(p.name, '') FROM ratings r LEFT JOIN players p ON p.id = r.player"

static enum cairn_status read_rating(sqlite3_stmt *stmt, struct db_rating *r,
                                     struct cairn_error *err)
{
  static const char what[] = "loading ratings";
  enum cairn_status st;

  memset(r, 0, sizeof(*r));
  st = db_sqlite_column_copy(stmt, 0, r->title, sizeof(r->title), what, err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 1, r->player, sizeof(r->player), what, err);
  r->known = true;
  r->mu = sqlite3_column_double(stmt, 2);
  r->sigma = sqlite3_column_double(stmt, 3);
  r->ordinal = sqlite3_column_double(stmt, 4);
  r->games = sqlite3_column_int(stmt, 5);
  r->wins = sqlite3_column_int(stmt, 6);
  r->draws = sqlite3_column_int(stmt, 7);
  r->losses = sqlite3_column_int(stmt, 8);
  r->updated_ms = sqlite3_column_int64(stmt, 9);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 10, r->name, sizeof(r->name), what, err);
  return st;
}

/* ratings[i] as stored for players[i] of `title`, or unknown. */
static enum cairn_status read_old(sqlite3 *db, const struct db_rating_update *u,
                                  struct db_rating *ratings, struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i, rc;

  st = db_sqlite_prepare(db, RATING_SELECT " WHERE r.title = ?1 AND r.player = ?2", &stmt, err);
  for (i = 0; st == CAIRN_OK && i < u->n; i++) {
    sqlite3_reset(stmt);
    sqlite3_bind_text(stmt, 1, u->title, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, u->players[i], -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      st = read_rating(stmt, &ratings[i], err);
    } else if (rc == SQLITE_DONE) {
      memset(&ratings[i], 0, sizeof(ratings[i]));
      snprintf(ratings[i].title, sizeof(ratings[i].title), "%s", u->title);
      snprintf(ratings[i].player, sizeof(ratings[i].player), "%s", u->players[i]);
    } else {
      st = db_sqlite_fail(db, rc, "reading ratings", err);
    }
  }
  db_sqlite_release(stmt);
  return st;
}

static enum cairn_status write_new(sqlite3 *db, const struct db_rating *ratings, int n,
                                   struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i, rc;

  st = db_sqlite_prepare(db,
                         "INSERT OR REPLACE INTO ratings (" RATING_COLUMNS
                         ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                         &stmt, err);
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    const struct db_rating *r = &ratings[i];

    sqlite3_reset(stmt);
    sqlite3_bind_text(stmt, 1, r->title, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, r->player, -1, SQLITE_STATIC);
    sqlite3_bind_double(stmt, 3, r->mu);
    sqlite3_bind_double(stmt, 4, r->sigma);
    sqlite3_bind_double(stmt, 5, r->ordinal);
    sqlite3_bind_int(stmt, 6, r->games);
    sqlite3_bind_int(stmt, 7, r->wins);
    sqlite3_bind_int(stmt, 8, r->draws);
    sqlite3_bind_int(stmt, 9, r->losses);
    sqlite3_bind_int64(stmt, 10, r->updated_ms);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(db, rc, "writing ratings", err);
  }
  db_sqlite_release(stmt);
  return st;
}

static enum cairn_status note_end(sqlite3 *db, const char *game_id, int64_t at_ms,
                                  struct cairn_error *err)
{
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int rc;

  st =
      db_sqlite_prepare(db, "INSERT INTO rated_games (game_id, at_ms) VALUES (?1, ?2)", &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, at_ms);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
      st = db_sqlite_fail(db, rc, "recording a rated game", err);
  }
  db_sqlite_release(stmt);
  return st;
}

enum cairn_status db_sqlite_write_ratings(sqlite3 *db, const char *game_id, int64_t at_ms,
                                          const struct db_rating_update *u, struct cairn_error *err)
{
  struct db_rating ratings[DB_RATED_PARTIES];
  enum cairn_status st;

  assert(u->n >= 1 && u->n <= DB_RATED_PARTIES && u->rate);
  st = read_old(db, u, ratings, err);
  if (st != CAIRN_OK)
    return st;
  u->rate(u->arg, ratings, u->n);
  st = write_new(db, ratings, u->n, err);
  if (st == CAIRN_OK)
    st = note_end(db, game_id, at_ms, err);
  return st;
}

/* ---- listings: rows copied out, then the callbacks, unlocked ---- */

struct rows {
  struct db_rating *at; /* owned */
  int n, cap;
};

static enum cairn_status collect(sqlite3 *db, sqlite3_stmt *stmt, struct rows *out,
                                 struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int rc;

  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) != SQLITE_DONE) {
    if (rc != SQLITE_ROW)
      return db_sqlite_fail(db, rc, "loading ratings", err);
    if (out->n == out->cap) {
      int cap = out->cap ? 2 * out->cap : 16;
      struct db_rating *grown = realloc(out->at, (size_t)cap * sizeof(*grown));

      if (!grown)
        return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
      out->at = grown;
      out->cap = cap;
    }
    st = read_rating(stmt, &out->at[out->n], err);
    out->n += st == CAIRN_OK;
  }
  return st;
}

/* Run `sql` (?1 `text` when not NULL, ?2 `offset` and ?3 `limit` when
 * it has them: binding a parameter it lacks is a no-op), then visit its
 * rows. */
static enum cairn_status each(struct db_sqlite *c, const char *sql, const char *text, int offset,
                              int limit, db_rating_cb cb, void *arg, struct cairn_error *err)
{
  struct rows rows = {0};
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i;

  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, sql, &stmt, err);
  if (st == CAIRN_OK) {
    if (text)
      sqlite3_bind_text(stmt, 1, text, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, offset);
    sqlite3_bind_int(stmt, 3, limit);
    st = collect(c->rdb, stmt, &rows, err);
  }
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < rows.n; i++)
    st = cb(arg, &rows.at[i], err);
  free(rows.at);
  return st;
}

enum cairn_status db_sqlite_ratings_of(void *ctx, const char *player, db_rating_cb cb, void *arg,
                                       struct cairn_error *err)
{
  assert(ctx && player && cb);
  return each(ctx, RATING_SELECT " WHERE r.player = ?1 ORDER BY r.title", player, 0, 0, cb, arg,
              err);
}

enum cairn_status db_sqlite_leaderboard(void *ctx, const char *title, int offset, int limit,
                                        db_rating_cb cb, void *arg, struct cairn_error *err)
{
  assert(ctx && title && cb && offset >= 0 && limit >= 0);
  return each(ctx,
              RATING_SELECT " WHERE r.title = ?1 AND r.player NOT LIKE '" DB_SCENARIO_LIKE "'"
                            " ORDER BY r.ordinal DESC, r.player LIMIT ?3 OFFSET ?2",
              title, offset, limit, cb, arg, err);
}

enum cairn_status db_sqlite_ratings_each(void *ctx, db_rating_cb cb, void *arg,
                                         struct cairn_error *err)
{
  assert(ctx && cb);
  return each(ctx, RATING_SELECT " ORDER BY r.title, r.player", NULL, 0, 0, cb, arg, err);
}

struct ids {
  char (*at)[DB_ID_MAX + 1]; /* owned */
  int n, cap;
};

enum cairn_status db_sqlite_rated_games_each(void *ctx, db_game_id_cb cb, void *arg,
                                             struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  struct ids ids = {0};
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;
  int i, rc;

  assert(c && cb);
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, "SELECT game_id FROM rated_games ORDER BY ord", &stmt, err);
  while (st == CAIRN_OK && (rc = sqlite3_step(stmt)) != SQLITE_DONE) {
    if (rc != SQLITE_ROW) {
      st = db_sqlite_fail(c->rdb, rc, "listing rated games", err);
      break;
    }
    if (ids.n == ids.cap) {
      int cap = ids.cap ? 2 * ids.cap : 64;
      char(*grown)[DB_ID_MAX + 1] = realloc(ids.at, (size_t)cap * sizeof(*grown));

      if (!grown) {
        st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
        break;
      }
      ids.at = grown;
      ids.cap = cap;
    }
    st = db_sqlite_column_copy(stmt, 0, ids.at[ids.n], sizeof(ids.at[0]), "listing rated games",
                               err);
    ids.n += st == CAIRN_OK;
  }
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  for (i = 0; st == CAIRN_OK && i < ids.n; i++)
    st = cb(arg, ids.at[i], err);
  free(ids.at);
  return st;
}

enum cairn_status db_sqlite_player_get(void *ctx, const char *id, struct db_player *out,
                                       struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  sqlite3_stmt *stmt = NULL;
  enum cairn_status st;

  assert(c && id && out);
  memset(out, 0, sizeof(*out));
  db_sqlite_rlock(c);
  st = db_sqlite_prepare(c->rdb, "SELECT id, name FROM players WHERE id = ?1", &stmt, err);
  if (st == CAIRN_OK) {
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    st = db_sqlite_step_one(c->rdb, stmt, "player", id, "loading a player", err);
  }
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 0, out->id, sizeof(out->id), "loading a player", err);
  if (st == CAIRN_OK)
    st = db_sqlite_column_copy(stmt, 1, out->name, sizeof(out->name), "loading a player", err);
  db_sqlite_release(stmt);
  db_sqlite_runlock(c);
  return st;
}
