/*
 * position.c - positions from fuzz input bytes and the checked application
 * of a move; see position.h for the promises checked.
 */
#include "position.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_die(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  fprintf(stderr, "fuzz: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  abort();
}

/* splitmix64: the choices come from the input, never from the game's own
 * generator, which the engine keeps to itself. */
static uint64_t next_choice(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct fuzz_head fuzz_head_read(const uint8_t *data, size_t size, const uint8_t **rest,
                                size_t *rest_len)
{
  uint8_t b[FUZZ_HEAD_BYTES] = {0};
  struct fuzz_head h;
  int i;

  memcpy(b, data, size < sizeof(b) ? size : sizeof(b));
  h.seats_byte = b[0];
  h.play = (unsigned)(b[1] | b[2] << 8) % (FUZZ_MAX_PLAY + 1);
  h.seed = 0;
  for (i = 0; i < 8; i++)
    h.seed |= (uint64_t)b[3 + i] << (8 * i);
  h.flags = b[11];
  *rest = size > sizeof(b) ? data + sizeof(b) : data + size;
  *rest_len = size > sizeof(b) ? size - sizeof(b) : 0;
  return h;
}

static void free_text(char *a, char *b)
{
  free(a);
  free(b);
}

/* The serialisation of `game`; out of memory is not a finding. */
static char *text_of(const struct engine_game *game)
{
  char *text = engine_serialize_text(game);

  if (!text)
    fuzz_die("engine_serialize_text returned NULL");
  return text;
}

/* Reaching a position costs up to FUZZ_MAX_PLAY sampled moves, while most
 * inputs libFuzzer tries differ from an earlier one only in the move text:
 * keep recent positions (a direct-mapped cache, harness-only state) and hand
 * out clones. A miss still plays every move, with every check. */
#define CACHE_SLOTS 1024

struct cached {
  const struct engine_module *m;
  struct fuzz_head head;
  struct engine_game *game; /* owned */
};

static struct cached cache[CACHE_SLOTS];

static bool same_head(const struct fuzz_head *a, const struct fuzz_head *b)
{
  return a->seats_byte == b->seats_byte && a->play == b->play && a->seed == b->seed;
}

static struct engine_game *play(const struct engine_module *m, const struct fuzz_head *head);

struct engine_game *fuzz_position(const struct engine_module *m, const struct fuzz_head *head)
{
  uint64_t key = head->seed ^ ((uint64_t)head->play << 20) ^ ((uint64_t)head->seats_byte << 40) ^
                 (uint64_t)(uintptr_t)m;
  struct cached *slot = &cache[(key ^ (key >> 29)) % CACHE_SLOTS];
  struct engine_game *game;

  if (slot->game && slot->m == m && same_head(&slot->head, head)) {
    game = engine_clone(slot->game);
    if (!game)
      fuzz_die("%s: engine_clone returned NULL", m->id);
    return game;
  }
  game = play(m, head);
  engine_free(slot->game);
  slot->m = m;
  slot->head = *head;
  slot->game = engine_clone(game);
  return game;
}

static struct engine_game *play(const struct engine_module *m, const struct fuzz_head *head)
{
  struct engine_setup setup = {.seats = m->min_seats +
                                        head->seats_byte % (m->max_seats - m->min_seats + 1),
                               .options = NULL};
  uint8_t seed[ENGINE_SEED_BYTES];
  uint64_t state = head->seed;
  struct engine_game *game = NULL;
  struct cairn_error err = {0};
  unsigned i;

  for (i = 0; i < ENGINE_SEED_BYTES; i += 8) {
    uint64_t v = next_choice(&state);

    memcpy(seed + i, &v, 8);
  }
  if (engine_new(m, &setup, seed, &game, &err) != CAIRN_OK)
    fuzz_die("%s refuses a %d-seat game with default options: %s", m->id, setup.seats, err.detail);
  for (i = 0; i < head->play && !engine_is_over(game); i++) {
    int seats[ENGINE_MAX_SEATS];
    int n = engine_to_act(game, seats);
    int seat;
    json_t *move;
    json_t *events = NULL;
    struct engine_game *next = NULL;

    if (n <= 0 || n > game->seats)
      fuzz_die("%s: a running game has %d seats to act", m->id, n);
    seat = seats[next_choice(&state) % (uint64_t)n];
    move = engine_sample_move(game, seat, next_choice(&state));
    if (!move)
      fuzz_die("%s: seat %d is to act but has no legal move (after %u moves)", m->id, seat, i);
    if (engine_apply(game, seat, move, &next, &events, &err) != CAIRN_OK) {
      char *text = json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS);

      fuzz_die("%s: a sampled legal move is refused (seat %d, after %u moves): %s: %s [%s]", m->id,
               seat, i, text ? text : "?", err.code ? err.code : "?", err.detail);
    }
    json_decref(move);
    json_decref(events);
    engine_free(game);
    game = next;
  }
  return game;
}

/* Every view and list a server would build for `game` must be buildable. */
static void exercise(const struct engine_game *game)
{
  const struct engine_module *m = game->module;
  int viewer;

  for (viewer = ENGINE_OMNISCIENT; viewer < game->seats; viewer++) {
    json_t *view = engine_view(game, viewer);
    json_t *legal = viewer >= 0 ? engine_legal_moves(game, viewer) : NULL;

    if (!view)
      fuzz_die("%s: view for %d is NULL", m->id, viewer);
    if (viewer >= 0 && !json_is_array(legal))
      fuzz_die("%s: legal_moves for %d is not an array", m->id, viewer);
    json_decref(view);
    json_decref(legal);
  }
  json_decref(engine_result(game));
}

/* One application of `move` for `seat`, with its checks. `expect_turn`:
 * the seat owes no decision, so only CAIRN_ETURN is acceptable. */
static void try_seat(const struct engine_game *game, int seat, const json_t *move, bool expect_turn)
{
  const struct engine_module *m = game->module;
  struct engine_game *next = NULL, *again = NULL;
  json_t *events = NULL, *events_again = NULL;
  struct cairn_error err = {0};
  struct cairn_error err_again = {0};
  char *before = text_of(game);
  char *after = NULL;
  enum cairn_status st = engine_apply(game, seat, move, &next, &events, &err);
  enum cairn_status st_again;
  char *stored = NULL;
  json_t *reread = NULL;

  after = text_of(game);
  if (strcmp(before, after) != 0)
    fuzz_die("%s: engine_apply changed the state it was given (seat %d, status %d)", m->id, seat,
             st);
  free(after);
  after = NULL;
  /* A finished game refuses every seated move as game-not-active. */
  if (expect_turn && st != CAIRN_ETURN && !(st == CAIRN_ECONFLICT && engine_is_over(game)))
    fuzz_die("%s: seat %d owes no decision, yet the move got status %d (%s)", m->id, seat, st,
             err.detail);
  if (st != CAIRN_OK) {
    if (next || events)
      fuzz_die("%s: a refused move left *next or *events set", m->id);
    if (err.status != st || !err.code)
      fuzz_die("%s: a refused move (status %d) has no error code", m->id, st);
    if (st == CAIRN_EILLEGAL && (!err.rule || strcmp(err.code, CAIRN_CODE_ILLEGAL_MOVE) != 0))
      fuzz_die("%s: an illegal move must name its rule (code %s, detail %s)", m->id, err.code,
               err.detail);
    if (st != CAIRN_EINVAL && st != CAIRN_EILLEGAL && st != CAIRN_ETURN && st != CAIRN_ENOMEM &&
        st != CAIRN_ECONFLICT)
      fuzz_die("%s: a move for seat %d failed with status %d (%s: %s)", m->id, seat, st, err.code,
               err.detail);
    free_text(before, after);
    return;
  }
  if (!next || !json_is_array(events))
    fuzz_die("%s: an accepted move gave no state or no events array", m->id);
  if (next->seq != game->seq && next->seq != game->seq + 1)
    fuzz_die("%s: a move took seq from %u to %u", m->id, game->seq, next->seq);
  /* The log stores the move as compact key-sorted text and replay parses
   * that text back (api/moves.c, api/audit.c): applied to the same state it
   * must give the same outcome, bit for bit. */
  stored = json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS);
  reread = stored ? json_loads(stored, 0, NULL) : NULL;
  if (!reread)
    fuzz_die("%s: an accepted move does not survive its stored text: %s", m->id,
             stored ? stored : "(dump failed)");
  st_again = engine_apply(game, seat, reread, &again, &events_again, &err_again);
  if (st_again != CAIRN_OK)
    fuzz_die("%s: the stored text of an accepted move is refused on replay: %s: %s", m->id, stored,
             err_again.detail);
  after = text_of(next);
  {
    char *second = text_of(again);
    struct engine_game *copy = engine_clone(next);
    char *cloned = copy ? text_of(copy) : NULL;

    if (strcmp(after, second) != 0 || !json_equal(events, events_again))
      fuzz_die("%s: the move and its stored text %s gave two different outcomes", m->id, stored);
    if (cloned && strcmp(after, cloned) != 0)
      fuzz_die("%s: a clone does not serialise like its original", m->id);
    free_text(second, cloned);
    engine_free(copy);
  }
  exercise(next);
  engine_free(next);
  engine_free(again);
  json_decref(events);
  json_decref(events_again);
  json_decref(reread);
  free(stored);
  free_text(before, after);
}

void fuzz_try_move(const struct engine_game *game, const json_t *move, uint8_t flags,
                   uint64_t choice)
{
  int acting[ENGINE_MAX_SEATS];
  int n = engine_to_act(game, acting);
  bool owes[ENGINE_MAX_SEATS] = {false};
  int seat, i;

  exercise(game);
  for (i = 0; i < n; i++)
    owes[acting[i]] = true;
  if (n > 0) {
    seat = acting[choice % (uint64_t)n];
    try_seat(game, seat, move, false);
    if ((flags & 1) && json_is_object(move)) {
      json_t *legal = engine_sample_move(game, seat, choice >> 8);
      json_t *merged = legal ? json_deep_copy(legal) : NULL;

      if (merged && json_object_update(merged, (json_t *)move) == 0)
        try_seat(game, seat, merged, false);
      json_decref(merged);
      json_decref(legal);
    }
  }
  /* Every seat that owes nothing, and the seats just outside the table. */
  for (seat = -1; seat <= game->seats; seat++)
    if (seat < 0 || seat >= game->seats || !owes[seat])
      try_seat(game, seat, move, true);
}
