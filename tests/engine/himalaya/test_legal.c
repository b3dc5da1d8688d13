/*
 * test_legal.c - the list of legal moves (engine/himalaya/legal.c): only
 * the seat to act has moves, each die value appears once, and the list
 * agrees with apply_move in both directions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

/* The Game: "The next player chooses another die" - only the player whose
 * turn it is may move; everyone else has an empty list. */
static void test_only_the_seat_to_act_has_legal_moves(void **state)
{
  struct engine_game *game = hs_new(4, 81);
  int seat;

  for (seat = 0; seat < 4; seat++) {
    json_t *list = engine_legal_moves(game, seat);

    if (seat == 0)
      assert_true(json_array_size(list) > 0);
    else
      assert_int_equal(json_array_size(list), 0);
    json_decref(list);
  }
  engine_free(game);
}

/* Dice showing the same number are the same choice: listed once. */
static void test_legal_moves_list_each_die_value_once(void **state)
{
  static const int pool[] = {3, 3, 3, 5};
  struct engine_game *game = hs_new(2, 82);
  json_t *list;
  json_t *item;
  size_t i, j;

  hs_pool(game, pool, 4);
  list = engine_legal_moves(game, 0);
  json_array_foreach(list, i, item)
  {
    const char *type = json_string_value(json_object_get(item, "type"));

    if (strcmp(type, "die") == 0) {
      int v = kit_int(item, "value");

      assert_true(v == 3 || v == 5);
    }
    for (j = i + 1; j < json_array_size(list); j++)
      assert_false(json_equal(item, json_array_get(list, j)));
  }
  json_decref(list);
  engine_free(game);
}

/* Every candidate move is accepted exactly when it is listed. */
static void check_agreement(struct engine_game *game, const json_t *candidates)
{
  int seat = hs_state(game)->current;
  json_t *list = engine_legal_moves(game, seat);
  const json_t *move;
  size_t i;
  size_t listed = 0;

  json_array_foreach(candidates, i, move)
  {
    int accepted = kit_accepts(game, seat, move);
    int in_list = hs_listed(list, move);

    if (accepted != in_list) {
      char *text = json_dumps(move, JSON_SORT_KEYS);

      fail_msg("%s is %s but %s", text, accepted ? "accepted" : "refused",
               in_list ? "listed" : "not listed");
    }
    listed += (size_t)in_list;
  }
  /* And nothing listed lies outside the candidate space. */
  assert_int_equal(listed, json_array_size(list));
  assert_true(listed > 0);
  json_decref(list);
}

/* engine.h legal_moves: "Each element is a complete move object that
 * apply_move accepts" - and we add the converse, checked over the whole
 * move space in positions reached by play. */
static void test_legal_moves_agree_with_apply_move(void **state)
{
  json_t *candidates = hs_candidates();
  int seats;

  for (seats = 2; seats <= 5; seats++) {
    struct engine_game *game = hs_new(seats, 83 + seats);
    int step;

    for (step = 0; step < 40 && !engine_is_over(game); step++) {
      json_t *list;
      char *text;

      check_agreement(game, candidates);
      list = engine_legal_moves(game, hs_state(game)->current);
      /* Take the last listed move: it favours supply cards and Sherpa
       * moves with companions, which reach the rarer positions. */
      text = json_dumps(json_array_get(list, json_array_size(list) - 1), 0);
      json_decref(kit_apply(&game, hs_state(game)->current, text));
      free(text);
      json_decref(list);
    }
    engine_free(game);
  }
  json_decref(candidates);
}

/* A crowded position: take-along with companions, a Yeti in the way,
 * snowfields and spent cards, all checked against apply_move. */
static void test_legal_moves_agree_in_a_crowded_position(void **state)
{
  static const int pool[] = {1, 2, 4, 4, 6};
  json_t *candidates = hs_candidates();
  struct engine_game *game = hs_new(2, 84);
  struct himalaya_state *st = hs_state(game);

  hs_clear(game);
  hs_pool(game, pool, 5);
  hs_sherpas(game, 0, 5, 9, 9, 22);
  hs_sherpas(game, 1, 9, 6, 14, 0);
  st->seat[0].climber = 5;
  st->seat[1].climber = 14;
  st->yeti = 11;
  st->seat[0].spent[st->seat[0].spent_count++] = 0;
  check_agreement(game, candidates);
  assert_true(hs_is_legal(game, 0,
                          "{\"type\":\"die\",\"value\":4,\"pawn\":\"sherpa\",\"sherpa\":0,"
                          "\"take_along\":true,\"companions\":[1,2]}"));
  json_decref(candidates);
  engine_free(game);
}

/* The tree engine/choices.c would build from the moves written in choice
 * order: the reference the title's own tree builder must equal. */
static char *tree_by_the_shared_builder(const struct engine_game *game, int seat)
{
  json_t *legal = engine_legal_moves(game, seat), *move;
  struct json_writer list, tree;
  struct himalaya_move m;
  struct cairn_error err = {0};
  size_t i, len;
  char *text, *out;

  jw_init(&list);
  jw_array_begin(&list);
  json_array_foreach(legal, i, move)
  {
    assert_int_equal(himalaya_move_parse(move, &m, &err), CAIRN_OK);
    himalaya_move_write_choices(&m, &list);
  }
  jw_array_end(&list);
  json_decref(legal);
  text = jw_finish(&list, &len);
  assert_non_null(text);
  jw_init(&tree);
  engine_choices_from_list(text, len, &tree);
  free(text);
  out = jw_finish(&tree, &len);
  assert_non_null(out);
  return out;
}

/* Issue 22: the title builds its tree from its moves, sorted by their
 * members' ranks, not from their text; it must be the shared builder's
 * tree byte for byte (the same order of options, the same "done"s) in
 * every position a game reaches, for every seat. */
static void test_choices_equal_the_shared_builders_tree(void **state)
{
  int seats, trees = 0;

  for (seats = 2; seats <= 5; seats++) {
    struct engine_game *game = hs_new(seats, 90 + seats);
    int step;

    for (step = 0; step < 60 && !engine_is_over(game); step++) {
      int seat, acting = hs_state(game)->current;
      json_t *list;
      char *text;

      for (seat = 0; seat < seats; seat++) {
        struct json_writer w;
        size_t len;
        char *mine, *shared = tree_by_the_shared_builder(game, seat);

        jw_init(&w);
        engine_write_choices(game, seat, &w);
        mine = jw_finish(&w, &len);
        assert_non_null(mine);
        assert_string_equal(mine, shared);
        trees += strcmp(mine, "null") != 0;
        free(mine);
        free(shared);
      }
      /* Alternate the first and the last listed move: one keeps dice in
       * play, the other reaches supply cards and companions. */
      list = engine_legal_moves(game, acting);
      text = json_dumps(json_array_get(list, step % 2 ? json_array_size(list) - 1 : 0), 0);
      json_decref(kit_apply(&game, acting, text));
      free(text);
      json_decref(list);
    }
    engine_free(game);
  }
  assert_true(trees > 100);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_only_the_seat_to_act_has_legal_moves),
      cmocka_unit_test(test_legal_moves_list_each_die_value_once),
      cmocka_unit_test(test_legal_moves_agree_with_apply_move),
      cmocka_unit_test(test_legal_moves_agree_in_a_crowded_position),
      cmocka_unit_test(test_choices_equal_the_shared_builders_tree),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
