/*
 * chain.c - the hash chain over a game's move log, shared by every backend
 * (which stores it) and by verification (which recomputes it). It is the
 * one implementation of both formats; openapi/cairn.yaml documents the same
 * bytes so anyone can re-check an exported game without our code.
 *
 * Notation: u64(v) is v as 8 little-endian bytes; str(s) is u64(length of
 * s in bytes) followed by s; H(x) is BLAKE2b-256 of x with no key; H_k(x)
 * is BLAKE2b-256 of x keyed with k (libsodium crypto_generichash). prev is
 * the hash of row ord-1, or 32 zero bytes for ord 0.
 *
 * Format 1 (games created before migration 0008):
 *   hash = H("cairn-log-1" || prev || str(game_id) || u64(ord) || u64(seq) ||
 *            u64(seat) || u64(at_ms) || str(move_json) || str(events_json))
 * It hashes the row's content in the clear. Row hashes are public while the
 * game runs (log_head, live exports), so anyone could hash each candidate of
 * a secret move or a private draw and see which one matches: format 1 hides
 * nothing. Old games keep it so their stored hashes still verify.
 *
 * Format 2 (every game created since): the content enters the chain only
 * through commitments keyed with a per-game key derived from the secret seed,
 *   K        = H_seed("cairn-commit-key-2" || str(game_id))
 *   C_move   = H_K("move" || str(move_json))
 *   C_events = H_K("events" || str(events_json))
 *   hash     = H("cairn-log-2" || prev || str(game_id) || u64(ord) || u64(seq)
 *                || u64(seat) || u64(at_ms) || C_move || C_events)
 * While the game runs nobody but the server knows the seed, so a guess at a
 * row's content cannot be tested against its hash; once the game is
 * finished the seed is revealed and anyone can recompute K, every
 * commitment and the whole chain. The seed commitment H(seed || game_id) is
 * a different function of the seed (unkeyed, other bytes), so publishing it
 * gives K away no more than it gives the seed away.
 *
 * Every string is length-prefixed and every label differs in its first
 * bytes, so no two different rows can encode to the same bytes.
 */
#include "db.h"

#include <assert.h>
#include <sodium.h>
#include <string.h>

static void put_u64(crypto_generichash_state *h, uint64_t v)
{
  uint8_t b[8];
  int i;

  for (i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  crypto_generichash_update(h, b, sizeof(b));
}

static void put_text(crypto_generichash_state *h, const char *text)
{
  size_t n = strlen(text);

  put_u64(h, n);
  crypto_generichash_update(h, (const uint8_t *)text, n);
}

static void put_label(crypto_generichash_state *h, const char *label)
{
  crypto_generichash_update(h, (const uint8_t *)label, strlen(label));
}

void db_chain_init(struct db_chain *chain, int format, const char *game_id,
                   const uint8_t seed[ENGINE_SEED_BYTES])
{
  crypto_generichash_state h;

  assert(format == DB_CHAIN_FORMAT_1 || format == DB_CHAIN_FORMAT_2);
  memset(chain, 0, sizeof(*chain));
  chain->format = format;
  chain->game_id = game_id;
  if (format != DB_CHAIN_FORMAT_2 || !seed)
    return;
  crypto_generichash_init(&h, seed, ENGINE_SEED_BYTES, DB_HASH_BYTES);
  put_label(&h, "cairn-commit-key-2");
  put_text(&h, game_id);
  crypto_generichash_final(&h, chain->key, DB_HASH_BYTES);
  chain->has_key = true;
}

void db_chain_commit(const struct db_chain *chain, const char *label, const char *text,
                     uint8_t out[DB_HASH_BYTES])
{
  crypto_generichash_state h;

  assert(chain->has_key);
  crypto_generichash_init(&h, chain->key, DB_HASH_BYTES, DB_HASH_BYTES);
  put_label(&h, label);
  put_text(&h, text);
  crypto_generichash_final(&h, out, DB_HASH_BYTES);
}

static void hash_v1(const uint8_t prev[DB_HASH_BYTES], const char *game_id,
                    const struct db_move *move, uint8_t out[DB_HASH_BYTES])
{
  crypto_generichash_state h;

  crypto_generichash_init(&h, NULL, 0, DB_HASH_BYTES);
  put_label(&h, "cairn-log-1");
  crypto_generichash_update(&h, prev, DB_HASH_BYTES);
  put_text(&h, game_id);
  put_u64(&h, move->ord);
  put_u64(&h, move->seq);
  put_u64(&h, (uint64_t)move->seat);
  put_u64(&h, (uint64_t)move->at_ms);
  put_text(&h, move->move_json);
  put_text(&h, move->events_json);
  crypto_generichash_final(&h, out, DB_HASH_BYTES);
}

static void hash_v2(const struct db_chain *chain, const uint8_t prev[DB_HASH_BYTES],
                    const struct db_move *move, uint8_t out[DB_HASH_BYTES])
{
  crypto_generichash_state h;
  uint8_t c_move[DB_HASH_BYTES];
  uint8_t c_events[DB_HASH_BYTES];

  db_chain_commit(chain, "move", move->move_json, c_move);
  db_chain_commit(chain, "events", move->events_json, c_events);
  crypto_generichash_init(&h, NULL, 0, DB_HASH_BYTES);
  put_label(&h, "cairn-log-2");
  crypto_generichash_update(&h, prev, DB_HASH_BYTES);
  put_text(&h, chain->game_id);
  put_u64(&h, move->ord);
  put_u64(&h, move->seq);
  put_u64(&h, (uint64_t)move->seat);
  put_u64(&h, (uint64_t)move->at_ms);
  crypto_generichash_update(&h, c_move, DB_HASH_BYTES);
  crypto_generichash_update(&h, c_events, DB_HASH_BYTES);
  crypto_generichash_final(&h, out, DB_HASH_BYTES);
}

void db_chain_hash(const struct db_chain *chain, const uint8_t prev[DB_HASH_BYTES],
                   const struct db_move *move, uint8_t out[DB_HASH_BYTES])
{
  if (chain->format == DB_CHAIN_FORMAT_1)
    hash_v1(prev, chain->game_id, move, out);
  else
    hash_v2(chain, prev, move, out);
}
