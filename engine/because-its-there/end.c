/*
 * end.c - XI. End of Turn, the start of the next turn, V. Winning and the
 * scenarios' Victory Conditions (XII).
 */
#include "engine/because-its-there/state.h"

/* XII Dream Teams: VP per Climber by the Route it climbed. */
static int route_vp(int route)
{
  static const int vp[BIT_ROUTES] = {5, 5, 3, 4};
  return route >= 0 && route < BIT_ROUTES ? vp[route] : 0;
}

static bool alive(const struct bit_state *st, int c)
{
  return st->loc[c].zone != BIT_Z_DEAD;
}

/* Which end of the text was reached (README "Result"): the scenario's
 * Victory Conditions met, or turn 20 over and how it stands. */
static const char *end_reason(const struct bit_state *st)
{
  switch (st->scenario) {
  case BIT_1924:
    return st->success[0] ? "summit-and-return" : "turn-20";
  case BIT_1953:
    return st->success[0] ? "two-summits-and-return" : "turn-20";
  case BIT_1963:
    if (st->success[0] && st->success[1])
      return "both-succeeded";
    return st->success[0] || st->success[1] ? "one-succeeded" : "both-failed";
  default:
    return st->vp[0] == st->vp[1] ? "equal-vp" : "most-vp";
  }
}

/* Fill success[], vp[] and winner[] from the position. */
void bit_score(struct bit_state *st)
{
  int seat, c;

  for (seat = 0; seat < BIT_SEATS; seat++) {
    int returned = 0;
    st->success[seat] = 0;
    st->vp[seat] = 0;
    st->winner[seat] = 0;
    if (seat >= st->head.seats)
      continue;
    for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
      if (st->loc[c].seat != seat || !st->summited[c])
        continue;
      if (alive(st, c))
        st->vp[seat] += route_vp(st->up_route[c]);
      /* 1963: up the Route the scenario directs (the descent was checked
       * on arrival, movement.c). */
      if (st->returned[c] && alive(st, c) &&
          (st->scenario != BIT_1963 || st->up_route[c] == st->route[seat]))
        returned++;
    }
    switch (st->scenario) {
    case BIT_1924:
      st->success[seat] = returned >= 1;
      break;
    case BIT_DREAM:
      st->success[seat] = 0;
      break;
    default: /* 1953 and 1963: at least two */
      st->success[seat] = returned >= 2;
      break;
    }
  }
  if (st->head.seats == 1) {
    st->winner[0] = st->success[0];
  } else if (st->scenario == BIT_1963) {
    /* "If both players succeed or both fail the game is a draw." */
    if (st->success[0] != st->success[1])
      st->winner[st->success[0] ? 0 : 1] = 1;
  } else if (st->vp[0] != st->vp[1]) {
    st->winner[st->vp[0] > st->vp[1] ? 0 : 1] = 1;
  }
}

/* XI: the game ends when the scenario's conditions are met, or after turn
 * 20. 1963 goes on while only one side has succeeded (the other may still
 * draw level); Dream Teams always plays 20 turns (VP at the end). */
enum cairn_status bit_end_of_turn(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  bool over;
  enum cairn_status s;

  bit_score(st);
  if (st->scenario == BIT_1963)
    over = st->success[0] && st->success[1];
  else if (st->scenario == BIT_DREAM)
    over = false;
  else
    over = st->success[0];
  if (over || st->turn >= BIT_LAST_TURN) {
    st->phase = BIT_P_OVER;
    return ENGINE_EMIT(events, err, "{s:s, s:i, s:[b,b], s:s}", "type", "game-over", "turn",
                       st->turn, "success", st->success[0], st->success[1], "reason",
                       end_reason(st));
  }
  st->turn++;
  s = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "turn", "turn", st->turn);
  if (s != CAIRN_OK)
    return s;
  return bit_start_turn(st, events, err);
}

/* VI.A-B: the Weather Phase is automatic, then the Discard/Draw Phase. */
enum cairn_status bit_start_turn(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  enum cairn_status s = bit_weather_phase(st, events, err);

  if (s != CAIRN_OK)
    return s;
  return bit_enter_phase(st, BIT_P_DISCARD, events, err);
}

json_t *bit_result(const struct engine_game *game)
{
  const struct bit_state *st = (const struct bit_state *)game;
  json_t *winners, *res;
  int seat;

  if (st->phase != BIT_P_OVER)
    return NULL;
  winners = json_array();
  for (seat = 0; seat < st->head.seats; seat++)
    if (st->winner[seat])
      json_array_append_new(winners, json_integer(seat));
  res = json_pack("{s:o, s:s, s:i, s:s}", "winners", winners, "scenario",
                  bit_scenario_name(st->scenario), "turn", st->turn, "reason", end_reason(st));
  if (!res)
    return NULL;
  if (st->head.seats == 2) {
    json_object_set_new(res, "draw", json_boolean(!st->winner[0] && !st->winner[1]));
    json_object_set_new(res, "success", json_pack("[b,b]", st->success[0], st->success[1]));
    if (st->scenario == BIT_DREAM)
      json_object_set_new(res, "vp", json_pack("[i,i]", st->vp[0], st->vp[1]));
  } else {
    json_object_set_new(res, "success", json_boolean(st->success[0]));
  }
  return res;
}
