/*
 * setup.c - Preparations: the start position of a new game (pieces, supply
 * cards, the Yeti and its deck, the first throw of the dice). Options are
 * validated here; Himalaya has none.
 */
#include "engine/himalaya/state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The supply-card table of the rules text is lost (it was an image); this
 * is the reconstruction of shared/research/game-data.md section 4: fewer
 * and weaker cards the more people play. Row = seats, bit k = card kind k
 * ("1/2" = 0, "3/4" = 1, "5/6" = 2). */
static const unsigned supply_by_seats[HIMALAYA_MAX_SEATS + 1] = {
    [2] = 0x7, /* 1/2, 3/4, 5/6 */
    [3] = 0x6, /* 3/4, 5/6 */
    [4] = 0x6, /* 3/4, 5/6 */
    [5] = 0x2, /* 3/4 */
};

/* "Shuffle the remaining nine cards": Up 1..5 and Down 1..4, a slight
 * upward drift that follows the climbers (game-data.md section 4). */
static const int yeti_cards[HIMALAYA_YETI_CARDS - 1] = {1, 2, 3, 4, 5, -1, -2, -3, -4};

enum cairn_status himalaya_new_game(const struct engine_setup *setup,
                                    const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                    struct cairn_error *err)
{
  struct himalaya_state *st = (struct himalaya_state *)game;
  int rolled[HIMALAYA_MAX_DICE];
  int seat, s, k;

  (void)err; /* Himalaya takes no options (options_json is {}), so set-up cannot fail */
  assert(setup && seed && game);
  assert(setup->seats >= HIMALAYA_MIN_SEATS && setup->seats <= HIMALAYA_MAX_SEATS);
  engine_rng_seed(&st->head.rng, seed);

  /* "The mountain climber starts at the base camp. One of the four Sherpas
   * start on each of the four first fields of the climbing route." */
  for (seat = 0; seat < setup->seats; seat++) {
    struct himalaya_seat *p = &st->seat[seat];

    p->climber = HIMALAYA_BASE_CAMP;
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      p->sherpa[s] = himalaya_sherpa_start(s);
    for (k = 0; k < HIMALAYA_CARD_KINDS; k++)
      p->has_card[k] = (supply_by_seats[setup->seats] >> k) & 1u;
  }

  /* "The Yeti is put on the field with the Yeti cave." */
  st->yeti = HIMALAYA_YETI_CAVE;

  /* "Shuffle the remaining nine cards ... Place the bad weather face up
   * under this stack." The shuffle draws from the generator before the
   * dice, an order fixed here for replay. */
  memcpy(st->deck, yeti_cards, sizeof(yeti_cards));
  st->deck_len = HIMALAYA_YETI_CARDS - 1;
  engine_rng_shuffle(&st->head.rng, st->deck, st->deck_len);
  st->bad_weather_in_deck = false;

  /* "The start-player throws all dice": the youngest player is seat 0.
   * No Yeti card yet: the Yeti moves when the dice are thrown "again". */
  st->dice = setup->seats + HIMALAYA_EXTRA_DICE;
  st->current = 0;
  himalaya_throw_dice(st, rolled);
  st->end = HIMALAYA_RUNNING;
  return CAIRN_OK;
}
