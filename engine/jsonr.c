/*
 * jsonr.c - the fast JSON reader (jsonr.h): a recursive descent over the
 * subset Cairn writes, building the tree with jansson's unchecked setters;
 * whatever it does not read itself, json_loadb reads.
 */
#include "jsonr.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct reader {
  const char *p;   /* Borrowed: the next byte */
  const char *end; /* Borrowed: one past the last byte */
  int depth;       /* containers open */
};

/* Each read_* returns a new reference, or NULL for text it leaves to
 * json_loadb (outside the subset, malformed) and when out of memory. */
static json_t *read_value(struct reader *r);

static void skip_space(struct reader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

/* Whether the next byte is `c`; consumes it when it is. */
static bool take(struct reader *r, char c)
{
  if (r->p < r->end && *r->p == c) {
    r->p++;
    return true;
  }
  return false;
}

/* The bytes of a string at r->p (its opening quote) into *start, *n: only
 * printable ASCII without a backslash, which stands for itself. */
static bool read_plain_string(struct reader *r, const char **start, size_t *n)
{
  const char *q;

  if (!take(r, '"'))
    return false;
  for (q = r->p; q < r->end && *q != '"'; q++)
    if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x80 || *q == '\\')
      return false;
  if (q == r->end)
    return false;
  *start = r->p;
  *n = (size_t)(q - r->p);
  r->p = q + 1;
  return true;
}

/* An integer without fraction or exponent that fits 18 digits (so no
 * overflow to think about); anything else is json_loadb's. */
static json_t *read_integer(struct reader *r)
{
  bool negative = take(r, '-');
  json_int_t value = 0;
  int digits = 0;

  if (r->p < r->end && *r->p == '0' && r->p + 1 < r->end && r->p[1] >= '0' && r->p[1] <= '9')
    return NULL; /* a leading zero: malformed */
  while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
    if (++digits > 18)
      return NULL;
    value = value * 10 + (*r->p++ - '0');
  }
  if (!digits || (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E')))
    return NULL;
  return json_integer(negative ? -value : value);
}

static json_t *read_literal(struct reader *r, const char *word, json_t *value)
{
  size_t n = strlen(word);

  if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
    return NULL;
  r->p += n;
  return value;
}

/* After a container's opening byte: members until `close`, or NULL. */
static json_t *read_object(struct reader *r)
{
  json_t *object = json_object();
  const char *key;
  size_t n;

  skip_space(r);
  if (object && take(r, '}'))
    return object;
  while (object) {
    json_t *value;

    skip_space(r);
    if (!read_plain_string(r, &key, &n))
      break;
    skip_space(r);
    if (!take(r, ':'))
      break;
    value = read_value(r);
    if (!value || json_object_setn_new_nocheck(object, key, n, value) != 0)
      break;
    skip_space(r);
    if (take(r, '}'))
      return object;
    if (!take(r, ','))
      break;
  }
  json_decref(object);
  return NULL;
}

static json_t *read_array(struct reader *r)
{
  json_t *array = json_array();

  skip_space(r);
  if (array && take(r, ']'))
    return array;
  while (array) {
    json_t *value = read_value(r);

    if (!value || json_array_append_new(array, value) != 0)
      break;
    skip_space(r);
    if (take(r, ']'))
      return array;
    if (!take(r, ','))
      break;
  }
  json_decref(array);
  return NULL;
}

static json_t *read_container(struct reader *r, json_t *(*read)(struct reader *))
{
  json_t *value;

  if (++r->depth > JR_MAX_DEPTH)
    return NULL;
  r->p++; /* the opening byte */
  value = read(r);
  r->depth--;
  return value;
}

static json_t *read_value(struct reader *r)
{
  const char *start;
  size_t n;

  skip_space(r);
  if (r->p == r->end)
    return NULL;
  switch (*r->p) {
  case '{':
    return read_container(r, read_object);
  case '[':
    return read_container(r, read_array);
  case '"':
    if (!read_plain_string(r, &start, &n))
      return NULL;
    return json_stringn_nocheck(start, n);
  case 't':
    return read_literal(r, "true", json_true());
  case 'f':
    return read_literal(r, "false", json_false());
  case 'n':
    return read_literal(r, "null", json_null());
  default:
    return read_integer(r);
  }
}

json_t *jr_parse(const char *text, size_t len)
{
  struct reader r = {.p = text, .end = text + len};
  json_t *value = NULL;

  skip_space(&r);
  /* Like json_loadb without JSON_DECODE_ANY: an object or an array only. */
  if (r.p < r.end && (*r.p == '{' || *r.p == '['))
    value = read_value(&r);
  skip_space(&r);
  if (value && r.p == r.end)
    return value;
  /* Declined, text after the value, or out of memory: whatever json_loadb
   * makes of it is the answer. */
  json_decref(value);
  return json_loadb(text, len, 0, NULL);
}
