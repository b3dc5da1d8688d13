/*
 * state.h - Himalaya's game state and the names its files share.
 *
 * The state is plain fixed-size arrays with no pointers (other than the
 * static module pointer in the common head), so cloning a game is malloc
 * plus memcpy and two equal positions are equal byte for byte once
 * serialised. Fields are numbered along the path: 0 is Base Camp, 1..39 the
 * climbing route, 40 the summit (see RULES.md for the reconstruction).
 *
 * Functions here follow the house convention: those that can fail return
 * enum cairn_status and take `struct cairn_error *err` last. `events` is
 * always Borrowed: a JSON array the caller owns, to which new events are
 * appended. The only failure an event-emitting function meets besides a
 * rule violation is CAIRN_ENOMEM.
 */
#ifndef HIMALAYA_STATE_H
#define HIMALAYA_STATE_H

#include <jansson.h>
#include <stdbool.h>

#include "engine/engine.h"

/* Static: the module instance (module.c), listed in engine/titles.def. */
extern const struct engine_module himalaya_module;

/* ---- The board (Special Spaces; RULES.md "The path") ---- */
#define HIMALAYA_BASE_CAMP   0
#define HIMALAYA_SUMMIT      40
#define HIMALAYA_HIGH_CAMP_1 15
#define HIMALAYA_HIGH_CAMP_2 28
#define HIMALAYA_HIGH_CAMPS  2 /* camps where supplies can be freshened */
#define HIMALAYA_YETI_CAVE   21
#define HIMALAYA_YETI_LOW    1  /* the Yeti never enters base camp ... */
#define HIMALAYA_YETI_HIGH   39 /* ... nor the summit */

/* ---- Pieces and components ---- */
#define HIMALAYA_MIN_SEATS  2
#define HIMALAYA_MAX_SEATS  5
#define HIMALAYA_SHERPAS    4 /* "four Sherpas of one color" */
#define HIMALAYA_DIE_SIDES  6
#define HIMALAYA_EXTRA_DICE 3                                          /* dice = seats + 3 */
#define HIMALAYA_MAX_DICE   (HIMALAYA_MAX_SEATS + HIMALAYA_EXTRA_DICE) /* 8, as the review says */
#define HIMALAYA_CARD_KINDS 3  /* supply cards "1/2", "3/4", "5/6" */
#define HIMALAYA_YETI_CARDS 10 /* Up 1..5, Down 1..4 and Bad Weather */

/* A Yeti card: +n moves the Yeti n fields up, -n down, 0 is Bad Weather. */
#define HIMALAYA_BAD_WEATHER 0

enum himalaya_end {
  HIMALAYA_RUNNING = 0,
  HIMALAYA_END_SUMMIT,      /* a climber reached field 40 */
  HIMALAYA_END_BAD_WEATHER, /* the Bad Weather card was uncovered */
};

/* One seat's pieces and supply cards. */
struct himalaya_seat {
  int climber;                         /* field 0..40 */
  int sherpa[HIMALAYA_SHERPAS];        /* fields 0..40, never 21 */
  bool has_card[HIMALAYA_CARD_KINDS];  /* dealt at setup: kind k is "2k+1/2k+2" */
  int spent[HIMALAYA_CARD_KINDS];      /* card kinds set beside the board, oldest first */
  int spent_count;                     /* 0..HIMALAYA_CARD_KINDS */
  bool camp_used[HIMALAYA_HIGH_CAMPS]; /* supplies already freshened at camp 15, 28 */
};

struct himalaya_state {
  struct engine_game head; /* must stay first: the server handles this part */
  struct himalaya_seat seat[HIMALAYA_MAX_SEATS];
  int yeti;                         /* field 1..39 */
  int dice;                         /* dice in play: seats + 3 */
  int pool[HIMALAYA_DIE_SIDES + 1]; /* pool[v]: untaken dice showing v; pool[0] unused */
  int current;                      /* seat to act */
  int deck[HIMALAYA_YETI_CARDS];    /* undrawn Yeti cards, top first (secret) */
  int deck_len;                     /* 0..10 */
  int discard[HIMALAYA_YETI_CARDS]; /* face-up cards drawn since the last shuffle, in order */
  int discard_len;                  /* 0..10 */
  bool bad_weather_in_deck;         /* false while it lies face up under the first stack */
  enum himalaya_end end;            /* HIMALAYA_RUNNING until the game is over */
  bool winner[HIMALAYA_MAX_SEATS];  /* meaningful once `end` is set */
};

/* ---- A move, parsed (moves.c) ---- */
enum himalaya_move_type {
  HIMALAYA_MOVE_DIE,    /* take a die from the pool */
  HIMALAYA_MOVE_SUPPLY, /* play a supply card */
  HIMALAYA_MOVE_REROLL, /* throw all dice again when one is left */
};

enum himalaya_pawn {
  HIMALAYA_PAWN_NONE, /* a die taken without moving (nothing can move by it) */
  HIMALAYA_PAWN_CLIMBER,
  HIMALAYA_PAWN_SHERPA,
};

struct himalaya_move {
  enum himalaya_move_type type;
  int value; /* 1..6: the die taken or the card number chosen */
  int card;  /* supply only: card kind 0..2 */
  enum himalaya_pawn pawn;
  int sherpa;          /* sherpa moves: 0..3 */
  bool down;           /* sherpa moves: backwards by half the value, rounded up */
  bool take_along;     /* sherpa moves: apply the take-along rule */
  unsigned companions; /* bit i: own Sherpa i travels along (take-along only) */
  bool restore;        /* die and supply moves: pick up a used card at a high camp */
  int restore_card;    /* with restore: the card kind 0..2 taken back into the hand */
};

/* Where a legal pawn move ends, worked out before anything changes. */
struct himalaya_plan {
  int from;            /* field the pawn leaves */
  int landing;         /* field the die or card move itself ends on */
  int extra;           /* fields added by the take-along rule, 0 if none */
  int reached;         /* landing + extra: where the pawn stops before any slide */
  int to;              /* final field, after an avalanche or landslide */
  bool summit;         /* climber reaches field 40 and wins */
  unsigned companions; /* Sherpas travelling along (copied from the move) */
};

/* ---- moves.c: move JSON ---- */

/* Parse `json` (Borrowed) into *out. CAIRN_EINVAL with bad-move,
 * unknown-field, missing-field or wrong-type naming the member. */
enum cairn_status himalaya_move_parse(const json_t *json, struct himalaya_move *out,
                                      struct cairn_error *err);

/* Write the canonical JSON of `m` (every member present) to `w`: the form
 * legal lists give. */
void himalaya_move_write(const struct himalaya_move *m, struct json_writer *w);
/* The same members in the order a client chooses them (the choices tree,
 * himalaya_write_choices): what most moves share first (the die, the card,
 * the pawn, no take-along), which Sherpa last, the card picked up after. */
void himalaya_move_write_choices(const struct himalaya_move *m, struct json_writer *w);

/* A move's members, in that order. */
enum himalaya_member {
  HIMALAYA_MEMBER_TYPE,
  HIMALAYA_MEMBER_VALUE,
  HIMALAYA_MEMBER_CARD,
  HIMALAYA_MEMBER_PAWN,
  HIMALAYA_MEMBER_TAKE_ALONG,
  HIMALAYA_MEMBER_COMPANIONS,
  HIMALAYA_MEMBER_DIRECTION,
  HIMALAYA_MEMBER_SHERPA,
  HIMALAYA_MEMBER_RESTORE,
  HIMALAYA_MEMBERS
};

/* A move as the choices tree reads it: its members in choice order, each
 * with its value's place among the values that member can take, in the
 * order engine/choices.c sorts values (counts by size, the rest by their
 * text), so moves ordered by their ranks are ordered as that builder
 * orders their texts. */
struct himalaya_steps {
  int n;
  uint8_t member[HIMALAYA_MEMBERS]; /* enum himalaya_member */
  uint8_t rank[HIMALAYA_MEMBERS];
  /* The ranks packed, first step highest, an absent step 0: moves ordered
   * by their keys are ordered step by step, a move that is another's
   * first steps before it. */
  uint64_t key;
};

void himalaya_move_steps(const struct himalaya_move *m, struct himalaya_steps *s);
/* Static: the pointer a node choosing `member` names ("/type", ...). */
const char *himalaya_member_pointer(enum himalaya_member member);
/* Write the value `m` gives `member`, as himalaya_move_write_choices does. */
void himalaya_member_write(const struct himalaya_move *m, enum himalaya_member member,
                           struct json_writer *w);

/* New reference: the same as a tree, or NULL when out of memory. */
json_t *himalaya_move_json(const struct himalaya_move *m);

/* ---- dice.c: The Game (dice pool, supply cards, turn flow) ---- */

/* Static: "1/2", "3/4" or "5/6". */
const char *himalaya_card_name(int kind);

/* The lower number of card kind `kind`; the higher is one more. */
int himalaya_card_low(int kind);

/* The card kind named `name`, or -1. */
int himalaya_card_kind(const char *name);

/* Whether card kind `kind` lies spent beside the board for this seat. */
bool himalaya_card_spent(const struct himalaya_seat *p, int kind);

/* The untaken dice, lowest first, written to values[]; returns how many. */
int himalaya_pool_values(const struct himalaya_state *st, int values[HIMALAYA_MAX_DICE]);

/* Throw all dice into an empty pool without drawing a Yeti card (setup). */
void himalaya_throw_dice(struct himalaya_state *st, int rolled[HIMALAYA_MAX_DICE]);

/* Check `m` for `seat` against every rule without changing anything; on
 * success *plan says where the pawn ends (untouched for reroll and "none"). */
enum cairn_status himalaya_check_move(const struct himalaya_state *st, int seat,
                                      const struct himalaya_move *m, struct himalaya_plan *plan,
                                      struct cairn_error *err);

/* Check and carry out `m` for `seat`, then pass the turn (and re-throw when
 * the pool is empty). On error `st` may be half-changed: it is a clone. */
enum cairn_status himalaya_play(struct himalaya_state *st, int seat, const struct himalaya_move *m,
                                json_t *events, struct cairn_error *err);

/* ---- spaces.c: Special Spaces ---- */

/* The start field of Sherpa `sherpa` (0..3): "the four first fields". */
int himalaya_sherpa_start(int sherpa);

/* The field of high camp `c` (0..1): 15 or 28. */
int himalaya_high_camp(int c);

/* Where a Sherpa landing on `field` ends: the arrow target of an avalanche
 * or landslide, else `field` itself. */
int himalaya_slide_target(int field);

bool himalaya_is_snowfield(int field);

/* Base camp or a high camp: Sherpas there are safe from the Yeti. */
bool himalaya_is_camp(int field);

/* The highest camp (0, 15, 28) strictly below `field` (field >= 1). */
int himalaya_last_camp(int field);

/* How many Sherpas of any colour stand on `field`. */
int himalaya_sherpas_on(const struct himalaya_state *st, int field);

/* How many Sherpas of `seat` stand on `field`. */
int himalaya_own_sherpas_on(const struct himalaya_state *st, int seat, int field);

/* CAIRN_EILLEGAL (Special Spaces) when a pawn may not end a step on
 * `field`: the Yeti cave or the Yeti's field. `who` names the pawn. */
enum cairn_status himalaya_check_stop(const struct himalaya_state *st, const char *who, int field,
                                      struct cairn_error *err);

/* CAIRN_EILLEGAL (Special Spaces) when a supply-card move may not touch
 * `field`: a snowfield or the summit. */
enum cairn_status himalaya_check_supply_stop(const char *who, int field, struct cairn_error *err);

/* CAIRN_EILLEGAL (Special Spaces) when a supply card may not move a pawn
 * standing on `field`: a snowfield (RULES.md "Snowfields and the summit"). */
enum cairn_status himalaya_check_supply_start(const char *who, int field, struct cairn_error *err);

/* The high camp (0..1) where `seat`, its Sherpas standing on fields[], may
 * freshen supplies: two or more of them there and that camp's gain still
 * unused; the lower camp first. -1 when there is none. */
int himalaya_restore_camp(const struct himalaya_state *st, int seat,
                          const int fields[HIMALAYA_SHERPAS]);

/* CAIRN_EILLEGAL (Special Spaces) unless `seat` may pick up used card kind
 * `card` with its Sherpas standing on fields[] (m: the move asking). */
enum cairn_status himalaya_check_restore(const struct himalaya_state *st, int seat,
                                         const struct himalaya_move *m,
                                         const int fields[HIMALAYA_SHERPAS],
                                         struct cairn_error *err);

/* Take used card kind `card` back into `seat`'s hand at the high camp its
 * Sherpas now qualify for (checked by himalaya_check_restore). */
enum cairn_status himalaya_restore(struct himalaya_state *st, int seat, int card, json_t *events,
                                   struct cairn_error *err);

/* New reference: the name a player reads for `field` ("Base Camp",
 * "High Camp I", "High Camp II", "Yeti Cave", "Summit", else "field 12"),
 * or NULL when out of memory. */
json_t *himalaya_field_name(int field);

/* Write the board description for views to `w`. */
void himalaya_write_board(struct json_writer *w);

/* ---- sherpas.c: Moving the Sherpas, Take-along rule ---- */

enum cairn_status himalaya_sherpa_plan(const struct himalaya_state *st, int seat,
                                       const struct himalaya_move *m, struct himalaya_plan *plan,
                                       struct cairn_error *err);

/* Carry out a checked plan and report it. */
enum cairn_status himalaya_sherpa_move(struct himalaya_state *st, int seat,
                                       const struct himalaya_move *m,
                                       const struct himalaya_plan *plan, json_t *events,
                                       struct cairn_error *err);

/* ---- climbers.c: Moving the Mountain Climbers ---- */

enum cairn_status himalaya_climber_plan(const struct himalaya_state *st, int seat,
                                        const struct himalaya_move *m, struct himalaya_plan *plan,
                                        struct cairn_error *err);

enum cairn_status himalaya_climber_move(struct himalaya_state *st, int seat,
                                        const struct himalaya_move *m,
                                        const struct himalaya_plan *plan, json_t *events,
                                        struct cairn_error *err);

/* ---- yeti.c: Moving the Yeti ---- */

/* The name of Yeti card `card`, "up 3", "down 2" or "bad weather",
 * written to buf; returns buf. */
#define HIMALAYA_YETI_NAME_SIZE 16
const char *himalaya_yeti_card_name(int card, char buf[HIMALAYA_YETI_NAME_SIZE]);

/* Uncover the top Yeti card (shuffling first if the stack is empty) and
 * resolve it: move the Yeti and chase Sherpas, or end the game. */
enum cairn_status himalaya_yeti_turn(struct himalaya_state *st, json_t *events,
                                     struct cairn_error *err);

/* The special case: `seat`'s climber has just left `from`; its Sherpas
 * left alone there with the Yeti escape to the last camp. */
enum cairn_status himalaya_left_behind(struct himalaya_state *st, int seat, int from,
                                       json_t *events, struct cairn_error *err);

/* ---- end.c: Game End ---- */

enum cairn_status himalaya_summit(struct himalaya_state *st, int seat, json_t *events,
                                  struct cairn_error *err);

enum cairn_status himalaya_bad_weather(struct himalaya_state *st, json_t *events,
                                       struct cairn_error *err);

/* Write the result object to `w` ({"winners", "reason", "climbers"}), or
 * null while the game runs. */
void himalaya_write_result(const struct himalaya_state *st, struct json_writer *w);

/* New reference: the result object, or NULL while the game runs (and when
 * out of memory). */
json_t *himalaya_result(const struct engine_game *game);

/* ---- view.c: what each seat may see ---- */

/* Write the position's members (pieces, dice, supply, Yeti deck, result)
 * into the object open in `w`, with the undrawn deck order only when
 * `secrets`. Views add the board; serialize.c uses it with secrets. */
void himalaya_write_position(const struct himalaya_state *st, bool secrets, struct json_writer *w);

/* ---- the module slots (setup.c, legal.c, view.c, serialize.c) ---- */

enum cairn_status himalaya_new_game(const struct engine_setup *setup,
                                    const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                    struct cairn_error *err);
void himalaya_write_legal(const struct engine_game *game, int seat, struct json_writer *out);
json_t *himalaya_sample_move(const struct engine_game *game, int seat, uint64_t choice);
void himalaya_write_choices(const struct engine_game *game, int seat, struct json_writer *out);
void himalaya_write_view(const struct engine_game *game, int viewer, struct json_writer *w);
json_t *himalaya_serialize(const struct engine_game *game);
enum cairn_status himalaya_determinize(const char *view, size_t len, const json_t *options,
                                       int seat, struct engine_rng *rng, struct engine_game *game,
                                       struct cairn_error *err);

/* ---- module.c: shared glue ---- */

/* Borrowed from `obj`: the alphabetically smallest key that `known`
 * (NULL: none is) does not accept, or NULL. Naming the smallest keeps
 * error messages independent of the object's key order. */
const char *himalaya_unknown_key(const json_t *obj, bool (*known)(const void *ctx, const char *key),
                                 const void *ctx);

#endif
