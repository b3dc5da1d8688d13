/*
 * module.c - the Journey module struct and the thin glue between the engine
 * interface and the rules files: freeing, cloning, whose decision it is,
 * and sending a parsed move to the phase it belongs to.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum cairn_status journey_emit(json_t *events, json_t *event, struct cairn_error *err)
{
  /* json_array_append_new releases `event` on failure too. */
  if (!event || json_array_append_new(events, event) != 0)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while recording an event");
  return CAIRN_OK;
}

static json_t *counts_json(const int *counts, int n, const char *(*name)(int))
{
  json_t *obj = json_object();
  int i;

  for (i = 0; obj && i < n; i++)
    if (counts[i] > 0 && json_object_set_new(obj, name(i), json_integer(counts[i])) != 0) {
      json_decref(obj);
      obj = NULL;
    }
  return obj;
}

json_t *journey_card_counts_json(const int counts[JOURNEY_CARDS])
{
  return counts_json(counts, JOURNEY_CARDS, journey_card_name);
}

json_t *journey_item_counts_json(const int counts[JOURNEY_ITEMS])
{
  return counts_json(counts, JOURNEY_ITEMS, journey_item_name);
}

static void free_game(struct engine_game *game)
{
  free(game);
}

/* The state holds no pointers besides the static module (state.h). */
static struct engine_game *clone_game(const struct engine_game *game)
{
  struct journey_state *copy = malloc(sizeof(*copy));

  if (!copy)
    return NULL;
  memcpy(copy, game, sizeof(*copy));
  return &copy->head;
}

/* Buying and the climbers' turn are simultaneous: every climber not yet
 * done owes a decision. A reaction waits on the climbers who must answer. */
static int to_act(const struct engine_game *game, int seats[ENGINE_MAX_SEATS])
{
  const struct journey_state *st = (const struct journey_state *)game;
  int n = 0, c;

  switch (st->phase) {
  case JOURNEY_PHASE_BUY:
  case JOURNEY_PHASE_CLIMB:
    for (c = 0; c < JOURNEY_CLIMBERS; c++)
      if (!st->climber[c].done)
        seats[n++] = c;
    return n;
  case JOURNEY_PHASE_REACT:
    for (c = 0; c < JOURNEY_CLIMBERS; c++)
      if (st->climber[c].must_react && !st->climber[c].reacted)
        seats[n++] = c;
    return n;
  case JOURNEY_PHASE_MOUNTAIN:
    seats[0] = JOURNEY_MOUNTAIN;
    return 1;
  case JOURNEY_PHASE_OVER:
    break;
  }
  return 0;
}

/* The move types each phase accepts, for a clear message. */
static bool type_fits(enum journey_phase phase, int seat, enum journey_move_type t)
{
  switch (phase) {
  case JOURNEY_PHASE_BUY:
    return t == JOURNEY_MOVE_BUY || t == JOURNEY_MOVE_DONE;
  case JOURNEY_PHASE_CLIMB:
    return t == JOURNEY_MOVE_STEP || t == JOURNEY_MOVE_USE || t == JOURNEY_MOVE_GIVE ||
           t == JOURNEY_MOVE_REMOVE || t == JOURNEY_MOVE_END_TURN;
  case JOURNEY_PHASE_MOUNTAIN:
    return t == JOURNEY_MOVE_DISCARD || t == JOURNEY_MOVE_PLAY || t == JOURNEY_MOVE_YETI ||
           t == JOURNEY_MOVE_END_TURN;
  case JOURNEY_PHASE_REACT:
    return t == JOURNEY_MOVE_ROCKSLIDE || t == JOURNEY_MOVE_AVALANCHE;
  case JOURNEY_PHASE_OVER:
    break;
  }
  (void)seat;
  return false;
}

static const char *phase_rule(enum journey_phase phase)
{
  switch (phase) {
  case JOURNEY_PHASE_BUY:
    return JOURNEY_RULE_SETUP;
  case JOURNEY_PHASE_CLIMB:
    return JOURNEY_RULE_CLIMBERS;
  case JOURNEY_PHASE_MOUNTAIN:
    return JOURNEY_RULE_MOUNTAIN;
  default:
    return JOURNEY_RULE_ENVIRONMENT;
  }
}

static const char *phase_text(enum journey_phase phase)
{
  switch (phase) {
  case JOURNEY_PHASE_BUY:
    return "buying equipment (buy, done)";
  case JOURNEY_PHASE_CLIMB:
    return "the climbers' turn (move, use, give, remove, end_turn)";
  case JOURNEY_PHASE_MOUNTAIN:
    return "the Mountain's turn (discard, play, yeti, end_turn)";
  case JOURNEY_PHASE_REACT:
    return "a reaction (rockslide, avalanche)";
  default:
    return "the end of the game";
  }
}

enum cairn_status journey_check_move(const struct journey_state *st, int seat,
                                     const struct journey_move *m, struct cairn_error *err)
{
  if (!type_fits(st->phase, seat, m->type))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, phase_rule(st->phase),
                      "this move does not fit the current step: %s", phase_text(st->phase));
  switch (st->phase) {
  case JOURNEY_PHASE_BUY:
    return journey_check_buy(st, seat, m, err);
  case JOURNEY_PHASE_CLIMB:
    return journey_check_climb(st, seat, m, err);
  case JOURNEY_PHASE_MOUNTAIN:
    return journey_check_mountain(st, m, err);
  case JOURNEY_PHASE_REACT:
    return journey_check_react(st, seat, m, err);
  default:
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "the game is over");
  }
}

static enum cairn_status apply_move(struct engine_game *game, int seat, const json_t *move,
                                    json_t *events, bool *pending, struct cairn_error *err)
{
  struct journey_state *st = (struct journey_state *)game;
  struct journey_move m;
  enum cairn_status s;

  assert(st->end == JOURNEY_RUNNING && seat >= 0 && seat < JOURNEY_SEATS);
  *pending = false;
  s = journey_move_parse(move, &m, err);
  if (s != CAIRN_OK)
    return s;
  s = journey_check_move(st, seat, &m, err);
  if (s != CAIRN_OK)
    return s;
  switch (st->phase) {
  case JOURNEY_PHASE_BUY:
    return journey_buy(st, seat, &m, events, pending, err);
  case JOURNEY_PHASE_CLIMB:
    return journey_climb(st, seat, &m, events, pending, err);
  case JOURNEY_PHASE_MOUNTAIN:
    return journey_mountain(st, &m, events, err);
  case JOURNEY_PHASE_REACT:
    return journey_react(st, seat, &m, events, pending, err);
  default:
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "the game is over");
  }
}

/* The Mountain's deck and hand are hidden (a Forecast or a removal shows the
 * hand), dice decide crevices, bows, tents and the Yeti, and Avalanche
 * answers are secret until the card lands. The Mountain paying or playing a
 * card shows its own hand, which it knew: not a reveal to the mover. */
static bool event_reveals(const json_t *event)
{
  static const char *const reveal[] = {"forecast",   "card_removed",  "drew", "mountain_drew",
                                       "reshuffled", "crevice_roll",  "bow",  "tent_roll",
                                       "yeti_roll",  "avalanche_hit", NULL};

  return engine_event_is(event, reveal);
}

const struct engine_module journey_module = {
    .version = ENGINE_MODULE_VERSION,
    .id = "journey-to-the-top",
    .name = "Journey to the Top of the World",
    .min_seats = JOURNEY_SEATS,
    .max_seats = JOURNEY_SEATS,
    .rules_version = "journey-1",
    .options_json = "{\"turn_limit\": {\"type\": \"integer\", \"default\": 40, \"minimum\": 1, "
                    "\"maximum\": 5000, \"description\": \"Winter is coming: the Mountain wins "
                    "when this many climbers' turns have passed without the climbers' win\"}}",
    .new_game = journey_new_game,
    .free_game = free_game,
    .clone_game = clone_game,
    .apply_move = apply_move,
    .to_act = to_act,
    .legal_moves = journey_legal_moves,
    .view = journey_view,
    .result = journey_result,
    .serialize = journey_serialize,
    .event_reveals = event_reveals,
};
