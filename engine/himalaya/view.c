/*
 * view.c - what each seat may see. Himalaya has no hands: every seat and
 * every spectator sees the same position. The one secret is the order of
 * the undrawn Yeti cards (and the generator, which the head keeps), shown
 * only to the omniscient audit view and to serialize.c.
 *
 * Written as JSON text straight into the server's buffer (engine/jsonw.h):
 * a view is asked for on every request, and building it as a tree cost an
 * allocation per value.
 */
#include "engine/himalaya/state.h"

#include <assert.h>

/* [card name, ...] for Yeti cards cards[0..n-1]. */
static void write_yeti_cards(const int *cards, int n, struct json_writer *w)
{
  char name[HIMALAYA_YETI_NAME_SIZE];
  int i;

  jw_array_begin(w);
  for (i = 0; i < n; i++)
    jw_string(w, himalaya_yeti_card_name(cards[i], name));
  jw_array_end(w);
}

/* {"cards": [{"card", "used"}...], "spent": [oldest..newest], "camps_used": [15, 28]} */
static void write_supply(const struct himalaya_seat *p, struct json_writer *w)
{
  int k, i;

  jw_object_begin(w);
  jw_key(w, "cards");
  jw_array_begin(w);
  for (k = 0; k < HIMALAYA_CARD_KINDS; k++) {
    if (!p->has_card[k])
      continue;
    jw_object_begin(w);
    jw_key_string(w, "card", himalaya_card_name(k));
    jw_key_bool(w, "used", himalaya_card_spent(p, k));
    jw_object_end(w);
  }
  jw_array_end(w);
  jw_key(w, "spent");
  jw_array_begin(w);
  for (i = 0; i < p->spent_count; i++)
    jw_string(w, himalaya_card_name(p->spent[i]));
  jw_array_end(w);
  jw_key(w, "camps_used");
  jw_array_begin(w);
  for (i = 0; i < HIMALAYA_HIGH_CAMPS; i++)
    if (p->camp_used[i])
      jw_int(w, himalaya_high_camp(i));
  jw_array_end(w);
  jw_object_end(w);
}

/* "climbers" and "sherpas": each seat's climber field and Sherpa fields. */
static void write_pieces(const struct himalaya_state *st, struct json_writer *w)
{
  int seat;

  jw_key(w, "climbers");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    jw_int(w, st->seat[seat].climber);
  jw_array_end(w);
  jw_key(w, "sherpas");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    jw_int_array(w, st->seat[seat].sherpa, HIMALAYA_SHERPAS);
  jw_array_end(w);
}

static void write_dice(const struct himalaya_state *st, struct json_writer *w)
{
  int pool[HIMALAYA_MAX_DICE];
  int npool = himalaya_pool_values(st, pool);

  jw_object_begin(w);
  jw_key_int(w, "count", st->dice);
  jw_key(w, "pool");
  jw_int_array(w, pool, (size_t)npool);
  jw_object_end(w);
}

/* The Yeti deck: its size and the face-up cards; the order of the undrawn
 * cards only when `secrets`. */
static void write_yeti_deck(const struct himalaya_state *st, bool secrets, struct json_writer *w)
{
  jw_object_begin(w);
  jw_key_int(w, "remaining", st->deck_len);
  jw_key(w, "discards");
  write_yeti_cards(st->discard, st->discard_len, w);
  jw_key_bool(w, "bad_weather_in_deck", st->bad_weather_in_deck);
  if (secrets) {
    jw_key(w, "order");
    write_yeti_cards(st->deck, st->deck_len, w);
  }
  jw_object_end(w);
}

void himalaya_write_position(const struct himalaya_state *st, bool secrets, struct json_writer *w)
{
  int seat;

  jw_key(w, "seat_to_act");
  if (st->end == HIMALAYA_RUNNING)
    jw_int(w, st->current);
  else
    jw_null(w);
  jw_key_int(w, "yeti", st->yeti);
  write_pieces(st, w);
  jw_key(w, "dice");
  write_dice(st, w);
  jw_key(w, "supply");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    write_supply(&st->seat[seat], w);
  jw_array_end(w);
  jw_key(w, "yeti_deck");
  write_yeti_deck(st, secrets, w);
  jw_key(w, "result");
  himalaya_write_result(st, w);
}

void himalaya_write_view(const struct engine_game *game, int viewer, struct json_writer *w)
{
  const struct himalaya_state *st = (const struct himalaya_state *)game;

  assert(viewer >= ENGINE_OMNISCIENT && viewer < game->seats);
  /* Seats and spectators are told the same: nothing in Himalaya is
   * private except the undrawn Yeti cards, which only the audit sees. */
  jw_object_begin(w);
  himalaya_write_position(st, viewer == ENGINE_OMNISCIENT, w);
  jw_key(w, "board");
  himalaya_write_board(w);
  jw_object_end(w);
}
