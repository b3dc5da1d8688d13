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
  struct jr_cursor c;     /* at the next byte */
  int depth;              /* containers open */
  bool reject_duplicates; /* JSON_REJECT_DUPLICATES: a key met twice in one object declines */
};

/* ---- the cursor: one token at a time ---- */

void jr_cursor_init(struct jr_cursor *c, const char *text, size_t len)
{
  c->p = text;
  c->end = text + len;
}

static void skip_space(struct jr_cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

bool jr_take_spaced(struct jr_cursor *c, char byte)
{
  skip_space(c);
  if (c->p < c->end && *c->p == byte) {
    c->p++;
    return true;
  }
  return false;
}

/* The bytes a string of the subset holds as they are: printable ASCII
 * (0x7f included, as json_loadb takes it) but the quote and the backslash;
 * 0x80 and up are json_loadb's. One load per byte, not four comparisons. */
static const bool plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x20 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x30 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x40 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x50 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x60 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x70 */
};

bool jr_string(struct jr_cursor *c, const char **s, size_t *n)
{
  const char *q;

  if (!jr_take(c, '"'))
    return false;
  for (q = c->p; q < c->end && plain[(unsigned char)*q]; q++)
    ;
  if (q == c->end || *q != '"')
    return false;
  *s = c->p;
  *n = (size_t)(q - c->p);
  c->p = q + 1;
  return true;
}

/* No fraction or exponent, at most 18 digits (so no overflow to think
 * about), no leading zero: anything else is json_loadb's. */
bool jr_integer(struct jr_cursor *c, json_int_t *value)
{
  bool negative;
  json_int_t v = 0;
  int digits = 0;

  skip_space(c);
  negative = c->p < c->end && *c->p == '-';
  if (negative)
    c->p++;
  if (c->p + 1 < c->end && c->p[0] == '0' && c->p[1] >= '0' && c->p[1] <= '9')
    return false;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    if (++digits > 18)
      return false;
    v = v * 10 + (*c->p++ - '0');
  }
  if (!digits || (c->p < c->end && (*c->p == '.' || *c->p == 'e' || *c->p == 'E')))
    return false;
  *value = negative ? -v : v;
  return true;
}

/* Whether `word` comes next; consumes it when it does. */
static bool take_word(struct jr_cursor *c, const char *word)
{
  size_t n = strlen(word);

  skip_space(c);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
    return false;
  c->p += n;
  return true;
}

bool jr_boolean(struct jr_cursor *c, bool *value)
{
  if (take_word(c, "true"))
    *value = true;
  else if (take_word(c, "false"))
    *value = false;
  else
    return false;
  return true;
}

bool jr_at_end(struct jr_cursor *c)
{
  skip_space(c);
  return c->p == c->end;
}

/* ---- the tree ---- */

/* Each read_* returns a new reference, or NULL for text it leaves to
 * json_loadb (outside the subset, malformed) and when out of memory. */
static json_t *read_value(struct reader *r);

static json_t *read_integer(struct reader *r)
{
  json_int_t value;

  return jr_integer(&r->c, &value) ? json_integer(value) : NULL;
}

static json_t *read_literal(struct reader *r, const char *word, json_t *value)
{
  return take_word(&r->c, word) ? value : NULL;
}

/* After a container's opening byte: members until its closing one. */
static json_t *read_object(struct reader *r)
{
  json_t *object = json_object();
  const char *key;
  size_t n;

  if (object && jr_take(&r->c, '}'))
    return object;
  while (object) {
    json_t *value;

    if (!jr_string(&r->c, &key, &n) || !jr_take(&r->c, ':'))
      break;
    /* Declined, not refused: json_loadb says why, and where. */
    if (r->reject_duplicates && json_object_getn(object, key, n))
      break;
    value = read_value(r);
    if (!value || json_object_setn_new_nocheck(object, key, n, value) != 0)
      break;
    if (jr_take(&r->c, '}'))
      return object;
    if (!jr_take(&r->c, ','))
      break;
  }
  json_decref(object);
  return NULL;
}

static json_t *read_array(struct reader *r)
{
  json_t *array = json_array();

  if (array && jr_take(&r->c, ']'))
    return array;
  while (array) {
    json_t *value = read_value(r);

    if (!value || json_array_append_new(array, value) != 0)
      break;
    if (jr_take(&r->c, ']'))
      return array;
    if (!jr_take(&r->c, ','))
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
  r->c.p++; /* the opening byte */
  value = read(r);
  r->depth--;
  return value;
}

static json_t *read_value(struct reader *r)
{
  const char *start;
  size_t n;

  skip_space(&r->c);
  if (r->c.p == r->c.end)
    return NULL;
  switch (*r->c.p) {
  case '{':
    return read_container(r, read_object);
  case '[':
    return read_container(r, read_array);
  case '"':
    return jr_string(&r->c, &start, &n) ? json_stringn_nocheck(start, n) : NULL;
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
  return jr_parse_flags(text, len, 0, NULL);
}

json_t *jr_parse_flags(const char *text, size_t len, size_t flags, json_error_t *error)
{
  struct reader r = {.depth = 0, .reject_duplicates = (flags & JSON_REJECT_DUPLICATES) != 0};
  json_t *value = NULL;

  jr_cursor_init(&r.c, text, len);
  skip_space(&r.c);
  /* Like json_loadb without JSON_DECODE_ANY: an object or an array only.
   * Any flag but the one read here changes what json_loadb reads. */
  if ((flags & ~(size_t)JSON_REJECT_DUPLICATES) == 0 && r.c.p < r.c.end &&
      (*r.c.p == '{' || *r.c.p == '['))
    value = read_value(&r);
  if (value && jr_at_end(&r.c))
    return value;
  /* Declined, text after the value, or out of memory: whatever json_loadb
   * makes of it is the answer. */
  json_decref(value);
  return json_loadb(text, len, flags, error);
}
