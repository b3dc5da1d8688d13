/*
 * test_replay.c - Everest's stored moves read without a tree
 * (engine/everest/replay.c, the replay_text slot): whatever the text, a
 * replay step on it does exactly what a replay step on its parsed tree
 * does: the same status and code, and on success the same state. Texts
 * the slot reads itself (the moves as stored, and other spellings of
 * them) and texts it gives up to the tree (malformed, refused, unusual)
 * alike, in every phase that takes a move. test_titles' fifth property
 * plays whole random games both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* engine_replay_text on `text` does to a copy of `game` what
 * engine_replay_step does to another copy with the text parsed. */
static void assert_text_as_tree(const struct engine_game *game, int seat, const char *text)
{
  struct engine_game *by_text = engine_clone(game), *by_tree = engine_clone(game);
  struct cairn_error text_err = {0}, tree_err = {0};
  json_t *tree = json_loads(text, 0, NULL);
  enum cairn_status text_st, tree_st;

  assert_non_null(tree);
  text_st = engine_replay_text(by_text, seat, text, strlen(text), &text_err);
  tree_st = engine_replay_step(by_tree, seat, tree, &tree_err);
  if (text_st != tree_st)
    fail_msg("%s: %d as text, %d as a tree (%s)", text, text_st, tree_st, tree_err.detail);
  if (tree_st != CAIRN_OK) {
    assert_string_equal(text_err.code, tree_err.code);
    assert_string_equal(text_err.detail, tree_err.detail);
  } else {
    char *a = kit_text(by_text), *b = kit_text(by_tree);

    if (strcmp(a, b) != 0)
      fail_msg("%s: another state as text than as a tree", text);
    free(a);
    free(b);
  }
  json_decref(tree);
  engine_free(by_text);
  engine_free(by_tree);
}

static void assert_texts_as_trees(const struct engine_game *game, int seat,
                                  const char *const *texts, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    assert_text_as_tree(game, seat, texts[i]);
}

/* A 4-seat game played at random until it is in `phase`; the seat to act
 * in *seat. */
static struct engine_game *game_in_phase(int phase, int *seat)
{
  int seed;

  for (seed = 1; seed < 200; seed++) {
    struct engine_game *game = es_new(4, seed, 0);
    uint64_t choice = (uint64_t)seed;
    int moves;

    for (moves = 0; moves < 3000 && !engine_is_over(game); moves++) {
      int to_act[ENGINE_MAX_SEATS];
      json_t *move;

      engine_to_act(game, to_act);
      if (es_state(game)->phase == phase) {
        *seat = to_act[0];
        return game;
      }
      choice = choice * 6364136223846793005ull + 1442695040888963407ull;
      move = engine_sample_move(game, to_act[0], choice >> 11);
      assert_non_null(move);
      assert_int_equal(engine_replay_step(game, to_act[0], move, NULL), CAIRN_OK);
      json_decref(move);
    }
    engine_free(game);
  }
  fail_msg("no game reached phase %d", phase);
  return NULL;
}

/* Setup: "Players place their pawns on one of the inside corners". */
static void test_base_moves_read_as_their_trees(void **state)
{
  static const char *const texts[] = {
      "{\"base\":[1,0],\"type\":\"base\"}",
      "{\"type\":\"base\",\"base\":[4,7]}",
      " { \"base\" : [ 1 , 7 ] ,\n\"type\" : \"base\" } ",
      "{\"base\":[1,0],\"base\":[4,0],\"type\":\"base\"}",
      "{\"base\":[1,0],\"type\":\"ba\\u0073e\"}",
      "{\"base\":[0,0],\"type\":\"base\"}",
      "{\"base\":[9,0],\"type\":\"base\"}",
      "{\"base\":[-1,0],\"type\":\"base\"}",
      "{\"base\":[1],\"type\":\"base\"}",
      "{\"base\":[1,0,0],\"type\":\"base\"}",
      "{\"base\":[1.0,0],\"type\":\"base\"}",
      "{\"base\":\"1,0\",\"type\":\"base\"}",
      "{\"base\":[1,0],\"type\":\"plan\"}",
      "{\"base\":[1,0],\"type\":\"bases\"}",
      "{\"base\":[1,0]}",
      "{\"base\":[1,0],\"type\":\"base\",\"x\":1}",
      "{\"type\":\"base\"}",
      "{}",
  };
  struct engine_game *game = es_new_unplaced(4, 3);

  (void)state;
  assert_texts_as_trees(game, everest_base_chooser(es_state(game)), texts,
                        sizeof(texts) / sizeof(texts[0]));
  engine_free(game);
}

/* "Making a Plan for your Yeti": three distinct available coins. */
static void test_plan_moves_read_as_their_trees(void **state)
{
  static const char *const texts[] = {
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"type\":\"plan\",\"plan\":[{\"face\":\"suit\",\"coin\":5,\"dir\":\"E\"},{\"dir\":\"S\","
      "\"coin\":2,\"face\":\"value\"},{\"coin\":4,\"face\":\"suit\",\"dir\":\"W\"}]}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"},{\"coin\":2,\"dir\":"
      "\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":3,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":6,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"NE\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"w\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"both\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\"},{\"coin\":0,\"dir\":\"N\",\"face\":\"value\"},"
      "{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\",\"x\":0},{\"coin\":0,\"dir\":"
      "\"N\",\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":\"3\",\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":3,\"coin\":2,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":"
      "\"N\",\"face\":\"value\"},{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"plan\":[3,0,1],\"type\":\"plan\"}",
      "{\"plan\":[],\"type\":\"plan\"}",
      "{\"plan\":{},\"type\":\"plan\"}",
      "{\"plan\":[],\"type\":\"heal\"}",
      "{\"heal\":true,\"type\":\"heal\"}",
  };
  struct engine_game *game = es_new(4, 5, 0);

  (void)state;
  assert_texts_as_trees(game, 2, texts, sizeof(texts) / sizeof(texts[0]));
  engine_free(game);
}

/* "Damage": heal, or set aside one coin per damage. */
static void test_heal_moves_read_as_their_trees(void **state)
{
  static const char *const texts[] = {
      "{\"heal\":true,\"type\":\"heal\"}",
      "{\"heal\":false,\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[0],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[4,1],\"type\":\"heal\"}",
      "{\"set_aside\":[2,0,5],\"heal\":false,\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[0,0],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[7],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[0,1,2,3,4,5,0],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":null,\"type\":\"heal\"}",
      "{\"heal\":true,\"set_aside\":[2],\"type\":\"heal\"}",
      "{\"heal\":1,\"type\":\"heal\"}",
      "{\"set_aside\":[1],\"type\":\"heal\"}",
      "{\"heal\":true,\"type\":\"heal\",\"plan\":[]}",
      "{\"heal\":true,\"type\":\"order\"}",
  };
  int seat;
  struct engine_game *game = game_in_phase(EVEREST_PHASE_HEAL, &seat);

  (void)state;
  assert_texts_as_trees(game, seat, texts, sizeof(texts) / sizeof(texts[0]));
  engine_free(game);
}

/* The order move of a conflict: the items' tokens, each once; the valid
 * ones are built from the items the game holds. */
static void test_order_moves_read_as_their_trees(void **state)
{
  static const char *const texts[] = {
      "{\"order\":[],\"type\":\"order\"}",
      "{\"order\":[0,0],\"type\":\"order\"}",
      "{\"order\":[9,8],\"type\":\"order\"}",
      "{\"order\":[\"snowball\",0],\"type\":\"order\"}",
      "{\"order\":[true,0],\"type\":\"order\"}",
      "{\"order\":[1.0,0],\"type\":\"order\"}",
      "{\"order\":[0,1,2,3,\"snowballs\"],\"type\":\"order\"}",
      "{\"order\":0,\"type\":\"order\"}",
      "{\"type\":\"order\"}",
  };
  const struct everest_state *st;
  char forward[160] = "{\"order\":[", backward[160] = "{\"type\":\"order\",\"order\":[";
  int seat, i;
  struct engine_game *game = game_in_phase(EVEREST_PHASE_ORDER, &seat);

  (void)state;
  st = es_state(game);
  for (i = 0; i < st->n_items; i++) {
    const struct everest_item *a = &st->items[i], *b = &st->items[st->n_items - 1 - i];

    if (i) {
      strcat(forward, ",");
      strcat(backward, ",");
    }
    if (a->kind == EVEREST_ITEM_SNOWBALLS)
      strcat(forward, "\"snowballs\"");
    else
      snprintf(forward + strlen(forward), 8, "%d", a->seat);
    if (b->kind == EVEREST_ITEM_SNOWBALLS)
      strcat(backward, " \"snowballs\" ");
    else
      snprintf(backward + strlen(backward), 8, " %d ", b->seat);
  }
  strcat(forward, "],\"type\":\"order\"}");
  strcat(backward, "]}");
  assert_text_as_tree(game, seat, forward);
  assert_text_as_tree(game, seat, backward);
  assert_texts_as_trees(game, seat, texts, sizeof(texts) / sizeof(texts[0]));
  engine_free(game);
}

/* ---- Stored texts, and every text one edit away ----
 * replay.c matches a plan or a heal spelled as Cairn stores it byte by
 * byte and leaves every other text to its cursor: each edit of a stored
 * text (a byte deleted, or replaced by one that matters to a reader) must
 * still read as its tree, and a text that is no JSON at all be refused. */

static void assert_edit_as_tree(const struct engine_game *game, int seat, const char *text)
{
  json_t *tree = json_loads(text, 0, NULL);
  struct engine_game *copy;

  if (tree) {
    json_decref(tree);
    assert_text_as_tree(game, seat, text);
    return;
  }
  copy = engine_clone(game);
  if (engine_replay_text(copy, seat, text, strlen(text), NULL) == CAIRN_OK)
    fail_msg("%s: no JSON, yet replayed", text);
  engine_free(copy);
}

static void assert_edits_as_trees(const struct engine_game *game, int seat, const char *text)
{
  static const char swaps[] = "\"\\,:{}[] 0123456789-.eaNESWnstuvx";
  size_t len = strlen(text), at;
  char edit[256];

  assert_true(len < sizeof(edit));
  assert_text_as_tree(game, seat, text);
  for (at = 0; at < len; at++) {
    const char *swap;

    memcpy(edit, text, at); /* the byte at `at` deleted */
    memcpy(edit + at, text + at + 1, len - at);
    assert_edit_as_tree(game, seat, edit);
    memcpy(edit, text, len + 1);
    for (swap = swaps; *swap; swap++) {
      if (*swap == text[at])
        continue;
      edit[at] = *swap;
      assert_edit_as_tree(game, seat, edit);
    }
  }
}

static void test_stored_plans_and_every_edit_read_as_their_trees(void **state)
{
  static const char *const texts[] = {
      "{\"plan\":[{\"coin\":5,\"dir\":\"S\",\"face\":\"value\"},{\"coin\":3,\"dir\":\"E\","
      "\"face\":\"suit\"},{\"coin\":0,\"dir\":\"W\",\"face\":\"value\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":1,\"dir\":\"N\",\"face\":\"suit\"},{\"coin\":2,\"dir\":\"W\","
      "\"face\":\"value\"}],\"type\":\"plan\"}",
      "{\"plan\":[{\"coin\":4,\"dir\":\"E\",\"face\":\"value\"}],\"type\":\"plan\"}",
  };
  struct engine_game *game = es_new(4, 5, 0);
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
    assert_edits_as_trees(game, 2, texts[i]);
  engine_free(game);
}

static void test_stored_heals_and_every_edit_read_as_their_trees(void **state)
{
  static const char *const texts[] = {
      "{\"heal\":true,\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[0],\"type\":\"heal\"}",
      "{\"heal\":false,\"set_aside\":[1,4],\"type\":\"heal\"}",
      "{\"heal\":false,\"type\":\"heal\"}",
  };
  int seat;
  struct engine_game *game = game_in_phase(EVEREST_PHASE_HEAL, &seat);
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
    assert_edits_as_trees(game, seat, texts[i]);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_base_moves_read_as_their_trees),
      cmocka_unit_test(test_plan_moves_read_as_their_trees),
      cmocka_unit_test(test_heal_moves_read_as_their_trees),
      cmocka_unit_test(test_order_moves_read_as_their_trees),
      cmocka_unit_test(test_stored_plans_and_every_edit_read_as_their_trees),
      cmocka_unit_test(test_stored_heals_and_every_edit_read_as_their_trees),
  };

  return order_run_group_tests_name("everest/replay", tests, NULL, NULL);
}
