/*
 * input.c - the one place a real game meets a bot: it writes the seat's
 * view (the text a person in the seat is sent) and hands the bot that and
 * the game's public facts, nothing more (bots.h).
 */
#include "bots/bots.h"

#include <stdlib.h>
#include <string.h>

enum cairn_status bot_choose(const struct engine_game *game, int seat, const json_t *options,
                             const uint8_t seed[ENGINE_SEED_BYTES], enum bot_level level,
                             json_t **move, struct cairn_error *err)
{
  struct bot_input in = {.module = game->module,
                         .seats = game->seats,
                         .seat = seat,
                         .seq = game->seq,
                         .options = options};
  struct json_writer w;
  char *view;
  enum cairn_status st;

  *move = NULL;
  jw_init(&w);
  engine_write_view(game, seat, &w);
  view = jw_finish(&w, &in.view_len);
  if (!view)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while writing a bot's view");
  in.view = view;
  memcpy(in.seed, seed, ENGINE_SEED_BYTES);
  st = bot_decide(&in, level, move, err);
  free(view);
  return st;
}
