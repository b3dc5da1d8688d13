/*
 * camps.c - IX. Camps (the second IX of the rules text): setting up a Camp
 * in the Setup Camp Phase and striking one.
 */
#include "engine/because-its-there/state.h"

static bool own_unloaded(const struct bit_state *st, int seat, int at)
{
  int c;

  for (c = BIT_SUPPLY_FIRST; c < BIT_CAMP_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at == at &&
        st->loc[c].role == BIT_R_UNLOADED)
      return true;
  return false;
}

static bool own_camp(const struct bit_state *st, int seat, int at)
{
  int c;

  for (c = BIT_CAMP_FIRST; c < BIT_SPECIAL_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at == at)
      return true;
  return false;
}

/* IX.A: a Camp from the hand onto a Terrain card with a Climber and an
 * Unloaded Supplies card (never only Cached ones). One Camp per card. */
bool bit_camp_ok(const struct bit_state *st, int seat, int camp, int at)
{
  return st->phase == BIT_P_CAMP && !st->done[seat] && bit_is(camp, BIT_CAMP) &&
         st->loc[camp].zone == BIT_Z_HAND && st->loc[camp].seat == seat &&
         bit_is(at, BIT_TERRAIN) && bit_has_climber(st, seat, at) && own_unloaded(st, seat, at) &&
         !own_camp(st, seat, at);
}

enum cairn_status bit_setup_camp(struct bit_state *st, int seat, int camp, int at, json_t *events,
                                 struct cairn_error *err)
{
  if (!bit_camp_ok(st, seat, camp, at))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_CAMPS,
                      "a Camp goes from the hand onto a Terrain card with your Climber and an "
                      "Unloaded Supplies card (one Camp per card)");
  bit_place(st, camp, seat, at, -1, BIT_R_CAMP);
  return bit_emit(
      events,
      json_pack("{s:s, s:i, s:i, s:i}", "type", "camp", "seat", seat, "card", camp, "at", at), err);
}

/* IX.B: struck at any time a Climber is on the card; we offer it in the
 * Setup Camp Phase and in the owner's Movement Phase (RULES.md). */
bool bit_strike_ok(const struct bit_state *st, int seat, int camp)
{
  bool when = (st->phase == BIT_P_CAMP && !st->done[seat]) ||
              (st->phase == BIT_P_MOVE && st->active == seat);

  return when && bit_is(camp, BIT_CAMP) && st->loc[camp].zone == BIT_Z_MOUNTAIN &&
         st->loc[camp].seat == seat && bit_has_climber(st, seat, st->loc[camp].at);
}

enum cairn_status bit_strike_camp(struct bit_state *st, int seat, int camp, json_t *events,
                                  struct cairn_error *err)
{
  if (!bit_strike_ok(st, seat, camp))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_CAMPS,
                      "a Camp may be struck only with one of your Climbers on its card");
  return bit_to_discard(st, camp, events, "camp struck", err);
}
