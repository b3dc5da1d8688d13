/*
 * test_secrets.c - every title's secrets attacked the way an outsider
 * would: random games are played over HTTP, and after EVERY step each
 * non-owner (every other seat, and a spectator) fetches everything it may
 * fetch - the game, the game at the current position, the log, the export
 * and the verification report - and tries to recover each secret held at
 * that moment:
 *
 *   - a decision still hidden (a move whose events are private to others,
 *     or a simultaneous decision whose step has not resolved) must be shown
 *     as redacted in the export, never its content;
 *   - a private event (a drawn card, a plan) must not appear in any answer;
 *   - no public hash may be recomputed from public data plus the true
 *     secret: the attacker knows every candidate (the test hands it the
 *     right one, read from the database file), so if the published row
 *     hash or log_head were a function of the row's public fields and its
 *     content, the right candidate would match - this is how the Everest
 *     plan (15,500 candidates), the Because It's There draw and the
 *     Journey Mountain draw (80 candidates) were recovered from format 1;
 *   - the seed stays unpublished.
 *
 * The truth comes from the server's own database file (read-only), never
 * from the server's code, and the hashes are recomputed here from the
 * documented byte layouts (openapi/cairn.yaml), not with db/chain.c. So
 * that the hash checks can fail, once the game is over the test recomputes
 * the whole chain from the export alone with the revealed seed, and every
 * row and the log_head must then match.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/chainref.h"
#include "tests/api/harness.h"

#define MAX_SEATS 5
#define MAX_POSTS 3000
#define HASH      32

/* The stored log of the game under attack, as far as read: each row a
 * struct chainref_row whose strings the truth owns, its events parsed
 * once, and for each possible viewer (the spectator -1, seats 0 to
 * MAX_SEATS - 1) whether one of them is private from it. The log is
 * append-only, so each step reads only the rows stored since the last. */
struct truth {
  struct chainref_row *rows; /* owned */
  json_t **events;           /* owned: rows[k].events parsed */
  unsigned *private_from;    /* bit viewer + 1: an event of the row is private from viewer */
  size_t n, cap;
};

static void truth_clear(struct truth *t)
{
  for (size_t i = 0; i < t->n; i++) {
    free((char *)t->rows[i].move);
    free((char *)t->rows[i].events);
    json_decref(t->events[i]);
  }
  free(t->rows);
  free(t->events);
  free(t->private_from);
  memset(t, 0, sizeof(*t));
}

static bool event_private_from(const json_t *ev, int viewer)
{
  const json_t *to = json_object_get(ev, "private_to");
  const json_t *seat;
  size_t i;

  if (!to)
    return false;
  json_array_foreach(to, i, seat)
  {
    if (json_integer_value(seat) == viewer)
      return false;
  }
  return true;
}

/* Whom some event of `events` is private from, as truth.private_from. */
static unsigned private_from_viewers(const json_t *events)
{
  unsigned mask = 0;
  const json_t *ev;
  size_t i;

  json_array_foreach(events, i, ev)
  {
    for (int viewer = -1; viewer < MAX_SEATS; viewer++)
      if (event_private_from(ev, viewer))
        mask |= 1u << (viewer + 1);
  }
  return mask;
}

static void truth_append(struct truth *t, sqlite3_stmt *stmt)
{
  struct chainref_row *r;

  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 64;
    t->rows = realloc(t->rows, t->cap * sizeof(*t->rows));
    t->events = realloc(t->events, t->cap * sizeof(*t->events));
    t->private_from = realloc(t->private_from, t->cap * sizeof(*t->private_from));
    assert_true(t->rows && t->events && t->private_from);
  }
  r = &t->rows[t->n];
  r->ord = sqlite3_column_int64(stmt, 0);
  r->seq = sqlite3_column_int64(stmt, 1);
  r->seat = sqlite3_column_int(stmt, 2);
  r->move = strdup((const char *)sqlite3_column_text(stmt, 3));
  r->events = strdup((const char *)sqlite3_column_text(stmt, 4));
  r->at_ms = sqlite3_column_int64(stmt, 5);
  t->events[t->n] = json_loads(r->events, 0, NULL);
  assert_true(json_is_array(t->events[t->n]));
  t->private_from[t->n] = private_from_viewers(t->events[t->n]);
  t->n++;
}

/* Read the rows of `game_id` stored since the last call into `t`. */
static void truth_update(const struct harness_server *s, const char *game_id, struct truth *t)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char copy[300];

  snprintf(copy, sizeof copy, "%s/truth.db", s->dir);
  harness_db_snapshot(s, copy);
  if (sqlite3_open_v2(copy, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    fail_msg("cannot open %s: %s", copy, sqlite3_errmsg(db));
  /* The copy is read and thrown away: closing it must not checkpoint its
   * WAL into it (a write and an fsync per step), the next step copies both
   * files again. */
  sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
  sqlite3_busy_timeout(db, 5000);
  if (sqlite3_prepare_v2(db,
                         "SELECT ord, seq, seat, move_json, events_json, at_ms FROM moves"
                         " WHERE game_id = ?1 AND ord > ?2 ORDER BY ord",
                         -1, &stmt, NULL) != SQLITE_OK)
    fail_msg("cannot read moves: %s", sqlite3_errmsg(db));
  sqlite3_bind_text(stmt, 1, game_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, t->n ? t->rows[t->n - 1].ord : INT64_MIN);
  while (sqlite3_step(stmt) == SQLITE_ROW)
    truth_append(t, stmt);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

/* ---- what the rules keep hidden, worked out here from the log alone ---- */

static bool platform_row(const struct chainref_row *r)
{
  return strstr(r->move, "\"cairn\":") != NULL;
}

/* A decision that left its step waiting for other seats, and that no later
 * move has resolved yet (a rewind undoing it first means it never is). */
static bool unresolved_decision(const struct truth *t, size_t k)
{
  long before = k == 0 ? 0 : t->rows[k - 1].seq;
  size_t j;

  if (platform_row(&t->rows[k]) || t->rows[k].seq != before)
    return false;
  for (j = k + 1; j < t->n; j++) {
    const struct chainref_row *r = &t->rows[j];

    if (platform_row(r) && strstr(r->move, "\"rewind\"")) {
      json_t *move = json_loads(r->move, 0, NULL);
      bool undone = json_integer_value(json_object_get(move, "to_ord")) <= (json_int_t)k;

      json_decref(move);
      if (undone)
        return true;
    }
    if (!platform_row(r) && r->seq > t->rows[k].seq)
      return false;
  }
  return true;
}

static bool hidden_from(const struct truth *t, size_t k, int viewer)
{
  const struct chainref_row *r = &t->rows[k];

  if (r->seat == viewer || platform_row(r))
    return false;
  return (t->private_from[k] >> (viewer + 1) & 1u) || unresolved_decision(t, k);
}

/* ---- the attacker's recomputations: chainref.c, the documented layouts ---- */

static bool hex_to_hash(const json_t *hex, uint8_t out[HASH])
{
  size_t got = 0;

  return json_is_string(hex) &&
         sodium_hex2bin(out, HASH, json_string_value(hex), json_string_length(hex), NULL, &got,
                        NULL) == 0 &&
         got == HASH;
}

/* The published hash of row k must not be recomputable from public fields
 * plus the true content under any formula the attacker knows: format 1, and
 * format 2 with every key public data gives (none, zeros, the seed
 * commitment itself, and the commitment key derived from it as if it were
 * the seed). */
static void attack_row_hash(const char *game_id, const json_t *doc, const json_t *entries,
                            const struct truth *t, size_t k, int viewer)
{
  uint8_t prev[HASH] = {0}, published[HASH], guess[HASH];
  uint8_t zero[HASH] = {0}, commitment[HASH] = {0}, derived[HASH];
  const uint8_t *keys[4] = {NULL, zero, commitment, derived};

  if (k > 0 && !hex_to_hash(json_object_get(json_array_get(entries, k - 1), "hash"), prev))
    fail_msg("row %zu of game %s has no published hash", k - 1, game_id);
  if (!hex_to_hash(json_object_get(json_array_get(entries, k), "hash"), published))
    fail_msg("row %zu of game %s has no published hash", k, game_id);
  assert_true(hex_to_hash(json_object_get(doc, "seed_commitment"), commitment));
  chainref_commit_key(commitment, HASH, game_id, derived);
  chainref_hash_v1(prev, game_id, &t->rows[k], guess);
  if (sodium_memcmp(guess, published, HASH) == 0)
    fail_msg("viewer %d recovered the secret of row %zu of game %s from its public hash (format 1)",
             viewer, k, game_id);
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    chainref_hash_v2(keys[i], prev, game_id, &t->rows[k], guess);
    if (sodium_memcmp(guess, published, HASH) == 0)
      fail_msg("viewer %d recovered the secret of row %zu of game %s from its public hash "
               "(format 2, public key guess %zu)",
               viewer, k, game_id, i);
  }
}

/* ---- one viewer's attack at one moment ---- */

struct fetched {
  json_t *docs[5]; /* game, game at seq, log, export, verify */
  char *texts[5];  /* each dumped once, compact and key-sorted, when first searched for a secret */
  size_t n;
};

static json_t *get_json(struct harness_server *s, const char *token, const char *fmt,
                        const char *id, long n)
{
  char path[160];

  snprintf(path, sizeof path, fmt, id, n);
  return harness_get_json(s, token, "%s", path);
}

static void fetch_all(struct harness_server *s, const char *token, const char *id, long seq,
                      struct fetched *f)
{
  f->n = 0;
  f->docs[f->n++] = get_json(s, token, "/v1/games/%s", id, 0);
  f->docs[f->n++] = get_json(s, token, "/v1/games/%s?at=%ld", id, seq);
  f->docs[f->n++] = get_json(s, token, "/v1/games/%s/log", id, 0);
  f->docs[f->n++] = get_json(s, token, "/v1/games/%s/export", id, 0);
  f->docs[f->n++] = get_json(s, token, "/v1/games/%s/verify", id, 0);
  memset(f->texts, 0, sizeof f->texts);
}

static void fetched_clear(struct fetched *f)
{
  for (size_t i = 0; i < f->n; i++) {
    json_decref(f->docs[i]);
    free(f->texts[i]);
  }
  f->n = 0;
}

static bool fetched_mention(struct fetched *f, const char *needle)
{
  for (size_t i = 0; i < f->n; i++) {
    if (!f->texts[i])
      f->texts[i] = harness_dump(f->docs[i]);
    if (strstr(f->texts[i], needle))
      return true;
  }
  return false;
}

/* Every private event of row k hidden from `viewer` is absent from all it
 * fetched, compared as compact sorted JSON (how every answer is dumped). */
static void attack_private_events(struct fetched *f, const struct truth *t, size_t k, int viewer,
                                  const char *game_id)
{
  json_t *ev;
  size_t i;

  json_array_foreach(t->events[k], i, ev)
  {
    char *needle;

    if (!event_private_from(ev, viewer))
      continue;
    needle = harness_dump(ev);
    if (fetched_mention(f, needle))
      fail_msg("viewer %d sees the private event %s of row %ld of game %s", viewer, needle,
               t->rows[k].ord, game_id);
    free(needle);
  }
}

/* `every_row`: look for every private event of the log in what was
 * fetched; otherwise only for those of the rows added since the last step
 * (the log is append-only, and searching every answer for every event of
 * a long game after every step costs minutes under the sanitizers). */
static void attack_as(struct harness_server *s, const char *token, int viewer, const char *id,
                      long seq, const struct truth *t, bool every_row, size_t new_from)
{
  struct fetched f;
  const json_t *entries;

  fetch_all(s, token, id, seq, &f);
  entries = json_object_get(f.docs[3], "moves");
  assert_int_equal(json_array_size(entries), t->n);
  for (size_t k = 0; k < t->n; k++) {
    const json_t *entry = json_array_get(entries, k);

    if (hidden_from(t, k, viewer)) {
      if (!json_is_null(json_object_get(entry, "move")))
        fail_msg("viewer %d sees the hidden decision of row %zu of game %s: %s", viewer, k, id,
                 t->rows[k].move);
      attack_row_hash(id, f.docs[3], entries, t, k, viewer);
    }
    if ((every_row || k >= new_from) && (t->private_from[k] >> (viewer + 1) & 1u))
      attack_private_events(&f, t, k, viewer, id);
  }
  if (json_object_get(f.docs[0], "seed") || json_object_get(f.docs[3], "seed"))
    fail_msg("viewer %d sees the seed of live game %s", viewer, id);
  fetched_clear(&f);
}

/* After the end: the whole chain recomputes from the export alone, so the
 * recomputation above is the one the server uses and could have matched. */
static void expect_chain_recomputes(struct harness_server *s, const char *id)
{
  json_t *doc = get_json(s, NULL, "/v1/games/%s/export", id, 0);
  const json_t *entries = json_object_get(doc, "moves");
  const json_t *entry;
  uint8_t prev[HASH] = {0}, published[HASH], got[HASH], seed[HASH], key[HASH];
  size_t k;

  /* New games are format 2; the seed, revealed at the end, gives the key. */
  assert_int_equal(harness_int(doc, "chain_format"), 2);
  assert_true(hex_to_hash(json_object_get(doc, "seed"), seed));
  chainref_commit_key(seed, sizeof seed, id, key);

  json_array_foreach(entries, k, entry)
  {
    struct chainref_row r = {
        .ord = harness_int(entry, "ord"),
        .seq = harness_int(entry, "seq"),
        .seat = harness_int(entry, "seat"),
        .move = harness_dump(json_object_get(entry, "move")),
        .events = harness_dump(json_object_get(entry, "events")),
        .at_ms = harness_int(entry, "at_ms"),
    };

    assert_true(hex_to_hash(json_object_get(entry, "hash"), published));
    chainref_hash_v2(key, prev, id, &r, got);
    if (sodium_memcmp(got, published, HASH) != 0)
      fail_msg("row %zu of finished game %s does not recompute from its export", k, id);
    memcpy(prev, published, HASH);
    free((char *)r.move);
    free((char *)r.events);
  }
  assert_true(hex_to_hash(json_object_get(doc, "log_head"), published));
  assert_memory_equal(prev, published, HASH);
  json_decref(doc);
}

/* ---- playing ---- */

/* `g`: the game as the public sees it now, after step `step`. */
static void attack_everyone(struct harness_server *s, const struct harness_player *players,
                            int seats, const char *id, long step, const json_t *g, struct truth *t)
{
  bool every_row = step % 8 == 0;
  long seq = harness_int(g, "seq");
  bool over = strcmp(harness_str(g, "status"), "finished") == 0;
  size_t rows_seen = t->n;

  if (over)
    return; /* the seed is out: every secret is public now, by the rules */
  truth_update(s, id, t);
  attack_as(s, NULL, -1, id, seq, t, every_row, rows_seen);
  for (int v = 0; v < seats; v++)
    attack_as(s, players[v].token, v, id, seq, t, every_row, rows_seen);
}

static void play_and_attack(struct harness_server *s, const char *title, int seats,
                            const char *options, uint64_t seed)
{
  struct harness_player players[MAX_SEATS] = {0};
  struct harness_rng rng = {seed};
  char name[32], id[64];
  json_t *created;
  long posts;
  struct truth truth = {0};

  for (int i = 0; i < seats; i++) {
    snprintf(name, sizeof name, "attacked-%d", i);
    harness_new_player(s, name, &players[i]);
  }
  created = harness_new_game(s, players[0].token, title, seats, options);
  snprintf(id, sizeof id, "%s", harness_game_id(created));
  json_decref(created);
  for (int i = 0; i < seats; i++)
    harness_join(s, players[i].token, id, i);
  for (posts = 0; posts <= MAX_POSTS; posts++) {
    json_t *g = harness_get_game(s, NULL, id);
    const json_t *to_act = json_object_get(g, "to_act");
    json_t *mine, *move;
    struct harness_response r;
    int seat;

    /* The public game after a post is both what the attack starts from and
     * what the next post is chosen from: fetched once for both. */
    if (posts > 0)
      attack_everyone(s, players, seats, id, posts - 1, g, &truth);
    if (strcmp(harness_str(g, "status"), "finished") == 0 || posts == MAX_POSTS) {
      json_decref(g);
      break;
    }
    /* Any seat that owes a decision, so simultaneous steps are left
     * pending by every seat in turn. */
    seat = (int)json_integer_value(
        json_array_get(to_act, (size_t)harness_rng_below(&rng, json_array_size(to_act))));
    json_decref(g);
    mine = harness_get_game(s, players[seat].token, id);
    move = harness_choose_move(mine, &rng);
    harness_post_move(s, &r, players[seat].token, id, harness_int(mine, "seq"), move);
    HARNESS_EXPECT_JSON(&r, 200);
    harness_response_free(&r);
    json_decref(move);
    json_decref(mine);
  }
  truth_clear(&truth);
  if (posts == MAX_POSTS)
    fail_msg("%s game %s did not finish in %d posts", title, id, MAX_POSTS);
  printf("%s, %d seats: %ld moves, every step attacked\n", title, seats, posts);
  expect_chain_recomputes(s, id);
}

static void test_himalaya_secrets_hold(void **state)
{
  play_and_attack(*state, "himalaya", 2, NULL, 21);
}

static void test_everest_secrets_hold(void **state)
{
  /* The round cap keeps the game to a few hundred rows: every step costs
   * a fetch of the whole log by every viewer. */
  play_and_attack(*state, "everest-piecepack", 2, "{\"round_cap\":30}", 22);
}

static void test_because_its_there_duel_secrets_hold(void **state)
{
  play_and_attack(*state, "because-its-there", 2, NULL, 23);
}

static void test_because_its_there_solo_secrets_hold(void **state)
{
  play_and_attack(*state, "because-its-there", 1, NULL, 24);
}

static void test_journey_secrets_hold(void **state)
{
  play_and_attack(*state, "journey-to-the-top", 3, NULL, 25);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_himalaya_secrets_hold, harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_everest_secrets_hold, harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_because_its_there_duel_secrets_hold, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_because_its_there_solo_secrets_hold, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_journey_secrets_hold, harness_setup, harness_teardown),
  };
  int failed;

  if (sodium_init() < 0)
    return 1;
  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
