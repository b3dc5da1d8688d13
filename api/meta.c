/*
 * meta.c - endpoints about the service itself: health, and the OpenAPI
 * document compiled into the binary (build.mk embeds openapi/cairn.yaml),
 * so the served description always matches the running code.
 */
#include "api.h"

extern const char api_openapi_yaml[];
extern const size_t api_openapi_yaml_len;

enum cairn_status api_meta_health(struct api_request *req, struct api_response *resp,
                                  struct cairn_error *err)
{
  resp->status = 200;
  resp->body = json_pack("{s:s}", "status", "ok");
  return CAIRN_OK;
}

enum cairn_status api_meta_openapi(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  resp->status = 200;
  resp->text = api_openapi_yaml;
  resp->text_len = api_openapi_yaml_len;
  resp->content_type = "application/yaml";
  return CAIRN_OK;
}
