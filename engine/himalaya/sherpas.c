/*
 * sherpas.c - Moving the Sherpas, with the Take-along rule: where a Sherpa
 * may go forward or backward by a die or card, whether it slides, how far
 * the take-along rule carries it and its companions, and carrying the move
 * out. Which spaces stop a pawn is asked of spaces.c.
 */
#include "engine/himalaya/state.h"
#include "engine/himalaya/rules.h"

#include <stdio.h>

/* Stops of the extra take-along leg: the same landing rules as any move. */
static enum cairn_status plan_take_along(const struct himalaya_state *st, int seat,
                                         const struct himalaya_move *m, const char *who,
                                         struct himalaya_plan *plan, struct cairn_error *err)
{
  int landing = plan->landing;
  int found, s;

  /* "... or when falling back through an avalanche the take-along rule
   * cannot be used." */
  if (himalaya_slide_target(landing) != landing)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG,
                      "%s lands on field %d and slides down to field %d: the take-along rule "
                      "cannot be used when falling back",
                      who, landing, himalaya_slide_target(landing));
  /* "If a Sherpa lands on a space that already contains their own or
   * another player's Sherpas": the mover left another field, so every
   * Sherpa counted here was found already standing. */
  found = himalaya_sherpas_on(st, landing);
  if (found == 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG,
                      "%s lands on field %d, where no Sherpa stands: there is nothing to take "
                      "along",
                      who, landing);
  /* "1a. He/she is allowed to (but does not have to) move other Sherpas
   * that belong to him/her along": those found on the landing field. */
  for (s = 0; s < HIMALAYA_SHERPAS; s++)
    if ((m->companions & (1u << s)) && st->seat[seat].sherpa[s] != landing)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG,
                        "Sherpa %d of seat %d stands on field %d, not on the landing field %d, "
                        "so it cannot travel along",
                        s, seat, st->seat[seat].sherpa[s], landing);
  /* "1. The Sherpa additionally moves as many spaces as the number of
   * Sherpas he has found already on the space." */
  plan->extra = found;
  plan->reached = landing + found;
  if (plan->reached > HIMALAYA_SUMMIT)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG,
                      "%s found %d Sherpa%s on field %d but cannot move %d further: the path "
                      "ends at the summit, field %d",
                      who, found, found == 1 ? "" : "s", landing, found, HIMALAYA_SUMMIT);
  return CAIRN_OK;
}

enum cairn_status himalaya_sherpa_plan(const struct himalaya_state *st, int seat,
                                       const struct himalaya_move *m, struct himalaya_plan *plan,
                                       struct cairn_error *err)
{
  bool supply = m->type == HIMALAYA_MOVE_SUPPLY;
  enum cairn_status status;
  char who[40];
  int from = st->seat[seat].sherpa[m->sherpa];
  int dist;

  /* Only a reported error needs the name; legal.c checks hundreds of
   * candidates with err NULL, and formatting dominated its cost. */
  who[0] = '\0';
  if (err)
    snprintf(who, sizeof(who), "Sherpa %d of seat %d", m->sherpa, seat);
  plan->from = from;
  plan->extra = 0;
  plan->summit = false;
  plan->companions = m->companions;
  /* "When moving backwards ... the take-along rule cannot be used." */
  if (m->down && m->take_along)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_TAKE_ALONG,
                      "%s moves backwards: the take-along rule cannot be used when moving "
                      "backwards",
                      who);
  if (supply) {
    status = himalaya_check_supply_start(who, from, err);
    if (status != CAIRN_OK)
      return status;
  }
  if (m->down) {
    /* "During these moves, they move only half the die number of the
     * selected die. With an odd number, the total is rounded up." */
    dist = (m->value + 1) / 2;
    plan->landing = from - dist;
    if (plan->landing < HIMALAYA_BASE_CAMP)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SHERPAS,
                        "%s cannot move down %d field%s from field %d: base camp (field %d) is "
                        "the lowest field",
                        who, dist, dist == 1 ? "" : "s", from, HIMALAYA_BASE_CAMP);
  } else {
    plan->landing = from + m->value;
    if (plan->landing > HIMALAYA_SUMMIT)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SHERPAS,
                        "%s cannot move up %d fields from field %d: the path ends at the summit, "
                        "field %d",
                        who, m->value, from, HIMALAYA_SUMMIT);
  }
  status = himalaya_check_stop(st, who, plan->landing, err);
  if (status == CAIRN_OK && supply)
    status = himalaya_check_supply_stop(who, plan->landing, err);
  if (status != CAIRN_OK)
    return status;

  plan->reached = plan->landing;
  if (m->take_along) {
    status = plan_take_along(st, seat, m, who, plan, err);
    if (status == CAIRN_OK)
      status = himalaya_check_stop(st, who, plan->reached, err);
    if (status == CAIRN_OK && supply)
      status = himalaya_check_supply_stop(who, plan->reached, err);
    if (status != CAIRN_OK)
      return status;
  }

  /* "If a Sherpa lands on one of these fields, he immediately slides to the
   * field beneath it (arrow)." Sliding onto the Yeti would put a pawn on
   * its field, so such a move is not allowed (RULES.md). */
  plan->to = himalaya_slide_target(plan->reached);
  if (plan->to != plan->reached && plan->to == st->yeti)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "%s would slide from field %d down to field %d, where the Yeti stands", who,
                      plan->reached, plan->to);
  if (plan->to != plan->reached)
    status = himalaya_check_stop(st, who, plan->to, err);
  if (status == CAIRN_OK && supply)
    status = himalaya_check_supply_stop(who, plan->to, err);
  return status;
}

static json_t *companion_list(unsigned companions)
{
  int list[HIMALAYA_SHERPAS];
  int s, n = 0;

  for (s = 0; s < HIMALAYA_SHERPAS; s++)
    if (companions & (1u << s))
      list[n++] = s;
  return engine_int_list(list, n);
}

enum cairn_status himalaya_sherpa_move(struct himalaya_state *st, int seat,
                                       const struct himalaya_move *m,
                                       const struct himalaya_plan *plan, json_t *events,
                                       struct cairn_error *err)
{
  int *sherpa = st->seat[seat].sherpa;
  unsigned travellers = plan->companions | (1u << m->sherpa);
  enum cairn_status status;
  int s;

  sherpa[m->sherpa] = plan->landing;
  status = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:i, s:i, s:i, s:s, s:s, s:i}", "type",
                       "moved", "seat", seat, "pawn", "sherpa", "sherpa", m->sherpa, "from",
                       plan->from, "to", plan->landing, "direction", m->down ? "down" : "up", "via",
                       m->type == HIMALAYA_MOVE_SUPPLY ? "supply" : "die", "value", m->value);
  if (status != CAIRN_OK)
    return status;

  if (m->take_along) {
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      if (travellers & (1u << s))
        sherpa[s] = plan->reached;
    status =
        ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i, s:i, s:i, s:o}", "type", "took_along",
                    "seat", seat, "sherpa", m->sherpa, "from", plan->landing, "to", plan->reached,
                    "extra", plan->extra, "companions", companion_list(plan->companions));
    if (status != CAIRN_OK)
      return status;
  }

  /* Companions arrive with the Sherpa, so an arrow takes them down too. */
  if (plan->to == plan->reached)
    return CAIRN_OK;
  for (s = 0; s < HIMALAYA_SHERPAS; s++) {
    if (!(travellers & (1u << s)))
      continue;
    sherpa[s] = plan->to;
    status = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i, s:i}", "type", "slid", "seat", seat,
                         "sherpa", s, "from", plan->reached, "to", plan->to);
    if (status != CAIRN_OK)
      return status;
  }
  return CAIRN_OK;
}
