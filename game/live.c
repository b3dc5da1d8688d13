/*
 * live.c - a bounded cache of current engine states, so a move costs one
 * apply rather than a replay of the whole log.
 *
 * The cache is derived and disposable: an entry is trusted only while its
 * move count equals the stored game's, and any miss rebuilds from the log
 * through game_replay().
 *
 * Set-associative: a hash of the game id picks a set of LIVE_WAYS entries
 * and a full set evicts its least recently used one. It was direct-mapped
 * once, and bench_load showed why that fails: with 1,000 games in play a
 * fifth of them shared a slot with another, and two games sharing a slot
 * evict each other on every move, so each move replayed the whole log. With
 * eight ways a set overflows only when nine games in play hash to it.
 *
 * Every call happens under the game's stripe lock (game_lock). The set
 * is chosen by the same hash as the stripe and the set count is a multiple
 * of GAME_STRIPES, so every game of a set shares its stripe: no two
 * threads ever touch one set at once, its use counter included.
 */
#include "game.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_WAYS 8

struct live_entry {
  char id[DB_ID_MAX + 1];   /* "" when empty */
  uint32_t moves;           /* log rows the state reflects */
  uint64_t used;            /* the set's clock at the last use: LRU order */
  struct engine_game *game; /* owned */
};

struct game_live {
  size_t sets;
  struct live_entry *entries; /* owned, sets * LIVE_WAYS long */
  uint64_t *clocks;           /* owned, one per set: counts its uses */
};

struct game_live *game_live_new(size_t slots)
{
  struct game_live *live;
  size_t sets = slots / LIVE_WAYS;

  assert(sets > 0 && sets % GAME_STRIPES == 0); /* sets line up with the stripes */
  live = calloc(1, sizeof(*live));
  if (!live)
    return NULL;
  live->entries = calloc(sets * LIVE_WAYS, sizeof(*live->entries));
  live->clocks = calloc(sets, sizeof(*live->clocks));
  if (!live->entries || !live->clocks) {
    free(live->entries);
    free(live->clocks);
    free(live);
    return NULL;
  }
  live->sets = sets;
  return live;
}

void game_live_free(struct game_live *live)
{
  size_t i;

  if (!live)
    return;
  for (i = 0; i < live->sets * LIVE_WAYS; i++)
    engine_free(live->entries[i].game);
  free(live->entries);
  free(live->clocks);
  free(live);
}

/* The LIVE_WAYS entries of the set `id` maps to. */
static struct live_entry *set_of(struct game_live *live, const char *id)
{
  return &live->entries[db_id_hash(id) % live->sets * LIVE_WAYS];
}

/* The entry of `set` holding `id`, or NULL. */
static struct live_entry *find(struct live_entry *set, const char *id)
{
  int i;

  for (i = 0; i < LIVE_WAYS; i++)
    if (set[i].game && strcmp(set[i].id, id) == 0)
      return &set[i];
  return NULL;
}

/* Where a new entry goes in `set`: an empty way, else the least recently
 * used one. */
static struct live_entry *victim(struct live_entry *set)
{
  struct live_entry *oldest = &set[0];
  int i;

  for (i = 0; i < LIVE_WAYS; i++) {
    if (!set[i].game)
      return &set[i];
    if (set[i].used < oldest->used)
      oldest = &set[i];
  }
  return oldest;
}

static void touch(struct game_live *live, struct live_entry *e)
{
  e->used = ++live->clocks[(size_t)(e - live->entries) / LIVE_WAYS];
}

void game_live_put(struct game_live *live, const char *game_id, uint32_t moves,
                   struct engine_game *game)
{
  struct live_entry *set = set_of(live, game_id);
  struct live_entry *e = find(set, game_id);

  if (!e)
    e = victim(set);
  engine_free(e->game);
  snprintf(e->id, sizeof(e->id), "%s", game_id);
  e->moves = moves;
  e->game = game;
  touch(live, e);
}

enum cairn_status game_live_get(struct game_service *svc, const struct db_game *row,
                                const struct engine_game **out, struct cairn_error *err)
{
  struct live_entry *e = find(set_of(svc->live, row->id), row->id);
  struct engine_game *game = NULL;
  uint32_t rows = 0;
  enum cairn_status st;

  if (e && e->moves == row->moves) {
    touch(svc->live, e);
    *out = e->game;
    return CAIRN_OK;
  }
  st = game_replay(svc, row, NULL, &game, &rows, err);
  if (st != CAIRN_OK)
    return st;
  game_live_put(svc->live, row->id, rows, game);
  *out = game;
  return CAIRN_OK;
}

const struct engine_game *game_live_peek(struct game_live *live, const char *game_id)
{
  struct live_entry *e = find(set_of(live, game_id), game_id);

  return e ? e->game : NULL;
}
