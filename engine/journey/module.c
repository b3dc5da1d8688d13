/*
 * module.c - the Journey module struct and the thin glue between the engine
 * interface and the rules files: freeing, cloning, whose decision it is,
 * and sending a parsed move to the phase it belongs to.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_counts(const int *counts, int n, const char *(*name)(int), struct json_writer *w)
{
  int i;

  jw_object_begin(w);
  for (i = 0; i < n; i++)
    if (counts[i] > 0)
      jw_key_int(w, name(i), counts[i]);
  jw_object_end(w);
}

void journey_write_card_counts(const int counts[JOURNEY_CARDS], struct json_writer *w)
{
  write_counts(counts, JOURNEY_CARDS, journey_card_name, w);
}

void journey_write_item_counts(const int counts[JOURNEY_ITEMS], struct json_writer *w)
{
  write_counts(counts, JOURNEY_ITEMS, journey_item_name, w);
}

json_t *journey_card_counts_json(const int counts[JOURNEY_CARDS])
{
  struct json_writer w;

  jw_init(&w);
  journey_write_card_counts(counts, &w);
  return jw_finish_tree(&w);
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
                      "a \"%s\" move does not fit the current step, %s",
                      journey_move_type_name(m->type), phase_text(st->phase));
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

/* Set `key` + `suffix` on `event` to the Static string `name`; false when
 * out of memory. */
static bool set_name(json_t *event, const char *key, const char *suffix, const char *name)
{
  char member[24];

  snprintf(member, sizeof(member), "%s%s", key, suffix);
  return json_object_set_new(event, member, json_string(name)) == 0;
}

/* A role or card name among `list`'s strings, as names a player reads: New
 * reference, or NULL when out of memory. */
static json_t *titles_of(const json_t *list, bool roles)
{
  json_t *titles = json_array();
  const json_t *item;
  size_t i;

  json_array_foreach(list, i, item)
  {
    json_int_t seat = json_integer_value(item);
    int card = json_is_string(item) ? journey_card_named(json_string_value(item)) : -1;
    const char *title =
        roles ? (seat >= 0 && seat < JOURNEY_SEATS ? journey_role_title((int)seat) : NULL)
              : (card >= 0 ? journey_card_title(card) : NULL);

    if (titles && (!title || json_array_append_new(titles, json_string(title)) != 0)) {
      json_decref(titles);
      titles = NULL;
    }
  }
  return titles;
}

/* {card: count} with the cards' printed names as keys: New reference, or
 * NULL when out of memory. */
static json_t *hand_titles(const json_t *hand)
{
  json_t *titles = json_object();
  const char *key;
  json_t *count;

  json_object_foreach((json_t *)hand, key, count)
  {
    int card = journey_card_named(key);

    if (titles && (card < 0 || json_object_set(titles, journey_card_title(card), count) != 0)) {
      json_decref(titles);
      titles = NULL;
    }
  }
  return titles;
}

/* Names beside ids (the platform's event convention): "seat" and "to"
 * (seat numbers) and "target" (a climber) get "<key>_name" with the role as
 * the text calls it ("Tenzing", "Mt. Everest"); "card", "effect" and
 * "cause" naming an environment card get its name ("High Wind"), "item"
 * the equipment's ("Grappling Hook"); the lists "cards" and "winners" get
 * "card_names" and "winner_names", the Forecast's "hand" {card: count}
 * gets "hand_names" keyed by the cards' names. Done here, once for the events of a
 * whole move, so no event type can miss it; a name sits in the same event
 * as its id, so it is exactly as private. */
static bool name_event(json_t *ev)
{
  static const char seat_keys[][5] = {"seat", "to"};
  static const char card_keys[][7] = {"card", "effect", "cause"};
  const json_t *v;
  const char *text;
  size_t k;
  bool ok = true;

  for (k = 0; ok && k < sizeof(seat_keys) / sizeof(seat_keys[0]); k++) {
    v = json_object_get(ev, seat_keys[k]);
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < JOURNEY_SEATS)
      ok = set_name(ev, seat_keys[k], "_name", journey_role_title((int)json_integer_value(v)));
  }
  text = json_string_value(json_object_get(ev, "target"));
  if (ok && text && journey_climber_named(text) >= 0)
    ok = set_name(ev, "target", "_name", journey_role_title(journey_climber_named(text)));
  for (k = 0; ok && k < sizeof(card_keys) / sizeof(card_keys[0]); k++) {
    text = json_string_value(json_object_get(ev, card_keys[k]));
    if (text && journey_card_named(text) >= 0)
      ok = set_name(ev, card_keys[k], "_name", journey_card_title(journey_card_named(text)));
    else if (text && strcmp(card_keys[k], "cause") == 0 && strcmp(text, "altitude") == 0)
      ok = set_name(ev, "cause", "_name", "O\u2082 zone");
  }
  text = json_string_value(json_object_get(ev, "item"));
  if (ok && text && journey_item_named(text) >= 0)
    ok = set_name(ev, "item", "_name", journey_item_title(journey_item_named(text)));
  if (ok && json_is_array(json_object_get(ev, "cards")))
    ok = json_object_set_new(ev, "card_names", titles_of(json_object_get(ev, "cards"), false)) == 0;
  if (ok && json_is_object(json_object_get(ev, "hand")))
    ok = json_object_set_new(ev, "hand_names", hand_titles(json_object_get(ev, "hand"))) == 0;
  if (ok && json_is_array(json_object_get(ev, "winners")))
    ok = json_object_set_new(ev, "winner_names", titles_of(json_object_get(ev, "winners"), true)) ==
         0;
  return ok;
}

static enum cairn_status name_events(json_t *events, size_t first, struct cairn_error *err)
{
  size_t i;

  for (i = first; i < json_array_size(events); i++)
    if (!name_event(json_array_get(events, i)))
      return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                        "out of memory while naming an event's ids");
  return CAIRN_OK;
}

static enum cairn_status dispatch_move(struct engine_game *game, int seat, const json_t *move,
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

static enum cairn_status apply_move(struct engine_game *game, int seat, const json_t *move,
                                    json_t *events, bool *pending, struct cairn_error *err)
{
  size_t first = json_array_size(events);
  enum cairn_status s = dispatch_move(game, seat, move, events, pending, err);

  if (s != CAIRN_OK || !events)
    return s;
  return name_events(events, first, err);
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
    .rules_version = "journey-2",
    .options_json = "{\"turn_limit\": {\"type\": \"integer\", \"default\": 0, \"minimum\": 0, "
                    "\"maximum\": 5000, \"description\": \"Not in the rules, opt-in: winter "
                    "comes and the Mountain wins when this many climbers' turns have passed "
                    "without the climbers' win; 0 (the default) is no limit\"}}",
    .state_size = sizeof(struct journey_state),
    .new_game = journey_new_game,
    .apply_move = apply_move,
    .to_act = to_act,
    .result = journey_result,
    .serialize = journey_serialize,
    .sample_move = journey_sample_move,
    .event_reveals = event_reveals,
    .write_legal = journey_write_legal,
    .write_view = journey_write_view,
    .determinize = journey_determinize,
    .bot_evaluate = journey_bot_evaluate,
};
