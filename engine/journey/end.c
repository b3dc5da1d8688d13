/*
 * end.c - Ending the game: the climbers' win (both reached the top and came
 * back to base camp), the Mountain's win (a climber died, or winter came
 * with the turn limit) and the result object. When each is checked is the
 * business of climbers.c and environment.c.
 */
#include "engine/journey/state.h"

static const char *reason_name(enum journey_end end)
{
  switch (end) {
  case JOURNEY_END_CLIMBERS:
    return "summit-and-back";
  case JOURNEY_END_DEATH:
    return "death";
  case JOURNEY_END_WINTER:
    return "winter";
  default:
    return "running";
  }
}

static json_t *winners_json(enum journey_end end)
{
  if (end == JOURNEY_END_CLIMBERS)
    return json_pack("[ii]", JOURNEY_TENZING, JOURNEY_HILLARY);
  return json_pack("[i]", JOURNEY_MOUNTAIN);
}

enum cairn_status journey_finish(struct journey_state *st, enum journey_end end, json_t *events,
                                 struct cairn_error *err)
{
  st->end = end;
  st->phase = JOURNEY_PHASE_OVER;
  return engine_emit(events,
                     json_pack("{s:s, s:s, s:o, s:i}", "type", "game_over", "reason",
                               reason_name(end), "winners", winners_json(end), "turn", st->turn),
                     err);
}

json_t *journey_result(const struct engine_game *game)
{
  const struct journey_state *st = (const struct journey_state *)game;

  if (st->end == JOURNEY_RUNNING)
    return NULL;
  return json_pack("{s:o, s:s, s:i, s:o}", "winners", winners_json(st->end), "reason",
                   reason_name(st->end), "turn", st->turn, "dead",
                   st->dead >= 0 ? json_string(journey_role_name(st->dead)) : json_null());
}
