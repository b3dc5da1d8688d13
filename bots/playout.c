/*
 * playout.c - how the search plays a sampled world on past its tree
 * (bots.h, bot_playout) and what the end of that is worth to each seat.
 *
 * A title with a measure of its positions (the bot_evaluate slot) is
 * played a short way by a greedy hand: each seat in turn draws a few of
 * its legal moves, tries each on a copy of the world and keeps the one
 * its own measure likes best; the measure then scores where the line
 * stopped. Uniform random play was the first playout: in the titles whose
 * random games almost never win (Because It's There, Journey's climbers)
 * it told the search nothing. A title with a rule of thumb (the
 * bot_policy slot) is played by it, every seat, to the end (or PLAYOUT_MAX
 * steps), and scored as above: 12 greedy steps never saw a Because It's
 * There summit, which takes days of climbing and resting. A title without
 * a measure is played to its end (or PLAYOUT_MAX steps) at random and
 * scored by its result.
 */
#include "bots/bots.h"

/* Steps of a random playout before it is scored as unfinished: a random
 * game of the longest title (Because It's There, two seats) takes some 335. */
#define PLAYOUT_MAX 600
/* Steps of a greedy playout: a few decisions past the tree, far enough to
 * see what a move leads to (a Journey climber's turn, a Because It's
 * There team's climb), short enough to keep the noise of a long line of
 * guesses (the other seats', the draws') out of the measure: at 30 steps
 * a strong Journey climber that had summited wandered, the gain of a step
 * down lost in the noise. */
#define GREEDY_STEPS 12
/* Moves a greedy hand tries at each step. */
#define GREEDY_TRIES 4
/* What a finished game that `seat` did not win is worth beside a win, and
 * how much of a win an unfinished line can be worth: any win beats it. */
#define LOSS_WEIGHT       0.3
#define UNFINISHED_WEIGHT 0.9

bool bot_plain_list(const struct engine_game *world, int seat, const json_t *legal)
{
  json_t *first = engine_sample_move(world, seat, 0);
  bool plain = first && json_equal(first, json_array_get(legal, 0));

  json_decref(first);
  return plain;
}

uint64_t bot_draw64(struct engine_rng *rng)
{
  uint64_t low = engine_rng_next(rng);

  return low | (uint64_t)engine_rng_next(rng) << 32;
}

int bot_next_actor(const struct engine_game *world)
{
  int seats[ENGINE_MAX_SEATS];

  return engine_to_act(world, seats) > 0 ? seats[0] : -1;
}

/* Whether `seat` is among the winners of the finished `world`. */
static bool won(const struct engine_game *world, int seat)
{
  json_t *result = engine_result(world);
  const json_t *winners = json_object_get(result, "winners");
  bool yes = false;
  size_t i;

  for (i = 0; i < json_array_size(winners); i++)
    yes = yes || json_integer_value(json_array_get(winners, i)) == seat;
  json_decref(result);
  return yes;
}

/* `seat`'s reward for `world` where a playout left it, in [0, 1]. */
static double judge(const struct engine_game *world, int seat)
{
  double measure = 0;
  bool over = engine_is_over(world);

  if (over && won(world, seat))
    return 1;
  if (!engine_bot_evaluate(world, seat, &measure))
    return over ? 0 : 1.0 / world->seats;
  return (over ? LOSS_WEIGHT : UNFINISHED_WEIGHT) * measure;
}

/* The move of `seat` to play on from `world` (a new reference), or NULL
 * when none could be made: of up to GREEDY_TRIES distinct moves from its
 * legal list (one walk of the rules; a title listing moves compactly is
 * drawn from GREEDY_TRIES times instead), the one after which `world`
 * judges best for the seat. A move alone in its list is played untried.
 * *plain: whether the title's lists are plain, -1 until asked. */
static json_t *greedy_move(const struct engine_game *world, int seat, struct engine_rng *rng,
                           int *plain)
{
  json_t *legal = engine_legal_moves(world, seat), *best = NULL;
  size_t n = json_array_size(legal), tries = n < GREEDY_TRIES ? n : GREEDY_TRIES, i;
  bool listed;

  /* Whether the title lists its moves plainly, asked once a playout (each
   * asking is one more walk of the rules). */
  if (*plain < 0 && n > 0)
    *plain = bot_plain_list(world, seat, legal);
  listed = n > 0 && *plain == 1;
  double best_score = -1;

  if (!listed)
    tries = GREEDY_TRIES;
  for (i = 0; i < tries; i++) {
    /* Distinct draws from the list: a partial shuffle of its first `tries`. */
    size_t pick = listed ? i + engine_rng_below(rng, (uint32_t)(n - i)) : 0;
    json_t *move = listed ? json_incref(json_array_get(legal, pick))
                          : engine_sample_move(world, seat, bot_draw64(rng));
    struct engine_game *trial;
    struct cairn_error err;
    double score;

    if (listed && pick != i) {
      json_array_set(legal, pick, json_array_get(legal, i));
      json_array_set(legal, i, move);
    }
    if (listed && n == 1) {
      best = move;
      break;
    }
    trial = move ? engine_clone(world) : NULL;
    if (!trial || engine_replay_step(trial, seat, move, &err) != CAIRN_OK) {
      engine_free(trial);
      json_decref(move);
      continue;
    }
    score = judge(trial, seat);
    engine_free(trial);
    if (score > best_score) {
      json_decref(best);
      best = move;
      best_score = score;
    } else {
      json_decref(move);
    }
  }
  json_decref(legal);
  return best;
}

/* The move of `seat` to play on from `world` (a new reference), or NULL
 * when none could be made: the title's rule of thumb, its greedy choice by
 * its measure, or a random legal move, whichever the title allows. */
static json_t *playout_move(const struct engine_game *world, int seat, struct engine_rng *rng,
                            bool greedy, int *plain)
{
  if (world->module->bot_policy)
    return world->module->bot_policy(world, seat, bot_draw64(rng));
  if (greedy)
    return greedy_move(world, seat, rng, plain);
  return engine_sample_move(world, seat, bot_draw64(rng));
}

bool bot_playout(struct engine_game *world, struct engine_rng *rng, double reward[ENGINE_MAX_SEATS])
{
  struct cairn_error err;
  double unused;
  bool greedy = engine_bot_evaluate(world, 0, &unused);
  /* A title's rule of thumb plays to the end: its lines are worth
   * following as far as they go, where greedy guesses drown in noise. */
  int steps, seat, limit = greedy && !world->module->bot_policy ? GREEDY_STEPS : PLAYOUT_MAX,
                   plain = -1;

  for (steps = 0; steps < limit && (seat = bot_next_actor(world)) >= 0; steps++) {
    json_t *move = playout_move(world, seat, rng, greedy, &plain);
    enum cairn_status st;

    if (!move)
      return false;
    st = engine_replay_step(world, seat, move, &err);
    json_decref(move);
    if (st != CAIRN_OK)
      return false;
  }
  for (seat = 0; seat < world->seats; seat++)
    reward[seat] = judge(world, seat);
  return true;
}
