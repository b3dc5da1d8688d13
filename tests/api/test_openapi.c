/*
 * test_openapi.c - the API document the real server serves is the one the
 * build assembled (issue 21: "a test checks that the served document is the
 * built one"), and the copy kept in git for readers, openapi/cairn.yaml, is
 * not stale. The build's file is named by CAIRN_OPENAPI and the copy by
 * CAIRN_OPENAPI_TRACKED, both set by build.mk's run-tests. What the document
 * says is checked against the engine by tests/engine/test_document.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"

/* The bytes of the file an environment variable names (caller frees), and
 * their count in *len; fails the test when it is unset or unreadable. */
static char *read_named_file(const char *env, size_t *len)
{
  const char *path = getenv(env);
  char *buf = NULL;
  long size;
  FILE *f;

  if (!path)
    fail_msg("%s is not set (build.mk's run-tests sets it)", env);
  f = fopen(path, "rb");
  if (!f)
    fail_msg("%s: cannot open %s", env, path);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  size = ftell(f);
  assert_true(size > 0);
  rewind(f);
  buf = malloc((size_t)size + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
  buf[size] = '\0';
  fclose(f);
  *len = (size_t)size;
  return buf;
}

/* Where two texts first differ, as a line number, for the failure message. */
static int first_differing_line(const char *a, size_t alen, const char *b, size_t blen)
{
  int line = 1;

  for (size_t i = 0; i < alen && i < blen && a[i] == b[i]; i++)
    line += a[i] == '\n';
  return line;
}

/* GET /v1/openapi.yaml is the assembled document, byte for byte. */
static void test_served_document_is_the_built_one(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  size_t len;
  char *built = read_named_file("CAIRN_OPENAPI", &len);

  harness_call(s, &r, "GET", NULL, NULL, "/v1/openapi.yaml");
  HARNESS_EXPECT_STATUS(&r, 200);
  if (r.body_len != len || memcmp(r.body, built, len) != 0)
    fail_msg("the served document (%zu bytes) is not the built one (%zu bytes): they differ from "
             "line %d",
             r.body_len, len, first_differing_line(r.body, r.body_len, built, len));
  harness_response_free(&r);
  free(built);
}

/* openapi/cairn.yaml is the built document too, so a reader of the
 * repository finds the whole contract there; `make openapi` rewrites it. */
static void test_document_in_git_is_not_stale(void **state)
{
  size_t built_len, tracked_len;
  char *built = read_named_file("CAIRN_OPENAPI", &built_len);
  char *tracked = read_named_file("CAIRN_OPENAPI_TRACKED", &tracked_len);

  (void)state;
  if (built_len != tracked_len || memcmp(built, tracked, built_len) != 0)
    fail_msg("openapi/cairn.yaml is stale (it differs from the built document from line %d): run "
             "`make openapi` and commit it",
             first_differing_line(built, built_len, tracked, tracked_len));
  free(built);
  free(tracked);
}

/* Every title GET /v1/titles lists has its entry in the served document's
 * TitleGame discriminator, generated from the registered titles. */
static void test_every_listed_title_is_in_the_served_document(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  json_t *titles = harness_get_json(s, NULL, "/v1/titles");
  json_t *title;
  size_t i;
  char line[256];

  harness_call(s, &r, "GET", NULL, NULL, "/v1/openapi.yaml");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_true(json_array_size(titles) > 0);
  json_array_foreach(titles, i, title)
  {
    snprintf(line, sizeof(line), "          %s: '#/components/schemas/", harness_str(title, "id"));
    if (!strstr(r.body, line))
      harness_fail_response(&r, __FILE__, __LINE__, "no TitleGame mapping for title %s",
                            harness_str(title, "id"));
  }
  json_decref(titles);
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_served_document_is_the_built_one),
      cmocka_unit_test(test_document_in_git_is_not_stale),
      cmocka_unit_test(test_every_listed_title_is_in_the_served_document),
  };
  harness_global_init();
  int failed = cmocka_run_group_tests(tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return failed;
}
