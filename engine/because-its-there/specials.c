/*
 * specials.c - II.B.6 Special cards (reconstruction, RULES.md "Specials"):
 * when each may be played and what it does. A played Special goes to the
 * dead pile (game-data.md §1).
 */
#include "engine/because-its-there/state.h"

static bool own_team(const struct bit_state *st, int seat, int team)
{
  return team >= 0 && team < BIT_TEAMS && st->team[seat][team].used &&
         !st->team[seat][team].moved && (st->moving < 0 || st->moving == team);
}

bool bit_play_ok(const struct bit_state *st, int seat, const struct bit_move *m)
{
  int card = m->card, sp = bit_special_of(card);
  bool moving_phase = st->phase == BIT_P_MOVE && st->active == seat;

  if (sp < 0 || st->loc[card].zone != BIT_Z_HAND || st->loc[card].seat != seat)
    return false;
  switch (sp) {
  case BIT_BIVOUAC:
    return st->phase == BIT_P_NIGHT && !st->done[seat] && st->bivouac[seat] < 0 && m->at >= 0 &&
           m->at < BIT_CARDS && bit_is(m->at, BIT_TERRAIN) && bit_has_climber(st, seat, m->at);
  case BIT_FIXED_ROPES:
    return moving_phase && own_team(st, seat, m->team) && !st->team[seat][m->team].ropes;
  case BIT_LADDERS:
    return moving_phase && own_team(st, seat, m->team) && !st->team[seat][m->team].ladders;
  case BIT_OPEN_O2:
  case BIT_CLOSED_O2:
    return moving_phase && bit_is(m->climber, BIT_CLIMBER) &&
           st->loc[m->climber].zone == BIT_Z_MOUNTAIN && st->loc[m->climber].seat == seat &&
           st->strength[m->climber] < bit_cards[m->climber].strength;
  default: /* Radio */
    return st->phase == BIT_P_DISCARD && !st->done[seat] && st->rolled;
  }
}

enum cairn_status bit_play(struct bit_state *st, int seat, const struct bit_move *m, json_t *events,
                           struct cairn_error *err)
{
  int card = m->card, sp = bit_special_of(card);
  enum cairn_status s;

  if (!bit_play_ok(st, seat, m))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SPECIAL,
                      "card %d cannot be played like that now", card);
  s = bit_emit(events,
               json_pack("{s:s, s:i, s:i, s:s}", "type", "played", "seat", seat, "card", card,
                         "name", bit_cards[card].name),
               err);
  if (s == CAIRN_OK)
    s = bit_to_dead(st, card, events, "special used", err);
  if (s != CAIRN_OK)
    return s;
  switch (sp) {
  case BIT_BIVOUAC:
    st->bivouac[seat] = m->at;
    return CAIRN_OK;
  case BIT_FIXED_ROPES:
    st->team[seat][m->team].ropes = 1;
    return CAIRN_OK;
  case BIT_LADDERS:
    st->team[seat][m->team].ladders = 1;
    return CAIRN_OK;
  case BIT_OPEN_O2:
  case BIT_CLOSED_O2:
    return bit_lose_strength(st, m->climber, sp == BIT_OPEN_O2 ? -2 : -3, events, "oxygen", err);
  default:
    return bit_radio(st, events, err);
  }
}
