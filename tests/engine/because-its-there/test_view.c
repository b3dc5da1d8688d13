/*
 * test_view.c - hidden information: hands, deck order and the Event deck
 * are never in any view of another seat or a spectator, and the solo
 * player does not see the order of its own active pile. Checked
 * concretely: changing only what a viewer may not know leaves its view
 * byte-identical.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support.h"

static char *view_text(const struct engine_game *g, int viewer)
{
  json_t *v = bit_module.view(g, viewer);
  char *text = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(v);
  assert_non_null(text);
  return text;
}

static void assert_same_view(const struct engine_game *a, const struct engine_game *b, int viewer)
{
  char *x = view_text(a, viewer), *y = view_text(b, viewer);
  assert_string_equal(x, y);
  free(x);
  free(y);
}

static void assert_different_view(const struct engine_game *a, const struct engine_game *b,
                                  int viewer)
{
  char *x = view_text(a, viewer), *y = view_text(b, viewer);
  assert_string_not_equal(x, y);
  free(x);
  free(y);
}

static void swap_loc(struct bit_state *st, int a, int b)
{
  struct bit_loc t = st->loc[a];
  st->loc[a] = st->loc[b];
  st->loc[b] = t;
}

static int first_in(struct bit_state *st, int zone, int seat, int skip)
{
  int cards[BIT_CARDS];
  int n = bit_pile(st, zone, seat, cards);
  assert_true(n > skip);
  return cards[skip];
}

/* Hidden information: another seat's hand. */
static void test_hands_are_hidden_from_other_seats_and_spectators(void **state)
{
  struct engine_game *a = bt_new("1963", 4);
  struct engine_game *b = bit_module.clone_game(a);
  struct bit_state *st = bt_state(b);
  int hand = first_in(st, BIT_Z_HAND, 1, 0), deck = first_in(st, BIT_Z_DECK, 1, 0);

  (void)state;
  b->module = a->module;
  /* exchange a card of seat 1's hand with one of its active pile */
  swap_loc(st, hand, deck);
  st->strength[hand] = st->strength[deck];
  if (bit_cards[hand].kind != bit_cards[deck].kind ||
      bit_cards[hand].strength != bit_cards[deck].strength) {
    assert_same_view(a, b, 0);
    assert_same_view(a, b, ENGINE_SPECTATOR);
    assert_different_view(a, b, 1);
  }
  engine_free(a);
  engine_free(b);
}

/* The order of the active pile, even the solo player's own. */
static void test_deck_order_is_hidden_even_in_solo(void **state)
{
  struct engine_game *a = bt_new("1953", 4);
  struct engine_game *b = bit_module.clone_game(a);
  struct bit_state *st = bt_state(b);
  int x = first_in(st, BIT_Z_DECK, 0, 0), y = first_in(st, BIT_Z_DECK, 0, 1);
  int16_t t = st->loc[x].order;

  (void)state;
  st->loc[x].order = st->loc[y].order;
  st->loc[y].order = t;
  assert_same_view(a, b, 0);
  assert_same_view(a, b, ENGINE_SPECTATOR);
  assert_different_view(a, b, ENGINE_OMNISCIENT);
  engine_free(a);
  engine_free(b);
}

/* The Event deck's order and contents. */
static void test_event_deck_is_hidden(void **state)
{
  struct engine_game *a = bt_new("1963", 4);
  struct engine_game *b = bit_module.clone_game(a);
  struct bit_state *st = bt_state(b);
  int x = first_in(st, BIT_Z_EVENTS, -1, 0), y = first_in(st, BIT_Z_EVENTS, -1, 5);
  int16_t t = st->loc[x].order;

  (void)state;
  st->loc[x].order = st->loc[y].order;
  st->loc[y].order = t;
  assert_same_view(a, b, 0);
  assert_same_view(a, b, 1);
  assert_same_view(a, b, ENGINE_SPECTATOR);
  engine_free(a);
  engine_free(b);
}

/* The viewer's own hand is shown to it. */
static void test_own_hand_is_shown(void **state)
{
  struct engine_game *g = bt_new("1963", 4);
  json_t *v = bit_module.view(g, 0);
  json_t *seats = json_object_get(v, "seats");

  (void)state;
  assert_int_equal(json_array_size(json_object_get(json_array_get(seats, 0), "hand")), 5);
  assert_null(json_object_get(json_array_get(seats, 1), "hand"));
  assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 1), "hand_count")), 5);
  json_decref(v);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hands_are_hidden_from_other_seats_and_spectators),
      cmocka_unit_test(test_deck_order_is_hidden_even_in_solo),
      cmocka_unit_test(test_event_deck_is_hidden),
      cmocka_unit_test(test_own_hand_is_shown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
