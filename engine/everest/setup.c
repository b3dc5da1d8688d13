/*
 * setup.c - "Game set up": options, the yeti on their home bases and six
 * coins each, and the first round's planning. The mountain itself is fixed
 * (board.c).
 */
#include "engine/everest/state.h"

#include <stdlib.h>
#include <string.h>

static enum cairn_status read_options(const json_t *options, int *round_cap,
                                      struct cairn_error *err)
{
  const char *key;
  const json_t *value;

  *round_cap = EVEREST_DEFAULT_ROUND_CAP;
  if (!options)
    return CAIRN_OK;
  json_object_foreach((json_t *)options, key, value)
  {
    if (strcmp(key, "round_cap") != 0)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "options: unknown option %s", key);
    if (!json_is_integer(value))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                        "options.round_cap: expected an integer");
    if (json_integer_value(value) < 1 || json_integer_value(value) > EVEREST_MAX_ROUND_CAP)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "options.round_cap: 1 to %d",
                        EVEREST_MAX_ROUND_CAP);
    *round_cap = (int)json_integer_value(value);
  }
  return CAIRN_OK;
}

enum cairn_status everest_new_game(const struct engine_setup *setup,
                                   const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game **out,
                                   struct cairn_error *err)
{
  struct everest_state *st = NULL;
  enum cairn_status status;
  int seat, round_cap;

  *out = NULL;
  status = read_options(setup->options, &round_cap, err);
  if (status != CAIRN_OK)
    return status;
  /* calloc: every byte, padding included, starts at zero. */
  st = calloc(1, sizeof(*st));
  if (!st)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  engine_rng_seed(&st->head.rng, seed);
  st->head.seats = setup->seats;
  st->round_cap = round_cap;
  st->winner = -1;
  st->chooser = -1;
  /* "Players place their pawns on one of the inside corners": with fewer
   * than four, the first bases in suit order (RULES.md). */
  for (seat = 0; seat < EVEREST_MAX_SEATS; seat++)
    st->yeti[seat].cell = seat < setup->seats ? everest_home(seat) : EVEREST_OFF;
  everest_start_round(st);
  *out = &st->head;
  return CAIRN_OK;
}
