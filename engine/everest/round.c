/*
 * round.c - the round machine: executing the revealed plans coin by coin
 * (roars and run-aways first, then moves and snowballs, each a turn that
 * conflict.c may stop for an order), then "Damage" (setting coins aside or
 * healing) and "Winning the Game", then the next round's planning.
 * everest_advance() runs until a seat owes a decision or the game ends.
 */
#include "engine/everest/state.h"

#include <stdlib.h>
#include <string.h>

#include "engine/everest/rules.h"

void everest_start_round(struct everest_state *st)
{
  int seat, holder = -1, on_peak = 0;

  st->round++;
  for (seat = 0; seat < st->head.seats; seat++) {
    struct everest_seat *p = &st->seat[seat];
    struct everest_yeti *y = &st->yeti[seat];

    p->planned = false;
    p->plan_len = 0;
    memset(p->plan, 0, sizeof(p->plan));
    p->heal_owed = p->heal_decided = p->heal = false;
    p->set_aside = 0;
    p->running = p->roared_back = false;
    p->run_dir = p->run_mp = 0;
    y->damage = 0;
    y->cancelled = false;
    y->left_board = false;
    if (everest_on_peak(y->cell))
      holder = seat, on_peak++;
  }
  /* "A yeti wins the game if it starts a round as the sole occupant of the
   * peak tile" */
  st->peak_holder = on_peak == 1 ? holder : -1;
  st->step = 0;
  st->stage = EVEREST_STAGE_ROARS;
  st->phase = EVEREST_PHASE_PLAN;
}

static int run_items(const struct everest_state *st, struct everest_item *items)
{
  int seat, n = 0;

  for (seat = 0; seat < st->head.seats; seat++)
    if (st->seat[seat].running && st->yeti[seat].cell != EVEREST_OFF) {
      items[n].kind = EVEREST_ITEM_RUN;
      items[n].seat = seat;
      items[n].dir = st->seat[seat].run_dir;
      items[n].mp = st->seat[seat].run_mp;
      n++;
    }
  return n;
}

static int action_items(const struct everest_state *st, struct everest_item *items)
{
  int seat, n = 0;
  bool snowballs = false;

  for (seat = 0; seat < st->head.seats; seat++) {
    const struct everest_coin *c = everest_step_coin(st, st->yeti, seat, st->step);

    if (!c)
      continue;
    if (everest_action_of(c) == EVEREST_SNOWBALL)
      snowballs = true;
    if (everest_action_of(c) != EVEREST_MOVE)
      continue;
    items[n].kind = EVEREST_ITEM_MOVE;
    items[n].seat = seat;
    items[n].dir = c->dir;
    items[n].mp = c->coin; /* "ace meaning 1" */
    n++;
  }
  if (snowballs) {
    items[n].kind = EVEREST_ITEM_SNOWBALLS;
    items[n].seat = -1;
    items[n].dir = items[n].mp = 0;
    n++;
  }
  return n;
}

/* Who owes an end-of-round choice. "If damage causes a yeti to lose its
 * last coin, then it must be returned to its starting square to heal": no
 * choice. A yeti that left the board this round "can not heal": it only
 * chooses which coins to set aside, when that is a choice. */
static bool owes_heal_choice(const struct everest_state *st, int seat)
{
  int damage = st->yeti[seat].damage, available = everest_available(st, seat);

  if (st->yeti[seat].left_board)
    return damage > 0 && damage < available;
  return damage < available;
}

/* New reference, NULL when out of memory: each yeti's damage this round. */
static json_t *damage_json(const struct everest_state *st)
{
  json_t *damage = json_array();
  int seat;

  for (seat = 0; damage && seat < st->head.seats; seat++)
    json_array_append_new(damage, json_integer(st->yeti[seat].damage));
  return damage;
}

static enum cairn_status begin_round_end(struct everest_state *st, json_t *events,
                                         struct cairn_error *err)
{
  int seat;

  for (seat = 0; seat < st->head.seats; seat++)
    st->seat[seat].heal_owed = owes_heal_choice(st, seat);
  st->phase = EVEREST_PHASE_HEAL;
  return EVEREST_EMIT(events, err, 3, "type", everest_text("round-end"), "round",
                      json_integer(st->round), "damage", damage_json(st));
}

static json_t *coin_list(unsigned mask)
{
  json_t *list = json_array();
  int coin;

  for (coin = 0; list && coin < EVEREST_COINS; coin++)
    if (mask & (1u << coin))
      json_array_append_new(list, json_integer(coin));
  return list;
}

static int distance(int a, int b)
{
  return abs(a / EVEREST_COLS - b / EVEREST_COLS) + abs(a % EVEREST_COLS - b % EVEREST_COLS);
}

/* The free inside corner nearest `home` (ties: corner order), or
 * EVEREST_OFF when all four hold a yeti. */
static int nearest_free_corner(const struct everest_state *st, int home)
{
  int corner, best = EVEREST_OFF;

  for (corner = 0; corner < EVEREST_CORNERS; corner++) {
    int cell = everest_corner(corner);

    if (everest_occupant(st->yeti, st->head.seats, cell) >= 0)
      continue;
    if (best == EVEREST_OFF || distance(cell, home) < distance(best, home))
      best = cell;
  }
  return best;
}

/* Back to the starting squares. A yeti whose base holds another yeti takes
 * the free inside corner nearest its base, so no yeti ever waits off the
 * board (RULES.md "An occupied home base"). Own bases are served first, so
 * a detour never takes a base its owner is coming back to. With at most
 * four yeti and four corners, and the returning yeti off the board, a free
 * corner always remains. */
static void return_to_bases(struct everest_state *st, const bool *returning)
{
  int seats = st->head.seats, seat;

  for (seat = 0; seat < seats; seat++)
    if (returning[seat] && everest_occupant(st->yeti, seats, st->seat[seat].home) < 0)
      st->yeti[seat].cell = st->seat[seat].home;
  for (seat = 0; seat < seats; seat++)
    if (returning[seat] && st->yeti[seat].cell == EVEREST_OFF)
      st->yeti[seat].cell = nearest_free_corner(st, st->seat[seat].home);
}

/* New reference, NULL when out of memory: what each seat's end of round
 * did (what[seat]), and where it left the yeti. */
static json_t *outcomes_json(const struct everest_state *st, const char *const *what,
                             const bool *returning)
{
  json_t *outcomes = json_array();
  int seat;

  for (seat = 0; outcomes && seat < st->head.seats; seat++)
    json_array_append_new(
        outcomes,
        everest_object(6, "seat", json_integer(seat), "seat_name",
                       everest_text(everest_seat_name(seat)), "outcome", everest_text(what[seat]),
                       "at", everest_cell_json(st->yeti[seat].cell), "detour",
                       json_boolean(returning[seat] && st->yeti[seat].cell != st->seat[seat].home),
                       "aside", coin_list(st->seat[seat].aside)));
  return outcomes;
}

static enum cairn_status finish_round(struct everest_state *st, json_t *events,
                                      struct cairn_error *err)
{
  int seats = st->head.seats, seat, holder = -1, on_peak = 0;
  bool returning[EVEREST_MAX_SEATS];
  const char *what[EVEREST_MAX_SEATS];
  enum cairn_status status;

  for (seat = 0; seat < seats; seat++) {
    struct everest_seat *p = &st->seat[seat];
    struct everest_yeti *y = &st->yeti[seat];
    unsigned all = ((1u << EVEREST_COINS) - 1) & ~p->aside;
    int damage = y->damage, available = everest_available(st, seat);

    returning[seat] = y->cell == EVEREST_OFF;
    if (y->left_board) {
      /* "if a yeti falls off the edge of the board, at the end of the round
       * it is also returned to its starting square, but does not get any of
       * its coins back" - and its damage still sets coins aside. */
      p->aside |= damage >= available ? all : damage ? p->set_aside : 0;
      what[seat] = "return-without-healing";
    } else if (damage >= available || p->heal) {
      /* "a player can move their yeti back to its starting square; all coins
       * set aside due to damage are returned" */
      p->aside = 0;
      returning[seat] = true;
      what[seat] = damage >= available ? "forced-heal" : "heal";
    } else {
      p->aside |= damage ? p->set_aside : 0;
      what[seat] = "stay";
    }
    if (returning[seat])
      y->cell = EVEREST_OFF;
  }
  return_to_bases(st, returning);
  status = EVEREST_EMIT(events, err, 3, "type", everest_text("heals-revealed"), "round",
                        json_integer(st->round), "outcomes", outcomes_json(st, what, returning));
  if (status != CAIRN_OK)
    return status;
  for (seat = 0; seat < seats; seat++)
    if (everest_on_peak(st->yeti[seat].cell))
      holder = seat, on_peak++;
  /* "... and is still the sole occupant at the end of the round." */
  if (on_peak == 1 && holder == st->peak_holder) {
    st->winner = holder;
    st->phase = EVEREST_PHASE_OVER;
    return EVEREST_EMIT(events, err, 4, "type", everest_text("win"), "seat", json_integer(holder),
                        "seat_name", everest_text(everest_seat_name(holder)), "round",
                        json_integer(st->round));
  }
  /* Opt-in only: the text has no other end (RULES.md "Round cap"). */
  if (st->round_cap > 0 && st->round >= st->round_cap) {
    st->capped = true;
    st->phase = EVEREST_PHASE_OVER;
    return EVEREST_EMIT(events, err, 2, "type", everest_text("round-cap"), "round",
                        json_integer(st->round));
  }
  everest_start_round(st);
  return EVEREST_EMIT(
      events, err, 4, "type", everest_text("round-start"), "round", json_integer(st->round),
      "peak_holder", st->peak_holder >= 0 ? json_integer(st->peak_holder) : json_null(),
      "peak_holder_name",
      st->peak_holder >= 0 ? everest_text(everest_seat_name(st->peak_holder)) : json_null());
}

static bool anyone(const struct everest_state *st, bool (*owes)(const struct everest_state *, int))
{
  int seat;

  for (seat = 0; seat < st->head.seats; seat++)
    if (owes(st, seat))
      return true;
  return false;
}

static bool owes_heal(const struct everest_state *st, int seat)
{
  return st->phase == EVEREST_PHASE_HEAL && st->seat[seat].heal_owed &&
         !st->seat[seat].heal_decided;
}

enum cairn_status everest_advance(struct everest_state *st, json_t *events, struct cairn_error *err)
{
  struct everest_item items[EVEREST_MAX_ITEMS];
  enum cairn_status status = CAIRN_OK;
  bool decision;
  int n;

  for (;;) {
    switch (st->phase) {
    case EVEREST_PHASE_PLAN:
      if (anyone(st, everest_owes_plan))
        return CAIRN_OK;
      status = everest_reveal_plans(st, events, err); /* every yeti dazed */
      break;
    case EVEREST_PHASE_HEAL:
      if (anyone(st, owes_heal))
        return CAIRN_OK;
      status = finish_round(st, events, err);
      break;
    case EVEREST_PHASE_EXEC:
      if (st->stage == EVEREST_STAGE_ROARS) {
        /* Roars come first in a step: "After all yeti that are running away
         * are determined, treat any resulting movement like a regular action
         * turn ... Afterwards, complete any actions for the turn yet to be
         * performed." */
        st->stage = EVEREST_STAGE_ACTIONS;
        status = everest_resolve_roars(st, events, err);
        if (status != CAIRN_OK)
          return status;
        n = run_items(st, items);
      } else if (st->stage == EVEREST_STAGE_ACTIONS) {
        st->stage = EVEREST_STAGE_NEXT;
        n = action_items(st, items);
      } else {
        if (++st->step < EVEREST_PLAN_LEN) {
          st->stage = EVEREST_STAGE_ROARS;
          break;
        }
        status = begin_round_end(st, events, err);
        break;
      }
      status = everest_begin_turn(st, items, n, &decision, events, err);
      if (status == CAIRN_OK && decision)
        return CAIRN_OK;
      break;
    default: /* ORDER waits for the chooser; OVER is over */
      return CAIRN_OK;
    }
    if (status != CAIRN_OK)
      return status;
  }
}

static int lowest_coin(unsigned mask)
{
  int coin = 0;

  while (!(mask & (1u << coin)))
    coin++;
  return coin;
}

static enum cairn_status parse_coins(const json_t *list, unsigned *mask, int *count,
                                     struct cairn_error *err)
{
  size_t i;

  *mask = 0;
  *count = 0;
  if (!list)
    return CAIRN_OK;
  if (!json_is_array(list))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "set_aside: expected an array of coins");
  for (i = 0; i < json_array_size(list); i++) {
    const json_t *coin = json_array_get(list, i);

    if (!json_is_integer(coin))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                        "set_aside[%zu]: expected a coin 0..5", i);
    if (json_integer_value(coin) < 0 || json_integer_value(coin) >= EVEREST_COINS)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                        "set_aside[%zu]: a coin is 0 (null) to 5", i);
    if (*mask & (1u << json_integer_value(coin)))
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_DAMAGE,
                        "set_aside lists coin %d twice", (int)json_integer_value(coin));
    *mask |= 1u << json_integer_value(coin);
    (*count)++;
  }
  return CAIRN_OK;
}

enum cairn_status everest_submit_heal(struct everest_state *st, int seat, const json_t *move,
                                      json_t *events, bool *pending, struct cairn_error *err)
{
  const json_t *heal = json_object_get(move, "heal");
  unsigned mask;
  int count;
  enum cairn_status status;

  if (!heal)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "heal is required");
  if (!json_is_boolean(heal))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "heal: expected a boolean");
  status = parse_coins(json_object_get(move, "set_aside"), &mask, &count, err);
  if (status != CAIRN_OK)
    return status;
  return everest_commit_heal(st, seat, json_is_true(heal), mask, count, events, pending, err);
}

enum cairn_status everest_commit_heal(struct everest_state *st, int seat, bool heal, unsigned mask,
                                      int count, json_t *events, bool *pending,
                                      struct cairn_error *err)
{
  struct everest_seat *p = &st->seat[seat];
  enum cairn_status status;
  int other;

  if (heal) {
    if (st->yeti[seat].left_board)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_DAMAGE,
                        "a yeti that fell off the edge of the board can not heal until the end "
                        "of the next round");
    if (count)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_DAMAGE,
                        "a healing yeti sets no coins aside");
  } else {
    /* "count up how many times each yeti took damage during the round and
     * that yeti's player must set aside that many coins" */
    if (count != st->yeti[seat].damage)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_DAMAGE,
                        "set aside exactly %d coins (one per damage), not %d",
                        st->yeti[seat].damage, count);
    if (mask & p->aside)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_DAMAGE,
                        "coin %d is already set aside and cannot be set aside again",
                        lowest_coin(mask & p->aside));
  }
  p->heal_decided = true;
  p->heal = heal;
  p->set_aside = p->heal ? 0 : mask;
  status = EVEREST_EMIT(events, err, 6, "type", everest_text("heal-chosen"), "seat",
                        json_integer(seat), "seat_name", everest_text(everest_seat_name(seat)),
                        "heal", json_boolean(p->heal), "set_aside", coin_list(p->set_aside),
                        "private_to", engine_int_list(&seat, 1));
  if (status != CAIRN_OK)
    return status;
  for (other = 0; other < st->head.seats; other++)
    if (owes_heal(st, other)) {
      *pending = true;
      return CAIRN_OK;
    }
  *pending = false;
  return everest_advance(st, events, err);
}

/* Exposed for legal.c and module.c. */
bool everest_owes_heal(const struct everest_state *st, int seat)
{
  return owes_heal(st, seat);
}
