/*
 * jsonw.c - JSON text written straight into one growing buffer (jsonw.h).
 * The rules followed are jansson 2.14's, so the text equals json_dumps'.
 */
#include "jsonw.h"
#include "jsonr.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_CAPACITY 16384 /* most answers fit: one allocation */

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

/* Bytes JSON requires escaped: the quote, the backslash, control characters. */
static inline bool needs_escape(unsigned char c)
{
  return c < 0x20 || c == '"' || c == '\\';
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

/* Escape what JSON requires, copy runs of everything else in one go. Ids,
 * keys and names rarely hold anything to escape, so the whole string is
 * reserved for and scanned once first. */
static void put_string(struct json_writer *w, const char *s, size_t n)
{
  size_t run = 0, i;

  if (!reserve(w, n + 2))
    return;
  for (i = 0; i < n && !needs_escape((unsigned char)s[i]); i++)
    ;
  if (i == n) {
    w->buf[w->len] = '"';
    memcpy(w->buf + w->len + 1, s, n);
    w->buf[w->len + 1 + n] = '"';
    w->len += n + 2;
    return;
  }
  put_char(w, '"');
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

void jw_key(struct json_writer *w, const char *key)
{
  if (w->after_key) {
    w->failed = true; /* two keys in a row */
    return;
  }
  separate(w);
  put_string(w, key, strlen(key));
  put_char(w, ':');
  w->after_key = true;
}

void jw_string_n(struct json_writer *w, const char *s, size_t n)
{
  before_value(w);
  put_string(w, s, n);
}

void jw_string(struct json_writer *w, const char *s)
{
  if (!s) {
    jw_null(w);
    return;
  }
  jw_string_n(w, s, strlen(s));
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

void jw_json(struct json_writer *w, const json_t *v)
{
  const char *key;
  json_t *item;
  size_t i;

  if (!v) {
    jw_null(w);
    return;
  }
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    jw_object_begin(w);
    json_object_foreach((json_t *)v, key, item)
    {
      jw_key(w, key);
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

void jw_key_string(struct json_writer *w, const char *key, const char *s)
{
  jw_key(w, key);
  jw_string(w, s);
}

void jw_key_int(struct json_writer *w, const char *key, int64_t v)
{
  jw_key(w, key);
  jw_int(w, v);
}

void jw_key_bool(struct json_writer *w, const char *key, bool v)
{
  jw_key(w, key);
  jw_bool(w, v);
}

void jw_key_null(struct json_writer *w, const char *key)
{
  jw_key(w, key);
  jw_null(w);
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
