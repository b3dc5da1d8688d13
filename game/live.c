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
 * Every call happens under the game's lock (game_lock), and touches the
 * game's set under the stripe's mutex: the set is chosen by the same hash
 * as the stripe and the set count is a multiple of GAME_STRIPES, so every
 * game of a set shares its stripe. Games of one stripe are locked and
 * played at once (issue 22), so an entry lent to one of them must outlive
 * the others' puts: eviction skips the entries of locked games, and a set
 * always has one to evict, since a stripe holds at most GAME_HELD_MAX
 * (<= LIVE_WAYS) locked games, the putter's among them.
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
  struct game_stripe *stripes; /* borrowed, or NULL: one thread uses the cache */
  struct live_entry *entries;  /* owned, sets * LIVE_WAYS long */
  uint64_t *clocks;            /* owned, one per set: counts its uses */
};

_Static_assert(GAME_HELD_MAX <= LIVE_WAYS, "a set must keep an entry no locked game uses");

struct game_live *game_live_new(size_t slots, struct game_stripe *stripes)
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
  live->stripes = stripes;
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

/* The stripe guarding `id`'s set, or NULL for a cache of one thread. */
static struct game_stripe *stripe_of(struct game_live *live, const char *id)
{
  return live->stripes ? &live->stripes[db_id_hash(id) % GAME_STRIPES] : NULL;
}

static void set_lock(struct game_stripe *s)
{
  if (s)
    pthread_mutex_lock(&s->mutex);
}

static void set_unlock(struct game_stripe *s)
{
  if (s)
    pthread_mutex_unlock(&s->mutex);
}

/* True when `id`'s game is locked now (its stripe's mutex held). */
static bool in_use(const struct game_stripe *s, const char *id)
{
  int i;

  for (i = 0; s && i < GAME_HELD_MAX; i++)
    if (strcmp(s->held[i], id) == 0)
      return true;
  return false;
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
 * used one whose game nobody holds (`s`: the set's stripe, or NULL). */
static struct live_entry *victim(struct live_entry *set, const struct game_stripe *s)
{
  struct live_entry *oldest = NULL;
  int i;

  for (i = 0; i < LIVE_WAYS; i++) {
    if (!set[i].game)
      return &set[i];
    if (!in_use(s, set[i].id) && (!oldest || set[i].used < oldest->used))
      oldest = &set[i];
  }
  assert(oldest); /* GAME_HELD_MAX <= LIVE_WAYS, the putter's game among them */
  return oldest;
}

static void touch(struct game_live *live, struct live_entry *e)
{
  e->used = ++live->clocks[(size_t)(e - live->entries) / LIVE_WAYS];
}

void game_live_put(struct game_live *live, const char *game_id, uint32_t moves,
                   struct engine_game *game)
{
  struct game_stripe *s = stripe_of(live, game_id);
  struct live_entry *set = set_of(live, game_id);
  struct live_entry *e;
  struct engine_game *old_game;

  set_lock(s);
  e = find(set, game_id);
  if (!e)
    e = victim(set, s);
  old_game = e->game;
  snprintf(e->id, sizeof(e->id), "%s", game_id);
  e->moves = moves;
  e->game = game;
  touch(live, e);
  set_unlock(s);
  engine_free(old_game); /* nobody holds its game: nobody borrows it */
}

enum cairn_status game_live_get(struct game_service *svc, const struct db_game *row,
                                const struct engine_game **out, struct cairn_error *err)
{
  struct game_stripe *s = stripe_of(svc->live, row->id);
  struct live_entry *e;
  struct engine_game *game = NULL;
  uint32_t rows = 0;
  enum cairn_status st;

  set_lock(s);
  e = find(set_of(svc->live, row->id), row->id);
  if (e && e->moves == row->moves) {
    touch(svc->live, e);
    *out = e->game;
    set_unlock(s);
    return CAIRN_OK;
  }
  set_unlock(s); /* a replay is long; the caller's lock keeps the entry ours */
  st = game_replay(svc, row, NULL, &game, &rows, err);
  if (st != CAIRN_OK)
    return st;
  game_live_put(svc->live, row->id, rows, game);
  *out = game;
  return CAIRN_OK;
}

const struct engine_game *game_live_peek(struct game_live *live, const char *game_id)
{
  struct game_stripe *s = stripe_of(live, game_id);
  const struct engine_game *game;
  struct live_entry *e;

  set_lock(s);
  e = find(set_of(live, game_id), game_id);
  game = e ? e->game : NULL;
  set_unlock(s);
  return game;
}
