/*
 * legal.c - what a seat may submit now (`legal`) and a pick among it
 * (`sample_move`). Plans are too many to list (up to 6*5*4 coin orders times
 * 2^3 faces times 4^3 directions = 61440), so planning is described by one
 * compact "plan-options" object (README.md, openapi.yaml); conflict orders
 * and end-of-round choices are listed in full.
 */
#include "engine/everest/state.h"

static bool may_act(const struct everest_state *st, int seat)
{
  if (seat < 0 || seat >= st->head.seats)
    return false;
  if (st->phase == EVEREST_PHASE_ORDER)
    return seat == st->chooser;
  return everest_owes_plan(st, seat) || everest_owes_heal(st, seat);
}

static int plan_length(const struct everest_state *st, int seat)
{
  int n = everest_available(st, seat);

  return n < EVEREST_PLAN_LEN ? n : EVEREST_PLAN_LEN;
}

static json_t *plan_options(const struct everest_state *st, int seat)
{
  json_t *coins = json_array();
  int coin;

  for (coin = 0; coins && coin < EVEREST_COINS; coin++)
    if (!(st->seat[seat].aside & (1u << coin)))
      json_array_append_new(coins, json_integer(coin));
  return json_pack("{s:s, s:o, s:i, s:[s, s], s:[s, s, s, s]}", "type", "plan-options", "coins",
                   coins, "length", plan_length(st, seat), "faces", "value", "suit", "directions",
                   "N", "E", "S", "W");
}

static json_t *coin_array(unsigned mask)
{
  json_t *list = json_array();
  int coin;

  for (coin = 0; list && coin < EVEREST_COINS; coin++)
    if (mask & (1u << coin))
      json_array_append_new(list, json_integer(coin));
  return list;
}

static int bits(unsigned mask)
{
  int n = 0;

  for (; mask; mask &= mask - 1)
    n++;
  return n;
}

/* Every end-of-round choice: heal (unless the yeti left the board this
 * round), or set aside exactly `damage` of the available coins. */
static json_t *heal_moves(const struct everest_state *st, int seat)
{
  const struct everest_seat *p = &st->seat[seat];
  json_t *moves = json_array();
  unsigned mask;

  if (!moves)
    return NULL;
  if (!st->yeti[seat].left_board)
    json_array_append_new(moves, json_pack("{s:s, s:b}", "type", "heal", "heal", 1));
  for (mask = 0; mask < (1u << EVEREST_COINS); mask++)
    if (!(mask & p->aside) && bits(mask) == st->yeti[seat].damage)
      json_array_append_new(moves, json_pack("{s:s, s:b, s:o}", "type", "heal", "heal", 0,
                                             "set_aside", coin_array(mask)));
  return moves;
}

json_t *everest_legal_moves(const struct engine_game *game, int seat)
{
  const struct everest_state *st = (const struct everest_state *)game;

  if (!may_act(st, seat))
    return json_array();
  if (st->phase == EVEREST_PHASE_PLAN)
    return json_pack("[o]", plan_options(st, seat));
  if (st->phase == EVEREST_PHASE_ORDER)
    return everest_order_moves(st);
  return heal_moves(st, seat);
}

/* splitmix64 finaliser: spreads `choice` so that its low digits below are
 * independent; a pure function, the game's generator is never touched. */
static uint64_t mix(uint64_t z)
{
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int take(uint64_t *z, int n)
{
  int pick = (int)(*z % (uint64_t)n);

  *z /= (uint64_t)n;
  return pick;
}

json_t *everest_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  const struct everest_state *st = (const struct everest_state *)game;
  uint64_t z = mix(choice);
  json_t *list, *move, *plan;
  int coins[EVEREST_COINS], n = 0, coin, i, length;

  if (!may_act(st, seat))
    return NULL;
  if (st->phase != EVEREST_PHASE_PLAN) {
    list = everest_legal_moves(game, seat);
    move = json_array_size(list)
               ? json_incref(json_array_get(list, (size_t)(z % json_array_size(list))))
               : NULL;
    json_decref(list);
    return move;
  }
  /* Uniform over plans: an ordered choice of distinct coins, then a face
   * and a direction for each (6*5*4*8*64 < 2^64, so one mixed word does). */
  for (coin = 0; coin < EVEREST_COINS; coin++)
    if (!(st->seat[seat].aside & (1u << coin)))
      coins[n++] = coin;
  length = plan_length(st, seat);
  plan = json_array();
  for (i = 0; plan && i < length; i++) {
    int k = take(&z, n - i), t;

    t = coins[i], coins[i] = coins[i + k], coins[i + k] = t;
    json_array_append_new(plan, json_pack("{s:i, s:s, s:s}", "coin", coins[i], "face",
                                          take(&z, 2) ? "suit" : "value", "dir",
                                          everest_dir_name(take(&z, EVEREST_DIRS))));
  }
  return json_pack("{s:s, s:o}", "type", "plan", "plan", plan);
}
