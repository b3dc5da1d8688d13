/*
 * state.h - Everest's game state and the names its files share.
 *
 * The state is plain fixed-size arrays with no pointers (other than the
 * static module pointer in the common head), so cloning a game is malloc
 * plus memcpy. Cells are numbered row * 8 + col, row 0 the north edge and
 * col 0 the west edge (shared/research/game-data.md section 3 uses 1-based
 * r/c; RULES.md "The mountain").
 *
 * Functions here follow the house convention: those that can fail return
 * enum cairn_status and take `struct cairn_error *err` last. `events` is
 * Borrowed: a JSON array the caller owns, or NULL when the caller only
 * simulates (conflict detection) and wants no events.
 */
#ifndef EVEREST_STATE_H
#define EVEREST_STATE_H

#include <jansson.h>
#include <stdbool.h>

#include "engine/engine.h"

/* Static: the module instance (module.c), listed in engine/titles.def. */
extern const struct engine_module everest_module;

/* ---- The mountain (board.c) ---- */
#define EVEREST_ROWS  6
#define EVEREST_COLS  8
#define EVEREST_CELLS (EVEREST_ROWS * EVEREST_COLS)
#define EVEREST_OFF   (-1) /* a yeti off the board, or a square off it */

enum everest_dir { EVEREST_N = 0, EVEREST_E, EVEREST_S, EVEREST_W, EVEREST_DIRS };

/* ---- Pieces ---- */
#define EVEREST_MIN_SEATS 2
#define EVEREST_MAX_SEATS 4
#define EVEREST_COINS     6 /* values null(0), ace(1), 2..5 */
#define EVEREST_PLAN_LEN  3 /* "selecting three of the player's coins" */
#define EVEREST_NULL      0 /* the null face of a coin or die */
#define EVEREST_ACE       1
#define EVEREST_DIE_SIDES 6 /* null, ace, 2, 3, 4, 5 */

#define EVEREST_CORNERS 4 /* "the inside corners marked by the X's" */

enum everest_action {
  EVEREST_DAZED = 0, /* "stand there and look dazed" */
  EVEREST_MOVE,      /* value side, ace..5 */
  EVEREST_ROAR,      /* value side, null */
  EVEREST_SNOWBALL,  /* suit side, any coin */
};

/* One coin of a plan. */
struct everest_coin {
  int coin;  /* 0 (null) .. 5 */
  bool suit; /* suit side up: a snowball */
  int dir;   /* enum everest_dir */
};

/* What the server needs to know of a yeti to compare two orders. */
struct everest_yeti {
  int cell;        /* 0..47, or EVEREST_OFF */
  int damage;      /* falls and snowball hits this round, 0.. */
  bool cancelled;  /* left the board: remaining actions this round are lost */
  bool left_board; /* left the board this round: no healing at its end */
};

enum everest_phase {
  EVEREST_PHASE_PLAN = 0, /* seats owe secret plans */
  EVEREST_PHASE_ORDER,    /* the high roller owes a conflict order */
  EVEREST_PHASE_HEAL,     /* seats owe end-of-round choices */
  EVEREST_PHASE_EXEC,     /* internal: the server is executing; never seen between moves */
  EVEREST_PHASE_OVER,
  EVEREST_PHASE_BASE, /* set up: seats in seat order choose their home bases */
};

/* Where execution stands inside a step (round.c). */
enum everest_stage {
  EVEREST_STAGE_ROARS = 0, /* roars, then the run-away turn */
  EVEREST_STAGE_ACTIONS,   /* moves and snowballs */
  EVEREST_STAGE_NEXT,      /* the step is done */
};

/* One unit of a turn whose order may matter (conflict.c). All snowballs of
 * a step are one unit: "all snowball throws still happen simultaneously". */
enum everest_item_kind { EVEREST_ITEM_MOVE = 0, EVEREST_ITEM_RUN, EVEREST_ITEM_SNOWBALLS };

struct everest_item {
  int kind; /* enum everest_item_kind */
  int seat; /* the mover; -1 for the snowball group */
  int dir;  /* enum everest_dir (moves, runs) */
  int mp;   /* movement points 1..5 (moves, runs) */
};

/* At most one item per yeti, the snowball group counted once. */
#define EVEREST_MAX_ITEMS EVEREST_MAX_SEATS

struct everest_seat {
  unsigned aside; /* bit v: coin v set aside by damage */
  bool planned;   /* submitted this round's plan */
  int plan_len;   /* 0..3 coins; the rest are dazed */
  struct everest_coin plan[EVEREST_PLAN_LEN];
  bool heal_owed;     /* owes an end-of-round choice */
  bool heal_decided;  /* made it (secret until all are in) */
  bool heal;          /* the choice: return to base and heal */
  unsigned set_aside; /* the choice: coins to set aside when not healing */
  bool running;       /* runs away from a roar this step */
  int run_dir;        /* enum everest_dir */
  int run_mp;         /* 2..5 */
  bool roared_back;   /* roared back once in this roar resolution */
  int home;           /* the chosen home base cell, or EVEREST_OFF before the choice */
};

/* What the table saw of the last conflict and the last roars (view.c): the
 * dice lie on the table until the next ones are rolled. */
#define EVEREST_MAX_ROLL_ROUNDS 16 /* tie re-rolls recorded; more is (1/6)^15-rare */
#define EVEREST_MAX_ROARS       8  /* each yeti roars once a step, and roars back once */
#define EVEREST_MAX_ROAR_ROLLS  32 /* each roar affects at most four yeti */

struct everest_dice_log {
  int round, step;                                      /* 0 0: none yet */
  int n_rounds;                                         /* roll rounds recorded */
  int face[EVEREST_MAX_ROLL_ROUNDS][EVEREST_MAX_SEATS]; /* -1: did not roll */
  int chooser;                                          /* -1 before any conflict */
};

struct everest_roar_record {
  int roarer;
  int target;                   /* the yeti roared at, or -1 */
  bool back;                    /* a roar back */
  int check[EVEREST_MAX_SEATS]; /* check die per yeti in a side square, -1: none */
};

struct everest_roll_record {
  int seat, from, roll; /* roll after the ace-as-null rule */
};

struct everest_roar_log {
  int round, step; /* 0 0: none yet */
  int n_roars, n_rolls;
  struct everest_roar_record roars[EVEREST_MAX_ROARS];
  struct everest_roll_record rolls[EVEREST_MAX_ROAR_ROLLS];
};

struct everest_state {
  struct engine_game head; /* must stay first: the server handles this part */
  struct everest_seat seat[EVEREST_MAX_SEATS];
  struct everest_yeti yeti[EVEREST_MAX_SEATS];
  int phase;       /* enum everest_phase */
  int round;       /* 0 during set up (home bases), then 1.. */
  int round_cap;   /* opt-in: rounds after which the game is drawn; 0 none */
  int step;        /* coin 0..2 being executed */
  int stage;       /* enum everest_stage */
  int peak_holder; /* sole peak occupant at the round's start, or -1 */
  struct everest_item items[EVEREST_MAX_ITEMS]; /* the turn awaiting an order */
  int n_items;                                  /* 0..4 */
  int chooser;                                  /* the high roller choosing the order, or -1 */
  int winner;                                   /* seat, or -1 */
  bool capped;                                  /* ended by the round cap (a draw) */
  struct everest_dice_log last_conflict;
  struct everest_roar_log last_roars;
};

/* ---- board.c: the one place that holds the mountain ---- */

/* Static, board.c's: the heights by row and column (0: a notch) and the
 * step of each direction. Read only by the lookups inlined below, which a
 * replay makes some 100,000 times a game (issue 22): as calls, their
 * overhead was as much as their work. */
extern const int everest_heights[EVEREST_ROWS][EVEREST_COLS];
extern const int everest_step_row[EVEREST_DIRS], everest_step_col[EVEREST_DIRS];

/* The cell at 0-based row and col; EVEREST_OFF outside or in a notch. */
static inline int everest_cell(int row, int col)
{
  if (row < 0 || row >= EVEREST_ROWS || col < 0 || col >= EVEREST_COLS ||
      !everest_heights[row][col])
    return EVEREST_OFF;
  return row * EVEREST_COLS + col;
}

/* Height 1..5 of a cell; 0 for EVEREST_OFF. */
static inline int everest_height(int cell)
{
  if (cell == EVEREST_OFF)
    return 0;
  return everest_heights[cell / EVEREST_COLS][cell % EVEREST_COLS];
}

/* The cell one square from `cell` towards `dir`, or EVEREST_OFF (past the
 * edge, into a notch, or from EVEREST_OFF). */
static inline int everest_neighbour(int cell, int dir)
{
  if (cell == EVEREST_OFF)
    return EVEREST_OFF;
  return everest_cell(cell / EVEREST_COLS + everest_step_row[dir],
                      cell % EVEREST_COLS + everest_step_col[dir]);
}
/* The inside corner `corner` (0..3: NW, NE, SE, SW), a home base cell. */
int everest_corner(int corner);
/* The corner index of `cell`, or -1 when it is no inside corner. */
int everest_corner_of(int cell);
/* True for the four notch squares (no tile: off the board). */
bool everest_is_notch(int row, int col);
/* Static: "seat 0" .. "seat 3", the name a player reads (the text gives
 * the players colours but names none). */
const char *everest_seat_name(int seat);
/* True on the 2x2 peak tile. */
bool everest_on_peak(int cell);
/* Static: "N", "E", "S" or "W". */
const char *everest_dir_name(int dir);
/* The direction named `name` (Borrowed, may be NULL), or -1. */
int everest_dir_parse(const char *name);
/* New reference: [row, col], or JSON null for EVEREST_OFF. */
json_t *everest_cell_json(int cell);
/* The same, written to `w`. */
void everest_write_cell(struct json_writer *w, int cell);
/* [coin, ...]: the coins whose bit is set in `mask`, lowest first. */
void everest_write_coins(struct json_writer *w, unsigned mask);

/* ---- Small questions of the state, inline (as the board's above) ---- */

/* The seat whose yeti (in the Borrowed array of `seats`) stands on `cell`,
 * or -1 (always -1 for EVEREST_OFF). */
static inline int everest_occupant(const struct everest_yeti *yeti, int seats, int cell)
{
  int seat;

  if (cell == EVEREST_OFF)
    return -1;
  for (seat = 0; seat < seats; seat++)
    if (yeti[seat].cell == cell)
      return seat;
  return -1;
}

/* How many coins `seat` has not set aside, 0..6. */
static inline int everest_available(const struct everest_state *st, int seat)
{
  unsigned left = ((1u << EVEREST_COINS) - 1) & ~st->seat[seat].aside;
  int n = 0;

  for (; left; left &= left - 1) /* drops the lowest coin still there */
    n++;
  return n;
}

/* What a coin does: move, roar or snowball. */
static inline enum everest_action everest_action_of(const struct everest_coin *coin)
{
  if (coin->suit)
    return EVEREST_SNOWBALL;
  return coin->coin == EVEREST_NULL ? EVEREST_ROAR : EVEREST_MOVE;
}

/* Borrowed from `st`: the coin `seat` plays at `step`, or NULL when it is
 * dazed, its actions are cancelled or it is off the board (judged on the
 * `yeti` array given, which may be a scratch copy). */
static inline const struct everest_coin *everest_step_coin(const struct everest_state *st,
                                                           const struct everest_yeti *yeti,
                                                           int seat, int step)
{
  const struct everest_seat *p = &st->seat[seat];

  if (step >= p->plan_len || yeti[seat].cancelled || yeti[seat].cell == EVEREST_OFF)
    return NULL;
  return &p->plan[step];
}

/* ---- plan.c: Making a Plan for your Yeti ---- */

/* Check and record `seat`'s plan (`move` Borrowed). *pending stays true
 * while other seats owe plans; the last plan reveals all and runs the
 * round on (everest_advance). */
enum cairn_status everest_submit_plan(struct everest_state *st, int seat, const json_t *move,
                                      json_t *events, bool *pending, struct cairn_error *err);
/* The same once the move is read: its n coins (Borrowed; only the first
 * EVEREST_PLAN_LEN are looked at, more is refused). */
enum cairn_status everest_commit_plan(struct everest_state *st, int seat,
                                      const struct everest_coin *plan, size_t n, json_t *events,
                                      bool *pending, struct cairn_error *err);
/* True when `seat` still owes this round's plan. */
bool everest_owes_plan(const struct everest_state *st, int seat);
/* Emit the public reveal and enter execution (step 0). */
enum cairn_status everest_reveal_plans(struct everest_state *st, json_t *events,
                                       struct cairn_error *err);
/* ---- events.c: building events without json_pack ---- */

/* New reference, NULL when out of memory: {key: value, ...} of `n` pairs
 * (const char *key, Static ASCII; json_t *value, taken, NULL failing the
 * whole), members in the order given, as json_pack's "{s:o, ...}". */
json_t *everest_object(int n, ...);
/* New reference: the Static ASCII string `ascii` (NULL gives NULL). */
json_t *everest_text(const char *ascii);
/* ENGINE_EMIT's way: nothing is built when `events` is NULL (a replay). */
#define EVEREST_EMIT(events, err, n, ...)                                                          \
  ((events) ? engine_emit((events), everest_object((n), __VA_ARGS__), (err)) : CAIRN_OK)

/* New reference: a seat's plan as a JSON array of {coin, face, dir}. */
json_t *everest_plan_json(const struct everest_seat *p);
/* The same, written to `w`. */
void everest_write_plan(struct json_writer *w, const struct everest_seat *p);

/* ---- movement.c: Yeti Movement and Pushing other Yeti ---- */

/* Move `seat`'s yeti towards `dir` with `mp` movement points on the
 * Borrowed array `yeti` (falls, pushes, leaving the board). `why` (Static)
 * is "plan" or "run" for the event. `events` may be NULL (simulation). */
void everest_move_yeti(struct everest_yeti *yeti, int seats, int seat, int dir, int mp,
                       const char *why, json_t *events);

/* ---- snowball.c: Throwing Snowballs ---- */

/* Throw every snowball of step st->step at once, on the Borrowed array
 * `yeti`; `events` may be NULL (simulation). */
void everest_throw_snowballs(const struct everest_state *st, struct everest_yeti *yeti,
                             json_t *events);

/* ---- roar.c: Roaring ---- */

/* Resolve the roars of step st->step: rolls the dice, sets `running`,
 * `run_dir` and `run_mp` of the yeti that run away. */
enum cairn_status everest_resolve_roars(struct everest_state *st, json_t *events,
                                        struct cairn_error *err);

/* ---- conflict.c: Executing the plans ---- */

/* Carry out `n` items (Borrowed) in `order` on the Borrowed array `yeti`;
 * `events` may be NULL (simulation). */
void everest_apply_turn(const struct everest_state *st, struct everest_yeti *yeti,
                        const struct everest_item *items, const int *order, int n, json_t *events);
/* True when two orders of the items give different boards. */
bool everest_turn_conflicts(const struct everest_state *st, const struct everest_item *items,
                            int n);
/* The same, found by carrying out every order (n! of them): the rules'
 * words as code, which everest_turn_conflicts falls back to and is tested
 * against. */
bool everest_turn_conflicts_by_orders(const struct everest_state *st,
                                      const struct everest_item *items, int n);
/* Start a turn: without a conflict, carry it out; with one, roll the dice
 * and wait for the high roller (*decision = true, phase ORDER). */
enum cairn_status everest_begin_turn(struct everest_state *st, const struct everest_item *items,
                                     int n, bool *decision, json_t *events,
                                     struct cairn_error *err);
/* Check the chooser's order move (Borrowed) and carry out the turn. */
enum cairn_status everest_choose_order(struct everest_state *st, int seat, const json_t *move,
                                       json_t *events, struct cairn_error *err);
/* The same once the move is read: carry out the turn in `order` (indices
 * into st->items, each once) that the move's `list` of tokens named
 * (Borrowed, for the event; may be NULL when `events` is). */
enum cairn_status everest_order_turn(struct everest_state *st, const int *order, const json_t *list,
                                     json_t *events, struct cairn_error *err);
/* New reference: an item as {kind, seat, dir, mp}. */
json_t *everest_item_json(const struct everest_item *item);
/* The same, written to `w`. */
void everest_write_item(struct json_writer *w, const struct everest_item *item);
/* Write every order of 0..n-1 (n <= 4) to perms, lexicographically; returns
 * how many (n!). */
int everest_permutations(int n, int perms[24][EVEREST_MAX_ITEMS]);
/* Write to `w` the array of every order move the chooser may make. */
void everest_write_order_moves(const struct everest_state *st, struct json_writer *w);

/* ---- round.c: the step machine, Damage and Winning the Game ---- */

/* Run execution, round ends and new rounds until a seat owes a decision or
 * the game is over. */
enum cairn_status everest_advance(struct everest_state *st, json_t *events,
                                  struct cairn_error *err);
/* Check and record `seat`'s end-of-round choice (`move` Borrowed); pending
 * like plans, the last one finishes the round. */
enum cairn_status everest_submit_heal(struct everest_state *st, int seat, const json_t *move,
                                      json_t *events, bool *pending, struct cairn_error *err);
/* The same once the move is read: `heal`, and the coins set aside as a
 * mask of `count` distinct coins. */
enum cairn_status everest_commit_heal(struct everest_state *st, int seat, bool heal, unsigned mask,
                                      int count, json_t *events, bool *pending,
                                      struct cairn_error *err);
/* Begin the next round's planning (round + 1, fresh plans and damage). */
void everest_start_round(struct everest_state *st);

/* ---- setup.c: Game set up, the choice of home bases ---- */

/* The seat that owes its home base choice now, or -1. */
int everest_base_chooser(const struct everest_state *st);
/* True when no seat has chosen `corner` (0..3). */
bool everest_corner_free(const struct everest_state *st, int corner);
/* Check and record the chooser's base move (Borrowed); the last choice
 * starts round 1. */
enum cairn_status everest_choose_base(struct everest_state *st, int seat, const json_t *move,
                                      json_t *events, struct cairn_error *err);
/* The same once the move is read: the base `cell` (on the board). */
enum cairn_status everest_place_base(struct everest_state *st, int seat, int cell, json_t *events,
                                     struct cairn_error *err);

/* ---- replay.c: the title's own stored moves read without a tree ---- */

/* The replay_text slot (engine.h). */
enum cairn_status everest_replay_text(struct engine_game *game, int seat, const char *move,
                                      size_t len, bool *pending, struct cairn_error *err);
/* True when `seat` still owes this round's end-of-round choice. */
bool everest_owes_heal(const struct everest_state *st, int seat);

/* ---- setup.c, legal.c, view.c: the module slots (engine.h) ---- */

/* The new_game slot: fills the zeroed state the core allocated. */
enum cairn_status everest_new_game(const struct engine_setup *setup,
                                   const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                   struct cairn_error *err);
/* The write_legal slot: the compact plan descriptor or a full list
 * (README.md). */
void everest_write_legal(const struct engine_game *game, int seat, struct json_writer *w);
void everest_write_choices(const struct engine_game *game, int seat, struct json_writer *w);
/* New reference, or NULL when `seat` may not act. */
json_t *everest_sample_move(const struct engine_game *game, int seat, uint64_t choice);
/* The write_view slot: never writes another seat's unrevealed plan or
 * choice. */
void everest_write_view(const struct engine_game *game, int viewer, struct json_writer *w);
/* New reference once over, else NULL. */
json_t *everest_result(const struct engine_game *game);
/* New reference: the whole state, secrets included. */
json_t *everest_serialize(const struct engine_game *game);

/* bot.c: the bot_evaluate slot (engine.h), the bots' measure of a seat. */
double everest_bot_evaluate(const struct engine_game *game, int seat);

/* determinize.c: the module slot (engine.h). */
enum cairn_status everest_determinize(const char *view, size_t len, const json_t *options, int seat,
                                      struct engine_rng *rng, struct engine_game *game,
                                      struct cairn_error *err);

#endif
