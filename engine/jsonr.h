/*
 * jsonr.h - JSON text read into a jansson tree, fast for the text Cairn
 * writes itself.
 *
 * Why: a replay parses every stored move of a game, and json_loads spent
 * more than twice as long on one as building the same tree does (an
 * Everest plan move: some 34,000 instructions against 10,000; issue 22,
 * "full replay of a 10,000-move game in 10 ms"): it reads through a
 * stream one byte at a time, copies every token into a buffer and checks
 * UTF-8 it need not check in ASCII.
 *
 * jr_parse reads the common subset directly: objects, arrays, strings of
 * printable ASCII without escapes, integers that fit json_int_t, true,
 * false and null, with any JSON whitespace, nested at most JR_MAX_DEPTH.
 * Anything else (an escape, a byte of 0x80 or more, a fraction or an
 * exponent, a malformed text) it hands to json_loadb, so its answer is
 * json_loadb(text, len, 0)'s for every input: the same tree, or NULL.
 * tests/engine/test_jsonr.c holds the two to it. Pure: no I/O, no globals.
 */
#ifndef CAIRN_ENGINE_JSONR_H
#define CAIRN_ENGINE_JSONR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define JR_MAX_DEPTH 32 /* deeper text is json_loadb's */

/* New reference: the object or array `text` (len bytes, borrowed) holds,
 * as json_loadb(text, len, 0, NULL) gives it; NULL when the text is not
 * one or memory ran out. */
json_t *jr_parse(const char *text, size_t len);

/* jr_parse with json_loadb's `flags`, of which it reads JSON_REJECT_DUPLICATES
 * itself (an object with a key twice is handed to json_loadb, which refuses
 * it); with any other flag json_loadb reads the text. For request bodies,
 * read as json_loadb(text, len, JSON_REJECT_DUPLICATES, error) reads them:
 * an Everest move's body took 33,000 instructions there, 9,700 here (issue
 * 22). `error` (may be NULL) is json_loadb's, filled only when NULL is
 * returned. */
json_t *jr_parse_flags(const char *text, size_t len, size_t flags, json_error_t *error);

/* Reading a text of a known shape token by token, building nothing: a
 * title replaying its own stored moves (engine.h, replay_text). Every
 * call skips whitespace first and returns false when the next token is
 * not the one it reads (the cursor is then somewhere inside the text and
 * the caller gives the text up). The tokens are jr_parse's subset, so a
 * text read this way means what its tree would. */
struct jr_cursor {
  const char *p;   /* Borrowed: the next byte */
  const char *end; /* Borrowed: one past the last byte */
};

void jr_cursor_init(struct jr_cursor *c, const char *text, size_t len);

/* jr_take's way past whitespace: the next byte was not `byte` itself. */
bool jr_take_spaced(struct jr_cursor *c, char byte);

/* One of the structural bytes { } [ ] , : . Inline, and the byte tried
 * before any whitespace: text Cairn writes has none, and a replay takes
 * some fifteen of these per move (issue 22). */
static inline bool jr_take(struct jr_cursor *c, char byte)
{
  if (c->p < c->end && *c->p == byte) {
    c->p++;
    return true;
  }
  return jr_take_spaced(c, byte);
}

/* A string of printable ASCII without escapes: *s (Borrowed, the text's
 * own bytes, not NUL-terminated) and *n. */
bool jr_string(struct jr_cursor *c, const char **s, size_t *n);

/* An integer, as jr_parse reads one (at most 18 digits). */
bool jr_integer(struct jr_cursor *c, json_int_t *value);

/* true or false. */
bool jr_boolean(struct jr_cursor *c, bool *value);

/* Whether only whitespace is left. */
bool jr_at_end(struct jr_cursor *c);

/* Whether the string *s, *n is `word`. Inline, so a literal word's length
 * is known where it is called: a length that differs answers at once, and
 * the bytes are compared in a loop the compiler unrolls, not by a call to
 * memcmp (a replay asks this some twenty times per move, issue 22). */
static inline bool jr_is(const char *s, size_t n, const char *word)
{
  size_t len = strlen(word), i;

  if (n != len)
    return false;
  for (i = 0; i < len; i++)
    if (s[i] != word[i])
      return false;
  return true;
}

#endif
