/*
 * support.c - shared helpers for the Himalaya tests (see support.h). Linked
 * into every test binary of this folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support.h"

struct engine_game *hs_new(int seats, int seed)
{
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  struct engine_setup setup = {.seats = seats, .options = NULL};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  bytes[0] = (uint8_t)seed;
  bytes[1] = (uint8_t)(seed >> 8);
  bytes[2] = (uint8_t)(seed >> 16);
  bytes[3] = (uint8_t)(seed >> 24);
  assert_int_equal(engine_new(&himalaya_module, &setup, bytes, &game, &err), CAIRN_OK);
  assert_non_null(game);
  return game;
}

struct himalaya_state *hs_state(struct engine_game *game)
{
  return (struct himalaya_state *)game;
}

void hs_sherpas(struct engine_game *game, int seat, int a, int b, int c, int d)
{
  int *s = hs_state(game)->seat[seat].sherpa;

  s[0] = a;
  s[1] = b;
  s[2] = c;
  s[3] = d;
}

void hs_pool(struct engine_game *game, const int *values, int n)
{
  struct himalaya_state *st = hs_state(game);
  int i;

  memset(st->pool, 0, sizeof(st->pool));
  for (i = 0; i < n; i++)
    st->pool[values[i]]++;
}

void hs_deck(struct engine_game *game, const int *cards, int n)
{
  struct himalaya_state *st = hs_state(game);

  memcpy(st->deck, cards, sizeof(int) * (size_t)n);
  st->deck_len = n;
}

void hs_clear(struct engine_game *game)
{
  struct himalaya_state *st = hs_state(game);
  int seat;

  for (seat = 0; seat < game->seats; seat++) {
    st->seat[seat].climber = 0;
    hs_sherpas(game, seat, 0, 0, 0, 0);
  }
  st->yeti = 39;
  st->current = 0;
}

int hs_own(struct engine_game *game, int seat, int field)
{
  return himalaya_own_sherpas_on(hs_state(game), seat, field);
}

int hs_is_legal(struct engine_game *game, int seat, const char *move)
{
  json_t *json = kit_parse(move);
  json_t *list = engine_legal_moves(game, seat);
  struct himalaya_move m;
  json_t *canon;
  json_t *item;
  size_t i;
  int found = 0;

  assert_int_equal(himalaya_move_parse(json, &m, NULL), CAIRN_OK);
  canon = himalaya_move_json(&m);
  json_array_foreach(list, i, item)
  {
    found = found || json_equal(item, canon);
  }
  json_decref(canon);
  json_decref(json);
  json_decref(list);
  return found;
}

/* `m` as it is and picking up each supply card at a high camp. */
static void append_with_restores(json_t *all, struct himalaya_move *m)
{
  int k;

  m->restore = false;
  json_array_append_new(all, himalaya_move_json(m));
  m->restore = true;
  for (k = 0; k < HIMALAYA_CARD_KINDS; k++) {
    m->restore_card = k;
    json_array_append_new(all, himalaya_move_json(m));
  }
  m->restore = false;
}

json_t *hs_candidates(void)
{
  json_t *all = json_array();
  struct himalaya_move m;
  int type, v, k, pawn, s, dir, ta;
  unsigned mask;

  memset(&m, 0, sizeof(m));
  m.type = HIMALAYA_MOVE_REROLL;
  json_array_append_new(all, himalaya_move_json(&m));
  for (type = HIMALAYA_MOVE_DIE; type <= HIMALAYA_MOVE_SUPPLY; type++)
    for (k = 0; k < (type == HIMALAYA_MOVE_DIE ? 1 : HIMALAYA_CARD_KINDS); k++)
      for (v = 1; v <= 6; v++)
        for (pawn = HIMALAYA_PAWN_NONE; pawn <= HIMALAYA_PAWN_SHERPA; pawn++) {
          memset(&m, 0, sizeof(m));
          m.type = (enum himalaya_move_type)type;
          m.card = k;
          m.value = v;
          m.pawn = (enum himalaya_pawn)pawn;
          if (pawn == HIMALAYA_PAWN_NONE && type == HIMALAYA_MOVE_SUPPLY)
            continue;
          if (pawn != HIMALAYA_PAWN_SHERPA) {
            append_with_restores(all, &m);
            continue;
          }
          for (s = 0; s < HIMALAYA_SHERPAS; s++)
            for (dir = 0; dir < 2; dir++)
              for (ta = 0; ta < 2; ta++)
                for (mask = 0; mask < (ta ? 16u : 1u); mask++) {
                  if (mask & (1u << s))
                    continue;
                  m.sherpa = s;
                  m.down = dir;
                  m.take_along = ta;
                  m.companions = mask;
                  append_with_restores(all, &m);
                }
        }
  return all;
}

int hs_listed(const json_t *list, const json_t *move)
{
  size_t i;
  const json_t *item;

  json_array_foreach(list, i, item)
  {
    if (json_equal(item, move))
      return 1;
  }
  return 0;
}

long hs_climbing_value(struct engine_game *game, int seat)
{
  const struct himalaya_state *st = hs_state(game);
  const struct himalaya_seat *p = &st->seat[seat];
  long value = st->end == HIMALAYA_END_SUMMIT && st->winner[seat] ? 1000000 : 0;
  int a, b;

  value += 100L * p->climber;
  for (a = 0; a < HIMALAYA_SHERPAS; a++) {
    value += p->sherpa[a];
    for (b = a + 1; b < HIMALAYA_SHERPAS; b++)
      if (p->sherpa[a] == p->sherpa[b] && p->sherpa[a] > p->climber &&
          p->sherpa[a] - p->climber <= 6)
        value += 30;
  }
  return value;
}
