/*
 * fuzz_replay.c - libFuzzer harness: a replay's two ways of stepping a
 * stored move (engine.h). engine_replay_text reads the move's text with the
 * title's own reader (replay_text) when it has one, or jr_parse; the
 * reference is the tree json_loadb reads, stepped by engine_replay_step.
 * Both must answer alike, with the same state after an accepted move:
 * an imported game's log is a client's text, replayed by the audit, and
 * a reader that took a move the rules refuse, or applied it otherwise,
 * would let a forged record through.
 *
 * Input: the position head (position.h), then the move's text. With flags
 * bit 0 and an object for text, the object's members are written over a
 * sampled legal move and the result, compact and key-sorted as the log
 * stores it, is the text: random bytes alone rarely make a legal move.
 *
 * Build and run: `make fuzz`; `make test` runs a short pass. Seeds:
 * tests/fuzz/corpus/fuzz_replay/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jsonr.h"
#include "position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* OUT, caller frees: the text both ways are given. */
static char *move_text(const struct engine_game *game, const uint8_t *text, size_t len,
                       const struct fuzz_head *head)
{
  json_t *given, *sampled;
  char *out;
  int seats[ENGINE_MAX_SEATS];

  if (head->flags & 1) {
    given = json_loadb((const char *)text, len, 0, NULL);
    sampled = engine_to_act(game, seats) > 0
                  ? engine_sample_move(game, seats[0], head->seed ^ head->play)
                  : NULL;
    if (json_is_object(given) && json_is_object(sampled)) {
      json_object_update(sampled, given);
      out = json_dumps(sampled, JSON_COMPACT | JSON_SORT_KEYS);
      json_decref(given);
      json_decref(sampled);
      return out;
    }
    json_decref(given);
    json_decref(sampled);
  }
  out = malloc(len + 1);
  if (out) {
    memcpy(out, text, len);
    out[len] = '\0';
  }
  return out;
}

static void compare_ways(const struct engine_game *game, int seat, const char *text)
{
  struct engine_game *by_text = engine_clone(game), *by_tree = engine_clone(game);
  struct cairn_error e1 = {0}, e2 = {0};
  json_t *tree = json_loadb(text, strlen(text), 0, NULL);
  enum cairn_status s1, s2;

  s1 = engine_replay_text(by_text, seat, text, strlen(text), &e1);
  s2 = json_is_object(tree) ? engine_replay_step(by_tree, seat, tree, &e2) : CAIRN_EINVAL;
  if ((s1 == CAIRN_OK) != (s2 == CAIRN_OK))
    fuzz_die("seat %d, move %s: read as text %s (%s), as a tree %s (%s)", seat, text,
             s1 == CAIRN_OK ? "accepted" : "refused", e1.detail,
             s2 == CAIRN_OK ? "accepted" : "refused", e2.detail);
  if (s1 == CAIRN_OK) {
    char *a = engine_serialize_text(by_text), *b = engine_serialize_text(by_tree);

    if (!a || !b || strcmp(a, b) != 0)
      fuzz_die("seat %d, move %s: the two ways reach different states", seat, text);
    free(a);
    free(b);
  }
  json_decref(tree);
  engine_free(by_text);
  engine_free(by_tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const struct engine_module *const *m;
  const uint8_t *text;
  size_t text_len;
  struct fuzz_head head = fuzz_head_read(data, size, &text, &text_len);

  for (m = engine_modules(); *m; m++) {
    struct engine_game *game = fuzz_position(*m, &head);
    char *move = move_text(game, text, text_len, &head);
    int seat;

    for (seat = 0; move && seat < game->seats; seat++)
      compare_ways(game, seat, move);
    free(move);
    engine_free(game);
  }
  return 0;
}
