/*
 * test_docs.c - GET /docs (api/docs.c; issue 24: "rendered API
 * documentation served by the server, built from the same document"):
 * one HTML page holding every path and webhook of the document GET
 * /v1/openapi.yaml serves, and every schema, that needs nothing from
 * elsewhere (no script, no stylesheet or image from another origin).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/order.h"
#include "harness.h"

/* Call `each` with every key of the mapping that follows the line `head`
 * in the YAML text, its keys at `indent` spaces (paths and webhooks: 2;
 * components' schemas: 4), until a line less indented. The served
 * document keeps these keys one per line. Returns how many. */
static int each_key(const char *yaml, const char *head, int indent,
                    void (*each)(const char *key, void *arg), void *arg)
{
  char key[256];
  const char *line, *next;
  int n = 0;

  line = strstr(yaml, head);
  assert_non_null(line);
  for (line += strlen(head); *line; line = next + 1) {
    int spaces = (int)strspn(line, " ");
    size_t len;

    next = strchr(line, '\n');
    if (!next)
      break;
    if (line[spaces] == '\n' || line[spaces] == '#')
      continue;
    if (spaces < indent)
      break; /* the mapping is over */
    if (spaces != indent || next[-1] != ':')
      continue;
    len = (size_t)(next - 1 - (line + spaces));
    if (len == 0 || len >= sizeof key)
      continue;
    memcpy(key, line + spaces, len);
    key[len] = '\0';
    each(key, arg);
    n++;
  }
  return n;
}

struct page {
  const char *html;
  int missing;
};

static void expect_code(const char *key, void *arg)
{
  struct page *p = arg;
  char want[300];

  snprintf(want, sizeof want, "<code>%s</code>", key);
  if (!strstr(p->html, want)) {
    fprintf(stderr, "not in /docs: %s\n", key);
    p->missing++;
  }
}

/* "GET /docs answers HTML that contains every path of the document". */
static void test_docs_hold_every_path_webhook_and_schema_of_the_served_document(void **state)
{
  struct harness_server *s = *state;
  struct harness_response doc, html;
  struct page p = {0};
  const char *yaml;

  harness_call(s, &doc, "GET", NULL, NULL, "/v1/openapi.yaml");
  HARNESS_EXPECT_STATUS(&doc, 200);
  harness_call(s, &html, "GET", NULL, NULL, "/docs");
  HARNESS_EXPECT_STATUS(&html, 200);
  assert_true(harness_media_type_is(harness_response_header(&html, "Content-Type"), "text/html"));
  assert_non_null(strstr(html.body, "<!DOCTYPE html>"));
  yaml = doc.body;
  p.html = html.body;
  /* The counts keep the scan honest: a parse that found nothing would
   * check nothing. */
  assert_true(each_key(yaml, "\npaths:\n", 2, expect_code, &p) > 30);
  assert_true(each_key(yaml, "\nwebhooks:\n", 2, expect_code, &p) >= 2);
  assert_true(each_key(yaml, "\n  schemas:\n", 4, expect_code, &p) > 50);
  assert_int_equal(p.missing, 0);
  /* Works offline: nothing is loaded from anywhere. */
  assert_null(strstr(html.body, "<script"));
  assert_null(strstr(html.body, "src=\"http"));
  assert_null(strstr(html.body, "<link"));
  assert_null(strstr(html.body, "@import"));
  /* Text from the document is escaped, never markup: a description's
   * `<@user id>` shows as text. */
  assert_non_null(strstr(html.body, "&lt;@"));
  harness_response_free(&doc);
  harness_response_free(&html);
}

/* A path the document does not have is not in the page: the page follows
 * the document, it is not a fixed list. */
static void test_docs_name_the_operations_of_this_server(void **state)
{
  struct harness_server *s = *state;
  struct harness_response html;

  harness_call(s, &html, "GET", NULL, NULL, "/docs");
  HARNESS_EXPECT_STATUS(&html, 200);
  assert_non_null(strstr(html.body, "<code>/v1/webhooks/{id}/test</code>"));
  assert_non_null(strstr(
      html.body, "<span class=\"method\">PUT</span> <code>/v1/webhooks/{id}/mentions/me</code>"));
  assert_null(strstr(html.body, "<code>/v1/no-such-path</code>"));
  harness_response_free(&html);
  harness_call(s, &html, "POST", NULL, NULL, "/docs");
  HARNESS_EXPECT_PROBLEM(&html, 405, "method-not-allowed");
  harness_response_free(&html);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(
          test_docs_hold_every_path_webhook_and_schema_of_the_served_document, harness_setup,
          harness_teardown),
      cmocka_unit_test_setup_teardown(test_docs_name_the_operations_of_this_server, harness_setup,
                                      harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/docs", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
