/*
 * events.c - X.C Event Card Draw: terrain match, the 1924 oxygen rule,
 * immunities (X.C.4) and the effects of each Event (RULES.md "Events").
 */
#include "engine/because-its-there/state.h"

static bool on_card(const struct bit_state *st, int c, int at)
{
  return st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].at == at;
}

static bool climber_on_card(const struct bit_state *st, int c, int at)
{
  return bit_is(c, BIT_CLIMBER) && on_card(st, c, at) && st->loc[c].team >= 0;
}

/* X.C.4: the weather matches (or betters) the Immunity, or any Climber in
 * the Terrain card has the Special Skill or the Skill (or better). */
bool bit_immune(const struct bit_state *st, int seat, int team, int event, int at)
{
  const struct bit_card *e = &bit_cards[event];
  int c;

  (void)seat;
  (void)team;
  switch (e->im_kind) {
  case BIT_IM_WEATHER:
    return st->weather <= e->im_value;
  case BIT_IM_SKILL:
  case BIT_IM_SPECIAL:
    for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
      if (!climber_on_card(st, c, at))
        continue;
      if (e->im_kind == BIT_IM_SKILL && bit_cards[c].skill >= e->im_value)
        return true;
      if (e->im_kind == BIT_IM_SPECIAL && bit_cards[c].special == e->im_value)
        return true;
    }
    return false;
  default:
    return false;
  }
}

/* XII 1924: oxygen Events count only with Mallory (20) or Irvine (21) in
 * the Climbing Team. */
static bool oxygen_ignored(const struct bit_state *st, int seat, int team, int event)
{
  int c;

  if (st->scenario != BIT_1924 || !bit_cards[event].oxygen)
    return false;
  for (c = BIT_CLIMBER_FIRST; c <= BIT_CLIMBER_FIRST + 1; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].team == team)
      return false;
  return true;
}

/* X.C.2: one card chosen at random from ALL Climbers (and Sherpas) on the
 * card. -1 when there is none. */
static int random_victim(struct bit_state *st, int at, bool sherpas)
{
  int pool[BIT_CARDS], n = 0, c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SUPPLY_FIRST; c++) {
    if (c >= BIT_SHERPA_FIRST && !sherpas)
      break;
    if (on_card(st, c, at) && (bit_is(c, BIT_SHERPA) || st->loc[c].team >= 0))
      pool[n++] = c;
  }
  return n ? pool[engine_rng_below(&st->head.rng, (uint32_t)n)] : -1;
}

static enum cairn_status hit(struct bit_state *st, int c, int amount, json_t *events,
                             const char *why, struct cairn_error *err)
{
  if (bit_is(c, BIT_SHERPA))
    return bit_to_dead(st, c, events, why, err);
  return bit_lose_strength(st, c, amount, events, why, err);
}

static enum cairn_status apply_effect(struct bit_state *st, int seat, int team, int event, int at,
                                      json_t *events, struct cairn_error *err)
{
  const struct bit_card *e = &bit_cards[event];
  enum cairn_status s = CAIRN_OK;
  int c, victim;

  switch (e->effect) {
  case BIT_FX_RANDOM:
  case BIT_FX_RANDOM_ANY:
    victim = random_victim(st, at, e->effect == BIT_FX_RANDOM_ANY);
    if (victim < 0)
      break;
    s = hit(st, victim,
            e->amount + (bit_cards[victim].skill == BIT_NOVICE && bit_is(victim, BIT_CLIMBER)
                             ? e->novice
                             : 0),
            events, e->name, err);
    break;
  case BIT_FX_ALL: /* X.C.3: every Climber on the card */
    for (c = BIT_CLIMBER_FIRST; s == CAIRN_OK && c < BIT_SHERPA_FIRST; c++)
      if (climber_on_card(st, c, at))
        s = bit_lose_strength(st, c, e->amount, events, e->name, err);
    break;
  case BIT_FX_TEAM:
  case BIT_FX_TEAM_NONVET:
    for (c = BIT_CLIMBER_FIRST; s == CAIRN_OK && c < BIT_SHERPA_FIRST; c++) {
      const struct bit_loc *l = &st->loc[c];
      if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat || l->team != team)
        continue;
      if (e->effect == BIT_FX_TEAM_NONVET && bit_cards[c].skill == BIT_VETERAN)
        continue;
      s = bit_lose_strength(st, c, e->effect == BIT_FX_TEAM ? -e->amount : e->amount, events,
                            e->name, err);
    }
    break;
  case BIT_FX_LOSE_LOADED:
    for (c = BIT_SUPPLY_FIRST; s == CAIRN_OK && c < BIT_CAMP_FIRST; c++)
      if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].team == team &&
          st->loc[c].role == BIT_R_LOADED)
        s = bit_to_discard(st, c, events, e->name, err);
    break;
  case BIT_FX_DESERT: {
    int pool[8], n = 0;
    for (c = BIT_SHERPA_FIRST; c < BIT_SUPPLY_FIRST; c++)
      if (on_card(st, c, at))
        pool[n++] = c;
    if (n)
      s = bit_to_dead(st, pool[engine_rng_below(&st->head.rng, (uint32_t)n)], events, e->name, err);
    break;
  }
  case BIT_FX_CAMP_LOST:
    for (c = BIT_CAMP_FIRST; c < BIT_SPECIAL_FIRST; c++)
      if (on_card(st, c, at)) {
        s = bit_to_discard(st, c, events, e->name, err);
        break;
      }
    break;
  case BIT_FX_WEATHER_WORSE:
    s = bit_set_weather(st, st->weather + 1, e->name, events, err);
    break;
  case BIT_FX_WEATHER_BETTER:
    s = bit_set_weather(st, st->weather - 1, e->name, events, err);
    break;
  case BIT_FX_STORM:
    s = bit_set_weather(st, BIT_STORM, e->name, events, err);
    break;
  default:
    break;
  }
  return s;
}

/* Resolve the Event drawn for `team` of `seat` on entering its card. */
enum cairn_status bit_resolve_event(struct bit_state *st, int seat, int team, int event,
                                    json_t *events, struct cairn_error *err)
{
  const struct bit_card *e = &bit_cards[event];
  int at = bit_team_at(st, seat, team);
  const char *outcome = "applies";
  enum cairn_status s;

  if (at < 0 || bit_cards[at].terrain != e->terrain)
    outcome = "terrain does not match";
  else if (oxygen_ignored(st, seat, team, event))
    outcome = "no oxygen in the team (1924)";
  else if (e->terrain == BIT_GLACIER && st->team[seat][team].ladders)
    outcome = "ladders";
  else if (bit_immune(st, seat, team, event, at))
    outcome = "immune";
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i, s:s, s:s, s:i, s:s, s:s}", "type", "event",
                  "seat", seat, "team", team, "card", event, "card_name", e->name, "name", e->name,
                  "at", at, "at_name", bit_place_name(at), "outcome", outcome);
  if (s != CAIRN_OK || outcome[0] != 'a' || outcome[1] != 'p')
    return s;
  s = apply_effect(st, seat, team, event, at, events, err);
  if (s != CAIRN_OK)
    return s;
  if (e->end && team >= 0 && st->team[seat][team].used)
    return bit_end_movement(st, seat, team, "event", events, err);
  return CAIRN_OK;
}
