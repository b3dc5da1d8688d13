/*
 * ratings.c - the Weng-Lin rating of a game's end (issue 25): which games
 * are rated and how their parties placed, and the Plackett-Luce update of
 * Weng & Lin (2011, "A Bayesian Approximation Method for Online Ranking",
 * algorithm 4), as OpenSkill computes it. docs/ratings.md has the formulas
 * and constants; this file follows it line by line, in the parties' order,
 * so the update is a pure function of its inputs and a recomputation over
 * the same games in the same order gives the same bits.
 */
#include "ratings.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- which games are rated, and their placings ---- */

static bool seats_are_people(const struct db_game *row)
{
  int i, j;

  if (row->imported)
    return false; /* not played here: nothing to vouch for */
  for (i = 0; i < row->seats; i++) {
    if (!row->seat_player[i][0] ||
        strncmp(row->seat_player[i], DB_BOT_PREFIX, strlen(DB_BOT_PREFIX)) == 0)
      return false;
    for (j = 0; j < i; j++)
      if (strcmp(row->seat_player[i], row->seat_player[j]) == 0)
        return false;
  }
  return true;
}

static bool is_winner(const json_t *winners, int seat)
{
  size_t i;
  json_t *w;

  json_array_foreach(winners, i, w)
  {
    if (json_is_integer(w) && json_integer_value(w) == seat)
      return true;
  }
  return false;
}

/* A solo game: the player against the scenario's pseudo-player, who wins
 * when the player does not. The scenario is the game's "scenario" option
 * ("default" when it was left to the title), so one scenario keeps one
 * pseudo-player however its games end (a resignation's result names no
 * scenario). */
static void plan_solo(const struct db_game *row, const json_t *result, struct game_rating_plan *p)
{
  json_t *options = json_loads(row->options_json ? row->options_json : "{}", 0, NULL);
  const char *scenario = json_string_value(json_object_get(options, "scenario"));
  bool won = is_winner(json_object_get(result, "winners"), 0);

  p->n = 2;
  snprintf(p->parties[0], sizeof(p->parties[0]), "%s", row->seat_player[0]);
  snprintf(p->parties[1], sizeof(p->parties[1]), GAME_RATING_SCENARIO_PREFIX "%s:%.40s", row->title,
           scenario ? scenario : "default");
  p->rank[0] = won ? 1 : 2;
  p->rank[1] = won ? 2 : 1;
  json_decref(options);
}

/* Seats placed by the result's winners: the winners first, the rest
 * together after them; no winner at all is a draw. Each seat is its own
 * team: no title here has seats that play as one. */
static void plan_seats(const struct db_game *row, const json_t *result, struct game_rating_plan *p)
{
  const json_t *winners = json_object_get(result, "winners");
  int i;

  p->n = row->seats;
  for (i = 0; i < row->seats; i++) {
    snprintf(p->parties[i], sizeof(p->parties[i]), "%s", row->seat_player[i]);
    p->rank[i] = json_array_size(winners) == 0 || is_winner(winners, i) ? 1 : 2;
  }
}

static void rate(void *arg, struct db_rating *ratings, int n)
{
  (void)n;
  game_ratings_update(arg, ratings);
}

const struct db_rating_update *game_ratings_plan(const struct db_game *row, const char *result_json,
                                                 int64_t at_ms, struct game_rating_plan *plan)
{
  json_t *result = result_json ? json_loads(result_json, 0, NULL) : NULL;
  const char *reason = json_string_value(json_object_get(result, "reason"));
  bool rated = result && json_is_array(json_object_get(result, "winners")) &&
               seats_are_people(row) && !(reason && strcmp(reason, "timeout") == 0);
  int i;

  memset(plan, 0, sizeof(*plan));
  if (rated) {
    if (row->seats == 1)
      plan_solo(row, result, plan);
    else
      plan_seats(row, result, plan);
    for (i = 0; i < plan->n; i++) {
      plan->ids[i] = plan->parties[i];
      plan->team[i] = i;
    }
    plan->at_ms = at_ms;
    snprintf(plan->title, sizeof(plan->title), "%s", row->title);
    plan->update = (struct db_rating_update){
        .title = plan->title, .n = plan->n, .players = plan->ids, .rate = rate, .arg = plan};
  }
  json_decref(result);
  return rated ? &plan->update : NULL;
}

/* ---- the update (docs/ratings.md, "The update") ---- */

/* One team: its members' sums (mu_i, sigma_i^2) and rank. */
struct team {
  double mu, sigma_sq;
  int rank;
  bool used;
};

void game_ratings_update(const struct game_rating_plan *plan, struct db_rating *ratings)
{
  struct team teams[DB_RATED_PARTIES] = {{0}};
  double mu[DB_RATED_PARTIES], sigma[DB_RATED_PARTIES];
  double omega[DB_RATED_PARTIES] = {0}, delta[DB_RATED_PARTIES] = {0};
  double sum_q[DB_RATED_PARTIES] = {0};
  int a[DB_RATED_PARTIES] = {0};
  double c_sq = 0, c;
  int i, q, n = plan->n, best = plan->rank[0], worst = plan->rank[0];

  /* Start (never rated: the prior) and the dynamics tau, then the teams. */
  for (i = 0; i < n; i++) {
    struct team *t = &teams[plan->team[i]];

    mu[i] = ratings[i].known ? ratings[i].mu : GAME_RATING_MU;
    sigma[i] = ratings[i].known ? ratings[i].sigma : GAME_RATING_SIGMA;
    sigma[i] = sqrt(sigma[i] * sigma[i] + GAME_RATING_TAU * GAME_RATING_TAU);
    t->mu += mu[i];
    t->sigma_sq += sigma[i] * sigma[i];
    t->rank = plan->rank[i];
    t->used = true;
    best = plan->rank[i] < best ? plan->rank[i] : best;
    worst = plan->rank[i] > worst ? plan->rank[i] : worst;
  }
  for (i = 0; i < n; i++)
    if (teams[i].used)
      c_sq += teams[i].sigma_sq + GAME_RATING_BETA * GAME_RATING_BETA;
  c = sqrt(c_sq);
  for (q = 0; q < n; q++)
    for (i = 0; i < n && teams[q].used; i++)
      if (teams[i].used) {
        if (teams[i].rank >= teams[q].rank)
          sum_q[q] += exp(teams[i].mu / c);
        a[q] += teams[i].rank == teams[q].rank;
      }
  for (i = 0; i < n; i++) {
    double e = exp(teams[i].mu / c);

    for (q = 0; q < n && teams[i].used; q++) {
      double p;

      if (!teams[q].used || teams[q].rank > teams[i].rank)
        continue;
      p = e / sum_q[q];
      omega[i] += ((q == i ? 1.0 : 0.0) - p) / a[q];
      delta[i] += p * (1.0 - p) / a[q];
    }
    omega[i] *= teams[i].sigma_sq / c;
    delta[i] *= sqrt(teams[i].sigma_sq) / c * teams[i].sigma_sq / c_sq;
  }
  for (i = 0; i < n; i++) {
    const struct team *t = &teams[plan->team[i]];
    double share = sigma[i] * sigma[i] / t->sigma_sq;
    double shrink = 1.0 - share * delta[plan->team[i]];
    struct db_rating *r = &ratings[i];

    r->mu = mu[i] + share * omega[plan->team[i]];
    r->sigma = sigma[i] * sqrt(shrink > GAME_RATING_KAPPA ? shrink : GAME_RATING_KAPPA);
    r->ordinal = r->mu - 3.0 * r->sigma;
    r->known = true;
    /* Counted for the profile: a win is a best place not shared by all,
     * a draw a game where all placed alike, a loss any other place. */
    r->games++;
    r->wins += best != worst && plan->rank[i] == best;
    r->draws += best == worst;
    r->losses += plan->rank[i] != best;
    r->updated_ms = plan->at_ms;
  }
}
