/*
 * module.c - the Himalaya module struct and the thin glue between the
 * engine interface and the rules files: freeing, cloning, whose turn it is,
 * and turning a move object into a call to the turn flow in dice.c.
 */
#include "engine/himalaya/state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

const char *himalaya_unknown_key(const json_t *obj, bool (*known)(const void *ctx, const char *key),
                                 const void *ctx)
{
  const char *key;
  const char *smallest = NULL;
  const json_t *value;

  json_object_foreach((json_t *)obj, key, value)
  {
    (void)value;
    if ((!known || !known(ctx, key)) && (!smallest || strcmp(key, smallest) < 0))
      smallest = key;
  }
  return smallest;
}

static int to_act(const struct engine_game *game, int seats[ENGINE_MAX_SEATS])
{
  const struct himalaya_state *st = (const struct himalaya_state *)game;

  if (st->end != HIMALAYA_RUNNING)
    return 0;
  seats[0] = st->current;
  return 1;
}

/* Names beside ids (the platform's event convention): every field number
 * an event gives as "from", "to" or "camp" gets a sibling "<key>_name" a
 * player reads ("High Camp I", "field 12"). Done here, once for the
 * events of a whole move, so no event type can miss it. Seats and Sherpas
 * have no names in Himalaya; cards are named already ("3/4", "up 3"). */
static enum cairn_status name_fields(json_t *events, size_t first, struct cairn_error *err)
{
  static const char keys[][2][10] = {
      {"from", "from_name"}, {"to", "to_name"}, {"camp", "camp_name"}};
  size_t i, k;

  for (i = first; i < json_array_size(events); i++) {
    json_t *event = json_array_get(events, i);

    for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
      json_t *field = json_object_get(event, keys[k][0]);

      if (!json_is_integer(field))
        continue;
      if (json_object_set_new(event, keys[k][1],
                              himalaya_field_name((int)json_integer_value(field))) != 0)
        return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                          "out of memory while naming an event's fields");
    }
  }
  return CAIRN_OK;
}

static enum cairn_status apply_move(struct engine_game *game, int seat, const json_t *move,
                                    json_t *events, bool *pending, struct cairn_error *err)
{
  struct himalaya_state *st = (struct himalaya_state *)game;
  size_t first = json_array_size(events);
  struct himalaya_move m;
  enum cairn_status status;

  assert(seat == st->current && st->end == HIMALAYA_RUNNING);
  *pending = false; /* Himalaya has no simultaneous decisions */
  status = himalaya_move_parse(move, &m, err);
  if (status == CAIRN_OK)
    status = himalaya_play(st, seat, &m, events, err);
  if (status != CAIRN_OK || !events)
    return status;
  return name_fields(events, first, err);
}

/* Throws and the Yeti stack (shuffled ahead, so a card is drawn without the
 * generator) are the only hidden things; everything else is public. */
static bool event_reveals(const json_t *event)
{
  static const char *const reveal[] = {"dice_rolled", "deck_reshuffled", "yeti_card", NULL};

  return engine_event_is(event, reveal);
}

const struct engine_module himalaya_module = {
    .version = ENGINE_MODULE_VERSION,
    .id = "himalaya",
    .name = "Himalaya",
    .min_seats = HIMALAYA_MIN_SEATS,
    .max_seats = HIMALAYA_MAX_SEATS,
    .rules_version = "himalaya-2",
    .options_json = "{}",
    .state_size = sizeof(struct himalaya_state),
    .new_game = himalaya_new_game,
    .apply_move = apply_move,
    .to_act = to_act,
    .result = himalaya_result,
    .serialize = himalaya_serialize,
    .sample_move = himalaya_sample_move,
    .event_reveals = event_reveals,
    .write_legal = himalaya_write_legal,
    .write_choices = himalaya_write_choices,
    .write_view = himalaya_write_view,
    .determinize = himalaya_determinize,
};
