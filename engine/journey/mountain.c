/*
 * mountain.c - the Mountain's turn (rules "Mt. Everest"): the environment
 * deck, the hand (secret), drawing and reshuffling, paying a card's cost
 * with other cards' value, playing cards and ending the turn. What each
 * played card does is environment.c's.
 *
 * Paying (RULES.md "Paying for cards"): a "discard" move puts one card of
 * the hand on the discard pile for its value, which is credited to this
 * turn; a "play" move spends credit equal to the played card's cost. So the
 * value always comes from other cards, and "leftover value ... is lost at
 * the end of the current turn" is the credit reset at end_turn.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <string.h>

/* "Environment Card Name Cost/ Value/ # of cards in the deck". */
static const struct {
  int cost, value, count;
} cards[JOURNEY_CARDS] = {
    [JOURNEY_HIGH_WIND] = {7, 3, 6}, [JOURNEY_AVALANCHE] = {11, 3, 4},
    [JOURNEY_ROCKSLIDE] = {6, 3, 8}, [JOURNEY_YETI] = {15, 3, 1},
    [JOURNEY_CREVICE] = {4, 4, 6},   [JOURNEY_FROSTBITE] = {4, 3, 8},
    [JOURNEY_BLIZZARD] = {11, 2, 1},
};

int journey_card_cost(int card)
{
  return cards[card].cost;
}

int journey_card_value(int card)
{
  return cards[card].value;
}

int journey_card_count(int card)
{
  return cards[card].count;
}

int journey_hand_size(const struct journey_state *st)
{
  int c, n = 0;

  for (c = 0; c < JOURNEY_CARDS; c++)
    n += st->hand[c];
  return n;
}

/* "If there are not enough cards in the environment pile, shuffle the cards
 * in the discard pile and place them at the bottom of the environment
 * pile." The pile is laid out by kind before the shuffle, so the result
 * depends only on its contents and the generator. */
static enum cairn_status reshuffle(struct journey_state *st, json_t *events,
                                   struct cairn_error *err)
{
  int pile[JOURNEY_DECK_SIZE];
  int n = 0, c, i;

  for (c = 0; c < JOURNEY_CARDS; c++)
    for (i = 0; i < st->discard[c]; i++)
      pile[n++] = c;
  if (n == 0)
    return CAIRN_OK;
  memset(st->discard, 0, sizeof(st->discard));
  engine_rng_shuffle(&st->head.rng, pile, n);
  memcpy(st->deck + st->deck_len, pile, sizeof(int) * (size_t)n);
  st->deck_len += n;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i}", "type", "reshuffled", "cards", n, "deck_size",
                     st->deck_len);
}

/* New reference, NULL when out of memory: the names of the first k cards
 * of the deck. */
static json_t *deck_names(const struct journey_state *st, int k)
{
  json_t *drawn = json_array();
  int i;

  for (i = 0; drawn && i < k; i++)
    if (json_array_append_new(drawn, json_string(journey_card_name(st->deck[i]))) != 0) {
      json_decref(drawn);
      drawn = NULL;
    }
  return drawn;
}

enum cairn_status journey_draw(struct journey_state *st, int n, const char *why, json_t *events,
                               struct cairn_error *err)
{
  json_t *drawn;
  enum cairn_status s = CAIRN_OK;
  int i, k;

  if (st->deck_len < n)
    s = reshuffle(st, events, err);
  if (s != CAIRN_OK)
    return s;
  /* Cards in the hand and removed ones are out of both piles, so the deck
   * may still run short: then fewer are drawn. */
  k = n < st->deck_len ? n : st->deck_len;
  drawn = events ? deck_names(st, k) : NULL; /* the event's, built only for one */
  for (i = 0; i < k; i++)
    st->hand[st->deck[i]]++;
  memmove(st->deck, st->deck + k, sizeof(int) * (size_t)(st->deck_len - k));
  st->deck_len -= k;
  /* Everyone learns how many; only the Mountain learns which. */
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:i}", "type", "mountain_drew", "count", k, "why",
                  why, "hand_size", journey_hand_size(st));
  if (s != CAIRN_OK) {
    json_decref(drawn);
    return s;
  }
  return ENGINE_EMIT(events, err, "{s:s, s:o, s:[i]}", "type", "drew", "cards", drawn, "private_to",
                     JOURNEY_MOUNTAIN);
}

enum cairn_status journey_begin_mountain(struct journey_state *st, json_t *events,
                                         struct cairn_error *err)
{
  enum cairn_status s;

  st->phase = JOURNEY_PHASE_MOUNTAIN;
  st->credit = 0;
  st->played_len = 0;
  st->yeti_acted = false;
  s = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "mountain_turn", "turn", st->turn);
  if (s != CAIRN_OK)
    return s;
  /* "Each turn, the environment player begins by drawing 2 cards." */
  return journey_draw(st, JOURNEY_TURN_DRAW, "turn", events, err);
}

enum cairn_status journey_check_mountain(const struct journey_state *st,
                                         const struct journey_move *m, struct cairn_error *err)
{
  switch (m->type) {
  case JOURNEY_MOVE_DISCARD:
  case JOURNEY_MOVE_PLAY:
    if (st->hand[m->card] == 0)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_MOUNTAIN,
                        "the Mountain holds no %s", journey_card_name(m->card));
    /* "In order to play a card, the player must discard cards with a total
     * value equal to or greater than the cost of the card being played." */
    if (m->type == JOURNEY_MOVE_PLAY && st->credit < journey_card_cost(m->card))
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_MOUNTAIN,
                        "%s costs %d and only %d value has been paid this turn; discard other "
                        "cards for value first",
                        journey_card_name(m->card), journey_card_cost(m->card), st->credit);
    return CAIRN_OK;
  case JOURNEY_MOVE_YETI:
    if (st->yeti_level == 0)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                        "there is no Yeti on the mountain to move: the Yeti card has not summoned "
                        "it, or a Bow & Arrow drove it off");
    if (st->yeti_acted)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                        "the Yeti has already moved this turn");
    if ((m->direction == JOURNEY_UP && st->yeti_level == JOURNEY_LEVELS) ||
        (m->direction == JOURNEY_DOWN && st->yeti_level == 1) ||
        m->direction == JOURNEY_CLOCKWISE || m->direction == JOURNEY_COUNTERCLOCKWISE)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_ENVIRONMENT,
                        "the Yeti on level %d cannot go %s: it moves up or down one level, "
                        "between 1 and 7, or stays",
                        st->yeti_level, journey_direction_name(m->direction));
    return CAIRN_OK;
  default:
    return CAIRN_OK; /* end_turn */
  }
}

static enum cairn_status pay(struct journey_state *st, int card, json_t *events,
                             struct cairn_error *err)
{
  st->hand[card]--;
  st->discard[card]++;
  st->credit += journey_card_value(card);
  return ENGINE_EMIT(events, err, "{s:s, s:s, s:i, s:i}", "type", "paid", "card",
                     journey_card_name(card), "value", journey_card_value(card), "credit",
                     st->credit);
}

static enum cairn_status play(struct journey_state *st, const struct journey_move *m,
                              json_t *events, struct cairn_error *err)
{
  json_t *ev;
  enum cairn_status s;

  st->hand[m->card]--;
  st->credit -= journey_card_cost(m->card);
  /* "Cards played and cards used for value must both be discarded to the
   * discard pile, face up." */
  st->discard[m->card]++;
  st->played[st->played_len++] = m->card;
  if (events) {
    ev = journey_move_json(m);
    if (ev && json_object_set_new(ev, "type", json_string("played")) != 0) {
      json_decref(ev);
      ev = NULL;
    }
    if (ev && json_object_set_new(ev, "credit", json_integer(st->credit)) != 0) {
      json_decref(ev);
      ev = NULL;
    }
    s = engine_emit(events, ev, err);
    if (s != CAIRN_OK)
      return s;
  }
  /* Each card is resolved as it is played (RULES.md "Resolving cards"). */
  return journey_resolve(st, m, events, err);
}

static enum cairn_status end_turn(struct journey_state *st, json_t *events, struct cairn_error *err)
{
  enum cairn_status s = CAIRN_OK;

  /* The Yeti acts every turn it is on the mountain: a Mountain that did
   * not move it leaves it where it is, and it still attacks (RULES.md). */
  if (st->yeti_level > 0 && !st->yeti_acted)
    s = journey_yeti_step(st, JOURNEY_STAY, events, err);
  if (s != CAIRN_OK || st->end != JOURNEY_RUNNING)
    return s;
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i}", "type", "mountain_turn_ended", "turn", st->turn,
                  "value_lost", st->credit);
  st->credit = 0;
  if (s != CAIRN_OK)
    return s;
  /* "It is then the climbing players' turn." */
  return journey_begin_climb(st, events, err);
}

enum cairn_status journey_mountain(struct journey_state *st, const struct journey_move *m,
                                   json_t *events, struct cairn_error *err)
{
  switch (m->type) {
  case JOURNEY_MOVE_DISCARD:
    return pay(st, m->card, events, err);
  case JOURNEY_MOVE_PLAY:
    return play(st, m, events, err);
  case JOURNEY_MOVE_YETI:
    return journey_yeti_step(st, m->direction, events, err);
  default:
    return end_turn(st, events, err);
  }
}
