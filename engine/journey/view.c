/*
 * view.c - what each seat may see. Public: the board, both climbers (space,
 * health, money, equipment, restrictions), the Yeti, the Mountain's hand
 * size, deck size, face-up discard pile, removed cards, paid value and the
 * cards played this turn. Secret: the Mountain's hand (its own seat sees
 * it), the deck order (nobody while the game runs), a Forecast's look at
 * the hand (only the climber who used it), and an Avalanche answer not yet
 * landed. The omniscient audit view of a finished game shows everything.
 *
 * Written as JSON text straight into the server's buffer (engine/jsonw.h):
 * a view is asked for on every request, and building it as a tree cost an
 * allocation per value.
 */
#include "engine/journey/state.h"

#include <assert.h>

static const char *phase_name(enum journey_phase phase)
{
  static const char names[][10] = {"buy", "climbers", "mountain", "reaction", "over"};

  return names[phase];
}

/* What holds climber `p` back, now and next turn, and what it owes. */
static void write_climber_state(const struct journey_state *st, const struct journey_climber *p,
                                struct json_writer *w)
{
  jw_key_int(w, "actions_left", st->phase == JOURNEY_PHASE_CLIMB ? p->actions : 0);
  jw_key_bool(w, "done", p->done);
  jw_key_bool(w, "cannot_move", p->cannot_move);
  jw_key_bool(w, "no_equipment", p->no_equipment);
  jw_key_bool(w, "cannot_move_next_turn", p->next_cannot_move);
  jw_key_bool(w, "no_equipment_next_turn", p->next_no_equipment);
  jw_key_bool(w, "in_crevice", p->in_crevice);
  jw_key_bool(w, "summited", p->summited);
  jw_key_string(w, "tent_pitched", p->tent >= 0 ? journey_space_name(p->tent) : NULL);
  jw_key_bool(w, "choosing_forecast", p->choosing);
  jw_key_bool(w, "must_answer", p->must_react && !p->reacted);
}

static void write_climber(const struct journey_state *st, int c, struct json_writer *w)
{
  const struct journey_climber *p = &st->climber[c];
  int q = journey_quadrant(p->space);

  jw_object_begin(w);
  jw_key_int(w, "seat", c);
  jw_key_string(w, "role", journey_role_name(c));
  jw_key_string(w, "space", journey_space_name(p->space));
  jw_key_int(w, "level", journey_level(p->space));
  jw_key_string(w, "quadrant", q < 0 ? NULL : journey_quadrant_name(q));
  jw_key_int(w, "health", p->health);
  jw_key_int(w, "money", p->money);
  jw_key(w, "equipment");
  journey_write_item_counts(p->items, w);
  write_climber_state(st, p, w);
  jw_object_end(w);
}

/* [card name, ...] for cards[0..n-1]. */
static void write_card_names(const int *cards, int n, struct json_writer *w)
{
  int i;

  jw_array_begin(w);
  for (i = 0; i < n; i++)
    jw_string(w, journey_card_name(cards[i]));
  jw_array_end(w);
}

/* The reaction in progress (null outside one): the card, the quadrant an
 * Avalanche hit, and the climbers yet to answer. */
static void write_reaction(const struct journey_state *st, struct json_writer *w)
{
  int c;

  if (st->phase != JOURNEY_PHASE_REACT) {
    jw_null(w);
    return;
  }
  jw_object_begin(w);
  if (st->react_card == JOURNEY_AVALANCHE) {
    jw_key_string(w, "card", "avalanche");
    jw_key_string(w, "quadrant", journey_quadrant_name(st->react_quadrant));
  } else {
    jw_key_string(w, "card", "rockslide");
  }
  jw_key(w, "waiting");
  jw_array_begin(w);
  for (c = 0; c < JOURNEY_CLIMBERS; c++)
    if (st->climber[c].must_react && !st->climber[c].reacted)
      jw_string(w, journey_role_name(c));
  jw_array_end(w);
  jw_object_end(w);
}

static void write_forecast(const struct journey_climber *p, struct json_writer *w)
{
  if (!p->forecast_seen) {
    jw_null(w);
    return;
  }
  jw_object_begin(w);
  jw_key_int(w, "turn", p->forecast_turn);
  jw_key(w, "hand");
  journey_write_card_counts(p->forecast_hand, w);
  jw_object_end(w);
}

static void write_yeti(const struct journey_state *st, struct json_writer *w)
{
  if (st->yeti_level <= 0) {
    jw_null(w);
    return;
  }
  jw_object_begin(w);
  jw_key_int(w, "level", st->yeti_level);
  jw_key_int(w, "health", st->yeti_health);
  jw_key_bool(w, "moved_this_turn", st->yeti_acted);
  jw_object_end(w);
}

/* What everybody sees of the Mountain: sizes and face-up cards, no hand. */
static void write_mountain(const struct journey_state *st, struct json_writer *w)
{
  jw_object_begin(w);
  jw_key_int(w, "seat", JOURNEY_MOUNTAIN);
  jw_key_string(w, "role", journey_role_name(JOURNEY_MOUNTAIN));
  jw_key_int(w, "hand_size", journey_hand_size(st));
  jw_key_int(w, "deck_size", st->deck_len);
  jw_key(w, "discard");
  journey_write_card_counts(st->discard, w);
  jw_key(w, "removed");
  journey_write_card_counts(st->removed, w);
  jw_key_int(w, "credit", st->credit);
  jw_key(w, "played");
  write_card_names(st->played, st->played_len, w);
  jw_object_end(w);
}

/* The public position's members. */
static void write_public(const struct journey_state *st, struct json_writer *w)
{
  int c;

  jw_key_string(w, "phase", phase_name(st->phase));
  jw_key_int(w, "turn", st->turn);
  jw_key(w, "turn_limit");
  if (st->turn_limit > 0)
    jw_int(w, st->turn_limit);
  else
    jw_null(w);
  jw_key(w, "roles");
  jw_array_begin(w);
  for (c = 0; c < JOURNEY_SEATS; c++)
    jw_string(w, journey_role_name(c));
  jw_array_end(w);
  jw_key(w, "climbers");
  jw_array_begin(w);
  for (c = 0; c < JOURNEY_CLIMBERS; c++)
    write_climber(st, c, w);
  jw_array_end(w);
  jw_key(w, "yeti");
  write_yeti(st, w);
  jw_key(w, "mountain");
  write_mountain(st, w);
  jw_key(w, "reaction");
  write_reaction(st, w);
  jw_key(w, "board");
  journey_write_board(w);
  jw_key(w, "result");
  journey_write_result(st, w);
}

/* The secrets only the audit sees: the deck order and both Forecasts. */
static void write_audit(const struct journey_state *st, struct json_writer *w)
{
  jw_key(w, "deck");
  write_card_names(st->deck, st->deck_len, w);
  jw_key(w, "forecasts");
  jw_array_begin(w);
  write_forecast(&st->climber[0], w);
  write_forecast(&st->climber[1], w);
  jw_array_end(w);
}

void journey_write_view(const struct engine_game *game, int viewer, struct json_writer *w)
{
  const struct journey_state *st = (const struct journey_state *)game;

  assert(viewer >= ENGINE_OMNISCIENT && viewer < JOURNEY_SEATS);
  jw_object_begin(w);
  write_public(st, w);
  jw_key_string(w, "your_role", viewer >= 0 ? journey_role_name(viewer) : NULL);
  if (viewer == JOURNEY_MOUNTAIN || viewer == ENGINE_OMNISCIENT) {
    jw_key(w, "hand");
    journey_write_card_counts(st->hand, w);
  }
  if (viewer == JOURNEY_TENZING || viewer == JOURNEY_HILLARY) {
    jw_key(w, "forecast");
    write_forecast(&st->climber[viewer], w);
  }
  if (viewer == ENGINE_OMNISCIENT)
    write_audit(st, w);
  jw_object_end(w);
}
