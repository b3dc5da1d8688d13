/*
 * ratings.c - `cairn ratings-recompute [--db PATH|URL]` (issue 25):
 * recompute every rating from the finished games, in the order their ends
 * committed (the store's rated games), and compare with the stored ones,
 * bit for bit. Each game's parties and placings come from its row and the
 * result its last log row committed, its end time from that row; the update
 * is the same pure function the server ran (game/ratings.c). Prints JSON
 * {games, ratings, mismatches, first} and exits 0 when every stored rating
 * is reproduced exactly (and none is missing or extra), 1 otherwise, 2 on
 * an error. Nothing is written. Run it on a stopped server's store (or a
 * backup): a game ending meanwhile would be counted by one side only.
 */
#include "tools.h"

#include "../game/ratings.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The recomputed ratings: a growing array, searched by (title, party). A
 * recomputation visits each rated game's parties once, so its cost is the
 * games times the ratings; fine for the stores this checks, and simple. */
struct table {
  struct db_rating *at; /* owned */
  int n, cap;
  long games;
  struct db *db;
};

static struct db_rating *find(struct table *t, const char *title, const char *player)
{
  int i;

  for (i = 0; i < t->n; i++)
    if (strcmp(t->at[i].title, title) == 0 && strcmp(t->at[i].player, player) == 0)
      return &t->at[i];
  return NULL;
}

static struct db_rating *find_or_add(struct table *t, const char *title, const char *player)
{
  struct db_rating *r = find(t, title, player);

  if (r)
    return r;
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    struct db_rating *grown = realloc(t->at, (size_t)cap * sizeof(*grown));

    if (!grown)
      return NULL;
    t->at = grown;
    t->cap = cap;
  }
  r = &t->at[t->n++];
  memset(r, 0, sizeof(*r));
  snprintf(r->title, sizeof(r->title), "%s", title);
  snprintf(r->player, sizeof(r->player), "%s", player);
  return r;
}

static enum cairn_status last_row_time(void *arg, const struct db_move *m, struct cairn_error *err)
{
  (void)err;
  *(int64_t *)arg = m->at_ms;
  return CAIRN_OK;
}

/* One rated game, applied to the table as its end applied it. */
static enum cairn_status replay_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct table *t = arg;
  struct db_game row = {0};
  struct game_rating_plan plan;
  struct db_rating ratings[DB_RATED_PARTIES];
  int64_t at_ms = 0;
  enum cairn_status st;
  int i;

  st = db_game_load(t->db, game_id, &row, err);
  if (st == CAIRN_OK && row.moves > 0)
    st = db_moves_load(t->db, game_id, row.moves - 1, last_row_time, &at_ms, err);
  if (st == CAIRN_OK && !game_ratings_plan(&row, row.result_json, at_ms, &plan))
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "game %s is listed as rated, but its row says it is not", game_id);
  for (i = 0; st == CAIRN_OK && i < plan.n; i++) {
    struct db_rating *r = find_or_add(t, plan.title, plan.parties[i]);

    if (!r)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    else
      ratings[i] = *r;
  }
  if (st == CAIRN_OK) {
    game_ratings_update(&plan, ratings);
    for (i = 0; i < plan.n; i++)
      *find(t, plan.title, plan.parties[i]) = ratings[i];
    t->games++;
  }
  db_game_clear(&row);
  return st;
}

struct check {
  struct table *table;
  int stored, mismatches;
  json_t *first; /* the first mismatches, for the report */
};

static bool same(const struct db_rating *a, const struct db_rating *b)
{
  return memcmp(&a->mu, &b->mu, sizeof(a->mu)) == 0 &&
         memcmp(&a->sigma, &b->sigma, sizeof(a->sigma)) == 0 &&
         memcmp(&a->ordinal, &b->ordinal, sizeof(a->ordinal)) == 0 && a->games == b->games &&
         a->wins == b->wins && a->draws == b->draws && a->losses == b->losses &&
         a->updated_ms == b->updated_ms;
}

static void note_mismatch(struct check *c, const struct db_rating *stored,
                          const struct db_rating *computed)
{
  c->mismatches++;
  if (json_array_size(c->first) < 10)
    json_array_append_new(c->first, json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "title",
                                              stored->title, "player", stored->player, "stored_mu",
                                              stored->mu, "stored_sigma", stored->sigma,
                                              "computed_mu", computed ? computed->mu : 0.0,
                                              "computed_sigma", computed ? computed->sigma : 0.0));
}

static enum cairn_status compare(void *arg, const struct db_rating *stored, struct cairn_error *err)
{
  struct check *c = arg;
  struct db_rating *computed = find(c->table, stored->title, stored->player);

  (void)err;
  c->stored++;
  if (!computed || !same(stored, computed))
    note_mismatch(c, stored, computed);
  return CAIRN_OK;
}

int cli_ratings_recompute(const char *db_url)
{
  struct table t = {0};
  struct check c = {.table = &t, .first = json_array()};
  struct cairn_error err = {0};
  json_t *report;
  int status = 2;

  if (db_open(db_url, &t.db, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn ratings-recompute: cannot open %s: %s\n", db_url, err.detail);
    json_decref(c.first);
    return 2;
  }
  if (db_rated_games_each(t.db, replay_game, &t, &err) != CAIRN_OK ||
      db_ratings_each(t.db, compare, &c, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn ratings-recompute: %s\n", err.detail);
  } else {
    /* A rating computed but not stored is a mismatch too. */
    c.mismatches += t.n - c.stored > 0 ? t.n - c.stored : 0;
    report = json_pack("{s:I, s:i, s:i, s:i, s:O}", "games", (json_int_t)t.games, "ratings", t.n,
                       "stored", c.stored, "mismatches", c.mismatches, "first", c.first);
    json_dumpf(report, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
    fputc('\n', stdout);
    json_decref(report);
    status = c.mismatches ? 1 : 0;
  }
  json_decref(c.first);
  free(t.at);
  db_close(t.db);
  return status;
}
