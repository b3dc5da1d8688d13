/*
 * options.c - a title's options, declared once (its options_json: name,
 * type, default, bounds or values; registry.c checks the declaration at
 * start-up) and checked here, before the title's new_game sees them, so no
 * title parses or bounds-checks its own options again. A title reads a
 * checked value with engine_option_int / engine_option_string.
 */
#include "engine.h"

#include <string.h>

/* The declaration, parsed (new reference), or NULL when out of memory.
 * registry.c has already checked that it is a well-formed object. */
static json_t *declared(const struct engine_module *m)
{
  return json_loads(m->options_json ? m->options_json : "{}", 0, NULL);
}

/* The smallest given key that is not declared, so the message never
 * depends on the object's key order; NULL when all are. */
static const char *smallest_unknown(const json_t *spec, const json_t *given)
{
  const char *key, *smallest = NULL;
  const json_t *value;

  json_object_foreach((json_t *)given, key, value)
  {
    (void)value;
    if (!json_object_get(spec, key) && (!smallest || strcmp(key, smallest) < 0))
      smallest = key;
  }
  return smallest;
}

static bool has_type(const json_t *value, const char *type)
{
  if (strcmp(type, "integer") == 0)
    return json_is_integer(value);
  if (strcmp(type, "string") == 0)
    return json_is_string(value);
  if (strcmp(type, "boolean") == 0)
    return json_is_boolean(value);
  return false;
}

/* `value` against one declared option `key`: type, then bounds or values. */
static enum cairn_status check_one(const char *key, const json_t *decl, const json_t *value,
                                   struct cairn_error *err)
{
  const char *type = json_string_value(json_object_get(decl, "type"));
  const json_t *min = json_object_get(decl, "minimum"), *max = json_object_get(decl, "maximum");
  const json_t *values = json_object_get(decl, "values"), *v;
  size_t i;

  if (!has_type(value, type))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "options.%.64s: expected %s %s", key, type[0] == 'i' ? "an" : "a", type);
  if (json_is_integer(value) && ((min && json_integer_value(value) < json_integer_value(min)) ||
                                 (max && json_integer_value(value) > json_integer_value(max))))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "options.%.64s: must be %lld to %lld, not %lld", key,
                      (long long)json_integer_value(min), (long long)json_integer_value(max),
                      (long long)json_integer_value(value));
  if (!values)
    return CAIRN_OK;
  json_array_foreach(values, i, v)
  {
    if (json_equal(v, value))
      return CAIRN_OK;
  }
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "options.%.64s: \"%.64s\" is not one of the declared values", key,
                    json_is_string(value) ? json_string_value(value) : "?");
}

enum cairn_status engine_options_check(const struct engine_module *m, const json_t *options,
                                       struct cairn_error *err)
{
  json_t *spec;
  const char *key, *unknown;
  const json_t *value;
  enum cairn_status st = CAIRN_OK;

  if (!options)
    return CAIRN_OK;
  if (!json_is_object(options))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "options: expected an object");
  /* Most games (and every replay of one) have none: nothing to check, so
   * the declaration is not parsed on that path. */
  if (json_object_size(options) == 0)
    return CAIRN_OK;
  spec = declared(m);
  if (!spec)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  unknown = smallest_unknown(spec, options);
  if (unknown)
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                    "options.%.64s: %s has no such option%s", unknown, m->name,
                    json_object_size(spec) ? "" : " (it takes none)");
  json_object_foreach((json_t *)options, key, value)
  {
    if (st != CAIRN_OK)
      break;
    st = check_one(key, json_object_get(spec, key), value, err);
  }
  json_decref(spec);
  return st;
}

json_int_t engine_option_int(const struct engine_module *m, const json_t *options, const char *key)
{
  const json_t *given = json_object_get(options, key);
  json_t *spec;
  json_int_t value;

  if (json_is_integer(given))
    return json_integer_value(given);
  spec = declared(m);
  value = json_integer_value(json_object_get(json_object_get(spec, key), "default"));
  json_decref(spec);
  return value;
}

const char *engine_option_string(const json_t *options, const char *key)
{
  return json_string_value(json_object_get(options, key));
}
