/*
 * engine.h - the game-module interface: the contract between the server and
 * a title's rules.
 *
 * A title is one `const struct engine_module`, defined at the end of
 * engine/<title>/module.c and listed once in engine/titles.def. The server
 * never names a title in code; it asks engine_find().
 *
 * The engine is pure. A module turns (state, seat, move) into a new state
 * plus events, or a precise rule error. It does no I/O, reads no clock, has
 * no mutable globals, and draws randomness only from the generator inside
 * the state (`struct engine_game.rng`), so a seed and a move log always
 * replay to the same state, bit for bit. Dependencies: the C library and
 * jansson, nothing else.
 *
 * State layout. Each module's state struct embeds `struct engine_game` as its
 * FIRST member (as a VFS's file struct embeds sqlite3_file), so the server
 * handles `struct engine_game *` and the module casts it to its own type.
 * A state is one flat block of `state_size` bytes holding no pointer but the
 * static module: the core allocates, copies and frees it (game.c), so no
 * title writes its own clone or free.
 *
 * Options. A title declares its options once, in options_json (name, type,
 * default, bounds or values); the core checks what a creator gave against
 * that declaration before new_game runs (options.c), and the title reads
 * the checked values with engine_option_int / engine_option_string.
 *
 * Atomicity. The server never calls `apply_move` on a state it still needs:
 * engine_apply() clones the state, applies the move to the clone and hands
 * back the clone only on success. A module may therefore mutate freely and
 * return an error half-way; the original is untouched. The one exception
 * is engine_replay_step, for rows a game accepted once (replay): it applies
 * to the state itself, and a state it failed on is abandoned by its caller.
 *
 * Events. `apply_move` appends JSON objects to the `events` array. An event
 * is public unless it carries "private_to": [seat, ...], in which case only
 * those seats see it before the game is over (see engine_event_visible()).
 * Each event has a "type" string. A replay wants the state only, so it
 * passes no array at all (events NULL, version 5) and a module then builds
 * nothing: ENGINE_EMIT leaves a whole event unbuilt. Whether an event uncovered hidden
 * information (a card, a die, another seat's secret) is the module's to say
 * (the event_reveals slot), judged from the stored event alone.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cairn.h"
#include "jsonw.h"
#include "rng.h"

/* Bump when struct engine_module changes. Version 2 added event_reveals;
 * version 3 replaced free_game and clone_game by state_size (the core
 * owns every state's memory) and checks options centrally; version 4
 * replaced view and legal_moves, which built jansson trees, by write_view
 * and write_legal, which write JSON text (issue 22); version 5 changed no
 * slot's signature but apply_move's contract: it may be given events ==
 * NULL and must then build no event at all (engine_replay_step, issue 22:
 * a replay threw away the events it built, most of its time), so a module
 * built against version 4 would build them and crash on the NULL array;
 * version 6 added the optional write_choices (issue 24: one compact form of
 * `legal`) and determinize (issue 26: bots that decide from a seat's view
 * alone) slots, and later, with no bump (optional, last, NULL unless
 * named), bot_evaluate (issue 26: a title's measure for its bots). */
#define ENGINE_MODULE_VERSION 6

#define ENGINE_MAX_SEATS 8

/* Viewer values for `write_view` and `write_legal` besides a seat index (0-based). */
#define ENGINE_SPECTATOR  (-1) /* holds no seat: public information only */
#define ENGINE_OMNISCIENT (-2) /* audit view of a finished game: everything */

/* The common head of every module's state. Owned by the module's state. */
struct engine_game {
  const struct engine_module *module; /* Static: the title that made this state */
  int seats;                          /* number of seats, min_seats..max_seats */
  uint32_t seq;                       /* resolved steps so far, kept by engine_apply() */
  struct engine_rng rng;              /* the only source of randomness */
};

/* What a new game is built from. Borrowed for the duration of new_game. */
struct engine_setup {
  int seats;             /* min_seats..max_seats, checked by the caller */
  const json_t *options; /* Borrowed: a JSON object, or NULL for defaults */
};

struct engine_module {
  int version; /* ENGINE_MODULE_VERSION the module was built against */

  /* ---- Declarative data: answers GET /v1/titles without running code ---- */
  const char *id;            /* stable title id, e.g. "himalaya" */
  const char *name;          /* display name */
  int min_seats, max_seats;  /* 1..ENGINE_MAX_SEATS */
  const char *rules_version; /* changes whenever the rules code changes outcomes */
  const char *options_json;  /* JSON object text: {option: {type, default, description,
                              * minimum?, maximum?, values?}} (engine_module_check) */
  size_t state_size;         /* bytes of the module's state struct, head included */

  /* ---- Functions (version 1) ---- */

  /* Build the start position in `game`: state_size zeroed bytes that the
   * core owns, its head (module, seats, seq 0) already filled. The options
   * were checked against options_json (read them with engine_option_*); a
   * combination the declaration cannot express (a scenario for another seat
   * count) fails with CAIRN_EINVAL. The module seeds `rng` from `seed`. On
   * failure the core frees the block. */
  enum cairn_status (*new_game)(const struct engine_setup *setup,
                                const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *game,
                                struct cairn_error *err);

  /* Apply `move` (borrowed) for `seat`. The caller (engine_apply) has
   * already checked that the game is not over and that `seat` is in to_act.
   * Append events to `events` (borrowed array). From version 5 `events`
   * may be NULL (engine_replay_step): then build no event at all, not
   * even to throw it away (ENGINE_EMIT), and change the state exactly as
   * with an array: byte for byte the same serialisation. Set *pending = true when the
   * move was recorded but the step still awaits other seats (simultaneous
   * decisions); the game's seq then does not advance. Errors: CAIRN_EINVAL
   * with a bad-move/unknown-field/wrong-type code for a malformed move,
   * CAIRN_EILLEGAL with code illegal-move and a `rule` for a rule
   * violation. On error the state may be left half-changed: it is a clone
   * that the caller discards. */
  enum cairn_status (*apply_move)(struct engine_game *game, int seat, const json_t *move,
                                  json_t *events, bool *pending, struct cairn_error *err);

  /* Seats that owe a decision now, written to seats[], returning how many.
   * 0 when the game is over. */
  int (*to_act)(const struct engine_game *game, int seats[ENGINE_MAX_SEATS]);

  /* New reference: the result object once the game is over
   * ({"winners": [seat...], ...}), NULL while it runs. */
  json_t *(*result)(const struct engine_game *game);

  /* New reference: the complete module state (the common head is added by
   * engine_serialize_text), secrets included, in a canonical
   * form: two states are equal iff their serialisations are byte-equal
   * (json_dumps with JSON_SORT_KEYS | JSON_COMPACT). Used by replay checks
   * and snapshots; never sent to a client. */
  json_t *(*serialize)(const struct engine_game *game);

  /* Optional (NULL: engine_sample_move picks from the legal list). New
   * reference: one legal move for `seat`, chosen by `choice` (any 64-bit
   * number the caller drew; the same choice gives the same move), or NULL
   * when the seat may not act. Titles whose `legal` is a compact description
   * rather than a list (e.g. secret plans) must provide it: bots, random
   * playouts and benchmarks use it. Never touches the game's generator. */
  json_t *(*sample_move)(const struct engine_game *game, int seat, uint64_t choice);

  /* ---- Functions (version 2) ---- */

  /* Required from version 2. True when `event` (borrowed: one event this
   * module appended, as stored in a log) uncovered something hidden from a
   * seat until then: a card turned from a face-down deck (decks shuffled
   * ahead are drawn without touching the generator, so only the module
   * knows), a roll, a shuffle, or the content of other seats' secret or
   * simultaneous decisions. A card a seat shows from its own hand is not
   * hidden from that seat and need not count. A pure function of the event
   * alone, so stored logs are judged without change. The server never lets
   * a move be taken back once such an event followed it (game/takeback.c). */
  bool (*event_reveals)(const json_t *event);

  /* ---- Functions (version 4) ---- */

  /* Write to `out` the JSON array of moves `seat` may submit now (empty
   * when it may not act): exactly one value. Each element is a complete move object that apply_move
   * accepts, unless the title documents a compact form. The server writes it straight into its
   * answer, so no tree is built per request. */
  void (*write_legal)(const struct engine_game *game, int seat, struct json_writer *out);

  /* Write to `out` the state as `viewer` (a seat, ENGINE_SPECTATOR or
   * ENGINE_OMNISCIENT) may see it: exactly one JSON object. Never contains a
   * secret that viewer may not see: other hands, deck order, unrevealed
   * plans, the generator. */
  void (*write_view)(const struct engine_game *game, int viewer, struct json_writer *out);

  /* ---- Functions (version 5) ---- */

  /* Optional (NULL: engine_replay_text parses the text and calls
   * apply_move with no events). Apply the move written as JSON text
   * `move` (len bytes, borrowed; a stored log row's, as the server wrote
   * it) for `seat` exactly as apply_move with events NULL applies its
   * parsed tree: the same state, the same refusals, reading the text with
   * jsonr.h's cursor instead of building a tree (a tree cost a replay more
   * than the rules did: issue 22). CAIRN_DONE before any change of `game`
   * when the text is not one it reads (another form, another member, a
   * value it would refuse): the core then parses it. Called under
   * apply_move's preconditions, and pending as there. */
  enum cairn_status (*replay_text)(struct engine_game *game, int seat, const char *move, size_t len,
                                   bool *pending, struct cairn_error *err);

  /* ---- Functions (version 6) ---- */

  /* Optional (NULL: engine_write_choices builds the tree from write_legal's
   * list, engine_choices_of_legal). Write to `out` the choices tree of the
   * moves `seat` may submit now ("The choices tree" below), or null when it
   * may not act: exactly one value. For a title whose moves are too many
   * to list (Everest's plans): every path through the tree must be a move
   * apply_move accepts, and every move it accepts a path. */
  void (*write_choices)(const struct engine_game *game, int seat, struct json_writer *out);

  /* Optional (NULL: the title's bots play at random; engine_determinize).
   * Build in `game` (state_size zeroed bytes, head filled: module, seats,
   * seq) a running game consistent with what `seat` sees: `view` (len
   * bytes, borrowed) is the text this title's write_view wrote for `seat`
   * in a running game, `options` (borrowed, NULL for none) the game's
   * public options. Everything the view hides from `seat` (deck order,
   * other seats' hands, secret plans, simultaneous decisions not yet
   * shown) is sampled from `rng` (the caller's: the bot's own generator,
   * never the game's), as is the state's own generator (future rolls and
   * shuffles are unknown too). The result's write_view for `seat` is `view`
   * byte for byte, and the sample is uniform over what the view allows
   * unless the title's README says otherwise. It reads nothing but its
   * arguments: the bots' fairness rests on this slot seeing only the view.
   * CAIRN_EINVAL when the text is not a running game's view this title
   * wrote. */
  enum cairn_status (*determinize)(const char *view, size_t len, const json_t *options, int seat,
                                   struct engine_rng *rng, struct engine_game *game,
                                   struct cairn_error *err);

  /* Optional (NULL: a bot scores a playout by its result alone;
   * engine_bot_evaluate). A bot's knowledge of the title, not a rule: how
   * well `seat` is doing in `game`, in [0, 1] (height reached, health,
   * supplies...; higher is nearer a win), so a search whose playouts stop
   * short of the end, or whose random games almost never win, still tells
   * a better line from a worse one. Bots call it only on worlds sampled
   * from their own seat's view (determinize) and on their playouts of
   * them, never on a real game's state; it reads nothing but `game`, and
   * draws nothing. Optional and last: a module that does not name it
   * (every module is compiled with this header) has NULL, so it came with
   * no version bump. */
  double (*bot_evaluate)(const struct engine_game *game, int seat);

  /* Optional (NULL: a bot plays its sampled worlds on by bot_evaluate or
   * at random; bots/playout.c). A bot's knowledge of the title, not a
   * rule: the move the title's rule of thumb plays for `seat` in `game`
   * now (a new reference that apply_move accepts), or NULL when the seat
   * owes no decision; `draw` is the only randomness it may use. So a
   * search can play a world on to its end the way a sensible player would
   * where random play never reaches a goal (a Because It's There summit
   * takes days of climbing and resting). Like bot_evaluate it is called
   * only on worlds a bot sampled from its own seat's view and on its
   * playouts of them, and reads nothing but `game`. Optional and last, no
   * version bump (as bot_evaluate). */
  json_t *(*bot_policy)(const struct engine_game *game, int seat, uint64_t draw);
};

/* ---- Registry (registry.c) ---- */

/* Static: the module with this id, or NULL. */
const struct engine_module *engine_find(const char *id);

/* Static: the NULL-terminated table of every registered module. */
const struct engine_module *const *engine_modules(void);

/* Check one module against this build's interface: version, required
 * slots, seat range, and an options_json in the catalog's one vocabulary
 * (a JSON object of option specs, each with "type", "default" and
 * "description", and optionally "minimum" and "maximum" for an integer or
 * "values" for an enumeration; nothing else). CAIRN_EINTERNAL names what
 * is wrong. */
enum cairn_status engine_module_check(const struct engine_module *m, struct cairn_error *err);

/* engine_module_check on every registered module, and no id twice.
 * CAIRN_EINTERNAL names the first bad one. */
enum cairn_status engine_registry_check(struct cairn_error *err);

/* ---- Driving a game (game.c): the only way the server touches modules ---- */

/* Build a new game. Checks the seat count against the module first.
 * On success *out is the caller's, freed with engine_free(). */
enum cairn_status engine_new(const struct engine_module *module, const struct engine_setup *setup,
                             const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game **out,
                             struct cairn_error *err);

/* Release a game. Accepts NULL. */
void engine_free(struct engine_game *game);

/* A copy of `game` (the caller's, engine_free), or NULL when out of
 * memory. */
struct engine_game *engine_clone(const struct engine_game *game);

/* ---- Helpers for titles (kit.c) ---- */

/* Listing legal moves once. A title that finds its legal moves as its own
 * move structs walks them in a fixed order, handing each to
 * engine_list_take; the one walk then gives both write_legal (each move
 * written as it is found, no list built) and sample_move (move number
 * choice % n of that list, found by counting, nothing written). A title
 * embeds the struct first in its own walker, and its walk may stop early
 * once `found` is set. */
struct engine_list {
  void (*write)(const void *move, struct json_writer *out); /* the title's move writer */
  size_t move_size;                                         /* bytes of the title's move struct */
  struct json_writer *out; /* writing: Borrowed, the array being written; NULL otherwise */
  uint64_t taken;          /* moves taken so far */
  uint64_t wanted;         /* picking: the index of the move to keep */
  bool picking;            /* picking, not counting */
  bool found;              /* picking: `picked` holds move `wanted`; the walk may stop */
  void *picked;            /* picking: Borrowed, move_size bytes */
};

/* One legal move `move` (the title's struct, borrowed) found by a walk. */
void engine_list_take(struct engine_list *list, const void *move);

/* Write one JSON array of every move `walk(list)` takes (NULL: none, the
 * seat may not act) into `out`. */
void engine_list_write(struct engine_list *list, void (*walk)(struct engine_list *list),
                       struct json_writer *out);

/* Copy into `picked` (move_size bytes) move number choice % n of the n that
 * `walk` takes; false when it takes none. */
bool engine_list_pick(struct engine_list *list, void (*walk)(struct engine_list *list),
                      uint64_t choice, void *picked);

/* ---- The choices tree (choices.c; openapi/base.yaml, Choices) ----
 *
 * The one compact form of a seat's legal moves every title gives (issue 24):
 *   node   = {"choose": POINTER, "options": [option, ...]}   pick one option
 *          | {"all": [node, ...]}                           walk every part
 *   option = {"value": V}                   set POINTER to V: a whole move
 *          | {"value": V, "then": node}     set it, then walk `then`
 *          | {"value": V, "then": node, "done": true}  a whole move here,
 *                                           or go on into `then`
 * POINTER is a JSON pointer into the move being built ("/type",
 * "/plan/0/coin"; segments are plain names or array indices, never "~" or
 * "/"); a numeric segment makes an array. Every walk from the root is a
 * legal move and every legal move is a walk; a seat that may not act gets
 * null. "all" holds independent parts that set different members (a
 * plan's coins, faces and directions), so a product too large to list
 * stays small. */

/* Write the tree of the list `list` (len bytes of a JSON array of move
 * objects, as write_legal writes it; borrowed): each member of a move is
 * one choice, in the order the move's writer writes them. Marks `out`
 * failed when the text is no such list, or when one prefix of moves is
 * followed by members of different names. */
void engine_choices_from_list(const char *list, size_t len, struct json_writer *out);

/* engine_choices_from_list of the title's own write_legal list. */
void engine_choices_of_legal(const struct engine_game *game, int seat, struct json_writer *out);

/* A node's head ({"choose":pointer,"options":[) and its tail (]}): for a
 * title writing its own tree (write_choices). */
void engine_choice_node_begin(struct json_writer *out, const char *pointer);
void engine_choice_node_end(struct json_writer *out);

/* Append `event` (a new reference, or NULL when building it ran out of
 * memory) to `events`; CAIRN_ENOMEM when it could not be recorded. The
 * event is the array's, or released, either way. */
enum cairn_status engine_emit(json_t *events, json_t *event, struct cairn_error *err);

/* engine_emit(events, json_pack(...), err) when `events` is an array; when
 * it is NULL (apply_move's "build no events") CAIRN_OK, and the pack's
 * arguments are not even evaluated, so one that builds a tree for "o"
 * (everest_cell_json(cell)) neither costs nor leaks. A tree built before
 * the pack and handed in would leak: build it in the arguments, or only
 * when events is set. `events` is evaluated twice. */
#define ENGINE_EMIT(events, err, ...)                                                              \
  ((events) ? engine_emit((events), json_pack(__VA_ARGS__), (err)) : CAIRN_OK)

/* New reference, NULL when out of memory: [items[0], ..., items[n-1]]. */
json_t *engine_int_list(const int *items, int n);

/* New reference, NULL when out of memory: [item(items[0]), ...], each
 * item() a new reference (NULL item: the integers themselves). */
json_t *engine_mapped_list(const int *items, int n, json_t *(*item)(int));

/* ---- Sampling worlds for bots (kit.c) ---- */

/* Whether `module` can build a state from a seat's view (determinize). */
bool engine_can_determinize(const struct engine_module *module);

/* A full state of a `seats`-seat `module` game at step `seq` consistent
 * with `view` (len bytes, borrowed: write_view's text for `seat`) and
 * `options` (borrowed, NULL for none), hidden parts sampled from `rng`
 * (the determinize slot). On success *out is the caller's (engine_free).
 * CAIRN_EINVAL when the title has no such slot or refuses the view. */
enum cairn_status engine_determinize(const struct engine_module *module, int seats, uint32_t seq,
                                     const char *view, size_t len, const json_t *options, int seat,
                                     struct engine_rng *rng, struct engine_game **out,
                                     struct cairn_error *err);

/* Whether `game`'s title can judge a position for bots (the bot_evaluate
 * slot); when it can, *score is `seat`'s, in [0, 1]. */
bool engine_bot_evaluate(const struct engine_game *game, int seat, double *score);

/* Reading a view back (a determinize slot): each getter checks one member
 * of `obj` (borrowed) and, on the first thing wrong, records it in the
 * reader and answers a harmless value, so a slot reads a whole view and
 * asks `bad` once. */
struct engine_view_reader {
  bool bad;      /* something was missing, mistyped or out of range */
  char what[96]; /* the first such member's name */
};

/* An integer member in [min, max]; `key` NULL reads `obj` itself. */
int engine_vr_int(struct engine_view_reader *r, const json_t *obj, const char *key, int min,
                  int max);

/* A boolean member. */
bool engine_vr_bool(struct engine_view_reader *r, const json_t *obj, const char *key);

/* Borrowed: an array member of at most `max` elements; NULL when wrong,
 * which jansson's array calls read as an empty array. */
const json_t *engine_vr_array(struct engine_view_reader *r, const json_t *obj, const char *key,
                              size_t max);

/* Borrowed: a string member ("" when wrong). */
const char *engine_vr_string(struct engine_view_reader *r, const json_t *obj, const char *key);

/* A string member that must be one of names[0..n-1]: its index (0, and
 * the member recorded as wrong, when it is none of them). */
int engine_vr_name(struct engine_view_reader *r, const json_t *obj, const char *key,
                   const char *const *names, int n);

/* CAIRN_EINVAL naming the reader's first problem, or CAIRN_OK. */
enum cairn_status engine_vr_status(const struct engine_view_reader *r, const char *title,
                                   struct cairn_error *err);

/* Seed `target` from 32 bytes drawn from `source`: a sampled world's own
 * generator, unknown to the seat that sampled it. */
void engine_rng_fork(struct engine_rng *source, struct engine_rng *target);

/* ---- Options (options.c) ---- */

/* Check `options` (borrowed; NULL for none) against m's declaration: an
 * object whose every key is declared (else CAIRN_EINVAL unknown-field,
 * naming the smallest such key), each value of the declared type
 * (wrong-type) and within its bounds or values (bad-value). */
enum cairn_status engine_options_check(const struct engine_module *m, const json_t *options,
                                       struct cairn_error *err);

/* A checked integer option: the given value, or the declared default. */
json_int_t engine_option_int(const struct engine_module *m, const json_t *options, const char *key);

/* Borrowed: a checked string option as given, or NULL when not given (the
 * title applies its default, which may depend on the seats). */
const char *engine_option_string(const json_t *options, const char *key);

/* Apply a move without touching `game`: checks the game is not over and the
 * seat may act (CAIRN_ETURN, not-your-turn), applies the move to a clone,
 * advances seq unless the step is pending. On success *next (a new state,
 * caller frees with engine_free) and *events (new reference, a JSON array)
 * are the caller's; on failure both are NULL and `game` is unchanged. */
enum cairn_status engine_apply(const struct engine_game *game, int seat, const json_t *move,
                               struct engine_game **next, json_t **events, struct cairn_error *err);

/* Apply a move that `game` accepted once (a stored log row) to `game`
 * itself, building no events: the replay's step. The same checks as
 * engine_apply (seat, not over, may act, an object) and the same state
 * as engine_apply's *next, byte for byte, without its clone and its
 * events. On failure `game` may be half-changed and must be discarded:
 * a row that no longer replays is an internal error, never skipped. */
enum cairn_status engine_replay_step(struct engine_game *game, int seat, const json_t *move,
                                     struct cairn_error *err);

/* engine_replay_step for a move given as its stored JSON text (len bytes,
 * borrowed): through the title's replay_text when it reads the text,
 * otherwise parsed (jr_parse) and stepped. A text that is no JSON object
 * is CAIRN_EINVAL wrong-type. The same state as engine_apply's, and the
 * same contract on failure. */
enum cairn_status engine_replay_text(struct engine_game *game, int seat, const char *move,
                                     size_t len, struct cairn_error *err);

/* The game's slots, called only through these (the server never reaches into
 * a module's table, so the entry file is where a slot's contract is kept).
 * engine_to_act: the seats that owe a decision, written to seats[], and how
 * many (0 once over). engine_write_legal, engine_write_view: the
 * write_legal and write_view slots, one value written into `out` (the
 * server's answers; no tree is built). engine_legal_moves, engine_view: the
 * same parsed into a new reference (NULL when out of memory), for callers
 * that want a tree: tools, tests, bots. engine_result: new reference, the
 * result object, or NULL while the game runs. */
int engine_to_act(const struct engine_game *game, int seats[ENGINE_MAX_SEATS]);
void engine_write_legal(const struct engine_game *game, int seat, struct json_writer *out);
void engine_write_view(const struct engine_game *game, int viewer, struct json_writer *out);
/* The choices tree of `seat` (the write_choices slot, or the tree of the
 * legal list), one value into `out`; engine_choices: the same parsed (new
 * reference; NULL when the seat may not act, or out of memory). */
void engine_write_choices(const struct engine_game *game, int seat, struct json_writer *out);
json_t *engine_choices(const struct engine_game *game, int seat);
json_t *engine_legal_moves(const struct engine_game *game, int seat);
json_t *engine_view(const struct engine_game *game, int viewer);
json_t *engine_result(const struct engine_game *game);

/* New reference: a legal move for `seat` chosen by `choice` (see the
 * sample_move slot), or NULL when the seat may not act. */
json_t *engine_sample_move(const struct engine_game *game, int seat, uint64_t choice);

/* True when `seat` is among the seats that owe a decision. */
bool engine_may_act(const struct engine_game *game, int seat);

/* True once the module reports a result. */
bool engine_is_over(const struct engine_game *game);

/* New reference: the canonical serialisation as a string (caller frees with
 * free()), or NULL when out of memory. Equal states give equal strings. */
char *engine_serialize_text(const struct engine_game *game);

/* Whether `viewer` may see `event` (borrowed). Public events are visible to
 * all; "private_to" events only to the listed seats until `game_over`. */
bool engine_event_visible(const json_t *event, int viewer, bool game_over);

/* Whether `event` (borrowed) of a `module` game uncovered hidden information
 * (the event_reveals slot). A module older than version 2 cannot say, so
 * every one of its events counts as revealing: the fog errs on the safe side. */
bool engine_event_reveals(const struct engine_module *module, const json_t *event);

/* True when the "type" of `event` (borrowed) is one of `types` (a
 * NULL-terminated list): the usual body of an event_reveals. */
bool engine_event_is(const json_t *event, const char *const types[]);

#endif
