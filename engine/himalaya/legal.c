/*
 * legal.c - the list of legal moves. Each candidate is put to the same check
 * apply_move uses (himalaya_check_move), so the list and the rules cannot
 * drift apart; only companion sets that cannot pass are skipped unchecked.
 * Candidates are distinct: one per die value, not per die.
 */
#include "engine/himalaya/state.h"

#include <string.h>

/* One list being built. */
struct lister {
  const struct himalaya_state *st;
  int seat;
  json_t *list;                /* Borrowed: the array being filled */
  struct himalaya_atoms atoms; /* values shared by the listed moves */
};

/* After a legal die or card move `m`: the same move picking up each used
 * card at a high camp, where its Sherpas then qualify. Skipped at once when
 * nothing could be picked up, which is nearly always. */
static enum cairn_status offer_restores(struct lister *l, const struct himalaya_move *m)
{
  const struct himalaya_seat *p = &l->st->seat[l->seat];
  struct himalaya_plan plan;
  struct himalaya_move with = *m;
  int k;

  if (m->type == HIMALAYA_MOVE_REROLL || p->spent_count == 0 ||
      (p->camp_used[0] && p->camp_used[1]))
    return CAIRN_OK;
  with.restore = true;
  for (k = 0; k < HIMALAYA_CARD_KINDS; k++) {
    with.restore_card = k;
    if (himalaya_check_move(l->st, l->seat, &with, &plan, NULL) != CAIRN_OK)
      continue;
    if (json_array_append_new(l->list, himalaya_move_json(&with, &l->atoms)) != 0)
      return CAIRN_ENOMEM;
  }
  return CAIRN_OK;
}

/* Append `m` when it is legal: CAIRN_OK when listed (and *plan says where it
 * ends), CAIRN_EILLEGAL when not legal, CAIRN_ENOMEM when out of memory. */
static enum cairn_status offer(struct lister *l, const struct himalaya_move *m,
                               struct himalaya_plan *plan)
{
  if (himalaya_check_move(l->st, l->seat, m, plan, NULL) != CAIRN_OK)
    return CAIRN_EILLEGAL;
  if (json_array_append_new(l->list, himalaya_move_json(m, &l->atoms)) != 0)
    return CAIRN_ENOMEM;
  return offer_restores(l, m);
}

/* The moves of Sherpa `m.sherpa` in a fixed order: up, up with take-along
 * alone and then with each set of companions, down. Companions can only be
 * own Sherpas on the landing field, and a take-along that fails alone fails
 * in any company, so only those sets are tried. */
static enum cairn_status offer_sherpa(struct lister *l, struct himalaya_move m)
{
  struct himalaya_plan plan;
  enum cairn_status status;
  unsigned company = 0, mask;
  int s;

  m.down = false;
  m.take_along = false;
  m.companions = 0;
  if (offer(l, &m, &plan) == CAIRN_ENOMEM)
    return CAIRN_ENOMEM;
  m.take_along = true;
  status = offer(l, &m, &plan);
  if (status == CAIRN_ENOMEM)
    return status;
  if (status == CAIRN_OK) {
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      if (s != m.sherpa && l->st->seat[l->seat].sherpa[s] == plan.landing)
        company |= 1u << s;
    for (mask = 1; mask < (1u << HIMALAYA_SHERPAS); mask++) {
      if ((mask & company) != mask)
        continue;
      m.companions = mask;
      if (offer(l, &m, &plan) == CAIRN_ENOMEM)
        return CAIRN_ENOMEM;
    }
  }
  m.take_along = false;
  m.companions = 0;
  m.down = true;
  return offer(l, &m, &plan) == CAIRN_ENOMEM ? CAIRN_ENOMEM : CAIRN_OK;
}

/* Every pawn the die or card of `m` could move: none (dice only), the
 * climber, then each Sherpa. */
static enum cairn_status offer_pawns(struct lister *l, struct himalaya_move m)
{
  struct himalaya_plan plan;
  int s;

  if (m.type == HIMALAYA_MOVE_DIE) {
    m.pawn = HIMALAYA_PAWN_NONE;
    if (offer(l, &m, &plan) == CAIRN_ENOMEM)
      return CAIRN_ENOMEM;
  }
  m.pawn = HIMALAYA_PAWN_CLIMBER;
  if (offer(l, &m, &plan) == CAIRN_ENOMEM)
    return CAIRN_ENOMEM;
  m.pawn = HIMALAYA_PAWN_SHERPA;
  for (s = 0; s < HIMALAYA_SHERPAS; s++) {
    m.sherpa = s;
    if (offer_sherpa(l, m) != CAIRN_OK)
      return CAIRN_ENOMEM;
  }
  return CAIRN_OK;
}

static enum cairn_status offer_all(struct lister *l)
{
  const struct himalaya_seat *p = &l->st->seat[l->seat];
  struct himalaya_plan plan;
  struct himalaya_move m;
  int v, k;

  memset(&m, 0, sizeof(m));
  m.type = HIMALAYA_MOVE_REROLL;
  if (offer(l, &m, &plan) == CAIRN_ENOMEM)
    return CAIRN_ENOMEM;
  m.type = HIMALAYA_MOVE_DIE;
  for (v = 1; v <= HIMALAYA_DIE_SIDES; v++) {
    if (l->st->pool[v] == 0)
      continue;
    m.value = v;
    if (offer_pawns(l, m) != CAIRN_OK)
      return CAIRN_ENOMEM;
  }
  m.type = HIMALAYA_MOVE_SUPPLY;
  for (k = 0; k < HIMALAYA_CARD_KINDS; k++) {
    if (!p->has_card[k])
      continue;
    m.card = k;
    for (v = himalaya_card_low(k); v <= himalaya_card_low(k) + 1; v++) {
      m.value = v;
      if (offer_pawns(l, m) != CAIRN_OK)
        return CAIRN_ENOMEM;
    }
  }
  return CAIRN_OK;
}

json_t *himalaya_legal_moves(const struct engine_game *game, int seat)
{
  struct lister l;
  enum cairn_status status;

  l.st = (const struct himalaya_state *)game;
  l.seat = seat;
  l.list = json_array();
  if (!l.list || l.st->end != HIMALAYA_RUNNING || seat != l.st->current)
    return l.list;
  memset(&l.atoms, 0, sizeof(l.atoms));
  status = offer_all(&l);
  himalaya_atoms_release(&l.atoms);
  if (status != CAIRN_OK) {
    json_decref(l.list);
    return NULL;
  }
  return l.list;
}
