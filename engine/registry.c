/*
 * registry.c - the table of titles and the startup check of each module
 * against this build's interface (as Quake II refuses a game library with a
 * mismatched apiversion before calling it).
 */
#include "engine.h"

#include <string.h>

#define ENGINE_TITLE(folder, sym) extern const struct engine_module sym;
#include "titles.def"
#undef ENGINE_TITLE

#define ENGINE_TITLE(folder, sym) &sym,
static const struct engine_module *const registered[] = {
#include "titles.def"
    NULL,
};
#undef ENGINE_TITLE

const struct engine_module *const *engine_modules(void)
{
  return registered;
}

const struct engine_module *engine_find(const char *id)
{
  size_t i;

  if (!id)
    return NULL;
  for (i = 0; registered[i]; i++)
    if (strcmp(registered[i]->id, id) == 0)
      return registered[i];
  return NULL;
}

/* One option spec of options_json: see engine_module_check. */
static bool spec_is_valid(const json_t *spec)
{
  static const char *const allowed[] = {"type",    "default", "description",
                                        "minimum", "maximum", "values"};
  const char *key;
  const json_t *value;
  size_t i;

  if (!json_is_object(spec) || !json_is_string(json_object_get(spec, "type")) ||
      !json_object_get(spec, "default") || !json_is_string(json_object_get(spec, "description")))
    return false;
  json_object_foreach((json_t *)spec, key, value)
  {
    for (i = 0; i < sizeof(allowed) / sizeof(*allowed); i++)
      if (strcmp(key, allowed[i]) == 0)
        break;
    if (i == sizeof(allowed) / sizeof(*allowed))
      return false;
  }
  return true;
}

/* The catalog (GET /v1/titles) shows options_json as it is, so every title
 * must speak the one vocabulary clients read. */
static enum cairn_status check_options(const struct engine_module *m, const char *name,
                                       struct cairn_error *err)
{
  json_t *options = json_loads(m->options_json, 0, NULL);
  const char *key;
  json_t *spec;
  enum cairn_status st = CAIRN_OK;

  if (!json_is_object(options))
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "title %s: options_json is not a JSON object", name);
  json_object_foreach(options, key, spec)
  {
    if (st == CAIRN_OK && !spec_is_valid(spec))
      st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s: option %s needs type, default and description, and may add only"
                      " minimum, maximum or values",
                      name, key);
  }
  json_decref(options);
  return st;
}

enum cairn_status engine_module_check(const struct engine_module *m, struct cairn_error *err)
{
  const char *name = m->id ? m->id : "(unnamed)";

  if (m->version != ENGINE_MODULE_VERSION)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s was built for engine interface %d, this server speaks %d", name,
                      m->version, ENGINE_MODULE_VERSION);
  if (!m->id || !m->name || !m->rules_version || !m->options_json)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s lacks declarative data", name);
  if (m->min_seats < 1 || m->max_seats > ENGINE_MAX_SEATS || m->min_seats > m->max_seats)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s has a bad seat range %d..%d", name, m->min_seats, m->max_seats);
  if (!m->new_game || !m->apply_move || !m->to_act || !m->write_legal || !m->write_view ||
      !m->result || !m->serialize)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s lacks a required function", name);
  if (m->state_size < sizeof(struct engine_game))
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s declares no state_size", name);
  if (!m->event_reveals)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "title %s lacks event_reveals", name);
  return check_options(m, name, err);
}

enum cairn_status engine_registry_check(struct cairn_error *err)
{
  size_t i, j;

  for (i = 0; registered[i]; i++) {
    enum cairn_status st = engine_module_check(registered[i], err);

    if (st != CAIRN_OK)
      return st;
    for (j = 0; j < i; j++)
      if (strcmp(registered[i]->id, registered[j]->id) == 0)
        return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                          "title id %s registered twice", registered[i]->id);
  }
  return CAIRN_OK;
}
