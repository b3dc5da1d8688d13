/*
 * end.c - Game End: the summit win, the Bad Weather verdict (closest to the
 * top, with our tie rule) and the result object. When Bad Weather is drawn
 * is yeti.c's business.
 */
#include "engine/himalaya/state.h"

#include <assert.h>

json_t *himalaya_winners_json(const struct himalaya_state *st)
{
  json_t *list = json_array();
  int seat;

  for (seat = 0; list && seat < st->head.seats; seat++)
    if (st->winner[seat] && json_array_append_new(list, json_integer(seat)) != 0) {
      json_decref(list);
      list = NULL;
    }
  return list;
}

static const char *reason_name(enum himalaya_end end)
{
  return end == HIMALAYA_END_SUMMIT ? "summit" : "bad-weather";
}

static enum cairn_status game_over(struct himalaya_state *st, json_t *events,
                                   struct cairn_error *err)
{
  return engine_emit(events,
                     json_pack("{s:s, s:s, s:o}", "type", "game_over", "reason",
                               reason_name(st->end), "winners", himalaya_winners_json(st)),
                     err);
}

/* "As soon as a mountain climber reaches the summit space (goal), the game
 * ends and this player has won." */
enum cairn_status himalaya_summit(struct himalaya_state *st, int seat, json_t *events,
                                  struct cairn_error *err)
{
  st->end = HIMALAYA_END_SUMMIT;
  st->winner[seat] = true;
  return game_over(st, events, err);
}

static int sherpa_sum(const struct himalaya_seat *p)
{
  int s, sum = 0;

  for (s = 0; s < HIMALAYA_SHERPAS; s++)
    sum += p->sherpa[s];
  return sum;
}

/* "The game finishes prematurely as soon as the bad weather card is
 * uncovered from the Yeti card deck. The player whose mountain climber is
 * closest to the top wins in this case." Climbers share a field only at
 * base camp; such ties go to the higher sum of Sherpa fields, and a tie
 * after that is a shared win (RULES.md "Bad weather ties"). */
enum cairn_status himalaya_bad_weather(struct himalaya_state *st, json_t *events,
                                       struct cairn_error *err)
{
  int best_field = -1, best_sum = -1;
  int seat;

  for (seat = 0; seat < st->head.seats; seat++) {
    const struct himalaya_seat *p = &st->seat[seat];
    int sum = sherpa_sum(p);

    if (p->climber > best_field || (p->climber == best_field && sum > best_sum)) {
      best_field = p->climber;
      best_sum = sum;
    }
  }
  for (seat = 0; seat < st->head.seats; seat++)
    st->winner[seat] =
        st->seat[seat].climber == best_field && sherpa_sum(&st->seat[seat]) == best_sum;
  st->end = HIMALAYA_END_BAD_WEATHER;
  return game_over(st, events, err);
}

json_t *himalaya_result(const struct engine_game *game)
{
  const struct himalaya_state *st = (const struct himalaya_state *)game;
  int fields[HIMALAYA_MAX_SEATS];
  int seat;

  if (st->end == HIMALAYA_RUNNING)
    return NULL;
  for (seat = 0; seat < st->head.seats; seat++)
    fields[seat] = st->seat[seat].climber;
  assert(st->end == HIMALAYA_END_SUMMIT || st->end == HIMALAYA_END_BAD_WEATHER);
  return json_pack("{s:o, s:s, s:o}", "winners", himalaya_winners_json(st), "reason",
                   reason_name(st->end), "climbers", engine_int_list(fields, st->head.seats));
}
