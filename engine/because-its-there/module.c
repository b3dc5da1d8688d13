/*
 * module.c - the Because It's There! module struct and the glue between the
 * engine interface and the rules files: the phase flow of VI. Sequence of
 * Play, whose decision it is, and dispatching a move to its rules file.
 */
#include "engine/because-its-there/state.h"

#include <stdlib.h>
#include <string.h>

static const char *phase_name(int phase)
{
  static const char *const names[] = {"draft",    "route",      "discard", "advance-base-camp",
                                      "movement", "setup-camp", "night",   "over"};
  return phase >= 0 && phase <= BIT_P_OVER ? names[phase] : "?";
}

/* Enter `phase`, running what happens automatically at its start. */
enum cairn_status bit_enter_phase(struct bit_state *st, int phase, json_t *events,
                                  struct cairn_error *err)
{
  enum cairn_status s;

  st->phase = phase;
  st->done[0] = st->done[1] = 0;
  st->discarded[0] = st->discarded[1] = 0;
  s = ENGINE_EMIT(events, err, "{s:s, s:s, s:i}", "type", "phase", "phase", phase_name(phase),
                  "turn", st->turn);
  if (s != CAIRN_OK)
    return s;
  if (phase == BIT_P_MOVE)
    return bit_movement_begin(st, events, err);
  return CAIRN_OK;
}

/* Whether the current phase is one of `names` ("a" or "a or b"). */
static bool phase_is(const struct bit_state *st, const char *names)
{
  const char *name = phase_name(st->phase), *p = strstr(names, name);
  size_t n = strlen(name);

  return p && (p == names || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ');
}

static bool simultaneous(int phase)
{
  return phase == BIT_P_ROUTE || phase == BIT_P_DISCARD || phase == BIT_P_ABC ||
         phase == BIT_P_CAMP || phase == BIT_P_NIGHT;
}

/* A seat finished its part of a simultaneous phase; the last one moves the
 * game on. */
static enum cairn_status finish(struct bit_state *st, int seat, json_t *events,
                                struct cairn_error *err)
{
  int s2;
  enum cairn_status s;

  st->done[seat] = 1;
  for (s2 = 0; s2 < st->head.seats; s2++)
    if (!st->done[s2])
      return CAIRN_OK;
  switch (st->phase) {
  case BIT_P_DISCARD:
    return bit_enter_phase(st, BIT_P_ABC, events, err);
  case BIT_P_ABC:
    for (s2 = 0; s2 < st->head.seats; s2++) {
      s = bit_abc_tidy(st, s2, events, err);
      if (s != CAIRN_OK)
        return s;
    }
    return bit_enter_phase(st, BIT_P_MOVE, events, err);
  case BIT_P_CAMP:
    return bit_enter_phase(st, BIT_P_NIGHT, events, err);
  default: /* BIT_P_NIGHT */
    return bit_night(st, events, err);
  }
}

/* VI: `what` belongs to phase `wanted`; say which phase it is now, or
 * that the seat has already finished its part. */
static enum cairn_status wrong_phase(const struct bit_state *st, int seat, const char *what,
                                     const char *wanted, struct cairn_error *err)
{
  if (st->phase != BIT_P_OVER && phase_is(st, wanted) && st->done[seat])
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SEQUENCE,
                      "%s: you have already finished your part of the %s phase", what,
                      phase_name(st->phase));
  return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SEQUENCE,
                    "%s belongs to the %s phase (VI. Sequence of Play); the game is in the %s "
                    "phase",
                    what, wanted, phase_name(st->phase));
}

/* `route` of a move (a route name) as the route index (seat) to descend
 * from the Summit: the seat's own route first, else 1963's South Col. */
static int route_index(const struct bit_state *st, int seat, int route)
{
  int r;

  if (route < 0)
    return -1;
  if (st->route[seat] == route)
    return seat;
  for (r = 0; r < st->head.seats; r++)
    if (st->route[r] == route)
      return r;
  return -3;
}

static enum cairn_status dispatch(struct bit_state *st, int seat, struct bit_move *m,
                                  json_t *events, struct cairn_error *err)
{
  enum cairn_status s;

  switch (m->type) {
  case BIT_M_DRAFT:
    return bit_draft(st, seat, m->climber, events, err);
  case BIT_M_ROUTE:
    if (st->phase != BIT_P_ROUTE)
      return wrong_phase(st, seat, "choosing a route", "route", err);
    return bit_choose_route(st, seat, m->route, events, err);
  case BIT_M_DISCARD:
  case BIT_M_DRAW:
    if (st->phase != BIT_P_DISCARD || st->done[seat])
      return wrong_phase(st, seat, m->type == BIT_M_DRAW ? "drawing" : "discarding", "discard",
                         err);
    if (m->type == BIT_M_DISCARD)
      return bit_discard(st, seat, m->card, events, err);
    s = bit_draw(st, seat, m->count, events, err);
    return s != CAIRN_OK ? s : finish(st, seat, events, err);
  case BIT_M_DEPLOY:
    return bit_deploy(st, seat, m->card, m->team, events, err);
  case BIT_M_READY:
    if ((st->phase != BIT_P_ABC && st->phase != BIT_P_CAMP) || st->done[seat])
      return wrong_phase(st, seat, "ready", "advance-base-camp or setup-camp", err);
    return finish(st, seat, events, err);
  case BIT_M_PLAY:
    return bit_play(st, seat, m, events, err);
  case BIT_M_CAMP:
    return bit_setup_camp(st, seat, m->card, m->at, events, err);
  case BIT_M_STRIKE:
    return bit_strike_camp(st, seat, m->card, events, err);
  case BIT_M_REST:
    if (st->phase != BIT_P_NIGHT || st->done[seat])
      return wrong_phase(st, seat, "rest", "night", err);
    s = bit_declare_supplies(st, seat, m, err);
    return s != CAIRN_OK ? s : finish(st, seat, events, err);
  default:
    if (m->type == BIT_M_MOVE) {
      int named = m->route;
      m->route = route_index(st, seat, named);
      if (m->route < -1)
        return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS,
                          "route %s is not yours to descend: a team descends its own Route "
                          "(and in 1963 Player Two the South Col)",
                          bit_route_name(named));
    }
    return bit_move(st, seat, m, events, err);
  }
}

static int to_act(const struct engine_game *game, int seats[ENGINE_MAX_SEATS])
{
  const struct bit_state *st = (const struct bit_state *)game;
  int n = 0, seat;

  if (st->phase == BIT_P_OVER)
    return 0;
  if (st->phase == BIT_P_DRAFT || st->phase == BIT_P_MOVE) {
    seats[0] = st->active;
    return 1;
  }
  for (seat = 0; seat < st->head.seats; seat++)
    if (!st->done[seat])
      seats[n++] = seat;
  return n;
}

/* `move` Borrowed; events appended to `events`. */
static enum cairn_status apply_move(struct engine_game *game, int seat, const json_t *move,
                                    json_t *events, bool *pending, struct cairn_error *err)
{
  struct bit_state *st = (struct bit_state *)game;
  struct bit_move m;
  int phase = st->phase, turn = st->turn;
  enum cairn_status s;

  *pending = false;
  s = bit_move_parse(move, &m, err);
  if (s != CAIRN_OK)
    return s;
  s = dispatch(st, seat, &m, events, err);
  if (s != CAIRN_OK)
    return s;
  /* api.md "Simultaneous and hidden decisions": seq advances only when the
   * simultaneous step resolves, i.e. when the phase moves on. */
  *pending = st->head.seats > 1 && simultaneous(phase) && st->phase == phase && st->turn == turn;
  return CAIRN_OK;
}

/* Decks and the event deck are shuffled ahead (drawn without the
 * generator); weather and movement ties are rolled; the Night recovery
 * turns an event card (and shows the Supplies each seat declared). */
static bool event_reveals(const json_t *event)
{
  static const char *const reveal[] = {"drew",         "special-drawn",
                                       "drew-count",   "special-to-hand",
                                       "event",        "event-deck-reshuffled",
                                       "weather-roll", "movement-order",
                                       "recovery",     NULL};

  return engine_event_is(event, reveal);
}

const struct engine_module bit_module = {
    .version = ENGINE_MODULE_VERSION,
    .id = "because-its-there",
    .name = "Because It's There!",
    .min_seats = 1,
    .max_seats = 2,
    .rules_version = "bit-3",
    .options_json =
        "{\"scenario\": {\"type\": \"string\", \"default\": \"1953\", \"values\": [\"1924\", "
        "\"1953\", \"1963\", \"dream-teams\"], \"description\": \"XII. Scenarios: 1924 and 1953 "
        "are solo (1 seat), 1963 and dream-teams need 2 seats; without the option a 1-seat game "
        "plays 1953 and a 2-seat game 1963\"}}",
    .state_size = sizeof(struct bit_state),
    .new_game = bit_new_game,
    .apply_move = apply_move,
    .to_act = to_act,
    .write_legal = bit_write_legal,
    .write_view = bit_write_view,
    .result = bit_result,
    .serialize = bit_serialize,
    .sample_move = bit_sample_move,
    .event_reveals = event_reveals,
    .determinize = bit_determinize,
    .bot_evaluate = bit_bot_evaluate,
    .bot_policy = bit_bot_policy,
};
