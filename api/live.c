/*
 * live.c - a bounded cache of current engine states, so a move costs one
 * apply rather than a replay of the whole log.
 *
 * The cache is derived and disposable: an entry is trusted only while its
 * move count equals the stored game's, and any miss rebuilds from the log
 * through api_replay(). Direct-mapped by a hash of the game id: a
 * collision simply evicts, which keeps memory bounded with no bookkeeping.
 * Every call happens under server->game_lock.
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct live_entry {
  char id[DB_ID_MAX + 1];   /* "" when empty */
  uint32_t moves;           /* log rows the state reflects */
  struct engine_game *game; /* owned */
};

struct api_live {
  size_t slots;
  struct live_entry *entries; /* owned, `slots` long */
};

struct api_live *api_live_new(size_t slots)
{
  struct api_live *live = calloc(1, sizeof(*live));

  if (!live)
    return NULL;
  live->entries = calloc(slots, sizeof(*live->entries));
  if (!live->entries) {
    free(live);
    return NULL;
  }
  live->slots = slots;
  return live;
}

void api_live_free(struct api_live *live)
{
  size_t i;

  if (!live)
    return;
  for (i = 0; i < live->slots; i++)
    engine_free(live->entries[i].game);
  free(live->entries);
  free(live);
}

/* FNV-1a: ids are random already, any spread-out hash will do. */
static struct live_entry *slot_of(struct api_live *live, const char *id)
{
  uint32_t h = 2166136261u;

  for (; *id; id++)
    h = (h ^ (uint8_t)*id) * 16777619u;
  return &live->entries[h % live->slots];
}

void api_live_put(struct api_live *live, const char *game_id, uint32_t moves,
                  struct engine_game *game)
{
  struct live_entry *e = slot_of(live, game_id);

  engine_free(e->game);
  snprintf(e->id, sizeof(e->id), "%s", game_id);
  e->moves = moves;
  e->game = game;
}

enum cairn_status api_live_get(struct api_server *server, const struct db_game *row,
                               const struct engine_game **out, struct cairn_error *err)
{
  struct live_entry *e = slot_of(server->live, row->id);
  struct engine_game *game = NULL;
  uint32_t rows = 0;
  enum cairn_status st;

  if (e->game && strcmp(e->id, row->id) == 0 && e->moves == row->moves) {
    *out = e->game;
    return CAIRN_OK;
  }
  st = api_replay(server, row, NULL, &game, &rows, err);
  if (st != CAIRN_OK)
    return st;
  api_live_put(server->live, row->id, rows, game);
  *out = game;
  return CAIRN_OK;
}

const struct engine_game *api_live_peek(struct api_live *live, const char *game_id)
{
  struct live_entry *e = slot_of(live, game_id);

  return e->game && strcmp(e->id, game_id) == 0 ? e->game : NULL;
}
