/*
 * meta.c - endpoints about the service itself: health, and the OpenAPI
 * document compiled into the binary (build.mk assembles it from
 * openapi/base.yaml and each registered title's engine/<title>/openapi.yaml,
 * then embeds it; openapi/cairn.yaml is the same bytes), so the served
 * description always matches the running code; and the key the server signs
 * its exports with.
 */
#include "api.h"

#include <sodium.h>

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

/* The public half of the export signing key, so anyone can tell this
 * server's exports from others' (api/sign.c). */
enum cairn_status api_meta_server_key(struct api_request *req, struct api_response *resp,
                                      struct cairn_error *err)
{
  char hex[2 * DB_KEY_BYTES + 1];

  sodium_bin2hex(hex, sizeof(hex), req->server->key.pk, DB_KEY_BYTES);
  resp->status = 200;
  resp->body = json_pack("{s:s, s:s}", "algorithm", "ed25519", "public_key", hex);
  return CAIRN_OK;
}

/* Liveness: the process answers HTTP. Nothing else is checked, so a
 * supervisor restarts only a server that no longer answers at all. */
enum cairn_status api_meta_live(struct api_request *req, struct api_response *resp,
                                struct cairn_error *err)
{
  resp->status = 200;
  resp->body = json_pack("{s:s}", "status", "alive");
  return CAIRN_OK;
}

/* Readiness: this node should be sent requests. Not while it stops (a load
 * balancer then moves clients to another node before connections close),
 * nor while its storage does not answer a read. */
enum cairn_status api_meta_ready(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  struct db_game row = {0};
  enum cairn_status st;

  if (atomic_load(&req->server->draining))
    return cairn_fail(err, CAIRN_ECONFLICT, API_CODE_DRAINING, NULL,
                      "this server is stopping; send requests to another");
  /* No game has this id (ids are hex), so a working store answers
   * not-found; anything else means it cannot be read now. */
  st = db_game_load(req->server->db, "-", &row, err);
  db_game_clear(&row);
  if (st != CAIRN_OK && st != CAIRN_ENOTFOUND)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:s}", "status", "ready");
  return CAIRN_OK;
}
