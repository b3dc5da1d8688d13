/*
 * setup.c - IV. Getting Started and XII. Scenarios: options, the decks of
 * each scenario, building Routes from random Terrain cards, the Dream Teams
 * draft and the choice of Route.
 */
#include "engine/because-its-there/state.h"

#include <stdlib.h>
#include <string.h>

static const char *const route_names[BIT_ROUTES] = {"north-ridge", "great-couloir", "south-col",
                                                    "west-ridge"};

/* XII: Terrain types from the nearest card to the farthest. */
static const int8_t route_terrain[BIT_ROUTES][6] = {
    {BIT_GLACIER, BIT_HIGH, BIT_HIGH, BIT_HIGH, BIT_EXTREME, BIT_EXTREME},    /* North Ridge */
    {BIT_GLACIER, BIT_HIGH, BIT_HIGH, BIT_HIGH, BIT_HIGH, BIT_EXTREME},       /* Great Couloir */
    {BIT_GLACIER, BIT_GLACIER, BIT_HIGH, BIT_HIGH, BIT_EXTREME, BIT_EXTREME}, /* South Col */
    {BIT_GLACIER, BIT_HIGH, BIT_HIGH, BIT_HIGH, BIT_EXTREME, BIT_EXTREME},    /* West Ridge */
};

static const char *const scenario_names[] = {"1924", "1953", "1963", "dream-teams"};

const char *bit_scenario_name(int scenario)
{
  return scenario >= 0 && scenario <= BIT_DREAM ? scenario_names[scenario] : "?";
}

const char *bit_route_name(int route)
{
  return route >= 0 && route < BIT_ROUTES ? route_names[route] : "?";
}

int bit_route_by_name(const char *name)
{
  int r;

  for (r = 0; r < BIT_ROUTES; r++)
    if (strcmp(name, route_names[r]) == 0)
      return r;
  return -1;
}

/* XII: 1924 chooses between its two Routes; Dream Teams "selects a Route
 * from those described in the other scenarios" (all four). */
bool bit_route_allowed(const struct bit_state *st, int seat, int route)
{
  if (st->phase != BIT_P_ROUTE || st->done[seat] || route < 0 || route >= BIT_ROUTES)
    return false;
  if (st->scenario == BIT_1924)
    return route == BIT_NORTH_RIDGE || route == BIT_GREAT_COULOIR;
  return st->scenario == BIT_DREAM;
}

/* Lay out `route` for `seat` from random unused Terrain cards of each type
 * (IV: "randomly select the number of cards from each pile"). */
static void build_route(struct bit_state *st, int seat, int route)
{
  int i, c;

  st->route[seat] = route;
  st->route_len[seat] = 6;
  for (i = 0; i < 6; i++) {
    int avail[BIT_SUMMIT], n = 0;

    for (c = 0; c < BIT_SUMMIT; c++)
      if (st->loc[c].zone == BIT_Z_BOX && bit_cards[c].terrain == route_terrain[route][i])
        avail[n++] = c;
    c = avail[engine_rng_below(&st->head.rng, (uint32_t)n)];
    st->route_card[seat][i] = c;
    st->loc[c].zone = BIT_Z_ROUTE;
    st->loc[c].seat = (int8_t)seat;
    st->loc[c].order = (int16_t)i;
  }
}

/* Move the first `n` unused cards of `kind` into seat's pile. */
static void give(struct bit_state *st, int seat, int kind, int n)
{
  int c;

  for (c = 0; c < BIT_CARDS && n > 0; c++)
    if (bit_is(c, kind) && st->loc[c].zone == BIT_Z_BOX) {
      bit_put(st, c, BIT_Z_DECK, seat);
      n--;
    }
}

static void give_climbers(struct bit_state *st, int seat, int first, int n)
{
  int i;

  for (i = 0; i < n; i++)
    bit_put(st, BIT_CLIMBER_FIRST + first + i, BIT_Z_DECK, seat);
}

static enum cairn_status deal(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  int seat;
  enum cairn_status s;

  for (seat = 0; seat < st->head.seats; seat++) {
    bit_shuffle(st, BIT_Z_DECK, seat);
    s = bit_draw(st, seat, -1, events, err); /* IV "Deal each player five cards" */
    if (s != CAIRN_OK)
      return s;
  }
  return bit_start_turn(st, events, err);
}

/* Routes are laid out once every seat has one (Dream Teams builds them in
 * seat order so the draw does not depend on who answered first). */
static enum cairn_status routes_chosen(struct bit_state *st, json_t *events,
                                       struct cairn_error *err)
{
  int seat, i;
  enum cairn_status s;

  for (seat = 0; seat < st->head.seats; seat++) {
    /* The event's lists, built only for one. */
    json_t *cards = events ? json_array() : NULL, *names = events ? json_array() : NULL;

    build_route(st, seat, st->route[seat]);
    for (i = 0; cards && names && i < st->route_len[seat]; i++) {
      json_array_append_new(cards, json_integer(st->route_card[seat][i]));
      json_array_append_new(names, json_string(bit_cards[st->route_card[seat][i]].name));
    }
    s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:o*, s:o*}", "type", "route", "seat", seat,
                    "route", bit_route_name(st->route[seat]), "terrain", cards, "terrain_names",
                    names);
    if (s != CAIRN_OK)
      return s;
  }
  return deal(st, events, err);
}

enum cairn_status bit_choose_route(struct bit_state *st, int seat, int route, json_t *events,
                                   struct cairn_error *err)
{
  int s2;

  if (st->done[seat])
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                      "you have already chosen your Route");
  if (!bit_route_allowed(st, seat, route))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                      "route %s is not one this scenario offers (%s)", bit_route_name(route),
                      st->scenario == BIT_1924 ? "1924: the North Ridge or the Great Couloir"
                                               : "its Route is fixed by the scenario");
  st->route[seat] = route;
  st->done[seat] = 1;
  for (s2 = 0; s2 < st->head.seats; s2++)
    if (!st->done[s2])
      return CAIRN_OK;
  return routes_chosen(st, events, err);
}

/* XII "Dream Teams": alternate picks until both have six Climbers; then
 * four Sherpas, four Camps and five Supplies each. */
enum cairn_status bit_draft(struct bit_state *st, int seat, int climber, json_t *events,
                            struct cairn_error *err)
{
  enum cairn_status s;

  if (st->phase != BIT_P_DRAFT)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                      "Climbers are drafted only before play in Dream Teams, and the draft is "
                      "over or not part of this scenario");
  if (seat != st->active)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                      "it is not your pick: XII Dream Teams players alternate picking Climbers "
                      "and seat %d picks now",
                      st->active);
  if (!bit_is(climber, BIT_CLIMBER))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                      "%s (card %d) is not a Climber card", bit_cards[climber].name, climber);
  if (st->loc[climber].zone != BIT_Z_BOX)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                      "%s (card %d) has already been drafted", bit_cards[climber].name, climber);
  bit_put(st, climber, BIT_Z_DECK, seat);
  st->picks++;
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:s}", "type", "drafted", "seat", seat,
                  "climber", climber, "climber_name", bit_cards[climber].name, "name",
                  bit_cards[climber].name);
  if (s != CAIRN_OK)
    return s;
  st->active = 1 - seat;
  if (st->picks < 12)
    return CAIRN_OK;
  for (seat = 0; seat < 2; seat++) {
    give(st, seat, BIT_SHERPA, 4);
    give(st, seat, BIT_CAMP, 4);
    give(st, seat, BIT_SUPPLIES, 5);
  }
  st->phase = BIT_P_ROUTE;
  st->done[0] = st->done[1] = 0;
  return CAIRN_OK;
}

/* The scenario (options_json declares its names; the core checked the
 * value), or the seat count's own without one: the one check the
 * declaration cannot express is which seat count a scenario is for. */
static enum cairn_status parse_options(const json_t *options, int seats, int *scenario,
                                       struct cairn_error *err)
{
  const char *name = engine_option_string(options, "scenario");
  int i;

  *scenario = seats == 2 ? BIT_1963 : BIT_1953;
  for (i = 0; name && i <= BIT_DREAM; i++)
    if (strcmp(name, scenario_names[i]) == 0)
      *scenario = i;
  if ((*scenario == BIT_1924 || *scenario == BIT_1953) != (seats == 1))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "scenario %s is for %s",
                      scenario_names[*scenario], seats == 1 ? "two players" : "one player");
  return CAIRN_OK;
}

/* Fills the zeroed state the core allocated (the new_game slot). */
enum cairn_status bit_new_game(const struct engine_setup *setup,
                               const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                               struct cairn_error *err)
{
  struct bit_state *st = (struct bit_state *)game;
  json_t *events = NULL; /* new_game has no event list: set-up events are not built */
  enum cairn_status s;
  int scenario, c, seat;

  s = parse_options(setup->options, setup->seats, &scenario, err);
  if (s != CAIRN_OK)
    return s;
  engine_rng_seed(&st->head.rng, seed);
  st->scenario = scenario;
  st->turn = 1;
  st->moving = -1;
  for (seat = 0; seat < BIT_SEATS; seat++) {
    st->route[seat] = -1;
    st->bivouac[seat] = -1;
  }
  for (c = 0; c < BIT_CARDS; c++) {
    st->loc[c].zone = BIT_Z_BOX;
    st->loc[c].seat = -1;
    st->loc[c].at = BIT_ABC;
    st->loc[c].team = -1;
    st->up_route[c] = -1;
    st->strength[c] = bit_cards[c].strength;
  }
  /* The Summit is shared by every Route (game-data.md §1 inference). */
  st->loc[BIT_SUMMIT].zone = BIT_Z_ROUTE;
  /* IV: Events and Specials shuffled together; XII "Special: None" (1924)
   * and "All cards except Bivouac" (1953) leave some in the box. */
  for (c = BIT_SPECIAL_FIRST; c < BIT_CARDS; c++) {
    int sp = bit_special_of(c);
    if (sp >= 0 && (scenario == BIT_1924 || (scenario == BIT_1953 && sp == BIT_BIVOUAC)))
      continue;
    bit_put(st, c, BIT_Z_EVENTS, -1);
  }
  bit_shuffle(st, BIT_Z_EVENTS, -1);

  switch (scenario) {
  case BIT_1924:
    give_climbers(st, 0, 0, 6);
    give(st, 0, BIT_SHERPA, 4);
    give(st, 0, BIT_CAMP, 3);
    give(st, 0, BIT_SUPPLIES, 4);
    st->weather = BIT_FAIR;
    st->phase = BIT_P_ROUTE;
    break;
  case BIT_1953:
    give_climbers(st, 0, 6, 6);
    give(st, 0, BIT_SHERPA, 5);
    give(st, 0, BIT_CAMP, 5);
    give(st, 0, BIT_SUPPLIES, 6);
    st->weather = BIT_GOOD;
    st->route[0] = BIT_SOUTH_COL;
    s = routes_chosen(st, events, err);
    break;
  case BIT_1963:
    give_climbers(st, 0, 12, 4);
    give_climbers(st, 1, 16, 2);
    for (seat = 0; seat < 2; seat++) {
      give(st, seat, BIT_SHERPA, 4);
      give(st, seat, BIT_CAMP, 4);
      give(st, seat, BIT_SUPPLIES, 5);
    }
    st->weather = BIT_GOOD;
    st->route[0] = BIT_SOUTH_COL;
    st->route[1] = BIT_WEST_RIDGE;
    s = routes_chosen(st, events, err);
    break;
  default: {
    int a, b;
    /* XII Dream Teams: 1D6 each, the higher picks first (re-roll ties). */
    do {
      a = engine_rng_die(&st->head.rng, 6);
      b = engine_rng_die(&st->head.rng, 6);
    } while (a == b);
    st->roll_off[0] = a;
    st->roll_off[1] = b;
    st->active = a > b ? 0 : 1;
    st->weather = BIT_GOOD;
    st->phase = BIT_P_DRAFT;
    break;
  }
  }
  return s;
}
