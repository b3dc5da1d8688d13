/*
 * climbers.c - the climbers' turn (rules "Sherpa Tenzing Norgay and Sir
 * Edmund Hillary"): its start (crevice escape rolls, this turn's High Wind,
 * Blizzard and Frostbite restrictions), the move and give actions, ending
 * the turn, and what happens at its end (crevice and O2-zone damage,
 * reaching the top, the climbers' win, the turn limit). Using equipment is
 * equipment.c's.
 *
 * Simultaneity (RULES.md "Both climbing players take their actions
 * simultaneously"): both climbers owe a decision at once; each sends single
 * actions in any interleaving with the other's, until it has spent its
 * actions or sent end_turn. Every such move is pending; the step resolves
 * with the move that finishes the second climber.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <string.h>

/* "Tenzing can take 3, while Hillary can take 2." */
int journey_actions_of(int seat)
{
  return seat == JOURNEY_TENZING ? 3 : 2;
}

void journey_place(struct journey_state *st, int seat, int to)
{
  struct journey_climber *p = &st->climber[seat];

  /* A pitched tent stays where it was pitched; leaving the space strikes
   * it (RULES.md "Tent"). */
  if (p->space != to)
    p->tent = -1;
  p->space = to;
}

bool journey_sheltered(const struct journey_state *st, int seat)
{
  int c;

  /* "Players in the same location may share a tent." */
  for (c = 0; c < JOURNEY_CLIMBERS; c++)
    if (st->climber[c].tent >= 0 && st->climber[c].tent == st->climber[seat].space)
      return true;
  return false;
}

void journey_drop(struct journey_state *st, int seat, int item, int n)
{
  struct journey_climber *p = &st->climber[seat];

  p->items[item] -= n;
  if (item == JOURNEY_TENT && p->items[item] == 0)
    p->tent = -1;
}

enum cairn_status journey_begin_climb(struct journey_state *st, json_t *events,
                                      struct cairn_error *err)
{
  enum cairn_status s;
  int c;

  st->phase = JOURNEY_PHASE_CLIMB;
  st->turn++;
  s = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "climbers_turn", "turn", st->turn);
  for (c = 0; s == CAIRN_OK && c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];

    p->done = false;
    p->choosing = false;
    p->actions = journey_actions_of(c);
    /* "cannot move next turn", "cannot use equipment on their next turn":
     * set during the Mountain's turn, they bind this turn only. */
    p->cannot_move = p->next_cannot_move;
    p->no_equipment = p->next_no_equipment;
    p->next_cannot_move = false;
    p->next_no_equipment = false;
    if (p->in_crevice) {
      /* Crevice: "At the beginning of their turn, if they roll 4 with one
       * die, they escape the crevice." A 4 exactly (RULES.md). */
      int roll = engine_rng_die(&st->head.rng, 6);

      p->in_crevice = roll != 4;
      s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:b}", "type", "crevice_roll", "seat", c,
                      "roll", roll, "escaped", !p->in_crevice);
    }
  }
  return s;
}

const char *journey_immobile_cause(const struct journey_state *st)
{
  bool wind = false, blizzard = false;
  int i;

  /* "cannot move next turn" was set by the cards of the Mountain's last
   * turn, which `played` still lists during the climbers' turn. */
  for (i = 0; i < st->played_len; i++) {
    wind = wind || st->played[i] == JOURNEY_HIGH_WIND;
    blizzard = blizzard || st->played[i] == JOURNEY_BLIZZARD;
  }
  if (wind && blizzard)
    return "High Wind and Blizzard";
  return wind ? "High Wind" : blizzard ? "Blizzard" : "High Wind or Blizzard";
}

static enum cairn_status check_step(const struct journey_state *st, int seat,
                                    const struct journey_move *m, struct cairn_error *err)
{
  const struct journey_climber *p = &st->climber[seat];
  const char *who = journey_role_name(seat);
  int vertical, cost;

  if (p->in_crevice)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                      "%s is in a crevice and cannot move (Crevice: \"Player cannot move\"; a "
                      "Rope escapes it)",
                      who);
  if (p->cannot_move)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                      "%s cannot move this turn: %s, played in the Mountain's last turn", who,
                      journey_immobile_cause(st));
  if (!journey_adjacent(p->space, m->to, &vertical))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS,
                      "%s cannot move from %s to %s: not one space away, or through an impasse",
                      who, journey_space_name(p->space), journey_space_name(m->to));
  cost = vertical > 0 ? journey_ascend_cost(p->space) : 0;
  if (cost > p->items[JOURNEY_FOOD])
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS,
                      "ascending from %s costs %d food and %s holds %d",
                      journey_space_name(p->space), cost, who, p->items[JOURNEY_FOOD]);
  return CAIRN_OK;
}

static enum cairn_status check_give(const struct journey_state *st, int seat,
                                    const struct journey_move *m, struct cairn_error *err)
{
  const struct journey_climber *p = &st->climber[seat];
  const struct journey_climber *q = &st->climber[1 - seat];

  if (p->items[m->item] == 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS,
                      "%s holds no %s to give", journey_role_name(seat),
                      journey_item_name(m->item));
  if (p->space != q->space)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS,
                      "players can only trade equipment in the same location: %s is on %s, %s "
                      "on %s",
                      journey_role_name(seat), journey_space_name(p->space),
                      journey_role_name(1 - seat), journey_space_name(q->space));
  return CAIRN_OK;
}

enum cairn_status journey_check_climb(const struct journey_state *st, int seat,
                                      const struct journey_move *m, struct cairn_error *err)
{
  const struct journey_climber *p;

  if (seat == JOURNEY_MOUNTAIN)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS,
                      "the Mountain does not act in the climbers' turn");
  p = &st->climber[seat];
  if (p->choosing && m->type != JOURNEY_MOVE_REMOVE)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT,
                      "%s must first choose the card the Forecast removes",
                      journey_role_name(seat));
  if (m->type == JOURNEY_MOVE_REMOVE)
    return journey_check_remove(st, seat, m, err);
  if (m->type == JOURNEY_MOVE_END_TURN)
    return CAIRN_OK;
  if (p->actions <= 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_CLIMBERS,
                      "%s has no actions left this turn", journey_role_name(seat));
  switch (m->type) {
  case JOURNEY_MOVE_STEP:
    return check_step(st, seat, m, err);
  case JOURNEY_MOVE_GIVE:
    return check_give(st, seat, m, err);
  default:
    return journey_check_use(st, seat, m, err);
  }
}

static enum cairn_status step(struct journey_state *st, int seat, const struct journey_move *m,
                              json_t *events, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  int from = p->space, vertical = 0, cost;

  journey_adjacent(from, m->to, &vertical);
  /* "... to the adjacent space on the next level if you pay the cost ...
   * by discarding the indicated equipment"; "You may move downward without
   * paying the associated cost." */
  cost = vertical > 0 ? journey_ascend_cost(from) : 0;
  journey_drop(st, seat, JOURNEY_FOOD, cost);
  journey_place(st, seat, m->to);
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:s, s:i}", "type", "moved", "seat", seat,
                     "from", journey_space_name(from), "to", journey_space_name(m->to), "food_paid",
                     cost);
}

static enum cairn_status give(struct journey_state *st, int seat, const struct journey_move *m,
                              json_t *events, struct cairn_error *err)
{
  /* "Giving an equipment card to another climbing player at the cost of
   * one action per card." */
  journey_drop(st, seat, m->item, 1);
  st->climber[1 - seat].items[m->item]++;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s}", "type", "gave", "seat", seat, "to",
                     1 - seat, "item", journey_item_name(m->item));
}

/* End-of-turn effects for one climber: the crevice, then the O2 zone. */
static enum cairn_status end_effects(struct journey_state *st, int c, json_t *events,
                                     struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[c];
  enum cairn_status s = CAIRN_OK;

  /* Crevice: "Player cannot move and loses 1 health at the end of the turn." */
  if (p->in_crevice)
    s = journey_damage(st, c, 1, "crevice", events, err);
  /* "Players ending their turn on or above the O2 zone lose 1 health. If a
   * player owns the O2 tank item, they do not take this damage." */
  if (s == CAIRN_OK && st->end == JOURNEY_RUNNING && journey_in_o2_zone(p->space) &&
      p->items[JOURNEY_O2_TANK] == 0)
    s = journey_damage(st, c, 1, "altitude", events, err);
  return s;
}

/* Both climbers are done: the end of the turn, then the Mountain's turn. */
static enum cairn_status end_climb(struct journey_state *st, json_t *events,
                                   struct cairn_error *err)
{
  enum cairn_status s;
  int c;

  for (c = 0; c < JOURNEY_CLIMBERS; c++) {
    s = end_effects(st, c, events, err);
    if (s != CAIRN_OK || st->end != JOURNEY_RUNNING)
      return s;
  }
  /* "Both climbers must end a turn on the top of the mountain to win." */
  for (c = 0; c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];

    if (p->summited || journey_level(p->space) != JOURNEY_TOP)
      continue;
    p->summited = true;
    s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s}", "type", "summited", "seat", c, "space",
                    journey_space_name(p->space));
    if (s != CAIRN_OK)
      return s;
  }
  /* "... when both players reach the summit and then return to the base
   * camp (players win)." */
  if (st->climber[0].summited && st->climber[1].summited &&
      st->climber[0].space == JOURNEY_BASE_CAMP && st->climber[1].space == JOURNEY_BASE_CAMP)
    return journey_finish(st, JOURNEY_END_CLIMBERS, events, err);
  /* "Remember Winter is Coming": the opt-in turn limit (RULES.md); the
   * text itself has none. */
  if (st->turn_limit > 0 && st->turn >= st->turn_limit)
    return journey_finish(st, JOURNEY_END_WINTER, events, err);
  return journey_begin_mountain(st, events, err);
}

enum cairn_status journey_climb(struct journey_state *st, int seat, const struct journey_move *m,
                                json_t *events, bool *pending, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  enum cairn_status s;

  switch (m->type) {
  case JOURNEY_MOVE_END_TURN:
    p->done = true;
    s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i}", "type", "turn_ended", "seat", seat,
                    "actions_unused", p->actions);
    break;
  case JOURNEY_MOVE_REMOVE:
    s = journey_remove(st, seat, m, events, err);
    break;
  case JOURNEY_MOVE_STEP:
    p->actions--;
    s = step(st, seat, m, events, err);
    break;
  case JOURNEY_MOVE_GIVE:
    p->actions--;
    s = give(st, seat, m, events, err);
    break;
  default:
    p->actions--;
    s = journey_use(st, seat, m, events, err);
    break;
  }
  if (s != CAIRN_OK)
    return s;
  /* A climber who has spent its actions (and owes no Forecast choice) is
   * done without sending end_turn. */
  if (p->actions == 0 && !p->choosing)
    p->done = true;
  *pending = !(st->climber[0].done && st->climber[1].done);
  if (*pending)
    return CAIRN_OK;
  return end_climb(st, events, err);
}
