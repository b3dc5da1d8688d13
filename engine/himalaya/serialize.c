/*
 * serialize.c - the canonical serialisation: the whole position including
 * the secret order of the undrawn Yeti cards (the common head, seq and
 * generator, is added by engine_serialize_text). The board is fixed and is
 * left out. Never sent to a client.
 */
#include "engine/himalaya/state.h"

json_t *himalaya_serialize(const struct engine_game *game)
{
  struct json_writer w;

  /* Every field of struct himalaya_state appears in the position once the
   * deck order is included, so equal positions serialise equally. Written
   * by the views' own writer, so the two cannot drift apart; off the
   * request path, so parsing it back costs nothing that matters. */
  jw_init(&w);
  jw_object_begin(&w);
  himalaya_write_position((const struct himalaya_state *)game, true, &w);
  jw_object_end(&w);
  return jw_finish_tree(&w);
}
