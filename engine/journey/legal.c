/*
 * legal.c - the list of legal moves: every well-formed move the current
 * step could take is put to the same check apply_move uses
 * (journey_check_move), so the list and the rules cannot drift apart. The
 * lists are short (at most about eighty candidates), so no compact form is
 * needed and engine_sample_move picks from this list.
 */
#include "engine/journey/state.h"

#include <string.h>

struct lister {
  const struct journey_state *st;
  int seat;
  json_t *list; /* Borrowed: the array being filled */
  bool nomem;
};

static void offer(struct lister *l, const struct journey_move *m)
{
  if (l->nomem || journey_check_move(l->st, l->seat, m, NULL) != CAIRN_OK)
    return;
  if (json_array_append_new(l->list, journey_move_json(m)) != 0)
    l->nomem = true;
}

static struct journey_move blank(enum journey_move_type type)
{
  struct journey_move m;

  memset(&m, 0, sizeof(m));
  m.type = type;
  m.item = JOURNEY_NO_ITEM;
  return m;
}

static void offer_buy(struct lister *l)
{
  struct journey_move m = blank(JOURNEY_MOVE_BUY);

  for (m.item = 0; m.item < JOURNEY_ITEMS; m.item++)
    offer(l, &m);
  m = blank(JOURNEY_MOVE_DONE);
  offer(l, &m);
}

static void offer_climb(struct lister *l)
{
  struct journey_move m = blank(JOURNEY_MOVE_REMOVE);

  for (m.card = 0; m.card < JOURNEY_CARDS; m.card++)
    offer(l, &m);
  m = blank(JOURNEY_MOVE_STEP);
  for (m.to = 0; m.to < JOURNEY_SPACES; m.to++)
    offer(l, &m);
  m = blank(JOURNEY_MOVE_USE);
  for (m.item = 0; m.item < JOURNEY_ITEMS; m.item++) {
    if (m.item == JOURNEY_HOOK)
      for (m.to = 0; m.to < JOURNEY_SPACES; m.to++)
        offer(l, &m);
    else if (m.item == JOURNEY_BOW)
      for (m.target = JOURNEY_BOW_FOOD; m.target <= JOURNEY_BOW_YETI; m.target++)
        offer(l, &m);
    else
      offer(l, &m);
    m.to = 0;
    m.target = 0;
  }
  m = blank(JOURNEY_MOVE_GIVE);
  for (m.item = 0; m.item < JOURNEY_ITEMS; m.item++)
    offer(l, &m);
  m = blank(JOURNEY_MOVE_END_TURN);
  offer(l, &m);
}

static void offer_mountain(struct lister *l)
{
  struct journey_move m = blank(JOURNEY_MOVE_DISCARD);

  for (m.card = 0; m.card < JOURNEY_CARDS; m.card++)
    offer(l, &m);
  m = blank(JOURNEY_MOVE_PLAY);
  for (m.card = 0; m.card < JOURNEY_CARDS; m.card++) {
    m.quadrant = 0;
    m.target = 0;
    m.direction = 0;
    if (m.card == JOURNEY_AVALANCHE)
      for (m.quadrant = 0; m.quadrant < JOURNEY_QUADRANTS; m.quadrant++)
        offer(l, &m);
    else if (m.card == JOURNEY_BLIZZARD)
      for (m.direction = JOURNEY_UP; m.direction <= JOURNEY_COUNTERCLOCKWISE; m.direction++)
        offer(l, &m);
    else if (m.card == JOURNEY_ROCKSLIDE || m.card == JOURNEY_CREVICE ||
             m.card == JOURNEY_FROSTBITE)
      for (m.target = 0; m.target < JOURNEY_CLIMBERS; m.target++)
        offer(l, &m);
    else
      offer(l, &m);
  }
  m = blank(JOURNEY_MOVE_YETI);
  for (m.direction = JOURNEY_UP; m.direction <= JOURNEY_STAY; m.direction++)
    if (m.direction == JOURNEY_UP || m.direction == JOURNEY_DOWN || m.direction == JOURNEY_STAY)
      offer(l, &m);
  m = blank(JOURNEY_MOVE_END_TURN);
  offer(l, &m);
}

static void offer_react(struct lister *l)
{
  struct journey_move m = blank(JOURNEY_MOVE_ROCKSLIDE);

  offer(l, &m);
  m.discard = true;
  for (m.item = 0; m.item < JOURNEY_ITEMS; m.item++)
    offer(l, &m);
  m = blank(JOURNEY_MOVE_AVALANCHE);
  for (m.protect = JOURNEY_PROTECT_NONE; m.protect <= JOURNEY_PROTECT_HOOK_ROPE; m.protect++)
    offer(l, &m);
}

json_t *journey_legal_moves(const struct engine_game *game, int seat)
{
  struct lister l = {.st = (const struct journey_state *)game, .seat = seat, .list = json_array()};

  if (!l.list || seat < 0 || seat >= JOURNEY_SEATS || !engine_may_act(game, seat))
    return l.list;
  switch (l.st->phase) {
  case JOURNEY_PHASE_BUY:
    offer_buy(&l);
    break;
  case JOURNEY_PHASE_CLIMB:
    offer_climb(&l);
    break;
  case JOURNEY_PHASE_MOUNTAIN:
    offer_mountain(&l);
    break;
  case JOURNEY_PHASE_REACT:
    offer_react(&l);
    break;
  case JOURNEY_PHASE_OVER:
    break;
  }
  if (l.nomem) {
    json_decref(l.list);
    return NULL;
  }
  return l.list;
}
