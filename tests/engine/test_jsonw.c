/*
 * test_jsonw.c - the JSON text writer (engine/jsonw.c): what it writes
 * equals json_dumps(JSON_COMPACT) of the same values in the same order,
 * and a caller's mistake (a key twice, a container left open or closed
 * twice, nesting past JW_MAX_DEPTH) gives NULL rather than bad JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jsonw.h"
#include "tests/order.h"

/* The writer's text must equal jansson's for `tree` (taken). */
static void assert_same_as_jansson(struct json_writer *w, json_t *tree)
{
  char *want = json_dumps(tree, JSON_COMPACT | JSON_ENCODE_ANY);
  char *got;
  size_t len = 0;

  got = jw_finish(w, &len);
  assert_non_null(want);
  assert_non_null(got);
  assert_string_equal(got, want);
  assert_int_equal(len, strlen(want));
  free(got);
  free(want);
  json_decref(tree);
}

static void test_members_items_and_nesting_are_separated_as_jansson_does(void **state)
{
  static const int dice[] = {1, 6, 3};
  struct json_writer w;

  (void)state;
  jw_init(&w);
  jw_object_begin(&w);
  jw_key_string(&w, "name", "K2 \"savage\"\n\tmountain\x01");
  jw_key_int(&w, "min", INT64_MIN);
  jw_key_int(&w, "max", INT64_MAX);
  jw_key_bool(&w, "yes", true);
  jw_key_bool(&w, "no", false);
  jw_key_null(&w, "none");
  jw_key(&w, "dice");
  jw_int_array(&w, dice, 3);
  jw_key(&w, "empty");
  jw_array_begin(&w);
  jw_array_end(&w);
  jw_key(&w, "nested");
  jw_array_begin(&w);
  jw_object_begin(&w);
  jw_object_end(&w);
  jw_object_begin(&w);
  jw_key(&w, "k");
  jw_string_n(&w, "ab\0c", 4);
  jw_object_end(&w);
  jw_raw(&w, "[1,2]", 5);
  jw_string(&w, NULL);
  jw_array_end(&w);
  jw_object_end(&w);
  assert_same_as_jansson(
      &w, json_pack("{s:s, s:I, s:I, s:b, s:b, s:n, s:[i,i,i], s:[], s:[{}, {s:s%}, [i,i], n]}",
                    "name", "K2 \"savage\"\n\tmountain\x01", "min", (json_int_t)INT64_MIN, "max",
                    (json_int_t)INT64_MAX, "yes", 1, "no", 0, "none", "dice", 1, 6, 3, "empty",
                    "nested", "k", "ab\0c", (size_t)4, 1, 2));
}

static void test_a_tree_is_written_as_json_dumps_writes_it(void **state)
{
  json_t *tree = json_pack("{s:f, s:[s, {s:i}], s:o}", "real", 0.25, "list", "x\\y", "n", -7,
                           "utf8", json_string("Chomolungma \xe2\x80\x94 8848"));
  struct json_writer w;

  (void)state;
  jw_init(&w);
  jw_json(&w, tree);
  assert_same_as_jansson(&w, tree);
}

/* Strings are scanned eight bytes at a time (jsonw.c, word_needs_escape):
 * each byte that needs escaping, and its neighbours that do not, at every
 * place in and across the words of strings of 0-33 bytes, as a member's
 * name and as a value, one or two of them in a string, as jansson writes
 * them. */
static void test_every_byte_to_escape_is_found_wherever_it_lies(void **state)
{
  static const char special[] = {0x01, '\b', '\t', '\n', '\f', '\r', 0x1f, '"', '\\'};
  static const char plain[] = {' ', '!', '#', '[', ']', '~', 0x7f, 'a', 'Z', 0x21, 0x5b, 0x5d};
  size_t len, at, k;

  (void)state;
  for (len = 1; len <= 33; len++)
    for (at = 0; at < len; at++)
      for (k = 0; k < sizeof special; k++) {
        char text[40];
        struct json_writer w;
        json_t *tree;
        size_t i;

        for (i = 0; i < len; i++)
          text[i] = plain[(i * 7 + k) % sizeof plain];
        text[at] = special[k];
        if (len > 16)
          text[len - 1 - at % 8] = special[(k + 1) % sizeof special]; /* a second one */
        text[len] = '\0';
        tree = json_pack("{s:[s,s#]}", text, text, "", (int)0);
        jw_init(&w);
        jw_object_begin(&w);
        jw_key(&w, text);
        jw_array_begin(&w);
        jw_string(&w, text);
        jw_string_n(&w, text, 0);
        jw_array_end(&w);
        jw_object_end(&w);
        assert_same_as_jansson(&w, tree);
      }
  for (len = 0; len <= 33; len++) { /* nothing to escape, UTF-8 beside ASCII */
    char text[40];
    struct json_writer w;
    size_t i;

    for (i = 0; i < len; i++)
      text[i] = (char)(i % 3 == 2 ? 'x' : i % 3 == 0 ? 0xc3 : 0xa9); /* "é" then "x" */
    text[len - len % 3] = '\0';
    jw_init(&w);
    jw_string(&w, text);
    assert_same_as_jansson(&w, json_string(text));
  }
}

static void test_misuse_gives_null_never_bad_json(void **state)
{
  struct json_writer w;
  int depth;

  (void)state;
  jw_init(&w); /* a key with no value */
  jw_object_begin(&w);
  jw_key(&w, "a");
  jw_key(&w, "b");
  jw_int(&w, 1);
  jw_object_end(&w);
  assert_null(jw_finish(&w, NULL));

  jw_init(&w); /* left open */
  jw_array_begin(&w);
  jw_int(&w, 1);
  assert_null(jw_finish(&w, NULL));

  jw_init(&w); /* closed twice */
  jw_array_begin(&w);
  jw_array_end(&w);
  jw_array_end(&w);
  assert_null(jw_finish(&w, NULL));

  jw_init(&w); /* too deep */
  for (depth = 0; depth <= JW_MAX_DEPTH; depth++)
    jw_array_begin(&w);
  for (depth = 0; depth <= JW_MAX_DEPTH; depth++)
    jw_array_end(&w);
  assert_null(jw_finish(&w, NULL));

  jw_init(&w); /* JW_MAX_DEPTH itself is fine */
  for (depth = 0; depth < JW_MAX_DEPTH; depth++)
    jw_array_begin(&w);
  for (depth = 0; depth < JW_MAX_DEPTH; depth++)
    jw_array_end(&w);
  {
    char *text = jw_finish(&w, NULL);

    assert_non_null(text);
    assert_int_equal(strlen(text), 2 * JW_MAX_DEPTH);
    free(text);
  }
}

static void test_a_finished_writer_starts_again_empty(void **state)
{
  struct json_writer w;
  char *first, *second;

  (void)state;
  jw_init(&w);
  jw_int(&w, 1);
  first = jw_finish(&w, NULL);
  jw_string(&w, "again");
  second = jw_finish(&w, NULL);
  assert_string_equal(first, "1");
  assert_string_equal(second, "\"again\"");
  free(first);
  free(second);
  jw_array_begin(&w);
  jw_discard(&w);
  assert_null(w.buf);
}

static void test_what_was_written_parses_back_into_the_same_tree(void **state)
{
  struct json_writer w;
  json_t *tree, *want = json_pack("{s:[i,b,n], s:s}", "a", 1, 1, "b", "c");

  (void)state;
  jw_init(&w);
  jw_json(&w, want);
  tree = jw_finish_tree(&w);
  assert_true(json_equal(tree, want));
  assert_null(w.buf); /* left empty, as jw_finish leaves it */
  json_decref(tree);
  json_decref(want);
  jw_array_begin(&w); /* left open: no tree */
  assert_null(jw_finish_tree(&w));
}

/* A composed value (jw_compose) takes the separator of any value where it
 * stands, and a scratch writer reset between values (jw_reset) gives each
 * value alone, as the choices trees use them; the scratch's buffer grows
 * past its first allocation like any writer's. */
static void test_a_composed_value_is_separated_like_any_value(void **state)
{
  struct json_writer w, scratch;
  char long_name[20000];

  (void)state;
  memset(long_name, 'x', sizeof(long_name) - 1);
  long_name[sizeof(long_name) - 1] = '\0';
  jw_init(&w);
  jw_init(&scratch);
  jw_object_begin(&w);
  jw_key_int(&w, "a", 1);
  jw_key(&w, "tree");
  jw_compose_begin(&w);
  JW_COMPOSE(&w, "[{\"value\":");
  jw_int(&scratch, 7);
  jw_compose(&w, scratch.buf, scratch.len);
  JW_COMPOSE(&w, "},{\"value\":");
  jw_reset(&scratch);
  jw_string(&scratch, long_name);
  jw_compose(&w, scratch.buf, scratch.len);
  JW_COMPOSE(&w, "}]");
  jw_key(&w, "list");
  jw_array_begin(&w);
  jw_int(&w, 1);
  jw_compose_begin(&w);
  JW_COMPOSE(&w, "true");
  jw_array_end(&w);
  jw_object_end(&w);
  jw_discard(&scratch);
  assert_same_as_jansson(&w, json_pack("{s:i, s:[{s:i}, {s:s}], s:[i, b]}", "a", 1, "tree", "value",
                                       7, "value", long_name, "list", 1, 1));
}

/* jw_hex: lowercase hex of every byte value, two digits each, separated
 * like any string. */
static void test_bytes_are_written_as_lowercase_hex(void **state)
{
  uint8_t bytes[256];
  char want[2 * 256 + 1];
  struct json_writer w;

  (void)state;
  for (int i = 0; i < 256; i++) {
    bytes[i] = (uint8_t)i;
    snprintf(want + 2 * i, 3, "%02x", i);
  }
  jw_init(&w);
  jw_array_begin(&w);
  jw_hex(&w, bytes, 0);
  jw_hex(&w, bytes, sizeof(bytes));
  jw_array_end(&w);
  assert_same_as_jansson(&w, json_pack("[s, s]", "", want));
}

/* Literal keys and strings take jw_key's and jw_string's inline path only
 * when they hold nothing to escape: literals with a quote, a backslash or
 * a control byte are escaped as any string is, and a literal longer than
 * JW_LITERAL_MAX is written whole. */
static void test_literals_are_written_as_any_string_is(void **state)
{
  struct json_writer w;

  (void)state;
  jw_init(&w);
  jw_object_begin(&w);
  jw_key_string(&w, "plain", "up");
  jw_key_string(&w, "a\"quote", "a\\backslash");
  jw_key_string(&w, "tab\there", "line\nbreak");
  jw_key_string(&w, "\x1f", "\x01");
  jw_key_string(&w, "a key longer than thirty-two bytes, every one",
                "and a value as long as it, too");
  jw_key(&w, "list");
  jw_array_begin(&w);
  jw_string(&w, "one");
  jw_string(&w, "\"two\"");
  jw_array_end(&w);
  jw_object_end(&w);
  assert_same_as_jansson(&w,
                         json_pack("{s:s, s:s, s:s, s:s, s:s, s:[s, s]}", "plain", "up", "a\"quote",
                                   "a\\backslash", "tab\there", "line\nbreak", "\x1f", "\x01",
                                   "a key longer than thirty-two bytes, every one",
                                   "and a value as long as it, too", "list", "one", "\"two\""));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_members_items_and_nesting_are_separated_as_jansson_does),
      cmocka_unit_test(test_a_tree_is_written_as_json_dumps_writes_it),
      cmocka_unit_test(test_every_byte_to_escape_is_found_wherever_it_lies),
      cmocka_unit_test(test_misuse_gives_null_never_bad_json),
      cmocka_unit_test(test_a_finished_writer_starts_again_empty),
      cmocka_unit_test(test_what_was_written_parses_back_into_the_same_tree),
      cmocka_unit_test(test_a_composed_value_is_separated_like_any_value),
      cmocka_unit_test(test_bytes_are_written_as_lowercase_hex),
      cmocka_unit_test(test_literals_are_written_as_any_string_is),
  };

  return order_run_group_tests_name("engine/jsonw", tests, NULL, NULL);
}
