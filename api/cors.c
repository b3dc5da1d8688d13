/*
 * cors.c - cross-origin requests (issue 24): a bot's page or a community
 * site on another origin may call the API from a browser when the operator
 * lists its origin (--cors-origins, CAIRN_CORS_ORIGINS). Off by default:
 * the web client is served from the API's own origin and needs none.
 *
 * Tokens travel in the Authorization header, never in cookies, so no
 * answer allows credentials and "*" is as safe as a list: a page on
 * another origin can only send a token its user gave it. An allowed
 * request's answer names its origin (Vary: Origin) and exposes the headers
 * a client reads; a preflight (OPTIONS with Access-Control-Request-Method)
 * is answered 204 before routing, since it asks about a request it does
 * not make.
 */
#include "api.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cairn_status api_cors_configure(struct api_server *server, const char *origins,
                                     struct cairn_error *err)
{
  const char *s = origins ? origins : "";

  server->cors_any = false;
  server->cors_origins[0] = '\0';
  if (strcmp(s, "*") == 0) {
    server->cors_any = true;
    return CAIRN_OK;
  }
  if (strlen(s) + 3 > sizeof(server->cors_origins))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "cors-origins",
                      "--cors-origins is longer than %zu bytes", sizeof(server->cors_origins) - 3);
  /* Kept as ",a,b," so an origin is found as ",origin," whole. */
  if (s[0])
    snprintf(server->cors_origins, sizeof(server->cors_origins), ",%s,", s);
  for (char *c = server->cors_origins; *c; c++)
    if (*c == ' ')
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "cors-origins",
                        "--cors-origins is a comma-separated list without spaces, or *");
  return CAIRN_OK;
}

const char *api_cors_origin(const struct api_server *server, struct MHD_Connection *conn)
{
  const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
  size_t n;
  const char *at;

  if (!origin || !origin[0] || strchr(origin, ','))
    return NULL;
  if (server->cors_any)
    return origin;
  n = strlen(origin);
  for (at = strstr(server->cors_origins, origin); at; at = strstr(at + 1, origin))
    if (at[-1] == ',' && at[n] == ',')
      return origin;
  return NULL;
}

bool api_cors_is_preflight(struct MHD_Connection *conn, const char *method)
{
  return strcmp(method, "OPTIONS") == 0 &&
         MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Access-Control-Request-Method");
}

/* One Vary line naming Origin beside what it named already (a cache, or
 * a client reading the first line only, sees every reason at once). */
static void add_vary_origin(struct MHD_Response *resp)
{
  const char *had = MHD_get_response_header(resp, MHD_HTTP_HEADER_VARY);
  char both[128];

  if (!had) {
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Origin");
    return;
  }
  snprintf(both, sizeof(both), "%s, Origin", had);
  MHD_del_response_header(resp, MHD_HTTP_HEADER_VARY, had);
  MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, both);
}

void api_cors_headers(struct MHD_Response *resp, const char *origin, bool preflight)
{
  if (!origin)
    return;
  MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
  add_vary_origin(resp);
  if (preflight) {
    MHD_add_response_header(resp, "Access-Control-Allow-Methods",
                            "GET, HEAD, POST, PUT, PATCH, DELETE");
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            "Authorization, Content-Type, If-None-Match, Last-Event-ID, "
                            "X-Request-Id");
    MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
  } else {
    MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                            "ETag, X-Request-Id, Retry-After, RateLimit-Limit, "
                            "RateLimit-Remaining, RateLimit-Reset, Location");
  }
}
