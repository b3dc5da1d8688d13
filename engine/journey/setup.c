/*
 * setup.c - Setup: options, the start position (tokens in base camp, health,
 * money, the shuffled environment deck and the Mountain's opening hand), and
 * step 6, buying equipment before the first turn. The turn flow that follows
 * is climbers.c's.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Prices (game-data.md section 2; only Bow & Arrow's $150 is printed in the
 * rules text). Indexed by enum journey_item. */
static const int prices[JOURNEY_ITEMS] = {50, 75, 100, 125, 150, 150, 250};

/* "Tenzing begins with $400 and Hillary begins with $600." */
static const int starting_money[JOURNEY_CLIMBERS] = {400, 600};

int journey_price(int item)
{
  return prices[item];
}

enum cairn_status journey_new_game(const struct engine_setup *setup,
                                   const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                   struct cairn_error *err)
{
  struct journey_state *st = (struct journey_state *)game;
  int c, card, i, n = 0;

  (void)err;
  assert(setup && seed && game && setup->seats == JOURNEY_SEATS);
  engine_rng_seed(&st->head.rng, seed);
  st->turn_limit = (int)engine_option_int(&journey_module, setup->options, "turn_limit");
  st->dead = -1;
  st->phase = JOURNEY_PHASE_BUY;

  /* "Place the climbing players' tokens in base camp"; "Tenzing ... and
   * Hillary ... begin with ten health." */
  for (c = 0; c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];

    p->space = JOURNEY_BASE_CAMP;
    p->health = JOURNEY_HEALTH;
    p->money = starting_money[c];
    p->tent = -1;
  }

  /* "Shuffle the environment cards and place face down"; then "The
   * environment player begins by drawing 3 cards" (RULES.md: at setup). */
  for (card = 0; card < JOURNEY_CARDS; card++)
    for (i = 0; i < journey_card_count(card); i++)
      st->deck[n++] = card;
  assert(n == JOURNEY_DECK_SIZE);
  st->deck_len = n;
  engine_rng_shuffle(&st->head.rng, st->deck, st->deck_len);
  for (i = 0; i < JOURNEY_OPENING_HAND; i++)
    st->hand[st->deck[i]]++;
  memmove(st->deck, st->deck + JOURNEY_OPENING_HAND,
          sizeof(int) * (size_t)(st->deck_len - JOURNEY_OPENING_HAND));
  st->deck_len -= JOURNEY_OPENING_HAND;
  return CAIRN_OK;
}

enum cairn_status journey_check_buy(const struct journey_state *st, int seat,
                                    const struct journey_move *m, struct cairn_error *err)
{
  const struct journey_climber *p;

  if (seat == JOURNEY_MOUNTAIN)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_SETUP,
                      "only the climbing players buy equipment");
  p = &st->climber[seat];
  if (m->type == JOURNEY_MOVE_DONE)
    return CAIRN_OK;
  /* "If players buy all the cards of a certain type in the deck, you may
   * make additional cards of that type": the stock is unlimited (RULES.md). */
  if (journey_price(m->item) > p->money)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_SETUP,
                      "%s costs $%d and %s has $%d left", journey_item_name(m->item),
                      journey_price(m->item), journey_role_name(seat), p->money);
  return CAIRN_OK;
}

enum cairn_status journey_buy(struct journey_state *st, int seat, const struct journey_move *m,
                              json_t *events, bool *pending, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  enum cairn_status s;

  if (m->type == JOURNEY_MOVE_BUY) {
    p->money -= journey_price(m->item);
    p->items[m->item]++;
    *pending = true;
    return ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:i, s:i}", "type", "bought", "seat", seat,
                       "item", journey_item_name(m->item), "price", journey_price(m->item),
                       "money_left", p->money);
  }
  p->done = true;
  s = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "done_buying", "seat", seat);
  if (s != CAIRN_OK)
    return s;
  /* "Before the first turn, climbing players buy equipment": the step
   * resolves when both have finished, and turn 1 begins. */
  *pending = !(st->climber[0].done && st->climber[1].done);
  if (*pending)
    return CAIRN_OK;
  return journey_begin_climb(st, events, err);
}
