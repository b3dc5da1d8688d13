/*
 * night.c - X. Night Phase (the second X of the rules text): Strength
 * recovery per Terrain card, the Advance Base Camp recovery, Depleted
 * Supplies, and C. Sherpas Desertion.
 */
#include "engine/because-its-there/state.h"

/* Night 3: the optional Unloaded Supplies bonus, declared before the draw:
 * one of the seat's Unloaded Supplies on a card holding its Climber, one
 * per card. `earlier` (n of them) are the cards the same `rest` listed
 * before this one: the declaration is one move, so every choice looks the
 * same from outside until the Night resolves. */
static const char *use_refusal(const struct bit_state *st, int seat, int card, const int *earlier,
                               int n)
{
  int i, at;

  if (!bit_is(card, BIT_SUPPLIES) || st->loc[card].zone != BIT_Z_MOUNTAIN ||
      st->loc[card].seat != seat || st->loc[card].role != BIT_R_UNLOADED)
    return "X.3 the bonus is for one of your Unloaded Supplies cards";
  for (i = 0; i < n; i++)
    if (earlier[i] == card)
      return "it is listed twice";
  at = st->loc[card].at;
  if (!bit_has_climber(st, seat, at))
    return "X.3 the bonus is for a Climbing Team in the Area: none of your Climbers is there";
  for (i = 0; i < n; i++)
    if (st->loc[earlier[i]].at == at)
      return "X.3 the bonus is +1 per Area: other Supplies there are already declared";
  return NULL;
}

/* The first card of `rest` that may not be declared, with *why; -1 if none. */
static int refused_card(const struct bit_state *st, int seat, const struct bit_move *rest,
                        const char **why)
{
  int i;

  for (i = 0; i < rest->n_use; i++) {
    *why = use_refusal(st, seat, rest->use[i], rest->use, i);
    if (*why)
      return rest->use[i];
  }
  return -1;
}

bool bit_declarable(const struct bit_state *st, int seat, int card)
{
  return use_refusal(st, seat, card, NULL, 0) == NULL;
}

bool bit_declaration_ok(const struct bit_state *st, int seat, const struct bit_move *rest)
{
  const char *why;

  return refused_card(st, seat, rest, &why) < 0;
}

enum cairn_status bit_declare_supplies(struct bit_state *st, int seat, const struct bit_move *rest,
                                       struct cairn_error *err)
{
  const char *why = NULL;
  int card = refused_card(st, seat, rest, &why), i;

  if (card >= 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_NIGHT,
                      "%s (card %d) may not be used tonight: %s", bit_cards[card].name, card, why);
  for (i = 0; i < rest->n_use; i++)
    st->use_supplies[rest->use[i]] = 1;
  return CAIRN_OK;
}

static bool own_card_at(const struct bit_state *st, int seat, int first, int last, int at)
{
  int c;

  for (c = first; c < last; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at == at)
      return true;
  return false;
}

static int used_supplies_at(const struct bit_state *st, int seat, int at)
{
  int c;

  for (c = BIT_SUPPLY_FIRST; c < BIT_CAMP_FIRST; c++)
    if (st->use_supplies[c] && st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat &&
        st->loc[c].at == at)
      return c;
  return -1;
}

/* Night 1-7 for one Terrain card. */
static enum cairn_status recover_card(struct bit_state *st, int at, json_t *events,
                                      struct cairn_error *err)
{
  int seat, drawer = -1, event, c;
  enum cairn_status s;

  for (seat = st->head.seats - 1; seat >= 0; seat--)
    if (bit_has_climber(st, seat, at))
      drawer = seat;
  if (drawer < 0)
    return CAIRN_OK;
  s = bit_event_draw(st, drawer, &event, events, err);
  if (s != CAIRN_OK)
    return s;
  for (seat = 0; seat < st->head.seats; seat++) {
    int terrain = bit_cards[at].terrain, net = bit_cards[event].bsr, supplies;
    /* IX.D "Any Climbers or Sherpas in a Terrain card containing a Camp are
     * assumed to be "in" that Camp": whoever owns it (1963 shares the
     * South Col). */
    bool camp = own_card_at(st, 0, BIT_CAMP_FIRST, BIT_SPECIAL_FIRST, at) ||
                own_card_at(st, 1, BIT_CAMP_FIRST, BIT_SPECIAL_FIRST, at);

    if (!bit_has_climber(st, seat, at))
      continue;
    if (camp || st->bivouac[seat] == at)
      net++; /* Night 2 (a Bivouac counts as a Camp) */
    supplies = used_supplies_at(st, seat, at);
    if (supplies >= 0)
      net++; /* Night 3 */
    if (st->weather == BIT_STORM && terrain == BIT_HIGH)
      net -= 1; /* Night 4 */
    if (st->weather == BIT_STORM && (terrain == BIT_EXTREME || terrain == BIT_SUMMIT_TYPE))
      net -= 2;
    s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:i, s:s, s:i, s:b, s:b, s:i}", "type",
                    "recovery", "seat", seat, "at", at, "at_name", bit_place_name(at), "event",
                    event, "event_name", bit_cards[event].name, "base", bit_cards[event].bsr,
                    "camp", camp || st->bivouac[seat] == at, "supplies", supplies >= 0, "net", net);
    for (c = BIT_CLIMBER_FIRST; s == CAIRN_OK && c < BIT_SHERPA_FIRST; c++)
      if (net != 0 && st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat &&
          st->loc[c].at == at)
        s = bit_lose_strength(st, c, -net, events, "night", err);
    if (s == CAIRN_OK && net < 0 && supplies >= 0) /* Night 7 */
      s = bit_to_discard(st, supplies, events, "depleted", err);
    if (s != CAIRN_OK)
      return s;
  }
  return CAIRN_OK;
}

/* Sherpas Desertion: a Sherpas on a card without a Climber deserts unless
 * its owner has a Camp there (X.A.1, RULES.md); only one Sherpas per card
 * per player stays, preferring one with a load, then one in a team. */
static enum cairn_status desertion(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  int c, d;
  enum cairn_status s;

  for (c = BIT_SHERPA_FIRST; c < BIT_SUPPLY_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    int seat = l->seat, at = l->at;
    if (l->zone != BIT_Z_MOUNTAIN || at == BIT_ABC)
      continue;
    if (!bit_has_any_climber(st, at) &&
        !own_card_at(st, seat, BIT_CAMP_FIRST, BIT_SPECIAL_FIRST, at)) {
      s = bit_to_dead(st, c, events, "deserted: no Climber", err);
      if (s != CAIRN_OK)
        return s;
    }
  }
  for (c = BIT_SHERPA_FIRST; c < BIT_SUPPLY_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    int score_c, keep = 1;
    if (l->zone != BIT_Z_MOUNTAIN || l->at == BIT_ABC)
      continue;
    score_c = (l->team >= 0) +
              2 * (l->team >= 0 && (bit_team_count(st, l->seat, l->team, -1, BIT_R_LOADED) +
                                    bit_team_count(st, l->seat, l->team, -1, BIT_R_CARRIED)) > 0);
    for (d = BIT_SHERPA_FIRST; d < BIT_SUPPLY_FIRST && keep; d++) {
      const struct bit_loc *m = &st->loc[d];
      int score_d;
      if (d == c || m->zone != BIT_Z_MOUNTAIN || m->seat != l->seat || m->at != l->at)
        continue;
      score_d = (m->team >= 0) +
                2 * (m->team >= 0 && (bit_team_count(st, m->seat, m->team, -1, BIT_R_LOADED) +
                                      bit_team_count(st, m->seat, m->team, -1, BIT_R_CARRIED)) > 0);
      if (score_d > score_c || (score_d == score_c && d < c))
        keep = 0;
    }
    if (!keep) {
      s = bit_to_dead(st, c, events, "deserted: more than one Sherpas on the card", err);
      if (s != CAIRN_OK)
        return s;
    }
  }
  return CAIRN_OK;
}

enum cairn_status bit_night(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  int at, c;
  enum cairn_status s = CAIRN_OK;

  for (at = 0; s == CAIRN_OK && at <= BIT_SUMMIT; at++)
    if (bit_has_any_climber(st, at))
      s = recover_card(st, at, events, err);
  /* Night 8: Advance Base Camp is always +2. */
  for (c = BIT_CLIMBER_FIRST; s == CAIRN_OK && c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].at == BIT_ABC &&
        st->strength[c] < bit_cards[c].strength)
      s = bit_lose_strength(st, c, -2, events, "advance base camp", err);
  if (s == CAIRN_OK)
    s = desertion(st, events, err);
  for (c = 0; c < BIT_CARDS; c++)
    st->use_supplies[c] = 0;
  st->bivouac[0] = st->bivouac[1] = -1;
  if (s != CAIRN_OK)
    return s;
  return bit_end_of_turn(st, events, err);
}
