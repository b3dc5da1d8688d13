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
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_full_disk_answers_503_and_loses_nothing, harness_setup,
                                      harness_teardown),
  };

  harness_global_init();
  int rc = cmocka_run_group_tests_name("api/disk_full", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
