/*
 * test_document.c - the API document against the engine (issue 21, "every
 * move shape in the document"): every $ref in it resolves and every schema
 * is used, and every move, `legal` list, `choices` tree, view, event, result and option set
 * that random games of every registered title produce fits the schemas that
 * title's part of the document gives them.
 *
 * The document is the one the build assembles and the server serves (named by
 * CAIRN_OPENAPI, which build.mk's run-tests sets). It is read with libyaml
 * into jansson and judged by a small JSON-Schema validator that knows only the
 * keywords the document uses and fails the test on any other, so a schema it
 * cannot judge is never passed by accident. A title is found in the document
 * through the `TitleGame` discriminator, so a fifth title is checked as soon
 * as it is registered, and fails here until its fragment describes it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/order.h"
#include <regex.h>
#include <yaml.h>

#include "engine/engine.h"

/* Random games per title, seat count and option value, and the most steps
 * one may take: enough to reach every phase of each title (the longest,
 * Everest, ends in well under 2,000 steps in tests/bench/bench_endings.c's
 * figures) while the whole file stays within seconds under ASan. */
#define GAMES_PER_SETUP 2
#define MAX_STEPS       4000

/* ---------------------------------------------------------------- YAML to JSON */

/* Compiled patterns, kept for the process: the document has a handful,
 * and compiling one for every string checked (each node of every `choices`
 * tree names a pointer matched by one) was most of this test's time under
 * the sanitizers. */
#define PATTERNS_KEPT 64
static struct {
  char *pattern; /* owned */
  regex_t re;
} kept[PATTERNS_KEPT];

static const regex_t *compiled(const char *pattern)
{
  int i;

  for (i = 0; i < PATTERNS_KEPT && kept[i].pattern; i++)
    if (strcmp(kept[i].pattern, pattern) == 0)
      return &kept[i].re;
  assert_true(i < PATTERNS_KEPT);
  assert_int_equal(regcomp(&kept[i].re, pattern, REG_EXTENDED | REG_NOSUB), 0);
  kept[i].pattern = strdup(pattern);
  assert_non_null(kept[i].pattern);
  return &kept[i].re;
}

static bool plain_matches(const char *text, const char *pattern)
{
  return regexec(compiled(pattern), text, 0, NULL, 0) == 0;
}

/* New reference: a scalar as YAML 1.2's core schema reads it. Quoted scalars
 * are strings; plain ones may be null, a boolean or a number. */
static json_t *scalar_json(const yaml_node_t *node)
{
  const char *text = (const char *)node->data.scalar.value;

  if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return json_stringn(text, node->data.scalar.length);
  if (plain_matches(text, "^(|~|null|Null|NULL)$"))
    return json_null();
  if (plain_matches(text, "^(true|True|TRUE)$"))
    return json_true();
  if (plain_matches(text, "^(false|False|FALSE)$"))
    return json_false();
  if (plain_matches(text, "^[-+]?[0-9]+$"))
    return json_integer(strtoll(text, NULL, 10));
  if (plain_matches(text, "^[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$"))
    return json_real(strtod(text, NULL));
  return json_stringn(text, node->data.scalar.length);
}

/* New reference: the node as JSON. A mapping key must be a scalar and appear
 * once, as JSON requires. */
static json_t *node_json(yaml_document_t *doc, yaml_node_t *node)
{
  json_t *out = NULL;

  assert_non_null(node);
  if (node->type == YAML_SCALAR_NODE)
    return scalar_json(node);
  if (node->type == YAML_SEQUENCE_NODE) {
    out = json_array();
    for (yaml_node_item_t *i = node->data.sequence.items.start; i < node->data.sequence.items.top;
         i++)
      json_array_append_new(out, node_json(doc, yaml_document_get_node(doc, *i)));
    return out;
  }
  out = json_object();
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
       p++) {
    yaml_node_t *key = yaml_document_get_node(doc, p->key);

    assert_int_equal(key->type, YAML_SCALAR_NODE);
    if (json_object_get(out, (const char *)key->data.scalar.value))
      fail_msg("the document holds the key %s twice in one mapping", key->data.scalar.value);
    json_object_set_new(out, (const char *)key->data.scalar.value,
                        node_json(doc, yaml_document_get_node(doc, p->value)));
  }
  return out;
}

/* New reference: the document at CAIRN_OPENAPI as JSON. */
static json_t *load_document(void)
{
  const char *path = getenv("CAIRN_OPENAPI");
  yaml_parser_t parser;
  yaml_document_t doc;
  json_t *out;
  FILE *f;

  if (!path)
    fail_msg("CAIRN_OPENAPI must name the built API document (build.mk's run-tests sets it)");
  f = fopen(path, "rb");
  if (!f)
    fail_msg("cannot open %s", path);
  assert_true(yaml_parser_initialize(&parser));
  yaml_parser_set_input_file(&parser, f);
  if (!yaml_parser_load(&parser, &doc))
    fail_msg("%s: YAML error at line %zu: %s", path, parser.problem_mark.line + 1,
             parser.problem ? parser.problem : "?");
  out = node_json(&doc, yaml_document_get_root_node(&doc));
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  fclose(f);
  return out;
}

/* ---------------------------------------------------------------- references */

/* Borrowed from `doc`: what a local reference ("#/a/b") points to, or NULL.
 * JSON-pointer escapes (~0, ~1) are not used by the document. */
static json_t *resolve(json_t *doc, const char *ref)
{
  char buf[512];
  json_t *at = doc;

  if (strncmp(ref, "#/", 2) != 0 || strlen(ref) >= sizeof(buf) || strchr(ref, '~'))
    return NULL;
  strcpy(buf, ref + 2);
  for (char *part = strtok(buf, "/"); part && at; part = strtok(NULL, "/"))
    at = json_object_get(at, part);
  return at;
}

/* ---------------------------------------------------------------- the validator */

/* ---------------------------------------------------------------- judgements kept */

/* An open-addressing set of pointer pairs with what was found for each.
 * Two uses below: the schemas whose keywords were vetted already (value
 * NULL; the document does not change during the run), and the judgements
 * check() made during one assert_fits (check() is a function of the schema
 * and the value alone while one value is judged: the document, the value
 * and strictness do not change, and documented() asks again of every
 * branch check_branches has just judged). */
struct kept_judgement {
  const json_t *schema, *value; /* both NULL: a free slot */
  bool fits;
  char *why; /* owned: a misfit's reason without the path it was judged at */
};

struct judgements {
  struct kept_judgement *slots; /* owned */
  size_t cap, n;                /* cap a power of two, n used */
};

static size_t judgement_slot(const struct judgements *j, const json_t *schema, const json_t *value)
{
  uint64_t h = ((uint64_t)(uintptr_t)schema * 0x9e3779b97f4a7c15ull) ^
               ((uint64_t)(uintptr_t)value * 0xc2b2ae3d27d4eb4full);
  size_t i = (size_t)(h ^ (h >> 29)) & (j->cap - 1);

  while (j->slots[i].schema && (j->slots[i].schema != schema || j->slots[i].value != value))
    i = (i + 1) & (j->cap - 1);
  return i;
}

/* Borrowed: what was kept for (schema, value), or NULL. */
static const struct kept_judgement *judgement_find(const struct judgements *j, const json_t *schema,
                                                   const json_t *value)
{
  const struct kept_judgement *k;

  if (!j->cap)
    return NULL;
  k = &j->slots[judgement_slot(j, schema, value)];
  return k->schema ? k : NULL;
}

static void judgement_keep(struct judgements *j, const json_t *schema, const json_t *value,
                           bool fits, const char *why)
{
  struct kept_judgement *k;

  if (2 * (j->n + 1) > j->cap) {
    struct judgements grown = {.cap = j->cap ? 2 * j->cap : 1024};

    grown.slots = calloc(grown.cap, sizeof(*grown.slots));
    assert_non_null(grown.slots);
    for (size_t i = 0; i < j->cap; i++)
      if (j->slots[i].schema)
        grown.slots[judgement_slot(&grown, j->slots[i].schema, j->slots[i].value)] = j->slots[i];
    grown.n = j->n;
    free(j->slots);
    *j = grown;
  }
  k = &j->slots[judgement_slot(j, schema, value)];
  if (!k->schema)
    j->n++;
  free(k->why);
  *k = (struct kept_judgement){.schema = schema, .value = value, .fits = fits};
  if (why) {
    k->why = strdup(why);
    assert_non_null(k->why);
  }
}

static void judgements_clear(struct judgements *j)
{
  for (size_t i = 0; i < j->cap; i++)
    free(j->slots[i].why);
  free(j->slots);
  memset(j, 0, sizeof(*j));
}

struct checker {
  json_t *doc;               /* borrowed: the whole document, for $ref */
  struct judgements *vetted; /* schemas whose keywords are all known (NULL: vet every time) */
  struct judgements *made;   /* check()'s judgements of the value being judged (NULL: none) */
  char why[1024];            /* the first reason the last failing check gave */
  bool strict;               /* every member must be documented (see documented()) */
  const char *title;         /* Static: the title being played, for the report */
  json_t *seen;              /* misfits reported so far, by "title: why" */
  int misfits;               /* values that did not fit, in all */
};

static bool check(struct checker *c, const json_t *schema, const json_t *value, const char *path);
static bool check_value(struct checker *c, const json_t *schema, const json_t *value,
                        const char *path);

static bool failed(struct checker *c, const char *path, const char *fmt, ...)
{
  va_list ap;
  int n = snprintf(c->why, sizeof(c->why), "%.500s: ", path);

  va_start(ap, fmt);
  vsnprintf(c->why + n, sizeof(c->why) - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

static bool has_type(const json_t *value, const char *type)
{
  if (!strcmp(type, "object"))
    return json_is_object(value);
  if (!strcmp(type, "array"))
    return json_is_array(value);
  if (!strcmp(type, "string"))
    return json_is_string(value);
  if (!strcmp(type, "integer"))
    return json_is_integer(value) ||
           (json_is_real(value) &&
            json_real_value(value) == (double)(long long)json_real_value(value));
  if (!strcmp(type, "number"))
    return json_is_number(value);
  if (!strcmp(type, "boolean"))
    return json_is_boolean(value);
  if (!strcmp(type, "null"))
    return json_is_null(value);
  fail_msg("the document names an unknown type %s", type);
  return false;
}

static bool check_type(struct checker *c, const json_t *type, const json_t *value, const char *path)
{
  size_t i;
  const json_t *t;

  if (json_is_string(type))
    return has_type(value, json_string_value(type)) ||
           failed(c, path, "not of type %s", json_string_value(type));
  json_array_foreach(type, i, t)
  {
    if (has_type(value, json_string_value(t)))
      return true;
  }
  return failed(c, path, "none of the types allowed");
}

static bool check_enum(struct checker *c, const json_t *list, const json_t *value, const char *path)
{
  size_t i;
  const json_t *v;
  char *text;

  json_array_foreach(list, i, v)
  {
    if (json_equal(v, value))
      return true;
  }
  text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
  failed(c, path, "%s is not in the enum", text ? text : "?");
  free(text);
  return false;
}

static bool check_properties(struct checker *c, const json_t *schema, const json_t *value,
                             const char *path)
{
  const json_t *props = json_object_get(schema, "properties");
  const json_t *extra = json_object_get(schema, "additionalProperties");
  const json_t *required = json_object_get(schema, "required");
  const char *key;
  json_t *member;
  const json_t *name;
  size_t i;
  char sub[512];

  if (!json_is_object(value))
    return true; /* these keywords judge objects only */
  json_array_foreach(required, i, name)
  {
    if (!json_object_get(value, json_string_value(name)))
      return failed(c, path, "lacks the required member %s", json_string_value(name));
  }
  json_object_foreach((json_t *)value, key, member)
  {
    const json_t *own = json_object_get(props, key);

    snprintf(sub, sizeof(sub), "%s.%s", path, key);
    if (own && !check_value(c, own, member, sub))
      return false;
    if (!own && json_is_false(extra))
      return failed(c, sub, "a member the schema does not define");
    if (!own && json_is_object(extra) && !check_value(c, extra, member, sub))
      return false;
  }
  return true;
}

static bool check_items(struct checker *c, const json_t *schema, const json_t *value,
                        const char *path)
{
  const json_t *prefix = json_object_get(schema, "prefixItems");
  const json_t *items = json_object_get(schema, "items");
  const json_t *item;
  size_t i, j;
  char sub[512];

  if (!json_is_array(value))
    return true;
  json_array_foreach(value, i, item)
  {
    const json_t *own = i < json_array_size(prefix) ? json_array_get(prefix, i) : items;

    snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
    if (own && !check_value(c, own, item, sub))
      return false;
  }
  if (json_is_true(json_object_get(schema, "uniqueItems")))
    for (i = 0; i < json_array_size(value); i++)
      for (j = i + 1; j < json_array_size(value); j++)
        if (json_equal(json_array_get(value, i), json_array_get(value, j)))
          return failed(c, path, "items %zu and %zu are equal", i, j);
  return true;
}

/* oneOf: exactly one branch; anyOf: at least one; allOf: every one. */
static bool check_branches(struct checker *c, const char *keyword, const json_t *branches,
                           const json_t *value, const char *path)
{
  char reasons[1024] = "";
  size_t i, hits = 0;
  const json_t *b;

  json_array_foreach(branches, i, b)
  {
    if (check(c, b, value, path)) {
      hits++;
      continue;
    }
    if (!strcmp(keyword, "allOf"))
      return false;
    {
      /* The branch's reason, without the path all branches share. */
      const char *why = strncmp(c->why, path, strlen(path)) ? c->why : c->why + strlen(path);

      snprintf(reasons + strlen(reasons), sizeof(reasons) - strlen(reasons), " [%zu] %.300s", i,
               why);
    }
  }
  if (!strcmp(keyword, "allOf"))
    return true;
  if (hits == 0)
    return failed(c, path, "no branch of %s fits:%s", keyword, reasons);
  if (!strcmp(keyword, "oneOf") && hits > 1)
    return failed(c, path, "%zu branches of oneOf fit, one must", hits);
  return true;
}

static bool check_bounds(struct checker *c, const json_t *schema, const json_t *value,
                         const char *path)
{
  const json_t *b;
  double v;

  if (json_is_number(value)) {
    v = json_number_value(value);
    if ((b = json_object_get(schema, "minimum")) && v < json_number_value(b))
      return failed(c, path, "%g is below the minimum %g", v, json_number_value(b));
    if ((b = json_object_get(schema, "maximum")) && v > json_number_value(b))
      return failed(c, path, "%g is above the maximum %g", v, json_number_value(b));
    if ((b = json_object_get(schema, "exclusiveMinimum")) && v <= json_number_value(b))
      return failed(c, path, "%g is not above %g", v, json_number_value(b));
  }
  if (json_is_string(value)) {
    size_t chars = 0;

    /* JSON Schema counts characters: UTF-8 lead bytes, not continuations. */
    for (const char *p = json_string_value(value); *p; p++)
      chars += ((unsigned char)*p & 0xC0) != 0x80;
    if ((b = json_object_get(schema, "minLength")) && chars < (size_t)json_integer_value(b))
      return failed(c, path, "shorter than %lld characters", (long long)json_integer_value(b));
    if ((b = json_object_get(schema, "maxLength")) && chars > (size_t)json_integer_value(b))
      return failed(c, path, "longer than %lld characters", (long long)json_integer_value(b));
  }
  if (json_is_array(value)) {
    if ((b = json_object_get(schema, "minItems")) &&
        json_array_size(value) < (size_t)json_integer_value(b))
      return failed(c, path, "fewer than %lld items", (long long)json_integer_value(b));
    if ((b = json_object_get(schema, "maxItems")) &&
        json_array_size(value) > (size_t)json_integer_value(b))
      return failed(c, path, "more than %lld items", (long long)json_integer_value(b));
  }
  if (json_is_object(value) && (b = json_object_get(schema, "maxProperties")) &&
      json_object_size(value) > (size_t)json_integer_value(b))
    return failed(c, path, "more than %lld members", (long long)json_integer_value(b));
  return true;
}

/* pattern: these patterns are POSIX extended expressions as well as
 * ECMA-262 ones (anchors, classes, alternation, counted repeats). */
static bool check_pattern(struct checker *c, const json_t *pattern, const json_t *value,
                          const char *path)
{
  if (!json_is_string(value))
    return true;
  if (plain_matches(json_string_value(value), json_string_value(pattern)))
    return true;
  return failed(c, path, "\"%s\" does not match %s", json_string_value(value),
                json_string_value(pattern));
}

/* The keywords this validator judges, and those that only annotate. Any
 * other keyword fails the test: the document must not claim a constraint
 * nobody checks. */
static const char *const judged[] = {"$ref",
                                     "type",
                                     "properties",
                                     "required",
                                     "additionalProperties",
                                     "enum",
                                     "const",
                                     "items",
                                     "prefixItems",
                                     "uniqueItems",
                                     "oneOf",
                                     "anyOf",
                                     "allOf",
                                     "minimum",
                                     "maximum",
                                     "exclusiveMinimum",
                                     "minItems",
                                     "maxItems",
                                     "maxProperties",
                                     "pattern",
                                     "minLength",
                                     "maxLength",
                                     NULL};
static const char *const annotations[] = {"description", "title",         "examples", "default",
                                          "format",      "discriminator", NULL};

static bool listed(const char *const *list, const char *key)
{
  for (; *list; list++)
    if (!strcmp(*list, key))
      return true;
  return false;
}

/* Fails the test when `schema` uses a keyword this validator neither judges
 * nor knows as an annotation; each schema object is vetted once. */
static void vet_keywords(struct checker *c, const json_t *schema, const char *path)
{
  const char *key;
  json_t *arg;

  if (c->vetted && judgement_find(c->vetted, schema, NULL))
    return;
  json_object_foreach((json_t *)schema, key, arg)
  {
    if (!listed(judged, key) && !listed(annotations, key) && strncmp(key, "x-", 2) != 0)
      fail_msg("%s: the schema uses %s, which this validator does not know", path, key);
  }
  if (c->vetted)
    judgement_keep(c->vetted, schema, NULL, true, NULL);
}

static bool judge(struct checker *c, const json_t *schema, const json_t *value, const char *path);

/* Does `value` fit `schema`? If not, c->why says why. A judgement already
 * made of the same pair for this value is given again, its reason put
 * back under this path (every reason for a misfit at `path` starts with
 * it: sub-paths extend it). */
static bool check(struct checker *c, const json_t *schema, const json_t *value, const char *path)
{
  const struct kept_judgement *k = c->made ? judgement_find(c->made, schema, value) : NULL;
  size_t at = strlen(path);
  bool fits;

  if (k) {
    if (!k->fits)
      snprintf(c->why, sizeof(c->why), "%s%s", path, k->why);
    return k->fits;
  }
  fits = judge(c, schema, value, path);
  if (c->made && (fits || strncmp(c->why, path, at) == 0))
    judgement_keep(c->made, schema, value, fits, fits ? NULL : c->why + at);
  return fits;
}

static bool judge(struct checker *c, const json_t *schema, const json_t *value, const char *path)
{
  json_t *arg;

  if (json_is_boolean(schema))
    return json_is_true(schema) || failed(c, path, "the schema is false");
  assert_true(json_is_object(schema));
  vet_keywords(c, schema, path);
  if ((arg = json_object_get(schema, "$ref"))) {
    const json_t *target = resolve(c->doc, json_string_value(arg));

    if (!target)
      fail_msg("%s: $ref %s does not resolve", path, json_string_value(arg));
    if (!check(c, target, value, path))
      return false;
  }
  if ((arg = json_object_get(schema, "type")) && !check_type(c, arg, value, path))
    return false;
  if ((arg = json_object_get(schema, "enum")) && !check_enum(c, arg, value, path))
    return false;
  if ((arg = json_object_get(schema, "pattern")) && !check_pattern(c, arg, value, path))
    return false;
  if ((arg = json_object_get(schema, "const")) && !json_equal(arg, value))
    return failed(c, path, "not the constant %s",
                  json_is_string(arg) ? json_string_value(arg) : "given");
  if (!check_properties(c, schema, value, path) || !check_items(c, schema, value, path) ||
      !check_bounds(c, schema, value, path))
    return false;
  if ((arg = json_object_get(schema, "oneOf")) && !check_branches(c, "oneOf", arg, value, path))
    return false;
  if ((arg = json_object_get(schema, "anyOf")) && !check_branches(c, "anyOf", arg, value, path))
    return false;
  if ((arg = json_object_get(schema, "allOf")) && !check_branches(c, "allOf", arg, value, path))
    return false;
  return true;
}

/* The members `schema` documents for the object `value`: the names its
 * `properties` list, through $ref, every allOf branch and each anyOf/oneOf
 * branch the value fits, added to `names`. *open is set where any of them
 * admits other members (additionalProperties other than false). */
static void documented(struct checker *c, const json_t *schema, const json_t *value, json_t *names,
                       bool *open)
{
  const char *key, *keyword;
  const json_t *arg, *b, *extra;
  json_t *ignored;
  size_t i;
  struct checker quiet = *c;

  if (!json_is_object(schema))
    return;
  if ((arg = json_object_get(schema, "$ref")))
    documented(c, resolve(c->doc, json_string_value(arg)), value, names, open);
  json_object_foreach(json_object_get(schema, "properties"), key, ignored)
  {
    json_object_set_new(names, key, json_true());
  }
  extra = json_object_get(schema, "additionalProperties");
  if (extra && !json_is_false(extra))
    *open = true;
  json_array_foreach(json_object_get(schema, "allOf"), i, b)
  {
    documented(c, b, value, names, open);
  }
  for (keyword = "anyOf"; keyword; keyword = strcmp(keyword, "anyOf") ? NULL : "oneOf") {
    json_array_foreach(json_object_get(schema, keyword), i, b)
    {
      if (check(&quiet, b, value, ""))
        documented(c, b, value, names, open);
    }
  }
}

/* check(), and in strict mode also that every member of an object is one
 * the schema documents. JSON Schema leaves an object open unless told
 * otherwise, so a view member the engine writes and the document never
 * names would pass it; the document is the contract, so here it fails
 * (as 2020-12's unevaluatedProperties: false would, across $ref, allOf
 * and the fitting oneOf/anyOf branches). Only additionalProperties
 * opens an object on purpose. */
static bool check_value(struct checker *c, const json_t *schema, const json_t *value,
                        const char *path)
{
  json_t *names;
  const char *key;
  json_t *member;
  const char *undocumented = NULL; /* borrowed from value: a member the schema never names */
  bool open = false;

  if (!check(c, schema, value, path))
    return false;
  if (!c->strict || !json_is_object(value))
    return true;
  names = json_object();
  documented(c, schema, value, names, &open);
  if (!open && json_object_size(names) > 0) {
    json_object_foreach((json_t *)value, key, member)
    {
      if (!json_object_get(names, key)) {
        undocumented = key;
        break;
      }
    }
  }
  if (undocumented)
    failed(c, path, "member %s is not in the document", undocumented);
  json_decref(names);
  return !undocumented;
}

/* Checks that `value` fits `schema`; a misfit is printed (the first time
 * this title shows it, with the value and where the game stood) and
 * counted, so one run lists every drift at once. */
static void assert_fits(struct checker *c, const json_t *schema, const json_t *value,
                        const char *kind, const char *where)
{
  char key[1200];
  char *text;
  struct judgements made = {0};
  bool fits;

  /* The value's judgements are kept while it is judged only: once it is
   * freed, another may be allocated at its address. */
  c->made = &made;
  fits = check_value(c, schema, value, kind);
  c->made = NULL;
  judgements_clear(&made);
  if (fits)
    return;
  c->misfits++;
  snprintf(key, sizeof(key), "%s: %s", c->title, c->why);
  if (json_object_get(c->seen, key))
    return;
  json_object_set_new(c->seen, key, json_true());
  text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
  print_error("%s\n  at %s\n  value: %.1500s\n", key, where, text ? text : "?");
  free(text);
}

/* ---------------------------------------------------------------- the validator's own checks */

/* A validator that passes everything would pass every title: show it refuses
 * what the keywords forbid. */
static void test_validator_refuses_what_schemas_forbid(void **state)
{
  json_t *doc = json_pack("{}");
  struct checker c = {.doc = doc};
  json_t *s =
      json_pack("{s:s, s:[s], s:b, s:{s:{s:s, s:[s,s]}, s:{s:s, s:i, s:i}}}", "type", "object",
                "required", "kind", "additionalProperties", 0, "properties", "kind", "type",
                "string", "enum", "a", "b", "n", "type", "integer", "minimum", 0, "maximum", 3);
  json_t *good = json_pack("{s:s, s:i}", "kind", "a", "n", 3);
  json_t *bad[] = {json_pack("{s:i}", "n", 1),
                   json_pack("{s:s, s:i}", "kind", "c", "n", 1),
                   json_pack("{s:s, s:i}", "kind", "a", "n", 4),
                   json_pack("{s:s, s:s}", "kind", "a", "n", "1"),
                   json_pack("{s:s, s:b}", "kind", "a", "extra", 1),
                   json_pack("[]")};

  (void)state;
  assert_true(check(&c, s, good, "good"));
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    assert_false(check(&c, s, bad[i], "bad"));
    json_decref(bad[i]);
  }
  json_decref(good);
  json_decref(s);
  json_decref(doc);
}

/* ---------------------------------------------------------------- every $ref resolves, every
 * schema is used */

/* Walk the document: every "$ref" must resolve; each reference to
 * #/components/schemas/X from outside X's own definition marks X used. */
static void walk_refs(json_t *doc, const json_t *node, const char *inside, json_t *used)
{
  const char *key;
  json_t *child;
  size_t i;

  if (json_is_array(node)) {
    json_array_foreach(node, i, child)
    {
      walk_refs(doc, child, inside, used);
    }
    return;
  }
  if (!json_is_object(node))
    return;
  json_object_foreach((json_t *)node, key, child)
  {
    if (!strcmp(key, "$ref") && json_is_string(child)) {
      const char *ref = json_string_value(child);
      const char *prefix = "#/components/schemas/";

      if (!resolve(doc, ref))
        fail_msg("$ref %s (in %s) does not resolve", ref, inside ? inside : "the document");
      if (!strncmp(ref, prefix, strlen(prefix)) &&
          (!inside || strcmp(ref + strlen(prefix), inside) != 0))
        json_object_set_new(used, ref + strlen(prefix), json_true());
      continue;
    }
    walk_refs(doc, child, inside, used);
  }
}

/* Issue 21: "a test checks ... that every schema in it is used". */
static void test_every_ref_resolves_and_every_schema_is_used(void **state)
{
  json_t *doc = load_document();
  json_t *schemas = resolve(doc, "#/components/schemas");
  json_t *used = json_object();
  const char *key, *name;
  json_t *child, *def;
  int unused = 0;

  (void)state;
  assert_true(json_is_object(schemas));
  /* Everything outside components/schemas, then each schema, whose
   * references to itself do not count. */
  json_object_foreach(doc, key, child)
  {
    if (strcmp(key, "components") != 0)
      walk_refs(doc, child, NULL, used);
  }
  json_object_foreach(json_object_get(doc, "components"), key, child)
  {
    if (strcmp(key, "schemas") != 0)
      walk_refs(doc, child, NULL, used);
  }
  json_object_foreach(schemas, name, def)
  {
    walk_refs(doc, def, name, used);
  }
  json_object_foreach(schemas, name, def)
  {
    if (json_object_get(used, name))
      continue;
    print_error("schema %s is referenced from nowhere else in the document\n", name);
    unused++;
  }
  assert_int_equal(unused, 0);
  json_decref(used);
  json_decref(doc);
}

/* An example the document gives for a schema is a claim about a shape: it
 * must fit the schema it illustrates, or one of them has drifted. */
static void test_every_schema_example_fits_its_schema(void **state)
{
  json_t *doc = load_document();
  struct checker c = {.doc = doc, .strict = true, .title = "examples", .seen = json_object()};
  const char *name;
  json_t *schema, *example;
  size_t i;
  char what[300];

  (void)state;
  json_object_foreach(resolve(doc, "#/components/schemas"), name, schema)
  {
    json_array_foreach(json_object_get(schema, "examples"), i, example)
    {
      snprintf(what, sizeof(what), "%s example %zu", name, i);
      assert_fits(&c, schema, example, name, what);
    }
  }
  json_decref(c.seen);
  assert_int_equal(c.misfits, 0);
  json_decref(doc);
}

/* The examples of a request or answer body (each operation's `content`),
 * checked against that body's schema. */
static void check_media_examples(struct checker *c, const json_t *node, const char *where)
{
  const char *key, *name;
  json_t *child, *example;
  size_t i;
  char what[512];

  if (json_is_array(node)) {
    json_array_foreach(node, i, child)
    {
      check_media_examples(c, child, where);
    }
    return;
  }
  if (!json_is_object(node))
    return;
  if (json_object_get(node, "schema") && json_object_get(node, "examples")) {
    json_object_foreach(json_object_get(node, "examples"), name, example)
    {
      const json_t *ref = json_object_get(example, "$ref");
      const json_t *body = ref ? resolve(c->doc, json_string_value(ref)) : example;
      const char *summary;

      snprintf(what, sizeof(what), "%s, example %s", where, name);
      assert_non_null(body);
      /* An example that says its view is abridged shows only the members its
       * point needs; the title's view is checked in full by the playouts. */
      summary = json_string_value(json_object_get(body, "summary"));
      if (summary && strstr(summary, "view abridged"))
        continue;
      if (json_object_get(body, "value"))
        assert_fits(c, json_object_get(node, "schema"), json_object_get(body, "value"), name, what);
    }
  }
  json_object_foreach((json_t *)node, key, child)
  {
    snprintf(what, sizeof(what), "%s %s", where, key);
    check_media_examples(c, child, strlen(what) < 200 ? what : where);
  }
}

static void test_every_body_example_fits_its_schema(void **state)
{
  json_t *doc = load_document();
  struct checker c = {.doc = doc, .strict = true, .title = "body examples", .seen = json_object()};

  (void)state;
  check_media_examples(&c, json_object_get(doc, "paths"), "");
  json_decref(c.seen);
  assert_int_equal(c.misfits, 0);
  json_decref(doc);
}
/* ---------------------------------------------------------------- every title's shapes */

/* What one title's part of the document says, all borrowed from the doc. */
struct title_schemas {
  const json_t *move;    /* {Prefix}Move: what a seat may submit */
  const json_t *legal;   /* {Prefix}Game's `legal` */
  const json_t *choices; /* {Prefix}Game's `choices` */
  const json_t *view;    /* {Prefix}Game's `view` */
  const json_t *result;  /* {Prefix}Game's `result` (null while the game runs) */
  const json_t *options; /* {Prefix}Game's `options` */
  const json_t *event;   /* {Prefix}Event: one event of a move */
};

/* Borrowed: member `name` of the title's Game refinement (the allOf branch
 * that is not the shared Game), failing when the document lacks it. */
static const json_t *game_member(const json_t *game, const char *game_name, const char *name)
{
  size_t i;
  const json_t *branch, *found;

  json_array_foreach(json_object_get(game, "allOf"), i, branch)
  {
    found = json_object_get(json_object_get(branch, "properties"), name);
    if (found)
      return found;
  }
  fail_msg("%s does not say what its %s is", game_name, name);
  return NULL;
}

static struct title_schemas title_schemas(json_t *doc, const char *id)
{
  char path[256], prefix[128];
  const json_t *mapping = resolve(doc, "#/components/schemas/TitleGame/discriminator/mapping");
  const char *ref = json_string_value(json_object_get(mapping, id));
  const char *name;
  const json_t *game;
  struct title_schemas t;

  if (!ref)
    fail_msg("TitleGame's discriminator has no entry for title %s", id);
  game = resolve(doc, ref);
  assert_non_null(game);
  name = strrchr(ref, '/') + 1;
  assert_true(strlen(name) > 4 && !strcmp(name + strlen(name) - 4, "Game"));
  snprintf(prefix, sizeof(prefix), "%.*s", (int)strlen(name) - 4, name);
  snprintf(path, sizeof(path), "#/components/schemas/%sMove", prefix);
  t.move = resolve(doc, path);
  if (!t.move)
    fail_msg("title %s has no %sMove", id, prefix);
  t.legal = game_member(game, name, "legal");
  t.choices = game_member(game, name, "choices");
  t.view = game_member(game, name, "view");
  t.result = game_member(game, name, "result");
  t.options = game_member(game, name, "options");
  snprintf(path, sizeof(path), "#/components/schemas/%sEvent", prefix);
  t.event = resolve(doc, path);
  if (!t.event)
    fail_msg("title %s has no %sEvent", id, prefix);
  return t;
}

static uint64_t splitmix(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void check_views(struct checker *c, const struct title_schemas *t,
                        const struct engine_game *g, const char *where)
{
  char what[256];

  for (int viewer = ENGINE_SPECTATOR; viewer < g->seats; viewer++) {
    json_t *view = engine_view(g, viewer);

    snprintf(what, sizeof(what), "%s view of viewer %d", where, viewer);
    assert_fits(c, t->view, view, "view", what);
    json_decref(view);
  }
}

/* Plays one random game to its end (or MAX_STEPS), checking every shape on
 * the way. */
static void play_one(struct checker *c, const struct title_schemas *t,
                     const struct engine_game *start, uint64_t *rng, const char *where)
{
  struct engine_game *g = engine_clone(start);
  int seats[ENGINE_MAX_SEATS];
  char what[512];
  json_t *result;

  assert_non_null(g);
  for (int step = 0; step < MAX_STEPS; step++) {
    int n = engine_to_act(g, seats);
    struct engine_game *next = NULL;
    json_t *events = NULL, *move, *event;
    struct cairn_error err = {0};
    size_t i;
    int seat;

    if (n == 0)
      break;
    snprintf(what, sizeof(what), "%s step %d", where, step);
    check_views(c, t, g, what);
    for (int k = 0; k < n; k++) {
      json_t *legal = engine_legal_moves(g, seats[k]);

      snprintf(what, sizeof(what), "%s step %d legal of seat %d", where, step, seats[k]);
      assert_fits(c, t->legal, legal, "legal", what);
      json_decref(legal);
      legal = engine_choices(g, seats[k]);
      assert_non_null(legal);
      snprintf(what, sizeof(what), "%s step %d choices of seat %d", where, step, seats[k]);
      assert_fits(c, t->choices, legal, "choices", what);
      json_decref(legal);
    }
    seat = seats[splitmix(rng) % (uint64_t)n];
    move = engine_sample_move(g, seat, splitmix(rng));
    assert_non_null(move);
    snprintf(what, sizeof(what), "%s step %d move of seat %d", where, step, seat);
    assert_fits(c, t->move, move, "move", what);
    if (engine_apply(g, seat, move, &next, &events, &err) != CAIRN_OK)
      fail_msg("%s: the sampled move was refused: %s %s", what, err.code, err.detail);
    json_array_foreach(events, i, event)
    {
      snprintf(what, sizeof(what), "%s step %d event %zu", where, step, i);
      assert_fits(c, t->event, event, "event", what);
    }
    json_decref(events);
    json_decref(move);
    engine_free(g);
    g = next;
  }
  result = engine_result(g);
  snprintf(what, sizeof(what), "%s result", where);
  assert_fits(c, t->result, result ? result : json_null(), "result", what);
  if (result) {
    json_t *view = engine_view(g, ENGINE_OMNISCIENT);

    check_views(c, t, g, what);
    snprintf(what, sizeof(what), "%s omniscient view", where);
    assert_fits(c, t->view, view, "view", what);
    json_decref(view);
  }
  json_decref(result);
  engine_free(g);
}

/* New reference: the option sets to try, [{}, {name: value}, ...]: every
 * value an enumeration declares and, for an integer, its least positive
 * allowed value (an opt-in cap or limit reached at once shows its ending). */
static json_t *option_sets(const struct engine_module *m)
{
  json_error_t jerr;
  json_t *decl = json_loads(m->options_json ? m->options_json : "{}", 0, &jerr);
  json_t *sets = json_pack("[{}]");
  const char *name;
  json_t *spec, *v;
  size_t i;

  assert_non_null(decl);
  json_object_foreach(decl, name, spec)
  {
    json_array_foreach(json_object_get(spec, "values"), i, v)
    {
      json_array_append_new(sets, json_pack("{s:O}", name, v));
    }
    if (!strcmp(json_string_value(json_object_get(spec, "type")), "integer")) {
      json_int_t low = json_integer_value(json_object_get(spec, "minimum"));
      json_t *max = json_object_get(spec, "maximum");

      low = low < 1 ? 1 : low;
      if (!max || low <= json_integer_value(max))
        json_array_append_new(sets, json_pack("{s:I}", name, low));
    }
  }
  json_decref(decl);
  return sets;
}

/* Issue 21: "every move shape in the document". */
static void test_every_title_plays_within_its_schemas(void **state)
{
  json_t *doc = load_document();
  struct judgements vetted = {0};
  struct checker c = {.doc = doc, .strict = true, .seen = json_object(), .vetted = &vetted};
  const struct engine_module *const *m;
  uint64_t rng = 21;

  (void)state;
  for (m = engine_modules(); *m; m++) {
    struct title_schemas t = title_schemas(doc, (*m)->id);
    json_t *sets = option_sets(*m);

    c.title = (*m)->id;
    for (int seats = (*m)->min_seats; seats <= (*m)->max_seats; seats++) {
      int played = 0;
      size_t i;
      json_t *options;

      json_array_foreach(sets, i, options)
      {
        struct engine_setup setup = {.seats = seats, .options = options};
        char where[256];
        char *text = json_dumps(options, JSON_COMPACT | JSON_SORT_KEYS);

        snprintf(where, sizeof(where), "%s, %d seats, options %s", (*m)->id, seats, text);
        free(text);
        assert_fits(&c, t.options, options, "options", where);
        for (int n = 0; n < GAMES_PER_SETUP; n++) {
          uint8_t seed[ENGINE_SEED_BYTES];
          struct engine_game *g = NULL;
          struct cairn_error err = {0};
          char game[300];

          for (size_t b = 0; b < sizeof(seed); b++)
            seed[b] = (uint8_t)splitmix(&rng);
          /* A combination the declaration cannot express (a scenario
           * for the other seat count) is refused; skip it. */
          if (engine_new(*m, &setup, seed, &g, &err) == CAIRN_EINVAL)
            break;
          assert_non_null(g);
          snprintf(game, sizeof(game), "%s, game %d", where, n);
          play_one(&c, &t, g, &rng, game);
          engine_free(g);
          played++;
        }
      }
      if (played == 0)
        fail_msg("%s with %d seats: no option set could start a game", (*m)->id, seats);
    }
    json_decref(sets);
  }
  judgements_clear(&vetted);
  json_decref(c.seen);
  assert_int_equal(c.misfits, 0);
  json_decref(doc);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_validator_refuses_what_schemas_forbid),
      cmocka_unit_test(test_every_ref_resolves_and_every_schema_is_used),
      cmocka_unit_test(test_every_schema_example_fits_its_schema),
      cmocka_unit_test(test_every_body_example_fits_its_schema),
      cmocka_unit_test(test_every_title_plays_within_its_schemas),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
