/*
 * test_setup.c - Preparations (engine/himalaya/setup.c): the start position,
 * supply cards by player count, the Yeti deck and the first throw.
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

/* himalaya, Preparations: "The mountain climber starts at the base camp. One
 * of the four Sherpas start on each of the four first fields of the
 * climbing route." */
static void test_pieces_start_at_base_camp_and_first_four_fields(void **state)
{
  struct engine_game *game = hs_new(5, 1);
  struct himalaya_state *st = hs_state(game);
  int seat, s;

  for (seat = 0; seat < 5; seat++) {
    assert_int_equal(st->seat[seat].climber, HIMALAYA_BASE_CAMP);
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      assert_int_equal(st->seat[seat].sherpa[s], s + 1);
  }
  engine_free(game);
}

/* himalaya, Preparations: "The Yeti is put on the field with the Yeti cave." */
static void test_yeti_starts_in_its_cave(void **state)
{
  struct engine_game *game = hs_new(2, 1);

  assert_int_equal(hs_state(game)->yeti, HIMALAYA_YETI_CAVE);
  assert_int_equal(HIMALAYA_YETI_CAVE, 21);
  engine_free(game);
}

static int has_cards(struct engine_game *game, int seat, int a, int b, int c)
{
  const bool *has = hs_state(game)->seat[seat].has_card;

  return has[0] == a && has[1] == b && has[2] == c;
}

/* himalaya, Preparations: "Each player gets one or more supply cards in
 * their color" - the table is lost; we deal 1/2, 3/4, 5/6 to two players,
 * 3/4 and 5/6 to three or four, 3/4 alone to five (RULES.md). */
static void test_supply_cards_depend_on_player_count(void **state)
{
  static const int expect[6][3] = {
      [2] = {1, 1, 1}, [3] = {0, 1, 1}, [4] = {0, 1, 1}, [5] = {0, 1, 0}};
  int seats, seat;

  for (seats = 2; seats <= 5; seats++) {
    struct engine_game *game = hs_new(seats, seats);

    for (seat = 0; seat < seats; seat++) {
      assert_true(has_cards(game, seat, expect[seats][0], expect[seats][1], expect[seats][2]));
      assert_int_equal(hs_state(game)->seat[seat].spent_count, 0);
    }
    engine_free(game);
  }
}

/* himalaya, Preparations: "Take the special bad weather card out from the
 * Yeti cards. Shuffle the remaining nine cards and put them face down on
 * the game board. Place the bad weather face up under this stack." */
static void test_yeti_deck_is_nine_cards_with_bad_weather_under_it(void **state)
{
  struct engine_game *game = hs_new(3, 7);
  struct himalaya_state *st = hs_state(game);
  int seen[11] = {0};
  int i;

  assert_int_equal(st->deck_len, 9);
  assert_false(st->bad_weather_in_deck);
  assert_int_equal(st->discard_len, 0);
  for (i = 0; i < st->deck_len; i++) {
    assert_true(st->deck[i] >= -4 && st->deck[i] <= 5 && st->deck[i] != HIMALAYA_BAD_WEATHER);
    seen[st->deck[i] + 5]++;
  }
  /* Up 1..5 and Down 1..4, each once. */
  for (i = -4; i <= 5; i++)
    assert_int_equal(seen[i + 5], i == 0 ? 0 : 1);
  engine_free(game);
}

/* himalaya, Preparations: the stack is shuffled with the game's generator,
 * so some seeds give different orders and one seed always the same. */
static void test_yeti_deck_shuffled_by_seed(void **state)
{
  struct engine_game *a = hs_new(2, 1);
  struct engine_game *b = hs_new(2, 1);
  int differs = 0;
  int seed;

  assert_memory_equal(hs_state(a)->deck, hs_state(b)->deck, sizeof(hs_state(a)->deck));
  for (seed = 2; seed < 10; seed++) {
    struct engine_game *c = hs_new(2, seed);

    differs += memcmp(hs_state(a)->deck, hs_state(c)->deck, sizeof(hs_state(a)->deck)) != 0;
    engine_free(c);
  }
  assert_true(differs > 0);
  engine_free(a);
  engine_free(b);
}

/* himalaya, Preparations: "According to the number of people playing, a
 * certain number of dice are used" - the table is lost; players + 3, which
 * gives the review's 8 dice at five players (RULES.md). */
static void test_dice_count_is_players_plus_three(void **state)
{
  int seats, v, total;

  for (seats = 2; seats <= 5; seats++) {
    struct engine_game *game = hs_new(seats, 3);
    struct himalaya_state *st = hs_state(game);

    assert_int_equal(st->dice, seats + 3);
    for (total = 0, v = 1; v <= 6; v++)
      total += st->pool[v];
    assert_int_equal(total, seats + 3);
    engine_free(game);
  }
}

/* himalaya, The Game: "The start-player throws all dice" - and no Yeti
 * card: the Yeti moves "when all dice are thrown again" (Moving the Yeti). */
static void test_first_throw_draws_no_yeti_card(void **state)
{
  struct engine_game *game = hs_new(4, 9);

  assert_int_equal(hs_state(game)->deck_len, 9);
  assert_int_equal(hs_state(game)->yeti, HIMALAYA_YETI_CAVE);
  engine_free(game);
}

/* himalaya, Preparations: "The youngest player begins" - seat 0. */
static void test_youngest_player_begins(void **state)
{
  struct engine_game *game = hs_new(3, 2);
  int seats[ENGINE_MAX_SEATS];

  assert_int_equal(engine_to_act(game, seats), 1);
  assert_int_equal(seats[0], 0);
  assert_true(engine_may_act(game, 0));
  assert_false(engine_may_act(game, 1));
  engine_free(game);
}

/* The module's declarative data (engine.h). */
static void test_module_describes_himalaya(void **state)
{
  struct cairn_error err = {0};

  assert_ptr_equal(engine_find("himalaya"), &himalaya_module);
  assert_string_equal(himalaya_module.name, "Himalaya");
  assert_int_equal(himalaya_module.min_seats, 2);
  assert_int_equal(himalaya_module.max_seats, 5);
  assert_string_equal(himalaya_module.rules_version, "himalaya-2");
  assert_string_equal(himalaya_module.options_json, "{}");
  assert_int_equal(engine_registry_check(&err), CAIRN_OK);
}

/* Himalaya has no options: any option is an unknown field, named even
 * when several are given (the smallest name, whatever the key order). */
static void test_options_are_rejected(void **state)
{
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  json_t *options = json_pack("{s:i, s:b}", "zeta", 1, "alpha", 1);
  json_t *empty = json_object();
  struct engine_setup setup = {.seats = 2, .options = options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  assert_int_equal(engine_new(&himalaya_module, &setup, seed, &game, &err), CAIRN_EINVAL);
  assert_null(game);
  assert_string_equal(err.code, CAIRN_CODE_UNKNOWN_FIELD);
  assert_non_null(strstr(err.detail, "options.alpha"));
  setup.options = empty;
  assert_int_equal(engine_new(&himalaya_module, &setup, seed, &game, &err), CAIRN_OK);
  engine_free(game);
  json_decref(options);
  json_decref(empty);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pieces_start_at_base_camp_and_first_four_fields),
      cmocka_unit_test(test_yeti_starts_in_its_cave),
      cmocka_unit_test(test_supply_cards_depend_on_player_count),
      cmocka_unit_test(test_yeti_deck_is_nine_cards_with_bad_weather_under_it),
      cmocka_unit_test(test_yeti_deck_shuffled_by_seed),
      cmocka_unit_test(test_dice_count_is_players_plus_three),
      cmocka_unit_test(test_first_throw_draws_no_yeti_card),
      cmocka_unit_test(test_youngest_player_begins),
      cmocka_unit_test(test_module_describes_himalaya),
      cmocka_unit_test(test_options_are_rejected),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
