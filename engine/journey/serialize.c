/*
 * serialize.c - the canonical serialisation: every field of struct
 * journey_state, secrets included (deck order, hand, Forecast snapshots,
 * Avalanche answers), as plain numbers; the common head (seq, generator) is
 * added by engine_serialize_text. Never sent to a client.
 */
#include "engine/journey/state.h"

static json_t *ints(const int *items, int n)
{
  json_t *list = json_array();
  int i;

  for (i = 0; list && i < n; i++)
    if (json_array_append_new(list, json_integer(items[i])) != 0) {
      json_decref(list);
      list = NULL;
    }
  return list;
}

static json_t *climber(const struct journey_climber *p)
{
  return json_pack(
      "{s:i, s:i, s:i, s:o, s:i, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:i, s:b, s:b, "
      "s:i, s:o, s:b, s:b, s:i}",
      "space", p->space, "health", p->health, "money", p->money, "items",
      ints(p->items, JOURNEY_ITEMS), "actions", p->actions, "done", p->done, "cannot_move",
      p->cannot_move, "no_equipment", p->no_equipment, "next_cannot_move", p->next_cannot_move,
      "next_no_equipment", p->next_no_equipment, "in_crevice", p->in_crevice, "summited",
      p->summited, "tent", p->tent, "choosing", p->choosing, "forecast_seen", p->forecast_seen,
      "forecast_turn", p->forecast_turn, "forecast_hand", ints(p->forecast_hand, JOURNEY_CARDS),
      "must_react", p->must_react, "reacted", p->reacted, "protect", p->protect);
}

json_t *journey_serialize(const struct engine_game *game)
{
  const struct journey_state *st = (const struct journey_state *)game;

  return json_pack("{s:i, s:i, s:i, s:i, s:i, s:[oo], s:o, s:o, s:o, s:o, s:i, s:o, s:i, s:i, "
                   "s:b, s:i, s:i}",
                   "phase", st->phase, "end", st->end, "dead", st->dead, "turn", st->turn,
                   "turn_limit", st->turn_limit, "climbers", climber(&st->climber[0]),
                   climber(&st->climber[1]), "deck", ints(st->deck, st->deck_len), "hand",
                   ints(st->hand, JOURNEY_CARDS), "discard", ints(st->discard, JOURNEY_CARDS),
                   "removed", ints(st->removed, JOURNEY_CARDS), "credit", st->credit, "played",
                   ints(st->played, st->played_len), "yeti_level", st->yeti_level, "yeti_health",
                   st->yeti_health, "yeti_acted", st->yeti_acted, "react_card", st->react_card,
                   "react_quadrant", st->react_quadrant);
}
