/*
 * ratings.h - players' ratings per title (issue 25; docs/ratings.md has
 * the model, its formulas and constants): deciding whether a game that
 * ends is rated and how its parties placed (game_ratings_plan), and the
 * update itself, a pure function of the old ratings and the placings
 * (game_ratings_update), which the append ending the game runs inside its
 * transaction and `cairn ratings-recompute` runs again over the logs.
 */
#ifndef GAME_RATINGS_H
#define GAME_RATINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "../db/db.h"

/* Weng-Lin (OpenSkill) constants: docs/ratings.md says why each. */
#define GAME_RATING_MU    25.0
#define GAME_RATING_SIGMA (25.0 / 3.0)
#define GAME_RATING_BETA  (25.0 / 6.0)
#define GAME_RATING_TAU   (25.0 / 300.0)
#define GAME_RATING_KAPPA 0.0001
/* A solo scenario's pseudo-player: "scenario:<title>:<name>". */
#define GAME_RATING_SCENARIO_PREFIX "scenario:"

/* How one rated game placed its parties, and the storage update that
 * carries it (`update`, whose pointers point into this struct: keep it
 * where it is while the update is in use). */
struct game_rating_plan {
  int n;                                            /* parties: the seats, and a solo's scenario */
  char parties[DB_RATED_PARTIES][DB_RATED_MAX + 1]; /* player ids, or the scenario's */
  const char *ids[DB_RATED_PARTIES];                /* parties[i], for `update` */
  int rank[DB_RATED_PARTIES];                       /* 1 the best; equal ranks tie */
  int team[DB_RATED_PARTIES];                       /* 0..n-1: parties with one team play as one */
  int64_t at_ms;                                    /* the end: each rating's updated_ms */
  char title[DB_TITLE_MAX + 1];
  struct db_rating_update update;
};

/* Whether `row`, ending now (at `at_ms`) with `result_json` (the result
 * the ending row stores), is rated: its seats all held by distinct people
 * (no bot of the server's), not imported, and not ended by a timeout's
 * adjudication (an abandoned game). When it is, *plan is filled and its
 * storage update returned (borrowed from *plan); NULL when it is not. */
const struct db_rating_update *game_ratings_plan(const struct db_game *row, const char *result_json,
                                                 int64_t at_ms, struct game_rating_plan *plan);

/* The update: ratings[0..plan->n) (the plan's parties in order, as
 * stored; `known` false for one never rated) replaced by their ratings
 * after the game. A pure function of its arguments, computed in a fixed
 * order, so the same inputs give the same bits every time. */
void game_ratings_update(const struct game_rating_plan *plan, struct db_rating *ratings);

#endif
