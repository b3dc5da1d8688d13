/*
 * yeti.c - Moving the Yeti: the Yeti deck (the first stack of nine, Bad
 * Weather under it, the reshuffle), moving the Yeti by a card, and Sherpas
 * escaping to the last camp when it catches them or when their climber
 * leaves them alone with it. Ending the game on Bad Weather is end.c's.
 */
#include "engine/himalaya/state.h"

#include <stdio.h>
#include <string.h>

const char *himalaya_yeti_card_name(int card, char buf[HIMALAYA_YETI_NAME_SIZE])
{
  if (card == HIMALAYA_BAD_WEATHER)
    snprintf(buf, HIMALAYA_YETI_NAME_SIZE, "bad weather");
  else if (card > 0)
    snprintf(buf, HIMALAYA_YETI_NAME_SIZE, "up %d", card);
  else
    snprintf(buf, HIMALAYA_YETI_NAME_SIZE, "down %d", -card);
  return buf;
}

/* A Sherpa caught by the Yeti "immediately must go back to the last camp,
 * even to the base camp". Sherpas only flee from the Yeti's own field and
 * the camp lies strictly below it, so they never land on the Yeti. */
static enum cairn_status flee(struct himalaya_state *st, int seat, int sherpa, json_t *events,
                              struct cairn_error *err)
{
  int from = st->seat[seat].sherpa[sherpa];
  int to = himalaya_last_camp(from);

  st->seat[seat].sherpa[sherpa] = to;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i, s:i}", "type", "sherpas_fled", "seat", seat,
                     "sherpa", sherpa, "from", from, "to", to);
}

/* "Always, if the Yeti lands on a space where Sherpas stand, the Sherpas
 * immediately must go back to the last camp ... If the Yeti catches Sherpas
 * in a camp, they are protected there. ... If the Yeti moves onto a space
 * with a mountain climber, all the climber's own Sherpas that stand with the
 * mountain climber on that space, are also protected. Other players' Sherpa
 * are not protected." */
static enum cairn_status catch_sherpas(struct himalaya_state *st, json_t *events,
                                       struct cairn_error *err)
{
  enum cairn_status status;
  int field = st->yeti;
  int seat, s;

  if (himalaya_is_camp(field))
    return CAIRN_OK;
  for (seat = 0; seat < st->head.seats; seat++) {
    if (st->seat[seat].climber == field)
      continue;
    for (s = 0; s < HIMALAYA_SHERPAS; s++) {
      if (st->seat[seat].sherpa[s] != field)
        continue;
      status = flee(st, seat, s, events, err);
      if (status != CAIRN_OK)
        return status;
    }
  }
  return CAIRN_OK;
}

enum cairn_status himalaya_left_behind(struct himalaya_state *st, int seat, int from,
                                       json_t *events, struct cairn_error *err)
{
  enum cairn_status status;
  int s;

  /* "Special case: If the mountain climber moves during a later turn and
   * leaves his/her own Sherpas behind, so that they now stand alone with
   * the Yeti, they immediately escape back to the last camp!" */
  if (from != st->yeti || himalaya_is_camp(from))
    return CAIRN_OK;
  for (s = 0; s < HIMALAYA_SHERPAS; s++) {
    if (st->seat[seat].sherpa[s] != from)
      continue;
    status = flee(st, seat, s, events, err);
    if (status != CAIRN_OK)
      return status;
  }
  return CAIRN_OK;
}

/* "If all Yeti cards are depleted, they are shuffled again. Now the bad
 * weather card is shuffled in with them." Done when the next card is
 * needed, so the empty stack is visible in between (RULES.md). */
static enum cairn_status reshuffle(struct himalaya_state *st, json_t *events,
                                   struct cairn_error *err)
{
  memcpy(st->deck, st->discard, sizeof(int) * (size_t)st->discard_len);
  st->deck_len = st->discard_len;
  st->discard_len = 0;
  /* Bad Weather ends the game when drawn, so the second stack is the last
   * and always still holds it; only the first pass lacks it. */
  if (!st->bad_weather_in_deck)
    st->deck[st->deck_len++] = HIMALAYA_BAD_WEATHER;
  st->bad_weather_in_deck = true;
  engine_rng_shuffle(&st->head.rng, st->deck, st->deck_len);
  return ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "deck_reshuffled", "cards", st->deck_len);
}

enum cairn_status himalaya_yeti_turn(struct himalaya_state *st, json_t *events,
                                     struct cairn_error *err)
{
  enum cairn_status status;
  char name[HIMALAYA_YETI_NAME_SIZE];
  int card, from, to;

  if (st->deck_len == 0) {
    status = reshuffle(st, events, err);
    if (status != CAIRN_OK)
      return status;
  }
  /* "... he/she uncovers the top Yeti card. ... The card is placed face up
   * under the stack afterwards." */
  card = st->deck[0];
  memmove(st->deck, st->deck + 1, sizeof(int) * (size_t)(st->deck_len - 1));
  st->deck_len--;
  st->discard[st->discard_len++] = card;
  status = ENGINE_EMIT(events, err, "{s:s, s:s}", "type", "yeti_card", "card",
                       himalaya_yeti_card_name(card, name));
  if (status != CAIRN_OK)
    return status;
  if (card == HIMALAYA_BAD_WEATHER) {
    st->bad_weather_in_deck = false;
    return himalaya_bad_weather(st, events, err);
  }

  /* "The Yeti moves the corresponding number of spaces in the direction
   * stated on the card. ... For the Yeti, special spaces have no meaning."
   * It stays on the path between field 1 and 39 (RULES.md). */
  from = st->yeti;
  to = from + card;
  if (to < HIMALAYA_YETI_LOW)
    to = HIMALAYA_YETI_LOW;
  if (to > HIMALAYA_YETI_HIGH)
    to = HIMALAYA_YETI_HIGH;
  st->yeti = to;
  status =
      ENGINE_EMIT(events, err, "{s:s, s:i, s:i}", "type", "yeti_moved", "from", from, "to", to);
  if (status != CAIRN_OK)
    return status;
  return catch_sherpas(st, events, err);
}
