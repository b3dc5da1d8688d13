/*
 * rowcache.c - copies of the game rows and players the read slots found,
 * so a request's lookups skip SQLite while nothing changed.
 *
 * Why: under WAL a reading connection drops its whole page cache whenever
 * it starts a read after another connection committed, and with moves
 * committing all the time every game_load and token lookup re-read its
 * b-tree pages through the kernel: a third of a move's server CPU
 * (bench_load under perf). The rows themselves change only through the
 * slots of this backend, so this backend can keep them.
 *
 * Coherence. A player's name never changes and a token names one player
 * until it is revoked (tokens_replace, which evicts every hash it revokes
 * holding both locks, before its commit), so a copy is good until then. A game row changes only by
 * a write slot of this backend, which after its commit updates or forgets the copy while holding
 * rlock; a read slot holds rlock from before its SQLite read until its copy is stored. So a copy
 * stored from an older snapshot is always stored before the newer write's update runs, never after
 * it. Another process writing the same file would go unseen: one server owns its database
 * (db/README.md). That cannot corrupt the log, whose checks all run inside the write transaction
 * against the file, but it would serve stale views.
 *
 * Every function here runs with rlock held: the lock that serialises the
 * reading connection also serialises the cache, and a hit holds it only
 * for a copy.
 *
 * Direct-mapped: a miss costs one SQLite read, not a replay, so the odd
 * pair of games sharing a slot is cheap; the slot counts keep that rare for
 * a few thousand games in play.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAME_SLOTS   8192
#define PLAYER_SLOTS 4096

struct cached_player {
  bool used;
  uint8_t token_hash[DB_HASH_BYTES];
  struct db_player player;
};

struct db_rowcache {
  struct db_game *games; /* GAME_SLOTS; id "" when empty; strings owned */
  struct cached_player *players;
};

struct db_rowcache *db_rowcache_new(void)
{
  struct db_rowcache *rc = calloc(1, sizeof(*rc));

  if (!rc)
    return NULL;
  rc->games = calloc(GAME_SLOTS, sizeof(*rc->games));
  rc->players = calloc(PLAYER_SLOTS, sizeof(*rc->players));
  if (!rc->games || !rc->players) {
    db_rowcache_free(rc);
    return NULL;
  }
  return rc;
}

void db_rowcache_free(struct db_rowcache *rc)
{
  size_t i;

  if (!rc)
    return;
  for (i = 0; rc->games && i < GAME_SLOTS; i++)
    db_game_clear(&rc->games[i]);
  free(rc->games);
  free(rc->players);
  free(rc);
}

static struct db_game *game_slot(struct db_rowcache *rc, const char *game_id)
{
  return &rc->games[db_id_hash(game_id) % GAME_SLOTS];
}

/* Deep copy: the strings are the destination's own. False (and *to left
 * empty) when memory runs out. */
static bool copy_game(struct db_game *to, const struct db_game *from)
{
  *to = *from;
  to->options_json = from->options_json ? strdup(from->options_json) : NULL;
  to->result_json = from->result_json ? strdup(from->result_json) : NULL;
  if ((from->options_json && !to->options_json) || (from->result_json && !to->result_json)) {
    free(to->options_json);
    free(to->result_json);
    memset(to, 0, sizeof(*to));
    return false;
  }
  return true;
}

bool db_rowcache_game_get(struct db_rowcache *rc, const char *game_id, struct db_game *out)
{
  const struct db_game *slot = game_slot(rc, game_id);

  return slot->id[0] && strcmp(slot->id, game_id) == 0 && copy_game(out, slot);
}

void db_rowcache_game_put(struct db_rowcache *rc, const struct db_game *row)
{
  struct db_game *slot = game_slot(rc, row->id);

  db_game_clear(slot);
  copy_game(slot, row); /* out of memory leaves the slot empty: only a miss */
}

void db_rowcache_game_forget(struct db_rowcache *rc, const char *game_id)
{
  struct db_game *slot = game_slot(rc, game_id);

  if (strcmp(slot->id, game_id) == 0)
    db_game_clear(slot);
}

/* The bookkeeping db_sqlite_update_game commits, mirrored on the copy. A
 * copy that is not the row just before this move is forgotten rather than
 * patched. */
void db_rowcache_game_moved(struct db_rowcache *rc, const char *game_id, const struct db_move *move,
                            const char *result_json, const uint8_t hash[DB_HASH_BYTES])
{
  struct db_game *slot = game_slot(rc, game_id);
  char *result = NULL;

  if (strcmp(slot->id, game_id) != 0)
    return;
  /* A seat handed to another player (a replacement) needs that player's
   * name, which the row does not carry: the copy is read again. */
  if (slot->moves != move->ord || move->seat_player_to ||
      (result_json && !(result = strdup(result_json)))) {
    db_game_clear(slot);
    return;
  }
  slot->moves++;
  slot->seq = move->seq;
  slot->updated_ms = move->at_ms;
  memcpy(slot->log_head, hash, DB_HASH_BYTES);
  if (move->resigns)
    slot->seat_resigned[move->seat] = true;
  if (result) {
    free(slot->result_json);
    slot->result_json = result;
    snprintf(slot->status, sizeof(slot->status), "%s", DB_STATUS_FINISHED);
  }
}

static struct cached_player *player_slot(struct db_rowcache *rc,
                                         const uint8_t token_hash[DB_HASH_BYTES])
{
  uint32_t h;

  memcpy(&h, token_hash, sizeof(h)); /* a BLAKE2b output: its bytes are spread already */
  return &rc->players[h % PLAYER_SLOTS];
}

bool db_rowcache_player_get(struct db_rowcache *rc, const uint8_t token_hash[DB_HASH_BYTES],
                            struct db_player *out)
{
  const struct cached_player *slot = player_slot(rc, token_hash);

  if (!slot->used || memcmp(slot->token_hash, token_hash, DB_HASH_BYTES) != 0)
    return false;
  *out = slot->player;
  return true;
}

void db_rowcache_player_put(struct db_rowcache *rc, const uint8_t token_hash[DB_HASH_BYTES],
                            const struct db_player *player)
{
  struct cached_player *slot = player_slot(rc, token_hash);

  slot->used = true;
  memcpy(slot->token_hash, token_hash, DB_HASH_BYTES);
  slot->player = *player;
}

void db_rowcache_player_forget(struct db_rowcache *rc, const uint8_t token_hash[DB_HASH_BYTES])
{
  struct cached_player *slot = player_slot(rc, token_hash);

  if (slot->used && memcmp(slot->token_hash, token_hash, DB_HASH_BYTES) == 0)
    slot->used = false;
}
