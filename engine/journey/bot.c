/*
 * bot.c - what the built-in bots know of Journey to the Top of the World
 * beyond its rules: how well a seat is doing (the bot_evaluate slot,
 * engine.h). Random climbers wander: the way up that pays no food takes
 * some fifteen actions round the mountain, so a random playout almost
 * never brings both to the top and back, and the result alone gives a
 * search nothing to follow. The measure is the actions each climber still
 * needs (up by the cheapest way its food and hooks allow, then down),
 * with their safety beside it (health, a crevice and a Rope, weighed so
 * that the climber nearer death counts most); the Mountain's is the
 * climbers' complement.
 * Called on worlds a bot sampled from its own view and on its playouts of
 * them; never on a real game.
 */
#include "engine/journey/state.h"

#include <math.h>

/* Food counted in the search for a way up: more than any way needs. */
#define FOOD_CAP 12
/* Distances are in actions; anything unreachable is this far. */
#define FAR 1000
/* Weights of the climbers' measure: the way to go, and their safety. */
#define WAY_WEIGHT    0.65
#define SAFETY_WEIGHT 0.35
/* A climber's reserve, in health: the health a crevice still costs a
 * climber with no Rope (it escapes on a 4 at each turn's start and loses
 * one at each end: five turns on average), what it costs one holding a
 * Rope (an action and the Rope), and what a Rope held is worth against the
 * next crevice. Every death in 40 traced games against a random Mountain
 * was a climber left in a crevice with no Rope, or with one it kept
 * unused while health was all the measure counted. */
#define CREVICE_LOSS      5.0
#define CREVICE_WITH_ROPE 1.0
#define ROPE_RESERVE      1.5
/* How a climber's safety grows with its reserve r: 1 - exp(-r / SCALE),
 * so a point of health is worth most to the climber nearest death; the
 * climbers' safety is the product of theirs (either death loses). Tried
 * and dropped: Food counted as reserve (climbers kept it and stopped
 * paying for the way up), and High Wind's and the O2 zone's damage to
 * come counted against a climber high up (they stayed low: 3 of 40). */
#define SAFETY_SCALE 4.0
/* The reserve of a climber at full health holding a Rope: safety 1. */
#define FULL_RESERVE (JOURNEY_HEALTH + ROPE_RESERVE)

static const int directions[] = {JOURNEY_UP, JOURNEY_DOWN, JOURNEY_CLOCKWISE,
                                 JOURNEY_COUNTERCLOCKWISE};

/* Fewest actions from `from` holding `food` to any space of the top (up
 * pays the food printed on the space left, a step down or around is free),
 * by a breadth-first walk over (space, food left); FAR when none. */
static int actions_up(int from, int food)
{
  static const int none = -1;
  int dist[JOURNEY_SPACES][FOOD_CAP + 1], queue[JOURNEY_SPACES * (FOOD_CAP + 1)][2];
  int head = 0, tail = 0, s, f, d;

  for (s = 0; s < JOURNEY_SPACES; s++)
    for (f = 0; f <= FOOD_CAP; f++)
      dist[s][f] = none;
  food = food > FOOD_CAP ? FOOD_CAP : food;
  dist[from][food] = 0;
  queue[tail][0] = from;
  queue[tail++][1] = food;
  while (head < tail) {
    int space = queue[head][0], left = queue[head++][1];

    if (journey_level(space) == JOURNEY_TOP)
      return dist[space][left];
    for (d = 0; d < 4; d++) {
      int to = journey_step(space, directions[d]), cost = 0;

      if (to < 0)
        continue;
      if (directions[d] == JOURNEY_UP && space != JOURNEY_BASE_CAMP)
        cost = journey_ascend_cost(space);
      if (cost > left || dist[to][left - cost] != none)
        continue;
      dist[to][left - cost] = dist[space][left] + 1;
      queue[tail][0] = to;
      queue[tail++][1] = left - cost;
    }
  }
  return FAR;
}

/* Fewest actions from `from` down to base camp (every step free). */
static int actions_down(int from)
{
  int dist[JOURNEY_SPACES], queue[JOURNEY_SPACES], head = 0, tail = 0, s, d;

  for (s = 0; s < JOURNEY_SPACES; s++)
    dist[s] = -1;
  dist[from] = 0;
  queue[tail++] = from;
  while (head < tail) {
    int space = queue[head++];

    if (space == JOURNEY_BASE_CAMP)
      return dist[space];
    for (d = 0; d < 4; d++) {
      int to = journey_step(space, directions[d]);

      if (to >= 0 && dist[to] < 0) {
        dist[to] = dist[space] + 1;
        queue[tail++] = to;
      }
    }
  }
  return FAR;
}

/* The share of the whole journey (base camp to the top and back) climber
 * `p` has behind it, in [0, 1]. A hook counts as one food: it lifts a
 * climber past one paid ascent. */
static double way_done(const struct journey_climber *p)
{
  int down_from_top = actions_down(journey_space(JOURNEY_TOP, JOURNEY_S));
  int whole = actions_up(JOURNEY_BASE_CAMP, 0) + down_from_top, left;

  if (p->summited) {
    left = actions_down(p->space);
  } else {
    int up = actions_up(p->space, p->items[JOURNEY_FOOD] + p->items[JOURNEY_HOOK]);

    left = (up < FAR ? up : actions_up(p->space, FOOD_CAP) + whole / 2) + down_from_top;
  }
  return left >= whole ? 0 : 1.0 - (double)left / whole;
}

/* Climber `c`'s reserve: its health, less what a crevice it is in will
 * cost it, plus what a Rope may save (the constants above). */
static double reserve(const struct journey_climber *p)
{
  double r = p->health;

  if (p->in_crevice)
    r -= p->items[JOURNEY_ROPE] > 0 ? CREVICE_WITH_ROPE : CREVICE_LOSS;
  else if (p->items[JOURNEY_ROPE] > 0)
    r += ROPE_RESERVE;
  return r > 0 ? r : 0;
}

static double safety(const struct journey_climber *p)
{
  return (1 - exp(-reserve(p) / SAFETY_SCALE)) / (1 - exp(-FULL_RESERVE / SAFETY_SCALE));
}

/* How well the climbers are doing, in [0, 1]: both must get there, so the
 * slower one counts as much as both together, and both must live. */
static double climbers_measure(const struct journey_state *st)
{
  double a = way_done(&st->climber[0]), b = way_done(&st->climber[1]);
  double way = 0.5 * (a + b) / 2 + 0.5 * (a < b ? a : b);

  if (st->end == JOURNEY_END_CLIMBERS)
    return 1;
  if (st->end != JOURNEY_RUNNING)
    return 0;
  return WAY_WEIGHT * way + SAFETY_WEIGHT * safety(&st->climber[0]) * safety(&st->climber[1]);
}

double journey_bot_evaluate(const struct engine_game *game, int seat)
{
  double climbers = climbers_measure((const struct journey_state *)game);

  return seat == JOURNEY_MOUNTAIN ? 1 - climbers : climbers;
}
