/*
 * body.c - strict decoding of request bodies and query parameters. A
 * request is refused, with a problem naming the member, for anything the
 * endpoint does not define: unknown members, wrong types, duplicate keys.
 * Being strict now keeps every future field addition unambiguous.
 */
#include "api.h"
#include "../engine/jsonr.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(enum api_field_type type)
{
  switch (type) {
  case API_INT:
    return "an integer";
  case API_STRING:
    return "a string";
  case API_OBJECT:
    return "an object";
  case API_ANY:
    break;
  }
  return "a value";
}

static bool type_ok(const json_t *value, enum api_field_type type)
{
  switch (type) {
  case API_INT:
    return json_is_integer(value);
  case API_STRING:
    return json_is_string(value);
  case API_OBJECT:
    return json_is_object(value);
  case API_ANY:
    break;
  }
  return true;
}

static const struct api_field *field_named(const struct api_field *fields, const char *name)
{
  for (; fields->name; fields++)
    if (strcmp(fields->name, name) == 0)
      return fields;
  return NULL;
}

static bool body_is_blank(const struct api_request *req)
{
  size_t i;

  for (i = 0; i < req->body_len; i++)
    if (!strchr(" \t\r\n", req->body[i]))
      return false;
  return true;
}

static enum cairn_status check_members(const json_t *doc, const struct api_field *fields,
                                       struct cairn_error *err)
{
  const char *key;
  const json_t *value;
  const struct api_field *f;

  json_object_foreach((json_t *)doc, key, value)
  {
    f = field_named(fields, key);
    if (!f)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "unknown field \"%.64s\"", key);
    if (!type_ok(value, f->type))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "field \"%s\" must be %s",
                        f->name, type_name(f->type));
  }
  for (f = fields; f->name; f++)
    if (f->required && !json_object_get(doc, f->name))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL,
                        "field \"%s\" is required", f->name);
  return CAIRN_OK;
}

enum cairn_status api_body_object(const struct api_request *req, const struct api_field *fields,
                                  bool empty_ok, json_t **out, struct cairn_error *err)
{
  json_t *doc = NULL;
  json_error_t jerr;
  enum cairn_status st;

  *out = NULL;
  if (!req->body || body_is_blank(req)) {
    if (!empty_ok)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_JSON, NULL,
                        "a JSON object body is required");
    doc = json_object();
  } else {
    /* Duplicate keys are refused: which one "wins" is parser-specific, and
     * a move must mean one thing to every reader of the log. jr_parse_flags
     * is json_loadb's answer, sooner for the bodies clients send (a
     * move's was a fifth of its POST's instructions, issue 22). */
    doc = jr_parse_flags(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_JSON, NULL,
                        "body is not valid JSON: %s at byte %d", jerr.text, jerr.position);
  }
  if (!doc)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  if (!json_is_object(doc)) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "body must be a JSON object");
    goto cleanup;
  }
  st = check_members(doc, fields, err);
  if (st != CAIRN_OK)
    goto cleanup;
  *out = doc;
  doc = NULL;
cleanup:
  json_decref(doc);
  return st;
}

enum cairn_status api_query_uint(const struct api_request *req, const char *name, uint32_t *out,
                                 bool *present, struct cairn_error *err)
{
  const char *text = NULL;
  size_t len = 0;
  char *end = NULL;
  unsigned long long value;

  /* *out keeps the caller's default when the parameter is absent. The
   * length comes from the decoded value itself: "1%00" decodes to "1" plus
   * a NUL, which a C-string lookup would read as a clean "1". */
  *present = MHD_lookup_connection_value_n(req->connection, MHD_GET_ARGUMENT_KIND, name,
                                           strlen(name), &text, &len) == MHD_YES;
  if (!*present)
    return CAIRN_OK;
  errno = 0;
  if (!text || len == 0 || len > 10 || strlen(text) != len || text[0] < '0' || text[0] > '9')
    goto bad;
  value = strtoull(text, &end, 10);
  if (errno || *end || value > UINT32_MAX)
    goto bad;
  *out = (uint32_t)value;
  return CAIRN_OK;
bad:
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                    "query parameter \"%s\" must be a non-negative integer", name);
}
