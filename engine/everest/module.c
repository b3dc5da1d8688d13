/*
 * module.c - the Everest module struct and the thin glue between the
 * engine interface and the rules files: freeing, cloning, who owes a
 * decision, and sending a move object to the phase that expects it.
 */
#include "engine/everest/state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/everest/rules.h"

/* Planning and end-of-round choices are simultaneous: every seat that
 * still owes one is listed; a seat that has submitted drops out, which is
 * all anyone learns about its secret until the reveal. */
static int to_act(const struct engine_game *game, int seats[ENGINE_MAX_SEATS])
{
  const struct everest_state *st = (const struct everest_state *)game;
  int seat, n = 0;

  if (st->phase == EVEREST_PHASE_ORDER) {
    seats[0] = st->chooser;
    return 1;
  }
  if (st->phase == EVEREST_PHASE_BASE) {
    seats[0] = everest_base_chooser(st);
    return 1;
  }
  for (seat = 0; seat < game->seats; seat++)
    if (everest_owes_plan(st, seat) || everest_owes_heal(st, seat))
      seats[n++] = seat;
  return n;
}

/* The move each phase expects, its members besides "type", and the rule a
 * move of another type breaks then. */
struct phase_move {
  const char *type;
  const char *members[2];
  const char *rule;
};

static const struct phase_move *expected(int phase)
{
  static const struct phase_move table[] = {
      {"plan", {"plan", NULL}, EVEREST_RULE_PLAN},
      {"order", {"order", NULL}, EVEREST_RULE_EXECUTING},
      {"heal", {"heal", "set_aside"}, EVEREST_RULE_DAMAGE},
      {"base", {"base", NULL}, EVEREST_RULE_SETUP},
  };

  switch (phase) {
  case EVEREST_PHASE_PLAN:
    return &table[0];
  case EVEREST_PHASE_ORDER:
    return &table[1];
  case EVEREST_PHASE_BASE:
    return &table[3];
  default:
    return &table[2];
  }
}

static bool known_type(const char *type)
{
  return !strcmp(type, "plan") || !strcmp(type, "order") || !strcmp(type, "heal") ||
         !strcmp(type, "base");
}

static enum cairn_status check_shape(const struct phase_move *want, const json_t *move,
                                     struct cairn_error *err)
{
  const json_t *type = json_object_get(move, "type");
  const char *key;
  const json_t *value;

  if (!type)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "type is required");
  if (!json_is_string(type))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "type: expected a string");
  if (!known_type(json_string_value(type)))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "type is base, plan, order or heal, not %s", json_string_value(type));
  if (strcmp(json_string_value(type), want->type) != 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, want->rule,
                      "a %s move is expected now, not %s", want->type, json_string_value(type));
  json_object_foreach((json_t *)move, key, value)
  {
    bool known = strcmp(key, "type") == 0 || (want->members[0] && !strcmp(key, want->members[0])) ||
                 (want->members[1] && !strcmp(key, want->members[1]));

    if (!known)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "unknown field %s for a %s move", key, want->type);
  }
  return CAIRN_OK;
}

static enum cairn_status apply_move(struct engine_game *game, int seat, const json_t *move,
                                    json_t *events, bool *pending, struct cairn_error *err)
{
  struct everest_state *st = (struct everest_state *)game;
  enum cairn_status status;

  *pending = false;
  status = check_shape(expected(st->phase), move, err);
  if (status != CAIRN_OK)
    return status;
  if (st->phase == EVEREST_PHASE_BASE) {
    assert(seat == everest_base_chooser(st));
    return everest_choose_base(st, seat, move, events, err);
  }
  if (st->phase == EVEREST_PHASE_PLAN)
    return everest_submit_plan(st, seat, move, events, pending, err);
  if (st->phase == EVEREST_PHASE_ORDER) {
    assert(seat == st->chooser);
    status = everest_choose_order(st, seat, move, events, err);
    if (status != CAIRN_OK)
      return status;
    return everest_advance(st, events, err);
  }
  return everest_submit_heal(st, seat, move, events, pending, err);
}

/* Plans and end-of-round choices are secret until all are in; dice decide
 * conflicts and roars. */
static bool event_reveals(const json_t *event)
{
  static const char *const reveal[] = {"plans-revealed", "heals-revealed", "conflict",
                                       "roar",           "roar-roll",      NULL};

  return engine_event_is(event, reveal);
}

const struct engine_module everest_module = {
    .version = ENGINE_MODULE_VERSION,
    .id = "everest-piecepack",
    .name = "Everest (piecepack)",
    .min_seats = EVEREST_MIN_SEATS,
    .max_seats = EVEREST_MAX_SEATS,
    .rules_version = "everest-2",
    .options_json =
        "{\"round_cap\": {\"type\": \"integer\", \"default\": 0, \"minimum\": 0, "
        "\"maximum\": 5000, \"description\": \"opt-in, not in the rules: rounds after "
        "which a game nobody has won ends in a draw; 0 (the default) is no cap, the game "
        "ends only on the peak\"}}",
    .state_size = sizeof(struct everest_state),
    .new_game = everest_new_game,
    .apply_move = apply_move,
    .to_act = to_act,
    .write_legal = everest_write_legal,
    .write_view = everest_write_view,
    .result = everest_result,
    .serialize = everest_serialize,
    .sample_move = everest_sample_move,
    .event_reveals = event_reveals,
    .replay_text = everest_replay_text,
    .write_choices = everest_write_choices,
    .determinize = everest_determinize,
    .bot_evaluate = everest_bot_evaluate,
};
