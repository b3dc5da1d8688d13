/*
 * environment.c - what the environment cards do once played (Environment
 * Card table): High Wind, Avalanche, Rockslide, Yeti, Crevice, Frostbite and
 * Blizzard; the Yeti's move and attack; the climbers' answers that two
 * cards ask for (Rockslide: "Target player chooses"; Avalanche: the
 * Grappling Hook and Rope), and damage and death. Paying for and playing a
 * card is mountain.c's.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <string.h>

enum cairn_status journey_damage(struct journey_state *st, int seat, int amount, const char *cause,
                                 json_t *events, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  enum cairn_status s;

  if (amount <= 0)
    return CAIRN_OK;
  p->health = p->health > amount ? p->health - amount : 0;
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:i}", "type", "damaged", "seat", seat,
                  "amount", amount, "cause", cause, "health", p->health);
  if (s != CAIRN_OK || p->health > 0)
    return s;
  /* "If a player reaches zero health, then they die"; "If either player
   * dies, Mt. Everest wins." */
  st->dead = seat;
  return journey_finish(st, JOURNEY_END_DEATH, events, err);
}

static enum cairn_status note(json_t *events, const char *type, int seat, const char *what,
                              struct cairn_error *err)
{
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:s}", "type", type, "seat", seat, "effect", what);
}

/* High Wind: "Players cannot move next turn. Take 1 damage for every level
 * above the tree line." Tent: "Pitch to prevent High Wind damage". */
static enum cairn_status high_wind(struct journey_state *st, json_t *events,
                                   struct cairn_error *err)
{
  enum cairn_status s = CAIRN_OK;
  int c;

  for (c = 0; s == CAIRN_OK && st->end == JOURNEY_RUNNING && c < JOURNEY_CLIMBERS; c++) {
    int above = journey_level(st->climber[c].space) - JOURNEY_TREE_LINE;

    st->climber[c].next_cannot_move = true;
    if (above > 0 && journey_sheltered(st, c))
      s = note(events, "sheltered", c, "high_wind", err);
    else
      s = journey_damage(st, c, above, "high_wind", events, err);
  }
  return s;
}

/* Avalanche on one climber: "drops 2 levels and loses 2 health"; a
 * discarded Grappling Hook halves it, Hook and Rope together nullify it.
 * The drop stays in the quadrant, ignores impasses and stops at L1. */
static enum cairn_status avalanche_hits(struct journey_state *st, int c, int protect,
                                        json_t *events, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[c];
  int drop = protect == JOURNEY_PROTECT_NONE ? 2 : protect == JOURNEY_PROTECT_HOOK ? 1 : 0;
  int from = p->space, level = journey_level(from) - drop;
  enum cairn_status s;

  if (protect != JOURNEY_PROTECT_NONE)
    journey_drop(st, c, JOURNEY_HOOK, 1);
  if (protect == JOURNEY_PROTECT_HOOK_ROPE)
    journey_drop(st, c, JOURNEY_ROPE, 1);
  journey_place(st, c, journey_space(level < 1 ? 1 : level, journey_quadrant(from)));
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:s, s:s}", "type", "avalanche_hit", "seat", c,
                  "from", journey_space_name(from), "to", journey_space_name(p->space), "protect",
                  protect == JOURNEY_PROTECT_NONE   ? "none"
                  : protect == JOURNEY_PROTECT_HOOK ? "hook"
                                                    : "hook_and_rope");
  if (s != CAIRN_OK)
    return s;
  return journey_damage(st, c, drop, "avalanche", events, err);
}

static bool in_quadrant(const struct journey_state *st, int c, int q)
{
  return journey_quadrant(st->climber[c].space) == q;
}

/* Every climber in the quadrant is hit, each with the answer it gave. */
static enum cairn_status avalanche_lands(struct journey_state *st, json_t *events,
                                         struct cairn_error *err)
{
  enum cairn_status s = CAIRN_OK;
  int c;

  for (c = 0; s == CAIRN_OK && st->end == JOURNEY_RUNNING && c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];

    if (in_quadrant(st, c, st->react_quadrant))
      s = avalanche_hits(st, c, p->reacted ? p->protect : JOURNEY_PROTECT_NONE, events, err);
    p->must_react = false;
    p->reacted = false;
    p->protect = JOURNEY_PROTECT_NONE;
  }
  if (st->end == JOURNEY_RUNNING)
    st->phase = JOURNEY_PHASE_MOUNTAIN;
  return s;
}

/* Avalanche: "Choose a quadrant. Every player in that quadrant drops 2
 * levels and loses 2 health." Climbers holding a Grappling Hook decide
 * first whether to use it (a reaction step). */
static enum cairn_status avalanche(struct journey_state *st, int q, json_t *events,
                                   struct cairn_error *err)
{
  int c, asked = 0;

  st->react_card = JOURNEY_AVALANCHE;
  st->react_quadrant = q;
  for (c = 0; c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];

    p->reacted = false;
    p->protect = JOURNEY_PROTECT_NONE;
    p->must_react = in_quadrant(st, c, q) && p->items[JOURNEY_HOOK] > 0;
    asked += p->must_react;
  }
  if (asked == 0)
    return avalanche_lands(st, events, err);
  st->phase = JOURNEY_PHASE_REACT;
  return ENGINE_EMIT(events, err, "{s:s, s:s, s:s}", "type", "reaction_needed", "card", "avalanche",
                     "quadrant", journey_quadrant_name(q));
}

/* Rockslide: "Target player chooses one: (1) Lose 2 health or (2) discard
 * 1 equipment card." A target with no equipment has no choice. */
static enum cairn_status rockslide(struct journey_state *st, int target, json_t *events,
                                   struct cairn_error *err)
{
  int i, held = 0;

  for (i = 0; i < JOURNEY_ITEMS; i++)
    held += st->climber[target].items[i];
  if (held == 0)
    return journey_damage(st, target, 2, "rockslide", events, err);
  st->react_card = JOURNEY_ROCKSLIDE;
  st->climber[target].must_react = true;
  st->climber[target].reacted = false;
  st->phase = JOURNEY_PHASE_REACT;
  return ENGINE_EMIT(events, err, "{s:s, s:s, s:i}", "type", "reaction_needed", "card", "rockslide",
                     "seat", target);
}

/* Frostbite: "Target player cannot use equipment on their next turn. If
 * they are on or above the ice bridge, they take 1 damage." Tent: "roll 1
 * die for 3+ to prevent Frostbite when pitched". */
static enum cairn_status frostbite(struct journey_state *st, int target, json_t *events,
                                   struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[target];
  enum cairn_status s;

  if (journey_sheltered(st, target)) {
    int roll = engine_rng_die(&st->head.rng, 6);

    s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:b}", "type", "tent_roll", "seat", target,
                    "roll", roll, "prevented", roll >= 3);
    if (s != CAIRN_OK || roll >= 3)
      return s;
  }
  p->next_no_equipment = true;
  s = note(events, "frostbitten", target, "no_equipment_next_turn", err);
  if (s != CAIRN_OK || !journey_on_ice_bridge_or_above(p->space))
    return s;
  return journey_damage(st, target, 1, "frostbite", events, err);
}

/* Blizzard: "Players take 1 damage and move 1 square in a direction of the
 * environment's choice. If they are above the tree line, they cannot move
 * next turn." One direction for both; a climber with no space that way
 * (an impasse, the top, the foot of the mountain) stays put. */
static enum cairn_status blizzard(struct journey_state *st, int direction, json_t *events,
                                  struct cairn_error *err)
{
  enum cairn_status s = CAIRN_OK;
  int c;

  for (c = 0; s == CAIRN_OK && st->end == JOURNEY_RUNNING && c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];
    int from = p->space, to = journey_step(from, direction);

    s = journey_damage(st, c, 1, "blizzard", events, err);
    if (s != CAIRN_OK || st->end != JOURNEY_RUNNING)
      break;
    if (to >= 0)
      journey_place(st, c, to);
    if (!journey_below_tree_line(p->space))
      p->next_cannot_move = true;
    s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:s, s:b}", "type", "blown", "seat", c, "from",
                    journey_space_name(from), "to", journey_space_name(p->space),
                    "cannot_move_next_turn", p->next_cannot_move);
  }
  return s;
}

enum cairn_status journey_resolve(struct journey_state *st, const struct journey_move *m,
                                  json_t *events, struct cairn_error *err)
{
  switch (m->card) {
  case JOURNEY_HIGH_WIND:
    return high_wind(st, events, err);
  case JOURNEY_AVALANCHE:
    return avalanche(st, m->quadrant, events, err);
  case JOURNEY_ROCKSLIDE:
    return rockslide(st, m->target, events, err);
  case JOURNEY_YETI:
    /* "Summon Yeti to the peak (6 health ...)". A Yeti already on the
     * mountain goes back to the peak, healed (RULES.md). */
    st->yeti_level = JOURNEY_TOP;
    st->yeti_health = JOURNEY_YETI_HEALTH;
    return ENGINE_EMIT(events, err, "{s:s, s:i, s:i}", "type", "yeti_summoned", "level",
                       st->yeti_level, "health", st->yeti_health);
  case JOURNEY_CREVICE:
    /* "Choose a player to fall into a crevice. Player cannot move ..." */
    st->climber[m->target].in_crevice = true;
    return note(events, "fell_into_crevice", m->target, "cannot_move", err);
  case JOURNEY_FROSTBITE:
    return frostbite(st, m->target, events, err);
  default:
    return blizzard(st, m->direction, events, err);
  }
}

/* Yeti: "The environment player can move the Yeti up or down one level each
 * turn, then deals damage to all other players on that level. After dealing
 * damage, roll a 4+ to draw a card." 1 damage each (RULES.md). */
enum cairn_status journey_yeti_step(struct journey_state *st, int direction, json_t *events,
                                    struct cairn_error *err)
{
  enum cairn_status s;
  int c, hit = 0, roll;

  if (direction == JOURNEY_UP)
    st->yeti_level++;
  else if (direction == JOURNEY_DOWN)
    st->yeti_level--;
  st->yeti_acted = true;
  s = ENGINE_EMIT(events, err, "{s:s, s:s, s:i}", "type", "yeti_moved", "direction",
                  journey_direction_name(direction), "level", st->yeti_level);
  for (c = 0; s == CAIRN_OK && st->end == JOURNEY_RUNNING && c < JOURNEY_CLIMBERS; c++)
    if (journey_level(st->climber[c].space) == st->yeti_level) {
      hit++;
      s = journey_damage(st, c, 1, "yeti", events, err);
    }
  if (s != CAIRN_OK || hit == 0 || st->end != JOURNEY_RUNNING)
    return s;
  roll = engine_rng_die(&st->head.rng, 6);
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:b}", "type", "yeti_roll", "roll", roll, "draws",
                  roll >= 4);
  if (s != CAIRN_OK || roll < 4)
    return s;
  return journey_draw(st, 1, "yeti", events, err);
}

enum cairn_status journey_check_react(const struct journey_state *st, int seat,
                                      const struct journey_move *m, struct cairn_error *err)
{
  const struct journey_climber *p = &st->climber[seat];
  const char *who = journey_role_name(seat);

  if ((m->type == JOURNEY_MOVE_ROCKSLIDE) != (st->react_card == JOURNEY_ROCKSLIDE))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                      "%s must answer the %s with a \"%s\" move, not \"%s\"", who,
                      journey_card_name(st->react_card),
                      st->react_card == JOURNEY_ROCKSLIDE ? "rockslide" : "avalanche",
                      journey_move_type_name(m->type));
  if (m->type == JOURNEY_MOVE_ROCKSLIDE) {
    if (m->discard && p->items[m->item] == 0)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                        "%s holds no %s to discard", who, journey_item_name(m->item));
    return CAIRN_OK;
  }
  /* Grappling Hook: "May be discarded to halve the effects of Avalanche.
   * Discard with Rope to nullify effects of Avalanche." */
  if (m->protect != JOURNEY_PROTECT_NONE && p->items[JOURNEY_HOOK] == 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT,
                      "%s holds no grappling_hook", who);
  if (m->protect == JOURNEY_PROTECT_HOOK_ROPE && p->items[JOURNEY_ROPE] == 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT,
                      "%s holds no rope to combine with the grappling_hook", who);
  return CAIRN_OK;
}

enum cairn_status journey_react(struct journey_state *st, int seat, const struct journey_move *m,
                                json_t *events, bool *pending, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  enum cairn_status s;
  int c;

  if (m->type == JOURNEY_MOVE_ROCKSLIDE) {
    p->must_react = false;
    st->phase = JOURNEY_PHASE_MOUNTAIN;
    if (!m->discard)
      return journey_damage(st, seat, 2, "rockslide", events, err);
    journey_drop(st, seat, m->item, 1);
    return ENGINE_EMIT(events, err, "{s:s, s:i, s:s}", "type", "discarded", "seat", seat, "item",
                       journey_item_name(m->item));
  }
  p->reacted = true;
  p->protect = m->protect;
  /* Both hit climbers answer at once; the Avalanche lands when the last
   * answer is in. */
  for (c = 0; c < JOURNEY_CLIMBERS; c++)
    if (st->climber[c].must_react && !st->climber[c].reacted) {
      *pending = true;
      return ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "answered", "seat", seat);
    }
  s = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "answered", "seat", seat);
  if (s != CAIRN_OK)
    return s;
  return avalanche_lands(st, events, err);
}
