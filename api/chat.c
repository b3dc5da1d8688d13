/*
 * chat.c - a game's chat (issue 25): POST and GET /v1/games/{id}/chat and
 * DELETE /v1/chat/{id}. Two channels per game: the seated players' and the
 * spectators'. A seated player reads and writes both; anybody else (a
 * signed-in spectator to write, anyone to read, as anyone may watch a
 * game) only the spectators'. So a spectator's message can never reach the
 * players' channel, and the players' channel is never shown to a
 * spectator, not even as a count: each channel numbers its own messages.
 *
 * Chat is not a change to the game: it is stored beside the log (db_chat_*),
 * never in it, so it does not touch the game's seq, its hash chain or its
 * replay. A message carries its channel's number, its author and the time,
 * never the game's seq or anything of the game's state.
 *
 * Delivery: a post (or a deletion) publishes a chat notice to the game's
 * SSE streams and wakes its long-polls (notify.c, api_notify_chat: the
 * players' channel only to streams of seated players), and owes chat lines
 * to the webhooks that follow the game (webhooks.c, api_webhooks_owe_chat),
 * stored with the message in one transaction. Clients fetch the text with
 * GET, which applies the channel rule once. On PostgreSQL a message posted
 * on another node reaches the streams here through the database's
 * notification (migrations/postgres/0009_notify_chat.sql, which names the
 * message, never its words; api_chat_remote).
 */
#include "api.h"
#include "notify.h"
#include "../log/log.h"

#include <microhttpd.h>
#include <stdio.h>
#include <string.h>

#define CHAT_CHARS_MAX    500 /* characters (code points) of one message */
#define CHAT_LIST_DEFAULT 50  /* messages per GET page */
#define CHAT_LIST_MAX     200
#define CHAT_WAIT_MAX_S   300
/* A parked chat long-poll looks at the store again at least this often:
 * it waits on the game's wake-ups (notify.c), and a message committed
 * between the handler's read and the park would otherwise wait for the
 * next one. So a message reaches a long-poll within this, at worst. */
#define CHAT_WAIT_SLICE_MS 1000

static const char *const channel_names[] = {
    [DB_CHAT_PLAYERS] = "players",
    [DB_CHAT_SPECTATORS] = "spectators",
};

const char *api_chat_channel_name(int channel)
{
  return channel == DB_CHAT_PLAYERS ? channel_names[DB_CHAT_PLAYERS]
                                    : channel_names[DB_CHAT_SPECTATORS];
}

json_t *api_chat_json(const struct db_chat *m)
{
  json_t *doc = json_pack("{s:s, s:s, s:I, s:s, s:s, s:o}", "id", m->id, "channel",
                          api_chat_channel_name(m->channel), "n", (json_int_t)m->n, "author",
                          m->author, "author_name", m->author_name, "at", api_time_json(m->at_ms));

  if (!doc)
    return NULL;
  if (m->deleted_ms) {
    /* A tombstone: the message was there, its words are gone. */
    json_object_set_new(doc, "deleted", json_true());
    json_object_set_new(doc, "deleted_at", api_time_json(m->deleted_ms));
  } else {
    json_object_set_new(doc, "text", json_string(m->text));
  }
  return doc;
}

/* The channel a request names (?channel= or the body's "channel"), or the
 * caller's own when it names none: the players' for a seated player, the
 * spectators' for anyone else. CAIRN_EINVAL for another name, and the
 * players' channel is refused to a caller without a seat (403 not-seated). */
static enum cairn_status pick_channel(const char *name, int seat, int *out, struct cairn_error *err)
{
  bool seated = seat >= 0;

  if (!name)
    *out = seated ? DB_CHAT_PLAYERS : DB_CHAT_SPECTATORS;
  else if (strcmp(name, "players") == 0)
    *out = DB_CHAT_PLAYERS;
  else if (strcmp(name, "spectators") == 0)
    *out = DB_CHAT_SPECTATORS;
  else
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "channel must be \"players\" or \"spectators\", not \"%.40s\"", name);
  if (*out == DB_CHAT_PLAYERS && !seated)
    return cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_SEATED, NULL,
                      "the players' channel is for the game's seated players");
  return CAIRN_OK;
}

/* A message's text: 1 to CHAT_CHARS_MAX characters (jansson has checked
 * it is UTF-8), no control characters (a line, not a document: what a
 * chat bot would read as layout stays out), not only spaces. */
static enum cairn_status check_text(const char *text, struct cairn_error *err)
{
  size_t chars = 0;
  bool visible = false;
  const unsigned char *p;

  for (p = (const unsigned char *)text; *p; p++) {
    if (*p < 0x20 || *p == 0x7f)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                        "text may not hold control characters (a newline, a tab)");
    chars += (*p & 0xc0) != 0x80; /* count code points, not bytes */
    visible = visible || *p != ' ';
  }
  if (!visible)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "text is empty");
  if (chars > CHAT_CHARS_MAX)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "text has %zu characters; at most %d", chars, CHAT_CHARS_MAX);
  return CAIRN_OK;
}

/* Chat's own rate: a bucket per player in the server's rate table
 * (limits.c) under a key of its own, apart from the player's request
 * bucket, so a chatty player is slowed long before the general limit
 * would notice, and chat never spends a player's move budget. Off when
 * the server's rate limits are (--rate-limit 0). */
static enum cairn_status charge(struct api_request *req, struct api_response *resp,
                                struct cairn_error *err)
{
  struct api_rate_refusal refusal;
  char key[8 + DB_ID_MAX];

  snprintf(key, sizeof(key), "chat:%s", req->player.id);
  if (api_limits_take(req->server->limits, key, API_CHAT_PER_SECOND, api_now_ms(req->server),
                      &refusal))
    return CAIRN_OK;
  resp->retry_after = refusal.retry_after;
  return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_RATE_LIMITED, NULL,
                    "too many chat messages; retry in %d s", refusal.retry_after);
}

static const struct api_field post_fields[] = {
    {"channel", API_STRING, false},
    {"text", API_STRING, true},
    {NULL, 0, false},
};

/* Store `msg` with the chat lines it owes, then tell the game's watchers. */
static enum cairn_status post(struct api_server *server, const struct db_game *row,
                              struct db_chat *msg, struct cairn_error *err)
{
  struct game_owed owed = {0};
  enum cairn_status st;

  api_webhooks_owe_chat(server, row, msg, &owed);
  st = db_chat_post(server->db, msg, owed.rows, owed.n, err);
  owed.stored = true;
  api_webhooks_send(server, &owed, st == CAIRN_OK);
  if (st == CAIRN_OK)
    api_notify_chat(server->notify, row, msg->channel, msg->n, false);
  return st;
}

enum cairn_status api_chat_post(struct api_request *req, struct api_response *resp,
                                struct cairn_error *err)
{
  struct db_game row = {0};
  struct db_chat msg = {0};
  json_t *doc = NULL;
  const char *text;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_body_object(req, post_fields, false, &doc, err);
  if (st == CAIRN_OK)
    st = api_load_game(req, &row, err);
  if (st == CAIRN_OK)
    st = pick_channel(json_string_value(json_object_get(doc, "channel")),
                      api_viewer_seat(req, &row), &msg.channel, err);
  text = json_string_value(json_object_get(doc, "text"));
  if (st == CAIRN_OK)
    st = check_text(text, err);
  if (st == CAIRN_OK)
    st = charge(req, resp, err);
  if (st != CAIRN_OK)
    goto cleanup;
  game_new_id(msg.id);
  snprintf(msg.game_id, sizeof(msg.game_id), "%s", row.id);
  snprintf(msg.author, sizeof(msg.author), "%s", req->player.id);
  snprintf(msg.author_name, sizeof(msg.author_name), "%s", req->player.name);
  snprintf(msg.text, sizeof(msg.text), "%s", text);
  msg.at_ms = api_now_ms(req->server);
  st = post(req->server, &row, &msg, err);
  if (st == CAIRN_OK) {
    resp->status = 201;
    resp->body = api_chat_json(&msg);
  }
cleanup:
  db_game_clear(&row);
  json_decref(doc);
  return st;
}

static enum cairn_status list_one(void *arg, const struct db_chat *m, struct cairn_error *err)
{
  (void)err;
  json_array_append_new(arg, api_chat_json(m));
  return CAIRN_OK;
}

/* ?after, ?limit and ?timeout of a GET. */
struct list_query {
  uint32_t after, limit, timeout;
  bool has_timeout;
};

static enum cairn_status read_query(const struct api_request *req, struct list_query *q,
                                    struct cairn_error *err)
{
  bool present;
  enum cairn_status st;

  q->after = 0;
  q->limit = CHAT_LIST_DEFAULT;
  q->timeout = 0;
  st = api_query_uint(req, "after", &q->after, &present, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "limit", &q->limit, &present, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "timeout", &q->timeout, &q->has_timeout, err);
  if (st != CAIRN_OK)
    return st;
  if (q->limit < 1 || q->limit > CHAT_LIST_MAX)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                      "limit must be 1 to %d, not %u", CHAT_LIST_MAX, q->limit);
  if (q->timeout > CHAT_WAIT_MAX_S)
    q->timeout = CHAT_WAIT_MAX_S;
  return CAIRN_OK;
}

/* Park the request (a long-poll with ?timeout=) until the game wakes its
 * waiters, the next slice, or the deadline; false once the deadline is
 * past, or nothing can wake it. */
static bool park(struct api_request *req, const struct db_game *row, uint32_t timeout,
                 struct api_response *resp)
{
  int64_t now = api_now_ms(req->server);
  int64_t *deadline = req->wait_deadline_ms;

  if (*deadline == 0)
    *deadline = now + (int64_t)timeout * 1000;
  if (!req->server->notify || now >= *deadline)
    return false;
  resp->wait_until_ms = *deadline < now + CHAT_WAIT_SLICE_MS ? *deadline : now + CHAT_WAIT_SLICE_MS;
  snprintf(resp->wait_game, sizeof(resp->wait_game), "%s", row->id);
  resp->wait_after = row->seq;
  return true;
}

enum cairn_status api_chat_list(struct api_request *req, struct api_response *resp,
                                struct cairn_error *err)
{
  struct db_game row = {0};
  struct list_query q;
  json_t *messages = NULL;
  int channel = DB_CHAT_SPECTATORS;
  enum cairn_status st;

  st = read_query(req, &q, err);
  if (st == CAIRN_OK)
    st = api_load_game(req, &row, err);
  if (st == CAIRN_OK)
    st =
        pick_channel(MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, "channel"),
                     api_viewer_seat(req, &row), &channel, err);
  if (st != CAIRN_OK)
    goto cleanup;
  messages = json_array();
  st = db_chat_list(req->server->db, row.id, channel, q.after, (int)q.limit, list_one, messages,
                    err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (json_array_size(messages) == 0 && q.has_timeout && q.timeout > 0 &&
      park(req, &row, q.timeout, resp))
    goto cleanup;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:s, s:O}", "game", row.id, "channel",
                         api_chat_channel_name(channel), "messages", messages);
cleanup:
  json_decref(messages);
  db_game_clear(&row);
  return st;
}

void api_chat_remote(struct api_server *server, const struct db_change *change)
{
  struct db_game row = {0};
  struct cairn_error err = {0};

  if (!api_notify_cares(server->notify, change->game_id))
    return;
  /* The row names who is seated: the players' channel is told to them
   * only (api_notify_chat), as for a post made here. */
  if (game_load(server->game, change->game_id, &row, &err) == CAIRN_OK)
    api_notify_chat(server->notify, &row, change->chat - 1, change->chat_n, change->chat_deleted);
  else
    log_line(LOG_ERROR, "chat", "another node's chat message in game %s: %s", change->game_id,
             err.detail);
  db_game_clear(&row);
}

enum cairn_status api_chat_delete(struct api_request *req, struct api_response *resp,
                                  struct cairn_error *err)
{
  struct db_game row = {0};
  struct db_chat msg;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = db_chat_delete(req->server->db, req->id, req->player.id, api_now_ms(req->server), err);
  if (st == CAIRN_OK)
    st = db_chat_get(req->server->db, req->id, &msg, err);
  if (st == CAIRN_OK)
    st = game_load(req->server->game, msg.game_id, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  api_notify_chat(req->server->notify, &row, msg.channel, msg.n, true);
  resp->status = 200;
  resp->body = api_chat_json(&msg);
cleanup:
  db_game_clear(&row);
  return st;
}
