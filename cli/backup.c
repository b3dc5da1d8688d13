/*
 * backup.c - `cairn backup` and `cairn restore`, for the embedded (SQLite)
 * store.
 *
 *   cairn backup --to FILE [--db PATH] [--url URL]
 *       asks the server running on PATH (at URL, default
 *       http://$CAIRN_HOST:$CAIRN_PORT) for a copy of its store, consistent
 *       at one moment and taken while it keeps serving (GET /admin/backup,
 *       api/admin.c), writes it to FILE (whole or not at all), and opens the
 *       copy as a store to check it.
 *   cairn restore --from FILE [--db PATH]
 *       checks FILE is a store, then puts it in PATH's place, with the
 *       server stopped: a running server holds PATH, and restore says so.
 *
 * The server owns its file (db/sqlite/internal.h, DB_SQLITE_VFS), so the
 * copy is made by the server, and this command is its client: it proves
 * it may ask with the administrator's token derived from server.key
 * (api_admin_token), which only the data directory's owner can read. Both
 * print a JSON report and exit 0 on success, 1 when the copy does not
 * check, 2 on a usage, I/O or server error.
 */
#include "tools.h"

#include "../api/sign.h"
#include "../db/db.h"

#include <curl/curl.h>
#include <sodium.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_DB "./data/cairn.db"

struct backup_args {
  const char *file; /* --to (backup) or --from (restore) */
  const char *db;   /* --db: the store's file */
  char url[512];    /* --url: the running server */
};

/* The flags after the command; false on anything else. */
static bool parse_args(int argc, char **argv, const char *file_flag, struct backup_args *a)
{
  const char *host = getenv("CAIRN_HOST") ? getenv("CAIRN_HOST") : "127.0.0.1";
  const char *port = getenv("CAIRN_PORT") ? getenv("CAIRN_PORT") : "8080";

  a->file = NULL;
  a->db = getenv("CAIRN_DB") ? getenv("CAIRN_DB") : DEFAULT_DB;
  snprintf(a->url, sizeof(a->url), "http://%s:%s", host, port);
  for (int i = 0; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], file_flag) == 0)
      a->file = argv[i + 1];
    else if (strcmp(argv[i], "--db") == 0)
      a->db = argv[i + 1];
    else if (strcmp(argv[i], "--url") == 0)
      snprintf(a->url, sizeof(a->url), "%s", argv[i + 1]);
    else
      return false;
  }
  return a->file && argc % 2 == 0;
}

static enum cairn_status count_game(void *arg, const char *game_id, struct cairn_error *err)
{
  (void)game_id;
  (void)err;
  (*(long *)arg)++;
  return CAIRN_OK;
}

/* A store closed cleanly leaves its WAL empty (checkpointed): a file
 * standing beside the copy for nothing. */
static void remove_empty_wal(const char *path)
{
  char wal[4300];
  struct stat st;

  snprintf(wal, sizeof(wal), "%s-wal", path);
  if (stat(wal, &st) == 0 && st.st_size == 0)
    unlink(wal);
}

/* Open `path` as a store (its migrations checked, its rows read) and count
 * its games; false, with why, when it is not a store. */
static bool check_store(const char *path, long *games, char *why, size_t why_size)
{
  struct cairn_error err = {0};
  struct db *db = NULL;
  bool ok;

  *games = 0;
  if (db_open(path, &db, &err) != CAIRN_OK) {
    snprintf(why, why_size, "%s", err.detail);
    return false;
  }
  ok = db_games_each(db, count_game, games, &err) == CAIRN_OK;
  if (!ok)
    snprintf(why, why_size, "%s", err.detail);
  db_close(db);
  remove_empty_wal(path);
  return ok;
}

static void report(json_t *doc)
{
  json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
  fputc('\n', stdout);
  json_decref(doc);
}

/* GET url/admin/backup into `out`; the HTTP status, 0 on a transport
 * failure (why says it). */
static long fetch_backup(const struct backup_args *a, const char *token, FILE *out, char *why,
                         size_t why_size)
{
  char url[600], header[128];
  struct curl_slist *headers = NULL;
  CURL *curl = curl_easy_init();
  long status = 0;
  CURLcode rc;

  if (!curl) {
    snprintf(why, why_size, "curl_easy_init failed");
    return 0;
  }
  snprintf(url, sizeof(url), "%s/admin/backup", a->url);
  snprintf(header, sizeof(header), "X-Admin-Token: %s", token);
  headers = curl_slist_append(headers, header);
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, out);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  rc = curl_easy_perform(curl);
  if (rc == CURLE_OK)
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  else
    snprintf(why, why_size, "%s: %s", url, curl_easy_strerror(rc));
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  sodium_memzero(header, sizeof(header));
  return status;
}

int cli_backup(int argc, char **argv)
{
  struct backup_args a;
  struct api_sign_key key;
  struct cairn_error err = {0};
  char key_path[4200], token[API_ADMIN_TOKEN_HEX + 1], partial[4200], why[9000] = "";
  long status, games;
  struct stat st;
  FILE *out;

  if (!parse_args(argc, argv, "--to", &a)) {
    fprintf(stderr, "usage: cairn backup --to FILE [--db PATH] [--url URL]\n");
    return 2;
  }
  api_sign_key_path(a.db, key_path, sizeof(key_path));
  if (api_sign_key_load(key_path, false, &key, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn backup: %s (run it as the server's user)\n", err.detail);
    return 2;
  }
  api_admin_token(&key, token);
  sodium_memzero(&key, sizeof(key));
  snprintf(partial, sizeof(partial), "%s.partial", a.file);
  umask(077); /* the copy holds every secret the store does */
  out = fopen(partial, "wb");
  if (!out) {
    fprintf(stderr, "cairn backup: cannot write %s: %s\n", partial, strerror(errno));
    return 2;
  }
  status = fetch_backup(&a, token, out, why, sizeof(why));
  sodium_memzero(token, sizeof(token));
  if (fflush(out) != 0 || fsync(fileno(out)) != 0) {
    snprintf(why, sizeof(why), "writing %s: %s", partial, strerror(errno));
    status = 0;
  }
  fclose(out);
  if (status != 200) {
    unlink(partial);
    fprintf(stderr, "cairn backup: %s\n", why[0] ? why : "the server refused (see its log)");
    if (!why[0])
      fprintf(stderr, "cairn backup: HTTP %ld from %s/admin/backup\n", status, a.url);
    return 2;
  }
  if (rename(partial, a.file) != 0) {
    fprintf(stderr, "cairn backup: %s: %s\n", a.file, strerror(errno));
    unlink(partial);
    return 2;
  }
  if (!check_store(a.file, &games, why, sizeof(why))) {
    report(json_pack("{s:b, s:s, s:s}", "ok", 0, "file", a.file, "error", why));
    return 1;
  }
  stat(a.file, &st);
  report(json_pack("{s:b, s:s, s:I, s:I}", "ok", 1, "file", a.file, "bytes", (json_int_t)st.st_size,
                   "games", (json_int_t)games));
  return 0;
}

/* Copy `from` to `to` and make it durable. */
static bool copy_file(const char *from, const char *to, char *why, size_t why_size)
{
  char buf[1 << 16];
  int in = open(from, O_RDONLY | O_CLOEXEC);
  int out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ssize_t n = 0;
  bool ok = in >= 0 && out >= 0;

  while (ok && (n = read(in, buf, sizeof(buf))) > 0)
    ok = write(out, buf, (size_t)n) == n;
  ok = ok && n == 0 && fsync(out) == 0;
  if (!ok)
    snprintf(why, why_size, "copying %s to %s: %s", from, to, strerror(errno));
  if (in >= 0)
    close(in);
  if (out >= 0)
    close(out);
  return ok;
}

int cli_restore(int argc, char **argv)
{
  struct backup_args a;
  char why[9000] = "", staged[4200], side[4300];
  long games, old_games;

  if (!parse_args(argc, argv, "--from", &a)) {
    fprintf(stderr, "usage: cairn restore --from FILE [--db PATH]\n");
    return 2;
  }
  if (!check_store(a.file, &games, why, sizeof(why))) {
    report(json_pack("{s:b, s:s, s:s}", "ok", 0, "file", a.file, "error", why));
    return 1;
  }
  /* Opening the target proves no server holds it, and closing it copies
   * its WAL into its file, so no WAL of the old store is left to be laid
   * over the restored one. */
  old_games = 0;
  if (access(a.db, F_OK) == 0 && !check_store(a.db, &old_games, why, sizeof(why))) {
    fprintf(stderr, "cairn restore: %s cannot be opened (is a server running on it? stop it): %s\n",
            a.db, why);
    return 2;
  }
  snprintf(staged, sizeof(staged), "%s.restore", a.db);
  umask(077);
  if (!copy_file(a.file, staged, why, sizeof(why))) {
    unlink(staged);
    fprintf(stderr, "cairn restore: %s\n", why);
    return 2;
  }
  snprintf(side, sizeof(side), "%s-wal", a.db);
  unlink(side);
  snprintf(side, sizeof(side), "%s-shm", a.db);
  unlink(side);
  if (rename(staged, a.db) != 0) {
    fprintf(stderr, "cairn restore: %s: %s\n", a.db, strerror(errno));
    unlink(staged);
    return 2;
  }
  report(json_pack("{s:b, s:s, s:s, s:I, s:I}", "ok", 1, "db", a.db, "from", a.file, "games",
                   (json_int_t)games, "replaced_games", (json_int_t)old_games));
  return 0;
}
