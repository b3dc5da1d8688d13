/*
 * determinize.c - a running game rebuilt from what one seat sees (the
 * determinize slot), for bots that must not peek. Himalaya hides only the
 * order of the undrawn Yeti cards and the generator (the dice to come):
 * everything else is read back from the view, the undrawn cards are the
 * ten minus those face up (and minus Bad Weather while it lies face up
 * under the first stack), shuffled by the caller's generator.
 */
#include "engine/himalaya/state.h"

#include <stdio.h>
#include <string.h>

/* The Yeti card named `name` ("up 3", "down 2", "bad weather"), or
 * HIMALAYA_YETI_CARDS when it is none. */
static int yeti_card_named(const char *name)
{
  char buf[HIMALAYA_YETI_NAME_SIZE];
  int card;

  for (card = -4; card <= 5; card++)
    if (strcmp(name, himalaya_yeti_card_name(card, buf)) == 0)
      return card;
  return HIMALAYA_YETI_CARDS;
}

/* Borrowed: the string `v`, or "" (which names nothing) when it is none. */
static const char *text_of(const json_t *v)
{
  return json_is_string(v) ? json_string_value(v) : "";
}

static void read_supply(struct engine_view_reader *r, const json_t *supply, struct himalaya_seat *p)
{
  const json_t *cards = engine_vr_array(r, supply, "cards", HIMALAYA_CARD_KINDS);
  const json_t *spent = engine_vr_array(r, supply, "spent", HIMALAYA_CARD_KINDS);
  const json_t *camps = engine_vr_array(r, supply, "camps_used", HIMALAYA_HIGH_CAMPS);
  size_t i;
  int kind, c;

  for (i = 0; i < json_array_size(cards); i++) {
    kind = himalaya_card_kind(engine_vr_string(r, json_array_get(cards, i), "card"));
    if (kind < 0)
      r->bad = true;
    else
      p->has_card[kind] = true;
  }
  for (i = 0; i < json_array_size(spent); i++) {
    kind = himalaya_card_kind(text_of(json_array_get(spent, i)));
    if (kind < 0)
      r->bad = true;
    else
      p->spent[p->spent_count++] = kind;
  }
  for (i = 0; i < json_array_size(camps); i++) {
    int field = engine_vr_int(r, json_array_get(camps, i), NULL, 0, HIMALAYA_SUMMIT);

    for (c = 0; c < HIMALAYA_HIGH_CAMPS; c++)
      if (himalaya_high_camp(c) == field)
        p->camp_used[c] = true;
  }
}

static void read_pieces(struct engine_view_reader *r, const json_t *view, struct himalaya_state *st)
{
  const json_t *climbers = engine_vr_array(r, view, "climbers", HIMALAYA_MAX_SEATS);
  const json_t *sherpas = engine_vr_array(r, view, "sherpas", HIMALAYA_MAX_SEATS);
  const json_t *supply = engine_vr_array(r, view, "supply", HIMALAYA_MAX_SEATS);
  int seat, s;

  if (json_array_size(climbers) != (size_t)st->head.seats ||
      json_array_size(sherpas) != (size_t)st->head.seats ||
      json_array_size(supply) != (size_t)st->head.seats)
    r->bad = true;
  for (seat = 0; seat < st->head.seats && !r->bad; seat++) {
    const json_t *own = json_array_get(sherpas, (size_t)seat);

    st->seat[seat].climber =
        engine_vr_int(r, json_array_get(climbers, (size_t)seat), NULL, 0, HIMALAYA_SUMMIT);
    if (json_array_size(own) != HIMALAYA_SHERPAS)
      r->bad = true;
    for (s = 0; s < HIMALAYA_SHERPAS && !r->bad; s++)
      st->seat[seat].sherpa[s] =
          engine_vr_int(r, json_array_get(own, (size_t)s), NULL, 0, HIMALAYA_SUMMIT);
    read_supply(r, json_array_get(supply, (size_t)seat), &st->seat[seat]);
  }
}

static void read_dice(struct engine_view_reader *r, const json_t *view, struct himalaya_state *st)
{
  const json_t *dice = json_object_get(view, "dice");
  const json_t *pool;
  size_t i;

  st->dice = engine_vr_int(r, dice, "count", 1, HIMALAYA_MAX_DICE);
  pool = engine_vr_array(r, dice, "pool", HIMALAYA_MAX_DICE);
  for (i = 0; i < json_array_size(pool); i++)
    st->pool[engine_vr_int(r, json_array_get(pool, i), NULL, 1, HIMALAYA_DIE_SIDES)]++;
}

/* The face-up cards as the view lists them, and the undrawn ones in an
 * order drawn from `rng`: the one thing the view hides. */
static void sample_deck(struct engine_view_reader *r, const json_t *view, struct engine_rng *rng,
                        struct himalaya_state *st)
{
  const json_t *deck = json_object_get(view, "yeti_deck");
  const json_t *discards = engine_vr_array(r, deck, "discards", HIMALAYA_YETI_CARDS);
  bool seen[HIMALAYA_YETI_CARDS] = {false}; /* indexed by card + 4 */
  int remaining = engine_vr_int(r, deck, "remaining", 0, HIMALAYA_YETI_CARDS);
  int card;
  size_t i;

  st->bad_weather_in_deck = engine_vr_bool(r, deck, "bad_weather_in_deck");
  for (i = 0; i < json_array_size(discards) && !r->bad; i++) {
    card = yeti_card_named(text_of(json_array_get(discards, i)));
    if (card == HIMALAYA_YETI_CARDS || seen[card + 4])
      r->bad = true;
    else {
      seen[card + 4] = true;
      st->discard[st->discard_len++] = card;
    }
  }
  seen[HIMALAYA_BAD_WEATHER + 4] |= !st->bad_weather_in_deck; /* face up under the stack */
  for (card = -4; card <= 5 && !r->bad; card++)
    if (!seen[card + 4])
      st->deck[st->deck_len++] = card;
  if (st->deck_len != remaining)
    r->bad = true;
  engine_rng_shuffle(rng, st->deck, st->deck_len);
}

enum cairn_status himalaya_determinize(const char *text, size_t len, const json_t *options,
                                       int seat, struct engine_rng *rng, struct engine_game *game,
                                       struct cairn_error *err)
{
  struct himalaya_state *st = (struct himalaya_state *)game;
  struct engine_view_reader r = {0};
  json_t *view = json_loadb(text, len, 0, NULL);
  enum cairn_status status;

  (void)options; /* Himalaya has none */
  (void)seat;    /* every seat sees the same */
  if (!json_is_object(view) || !json_is_null(json_object_get(view, "result"))) {
    r.bad = true; /* bots decide only in running games */
    snprintf(r.what, sizeof(r.what), "result");
  }
  st->current = engine_vr_int(&r, view, "seat_to_act", 0, game->seats - 1);
  st->yeti = engine_vr_int(&r, view, "yeti", HIMALAYA_YETI_LOW, HIMALAYA_YETI_HIGH);
  read_pieces(&r, view, st);
  read_dice(&r, view, st);
  sample_deck(&r, view, rng, st);
  st->end = HIMALAYA_RUNNING;
  engine_rng_fork(rng, &st->head.rng);
  json_decref(view);
  status = engine_vr_status(&r, "himalaya", err);
  return status;
}
