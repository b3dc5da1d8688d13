/*
 * board.c - the mountain: 7 levels of 4 quadrants, base camp below L1-S,
 * the ascend cost printed on each space, and the landmarks (tree line, ice
 * bridge, O2 zone, the top). The board image of the rules is lost; every
 * number here is the reconstruction of shared/research/game-data.md
 * section 2 (RULES.md "The mountain"). Who may move where is climbers.c's.
 */
#include "engine/journey/state.h"

#include <string.h>

/* Food to ascend from level L (row L-1), quadrants N, E, S, W. -1 is an
 * impasse: "Cannot ascend", and "you may not move through impassable
 * regions in any direction". Each level has one impasse and a route that
 * pays nothing takes 15 actions (game-data.md section 2). */
static const int ascend[JOURNEY_LEVELS - 1][JOURNEY_QUADRANTS] = {
    /* L1 */ {-1, 1, 0, 1},
    /* L2 */ {0, -1, 1, 0},
    /* L3 */ {1, 0, -1, 2},
    /* L4 */ {-1, 2, 0, 1},
    /* L5 */ {0, 1, 2, -1},
    /* L6 */ {2, -1, 0, 1},
};

/* Every space's name, so names are Static: index = space number. */
static const char space_names[JOURNEY_SPACES][10] = {
    "base_camp", "L1-N", "L1-E", "L1-S", "L1-W", "L2-N", "L2-E", "L2-S", "L2-W", "L3-N",
    "L3-E",      "L3-S", "L3-W", "L4-N", "L4-E", "L4-S", "L4-W", "L5-N", "L5-E", "L5-S",
    "L5-W",      "L6-N", "L6-E", "L6-S", "L6-W", "L7-N", "L7-E", "L7-S", "L7-W",
};

int journey_level(int space)
{
  return space == JOURNEY_BASE_CAMP ? 0 : (space - 1) / JOURNEY_QUADRANTS + 1;
}

int journey_quadrant(int space)
{
  return space == JOURNEY_BASE_CAMP ? -1 : (space - 1) % JOURNEY_QUADRANTS;
}

int journey_space(int level, int quadrant)
{
  return level == 0 ? JOURNEY_BASE_CAMP : 1 + JOURNEY_QUADRANTS * (level - 1) + quadrant;
}

const char *journey_space_name(int space)
{
  return space_names[space];
}

int journey_space_named(const char *name)
{
  int s;

  for (s = 0; s < JOURNEY_SPACES; s++)
    if (strcmp(name, space_names[s]) == 0)
      return s;
  return -1;
}

int journey_ascend_cost(int space)
{
  int level = journey_level(space);

  if (level == 0 || level == JOURNEY_LEVELS)
    return 0;
  return ascend[level - 1][journey_quadrant(space)];
}

int journey_step(int space, int direction)
{
  int level = journey_level(space), q = journey_quadrant(space);

  /* "Place the base camp on the south side of the mountain, below the
   * first level": base camp touches L1-S only. */
  if (space == JOURNEY_BASE_CAMP)
    return direction == JOURNEY_UP ? journey_space(1, JOURNEY_S) : -1;
  switch (direction) {
  case JOURNEY_UP:
    if (level == JOURNEY_LEVELS || journey_ascend_cost(space) == JOURNEY_IMPASSE)
      return -1;
    return journey_space(level + 1, q);
  case JOURNEY_DOWN:
    if (level == 1)
      return q == JOURNEY_S ? JOURNEY_BASE_CAMP : -1;
    /* Going down crosses the edge the lower space's cost is printed on. */
    if (ascend[level - 2][q] == JOURNEY_IMPASSE)
      return -1;
    return journey_space(level - 1, q);
  case JOURNEY_CLOCKWISE:
    return journey_space(level, (q + 1) % JOURNEY_QUADRANTS);
  case JOURNEY_COUNTERCLOCKWISE:
    return journey_space(level, (q + JOURNEY_QUADRANTS - 1) % JOURNEY_QUADRANTS);
  default:
    return -1;
  }
}

bool journey_adjacent(int from, int to, int *vertical)
{
  int d;

  for (d = JOURNEY_UP; d <= JOURNEY_COUNTERCLOCKWISE; d++)
    if (journey_step(from, d) == to) {
      *vertical = d == JOURNEY_UP ? 1 : d == JOURNEY_DOWN ? -1 : 0;
      return true;
    }
  return false;
}

/* "Below tree line" (Bow & Arrow) is L1-L2 and base camp. */
bool journey_below_tree_line(int space)
{
  return journey_level(space) <= JOURNEY_TREE_LINE;
}

bool journey_on_ice_bridge_or_above(int space)
{
  return journey_level(space) >= JOURNEY_ICE_BRIDGE;
}

bool journey_in_o2_zone(int space)
{
  return journey_level(space) >= JOURNEY_O2_ZONE;
}

/* Food to ascend from `space` as the board shows it: a number, "impasse",
 * or null on the top level, where there is no way up. */
static void write_ascend_food(int space, struct json_writer *w)
{
  int cost = journey_ascend_cost(space);

  if (journey_level(space) == JOURNEY_LEVELS)
    jw_null(w);
  else if (cost == JOURNEY_IMPASSE)
    jw_string(w, "impasse");
  else
    jw_int(w, cost);
}

static void write_spaces(struct json_writer *w)
{
  int s;

  jw_array_begin(w);
  for (s = 0; s < JOURNEY_SPACES; s++) {
    jw_object_begin(w);
    jw_key_string(w, "space", space_names[s]);
    jw_key_int(w, "level", journey_level(s));
    jw_key(w, "ascend_food");
    write_ascend_food(s, w);
    jw_object_end(w);
  }
  jw_array_end(w);
}

void journey_write_board(struct json_writer *w)
{
  int q;

  jw_object_begin(w);
  jw_key(w, "spaces");
  write_spaces(w);
  jw_key_string(w, "base_camp", space_names[0]);
  jw_key_string(w, "base_camp_leads_to", "L1-S");
  jw_key_int(w, "levels", JOURNEY_LEVELS);
  jw_key_int(w, "tree_line_above_level", JOURNEY_TREE_LINE);
  jw_key_int(w, "ice_bridge_level", JOURNEY_ICE_BRIDGE);
  jw_key_int(w, "o2_zone_level", JOURNEY_O2_ZONE);
  jw_key_int(w, "top_level", JOURNEY_TOP);
  jw_key(w, "quadrants");
  jw_array_begin(w);
  for (q = 0; q < JOURNEY_QUADRANTS; q++)
    jw_string(w, journey_quadrant_name(q));
  jw_array_end(w);
  jw_object_end(w);
}
