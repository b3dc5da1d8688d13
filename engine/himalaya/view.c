/*
 * view.c - what each seat may see. Himalaya has no hands: every seat and
 * every spectator sees the same position. The one secret is the order of
 * the undrawn Yeti cards (and the generator, which the head keeps), shown
 * only to the omniscient audit view and to serialize.c.
 */
#include "engine/himalaya/state.h"

#include <assert.h>

/* {"cards": [{"card", "used"}...], "spent": [oldest..newest], "camps_used": [15, 28]} */
static json_t *supply_json(const struct himalaya_seat *p)
{
  json_t *cards = json_array();
  json_t *spent = json_array();
  json_t *camps = json_array();
  int k, i;

  for (k = 0; cards && k < HIMALAYA_CARD_KINDS; k++) {
    bool used = false;

    if (!p->has_card[k])
      continue;
    for (i = 0; i < p->spent_count; i++)
      used = used || p->spent[i] == k;
    if (json_array_append_new(
            cards, json_pack("{s:s, s:b}", "card", himalaya_card_name(k), "used", used)) != 0)
      goto fail;
  }
  for (i = 0; spent && i < p->spent_count; i++)
    if (json_array_append_new(spent, json_string(himalaya_card_name(p->spent[i]))) != 0)
      goto fail;
  for (i = 0; camps && i < HIMALAYA_HIGH_CAMPS; i++)
    if (p->camp_used[i] && json_array_append_new(camps, json_integer(himalaya_high_camp(i))) != 0)
      goto fail;
  return json_pack("{s:o, s:o, s:o}", "cards", cards, "spent", spent, "camps_used", camps);
fail:
  json_decref(cards);
  json_decref(spent);
  json_decref(camps);
  return NULL;
}

json_t *himalaya_position_json(const struct himalaya_state *st, bool secrets)
{
  json_t *pos = NULL;
  json_t *climbers = json_array();
  json_t *sherpas = json_array();
  json_t *supply = json_array();
  json_t *deck = NULL;
  json_t *result;
  int pool[HIMALAYA_MAX_DICE];
  int npool = himalaya_pool_values(st, pool);
  int seat;

  for (seat = 0; climbers && sherpas && supply && seat < st->head.seats; seat++) {
    const struct himalaya_seat *p = &st->seat[seat];

    if (json_array_append_new(climbers, json_integer(p->climber)) != 0 ||
        json_array_append_new(sherpas, engine_int_list(p->sherpa, HIMALAYA_SHERPAS)) != 0 ||
        json_array_append_new(supply, supply_json(p)) != 0)
      goto cleanup;
  }
  deck = json_pack("{s:i, s:o, s:b}", "remaining", st->deck_len, "discards",
                   engine_mapped_list(st->discard, st->discard_len, himalaya_yeti_card_json),
                   "bad_weather_in_deck", st->bad_weather_in_deck);
  if (!deck)
    goto cleanup;
  if (secrets &&
      json_object_set_new(deck, "order",
                          engine_mapped_list(st->deck, st->deck_len, himalaya_yeti_card_json)) != 0)
    goto cleanup;
  result = himalaya_result(&st->head);
  pos = json_pack("{s:o, s:i, s:O, s:O, s:{s:i, s:o}, s:O, s:O, s:o}", "seat_to_act",
                  st->end == HIMALAYA_RUNNING ? json_integer(st->current) : json_null(), "yeti",
                  st->yeti, "climbers", climbers, "sherpas", sherpas, "dice", "count", st->dice,
                  "pool", engine_int_list(pool, npool), "supply", supply, "yeti_deck", deck,
                  "result", result ? result : json_null());
cleanup:
  json_decref(climbers);
  json_decref(sherpas);
  json_decref(supply);
  json_decref(deck);
  return pos;
}

json_t *himalaya_view(const struct engine_game *game, int viewer)
{
  const struct himalaya_state *st = (const struct himalaya_state *)game;
  json_t *view;

  assert(viewer >= ENGINE_OMNISCIENT && viewer < game->seats);
  /* Seats and spectators are told the same: nothing in Himalaya is
   * private except the undrawn Yeti cards, which only the audit sees. */
  view = himalaya_position_json(st, viewer == ENGINE_OMNISCIENT);
  if (view && json_object_set_new(view, "board", himalaya_board_json()) != 0) {
    json_decref(view);
    view = NULL;
  }
  return view;
}
