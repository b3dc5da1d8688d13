/*
 * db.c - what db.h defines for every backend alike: releasing a game row.
 * The backends themselves live in their own folders (db/sqlite/).
 */
#include "db.h"

#include <stdlib.h>
#include <string.h>

void db_game_clear(struct db_game *game)
{
  if (!game)
    return;
  free(game->options_json);
  free(game->result_json);
  memset(game, 0, sizeof(*game));
}
