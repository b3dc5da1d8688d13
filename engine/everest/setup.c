/*
 * setup.c - "Game set up": options, six coins each, and the players
 * placing their pawns "on one of the inside corners marked by the X's",
 * one seat after another in seat order (RULES.md); the last choice starts
 * the first round's planning. The mountain itself is fixed (board.c).
 */
#include "engine/everest/state.h"

#include <stdlib.h>
#include <string.h>

#include "engine/everest/rules.h"

enum cairn_status everest_new_game(const struct engine_setup *setup,
                                   const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                   struct cairn_error *err)
{
  /* The core hands a zeroed block: every byte, padding included. */
  struct everest_state *st = (struct everest_state *)game;
  int seat;

  (void)err;
  engine_rng_seed(&st->head.rng, seed);
  st->round_cap = (int)engine_option_int(&everest_module, setup->options, "round_cap");
  st->winner = -1;
  st->chooser = -1;
  st->peak_holder = -1;
  st->last_conflict.chooser = -1;
  /* No pawn is on the mountain until its player places it. */
  for (seat = 0; seat < EVEREST_MAX_SEATS; seat++) {
    st->yeti[seat].cell = EVEREST_OFF;
    st->seat[seat].home = EVEREST_OFF;
  }
  st->phase = EVEREST_PHASE_BASE;
  return CAIRN_OK;
}

int everest_base_chooser(const struct everest_state *st)
{
  int seat;

  if (st->phase != EVEREST_PHASE_BASE)
    return -1;
  for (seat = 0; seat < st->head.seats; seat++)
    if (st->seat[seat].home == EVEREST_OFF)
      return seat;
  return -1;
}

bool everest_corner_free(const struct everest_state *st, int corner)
{
  int seat;

  for (seat = 0; seat < st->head.seats; seat++)
    if (st->seat[seat].home == everest_corner(corner))
      return false;
  return true;
}

static enum cairn_status parse_base(const json_t *base, int *cell, struct cairn_error *err)
{
  const json_t *row = json_array_get(base, 0), *col = json_array_get(base, 1);

  if (!base)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "base is required");
  if (!json_is_array(base) || json_array_size(base) != 2 || !json_is_integer(row) ||
      !json_is_integer(col))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "base: expected a square [row, col]");
  if (json_integer_value(row) < 0 || json_integer_value(row) >= EVEREST_ROWS ||
      json_integer_value(col) < 0 || json_integer_value(col) >= EVEREST_COLS)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "base: row is 0 to %d and col 0 to %d", EVEREST_ROWS - 1, EVEREST_COLS - 1);
  *cell = (int)(json_integer_value(row) * EVEREST_COLS + json_integer_value(col));
  return CAIRN_OK;
}

enum cairn_status everest_choose_base(struct everest_state *st, int seat, const json_t *move,
                                      json_t *events, struct cairn_error *err)
{
  int cell = EVEREST_OFF;
  enum cairn_status status;

  status = parse_base(json_object_get(move, "base"), &cell, err);
  if (status != CAIRN_OK)
    return status;
  return everest_place_base(st, seat, cell, events, err);
}

enum cairn_status everest_place_base(struct everest_state *st, int seat, int cell, json_t *events,
                                     struct cairn_error *err)
{
  int corner, other;
  enum cairn_status status;

  corner = everest_corner_of(cell);
  /* "Players place their pawns on one of the inside corners marked by the
   * X's." */
  if (corner < 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_SETUP,
                      "[%d,%d] is no inside corner: a home base is [1,0], [1,7], [4,7] or [4,0]",
                      cell / EVEREST_COLS, cell % EVEREST_COLS);
  for (other = 0; other < st->head.seats; other++)
    if (st->seat[other].home == cell)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_SETUP,
                        "the inside corner [%d,%d] is already %s's home base", cell / EVEREST_COLS,
                        cell % EVEREST_COLS, everest_seat_name(other));
  st->seat[seat].home = cell;
  st->yeti[seat].cell = cell;
  status = EVEREST_EMIT(events, err, 4, "type", everest_text("base-chosen"), "seat",
                        json_integer(seat), "seat_name", everest_text(everest_seat_name(seat)),
                        "base", everest_cell_json(cell));
  if (status != CAIRN_OK || everest_base_chooser(st) >= 0)
    return status;
  everest_start_round(st);
  return EVEREST_EMIT(events, err, 4, "type", everest_text("round-start"), "round",
                      json_integer(st->round), "peak_holder", json_null(), "peak_holder_name",
                      json_null());
}
