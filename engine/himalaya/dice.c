/*
 * dice.c - The Game: the dice pool, supply cards and the turn flow (choose a
 * die or play a card, pass the turn, throw all dice again when the pool is
 * empty or on the last-die exception). Where a pawn may go is left to
 * sherpas.c and climbers.c, what the Yeti does to yeti.c.
 */
#include "engine/himalaya/state.h"
#include "engine/himalaya/rules.h"

#include <stdio.h>
#include <string.h>

/* Supply card kind k shows the numbers 2k+1 and 2k+2. */
static const char card_names[HIMALAYA_CARD_KINDS][4] = {"1/2", "3/4", "5/6"};

const char *himalaya_card_name(int kind)
{
  return card_names[kind];
}

int himalaya_card_low(int kind)
{
  return 2 * kind + 1;
}

int himalaya_card_kind(const char *name)
{
  int k;

  for (k = 0; k < HIMALAYA_CARD_KINDS; k++)
    if (strcmp(name, card_names[k]) == 0)
      return k;
  return -1;
}

static int pool_total(const struct himalaya_state *st)
{
  int v, n = 0;

  for (v = 1; v <= HIMALAYA_DIE_SIDES; v++)
    n += st->pool[v];
  return n;
}

bool himalaya_card_spent(const struct himalaya_seat *p, int kind)
{
  int i;

  for (i = 0; i < p->spent_count; i++)
    if (p->spent[i] == kind)
      return true;
  return false;
}

int himalaya_pool_values(const struct himalaya_state *st, int values[HIMALAYA_MAX_DICE])
{
  int v, i, n = 0;

  for (v = 1; v <= HIMALAYA_DIE_SIDES; v++)
    for (i = 0; i < st->pool[v]; i++)
      values[n++] = v;
  return n;
}

void himalaya_throw_dice(struct himalaya_state *st, int rolled[HIMALAYA_MAX_DICE])
{
  int i;

  memset(st->pool, 0, sizeof(st->pool));
  for (i = 0; i < st->dice; i++) {
    rolled[i] = engine_rng_die(&st->head.rng, HIMALAYA_DIE_SIDES);
    st->pool[rolled[i]]++;
  }
}

/* "The next player then throws all the dice again and can select the first
 * one. Before he/she selects a die a Yeti card must always be pulled." The
 * dice come first, then the card ("After rolling, but still before the
 * player chooses a die", Moving the Yeti). */
static enum cairn_status throw_again(struct himalaya_state *st, json_t *events,
                                     struct cairn_error *err)
{
  int rolled[HIMALAYA_MAX_DICE];
  enum cairn_status status;

  himalaya_throw_dice(st, rolled);
  /* The dice in the order thrown. */
  status = ENGINE_EMIT(events, err, "{s:s, s:o}", "type", "dice_rolled", "dice",
                       engine_int_list(rolled, st->dice));
  if (status != CAIRN_OK)
    return status;
  return himalaya_yeti_turn(st, events, err);
}

/* A die move `seat` could make with value `v`, for "none" checks and their
 * messages. Supply restrictions do not apply: the question is whether the
 * die itself moves anything. Take-along never matters, since declining it
 * is always allowed where taking it is. */
static bool value_moves(const struct himalaya_state *st, int seat, int v,
                        struct himalaya_move *example, struct himalaya_plan *plan)
{
  struct himalaya_move m;
  int s, dir;

  memset(&m, 0, sizeof(m));
  m.type = HIMALAYA_MOVE_DIE;
  m.value = v;
  m.pawn = HIMALAYA_PAWN_CLIMBER;
  if (himalaya_climber_plan(st, seat, &m, plan, NULL) == CAIRN_OK)
    goto found;
  m.pawn = HIMALAYA_PAWN_SHERPA;
  for (s = 0; s < HIMALAYA_SHERPAS; s++)
    for (dir = 0; dir < 2; dir++) {
      m.sherpa = s;
      m.down = dir == 1;
      if (himalaya_sherpa_plan(st, seat, &m, plan, NULL) == CAIRN_OK)
        goto found;
    }
  return false;
found:
  *example = m;
  return true;
}

static void pool_text(const struct himalaya_state *st, char *buf, size_t size)
{
  size_t used = 0;
  int v, i;

  buf[0] = '\0';
  for (v = 1; v <= HIMALAYA_DIE_SIDES; v++)
    for (i = 0; i < st->pool[v] && used + 3 < size; i++)
      used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? " " : "", v);
}

/* The die or card the move is powered by: "selects one of them", "play one
 * of his/her supply cards ... one of the figures stated on the card". */
static enum cairn_status check_source(const struct himalaya_state *st, int seat,
                                      const struct himalaya_move *m, struct cairn_error *err)
{
  const struct himalaya_seat *p = &st->seat[seat];
  const char *name;
  char pool[32];
  int low;

  if (m->type == HIMALAYA_MOVE_DIE) {
    if (st->pool[m->value] > 0)
      return CAIRN_OK;
    pool_text(st, pool, sizeof(pool));
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                      "die %d: no die in the pool shows %d (the pool holds %s)", m->value, m->value,
                      pool);
  }
  name = himalaya_card_name(m->card);
  if (!p->has_card[m->card])
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                      "card %s: seat %d was not dealt this supply card", name, seat);
  if (himalaya_card_spent(p, m->card))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                      "card %s: seat %d has already spent this supply card", name, seat);
  low = himalaya_card_low(m->card);
  if (m->value != low && m->value != low + 1)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                      "value %d: card %s moves %d or %d spaces", m->value, name, low, low + 1);
  return CAIRN_OK;
}

/* Where `seat`'s Sherpas stand once the checked move `m` has moved its
 * pawn: the travellers on the plan's end, or, after a climber leaves the
 * Yeti's field, the Sherpas it left behind in the last camp (yeti.c). */
static void sherpas_after(const struct himalaya_state *st, int seat, const struct himalaya_move *m,
                          const struct himalaya_plan *plan, int fields[HIMALAYA_SHERPAS])
{
  unsigned travellers = 0;
  int s;

  /* A "none" move has no plan at all: only read it for pawns that moved. */
  if (m->pawn == HIMALAYA_PAWN_SHERPA)
    travellers = plan->companions | (1u << m->sherpa);
  memcpy(fields, st->seat[seat].sherpa, sizeof(int) * HIMALAYA_SHERPAS);
  for (s = 0; s < HIMALAYA_SHERPAS; s++) {
    if (travellers & (1u << s))
      fields[s] = plan->to;
    else if (m->pawn == HIMALAYA_PAWN_CLIMBER && !plan->summit && plan->from == st->yeti &&
             !himalaya_is_camp(plan->from) && fields[s] == plan->from)
      fields[s] = himalaya_last_camp(plan->from);
  }
}

/* The move's "restore" member: picking up a used card at a high camp. */
static enum cairn_status check_restore(const struct himalaya_state *st, int seat,
                                       const struct himalaya_move *m,
                                       const struct himalaya_plan *plan, struct cairn_error *err)
{
  int fields[HIMALAYA_SHERPAS];

  /* "As soon as a mountain climber reaches the summit space (goal), the
   * game ends": nothing is picked up any more. */
  if (m->pawn == HIMALAYA_PAWN_CLIMBER && plan->summit)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_END,
                      "restore %s: the climber reaches the summit and the game ends at once",
                      himalaya_card_name(m->restore_card));
  sherpas_after(st, seat, m, plan, fields);
  return himalaya_check_restore(st, seat, m, fields, err);
}

static enum cairn_status check_unused_die(const struct himalaya_state *st, int seat,
                                          const struct himalaya_move *m, struct cairn_error *err);

enum cairn_status himalaya_check_move(const struct himalaya_state *st, int seat,
                                      const struct himalaya_move *m, struct himalaya_plan *plan,
                                      struct cairn_error *err)
{
  enum cairn_status status = CAIRN_OK;
  int left;

  if (m->type == HIMALAYA_MOVE_REROLL) {
    /* Exception 1: "If a player only has one die to chose from, he/she can
     * take this die or can immediately throw all the dice". */
    left = pool_total(st);
    if (left == 1)
      return CAIRN_OK;
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                      "reroll: the dice may be thrown again only when one die is left, not %d",
                      left);
  }
  status = check_source(st, seat, m, err);
  if (status != CAIRN_OK)
    return status;
  switch (m->pawn) {
  case HIMALAYA_PAWN_CLIMBER:
    status = himalaya_climber_plan(st, seat, m, plan, err);
    break;
  case HIMALAYA_PAWN_SHERPA:
    status = himalaya_sherpa_plan(st, seat, m, plan, err);
    break;
  case HIMALAYA_PAWN_NONE:
    status = check_unused_die(st, seat, m, err);
    break;
  }
  if (status != CAIRN_OK || !m->restore)
    return status;
  return check_restore(st, seat, m, plan, err);
}

/* Our addition (RULES.md "A die that moves nothing"): a die may be taken
 * without moving only when no pawn can move by it, so play never stalls. */
static enum cairn_status check_unused_die(const struct himalaya_state *st, int seat,
                                          const struct himalaya_move *m, struct cairn_error *err)
{
  struct himalaya_move example;
  struct himalaya_plan where;

  if (!value_moves(st, seat, m->value, &example, &where))
    return CAIRN_OK;
  if (example.pawn == HIMALAYA_PAWN_CLIMBER)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                      "die %d: it can move a pawn (the climber of seat %d to field %d), so it "
                      "cannot be taken without moving",
                      m->value, seat, where.to);
  return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_GAME,
                    "die %d: it can move a pawn (Sherpa %d of seat %d %s to field %d), so it "
                    "cannot be taken without moving",
                    m->value, example.sherpa, seat, example.down ? "down" : "up", where.to);
}

/* "The supplies are spent and are set beside the board", in the order
 * spent (the view lists them so). */
static enum cairn_status spend_card(struct himalaya_state *st, int seat, int kind, json_t *events,
                                    struct cairn_error *err)
{
  struct himalaya_seat *p = &st->seat[seat];

  p->spent[p->spent_count++] = kind;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:s}", "type", "supply_spent", "seat", seat, "card",
                     himalaya_card_name(kind));
}

enum cairn_status himalaya_play(struct himalaya_state *st, int seat, const struct himalaya_move *m,
                                json_t *events, struct cairn_error *err)
{
  struct himalaya_plan plan;
  enum cairn_status status;

  memset(&plan, 0, sizeof(plan));
  status = himalaya_check_move(st, seat, m, &plan, err);
  if (status != CAIRN_OK)
    return status;

  if (m->type == HIMALAYA_MOVE_REROLL) {
    /* "... and then pick one with which to move": the same seat chooses. */
    status = ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "rerolled", "seat", seat);
    if (status != CAIRN_OK)
      return status;
    return throw_again(st, events, err);
  }

  /* A supply card is played "instead of selecting a die": the pool stays. */
  if (m->type == HIMALAYA_MOVE_SUPPLY)
    status = spend_card(st, seat, m->card, events, err);
  else
    st->pool[m->value]--;
  if (status != CAIRN_OK)
    return status;

  switch (m->pawn) {
  case HIMALAYA_PAWN_CLIMBER:
    status = himalaya_climber_move(st, seat, m, &plan, events, err);
    break;
  case HIMALAYA_PAWN_SHERPA:
    status = himalaya_sherpa_move(st, seat, m, &plan, events, err);
    break;
  case HIMALAYA_PAWN_NONE:
    status = ENGINE_EMIT(events, err, "{s:s, s:i, s:i}", "type", "die_unused", "seat", seat,
                         "value", m->value);
    break;
  }
  if (status != CAIRN_OK || st->end != HIMALAYA_RUNNING)
    return status;
  if (m->restore) {
    status = himalaya_restore(st, seat, m->restore_card, events, err);
    if (status != CAIRN_OK)
      return status;
  }

  /* "The next player chooses another die, etc. until all dice are taken.
   * The next player then throws all the dice again": done now, on the
   * next seat's behalf, so a running game always has dice in the pool. */
  st->current = (seat + 1) % st->head.seats;
  if (m->type == HIMALAYA_MOVE_DIE && pool_total(st) == 0)
    return throw_again(st, events, err);
  return CAIRN_OK;
}
