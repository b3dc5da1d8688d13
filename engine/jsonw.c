/*
 * jsonw.c - JSON text written straight into one growing buffer (jsonw.h).
 * The rules followed are jansson 2.14's, so the text equals json_dumps'.
 */
#include "jsonw.h"
#include "jsonr.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_CAPACITY 16384 /* most answers fit: one allocation */
#define SMALL_CAPACITY 1024  /* a stored move or its events (jw_dumps_sorted) */

void jw_init(struct json_writer *w)
{
  memset(w, 0, sizeof(*w));
}

void jw_discard(struct json_writer *w)
{
  free(w->buf);
  jw_init(w);
}

/* Room for `more` bytes and a NUL; false (and failed) when out of memory. */
static bool grow(struct json_writer *w, size_t more)
{
  size_t cap = w->cap ? w->cap : FIRST_CAPACITY;
  char *grown;

  if (w->failed)
    return false;
  while (cap < w->len + more + 1)
    cap *= 2;
  grown = realloc(w->buf, cap);
  if (!grown) {
    w->failed = true;
    return false;
  }
  w->buf = grown;
  w->cap = cap;
  return true;
}

/* Inline: every byte written passes here, and the buffer nearly always
 * has room. */
static inline bool reserve(struct json_writer *w, size_t more)
{
  if (w->len + more + 1 <= w->cap) /* a failed writer has cap 0 or is never written again */
    return !w->failed;
  return grow(w, more);
}

static inline void put(struct json_writer *w, const char *bytes, size_t n)
{
  if (!reserve(w, n))
    return;
  memcpy(w->buf + w->len, bytes, n);
  w->len += n;
}

static inline void put_char(struct json_writer *w, char c)
{
  if (reserve(w, 1))
    w->buf[w->len++] = c;
}

/* The separator a new member or item needs, and its mark as written. */
static void separate(struct json_writer *w)
{
  uint64_t bit;

  if (w->depth == 0)
    return;
  bit = (uint64_t)1 << (w->depth - 1);
  if (w->has_item & bit)
    put_char(w, ',');
  w->has_item |= bit;
}

/* Before any value: a comma between array items; nothing after a key. */
static void before_value(struct json_writer *w)
{
  if (w->after_key)
    w->after_key = false;
  else
    separate(w);
}

/* Bytes JSON requires escaped: the quote, the backslash, control
 * characters. A table, so the scan of a string is one load a byte. */
static const bool must_escape[256] = {
    [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1,
    [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1,
    [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1,
    [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1,
    [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, ['"'] = 1,  ['\\'] = 1,
};

static inline bool needs_escape(unsigned char c)
{
  return must_escape[c];
}

/* Whether any of the 8 bytes of `word` needs escaping: a control byte
 * (below 0x20), the quote or the backslash. The bit tricks are exact for
 * "any" (a borrow only runs on from a byte that already matched), so a word
 * without a match is copied whole; a match sends the scan back to bytes,
 * which find the same byte the table does. Eight bytes a step is what
 * Because It's There's card texts, most of its view, need (issue 22). */
static inline bool word_needs_escape(uint64_t word)
{
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');

  return (((word - ones * 0x20) & ~word) | ((quote - ones) & ~quote) |
          ((backslash - ones) & ~backslash)) &
         highs;
}

/* Strings this long are scanned a word at a time first: shorter ones (most
 * keys and names) are done sooner byte by byte. */
#define LONG_STRING 16

/* Copy s's leading words that need no escaping to out; how many bytes. Out
 * of line, so the short strings' byte loop keeps its registers. */
static __attribute__((noinline)) size_t copy_clean_words(char *out, const char *s, size_t n)
{
  size_t i;

  for (i = 0; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
    uint64_t word;

    memcpy(&word, s + i, sizeof word);
    if (word_needs_escape(word))
      break;
    memcpy(out + i, &word, sizeof word);
  }
  return i;
}

/* The escape of one byte that needs one, into esc (6 bytes); its length. */
static size_t escape(unsigned char c, char esc[6])
{
  static const char hex[] = "0123456789ABCDEF";

  esc[0] = '\\';
  switch (c) {
  case '"':
  case '\\':
    esc[1] = (char)c;
    return 2;
  case '\b':
    esc[1] = 'b';
    return 2;
  case '\f':
    esc[1] = 'f';
    return 2;
  case '\n':
    esc[1] = 'n';
    return 2;
  case '\r':
    esc[1] = 'r';
    return 2;
  case '\t':
    esc[1] = 't';
    return 2;
  default:
    esc[1] = 'u';
    esc[2] = '0';
    esc[3] = '0';
    esc[4] = hex[c >> 4];
    esc[5] = hex[c & 0xf];
    return 6;
  }
}

/* The slow path of put_string, from s[i], the first byte to escape: the
 * opening quote and s[0..i) are written already. */
static void put_escaped_rest(struct json_writer *w, const char *s, size_t i, size_t n)
{
  size_t run = i;

  for (; i < n; i++) {
    char esc[6];

    if (!needs_escape((unsigned char)s[i]))
      continue;
    put(w, s + run, i - run);
    run = i + 1;
    put(w, esc, escape((unsigned char)s[i], esc));
  }
  put(w, s + run, n - run);
  put_char(w, '"');
}

/* The quoted string: copied as it is scanned, since ids, keys and names
 * rarely hold anything to escape (a legal list writes a thousand of them:
 * callgrind counted this and jw_key at a fifth of a Himalaya move's
 * instructions when the scan and the copy were two passes and a memcpy
 * call). `extra` more bytes are reserved for the caller to add after. */
static void put_string_and(struct json_writer *w, const char *s, size_t n, size_t extra)
{
  char *out;
  size_t i;

  if (!reserve(w, n + 2 + extra))
    return;
  out = w->buf + w->len;
  *out++ = '"';
  i = n >= LONG_STRING ? copy_clean_words(out, s, n) : 0;
  for (; i < n; i++) {
    unsigned char c = (unsigned char)s[i];

    if (needs_escape(c))
      break;
    out[i] = (char)c;
  }
  if (i == n) {
    out[n] = '"';
    w->len += n + 2;
    return;
  }
  w->len += 1 + i;
  put_escaped_rest(w, s, i, n);
}

static void put_string(struct json_writer *w, const char *s, size_t n)
{
  put_string_and(w, s, n, 0);
}

static void open_container(struct json_writer *w, char bracket)
{
  before_value(w);
  if (w->depth >= JW_MAX_DEPTH) {
    w->failed = true;
    return;
  }
  put_char(w, bracket);
  w->depth++;
  w->has_item &= ~((uint64_t)1 << (w->depth - 1));
}

static void close_container(struct json_writer *w, char bracket)
{
  if (w->depth == 0 || w->after_key) {
    w->failed = true; /* a caller bug: nothing open, or a key without a value */
    return;
  }
  w->depth--;
  put_char(w, bracket);
}

void jw_object_begin(struct json_writer *w)
{
  open_container(w, '{');
}

void jw_object_end(struct json_writer *w)
{
  close_container(w, '}');
}

void jw_array_begin(struct json_writer *w)
{
  open_container(w, '[');
}

void jw_array_end(struct json_writer *w)
{
  close_container(w, ']');
}

void jw_key_n(struct json_writer *w, const char *key, size_t n)
{
  if (w->after_key) {
    w->failed = true; /* two keys in a row */
    return;
  }
  separate(w);
  put_string_and(w, key, n, 1);
  put_char(w, ':'); /* reserved above: no growth check fails here */
  w->after_key = true;
}

/* Room for n bytes and a comma, the comma written where one is due: the
 * literal paths' one reservation (separate reserves again for its comma). */
static char *room_after_separator(struct json_writer *w, size_t n)
{
  uint64_t bit;

  if (!reserve(w, n + 1))
    return NULL;
  if (w->depth > 0) {
    bit = (uint64_t)1 << (w->depth - 1);
    if (w->has_item & bit)
      w->buf[w->len++] = ',';
    w->has_item |= bit;
  }
  return w->buf + w->len;
}

char *jw_key_room(struct json_writer *w, size_t n)
{
  if (w->after_key) {
    w->failed = true; /* two keys in a row */
    return NULL;
  }
  return room_after_separator(w, n + 3);
}

char *jw_string_room(struct json_writer *w, size_t n)
{
  if (w->after_key) {
    w->after_key = false;
    return reserve(w, n + 2) ? w->buf + w->len : NULL;
  }
  return room_after_separator(w, n + 2);
}

void jw_string_n(struct json_writer *w, const char *s, size_t n)
{
  before_value(w);
  put_string(w, s, n);
}

void jw_int(struct json_writer *w, int64_t v)
{
  char digits[24];
  char *p = digits + sizeof(digits);
  /* Through unsigned, so the most negative value negates cleanly. */
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    *--p = '-';
  before_value(w);
  put(w, p, (size_t)(digits + sizeof(digits) - p));
}

void jw_bool(struct json_writer *w, bool v)
{
  before_value(w);
  if (v)
    put(w, "true", 4);
  else
    put(w, "false", 5);
}

void jw_null(struct json_writer *w)
{
  before_value(w);
  put(w, "null", 4);
}

void jw_raw(struct json_writer *w, const char *text, size_t n)
{
  before_value(w);
  put(w, text, n);
}

char *jw_hex_text(char *out, const uint8_t *bytes, size_t n)
{
  static const char digits[] = "0123456789abcdef";

  for (size_t i = 0; i < n; i++) {
    *out++ = digits[bytes[i] >> 4];
    *out++ = digits[bytes[i] & 0xf];
  }
  return out;
}

void jw_hex(struct json_writer *w, const uint8_t *bytes, size_t n)
{
  char *out;

  before_value(w);
  if (!reserve(w, 2 * n + 2))
    return;
  out = w->buf + w->len;
  *out++ = '"';
  out = jw_hex_text(out, bytes, n);
  *out = '"';
  w->len += 2 * n + 2;
}

void jw_compose_begin(struct json_writer *w)
{
  before_value(w);
}

bool jw_room(struct json_writer *w, size_t more)
{
  return reserve(w, more);
}

void jw_reset(struct json_writer *w)
{
  w->len = 0;
  w->after_key = false;
  w->depth = 0;
  w->has_item = 0;
}

/* A real, rare in answers, is written by jansson itself so its number
 * formatting cannot drift from json_dumps'. */
static void put_real(struct json_writer *w, const json_t *v)
{
  char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

  if (!s) {
    w->failed = true;
    return;
  }
  jw_raw(w, s, strlen(s));
  free(s);
}

/* A key of `n` bytes (it may hold a NUL, as jansson's may). */
static void key_n(struct json_writer *w, const char *key, size_t n)
{
  if (w->after_key) {
    w->failed = true;
    return;
  }
  separate(w);
  put_string_and(w, key, n, 1);
  put_char(w, ':');
  w->after_key = true;
}

void jw_json(struct json_writer *w, const json_t *v)
{
  const char *key;
  json_t *item;
  size_t i, len;

  if (!v) {
    jw_null(w);
    return;
  }
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    jw_object_begin(w);
    json_object_keylen_foreach((json_t *)v, key, len, item)
    {
      key_n(w, key, len);
      jw_json(w, item);
    }
    jw_object_end(w);
    break;
  case JSON_ARRAY:
    jw_array_begin(w);
    json_array_foreach(v, i, item) jw_json(w, item);
    jw_array_end(w);
    break;
  case JSON_STRING:
    jw_string_n(w, json_string_value(v), json_string_length(v));
    break;
  case JSON_INTEGER:
    jw_int(w, json_integer_value(v));
    break;
  case JSON_REAL:
    put_real(w, v);
    break;
  case JSON_TRUE:
    jw_bool(w, true);
    break;
  case JSON_FALSE:
    jw_bool(w, false);
    break;
  case JSON_NULL:
    jw_null(w);
    break;
  }
}

struct sorted_key {
  const char *key;
  size_t len;
  json_t *value;
};

/* jansson's order for JSON_SORT_KEYS: the bytes, then the shorter first. */
static int compare_keys(const void *a, const void *b)
{
  const struct sorted_key *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->key, y->key, n);

  if (c)
    return c;
  return x->len < y->len ? -1 : x->len > y->len;
}

static void write_sorted(struct json_writer *w, const json_t *v);

static void write_sorted_object(struct json_writer *w, const json_t *v)
{
  struct sorted_key few[16], *keys = few;
  size_t n = json_object_size(v), i = 0, len;
  const char *key;
  json_t *item;

  if (n > sizeof(few) / sizeof(few[0]) && !(keys = malloc(n * sizeof(*keys)))) {
    w->failed = true;
    return;
  }
  json_object_keylen_foreach((json_t *)v, key, len, item)
  {
    keys[i++] = (struct sorted_key){.key = key, .len = len, .value = item};
  }
  qsort(keys, n, sizeof(*keys), compare_keys);
  jw_object_begin(w);
  for (i = 0; i < n; i++) {
    key_n(w, keys[i].key, keys[i].len);
    write_sorted(w, keys[i].value);
  }
  jw_object_end(w);
  if (keys != few)
    free(keys);
}

static void write_sorted(struct json_writer *w, const json_t *v)
{
  json_t *item;
  size_t i;

  if (json_is_object(v)) {
    write_sorted_object(w, v);
  } else if (json_is_array(v)) {
    jw_array_begin(w);
    json_array_foreach(v, i, item) write_sorted(w, item);
    jw_array_end(w);
  } else {
    jw_json(w, v);
  }
}

char *jw_dumps_sorted(const json_t *v)
{
  struct json_writer w;

  if (!json_is_object(v) && !json_is_array(v))
    return NULL; /* what json_dumps refuses without JSON_ENCODE_ANY */
  jw_init(&w);
  /* The stored texts of a move and of its events are a few hundred bytes:
   * a first buffer glibc keeps in its per-thread caches (up to 1,032
   * bytes), where FIRST_CAPACITY's malloc and free went to the shared
   * heap, and its consolidation, twice a move (issue 22). */
  w.buf = malloc(SMALL_CAPACITY);
  w.cap = w.buf ? SMALL_CAPACITY : 0;
  write_sorted(&w, v);
  return jw_finish(&w, NULL);
}

void jw_int_array(struct json_writer *w, const int *v, size_t n)
{
  size_t i;

  jw_array_begin(w);
  for (i = 0; i < n; i++)
    jw_int(w, v[i]);
  jw_array_end(w);
}

char *jw_finish(struct json_writer *w, size_t *len)
{
  char *text;

  if (w->failed || w->depth != 0 || w->after_key || !reserve(w, 0)) {
    jw_discard(w);
    return NULL;
  }
  w->buf[w->len] = '\0';
  text = w->buf;
  if (len)
    *len = w->len;
  jw_init(w);
  return text;
}

json_t *jw_finish_tree(struct json_writer *w)
{
  size_t len = 0;
  char *text = jw_finish(w, &len);
  json_t *tree = text ? jr_parse(text, len) : NULL;

  free(text);
  return tree;
}
