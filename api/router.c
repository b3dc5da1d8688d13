/*
 * router.c - the route table: path patterns and methods to handlers. Routes
 * are rows, not branches (Redis's command table); "*" matches one path
 * segment, the game id, which is copied into req->id.
 */
#include "api.h"

#include <stdio.h>
#include <string.h>

struct route {
  const char *method;
  const char *pattern;
  api_handler handler;
  size_t body_cap; /* bytes; 0 for API_BODY_CAP */
};

static const struct route routes[] = {
    {"POST", "/v1/players", api_players_create, 0},
    {"GET", "/v1/players/me", api_players_me, 0},
    {"POST", "/v1/players/me/token", api_players_rotate_token, 0},
    {"POST", "/v1/players/me/sign-in-code", api_players_sign_in_code, 0},
    {"POST", "/v1/players/me/stream-ticket", api_stream_ticket_issue, 0},
    {"POST", "/v1/sign-in", api_sign_in, 0},
    {"GET", "/v1/players/me/games", api_players_my_games, 0},
    {"GET", "/v1/players/me/events", api_players_events, 0},
    {"GET", "/v1/players/me/vacation", api_vacation_get, 0},
    {"POST", "/v1/players/me/vacation", api_vacation_declare, 0},
    {"GET", "/v1/games/*/wait", api_games_wait, 0},
    {"GET", "/v1/games/*/events", api_games_events, 0},
    {"GET", "/v1/titles", api_titles_list, 0},
    {"POST", "/v1/games", api_games_create, 0},
    {"GET", "/v1/games/*", api_games_get, 0},
    {"POST", "/v1/games/*/join", api_games_join, 0},
    {"POST", "/v1/games/*/moves", api_moves_submit, 0},
    {"GET", "/v1/games/*/log", api_log_get, 0},
    {"GET", "/v1/games/*/hint", api_games_hint, 0}, /* hint.c, issue 26 */
    {"POST", "/v1/games/*/takeback", api_takeback_request, 0},
    {"POST", "/v1/games/*/takeback/accept", api_takeback_accept, 0},
    {"POST", "/v1/games/*/takeback/decline", api_takeback_decline, 0},
    {"POST", "/v1/games/*/resign", api_games_resign, 0},
    {"POST", "/v1/games/*/replace", api_games_replace, 0}, /* seat_changes.c, issue 25 */
    {"GET", "/v1/games/*/verify", api_games_verify, 0},
    {"GET", "/v1/games/*/export", api_games_export, 0},
    /* The lobby and invitations (issue 25). */
    {"GET", "/v1/lobby", api_lobby_list, 0},
    {"POST", "/v1/games/*/invitation/accept", api_invitation_accept, 0},
    {"POST", "/v1/games/*/invitation/decline", api_invitation_decline, 0},
    {"POST", "/v1/games/*/rematch", api_games_rematch, 0},
    {"POST", "/v1/games/*/cancel", api_games_cancel, 0},
    {"GET", "/v1/archive", api_archive_list, 0},
    {"GET", "/v1/archive/export", api_archive_export, 0},
    /* Chat, profiles and leaderboards (issue 25). */
    {"POST", "/v1/games/*/chat", api_chat_post, 0},
    {"GET", "/v1/games/*/chat", api_chat_list, 0},
    {"DELETE", "/v1/chat/*", api_chat_delete, 0},
    /* After /v1/players/me...: "me" is not an id. */
    {"GET", "/v1/players/*", api_players_profile, 0},
    {"GET", "/v1/leaderboards/*", api_leaderboard_get, 0},
    /* A whole game's record: far larger than any single request. */
    {"POST", "/v1/games/import", api_games_import, API_IMPORT_CAP},
    {"POST", "/v1/webhooks", api_webhooks_create, 0},
    {"GET", "/v1/webhooks", api_webhooks_list, 0},
    {"DELETE", "/v1/webhooks/*", api_webhooks_delete, 0},
    {"GET", "/v1/webhooks/*/deliveries", api_webhooks_deliveries, 0},
    {"POST", "/v1/webhooks/*/test", api_webhooks_test, 0},
    {"PUT", "/v1/webhooks/*/mentions/me", api_webhooks_mention_put, 0},
    {"DELETE", "/v1/webhooks/*/mentions/me", api_webhooks_mention_delete, 0},
    {"POST", "/v1/test/clock", api_test_clock, 0},
    {"GET", "/v1/health", api_meta_health, 0},
    {"GET", "/v1/server-key", api_meta_server_key, 0},
    {"GET", "/v1/openapi.yaml", api_meta_openapi, 0},
    /* The same document rendered for people (docs.c). */
    {"GET", "/docs", api_docs_get, 0},
    /* For operators and load balancers, at the paths their tools expect,
     * outside the versioned API (metrics.c, meta.c). */
    {"GET", "/metrics", api_metrics_get, 0},
    {"GET", "/livez", api_meta_live, 0},
    {"GET", "/readyz", api_meta_ready, 0},
    {"GET", "/admin/backup", api_admin_backup, 0},
    {NULL, NULL, NULL, 0},
};

#define N_ROUTES (sizeof(routes) / sizeof(routes[0]) - 1)

int api_route_count(void)
{
  return (int)N_ROUTES + 1; /* the table, then the web client's files */
}

void api_route_label(int route, const char **method, const char **pattern)
{
  if (route >= 0 && route < (int)N_ROUTES) {
    *method = routes[route].method;
    *pattern = routes[route].pattern;
  } else if (route == (int)N_ROUTES) {
    *method = "GET";
    *pattern = "static";
  } else {
    *method = "-";
    *pattern = "unmatched";
  }
}

/* Match `path` against `pattern`; on a match copy the "*" segment (if any)
 * into id. A segment longer than an id cannot be one, so it does not match. */
static bool path_matches(const char *pattern, const char *path, char id[DB_ID_MAX + 1])
{
  while (*pattern && *path) {
    if (*pattern == '*') {
      size_t n = strcspn(path, "/");

      if (n == 0 || n > DB_ID_MAX)
        return false;
      memcpy(id, path, n);
      id[n] = '\0';
      path += n;
      pattern++;
      continue;
    }
    if (*pattern != *path)
      return false;
    pattern++;
    path++;
  }
  return *pattern == '\0' && *path == '\0';
}

/*
 * The rows a path may match, found by its head: "/v1/" and the segment
 * after it ("/v1/games"), or outside the API its first segment ("/docs").
 * No pattern has a "*" in its head, so a path matches a row only if their
 * heads are equal: a request is matched against the few rows of its head,
 * in the table's order, instead of scanning every row (3.6k instructions
 * for /v1/health, issue 22). Which row wins and what Allow lists are the
 * scan's, since the rows skipped could never have matched.
 */
struct route_head {
  const char *text; /* the head's bytes: the start of its rows' patterns */
  size_t len;
  int n_rows;
  unsigned char rows[N_ROUTES]; /* indices into routes, ascending */
};

static struct route_head heads[N_ROUTES];
static int n_heads;
/* Every row, scanned when a pattern's head holds a "*" (none does): the
 * index would then miss rows that match. */
static struct route_head every_row;
static bool heads_usable = true;
static pthread_once_t heads_once = PTHREAD_ONCE_INIT;

static size_t head_len(const char *path)
{
  const char *rest = strncmp(path, "/v1/", 4) == 0 ? path + 4 : path + (*path == '/');

  return (size_t)(rest - path) + strcspn(rest, "/");
}

static void index_heads(void)
{
  for (size_t i = 0; i < N_ROUTES; i++) {
    size_t len = head_len(routes[i].pattern);
    int h;

    for (h = 0; h < n_heads; h++)
      if (heads[h].len == len && memcmp(heads[h].text, routes[i].pattern, len) == 0)
        break;
    if (h == n_heads)
      heads[n_heads++] = (struct route_head){.text = routes[i].pattern, .len = len};
    heads[h].rows[heads[h].n_rows++] = (unsigned char)i;
    every_row.rows[every_row.n_rows++] = (unsigned char)i;
    if (memchr(routes[i].pattern, '*', len))
      heads_usable = false;
  }
}

/* The rows whose patterns begin with `path`'s head; NULL for none. */
static const struct route_head *head_of(const char *path)
{
  size_t len = head_len(path);

  pthread_once(&heads_once, index_heads);
  if (!heads_usable)
    return &every_row;
  for (int h = 0; h < n_heads; h++)
    if (heads[h].len == len && memcmp(heads[h].text, path, len) == 0)
      return &heads[h];
  return NULL;
}

size_t api_body_cap(const char *method, const char *path)
{
  const struct route_head *head = head_of(path);
  char id[DB_ID_MAX + 1];

  for (int i = 0; head && i < head->n_rows; i++) {
    const struct route *r = &routes[head->rows[i]];

    if (r->body_cap && strcmp(r->method, method) == 0 && path_matches(r->pattern, path, id))
      return r->body_cap;
  }
  return API_BODY_CAP;
}

/* Append `method` to the comma-separated `allow` list unless it is there. */
static void allow_add(char allow[API_ALLOW_MAX], const char *method)
{
  size_t used = strlen(allow);
  const char *at = strstr(allow, method);

  /* Methods are distinct words, so a match must end at ',' or the end. */
  while (at) {
    size_t n = strlen(method);

    if ((at == allow || at[-1] == ' ') && (at[n] == ',' || at[n] == '\0'))
      return;
    at = strstr(at + 1, method);
  }
  snprintf(allow + used, API_ALLOW_MAX - used, "%s%s", used ? ", " : "", method);
}

enum cairn_status api_route(struct api_request *req, api_handler *out, char allow[API_ALLOW_MAX],
                            struct cairn_error *err)
{
  const struct route_head *head = head_of(req->path);
  char id[DB_ID_MAX + 1];

  *out = NULL;
  allow[0] = '\0';
  req->route = -1;
  for (int i = 0; head && i < head->n_rows; i++) {
    const struct route *r = &routes[head->rows[i]];

    id[0] = '\0';
    if (!path_matches(r->pattern, req->path, id))
      continue;
    /* HEAD is GET without a body; libmicrohttpd drops the body itself. */
    if (strcmp(r->method, req->method) == 0 ||
        (strcmp(req->method, "HEAD") == 0 && strcmp(r->method, "GET") == 0)) {
      memcpy(req->id, id, sizeof(id));
      *out = r->handler;
      req->route = (int)(r - routes);
      return CAIRN_OK;
    }
    /* A path may match several rows ("/v1/games/import" is also a game id
     * for "/v1/games/{id}"), so Allow lists every method that would route. */
    allow_add(allow, r->method);
    if (strcmp(r->method, "GET") == 0)
      allow_add(allow, "HEAD");
  }
  /* Everything else outside the API is the web client's. */
  if (!allow[0] && strncmp(req->path, "/v1/", 4) != 0 && strcmp(req->path, "/v1") != 0) {
    if (strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0) {
      *out = api_static_get;
      req->route = (int)N_ROUTES;
      return CAIRN_OK;
    }
    snprintf(allow, API_ALLOW_MAX, "GET, HEAD");
  }
  if (allow[0])
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_METHOD, NULL, "%s is not allowed on %s; use %s",
                      req->method, req->path, allow);
  return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no resource at %s",
                    req->path);
}
