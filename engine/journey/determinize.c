/*
 * determinize.c - a running game rebuilt from what one seat sees (the
 * determinize slot), for bots that must not peek. Public in every view:
 * the climbers, the Yeti, the Mountain's counts, discard pile, removed and
 * played cards, the reaction in progress. Hidden, and sampled from the
 * caller's generator: the Mountain's hand (from a climber's seat: a
 * uniform draw of hand_size cards from those not face up or removed), the
 * deck order (from every seat), the other climber's Forecast snapshot
 * (left unseen: it changes no rule, only that climber's view), and an
 * Avalanche answer already given by the other climber (one of the answers
 * its equipment allows, uniformly). The generator of the sample is fresh.
 */
#include "engine/journey/state.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"buy", "climbers", "mountain", "reaction"};

/* counts[] from an object {name: count}, names read by `named`. */
static void read_counts(struct engine_view_reader *r, const json_t *obj, int *counts, int n,
                        int (*named)(const char *))
{
  const char *key;
  json_t *v;

  memset(counts, 0, sizeof(int) * (size_t)n);
  if (!json_is_object(obj)) {
    r->bad = true;
    return;
  }
  json_object_foreach((json_t *)obj, key, v)
  {
    int i = named(key);

    if (i < 0 || i >= n)
      r->bad = true;
    else
      counts[i] = engine_vr_int(r, v, NULL, 1, JOURNEY_DECK_SIZE);
  }
}

/* A space by name (null: `none`). */
static int read_space(struct engine_view_reader *r, const json_t *obj, const char *key, int none)
{
  const json_t *v = json_object_get(obj, key);
  int space;

  if (json_is_null(v))
    return none;
  space = json_is_string(v) ? journey_space_named(json_string_value(v)) : -1;
  if (space < 0)
    r->bad = true;
  return space < 0 ? 0 : space;
}

static void read_climber(struct engine_view_reader *r, const json_t *v, int phase,
                         struct journey_climber *p)
{
  p->space = read_space(r, v, "space", 0);
  p->health = engine_vr_int(r, v, "health", 0, JOURNEY_HEALTH);
  p->money = engine_vr_int(r, v, "money", 0, JOURNEY_MONEY_MAX);
  read_counts(r, json_object_get(v, "equipment"), p->items, JOURNEY_ITEMS, journey_item_named);
  p->actions = engine_vr_int(r, v, "actions_left", 0, 3);
  if (phase != JOURNEY_PHASE_CLIMB && p->actions != 0)
    r->bad = true;
  p->done = engine_vr_bool(r, v, "done");
  p->cannot_move = engine_vr_bool(r, v, "cannot_move");
  p->no_equipment = engine_vr_bool(r, v, "no_equipment");
  p->next_cannot_move = engine_vr_bool(r, v, "cannot_move_next_turn");
  p->next_no_equipment = engine_vr_bool(r, v, "no_equipment_next_turn");
  p->in_crevice = engine_vr_bool(r, v, "in_crevice");
  p->summited = engine_vr_bool(r, v, "summited");
  p->tent = read_space(r, v, "tent_pitched", -1);
  p->choosing = engine_vr_bool(r, v, "choosing_forecast");
  p->must_react = engine_vr_bool(r, v, "must_answer");
}

/* A climber's own Forecast snapshot, as its view shows it. */
static void read_forecast(struct engine_view_reader *r, const json_t *v, struct journey_climber *p)
{
  if (json_is_null(v))
    return;
  p->forecast_seen = true;
  p->forecast_turn = engine_vr_int(r, v, "turn", 1, 1 << 30);
  read_counts(r, json_object_get(v, "hand"), p->forecast_hand, JOURNEY_CARDS, journey_card_named);
}

static void read_mountain(struct engine_view_reader *r, const json_t *m, struct journey_state *st)
{
  const json_t *played = engine_vr_array(r, m, "played", JOURNEY_DECK_SIZE);
  size_t i;

  read_counts(r, json_object_get(m, "discard"), st->discard, JOURNEY_CARDS, journey_card_named);
  read_counts(r, json_object_get(m, "removed"), st->removed, JOURNEY_CARDS, journey_card_named);
  st->credit = engine_vr_int(r, m, "credit", 0, 1 << 20);
  for (i = 0; i < json_array_size(played); i++) {
    const json_t *name = json_array_get(played, i);
    int card = json_is_string(name) ? journey_card_named(json_string_value(name)) : -1;

    if (card < 0)
      r->bad = true;
    else
      st->played[st->played_len++] = card;
  }
}

static void read_yeti(struct engine_view_reader *r, const json_t *v, struct journey_state *st)
{
  if (json_is_null(v))
    return;
  st->yeti_level = engine_vr_int(r, v, "level", 1, JOURNEY_LEVELS);
  st->yeti_health = engine_vr_int(r, v, "health", 0, JOURNEY_YETI_HEALTH);
  st->yeti_acted = engine_vr_bool(r, v, "moved_this_turn");
}

/* The reaction in progress: who was asked and who answered follow from the
 * card, the quadrant and the climbers' equipment; an answer given is
 * hidden, so it is drawn from those the climber's equipment allows. */
static void read_reaction(struct engine_view_reader *r, const json_t *v, struct engine_rng *rng,
                          int seat, struct journey_state *st)
{
  const char *card;
  int c;

  if (json_is_null(v)) {
    if (st->phase == JOURNEY_PHASE_REACT)
      r->bad = true;
    return;
  }
  card = engine_vr_string(r, v, "card");
  st->react_card = strcmp(card, "avalanche") == 0 ? JOURNEY_AVALANCHE : JOURNEY_ROCKSLIDE;
  if (st->react_card != JOURNEY_AVALANCHE)
    return;
  st->react_quadrant = journey_quadrant_named(engine_vr_string(r, v, "quadrant"));
  if (st->react_quadrant < 0) {
    r->bad = true;
    return;
  }
  for (c = 0; c < JOURNEY_CLIMBERS; c++) {
    struct journey_climber *p = &st->climber[c];
    bool asked = journey_quadrant(p->space) == st->react_quadrant && p->items[JOURNEY_HOOK] > 0;

    if (!asked || p->must_react)
      continue;
    p->must_react = p->reacted = true;            /* asked, and answered already */
    p->protect = c == seat ? JOURNEY_PROTECT_NONE /* not hidden from itself: unreachable */
                           : (int)engine_rng_below(rng, p->items[JOURNEY_ROPE] > 0 ? 3 : 2);
  }
}

/* The Mountain's hand (when `known` is NULL, drawn from the unseen cards)
 * and the deck: the unseen cards in an order drawn from `rng`. */
static void sample_cards(struct engine_view_reader *r, const json_t *mountain, const int *known,
                         struct engine_rng *rng, struct journey_state *st)
{
  int unseen[JOURNEY_DECK_SIZE], n = 0, card, i;
  int hand_size = engine_vr_int(r, mountain, "hand_size", 0, JOURNEY_DECK_SIZE);
  int deck_size = engine_vr_int(r, mountain, "deck_size", 0, JOURNEY_DECK_SIZE);

  for (card = 0; card < JOURNEY_CARDS && !r->bad; card++) {
    int left = journey_card_count(card) - st->discard[card] - st->removed[card] -
               (known ? known[card] : 0);

    if (left < 0)
      r->bad = true;
    for (i = 0; i < left && !r->bad; i++)
      unseen[n++] = card;
  }
  if (r->bad || n != deck_size + (known ? 0 : hand_size)) {
    r->bad = true;
    return;
  }
  engine_rng_shuffle(rng, unseen, n);
  if (known)
    memcpy(st->hand, known, sizeof(st->hand));
  else
    for (i = 0; i < hand_size; i++)
      st->hand[unseen[n - 1 - i]]++;
  memcpy(st->deck, unseen, sizeof(int) * (size_t)deck_size);
  st->deck_len = deck_size;
}

enum cairn_status journey_determinize(const char *text, size_t len, const json_t *options, int seat,
                                      struct engine_rng *rng, struct engine_game *game,
                                      struct cairn_error *err)
{
  struct journey_state *st = (struct journey_state *)game;
  struct engine_view_reader r = {0};
  json_t *view = json_loadb(text, len, 0, NULL);
  const json_t *climbers, *mountain;
  int hand[JOURNEY_CARDS], c;

  if (!json_is_object(view) || !json_is_null(json_object_get(view, "result"))) {
    r.bad = true; /* bots decide only in running games */
    snprintf(r.what, sizeof(r.what), "result");
  }
  st->phase = (enum journey_phase)engine_vr_name(&r, view, "phase", phase_names, 4);
  st->end = JOURNEY_RUNNING;
  st->dead = -1;
  st->turn = engine_vr_int(&r, view, "turn", 0, 1 << 30);
  st->turn_limit = (int)engine_option_int(game->module, options, "turn_limit");
  climbers = engine_vr_array(&r, view, "climbers", JOURNEY_CLIMBERS);
  if (json_array_size(climbers) != JOURNEY_CLIMBERS)
    r.bad = true;
  for (c = 0; c < JOURNEY_CLIMBERS && !r.bad; c++)
    read_climber(&r, json_array_get(climbers, (size_t)c), st->phase, &st->climber[c]);
  if (seat != JOURNEY_MOUNTAIN && !r.bad)
    read_forecast(&r, json_object_get(view, "forecast"), &st->climber[seat]);
  read_yeti(&r, json_object_get(view, "yeti"), st);
  mountain = json_object_get(view, "mountain");
  read_mountain(&r, mountain, st);
  if (!r.bad)
    read_reaction(&r, json_object_get(view, "reaction"), rng, seat, st);
  if (seat == JOURNEY_MOUNTAIN)
    read_counts(&r, json_object_get(view, "hand"), hand, JOURNEY_CARDS, journey_card_named);
  if (!r.bad)
    sample_cards(&r, mountain, seat == JOURNEY_MOUNTAIN ? hand : NULL, rng, st);
  engine_rng_fork(rng, &st->head.rng);
  json_decref(view);
  return engine_vr_status(&r, "journey", err);
}
