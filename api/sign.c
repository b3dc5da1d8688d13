/*
 * sign.c - the server's signing key, and the bytes an export signature
 * covers (also in openapi/cairn.yaml, ExportSignature).
 *
 * The signature is Ed25519 (libsodium crypto_sign_detached) over
 *   "cairn-export-sig-2" || str(format) || str(id) || str(title) ||
 *   str(rules_version) || str(options) || u64(created_ms) || str(status) ||
 *   u64(seats) || for each seat: str(player id) || str(player name) ||
 *   seed_commitment (32 bytes) || str(seed: its 32 bytes, or empty while
 *   secret) || str(result, or empty while there is none) ||
 *   log_head (32 bytes) || u64(chain_format)
 * where u64(v) is 8 little-endian bytes and str(s) is u64(length of s)
 * followed by s; an empty seat has an empty id and name. options and result
 * are their JSON re-encoded compactly with keys sorted (jansson
 * JSON_COMPACT | JSON_SORT_KEYS: no whitespace, keys in byte order,
 * non-ASCII as UTF-8), so a document's own spacing does not matter.
 *
 * The moves are not listed: log_head pins every row through the chain, and
 * a verifier checks the chain against it. The seats are, because nothing
 * else binds them: without them a finished export could be given anyone's
 * player id.
 */
#include "sign.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void api_sign_key_path(const char *db_path, char *out, size_t size)
{
  const char *slash = strrchr(db_path, '/');

  if (!slash)
    snprintf(out, size, "server.key");
  else
    snprintf(out, size, "%.*s/server.key", (int)(slash - db_path), db_path);
}

static enum cairn_status read_key(int fd, const char *path, struct api_sign_key *key,
                                  struct cairn_error *err)
{
  ssize_t got = read(fd, key->sk, sizeof(key->sk));

  if (got != (ssize_t)sizeof(key->sk))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "%s is not a server key (64 bytes): remove it to make a new one", path);
  crypto_sign_ed25519_sk_to_pk(key->pk, key->sk);
  return CAIRN_OK;
}

/* A new key written with O_EXCL, so two servers starting on one folder
 * cannot each write their own: the loser reads the winner's. */
/* Create a key at `path` unless one is there: CAIRN_ENOTFOUND when one
 * is (read it instead). The key is written whole to a file of its own and
 * then linked into place, so a node starting beside another on a shared
 * folder reads either no key or a whole one, never half of one. */
static enum cairn_status create_key(const char *path, struct api_sign_key *key, int *fd,
                                    struct cairn_error *err)
{
  char tmp[4200];
  int linked;

  if (access(path, F_OK) == 0)
    return CAIRN_ENOTFOUND;
  snprintf(tmp, sizeof(tmp), "%s.new-XXXXXX", path);
  *fd = mkstemp(tmp); /* 0600 */
  if (*fd < 0)
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL, "cannot create %s: %s", path,
                      strerror(errno));
  crypto_sign_keypair(key->pk, key->sk);
  if (write(*fd, key->sk, sizeof(key->sk)) != (ssize_t)sizeof(key->sk) || fsync(*fd) != 0) {
    unlink(tmp);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL, "cannot write %s: %s", path,
                      strerror(errno));
  }
  linked = link(tmp, path) == 0 ? 0 : errno;
  unlink(tmp);
  if (linked == EEXIST) {
    sodium_memzero(key, sizeof(*key));
    close(*fd);
    *fd = -1;
    return CAIRN_ENOTFOUND; /* another node made it first: theirs is the key */
  }
  if (linked != 0)
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL, "cannot create %s: %s", path,
                      strerror(linked));
  return CAIRN_OK;
}

enum cairn_status api_sign_key_load(const char *path, bool create, struct api_sign_key *key,
                                    struct cairn_error *err)
{
  enum cairn_status st;
  int fd = -1;

  if (create) {
    st = create_key(path, key, &fd, err);
    if (st != CAIRN_ENOTFOUND) {
      close(fd);
      return st;
    }
  }
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "cannot open %s: %s", path,
                      strerror(errno));
  /* A key left readable by others (an older server, a copy) is closed up. */
  if (create)
    fchmod(fd, 0600);
  st = read_key(fd, path, key, err);
  close(fd);
  return st;
}

/* A growing byte string; `failed` once an allocation failed. */
struct bytes {
  uint8_t *p;
  size_t n, cap;
  bool failed;
};

static void put(struct bytes *b, const void *data, size_t n)
{
  if (b->failed || n == 0)
    return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 512;
    uint8_t *grown;

    while (cap < b->n + n)
      cap *= 2;
    grown = realloc(b->p, cap);
    if (!grown) {
      b->failed = true;
      return;
    }
    b->p = grown;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, n);
  b->n += n;
}

static void put_u64(struct bytes *b, uint64_t v)
{
  uint8_t le[8];
  int i;

  for (i = 0; i < 8; i++)
    le[i] = (uint8_t)(v >> (8 * i));
  put(b, le, sizeof(le));
}

static void put_str(struct bytes *b, const void *s, size_t n)
{
  put_u64(b, n);
  put(b, s, n);
}

static void put_text(struct bytes *b, const char *s)
{
  put_str(b, s, strlen(s));
}

/* JSON text re-encoded compactly with sorted keys; "" for none. */
static void put_json(struct bytes *b, const char *text)
{
  json_t *v = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
  char *canon = v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;

  if (text && !canon)
    b->failed = true;
  put_text(b, canon ? canon : "");
  free(canon);
  json_decref(v);
}

uint8_t *api_signed_bytes(const struct api_signed *what, size_t *len)
{
  static const char domain[] = "cairn-export-sig-2";
  const struct db_game *row = what->row;
  struct bytes b = {0};
  int i;

  put(&b, domain, sizeof(domain) - 1);
  put_text(&b, what->format);
  put_text(&b, row->id);
  put_text(&b, row->title);
  put_text(&b, row->rules_version);
  put_json(&b, row->options_json ? row->options_json : "{}");
  put_u64(&b, (uint64_t)row->created_ms);
  put_text(&b, row->status);
  put_u64(&b, (uint64_t)row->seats);
  for (i = 0; i < row->seats; i++) {
    put_text(&b, what->ids[i]);
    put_text(&b, what->ids[i][0] ? row->seat_name[i] : "");
  }
  put(&b, what->commitment, 32);
  put_str(&b, what->seed, what->seed ? ENGINE_SEED_BYTES : 0);
  put_json(&b, row->result_json);
  put(&b, what->log_head, DB_HASH_BYTES);
  put_u64(&b, (uint64_t)(row->chain_format ? row->chain_format : DB_CHAIN_FORMAT_CURRENT));
  if (b.failed) {
    free(b.p);
    return NULL;
  }
  *len = b.n;
  return b.p;
}

bool api_sign(const struct api_sign_key *key, const struct api_signed *what,
              uint8_t sig[DB_SIG_BYTES])
{
  size_t len = 0;
  uint8_t *msg = api_signed_bytes(what, &len);

  if (!msg)
    return false;
  crypto_sign_detached(sig, NULL, msg, len, key->sk);
  free(msg);
  return true;
}

bool api_sign_check(const uint8_t pk[DB_KEY_BYTES], const uint8_t sig[DB_SIG_BYTES],
                    const struct api_signed *what)
{
  size_t len = 0;
  uint8_t *msg = api_signed_bytes(what, &len);
  bool ok = msg && crypto_sign_verify_detached(sig, msg, len, pk) == 0;

  free(msg);
  return ok;
}

json_t *api_signer_report(const uint8_t *pk, const uint8_t *sig, const struct api_signed *what,
                          const struct api_sign_key *ours)
{
  char hex[2 * DB_KEY_BYTES + 1];
  const char *verdict = "absent";
  json_t *this_server = json_null(); /* offline: our key is not known */

  if (pk && sig)
    verdict = api_sign_check(pk, sig, what) ? "ok" : "bad";
  if (pk)
    sodium_bin2hex(hex, sizeof(hex), pk, DB_KEY_BYTES);
  if (ours)
    this_server = json_boolean(pk && sodium_memcmp(pk, ours->pk, DB_KEY_BYTES) == 0);
  return json_pack("{s:s, s:o, s:s, s:o}", "algorithm", "ed25519", "public_key",
                   pk ? json_string(hex) : json_null(), "signature", verdict, "this_server",
                   this_server);
}

void api_admin_token(const struct api_sign_key *key, char out[API_ADMIN_TOKEN_HEX + 1])
{
  static const char context[] = "cairn administrator token, version 1";
  uint8_t token[API_ADMIN_TOKEN_HEX / 2];

  crypto_generichash(token, sizeof(token), (const uint8_t *)context, sizeof(context) - 1, key->sk,
                     sizeof(key->sk));
  sodium_bin2hex(out, API_ADMIN_TOKEN_HEX + 1, token, sizeof(token));
  sodium_memzero(token, sizeof(token));
}
