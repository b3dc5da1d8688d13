/*
 * views.c - the bots' tests' one writer of a seat's view (views.h), where
 * test_fair and test_playbook each had a copy.
 */
#include "tests/bots/views.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/jsonw.h"

char *bots_test_view_of(const struct engine_game *game, int seat)
{
  struct json_writer w;
  char *text;

  jw_init(&w);
  engine_write_view(game, seat, &w);
  text = jw_finish(&w, NULL);
  assert_non_null(text);
  return text;
}
