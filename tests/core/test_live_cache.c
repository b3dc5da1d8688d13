/*
 * test_live_cache.c - the cache of live engine states (game/live.c): games
 * that share a set do not evict each other while the set has room, a full
 * set evicts its least recently used game, and a thousand games in play all
 * stay cached (bench_load's case: a direct-mapped cache lost a fifth of
 * them and replayed their logs on every move).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "engine/engine.h"

#define STATES (8 * GAME_STRIPES) /* the smallest cache: one set of 8 per stripe */
#define WAYS   8

/* A fresh engine state to cache (any title will do). */
static struct engine_game *a_state(void)
{
  const struct engine_module *m = engine_find("himalaya");
  struct engine_setup setup = {.seats = 2};
  uint8_t seed[ENGINE_SEED_BYTES] = {1};
  struct engine_game *g = NULL;

  assert_int_equal(engine_new(m, &setup, seed, &g, NULL), CAIRN_OK);
  return g;
}

/* Fill ids[0..n) with game ids that all land in one set of a cache of
 * `states` entries. */
static void ids_in_one_set(char ids[][DB_ID_MAX + 1], int n, size_t states)
{
  size_t sets = states / WAYS;
  uint32_t target = 0;
  int found = 0;
  unsigned i;

  for (i = 0; found < n; i++) {
    char id[DB_ID_MAX + 1];

    snprintf(id, sizeof id, "g%u", i);
    if (found == 0)
      target = db_id_hash(id) % (uint32_t)sets;
    if (db_id_hash(id) % sets == target)
      snprintf(ids[found++], DB_ID_MAX + 1, "%s", id);
  }
}

static void test_games_of_one_set_stay_until_it_is_full(void **state)
{
  struct game_live *live = game_live_new(STATES, NULL);
  char ids[WAYS + 1][DB_ID_MAX + 1];
  int i;

  (void)state;
  assert_non_null(live);
  ids_in_one_set(ids, WAYS + 1, STATES);
  for (i = 0; i < WAYS; i++)
    game_live_put(live, ids[i], (uint32_t)i, a_state());
  for (i = 0; i < WAYS; i++)
    assert_non_null(game_live_peek(live, ids[i]));

  /* Use every game but the third again; the next one evicts the third. */
  for (i = 0; i < WAYS; i++)
    if (i != 2)
      game_live_put(live, ids[i], (uint32_t)i + 1, a_state());
  game_live_put(live, ids[WAYS], 0, a_state());
  assert_null(game_live_peek(live, ids[2]));
  for (i = 0; i <= WAYS; i++)
    if (i != 2)
      assert_non_null(game_live_peek(live, ids[i]));
  game_live_free(live);
}

static void test_a_thousand_games_in_play_all_stay_cached(void **state)
{
  struct game_live *live = game_live_new(GAME_LIVE_STATES, NULL);
  char id[DB_ID_MAX + 1];
  unsigned i;

  (void)state;
  assert_non_null(live);
  for (i = 0; i < 1000; i++) {
    /* ids as the server makes them: 20 random-looking hex digits */
    snprintf(id, sizeof id, "%08x%012x", i * 2654435761u, i * 40503u);
    game_live_put(live, id, 1, a_state());
  }
  for (i = 0; i < 1000; i++) {
    snprintf(id, sizeof id, "%08x%012x", i * 2654435761u, i * 40503u);
    if (!game_live_peek(live, id))
      fail_msg("game %s of 1,000 in play was evicted", id);
  }
  game_live_free(live);
}

/* Games of one stripe are played at once, so a state lent to the holder of
 * one game must survive the others' puts: a locked game's entry is never
 * the one evicted, however long ago it was used. */
static void test_a_locked_games_entry_is_never_evicted(void **state)
{
  static struct game_stripe stripes[GAME_STRIPES];
  struct game_live *live;
  char ids[WAYS * 2][DB_ID_MAX + 1];
  struct game_stripe *s;
  int i;

  (void)state;
  for (i = 0; i < GAME_STRIPES; i++)
    pthread_mutex_init(&stripes[i].mutex, NULL);
  live = game_live_new(STATES, stripes);
  assert_non_null(live);
  ids_in_one_set(ids, WAYS * 2, STATES);
  s = &stripes[db_id_hash(ids[0]) % GAME_STRIPES];
  game_live_put(live, ids[0], 0, a_state());
  snprintf(s->held[0], sizeof(s->held[0]), "%s", ids[0]); /* as game_lock marks it */
  for (i = 1; i < WAYS * 2; i++)
    game_live_put(live, ids[i], 0, a_state());
  assert_non_null(game_live_peek(live, ids[0])); /* the least recently used, but locked */
  assert_null(game_live_peek(live, ids[1]));     /* the next oldest went instead */
  s->held[0][0] = '\0';
  game_live_put(live, ids[1], 0, a_state());
  assert_null(game_live_peek(live, ids[0])); /* unlocked, it is evicted like any other */
  game_live_free(live);
  for (i = 0; i < GAME_STRIPES; i++)
    pthread_mutex_destroy(&stripes[i].mutex);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_games_of_one_set_stay_until_it_is_full),
      cmocka_unit_test(test_a_thousand_games_in_play_all_stay_cached),
      cmocka_unit_test(test_a_locked_games_entry_is_never_evicted),
  };

  return order_run_group_tests_name("core/live_cache", tests, NULL, NULL);
}
