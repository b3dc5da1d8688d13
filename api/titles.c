/*
 * titles.c - GET /v1/titles: the catalog, read from each module's
 * declarative data without running any of its code.
 */
#include "api.h"

enum cairn_status api_titles_list(struct api_request *req, struct api_response *resp,
                                  struct cairn_error *err)
{
  const struct engine_module *const *m;
  json_t *list = json_array();

  for (m = engine_modules(); *m; m++) {
    json_t *options = json_loads((*m)->options_json, 0, NULL);

    json_array_append_new(
        list, json_pack("{s:s, s:s, s:i, s:i, s:o, s:s}", "id", (*m)->id, "name", (*m)->name,
                        "min_seats", (*m)->min_seats, "max_seats", (*m)->max_seats, "options",
                        options ? options : json_object(), "rules_version", (*m)->rules_version));
  }
  resp->status = 200;
  resp->body = list;
  return CAIRN_OK;
}
