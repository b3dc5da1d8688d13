/*
 * support.c - shared helpers for the Because It's There! tests (see
 * support.h). Linked into every test binary of this folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

struct engine_game *bt_new(const char *scenario, int seed)
{
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  json_t *options = json_pack("{s:s}", "scenario", scenario);
  int seats = strcmp(scenario, "1924") == 0 || strcmp(scenario, "1953") == 0 ? 1 : 2;
  struct engine_setup setup = {.seats = seats, .options = options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  bytes[0] = (uint8_t)seed;
  bytes[1] = (uint8_t)(seed >> 8);
  bytes[2] = (uint8_t)(seed >> 16);
  bytes[3] = (uint8_t)(seed >> 24);
  assert_int_equal(engine_new(&bit_module, &setup, bytes, &game, &err), CAIRN_OK);
  json_decref(options);
  assert_non_null(game);
  return game;
}

struct bit_state *bt_state(struct engine_game *game)
{
  return (struct bit_state *)game;
}

int bt_is_legal(struct engine_game *game, int seat, const char *move)
{
  json_error_t jerr;
  json_t *m = json_loads(move, 0, &jerr), *list = engine_legal_moves(game, seat), *x;
  size_t i;
  int found = 0;

  assert_non_null(m);
  json_array_foreach(list, i, x)
  {
    if (json_equal(x, m))
      found = 1;
  }
  json_decref(m);
  json_decref(list);
  return found;
}

void bt_clear(struct engine_game *game, int phase, int turn)
{
  struct bit_state *st = bt_state(game);
  int c, seat;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SPECIAL_FIRST; c++) {
    struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_HAND || l->zone == BIT_Z_DISCARD || l->zone == BIT_Z_MOUNTAIN ||
        l->zone == BIT_Z_DEAD)
      bit_put(st, c, BIT_Z_DECK, l->seat);
    st->strength[c] = bit_cards[c].strength;
  }
  for (c = BIT_SPECIAL_FIRST; c < BIT_EVENT_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_HAND || st->loc[c].zone == BIT_Z_DEAD)
      bit_put(st, c, BIT_Z_EVENTS, -1);
  memset(st->team, 0, sizeof(st->team));
  for (seat = 0; seat < BIT_SEATS; seat++) {
    st->done[seat] = 0;
    st->discarded[seat] = 0;
    st->bivouac[seat] = -1;
    st->order[seat] = seat;
  }
  st->phase = phase;
  st->turn = turn;
  st->weather = BIT_GOOD;
  st->active = 0;
  st->mover = 0;
  st->moving = -1;
  st->rolled = 0;
}

void bt_hand(struct engine_game *game, int seat, int card)
{
  struct bit_state *st = bt_state(game);

  if (st->loc[card].zone == BIT_Z_MOUNTAIN) {
    st->loc[card].zone = BIT_Z_BOX;
  }
  bit_put(st, card, BIT_Z_HAND, seat);
}

int bt_team(struct engine_game *game, int seat, int at, const int *cards)
{
  struct bit_state *st = bt_state(game);
  int t = bit_new_team(st, seat), i;

  for (i = 0; cards[i] >= 0; i++)
    bit_place(st, cards[i], seat, at, t,
              bit_is(cards[i], BIT_SUPPLIES) ? BIT_R_LOADED : BIT_R_MEMBER);
  return t;
}

void bt_event_top(struct engine_game *game, int event)
{
  struct bit_state *st = bt_state(game);

  bit_put(st, event, BIT_Z_EVENTS, -1);
}

int bt_route(struct engine_game *game, int seat, int i)
{
  return bt_state(game)->route_card[seat][i];
}
