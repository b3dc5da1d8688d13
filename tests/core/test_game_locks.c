/*
 * test_game_locks.c - a game's lock is its own (game/service.c, issue 22):
 * while a move of game B waits for its durable commit, a move of game A,
 * whose id falls in the same lock stripe, goes through; and two moves of
 * one game still queue, the second hearing stale-seq once the first is in.
 *
 * B's commit is held open by a storage table of the test's own: SQLite's
 * methods, except that move_append of the game named in `hold` waits for
 * the test's word before it writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game/game.h"

#define WAIT_MS 10000 /* how long a move that must not wait is given */

/* The commit being held open, shared with held_append. */
static struct {
  pthread_mutex_t mutex;
  pthread_cond_t changed;
  char game[DB_ID_MAX + 1]; /* whose append waits; "" none */
  bool inside;              /* that append reached storage */
  bool release;             /* the test lets it write */
  const struct db_methods *real;
} hold = {.mutex = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

static enum cairn_status held_append(void *ctx, const char *game_id, struct db_move *move,
                                     const char *result_json, struct cairn_error *err)
{
  pthread_mutex_lock(&hold.mutex);
  if (strcmp(game_id, hold.game) == 0) {
    hold.inside = true;
    pthread_cond_broadcast(&hold.changed);
    while (!hold.release)
      pthread_cond_wait(&hold.changed, &hold.mutex);
  }
  pthread_mutex_unlock(&hold.mutex);
  return hold.real->move_append(ctx, game_id, move, result_json, err);
}

static int64_t clock_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct fixture {
  char dir[64];
  char url[128];
  struct db *real;           /* SQLite, opened on a file of dir */
  struct db_methods methods; /* SQLite's, move_append held */
  struct db held;            /* `methods` over real's state */
  struct game_service *svc;
  char a[DB_ID_MAX + 1], b[DB_ID_MAX + 1]; /* two started games of one stripe */
};

static void make_player(struct fixture *f, const char *id)
{
  struct db_player p = {0};
  uint8_t hash[DB_HASH_BYTES] = {0};
  struct cairn_error err = {0};

  snprintf(p.id, sizeof(p.id), "%s", id);
  snprintf(p.name, sizeof(p.name), "%s", id);
  snprintf((char *)hash, sizeof(hash), "token of %s", id);
  assert_int_equal(db_player_create(&f->held, &p, hash, &err), CAIRN_OK);
}

/* A started two-seat Himalaya game with id `id`, seated by p0 and p1. */
static void make_game(struct fixture *f, const char *id)
{
  struct db_game row = {0};
  struct engine_game *state = NULL;
  struct cairn_error err = {0};
  bool bots[ENGINE_MAX_SEATS] = {false};
  int seat;

  assert_int_equal(game_new(f->svc, "himalaya", 2, NULL, "p0", &row, &state, &err), CAIRN_OK);
  snprintf(row.id, sizeof(row.id), "%s", id);
  assert_int_equal(game_create(f->svc, &row, bots, state, &err), CAIRN_OK);
  db_game_clear(&row);
  assert_int_equal(game_join(f->svc, id, &(struct db_player){.id = "p0"}, NULL, &seat, &err),
                   CAIRN_OK);
  assert_int_equal(game_join(f->svc, id, &(struct db_player){.id = "p1"}, NULL, &seat, &err),
                   CAIRN_OK);
}

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));
  struct cairn_error err = {0};
  unsigned i;

  if (!f)
    return -1;
  snprintf(f->dir, sizeof(f->dir), "/tmp/cairn-locks-XXXXXX");
  if (!mkdtemp(f->dir))
    return -1;
  snprintf(f->url, sizeof(f->url), "%s/cairn.db", f->dir);
  if (db_open(f->url, &f->real, &err) != CAIRN_OK)
    return -1;
  hold.real = f->real->methods;
  f->methods = *f->real->methods;
  f->methods.move_append = held_append;
  f->held = (struct db){.methods = &f->methods, .ctx = f->real->ctx};
  f->svc = game_service_new(&f->held, clock_ms, 0, NULL, NULL);
  if (!f->svc)
    return -1;
  make_player(f, "p0");
  make_player(f, "p1");
  snprintf(f->b, sizeof(f->b), "gameb");
  for (i = 0; !f->a[0]; i++) {
    char id[DB_ID_MAX + 1];

    snprintf(id, sizeof(id), "gamea%u", i);
    if (db_id_hash(id) % GAME_STRIPES == db_id_hash(f->b) % GAME_STRIPES)
      snprintf(f->a, sizeof(f->a), "%s", id);
  }
  make_game(f, f->a);
  make_game(f, f->b);
  hold.game[0] = '\0';
  hold.inside = hold.release = false;
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  char path[160];
  const char *suffix[] = {"", "-wal", "-shm"};
  size_t i;

  game_service_free(f->svc);
  db_close(f->real);
  for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
    snprintf(path, sizeof(path), "%s%s", f->url, suffix[i]);
    unlink(path);
  }
  rmdir(f->dir);
  free(f);
  return 0;
}

/* One move of a game as api/moves.c makes it: lock, load, play the first
 * seat owing a decision at `seq` (the game's current one when negative),
 * unlock. */
struct play {
  struct fixture *f;
  const char *game;
  json_int_t seq;
  enum cairn_status st;   /* the move's verdict */
  struct cairn_error err; /* and its error */
  bool locked;            /* it holds the game's lock (under hold.mutex) */
  bool done;              /* it returned (under hold.mutex) */
};

static void set_flag(bool *flag)
{
  pthread_mutex_lock(&hold.mutex);
  *flag = true;
  pthread_cond_broadcast(&hold.changed);
  pthread_mutex_unlock(&hold.mutex);
}

static void *play_one(void *arg)
{
  struct play *p = arg;
  struct game_service *svc = p->f->svc;
  struct db_game row = {0};
  const struct engine_game *now = NULL;
  json_t *move = NULL, *events = NULL;
  uint32_t seq_after = 0;
  int seats[ENGINE_MAX_SEATS];

  game_lock(svc, p->game);
  set_flag(&p->locked);
  p->st = game_load(svc, p->game, &row, &p->err);
  if (p->st == CAIRN_OK)
    p->st = game_live_get(svc, &row, &now, &p->err);
  if (p->st == CAIRN_OK && engine_to_act(now, seats) > 0) {
    move = engine_sample_move(now, seats[0], 7);
    p->st = game_play(svc, &row, seats[0], p->seq < 0 ? (json_int_t)row.seq : p->seq, move, &events,
                      &seq_after, &p->err);
  }
  game_unlock(svc, p->game);
  json_decref(move);
  json_decref(events);
  db_game_clear(&row);
  set_flag(&p->done);
  return NULL;
}

/* Wait (under hold.mutex) until *flag or `ms` pass; the flag's value. */
static bool wait_for(bool *flag, int ms)
{
  struct timespec until;
  bool value;

  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&hold.mutex);
  while (!*flag && pthread_cond_timedwait(&hold.changed, &hold.mutex, &until) == 0)
    ;
  value = *flag;
  pthread_mutex_unlock(&hold.mutex);
  return value;
}

static void hold_commits_of(const char *game)
{
  pthread_mutex_lock(&hold.mutex);
  snprintf(hold.game, sizeof(hold.game), "%s", game);
  pthread_mutex_unlock(&hold.mutex);
}

static void release_commits(void)
{
  set_flag(&hold.release);
}

/* The game's seq, as stored. */
static json_int_t seq_of(struct fixture *f, const char *game)
{
  struct db_game row = {0};
  struct cairn_error err = {0};
  json_int_t seq;

  assert_int_equal(game_load(f->svc, game, &row, &err), CAIRN_OK);
  seq = row.seq;
  db_game_clear(&row);
  return seq;
}

/* The game's log rows, as stored. */
static uint32_t moves_of(struct fixture *f, const char *game)
{
  struct db_game row = {0};
  struct cairn_error err = {0};
  uint32_t moves;

  assert_int_equal(game_load(f->svc, game, &row, &err), CAIRN_OK);
  moves = row.moves;
  db_game_clear(&row);
  return moves;
}

static void test_a_move_does_not_wait_for_another_games_commit(void **state)
{
  struct fixture *f = *state;
  struct play b = {.f = f, .game = f->b, .seq = -1}, a = {.f = f, .game = f->a, .seq = -1};
  pthread_t tb, ta;
  bool a_done;

  assert_int_equal(db_id_hash(f->a) % GAME_STRIPES, db_id_hash(f->b) % GAME_STRIPES);
  hold_commits_of(f->b);
  assert_int_equal(pthread_create(&tb, NULL, play_one, &b), 0);
  assert_true(wait_for(&hold.inside, WAIT_MS)); /* B's move is in its commit, B locked */
  assert_int_equal(pthread_create(&ta, NULL, play_one, &a), 0);
  a_done = wait_for(&a.done, WAIT_MS);
  release_commits(); /* whatever A did, so that both threads end */
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  assert_true(a_done); /* A was played while B's commit was still open */
  assert_int_equal(a.st, CAIRN_OK);
  assert_int_equal(b.st, CAIRN_OK);
  assert_int_equal(moves_of(f, f->a), 1);
  assert_int_equal(moves_of(f, f->b), 1);
}

static void test_two_moves_of_one_game_still_queue(void **state)
{
  struct fixture *f = *state;
  json_int_t seq = seq_of(f, f->b);
  struct play first = {.f = f, .game = f->b, .seq = seq},
              second = {.f = f, .game = f->b, .seq = seq};
  pthread_t t1, t2;
  bool second_waited;

  hold_commits_of(f->b);
  assert_int_equal(pthread_create(&t1, NULL, play_one, &first), 0);
  assert_true(wait_for(&hold.inside, WAIT_MS));
  assert_int_equal(pthread_create(&t2, NULL, play_one, &second), 0);
  /* Given time, the second still waits for the game's lock. */
  second_waited = !wait_for(&second.locked, 300);
  release_commits();
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  assert_true(second_waited);
  assert_int_equal(first.st, CAIRN_OK);
  assert_int_equal(second.st, CAIRN_ESTALE); /* it read the game after the first move */
  assert_string_equal(second.err.code, CAIRN_CODE_STALE_SEQ);
  assert_int_equal(moves_of(f, f->b), 1);
}

struct locker {
  struct game_service *svc;
  const char *game;
  bool locked; /* under hold.mutex */
};

static void *lock_one(void *arg)
{
  struct locker *l = arg;

  game_lock(l->svc, l->game);
  set_flag(&l->locked);
  game_unlock(l->svc, l->game);
  return NULL;
}

/* A stripe holds GAME_HELD_MAX locked games at once (so the live cache
 * always has an entry to evict); one more waits for a place, and gets it
 * when any of them is unlocked. */
static void test_a_full_stripe_makes_one_more_game_wait(void **state)
{
  struct fixture *f = *state;
  char ids[GAME_HELD_MAX + 1][DB_ID_MAX + 1];
  struct locker ninth = {.svc = f->svc};
  uint32_t stripe = db_id_hash(f->b) % GAME_STRIPES;
  pthread_t t;
  bool waited;
  unsigned i;
  int found = 0;

  for (i = 0; found < GAME_HELD_MAX + 1; i++) {
    snprintf(ids[found], sizeof(ids[found]), "held%u", i);
    if (db_id_hash(ids[found]) % GAME_STRIPES == stripe)
      found++;
  }
  for (i = 0; i < GAME_HELD_MAX; i++)
    game_lock(f->svc, ids[i]);
  ninth.game = ids[GAME_HELD_MAX];
  assert_int_equal(pthread_create(&t, NULL, lock_one, &ninth), 0);
  waited = !wait_for(&ninth.locked, 300);
  game_unlock(f->svc, ids[3]);
  assert_true(wait_for(&ninth.locked, WAIT_MS));
  pthread_join(t, NULL);
  for (i = 0; i < GAME_HELD_MAX; i++)
    if (i != 3)
      game_unlock(f->svc, ids[i]);
  assert_true(waited);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_move_does_not_wait_for_another_games_commit, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_two_moves_of_one_game_still_queue, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_full_stripe_makes_one_more_game_wait, setup, teardown),
  };

  return order_run_group_tests_name("core/game_locks", tests, NULL, NULL);
}
