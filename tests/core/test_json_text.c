/*
 * test_json_text.c - api_json_text writes exactly what
 * json_dumps(doc, JSON_COMPACT) writes (api/json_text.c): on hand-made
 * documents covering every type and every escape, and on every view and
 * legal-move list of random games of every registered title; and
 * jw_dumps_sorted what json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS)
 * writes, on the same documents and every move and event of those games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "engine/engine.h"

#define GAMES_PER_TITLE 12
#define MOVE_CAP        400

/* Both writers agree on `doc`, byte for byte, in both forms: compact, and
 * compact with sorted keys (jw_dumps_sorted, the stored form). */
static void expect_same_text(const json_t *doc)
{
  char *want = json_dumps(doc, JSON_COMPACT);
  char *want_sorted = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
  size_t len = 0;
  char *got = api_json_text(doc, &len);
  char *got_sorted = jw_dumps_sorted(doc);

  assert_non_null(want);
  assert_non_null(got);
  if (strcmp(want, got) != 0)
    fail_msg("json_dumps: %s\napi_json_text: %s", want, got);
  assert_int_equal(len, strlen(want));
  assert_non_null(want_sorted);
  assert_non_null(got_sorted);
  if (strcmp(want_sorted, got_sorted) != 0)
    fail_msg("json_dumps sorted: %s\njw_dumps_sorted: %s", want_sorted, got_sorted);
  free(want);
  free(got);
  free(want_sorted);
  free(got_sorted);
}

/* Keys that sort differently by bytes, by length and by prefix, objects of
 * more keys than the sorter's stack room, and keys jansson holds with a
 * NUL inside. */
static void test_sorted_keys_follow_jansson(void **state)
{
  static const char *const keys[] = {"b",   "a",    "ab",  "aa",   "a\xc3\xa9", "A",  "",
                                     "_",   "z",    "zz",  "\x7f", "\xc3\xa9",  "10", "9",
                                     "a b", "a\"q", "k17", "k2",   "k1"};
  json_t *doc = json_object(), *inner = json_object();
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
    json_object_set_new(doc, keys[i], json_integer((json_int_t)i));
    json_object_set_new(inner, keys[sizeof(keys) / sizeof(keys[0]) - 1 - i], json_string(keys[i]));
  }
  json_object_setn_new(doc, "n\0ul", 4, json_true());
  json_object_setn_new(doc, "n", 1, json_false());
  json_object_set_new(doc, "inner", json_pack("[O, {s:{s:i, s:i}}]", inner, "y", "b", 2, "a", 1));
  expect_same_text(doc);
  expect_same_text(inner);
  json_decref(inner);
  json_decref(doc);
}

static void test_every_type_and_escape_is_written_as_jansson_does(void **state)
{
  static const char nasty[] = "quote\" backslash\\ slash/ \b\f\n\r\t \x01\x1f \x7f"
                              " caf\xc3\xa9 \xf0\x9f\xa7\x97 end";
  json_t *doc = json_pack(
      "{s:s, s:s#, s:I, s:I, s:I, s:i, s:f, s:f, s:f, s:f, s:f, s:b, s:b, s:n, s:[], s:{},"
      " s:[i, [], {}, [[[]]], {s:{s:[s]}}], s:s}",
      "plain", "hello", "with nul", "a\0b", (size_t)3, "max", (json_int_t)INT64_MAX, "min",
      (json_int_t)INT64_MIN, "zero", (json_int_t)0, "neg", -42, "tenth", 0.1, "whole", 3.0, "huge",
      1e300, "tiny", -2.5e-300, "negzero", -0.0, "yes", 1, "no", 0, "nothing", "empty array",
      "empty object", "nested", 7, "a", "b", "c", "escapes", nasty);

  (void)state;
  assert_non_null(doc);
  json_object_set_new(doc, "key with \"quote\" and \n", json_string("v"));
  json_object_set_new(doc, "", json_string("empty key"));
  expect_same_text(doc);
  json_decref(doc);

  doc = json_array();
  expect_same_text(doc);
  json_decref(doc);
}

static void test_only_objects_and_arrays_are_documents(void **state)
{
  json_t *s = json_string("alone");

  (void)state;
  assert_null(api_json_text(s, NULL));
  assert_null(api_json_text(NULL, NULL));
  json_decref(s);
}

/* xorshift for the playouts' choices. */
static uint64_t pick_state = 0x9e3779b97f4a7c15ull;
static uint32_t pick(uint32_t n)
{
  pick_state ^= pick_state << 13;
  pick_state ^= pick_state >> 7;
  pick_state ^= pick_state << 17;
  return (uint32_t)(pick_state % n);
}

/* Every document a game shows along the way: each seat's view and legal
 * list, the spectator's and the omniscient view, the result. */
static void expect_same_for_position(const struct engine_game *g, int seats)
{
  json_t *doc;
  int seat;

  for (seat = -1; seat < seats; seat++) {
    doc = engine_view(g, seat < 0 ? ENGINE_SPECTATOR : seat);
    expect_same_text(doc);
    json_decref(doc);
    if (seat >= 0 && engine_may_act(g, seat)) {
      doc = engine_legal_moves(g, seat);
      expect_same_text(doc);
      json_decref(doc);
    }
  }
  doc = engine_view(g, ENGINE_OMNISCIENT);
  expect_same_text(doc);
  json_decref(doc);
  doc = engine_result(g);
  if (doc && (json_is_object(doc) || json_is_array(doc)))
    expect_same_text(doc);
  json_decref(doc);
}

static void test_every_view_and_legal_list_of_random_games(void **state)
{
  const struct engine_module *const *m;
  long positions = 0;

  (void)state;
  for (m = engine_modules(); *m; m++) {
    int game;

    for (game = 0; game < GAMES_PER_TITLE; game++) {
      int seats = (*m)->min_seats + game % ((*m)->max_seats - (*m)->min_seats + 1);
      struct engine_setup setup = {.seats = seats};
      uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)game, 0x7e};
      struct engine_game *g = NULL;
      int moves;

      assert_int_equal(engine_new(*m, &setup, seed, &g, NULL), CAIRN_OK);
      for (moves = 0; moves < MOVE_CAP; moves++) {
        int to_act[ENGINE_MAX_SEATS];
        int n, seat;
        json_t *move, *events = NULL;
        struct engine_game *next = NULL;

        expect_same_for_position(g, seats);
        positions++;
        if (engine_is_over(g))
          break;
        n = (*m)->to_act(g, to_act);
        seat = to_act[pick((uint32_t)n)];
        move = engine_sample_move(g, seat, pick(UINT32_MAX));
        assert_non_null(move);
        assert_int_equal(engine_apply(g, seat, move, &next, &events, NULL), CAIRN_OK);
        expect_same_text(events);
        if (json_is_object(move))
          expect_same_text(move);
        json_decref(events);
        json_decref(move);
        engine_free(g);
        g = next;
      }
      engine_free(g);
    }
  }
  assert_true(positions > 1000);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_type_and_escape_is_written_as_jansson_does),
      cmocka_unit_test(test_only_objects_and_arrays_are_documents),
      cmocka_unit_test(test_sorted_keys_follow_jansson),
      cmocka_unit_test(test_every_view_and_legal_list_of_random_games),
  };

  return order_run_group_tests_name("core/json_text", tests, NULL, NULL);
}
