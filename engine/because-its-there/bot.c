/*
 * bot.c - what the built-in bots know of Because It's There! beyond its
 * rules: how well a seat is doing (the bot_evaluate slot, engine.h), so a
 * search whose playouts stop short of turn 20 still tells a line that
 * climbed from one that did not. Random play almost never summits (a
 * random team spends its Strength going up and down), so the result alone
 * gives a search nothing to follow. Called on worlds a bot sampled from
 * its own view and on its playouts of them; never on a real game.
 */
#include "engine/because-its-there/state.h"

/* A Climber's way, in routes: 0 in Advance Base Camp (or not on the
 * mountain), 1 on the Summit, 2 back in Advance Base Camp after it. */
#define WAY_DONE 2.0
/* What one Strength level is worth, in routes: about a quarter of a
 * Terrain card (a card's exit costs 0 to 4), so a climb that pays its
 * cost still scores higher, and a Climber with Strength left to climb on
 * scores above one that spent it. */
#define STRENGTH_WORTH 0.035
/* The most a Climber can score: the whole way and full Strength. */
#define CLIMBER_MAX (WAY_DONE + 8 * STRENGTH_WORTH)

/* The share of its route below `at` (a Terrain card, the Summit or
 * Advance Base Camp): 0 in Advance Base Camp, 1 on the Summit. */
static double height_of(const struct bit_state *st, int at)
{
  int route;

  if (at == BIT_SUMMIT)
    return 1;
  route = bit_route_of(st, at);
  if (at == BIT_ABC || route < 0)
    return 0;
  return (bit_index_of(st, at) + 1.0) / (st->route_len[route] + 1.0);
}

/* How far Climber `c` of `seat` got on the way the scenario asks, in
 * routes (0 .. WAY_DONE), plus what its Strength is worth. */
static double climber_worth(const struct bit_state *st, int seat, int c)
{
  const struct bit_loc *l = &st->loc[c];
  double height;
  int route;

  if (l->zone == BIT_Z_DEAD || l->zone == BIT_Z_BOX)
    return 0;
  if (st->returned[c])
    return WAY_DONE;
  if (l->zone != BIT_Z_MOUNTAIN)
    return 0; /* in a hand or a pile: not yet on the way */
  height = height_of(st, l->at);
  if (!st->summited[c])
    return height + STRENGTH_WORTH * st->strength[c];
  /* 1963: Player Two comes down the South Col (route 0), not its own. */
  route = bit_route_of(st, l->at);
  if (st->scenario == BIT_1963 && seat == 1 && route == seat)
    return height + STRENGTH_WORTH * st->strength[c];
  return 2 - height + STRENGTH_WORTH * st->strength[c];
}

/* How many Climbers the scenario wants back from the Summit: one in 1924,
 * two in 1953 and 1963, every one in Dream Teams (each one's VP). */
static int climbers_wanted(const struct bit_state *st)
{
  switch (st->scenario) {
  case BIT_1924:
    return 1;
  case BIT_DREAM:
    return 6;
  default:
    return 2;
  }
}

/* The bot_evaluate slot: the mean worth of the seat's best `wanted`
 * Climbers over the most they can be worth. */
double bit_bot_evaluate(const struct engine_game *game, int seat)
{
  const struct bit_state *st = (const struct bit_state *)game;
  double best[6] = {0}, sum = 0;
  int wanted = climbers_wanted(st), c, i, j;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
    double worth;

    if (st->loc[c].seat != seat)
      continue;
    worth = climber_worth(st, seat, c);
    /* Keep best[] sorted, highest first: insert `worth` where it goes. */
    for (i = 0; i < wanted && best[i] >= worth; i++)
      ;
    for (j = wanted - 1; i < wanted && j > i; j--)
      best[j] = best[j - 1];
    if (i < wanted)
      best[i] = worth;
  }
  for (i = 0; i < wanted; i++)
    sum += best[i];
  return sum / (wanted * CLIMBER_MAX);
}
