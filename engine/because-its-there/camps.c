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
 * Unloaded Supplies card (never only Cached ones). One Camp per card.
 * Why not (static text), or NULL. */
static const char *camp_refusal(const struct bit_state *st, int seat, int camp, int at)
{
  if (st->phase != BIT_P_CAMP)
    return "VI.E Camps are placed in the Setup Camp Phase";
  if (st->done[seat])
    return "you are already ready in this Setup Camp Phase";
  if (!bit_is(camp, BIT_CAMP) || st->loc[camp].zone != BIT_Z_HAND || st->loc[camp].seat != seat)
    return "IX.A Players may play a Camp card from their hands: that is not a Camp card in your "
           "hand";
  if (!bit_is(at, BIT_TERRAIN))
    return "IX.A a Camp goes on a Terrain card";
  if (!bit_has_climber(st, seat, at))
    return "IX.A the Terrain card must contain one of your Climbers";
  if (!own_unloaded(st, seat, at))
    return "IX.A the Terrain card needs an Unloaded Supplies card (Camps may not be placed on "
           "Terrain cards containing only a Cached Supplies card)";
  return own_camp(st, seat, at) ? "you already have a Camp on that card (one per card: a second "
                                  "gives no bonus)"
                                : NULL;
}

bool bit_camp_ok(const struct bit_state *st, int seat, int camp, int at)
{
  return camp_refusal(st, seat, camp, at) == NULL;
}

enum cairn_status bit_setup_camp(struct bit_state *st, int seat, int camp, int at, json_t *events,
                                 struct cairn_error *err)
{
  const char *why = camp_refusal(st, seat, camp, at);

  if (why)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_CAMPS,
                      "%s (card %d) may not be placed as a Camp on %s: %s", bit_cards[camp].name,
                      camp, bit_place_name(at), why);
  bit_place(st, camp, seat, at, -1, BIT_R_CAMP);
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:i, s:s}", "type", "camp", "seat", seat,
                     "card", camp, "card_name", bit_cards[camp].name, "at", at, "at_name",
                     bit_place_name(at));
}

/* IX.B: struck at any time a Climber is on the card; we offer it in the
 * Setup Camp Phase and in the owner's Movement Phase (RULES.md). */
static const char *strike_refusal(const struct bit_state *st, int seat, int camp)
{
  bool when = (st->phase == BIT_P_CAMP && !st->done[seat]) ||
              (st->phase == BIT_P_MOVE && st->active == seat);

  if (!when)
    return "Camps are struck in the Setup Camp Phase or in your own Movement Phase";
  if (!bit_is(camp, BIT_CAMP) || st->loc[camp].zone != BIT_Z_MOUNTAIN || st->loc[camp].seat != seat)
    return "that is not one of your Camps on the mountain";
  return bit_has_climber(st, seat, st->loc[camp].at)
             ? NULL
             : "IX.B a Camp is struck only as long as at least one Climber card is in the same "
               "Terrain card";
}

bool bit_strike_ok(const struct bit_state *st, int seat, int camp)
{
  return strike_refusal(st, seat, camp) == NULL;
}

enum cairn_status bit_strike_camp(struct bit_state *st, int seat, int camp, json_t *events,
                                  struct cairn_error *err)
{
  const char *why = strike_refusal(st, seat, camp);

  if (why)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_CAMPS,
                      "%s (card %d) may not be struck: %s", bit_cards[camp].name, camp, why);
  return bit_to_discard(st, camp, events, "camp struck", err);
}
