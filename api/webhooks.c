/*
 * webhooks.c - webhooks for chat bots: registering them (POST/GET/DELETE
 * /v1/webhooks, the delivery log) and deciding what to send when a game
 * changes: the outbox rows a change owes are made here before its log row
 * is written, and stored in that row's transaction (game_commit), so a
 * crash cannot lose them. Sending is deliver.c's, on its own thread.
 *
 * A webhook without a game follows its owner: it fires when a game the
 * owner sits in starts or ends, and when the owner's seat comes to owe a
 * decision. A webhook with a game follows that game (a chat channel): it
 * fires when it starts or ends and whenever the set of seats to act
 * changes. Formats: discord {content}, slack {text}, matrix {msgtype, body,
 * cairn} and json (the full notification); the owner's mention is put
 * before the text; on a channel's turn, the handles the players to act
 * registered for the hook instead (PUT /v1/webhooks/{id}/mentions/me).
 * POST /v1/webhooks/{id}/test sends one marked test
 * event through the same worker (deliver.c, api_deliver_try) and answers
 * its outcome.
 */
#include "api.h"
#include "deliver.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct api_field hook_fields[] = {
    {"url", API_STRING, true},
    {"format", API_STRING, true},
    {"game", API_STRING, false},
    {"mention", API_STRING, false},
    {NULL, 0, false},
};

static bool known_format(const char *f)
{
  return strcmp(f, "discord") == 0 || strcmp(f, "slack") == 0 || strcmp(f, "matrix") == 0 ||
         strcmp(f, "json") == 0;
}

static json_t *hook_json(const struct db_webhook *h)
{
  return json_pack("{s:s, s:s, s:s, s:o, s:s, s:o}", "id", h->id, "url", h->url, "format",
                   h->format, "game", h->game_id[0] ? json_string(h->game_id) : json_null(),
                   "mention", h->mention, "created_at", api_time_json(h->created_ms));
}

static enum cairn_status check_hook(struct api_request *req, const json_t *doc,
                                    struct db_webhook *h, struct cairn_error *err)
{
  const char *url = json_string_value(json_object_get(doc, "url"));
  const char *format = json_string_value(json_object_get(doc, "format"));
  const char *game = json_string_value(json_object_get(doc, "game"));
  const char *mention = json_string_value(json_object_get(doc, "mention"));
  char why[128];

  if (strlen(url) >= sizeof(h->url) ||
      !api_webhook_url_ok(url, req->server->allow_private_webhooks, why, sizeof(why)))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "url: %s",
                      strlen(url) >= sizeof(h->url) ? "too long" : why);
  if (!known_format(format))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "format must be discord, slack, matrix or json");
  if (mention && strlen(mention) >= sizeof(h->mention))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "mention: at most %zu bytes",
                      sizeof(h->mention) - 1);
  if (game && strlen(game) > DB_ID_MAX)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no such game");
  game_new_id(h->id); /* players, games and webhooks share one id format */
  snprintf(h->owner, sizeof(h->owner), "%s", req->player.id);
  snprintf(h->game_id, sizeof(h->game_id), "%s", game ? game : "");
  snprintf(h->url, sizeof(h->url), "%s", url);
  snprintf(h->format, sizeof(h->format), "%s", format);
  snprintf(h->mention, sizeof(h->mention), "%s", mention ? mention : "");
  randombytes_buf(h->secret, sizeof(h->secret));
  h->created_ms = api_now_ms(req->server);
  return CAIRN_OK;
}

/* Counts a callback's webhooks: all of them, or those registered for
 * `game` when it is set. */
struct hook_count {
  const char *game;
  int n;
};

static enum cairn_status count_hook(void *arg, const struct db_webhook *h, struct cairn_error *err)
{
  struct hook_count *c = arg;

  (void)err;
  if (!c->game || strcmp(h->game_id, c->game) == 0)
    c->n++;
  return CAIRN_OK;
}

/* Amplification limits: a player may hold API_WEBHOOKS_PER_PLAYER hooks,
 * and a game may be followed by API_WEBHOOKS_PER_GAME hooks registered for
 * it (by anyone: following a game needs no seat). So one event sends at
 * most API_WEBHOOKS_PER_PLAYER requests for any one owner, and at most
 * API_WEBHOOKS_PER_GAME plus those of its seated players for a game.
 * Called under caps_lock, so concurrent registrations cannot all pass. */
static enum cairn_status check_hook_caps(struct api_request *req, const struct db_webhook *h,
                                         struct cairn_error *err)
{
  struct hook_count mine = {NULL, 0}, game = {h->game_id, 0};
  enum cairn_status st;

  st = db_webhooks_of_owner(req->server->db, h->owner, count_hook, &mine, err);
  if (st == CAIRN_OK && mine.n >= API_WEBHOOKS_PER_PLAYER)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_TOO_MANY_HOOKS, NULL,
                      "you have %d webhooks, the most a player may hold; delete one first", mine.n);
  if (st == CAIRN_OK && h->game_id[0])
    st = db_webhooks_of_game(req->server->db, h->game_id, count_hook, &game, err);
  if (st == CAIRN_OK && game.n >= API_WEBHOOKS_PER_GAME)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_TOO_MANY_HOOKS, NULL,
                      "game %s is followed by %d webhooks, the most a game may have", h->game_id,
                      game.n);
  return st;
}

enum cairn_status api_webhooks_create(struct api_request *req, struct api_response *resp,
                                      struct cairn_error *err)
{
  struct db_webhook h;
  json_t *doc = NULL;
  char secret[2 * sizeof(h.secret) + 1];
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_body_object(req, hook_fields, false, &doc, err);
  if (st == CAIRN_OK)
    st = check_hook(req, doc, &h, err);
  if (st == CAIRN_OK) {
    pthread_mutex_lock(&req->server->caps_lock);
    st = check_hook_caps(req, &h, err);
    if (st == CAIRN_OK)
      st = db_webhook_create(req->server->db, &h, err);
    pthread_mutex_unlock(&req->server->caps_lock);
  }
  if (st == CAIRN_OK) {
    /* Shown once, like a token: the receiver verifies signatures with it. */
    sodium_bin2hex(secret, sizeof(secret), h.secret, sizeof(h.secret));
    resp->status = 201;
    resp->body = hook_json(&h);
    json_object_set_new(resp->body, "secret", json_string(secret));
    sodium_memzero(secret, sizeof(secret));
  }
  json_decref(doc);
  return st;
}

static enum cairn_status list_hook(void *arg, const struct db_webhook *h, struct cairn_error *err)
{
  json_array_append_new(arg, hook_json(h));
  return CAIRN_OK;
}

enum cairn_status api_webhooks_list(struct api_request *req, struct api_response *resp,
                                    struct cairn_error *err)
{
  json_t *list = json_array();
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = db_webhooks_of_owner(req->server->db, req->player.id, list_hook, list, err);
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = json_pack("{s:O}", "webhooks", list);
  }
  json_decref(list);
  return st;
}

enum cairn_status api_webhooks_delete(struct api_request *req, struct api_response *resp,
                                      struct cairn_error *err)
{
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = db_webhook_delete(req->server->db, req->id, req->player.id, err);
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = json_pack("{s:s}", "deleted", req->id);
  }
  return st;
}

struct owned {
  const char *id;
  bool found;
};

static enum cairn_status find_owned(void *arg, const struct db_webhook *h, struct cairn_error *err)
{
  struct owned *o = arg;

  o->found = o->found || strcmp(h->id, o->id) == 0;
  return CAIRN_OK;
}

static enum cairn_status list_delivery(void *arg, const struct db_delivery *d,
                                       struct cairn_error *err)
{
  json_array_append_new(
      arg,
      json_pack("{s:I, s:s, s:s, s:i, s:o, s:o, s:o, s:b}", "id", (json_int_t)d->id, "event",
                d->event, "game", d->game_id, "attempt", d->attempt, "at", api_time_json(d->at_ms),
                "http_status", d->http_status ? json_integer(d->http_status) : json_null(), "error",
                d->error[0] ? json_string(d->error) : json_null(), "delivered", d->delivered));
  return CAIRN_OK;
}

enum cairn_status api_webhooks_deliveries(struct api_request *req, struct api_response *resp,
                                          struct cairn_error *err)
{
  struct owned o = {.id = req->id};
  json_t *list = json_array();
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = db_webhooks_of_owner(req->server->db, req->player.id, find_owned, &o, err);
  if (st == CAIRN_OK && !o.found)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "you have no webhook %s",
                    req->id);
  if (st == CAIRN_OK)
    st = db_deliveries_of(req->server->db, req->id, 100, list_delivery, list, err);
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = json_pack("{s:O}", "deliveries", list);
  }
  json_decref(list);
  return st;
}

/* Finds one of the caller's webhooks, copied whole (its secret too: a
 * test is signed). */
struct found_hook {
  const char *id;
  struct db_webhook hook;
  bool found;
};

static enum cairn_status find_hook(void *arg, const struct db_webhook *h, struct cairn_error *err)
{
  struct found_hook *f = arg;

  (void)err;
  if (!f->found && strcmp(h->id, f->id) == 0) {
    f->hook = *h;
    f->found = true;
  }
  return CAIRN_OK;
}

/* New string (free()): a delivery's body in the hook's `format`: the chat
 * line `line` for discord and slack, the line with the notification `doc`
 * for matrix, `doc` itself for json. Takes `doc`. */
static char *shaped_body(const char *format, const char *line, json_t *doc)
{
  json_t *shaped;
  char *out;

  if (strcmp(format, "discord") == 0)
    shaped = json_pack("{s:s}", "content", line);
  else if (strcmp(format, "slack") == 0)
    shaped = json_pack("{s:s}", "text", line);
  else if (strcmp(format, "matrix") == 0)
    shaped = json_pack("{s:s, s:s, s:O}", "msgtype", "m.text", "body", line, "cairn", doc);
  else
    shaped = json_incref(doc);
  out = shaped ? json_dumps(shaped, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(shaped);
  json_decref(doc);
  return out;
}

/* New string (free()): the body of a test delivery to `hook`, in its
 * format, marked as a test in its words and its event; no mention, so a
 * test pings nobody. */
static char *test_body(const struct db_webhook *hook)
{
  char line[256];
  json_t *doc;

  snprintf(line, sizeof(line),
           "Test delivery from Cairn for webhook %s%s%s: it works. Nothing happened in any game.",
           hook->id, hook->game_id[0] ? ", which follows game " : "",
           hook->game_id[0] ? hook->game_id : "");
  doc = json_pack("{s:s, s:s, s:o, s:s, s:b}", "event", "test", "webhook", hook->id, "game",
                  hook->game_id[0] ? json_string(hook->game_id) : json_null(), "text", line, "test",
                  1);
  return shaped_body(hook->format, line, doc);
}

enum cairn_status api_webhooks_test(struct api_request *req, struct api_response *resp,
                                    struct cairn_error *err)
{
  struct found_hook f = {.id = req->id};
  struct api_deliver_outcome out;
  char *body = NULL;
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = db_webhooks_of_owner(req->server->db, req->player.id, find_hook, &f, err);
  if (st == CAIRN_OK && !f.found)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "you have no webhook %s",
                    req->id);
  if (st == CAIRN_OK) {
    body = test_body(&f.hook);
    if (!body)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  if (st == CAIRN_OK) {
    st = api_deliver_try(req->server->deliver, &f.hook, body, &out, err);
    resp->retry_after = out.retry_after; /* 0 unless refused */
  }
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = json_pack("{s:s, s:s, s:b, s:o, s:o}", "delivery", out.delivery_id, "event",
                           "test", "delivered", out.delivered, "http_status",
                           out.http_status ? json_integer(out.http_status) : json_null(), "error",
                           out.delivered ? json_null() : json_string(out.error));
  }
  sodium_memzero(f.hook.secret, sizeof(f.hook.secret));
  free(body);
  return st;
}

/* ---- what to send ---- */

struct change {
  struct api_server *server;
  struct game_owed *owed; /* where the deliveries the change owes are gathered */
  const struct db_game *row;
  const char *event;               /* turn, start, end, invite, declined, cancelled */
  int to_act[ENGINE_MAX_SEATS], n; /* seats to act now */
  bool newly[ENGINE_MAX_SEATS];    /* seat started to owe a decision */
  bool changed;                    /* the set of seats to act differs */
  json_t *result;                  /* borrowed, or NULL */
};

static int owner_seat(const struct db_game *row, const char *owner)
{
  int i;

  for (i = 0; i < row->seats; i++)
    if (strcmp(row->seat_player[i], owner) == 0)
      return i;
  return -1;
}

/* ---- per-player mentions ---- */

static const struct api_field mention_fields[] = {
    {"handle", API_STRING, true},
    {NULL, 0, false},
};

/* Does [p, p+n) hold only characters of `set` (and at least one)? */
static bool all_of(const char *p, size_t n, const char *set)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (!p[i] || !strchr(set, p[i]))
      return false;
  return n > 0;
}

#define DIGITS "0123456789"
#define UPPER  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define LOWER  "abcdefghijklmnopqrstuvwxyz"

/* `<@ID>`: Discord's user ping (ID digits; `<@!ID>` too) or Slack's
 * (uppercase letters and digits). Not a role (`<@&`), a channel or a
 * special mention (`<!here>`). */
static bool user_ping(const char *h, size_t n, const char *id_chars, bool bang)
{
  size_t start = bang && n > 3 && h[2] == '!' ? 3 : 2;

  return n > start + 1 && h[0] == '<' && h[1] == '@' && h[n - 1] == '>' &&
         all_of(h + start, n - 1 - start, id_chars);
}

/* Is `name` (n bytes, after the "@") what chats read as the whole
 * channel? */
static bool whole_channel(const char *name, size_t n)
{
  static const char *const words[] = {"everyone", "here", "channel", "room", "all", NULL};

  for (int i = 0; words[i]; i++)
    if (strlen(words[i]) == n && strncasecmp(name, words[i], n) == 0)
      return true;
  return false;
}

/* `@name` or Matrix's `@local:server`: a name of plain characters, never
 * a whole channel's (`@everyone`, `@here`, ...). */
static bool plain_ping(const char *h, size_t n, bool matrix)
{
  const char *colon = memchr(h, ':', n);
  size_t local = colon ? (size_t)(colon - h) : n;

  if (n < 2 || h[0] != '@' || whole_channel(h + 1, local - 1))
    return false;
  if (!matrix)
    return !colon && all_of(h + 1, n - 1, LOWER UPPER DIGITS ".-");
  return colon && all_of(h + 1, local - 1, LOWER DIGITS "._=/-") &&
         all_of(colon + 1, n - local - 1, LOWER UPPER DIGITS ".-:");
}

/* May `handle` stand in a line of a `format` webhook as one person's
 * ping? Only that person's ping, in the chat's own form: nothing that
 * pings a whole channel or another person too, and no markup (a handle is
 * the player's own text, put unescaped where a name is defused). */
static bool handle_ok(const char *format, const char *h, char *why, size_t size)
{
  size_t n = strlen(h);
  bool ok;

  if (n == 0 || n > DB_HANDLE_MAX) {
    snprintf(why, size, "handle: 1 to %d bytes", DB_HANDLE_MAX);
    return false;
  }
  if (strcmp(format, "discord") == 0)
    ok = user_ping(h, n, DIGITS, true);
  else if (strcmp(format, "slack") == 0)
    ok = user_ping(h, n, UPPER DIGITS, false);
  else
    ok = plain_ping(h, n, strcmp(format, "matrix") == 0);
  if (!ok)
    snprintf(why, size, "handle: a %s webhook takes %s", format,
             strcmp(format, "discord") == 0 ? "a user's ping, <@digits>"
             : strcmp(format, "slack") == 0 ? "a user's ping, <@U123ABC>"
             : strcmp(format, "matrix") == 0
                 ? "a user id, @name:server (lowercase letters, digits, . _ = / -)"
                 : "@name (letters, digits, . -), not a whole channel's");
  return ok;
}

/* The webhook `id` if it follows a game the caller sits in; one answer,
 * not-found, for every other case (no such hook, one that follows its
 * owner, a game the caller does not sit in), so the route tells nobody
 * which games a hook id they hold belongs to. */
static enum cairn_status channel_of_caller(struct api_request *req, struct db_webhook *hook,
                                           struct cairn_error *err)
{
  struct db_game row = {0};
  bool seated = false;
  enum cairn_status st;

  st = db_webhook_get(req->server->db, req->id, hook, err);
  if (st == CAIRN_OK && hook->game_id[0])
    st = db_game_load(req->server->db, hook->game_id, &row, err);
  if (st == CAIRN_OK && hook->game_id[0])
    seated = owner_seat(&row, req->player.id) >= 0;
  db_game_clear(&row);
  sodium_memzero(hook->secret, sizeof(hook->secret)); /* not needed here */
  if (st == CAIRN_OK && !seated)
    st = CAIRN_ENOTFOUND;
  if (st == CAIRN_ENOTFOUND)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                      "no webhook %s follows a game you sit in", req->id);
  return st;
}

enum cairn_status api_webhooks_mention_put(struct api_request *req, struct api_response *resp,
                                           struct cairn_error *err)
{
  struct db_webhook hook;
  struct db_mention m = {0};
  json_t *doc = NULL;
  const char *handle = NULL;
  char why[160];
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = api_body_object(req, mention_fields, false, &doc, err);
  if (st == CAIRN_OK)
    st = channel_of_caller(req, &hook, err);
  if (st == CAIRN_OK) {
    handle = json_string_value(json_object_get(doc, "handle"));
    if (!handle_ok(hook.format, handle, why, sizeof(why)))
      st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "%s", why);
  }
  if (st == CAIRN_OK) {
    snprintf(m.webhook_id, sizeof(m.webhook_id), "%s", hook.id);
    snprintf(m.player_id, sizeof(m.player_id), "%s", req->player.id);
    snprintf(m.handle, sizeof(m.handle), "%s", handle);
    st = db_mention_put(req->server->db, &m, err);
  }
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = json_pack("{s:s, s:s, s:s}", "webhook", m.webhook_id, "game", hook.game_id,
                           "handle", m.handle);
  }
  json_decref(doc);
  return st;
}

enum cairn_status api_webhooks_mention_delete(struct api_request *req, struct api_response *resp,
                                              struct cairn_error *err)
{
  struct db_webhook hook;
  struct db_mention m = {0};
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = channel_of_caller(req, &hook, err);
  if (st == CAIRN_OK) {
    snprintf(m.webhook_id, sizeof(m.webhook_id), "%s", hook.id);
    snprintf(m.player_id, sizeof(m.player_id), "%s", req->player.id);
    st = db_mention_put(req->server->db, &m, err); /* handle "": remove */
    if (st == CAIRN_ENOTFOUND)
      st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                      "you have no mention for webhook %s", req->id);
  }
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body = json_pack("{s:s}", "deleted", m.webhook_id);
  }
  return st;
}

/* Append printf-style to text[size], never past it. */
static void append(char *text, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *text, size_t size, const char *fmt, ...)
{
  size_t n = strlen(text);
  va_list ap;

  if (n + 1 >= size)
    return;
  va_start(ap, fmt);
  vsnprintf(text + n, size - n, fmt, ap);
  va_end(ap);
}

/* A player's text (a name, a chat message) as a chat line may carry it:
 * whatever a chat would read as a ping or markup is defused (a zero-width
 * space after "@" and "<"; Slack's own escapes there). Appended to out. */
static void defuse(const char *text, const char *format, char *out, size_t size)
{
  bool slack = strcmp(format, "slack") == 0;

  for (; *text; text++) {
    if (slack && (*text == '<' || *text == '>' || *text == '&'))
      append(out, size, "%s", *text == '<' ? "&lt;" : *text == '>' ? "&gt;" : "&amp;");
    else if (*text == '@' || *text == '<')
      append(out, size, "%c\u200b", *text);
    else
      append(out, size, "%c", *text);
  }
}

/* A player's name as a chat line may carry it: a name is the player's own
 * text, so it is defused, and a seat without a name is "seat N". */
static void chat_name(const struct db_game *row, int seat, const char *format, char *out,
                      size_t size)
{
  const char *name = row->seat_name[seat];

  out[0] = '\0';
  if (!name[0]) {
    snprintf(out, size, "seat %d", seat);
    return;
  }
  defuse(name, format, out, size);
}

/* The message line (before the hook's mention): what happened, in whose
 * names, and the page's link when the server knows its public address. */
static void describe(const struct change *c, const struct db_webhook *hook, int seat, char *text,
                     size_t size)
{
  const struct engine_module *m = engine_find(c->row->title);
  const char *title = m ? m->name : c->row->title;
  char name[6 * DB_NAME_MAX + 16];
  int i;

  text[0] = '\0';
  if (strcmp(c->event, "start") == 0) {
    append(text, size, "%s game %s has started:", title, c->row->id);
    for (i = 0; i < c->row->seats; i++) {
      chat_name(c->row, i, hook->format, name, sizeof(name));
      append(text, size, "%s %s", i ? "," : "", name);
    }
    append(text, size, ".");
  } else if (strcmp(c->event, "end") == 0) {
    append(text, size, "%s game %s is over.", title, c->row->id);
  } else if (strcmp(c->event, "invite") == 0) {
    append(text, size, "You are invited to %s game %s (seat %d): accept or decline it.", title,
           c->row->id, seat);
  } else if (strcmp(c->event, "declined") == 0) {
    append(text, size, "Your invitation to %s game %s (seat %d) was declined: the seat is free.",
           title, c->row->id, seat);
  } else if (strcmp(c->event, "cancelled") == 0) {
    append(text, size, "%s game %s (seat %d) was cancelled by its creator.", title, c->row->id,
           seat);
  } else if (seat >= 0) {
    chat_name(c->row, seat, hook->format, name, sizeof(name));
    append(text, size, "Your turn, %s, in %s game %s (seat %d, seq %u).", name, title, c->row->id,
           seat, c->row->seq);
  } else {
    append(text, size, "%s game %s:", title, c->row->id);
    for (i = 0; i < c->n; i++) {
      chat_name(c->row, c->to_act[i], hook->format, name, sizeof(name));
      append(text, size, "%s %s (seat %d)", i ? "," : "", name, c->to_act[i]);
    }
    append(text, size, " to act (seq %u).", c->row->seq);
  }
  if (c->server->public_url[0])
    append(text, size, " %s/#/game/%s", c->server->public_url, c->row->id);
}

/* Gathers the handles of the seats to act (mentions_of's callback). */
struct pings {
  const struct change *c;
  char text[ENGINE_MAX_SEATS * (DB_HANDLE_MAX + 1) + 1];
};

/* New string (free()): the body of `hook` for this change, its line
 * after `ping` (the hook's mention, or the handles of those to act). */
static char *body_for(const struct change *c, const struct db_webhook *hook, int seat,
                      const char *ping)
{
  char text[1536], line[1536 + sizeof(((struct pings *)0)->text) + 1];
  json_t *to_act = json_array();
  json_t *doc;
  int i;

  describe(c, hook, seat, text, sizeof(text));
  snprintf(line, sizeof(line), "%s%s%s", ping, ping[0] ? " " : "", text);
  for (i = 0; i < c->n; i++)
    json_array_append_new(to_act, json_integer(c->to_act[i]));
  doc = json_pack("{s:s, s:s, s:s, s:I, s:s, s:o, s:O?, s:s}", "event", c->event, "game",
                  c->row->id, "title", c->row->title, "seq", (json_int_t)c->row->seq, "status",
                  c->row->status, "to_act", to_act, "result", c->result, "text", line);
  json_object_set_new(doc, "url", json_sprintf("/v1/games/%s", c->row->id));
  json_object_set_new(doc, "webhook", json_string(hook->id));
  if (c->server->public_url[0])
    json_object_set_new(doc, "page",
                        json_sprintf("%s/#/game/%s", c->server->public_url, c->row->id));
  return shaped_body(hook->format, line, doc);
}

/* The webhooks of each row of a game_owed, in step with owed->rows
 * (game_owed.hooks): what api_deliver_enqueue needs besides the row. */
struct owed_hooks {
  struct db_webhook *hook; /* owned, cap long */
  int cap;
};

/* Add the delivery of `body` (taken) to `hook` to what the change owes. */
static enum cairn_status owe(const struct change *c, const struct db_webhook *hook, char *body,
                             struct cairn_error *err)
{
  struct game_owed *owed = c->owed;
  struct owed_hooks *hooks = owed->hooks;
  struct db_outbox *row;

  if (!hooks)
    hooks = owed->hooks = calloc(1, sizeof(*hooks));
  if (hooks && owed->n == hooks->cap) {
    int cap = hooks->cap ? 2 * hooks->cap : 4;
    struct db_outbox *rows = realloc(owed->rows, (size_t)cap * sizeof(*rows));
    struct db_webhook *grown = rows ? realloc(hooks->hook, (size_t)cap * sizeof(*grown)) : NULL;

    if (rows)
      owed->rows = rows;
    if (grown) {
      hooks->hook = grown;
      hooks->cap = cap;
    }
  }
  if (!hooks || owed->n == hooks->cap) {
    free(body);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  hooks->hook[owed->n] = *hook;
  row = &owed->rows[owed->n++];
  memset(row, 0, sizeof(*row));
  api_deliver_new_id(row->delivery_id);
  snprintf(row->webhook_id, sizeof(row->webhook_id), "%s", hook->id);
  snprintf(row->event, sizeof(row->event), "%s", c->event);
  snprintf(row->game_id, sizeof(row->game_id), "%s", c->row->id);
  row->body = body;
  row->attempt = 1;
  row->due_ms = api_now_ms(c->server);
  api_deliver_claim_owed(c->server->deliver, row); /* ours to send: no other node claims it */
  return CAIRN_OK;
}

static enum cairn_status add_ping(void *arg, const struct db_mention *m, struct cairn_error *err)
{
  struct pings *p = arg;
  int i;

  (void)err;
  for (i = 0; i < p->c->n; i++)
    if (strcmp(p->c->row->seat_player[p->c->to_act[i]], m->player_id) == 0) {
      append(p->text, sizeof(p->text), "%s%s", p->text[0] ? " " : "", m->handle);
      break;
    }
  return CAIRN_OK;
}

/* What a line of `hook` begins with: on a channel's turn, the handles the
 * players to act registered for it (api_webhooks_mention_put), instead of
 * the hook's own mention, so the channel pings whoever is to act; the
 * hook's mention otherwise, or when none of them registered one (or the
 * handles cannot be read: the line still goes, as it did before). */
static void ping_for(const struct change *c, const struct db_webhook *hook, char *out, size_t size)
{
  struct pings p = {.c = c};
  struct cairn_error err = {0};

  snprintf(out, size, "%s", hook->mention);
  if (!hook->game_id[0] || strcmp(c->event, "turn") != 0 || c->n == 0)
    return;
  if (db_mentions_of(c->server->db, hook->id, add_ping, &p, &err) == CAIRN_OK && p.text[0])
    snprintf(out, size, "%s", p.text);
}

static enum cairn_status consider(void *arg, const struct db_webhook *hook, struct cairn_error *err)
{
  const struct change *c = arg;
  int seat = hook->game_id[0] ? -1 : owner_seat(c->row, hook->owner);
  char ping[sizeof(((struct pings *)0)->text)];
  char *body;

  if (strcmp(c->event, "turn") == 0) {
    if (hook->game_id[0] ? !c->changed || c->n == 0 : seat < 0 || !c->newly[seat])
      return CAIRN_OK;
  }
  ping_for(c, hook, ping, sizeof(ping));
  body = body_for(c, hook, seat, ping);
  return body ? owe(c, hook, body, err) : CAIRN_OK;
}

/* A joiner's game-less webhooks: storage does not count the joiner as
 * seated until the join (and what it owes) is written. Hooks registered
 * for this game came with webhooks_of_game already. */
static enum cairn_status consider_gameless(void *arg, const struct db_webhook *hook,
                                           struct cairn_error *err)
{
  return hook->game_id[0] ? CAIRN_OK : consider(arg, hook, err);
}

/* An invitee's webhook: the game-less ones (a hook for one game cannot
 * name a game created a moment ago). */
struct invitation {
  struct change *c;
  int seat; /* the seat kept */
};

static enum cairn_status consider_invited(void *arg, const struct db_webhook *hook,
                                          struct cairn_error *err)
{
  struct invitation *inv = arg;
  char ping[sizeof(((struct pings *)0)->text)];
  char *body;

  if (hook->game_id[0])
    return CAIRN_OK;
  ping_for(inv->c, hook, ping, sizeof(ping));
  body = body_for(inv->c, hook, inv->seat, ping);
  return body ? owe(inv->c, hook, body, err) : CAIRN_OK;
}

/* Tell `event` of `row` to the game-less webhooks of each player seats[i]
 * names ("" for none), about seat i, but to its creator when `to_creator`
 * is false (the creator did it). */
static void tell_each(struct api_server *server, const struct db_game *row, const char *event,
                      const char (*seats)[DB_ID_MAX + 1], bool to_creator)
{
  struct game_owed owed = {0};
  struct change c = {.server = server, .owed = &owed, .row = row, .event = event};
  struct invitation inv = {.c = &c};
  struct cairn_error err = {0};

  if (!server->deliver)
    return;
  for (inv.seat = 0; inv.seat < row->seats; inv.seat++)
    if (seats[inv.seat][0] && (to_creator || strcmp(seats[inv.seat], row->creator) != 0))
      db_webhooks_of_owner(server->db, seats[inv.seat], consider_invited, &inv, &err);
  api_webhooks_send(server, &owed, true);
}

void api_webhooks_invite(struct api_server *server, const struct db_game *row)
{
  tell_each(server, row, "invite", (const char(*)[DB_ID_MAX + 1]) row->seat_invited, true);
}

void api_webhooks_declined(struct api_server *server, const struct db_game *row, int seat)
{
  char creator_at[ENGINE_MAX_SEATS][DB_ID_MAX + 1] = {{0}};

  snprintf(creator_at[seat], sizeof(creator_at[seat]), "%s", row->creator);
  tell_each(server, row, "declined", (const char(*)[DB_ID_MAX + 1]) creator_at, true);
}

void api_webhooks_cancelled(struct api_server *server, const struct db_game *row,
                            const char (*invited)[DB_ID_MAX + 1])
{
  char told[ENGINE_MAX_SEATS][DB_ID_MAX + 1] = {{0}};
  int i;

  /* A seat is taken, kept, or free: one player at most each. */
  for (i = 0; i < row->seats; i++)
    snprintf(told[i], sizeof(told[i]), "%s",
             row->seat_player[i][0] ? row->seat_player[i] : invited[i]);
  tell_each(server, row, "cancelled", (const char(*)[DB_ID_MAX + 1]) told, false);
}

/* The webhooks that follow the game as the change leaves it. */
static void each_following(struct api_server *server, const struct game_committed *change,
                           struct change *c, struct cairn_error *err)
{
  db_webhooks_of_game(server->db, change->row->id, consider, c, err);
  if (change->joined_player)
    db_webhooks_of_owner(server->db, change->joined_player, consider_gameless, c, err);
}

void api_webhooks_owe(struct api_server *server, const struct game_committed *change,
                      struct game_owed *owed)
{
  const struct db_game *row = change->row;
  struct change c = {.server = server, .owed = owed, .row = row};
  struct cairn_error err = {0};
  int i, j;

  if (!server->deliver)
    return;
  /* Who acts, as the game layer read it from the title once for the change. */
  c.n = change->n_to_act;
  memcpy(c.to_act, change->to_act, sizeof(c.to_act[0]) * (size_t)c.n);
  for (i = 0; i < c.n; i++) {
    c.newly[c.to_act[i]] = true;
    for (j = 0; j < change->prev_n; j++)
      if (change->prev_to_act[j] == c.to_act[i])
        c.newly[c.to_act[i]] = false;
  }
  c.changed = c.n != change->prev_n;
  for (i = 0; i < c.n && !c.changed; i++)
    c.changed = c.newly[c.to_act[i]];
  if (strcmp(change->prev_status, row->status) != 0 && strcmp(row->status, DB_STATUS_ACTIVE) == 0) {
    c.event = "start";
    each_following(server, change, &c, &err);
  }
  if (strcmp(change->prev_status, row->status) != 0 &&
      strcmp(row->status, DB_STATUS_FINISHED) == 0) {
    c.event = "end";
    /* A game ended outside the rules (an adjudication, a resignation)
     * carries the game row's result. */
    c.result = json_incref((json_t *)change->result);
    if (!c.result && row->result_json)
      c.result = json_loads(row->result_json, 0, NULL);
    each_following(server, change, &c, &err);
    json_decref(c.result);
    return;
  }
  c.event = "turn";
  each_following(server, change, &c, &err);
}

void api_webhooks_send(struct api_server *server, struct game_owed *owed, bool committed)
{
  struct owed_hooks *hooks = owed->hooks;
  int i;

  for (i = 0; i < owed->n; i++) {
    if (committed)
      api_deliver_enqueue(server->deliver, &hooks->hook[i], &owed->rows[i], owed->stored);
    free((char *)owed->rows[i].body);
  }
  if (hooks)
    free(hooks->hook);
  free(hooks);
  free(owed->rows);
  *owed = (struct game_owed){0};
}

/* ---- chat lines (issue 25) ---- */

struct chat_line {
  struct change change; /* event "chat": what owe() fills a row from */
  const struct db_chat *msg;
};

/* New string (free()): the body of `hook` for chat message `msg`: the
 * line "[title game id] name (seat N | spectator): text" with the name and
 * the text defused, never the hook's mention (a chat line is not addressed
 * to the hook's owner: pinging them at every line would be noise). */
static char *chat_body_for(const struct chat_line *l, const struct db_webhook *hook)
{
  const struct db_game *row = l->change.row;
  const struct engine_module *m = engine_find(row->title);
  int seat = owner_seat(row, l->msg->author);
  char who[16], line[6 * DB_CHAT_TEXT_MAX + 6 * DB_NAME_MAX + 256];
  json_t *doc;

  snprintf(line, sizeof(line), "[%s game %s] ", m ? m->name : row->title, row->id);
  defuse(l->msg->author_name, hook->format, line, sizeof(line));
  snprintf(who, sizeof(who), seat >= 0 ? "seat %d" : "spectator", seat);
  append(line, sizeof(line), " (%s): ", who);
  defuse(l->msg->text, hook->format, line, sizeof(line));
  doc = json_pack("{s:s, s:s, s:s, s:o, s:s}", "event", "chat", "game", row->id, "title",
                  row->title, "message", api_chat_json(l->msg), "text", line);
  return shaped_body(hook->format, line, doc);
}

/* Whether `hook`'s owner may read the message's channel: the players'
 * channel goes only to hooks of seated players (a hook that follows a game
 * needs no seat, so its owner may be a spectator). */
static bool hook_may_read(const struct chat_line *l, const struct db_webhook *hook)
{
  if (strcmp(hook->owner, l->msg->author) == 0)
    return false; /* one's own words need no echo */
  return l->msg->channel != DB_CHAT_PLAYERS || owner_seat(l->change.row, hook->owner) >= 0;
}

static enum cairn_status consider_chat(void *arg, const struct db_webhook *hook,
                                       struct cairn_error *err)
{
  const struct chat_line *l = arg;
  char *body;

  if (!hook_may_read(l, hook))
    return CAIRN_OK;
  body = chat_body_for(l, hook);
  return body ? owe(&l->change, hook, body, err) : CAIRN_OK;
}

void api_webhooks_owe_chat(struct api_server *server, const struct db_game *row,
                           const struct db_chat *msg, struct game_owed *owed)
{
  struct chat_line l = {.change = {.server = server, .owed = owed, .row = row, .event = "chat"},
                        .msg = msg};
  struct cairn_error err = {0};

  if (!server->deliver)
    return;
  db_webhooks_of_game(server->db, row->id, consider_chat, &l, &err);
}
