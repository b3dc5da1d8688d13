/*
 * support.c - shared helpers for the Everest tests (see support.h). Linked
 * into every test binary of this folder.
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

struct engine_game *es_new(int seats, int seed, int round_cap)
{
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  json_t *options = round_cap ? json_pack("{s:i}", "round_cap", round_cap) : NULL;
  struct engine_setup setup = {.seats = seats, .options = options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  bytes[0] = (uint8_t)seed;
  bytes[1] = (uint8_t)(seed >> 8);
  bytes[2] = (uint8_t)(seed >> 16);
  bytes[3] = (uint8_t)(seed >> 24);
  assert_int_equal(engine_new(&everest_module, &setup, bytes, &game, &err), CAIRN_OK);
  assert_non_null(game);
  json_decref(options);
  es_bases(&game);
  return game;
}

void es_bases(struct engine_game **game)
{
  int seat;

  /* Seat n takes corner n (NW, NE, SE, SW), through the real move. */
  for (seat = 0; seat < (*game)->seats; seat++) {
    char move[64];
    int cell = everest_corner(seat);

    snprintf(move, sizeof(move), "{\"type\":\"base\",\"base\":[%d,%d]}", cell / EVEREST_COLS,
             cell % EVEREST_COLS);
    json_decref(kit_apply(game, seat, move));
  }
}

struct engine_game *es_new_unplaced(int seats, int seed)
{
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  struct engine_setup setup = {.seats = seats, .options = NULL};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  bytes[0] = (uint8_t)seed;
  assert_int_equal(engine_new(&everest_module, &setup, bytes, &game, &err), CAIRN_OK);
  return game;
}

struct everest_state *es_state(struct engine_game *game)
{
  return (struct everest_state *)game;
}

int es_cell(int row, int col)
{
  int cell = everest_cell(row, col);

  assert_int_not_equal(cell, EVEREST_OFF);
  return cell;
}

void es_place(struct engine_game *game, int seat, int row, int col)
{
  es_state(game)->yeti[seat].cell = row < 0 ? EVEREST_OFF : es_cell(row, col);
}

json_t *es_plans(struct engine_game **game, const char *const *plans)
{
  json_t *events = NULL;
  int seat;

  for (seat = 0; seat < (*game)->seats; seat++) {
    char move[512];

    if (!plans[seat])
      continue;
    snprintf(move, sizeof(move), "{\"type\":\"plan\",\"plan\":%s}", plans[seat]);
    json_decref(events);
    events = kit_apply(game, seat, move);
  }
  return events;
}

void es_dice(struct engine_game *game, const int *faces, int n)
{
  uint32_t s;

  /* Find a seed whose next n rolls show `faces` and put that generator in
   * the game: the test's way to load the dice, without touching the
   * engine's code. */
  for (s = 1; s < 50000000u; s++) {
    uint8_t bytes[ENGINE_SEED_BYTES] = {0};
    struct engine_rng rng;
    int i;

    bytes[0] = (uint8_t)s;
    bytes[1] = (uint8_t)(s >> 8);
    bytes[2] = (uint8_t)(s >> 16);
    bytes[3] = (uint8_t)(s >> 24);
    bytes[31] = 0xd1;
    engine_rng_seed(&rng, bytes);
    for (i = 0; i < n && engine_rng_die(&rng, EVEREST_DIE_SIDES) - 1 == faces[i]; i++)
      ;
    if (i == n) {
      engine_rng_seed(&game->rng, bytes);
      return;
    }
  }
  fail_msg("no seed gives those dice");
}

void es_quiet(struct engine_game *game)
{
  int seat;

  for (seat = 0; seat < game->seats; seat++)
    es_state(game)->yeti[seat].cell = EVEREST_OFF;
}

void es_coins(struct engine_game *game, int seat, unsigned mask)
{
  es_state(game)->seat[seat].aside = ((1u << EVEREST_COINS) - 1) & ~mask;
}

json_t *es_seat_view(json_t *view, int seat)
{
  return json_array_get(json_object_get(view, "seats"), (size_t)seat);
}

json_t *es_act(struct engine_game **game, int seat, int coin, const char *face, const char *dir)
{
  char move[160];

  es_coins(*game, seat, 1u << coin);
  snprintf(move, sizeof(move),
           "{\"type\":\"plan\",\"plan\":[{\"coin\":%d,\"face\":\"%s\",\"dir\":\"%s\"}]}", coin,
           face, dir);
  return kit_apply(game, seat, move);
}
