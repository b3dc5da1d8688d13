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

/* One walk over the legal moves, in list order. */
struct lister {
  const struct journey_state *st;
  int seat;
  /* What is done with each legal move found: written, or counted. */
  void (*take)(struct lister *l, const struct journey_move *m);
  struct json_writer *out;    /* write_legal: Borrowed, the list being written */
  uint64_t taken;             /* legal moves taken so far */
  uint64_t wanted;            /* sample_move: the index of the move to keep */
  bool found;                 /* sample_move: `picked` holds it, the walk may stop */
  struct journey_move picked; /* sample_move: move number `wanted` */
};

static void offer(struct lister *l, const struct journey_move *m)
{
  if (!l->found && journey_check_move(l->st, l->seat, m, NULL) == CAIRN_OK)
    l->take(l, m);
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

/* Set up a walk for `seat` taking each move with `take`; whether the seat
 * owes a decision (else there is nothing to walk). */
static bool lister_init(struct lister *l, const struct engine_game *game, int seat,
                        void (*take)(struct lister *l, const struct journey_move *m))
{
  memset(l, 0, sizeof(*l));
  l->st = (const struct journey_state *)game;
  l->seat = seat;
  l->take = take;
  return seat >= 0 && seat < JOURNEY_SEATS && engine_may_act(game, seat);
}

static void write_move(struct lister *l, const struct journey_move *m)
{
  journey_move_write(m, l->out);
}

void journey_write_legal(const struct engine_game *game, int seat, struct json_writer *out)
{
  struct lister l;

  jw_array_begin(out);
  if (lister_init(&l, game, seat, write_move)) {
    l.out = out;
    offer_all(&l);
  }
  jw_array_end(out);
}

static void count_move(struct lister *l, const struct journey_move *m)
{
  (void)m;
  l->taken++;
}

static void pick_move(struct lister *l, const struct journey_move *m)
{
  if (l->taken++ == l->wanted) {
    l->picked = *m;
    l->found = true;
  }
}

json_t *journey_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  struct lister l;

  if (!lister_init(&l, game, seat, count_move))
    return NULL;
  offer_all(&l);
  if (l.taken == 0)
    return NULL;
  l.wanted = choice % l.taken;
  l.taken = 0;
  l.take = pick_move;
  offer_all(&l);
  return journey_move_json(&l.picked);
}
