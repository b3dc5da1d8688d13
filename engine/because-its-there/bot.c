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
/* What a Camp and Unloaded Supplies on the route are worth, in routes, at
 * the Summit's height (less lower down): each adds one to a Night's
 * recovery there, the way a climb pays for itself; Supplies a team
 * carries, half. The support counted is capped: a route full of Camps
 * climbs nothing by itself. */
#define CAMP_WORTH     0.15
#define SUPPLIES_WORTH 0.1
#define SUPPORT_MAX    0.5

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

/* How sure a Climber is to keep the height it reached: at Near Death (0)
 * a Night's loss kills it, with 1 left a bad one may; in Advance Base Camp
 * nothing is at stake. */
static double safety_of_strength(int strength)
{
  return strength >= 2 ? 1 : strength == 1 ? 0.7 : 0.35;
}

/* The share of its height Climber `c` keeps (safety_of_strength). */
static double safety(const struct bit_state *st, int c)
{
  return st->loc[c].at == BIT_ABC ? 1 : safety_of_strength(st->strength[c]);
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
  route = bit_route_of(st, l->at);
  /* 1963: Player Two comes down the South Col (route 0), not its own. */
  if (st->summited[c] && !(st->scenario == BIT_1963 && seat == 1 && route == seat))
    height = 2 - height;
  return height * safety(st, c) + STRENGTH_WORTH * st->strength[c];
}

/* What a card in the seat's hand is worth, in routes: a Climber a little
 * (one that can climb next turn), anything else less; so a hand is drawn
 * to five and a useful card is not thrown away for nothing. */
#define HAND_CLIMBER_WORTH 0.03
#define HAND_CARD_WORTH    0.0

/* The seat's hand, in routes. */
static double hand_worth(const struct bit_state *st, int seat)
{
  double sum = 0;
  int c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SPECIAL_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_HAND && st->loc[c].seat == seat)
      sum += c < BIT_SHERPA_FIRST ? HAND_CLIMBER_WORTH : HAND_CARD_WORTH;
  return sum;
}

/* What each team waiting in Advance Base Camp costs, in routes, and a
 * hair more for each card in a team of a higher slot: nothing to speak
 * of, but without it moving a card from one team there to another changed
 * nothing, and a search among equals shuffled Climbers and Supplies
 * between teams for dozens of moves before it was ready. With it every
 * such move gains or loses a little, so a bot (which takes the best of
 * the moves its search cannot tell apart, bots/ismcts.c) merges teams
 * towards the lowest slot and then stops. */
#define ABC_TEAM_COST 0.02
#define ABC_SLOT_COST 0.001

/* The cost of the seat's teams in Advance Base Camp. */
static double abc_cost(const struct bit_state *st, int seat)
{
  double sum = 0;
  int t, c;

  for (t = 0; t < BIT_TEAMS; t++)
    if (st->team[seat][t].used && bit_team_at(st, seat, t) == BIT_ABC)
      sum += ABC_TEAM_COST;
  for (c = BIT_CLIMBER_FIRST; c < BIT_CAMP_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at == BIT_ABC &&
        st->loc[c].team > 0)
      sum += ABC_SLOT_COST * st->loc[c].team;
  return sum;
}

/* The Camps and Supplies the seat has on its route, in routes (capped). */
static double support(const struct bit_state *st, int seat)
{
  double sum = 0;
  int c;

  for (c = BIT_SUPPLY_FIRST; c < BIT_SPECIAL_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];

    if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat || l->at == BIT_ABC)
      continue;
    if (l->role == BIT_R_CAMP)
      sum += CAMP_WORTH * height_of(st, l->at);
    else if (l->role == BIT_R_UNLOADED)
      sum += SUPPLIES_WORTH * height_of(st, l->at);
    else if (l->role == BIT_R_LOADED || l->role == BIT_R_CACHED)
      sum += 0.5 * SUPPLIES_WORTH * height_of(st, l->at);
  }
  return sum < SUPPORT_MAX ? sum : SUPPORT_MAX;
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

/* The bot_evaluate slot: the worth of the seat's best `wanted` Climbers,
 * of its support on the route and of its hand, over the most they can be
 * worth. */
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
  return (sum + support(st, seat) + hand_worth(st, seat) - abc_cost(st, seat)) /
         (wanted * CLIMBER_MAX + SUPPORT_MAX + BIT_HAND * HAND_CLIMBER_WORTH);
}
