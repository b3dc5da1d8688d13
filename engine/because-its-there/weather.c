/*
 * weather.c - VII. Weather Phase: the 1D6 roll with the scenario
 * modifiers, the Weather track, and a Storm's stripping of unattended
 * Supplies and Camps (X.A.7).
 */
#include "engine/because-its-there/state.h"

const char *bit_weather_name(int weather)
{
  static const char *const names[] = {"good", "fair", "poor", "storm"};
  return weather >= BIT_GOOD && weather <= BIT_STORM ? names[weather] : "?";
}

/* Set the weather; a change to Storm strips unattended Supplies and Camps
 * at once (X.A.7 "immediately removed to the discard pile"). */
enum cairn_status bit_set_weather(struct bit_state *st, int weather, const char *why,
                                  json_t *events, struct cairn_error *err)
{
  int before = st->weather;
  enum cairn_status s;

  if (weather < BIT_GOOD)
    weather = BIT_GOOD;
  if (weather > BIT_STORM)
    weather = BIT_STORM;
  st->weather = weather;
  s = ENGINE_EMIT(events, err, "{s:s, s:s, s:s, s:s}", "type", "weather", "from",
                  bit_weather_name(before), "to", bit_weather_name(weather), "why", why);
  if (s != CAIRN_OK || weather != BIT_STORM || before == BIT_STORM)
    return s;
  return bit_storm_strip(st, events, err);
}

/* XII: the scenario's modifier to the weather die this turn. */
static int modifier(const struct bit_state *st)
{
  if (st->scenario == BIT_1924 && st->turn >= 10)
    return -1;
  if (st->scenario == BIT_1953 && st->turn >= 15)
    return -1;
  return 0;
}

static enum cairn_status roll(struct bit_state *st, const char *why, json_t *events,
                              struct cairn_error *err)
{
  int die = engine_rng_die(&st->head.rng, 6);
  int net = die + modifier(st);
  int to = st->weather;
  enum cairn_status s;

  /* VII.B: 1 worsens, 6 improves; VII.C: modifiers apply before checking,
   * so a modified 0 worsens too. */
  if (net <= 1)
    to = st->weather + 1;
  else if (net >= 6)
    to = st->weather - 1;
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s}", "type", "weather-roll", "die", die,
                  "modified", net, "why", why);
  if (s != CAIRN_OK)
    return s;
  if (to == st->weather || to < BIT_GOOD || to > BIT_STORM)
    return CAIRN_OK;
  return bit_set_weather(st, to, why, events, err);
}

/* VII.A-C: no roll on turn 1 (the scenario sets it) nor in 1963 turns
 * 1-10 ("Good -- do not roll"). */
enum cairn_status bit_weather_phase(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  st->rolled = 0;
  if (st->turn == 1)
    return CAIRN_OK;
  if (st->scenario == BIT_1963 && st->turn <= 10) {
    /* An Event may have changed it last turn; the return to Good is a
     * weather change like any other, so it has its event. */
    if (st->weather == BIT_GOOD)
      return CAIRN_OK;
    return bit_set_weather(st, BIT_GOOD, "1963: turns 1 through 10 are Good", events, err);
  }
  st->before_roll = st->weather;
  st->rolled = 1;
  return roll(st, "weather phase", events, err);
}

/* Radio (RULES.md "Specials"): roll this turn's weather die again, from the
 * weather as it stood before the roll. */
enum cairn_status bit_radio(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  st->weather = st->before_roll;
  st->rolled = 0;
  return roll(st, "radio", events, err);
}
