/*
 * test_yeti.c - Moving the Yeti (engine/himalaya/yeti.c): the Yeti deck, the
 * Yeti's moves, and Sherpas escaping to the last camp.
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

static struct engine_game *board(void)
{
  struct engine_game *game = hs_new(2, 41);

  hs_clear(game);
  return game;
}

/* Throw the last die again (The Game, exception 1) so the current seat
 * uncovers `card` with the Yeti on `yeti`. New reference: the events. */
static json_t *uncover(struct engine_game **game, int card, int yeti)
{
  static const int last[] = {6};

  hs_pool(*game, last, 1);
  hs_deck(*game, &card, 1);
  hs_state(*game)->yeti = yeti;
  return kit_apply(game, hs_state(*game)->current, "{\"type\":\"reroll\"}");
}

static const char *card_of(json_t *events)
{
  return json_string_value(json_object_get(kit_event(events, "yeti_card", 0), "card"));
}

#define SEAT(who) hs_state(game)->seat[who]

/* himalaya, Moving the Yeti: "The Yeti moves the corresponding number of
 * spaces in the direction stated on the card." */
static void test_yeti_moves_up_or_down_by_its_card(void **state)
{
  struct engine_game *game = board();
  json_t *events;

  events = uncover(&game, 3, 10);
  assert_string_equal(card_of(events), "up 3");
  assert_int_equal(hs_state(game)->yeti, 13);
  json_decref(events);
  events = uncover(&game, -4, 10);
  assert_string_equal(card_of(events), "down 4");
  assert_int_equal(hs_state(game)->yeti, 6);
  assert_int_equal(kit_int(kit_event(events, "yeti_moved", 0), "from"), 10);
  assert_int_equal(kit_int(kit_event(events, "yeti_moved", 0), "to"), 6);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Moving the Yeti: the Yeti stays on the climbing route, between
 * field 1 and field 39; a card that would take it further stops it at the
 * end (RULES.md "The Yeti at the ends of the path"). */
static void test_yeti_stays_between_base_camp_and_summit(void **state)
{
  struct engine_game *game = board();

  json_decref(uncover(&game, 5, 37));
  assert_int_equal(hs_state(game)->yeti, 39);
  json_decref(uncover(&game, -4, 3));
  assert_int_equal(hs_state(game)->yeti, 1);
  json_decref(uncover(&game, -1, 1));
  assert_int_equal(hs_state(game)->yeti, 1);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "For the Yeti, special spaces have no
 * meaning." It stays on avalanche 24 and may re-enter its cave. */
static void test_special_spaces_mean_nothing_to_the_yeti(void **state)
{
  struct engine_game *game = board();

  json_decref(uncover(&game, 4, 20));
  assert_int_equal(hs_state(game)->yeti, 24);
  json_decref(uncover(&game, -3, 24));
  assert_int_equal(hs_state(game)->yeti, 21);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "Always, if the Yeti lands on a space where
 * Sherpas stand, the Sherpas immediately must go back to the last camp" -
 * every colour; from 20 that is high camp 15. */
static void test_yeti_sends_sherpas_back_to_the_last_camp(void **state)
{
  struct engine_game *game = board();
  json_t *events, *fled;

  hs_sherpas(game, 0, 20, 20, 3, 0);
  hs_sherpas(game, 1, 20, 0, 0, 0);
  events = uncover(&game, 3, 17);
  assert_int_equal(SEAT(0).sherpa[0], 15);
  assert_int_equal(SEAT(0).sherpa[1], 15);
  assert_int_equal(SEAT(0).sherpa[2], 3);
  assert_int_equal(SEAT(1).sherpa[0], 15);
  assert_int_equal(kit_count(events, "sherpas_fled"), 3);
  fled = kit_event(events, "sherpas_fled", 2);
  assert_int_equal(kit_int(fled, "seat"), 1);
  assert_int_equal(kit_int(fled, "from"), 20);
  assert_int_equal(kit_int(fled, "to"), 15);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "... go back to the last camp, even to the base
 * camp." */
static void test_yeti_sends_sherpas_even_to_base_camp(void **state)
{
  struct engine_game *game = board();

  hs_sherpas(game, 0, 8, 0, 0, 0);
  json_decref(uncover(&game, 3, 5));
  assert_int_equal(SEAT(0).sherpa[0], 0);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "If the Yeti catches Sherpas in a camp, they
 * are protected there. They may remain standing there." */
static void test_sherpas_in_a_camp_are_safe_from_the_yeti(void **state)
{
  struct engine_game *game = board();
  json_t *events;

  hs_sherpas(game, 0, 15, 15, 0, 0);
  hs_sherpas(game, 1, 15, 0, 0, 0);
  events = uncover(&game, 3, 12);
  assert_int_equal(hs_state(game)->yeti, 15);
  assert_int_equal(hs_own(game, 0, 15), 2);
  assert_int_equal(hs_own(game, 1, 15), 1);
  assert_int_equal(kit_count(events, "sherpas_fled"), 0);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "If the Yeti moves onto a space with a mountain
 * climber, all the climber's own Sherpas that stand with the mountain
 * climber on that space, are also protected. Other players' Sherpa are not
 * protected. They escape to the next camp back." */
static void test_own_climber_protects_only_its_own_sherpas(void **state)
{
  struct engine_game *game = board();

  SEAT(0).climber = 20;
  hs_sherpas(game, 0, 20, 20, 0, 0);
  hs_sherpas(game, 1, 20, 0, 0, 0);
  json_decref(uncover(&game, 2, 18));
  assert_int_equal(hs_own(game, 0, 20), 2);
  assert_int_equal(SEAT(1).sherpa[0], 15);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "Special case: If the mountain climber moves
 * during a later turn and leaves his/her own Sherpas behind, so that they
 * now stand alone with the Yeti, they immediately escape back to the last
 * camp!" */
static void test_sherpas_left_behind_with_the_yeti_escape(void **state)
{
  static const int pool[] = {2, 5};
  struct engine_game *game = board();
  json_t *events;

  SEAT(0).climber = 20;
  hs_sherpas(game, 0, 20, 20, 22, 22);
  hs_state(game)->yeti = 20;
  hs_pool(game, pool, 2);
  events = kit_apply(&game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"climber\"}");
  assert_int_equal(SEAT(0).climber, 22);
  assert_int_equal(SEAT(0).sherpa[0], 15);
  assert_int_equal(SEAT(0).sherpa[1], 15);
  assert_int_equal(kit_count(events, "sherpas_fled"), 2);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Moving the Yeti: "they now stand alone with the Yeti" - in a
 * camp they are protected anyway, so leaving them there is safe. */
static void test_sherpas_left_behind_in_a_camp_stay(void **state)
{
  static const int pool[] = {2, 5};
  struct engine_game *game = board();

  SEAT(0).climber = 15;
  hs_sherpas(game, 0, 15, 15, 17, 17);
  hs_state(game)->yeti = 15;
  hs_pool(game, pool, 2);
  json_decref(kit_apply(&game, 0, "{\"type\":\"die\",\"value\":2,\"pawn\":\"climber\"}"));
  assert_int_equal(hs_own(game, 0, 15), 2);
  engine_free(game);
}

/* himalaya, Special Spaces: "If two or more Sherpas of a player meet in a
 * high camp" - also when the Yeti chased them there (RULES.md). Nothing
 * comes back by itself: the player picks up a used card on its own next
 * move. */
static void test_sherpas_fleeing_into_a_high_camp_may_freshen_supplies(void **state)
{
  static const int two[] = {1, 1};
  struct engine_game *game = board();
  json_t *events;

  SEAT(1).spent[SEAT(1).spent_count++] = 1;
  hs_sherpas(game, 1, 15, 20, 0, 0);
  events = uncover(&game, 2, 18);
  assert_int_equal(hs_own(game, 1, 15), 2);
  assert_int_equal(kit_count(events, "supply_restored"), 0);
  assert_string_equal(
      json_string_value(json_object_get(kit_event(events, "sherpas_fled", 0), "to_name")),
      "High Camp I");
  assert_int_equal(SEAT(1).spent_count, 1);
  json_decref(events);
  /* Seat 1's own next turn (the re-throw left seat 0 to choose). */
  hs_pool(game, two, 2);
  hs_state(game)->current = 1;
  events = kit_apply(
      &game, 1,
      "{\"type\":\"die\",\"value\":1,\"pawn\":\"sherpa\",\"sherpa\":3,\"restore\":\"3/4\"}");
  assert_int_equal(kit_int(kit_event(events, "supply_restored", 0), "camp"), 15);
  assert_int_equal(SEAT(1).spent_count, 0);
  json_decref(events);
  engine_free(game);
}

/* himalaya, Preparations and Moving the Yeti: the nine cards of the first
 * stack come up without Bad Weather, which lies "face up under this stack";
 * each card "is placed face up under the stack afterwards". "If all Yeti
 * cards are depleted, they are shuffled again. Now the bad weather card is
 * shuffled in with them." */
static void test_yeti_deck_reshuffled_with_bad_weather_after_nine_cards(void **state)
{
  static const int last[] = {6};
  struct engine_game *game = hs_new(3, 5);
  struct himalaya_state *st;
  json_t *events;
  int i, seen = 0;

  hs_clear(game);
  for (i = 0; i < 9; i++) {
    hs_pool(game, last, 1);
    events = kit_apply(&game, hs_state(game)->current, "{\"type\":\"reroll\"}");
    assert_int_equal(kit_count(events, "deck_reshuffled"), 0);
    assert_string_not_equal(card_of(events), "bad weather");
    json_decref(events);
  }
  st = hs_state(game);
  assert_int_equal(st->deck_len, 0);
  assert_int_equal(st->discard_len, 9);
  assert_false(st->bad_weather_in_deck);
  assert_false(engine_is_over(game));

  hs_pool(game, last, 1);
  events = kit_apply(&game, hs_state(game)->current, "{\"type\":\"reroll\"}");
  st = hs_state(game);
  assert_int_equal(kit_count(events, "deck_reshuffled"), 1);
  assert_int_equal(kit_int(kit_event(events, "deck_reshuffled", 0), "cards"), 10);
  assert_int_equal(st->discard_len, 1);
  assert_true(st->bad_weather_in_deck || engine_is_over(game));
  /* Bad Weather is now among the ten: drawn just now, or still waiting. */
  for (i = 0; i < st->deck_len; i++)
    seen += st->deck[i] == HIMALAYA_BAD_WEATHER;
  for (i = 0; i < st->discard_len; i++)
    seen += st->discard[i] == HIMALAYA_BAD_WEATHER;
  assert_int_equal(seen, 1);
  assert_int_equal(st->deck_len + st->discard_len, 10);
  json_decref(events);
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yeti_moves_up_or_down_by_its_card),
      cmocka_unit_test(test_yeti_stays_between_base_camp_and_summit),
      cmocka_unit_test(test_special_spaces_mean_nothing_to_the_yeti),
      cmocka_unit_test(test_yeti_sends_sherpas_back_to_the_last_camp),
      cmocka_unit_test(test_yeti_sends_sherpas_even_to_base_camp),
      cmocka_unit_test(test_sherpas_in_a_camp_are_safe_from_the_yeti),
      cmocka_unit_test(test_own_climber_protects_only_its_own_sherpas),
      cmocka_unit_test(test_sherpas_left_behind_with_the_yeti_escape),
      cmocka_unit_test(test_sherpas_left_behind_in_a_camp_stay),
      cmocka_unit_test(test_sherpas_fleeing_into_a_high_camp_may_freshen_supplies),
      cmocka_unit_test(test_yeti_deck_reshuffled_with_bad_weather_after_nine_cards),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
