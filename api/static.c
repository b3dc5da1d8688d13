/*
 * static.c - the web client's files (web/), served at every path outside
 * /v1/. Only plain names are served: letters, digits, '.', '-', '_' and
 * '/', no ".." and no hidden files, read from the directory the operator
 * named (--web, default ./web), so a request can never reach another file.
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATIC_MAX_BYTES (4 * 1024 * 1024)

static const char *type_of(const char *path)
{
  static const struct {
    const char *ext, *type;
  } types[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".json", "application/json"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
  };
  const char *dot = strrchr(path, '.');
  size_t i;

  for (i = 0; dot && i < sizeof(types) / sizeof(types[0]); i++)
    if (strcmp(dot, types[i].ext) == 0)
      return types[i].type;
  return "application/octet-stream";
}

static bool plain_path(const char *path)
{
  const char *p;

  if (strstr(path, "..") || strstr(path, "/.") || strstr(path, "//"))
    return false;
  for (p = path; *p; p++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/", *p))
      return false;
  return true;
}

enum cairn_status api_static_get(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  const char *rel = strcmp(req->path, "/") == 0 ? "/index.html" : req->path;
  char file[1024];
  FILE *f = NULL;
  char *data = NULL;
  long size;

  if (!req->server->web_dir || !plain_path(rel) ||
      (size_t)snprintf(file, sizeof(file), "%s%s", req->server->web_dir, rel) >= sizeof(file))
    goto missing;
  f = fopen(file, "rb");
  if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || size > STATIC_MAX_BYTES ||
      fseek(f, 0, SEEK_SET) != 0)
    goto missing;
  data = malloc((size_t)size + 1);
  if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
    goto missing;
  fclose(f);
  resp->status = 200;
  resp->owned_text = data;
  resp->text_len = (size_t)size;
  resp->content_type = type_of(rel);
  return CAIRN_OK;
missing:
  free(data);
  if (f)
    fclose(f);
  return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no resource at %.200s",
                    req->path);
}
