/*
 * json_text.c - the text of every JSON answer built as a jansson tree: byte
 * for byte what json_dumps(doc, JSON_COMPACT) writes, in a fraction of its
 * time.
 *
 * Why not json_dumps: profiling the server under load (issue "Speed, load
 * and faults") put a quarter of all its CPU in json_dumps. Jansson guards
 * every object and array it writes against cycles by printing the
 * container's address with snprintf into a key and inserting it into a
 * hash table (a malloc, a hash, a free per container), and formats every
 * integer through snprintf. Our answers are trees built for one request, so
 * there is no cycle to find, and a direct walk into one growing buffer
 * (engine/jsonw.c, the writer views are written with, which follows
 * jansson's rules) does the rest. tests/core/test_json_text.c compares the
 * two on every view and legal list of random games of every title.
 */
#include "api.h"

char *api_json_text(const json_t *doc, size_t *len)
{
  struct json_writer w;

  if (!doc || (!json_is_object(doc) && !json_is_array(doc)))
    return NULL; /* what json_dumps refuses without JSON_ENCODE_ANY */
  jw_init(&w);
  jw_json(&w, doc);
  return jw_finish(&w, len);
}
