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

/* The winning seats of `end`, written to seats[]; how many. */
static int winners(enum journey_end end, int seats[JOURNEY_CLIMBERS])
{
  if (end != JOURNEY_END_CLIMBERS) {
    seats[0] = JOURNEY_MOUNTAIN;
    return 1;
  }
  seats[0] = JOURNEY_TENZING;
  seats[1] = JOURNEY_HILLARY;
  return 2;
}

enum cairn_status journey_finish(struct journey_state *st, enum journey_end end, json_t *events,
                                 struct cairn_error *err)
{
  int seats[JOURNEY_CLIMBERS];
  int n = winners(end, seats);

  st->end = end;
  st->phase = JOURNEY_PHASE_OVER;
  return ENGINE_EMIT(events, err, "{s:s, s:s, s:o, s:i}", "type", "game_over", "reason",
                     reason_name(end), "winners", engine_int_list(seats, n), "turn", st->turn);
}

void journey_write_result(const struct journey_state *st, struct json_writer *w)
{
  int seats[JOURNEY_CLIMBERS];
  int n = winners(st->end, seats);

  if (st->end == JOURNEY_RUNNING) {
    jw_null(w);
    return;
  }
  jw_object_begin(w);
  jw_key(w, "winners");
  jw_int_array(w, seats, (size_t)n);
  jw_key_string(w, "reason", reason_name(st->end));
  jw_key_int(w, "turn", st->turn);
  jw_key_string(w, "dead", st->dead >= 0 ? journey_role_name(st->dead) : NULL);
  jw_object_end(w);
}

json_t *journey_result(const struct engine_game *game)
{
  const struct journey_state *st = (const struct journey_state *)game;
  struct json_writer w;

  /* Asked after every move (is the game over?): answered without writing
   * anything while the game runs. */
  if (st->end == JOURNEY_RUNNING)
    return NULL;
  jw_init(&w);
  journey_write_result(st, &w);
  return jw_finish_tree(&w);
}
