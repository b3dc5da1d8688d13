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

enum cairn_status everest_emit(json_t *events, json_t *event, struct cairn_error *err)
{
  /* json_array_append_new releases `event` on failure too. */
  if (!event || json_array_append_new(events, event) != 0)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while recording an event");
  return CAIRN_OK;
}

int everest_occupant(const struct everest_yeti *yeti, int seats, int cell)
{
  int seat;

  if (cell == EVEREST_OFF)
    return -1;
  for (seat = 0; seat < seats; seat++)
    if (yeti[seat].cell == cell)
      return seat;
  return -1;
}

int everest_available(const struct everest_state *st, int seat)
{
  int coin, n = 0;

  for (coin = 0; coin < EVEREST_COINS; coin++)
    if (!(st->seat[seat].aside & (1u << coin)))
      n++;
  return n;
}

static void free_game(struct engine_game *game)
{
  free(game);
}

/* The state holds no pointers besides the static module (state.h). */
static struct engine_game *clone_game(const struct engine_game *game)
{
  struct everest_state *copy = malloc(sizeof(*copy));

  if (!copy)
    return NULL;
  memcpy(copy, game, sizeof(*copy));
  return &copy->head;
}

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
  for (seat = 0; seat < game->seats; seat++)
    if (everest_owes_plan(st, seat) || everest_owes_heal(st, seat))
      seats[n++] = seat;
  return n;
}

static enum cairn_status apply_move(struct engine_game *game, int seat, const json_t *move,
                                    json_t *events, bool *pending, struct cairn_error *err)
{
  struct everest_state *st = (struct everest_state *)game;
  const json_t *type = json_object_get(move, "type");
  const char *want, *key;
  const json_t *value;
  enum cairn_status status;

  *pending = false;
  switch (st->phase) {
  case EVEREST_PHASE_PLAN:
    want = "plan";
    break;
  case EVEREST_PHASE_ORDER:
    want = "order";
    break;
  default:
    want = "heal";
    break;
  }
  if (!type)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "type is required");
  if (!json_is_string(type))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "type: expected a string");
  if (strcmp(json_string_value(type), want) != 0) {
    if (strcmp(json_string_value(type), "plan") && strcmp(json_string_value(type), "order") &&
        strcmp(json_string_value(type), "heal"))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                        "type is plan, order or heal, not %s", json_string_value(type));
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                      st->phase == EVEREST_PHASE_PLAN    ? EVEREST_RULE_PLAN
                      : st->phase == EVEREST_PHASE_ORDER ? EVEREST_RULE_EXECUTING
                                                         : EVEREST_RULE_DAMAGE,
                      "a %s move is expected now, not %s", want, json_string_value(type));
  }
  json_object_foreach((json_t *)move, key, value)
  {
    bool known = strcmp(key, "type") == 0 || (strcmp(want, "plan") == 0 && !strcmp(key, "plan")) ||
                 (strcmp(want, "order") == 0 && !strcmp(key, "order")) ||
                 (strcmp(want, "heal") == 0 && (!strcmp(key, "heal") || !strcmp(key, "set_aside")));

    if (!known)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "unknown field %s for a %s move", key, want);
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
    .rules_version = "everest-1",
    .options_json = "{\"round_cap\": {\"type\": \"integer\", \"default\": 200, \"minimum\": 1, "
                    "\"maximum\": 5000, \"description\": \"rounds after which the game ends in a "
                    "draw (not in the rules; guarantees an end)\"}}",
    .new_game = everest_new_game,
    .free_game = free_game,
    .clone_game = clone_game,
    .apply_move = apply_move,
    .to_act = to_act,
    .legal_moves = everest_legal_moves,
    .view = everest_view,
    .result = everest_result,
    .serialize = everest_serialize,
    .sample_move = everest_sample_move,
    .event_reveals = event_reveals,
};
