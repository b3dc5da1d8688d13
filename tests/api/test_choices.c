/*
 * test_choices.c - `choices`, the one compact form of the legal moves
 * (issue 24; openapi/base.yaml Choices and the `legal` query parameter),
 * over HTTP against the real server: a client that only walks the tree
 * (harness_walk_choices, the C twin of the document's pickMove) plays a
 * full game of every title with views asked without the old list, every
 * walked move accepted; the view carries the tree where the seat may act,
 * with the list beside it unless `legal=none`, neither where it may not;
 * and a bad `legal` is 400 bad-query. The Himalaya figure (a seat's view
 * with and without the list) is printed for the record.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/harness.h"

/* Far more moves than any title's game takes with these options. */
#define MAX_MOVES 20000

struct title_case {
  const char *id;
  int seats;
  const char *options; /* Everest with a round cap: uniform plans rarely climb (its README) */
};

static const struct title_case cases[] = {
    {"himalaya", 3, "{}"},
    {"everest-piecepack", 3, "{\"round_cap\":25}"},
    {"journey-to-the-top", 3, "{}"},
    {"because-its-there", 2, "{}"},
};

/* Views of the seat to act, summed: bytes of the view as it was before
 * the tree (`legal` only), as it is by default (both), compact (`choices`
 * only), and of the two members themselves. */
struct sizes {
  size_t before, with_list, compact, legal, choices, views;
};

static size_t text_bytes(const json_t *v)
{
  char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  size_t n = text ? strlen(text) : 0;

  free(text);
  return n;
}

static json_t *get_view(struct harness_server *s, const char *token, const char *id,
                        const char *query, size_t *bytes)
{
  struct harness_response r;
  json_t *body;

  harness_call(s, &r, "GET", token, NULL, "/v1/games/%s%s", id, query);
  HARNESS_EXPECT_JSON(&r, 200);
  body = json_incref(r.json);
  if (bytes)
    *bytes = r.body_len;
  harness_response_free(&r);
  return body;
}

static void play_by_walking(struct harness_server *s, const struct title_case *c, uint64_t seed,
                            struct sizes *sizes)
{
  struct harness_player players[8];
  struct harness_rng rng = {seed};
  char id[64], name[32];
  json_t *created;
  int i, moves;

  for (i = 0; i < c->seats; i++) {
    snprintf(name, sizeof name, "walker-%d", i);
    harness_new_player(s, name, &players[i]);
  }
  created = harness_new_game(s, players[0].token, c->id, c->seats, c->options);
  snprintf(id, sizeof id, "%s", harness_game_id(created));
  json_decref(created);
  for (i = 0; i < c->seats; i++)
    harness_join(s, players[i].token, id, -1);
  for (moves = 0; moves < MAX_MOVES; moves++) {
    json_t *g = get_view(s, NULL, id, "", NULL), *mine, *full, *body;
    struct harness_response r;
    size_t compact = 0, with_list = 0;
    int seat, other;

    assert_null(json_object_get(g, "choices")); /* a spectator acts never */
    if (strcmp(harness_str(g, "status"), "finished") == 0) {
      json_decref(g);
      return;
    }
    seat = (int)json_integer_value(json_array_get(json_object_get(g, "to_act"), 0));
    other = (seat + 1) % c->seats;
    if (json_array_size(json_object_get(g, "to_act")) == 1) {
      json_t *idle = get_view(s, players[other].token, id, "", NULL);

      assert_null(json_object_get(idle, "choices"));
      assert_null(json_object_get(idle, "legal"));
      json_decref(idle);
    }
    json_decref(g);
    mine = get_view(s, players[seat].token, id, "?legal=none", &compact);
    assert_null(json_object_get(mine, "legal"));
    if (moves % 4 == 0) {
      /* The default still carries the old list, and the same tree. */
      full = get_view(s, players[seat].token, id, "", &with_list);
      assert_true(json_is_array(json_object_get(full, "legal")));
      assert_true(json_equal(json_object_get(full, "choices"), json_object_get(mine, "choices")));
      sizes->with_list += with_list;
      sizes->compact += compact;
      sizes->legal += text_bytes(json_object_get(full, "legal"));
      sizes->choices += text_bytes(json_object_get(mine, "choices"));
      /* Before: the compact view with `legal` where `choices` is
       * (",\"choices\":" and ",\"legal\":" differ by two bytes). */
      sizes->before += compact - text_bytes(json_object_get(mine, "choices")) - 2 +
                       text_bytes(json_object_get(full, "legal"));
      sizes->views++;
      json_decref(full);
    }
    body = json_pack("{s:O, s:o}", "seq", json_object_get(mine, "seq"), "move",
                     harness_choose_move(mine, &rng));
    harness_call_json(s, &r, "POST", players[seat].token, body, "/v1/games/%s/moves", id);
    harness_expect_status(&r, 200, __FILE__, __LINE__);
    harness_response_free(&r);
    json_decref(body);
    json_decref(mine);
  }
  fail_msg("%s game %s did not finish in %d moves", c->id, id, MAX_MOVES);
}

/* Issue 24: "a random walker finishes full games of every title over HTTP". */
static void test_a_walker_of_choices_finishes_a_game_of_every_title(void **state)
{
  struct harness_server *s = *state;
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct sizes sizes = {0};

    play_by_walking(s, &cases[i], 1000 + i, &sizes);
    assert_true(sizes.views > 0);
    printf("%s, the acting seat's view, mean of %zu: %zu bytes before (`legal` only), %zu now by "
           "default (both), %zu compact (`choices` only, ?legal=none); `legal` %zu bytes, "
           "`choices` %zu\n",
           cases[i].id, sizes.views, sizes.before / sizes.views, sizes.with_list / sizes.views,
           sizes.compact / sizes.views, sizes.legal / sizes.views, sizes.choices / sizes.views);
  }
}

/* openapi/base.yaml LegalForm: "Anything else → 400 bad-query". */
static void test_an_unknown_legal_form_is_bad_query(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  json_t *created;
  char id[64];

  harness_new_player(s, "asker", &p);
  created = harness_new_game(s, p.token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(created));
  json_decref(created);
  harness_call(s, &r, "GET", p.token, NULL, "/v1/games/%s?legal=tree", id);
  HARNESS_EXPECT_STATUS(&r, 400);
  assert_string_equal(harness_str(r.json, "code"), "bad-query");
  assert_non_null(strstr(harness_str(r.json, "detail"), "legal"));
  harness_response_free(&r);
  harness_call(s, &r, "GET", p.token, NULL, "/v1/games/%s?legal=none", id);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_an_unknown_legal_form_is_bad_query),
      cmocka_unit_test(test_a_walker_of_choices_finishes_a_game_of_every_title),
  };

  int failed;

  harness_global_init();
  failed = order_run_group_tests_name("api/choices", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return failed;
}
