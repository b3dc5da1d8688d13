/*
 * ratings.c - the ratings of the PostgreSQL backend (issue 25), as
 * db/sqlite/ratings.c. Nodes write at once here, so the append ending a
 * rated game first makes sure a row exists for each party and locks those
 * rows (FOR UPDATE, in the parties' id order so two ends never wait on
 * each other in a circle), then reads, rates, writes, and only then draws
 * the game's place in the end order: the games of any one player are
 * numbered in the order their updates were applied, which is all a
 * recomputation in that order needs to be exact.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATING_COLUMNS "title, player, mu, sigma, ordinal, games, wins, draws, losses, updated_ms"
/* What read_rating reads: the columns, then the player's name. */
#define RATING_SELECT                                                                              \
  "SELECT r.title, r.player, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.draws, r.losses,"        \
  " r.updated_ms, coalesce(p.name, '') FROM ratings r LEFT JOIN players p ON p.id = r.player"

/* A db_pg_row_reader: `out` is a struct db_rating. */
static enum cairn_status read_rating(const PGresult *res, int row, void *out,
                                     struct cairn_error *err)
{
  static const char what[] = "loading ratings";
  struct db_rating *r = out;
  enum cairn_status st;

  memset(r, 0, sizeof(*r));
  st = db_pg_copy(res, row, 0, r->title, sizeof(r->title), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 1, r->player, sizeof(r->player), what, err);
  r->known = true;
  r->mu = strtod(PQgetvalue(res, row, 2), NULL);
  r->sigma = strtod(PQgetvalue(res, row, 3), NULL);
  r->ordinal = strtod(PQgetvalue(res, row, 4), NULL);
  r->games = (int)db_pg_int64(res, row, 5);
  r->wins = (int)db_pg_int64(res, row, 6);
  r->draws = (int)db_pg_int64(res, row, 7);
  r->losses = (int)db_pg_int64(res, row, 8);
  r->updated_ms = db_pg_int64(res, row, 9);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 10, r->name, sizeof(r->name), what, err);
  return st;
}

/* A double as text that reads back as the same bits ("%.17g"). */
static void bind_double(struct db_pg_params *p, double v, char buf[32])
{
  snprintf(buf, 32, "%.17g", v);
  db_pg_text(p, buf);
}

/* Lock (creating as unknown: games -1) every party's row, in id order. */
static enum cairn_status lock_rows(PGconn *conn, const struct db_rating_update *u,
                                   struct cairn_error *err)
{
  struct db_pg_params p = {0};
  char list[DB_RATED_PARTIES * (DB_RATED_MAX + 1)] = "";
  int i;
  enum cairn_status st;

  /* One array parameter: the parties, separated by a byte no id holds. */
  for (i = 0; i < u->n; i++) {
    strncat(list, u->players[i], sizeof(list) - strlen(list) - 2);
    if (i + 1 < u->n)
      strcat(list, "\n");
  }
  db_pg_text(&p, u->title);
  db_pg_text(&p, list);
  st = db_pg_run(conn,
                 "INSERT INTO ratings (" RATING_COLUMNS ") SELECT $1, x, 0, 0, 0, -1, 0, 0, 0, 0"
                 " FROM unnest(string_to_array($2, E'\\n')) AS x ON CONFLICT DO NOTHING",
                 &p, "writing ratings", err);
  if (st == CAIRN_OK)
    st = db_pg_run(conn,
                   "SELECT 1 FROM ratings WHERE title = $1 AND player = ANY(string_to_array($2,"
                   " E'\\n')) ORDER BY player FOR UPDATE",
                   &p, "writing ratings", err);
  return st;
}

static enum cairn_status read_old(PGconn *conn, const struct db_rating_update *u,
                                  struct db_rating *ratings, struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int i;

  for (i = 0; st == CAIRN_OK && i < u->n; i++) {
    struct db_pg_params p = {0};
    PGresult *res = NULL;

    db_pg_text(&p, u->title);
    db_pg_text(&p, u->players[i]);
    st = db_pg_exec(conn, RATING_SELECT " WHERE r.title = $1 AND r.player = $2", &p, &res, NULL,
                    "reading ratings", err);
    if (st == CAIRN_OK && PQntuples(res) == 1)
      st = read_rating(res, 0, &ratings[i], err);
    else if (st == CAIRN_OK)
      st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "a locked rating vanished");
    /* The row lock_rows made for a party never rated. */
    if (st == CAIRN_OK && ratings[i].games < 0) {
      memset(&ratings[i], 0, sizeof(ratings[i]));
      snprintf(ratings[i].title, sizeof(ratings[i].title), "%s", u->title);
      snprintf(ratings[i].player, sizeof(ratings[i].player), "%s", u->players[i]);
    }
    PQclear(res);
  }
  return st;
}

static enum cairn_status write_new(PGconn *conn, const struct db_rating *ratings, int n,
                                   struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  char mu[32], sigma[32], ordinal[32];
  int i;

  for (i = 0; st == CAIRN_OK && i < n; i++) {
    const struct db_rating *r = &ratings[i];
    struct db_pg_params p = {0};

    db_pg_text(&p, r->title);
    db_pg_text(&p, r->player);
    bind_double(&p, r->mu, mu);
    bind_double(&p, r->sigma, sigma);
    bind_double(&p, r->ordinal, ordinal);
    db_pg_int(&p, r->games);
    db_pg_int(&p, r->wins);
    db_pg_int(&p, r->draws);
    db_pg_int(&p, r->losses);
    db_pg_int(&p, r->updated_ms);
    st = db_pg_run(
        conn,
        "UPDATE ratings SET mu = $3::float8, sigma = $4::float8, ordinal = $5::float8,"
        " games = $6::integer, wins = $7::integer, draws = $8::integer,"
        " losses = $9::integer, updated_ms = $10::bigint WHERE title = $1 AND player = $2",
        &p, "writing ratings", err);
  }
  return st;
}

enum cairn_status db_pg_write_ratings(PGconn *conn, const char *game_id, int64_t at_ms,
                                      const struct db_rating_update *u, struct cairn_error *err)
{
  struct db_rating ratings[DB_RATED_PARTIES];
  struct db_pg_params p = {0};
  enum cairn_status st;

  assert(u->n >= 1 && u->n <= DB_RATED_PARTIES && u->rate);
  st = lock_rows(conn, u, err);
  if (st == CAIRN_OK)
    st = read_old(conn, u, ratings, err);
  if (st != CAIRN_OK)
    return st;
  u->rate(u->arg, ratings, u->n);
  st = write_new(conn, ratings, u->n, err);
  db_pg_text(&p, game_id);
  db_pg_int(&p, at_ms);
  if (st == CAIRN_OK)
    st = db_pg_run(conn, "INSERT INTO rated_games (game_id, at_ms) VALUES ($1, $2)", &p,
                   "recording a rated game", err);
  return st;
}

/* ---- listings ---- */

/* The caller's db_rating_cb, as db_pg_each_row's visitor. */
struct rating_visit {
  db_rating_cb cb;
  void *arg;
};

static enum cairn_status visit_rating(void *arg, const void *row, struct cairn_error *err)
{
  const struct rating_visit *v = arg;

  return v->cb(v->arg, row, err);
}

static enum cairn_status each(struct db_pg *c, const char *sql, const struct db_pg_params *p,
                              db_rating_cb cb, void *arg, struct cairn_error *err)
{
  struct rating_visit v = {cb, arg};

  return db_pg_each_row(c, sql, p, "loading ratings", sizeof(struct db_rating), read_rating,
                        visit_rating, &v, err);
}

enum cairn_status db_pg_ratings_of(void *ctx, const char *player, db_rating_cb cb, void *arg,
                                   struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, player);
  return each(ctx, RATING_SELECT " WHERE r.player = $1 AND r.games >= 0 ORDER BY r.title", &p, cb,
              arg, err);
}

enum cairn_status db_pg_leaderboard(void *ctx, const char *title, int offset, int limit,
                                    db_rating_cb cb, void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, title);
  db_pg_int(&p, offset);
  db_pg_int(&p, limit);
  return each(ctx,
              RATING_SELECT
              " WHERE r.title = $1 AND r.games >= 0 AND r.player NOT LIKE '" DB_SCENARIO_LIKE
              "' ORDER BY r.ordinal DESC, r.player"
              " OFFSET $2::bigint LIMIT $3::bigint",
              &p, cb, arg, err);
}

enum cairn_status db_pg_ratings_each(void *ctx, db_rating_cb cb, void *arg, struct cairn_error *err)
{
  return each(ctx, RATING_SELECT " WHERE r.games >= 0 ORDER BY r.title, r.player", NULL, cb, arg,
              err);
}

enum cairn_status db_pg_rated_games_each(void *ctx, db_game_id_cb cb, void *arg,
                                         struct cairn_error *err)
{
  char(*ids)[DB_ID_MAX + 1] = NULL;
  PGresult *res = NULL;
  enum cairn_status st;
  int i, n = 0;

  st = db_pg_read(ctx, "SELECT game_id FROM rated_games ORDER BY ord", NULL, &res,
                  "listing rated games", err);
  if (st == CAIRN_OK) {
    n = PQntuples(res);
    ids = calloc(n > 0 ? (size_t)n : 1, sizeof(*ids));
    if (!ids)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = db_pg_copy(res, i, 0, ids[i], sizeof(ids[i]), "listing rated games", err);
  PQclear(res);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, ids[i], err);
  free(ids);
  return st;
}

enum cairn_status db_pg_player_get(void *ctx, const char *id, struct db_player *out,
                                   struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  memset(out, 0, sizeof(*out));
  db_pg_text(&p, id);
  st = db_pg_read(ctx, "SELECT id, name FROM players WHERE id = $1", &p, &res, "loading a player",
                  err);
  if (st == CAIRN_OK && PQntuples(res) == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no player %s", id);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 0, out->id, sizeof(out->id), "loading a player", err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, 0, 1, out->name, sizeof(out->name), "loading a player", err);
  PQclear(res);
  return st;
}
