/*
 * board.c - the mountain: the one place in the code that holds the board
 * (heights, the two notches, cliffs and steps as height differences, the
 * peak tile and the inside corners). Everything else asks these functions.
 *
 * Source: the height map of "Game set up" and shared/research/game-data.md
 * section 3 (ppgames' df_everest()). 0 marks the notches r3-4 c1 and c8 (no
 * tile: off the board). A cliff is an edge whose heights differ by 2 (there
 * are 16), a step one whose heights differ by 1: "steps are one tile tall,
 * while cliffs are two tiles tall".
 */
#include "engine/everest/state.h"

const int everest_heights[EVEREST_ROWS][EVEREST_COLS] = {
    {1, 1, 1, 1, 1, 1, 1, 1}, {1, 2, 3, 3, 3, 3, 2, 1}, {0, 2, 4, 5, 5, 4, 2, 0},
    {0, 2, 4, 5, 5, 4, 2, 0}, {1, 2, 3, 3, 3, 3, 2, 1}, {1, 1, 1, 1, 1, 1, 1, 1},
};

/* The home bases, "the inside corners marked by the X's": r2c1, r2c8,
 * r5c8, r5c1 (1-based), ppgames' pawn positions; NW, NE, SE, SW. Players
 * choose among them at set up (setup.c). */
static const int corner_at[EVEREST_CORNERS][2] = {{1, 0}, {1, 7}, {4, 7}, {4, 0}};
static const char *const seat_name[EVEREST_MAX_SEATS] = {"seat 0", "seat 1", "seat 2", "seat 3"};

const int everest_step_row[EVEREST_DIRS] = {-1, 0, 1, 0};
const int everest_step_col[EVEREST_DIRS] = {0, 1, 0, -1};
static const char *const dir_name[EVEREST_DIRS] = {"N", "E", "S", "W"};

int everest_corner(int corner)
{
  return everest_cell(corner_at[corner][0], corner_at[corner][1]);
}

int everest_corner_of(int cell)
{
  int corner;

  for (corner = 0; cell != EVEREST_OFF && corner < EVEREST_CORNERS; corner++)
    if (everest_corner(corner) == cell)
      return corner;
  return -1;
}

bool everest_is_notch(int row, int col)
{
  return row >= 0 && row < EVEREST_ROWS && col >= 0 && col < EVEREST_COLS &&
         !everest_heights[row][col];
}

const char *everest_seat_name(int seat)
{
  return seat >= 0 && seat < EVEREST_MAX_SEATS ? seat_name[seat] : "nobody";
}

/* "the peak tile": the single fifth-layer tile, cells r3-4 x c4-5. */
bool everest_on_peak(int cell)
{
  return everest_height(cell) == 5;
}

const char *everest_dir_name(int dir)
{
  return dir_name[dir];
}

int everest_dir_parse(const char *name)
{
  int dir;

  /* Each name is one letter, so the name matches when its letter does
   * and nothing follows: no strcmp, three of which a plan move's replay
   * made per coin (issue 22). */
  for (dir = 0; name && dir < EVEREST_DIRS; dir++)
    if (name[0] == dir_name[dir][0] && name[1] == '\0')
      return dir;
  return -1;
}

void everest_write_coins(struct json_writer *w, unsigned mask)
{
  int coin;

  jw_array_begin(w);
  for (coin = 0; coin < EVEREST_COINS; coin++)
    if (mask & (1u << coin))
      jw_int(w, coin);
  jw_array_end(w);
}

void everest_write_cell(struct json_writer *w, int cell)
{
  int at[2] = {cell / EVEREST_COLS, cell % EVEREST_COLS};

  if (cell == EVEREST_OFF)
    jw_null(w);
  else
    jw_int_array(w, at, 2);
}

json_t *everest_cell_json(int cell)
{
  if (cell == EVEREST_OFF)
    return json_null();
  int at[2] = {cell / EVEREST_COLS, cell % EVEREST_COLS};

  return engine_int_list(at, 2); /* json_pack's "[i, i]", without reading a format */
}
