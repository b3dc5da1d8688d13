/*
 * serialize.c - the canonical serialisation: the whole position including
 * the secret order of the undrawn Yeti cards (the common head, seq and
 * generator, is added by engine_serialize_text). The board is fixed and is
 * left out. Never sent to a client.
 */
#include "engine/himalaya/state.h"

json_t *himalaya_serialize(const struct engine_game *game)
{
  /* Every field of struct himalaya_state appears in the position once the
   * deck order is included, so equal positions serialise equally. */
  return himalaya_position_json((const struct himalaya_state *)game, true);
}
