/*
 * test_jsonr.c - the fast JSON reader (engine/jsonr.c): for every text its
 * answer is json_loadb(text, len, 0)'s, the same tree with its members in
 * the same order, or NULL for both; the texts it reads itself and those it
 * hands to jansson alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jsonr.h"
#include "tests/order.h"

/* jr_parse_flags and json_loadb agree on `text` (len bytes) under `flags`:
 * both NULL, or equal trees that write the same text (so in the same
 * member order). */
static void assert_reads_with_flags(const char *text, size_t len, size_t flags)
{
  json_t *want = json_loadb(text, len, flags, NULL);
  json_t *got = flags ? jr_parse_flags(text, len, flags, NULL) : jr_parse(text, len);

  if (!want) {
    if (got)
      fail_msg("jansson refuses %.*s, the reader does not", (int)len, text);
    return;
  }
  if (!got)
    fail_msg("the reader refuses %.*s, jansson does not", (int)len, text);
  else {
    char *a = json_dumps(want, JSON_COMPACT), *b = json_dumps(got, JSON_COMPACT);

    if (!json_equal(want, got) || strcmp(a, b) != 0)
      fail_msg("%.*s: jansson reads %s, the reader %s", (int)len, text, a, b);
    free(a);
    free(b);
  }
  json_decref(want);
  json_decref(got);
}

/* ...under no flags (a stored text) and as a request body is read. */
static void assert_reads_as_jansson(const char *text, size_t len)
{
  assert_reads_with_flags(text, len, 0);
  assert_reads_with_flags(text, len, JSON_REJECT_DUPLICATES);
}

static void assert_text_reads_as_jansson(const char *text)
{
  assert_reads_as_jansson(text, strlen(text));
}

/* What the server stores: moves as written, compact, keys sorted. */
static void test_stored_moves_read_as_jansson_reads_them(void **state)
{
  static const char *const moves[] = {
      "{\"base\":[4,0],\"type\":\"base\"}",
      "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\"},{\"coin\":0,\"dir\":\"N\","
      "\"face\":\"suit\"}],\"type\":\"plan\"}",
      "{\"order\":[2,\"snowballs\",0],\"type\":\"order\"}",
      "{\"heal\":false,\"set_aside\":[1,4],\"type\":\"heal\"}",
      "{\"heal\":true,\"type\":\"heal\"}",
      "{\"cairn\":\"rewind\",\"to_ord\":12}",
      "{\"pawn\":\"sherpa\",\"sherpa\":0,\"direction\":\"up\",\"type\":\"die\",\"value\":-3}",
      "{\"a\":null,\"b\":[],\"c\":{},\"d\":[[[]]],\"e\":-0,\"f\":123456789012345678}",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++)
    assert_text_reads_as_jansson(moves[i]);
}

/* Texts outside the subset go to jansson, so they too read as it reads
 * them: escapes, UTF-8, reals, big integers, duplicates, whitespace, and
 * text that is no JSON at all. */
static void test_every_other_text_reads_as_jansson_reads_it(void **state)
{
  static const char *const texts[] = {
      "{\"a\":\"x\\\"y\"}",
      "{\"a\":\"\\u00e9\"}",
      "{\"a\":\"\xc3\xa9\"}",
      "{\"a\":\"\xff\"}",
      "[1.5]",
      "[1e3]",
      "[-2E-2]",
      "[1234567890123456789]",
      "[12345678901234567890123]",
      "[-9223372036854775808]",
      "[01]",
      "[-01]",
      "[-]",
      "[00]",
      "{\"a\":1,\"a\":2}",
      " \t\r\n{ \"a\" : [ 1 , 2 ] } \n",
      "{\"a\":1,}",
      "[1,]",
      "[1 2]",
      "{\"a\" 1}",
      "{a:1}",
      "{\"a\":1}x",
      "{\"a\":1}{}",
      "[tru]",
      "[true,false,null]",
      "[nul]",
      "\"top-level string\"",
      "42",
      "",
      "   ",
      "[",
      "{\"a\":",
      "[\"unterminated]",
      "[\"tab\there\"]",
      "{\"\":0}",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
    assert_text_reads_as_jansson(texts[i]);
  assert_reads_as_jansson("[1,\0 2]", 7);    /* a NUL inside the text */
  assert_reads_as_jansson("{\"a\":1}\0", 8); /* and after it */
  assert_reads_as_jansson("[\"a\0b\"]", 7);  /* and inside a string */
}

/* A request body's keys are unique at every depth (api/body.c): a key
 * twice in one object is refused wherever it is, and the same key in two
 * objects is not a duplicate. */
static void test_duplicate_keys_are_refused_as_jansson_refuses_them(void **state)
{
  static const char *const refused[] = {
      "{\"a\":1,\"a\":1}",
      "{\"seq\":3,\"move\":{\"type\":\"plan\",\"type\":\"plan\"}}",
      "[{\"x\":[{\"b\":1,\"c\":2,\"b\":3}]}]",
  };
  static const char *const kept[] = {
      "{\"a\":{\"a\":1},\"b\":{\"a\":2}}",
      "[{\"a\":1},{\"a\":1}]",
  };
  json_error_t error;
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
    assert_text_reads_as_jansson(refused[i]);
    assert_null(jr_parse_flags(refused[i], strlen(refused[i]), JSON_REJECT_DUPLICATES, &error));
    assert_non_null(strstr(error.text, "duplicate"));
  }
  for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
    json_t *tree = jr_parse_flags(kept[i], strlen(kept[i]), JSON_REJECT_DUPLICATES, NULL);

    assert_text_reads_as_jansson(kept[i]);
    assert_non_null(tree);
    json_decref(tree);
  }
}

/* Nesting past JR_MAX_DEPTH is jansson's to read (it allows more). */
static void test_deep_nesting_reads_as_jansson_reads_it(void **state)
{
  char text[2 * (JR_MAX_DEPTH + 8) + 1];
  int depth;

  (void)state;
  for (depth = JR_MAX_DEPTH - 1; depth <= JR_MAX_DEPTH + 8; depth++) {
    memset(text, '[', (size_t)depth);
    memset(text + depth, ']', (size_t)depth);
    assert_reads_as_jansson(text, 2 * (size_t)depth);
  }
}

/* Every prefix and every one-byte change of stored moves: what a damaged
 * or truncated row would hold. */
static void test_damaged_texts_read_as_jansson_reads_them(void **state)
{
  static const char move[] = "{\"plan\":[{\"coin\":3,\"dir\":\"W\",\"face\":\"value\"}],"
                             "\"heal\":true,\"n\":null,\"x\":-12,\"type\":\"plan\"}";
  static const char bytes[] = "{}[]\",:-0123456789.eE tfnrulsa\\\x01\x80";
  char text[sizeof(move)];
  size_t len = sizeof(move) - 1, i, k;

  (void)state;
  for (i = 0; i <= len; i++)
    assert_reads_as_jansson(move, i);
  for (i = 0; i < len; i++)
    for (k = 0; k < sizeof(bytes) - 1; k++) {
      memcpy(text, move, sizeof(move));
      text[i] = bytes[k];
      assert_reads_as_jansson(text, len);
    }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stored_moves_read_as_jansson_reads_them),
      cmocka_unit_test(test_every_other_text_reads_as_jansson_reads_it),
      cmocka_unit_test(test_duplicate_keys_are_refused_as_jansson_refuses_them),
      cmocka_unit_test(test_deep_nesting_reads_as_jansson_reads_it),
      cmocka_unit_test(test_damaged_texts_read_as_jansson_reads_them),
  };

  return order_run_group_tests_name("engine/jsonr", tests, NULL, NULL);
}
