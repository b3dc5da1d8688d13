/*
 * audit.c - judging a game's record (see audit.h). Three independent
 * checks, each naming the first row where it fails:
 *   chain       every stored hash equals db_chain_hash over its predecessor
 *               and its own content, in the game's own chain format, and
 *               ords are dense: an edited, removed or reordered row is
 *               caught at that row (format 2 needs the seed, so outside
 *               the server a live game's chain cannot be checked);
 *   commitment  the revealed seed hashes to the published commitment;
 *   replay      re-running every move from the seed through the current
 *               rules code gives the recorded seq and the recorded events,
 *               so every shuffle, roll and draw matches.
 */
#include "audit.h"

#include "fog.h"
#include "../engine/jsonr.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void game_seed_commitment(const uint8_t seed[ENGINE_SEED_BYTES], const char *game_id,
                          uint8_t out[32])
{
  crypto_generichash_state h;

  crypto_generichash_init(&h, NULL, 0, 32);
  crypto_generichash_update(&h, seed, ENGINE_SEED_BYTES);
  crypto_generichash_update(&h, (const uint8_t *)game_id, strlen(game_id));
  crypto_generichash_final(&h, out, 32);
}

/* New reference: {ok, first_bad_ord, problem}; ok is JSON null when the
 * check could not run. */
static json_t *verdict(int ok, long first_bad, const char *problem)
{
  return json_pack("{s:o, s:o, s:o}", "ok", ok < 0 ? json_null() : json_boolean(ok),
                   "first_bad_ord", first_bad < 0 ? json_null() : json_integer(first_bad),
                   "problem", problem ? json_string(problem) : json_null());
}

static json_t *check_chain(const struct game_audit_input *in, uint8_t head[32])
{
  uint8_t prev[DB_HASH_BYTES] = {0};
  uint8_t expected[DB_HASH_BYTES];
  struct db_chain chain;
  char problem[160];
  size_t i;

  if (in->chain_format != DB_CHAIN_FORMAT_1 && in->chain_format != DB_CHAIN_FORMAT_2)
    return verdict(0, -1, "unknown chain format");
  db_chain_init(&chain, in->chain_format, in->game_id, in->seed);
  if (in->chain_format == DB_CHAIN_FORMAT_2 && !chain.has_key)
    return verdict(-1, -1,
                   "a format 2 chain commits to each row under a key derived from the seed, "
                   "which is revealed only when the game is finished");
  for (i = 0; i < in->n_moves; i++) {
    const struct db_move *m = &in->moves[i];

    if (m->ord != i) {
      snprintf(problem, sizeof(problem),
               "row %zu carries ord %u: rows were removed or reordered before it", i, m->ord);
      return verdict(0, (long)i, problem);
    }
    if (!m->has_hash) {
      snprintf(problem, sizeof(problem), "row %zu has no hash", i);
      return verdict(0, (long)i, problem);
    }
    db_chain_hash(&chain, prev, m, expected);
    if (sodium_memcmp(expected, m->hash, DB_HASH_BYTES) != 0) {
      snprintf(problem, sizeof(problem),
               "row %zu does not match its hash: it was edited, or a row before it was "
               "removed or reordered",
               i);
      return verdict(0, (long)i, problem);
    }
    memcpy(prev, m->hash, DB_HASH_BYTES);
  }
  sodium_memzero(&chain, sizeof(chain));
  memcpy(head, prev, DB_HASH_BYTES);
  /* The head is what a signature covers: it must be this chain's. */
  if (in->log_head && sodium_memcmp(in->log_head, prev, DB_HASH_BYTES) != 0)
    return verdict(0, (long)in->n_moves,
                   "log_head is not the hash of the last row: rows were added or removed at "
                   "the end");
  return verdict(1, -1, NULL);
}

static json_t *check_commitment(const struct game_audit_input *in)
{
  uint8_t computed[32];

  if (!in->seed || !in->commitment)
    return verdict(-1, -1, "the seed is revealed only when the game is finished");
  game_seed_commitment(in->seed, in->game_id, computed);
  if (sodium_memcmp(computed, in->commitment, sizeof(computed)) != 0)
    return verdict(0, -1, "the seed does not hash to the published seed_commitment");
  return verdict(1, -1, NULL);
}

/* The state after the first `rows` rows of the record, for rewinds. */
static enum cairn_status record_prefix(void *arg, uint32_t rows, struct engine_game **out,
                                       struct cairn_error *err);

/* Re-run row `m` on *game. On success *game moves on; on failure `problem`
 * says why and *game is unchanged. */
static bool replay_row(const struct game_audit_input *in, struct engine_game **game,
                       const struct db_move *m, char *problem, size_t size)
{
  json_t *move = jr_parse(m->move_json, strlen(m->move_json));
  json_t *recorded = jr_parse(m->events_json, strlen(m->events_json));
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  bool ok = false;

  if (!move || !recorded) {
    snprintf(problem, size, "row %u holds unreadable JSON", m->ord);
    goto cleanup;
  }
  if (game_platform_move(move)) {
    next = engine_clone(*game);
    if (!next ||
        game_platform_apply(move, m, &next, &events, record_prefix, (void *)in, &err) != CAIRN_OK) {
      snprintf(problem, size, "row %u is a platform row that does not replay: %.200s", m->ord,
               err.detail);
      goto cleanup;
    }
  } else if (engine_apply(*game, m->seat, move, &next, &events, &err) != CAIRN_OK) {
    snprintf(problem, size, "row %u is refused by the rules: %.200s", m->ord, err.detail);
    goto cleanup;
  }
  if (next->seq != m->seq) {
    snprintf(problem, size, "row %u replays to seq %u, the record says %u", m->ord, next->seq,
             m->seq);
    goto cleanup;
  }
  if (!json_equal(events, recorded)) {
    snprintf(problem, size,
             "row %u replays to different events than recorded (a roll, shuffle or draw "
             "differs)",
             m->ord);
    goto cleanup;
  }
  engine_free(*game);
  *game = next;
  next = NULL;
  ok = true;
cleanup:
  engine_free(next);
  json_decref(events);
  json_decref(move);
  json_decref(recorded);
  return ok;
}

/* Replay the first `rows` rows; on failure `problem` names the row. */
static bool replay_prefix(const struct game_audit_input *in, size_t rows, struct engine_game **out,
                          long *bad, char *problem, size_t size)
{
  struct engine_setup setup = {.seats = in->seats, .options = in->options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};
  size_t i;

  *out = NULL;
  *bad = -1;
  if (engine_new(in->module, &setup, in->seed, &game, &err) != CAIRN_OK) {
    snprintf(problem, size, "the game cannot be set up: %s", err.detail);
    return false;
  }
  for (i = 0; i < rows && i < in->n_moves; i++) {
    if (!replay_row(in, &game, &in->moves[i], problem, size)) {
      engine_free(game);
      *bad = (long)i;
      return false;
    }
  }
  *out = game;
  return true;
}

static enum cairn_status record_prefix(void *arg, uint32_t rows, struct engine_game **out,
                                       struct cairn_error *err)
{
  char problem[300];
  long bad;

  if (!replay_prefix(arg, rows, out, &bad, problem, sizeof(problem)))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_BAD_RECORD, NULL, "%.200s", problem);
  return CAIRN_OK;
}

static json_t *check_replay(const struct game_audit_input *in)
{
  struct engine_game *game = NULL;
  char problem[300];
  long bad;

  if (!in->seed)
    return verdict(-1, -1, "the seed is revealed only when the game is finished");
  if (!replay_prefix(in, in->n_moves, &game, &bad, problem, sizeof(problem)))
    return verdict(0, bad, problem);
  if (in->result_out)
    *in->result_out = engine_result(game);
  engine_free(game);
  return verdict(1, -1, NULL);
}

json_t *game_audit_run(const struct game_audit_input *in)
{
  uint8_t head[32] = {0};
  char head_hex[65];
  json_t *chain = in->check_chain ? check_chain(in, head) : verdict(-1, -1, "no hashes given");
  json_t *commitment = check_commitment(in);
  json_t *replay = check_replay(in);
  bool ok = true;
  json_t *parts[] = {chain, commitment, replay};
  size_t i;

  for (i = 0; i < 3; i++)
    if (!parts[i] || json_is_false(json_object_get(parts[i], "ok")))
      ok = false;
  sodium_bin2hex(head_hex, sizeof(head_hex), head, sizeof(head));
  return json_pack("{s:b, s:I, s:s, s:o, s:o, s:o}", "ok", ok, "moves", (json_int_t)in->n_moves,
                   "log_head", head_hex, "chain", chain, "commitment", commitment, "replay",
                   replay);
}

enum cairn_status game_log_collect(void *arg, const struct db_move *move, struct cairn_error *err)
{
  struct game_log *log = arg;
  struct db_move *copy;

  if (log->n == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 64;
    struct db_move *grown = realloc(log->moves, cap * sizeof(*grown));

    if (!grown)
      return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    log->moves = grown;
    log->cap = cap;
  }
  copy = &log->moves[log->n];
  *copy = *move;
  copy->move_json = strdup(move->move_json);
  copy->events_json = strdup(move->events_json);
  log->n++;
  if (!copy->move_json || !copy->events_json)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  return CAIRN_OK;
}

void game_log_clear(struct game_log *log)
{
  size_t i;

  for (i = 0; i < log->n; i++) {
    free((char *)log->moves[i].move_json);
    free((char *)log->moves[i].events_json);
  }
  free(log->moves);
  memset(log, 0, sizeof(*log));
}
