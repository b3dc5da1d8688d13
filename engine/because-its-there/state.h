/*
 * state.h - the Because It's There! state and the declarations shared by
 * its rules files.
 *
 * Every one of the 100 cards has an id 0..99 (cards.c holds the static
 * table) and exactly one location (`struct bit_loc`), so the card count is
 * 100 by construction and bit_check_cards() verifies the piles are
 * consistent. The state holds no pointers besides the static module head,
 * so a clone is malloc + memcpy.
 */
#ifndef BIT_STATE_H
#define BIT_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/because-its-there/rules.h"
#include "engine/engine.h"

#define BIT_CARDS     100
#define BIT_SEATS     2
#define BIT_TEAMS     20   /* team slots per seat: more than the climbers */
#define BIT_ROUTE_MAX 7    /* terrain cards below the Summit on the longest route */
#define BIT_HAND      5    /* VIII.B: draw to five */
#define BIT_LAST_TURN 20   /* XI */
#define BIT_ABC       (-1) /* `at` of a card in Advance Base Camp */
#define BIT_SUMMIT    19   /* the Summit card id, shared by every route */

/* Card ranges (cards.c). */
#define BIT_TERRAIN_FIRST 0
#define BIT_CLIMBER_FIRST 20
#define BIT_SHERPA_FIRST  38
#define BIT_SUPPLY_FIRST  46
#define BIT_CAMP_FIRST    56
#define BIT_SUPPLIES_N    (BIT_CAMP_FIRST - BIT_SUPPLY_FIRST) /* every Supplies card of a game */
#define BIT_SPECIAL_FIRST 64
#define BIT_EVENT_FIRST   70

enum bit_kind {
  BIT_TERRAIN,
  BIT_CLIMBER,
  BIT_SHERPA,
  BIT_SUPPLIES,
  BIT_CAMP,
  BIT_SPECIAL,
  BIT_EVENT
};
enum bit_terrain { BIT_GLACIER, BIT_HIGH, BIT_EXTREME, BIT_SUMMIT_TYPE };
enum bit_skill { BIT_NOVICE, BIT_EXPERIENCED, BIT_VETERAN };
enum bit_special_skill { BIT_NO_SKILL, BIT_ROUTEFINDING, BIT_SHERPAS_SKILL, BIT_MECHANICAL };
enum bit_weather { BIT_GOOD, BIT_FAIR, BIT_POOR, BIT_STORM };
enum bit_special {
  BIT_BIVOUAC,
  BIT_FIXED_ROPES,
  BIT_LADDERS,
  BIT_OPEN_O2,
  BIT_CLOSED_O2,
  BIT_RADIO
};

/* What a matching Event does (game-data.md §1 tables). */
enum bit_effect {
  BIT_FX_NONE,          /* only `end` (if set) */
  BIT_FX_RANDOM,        /* a random Climber loses `amount` (99 = dies), Novice `amount`+`novice` */
  BIT_FX_RANDOM_ANY,    /* a random Climber or Sherpas: Climber loses `amount`, Sherpas dies */
  BIT_FX_ALL,           /* ALL Climbers on the card lose `amount` */
  BIT_FX_TEAM,          /* each team Climber gains `amount` (may be negative) */
  BIT_FX_TEAM_NONVET,   /* each non-Veteran team Climber loses `amount` */
  BIT_FX_LOSE_LOADED,   /* the team's Loaded Supplies are discarded */
  BIT_FX_DESERT,        /* one Sherpas on this card deserts */
  BIT_FX_CAMP_LOST,     /* the Camp on this card is discarded */
  BIT_FX_WEATHER_WORSE, /* weather one step worse */
  BIT_FX_WEATHER_BETTER,
  BIT_FX_STORM,
};
enum bit_immunity { BIT_IM_NONE, BIT_IM_WEATHER, BIT_IM_SKILL, BIT_IM_SPECIAL };

struct bit_card {
  const char *name;
  int8_t kind;     /* enum bit_kind */
  int8_t terrain;  /* enum bit_terrain: Terrain and Event cards */
  int8_t up;       /* Terrain: Strength to exit upward, 0..4 */
  int8_t down;     /* Terrain: Strength to exit downward, 0..3 */
  int8_t strength; /* Climber: printed maximum, 6..8 */
  int8_t skill;    /* Climber: enum bit_skill */
  int8_t special;  /* Climber: enum bit_special_skill; Special: enum bit_special */
  int8_t effect;   /* Event: enum bit_effect */
  int8_t amount;   /* Event: Strength levels, 99 = dies */
  int8_t novice;   /* Event: extra loss for a Novice victim */
  int8_t end;      /* Event: 1 = the team ends movement */
  int8_t oxygen;   /* Event: 1 = oxygen-related (1924 special rule) */
  int8_t im_kind;  /* Event: enum bit_immunity */
  int8_t im_value; /* Event: weather (at most), skill (at least) or special skill */
  int8_t bsr;      /* Event: Base Strength Recovery, -2..3 */
};

extern const struct bit_card bit_cards[BIT_CARDS];

enum bit_zone {
  BIT_Z_BOX,      /* not in this scenario */
  BIT_Z_ROUTE,    /* a Terrain card laid out in a route (seat = route, order = index) */
  BIT_Z_DECK,     /* a player's active pile (order: higher = nearer the top) */
  BIT_Z_HAND,     /* a player's hand */
  BIT_Z_DISCARD,  /* a player's discard pile */
  BIT_Z_EVENTS,   /* the Event deck (order: higher = nearer the top) */
  BIT_Z_USED,     /* used Event cards */
  BIT_Z_DEAD,     /* dead Climbers, deserted Sherpas, used Specials */
  BIT_Z_MOUNTAIN, /* in Advance Base Camp or on a Terrain card */
};

enum bit_role {
  BIT_R_MEMBER,   /* a Climber or Sherpas of a Climbing Team (right side) */
  BIT_R_CARRIED,  /* a Climber carried by its team's Sherpas */
  BIT_R_LOADED,   /* Supplies loaded on the team's Sherpas */
  BIT_R_CACHED,   /* Supplies on the right side, no team */
  BIT_R_UNLOADED, /* Supplies on the left side */
  BIT_R_CAMP,     /* a Camp on the left side */
  BIT_R_POSTED,   /* a Sherpas left on a Terrain card without a team */
};

struct bit_loc {
  int8_t zone;   /* enum bit_zone */
  int8_t seat;   /* owner 0..1, -1 for shared piles */
  int8_t at;     /* MOUNTAIN: Terrain card id, or BIT_ABC */
  int8_t team;   /* MOUNTAIN: team slot 0..BIT_TEAMS-1, -1 none */
  int8_t role;   /* MOUNTAIN: enum bit_role */
  int8_t spare;  /* always 0 (keeps the struct free of padding) */
  int16_t order; /* ordered piles and routes: position */
};

enum bit_scenario { BIT_1924, BIT_1953, BIT_1963, BIT_DREAM };
enum bit_route { BIT_NORTH_RIDGE, BIT_GREAT_COULOIR, BIT_SOUTH_COL, BIT_WEST_RIDGE, BIT_ROUTES };

enum bit_phase {
  BIT_P_DRAFT,   /* Dream Teams: alternate Climber picks */
  BIT_P_ROUTE,   /* choose a route (1924, Dream Teams) */
  BIT_P_DISCARD, /* VIII: simultaneous */
  BIT_P_ABC,     /* IX: simultaneous */
  BIT_P_MOVE,    /* X: players take turns */
  BIT_P_CAMP,    /* Setup Camp: simultaneous */
  BIT_P_NIGHT,   /* Night: simultaneous declarations, then resolution */
  BIT_P_OVER,
};

struct bit_team {
  int8_t used;    /* 1 = slot holds a team */
  int8_t moved;   /* 1 = ended movement this phase ("inverted") */
  int8_t ropes;   /* 1 = Fixed Ropes played on it this phase */
  int8_t ladders; /* 1 = Ladders played on it this phase */
};

struct bit_state {
  struct engine_game head;
  int32_t scenario;             /* enum bit_scenario */
  int32_t phase;                /* enum bit_phase */
  int32_t turn;                 /* 1..20 */
  int32_t weather;              /* enum bit_weather */
  int32_t rolled;               /* 1 = a weather die was rolled this turn (Radio may re-roll) */
  int32_t before_roll;          /* weather before this turn's roll */
  int32_t active;               /* BIT_P_MOVE / BIT_P_DRAFT: the seat acting */
  int32_t order[BIT_SEATS];     /* movement order this turn */
  int32_t mover;                /* index into order[] of the active seat */
  int32_t moving;               /* team slot of the active seat now moving, -1 none */
  int32_t done[BIT_SEATS];      /* simultaneous phase finished, per seat */
  int32_t discarded[BIT_SEATS]; /* cards discarded this turn, 0..3 */
  int32_t bivouac[BIT_SEATS];   /* Terrain card with a Bivouac tonight, -1 none */
  int32_t route[BIT_SEATS];     /* enum bit_route per seat, -1 before chosen */
  int32_t route_len[BIT_SEATS]; /* Terrain cards below the Summit */
  int32_t route_card[BIT_SEATS][BIT_ROUTE_MAX]; /* [0] = lowest */
  int32_t picks;                                /* Dream Teams: Climbers drafted so far, 0..12 */
  int32_t roll_off[BIT_SEATS];                  /* Dream Teams: the deciding 1D6 roll-off, 1..6 */
  int32_t winner[BIT_SEATS];                    /* final: 1 = winner */
  int32_t success[BIT_SEATS];                   /* final: scenario objective met */
  int32_t vp[BIT_SEATS];                        /* Dream Teams victory points */
  struct bit_loc loc[BIT_CARDS];
  int8_t strength[BIT_CARDS];     /* Climbers: current Strength 0..8 (0 = Near Death) */
  int8_t summited[BIT_CARDS];     /* Climbers: reached the Summit (1), 0 otherwise */
  int8_t returned[BIT_CARDS];     /* Climbers: back at Advance Base Camp after the Summit */
  int8_t up_route[BIT_CARDS];     /* Climbers: route index they climbed when summiting, -1 */
  int8_t use_supplies[BIT_CARDS]; /* Unloaded Supplies declared for tonight's bonus */
  struct bit_team team[BIT_SEATS][BIT_TEAMS];
};

/*
 * Ownership, for every function below unless it says otherwise: `st` is
 * borrowed and mutated in place (a clone made by engine_apply, so a failure
 * half-way is harmless); `events` is a borrowed JSON array that new events
 * are appended to; a `json_t *` return is a new reference the caller
 * releases; `err` is filled on failure. Predicates (`*_ok`) never change
 * the state.
 */

/* ---- moves (moves.c) ---- */
enum bit_move_type {
  BIT_M_DRAFT,
  BIT_M_ROUTE,
  BIT_M_DISCARD,
  BIT_M_DRAW,
  BIT_M_DEPLOY,
  BIT_M_READY,
  BIT_M_MOVE,
  BIT_M_CACHE,
  BIT_M_UNLOAD,
  BIT_M_LOAD,
  BIT_M_CARRY,
  BIT_M_LEAVE,
  BIT_M_END,
  BIT_M_DONE,
  BIT_M_PLAY,
  BIT_M_CAMP,
  BIT_M_STRIKE,
  BIT_M_REST, /* the whole Night decision: the Supplies declared and the end */
};
struct bit_move {
  int type;    /* enum bit_move_type */
  int card;    /* the card named, -1 none */
  int team;    /* team slot, -1 none */
  int dir;     /* +1 up, -1 down */
  int route;   /* -1 = default */
  int at;      /* Terrain card id, -1 none */
  int climber; /* a Climber, -1 none */
  int count;   /* draw: cards to draw, -1 = up to five in hand */
  /* rest: the Unloaded Supplies declared for tonight, in the order given
   * (no room for more than every Supplies card of the game). */
  int use[BIT_SUPPLIES_N];
  int n_use;
};

/* Read a move object (borrowed) into *m; CAIRN_EINVAL on a malformed one. */
enum cairn_status bit_move_parse(const json_t *move, struct bit_move *m, struct cairn_error *err);
/* legal.c: a move of `type` with every other field unset (-1, none used),
 * the one start of every candidate the enumerators and the bots' rule of
 * thumb build. */
struct bit_move bit_move_blank(int type);
/* New reference: the canonical move object of *m. */
json_t *bit_move_json(const struct bit_move *m);
/* The same, written to `w`. */
void bit_write_move(struct json_writer *w, const struct bit_move *m);

/* ---- cards.c: locations and piles ---- */
/* The cards of a pile, bottom first, into out[BIT_CARDS]; returns the count. */
int bit_pile(const struct bit_state *st, int zone, int seat, int *out);
/* Cards in a pile (seat -1: any seat). */
int bit_pile_count(const struct bit_state *st, int zone, int seat);
/* Move a card on top of a pile. */
void bit_put(struct bit_state *st, int card, int zone, int seat);
/* Shuffle a pile with the game's generator. */
void bit_shuffle(struct bit_state *st, int zone, int seat);
/* The top card of a pile, -1 when empty. */
int bit_top(const struct bit_state *st, int zone, int seat);
/* Put a card on the mountain: at a Terrain card or BIT_ABC, in `team` (-1 none) with `role`. */
void bit_place(struct bit_state *st, int card, int seat, int at, int team, int role);
/* Whether the card locations are consistent (tests call it after every move). */
bool bit_check_cards(const struct bit_state *st);
/* Static names and card predicates. */
const char *bit_card_kind_name(int kind);
bool bit_is(int card, int kind);
int bit_special_of(int card);

/* ---- setup.c ---- */
/* The new_game slot: fills the zeroed state the core allocated. */
enum cairn_status bit_new_game(const struct engine_setup *setup,
                               const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                               struct cairn_error *err);
const char *bit_route_name(int route);
int bit_route_by_name(const char *name);
bool bit_route_allowed(const struct bit_state *st, int seat, int route);
/* XII Dream Teams: the drafting seat takes a Climber. */
enum cairn_status bit_draft(struct bit_state *st, int seat, int climber, json_t *events,
                            struct cairn_error *err);
/* XII: a seat chooses its route; the last choice lays the routes out and deals. */
enum cairn_status bit_choose_route(struct bit_state *st, int seat, int route, json_t *events,
                                   struct cairn_error *err);
const char *bit_scenario_name(int scenario);

/* ---- weather.c ---- */
/* VII: the turn's weather roll (none on turn 1 nor in 1963 turns 1-10). */
enum cairn_status bit_weather_phase(struct bit_state *st, json_t *events, struct cairn_error *err);
/* Set the weather (clamped); becoming Storm strips unattended cards. */
enum cairn_status bit_set_weather(struct bit_state *st, int weather, const char *why,
                                  json_t *events, struct cairn_error *err);
/* Radio: roll this turn's weather again. */
enum cairn_status bit_radio(struct bit_state *st, json_t *events, struct cairn_error *err);
const char *bit_weather_name(int weather);

/* ---- draw.c ---- */
/* VIII: discard from hand (three a turn), draw `count` cards (-1: up to five in hand), draw an
 * Event (Specials go to the drawer's hand), send a card to a discard pile or the dead pile. */
enum cairn_status bit_discard(struct bit_state *st, int seat, int card, json_t *events,
                              struct cairn_error *err);
enum cairn_status bit_draw(struct bit_state *st, int seat, int count, json_t *events,
                           struct cairn_error *err);
/* VIII.B-C: the most cards `seat` may draw now (to five in hand, as far as its piles reach). */
int bit_draw_max(const struct bit_state *st, int seat);
enum cairn_status bit_event_draw(struct bit_state *st, int drawer, int *out, json_t *events,
                                 struct cairn_error *err);
enum cairn_status bit_to_discard(struct bit_state *st, int card, json_t *events, const char *why,
                                 struct cairn_error *err);
enum cairn_status bit_to_dead(struct bit_state *st, int card, json_t *events, const char *why,
                              struct cairn_error *err);

/* ---- abc.c ---- */
/* IX: deploy a card into an ABC team (team -1: a new one); tidy orphans away. */
enum cairn_status bit_deploy(struct bit_state *st, int seat, int card, int team, json_t *events,
                             struct cairn_error *err);
enum cairn_status bit_abc_tidy(struct bit_state *st, int seat, json_t *events,
                               struct cairn_error *err);
/* Team slots and team queries (-2 from bit_team_at: no such team). */
bool bit_deploy_ok(const struct bit_state *st, int seat, int card, int team);
int bit_new_team(struct bit_state *st, int seat);
int bit_free_team(const struct bit_state *st, int seat);
int bit_team_count(const struct bit_state *st, int seat, int team, int kind, int role);
int bit_team_sherpa(const struct bit_state *st, int seat, int team);
int bit_team_at(const struct bit_state *st, int seat, int team);
void bit_drop_team_if_empty(struct bit_state *st, int seat, int team);

/* ---- movement.c ---- */
/* X: order of play, one movement move, its checks, positions on the routes, Storm stripping and
 * Strength loss (negative amount = recovery, capped). */
enum cairn_status bit_movement_begin(struct bit_state *st, json_t *events, struct cairn_error *err);
enum cairn_status bit_move(struct bit_state *st, int seat, const struct bit_move *m, json_t *events,
                           struct cairn_error *err);
bool bit_move_ok(const struct bit_state *st, int seat, int team, int dir, int route);
int bit_step_target(const struct bit_state *st, int seat, int at, int dir, int route);
int bit_route_of(const struct bit_state *st, int at);
int bit_index_of(const struct bit_state *st, int at);
int bit_climbers_on_route(const struct bit_state *st, int seat);
enum cairn_status bit_storm_strip(struct bit_state *st, json_t *events, struct cairn_error *err);
enum cairn_status bit_lose_strength(struct bit_state *st, int climber, int amount, json_t *events,
                                    const char *why, struct cairn_error *err);
bool bit_cargo_move_ok(const struct bit_state *st, int seat, const struct bit_move *m);
/* X.4-5: end a team's movement once (`why`: declared, event, near-death, advance-base-camp). */
enum cairn_status bit_end_movement(struct bit_state *st, int seat, int team, const char *why,
                                   json_t *events, struct cairn_error *err);
/* Static: the name of a Terrain card, the Summit or Advance Base Camp (BIT_ABC). */
const char *bit_place_name(int at);

/* ---- events.c ---- */
/* X.C: the drawn Event for `team` entering its card; immunity test. */
enum cairn_status bit_resolve_event(struct bit_state *st, int seat, int team, int event,
                                    json_t *events, struct cairn_error *err);
bool bit_immune(const struct bit_state *st, int seat, int team, int event, int at);

/* ---- specials.c ---- */
/* II.B.6: play a Special from hand (RULES.md §9). */
enum cairn_status bit_play(struct bit_state *st, int seat, const struct bit_move *m, json_t *events,
                           struct cairn_error *err);
bool bit_play_ok(const struct bit_state *st, int seat, const struct bit_move *m);

/* ---- camps.c ---- */
/* IX Camps: set up or strike a Camp; who stands where. */
enum cairn_status bit_setup_camp(struct bit_state *st, int seat, int camp, int at, json_t *events,
                                 struct cairn_error *err);
enum cairn_status bit_strike_camp(struct bit_state *st, int seat, int camp, json_t *events,
                                  struct cairn_error *err);
bool bit_camp_ok(const struct bit_state *st, int seat, int camp, int at);
bool bit_strike_ok(const struct bit_state *st, int seat, int camp);
bool bit_has_climber(const struct bit_state *st, int seat, int at);
bool bit_has_any_climber(const struct bit_state *st, int at);

/* ---- night.c ---- */
/* Night: a seat's one decision (`rest` with the Unloaded Supplies it
 * declares for the bonus); resolve the Night and end the turn. */
enum cairn_status bit_declare_supplies(struct bit_state *st, int seat, const struct bit_move *rest,
                                       struct cairn_error *err);
bool bit_declaration_ok(const struct bit_state *st, int seat, const struct bit_move *rest);
/* Whether `card` alone may be declared by `seat` tonight. */
bool bit_declarable(const struct bit_state *st, int seat, int card);
enum cairn_status bit_night(struct bit_state *st, json_t *events, struct cairn_error *err);

/* ---- end.c ---- */
/* XI: victory check, turn 20, next turn; the result slot; scoring. */
enum cairn_status bit_end_of_turn(struct bit_state *st, json_t *events, struct cairn_error *err);
enum cairn_status bit_start_turn(struct bit_state *st, json_t *events, struct cairn_error *err);
json_t *bit_result(const struct engine_game *game);
void bit_score(struct bit_state *st);

/* ---- module.c: flow ---- */
/* Enter a phase and run what starts it. */
enum cairn_status bit_enter_phase(struct bit_state *st, int phase, json_t *events,
                                  struct cairn_error *err);
/* The write_legal, sample_move, write_view and serialize slots. */
void bit_write_legal(const struct engine_game *game, int seat, struct json_writer *w);
json_t *bit_sample_move(const struct engine_game *game, int seat, uint64_t choice);
void bit_write_view(const struct engine_game *game, int viewer, struct json_writer *w);
json_t *bit_serialize(const struct engine_game *game);
/* determinize.c: the module slot (engine.h). */
enum cairn_status bit_determinize(const char *view, size_t len, const json_t *options, int seat,
                                  struct engine_rng *rng, struct engine_game *game,
                                  struct cairn_error *err);
/* bot.c: the bot_evaluate slot (engine.h), the bots' measure of a seat. */
double bit_bot_evaluate(const struct engine_game *game, int seat);
/* playbook.c: the bot_policy slot (engine.h), the bots' rule of thumb. */
json_t *bit_bot_policy(const struct engine_game *game, int seat, uint64_t draw);
/* faces.c: write what is printed on `card` (text, effect, immunity,
 * recovery...) as members of its view object, open in `w`. */
void bit_write_card_face(struct json_writer *w, int card);

#endif
