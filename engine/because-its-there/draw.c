/*
 * draw.c - VIII. Discard/Draw Phase and every other movement of cards
 * between piles: the Event deck draw (X.C.1, with Specials going to the
 * drawer's hand), and sending a card to a discard pile or the dead pile.
 */
#include "engine/because-its-there/state.h"

/* A card leaving the mountain: a Sherpas' load is left Cached where it
 * stands and a carried Climber walks on in the team; an emptied team slot
 * is freed. */
static void detach(struct bit_state *st, int card)
{
  struct bit_loc *l = &st->loc[card];
  int seat = l->seat, team = l->team, c;

  if (l->zone != BIT_Z_MOUNTAIN)
    return;
  l->zone = BIT_Z_BOX;
  if (team < 0)
    return;
  if (bit_is(card, BIT_SHERPA))
    for (c = 0; c < BIT_CARDS; c++) {
      struct bit_loc *m = &st->loc[c];
      if (m->zone != BIT_Z_MOUNTAIN || m->seat != seat || m->team != team)
        continue;
      if (m->role == BIT_R_LOADED) {
        m->role = BIT_R_CACHED;
        m->team = -1;
      } else if (m->role == BIT_R_CARRIED) {
        m->role = BIT_R_MEMBER;
      }
    }
  bit_drop_team_if_empty(st, seat, team);
}

/* The owner of a card in a hand, on the mountain or in a pile. */
static int owner(const struct bit_state *st, int card)
{
  return st->loc[card].seat;
}

enum cairn_status bit_to_discard(struct bit_state *st, int card, json_t *events, const char *why,
                                 struct cairn_error *err)
{
  int seat = owner(st, card);

  detach(st, card);
  /* X.B.2: a Climber returns "at full Strength" when next drawn. */
  st->strength[card] = bit_cards[card].strength;
  bit_put(st, card, BIT_Z_DISCARD, seat);
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:s, s:s}", "type", "discarded", "seat",
                     seat, "card", card, "card_name", bit_cards[card].name, "name",
                     bit_cards[card].name, "why", why);
}

enum cairn_status bit_to_dead(struct bit_state *st, int card, json_t *events, const char *why,
                              struct cairn_error *err)
{
  int seat = owner(st, card);

  detach(st, card);
  bit_put(st, card, BIT_Z_DEAD, seat);
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:s, s:s}", "type", "dead-pile", "seat",
                     seat, "card", card, "card_name", bit_cards[card].name, "name",
                     bit_cards[card].name, "why", why);
}

/* VIII.A: discard from hand, at most three a turn. */
enum cairn_status bit_discard(struct bit_state *st, int seat, int card, json_t *events,
                              struct cairn_error *err)
{
  if (st->discarded[seat] >= 3)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_DRAW,
                      "VIII.A \"Each player may discard up to three cards\": you have already "
                      "discarded three this turn");
  if (card < 0 || card >= BIT_CARDS || st->loc[card].zone != BIT_Z_HAND ||
      st->loc[card].seat != seat)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_DRAW,
                      "VIII.A discards come from the hand: %s (card %d) is not in your hand",
                      card >= 0 && card < BIT_CARDS ? bit_cards[card].name : "?", card);
  st->discarded[seat]++;
  return bit_to_discard(st, card, events, "discard", err);
}

/* VIII.B-C: the cards `seat` may still draw: up to five in hand, and no
 * more than its active and discard piles hold together. */
int bit_draw_max(const struct bit_state *st, int seat)
{
  int room = BIT_HAND - bit_pile_count(st, BIT_Z_HAND, seat);
  int left = bit_pile_count(st, BIT_Z_DECK, seat) + bit_pile_count(st, BIT_Z_DISCARD, seat);

  if (room < 0)
    room = 0;
  return room < left ? room : left;
}

/* New reference: the names of the cards in `ids` (a JSON array of ids). */
static json_t *card_names(const json_t *ids)
{
  json_t *names = json_array(), *id;
  size_t i;

  json_array_foreach(ids, i, id)
  {
    json_array_append_new(names, json_string(bit_cards[json_integer_value(id)].name));
  }
  return names;
}

/* VIII.B "Each player may draw cards from that player's active pile to a
 * maximum of five in hand": `count` cards (the player's choice, 0 allowed),
 * -1 for as many as reach five. VIII.C: an empty active pile takes the
 * shuffled discard pile; with both empty nothing more can be drawn. */
enum cairn_status bit_draw(struct bit_state *st, int seat, int count, json_t *events,
                           struct cairn_error *err)
{
  json_t *drawn;
  int n = 0, reshuffled = 0, most = bit_draw_max(st, seat);
  int in_hand = bit_pile_count(st, BIT_Z_HAND, seat);
  int room = in_hand < BIT_HAND ? BIT_HAND - in_hand : 0;
  enum cairn_status s;

  if (count > room)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_DRAW,
                      "VIII.B draws only to a maximum of five in hand: you hold %d, so you may "
                      "draw at most %d, not %d",
                      in_hand, room, count);
  if (count > most)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_DRAW,
                      "VIII.C: your active and discard piles hold only %d cards, so you may not "
                      "draw %d",
                      most, count);
  if (count < 0)
    count = most;
  drawn = events ? json_array() : NULL; /* the event's list, built only for one */
  if (events && !drawn)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  while (n < count) {
    int card = bit_top(st, BIT_Z_DECK, seat);

    if (card < 0) {
      int pile[BIT_CARDS], k, i;
      k = bit_pile(st, BIT_Z_DISCARD, seat, pile);
      for (i = 0; i < k; i++)
        bit_put(st, pile[i], BIT_Z_DECK, seat);
      bit_shuffle(st, BIT_Z_DECK, seat);
      reshuffled++;
      continue; /* bit_draw_max counted the discard pile: k > 0 here */
    }
    bit_put(st, card, BIT_Z_HAND, seat);
    if (drawn)
      json_array_append_new(drawn, json_integer(card));
    n++;
  }
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:O, s:o, s:[i]}", "type", "drew", "seat", seat, "cards",
                  drawn, "card_names", card_names(drawn), "private_to", seat);
  json_decref(drawn);
  if (s != CAIRN_OK)
    return s;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i}", "type", "drew-count", "seat", seat,
                     "count", n, "reshuffled", reshuffled);
}

/* X.C.1: draw an Event, reshuffling the used pile when the deck is empty.
 * A Special drawn goes to the drawer's hand and the draw is repeated
 * (RULES.md "Specials"). *out = the Event, now in the used pile. */
enum cairn_status bit_event_draw(struct bit_state *st, int drawer, int *out, json_t *events,
                                 struct cairn_error *err)
{
  enum cairn_status s;

  for (;;) {
    int card = bit_top(st, BIT_Z_EVENTS, -1);

    if (card < 0) {
      int pile[BIT_CARDS], k, i;
      k = bit_pile(st, BIT_Z_USED, -1, pile);
      for (i = 0; i < k; i++)
        bit_put(st, pile[i], BIT_Z_EVENTS, -1);
      bit_shuffle(st, BIT_Z_EVENTS, -1);
      s = ENGINE_EMIT(events, err, "{s:s}", "type", "event-deck-reshuffled");
      if (s != CAIRN_OK)
        return s;
      if (k == 0)
        return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "no Event cards");
      continue;
    }
    if (bit_is(card, BIT_SPECIAL)) {
      bit_put(st, card, BIT_Z_HAND, drawer);
      /* The hand is secret, so only the drawer learns which Special. */
      s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:s, s:[i]}", "type", "special-drawn",
                      "seat", drawer, "card", card, "card_name", bit_cards[card].name, "name",
                      bit_cards[card].name, "private_to", drawer);
      if (s == CAIRN_OK)
        s = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "special-to-hand", "seat", drawer);
      if (s != CAIRN_OK)
        return s;
      continue;
    }
    bit_put(st, card, BIT_Z_USED, -1);
    *out = card;
    return CAIRN_OK;
  }
}
