/*
 * test_draw.c - VIII. Discard/Draw Phase (up to three discards, refill to
 * five, reshuffle the discard pile) and the simultaneous phases of a
 * two-player game (api.md "Simultaneous and hidden decisions").
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

static int hand_card(struct engine_game *g, int seat, int nth)
{
  int cards[BIT_CARDS];
  int n = bit_pile(bt_state(g), BIT_Z_HAND, seat, cards);
  assert_true(nth < n);
  return cards[nth];
}

static json_t *discard(struct engine_game **g, int seat, int card)
{
  char buf[64];
  snprintf(buf, sizeof buf, "{\"type\":\"discard\",\"card\":%d}", card);
  return kit_apply(g, seat, buf);
}

/* VIII.A "Each player may discard up to three cards." */
static void test_VIII_A_at_most_three_discards(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  char buf[64];
  int i;

  (void)state;
  assert_int_equal(bt_state(g)->phase, BIT_P_DISCARD);
  for (i = 0; i < 3; i++)
    json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  snprintf(buf, sizeof buf, "{\"type\":\"discard\",\"card\":%d}", hand_card(g, 0, 0));
  kit_reject(g, 0, buf, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_DRAW);
  assert_false(bt_is_legal(g, 0, buf));
  engine_free(g);
}

/* VIII.B "draw ... to a maximum of five in hand"; VIII.C an empty active
 * pile takes the shuffled discard pile. */
static void test_VIII_B_C_draw_to_five_reshuffling_the_discard_pile(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  json_t *ev;
  int c;

  (void)state;
  /* move the whole active pile to the discard pile */
  for (c = 0; c < BIT_CARDS; c++)
    if (bt_state(g)->loc[c].zone == BIT_Z_DECK)
      bit_put(bt_state(g), c, BIT_Z_DISCARD, 0);
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  ev = kit_apply(&g, 0, "{\"type\":\"draw\"}");
  assert_int_equal(bit_pile_count(bt_state(g), BIT_Z_HAND, 0), 5);
  assert_int_equal(
      json_integer_value(json_object_get(kit_event(ev, "drew-count", 0), "reshuffled")), 1);
  assert_int_equal(bit_pile_count(bt_state(g), BIT_Z_DISCARD, 0), 0);
  /* VIII.B: the drawn cards are private to the drawer */
  assert_non_null(json_object_get(kit_event(ev, "drew", 0), "private_to"));
  assert_int_equal(bt_state(g)->phase, BIT_P_ABC);
  json_decref(ev);
  engine_free(g);
}

/* VI "can be performed simultaneously by both players": in 1963 each seat
 * discards and draws on its own; seq waits (pending) until both are done. */
static void test_VI_simultaneous_discard_phase_accepts_each_seat(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  json_t *ev;
  int seats[ENGINE_MAX_SEATS];
  uint32_t seq = g->seq;

  (void)state;
  assert_int_equal(bit_module.to_act(g, seats), 2);
  ev = discard(&g, 1, hand_card(g, 1, 0));
  json_decref(ev);
  assert_int_equal(g->seq, seq); /* pending */
  ev = kit_apply(&g, 1, "{\"type\":\"draw\"}");
  json_decref(ev);
  assert_int_equal(g->seq, seq);
  assert_int_equal(bit_module.to_act(g, seats), 1);
  assert_int_equal(seats[0], 0);
  ev = kit_apply(&g, 0, "{\"type\":\"draw\"}");
  json_decref(ev);
  assert_int_equal(g->seq, seq + 1);
  assert_int_equal(bt_state(g)->phase, BIT_P_ABC);
  assert_int_equal(bit_module.to_act(g, seats), 2);
  engine_free(g);
}

/* VIII.B "Each player may draw cards from that player's active pile to a
 * maximum of five in hand": how many is the player's choice. legal lists
 * every count from the most down to none, and nothing above five in hand. */
static void test_VIII_B_legal_lists_every_draw_count_up_to_five(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  char buf[64];
  int i;

  (void)state;
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  for (i = 0; i <= 2; i++) {
    snprintf(buf, sizeof buf, "{\"type\":\"draw\",\"count\":%d}", i);
    assert_true(bt_is_legal(g, 0, buf));
  }
  assert_false(bt_is_legal(g, 0, "{\"type\":\"draw\",\"count\":3}"));
  engine_free(g);
}

/* VIII.B: drawing fewer than five, or none, is allowed; more than five in
 * hand is refused with the reason. */
static void test_VIII_B_draw_fewer_or_none(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  struct engine_game *h;
  struct cairn_error e;
  json_t *ev;

  (void)state;
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  e = kit_reject(g, 0, "{\"type\":\"draw\",\"count\":4}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                 BIT_RULE_DRAW);
  assert_non_null(strstr(e.detail, "five"));
  h = engine_clone(g);
  ev = kit_apply(&g, 0, "{\"type\":\"draw\",\"count\":1}");
  assert_int_equal(bit_pile_count(bt_state(g), BIT_Z_HAND, 0), 3);
  assert_int_equal(json_array_size(json_object_get(kit_event(ev, "drew", 0), "cards")), 1);
  assert_int_equal(kit_int(kit_event(ev, "drew-count", 0), "count"), 1);
  assert_int_equal(bt_state(g)->phase, BIT_P_ABC);
  json_decref(ev);
  ev = kit_apply(&h, 0, "{\"type\":\"draw\",\"count\":0}");
  assert_int_equal(bit_pile_count(bt_state(h), BIT_Z_HAND, 0), 2);
  assert_int_equal(kit_int(kit_event(ev, "drew-count", 0), "count"), 0);
  json_decref(ev);
  engine_free(h);
  engine_free(g);
}

/* Events carry names: the drawer reads the names of the cards drawn. */
static void test_VIII_B_drew_names_the_cards(void **state)
{
  struct engine_game *g = bt_new("1953", 1);
  json_t *ev, *drew;

  (void)state;
  json_decref(discard(&g, 0, hand_card(g, 0, 0)));
  ev = kit_apply(&g, 0, "{\"type\":\"draw\"}");
  drew = kit_event(ev, "drew", 0);
  assert_int_equal(json_array_size(json_object_get(drew, "card_names")), 1);
  assert_string_equal(
      json_string_value(json_array_get(json_object_get(drew, "card_names"), 0)),
      bit_cards[json_integer_value(json_array_get(json_object_get(drew, "cards"), 0))].name);
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_VIII_A_at_most_three_discards),
      cmocka_unit_test(test_VIII_B_C_draw_to_five_reshuffling_the_discard_pile),
      cmocka_unit_test(test_VI_simultaneous_discard_phase_accepts_each_seat),
      cmocka_unit_test(test_VIII_B_legal_lists_every_draw_count_up_to_five),
      cmocka_unit_test(test_VIII_B_draw_fewer_or_none),
      cmocka_unit_test(test_VIII_B_drew_names_the_cards),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
