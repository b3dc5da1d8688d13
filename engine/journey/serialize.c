/*
 * serialize.c - the canonical serialisation: every field of struct
 * journey_state, secrets included (deck order, hand, Forecast snapshots,
 * Avalanche answers), as plain numbers; the common head (seq, generator) is
 * added by engine_serialize_text. Never sent to a client.
 */
#include "engine/journey/state.h"

static json_t *climber(const struct journey_climber *p)
{
  return json_pack("{s:i, s:i, s:i, s:o, s:i, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:i, s:b, s:b, "
                   "s:i, s:o, s:b, s:b, s:i}",
                   "space", p->space, "health", p->health, "money", p->money, "items",
                   engine_int_list(p->items, JOURNEY_ITEMS), "actions", p->actions, "done", p->done,
                   "cannot_move", p->cannot_move, "no_equipment", p->no_equipment,
                   "next_cannot_move", p->next_cannot_move, "next_no_equipment",
                   p->next_no_equipment, "in_crevice", p->in_crevice, "summited", p->summited,
                   "tent", p->tent, "choosing", p->choosing, "forecast_seen", p->forecast_seen,
                   "forecast_turn", p->forecast_turn, "forecast_hand",
                   engine_int_list(p->forecast_hand, JOURNEY_CARDS), "must_react", p->must_react,
                   "reacted", p->reacted, "protect", p->protect);
}

json_t *journey_serialize(const struct engine_game *game)
{
  const struct journey_state *st = (const struct journey_state *)game;

  return json_pack("{s:i, s:i, s:i, s:i, s:i, s:[oo], s:o, s:o, s:o, s:o, s:i, s:o, s:i, s:i, "
                   "s:b, s:i, s:i}",
                   "phase", st->phase, "end", st->end, "dead", st->dead, "turn", st->turn,
                   "turn_limit", st->turn_limit, "climbers", climber(&st->climber[0]),
                   climber(&st->climber[1]), "deck", engine_int_list(st->deck, st->deck_len),
                   "hand", engine_int_list(st->hand, JOURNEY_CARDS), "discard",
                   engine_int_list(st->discard, JOURNEY_CARDS), "removed",
                   engine_int_list(st->removed, JOURNEY_CARDS), "credit", st->credit, "played",
                   engine_int_list(st->played, st->played_len), "yeti_level", st->yeti_level,
                   "yeti_health", st->yeti_health, "yeti_acted", st->yeti_acted, "react_card",
                   st->react_card, "react_quadrant", st->react_quadrant);
}
