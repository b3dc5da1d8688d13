/*
 * state.h - Journey to the Top of the World: the game state and the names
 * its files share.
 *
 * Three seats: 0 Tenzing and 1 Hillary (the climbing players), 2 the
 * Mountain (the environment player). The state is plain fixed-size arrays
 * with no pointers besides the static module in the common head, so a clone
 * is malloc plus memcpy. Spaces are numbered: 0 is base camp, 1..28 are
 * level L quadrant Q at 1 + 4 * (L - 1) + Q, with quadrants N, E, S, W =
 * 0..3 (board.c, RULES.md "The mountain").
 *
 * Functions that can fail return enum cairn_status and take
 * `struct cairn_error *err` last. `events` is always Borrowed: a JSON array
 * the caller owns, to which new events are appended.
 */
#ifndef JOURNEY_STATE_H
#define JOURNEY_STATE_H

#include <jansson.h>
#include <stdbool.h>

#include "engine/engine.h"

/* Static: the module instance (module.c). */
extern const struct engine_module journey_module;

/* ---- Seats ---- */
#define JOURNEY_SEATS    3
#define JOURNEY_TENZING  0
#define JOURNEY_HILLARY  1
#define JOURNEY_MOUNTAIN 2
#define JOURNEY_CLIMBERS 2 /* seats 0 and 1 */

/* ---- The mountain (board.c) ---- */
#define JOURNEY_LEVELS     7
#define JOURNEY_QUADRANTS  4
#define JOURNEY_SPACES     (1 + JOURNEY_LEVELS * JOURNEY_QUADRANTS) /* base camp + 28 */
#define JOURNEY_BASE_CAMP  0
#define JOURNEY_TOP        7 /* the top of the mountain: any L7 space */
#define JOURNEY_TREE_LINE  2 /* the tree line lies between L2 and L3 */
#define JOURNEY_ICE_BRIDGE 4
#define JOURNEY_O2_ZONE    6
#define JOURNEY_IMPASSE    (-1) /* ascend cost of an impasse */

enum journey_quadrant { JOURNEY_N, JOURNEY_E, JOURNEY_S, JOURNEY_W };

/* ---- Health and money (Setup) ---- */
#define JOURNEY_HEALTH      10
#define JOURNEY_YETI_HEALTH 6
#define JOURNEY_MONEY_MAX   600

/* ---- Equipment (Player Equipment Card table) ---- */
enum journey_item {
  JOURNEY_FOOD,
  JOURNEY_ROPE,
  JOURNEY_O2_TANK,
  JOURNEY_HOOK,
  JOURNEY_TENT,
  JOURNEY_BOW,
  JOURNEY_FORECAST,
  JOURNEY_ITEMS
};
#define JOURNEY_NO_ITEM (-1)

/* ---- Environment cards (Environment Card table) ---- */
enum journey_card {
  JOURNEY_HIGH_WIND,
  JOURNEY_AVALANCHE,
  JOURNEY_ROCKSLIDE,
  JOURNEY_YETI,
  JOURNEY_CREVICE,
  JOURNEY_FROSTBITE,
  JOURNEY_BLIZZARD,
  JOURNEY_CARDS
};
#define JOURNEY_DECK_SIZE    34 /* 6 + 4 + 8 + 1 + 6 + 8 + 1 */
#define JOURNEY_OPENING_HAND 3
#define JOURNEY_TURN_DRAW    2

/* Blizzard directions, chosen by the Mountain. */
enum journey_direction {
  JOURNEY_UP,
  JOURNEY_DOWN,
  JOURNEY_CLOCKWISE,        /* N -> E -> S -> W seen from above */
  JOURNEY_COUNTERCLOCKWISE, /* N -> W -> S -> E */
  JOURNEY_STAY,             /* the Yeti only */
};

enum journey_phase {
  JOURNEY_PHASE_BUY,      /* Setup 6: both climbers buy, simultaneously */
  JOURNEY_PHASE_CLIMB,    /* the climbers' turn, both at once */
  JOURNEY_PHASE_MOUNTAIN, /* the environment player's turn */
  JOURNEY_PHASE_REACT,    /* a climber answers Rockslide or Avalanche */
  JOURNEY_PHASE_OVER,
};

enum journey_end {
  JOURNEY_RUNNING = 0,
  JOURNEY_END_CLIMBERS, /* both summited and came back to base camp */
  JOURNEY_END_DEATH,    /* a climber reached zero health */
  JOURNEY_END_WINTER,   /* the opt-in turn limit passed (not in the text; RULES.md) */
};

/* Avalanche answers (Grappling Hook, Rope). */
enum journey_protect {
  JOURNEY_PROTECT_NONE,
  JOURNEY_PROTECT_HOOK,     /* halves: drop 1 level, lose 1 health */
  JOURNEY_PROTECT_HOOK_ROPE /* nullifies */
};

struct journey_climber {
  int space;                        /* 0 (base camp) .. 28 */
  int health;                       /* 0..10; 0 is death */
  int money;                        /* dollars left, 0..600; spent only while buying */
  int items[JOURNEY_ITEMS];         /* equipment cards held, 0..many */
  int actions;                      /* actions left this turn: 3 Tenzing, 2 Hillary, 0..3 */
  bool done;                        /* finished buying / ended this turn */
  bool cannot_move;                 /* this turn: High Wind, Blizzard */
  bool no_equipment;                /* this turn: Frostbite */
  bool next_cannot_move;            /* set during the Mountain's turn for the next turn */
  bool next_no_equipment;           /* ditto, Frostbite */
  bool in_crevice;                  /* cannot move until escaped */
  bool summited;                    /* ended a climbers' turn on the top */
  int tent;                         /* space where this climber's tent is pitched, -1 none */
  bool choosing;                    /* used a Forecast, must pick the card to remove */
  bool forecast_seen;               /* forecast_hand holds a snapshot */
  int forecast_turn;                /* turn of that Forecast, 1.. */
  int forecast_hand[JOURNEY_CARDS]; /* the Mountain's hand as the Forecast showed it */
  bool must_react;                  /* owes an answer in the reaction phase */
  bool reacted;                     /* answered (Avalanche) */
  int protect;                      /* enum journey_protect chosen for the Avalanche */
};

struct journey_state {
  struct engine_game head; /* must stay first: the server handles this part */
  enum journey_phase phase;
  enum journey_end end;
  int dead;       /* the climber seat that died, -1 none */
  int turn;       /* climbers' turns begun, 0 while buying */
  int turn_limit; /* option: the Mountain wins when turn `turn_limit` ends unfinished; 0 none */
  struct journey_climber climber[JOURNEY_CLIMBERS];

  /* The Mountain (secret: deck order and hand). */
  int deck[JOURNEY_DECK_SIZE];   /* undrawn cards, top first */
  int deck_len;                  /* 0..34 */
  int hand[JOURNEY_CARDS];       /* cards in the Mountain's hand, by kind */
  int discard[JOURNEY_CARDS];    /* the face-up discard pile, by kind */
  int removed[JOURNEY_CARDS];    /* removed from play by Forecasts */
  int credit;                    /* value paid and not yet spent this turn, 0.. */
  int played[JOURNEY_DECK_SIZE]; /* cards played this Mountain turn, in order */
  int played_len;                /* 0..34 */
  int yeti_level;                /* 0 when not on the mountain, else 1..7 */
  int yeti_health;               /* 0..6 */
  bool yeti_acted;               /* the Yeti moved this Mountain turn */

  /* The reaction in progress (phase JOURNEY_PHASE_REACT). */
  int react_card;     /* JOURNEY_ROCKSLIDE or JOURNEY_AVALANCHE */
  int react_quadrant; /* Avalanche: the quadrant hit */
};

/* ---- A move, parsed (moves.c) ---- */
enum journey_move_type {
  JOURNEY_MOVE_BUY,       /* {"type":"buy","item":I} */
  JOURNEY_MOVE_DONE,      /* {"type":"done"}: finished buying */
  JOURNEY_MOVE_STEP,      /* {"type":"move","to":S} */
  JOURNEY_MOVE_USE,       /* {"type":"use","item":I, "to"?, "target"?} */
  JOURNEY_MOVE_GIVE,      /* {"type":"give","item":I} */
  JOURNEY_MOVE_REMOVE,    /* {"type":"remove","card":C}: the Forecast's choice */
  JOURNEY_MOVE_END_TURN,  /* {"type":"end_turn"} */
  JOURNEY_MOVE_DISCARD,   /* {"type":"discard","card":C}: pay value */
  JOURNEY_MOVE_PLAY,      /* {"type":"play","card":C, "quadrant"?, "target"?, "direction"?} */
  JOURNEY_MOVE_YETI,      /* {"type":"yeti","direction":"up"|"down"|"stay"} */
  JOURNEY_MOVE_ROCKSLIDE, /* {"type":"rockslide","choice":"health"|"discard","item"?} */
  JOURNEY_MOVE_AVALANCHE, /* {"type":"avalanche","protect":"none"|"hook"|"hook_and_rope"} */
};

/* Bow & Arrow targets. */
enum journey_bow_target { JOURNEY_BOW_FOOD, JOURNEY_BOW_YETI };

struct journey_move {
  enum journey_move_type type;
  int item;      /* enum journey_item, or JOURNEY_NO_ITEM */
  int card;      /* enum journey_card */
  int to;        /* space 0..28 (move, grappling hook) */
  int target;    /* climber seat 0..1 (cards), or enum journey_bow_target (bow) */
  int quadrant;  /* Avalanche */
  int direction; /* enum journey_direction: Blizzard, Yeti */
  bool discard;  /* Rockslide: discard `item` instead of losing health */
  int protect;   /* enum journey_protect */
};

/* ---- moves.c: move JSON ---- */

/* Parse `json` (Borrowed) into *out. CAIRN_EINVAL with bad-move,
 * unknown-field, missing-field or wrong-type naming the member. */
enum cairn_status journey_move_parse(const json_t *json, struct journey_move *out,
                                     struct cairn_error *err);

/* New reference: the canonical JSON of `m`, or NULL when out of memory. */
json_t *journey_move_json(const struct journey_move *m);

/* The same written to `w`: the form legal lists give. */
void journey_move_write(const struct journey_move *m, struct json_writer *w);

/* Static: the names used in moves, views and events; the *_named
 * functions are their inverse (-1 when unknown; `name` Borrowed). */
const char *journey_item_name(int item);
int journey_item_named(const char *name);
const char *journey_card_name(int card);
int journey_card_named(const char *name);
const char *journey_role_name(int seat);
int journey_climber_named(const char *name);
const char *journey_quadrant_name(int q);
int journey_quadrant_named(const char *name);
const char *journey_direction_name(int d);
int journey_direction_named(const char *name);
const char *journey_move_type_name(int type); /* "buy", "move", ... */

/* Static: the names a player reads ("Grappling Hook", "High Wind",
 * "Tenzing", "Mt. Everest"), set beside the names above in events. */
const char *journey_item_title(int item);
const char *journey_card_title(int card);
const char *journey_role_title(int seat);

/* ---- board.c: The mountain ---- */

int journey_level(int space);    /* 0 for base camp, 1..7 */
int journey_quadrant(int space); /* 0..3, -1 for base camp */
int journey_space(int level, int quadrant);

/* Static: "base_camp" or "L3-E". */
const char *journey_space_name(int space);
int journey_space_named(const char *name); /* -1 when unknown */

/* Food to ascend from `space`: 0, 1, 2, or JOURNEY_IMPASSE (L7 and base
 * camp report 0; base camp's way up is to L1-S). */
int journey_ascend_cost(int space);

/* The space one step in `direction` from `space`, ignoring costs; -1 when
 * there is none (the edge of the mountain or an impasse in the way). */
int journey_step(int space, int direction);

/* Whether the two spaces are one step apart (and not across an impasse);
 * *vertical tells an ascent (+1), descent (-1) or a step around (0). */
bool journey_adjacent(int from, int to, int *vertical);

bool journey_below_tree_line(int space);
bool journey_on_ice_bridge_or_above(int space);
bool journey_in_o2_zone(int space);

/* Write the board description for views to `w`. */
void journey_write_board(struct json_writer *w);

/* ---- setup.c: Setup ---- */

/* The price of an item in dollars (game-data.md section 2). */
int journey_price(int item);

/* The new_game slot: fills the zeroed state the core allocated. */
enum cairn_status journey_new_game(const struct engine_setup *setup,
                                   const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                   struct cairn_error *err);

/* Buying: check (no change) and carry out; *pending is set until both
 * climbers are done. */
enum cairn_status journey_check_buy(const struct journey_state *st, int seat,
                                    const struct journey_move *m, struct cairn_error *err);
enum cairn_status journey_buy(struct journey_state *st, int seat, const struct journey_move *m,
                              json_t *events, bool *pending, struct cairn_error *err);

/* ---- climbers.c: the climbers' turn ---- */

/* Actions a climber gets: 3 for Tenzing, 2 for Hillary. */
int journey_actions_of(int seat);

/* Start a climbers' turn: crevice rolls, this turn's restrictions, actions. */
enum cairn_status journey_begin_climb(struct journey_state *st, json_t *events,
                                      struct cairn_error *err);

/* Check a climbers'-turn move without changing anything. */
enum cairn_status journey_check_climb(const struct journey_state *st, int seat,
                                      const struct journey_move *m, struct cairn_error *err);

/* Check and carry out a climbers'-turn move; *pending stays true until both
 * climbers are done and the turn is resolved. */
enum cairn_status journey_climb(struct journey_state *st, int seat, const struct journey_move *m,
                                json_t *events, bool *pending, struct cairn_error *err);

/* Static: the card(s) of the Mountain's last turn that keep a climber
 * from moving this turn ("High Wind", "Blizzard"), for refusals. */
const char *journey_immobile_cause(const struct journey_state *st);

/* Move climber `seat` to `to` (any kind of move): strikes its tent. */
void journey_place(struct journey_state *st, int seat, int to);

/* Whether a pitched tent stands on climber `seat`'s space. */
bool journey_sheltered(const struct journey_state *st, int seat);

/* Discard `n` cards of `item` held by `seat`; strikes the tent with the
 * last tent. */
void journey_drop(struct journey_state *st, int seat, int item, int n);

/* ---- equipment.c: using equipment cards ---- */

/* Use an equipment card (check without change, then carry out), and the
 * Forecast's removal choice. */
enum cairn_status journey_check_use(const struct journey_state *st, int seat,
                                    const struct journey_move *m, struct cairn_error *err);
enum cairn_status journey_use(struct journey_state *st, int seat, const struct journey_move *m,
                              json_t *events, struct cairn_error *err);
enum cairn_status journey_check_remove(const struct journey_state *st, int seat,
                                       const struct journey_move *m, struct cairn_error *err);
enum cairn_status journey_remove(struct journey_state *st, int seat, const struct journey_move *m,
                                 json_t *events, struct cairn_error *err);

/* Whether the grappling hook can take `seat` from its space to `to`:
 * up to two steps without costs, or one step across an impasse. */
bool journey_hook_reaches(int from, int to);

/* ---- mountain.c: the Mountain's turn ---- */

/* Cost, value and deck count of an environment card. */
int journey_card_cost(int card);
int journey_card_value(int card);
int journey_card_count(int card);

int journey_hand_size(const struct journey_state *st);

/* Draw `n` cards into the hand, reshuffling the discard pile under the deck
 * when the deck runs short. The cards go in a private event. */
enum cairn_status journey_draw(struct journey_state *st, int n, const char *why, json_t *events,
                               struct cairn_error *err);

/* Start the Mountain's turn (draw 2). */
enum cairn_status journey_begin_mountain(struct journey_state *st, json_t *events,
                                         struct cairn_error *err);

/* A Mountain move: discard for value, play, move the Yeti, end the turn
 * (check without change, then carry out). */
enum cairn_status journey_check_mountain(const struct journey_state *st,
                                         const struct journey_move *m, struct cairn_error *err);
enum cairn_status journey_mountain(struct journey_state *st, const struct journey_move *m,
                                   json_t *events, struct cairn_error *err);

/* ---- environment.c: the environment cards' effects and reactions ---- */

/* Resolve a card just played (targets in `m`); may open a reaction. */
enum cairn_status journey_resolve(struct journey_state *st, const struct journey_move *m,
                                  json_t *events, struct cairn_error *err);

/* The Yeti's move and attack for this turn (direction up/down/stay). */
enum cairn_status journey_yeti_step(struct journey_state *st, int direction, json_t *events,
                                    struct cairn_error *err);

/* A Rockslide or Avalanche answer (check, then carry out; *pending while
 * another hit climber still owes its Avalanche answer). */
enum cairn_status journey_check_react(const struct journey_state *st, int seat,
                                      const struct journey_move *m, struct cairn_error *err);
enum cairn_status journey_react(struct journey_state *st, int seat, const struct journey_move *m,
                                json_t *events, bool *pending, struct cairn_error *err);

/* Damage a climber (0 is fine); a death ends the game. */
enum cairn_status journey_damage(struct journey_state *st, int seat, int amount, const char *cause,
                                 json_t *events, struct cairn_error *err);

/* ---- end.c: Ending the game ---- */

/* End the game with `end` and emit game_over. */
enum cairn_status journey_finish(struct journey_state *st, enum journey_end end, json_t *events,
                                 struct cairn_error *err);
/* Write the result object to `w` ({"winners", "reason", "turn", "dead"}),
 * or null while the game runs. */
void journey_write_result(const struct journey_state *st, struct json_writer *w);

/* The result slot. New reference: the result object, or NULL while the
 * game runs (and when out of memory). */
json_t *journey_result(const struct engine_game *game);

/* ---- legal.c, view.c, serialize.c ---- */

/* Check `m` for `seat` against every rule without changing anything. */
enum cairn_status journey_check_move(const struct journey_state *st, int seat,
                                     const struct journey_move *m, struct cairn_error *err);
/* The module slots: write to `out` the legal moves of `seat` ([] when it
 * may not act) or the view for `viewer` (never a secret it may not see);
 * New reference (NULL when out of memory or when the seat may not act):
 * the move the legal list holds at place choice % its length; New
 * reference: the canonical state. */
void journey_write_legal(const struct engine_game *game, int seat, struct json_writer *out);
void journey_write_view(const struct engine_game *game, int viewer, struct json_writer *out);
json_t *journey_sample_move(const struct engine_game *game, int seat, uint64_t choice);
json_t *journey_serialize(const struct engine_game *game);

/* ---- module.c: shared glue ---- */

/* Write {name: count} for the cards or items with count > 0 to `w`. */
void journey_write_card_counts(const int counts[JOURNEY_CARDS], struct json_writer *w);
void journey_write_item_counts(const int counts[JOURNEY_ITEMS], struct json_writer *w);

/* New reference (NULL when out of memory): the card counts as a tree, for
 * events. */
json_t *journey_card_counts_json(const int counts[JOURNEY_CARDS]);

/* bot.c: the bot_evaluate slot (engine.h), the bots' measure of a seat. */
double journey_bot_evaluate(const struct engine_game *game, int seat);

/* determinize.c: the module slot (engine.h). */
enum cairn_status journey_determinize(const char *view, size_t len, const json_t *options, int seat,
                                      struct engine_rng *rng, struct engine_game *game,
                                      struct cairn_error *err);

#endif
