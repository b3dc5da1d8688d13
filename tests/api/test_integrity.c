/*
 * test_integrity.c - attacks on what a game's record promises, through the
 * real server:
 *   - a live game's row hashes must not let anyone test a guess at a secret
 *     row (an Everest plan not yet revealed, a Because It's There draw):
 *     recomputed from the true content under every key an outsider could
 *     know, in chain format 1 and 2, no hash matches; once the game is over
 *     and the seed is out, the same recomputation with the key from the seed
 *     matches every row;
 *   - a finished export given a new id and another player's id in a seat
 *     imports only as an unlinked "imported" game, absent from that player's
 *     games, its signature reported bad or absent (online and by `cairn
 *     verify`); re-signed with another key it is "another signer"; the
 *     server's own export comes back linked on a server holding the same
 *     key, and conflicts on its own;
 *   - a chain format 1 record (cairn-export-1) still verifies and imports;
 *   - the database files and the signing key are readable by the owner
 *     only, even when an older server left them readable by all.
 * The hashes and signatures are computed here from the documented byte
 * layouts (openapi/cairn.yaml) with libsodium alone: no server code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tests/order.h"
#include "chainref.h"
#include "harness.h"

#define HASH 32

/* ---- the documented byte layouts (chainref.c, written from openapi/cairn.yaml) ---- */

/* One log row of an export, with its content as the server stores it. */
struct row {
  long ord, seq, seat, at_ms;
  char *move;   /* compact, sorted keys */
  char *events; /* compact, sorted keys */
  uint8_t hash[HASH];
};

static struct chainref_row as_ref(const struct row *r)
{
  return (struct chainref_row){r->ord, r->seq, r->seat, r->at_ms, r->move, r->events};
}

static void hash_v1(const uint8_t prev[HASH], const char *id, const struct row *r,
                    uint8_t out[HASH])
{
  struct chainref_row ref = as_ref(r);

  chainref_hash_v1(prev, id, &ref, out);
}

static void commit_key(const uint8_t seed[HASH], const char *id, uint8_t out[HASH])
{
  chainref_commit_key(seed, HASH, id, out);
}

static void hash_v2(const uint8_t *key, const uint8_t prev[HASH], const char *id,
                    const struct row *r, uint8_t out[HASH])
{
  struct chainref_row ref = as_ref(r);

  chainref_hash_v2(key, prev, id, &ref, out);
}

static void unhex(const char *hex, uint8_t *out, size_t n)
{
  size_t got = 0;

  assert_non_null(hex);
  assert_int_equal(sodium_hex2bin(out, n, hex, strlen(hex), NULL, &got, NULL), 0);
  assert_int_equal(got, n);
}

static char *canonical(const json_t *j)
{
  char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

  assert_non_null(text);
  return text;
}

static void read_row(const json_t *entry, struct row *r)
{
  r->ord = (long)json_integer_value(json_object_get(entry, "ord"));
  r->seq = (long)json_integer_value(json_object_get(entry, "seq"));
  r->seat = (long)json_integer_value(json_object_get(entry, "seat"));
  r->at_ms = (long)json_integer_value(json_object_get(entry, "at_ms"));
  r->move = canonical(json_object_get(entry, "move"));
  r->events = canonical(json_object_get(entry, "events"));
  unhex(json_string_value(json_object_get(entry, "hash")), r->hash, HASH);
}

static void free_row(struct row *r)
{
  free(r->move);
  free(r->events);
}

/* ---- requests ---- */

static json_t *export_of(struct harness_server *s, const char *token, const char *id)
{
  return harness_get_json(s, token, "/v1/games/%s/export", id);
}

static json_t *verify_of(struct harness_server *s, const char *id)
{
  return harness_get_json(s, NULL, "/v1/games/%s/verify", id);
}

/* ---- 1. a live game's hashes do not open its secrets ---- */

/* Every hash an outsider could compute for `r` after `prev` from its TRUE
 * content: format 1, and format 2 with every key it could know (none, all
 * zeros, the public seed commitment, and a "K" derived from that commitment
 * as if it were the seed). None may equal the published hash. */
static void expect_no_outsider_match(const struct row *r, const uint8_t prev[HASH], const char *id,
                                     const uint8_t commitment[HASH])
{
  static const uint8_t zeros[HASH] = {0};
  uint8_t guess[HASH], fake_k[HASH];

  hash_v1(prev, id, r, guess);
  assert_memory_not_equal(guess, r->hash, HASH);
  hash_v2(NULL, prev, id, r, guess);
  assert_memory_not_equal(guess, r->hash, HASH);
  hash_v2(zeros, prev, id, r, guess);
  assert_memory_not_equal(guess, r->hash, HASH);
  hash_v2(commitment, prev, id, r, guess);
  assert_memory_not_equal(guess, r->hash, HASH);
  commit_key(commitment, id, fake_k);
  hash_v2(fake_k, prev, id, r, guess);
  assert_memory_not_equal(guess, r->hash, HASH);
}

/* The redacted rows of `doc` (a live export seen by someone who did not
 * make them): their ords, at most 8. */
static int redacted_ords(const json_t *doc, long ords[8])
{
  const json_t *entry;
  size_t i;
  int n = 0;

  json_array_foreach(json_object_get(doc, "moves"), i, entry)
  {
    if (json_is_true(json_object_get(entry, "redacted")) && n < 8)
      ords[n++] = (long)json_integer_value(json_object_get(entry, "ord"));
  }
  return n;
}

/* Post one random legal move for the first seat owing one. */
static void play_one(struct harness_server *s, const struct harness_player p[2], const char *id,
                     struct harness_rng *rng)
{
  struct harness_response r;
  json_t *g = harness_get_game(s, NULL, id);
  int mover = (int)json_integer_value(json_array_get(json_object_get(g, "to_act"), 0));
  json_t *move;

  json_decref(g);
  g = harness_get_game(s, p[mover].token, id);
  move = harness_choose_move(g, rng);
  harness_post_move(s, &r, p[mover].token, id, harness_int(g, "seq"), move);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  json_decref(move);
  json_decref(g);
}

static bool finished(struct harness_server *s, const char *id)
{
  json_t *g = harness_get_game(s, NULL, id);
  bool done = strcmp(harness_str(g, "status"), "finished") == 0;

  json_decref(g);
  return done;
}

/* Check the secret rows `ords` of live exports `seen` (the opponent's and
 * a spectator's) against the finished game's true content. `owner` is the
 * export of the seat that made the first of them. */
static void attack_rows(const json_t *finished_doc, json_t *const seen[2], const json_t *owner,
                        const long *ords, int n, const char *id)
{
  const json_t *moves = json_object_get(finished_doc, "moves");
  uint8_t commitment[HASH], seed[HASH], k[HASH];
  int i, v;

  unhex(json_string_value(json_object_get(seen[0], "seed_commitment")), commitment, HASH);
  unhex(json_string_value(json_object_get(finished_doc, "seed")), seed, HASH);
  commit_key(seed, id, k);
  for (i = 0; i < n; i++) {
    const json_t *mine = json_array_get(json_object_get(owner, "moves"), (size_t)ords[i]);
    struct row truth;
    uint8_t prev[HASH] = {0}, again[HASH], live[HASH];

    read_row(json_array_get(moves, (size_t)ords[i]), &truth);
    if (ords[i] > 0)
      unhex(json_string_value(json_object_get(json_array_get(moves, (size_t)ords[i] - 1), "hash")),
            prev, HASH);
    /* The owner saw its own move while it was secret: the true one. */
    if (json_integer_value(json_object_get(mine, "seat")) == truth.seat) {
      char *text = canonical(json_object_get(mine, "move"));

      assert_false(json_is_true(json_object_get(mine, "redacted")));
      assert_string_equal(text, truth.move);
      free(text);
    }
    for (v = 0; v < 2; v++) {
      const json_t *entry = json_array_get(json_object_get(seen[v], "moves"), (size_t)ords[i]);

      assert_true(json_is_null(json_object_get(entry, "move")));
      unhex(json_string_value(json_object_get(entry, "hash")), live, HASH);
      assert_memory_equal(live, truth.hash, HASH);
    }
    expect_no_outsider_match(&truth, prev, id, commitment);
    /* The test can fail: with the revealed seed the hash opens. */
    hash_v2(k, prev, id, &truth, again);
    assert_memory_equal(again, truth.hash, HASH);
    free_row(&truth);
  }
  /* And the whole finished chain recomputes offline, ending at log_head. */
  {
    const json_t *entry;
    uint8_t prev[HASH] = {0}, head[HASH];
    size_t j;

    json_array_foreach(moves, j, entry)
    {
      struct row row;

      read_row(entry, &row);
      hash_v2(k, prev, id, &row, prev);
      assert_memory_equal(prev, row.hash, HASH);
      free_row(&row);
    }
    unhex(json_string_value(json_object_get(finished_doc, "log_head")), head, HASH);
    assert_memory_equal(prev, head, HASH);
  }
}

/* Play a two-seat game of `title` at random until a spectator's export of
 * it holds a secret (redacted) row; capture what the other seat and a
 * spectator see then; play on to the end and attack those rows. */
static void attack_live_secrets(struct harness_server *s, const char *title, const char *options,
                                uint64_t seed)
{
  struct harness_player p[2];
  struct harness_rng rng = {.state = seed};
  json_t *g, *seen[2], *owner, *doc;
  long ords[8];
  char id[64];
  int n = 0, posts, maker;

  harness_new_player(s, "Ang", &p[0]);
  harness_new_player(s, "Pemba", &p[1]);
  g = harness_new_game(s, p[0].token, title, 2, options);
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, p[0].token, id, 0);
  harness_join(s, p[1].token, id, 1);
  for (posts = 0; n == 0; posts++) {
    assert_true(posts < 500);
    assert_false(finished(s, id));
    play_one(s, p, id, &rng);
    seen[1] = export_of(s, NULL, id);
    n = redacted_ords(seen[1], ords);
    if (n == 0)
      json_decref(seen[1]);
  }
  assert_int_equal(json_integer_value(json_object_get(seen[1], "chain_format")), 2);
  maker = (int)json_integer_value(
      json_object_get(json_array_get(json_object_get(seen[1], "moves"), (size_t)ords[0]), "seat"));
  /* The other seat sees the rows `maker` made as redacted too. */
  seen[0] = export_of(s, p[1 - maker].token, id);
  owner = export_of(s, p[maker].token, id);
  for (posts = 0; !finished(s, id); posts++) {
    assert_true(posts < 3000);
    play_one(s, p, id, &rng);
  }
  doc = export_of(s, NULL, id);
  print_message("%s: %d secret row(s) attacked, game of %zu rows\n", title, n,
                json_array_size(json_object_get(doc, "moves")));
  attack_rows(doc, seen, owner, ords, n, id);
  json_decref(seen[0]);
  json_decref(seen[1]);
  json_decref(owner);
  json_decref(doc);
}

/* Everest: plans are pending while the other seat has not planned, so the
 * first plan's row is secret from the other seat and from spectators. */
static void test_a_live_secret_plan_cannot_be_recovered_from_its_hash(void **state)
{
  attack_live_secrets(*state, "everest-piecepack", "{\"round_cap\":1}", 99);
}

/* Because It's There: a drawn card is private to its drawer. */
static void test_a_live_private_draw_cannot_be_recovered_from_its_hash(void **state)
{
  attack_live_secrets(*state, "because-its-there", "{\"scenario\":\"1963\"}", 7);
}

/* ---- 2. imports cannot impersonate ---- */

struct bytes {
  uint8_t p[65536];
  size_t n;
};

static void b_put(struct bytes *b, const void *d, size_t n)
{
  assert_true(b->n + n <= sizeof(b->p));
  memcpy(b->p + b->n, d, n);
  b->n += n;
}

static void b_u64(struct bytes *b, uint64_t v)
{
  uint8_t le[8];
  int i;

  for (i = 0; i < 8; i++)
    le[i] = (uint8_t)(v >> (8 * i));
  b_put(b, le, 8);
}

static void b_str(struct bytes *b, const char *s)
{
  b_u64(b, strlen(s));
  b_put(b, s, strlen(s));
}

static void b_json(struct bytes *b, const json_t *j)
{
  char *text = j && !json_is_null(j) ? canonical(j) : NULL;

  b_str(b, text ? text : "");
  free(text);
}

static void b_hex(struct bytes *b, const char *hex, size_t n)
{
  uint8_t raw[64];

  unhex(hex, raw, n);
  b_put(b, raw, n);
}

/* The signed bytes of an export document, from the documented layout. */
static void signed_bytes(const json_t *doc, struct bytes *b)
{
  const json_t *seat;
  const json_t *seed = json_object_get(doc, "seed");
  uint8_t raw_seed[HASH];
  size_t i;

  b->n = 0;
  b_put(b, "cairn-export-sig-2", strlen("cairn-export-sig-2"));
  b_str(b, harness_str(doc, "format"));
  b_str(b, harness_str(doc, "id"));
  b_str(b, harness_str(doc, "title"));
  b_str(b, harness_str(doc, "rules_version"));
  b_json(b, json_object_get(doc, "options"));
  b_u64(b, (uint64_t)harness_int(doc, "created_ms"));
  b_str(b, harness_str(doc, "status"));
  b_u64(b, json_array_size(json_object_get(doc, "seats")));
  json_array_foreach(json_object_get(doc, "seats"), i, seat)
  {
    const json_t *player = json_object_get(seat, "player");

    b_str(b, json_is_object(player) ? harness_str(player, "id") : "");
    b_str(b, json_is_object(player) ? harness_str(player, "name") : "");
  }
  b_hex(b, harness_str(doc, "seed_commitment"), HASH);
  if (seed && !json_is_null(seed)) {
    unhex(json_string_value(seed), raw_seed, HASH);
    b_u64(b, HASH);
    b_put(b, raw_seed, HASH);
  } else {
    b_u64(b, 0);
  }
  b_json(b, json_object_get(doc, "result"));
  b_hex(b, harness_str(doc, "log_head"), HASH);
  b_u64(b, (uint64_t)harness_int(doc, "chain_format"));
}

static void set_hex(json_t *doc, const char *name, const uint8_t *bytes, size_t n)
{
  char hex[129];

  sodium_bin2hex(hex, sizeof hex, bytes, n);
  json_object_set_new(doc, name, json_string(hex));
}

/* Give a finished export a new id, recomputing everything anyone can
 * recompute once the seed is out (seed commitment, chain, log_head), and
 * put `victim` in seat 0: the forgery the old server accepted. */
static void forge(json_t *doc, const char *new_id, const struct harness_player *victim)
{
  uint8_t seed[HASH], k[HASH], prev[HASH] = {0};
  crypto_generichash_state h;
  json_t *entry;
  size_t i;

  unhex(harness_str(doc, "seed"), seed, HASH);
  json_object_set_new(doc, "id", json_string(new_id));
  crypto_generichash_init(&h, NULL, 0, HASH);
  crypto_generichash_update(&h, seed, HASH);
  crypto_generichash_update(&h, (const uint8_t *)new_id, strlen(new_id));
  crypto_generichash_final(&h, prev, HASH);
  set_hex(doc, "seed_commitment", prev, HASH);
  memset(prev, 0, HASH);
  commit_key(seed, new_id, k);
  json_array_foreach(json_object_get(doc, "moves"), i, entry)
  {
    struct row row;

    read_row(entry, &row);
    hash_v2(k, prev, new_id, &row, prev);
    set_hex(entry, "hash", prev, HASH);
    free_row(&row);
  }
  set_hex(doc, "log_head", prev, HASH);
  json_object_set_new(json_object_get(json_array_get(json_object_get(doc, "seats"), 0), "player"),
                      "id", json_string(victim->id));
  json_object_set_new(json_object_get(json_array_get(json_object_get(doc, "seats"), 0), "player"),
                      "name", json_string(victim->name));
}

static json_t *import(struct harness_server *s, const char *token, const json_t *doc, long status)
{
  struct harness_response r;
  json_t *j;

  harness_call_json(s, &r, "POST", token, doc, "/v1/games/import");
  HARNESS_EXPECT_JSON(&r, status);
  j = json_incref(r.json);
  harness_response_free(&r);
  return j;
}

static bool in_my_games(struct harness_server *s, const struct harness_player *p, const char *id)
{
  json_t *mine = harness_get_json(s, p->token, "/v1/players/me/games");
  const json_t *g;
  size_t i;
  bool found = false;

  json_array_foreach(json_object_get(mine, "games"), i, g)
  {
    found = found || strcmp(harness_str(g, "id"), id) == 0;
  }
  json_decref(mine);
  return found;
}

/* The imported game: unlinked, absent from the victim's games, and its
 * signature judged `verdict`. */
static void expect_unlinked(struct harness_server *s, const json_t *game,
                            const struct harness_player *victim, const char *verdict,
                            const char *signer)
{
  const char *id = harness_str(game, "id");
  const json_t *seat0 =
      json_object_get(json_array_get(json_object_get(game, "seats"), 0), "player");
  json_t *report;

  assert_true(json_is_true(json_object_get(game, "imported")));
  assert_true(json_is_null(json_object_get(seat0, "id")));
  assert_string_equal(harness_str(seat0, "name"), victim->name);
  if (signer)
    assert_string_equal(harness_str(game, "signer"), signer);
  else
    assert_true(json_is_null(json_object_get(game, "signer")));
  assert_false(in_my_games(s, victim, id));
  report = verify_of(s, id);
  assert_true(json_is_true(json_object_get(report, "imported")));
  assert_string_equal(harness_str(json_object_get(report, "signer"), "signature"), verdict);
  assert_true(json_is_false(json_object_get(json_object_get(report, "signer"), "this_server")) ||
              strcmp(verdict, "bad") == 0);
  json_decref(report);
}

static void test_a_forged_import_cannot_claim_another_players_seat(void **state)
{
  struct harness_server *s = *state;
  struct harness_player players[3], victim, forger;
  uint8_t pk[32], sk[64], sig[64];
  struct bytes *b = malloc(sizeof *b);
  char id[64], pk_hex[65];
  json_t *doc, *game, *key;

  assert_non_null(b);
  harness_play_random(s, "himalaya", 3, "{}", 41, players, id);
  harness_new_player(s, "Victim", &victim);
  harness_new_player(s, "Forger", &forger);
  key = harness_get_json(s, NULL, "/v1/server-key");
  assert_string_equal(harness_str(key, "algorithm"), "ed25519");

  /* The server's own export verifies as its own, and conflicts on import. */
  doc = export_of(s, NULL, id);
  assert_string_equal(harness_str(doc, "server_key"), harness_str(key, "public_key"));
  signed_bytes(doc, b);
  unhex(harness_str(doc, "signature"), sig, 64);
  unhex(harness_str(doc, "server_key"), pk, 32);
  assert_int_equal(crypto_sign_verify_detached(sig, b->p, b->n, pk), 0);
  {
    struct harness_response r;

    harness_call_json(s, &r, "POST", forger.token, doc, "/v1/games/import");
    HARNESS_EXPECT_PROBLEM(&r, 409, "game-exists");
    harness_response_free(&r);
  }

  /* New id, the victim in seat 0, the old signature left on: bad. */
  forge(doc, "forged1", &victim);
  game = import(s, forger.token, doc, 201);
  expect_unlinked(s, game, &victim, "bad", NULL);
  json_decref(game);
  /* Offline too: the signature no longer checks, so the record fails. */
  {
    char path[400], args[480];
    json_t *report = NULL;

    snprintf(path, sizeof path, "%s/forged.json", s->dir);
    assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
    snprintf(args, sizeof args, "verify %s", path);
    assert_int_equal(harness_run_tool(args, &report), 1);
    assert_string_equal(harness_str(json_object_get(report, "signer"), "signature"), "bad");
    assert_true(json_is_true(json_object_get(json_object_get(report, "chain"), "ok")));
    json_decref(report);
  }

  /* The same with the signature removed: absent. */
  forge(doc, "forged2", &victim);
  json_object_set_new(doc, "server_key", json_null());
  json_object_set_new(doc, "signature", json_null());
  game = import(s, forger.token, doc, 201);
  expect_unlinked(s, game, &victim, "absent", NULL);
  json_decref(game);

  /* Re-signed with the forger's own key: a good signature, another signer. */
  forge(doc, "forged3", &victim);
  crypto_sign_keypair(pk, sk);
  set_hex(doc, "server_key", pk, 32);
  signed_bytes(doc, b);
  crypto_sign_detached(sig, NULL, b->p, b->n, sk);
  set_hex(doc, "signature", sig, 64);
  game = import(s, forger.token, doc, 201);
  sodium_bin2hex(pk_hex, sizeof pk_hex, pk, 32);
  expect_unlinked(s, game, &victim, "ok", pk_hex);
  json_decref(game);
  /* Its export is that document again: never re-signed by this server. */
  {
    json_t *again = export_of(s, NULL, "forged3");

    assert_true(json_equal(again, doc));
    json_decref(again);
  }
  json_decref(doc);
  json_decref(key);
  free(b);
}

/* A server holding the same key (a restored data directory) takes its own
 * export back with its players; the same export elsewhere is another
 * server's record. */
static void test_an_own_signed_export_imports_linked(void **state)
{
  struct harness_server *s = *state;
  struct harness_server other;
  struct harness_player players[3], importer;
  char id[64], cmd[1024];
  json_t *doc, *game;

  harness_play_random(s, "himalaya", 3, "{}", 42, players, id);
  doc = export_of(s, NULL, id);
  memset(&other, 0, sizeof other);
  harness_start(&other);
  harness_pause(&other);
  snprintf(cmd, sizeof cmd, "cp -p %s/server.key %s/server.key", s->dir, other.dir);
  assert_int_equal(system(cmd), 0);
  harness_resume(&other);
  harness_new_player(&other, "archivist", &importer);
  game = import(&other, importer.token, doc, 201);
  assert_true(json_is_false(json_object_get(game, "imported")));
  assert_string_equal(
      harness_str(json_object_get(json_array_get(json_object_get(game, "seats"), 1), "player"),
                  "id"),
      players[1].id);
  json_decref(game);
  json_decref(doc);
  assert_true(harness_stop(&other));
}

/* ---- 3. chain format 1 records still verify ---- */

/* A finished export rewritten as the old server wrote it: cairn-export-1,
 * format 1 hashes, no chain format, no signature. */
static void to_format_1(json_t *doc)
{
  const char *id = harness_str(doc, "id");
  uint8_t prev[HASH] = {0};
  json_t *entry;
  size_t i;

  json_array_foreach(json_object_get(doc, "moves"), i, entry)
  {
    struct row row;

    read_row(entry, &row);
    hash_v1(prev, id, &row, prev);
    set_hex(entry, "hash", prev, HASH);
    free_row(&row);
  }
  set_hex(doc, "log_head", prev, HASH);
  json_object_set_new(doc, "format", json_string("cairn-export-1"));
  json_object_del(doc, "chain_format");
  json_object_del(doc, "server_key");
  json_object_del(doc, "signature");
}

static void test_a_format_1_record_still_verifies(void **state)
{
  struct harness_server *s = *state;
  struct harness_server other;
  struct harness_player players[3], importer;
  char id[64], path[400], args[480];
  json_t *doc, *report = NULL, *game, *again;

  harness_play_random(s, "himalaya", 3, "{}", 43, players, id);
  doc = export_of(s, NULL, id);
  to_format_1(doc);
  snprintf(path, sizeof path, "%s/old.json", s->dir);
  assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
  snprintf(args, sizeof args, "verify %s", path);
  assert_int_equal(harness_run_tool(args, &report), 0);
  assert_true(json_is_true(json_object_get(json_object_get(report, "chain"), "ok")));
  assert_string_equal(harness_str(json_object_get(report, "signer"), "signature"), "absent");
  json_decref(report);

  memset(&other, 0, sizeof other);
  harness_start(&other);
  harness_new_player(&other, "archivist", &importer);
  game = import(&other, importer.token, doc, 201);
  assert_true(json_is_true(json_object_get(game, "imported")));
  json_decref(game);
  report = verify_of(&other, id);
  assert_true(json_is_true(json_object_get(report, "ok")));
  assert_true(json_is_true(json_object_get(json_object_get(report, "chain"), "ok")));
  json_decref(report);
  /* Stored in format 1, hashes as they were. */
  again = export_of(&other, NULL, id);
  assert_int_equal(harness_int(again, "chain_format"), 1);
  assert_string_equal(harness_str(again, "log_head"), harness_str(doc, "log_head"));
  json_decref(again);
  json_decref(doc);
  assert_true(harness_stop(&other));
}

/* ---- 4. file modes ---- */

static void expect_private(const char *dir, const char *name)
{
  char path[400];
  struct stat st;

  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (stat(path, &st) != 0)
    fail_msg("%s is missing", path);
  if ((st.st_mode & 077) != 0)
    fail_msg("%s has mode %03o", path, (unsigned)(st.st_mode & 0777));
}

static void test_database_files_and_key_are_private(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  json_t *key, *again;
  char path[400];
  /* The server keeps SQLite's WAL index in its own memory (unix-excl,
   * db/sqlite/internal.h), so it writes no -shm; an older server's is
   * closed up like the rest. */
  static const char *const files[] = {"cairn.db", "cairn.db-wal", "server.key", "cairn.db-shm"};
  size_t i;
  FILE *old_shm;

  harness_new_player(s, "Owner", &p);
  json_decref(harness_new_game(s, p.token, "himalaya", 2, NULL));
  for (i = 0; i < 3; i++)
    expect_private(s->dir, files[i]);
  snprintf(path, sizeof path, "%s/%s", s->dir, files[3]);
  assert_int_not_equal(access(path, F_OK), 0);
  key = harness_get_json(s, NULL, "/v1/server-key");

  /* Left readable by an older server: closed up at start, key kept. */
  harness_pause(s);
  old_shm = fopen(path, "w");
  assert_non_null(old_shm);
  fclose(old_shm);
  for (i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", s->dir, files[i]);
    chmod(path, 0644);
  }
  harness_resume(s);
  harness_new_player(s, "Later", &p);
  for (i = 0; i < 4; i++)
    expect_private(s->dir, files[i]);
  again = harness_get_json(s, NULL, "/v1/server-key");
  assert_true(json_equal(key, again));
  json_decref(key);
  json_decref(again);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_live_secret_plan_cannot_be_recovered_from_its_hash,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_live_private_draw_cannot_be_recovered_from_its_hash,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_forged_import_cannot_claim_another_players_seat,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_an_own_signed_export_imports_linked, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_format_1_record_still_verifies, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_database_files_and_key_are_private, harness_setup,
                                      harness_teardown),
  };
  int failed;

  if (sodium_init() < 0)
    return 1;
  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
