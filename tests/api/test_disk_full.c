/*
 * test_disk_full.c - the storage-failure path: when the disk refuses writes,
 * every request that would change something answers 503 problem+json
 * (code storage-unavailable, with Retry-After) and changes nothing; reads
 * go on; and when the disk is back, play resumes with every acknowledged
 * move still in the log, before and after a restart.
 *
 * A full disk is made real, not mocked: the test lowers the running
 * server's RLIMIT_FSIZE soft limit to 0 with prlimit(2), so every write(2)
 * to a file fails with EFBIG exactly as on a full or quota-capped volume
 * (the server ignores SIGXFSZ, api/main.c). Raising the limit again is the
 * operator freeing space. The server binary carries no test hook for this.
 * The full-WAL tests below use a volume that really fills instead (a
 * tmpfs, root only; skipped elsewhere).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "tests/api/harness.h"

/* The disk refuses (full) or accepts (freed) writes from the server. */
static void set_disk_full(struct harness_server *s, bool full)
{
  struct rlimit now;

  if (prlimit(s->pid, RLIMIT_FSIZE, NULL, &now) != 0)
    fail_msg("prlimit: cannot read the server's RLIMIT_FSIZE");
  now.rlim_cur = full ? 0 : now.rlim_max;
  if (prlimit(s->pid, RLIMIT_FSIZE, &now, NULL) != 0)
    fail_msg("prlimit: cannot set the server's RLIMIT_FSIZE");
}

/* Play the first legal move of whoever is to act; returns the answer's
 * status and, for a 200, appends the move to `acked`. */
static long move_once(struct harness_server *s, const struct harness_player p[2],
                      const char *game_id, json_t *acked, const char *expect_code)
{
  json_t *game = harness_get_game(s, p[0].token, game_id);
  int seat = (int)json_integer_value(json_array_get(json_object_get(game, "to_act"), 0));
  json_t *view = seat == 0 ? json_incref(game) : harness_get_game(s, p[1].token, game_id);
  json_t *move = json_array_get(json_object_get(view, "legal"), 0);
  struct harness_response r;
  long status;

  assert_non_null(move);
  harness_post_move(s, &r, p[seat].token, game_id, harness_int(view, "seq"), move);
  status = r.status;
  if (status == 200) {
    json_array_append_new(acked, json_pack("{s:i, s:O}", "seat", seat, "move", move));
  } else {
    HARNESS_EXPECT_PROBLEM(&r, 503, expect_code);
    if (!harness_response_header(&r, "Retry-After"))
      harness_fail_response(&r, __FILE__, __LINE__, "a 503 without Retry-After");
  }
  harness_response_free(&r);
  json_decref(view);
  json_decref(game);
  return status;
}

/* The log, as seat 0's export shows it, holds exactly `acked`, in order. */
static void expect_log_is(struct harness_server *s, const struct harness_player *p,
                          const char *game_id, const json_t *acked)
{
  struct harness_response r;
  json_t *rows;
  size_t i;

  harness_call(s, &r, "GET", p->token, NULL, "/v1/games/%s/export", game_id);
  HARNESS_EXPECT_JSON(&r, 200);
  rows = json_object_get(r.json, "moves");
  if (json_array_size(rows) != json_array_size(acked))
    harness_fail_response(&r, __FILE__, __LINE__, "the log holds %zu rows, %zu moves were acked",
                          json_array_size(rows), json_array_size(acked));
  for (i = 0; i < json_array_size(acked); i++) {
    const json_t *want = json_array_get(acked, i);
    const json_t *row = json_array_get(rows, i);

    if (json_integer_value(json_object_get(row, "seat")) !=
            json_integer_value(json_object_get(want, "seat")) ||
        !json_equal(json_object_get(row, "move"), json_object_get(want, "move")))
      harness_fail_response(&r, __FILE__, __LINE__, "row %zu is not the move acked there", i);
  }
  harness_response_free(&r);

  harness_expect_verifies(s, game_id);
}

/* Issue "Speed, load and faults", 2: "a full disk / I/O error path (SQLite
 * errors) that answers 503 problem+json and loses nothing". */
static void test_a_full_disk_answers_503_and_loses_nothing(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2], late;
  struct harness_response r;
  json_t *acked = json_array();
  json_t *created, *before, *after;
  char game_id[64];
  int i;

  harness_new_player(s, "north", &p[0]);
  harness_new_player(s, "south", &p[1]);
  created = harness_new_game(s, p[0].token, "himalaya", 2, NULL);
  snprintf(game_id, sizeof game_id, "%s", harness_game_id(created));
  json_decref(created);
  harness_join(s, p[0].token, game_id, 0);
  harness_join(s, p[1].token, game_id, 1);
  for (i = 0; i < 6; i++)
    assert_int_equal(move_once(s, p, game_id, acked, NULL), 200);
  before = harness_get_game(s, p[0].token, game_id);

  set_disk_full(s, true);
  /* Writes fail, each with 503 and nothing changed... */
  for (i = 0; i < 3; i++)
    assert_int_equal(move_once(s, p, game_id, acked, "storage-unavailable"), 503);
  harness_call(s, &r, "POST", NULL, "{\"name\":\"late\"}", "/v1/players");
  HARNESS_EXPECT_PROBLEM(&r, 503, "storage-unavailable");
  harness_response_free(&r);
  harness_call(s, &r, "POST", p[0].token, "{\"title\":\"himalaya\",\"seats\":2}", "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 503, "storage-unavailable");
  harness_response_free(&r);
  /* ...while reads go on, showing the game exactly as it was. */
  after = harness_get_game(s, p[0].token, game_id);
  assert_int_equal(harness_int(after, "seq"), harness_int(before, "seq"));
  assert_int_equal(harness_int(after, "moves"), harness_int(before, "moves"));
  assert_true(json_equal(json_object_get(after, "view"), json_object_get(before, "view")));
  json_decref(after);
  expect_log_is(s, &p[0], game_id, acked);

  /* Space is freed: the same move, at the same seq, is accepted now. */
  set_disk_full(s, false);
  for (i = 0; i < 4; i++)
    assert_int_equal(move_once(s, p, game_id, acked, NULL), 200);
  harness_new_player(s, "late", &late);
  expect_log_is(s, &p[0], game_id, acked);

  /* And all of it is on disk: a restart replays the same log. */
  harness_restart(s);
  expect_log_is(s, &p[0], game_id, acked);
  assert_int_equal(move_once(s, p, game_id, acked, NULL), 200);

  json_decref(before);
  json_decref(acked);
}

/*
 * A WAL that filled the disk (issue "Abuse and availability", 7), made by a
 * volume that really fills: a tmpfs mounted inside the test's folder holds
 * the database, its -wal and -shm, and server.key; the server's stderr log
 * stays outside, so its messages never take the space. Moves go on until
 * the volume refuses them; the server is stopped, space is given back
 * (the tmpfs remounted larger: the operator freeing space), and it must
 * start, hold every move it acknowledged and take new ones.
 *
 * Two sizes put the failure in two places. In 768 KiB the WAL fills the
 * volume in the middle of an append (the whole database is still in the
 * WAL: its 1,000-page auto-checkpoint never came). In 4,600 KiB the WAL
 * reaches 1,000 pages first, and the checkpoint copying them into the main
 * file fills the volume; the WAL then grows into what is left.
 */
#define WAL_APPEND_KIB 768
#define CHECKPOINT_KIB 4600
#define FREED_KIB      65536
/* test_a_start_on_a_full_volume_serves_reads: room for the store as its
 * migrations leave it plus a few commits, so that freeing the ballast gives
 * back enough for the next one. At 768 KiB the schema of migration 0015
 * (chat, ratings) left too little before the ballast was even written, and
 * the move after it failed for want of space that had never been there. */
#define START_FULL_KIB 2048
#define MAX_GAMES      200

/* How the server goes down once the volume is full. */
enum stop {
  STOP_SIGTERM,      /* a clean stop: its checkpoint at close fails */
  STOP_SIGKILL,      /* no close at all */
  STOP_RESTART_FULL, /* SIGTERM, start again on the full volume, then free space */
};

struct small_fs {
  char mnt[280]; /* the test's folder (256) + "/fs" */
  long kib;
  bool mounted;
};

static struct small_fs small_fs;

static bool mount_tmpfs(long kib, bool remount)
{
  char opts[64];

  snprintf(opts, sizeof opts, "size=%ldk,mode=0700", kib);
  return mount("tmpfs", small_fs.mnt, "tmpfs", remount ? MS_REMOUNT : 0, opts) == 0;
}

/* Start the server again with its database on a fresh tmpfs of `kib`;
 * skips the test where mounting is not allowed (not root). */
static void move_onto_small_fs(struct harness_server *s, long kib)
{
  harness_pause(s);
  snprintf(small_fs.mnt, sizeof small_fs.mnt, "%s/fs", s->dir);
  small_fs.kib = kib;
  if (mkdir(small_fs.mnt, 0700) != 0)
    fail_msg("mkdir %s: %s", small_fs.mnt, strerror(errno));
  if (!mount_tmpfs(kib, false)) {
    print_message("[  SKIPPED ] cannot mount a tmpfs (%s): the full-WAL tests need root\n",
                  strerror(errno));
    harness_resume(s);
    skip();
  }
  small_fs.mounted = true;
  snprintf(s->db_path, sizeof s->db_path, "%s/cairn.db", small_fs.mnt);
  harness_resume(s);
}

static void free_space(void)
{
  if (!mount_tmpfs(FREED_KIB, true))
    fail_msg("remount %s larger: %s", small_fs.mnt, strerror(errno));
}

/* Unmounts even after a failure: lazily, so a server still holding files
 * there runs on until harness_teardown stops it. */
static int small_fs_teardown(void **state)
{
  if (small_fs.mounted && umount2(small_fs.mnt, MNT_DETACH) != 0)
    fprintf(stderr, "umount %s: %s\n", small_fs.mnt, strerror(errno));
  small_fs.mounted = false;
  return harness_teardown(state);
}

/* Two seats at a game of Himalaya, and every move of it answered 200. */
struct played {
  char game_id[64];
  struct harness_player p[2];
  json_t *acked;
};

/* The games a test played: a new one begins whenever the last one ends. */
struct plays {
  struct played games[MAX_GAMES];
  int n;
};

static void new_game(struct harness_server *s, struct played *g)
{
  json_t *created;

  harness_new_player(s, "north", &g->p[0]);
  harness_new_player(s, "south", &g->p[1]);
  created = harness_new_game(s, g->p[0].token, "himalaya", 2, NULL);
  snprintf(g->game_id, sizeof g->game_id, "%s", harness_game_id(created));
  json_decref(created);
  harness_join(s, g->p[0].token, g->game_id, 0);
  harness_join(s, g->p[1].token, g->game_id, 1);
  g->acked = json_array();
}

/* One step of starting a game while the volume fills: true when it was
 * answered `want`, false when the volume filled first (503
 * storage-unavailable, which is what fill_the_volume waits for); anything
 * else fails the test. */
static bool started(struct harness_response *r, long want)
{
  bool full = r->status == 503 && r->json &&
              strcmp(harness_str(r->json, "code"), "storage-unavailable") == 0;

  if (!full)
    HARNESS_EXPECT_JSON(r, want);
  return !full;
}

/* new_game, for a game begun while the volume fills: the previous game may
 * have ended just as the volume filled, and then a new player, game or
 * seat is refused like a move. False (g left unused) when it was. */
static bool try_new_game(struct harness_server *s, struct played *g)
{
  static const char *const names[2] = {"north", "south"};
  struct harness_response r;
  char body[64];
  bool ok = true;
  int i;

  memset(g, 0, sizeof(*g));
  for (i = 0; ok && i < 2; i++) {
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", names[i]);
    harness_call(s, &r, "POST", NULL, body, "/v1/players");
    ok = started(&r, 201);
    if (ok)
      snprintf(g->p[i].token, sizeof g->p[i].token, "%s", harness_str(r.json, "token"));
    harness_response_free(&r);
  }
  if (ok) {
    harness_call(s, &r, "POST", g->p[0].token, "{\"title\":\"himalaya\",\"seats\":2}", "/v1/games");
    ok = started(&r, 201);
    if (ok)
      snprintf(g->game_id, sizeof g->game_id, "%s", harness_game_id(r.json));
    harness_response_free(&r);
  }
  for (i = 0; ok && i < 2; i++) {
    snprintf(body, sizeof body, "{\"seat\":%d}", i);
    harness_call(s, &r, "POST", g->p[i].token, body, "/v1/games/%s/join", g->game_id);
    ok = started(&r, 200);
    harness_response_free(&r);
  }
  if (ok)
    g->acked = json_array();
  return ok;
}

/* The game to move in: the last one, or a new one once it is over; NULL
 * when the volume filled while a new one was being set up. */
static struct played *game_to_play(struct harness_server *s, struct plays *all)
{
  struct played *g = &all->games[all->n - 1];
  json_t *game = harness_get_game(s, NULL, g->game_id);
  bool over = strcmp(harness_str(game, "status"), "finished") == 0;

  json_decref(game);
  if (!over)
    return g;
  if (all->n == MAX_GAMES)
    fail_msg("%d games played and the volume never filled", MAX_GAMES);
  if (!try_new_game(s, &all->games[all->n]))
    return NULL;
  return &all->games[all->n++];
}

static long file_kib(const char *db_path, const char *suffix)
{
  char path[400];
  struct stat st;

  snprintf(path, sizeof path, "%s%s", db_path, suffix);
  return stat(path, &st) == 0 ? (long)(st.st_size / 1024) : -1;
}

/* Moves until the volume refuses one (503), then a few more refused while
 * it stays full. */
static void fill_the_volume(struct harness_server *s, struct plays *all)
{
  size_t acked = 0;
  int refused = 0;

  all->n = 1;
  new_game(s, &all->games[0]);
  while (refused < 5) {
    struct played *g = game_to_play(s, all);

    if (!g)
      refused++; /* full while setting up the next game: as good as a refused move */
    else if (move_once(s, g->p, g->game_id, g->acked, "storage-unavailable") == 200)
      acked++;
    else
      refused++;
  }
  print_message("%ld KiB full after %zu moves in %d games: main file %ld KiB, -wal %ld KiB, "
                "-shm %ld KiB\n",
                small_fs.kib, acked, all->n, file_kib(s->db_path, ""), file_kib(s->db_path, "-wal"),
                file_kib(s->db_path, "-shm"));
}

static void expect_all_logs(struct harness_server *s, struct plays *all, int seat)
{
  for (int i = 0; i < all->n; i++)
    expect_log_is(s, &all->games[i].p[seat], all->games[i].game_id, all->games[i].acked);
}

static void stop_and_free_space(struct harness_server *s, struct plays *all, enum stop how)
{
  if (how == STOP_SIGKILL) {
    harness_kill(s);
  } else {
    harness_pause(s); /* fails the test unless the server exits with 0 */
  }
  if (how == STOP_RESTART_FULL) {
    /* Starts with the volume still full: reads are served, a move is
     * refused with 503 and changes nothing. */
    harness_resume(s);
    expect_all_logs(s, all, 0);
    struct played *g = game_to_play(s, all);
    /* NULL: the last game ended just as the volume filled, and starting the
     * next one was what the full volume refused (503, try_new_game). */
    if (g)
      assert_int_equal(move_once(s, g->p, g->game_id, g->acked, "storage-unavailable"), 503);
    expect_all_logs(s, all, 1);
    free_space();
    return;
  }
  free_space();
  harness_resume(s);
}

/* The whole story for one size and one way down: every acknowledged move
 * survives, the chains verify, play goes on, and a second restart (with
 * the space back, its checkpoint succeeds) keeps all of it. */
static void full_wal_case(void **state, long kib, enum stop how)
{
  struct harness_server *s = *state;
  struct harness_player late;
  struct plays *all;

  move_onto_small_fs(s, kib); /* first: a skip must leave nothing allocated */
  all = calloc(1, sizeof *all);
  assert_non_null(all);
  fill_the_volume(s, all);
  stop_and_free_space(s, all, how);
  expect_all_logs(s, all, 0);
  for (int i = 0; i < 3; i++) {
    struct played *g = game_to_play(s, all);

    assert_int_equal(move_once(s, g->p, g->game_id, g->acked, NULL), 200);
  }
  harness_new_player(s, "late", &late);
  harness_restart(s);
  expect_all_logs(s, all, 1);
  for (int i = 0; i < all->n; i++)
    json_decref(all->games[i].acked);
  free(all);
}

static void test_wal_append_full_then_sigterm(void **state)
{
  full_wal_case(state, WAL_APPEND_KIB, STOP_SIGTERM);
}

static void test_wal_append_full_then_sigkill(void **state)
{
  full_wal_case(state, WAL_APPEND_KIB, STOP_SIGKILL);
}

static void test_wal_append_full_then_restart_while_full(void **state)
{
  full_wal_case(state, WAL_APPEND_KIB, STOP_RESTART_FULL);
}

static void test_checkpoint_full_then_sigterm(void **state)
{
  full_wal_case(state, CHECKPOINT_KIB, STOP_SIGTERM);
}

static void test_checkpoint_full_then_sigkill(void **state)
{
  full_wal_case(state, CHECKPOINT_KIB, STOP_SIGKILL);
}

static void test_checkpoint_full_then_restart_while_full(void **state)
{
  full_wal_case(state, CHECKPOINT_KIB, STOP_RESTART_FULL);
}

/* Something else takes every byte left on the volume. */
static void fill_with_ballast(void)
{
  static const char block[4096];
  char path[320];
  FILE *f;

  snprintf(path, sizeof path, "%s/ballast", small_fs.mnt);
  f = fopen(path, "w");
  if (!f)
    fail_msg("fopen %s: %s", path, strerror(errno));
  setvbuf(f, NULL, _IONBF, 0);
  while (fwrite(block, 1, sizeof block, f) == sizeof block)
    ;
  fclose(f);
}

/* A clean stop whose checkpoint succeeds leaves no WAL to replay; the
 * volume then fills (another program, a log) before the server starts
 * again. It must start and serve reads, refuse writes with 503, and take
 * them once space is back, with no restart. */
static void test_a_start_on_a_full_volume_serves_reads(void **state)
{
  struct harness_server *s = *state;
  struct plays *all;
  char path[320];

  move_onto_small_fs(s, START_FULL_KIB);
  all = calloc(1, sizeof *all);
  assert_non_null(all);
  all->n = 1;
  new_game(s, &all->games[0]);
  for (int i = 0; i < 4; i++)
    assert_int_equal(
        move_once(s, all->games[0].p, all->games[0].game_id, all->games[0].acked, NULL), 200);
  harness_pause(s);
  fill_with_ballast();
  harness_resume(s);
  expect_all_logs(s, all, 0);
  assert_int_equal(move_once(s, all->games[0].p, all->games[0].game_id, all->games[0].acked,
                             "storage-unavailable"),
                   503);
  snprintf(path, sizeof path, "%s/ballast", small_fs.mnt);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(move_once(s, all->games[0].p, all->games[0].game_id, all->games[0].acked, NULL),
                   200);
  harness_restart(s);
  expect_all_logs(s, all, 1);
  json_decref(all->games[0].acked);
  free(all);
}

#define FULL_WAL_TEST(f) cmocka_unit_test_setup_teardown(f, harness_setup, small_fs_teardown)

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_full_disk_answers_503_and_loses_nothing, harness_setup,
                                      harness_teardown),
      FULL_WAL_TEST(test_wal_append_full_then_sigterm),
      FULL_WAL_TEST(test_wal_append_full_then_sigkill),
      FULL_WAL_TEST(test_wal_append_full_then_restart_while_full),
      FULL_WAL_TEST(test_checkpoint_full_then_sigterm),
      FULL_WAL_TEST(test_checkpoint_full_then_sigkill),
      FULL_WAL_TEST(test_checkpoint_full_then_restart_while_full),
      FULL_WAL_TEST(test_a_start_on_a_full_volume_serves_reads),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/disk_full", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
