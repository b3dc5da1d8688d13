/*
 * legal.c - the list of legal moves: every well-formed move the current
 * step could take is put to the same check apply_move uses
 * (journey_check_move), so the list and the rules cannot drift apart. The
 * lists are short (at most about eighty candidates), so no compact form is
 * needed.
 *
 * One walk serves both uses: write_legal writes each legal move as JSON text
 * as it is found (no tree per request), and sample_move counts the moves,
 * then walks again to the chosen one, the move the written list holds at
 * that place.
 */
#include "engine/journey/state.h"

#include <string.h>

/* One walk over the legal moves, in list order (engine_list: written, or
 * counted and picked). */
struct lister {
  struct engine_list list; /* first: the walk is handed the list */
  const struct journey_state *st;
  int seat;
};

static void offer(struct lister *l, const struct journey_move *m)
{
  if (!l->list.found && journey_check_move(l->st, l->seat, m, NULL) == CAIRN_OK)
    engine_list_take(&l->list, m);
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

static void offer_all(struct lister *l)
{
  switch (l->st->phase) {
  case JOURNEY_PHASE_BUY:
    offer_buy(l);
    break;
  case JOURNEY_PHASE_CLIMB:
    offer_climb(l);
    break;
  case JOURNEY_PHASE_MOUNTAIN:
    offer_mountain(l);
    break;
  case JOURNEY_PHASE_REACT:
    offer_react(l);
    break;
  case JOURNEY_PHASE_OVER:
    break;
  }
}

static void write_move(const void *m, struct json_writer *out)
{
  journey_move_write(m, out);
}

/* Set up a walk for `seat`; whether the seat owes a decision (else there
 * is nothing to walk). */
static bool lister_init(struct lister *l, const struct engine_game *game, int seat)
{
  memset(l, 0, sizeof(*l));
  l->list.write = write_move;
  l->list.move_size = sizeof(struct journey_move);
  l->st = (const struct journey_state *)game;
  l->seat = seat;
  return seat >= 0 && seat < JOURNEY_SEATS && engine_may_act(game, seat);
}

static void walk(struct engine_list *list)
{
  offer_all((struct lister *)list);
}

void journey_write_legal(const struct engine_game *game, int seat, struct json_writer *out)
{
  struct lister l;

  engine_list_write(&l.list, lister_init(&l, game, seat) ? walk : NULL, out);
}

json_t *journey_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  struct lister l;
  struct journey_move picked;

  if (!lister_init(&l, game, seat) || !engine_list_pick(&l.list, walk, choice, &picked))
    return NULL;
  return journey_move_json(&picked);
}
