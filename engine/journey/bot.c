/*
 * bot.c - what the built-in bots know of Journey to the Top of the World
 * beyond its rules: how well a seat is doing (the bot_evaluate slot,
 * engine.h). Random climbers wander: the way up that pays no food takes
 * some fifteen actions round the mountain, so a random playout almost
 * never brings both to the top and back, and the result alone gives a
 * search nothing to follow. The measure is the actions each climber still
 * needs (up by the cheapest way its food and hooks allow, then down),
 * with health beside it; the Mountain's is the climbers' complement.
 * Called on worlds a bot sampled from its own view and on its playouts of
 * them; never on a real game.
 */
#include "engine/journey/state.h"

/* Food counted in the search for a way up: more than any way needs. */
#define FOOD_CAP 12
/* Distances are in actions; anything unreachable is this far. */
#define FAR 1000
/* Weights of the climbers' measure: the way to go, and their health (at
 * 0.2 strong climbers won 16 of 20 against a random Mountain, every loss
 * a death; at 0.35, 17). */
#define WAY_WEIGHT    0.65
#define HEALTH_WEIGHT 0.35

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

/* How well the climbers are doing, in [0, 1]: both must get there, so the
 * slower one counts as much as both together. */
static double climbers_measure(const struct journey_state *st)
{
  double a = way_done(&st->climber[0]), b = way_done(&st->climber[1]);
  double way = 0.5 * (a + b) / 2 + 0.5 * (a < b ? a : b);
  double health = (st->climber[0].health + st->climber[1].health) / (2.0 * JOURNEY_HEALTH);

  if (st->end == JOURNEY_END_CLIMBERS)
    return 1;
  if (st->end != JOURNEY_RUNNING)
    return 0;
  return WAY_WEIGHT * way + HEALTH_WEIGHT * health;
}

double journey_bot_evaluate(const struct engine_game *game, int seat)
{
  double climbers = climbers_measure((const struct journey_state *)game);

  return seat == JOURNEY_MOUNTAIN ? 1 - climbers : climbers;
}
