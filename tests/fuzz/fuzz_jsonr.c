/*
 * fuzz_jsonr.c - libFuzzer harness: engine/jsonr.c's reader against
 * jansson's, on any bytes. jr_parse promises json_loadb(text, len, 0)'s
 * answer for every input (the same tree, or NULL), and it reads imported
 * games' moves, which a client wrote: a difference is a finding, and so is
 * any crash or sanitizer report. jr_parse_flags under JSON_REJECT_DUPLICATES
 * (every request body, api/body.c) is held to json_loadb under the same flag
 * likewise. The cursor functions are run over the
 * same bytes too: they must never read past the end, whatever they meet.
 *
 * Build and run: `make fuzz`; `make test` runs a short pass. Seeds:
 * tests/fuzz/corpus/fuzz_jsonr/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jsonr.h"
#include "position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walk the bytes with the cursor, taking whatever token comes next. */
static void walk_with_cursor(const char *text, size_t len)
{
  struct jr_cursor c;
  const char *s;
  size_t n;
  json_int_t i;
  bool b;
  int steps;

  jr_cursor_init(&c, text, len);
  for (steps = 0; steps < 4096 && !jr_at_end(&c); steps++) {
    if (jr_take(&c, '{') || jr_take(&c, '}') || jr_take(&c, '[') || jr_take(&c, ']') ||
        jr_take(&c, ',') || jr_take(&c, ':') || jr_string(&c, &s, &n) || jr_integer(&c, &i) ||
        jr_boolean(&c, &b))
      continue;
    break;
  }
}

/* jr_parse_flags(flags) against json_loadb(flags) on the same bytes. */
static void compare_with_jansson(const char *text, size_t size, size_t flags)
{
  json_t *mine = jr_parse_flags(text, size, flags, NULL);
  json_t *theirs = json_loadb(text, size, flags, NULL);

  if (!mine != !theirs)
    fuzz_die("jr_parse %s where json_loadb %s", mine ? "read a tree" : "read nothing",
             theirs ? "read a tree" : "read nothing");
  if (mine && !json_equal(mine, theirs))
    fuzz_die("jr_parse and json_loadb read different trees");
  if (mine) {
    char *a = json_dumps(mine, JSON_COMPACT | JSON_ENCODE_ANY);
    char *b = json_dumps(theirs, JSON_COMPACT | JSON_ENCODE_ANY);

    if (!a || !b || strcmp(a, b) != 0)
      fuzz_die("jr_parse's tree writes %s, json_loadb's %s", a ? a : "(null)", b ? b : "(null)");
    free(a);
    free(b);
  }
  json_decref(mine);
  json_decref(theirs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* A copy exactly `size` long, so reading one byte past it is caught. */
  char *text = malloc(size ? size : 1);

  if (!text)
    return 0;
  memcpy(text, data, size);
  compare_with_jansson(text, size, 0);
  compare_with_jansson(text, size, JSON_REJECT_DUPLICATES);
  walk_with_cursor(text, size);
  free(text);
  return 0;
}
