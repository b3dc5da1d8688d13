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

/* Why the Special `m->card` may not be played like that now (static
 * text; the windows are RULES.md §9's), or NULL when it may. */
static const char *play_refusal(const struct bit_state *st, int seat, const struct bit_move *m)
{
  int card = m->card, sp = bit_special_of(card);
  bool moving_phase = st->phase == BIT_P_MOVE && st->active == seat;

  if (sp < 0 || st->loc[card].zone != BIT_Z_HAND || st->loc[card].seat != seat)
    return "II.B.6 only a Special card in your hand can be played";
  switch (sp) {
  case BIT_BIVOUAC:
    if (st->phase != BIT_P_NIGHT || st->done[seat])
      return "Bivouac is played in the Night Phase, before you rest";
    if (st->bivouac[seat] >= 0)
      return "you already have a Bivouac tonight";
    return m->at >= 0 && m->at < BIT_CARDS && bit_is(m->at, BIT_TERRAIN) &&
                   bit_has_climber(st, seat, m->at)
               ? NULL
               : "Bivouac goes on a Terrain card (`at`) holding one of your Climbers";
  case BIT_FIXED_ROPES:
  case BIT_LADDERS:
    if (!moving_phase)
      return "Fixed Ropes and Ladders are played in your own Movement Phase";
    if (!own_team(st, seat, m->team))
      return "they go on one of your Climbing Teams (`team`) that has not ended movement, the "
             "moving one if a team is moving";
    if (sp == BIT_FIXED_ROPES ? st->team[seat][m->team].ropes : st->team[seat][m->team].ladders)
      return "that team already has this Special for the phase";
    return NULL;
  case BIT_OPEN_O2:
  case BIT_CLOSED_O2:
    if (!moving_phase)
      return "Oxygen is played in your own Movement Phase";
    if (!bit_is(m->climber, BIT_CLIMBER) || st->loc[m->climber].zone != BIT_Z_MOUNTAIN ||
        st->loc[m->climber].seat != seat)
      return "Oxygen goes to one of your Climbers (`climber`) on the mountain";
    return st->strength[m->climber] < bit_cards[m->climber].strength
               ? NULL
               : "X.6 the Climber is at the Strength printed on its card already";
  default: /* Radio */
    if (st->phase != BIT_P_DISCARD || st->done[seat])
      return "Radio is played in the Discard/Draw Phase, before you draw";
    return st->rolled ? NULL : "no weather die was rolled this turn for the Radio to roll again";
  }
}

bool bit_play_ok(const struct bit_state *st, int seat, const struct bit_move *m)
{
  return play_refusal(st, seat, m) == NULL;
}

/* New reference: the `played` event, naming the card and what it went on. */
static json_t *played_json(int seat, const struct bit_move *m)
{
  json_t *o =
      json_pack("{s:s, s:i, s:i, s:s, s:s}", "type", "played", "seat", seat, "card", m->card,
                "card_name", bit_cards[m->card].name, "name", bit_cards[m->card].name);

  if (o && m->team >= 0)
    json_object_set_new(o, "team", json_integer(m->team));
  if (o && m->at >= 0) {
    json_object_set_new(o, "at", json_integer(m->at));
    json_object_set_new(o, "at_name", json_string(bit_place_name(m->at)));
  }
  if (o && m->climber >= 0) {
    json_object_set_new(o, "climber", json_integer(m->climber));
    json_object_set_new(o, "climber_name", json_string(bit_cards[m->climber].name));
  }
  return o;
}

enum cairn_status bit_play(struct bit_state *st, int seat, const struct bit_move *m, json_t *events,
                           struct cairn_error *err)
{
  int card = m->card, sp = bit_special_of(card);
  const char *why = play_refusal(st, seat, m);
  enum cairn_status s;

  if (why)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SPECIAL,
                      "%s (card %d) may not be played like that now: %s", bit_cards[card].name,
                      card, why);
  s = events ? engine_emit(events, played_json(seat, m), err) : CAIRN_OK;
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
