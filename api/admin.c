/*
 * admin.c - the operator's endpoints: GET /admin/backup, a consistent copy
 * of the whole store taken while the server keeps serving (`cairn backup`
 * is its client).
 *
 * Who may call them: the holder of the administrator's token
 * (api_admin_token, derived from server.key), sent as X-Admin-Token and
 * compared in constant time. A player's bearer token is never enough: a
 * backup holds every unfinished game's seed and every token's hash.
 */
#include "api.h"

#include <errno.h>
#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum cairn_status require_admin(const struct api_request *req, struct cairn_error *err)
{
  const char *given =
      MHD_lookup_connection_value(req->connection, MHD_HEADER_KIND, "X-Admin-Token");
  char ours[API_ADMIN_TOKEN_HEX + 1];
  bool ok;

  if (!given)
    return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_MISSING_TOKEN, NULL,
                      "this endpoint needs the administrator's token (X-Admin-Token)");
  api_admin_token(&req->server->key, ours);
  ok = strlen(given) == API_ADMIN_TOKEN_HEX && sodium_memcmp(given, ours, API_ADMIN_TOKEN_HEX) == 0;
  sodium_memzero(ours, sizeof(ours));
  if (!ok)
    return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_BAD_TOKEN, NULL,
                      "X-Admin-Token is not this server's administrator's token");
  return CAIRN_OK;
}

static ssize_t read_file_piece(void *cls, char *buf, size_t max)
{
  int fd = (int)(intptr_t)cls;
  ssize_t n;

  do
    n = read(fd, buf, max);
  while (n < 0 && errno == EINTR);
  return n;
}

static void close_file(void *cls)
{
  close((int)(intptr_t)cls);
}

enum cairn_status api_admin_backup(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  char path[4200];
  enum cairn_status st = require_admin(req, err);
  int fd;

  if (st != CAIRN_OK)
    return st;
  /* In the data directory: a copy the size of the store may not fit a
   * tmpfs, and it holds secrets, so it is made 0600 (mkstemp) where the
   * store's own files are. It has no name once opened. */
  snprintf(path, sizeof(path), "%s/.backup-XXXXXX",
           req->server->data_dir ? req->server->data_dir : ".");
  fd = mkstemp(path);
  if (fd < 0)
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL, "cannot make the backup's file");
  st = db_backup_to(req->server->db, path, err);
  unlink(path);
  if (st != CAIRN_OK) {
    close(fd);
    return st;
  }
  resp->status = 200;
  resp->content_type = "application/vnd.sqlite3";
  resp->reader.read = read_file_piece;
  resp->reader.free = close_file;
  resp->reader.cls = (void *)(intptr_t)fd;
  return CAIRN_OK;
}
