/*
 * bot.c - what the built-in bots know of Everest beyond its rules: how well
 * a seat is doing (the bot_evaluate slot, engine.h). The game is king of
 * the hill, so a seat is doing well when its yeti stands higher than every
 * other, with coins left to plan with; the peak held at a round's start
 * is half a win. Random plans make a game's result mostly luck, so a
 * search that played each sample out at random to the end learnt little
 * from it. Called on worlds a bot sampled from its own view and on its
 * playouts of them; never on a real game.
 */
#include "engine/everest/state.h"

/* Weights of a yeti's standing: its height, its coins, holding the peak. */
#define HEIGHT_WEIGHT 0.7
#define COINS_WEIGHT  0.2
#define PEAK_WEIGHT   0.1

/* How well `seat`'s yeti stands, in [0, 1]. */
static double standing(const struct everest_state *st, int seat)
{
  int cell = st->yeti[seat].cell;
  double height = cell == EVEREST_OFF ? 0 : (everest_height(cell) - 1) / 4.0;

  return HEIGHT_WEIGHT * height + COINS_WEIGHT * everest_available(st, seat) / EVEREST_COINS +
         PEAK_WEIGHT * (st->peak_holder == seat);
}

/* The bot_evaluate slot: half and half of the seat's standing against the
 * best other seat's, 1 for the winner and 0 for the others once over. */
double everest_bot_evaluate(const struct engine_game *game, int seat)
{
  const struct everest_state *st = (const struct everest_state *)game;
  double best_other = 0;
  int s;

  if (st->winner >= 0)
    return st->winner == seat;
  for (s = 0; s < game->seats; s++)
    if (s != seat && standing(st, s) > best_other)
      best_other = standing(st, s);
  return 0.5 + 0.5 * (standing(st, seat) - best_other);
}
