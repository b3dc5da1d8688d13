/*
 * end.c - Game End: the summit win, the Bad Weather verdict (closest to the
 * top, with our tie rule) and the result object. When Bad Weather is drawn
 * is yeti.c's business.
 */
#include "engine/himalaya/state.h"

#include <assert.h>

/* The seats with winner[] set, ascending, written to seats[]; how many. */
static int winners(const struct himalaya_state *st, int seats[HIMALAYA_MAX_SEATS])
{
  int seat, n = 0;

  for (seat = 0; seat < st->head.seats; seat++)
    if (st->winner[seat])
      seats[n++] = seat;
  return n;
}

static const char *reason_name(enum himalaya_end end)
{
  return end == HIMALAYA_END_SUMMIT ? "summit" : "bad-weather";
}

static enum cairn_status game_over(struct himalaya_state *st, json_t *events,
                                   struct cairn_error *err)
{
  int seats[HIMALAYA_MAX_SEATS];
  int n = winners(st, seats);

  return ENGINE_EMIT(events, err, "{s:s, s:s, s:o}", "type", "game_over", "reason",
                     reason_name(st->end), "winners", engine_int_list(seats, n));
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

void himalaya_write_result(const struct himalaya_state *st, struct json_writer *w)
{
  int seats[HIMALAYA_MAX_SEATS];
  int n = winners(st, seats);
  int seat;

  if (st->end == HIMALAYA_RUNNING) {
    jw_null(w);
    return;
  }
  assert(st->end == HIMALAYA_END_SUMMIT || st->end == HIMALAYA_END_BAD_WEATHER);
  jw_object_begin(w);
  jw_key(w, "winners");
  jw_int_array(w, seats, (size_t)n);
  jw_key_string(w, "reason", reason_name(st->end));
  jw_key(w, "climbers");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    jw_int(w, st->seat[seat].climber);
  jw_array_end(w);
  jw_object_end(w);
}

json_t *himalaya_result(const struct engine_game *game)
{
  const struct himalaya_state *st = (const struct himalaya_state *)game;
  struct json_writer w;

  /* Asked after every move (is the game over?): answered without writing
   * anything while the game runs. */
  if (st->end == HIMALAYA_RUNNING)
    return NULL;
  jw_init(&w);
  himalaya_write_result(st, &w);
  return jw_finish_tree(&w);
}
