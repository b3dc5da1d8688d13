/*
 * db.c - what db.h defines for every backend alike: releasing a game row,
 * hashing an id.
 * The backends themselves live in their own folders (db/sqlite/).
 */
#include "db.h"

#include <stdlib.h>
#include <string.h>

uint32_t db_id_hash(const char *id)
{
  uint32_t h = 2166136261u;

  for (; *id; id++)
    h = (h ^ (uint8_t)*id) * 16777619u;
  return h;
}

void db_game_clear(struct db_game *game)
{
  if (!game)
    return;
  free(game->options_json);
  free(game->result_json);
  memset(game, 0, sizeof(*game));
}
