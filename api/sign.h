/*
 * sign.h - the server's Ed25519 signing key and the signatures on export
 * documents (sign.c has the signed bytes). A signature says "this server
 * saw this game played, with these seats": an import signed by the
 * server's own key may name its players; anything else is stored as names
 * only (records.c).
 */
#ifndef API_SIGN_H
#define API_SIGN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../db/db.h"

/* The server's key pair (libsodium crypto_sign). */
struct api_sign_key {
  uint8_t pk[DB_KEY_BYTES];
  uint8_t sk[64];
};

/* Where the key of a server using database `db_path` lives: the file
 * "server.key" beside the database (the data directory). */
void api_sign_key_path(const char *db_path, char *out, size_t size);

/* Read the key at `path` or, when there is none, create one there with mode
 * 0600 (and make an existing file 0600 too: it is a secret). With `create`
 * false a missing file is CAIRN_ENOTFOUND. */
enum cairn_status api_sign_key_load(const char *path, bool create, struct api_sign_key *key,
                                    struct cairn_error *err);

/* The administrator's token of a server with `key`, 64 hex digits: a
 * keyed hash of its secret, so whoever may read server.key (the data
 * directory's owner) holds it, and nobody else, without another secret
 * file to keep. Sent as X-Admin-Token to the operator's endpoints
 * (api/admin.c: GET /admin/backup). */
#define API_ADMIN_TOKEN_HEX 64
void api_admin_token(const struct api_sign_key *key, char out[API_ADMIN_TOKEN_HEX + 1]);

/* What an export signature covers, borrowed for the call. */
struct api_signed {
  const char *format; /* the document's "format" */
  const struct db_game *row;
  const char (*ids)[DB_ID_MAX + 1]; /* each seat's player id ("" for none) */
  const uint8_t *commitment;        /* 32 bytes: the seed commitment */
  const uint8_t *seed;              /* ENGINE_SEED_BYTES, NULL while secret */
  const uint8_t *log_head;          /* DB_HASH_BYTES */
};

/* OUT, caller frees with free(): the signed bytes (sign.c documents them),
 * their length in *len. NULL when out of memory. */
uint8_t *api_signed_bytes(const struct api_signed *what, size_t *len);

/* Sign `what` with `key` into sig[DB_SIG_BYTES]. False when out of memory. */
bool api_sign(const struct api_sign_key *key, const struct api_signed *what,
              uint8_t sig[DB_SIG_BYTES]);

/* Whether sig is pk's signature over `what`. */
bool api_sign_check(const uint8_t pk[DB_KEY_BYTES], const uint8_t sig[DB_SIG_BYTES],
                    const struct api_signed *what);

/* New reference: {algorithm: "ed25519", public_key: hex|null,
 * signature: "ok"|"bad"|"absent", this_server: bool|null}. `pk` and `sig`
 * NULL for an unsigned record; `ours` NULL where this server's key is not
 * known (offline), which makes this_server null. */
json_t *api_signer_report(const uint8_t *pk, const uint8_t *sig, const struct api_signed *what,
                          const struct api_sign_key *ours);

#endif
