/*
 * test_choices.c - the choices tree (engine/choices.c, engine.h "The
 * choices tree") against every title's own rules, over random positions
 * of random games (issue 24): the set of walks through a seat's tree is
 * the set of its legal moves.
 *
 * Where a title lists its moves (every phase but Everest's planning) the
 * walks, enumerated, must equal the list: as many, no walk twice, every
 * listed move a walk. Where it describes them (Everest's plans, which the
 * list gives as one "plan-options" descriptor), every random walk must be
 * a move engine_apply accepts, the moves the title's own sampler draws
 * must be walks, and so must every plan of the position when the plans are
 * few enough to enumerate. A seat that may not act gets null.
 *
 * The shared builder is also held to hand-written lists: shared prefixes,
 * a move that is another's start ("done"), values sorted as a reader
 * expects, and a list whose moves name different members after one prefix
 * refused.
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

#include "engine/jsonw.h"
#include "kit.h"

#define GAMES         4    /* per title and seat count */
#define MOVES         300  /* at most, per game: positions enough from every phase */
#define WALKS         24   /* random walks per described position */
#define ENUMERATE_MAX 4096 /* enumerate a described position of at most this many walks */

static uint64_t next_random(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* ---- JSON pointers, as a client walking the tree reads them ---- */

/* The array index a segment (ending at '\0' or '/') names, or -1. */
static int index_of(const char *segment)
{
  char *end = NULL;
  long i = strtol(segment, &end, 10);

  return *segment >= '0' && *segment <= '9' && (*end == '\0' || *end == '/') ? (int)i : -1;
}

/* Set `pointer` in *move to `value` (borrowed), making each missing
 * container an array when the segment after it is a number. */
static void put(json_t *move, const char *pointer, const json_t *value)
{
  char path[128], *segment, *next;
  json_t *at = move;

  assert_true(strlen(pointer) < sizeof(path) && pointer[0] == '/');
  strcpy(path, pointer + 1);
  for (segment = path;; segment = next) {
    json_t *child;

    next = strchr(segment, '/');
    if (next)
      *next++ = '\0';
    if (!next) {
      if (json_is_array(at)) {
        assert_int_equal(index_of(segment), (int)json_array_size(at));
        json_array_append(at, (json_t *)value);
      } else {
        json_object_set(at, segment, (json_t *)value);
      }
      return;
    }
    child = json_is_array(at) ? json_array_get(at, (size_t)index_of(segment))
                              : json_object_get(at, segment);
    if (!child) {
      child = index_of(next) >= 0 ? json_array() : json_object();
      if (json_is_array(at))
        json_array_append_new(at, child);
      else
        json_object_set_new(at, segment, child);
    }
    at = child;
  }
}

static const json_t *get(const json_t *move, const char *pointer)
{
  char path[128], *segment, *next;
  const json_t *at = move;

  assert_true(strlen(pointer) < sizeof(path) && pointer[0] == '/');
  strcpy(path, pointer + 1);
  for (segment = path; at && segment; segment = next) {
    next = strchr(segment, '/');
    if (next)
      *next++ = '\0';
    at = json_is_array(at) ? json_array_get(at, (size_t)index_of(segment))
                           : json_object_get(at, segment);
  }
  return at;
}

/* ---- Walking the tree ---- */

static const json_t *options_of(const json_t *node)
{
  const json_t *options = json_object_get(node, "options");

  assert_true(json_is_string(json_object_get(node, "choose")));
  assert_true(json_is_array(options));
  assert_true(json_array_size(options) > 0);
  return options;
}

/* A random walk from `node` into `move`: the reference walker of the
 * document, in C. */
static void walk(const json_t *node, json_t *move, uint64_t *rng)
{
  const json_t *options, *option, *then;
  size_t i;

  if (json_object_get(node, "all")) {
    for (i = 0; i < json_array_size(json_object_get(node, "all")); i++)
      walk(json_array_get(json_object_get(node, "all"), i), move, rng);
    return;
  }
  options = options_of(node);
  option = json_array_get(options, next_random(rng) % json_array_size(options));
  put(move, json_string_value(json_object_get(node, "choose")), json_object_get(option, "value"));
  then = json_object_get(option, "then");
  if (then && !(json_is_true(json_object_get(option, "done")) && next_random(rng) % 2))
    walk(then, move, rng);
}

/* Every walk from `node`, each starting from a copy of one of `bases`
 * (taken), appended to a new array; fails when there are more than `cap`. */
static json_t *walks(const json_t *node, json_t *bases, size_t cap)
{
  json_t *out = json_array(), *parts, *base;
  size_t i, k;

  if ((parts = json_object_get(node, "all"))) {
    for (k = 0; k < json_array_size(parts); k++)
      bases = walks(json_array_get(parts, k), bases, cap);
    json_decref(out);
    return bases;
  }
  json_array_foreach(bases, i, base)
  {
    const json_t *options = options_of(node), *option;
    size_t j;

    json_array_foreach(options, j, option)
    {
      json_t *move = json_deep_copy(base), *then = json_object_get(option, "then");

      put(move, json_string_value(json_object_get(node, "choose")),
          json_object_get(option, "value"));
      assert_true(then || !json_object_get(option, "done"));
      if (!then || json_is_true(json_object_get(option, "done")))
        json_array_append(out, move);
      if (then) {
        json_t *one = json_array(), *more;

        json_array_append(one, move);
        more = walks(then, one, cap);
        json_array_extend(out, more);
        json_decref(more);
      }
      json_decref(move);
      assert_true(json_array_size(out) <= cap);
    }
  }
  json_decref(bases);
  return out;
}

static json_t *all_walks(const json_t *tree, size_t cap)
{
  json_t *bases = json_array();

  json_array_append_new(bases, json_object());
  return walks(tree, bases, cap);
}

/* Whether `move` is a walk of the tree: the values it holds, chosen in
 * turn, rebuild it exactly. */
static bool rebuild(const json_t *node, const json_t *move, json_t *built)
{
  const json_t *options, *option, *value, *then;
  const char *pointer;
  size_t i;

  if (json_object_get(node, "all")) {
    json_array_foreach(json_object_get(node, "all"), i, option)
    {
      if (!rebuild(option, move, built))
        return false;
    }
    return true;
  }
  options = options_of(node);
  pointer = json_string_value(json_object_get(node, "choose"));
  value = get(move, pointer);
  json_array_foreach(options, i, option)
  {
    if (!value || !json_equal(json_object_get(option, "value"), value))
      continue;
    put(built, pointer, value);
    then = json_object_get(option, "then");
    if (!then)
      return true;
    if (json_is_true(json_object_get(option, "done")) &&
        !get(move, json_string_value(json_object_get(then, "choose"))) &&
        !json_object_get(then, "all"))
      return true;
    return rebuild(then, move, built);
  }
  return false;
}

static bool is_walk(const json_t *tree, const json_t *move)
{
  json_t *built = json_object();
  bool ok = tree && rebuild(tree, move, built) && json_equal(built, move);

  json_decref(built);
  return ok;
}

/* ---- The property, at one position ---- */

/* A list that describes rather than lists: one "...-options" object. */
static bool is_described(const json_t *legal)
{
  const char *type = json_string_value(json_object_get(json_array_get(legal, 0), "type"));
  size_t n = type ? strlen(type) : 0;

  return json_array_size(legal) == 1 && n > 8 && strcmp(type + n - 8, "-options") == 0;
}

static void fail_at(const struct engine_game *game, int seat, const char *what, const json_t *x)
{
  char *text = x ? json_dumps(x, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

  fail_msg("%s, %d seats, seq %u, seat %d: %s %s", game->module->id, game->seats, game->seq, seat,
           what, text ? text : "");
}

static void check_listed(const struct engine_game *game, int seat, const json_t *tree,
                         const json_t *legal)
{
  json_t *paths = all_walks(tree, json_array_size(legal)), *move;
  size_t i, j;

  if (json_array_size(paths) != json_array_size(legal))
    fail_at(game, seat, "the tree and the list differ in size", paths);
  json_array_foreach(legal, i, move)
  {
    if (!is_walk(tree, move))
      fail_at(game, seat, "a listed move is no walk:", move);
  }
  json_array_foreach(paths, i, move)
  {
    for (j = 0; j < i; j++)
      if (json_equal(json_array_get(paths, j), move))
        fail_at(game, seat, "one move is two walks:", move);
  }
  json_decref(paths);
}

static size_t count_walks(const json_t *node)
{
  const json_t *option, *parts = json_object_get(node, "all");
  size_t n = parts ? 1 : 0, i;

  if (parts) {
    json_array_foreach(parts, i, option) n *= count_walks(option);
    return n;
  }
  json_array_foreach(options_of(node), i, option)
  {
    const json_t *then = json_object_get(option, "then");

    n += then ? count_walks(then) + (json_is_true(json_object_get(option, "done")) ? 1 : 0) : 1;
  }
  return n;
}

/* Positions checked each way: each way must have been met to count. */
struct counts {
  int listed, described, enumerated;
};

static void check_described(const struct engine_game *game, int seat, const json_t *tree,
                            uint64_t *rng, struct counts *counts)
{
  json_t *move, *paths;
  size_t i;
  int k;

  for (k = 0; k < WALKS; k++) {
    move = json_object();
    walk(tree, move, rng);
    if (!kit_accepts(game, seat, move))
      fail_at(game, seat, "a walk is refused:", move);
    if (!is_walk(tree, move))
      fail_at(game, seat, "a walk does not rebuild:", move);
    json_decref(move);
    move = engine_sample_move(game, seat, next_random(rng));
    if (!is_walk(tree, move))
      fail_at(game, seat, "the title's sampled move is no walk:", move);
    json_decref(move);
  }
  if (count_walks(tree) > ENUMERATE_MAX)
    return;
  counts->enumerated++;
  paths = all_walks(tree, ENUMERATE_MAX);
  json_array_foreach(paths, i, move)
  {
    if (!kit_accepts(game, seat, move))
      fail_at(game, seat, "an enumerated walk is refused:", move);
  }
  json_decref(paths);
}

static void check_position(const struct engine_game *game, uint64_t *rng, struct counts *counts)
{
  int seat;

  for (seat = 0; seat < game->seats; seat++) {
    json_t *tree = engine_choices(game, seat), *legal = engine_legal_moves(game, seat);

    assert_non_null(legal);
    if (!engine_may_act(game, seat) || json_array_size(legal) == 0) {
      if (tree)
        fail_at(game, seat, "a seat that may not act has choices", tree);
    } else if (!tree) {
      fail_at(game, seat, "no tree (the writer failed) for", legal);
    } else if (is_described(legal)) {
      check_described(game, seat, tree, rng, counts);
      counts->described++;
    } else {
      check_listed(game, seat, tree, legal);
      counts->listed++;
    }
    json_decref(tree);
    json_decref(legal);
  }
}

static void apply(struct engine_game **game, int seat, const json_t *move)
{
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};

  if (engine_apply(*game, seat, move, &next, &events, &err) != CAIRN_OK)
    fail_at(*game, seat, err.detail, move);
  json_decref(events);
  engine_free(*game);
  *game = next;
}

static void play(const struct engine_module *m, int seats, uint64_t seed, struct counts *counts)
{
  struct engine_setup setup = {seats, NULL};
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  struct engine_game *game = NULL;
  uint64_t rng = seed;
  int step, to_act[ENGINE_MAX_SEATS];
  struct cairn_error err = {0};

  memcpy(bytes, &seed, sizeof(seed));
  if (engine_new(m, &setup, bytes, &game, &err) != CAIRN_OK)
    return; /* a seat count the title's defaults refuse */
  for (step = 0; step < MOVES; step++) {
    int n = engine_to_act(game, to_act), seat;
    json_t *move;

    check_position(game, &rng, counts);
    if (n == 0)
      break;
    seat = to_act[next_random(&rng) % (uint64_t)n];
    move = engine_sample_move(game, seat, next_random(&rng));
    assert_non_null(move);
    apply(&game, seat, move);
    json_decref(move);
  }
  engine_free(game);
}

/* For every title: the walks of every seat's tree are its legal moves. */
static void test_walks_are_the_legal_moves_of_every_title(void **state)
{
  const struct engine_module *const *m;
  int seats, g;
  struct counts counts = {0};

  (void)state;
  for (m = engine_modules(); *m; m++)
    for (seats = (*m)->min_seats; seats <= (*m)->max_seats; seats++)
      for (g = 0; g < kit_games(GAMES); g++)
        play(*m, seats, (uint64_t)seats << 32 | (uint64_t)g, &counts);
  /* Each kind of position was met, so each part could fail. */
  printf("positions: %d listed, %d described (%d enumerated)\n", counts.listed, counts.described,
         counts.enumerated);
  assert_true(counts.listed > 0);
  assert_true(counts.described > 0);
  assert_true(counts.enumerated > 0);
}

/* ---- The builder on hand-written lists ---- */

static json_t *tree_of(const char *list)
{
  struct json_writer w;

  jw_init(&w);
  engine_choices_from_list(list, strlen(list), &w);
  return jw_finish_tree(&w);
}

static void expect_tree(const char *list, const char *expected)
{
  json_t *tree = tree_of(list), *want = kit_parse(expected);

  if (!json_equal(tree, want)) {
    char *got = json_dumps(tree, JSON_COMPACT);

    fail_msg("%s gave %s", list, got ? got : "nothing");
  }
  json_decref(tree);
  json_decref(want);
}

static void test_shared_first_members_are_one_choice(void **state)
{
  (void)state;
  expect_tree("[{\"type\":\"use\",\"item\":\"rope\"},{\"type\":\"end\"},"
              "{\"type\":\"use\",\"item\":\"food\"}]",
              "{\"choose\":\"/type\",\"options\":[{\"value\":\"end\"},{\"value\":\"use\","
              "\"then\":{\"choose\":\"/item\",\"options\":[{\"value\":\"food\"},"
              "{\"value\":\"rope\"}]}}]}");
}

static void test_a_move_that_starts_another_is_done(void **state)
{
  (void)state;
  expect_tree("[{\"type\":\"deploy\",\"card\":38,\"team\":0},{\"type\":\"deploy\",\"card\":38}]",
              "{\"choose\":\"/type\",\"options\":[{\"value\":\"deploy\",\"then\":{\"choose\":"
              "\"/card\",\"options\":[{\"value\":38,\"done\":true,\"then\":{\"choose\":\"/team\","
              "\"options\":[{\"value\":0}]}}]}}]}");
}

static void test_counts_are_in_order_and_values_whole(void **state)
{
  (void)state;
  expect_tree("[{\"n\":10},{\"n\":2},{\"n\":[1,\"a,]\"]}]",
              "{\"choose\":\"/n\",\"options\":[{\"value\":2},{\"value\":10},"
              "{\"value\":[1,\"a,]\"]}]}");
}

static void test_no_moves_is_null(void **state)
{
  struct json_writer w;
  char *text;

  (void)state;
  jw_init(&w);
  engine_choices_from_list("[]", 2, &w);
  text = jw_finish(&w, NULL);
  assert_string_equal(text, "null");
  free(text);
}

static void test_two_names_after_one_prefix_are_refused(void **state)
{
  (void)state;
  assert_null(tree_of("[{\"a\":1,\"b\":2},{\"a\":1,\"c\":3}]"));
  assert_null(tree_of("[{\"a\":1},{\"b\":1}]"));
  assert_null(tree_of("[{\"a\":1"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shared_first_members_are_one_choice),
      cmocka_unit_test(test_a_move_that_starts_another_is_done),
      cmocka_unit_test(test_counts_are_in_order_and_values_whole),
      cmocka_unit_test(test_no_moves_is_null),
      cmocka_unit_test(test_two_names_after_one_prefix_are_refused),
      cmocka_unit_test(test_walks_are_the_legal_moves_of_every_title),
  };

  return order_run_group_tests_name("engine/choices", tests, NULL, NULL);
}
