/*
 * climbers.c - Moving the Mountain Climbers: where a climber may go (two own
 * Sherpas, one climber per field, the summit) and carrying the move out,
 * including the Sherpas it leaves behind with the Yeti. Winning is recorded
 * by end.c, the Yeti's part by yeti.c.
 */
#include "engine/himalaya/state.h"
#include "engine/himalaya/rules.h"

#include <stdio.h>

/* The seat whose climber stands on `field`, or -1. Base camp is shared, so
 * callers never ask about field 0. */
static int climber_on(const struct himalaya_state *st, int field)
{
  int seat;

  for (seat = 0; seat < st->head.seats; seat++)
    if (st->seat[seat].climber == field)
      return seat;
  return -1;
}

enum cairn_status himalaya_climber_plan(const struct himalaya_state *st, int seat,
                                        const struct himalaya_move *m, struct himalaya_plan *plan,
                                        struct cairn_error *err)
{
  bool supply = m->type == HIMALAYA_MOVE_SUPPLY;
  enum cairn_status status;
  char who[32];
  int landing, own, other;

  who[0] = '\0'; /* named only when an error is reported (see sherpas.c) */
  if (err)
    snprintf(who, sizeof(who), "climber of seat %d", seat);
  /* Climbers only climb: the text gives backward moves to Sherpas alone
   * (RULES.md), so the move shape has no direction for them. */
  plan->from = st->seat[seat].climber;
  landing = plan->from + m->value;
  plan->landing = plan->reached = plan->to = landing;
  plan->extra = 0;
  plan->companions = 0;
  plan->summit = false;

  if (supply) {
    status = himalaya_check_supply_start(who, plan->from, err);
    if (status != CAIRN_OK)
      return status;
  }
  /* "In this event one can leave points on the die unused. The mountain
   * climber is allowed to reach the summit alone, without support of
   * Sherpas." A supply card may not carry it there (Special Spaces). */
  if (landing >= HIMALAYA_SUMMIT) {
    if (supply)
      return himalaya_check_supply_stop(who, HIMALAYA_SUMMIT, err);
    plan->landing = plan->reached = plan->to = HIMALAYA_SUMMIT;
    plan->summit = true;
    return CAIRN_OK;
  }
  status = himalaya_check_stop(st, who, landing, err);
  if (status == CAIRN_OK && supply)
    status = himalaya_check_supply_stop(who, landing, err);
  if (status != CAIRN_OK)
    return status;

  /* "Only one mountaineer may be on any space at one time." */
  other = climber_on(st, landing);
  if (other >= 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_CLIMBERS,
                      "%s cannot move to field %d: the climber of seat %d already stands there",
                      who, landing, other);
  /* "A mountain climber may move on to a field only if at least two of
   * his/her own Sherpas stand there. Sherpas of other players are not
   * taken into account." */
  own = himalaya_own_sherpas_on(st, seat, landing);
  if (own < 2)
    return cairn_fail(
        err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_CLIMBERS,
        "%s cannot move to field %d: only %d of your Sherpas stand%s there, 2 are "
        "needed%s",
        who, landing, own, own == 1 ? "s" : "",
        himalaya_sherpas_on(st, landing) > own ? " (Sherpas of other players do not count)" : "");
  return CAIRN_OK;
}

enum cairn_status himalaya_climber_move(struct himalaya_state *st, int seat,
                                        const struct himalaya_move *m,
                                        const struct himalaya_plan *plan, json_t *events,
                                        struct cairn_error *err)
{
  enum cairn_status status;

  st->seat[seat].climber = plan->to;
  status = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:i, s:i, s:s, s:i}", "type", "moved", "seat",
                       seat, "pawn", "climber", "from", plan->from, "to", plan->to, "via",
                       m->type == HIMALAYA_MOVE_SUPPLY ? "supply" : "die", "value", m->value);
  if (status != CAIRN_OK)
    return status;
  /* "As soon as a mountain climber reaches the summit space (goal), the
   * game ends": nothing else happens after that. */
  if (plan->summit)
    return himalaya_summit(st, seat, events, err);
  return himalaya_left_behind(st, seat, plan->from, events, err);
}
