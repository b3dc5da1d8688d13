/*
 * eval.c - how far a seat got in a playout that it did not win: a score in
 * [0, 1] the search adds, scaled down, to a loss or an unfinished game, so
 * a title whose random playouts almost never succeed (Because It's There
 * solo: a random team never reaches the Summit) still tells the search
 * which line got further. Read from the seat's own view of the playout's
 * world, like everything a bot knows. Titles with no entry score 0: their
 * playouts end in wins often enough.
 */
#include "bots/bots.h"

#include <string.h>

/* Because It's There: the highest of the seat's Climbers on its route, as
 * the share of the way from Advance Base Camp (0) to the Summit (1); a
 * Climber that summited counts 1. */
static double bit_progress(const json_t *view, int seat)
{
  const json_t *routes = json_object_get(view, "routes");
  const json_t *me = json_array_get(json_object_get(view, "seats"), (size_t)seat);
  const json_t *teams = json_object_get(me, "teams"), *terrain = NULL, *team, *card;
  size_t i, j, k;
  double best = 0;

  for (i = 0; i < json_array_size(routes); i++)
    if (json_integer_value(json_object_get(json_array_get(routes, i), "seat")) == seat)
      terrain = json_object_get(json_array_get(routes, i), "terrain");
  json_array_foreach(teams, i, team)
  {
    json_int_t at = json_integer_value(json_object_get(team, "at"));
    double height = 0;

    for (k = 0; k < json_array_size(terrain); k++)
      if (json_integer_value(json_object_get(json_array_get(terrain, k), "id")) == at)
        height = (double)(k + 1) / (double)(json_array_size(terrain) + 1);
    if (at == json_integer_value(json_object_get(view, "summit")))
      height = 1;
    json_array_foreach(json_object_get(team, "cards"), j, card)
    {
      const char *kind = json_string_value(json_object_get(card, "kind"));

      if (!kind || strcmp(kind, "climber") != 0)
        continue;
      if (json_is_true(json_object_get(card, "summited")))
        height = 1;
      if (height > best)
        best = height;
    }
  }
  return best;
}

double bot_progress(const struct engine_game *world, int seat)
{
  json_t *view;
  double progress = 0;

  if (strcmp(world->module->id, "because-its-there") != 0)
    return 0;
  view = engine_view(world, seat);
  if (view)
    progress = bit_progress(view, seat);
  json_decref(view);
  return progress;
}
