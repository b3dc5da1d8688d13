/*
 * chainref.c - the documented hash chain, for tests (chainref.h). Integers
 * are 8 bytes little-endian; text(s) is u64(length) || s; labels are raw.
 */
#include "chainref.h"

#include <sodium.h>
#include <string.h>

static void put_u64(crypto_generichash_state *h, uint64_t v)
{
  uint8_t b[8];

  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  crypto_generichash_update(h, b, sizeof(b));
}

static void put_text(crypto_generichash_state *h, const char *text)
{
  put_u64(h, strlen(text));
  crypto_generichash_update(h, (const uint8_t *)text, strlen(text));
}

static void put_label(crypto_generichash_state *h, const char *label)
{
  crypto_generichash_update(h, (const uint8_t *)label, strlen(label));
}

static void put_fields(crypto_generichash_state *h, const uint8_t prev[CHAINREF_HASH],
                       const char *game_id, const struct chainref_row *r)
{
  crypto_generichash_update(h, prev, CHAINREF_HASH);
  put_text(h, game_id);
  put_u64(h, (uint64_t)r->ord);
  put_u64(h, (uint64_t)r->seq);
  put_u64(h, (uint64_t)r->seat);
  put_u64(h, (uint64_t)r->at_ms);
}

void chainref_hash_v1(const uint8_t prev[CHAINREF_HASH], const char *game_id,
                      const struct chainref_row *r, uint8_t out[CHAINREF_HASH])
{
  crypto_generichash_state h;

  crypto_generichash_init(&h, NULL, 0, CHAINREF_HASH);
  put_label(&h, "cairn-log-1");
  put_fields(&h, prev, game_id, r);
  put_text(&h, r->move);
  put_text(&h, r->events);
  crypto_generichash_final(&h, out, CHAINREF_HASH);
}

void chainref_commit_key(const uint8_t *seed, size_t seed_len, const char *game_id,
                         uint8_t out[CHAINREF_HASH])
{
  crypto_generichash_state h;

  crypto_generichash_init(&h, seed, seed_len, CHAINREF_HASH);
  put_label(&h, "cairn-commit-key-2");
  put_text(&h, game_id);
  crypto_generichash_final(&h, out, CHAINREF_HASH);
}

static void commit(const uint8_t *key, const char *label, const char *text,
                   uint8_t out[CHAINREF_HASH])
{
  crypto_generichash_state h;

  crypto_generichash_init(&h, key, key ? CHAINREF_HASH : 0, CHAINREF_HASH);
  put_label(&h, label);
  put_text(&h, text);
  crypto_generichash_final(&h, out, CHAINREF_HASH);
}

void chainref_hash_v2(const uint8_t *key, const uint8_t prev[CHAINREF_HASH], const char *game_id,
                      const struct chainref_row *r, uint8_t out[CHAINREF_HASH])
{
  crypto_generichash_state h;
  uint8_t c_move[CHAINREF_HASH], c_events[CHAINREF_HASH];

  commit(key, "move", r->move, c_move);
  commit(key, "events", r->events, c_events);
  crypto_generichash_init(&h, NULL, 0, CHAINREF_HASH);
  put_label(&h, "cairn-log-2");
  put_fields(&h, prev, game_id, r);
  crypto_generichash_update(&h, c_move, CHAINREF_HASH);
  crypto_generichash_update(&h, c_events, CHAINREF_HASH);
  crypto_generichash_final(&h, out, CHAINREF_HASH);
}
