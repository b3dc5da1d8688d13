/*
 * view.c - what each seat may see. Public: the board, both climbers (space,
 * health, money, equipment, restrictions), the Yeti, the Mountain's hand
 * size, deck size, face-up discard pile, removed cards, paid value and the
 * cards played this turn. Secret: the Mountain's hand (its own seat sees
 * it), the deck order (nobody while the game runs), a Forecast's look at
 * the hand (only the climber who used it), and an Avalanche answer not yet
 * landed. The omniscient audit view of a finished game shows everything.
 */
#include "engine/journey/state.h"

#include <assert.h>

static const char *phase_name(enum journey_phase phase)
{
  static const char names[][10] = {"buy", "climbers", "mountain", "reaction", "over"};

  return names[phase];
}

static json_t *climber_json(const struct journey_state *st, int c)
{
  const struct journey_climber *p = &st->climber[c];
  int q = journey_quadrant(p->space);

  return json_pack(
      "{s:i, s:s, s:s, s:i, s:o, s:i, s:i, s:o, s:i, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:o, s:b, "
      "s:b}",
      "seat", c, "role", journey_role_name(c), "space", journey_space_name(p->space), "level",
      journey_level(p->space), "quadrant",
      q < 0 ? json_null() : json_string(journey_quadrant_name(q)), "health", p->health, "money",
      p->money, "equipment", journey_item_counts_json(p->items), "actions_left",
      st->phase == JOURNEY_PHASE_CLIMB ? p->actions : 0, "done", p->done, "cannot_move",
      p->cannot_move, "no_equipment", p->no_equipment, "cannot_move_next_turn", p->next_cannot_move,
      "no_equipment_next_turn", p->next_no_equipment, "in_crevice", p->in_crevice, "summited",
      p->summited, "tent_pitched",
      p->tent >= 0 ? json_string(journey_space_name(p->tent)) : json_null(), "choosing_forecast",
      p->choosing, "must_answer", p->must_react && !p->reacted);
}

/* A card's name as JSON, for engine_mapped_list. */
static json_t *card_name_json(int card)
{
  return json_string(journey_card_name(card));
}

static json_t *reaction_json(const struct journey_state *st)
{
  json_t *waiting = json_array();
  int c;

  if (st->phase != JOURNEY_PHASE_REACT)
    return (json_decref(waiting), json_null());
  for (c = 0; waiting && c < JOURNEY_CLIMBERS; c++)
    if (st->climber[c].must_react && !st->climber[c].reacted &&
        json_array_append_new(waiting, json_string(journey_role_name(c))) != 0) {
      json_decref(waiting);
      waiting = NULL;
    }
  if (st->react_card == JOURNEY_AVALANCHE)
    return json_pack("{s:s, s:s, s:o}", "card", "avalanche", "quadrant",
                     journey_quadrant_name(st->react_quadrant), "waiting", waiting);
  return json_pack("{s:s, s:o}", "card", "rockslide", "waiting", waiting);
}

static json_t *forecast_json(const struct journey_climber *p)
{
  if (!p->forecast_seen)
    return json_null();
  return json_pack("{s:i, s:o}", "turn", p->forecast_turn, "hand",
                   journey_card_counts_json(p->forecast_hand));
}

/* New reference: the public position. */
static json_t *public_json(const struct journey_state *st)
{
  json_t *result = journey_result(&st->head);

  return json_pack(
      "{s:s, s:i, s:o, s:[sss], s:[oo], s:o, s:{s:i, s:s, s:i, s:i, s:o, s:o, s:i, s:o}, s:o, "
      "s:o, s:o}",
      "phase", phase_name(st->phase), "turn", st->turn, "turn_limit",
      st->turn_limit > 0 ? json_integer(st->turn_limit) : json_null(), "roles",
      journey_role_name(0), journey_role_name(1), journey_role_name(2), "climbers",
      climber_json(st, 0), climber_json(st, 1), "yeti",
      st->yeti_level > 0 ? json_pack("{s:i, s:i, s:b}", "level", st->yeti_level, "health",
                                     st->yeti_health, "moved_this_turn", st->yeti_acted)
                         : json_null(),
      "mountain", "seat", JOURNEY_MOUNTAIN, "role", journey_role_name(JOURNEY_MOUNTAIN),
      "hand_size", journey_hand_size(st), "deck_size", st->deck_len, "discard",
      journey_card_counts_json(st->discard), "removed", journey_card_counts_json(st->removed),
      "credit", st->credit, "played",
      engine_mapped_list(st->played, st->played_len, card_name_json), "reaction", reaction_json(st),
      "board", journey_board_json(), "result", result ? result : json_null());
}

static bool add(json_t *view, const char *key, json_t *value)
{
  return json_object_set_new(view, key, value) == 0;
}

json_t *journey_view(const struct engine_game *game, int viewer)
{
  const struct journey_state *st = (const struct journey_state *)game;
  json_t *view;
  bool ok = true;

  assert(viewer >= ENGINE_OMNISCIENT && viewer < JOURNEY_SEATS);
  view = public_json(st);
  if (!view)
    return NULL;
  ok = add(view, "your_role", viewer >= 0 ? json_string(journey_role_name(viewer)) : json_null());
  if (viewer == JOURNEY_MOUNTAIN || viewer == ENGINE_OMNISCIENT)
    ok = ok && add(view, "hand", journey_card_counts_json(st->hand));
  if (viewer == JOURNEY_TENZING || viewer == JOURNEY_HILLARY)
    ok = ok && add(view, "forecast", forecast_json(&st->climber[viewer]));
  if (viewer == ENGINE_OMNISCIENT)
    ok = ok && add(view, "deck", engine_mapped_list(st->deck, st->deck_len, card_name_json)) &&
         add(view, "forecasts",
             json_pack("[oo]", forecast_json(&st->climber[0]), forecast_json(&st->climber[1])));
  if (ok)
    return view;
  json_decref(view);
  return NULL;
}
