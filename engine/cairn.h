/*
 * cairn.h - the one status type and error struct shared by every layer.
 *
 * Every function that can fail returns `enum cairn_status` and takes a
 * `struct cairn_error *err` as its last argument. The enum is coarse (one
 * value per kind of outcome, like SQLite's primary result codes); the stable,
 * machine-readable `code` string refines it, and `rule` names the rules-text
 * heading a rule violation breaks. `code` and `rule` always point to static
 * strings and `detail` lives inside the struct, so reporting a failure never
 * allocates.
 *
 * Only api/problem.c turns a status into an HTTP status. Never renumber:
 * new statuses go at the end.
 */
#ifndef CAIRN_H
#define CAIRN_H

#include <stdarg.h>

enum cairn_status {
  CAIRN_OK = 0,    /* success */
  CAIRN_EINVAL,    /* malformed request: bad JSON, wrong type, unknown field */
  CAIRN_EILLEGAL,  /* well-formed move that the rules forbid */
  CAIRN_ETURN,     /* not this seat's turn, or the caller holds no seat */
  CAIRN_ESTALE,    /* optimistic concurrency: the seq moved on */
  CAIRN_ENOTFOUND, /* no such resource */
  CAIRN_EAUTH,     /* missing or unknown token */
  CAIRN_ENOMEM,    /* allocation failed */
  CAIRN_EDB,       /* storage failed; nothing was changed */
  CAIRN_EINTERNAL, /* a bug: an invariant did not hold */
  CAIRN_ECONFLICT, /* the request conflicts with the resource's state */
  CAIRN_ETOOLARGE, /* request body over the cap */
  CAIRN_DONE,      /* not a failure: a walk's callback has seen all it needs (db.h) */
};

/* Stable `code` strings (api.md). Clients match on these; never change one. */
#define CAIRN_CODE_BAD_JSON        "bad-json"
#define CAIRN_CODE_UNKNOWN_FIELD   "unknown-field"
#define CAIRN_CODE_MISSING_FIELD   "missing-field"
#define CAIRN_CODE_WRONG_TYPE      "wrong-type"
#define CAIRN_CODE_BAD_VALUE       "bad-value"
#define CAIRN_CODE_BAD_MOVE        "bad-move"
#define CAIRN_CODE_ILLEGAL_MOVE    "illegal-move"
#define CAIRN_CODE_NOT_YOUR_TURN   "not-your-turn"
#define CAIRN_CODE_NOT_SEATED      "not-seated"
#define CAIRN_CODE_STALE_SEQ       "stale-seq"
#define CAIRN_CODE_NOT_FOUND       "not-found"
#define CAIRN_CODE_MISSING_TOKEN   "missing-token"
#define CAIRN_CODE_BAD_TOKEN       "bad-token"
#define CAIRN_CODE_OUT_OF_MEMORY   "out-of-memory"
#define CAIRN_CODE_STORAGE         "storage-unavailable"
#define CAIRN_CODE_INTERNAL        "internal"
#define CAIRN_CODE_GAME_NOT_ACTIVE "game-not-active"
#define CAIRN_CODE_GAME_NOT_OPEN   "game-not-open"
#define CAIRN_CODE_SEAT_TAKEN      "seat-taken"
#define CAIRN_CODE_SEAT_RESERVED   "seat-reserved" /* kept for an invited player */
/* A rematch of a game still open or played; a cancel by another player. */
#define CAIRN_CODE_GAME_NOT_FINISHED "game-not-finished"
#define CAIRN_CODE_NOT_CREATOR       "not-creator"
#define CAIRN_CODE_ALREADY_SEATED    "already-seated"
#define CAIRN_CODE_ALREADY_RESIGNED  "already-resigned" /* a resigned seat acts */
#define CAIRN_CODE_BODY_TOO_LARGE    "body-too-large"
#define CAIRN_CODE_METHOD            "method-not-allowed"
#define CAIRN_CODE_MEDIA_TYPE        "unsupported-media-type"
#define CAIRN_CODE_BAD_QUERY         "bad-query"
#define CAIRN_CODE_GAME_EXISTS       "game-exists"
#define CAIRN_CODE_BAD_RECORD        "bad-record"
#define CAIRN_CODE_RULES_RETIRED     "rules-version-retired"
#define CAIRN_CODE_NO_TAKEBACK       "no-takeback"
#define CAIRN_CODE_RATE_LIMITED      "rate-limited"
#define CAIRN_CODE_TOO_MANY_GAMES    "too-many-games"
#define CAIRN_CODE_TOO_MANY_HOOKS    "too-many-webhooks"
#define CAIRN_CODE_CHAT_DELETED      "chat-deleted" /* a chat message deleted twice (issue 25) */

struct cairn_error {
  enum cairn_status status; /* CAIRN_OK until something fails */
  const char *code;         /* Static: one of CAIRN_CODE_*, or NULL */
  const char *rule;         /* Static: "title: Rules Heading", or NULL */
  char detail[256];         /* human-readable, names what was wrong */
};

/*
 * Fill `err` (which may be NULL) and return `status`, so a check can end in
 * `return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, rule, ...)`.
 * `code` and `rule` must be static strings; `rule` may be NULL.
 */
enum cairn_status cairn_fail(struct cairn_error *err, enum cairn_status status, const char *code,
                             const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Reset `err` to "no error". */
void cairn_error_clear(struct cairn_error *err);

/* Static: a short name for a status ("illegal", "stale", ...), for logs. */
const char *cairn_status_name(enum cairn_status status);

#endif
