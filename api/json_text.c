/*
 * json_text.c - the text of every JSON answer: byte for byte what
 * json_dumps(doc, JSON_COMPACT) writes, in a fraction of its time.
 *
 * Why not json_dumps: profiling the server under load (issue "Speed, load
 * and faults") put a quarter of all its CPU in json_dumps. Jansson guards
 * every object and array it writes against cycles by printing the
 * container's address with snprintf into a key and inserting it into a
 * hash table (a malloc, a hash, a free per container), and formats every
 * integer through snprintf; a view with a legal-move list holds hundreds of
 * containers. Our answers are trees built for one request, so there is no
 * cycle to find, and a direct walk into one growing buffer does the rest.
 *
 * The output must not differ from json_dumps' in any byte (clients and
 * tests see the same text either way), so this follows jansson 2.14's
 * rules exactly: keys in insertion order, "," and ":" without spaces,
 * strings escaped only where JSON requires (the quote, the backslash and
 * control characters; \b \f \n \r \t by name, the others as \u00XX with
 * upper-case hex), other bytes - UTF-8 included - copied as they are. A
 * real, rare in our answers, is written by jansson itself so its number
 * formatting cannot drift. tests/core/test_json_text.c compares the two on
 * every view and legal list of random games of every title.
 */
#include "api.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct text {
  char *buf; /* owned until handed out */
  size_t len, cap;
  bool failed; /* out of memory, or a value json_dumps would refuse */
};

static bool reserve(struct text *t, size_t more)
{
  size_t cap = t->cap ? t->cap : 16384; /* most answers fit: one allocation */
  char *grown;

  if (t->failed)
    return false;
  if (t->len + more + 1 <= t->cap)
    return true;
  while (cap < t->len + more + 1)
    cap *= 2;
  grown = realloc(t->buf, cap);
  if (!grown) {
    t->failed = true;
    return false;
  }
  t->buf = grown;
  t->cap = cap;
  return true;
}

static void put(struct text *t, const char *bytes, size_t n)
{
  if (!reserve(t, n))
    return;
  memcpy(t->buf + t->len, bytes, n);
  t->len += n;
}

static void put_char(struct text *t, char c)
{
  if (reserve(t, 1))
    t->buf[t->len++] = c;
}

/* Escape what JSON requires, copy runs of everything else in one go. */
static void put_string(struct text *t, const char *s, size_t n)
{
  static const char hex[] = "0123456789ABCDEF";
  size_t run = 0, i;

  put_char(t, '"');
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[6] = {'\\', 0, '0', '0', 0, 0};
    size_t esc_len = 2;

    if (c >= 0x20 && c != '"' && c != '\\')
      continue;
    put(t, s + run, i - run);
    run = i + 1;
    switch (c) {
    case '"':
    case '\\':
      esc[1] = (char)c;
      break;
    case '\b':
      esc[1] = 'b';
      break;
    case '\f':
      esc[1] = 'f';
      break;
    case '\n':
      esc[1] = 'n';
      break;
    case '\r':
      esc[1] = 'r';
      break;
    case '\t':
      esc[1] = 't';
      break;
    default:
      esc[1] = 'u';
      esc[4] = hex[c >> 4];
      esc[5] = hex[c & 0xf];
      esc_len = 6;
    }
    put(t, esc, esc_len);
  }
  put(t, s + run, n - run);
  put_char(t, '"');
}

static void put_integer(struct text *t, json_int_t v)
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
  put(t, p, (size_t)(digits + sizeof(digits) - p));
}

static void put_real(struct text *t, const json_t *v)
{
  char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

  if (!s) {
    t->failed = true;
    return;
  }
  put(t, s, strlen(s));
  free(s);
}

static void put_value(struct text *t, const json_t *v)
{
  const char *key;
  json_t *item;
  size_t i;
  bool first = true;

  switch (json_typeof(v)) {
  case JSON_OBJECT:
    put_char(t, '{');
    json_object_foreach((json_t *)v, key, item)
    {
      if (!first)
        put_char(t, ',');
      first = false;
      put_string(t, key, strlen(key));
      put_char(t, ':');
      put_value(t, item);
    }
    put_char(t, '}');
    break;
  case JSON_ARRAY:
    put_char(t, '[');
    json_array_foreach(v, i, item)
    {
      if (i)
        put_char(t, ',');
      put_value(t, item);
    }
    put_char(t, ']');
    break;
  case JSON_STRING:
    put_string(t, json_string_value(v), json_string_length(v));
    break;
  case JSON_INTEGER:
    put_integer(t, json_integer_value(v));
    break;
  case JSON_REAL:
    put_real(t, v);
    break;
  case JSON_TRUE:
    put(t, "true", 4);
    break;
  case JSON_FALSE:
    put(t, "false", 5);
    break;
  case JSON_NULL:
    put(t, "null", 4);
    break;
  }
}

char *api_json_text(const json_t *doc, size_t *len)
{
  struct text t = {0};

  if (!doc || (!json_is_object(doc) && !json_is_array(doc)))
    return NULL; /* what json_dumps refuses without JSON_ENCODE_ANY */
  put_value(&t, doc);
  if (t.failed || !reserve(&t, 0)) {
    free(t.buf);
    return NULL;
  }
  t.buf[t.len] = '\0';
  if (len)
    *len = t.len;
  return t.buf;
}
