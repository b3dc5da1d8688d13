/*
 * test_chat.c - a game's chat through the real server (api/chat.c, issue
 * 25): POST and GET /v1/games/{id}/chat, DELETE /v1/chat/{id}. Two
 * channels: the seated players' (read and written by them only) and the
 * spectators' (written by anyone signed in, read by anyone). Checked here:
 * a spectator's message never reaches the players' channel and a spectator
 * cannot read that channel, through GET, SSE, long-poll, webhooks and the
 * export; each channel numbers its own messages; the length and rate
 * limits; deletion leaves a tombstone; chat never moves the game's seq,
 * log or chain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"
#include <curl/curl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sseclient.h"
#include "longpoll.h"
#include "hookrx.h"

/* Two seated players and a spectator around a two-seat Himalaya game. */
struct table {
  struct harness_player a, b, spectator;
  char id[64];
};

static void seat_table(struct harness_server *s, struct table *t)
{
  json_t *g;

  harness_new_player(s, "ann", &t->a);
  harness_new_player(s, "bob", &t->b);
  harness_new_player(s, "sid", &t->spectator);
  g = harness_new_game(s, t->a.token, "himalaya", 2, NULL);
  snprintf(t->id, sizeof t->id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, t->a.token, t->id, 0);
  harness_join(s, t->b.token, t->id, 1);
}

/* POST a message as `token` ({text} and, when not NULL, channel); the
 * answer is the caller's to free. */
static void post_chat(struct harness_server *s, const char *token, const char *id,
                      const char *channel, const char *text, struct harness_response *r)
{
  json_t *body = json_pack("{s:s}", "text", text);

  if (channel)
    json_object_set_new(body, "channel", json_string(channel));
  harness_call_json(s, r, "POST", token, body, "/v1/games/%s/chat", id);
  json_decref(body);
}

/* post_chat expecting 201: New reference, the message. */
static json_t *say(struct harness_server *s, const char *token, const char *id, const char *channel,
                   const char *text)
{
  struct harness_response r;
  json_t *msg;

  post_chat(s, token, id, channel, text, &r);
  HARNESS_EXPECT_JSON(&r, 201);
  msg = json_incref(r.json);
  harness_response_free(&r);
  return msg;
}

/* GET the channel's messages as `token`, expecting 200: New reference,
 * the messages array. */
static json_t *read_channel(struct harness_server *s, const char *token, const char *id,
                            const char *channel)
{
  json_t *page = harness_get_json(s, token, "/v1/games/%s/chat?channel=%s", id, channel);
  json_t *messages = json_incref(json_object_get(page, "messages"));

  assert_string_equal(harness_str(page, "channel"), channel);
  json_decref(page);
  return messages;
}

static bool any_text_is(const json_t *messages, const char *text)
{
  size_t i;
  json_t *m;

  json_array_foreach(messages, i, m)
  {
    const char *t = json_string_value(json_object_get(m, "text"));

    if (t && strcmp(t, text) == 0)
      return true;
  }
  return false;
}

/* Issue 25: "chat from a spectator never reaches the players' channel". */
static void test_a_spectators_message_never_reaches_the_players_channel(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct table t;
  json_t *m, *players, *spectators;

  seat_table(s, &t);
  /* Without a channel a spectator writes to the spectators'. */
  m = say(s, t.spectator.token, t.id, NULL, "who is winning?");
  assert_string_equal(harness_str(m, "channel"), "spectators");
  assert_int_equal(harness_int(m, "n"), 1);
  assert_string_equal(harness_str(m, "author"), t.spectator.id);
  json_decref(m);
  /* Asking for the players' is refused, and nothing is stored. */
  post_chat(s, t.spectator.token, t.id, "players", "let me in", &r);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-seated");
  harness_response_free(&r);
  m = say(s, t.a.token, t.id, NULL, "good luck");
  assert_string_equal(harness_str(m, "channel"), "players");
  /* Each channel numbers its own: the spectators' message is not counted. */
  assert_int_equal(harness_int(m, "n"), 1);
  json_decref(m);

  players = read_channel(s, t.b.token, t.id, "players");
  assert_int_equal(json_array_size(players), 1);
  assert_true(any_text_is(players, "good luck"));
  assert_false(any_text_is(players, "who is winning?"));
  assert_false(any_text_is(players, "let me in"));
  /* Players read the spectators' channel too. */
  spectators = read_channel(s, t.a.token, t.id, "spectators");
  assert_int_equal(json_array_size(spectators), 1);
  assert_true(any_text_is(spectators, "who is winning?"));
  json_decref(players);
  json_decref(spectators);
}

/* Issue 25: "a spectator cannot read the players' channel": signed in or
 * not, and by default a reader without a seat is shown the spectators'. */
static void test_a_spectator_cannot_read_the_players_channel(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct table t;
  json_t *page, *m;

  seat_table(s, &t);
  m = say(s, t.a.token, t.id, "players", "our plan: the north face");
  json_decref(m);
  harness_call(s, &r, "GET", t.spectator.token, NULL, "/v1/games/%s/chat?channel=players", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-seated");
  assert_null(strstr(r.body, "north face"));
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/chat?channel=players", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-seated");
  harness_response_free(&r);
  page = harness_get_json(s, NULL, "/v1/games/%s/chat", t.id);
  assert_string_equal(harness_str(page, "channel"), "spectators");
  assert_int_equal(json_array_size(json_object_get(page, "messages")), 0);
  json_decref(page);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/chat?channel=lobby", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
}

/* Issue 25: "deleting one's own message leaves a tombstone". */
static void test_deleting_ones_own_message_leaves_a_tombstone(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct table t;
  json_t *m, *after, *messages;
  char id[64];

  seat_table(s, &t);
  m = say(s, t.a.token, t.id, NULL, "oops, wrong game");
  snprintf(id, sizeof id, "%s", harness_str(m, "id"));
  json_decref(m);
  m = say(s, t.a.token, t.id, NULL, "second");
  json_decref(m);
  /* Somebody else's message cannot be deleted (nor told apart from none). */
  harness_call(s, &r, "DELETE", t.b.token, NULL, "/v1/chat/%s", id);
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "DELETE", NULL, NULL, "/v1/chat/%s", id);
  HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
  harness_response_free(&r);

  harness_call(s, &r, "DELETE", t.a.token, NULL, "/v1/chat/%s", id);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_true(json_is_true(json_object_get(r.json, "deleted")));
  assert_null(json_object_get(r.json, "text"));
  assert_int_equal(harness_int(r.json, "n"), 1);
  harness_response_free(&r);
  harness_call(s, &r, "DELETE", t.a.token, NULL, "/v1/chat/%s", id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "chat-deleted");
  harness_response_free(&r);

  /* The tombstone keeps its place and number; its words are gone. */
  messages = read_channel(s, t.b.token, t.id, "players");
  assert_int_equal(json_array_size(messages), 2);
  after = json_array_get(messages, 0);
  assert_string_equal(harness_str(after, "id"), id);
  assert_int_equal(harness_int(after, "n"), 1);
  assert_true(json_is_true(json_object_get(after, "deleted")));
  assert_null(json_object_get(after, "text"));
  assert_string_equal(harness_str(json_array_get(messages, 1), "text"), "second");
  json_decref(messages);
  harness_call(s, &r, "GET", t.a.token, NULL, "/v1/games/%s/chat?channel=players&after=1", t.id);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_int_equal(json_array_size(json_object_get(r.json, "messages")), 1);
  harness_response_free(&r);
}

/* A text of `n` copies of `unit`. OUT: caller frees. */
static char *repeat(const char *unit, int n)
{
  size_t len = strlen(unit);
  char *text = malloc(len * (size_t)n + 1);
  int i;

  assert_non_null(text);
  for (i = 0; i < n; i++)
    memcpy(text + len * (size_t)i, unit, len);
  text[len * (size_t)n] = '\0';
  return text;
}

/* Messages are 1 to 500 characters (not bytes) on one line. */
static void test_a_message_is_one_line_of_at_most_500_characters(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct table t;
  char *longest = repeat("\xc3\xa9", 500); /* é: two bytes each */
  char *too_long = repeat("a", 501);
  json_t *m;

  seat_table(s, &t);
  m = say(s, t.a.token, t.id, NULL, longest);
  assert_string_equal(harness_str(m, "text"), longest);
  json_decref(m);
  post_chat(s, t.a.token, t.id, NULL, too_long, &r);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  assert_non_null(strstr(harness_str(r.json, "detail"), "501"));
  harness_response_free(&r);
  post_chat(s, t.a.token, t.id, NULL, "two\nlines", &r);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
  post_chat(s, t.a.token, t.id, NULL, "   ", &r);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
  harness_call(s, &r, "POST", t.a.token, "{\"text\":\"hi\",\"seq\":3}", "/v1/games/%s/chat", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "unknown-field");
  harness_response_free(&r);
  harness_call(s, &r, "POST", NULL, "{\"text\":\"hi\"}", "/v1/games/%s/chat", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
  harness_response_free(&r);
  harness_call(s, &r, "POST", t.a.token, "{\"text\":\"hi\"}", "/v1/games/nosuchgame/chat");
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/chat?limit=201", t.id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
  free(longest);
  free(too_long);
}

/* Chat is not a change to the game: seq, log and chain stay as they were. */
static void test_chat_leaves_the_games_log_alone(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  json_t *before, *after, *log_before, *log_after, *m;

  seat_table(s, &t);
  before = harness_get_game(s, NULL, t.id);
  log_before = harness_get_json(s, NULL, "/v1/games/%s/log", t.id);
  m = say(s, t.a.token, t.id, NULL, "hello");
  json_decref(m);
  m = say(s, t.spectator.token, t.id, NULL, "hi all");
  /* A message carries no game state: no seq of the game in it. */
  assert_null(json_object_get(m, "seq"));
  json_decref(m);
  after = harness_get_game(s, NULL, t.id);
  log_after = harness_get_json(s, NULL, "/v1/games/%s/log", t.id);
  assert_int_equal(harness_int(after, "seq"), harness_int(before, "seq"));
  assert_true(json_equal(log_before, log_after));
  harness_expect_verifies(s, t.id);
  json_decref(before);
  json_decref(after);
  json_decref(log_before);
  json_decref(log_after);
}

/* The export asked for its chat (?chat=true) carries the channels its
 * reader may read. */
static void test_the_export_carries_only_the_chat_its_reader_may_read(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  json_t *doc, *chat, *m;

  seat_table(s, &t);
  m = say(s, t.a.token, t.id, NULL, "between us");
  json_decref(m);
  m = say(s, t.spectator.token, t.id, NULL, "from the gallery");
  json_decref(m);

  doc = harness_get_json(s, t.b.token, "/v1/games/%s/export?chat=true", t.id);
  chat = json_object_get(doc, "chat");
  assert_true(any_text_is(json_object_get(chat, "players"), "between us"));
  assert_true(any_text_is(json_object_get(chat, "spectators"), "from the gallery"));
  json_decref(doc);

  doc = harness_get_json(s, t.spectator.token, "/v1/games/%s/export?chat=true", t.id);
  chat = json_object_get(doc, "chat");
  assert_null(json_object_get(chat, "players"));
  assert_true(any_text_is(json_object_get(chat, "spectators"), "from the gallery"));
  json_decref(doc);
  doc = harness_get_json(s, NULL, "/v1/games/%s/export?chat=true", t.id);
  assert_null(json_object_get(json_object_get(doc, "chat"), "players"));
  json_decref(doc);
  /* Unasked, the export is the game's record alone, as before. */
  doc = harness_get_json(s, t.b.token, "/v1/games/%s/export", t.id);
  assert_null(json_object_get(doc, "chat"));
  json_decref(doc);
}

/* ---- the streams ---- */

/* The shared SSE reader (sseclient.h), keeping the channel of each
 * `event: chat` until it has `want` of them. */
struct sse {
  struct sse_client base; /* first: the reader */
  int want;
  int chats;
  char channels[8][16];
};

static bool count_chats(struct sse_client *b)
{
  struct sse *c = (struct sse *)b;
  char *at;

  c->chats = 0;
  for (at = strstr(b->text, "event: chat\ndata: "); at && c->chats < 8;
       at = strstr(at + 1, "event: chat\ndata: ")) {
    char *end = strstr(at, "\n\n");
    json_t *body;

    if (!end)
      break;
    body = json_loadb(at + 18, (size_t)(end - at - 18), 0, NULL);
    snprintf(c->channels[c->chats], sizeof c->channels[0], "%s",
             json_string_value(json_object_get(body, "channel")));
    json_decref(body);
    c->chats++;
  }
  return c->chats >= c->want;
}

static void sse_start(struct sse *c, struct harness_server *s, const char *id, const char *token,
                      int want)
{
  char path[128];

  memset(c, 0, sizeof *c);
  snprintf(path, sizeof path, "/v1/games/%s/events", id);
  sse_client_init(&c->base, s, path, token, count_chats);
  c->want = want;
  sse_client_start(&c->base);
}

/* A game's stream tells its reader of new chat, the players' channel only
 * when the reader is seated: the spectator's stream hears of the second
 * message only, though the players' came first. */
static void test_a_spectators_stream_hears_nothing_of_the_players_channel(void **state)
{
  struct harness_server *s = *state;
  struct sse watcher, player;
  struct table t;
  json_t *m;

  seat_table(s, &t);
  sse_start(&watcher, s, t.id, NULL, 1);
  sse_start(&player, s, t.id, t.b.token, 2);
  m = say(s, t.a.token, t.id, NULL, "secret plan");
  json_decref(m);
  m = say(s, t.spectator.token, t.id, NULL, "nice move");
  json_decref(m);
  sse_client_join(&watcher.base);
  sse_client_join(&player.base);
  assert_int_equal(watcher.chats, 1);
  assert_string_equal(watcher.channels[0], "spectators");
  assert_null(strstr(watcher.base.text, "secret plan"));
  assert_int_equal(player.chats, 2);
  assert_string_equal(player.channels[0], "players");
  assert_string_equal(player.channels[1], "spectators");
  sse_client_free(&watcher.base);
  sse_client_free(&player.base);
}

/* A long-poll (?timeout=) of the spectators' channel answers with the
 * spectator's message, not at the players' one before it. */
static void test_a_chat_long_poll_answers_with_the_next_message_it_may_read(void **state)
{
  struct harness_server *s = *state;
  struct long_poll a;
  struct table t;
  json_t *m, *messages;

  seat_table(s, &t);
  long_poll_start(&a, s, "/v1/games/%s/chat?channel=spectators&after=0&timeout=30", t.id);
  long_poll_let_it_park();
  m = say(s, t.a.token, t.id, NULL, "players only");
  json_decref(m);
  m = say(s, t.spectator.token, t.id, NULL, "for everyone");
  json_decref(m);
  long_poll_join(&a);
  assert_non_null(a.answer);
  messages = json_object_get(a.answer, "messages");
  assert_int_equal(json_array_size(messages), 1);
  assert_string_equal(harness_str(json_array_get(messages, 0), "text"), "for everyone");
  long_poll_free(&a);
}

/* ---- servers of their own: a rate limit, webhooks ---- */

/* A 429 of chat's own limit carries Retry-After: `seconds`, the same as
 * its detail's "retry in N s", and none of the request limits' bucket
 * headers (chat's bucket is not the one they describe). */
static void expect_retry_after(const struct harness_response *r, int seconds)
{
  const char *header = harness_response_header(r, "Retry-After");
  char said[32];

  assert_non_null(header);
  assert_int_equal(atoi(header), seconds);
  snprintf(said, sizeof(said), "retry in %d s", seconds);
  assert_non_null(strstr(harness_str(r->json, "detail"), said));
  assert_null(harness_response_header(r, "RateLimit-Limit"));
}

/* Chat has its own bucket per player (1 message a second, 2 at once),
 * apart from the request limits, which are far higher here. */
static void test_chat_is_rate_limited_per_player(void **state)
{
  struct harness_server own = {0};
  struct harness_response r;
  struct table t;
  json_t *m;

  (void)state;
  setenv("CAIRN_RATE_LIMIT", "1000", 1);
  setenv("CAIRN_TEST_CLOCK", "1", 1);
  harness_start(&own);
  seat_table(&own, &t);
  m = say(&own, t.a.token, t.id, NULL, "one");
  json_decref(m);
  m = say(&own, t.a.token, t.id, NULL, "two");
  json_decref(m);
  post_chat(&own, t.a.token, t.id, NULL, "three", &r);
  HARNESS_EXPECT_PROBLEM(&r, 429, "rate-limited");
  /* The refusal says when to come back: a second, as its detail says. */
  expect_retry_after(&r, 1);
  harness_response_free(&r);
  /* Another player's bucket is their own. */
  m = say(&own, t.b.token, t.id, NULL, "my turn to talk");
  json_decref(m);
  /* The refused message was not stored. */
  m = read_channel(&own, t.b.token, t.id, "players");
  assert_int_equal(json_array_size(m), 3);
  assert_false(any_text_is(m, "three"));
  json_decref(m);
  /* The second it named is enough (the test clock also runs on its own,
   * which only ever fills the bucket more). */
  harness_advance_clock(&own, 1000);
  m = say(&own, t.a.token, t.id, NULL, "three, later");
  json_decref(m);
  unsetenv("CAIRN_RATE_LIMIT");
  unsetenv("CAIRN_TEST_CLOCK");
  assert_true(harness_stop(&own));
}

/* A webhook of `format` following the game, at `path` of the receiver,
 * with a mention (which chat lines leave out). */
static void follow(struct harness_server *s, const struct harness_player *owner, const char *id,
                   const char *path, const char *format)
{
  struct harness_response r;
  char body[256];

  snprintf(body, sizeof body,
           "{\"url\":\"http://127.0.0.1:%d%s\",\"format\":\"%s\",\"game\":\"%s\","
           "\"mention\":\"<@1234>\"}",
           hookrx_port(), path, format, id);
  harness_call(s, &r, "POST", owner->token, body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  harness_response_free(&r);
}

/* Chat lines go to the webhooks that follow the game, the players' channel
 * only to hooks of seated players: a spectator's hook gets the
 * spectators' line and never the players'. */
static void test_chat_lines_reach_only_the_webhooks_that_may_read_them(void **state)
{
  struct harness_server own = {0};
  struct hookrx_seen seen[64];
  struct table t;
  json_t *m;
  int i, n, chats_to_spectator = 0;

  (void)state;
  setenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS", "1", 1);
  hookrx_start();
  harness_start(&own);
  seat_table(&own, &t);
  follow(&own, &t.b, t.id, "/player", "json");
  follow(&own, &t.spectator, t.id, "/spectator", "discord");
  m = say(&own, t.a.token, t.id, NULL, "players' words");
  json_decref(m);
  m = say(&own, t.a.token, t.id, "spectators", "hello @everyone <b>gallery</b>");
  json_decref(m);
  /* Deliveries go out on the worker's own time. */
  assert_int_equal(hookrx_wait("/player", 2, 10000), 2);
  assert_int_equal(hookrx_wait("/spectator", 1, 10000), 1);
  usleep(300 * 1000); /* a stray second delivery would have come by now */
  n = hookrx_copy(seen, 64);
  for (i = 0; i < n; i++) {
    assert_string_equal(seen[i].event, "chat");
    if (strcmp(seen[i].path, "/spectator") != 0)
      continue;
    chats_to_spectator++;
    /* A chat line: the author's name and words, what a chat would read
     * as a ping or markup defused, and no mention of the hook's owner. */
    assert_null(strstr(seen[i].body, "players' words"));
    assert_non_null(strstr(seen[i].body, "{\"content\":\"[Himalaya game "));
    assert_non_null(strstr(seen[i].body, "ann (seat 0): hello @\xe2\x80\x8b"
                                         "everyone"));
    assert_non_null(strstr(seen[i].body, "<\xe2\x80\x8b"
                                         "b>gallery<\xe2\x80\x8b"
                                         "/b>"));
    assert_null(strstr(seen[i].body, "@everyone"));
    assert_null(strstr(seen[i].body, "<@1234>"));
  }
  assert_int_equal(chats_to_spectator, 1);
  assert_true(harness_stop(&own));
  hookrx_stop();
  unsetenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_spectators_message_never_reaches_the_players_channel),
      cmocka_unit_test(test_a_spectator_cannot_read_the_players_channel),
      cmocka_unit_test(test_deleting_ones_own_message_leaves_a_tombstone),
      cmocka_unit_test(test_a_message_is_one_line_of_at_most_500_characters),
      cmocka_unit_test(test_chat_leaves_the_games_log_alone),
      cmocka_unit_test(test_the_export_carries_only_the_chat_its_reader_may_read),
      cmocka_unit_test(test_a_spectators_stream_hears_nothing_of_the_players_channel),
      cmocka_unit_test(test_a_chat_long_poll_answers_with_the_next_message_it_may_read),
      cmocka_unit_test(test_chat_is_rate_limited_per_player),
      cmocka_unit_test(test_chat_lines_reach_only_the_webhooks_that_may_read_them),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/chat", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return rc;
}
