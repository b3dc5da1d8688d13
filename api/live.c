/*
 * live.c - a bounded cache of current engine states, so a move costs one
 * apply rather than a replay of the whole log.
 *
 * The cache is derived and disposable: an entry is trusted only while its
 * move count equals the stored game's, and any miss rebuilds from the log
 * through api_replay(). Direct-mapped by a hash of the game id: a
 * collision simply evicts, which keeps memory bounded with no bookkeeping.
 * Every call happens under the game's stripe lock (api_game_lock). A slot
 * is chosen by the same hash as the stripe and the slot count is a multiple
 * of API_GAME_STRIPES, so every game sharing a slot shares its stripe: no
 * two threads ever touch one slot at once.
 */
#include "api.h"

#include <assert.h>
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
  struct api_live *live;

  assert(slots % API_GAME_STRIPES == 0); /* slots line up with the stripes */
  live = calloc(1, sizeof(*live));

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

uint32_t api_game_hash(const char *game_id)
{
  uint32_t h = 2166136261u; /* FNV-1a: ids are random already, any spread will do */

  for (; *game_id; game_id++)
    h = (h ^ (uint8_t)*game_id) * 16777619u;
  return h;
}

void api_game_lock(struct api_server *server, const char *game_id)
{
  pthread_mutex_lock(&server->game_locks[api_game_hash(game_id) % API_GAME_STRIPES]);
}

void api_game_unlock(struct api_server *server, const char *game_id)
{
  pthread_mutex_unlock(&server->game_locks[api_game_hash(game_id) % API_GAME_STRIPES]);
}

static struct live_entry *slot_of(struct api_live *live, const char *id)
{
  return &live->entries[api_game_hash(id) % live->slots];
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
