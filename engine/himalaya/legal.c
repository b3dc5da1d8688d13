/*
 * legal.c - the list of legal moves. Each candidate is put to the same check
 * apply_move uses (himalaya_check_move), so the list and the rules cannot
 * drift apart; only companion sets that cannot pass are skipped unchecked.
 * Candidates are distinct: one per die value, not per die.
 *
 * One walk serves both uses: write_legal writes each legal move as JSON text
 * as it is found (a list is some hundred moves; as a tree it cost about a
 * thousand allocations per request), and sample_move counts the moves, then
 * walks again to the chosen one.
 */
#include "engine/himalaya/state.h"

#include <string.h>

/* One walk over the legal moves, in list order. */
struct lister {
  const struct himalaya_state *st;
  int seat;
  /* What is done with each legal move found: written, or counted. */
  void (*take)(struct lister *l, const struct himalaya_move *m);
  struct json_writer *out;     /* write_legal: Borrowed, the list being written */
  uint64_t taken;              /* legal moves taken so far */
  uint64_t wanted;             /* sample_move: the index of the move to keep */
  bool found;                  /* sample_move: `picked` holds it, the walk may stop */
  struct himalaya_move picked; /* sample_move: move number `wanted` */
};

/* After a legal die or card move `m`: the same move picking up each used
 * card at a high camp, where its Sherpas then qualify. Skipped at once when
 * nothing could be picked up, which is nearly always. */
static void offer_restores(struct lister *l, const struct himalaya_move *m)
{
  const struct himalaya_seat *p = &l->st->seat[l->seat];
  struct himalaya_plan plan;
  struct himalaya_move with = *m;
  int k;

  if (m->type == HIMALAYA_MOVE_REROLL || p->spent_count == 0 ||
      (p->camp_used[0] && p->camp_used[1]))
    return;
  with.restore = true;
  for (k = 0; k < HIMALAYA_CARD_KINDS && !l->found; k++) {
    with.restore_card = k;
    if (himalaya_check_move(l->st, l->seat, &with, &plan, NULL) == CAIRN_OK)
      l->take(l, &with);
  }
}

/* Take `m` when it is legal, then its variants picking up a card; whether
 * it was legal (and *plan says where it ends). Once the sampled move is
 * found nothing more is looked at. */
static bool offer(struct lister *l, const struct himalaya_move *m, struct himalaya_plan *plan)
{
  if (l->found || himalaya_check_move(l->st, l->seat, m, plan, NULL) != CAIRN_OK)
    return false;
  l->take(l, m);
  offer_restores(l, m);
  return true;
}

/* The moves of Sherpa `m.sherpa` in a fixed order: up, up with take-along
 * alone and then with each set of companions, down. Companions can only be
 * own Sherpas on the landing field, and a take-along that fails alone fails
 * in any company, so only those sets are tried. */
static void offer_sherpa(struct lister *l, struct himalaya_move m)
{
  struct himalaya_plan plan;
  unsigned company = 0, mask;
  int s;

  m.down = false;
  m.take_along = false;
  m.companions = 0;
  offer(l, &m, &plan);
  m.take_along = true;
  if (offer(l, &m, &plan)) {
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      if (s != m.sherpa && l->st->seat[l->seat].sherpa[s] == plan.landing)
        company |= 1u << s;
    for (mask = 1; mask < (1u << HIMALAYA_SHERPAS); mask++) {
      if ((mask & company) != mask)
        continue;
      m.companions = mask;
      offer(l, &m, &plan);
    }
  }
  m.take_along = false;
  m.companions = 0;
  m.down = true;
  offer(l, &m, &plan);
}

/* Every pawn the die or card of `m` could move: none (dice only), the
 * climber, then each Sherpa. */
static void offer_pawns(struct lister *l, struct himalaya_move m)
{
  struct himalaya_plan plan;
  int s;

  if (m.type == HIMALAYA_MOVE_DIE) {
    m.pawn = HIMALAYA_PAWN_NONE;
    offer(l, &m, &plan);
  }
  m.pawn = HIMALAYA_PAWN_CLIMBER;
  offer(l, &m, &plan);
  m.pawn = HIMALAYA_PAWN_SHERPA;
  for (s = 0; s < HIMALAYA_SHERPAS; s++) {
    m.sherpa = s;
    offer_sherpa(l, m);
  }
}

/* Every legal move of the seat to act, in list order: the re-throw, each
 * die value, each supply card's two numbers. */
static void offer_all(struct lister *l)
{
  const struct himalaya_seat *p = &l->st->seat[l->seat];
  struct himalaya_plan plan;
  struct himalaya_move m;
  int v, k;

  memset(&m, 0, sizeof(m));
  m.type = HIMALAYA_MOVE_REROLL;
  offer(l, &m, &plan);
  m.type = HIMALAYA_MOVE_DIE;
  for (v = 1; v <= HIMALAYA_DIE_SIDES; v++) {
    if (l->st->pool[v] == 0)
      continue;
    m.value = v;
    offer_pawns(l, m);
  }
  m.type = HIMALAYA_MOVE_SUPPLY;
  for (k = 0; k < HIMALAYA_CARD_KINDS; k++) {
    if (!p->has_card[k])
      continue;
    m.card = k;
    for (v = himalaya_card_low(k); v <= himalaya_card_low(k) + 1; v++) {
      m.value = v;
      offer_pawns(l, m);
    }
  }
}

/* Set up a walk for `seat` taking each move with `take`; whether the seat
 * owes a decision (else there is nothing to walk). */
static bool lister_init(struct lister *l, const struct engine_game *game, int seat,
                        void (*take)(struct lister *l, const struct himalaya_move *m))
{
  memset(l, 0, sizeof(*l));
  l->st = (const struct himalaya_state *)game;
  l->seat = seat;
  l->take = take;
  return l->st->end == HIMALAYA_RUNNING && seat == l->st->current;
}

static void write_move(struct lister *l, const struct himalaya_move *m)
{
  himalaya_move_write(m, l->out);
}

void himalaya_write_legal(const struct engine_game *game, int seat, struct json_writer *out)
{
  struct lister l;

  jw_array_begin(out);
  if (lister_init(&l, game, seat, write_move)) {
    l.out = out;
    offer_all(&l);
  }
  jw_array_end(out);
}

static void count_move(struct lister *l, const struct himalaya_move *m)
{
  (void)m;
  l->taken++;
}

static void pick_move(struct lister *l, const struct himalaya_move *m)
{
  if (l->taken++ == l->wanted) {
    l->picked = *m;
    l->found = true;
  }
}

/* Move number choice % n of the n that write_legal lists, as
 * engine_sample_move would pick it from the list, found without writing
 * the list: bots and random playouts ask for one move, not a thousand. */
json_t *himalaya_sample_move(const struct engine_game *game, int seat, uint64_t choice)
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
  return himalaya_move_json(&l.picked);
}
