/*
 * jsonw.h - JSON text written straight into one growing buffer.
 *
 * Why: a view or a legal-move list built as a jansson tree, written out and
 * freed costs an allocation per value and a walk more (issue "Speed": malloc
 * was a fifth of the server's CPU, a Himalaya legal list alone some 1,000
 * allocations). Titles write their views and legal lists with these calls
 * instead (engine.h, `write_view` and `write_legal`), and the server writes
 * its answers around them.
 *
 * The text is byte for byte what json_dumps(tree, JSON_COMPACT) gives for
 * the same values in the same order: "," and ":" without spaces, strings
 * escaped only where JSON requires (the quote, the backslash and control
 * characters; \b \f \n \r \t by name, the others as \u00XX with upper-case
 * hex), every other byte copied, so a page or a test sees the same answer
 * whichever way it was made. tests/core/test_json_text.c holds the two to it.
 *
 * Commas and colons are the writer's: call jw_key before each member's value
 * inside an object, and nothing between array items. Out of memory (or
 * nesting deeper than JW_MAX_DEPTH) marks the writer failed; every later
 * call is then a no-op and jw_finish gives NULL, so a caller checks once at
 * the end. Pure: no I/O, no globals; usable by the engine.
 */
#ifndef CAIRN_ENGINE_JSONW_H
#define CAIRN_ENGINE_JSONW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JW_MAX_DEPTH 64

struct json_writer {
  char *buf; /* owned until jw_finish hands it out */
  size_t len, cap;
  bool failed;       /* out of memory, too deep, or a value JSON cannot hold */
  bool after_key;    /* a key was written: its value follows, without a comma */
  unsigned depth;    /* containers open */
  uint64_t has_item; /* bit d: the container at depth d+1 holds a member already */
};

/* An empty writer (no allocation until the first byte). */
void jw_init(struct json_writer *w);

/* The text written, NUL-terminated, and its length in *len (may be NULL):
 * the caller's, freed with free(). NULL when the writer failed or a
 * container is still open. Leaves the writer empty, as after jw_init. */
char *jw_finish(struct json_writer *w, size_t *len);

/* The text written, parsed: a new reference, NULL when the writer failed
 * (or out of memory). For the few callers that want a tree of what a
 * writer wrote (tools, tests, bots, stored events), so a shape has one
 * writer. Leaves the writer empty, as jw_finish does. */
json_t *jw_finish_tree(struct json_writer *w);

/* What json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS) writes, byte for
 * byte (the stored form of moves, events and results, which the log's hash
 * chain covers), without jansson's cycle check and per-integer snprintf:
 * a tenth of an Everest move's server CPU went to json_dumps (issue 22).
 * NULL for a value that is not an object or an array, or out of memory;
 * the caller frees the text. tests/core/test_json_text.c holds it to
 * json_dumps. */
char *jw_dumps_sorted(const json_t *v);

/* Drop whatever was written. Leaves the writer as after jw_init. */
void jw_discard(struct json_writer *w);

void jw_object_begin(struct json_writer *w);
void jw_object_end(struct json_writer *w);
void jw_array_begin(struct json_writer *w);
void jw_array_end(struct json_writer *w);

/* The next member's key (n bytes); exactly one value must follow. */
void jw_key_n(struct json_writer *w, const char *key, size_t n);

void jw_string_n(struct json_writer *w, const char *s, size_t n); /* n bytes of s */
void jw_int(struct json_writer *w, int64_t v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);

/* A jansson value (borrowed), as json_dumps(JSON_COMPACT | JSON_ENCODE_ANY)
 * writes it; NULL writes null. For the parts still built as trees. */
void jw_json(struct json_writer *w, const json_t *v);

/* One complete JSON value already written as text (n bytes), copied as is. */
void jw_raw(struct json_writer *w, const char *text, size_t n);

/*
 * One value composed as text piece by piece, for a writer whose value is
 * mostly structure (the choices trees: a call per bracket, key and comma
 * was most of writing them, issue 22): jw_compose_begin writes the
 * separator a value needs where it stands, each jw_compose appends n bytes
 * as they are, and no other call may come on this writer until the pieces
 * make one complete value. The caller vouches for the text: names that
 * need no escaping, and values a writer wrote (a scratch writer's, below).
 */
void jw_compose_begin(struct json_writer *w);

/* Room for `more` bytes and a NUL past w->len; false (and the writer
 * failed) when there is none. For jw_compose, inline below. */
bool jw_room(struct json_writer *w, size_t more);

/* Inline, so a literal piece is a few stores, not a call and a memcpy. */
static inline void jw_compose(struct json_writer *w, const char *bytes, size_t n)
{
  if (w->failed || (w->len + n + 1 > w->cap && !jw_room(w, n)))
    return;
  memcpy(w->buf + w->len, bytes, n);
  w->len += n;
}
/* jw_compose of a string literal, its length known when compiled. */
#define JW_COMPOSE(w, literal) jw_compose((w), (literal), sizeof(literal) - 1)

/* Empty the text but keep the buffer (and a failure): a scratch writer
 * that writes one value after another for jw_compose to copy from
 * w->buf, w->len bytes. */
void jw_reset(struct json_writer *w);

/*
 * The NUL-terminated forms are inline so that a literal's strlen is known
 * when compiled: nearly every key is one, and measuring it was a twentieth
 * of writing a view (issue 22).
 */

/* Room for a key of n bytes that needs no escaping, after its separator:
 * where its quoted text and colon go (n + 3 bytes, w->len unmoved), or
 * NULL when the writer failed (two keys in a row, out of memory). For
 * jw_key's literal path. */
char *jw_key_room(struct json_writer *w, size_t n);

/* Room for a string value of n bytes that needs no escaping, after its
 * separator: where its quoted text goes (n + 2 bytes), or NULL. For
 * jw_string's literal path. */
char *jw_string_room(struct json_writer *w, size_t n);

/* The bytes JSON escapes in a string (the NUL ends one anyway). */
#define JW_ESCAPED                                                                                 \
  "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17"   \
  "\x18\x19\x1a"                                                                                   \
  "\x1b\x1c\x1d\x1e\x1f\"\\"

/* Whether s (n bytes, NUL-terminated) is known when compiled to hold
 * nothing JSON escapes: the compiler works strcspn out for two literals;
 * for anything else this is false, never a scan at run time. */
#define JW_KNOWN_PLAIN(s, n)                                                                       \
  (__builtin_constant_p(n) && (n) <= JW_LITERAL_MAX &&                                             \
   __builtin_constant_p(strcspn((s), JW_ESCAPED)) && strcspn((s), JW_ESCAPED) == (n))

/* Literals this long or shorter take the inline path below. */
#define JW_LITERAL_MAX 32

/* The next member's key (NUL-terminated); exactly one value must follow.
 * A literal key (its length known when compiled, nothing to escape) is
 * stored whole, its bytes a few moves: scanning and copying a key byte by
 * byte cost about 140 instructions, and a Because It's There view writes
 * some 700 keys (issue 22). Any other key goes through jw_key_n. */
static inline void jw_key(struct json_writer *w, const char *key)
{
  size_t n = strlen(key);
  char *out;

  if (JW_KNOWN_PLAIN(key, n)) {
    out = jw_key_room(w, n);
    if (!out)
      return;
    out[0] = '"';
    memcpy(out + 1, key, n);
    out[n + 1] = '"';
    out[n + 2] = ':';
    w->len += n + 3;
    w->after_key = true;
    return;
  }
  jw_key_n(w, key, n);
}

/* NULL writes null. A literal takes jw_key's inline path. */
static inline void jw_string(struct json_writer *w, const char *s)
{
  size_t n;
  char *out;

  if (!s) {
    jw_null(w);
    return;
  }
  n = strlen(s);
  if (JW_KNOWN_PLAIN(s, n)) {
    out = jw_string_room(w, n);
    if (!out)
      return;
    out[0] = '"';
    memcpy(out + 1, s, n);
    out[n + 1] = '"';
    w->len += n + 2;
    return;
  }
  jw_string_n(w, s, n);
}

/* Members in one call: a key and its value. */
static inline void jw_key_string(struct json_writer *w, const char *key, const char *s)
{
  jw_key(w, key);
  jw_string(w, s);
}

static inline void jw_key_int(struct json_writer *w, const char *key, int64_t v)
{
  jw_key(w, key);
  jw_int(w, v);
}

static inline void jw_key_bool(struct json_writer *w, const char *key, bool v)
{
  jw_key(w, key);
  jw_bool(w, v);
}

static inline void jw_key_null(struct json_writer *w, const char *key)
{
  jw_key(w, key);
  jw_null(w);
}

/* [v[0], ..., v[n-1]] */
void jw_int_array(struct json_writer *w, const int *v, size_t n);

/* The n bytes as a string of lowercase hex (2n digits). Not constant-time
 * (a table lookup a nibble, unlike libsodium's sodium_bin2hex): for public
 * bytes only (hashes, public keys, a seed once revealed), written on every
 * view, where sodium's cost 800 instructions a 32-byte value (issue 22). */
void jw_hex(struct json_writer *w, const uint8_t *bytes, size_t n);
/* The 2 * n lowercase hex digits of `bytes` at `out` (no NUL), by table:
 * for public bytes only (no constant time). Returns the end. */
char *jw_hex_text(char *out, const uint8_t *bytes, size_t n);

#endif
