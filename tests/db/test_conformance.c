/*
 * test_conformance.c - the storage contract of db/db.h, run against every
 * backend this build has (SQLite and PostgreSQL; a new backend adds one
 * row to `backends` below and must pass all of it, no test skipped). Every test
 * reaches storage only through db_open and the db_* calls: what a backend
 * keeps on disk is its own test's business (test_sqlite.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "tests/order.h"
#include "db/db.h"
#include "tmpdb.h"

/* ---- helpers ---- */

/* Records what moves_load hands over. */
struct walk {
  uint32_t ords[512];
  size_t n;
  size_t stop_after;  /* return CAIRN_ECONFLICT after this many rows; 0: never */
  size_t done_after;  /* return CAIRN_DONE after this many rows; 0: never */
  struct db *reenter; /* when set, call game_load from inside the callback */
  const char *game;
  bool lean;    /* moves_load_lean's rows: the move without events, time or hash */
  int bad_text; /* rows whose strings did not match their ord */
};

static enum cairn_status walk_cb(void *arg, const struct db_move *move, struct cairn_error *err)
{
  struct walk *w = arg;
  char want[64];

  if (w->n < sizeof(w->ords) / sizeof(w->ords[0]))
    w->ords[w->n] = move->ord;
  w->n++;
  snprintf(want, sizeof(want), "{\"type\":\"pass\",\"n\":%u}", (unsigned)move->ord);
  if (strcmp(move->move_json, want) != 0 || move->seq != move->ord + 1 ||
      move->seat != (int)(move->ord % 2) ||
      move->at_ms != (w->lean ? 0 : 1700000000000 + move->ord))
    w->bad_text++;
  snprintf(want, sizeof(want), "[{\"type\":\"passed\",\"n\":%u}]", (unsigned)move->ord);
  if (w->lean ? move->events_json != NULL || move->has_hash
              : !move->events_json || strcmp(move->events_json, want) != 0)
    w->bad_text++;
  if (w->reenter) {
    struct db_game g = {0};
    enum cairn_status st = db_game_load(w->reenter, w->game, &g, err);

    db_game_clear(&g);
    if (st != CAIRN_OK)
      return st;
  }
  if (w->stop_after && w->n == w->stop_after)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_INTERNAL, NULL, "stop");
  if (w->done_after && w->n == w->done_after)
    return CAIRN_DONE;
  return CAIRN_OK;
}

static size_t count_moves(struct db *db, const char *game)
{
  struct walk w = {0};
  struct cairn_error err = {0};

  assert_int_equal(db_moves_load(db, game, 0, walk_cb, &w, &err), CAIRN_OK);
  return w.n;
}

/* ---- opening and the schema ---- */

/* ---- players ---- */

static void test_player_is_found_by_token_hash(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player out;
  uint8_t hash[DB_HASH_BYTES];

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_hash_of(hash, 0x02);
  assert_int_equal(db_player_by_token(f->db, hash, &out, &err), CAIRN_OK);
  assert_string_equal(out.id, "bob");
  assert_string_equal(out.name, "Name of bob");
  tmpdb_hash_of(hash, 0x01);
  assert_int_equal(db_player_by_token(f->db, hash, &out, &err), CAIRN_OK);
  assert_string_equal(out.id, "alice");
}

/* ---- players ---- */

static void test_unknown_token_hash_is_bad_token(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player out;
  uint8_t hash[DB_HASH_BYTES];

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_hash_of(hash, 0x03);
  assert_int_equal(db_player_by_token(f->db, hash, &out, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_BAD_TOKEN);
  assert_string_equal(out.id, "");
}

/* ---- games ---- */

static void test_game_round_trips_through_create_and_load(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};
  int i;

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_game(f->db, "g1", 3, "alice");
  assert_int_equal(db_seat_take(f->db, "g1", 1, "alice", &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.id, "g1");
  assert_string_equal(g.title, "himalaya");
  assert_string_equal(g.rules_version, "1.0");
  assert_string_equal(g.status, DB_STATUS_OPEN);
  assert_string_equal(g.creator, "alice");
  assert_int_equal(g.seats, 3);
  assert_string_equal(g.options_json, "{\"scenario\":\"basic\"}");
  assert_null(g.result_json);
  for (i = 0; i < ENGINE_SEED_BYTES; i++)
    assert_int_equal(g.seed[i], (uint8_t)(i * 7 + 1));
  assert_int_equal(g.created_ms, 1700000000000);
  assert_int_equal(g.seq, 0);
  assert_int_equal(g.moves, 0);
  assert_string_equal(g.seat_player[0], "");
  assert_string_equal(g.seat_player[1], "alice");
  assert_string_equal(g.seat_player[2], "");
  assert_string_equal(g.seat_name[1], "Name of alice");
  assert_string_equal(g.seat_name[0], "");
  db_game_clear(&g);
  assert_null(g.options_json);
  db_game_clear(&g); /* a cleared struct may be cleared again */
}

/* ---- games ---- */

static void test_game_without_options_stores_empty_object(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {.id = "g2",
                      .title = "himalaya",
                      .rules_version = "1",
                      .seats = 2,
                      .creator = "alice",
                      .created_ms = 5};

  tmpdb_add_player(f->db, "alice", 0x01);
  assert_int_equal(db_game_create(f->db, &g, &err), CAIRN_OK);
  tmpdb_load(f->db, "g2", &g);
  assert_string_equal(g.options_json, "{}");
  db_game_clear(&g);
}

static void test_unknown_game_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g;

  assert_int_equal(db_game_load(f->db, "nope", &g, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_null(g.options_json);
  db_game_clear(&g);
}

static void test_game_with_unknown_creator_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {.id = "g3",
                      .title = "himalaya",
                      .rules_version = "1",
                      .seats = 2,
                      .creator = "ghost",
                      .options_json = "{}"};

  assert_int_equal(db_game_create(f->db, &g, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_int_equal(db_game_load(f->db, "g3", &g, &err), CAIRN_ENOTFOUND);
}

static void test_repeated_game_id_is_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {.id = "g1",
                      .title = "other",
                      .rules_version = "1",
                      .seats = 1,
                      .creator = "alice",
                      .options_json = "{}"};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  assert_int_equal(db_game_create(f->db, &g, &err), CAIRN_EINTERNAL);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.title, "himalaya");
  db_game_clear(&g);
}

/* game_create seats the players its row names in the same transaction
 * (the API's bots): the game is open with them seated, active if they fill
 * it, and absent altogether if one of them does not exist. */
static void test_game_created_with_seated_players(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {
      .id = "g4", .title = "himalaya", .rules_version = "1", .seats = 3, .creator = "alice"};
  struct db_game loaded = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bot1", 0x02);
  tmpdb_add_player(f->db, "bot2", 0x03);
  snprintf(g.seat_player[1], sizeof g.seat_player[1], "bot1");
  assert_int_equal(db_game_create(f->db, &g, &err), CAIRN_OK);
  tmpdb_load(f->db, "g4", &loaded);
  assert_string_equal(loaded.status, DB_STATUS_OPEN);
  assert_string_equal(loaded.seat_player[0], "");
  assert_string_equal(loaded.seat_player[1], "bot1");
  assert_string_equal(loaded.seat_name[1], "Name of bot1");
  db_game_clear(&loaded);

  snprintf(g.id, sizeof g.id, "g5");
  g.seats = 2;
  snprintf(g.seat_player[0], sizeof g.seat_player[0], "bot2");
  assert_int_equal(db_game_create(f->db, &g, &err), CAIRN_OK);
  tmpdb_load(f->db, "g5", &loaded);
  assert_string_equal(loaded.status, DB_STATUS_ACTIVE);
  db_game_clear(&loaded);

  snprintf(g.id, sizeof g.id, "g6");
  snprintf(g.seat_player[1], sizeof g.seat_player[1], "ghost");
  assert_int_equal(db_game_create(f->db, &g, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_game_load(f->db, "g6", &loaded, &err), CAIRN_ENOTFOUND);
  db_game_clear(&loaded);
}

/* A move's clocks are written in the move's transaction: both or neither.
 * (api/moves.c passes the deadlines a move sets; a crash between two
 * commits once could leave a new move with the old deadlines.) */
static void test_a_move_and_its_clocks_commit_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_clock clocks[2] = {{.seat = 0, .bank_ms = 500, .since_ms = 0, .deadline_ms = 0},
                               {.seat = 1, .bank_ms = 900, .since_ms = 1000, .deadline_ms = 1900}};
  struct db_clock got[ENGINE_MAX_SEATS];
  struct db_move m = {.ord = 0,
                      .seq = 1,
                      .seat = 0,
                      .move_json = "{}",
                      .events_json = "[]",
                      .at_ms = 1000,
                      .clocks = clocks,
                      .n_clocks = 2};
  int n = -1;

  tmpdb_add_active_game(f->db, "g", 2);
  assert_int_equal(db_move_append(f->db, "g", &m, NULL, &err), CAIRN_OK);
  assert_int_equal(db_clocks_load(f->db, "g", got, &n, &err), CAIRN_OK);
  assert_int_equal(n, 2);
  assert_int_equal(got[0].bank_ms, 500);
  assert_int_equal(got[0].deadline_ms, 0);
  assert_int_equal(got[1].since_ms, 1000);
  assert_int_equal(got[1].deadline_ms, 1900);

  /* Stale: refused, and the clocks it carried are not written either. */
  clocks[1].deadline_ms = 7777;
  assert_int_equal(db_move_append(f->db, "g", &m, NULL, &err), CAIRN_ESTALE);
  assert_int_equal(db_clocks_load(f->db, "g", got, &n, &err), CAIRN_OK);
  assert_int_equal(got[1].deadline_ms, 1900);
}

/* A resignation row marks its seat resigned in the row's own transaction:
 * both or neither, and a stale one marks nothing. */
static void test_a_resignation_and_its_seat_commit_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_move m = {.ord = 0,
                      .seq = 1,
                      .seat = 1,
                      .move_json = "{\"cairn\":\"resign\"}",
                      .events_json = "[]",
                      .at_ms = 1000,
                      .resigns = true};
  struct db_game g = {0};

  tmpdb_add_active_game(f->db, "g", 3);
  tmpdb_load(f->db, "g", &g);
  assert_false(g.seat_resigned[1]);
  db_game_clear(&g);
  assert_int_equal(db_move_append(f->db, "g", &m, NULL, &err), CAIRN_OK);
  tmpdb_load(f->db, "g", &g);
  assert_false(g.seat_resigned[0]);
  assert_true(g.seat_resigned[1]);
  assert_false(g.seat_resigned[2]);
  assert_int_equal(g.moves, 1);
  db_game_clear(&g);
  /* Stale: refused, and seat 2 is not marked. */
  m.seat = 2;
  assert_int_equal(db_move_append(f->db, "g", &m, NULL, &err), CAIRN_ESTALE);
  tmpdb_load(f->db, "g", &g);
  assert_false(g.seat_resigned[2]);
  assert_int_equal(g.moves, 1);
  db_game_clear(&g);
}

/* A replacement row hands its seat to another player in the row's own
 * transaction (issue 25): both or neither, and a stale one hands nothing. */
static void test_a_replacement_and_its_seat_commit_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_move m = {.ord = 0,
                      .seq = 1,
                      .seat = 2,
                      .move_json = "{\"cairn\":\"replace\"}",
                      .events_json = "[]",
                      .at_ms = 1000,
                      .seat_player_to = "bot-easy-1"};
  struct db_game g = {0};
  char before[DB_ID_MAX + 1];

  tmpdb_add_active_game(f->db, "g", 3);
  tmpdb_add_player(f->db, "bot-easy-1", 0x01); /* fills no seat of "g" uses */
  tmpdb_add_player(f->db, "bot-easy-2", 0x02);
  tmpdb_load(f->db, "g", &g);
  snprintf(before, sizeof before, "%s", g.seat_player[1]);
  db_game_clear(&g);
  assert_int_equal(db_move_append(f->db, "g", &m, NULL, &err), CAIRN_OK);
  tmpdb_load(f->db, "g", &g);
  assert_string_equal(g.seat_player[2], "bot-easy-1");
  assert_string_equal(g.seat_player[1], before);
  assert_int_equal(g.moves, 1);
  db_game_clear(&g);
  /* Stale: refused, and seat 1 keeps its player. */
  m.seat = 1;
  m.seat_player_to = "bot-easy-2";
  assert_int_equal(db_move_append(f->db, "g", &m, NULL, &err), CAIRN_ESTALE);
  tmpdb_load(f->db, "g", &g);
  assert_string_equal(g.seat_player[1], before);
  assert_int_equal(g.moves, 1);
  db_game_clear(&g);
}

/* ---- the webhook outbox ---- */

/* ---- the webhook outbox ---- */

struct owed_seen {
  int n;
  struct db_outbox first;
  char body[64];
  char url[sizeof(((struct db_webhook *)0)->url)];
};

static enum cairn_status see_owed(void *arg, const struct db_outbox *owed,
                                  const struct db_webhook *hook, struct cairn_error *err)
{
  struct owed_seen *seen = arg;

  (void)err;
  if (seen->n++ == 0) {
    seen->first = *owed;
    snprintf(seen->body, sizeof seen->body, "%s", owed->body);
    snprintf(seen->url, sizeof seen->url, "%s", hook->url);
    seen->first.body = seen->body;
  }
  return CAIRN_OK;
}

/* Owed deliveries are stored, moved on (attempt, due), listed with their
 * webhook soonest first, forgotten, and deleted with their webhook; one
 * for a webhook that is gone is refused. */
static void test_the_outbox_keeps_what_is_owed(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_webhook hook = {.id = "hook1",
                            .owner = "g1-p0",
                            .url = "https://example.org/h",
                            .format = "json",
                            .created_ms = 1};
  struct db_outbox owed = {.delivery_id = "00000000000000a1",
                           .webhook_id = "hook1",
                           .event = "turn",
                           .game_id = "g1",
                           .body = "{\"a\":1}",
                           .attempt = 1,
                           .due_ms = 500};
  struct owed_seen seen = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(db_webhook_create(f->db, &hook, &err), CAIRN_OK);
  assert_int_equal(db_outbox_put(f->db, &owed, &err), CAIRN_OK);
  snprintf(owed.delivery_id, sizeof owed.delivery_id, "00000000000000b2");
  owed.due_ms = 100;
  assert_int_equal(db_outbox_put(f->db, &owed, &err), CAIRN_OK);
  owed.attempt = 3; /* moved on: same id */
  owed.due_ms = 900;
  assert_int_equal(db_outbox_put(f->db, &owed, &err), CAIRN_OK);

  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 2);
  assert_string_equal(seen.first.delivery_id, "00000000000000a1"); /* due 500 before 900 */
  assert_string_equal(seen.first.webhook_id, "hook1");
  assert_string_equal(seen.first.event, "turn");
  assert_string_equal(seen.body, "{\"a\":1}");
  assert_string_equal(seen.url, "https://example.org/h");

  assert_int_equal(db_outbox_remove(f->db, "00000000000000a1", &err), CAIRN_OK);
  assert_int_equal(db_outbox_remove(f->db, "00000000000000a1", &err), CAIRN_OK);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_int_equal(seen.first.attempt, 3);
  assert_int_equal(seen.first.due_ms, 900);

  assert_int_equal(db_webhook_delete(f->db, "hook1", "g1-p0", &err), CAIRN_OK);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
  assert_int_equal(db_outbox_put(f->db, &owed, &err), CAIRN_ENOTFOUND);
}

/* ---- per-player mentions ---- */

struct mentions_seen {
  int n;
  struct db_mention at[4];
};

static enum cairn_status see_mention(void *arg, const struct db_mention *m, struct cairn_error *err)
{
  struct mentions_seen *seen = arg;

  (void)err;
  if (seen->n < 4)
    seen->at[seen->n] = *m;
  seen->n++;
  return CAIRN_OK;
}

/* Issue 24, a per-player mention: the webhook read by its id alone; set, replaced, listed by
 * player, removed (a second removal is not found), refused for a webhook that is gone, and deleted
 * with its webhook. */
static void test_mentions_are_kept_per_player_and_hook(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_webhook hook = {.id = "hook1",
                            .owner = "g1-p0",
                            .game_id = "g1",
                            .url = "https://example.org/h",
                            .format = "discord",
                            .created_ms = 1};
  struct db_mention m = {.webhook_id = "hook1", .player_id = "g1-p1", .handle = "<@111>"};
  struct mentions_seen seen = {0};

  struct db_webhook got;

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(db_webhook_get(f->db, "hook1", &got, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_webhook_create(f->db, &hook, &err), CAIRN_OK);
  assert_int_equal(db_webhook_get(f->db, "hook1", &got, &err), CAIRN_OK);
  assert_string_equal(got.id, "hook1");
  assert_string_equal(got.owner, "g1-p0");
  assert_string_equal(got.game_id, "g1");
  assert_string_equal(got.format, "discord");
  assert_int_equal(db_mention_put(f->db, &m, &err), CAIRN_OK);
  snprintf(m.handle, sizeof m.handle, "<@222>"); /* replaces */
  assert_int_equal(db_mention_put(f->db, &m, &err), CAIRN_OK);
  snprintf(m.player_id, sizeof m.player_id, "g1-p0");
  snprintf(m.handle, sizeof m.handle, "<@333>");
  assert_int_equal(db_mention_put(f->db, &m, &err), CAIRN_OK);
  assert_int_equal(db_mentions_of(f->db, "hook1", see_mention, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 2);
  assert_string_equal(seen.at[0].player_id, "g1-p0");
  assert_string_equal(seen.at[0].handle, "<@333>");
  assert_string_equal(seen.at[1].player_id, "g1-p1");
  assert_string_equal(seen.at[1].handle, "<@222>");
  assert_string_equal(seen.at[1].webhook_id, "hook1");

  m.handle[0] = '\0'; /* removes g1-p0's */
  assert_int_equal(db_mention_put(f->db, &m, &err), CAIRN_OK);
  assert_int_equal(db_mention_put(f->db, &m, &err), CAIRN_ENOTFOUND);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(db_mentions_of(f->db, "hook1", see_mention, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_string_equal(seen.at[0].player_id, "g1-p1");

  snprintf(m.webhook_id, sizeof m.webhook_id, "gone");
  snprintf(m.handle, sizeof m.handle, "<@444>");
  assert_int_equal(db_mention_put(f->db, &m, &err), CAIRN_ENOTFOUND);

  assert_int_equal(db_webhook_delete(f->db, "hook1", "g1-p0", &err), CAIRN_OK);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(db_mentions_of(f->db, "hook1", see_mention, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
}

/* The webhook deliveries a move owes are written in the move's own
 * transaction: both or neither, so a crash after the acknowledgement can
 * never lose what the move owes (issue 21). A row for a webhook deleted
 * before the commit is skipped, never failing the move. */
static void test_a_move_and_its_outbox_commit_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_webhook hook = {.id = "hook1",
                            .owner = "g1-p0",
                            .url = "https://example.org/h",
                            .format = "json",
                            .created_ms = 1};
  struct db_outbox owed[2] = {{.delivery_id = "00000000000000c1",
                               .webhook_id = "hook1",
                               .event = "turn",
                               .game_id = "g1",
                               .body = "{\"a\":1}",
                               .attempt = 1,
                               .due_ms = 500},
                              {.delivery_id = "00000000000000c2",
                               .webhook_id = "gone",
                               .event = "turn",
                               .game_id = "g1",
                               .body = "{\"b\":2}",
                               .attempt = 1,
                               .due_ms = 500}};
  struct db_move m = {.ord = 0,
                      .seq = 1,
                      .seat = 0,
                      .move_json = "{}",
                      .events_json = "[]",
                      .at_ms = 1000,
                      .outbox = owed,
                      .n_outbox = 2};
  struct owed_seen seen = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(db_webhook_create(f->db, &hook, &err), CAIRN_OK);
  assert_int_equal(db_move_append(f->db, "g1", &m, NULL, &err), CAIRN_OK);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1); /* the row for the webhook that is gone is skipped */
  assert_string_equal(seen.first.delivery_id, "00000000000000c1");
  assert_string_equal(seen.body, "{\"a\":1}");

  /* Stale: refused, and the deliveries it carried are not written either. */
  snprintf(owed[0].delivery_id, sizeof owed[0].delivery_id, "00000000000000c3");
  assert_int_equal(db_move_append(f->db, "g1", &m, NULL, &err), CAIRN_ESTALE);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_string_equal(seen.first.delivery_id, "00000000000000c1");
}

/* ---- seats ---- */

static void test_filling_the_last_seat_makes_the_game_active(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  assert_int_equal(db_seat_take(f->db, "g1", 1, "bob", &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_OPEN);
  db_game_clear(&g);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_string_equal(g.seat_player[0], "alice");
  assert_string_equal(g.seat_player[1], "bob");
  db_game_clear(&g);
}

/* ---- seats ---- */

static void test_taken_seat_is_seat_taken(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_game(f->db, "g1", 3, "alice");
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "bob", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_SEAT_TAKEN);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.seat_player[0], "alice");
  assert_string_equal(g.seat_player[1], "");
  db_game_clear(&g);
}

static void test_second_seat_for_a_player_is_already_seated(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_game(f->db, "g1", 3, "alice");
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 2, "alice", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_ALREADY_SEATED);
  /* repeating the same join also says "you are in", not "seat taken" */
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_ALREADY_SEATED);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.seat_player[2], "");
  db_game_clear(&g);
}

static void test_joining_a_started_game_is_game_not_open(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  tmpdb_add_player(f->db, "late", 0x05);
  assert_int_equal(db_seat_take(f->db, "g1", 1, "late", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_OPEN);
}

/* What the two join tests share: players alice, bob and carol; game g1 of
 * two seats with bob in seat 1; a webhook of bob's; and a join by `player`
 * into `seat` that expects to start the game, carrying both seats' first
 * clocks and one delivery the start owes. The join points into the case. */
struct join_case {
  struct db_clock clocks[2];
  struct db_outbox owed;
  struct db_join join;
};

static void join_case_init(struct tmpdb_backend *f, struct join_case *c, int seat,
                           const char *player)
{
  struct cairn_error err = {0};
  struct db_webhook hook = {
      .id = "hook1", .owner = "bob", .url = "https://example.org/h", .format = "json"};

  *c = (struct join_case){
      .clocks = {{.seat = 0, .bank_ms = 500, .since_ms = 4000, .deadline_ms = 4500},
                 {.seat = 1, .bank_ms = 500}},
      .owed = {.delivery_id = "00000000000000d1",
               .webhook_id = "hook1",
               .event = "start",
               .game_id = "g1",
               .body = "{\"s\":1}",
               .attempt = 1,
               .due_ms = 4000},
  };
  c->join = (struct db_join){.seat = seat,
                             .player_id = player,
                             .expect = DB_JOIN_STARTS,
                             .at_ms = 4000,
                             .clocks = c->clocks,
                             .n_clocks = 2,
                             .outbox = &c->owed,
                             .n_outbox = 1};
  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_player(f->db, "carol", 0x03);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  assert_int_equal(db_webhook_create(f->db, &hook, &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 1, "bob", &err), CAIRN_OK);
}

/* A join that starts a game is one transaction (issue 21): the seat, the
 * active status, the start's updated_ms, the first clocks and the webhook
 * deliveries the start owes land together, so a crash can never leave a
 * started game without its clocks. */
static void test_a_starting_join_writes_its_clocks_and_outbox_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct join_case c;
  struct db_clock got[ENGINE_MAX_SEATS];
  struct owed_seen seen = {0};
  struct db_game g = {0};
  int n = 0;

  join_case_init(f, &c, 0, "alice");
  assert_int_equal(db_seat_join(f->db, "g1", &c.join, &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_string_equal(g.seat_player[0], "alice");
  assert_int_equal(g.updated_ms, 4000);
  db_game_clear(&g);
  assert_int_equal(db_clocks_load(f->db, "g1", got, &n, &err), CAIRN_OK);
  assert_int_equal(n, 2);
  assert_int_equal(got[0].deadline_ms, 4500);
  assert_int_equal(got[0].since_ms, 4000);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_string_equal(seen.first.delivery_id, "00000000000000d1");
  assert_string_equal(seen.first.event, "start");
}

/* A refused seat write writes nothing of what the join carried: not the
 * seat, not the clocks, not the outbox; the game row is as it was. */
static void test_a_refused_join_writes_nothing(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct join_case c;
  struct db_clock got[ENGINE_MAX_SEATS];
  struct owed_seen seen = {0};
  struct db_game g = {0};
  int n = 0;

  join_case_init(f, &c, 1, "carol");
  /* The seat is already taken: seat-taken, nothing written. */
  assert_int_equal(db_seat_join(f->db, "g1", &c.join, &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_SEAT_TAKEN);
  /* The seat is free but the join would not start the game as the caller
   * expected (a seat is still empty): stale, nothing written. */
  tmpdb_add_game(f->db, "g2", 3, "alice");
  c.join.seat = 0;
  assert_int_equal(db_seat_join(f->db, "g2", &c.join, &err), CAIRN_ESTALE);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_OPEN);
  assert_string_equal(g.seat_player[0], "");
  assert_string_equal(g.seat_player[1], "bob");
  assert_int_not_equal(g.updated_ms, 4000);
  db_game_clear(&g);
  tmpdb_load(f->db, "g2", &g);
  assert_string_equal(g.seat_player[0], "");
  db_game_clear(&g);
  assert_int_equal(db_clocks_load(f->db, "g1", got, &n, &err), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(db_clocks_load(f->db, "g2", got, &n, &err), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
}

/* games_each lists every game, games_active_each only the active ones,
 * both oldest first (ties by id). */
struct listed_ids {
  char ids[4][DB_ID_MAX + 1];
  int n;
};

static enum cairn_status note_id(void *arg, const char *game_id, struct cairn_error *err)
{
  struct listed_ids *l = arg;

  (void)err;
  if (l->n < 4)
    snprintf(l->ids[l->n], sizeof l->ids[0], "%s", game_id);
  l->n++;
  return CAIRN_OK;
}

static void test_active_games_are_listed_apart_from_the_rest(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct listed_ids all = {0}, active = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  tmpdb_add_game(f->db, "g2", 2, "alice");
  tmpdb_add_game(f->db, "g3", 2, "alice");
  /* g1 and g3 fill their seats and start; g2 stays open. */
  assert_int_equal(db_seat_take(f->db, "g3", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g3", 1, "bob", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 1, "bob", &err), CAIRN_OK);
  assert_int_equal(db_games_each(f->db, note_id, &all, &err), CAIRN_OK);
  assert_int_equal(all.n, 3);
  assert_int_equal(db_games_active_each(f->db, note_id, &active, &err), CAIRN_OK);
  assert_int_equal(active.n, 2);
  assert_string_equal(active.ids[0], "g1");
  assert_string_equal(active.ids[1], "g3");
}

static void test_seat_outside_the_game_is_bad_value(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  assert_int_equal(db_seat_take(f->db, "g1", 2, "alice", &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_BAD_VALUE);
  assert_int_equal(db_seat_take(f->db, "g1", -1, "alice", &err), CAIRN_EINVAL);
}

static void test_seat_in_unknown_game_or_for_unknown_player_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  assert_int_equal(db_seat_take(f->db, "nope", 0, "alice", &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "ghost", &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
}

/* ---- moves ---- */

static void test_moves_append_with_dense_ords(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 5; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_int_equal(g.moves, 5);
  assert_int_equal(g.seq, 5);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  db_game_clear(&g);
}

/* ---- moves ---- */

static void test_stale_ord_is_stale_seq_and_writes_nothing(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(f->db, "g1", 1, NULL, &err), CAIRN_OK);
  /* behind the log */
  assert_int_equal(tmpdb_append(f->db, "g1", 1, NULL, &err), CAIRN_ESTALE);
  assert_string_equal(err.code, CAIRN_CODE_STALE_SEQ);
  /* ahead of it: a gap would break density just as badly */
  assert_int_equal(tmpdb_append(f->db, "g1", 3, NULL, &err), CAIRN_ESTALE);
  /* and a result on a stale move does not finish the game */
  assert_int_equal(tmpdb_append(f->db, "g1", 0, "{\"winners\":[0]}", &err), CAIRN_ESTALE);
  tmpdb_load(f->db, "g1", &g);
  assert_int_equal(g.moves, 2);
  assert_int_equal(g.seq, 2);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_null(g.result_json);
  db_game_clear(&g);
  assert_int_equal(count_moves(f->db, "g1"), 2);
}

static void test_result_finishes_the_game(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(f->db, "g1", 1, "{\"winners\":[1]}", &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_FINISHED);
  assert_string_equal(g.result_json, "{\"winners\":[1]}");
  assert_int_equal(g.moves, 2);
  db_game_clear(&g);
  /* a finished game takes no more moves, even with the right ord */
  assert_int_equal(tmpdb_append(f->db, "g1", 2, NULL, &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_ACTIVE);
  assert_int_equal(count_moves(f->db, "g1"), 2);
}

static void test_moves_on_open_or_unknown_game_are_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_ACTIVE);
  assert_int_equal(tmpdb_append(f->db, "nope", 0, NULL, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
}

/* 300 rows: more than one of moves_load's batches of 128. */
static void test_moves_load_walks_in_order_from_ord(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {0};
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  tmpdb_add_active_game(f->db, "h2", 2); /* another game's rows must not leak in */
  for (i = 0; i < 300; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(f->db, "h2", i, NULL, &err), CAIRN_OK);

  assert_int_equal(db_moves_load(f->db, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 300);
  assert_int_equal(w.bad_text, 0);
  for (i = 0; i < 300; i++)
    assert_int_equal(w.ords[i], i);

  memset(&w, 0, sizeof(w));
  assert_int_equal(db_moves_load(f->db, "g1", 250, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 50);
  for (i = 0; i < 50; i++)
    assert_int_equal(w.ords[i], 250 + i);

  memset(&w, 0, sizeof(w));
  assert_int_equal(db_moves_load(f->db, "g1", 300, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 0);
  assert_int_equal(db_moves_load(f->db, "g1", UINT32_MAX, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 0);
}

static void test_moves_load_stops_when_the_callback_says_so(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.stop_after = 3};
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 200; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(db_moves_load(f->db, "g1", 1, walk_cb, &w, &err), CAIRN_ECONFLICT);
  assert_int_equal(w.n, 3);
  assert_string_equal(err.detail, "stop");
  /* and stopping in a later batch releases everything too (LeakSanitizer) */
  memset(&w, 0, sizeof(w));
  w.stop_after = 150;
  assert_int_equal(db_moves_load(f->db, "g1", 0, walk_cb, &w, &err), CAIRN_ECONFLICT);
  assert_int_equal(w.n, 150);
}

/* CAIRN_DONE ends a walk early with success and reads no further batch: a
 * replay to ?at=N near the start of a long game must not walk the rest. */
static void test_moves_load_ends_with_success_when_the_callback_is_done(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.done_after = 5};
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 300; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(db_moves_load(f->db, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 5);
  memset(&w, 0, sizeof(w));
  w.done_after = 140; /* in the second batch */
  assert_int_equal(db_moves_load(f->db, "g1", 10, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 140);
  assert_int_equal(w.ords[139], 149);
  /* and the connection is free again: a write goes through */
  assert_int_equal(tmpdb_append(f->db, "g1", 300, NULL, &err), CAIRN_OK);
}

/* The callback runs without the connection's lock: it may use storage. */
static void test_moves_load_callback_may_call_storage(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.reenter = f->db, .game = "g1"};
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 4; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(db_moves_load(f->db, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 4);
}

static void test_moves_load_of_unknown_game_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {0};

  assert_int_equal(db_moves_load(f->db, "nope", 0, walk_cb, &w, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_int_equal(w.n, 0);
}

/* Row `ord` of the long-row log: a move and events whose lengths vary
 * from a few bytes to some kilobytes, so one batch of rows outgrows any
 * first guess of its size, many times over. */
static void long_row_texts(uint32_t ord, char *move, char *events, size_t size)
{
  int move_pad = (int)((ord * 37) % 3000), events_pad = (int)((ord * 53) % 5000);

  snprintf(move, size, "{\"n\":%u,\"pad\":\"%0*d\"}", (unsigned)ord, move_pad, 0);
  snprintf(events, size, "[{\"n\":%u,\"pad\":\"%0*d\"}]", (unsigned)ord, events_pad, 0);
}

struct long_walk {
  size_t n;
  bool lean;
  int bad; /* rows not as appended */
};

static enum cairn_status long_walk_cb(void *arg, const struct db_move *move,
                                      struct cairn_error *err)
{
  struct long_walk *w = arg;
  char want_move[8192], want_events[8192];

  (void)err;
  long_row_texts(move->ord, want_move, want_events, sizeof(want_move));
  if (move->ord != w->n || strcmp(move->move_json, want_move) != 0 ||
      (w->lean ? move->events_json != NULL : strcmp(move->events_json, want_events) != 0))
    w->bad++;
  w->n++;
  return CAIRN_OK;
}

/* Rows of every length come out whole, walked lean or not (the walk copies
 * a batch's texts into one buffer, which grows while the rows point into
 * it). */
static void test_moves_load_gives_long_rows_whole(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  char move_json[8192], events_json[8192];
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 300; i++) {
    struct db_move m = {.ord = i, .seq = i + 1, .seat = (int)(i % 2), .at_ms = 1700000000000};

    long_row_texts(i, move_json, events_json, sizeof(move_json));
    m.move_json = move_json;
    m.events_json = events_json;
    assert_int_equal(db_move_append(f->db, "g1", &m, NULL, &err), CAIRN_OK);
  }
  for (int lean = 0; lean <= 1; lean++) {
    struct long_walk w = {.lean = lean};

    assert_int_equal(lean ? db_moves_load_lean(f->db, "g1", 0, long_walk_cb, &w, &err)
                          : db_moves_load(f->db, "g1", 0, long_walk_cb, &w, &err),
                     CAIRN_OK);
    assert_int_equal(w.n, 300);
    assert_int_equal(w.bad, 0);
  }
}

/* A replay reads a row's ord, seq, seat and move only: the lean walk
 * gives those, in order from any ord, over batches, and none of the rest
 * (events, time, hash); the whole walk still gives everything after it. */
static void test_moves_load_lean_gives_the_moves_without_their_events(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.lean = true};
  uint32_t i;

  tmpdb_add_active_game(f->db, "g1", 2);
  tmpdb_add_active_game(f->db, "h2", 2); /* another game's rows must not leak in */
  for (i = 0; i < 300; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(f->db, "h2", 0, NULL, &err), CAIRN_OK);

  assert_int_equal(db_moves_load_lean(f->db, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 300);
  assert_int_equal(w.bad_text, 0);
  for (i = 0; i < 300; i++)
    assert_int_equal(w.ords[i], i);
  memset(&w, 0, sizeof(w));
  w.lean = true;
  w.done_after = 20;
  assert_int_equal(db_moves_load_lean(f->db, "g1", 250, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 20);
  assert_int_equal(w.bad_text, 0);
  assert_int_equal(w.ords[19], 269);

  memset(&w, 0, sizeof(w));
  assert_int_equal(db_moves_load(f->db, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 300);
  assert_int_equal(w.bad_text, 0);

  memset(&w, 0, sizeof(w));
  assert_int_equal(db_moves_load_lean(f->db, "nope", 0, walk_cb, &w, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
}

/* A backend without the lean walk serves it whole (db.c): the rows hold
 * all a lean one does, and more. */
static void test_moves_load_lean_falls_back_to_the_whole_walk(void **state)
{
  struct tmpdb_backend *f = *state;
  struct db_methods without = *f->db->methods;
  struct db plain = {.methods = &without, .ctx = f->db->ctx};
  struct cairn_error err = {0};
  struct walk w = {0};
  uint32_t i;

  without.moves_load_lean = NULL;
  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(db_moves_load_lean(&plain, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 3);
  assert_int_equal(w.bad_text, 0);
}

/* Each stored row carries the hash of its content chained to the previous
 * row's, and the game row exposes the last one as log_head. */
static void test_appended_rows_form_a_hash_chain(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct tmpdb_chain_walk walk = {0};
  struct db_game g;
  int i;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", (uint32_t)i, NULL, &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  /* A new game is chained in the current, hiding format. */
  assert_int_equal(g.chain_format, DB_CHAIN_FORMAT_2);
  db_chain_init(&walk.chain, g.chain_format, "g1", g.seed);
  assert_int_equal(db_moves_load(f->db, "g1", 0, tmpdb_check_link, &walk, &err), CAIRN_OK);
  assert_int_equal(walk.rows, 3);
  assert_memory_equal(g.log_head, walk.prev, DB_HASH_BYTES);
  db_game_clear(&g);
}

/* ---- concurrency ---- */

#define RACE_ROUNDS 40

struct racer {
  struct db *db;
  pthread_barrier_t *start;
  uint32_t ord;
  enum cairn_status st;
  const char *code;
};

static void *race(void *arg)
{
  struct racer *r = arg;
  struct cairn_error err = {0};

  pthread_barrier_wait(r->start);
  r->st = tmpdb_append(r->db, "g1", r->ord, NULL, &err);
  r->code = err.code;
  return NULL;
}

/* Two appends with the same ord at once; `a` and `b` may be the same store
 * (threads sharing the connection) or two opens (two connections). */
static void race_rounds(struct db *a, struct db *b)
{
  pthread_barrier_t start;
  struct racer r[2];
  pthread_t t[2];
  uint32_t round;
  int i, wins;

  for (round = 0; round < RACE_ROUNDS; round++) {
    assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
    for (i = 0; i < 2; i++) {
      r[i] = (struct racer){.db = i ? b : a, .start = &start, .ord = round};
      assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    wins = 0;
    for (i = 0; i < 2; i++) {
      if (r[i].st == CAIRN_OK) {
        wins++;
      } else {
        assert_int_equal(r[i].st, CAIRN_ESTALE);
        assert_string_equal(r[i].code, CAIRN_CODE_STALE_SEQ);
      }
    }
    assert_int_equal(wins, 1);
  }
}

static void test_racing_appends_on_one_connection_one_wins(void **state)
{
  struct tmpdb_backend *f = *state;
  struct db_game g = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  race_rounds(f->db, f->db);
  tmpdb_load(f->db, "g1", &g);
  assert_int_equal(g.moves, RACE_ROUNDS);
  db_game_clear(&g);
  assert_int_equal(count_moves(f->db, "g1"), RACE_ROUNDS);
}

/* Group commit under load: many threads appending to their own games at
 * once share commits, and every one of them hears its own verdict (none is
 * left waiting, none is lost). */
#define WRITERS        16
#define WRITER_APPENDS 40

struct writer {
  struct db *db;
  pthread_barrier_t *start;
  char game[16];
  int failures;
};

static void *write_many(void *arg)
{
  struct writer *w = arg;
  struct cairn_error err = {0};
  uint32_t ord;

  pthread_barrier_wait(w->start);
  for (ord = 0; ord < WRITER_APPENDS; ord++)
    if (tmpdb_append(w->db, w->game, ord, NULL, &err) != CAIRN_OK)
      w->failures++;
  return NULL;
}

static void test_concurrent_appends_share_commits_and_all_land(void **state)
{
  struct tmpdb_backend *f = *state;
  struct writer w[WRITERS];
  pthread_t t[WRITERS];
  pthread_barrier_t start;
  int i;

  assert_int_equal(pthread_barrier_init(&start, NULL, WRITERS), 0);
  for (i = 0; i < WRITERS; i++) {
    w[i] = (struct writer){.db = f->db, .start = &start};
    /* add_active_game derives token hashes from the first letter */
    snprintf(w[i].game, sizeof w[i].game, "%cw", 'a' + i);
    tmpdb_add_active_game(f->db, w[i].game, 2);
  }
  for (i = 0; i < WRITERS; i++)
    assert_int_equal(pthread_create(&t[i], NULL, write_many, &w[i]), 0);
  for (i = 0; i < WRITERS; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start);
  for (i = 0; i < WRITERS; i++) {
    struct db_game g = {0};

    assert_int_equal(w[i].failures, 0);
    tmpdb_load(f->db, w[i].game, &g);
    assert_int_equal(g.moves, WRITER_APPENDS);
    db_game_clear(&g);
    assert_int_equal(count_moves(f->db, w[i].game), WRITER_APPENDS);
  }
}

/* As two server processes on one file would: each has its own connection,
 * and BEGIN IMMEDIATE plus the busy timeout keep them apart. */
static void test_racing_appends_on_two_connections_one_wins(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db *other = NULL;
  struct db_game g = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(db_open(f->url, &other, &err), CAIRN_OK);
  race_rounds(f->db, other);
  db_close(other);
  tmpdb_load(f->db, "g1", &g);
  assert_int_equal(g.moves, RACE_ROUNDS);
  db_game_clear(&g);
  assert_int_equal(count_moves(f->db, "g1"), RACE_ROUNDS);
}

/* ---- leases on owed deliveries, and the games a bot sweep looks at (issue 23) ---- */

#define CLAIM_ROWS 24 /* owed rows two claimers share out */

/* An owed row `n` for hook1 of game g1, due at n, under `node`'s lease
 * until `until` ("" and 0: unclaimed). */
static void put_owed(struct db *db, int n, const char *node, int64_t until)
{
  struct cairn_error err = {0};
  struct db_outbox owed = {.webhook_id = "hook1",
                           .event = "turn",
                           .game_id = "g1",
                           .body = "{}",
                           .attempt = 1,
                           .due_ms = n,
                           .claimed_until = until};

  snprintf(owed.delivery_id, sizeof owed.delivery_id, "%016x", n);
  snprintf(owed.claimed_by, sizeof owed.claimed_by, "%s", node);
  assert_int_equal(db_outbox_put(db, &owed, &err), CAIRN_OK);
}

static void add_hook1(struct db *db)
{
  struct cairn_error err = {0};
  struct db_webhook hook = {.id = "hook1",
                            .owner = "g1-p0",
                            .url = "https://example.org/h",
                            .format = "json",
                            .created_ms = 1};

  tmpdb_add_active_game(db, "g1", 2);
  assert_int_equal(db_webhook_create(db, &hook, &err), CAIRN_OK);
}

/* What one claimer was handed. */
struct claimer {
  struct db *db;
  const char *node;
  int got[CLAIM_ROWS]; /* got[n]: times row n was handed to this claimer */
  int total;
  bool wrong_lease; /* a row came back without this claimer's lease */
};

static enum cairn_status note_claimed(void *arg, const struct db_outbox *owed,
                                      const struct db_webhook *hook, struct cairn_error *err)
{
  struct claimer *c = arg;
  unsigned n = (unsigned)strtoul(owed->delivery_id, NULL, 16);

  (void)err;
  if (n < CLAIM_ROWS)
    c->got[n]++;
  c->total++;
  if (strcmp(owed->claimed_by, c->node) != 0 || owed->claimed_until != 1000000 ||
      strcmp(hook->id, "hook1") != 0)
    c->wrong_lease = true;
  return CAIRN_OK;
}

/* Claim two rows at a time until a claim finds nothing left. */
static void *claim_all(void *arg)
{
  struct claimer *c = arg;
  struct cairn_error err = {0};
  int n = 1;

  while (n > 0)
    if (db_outbox_claim(c->db, c->node, 500, 1000000, 2, note_claimed, c, &n, &err) != CAIRN_OK)
      break;
  return NULL;
}

/* Two claimers, on two connections of one store, claiming at once: every
 * owed row is handed to exactly one of them, with its lease. */
static void test_two_claimers_never_get_the_same_row(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct claimer a = {.db = f->db, .node = "aaaaaaaaaaaaaaaa"};
  struct claimer b = {.node = "bbbbbbbbbbbbbbbb"};
  pthread_t ta, tb;
  int i;

  add_hook1(f->db);
  for (i = 0; i < CLAIM_ROWS; i++)
    put_owed(f->db, i, "", 0);
  /* A second open of a SQLite file would release every lease (its one
   * process owns it), so SQLite's claimers share the handle, as a
   * process's threads do; PostgreSQL's are two pools, as two nodes are. */
  if (f->pg_db[0])
    assert_int_equal(db_open(f->url, &b.db, &err), CAIRN_OK);
  else
    b.db = f->db;
  assert_int_equal(pthread_create(&ta, NULL, claim_all, &a), 0);
  assert_int_equal(pthread_create(&tb, NULL, claim_all, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  if (b.db != f->db)
    db_close(b.db);
  for (i = 0; i < CLAIM_ROWS; i++)
    assert_int_equal(a.got[i] + b.got[i], 1);
  assert_int_equal(a.total + b.total, CLAIM_ROWS);
  assert_false(a.wrong_lease);
  assert_false(b.wrong_lease);
}

/* The lease of each stored row, by row number. */
struct leases {
  char by[CLAIM_ROWS][DB_NODE_ID_MAX + 1];
  int64_t until[CLAIM_ROWS];
};

static enum cairn_status note_lease(void *arg, const struct db_outbox *owed,
                                    const struct db_webhook *hook, struct cairn_error *err)
{
  struct leases *l = arg;
  unsigned n = (unsigned)strtoul(owed->delivery_id, NULL, 16);

  (void)hook;
  (void)err;
  if (n < CLAIM_ROWS) {
    snprintf(l->by[n], sizeof l->by[n], "%s", owed->claimed_by);
    l->until[n] = owed->claimed_until;
  }
  return CAIRN_OK;
}

static enum cairn_status count_claimed(void *arg, const struct db_outbox *owed,
                                       const struct db_webhook *hook, struct cairn_error *err)
{
  (void)owed;
  (void)hook;
  (void)err;
  ++*(int *)arg;
  return CAIRN_OK;
}

/* A row written under a lease (as a committing node writes what its change
 * owes) is not claimable before the lease runs out, and is by another once
 * it has; renewing extends only the renewer's own rows, never shortens. */
static void test_an_expired_lease_is_claimable_by_another(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct leases l = {0};
  int n = -1, seen = 0;

  add_hook1(f->db);
  put_owed(f->db, 0, "aaaaaaaaaaaaaaaa", 1000);
  assert_int_equal(db_outbox_each(f->db, note_lease, &l, &err), CAIRN_OK);
  assert_string_equal(l.by[0], "aaaaaaaaaaaaaaaa");
  assert_int_equal(l.until[0], 1000);

  assert_int_equal(
      db_outbox_claim(f->db, "bbbbbbbbbbbbbbbb", 999, 5000, 10, count_claimed, &seen, &n, &err),
      CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(seen, 0);
  assert_int_equal(
      db_outbox_claim(f->db, "bbbbbbbbbbbbbbbb", 1000, 5000, 10, count_claimed, &seen, &n, &err),
      CAIRN_OK);
  assert_int_equal(n, 1);
  assert_int_equal(seen, 1);

  /* The old holder renews: the row is no longer its own. */
  assert_int_equal(db_outbox_renew(f->db, "aaaaaaaaaaaaaaaa", 90000, &err), CAIRN_OK);
  assert_int_equal(db_outbox_each(f->db, note_lease, &l, &err), CAIRN_OK);
  assert_string_equal(l.by[0], "bbbbbbbbbbbbbbbb");
  assert_int_equal(l.until[0], 5000);
  assert_int_equal(db_outbox_renew(f->db, "bbbbbbbbbbbbbbbb", 9000, &err), CAIRN_OK);
  assert_int_equal(db_outbox_renew(f->db, "bbbbbbbbbbbbbbbb", 100, &err), CAIRN_OK);
  assert_int_equal(db_outbox_each(f->db, note_lease, &l, &err), CAIRN_OK);
  assert_int_equal(l.until[0], 9000);
  /* Nor does the first holder get it back before the new lease ends. */
  assert_int_equal(
      db_outbox_claim(f->db, "aaaaaaaaaaaaaaaa", 8999, 20000, 10, count_claimed, &seen, &n, &err),
      CAIRN_OK);
  assert_int_equal(n, 0);
}

/* A node that stops releases what it holds: another claims it at once,
 * long before the lease would have run out; others' rows stay held. */
static void test_a_released_row_is_claimable(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct leases l = {0};
  int n = -1, seen = 0;

  add_hook1(f->db);
  put_owed(f->db, 0, "aaaaaaaaaaaaaaaa", 100000);
  put_owed(f->db, 1, "cccccccccccccccc", 100000);
  assert_int_equal(
      db_outbox_claim(f->db, "bbbbbbbbbbbbbbbb", 20, 50000, 10, count_claimed, &seen, &n, &err),
      CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(db_outbox_release(f->db, "aaaaaaaaaaaaaaaa", &err), CAIRN_OK);
  assert_int_equal(db_outbox_each(f->db, note_lease, &l, &err), CAIRN_OK);
  assert_string_equal(l.by[0], "");
  assert_int_equal(l.until[0], 0);
  assert_string_equal(l.by[1], "cccccccccccccccc");
  assert_int_equal(
      db_outbox_claim(f->db, "bbbbbbbbbbbbbbbb", 20, 50000, 10, count_claimed, &seen, &n, &err),
      CAIRN_OK);
  assert_int_equal(n, 1);
  assert_int_equal(db_outbox_each(f->db, note_lease, &l, &err), CAIRN_OK);
  assert_string_equal(l.by[0], "bbbbbbbbbbbbbbbb");
  assert_int_equal(l.until[0], 50000);
  assert_int_equal(l.until[1], 100000);
}

/* games_bots_idle lists the active games with a server-played seat (a
 * bot's, or a resigned one) whose last change is in [from, to): not a game
 * of people only, not one changed since, not one that has not started. */
static void test_games_with_idle_bots_are_listed_by_their_last_change(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct listed_ids got = {0};
  struct db_move resign = {.ord = 0,
                           .seq = 1,
                           .seat = 1,
                           .move_json = "{\"cairn\":\"resign\"}",
                           .events_json = "[]",
                           .at_ms = 1,
                           .resigns = true};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, DB_BOT_PREFIX "1", 0x02);
  tmpdb_add_player(f->db, DB_BOT_PREFIX "2", 0x03);
  /* gb: a bot's game; go: the same, still open; pp: people only; rr:
   * people, one of whom resigned. */
  tmpdb_add_game(f->db, "gb", 2, "alice");
  assert_int_equal(db_seat_take(f->db, "gb", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "gb", 1, DB_BOT_PREFIX "1", &err), CAIRN_OK);
  tmpdb_add_game(f->db, "go", 2, "alice");
  assert_int_equal(db_seat_take(f->db, "go", 1, DB_BOT_PREFIX "2", &err), CAIRN_OK);
  tmpdb_add_active_game(f->db, "pp", 2);
  tmpdb_add_active_game(f->db, "rr", 2);
  assert_int_equal(db_move_append(f->db, "rr", &resign, NULL, &err), CAIRN_OK);
  assert_int_equal(db_game_touch(f->db, "gb", 1000, &err), CAIRN_OK);
  assert_int_equal(db_game_touch(f->db, "go", 1000, &err), CAIRN_OK);
  assert_int_equal(db_game_touch(f->db, "pp", 1000, &err), CAIRN_OK);
  assert_int_equal(db_game_touch(f->db, "rr", 1500, &err), CAIRN_OK);

  assert_int_equal(db_games_bots_idle(f->db, 900, 2000, note_id, &got, &err), CAIRN_OK);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.ids[0], "gb");
  assert_string_equal(got.ids[1], "rr");
  memset(&got, 0, sizeof got);
  assert_int_equal(db_games_bots_idle(f->db, 1001, 2000, note_id, &got, &err), CAIRN_OK);
  assert_int_equal(got.n, 1);
  assert_string_equal(got.ids[0], "rr");
  memset(&got, 0, sizeof got);
  assert_int_equal(db_games_bots_idle(f->db, 0, 1000, note_id, &got, &err), CAIRN_OK);
  assert_int_equal(got.n, 0);
}

/* ---- the lobby (issue 25) ---- */

/* An open game `id` as tmpdb_add_game's, but with its own title, seats,
 * creation time and per-move control (0: none). */
static void add_lobby_game(struct db *db, const char *id, const char *title, int seats,
                           int64_t created_ms, int64_t move_ms)
{
  struct db_game g = {0};
  struct cairn_error err = {0};

  snprintf(g.id, sizeof(g.id), "%s", id);
  snprintf(g.title, sizeof(g.title), "%s", title);
  snprintf(g.rules_version, sizeof(g.rules_version), "1.0");
  snprintf(g.creator, sizeof(g.creator), "alice");
  g.seats = seats;
  g.options_json = "{}";
  g.created_ms = created_ms;
  g.move_ms = move_ms;
  assert_int_equal(db_game_create(db, &g, &err), CAIRN_OK);
}

static struct listed_ids lobby_page(struct db *db, struct db_lobby_query q)
{
  struct cairn_error err = {0};
  struct listed_ids got = {0};

  assert_int_equal(db_games_lobby(db, &q, note_id, &got, &err), CAIRN_OK);
  return got;
}

static void test_the_lobby_lists_open_games_newest_first_by_filter(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct listed_ids got;
  struct db_lobby_query open = {.status = DB_STATUS_OPEN, .limit = 10};
  struct db_lobby_query q;

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  /* b and c share a creation time: the id breaks the tie. */
  add_lobby_game(f->db, "a", "himalaya", 2, 100, 0);
  add_lobby_game(f->db, "b", "everest", 3, 200, 3600000);
  add_lobby_game(f->db, "c", "himalaya", 3, 200, 0);
  add_lobby_game(f->db, "d", "himalaya", 2, 300, 0);
  /* d starts: it leaves the open listing for the active one. */
  assert_int_equal(db_seat_take(f->db, "d", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "d", 1, "bob", &err), CAIRN_OK);

  got = lobby_page(f->db, open);
  assert_int_equal(got.n, 3);
  assert_string_equal(got.ids[0], "c");
  assert_string_equal(got.ids[1], "b");
  assert_string_equal(got.ids[2], "a");
  q = open;
  q.title = "himalaya";
  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.ids[0], "c");
  assert_string_equal(got.ids[1], "a");
  q = open;
  q.seats = 3;
  q.clock = DB_CLOCK_MOVE;
  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 1);
  assert_string_equal(got.ids[0], "b");
  q.clock = DB_CLOCK_NONE;
  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 1);
  assert_string_equal(got.ids[0], "c");
  q = open;
  q.status = DB_STATUS_ACTIVE;
  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 1);
  assert_string_equal(got.ids[0], "d");
}

static void test_lobby_pages_follow_their_cursor(void **state)
{
  struct tmpdb_backend *f = *state;
  struct listed_ids got;
  struct db_lobby_query q = {.status = DB_STATUS_OPEN, .limit = 2};

  tmpdb_add_player(f->db, "alice", 0x01);
  add_lobby_game(f->db, "a", "himalaya", 2, 100, 0);
  add_lobby_game(f->db, "b", "himalaya", 2, 200, 0);
  add_lobby_game(f->db, "c", "himalaya", 2, 200, 0);
  add_lobby_game(f->db, "d", "himalaya", 2, 300, 0);

  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.ids[0], "d");
  assert_string_equal(got.ids[1], "c");
  /* After c (200): b, at the same time but a lower id, then a. */
  q.after_ms = 200;
  q.after_id = "c";
  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.ids[0], "b");
  assert_string_equal(got.ids[1], "a");
  q.after_ms = 100;
  q.after_id = "a";
  got = lobby_page(f->db, q);
  assert_int_equal(got.n, 0);
}

/* An open game `id` of `seats` seats created by alice, `invited`'s seat
 * `seat` kept for them. */
static void add_invited_game(struct db *db, const char *id, int seats, int seat,
                             const char *invited, enum cairn_status want)
{
  struct db_game g = {0};
  struct cairn_error err = {0};

  snprintf(g.id, sizeof(g.id), "%s", id);
  snprintf(g.title, sizeof(g.title), "himalaya");
  snprintf(g.rules_version, sizeof(g.rules_version), "1.0");
  snprintf(g.creator, sizeof(g.creator), "alice");
  g.seats = seats;
  g.options_json = "{}";
  g.created_ms = 1000;
  snprintf(g.seat_invited[seat], sizeof(g.seat_invited[seat]), "%s", invited);
  assert_int_equal(db_game_create(db, &g, &err), want);
}

struct seen_invitations {
  char ids[4][DB_ID_MAX + 1];
  int seats[4];
  int n;
};

static enum cairn_status note_invitation(void *arg, const char *game_id, int seat,
                                         struct cairn_error *err)
{
  struct seen_invitations *l = arg;

  (void)err;
  if (l->n < 4) {
    snprintf(l->ids[l->n], sizeof l->ids[0], "%s", game_id);
    l->seats[l->n] = seat;
  }
  l->n++;
  return CAIRN_OK;
}

static void test_an_invited_seat_is_kept_for_its_player(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct seen_invitations seen = {0};
  struct listed_ids open = {0};
  struct db_lobby_query q = {.status = DB_STATUS_OPEN, .limit = 10};
  struct db_game g;

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_player(f->db, "carol", 0x03);
  add_invited_game(f->db, "g1", 2, 1, "bob", CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.seat_invited[1], "bob");
  assert_string_equal(g.seat_invited[0], "");
  db_game_clear(&g);
  assert_int_equal(db_invitations_of(f->db, "bob", note_invitation, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_string_equal(seen.ids[0], "g1");
  assert_int_equal(seen.seats[0], 1);

  /* Nobody else takes the kept seat; the free one is anyone's. */
  assert_int_equal(db_seat_take(f->db, "g1", 1, "carol", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_SEAT_RESERVED);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  /* alice holds seat 0 and bob's is kept: no seat is free for anyone. */
  assert_int_equal(db_games_lobby(f->db, &q, note_id, &open, &err), CAIRN_OK);
  assert_int_equal(open.n, 0);
  /* bob takes it: the game starts and the invitation is gone. */
  assert_int_equal(db_seat_take(f->db, "g1", 1, "bob", &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_string_equal(g.seat_invited[1], "");
  db_game_clear(&g);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(db_invitations_of(f->db, "bob", note_invitation, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
  assert_int_equal(db_invitation_decline(f->db, "g1", "bob", &err), CAIRN_ENOTFOUND);
}

static void test_a_declined_invitation_frees_its_seat(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct seen_invitations seen = {0};
  struct listed_ids open = {0};
  struct db_lobby_query q = {.status = DB_STATUS_OPEN, .limit = 10};
  struct db_game g;

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_player(f->db, "carol", 0x03);
  add_invited_game(f->db, "g1", 2, 0, "bob", CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 1, "alice", &err), CAIRN_OK);
  assert_int_equal(db_invitation_decline(f->db, "g1", "carol", &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_invitation_decline(f->db, "g1", "bob", &err), CAIRN_OK);
  assert_int_equal(db_invitation_decline(f->db, "g1", "bob", &err), CAIRN_ENOTFOUND);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.seat_invited[0], "");
  db_game_clear(&g);
  assert_int_equal(db_invitations_of(f->db, "bob", note_invitation, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
  assert_int_equal(db_games_lobby(f->db, &q, note_id, &open, &err), CAIRN_OK);
  assert_int_equal(open.n, 1);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "carol", &err), CAIRN_OK);
}

static void test_an_invitation_of_nobody_stores_no_game(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g;

  tmpdb_add_player(f->db, "alice", 0x01);
  add_invited_game(f->db, "g1", 2, 1, "ghost", CAIRN_ENOTFOUND);
  assert_int_equal(db_game_load(f->db, "g1", &g, &err), CAIRN_ENOTFOUND);
}

/* A finished two-seat game `id` of `title` between `a` (seat 0) and `b`,
 * its last change at `at_ms`. */
static void add_finished(struct db *db, const char *id, const char *title, const char *a,
                         const char *b, int64_t at_ms)
{
  struct cairn_error err = {0};
  struct db_move end = {
      .ord = 0, .seq = 1, .seat = 0, .move_json = "{}", .events_json = "[]", .at_ms = at_ms};

  add_lobby_game(db, id, title, 2, 100, 0);
  assert_int_equal(db_seat_take(db, id, 0, a, &err), CAIRN_OK);
  assert_int_equal(db_seat_take(db, id, 1, b, &err), CAIRN_OK);
  assert_int_equal(db_move_append(db, id, &end, "{\"winners\":[0]}", &err), CAIRN_OK);
  assert_int_equal(db_game_touch(db, id, at_ms, &err), CAIRN_OK);
}

static struct seen_invitations archive_page(struct db *db, struct db_archive_query q)
{
  struct cairn_error err = {0};
  struct seen_invitations got = {0};

  assert_int_equal(db_games_archive(db, &q, note_invitation, &got, &err), CAIRN_OK);
  return got;
}

static void test_the_archive_lists_a_players_finished_games_by_filter(void **state)
{
  struct tmpdb_backend *f = *state;
  struct seen_invitations got;
  struct db_archive_query q = {.player_id = "bob", .limit = 10};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_player(f->db, "carol", 0x03);
  add_finished(f->db, "f1", "himalaya", "alice", "bob", 1000);
  add_finished(f->db, "f2", "everest", "bob", "carol", 2000);
  add_finished(f->db, "f3", "himalaya", "carol", "bob", 3000);
  add_finished(f->db, "f4", "himalaya", "alice", "carol", 4000);
  /* An unfinished game of bob's is no part of it. */
  add_lobby_game(f->db, "o1", "himalaya", 2, 100, 0);
  assert_int_equal(db_seat_take(f->db, "o1", 0, "bob", &(struct cairn_error){0}), CAIRN_OK);

  got = archive_page(f->db, q);
  assert_int_equal(got.n, 3);
  assert_string_equal(got.ids[0], "f3");
  assert_int_equal(got.seats[0], 1);
  assert_string_equal(got.ids[1], "f2");
  assert_int_equal(got.seats[1], 0);
  assert_string_equal(got.ids[2], "f1");
  q.title = "himalaya";
  got = archive_page(f->db, q);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.ids[0], "f3");
  q.title = NULL;
  q.opponent = "carol";
  got = archive_page(f->db, q);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.ids[0], "f3");
  assert_string_equal(got.ids[1], "f2");
  /* A page after f3 (3000). */
  q.opponent = NULL;
  q.limit = 1;
  q.after_ms = 3000;
  q.after_id = "f3";
  got = archive_page(f->db, q);
  assert_int_equal(got.n, 1);
  assert_string_equal(got.ids[0], "f2");
}

static void test_a_cancelled_game_is_no_longer_open(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct seen_invitations seen = {0};
  struct listed_ids open = {0};
  struct db_lobby_query q = {.status = DB_STATUS_OPEN, .limit = 10};
  struct db_game g;
  int count = -1;

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_player(f->db, "carol", 0x03);
  add_invited_game(f->db, "g1", 3, 1, "bob", CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(db_games_unfinished_by(f->db, "alice", &count, &err), CAIRN_OK);
  assert_int_equal(count, 1);

  assert_int_equal(db_game_cancel(f->db, "g1", 5000, &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_CANCELLED);
  assert_int_equal(g.updated_ms, 5000);
  assert_string_equal(g.seat_player[0], "alice"); /* seats stay */
  assert_string_equal(g.seat_invited[1], "");     /* invitations go */
  db_game_clear(&g);
  assert_int_equal(db_invitations_of(f->db, "bob", note_invitation, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
  assert_int_equal(db_games_lobby(f->db, &q, note_id, &open, &err), CAIRN_OK);
  assert_int_equal(open.n, 0);
  assert_int_equal(db_games_unfinished_by(f->db, "alice", &count, &err), CAIRN_OK);
  assert_int_equal(count, 0);
  /* Nobody joins it, and it is cancelled once. */
  assert_int_equal(db_seat_take(f->db, "g1", 2, "carol", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_OPEN);
  assert_int_equal(db_game_cancel(f->db, "g1", 6000, &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_OPEN);
  assert_int_equal(db_game_cancel(f->db, "nope", 6000, &err), CAIRN_ENOTFOUND);
  /* An active game is not cancelled. */
  tmpdb_add_active_game(f->db, "a1", 2);
  assert_int_equal(db_game_cancel(f->db, "a1", 6000, &err), CAIRN_ECONFLICT);
}

/* ---- one player on several devices (issue 24) ---- */

/* Who `seed`'s token hash names: the player's id into id[], or "" when
 * nobody. */
static void holder_of(struct db *db, uint8_t seed, char id[DB_ID_MAX + 1])
{
  struct cairn_error err = {0};
  struct db_player out;
  uint8_t hash[DB_HASH_BYTES];

  tmpdb_hash_of(hash, seed);
  id[0] = '\0';
  if (db_player_by_token(db, hash, &out, &err) == CAIRN_OK)
    snprintf(id, DB_ID_MAX + 1, "%s", out.id);
}

static void test_further_tokens_name_their_player_until_replaced(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  uint8_t hash[DB_HASH_BYTES];
  char id[DB_ID_MAX + 1];

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_hash_of(hash, 0x11);
  assert_int_equal(db_token_add(f->db, "alice", hash, 5, &err), CAIRN_OK);
  tmpdb_hash_of(hash, 0x12);
  assert_int_equal(db_token_add(f->db, "alice", hash, 6, &err), CAIRN_OK);
  tmpdb_hash_of(hash, 0x13);
  assert_int_equal(db_token_add(f->db, "nobody", hash, 6, &err), CAIRN_ENOTFOUND);
  holder_of(f->db, 0x01, id); /* read, so a caching backend holds each */
  assert_string_equal(id, "alice");
  holder_of(f->db, 0x11, id);
  assert_string_equal(id, "alice");
  holder_of(f->db, 0x12, id);
  assert_string_equal(id, "alice");
  holder_of(f->db, 0x13, id);
  assert_string_equal(id, "");

  tmpdb_hash_of(hash, 0x21);
  assert_int_equal(db_tokens_replace(f->db, "alice", hash, &err), CAIRN_OK);
  holder_of(f->db, 0x01, id);
  assert_string_equal(id, "");
  holder_of(f->db, 0x11, id);
  assert_string_equal(id, "");
  holder_of(f->db, 0x12, id);
  assert_string_equal(id, "");
  holder_of(f->db, 0x21, id);
  assert_string_equal(id, "alice");
  holder_of(f->db, 0x02, id); /* another player's token is untouched */
  assert_string_equal(id, "bob");
  assert_int_equal(db_tokens_replace(f->db, "nobody", hash, &err), CAIRN_ENOTFOUND);
}

static void test_a_sign_in_code_is_taken_once_before_it_expires(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player out;
  uint8_t code[DB_HASH_BYTES], other[DB_HASH_BYTES], token[DB_HASH_BYTES];

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_hash_of(code, 0x31);
  tmpdb_hash_of(other, 0x32);
  assert_int_equal(db_sign_in_code_put(f->db, "alice", code, 1000, &err), CAIRN_OK);
  assert_int_equal(db_sign_in_code_put(f->db, "nobody", other, 1000, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_sign_in_code_take(f->db, other, 10, &out, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_sign_in_code_take(f->db, code, 10, &out, &err), CAIRN_OK);
  assert_string_equal(out.id, "alice");
  assert_string_equal(out.name, "Name of alice");
  assert_int_equal(db_sign_in_code_take(f->db, code, 10, &out, &err), CAIRN_ENOTFOUND);

  /* Expired: refused, and gone even for a taker with an earlier clock. */
  assert_int_equal(db_sign_in_code_put(f->db, "alice", code, 1000, &err), CAIRN_OK);
  assert_int_equal(db_sign_in_code_take(f->db, code, 1000, &out, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_sign_in_code_take(f->db, code, 10, &out, &err), CAIRN_ENOTFOUND);

  /* One per player: a new code replaces the old one. */
  assert_int_equal(db_sign_in_code_put(f->db, "alice", code, 1000, &err), CAIRN_OK);
  assert_int_equal(db_sign_in_code_put(f->db, "alice", other, 1000, &err), CAIRN_OK);
  assert_int_equal(db_sign_in_code_take(f->db, code, 10, &out, &err), CAIRN_ENOTFOUND);

  /* Replacing the tokens drops the code too. */
  tmpdb_hash_of(token, 0x41);
  assert_int_equal(db_tokens_replace(f->db, "alice", token, &err), CAIRN_OK);
  assert_int_equal(db_sign_in_code_take(f->db, other, 10, &out, &err), CAIRN_ENOTFOUND);
}

/* ---- chat (issue 25) ---- */

/* A message of `author` in g1's `channel`, with id `id`. */
static void chat_msg(struct db_chat *m, const char *id, int channel, const char *author,
                     const char *text)
{
  memset(m, 0, sizeof(*m));
  snprintf(m->id, sizeof m->id, "%s", id);
  snprintf(m->game_id, sizeof m->game_id, "g1");
  m->channel = channel;
  snprintf(m->author, sizeof m->author, "%s", author);
  snprintf(m->author_name, sizeof m->author_name, "Name of %s", author);
  snprintf(m->text, sizeof m->text, "%s", text);
  m->at_ms = 1000;
}

struct chat_seen {
  struct db_chat at[8];
  int n;
};

static enum cairn_status note_chat(void *arg, const struct db_chat *m, struct cairn_error *err)
{
  struct chat_seen *seen = arg;

  (void)err;
  if (seen->n < 8)
    seen->at[seen->n] = *m;
  seen->n++;
  return CAIRN_OK;
}

static void test_chat_channels_number_their_own_messages(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct chat_seen seen = {0};
  struct db_chat m;

  tmpdb_add_active_game(f->db, "g1", 2);
  chat_msg(&m, "c1", DB_CHAT_PLAYERS, "g1-p0", "one");
  assert_int_equal(db_chat_post(f->db, &m, NULL, 0, &err), CAIRN_OK);
  assert_int_equal(m.n, 1);
  chat_msg(&m, "c2", DB_CHAT_SPECTATORS, "g1-p1", "other channel");
  assert_int_equal(db_chat_post(f->db, &m, NULL, 0, &err), CAIRN_OK);
  assert_int_equal(m.n, 1);
  chat_msg(&m, "c3", DB_CHAT_PLAYERS, "g1-p1", "two");
  assert_int_equal(db_chat_post(f->db, &m, NULL, 0, &err), CAIRN_OK);
  assert_int_equal(m.n, 2);
  chat_msg(&m, "c4", DB_CHAT_PLAYERS, "g1-p1", "nowhere");
  snprintf(m.game_id, sizeof m.game_id, "nosuch");
  assert_int_equal(db_chat_post(f->db, &m, NULL, 0, &err), CAIRN_ENOTFOUND);

  assert_int_equal(db_chat_list(f->db, "g1", DB_CHAT_PLAYERS, 0, 10, note_chat, &seen, &err),
                   CAIRN_OK);
  assert_int_equal(seen.n, 2);
  assert_string_equal(seen.at[0].text, "one");
  assert_string_equal(seen.at[0].author_name, "Name of g1-p0");
  assert_string_equal(seen.at[1].text, "two");
  assert_int_equal(seen.at[1].n, 2);
  seen.n = 0;
  assert_int_equal(db_chat_list(f->db, "g1", DB_CHAT_PLAYERS, 1, 10, note_chat, &seen, &err),
                   CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_string_equal(seen.at[0].id, "c3");
  seen.n = 0;
  assert_int_equal(db_chat_list(f->db, "g1", DB_CHAT_PLAYERS, 0, 1, note_chat, &seen, &err),
                   CAIRN_OK);
  assert_int_equal(seen.n, 1);
}

static void test_a_deleted_chat_message_stays_as_a_tombstone(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_chat m;

  tmpdb_add_active_game(f->db, "g1", 2);
  chat_msg(&m, "c1", DB_CHAT_PLAYERS, "g1-p0", "regret");
  assert_int_equal(db_chat_post(f->db, &m, NULL, 0, &err), CAIRN_OK);
  assert_int_equal(db_chat_delete(f->db, "c1", "g1-p1", 2000, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_chat_delete(f->db, "nosuch", "g1-p0", 2000, &err), CAIRN_ENOTFOUND);
  assert_int_equal(db_chat_delete(f->db, "c1", "g1-p0", 2000, &err), CAIRN_OK);
  assert_int_equal(db_chat_delete(f->db, "c1", "g1-p0", 3000, &err), CAIRN_ECONFLICT);
  assert_int_equal(db_chat_get(f->db, "c1", &m, &err), CAIRN_OK);
  assert_string_equal(m.text, "");
  assert_int_equal(m.deleted_ms, 2000);
  assert_int_equal(m.n, 1);
  assert_int_equal(db_chat_get(f->db, "nosuch", &m, &err), CAIRN_ENOTFOUND);
}

static void test_a_chat_message_and_its_outbox_commit_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_outbox owed = {.delivery_id = "00000000000000c1",
                           .webhook_id = "hook1",
                           .event = "chat",
                           .game_id = "g1",
                           .body = "{}",
                           .attempt = 1,
                           .due_ms = 1};
  struct owed_seen seen = {0};
  struct db_chat m;

  add_hook1(f->db);
  chat_msg(&m, "c1", DB_CHAT_SPECTATORS, "g1-p0", "hello");
  assert_int_equal(db_chat_post(f->db, &m, &owed, 1, &err), CAIRN_OK);
  assert_int_equal(db_outbox_each(f->db, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_string_equal(seen.first.event, "chat");
}

/* ---- ratings (issue 25) ---- */

/* A stand-in update: the first party gains 1, every other loses 1; each
 * counts a game. What it was handed is kept for the test to look at. */
struct fake_rate {
  struct db_rating seen[DB_RATED_PARTIES];
  int calls;
};

static void fake_rate(void *arg, struct db_rating *r, int n)
{
  struct fake_rate *f = arg;
  int i;

  f->calls++;
  for (i = 0; i < n; i++) {
    f->seen[i] = r[i];
    r[i].mu = (r[i].known ? r[i].mu : 25.0) + (i == 0 ? 1.0 : -1.0);
    r[i].sigma = 0.1 + 1.0 / 3.0; /* not a short decimal: must come back as the same bits */
    r[i].ordinal = r[i].mu - 3 * r[i].sigma;
    r[i].games++;
    r[i].wins += i == 0;
    r[i].losses += i != 0;
    r[i].updated_ms = 1700000000000;
  }
}

/* End game `id` (active, two seats) with a rated row. */
static enum cairn_status end_rated(struct db *db, const char *id, struct fake_rate *f,
                                   const char *first, const char *second, struct cairn_error *err)
{
  const char *players[2] = {first, second};
  struct db_rating_update u = {
      .title = "himalaya", .n = 2, .players = players, .rate = fake_rate, .arg = f};
  struct db_move m = {.ord = 0,
                      .seq = 1,
                      .seat = 0,
                      .move_json = "{\"type\":\"pass\"}",
                      .events_json = "[]",
                      .at_ms = 1700000000000,
                      .rating = &u};

  return db_move_append(db, id, &m, "{\"winners\":[0]}", err);
}

static enum cairn_status note_rating(void *arg, const struct db_rating *r, struct cairn_error *err)
{
  struct db_rating *out = arg;
  int i;

  (void)err;
  for (i = 0; out[i].title[0]; i++)
    ;
  out[i] = *r;
  return CAIRN_OK;
}

static enum cairn_status note_game(void *arg, const char *game_id, struct cairn_error *err)
{
  char(*ids)[DB_ID_MAX + 1] = arg;
  int i;

  (void)err;
  for (i = 0; ids[i][0]; i++)
    ;
  snprintf(ids[i], DB_ID_MAX + 1, "%s", game_id);
  return CAIRN_OK;
}

/* The end of a rated game reads the parties' ratings and writes the new
 * ones in its own transaction, and notes the game in the end order; a
 * refused append writes none of it. */
static void test_a_rated_end_writes_its_ratings_with_the_row(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct fake_rate rate = {0};
  struct db_rating got[8];
  char ids[8][DB_ID_MAX + 1];
  double sigma = 0.1 + 1.0 / 3.0;

  memset(got, 0, sizeof(got));
  memset(ids, 0, sizeof(ids));
  tmpdb_add_active_game(f->db, "g1", 2);
  tmpdb_add_game(f->db, "g2", 2, "g1-p0");
  assert_int_equal(db_seat_take(f->db, "g2", 0, "g1-p0", &err), CAIRN_OK);
  assert_int_equal(db_seat_take(f->db, "g2", 1, "g1-p1", &err), CAIRN_OK);
  assert_int_equal(end_rated(f->db, "g1", &rate, "g1-p0", "g1-p1", &err), CAIRN_OK);
  assert_false(rate.seen[0].known);
  assert_int_equal(end_rated(f->db, "g2", &rate, "g1-p0", "g1-p1", &err), CAIRN_OK);
  assert_true(rate.seen[0].known); /* g1-p0's rating, as g1's end left it */
  assert_true(rate.seen[0].mu == 26.0);
  assert_memory_equal(&rate.seen[0].sigma, &sigma, sizeof(sigma));
  assert_true(rate.seen[1].known);
  assert_true(rate.seen[1].mu == 24.0);
  /* An append to a finished game is refused before it rates anything. */
  assert_int_equal(end_rated(f->db, "g1", &rate, "g1-p0", "g1-p1", &err), CAIRN_ECONFLICT);
  assert_int_equal(rate.calls, 2);

  assert_int_equal(db_ratings_of(f->db, "g1-p0", note_rating, got, &err), CAIRN_OK);
  assert_string_equal(got[0].title, "himalaya");
  assert_true(got[0].mu == 27.0);
  assert_memory_equal(&got[0].sigma, &sigma, sizeof(sigma));
  assert_int_equal(got[0].games, 2);
  assert_int_equal(got[0].wins, 2);
  assert_int_equal(got[1].title[0], '\0');
  memset(got, 0, sizeof(got));
  assert_int_equal(db_leaderboard(f->db, "himalaya", 0, 2, note_rating, got, &err), CAIRN_OK);
  assert_string_equal(got[0].player, "g1-p0");
  assert_string_equal(got[0].name, "Name of g1-p0");
  assert_string_equal(got[1].player, "g1-p1");
  memset(got, 0, sizeof(got));
  assert_int_equal(db_leaderboard(f->db, "himalaya", 1, 5, note_rating, got, &err), CAIRN_OK);
  assert_string_equal(got[0].player, "g1-p1"); /* the first skipped */
  assert_int_equal(got[1].title[0], '\0');
  memset(got, 0, sizeof(got));
  assert_int_equal(db_ratings_each(f->db, note_rating, got, &err), CAIRN_OK);
  assert_true(got[1].title[0] && !got[2].title[0]);
  assert_int_equal(db_rated_games_each(f->db, note_game, ids, &err), CAIRN_OK);
  assert_string_equal(ids[0], "g1");
  assert_string_equal(ids[1], "g2");
  assert_int_equal(ids[2][0], '\0');
}

static void test_a_player_is_found_by_id(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player p;

  tmpdb_add_player(f->db, "alice", 0x01);
  assert_int_equal(db_player_get(f->db, "alice", &p, &err), CAIRN_OK);
  assert_string_equal(p.name, "Name of alice");
  assert_int_equal(db_player_get(f->db, "nobody", &p, &err), CAIRN_ENOTFOUND);
}

/* The backends under test: each opens a fresh, empty store per test. */
static const struct backend {
  const char *name;
  int (*setup)(void **state);
  int (*teardown)(void **state);
} backends[] = {
    {"sqlite", tmpdb_backend_setup, tmpdb_backend_teardown},
    {"postgres", tmpdb_pg_setup, tmpdb_pg_teardown},
};

#define T(name)                                                                                    \
  {                                                                                                \
#name, name, NULL, NULL, NULL                                                                  \
  }

int main(void)
{
  struct CMUnitTest tests[] = {
      T(test_player_is_found_by_token_hash),
      T(test_unknown_token_hash_is_bad_token),
      T(test_game_round_trips_through_create_and_load),
      T(test_game_without_options_stores_empty_object),
      T(test_unknown_game_is_not_found),
      T(test_game_with_unknown_creator_is_not_found),
      T(test_repeated_game_id_is_refused),
      T(test_game_created_with_seated_players),
      T(test_a_move_and_its_clocks_commit_together),
      T(test_a_resignation_and_its_seat_commit_together),
      T(test_a_replacement_and_its_seat_commit_together),
      T(test_the_outbox_keeps_what_is_owed),
      T(test_mentions_are_kept_per_player_and_hook),
      T(test_a_move_and_its_outbox_commit_together),
      T(test_filling_the_last_seat_makes_the_game_active),
      T(test_taken_seat_is_seat_taken),
      T(test_a_starting_join_writes_its_clocks_and_outbox_together),
      T(test_a_refused_join_writes_nothing),
      T(test_second_seat_for_a_player_is_already_seated),
      T(test_joining_a_started_game_is_game_not_open),
      T(test_seat_outside_the_game_is_bad_value),
      T(test_active_games_are_listed_apart_from_the_rest),
      T(test_seat_in_unknown_game_or_for_unknown_player_is_not_found),
      T(test_moves_append_with_dense_ords),
      T(test_stale_ord_is_stale_seq_and_writes_nothing),
      T(test_result_finishes_the_game),
      T(test_moves_on_open_or_unknown_game_are_refused),
      T(test_moves_load_walks_in_order_from_ord),
      T(test_moves_load_stops_when_the_callback_says_so),
      T(test_moves_load_ends_with_success_when_the_callback_is_done),
      T(test_moves_load_callback_may_call_storage),
      T(test_moves_load_of_unknown_game_is_not_found),
      T(test_moves_load_lean_gives_the_moves_without_their_events),
      T(test_moves_load_gives_long_rows_whole),
      T(test_moves_load_lean_falls_back_to_the_whole_walk),
      T(test_appended_rows_form_a_hash_chain),
      T(test_racing_appends_on_one_connection_one_wins),
      T(test_concurrent_appends_share_commits_and_all_land),
      T(test_racing_appends_on_two_connections_one_wins),
      T(test_two_claimers_never_get_the_same_row),
      T(test_an_expired_lease_is_claimable_by_another),
      T(test_a_released_row_is_claimable),
      T(test_games_with_idle_bots_are_listed_by_their_last_change),
      T(test_the_lobby_lists_open_games_newest_first_by_filter),
      T(test_lobby_pages_follow_their_cursor),
      T(test_an_invited_seat_is_kept_for_its_player),
      T(test_a_declined_invitation_frees_its_seat),
      T(test_an_invitation_of_nobody_stores_no_game),
      T(test_the_archive_lists_a_players_finished_games_by_filter),
      T(test_a_cancelled_game_is_no_longer_open),
      T(test_further_tokens_name_their_player_until_replaced),
      T(test_a_sign_in_code_is_taken_once_before_it_expires),
      T(test_chat_channels_number_their_own_messages),
      T(test_a_deleted_chat_message_stays_as_a_tombstone),
      T(test_a_chat_message_and_its_outbox_commit_together),
      T(test_a_rated_end_writes_its_ratings_with_the_row),
      T(test_a_player_is_found_by_id),
  };
  size_t i, j;
  int failed = 0;

  for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
    for (j = 0; j < sizeof(tests) / sizeof(tests[0]); j++) {
      tests[j].setup_func = backends[i].setup;
      tests[j].teardown_func = backends[i].teardown;
    }
    failed +=
        order_run_group(backends[i].name, tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL);
  }
  return failed;
}
