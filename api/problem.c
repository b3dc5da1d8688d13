/*
 * problem.c - the only place where a cairn_status becomes an HTTP status and
 * an RFC 9457 problem+json body. The fine `code` decides when it has its own
 * row (405 and 415 are both CAIRN_EINVAL underneath); otherwise the coarse
 * status does.
 */
#include "api.h"

#include <string.h>

struct problem_kind {
  const char *code;
  unsigned int http;
  const char *title;
};

static const struct problem_kind by_code[] = {
    {CAIRN_CODE_BAD_JSON, 400, "Body is not valid JSON"},
    {CAIRN_CODE_UNKNOWN_FIELD, 400, "Unknown field"},
    {CAIRN_CODE_MISSING_FIELD, 400, "Missing field"},
    {CAIRN_CODE_WRONG_TYPE, 400, "Wrong type"},
    {CAIRN_CODE_BAD_VALUE, 400, "Unacceptable value"},
    {CAIRN_CODE_BAD_MOVE, 400, "Malformed move"},
    {CAIRN_CODE_BAD_QUERY, 400, "Bad query parameter"},
    {CAIRN_CODE_MISSING_TOKEN, 401, "Authentication required"},
    {CAIRN_CODE_BAD_TOKEN, 401, "Invalid token"},
    {CAIRN_CODE_NOT_SEATED, 403, "Not seated in this game"},
    {CAIRN_CODE_NOT_YOUR_TURN, 403, "Not your turn"},
    {CAIRN_CODE_NOT_FOUND, 404, "Not found"},
    {CAIRN_CODE_METHOD, 405, "Method not allowed"},
    {CAIRN_CODE_STALE_SEQ, 409, "Stale sequence number"},
    {CAIRN_CODE_GAME_NOT_ACTIVE, 409, "Game is not active"},
    {CAIRN_CODE_GAME_NOT_OPEN, 409, "Game is not open"},
    {CAIRN_CODE_SEAT_TAKEN, 409, "Seat taken"},
    {CAIRN_CODE_SEAT_RESERVED, 409, "Seat reserved"},
    {CAIRN_CODE_GAME_NOT_FINISHED, 409, "Game is not finished"},
    {CAIRN_CODE_NOT_CREATOR, 403, "Not the creator of this game"},
    {CAIRN_CODE_ALREADY_SEATED, 409, "Already seated"},
    {CAIRN_CODE_BODY_TOO_LARGE, 413, "Body too large"},
    {CAIRN_CODE_RATE_LIMITED, 429, "Too many requests"},
    {CAIRN_CODE_TOO_MANY_GAMES, 409, "Too many games"},
    {CAIRN_CODE_TOO_MANY_HOOKS, 409, "Too many webhooks"},
    {CAIRN_CODE_CHAT_DELETED, 409, "Chat message already deleted"},
    {CAIRN_CODE_MEDIA_TYPE, 415, "Unsupported media type"},
    {CAIRN_CODE_ILLEGAL_MOVE, 422, "Illegal move"},
    {CAIRN_CODE_BAD_RECORD, 422, "Record does not verify"},
    {CAIRN_CODE_GAME_EXISTS, 409, "Game exists"},
    {CAIRN_CODE_RULES_RETIRED, 409, "Rules version retired"},
    {CAIRN_CODE_NO_TAKEBACK, 409, "Nothing to take back"},
    {GAME_CODE_NO_HINT, 409, "No hints in this game"},
    {GAME_CODE_NO_REPLACE, 409, "Seat cannot be replaced"},
    {CAIRN_CODE_ALREADY_RESIGNED, 409, "Already resigned"},
    {API_CODE_URI_TOO_LONG, 414, "Request target too long"},
    {API_CODE_HEADERS_TOO_LARGE, 431, "Header fields too large"},
    {API_CODE_BAD_FRAMING, 400, "Ambiguous message framing"},
    {API_CODE_LENGTH_REQUIRED, 411, "Content-Length required"},
    {API_CODE_TRANSFER_CODING, 501, "Transfer coding not supported"},
    {API_CODE_REQUEST_TIMEOUT, 408, "Request timeout"},
    {API_CODE_BAD_REQUEST, 400, "Malformed HTTP request"},
    {API_CODE_HTTP_VERSION, 505, "HTTP version not supported"},
    {API_CODE_DRAINING, 503, "Server is stopping"},
    {API_CODE_BAD_SIGN_IN_CODE, 401, "Invalid sign-in code"},
    {CAIRN_CODE_INTERNAL, 500, "Internal error"},
    {CAIRN_CODE_OUT_OF_MEMORY, 503, "Out of memory"},
    {CAIRN_CODE_STORAGE, 503, "Storage unavailable"},
    {NULL, 0, NULL},
};

/* Used when a failure carries no code of its own. */
static const struct problem_kind by_status[] = {
    [CAIRN_OK] = {CAIRN_CODE_INTERNAL, 500, "Internal error"},
    [CAIRN_EINVAL] = {CAIRN_CODE_BAD_VALUE, 400, "Bad request"},
    [CAIRN_EILLEGAL] = {CAIRN_CODE_ILLEGAL_MOVE, 422, "Illegal move"},
    [CAIRN_ETURN] = {CAIRN_CODE_NOT_YOUR_TURN, 403, "Not your turn"},
    [CAIRN_ESTALE] = {CAIRN_CODE_STALE_SEQ, 409, "Stale sequence number"},
    [CAIRN_ENOTFOUND] = {CAIRN_CODE_NOT_FOUND, 404, "Not found"},
    [CAIRN_EAUTH] = {CAIRN_CODE_BAD_TOKEN, 401, "Invalid token"},
    [CAIRN_ENOMEM] = {CAIRN_CODE_OUT_OF_MEMORY, 503, "Out of memory"},
    [CAIRN_EDB] = {CAIRN_CODE_STORAGE, 503, "Storage unavailable"},
    [CAIRN_EINTERNAL] = {CAIRN_CODE_INTERNAL, 500, "Internal error"},
    [CAIRN_ECONFLICT] = {CAIRN_CODE_GAME_NOT_ACTIVE, 409, "Conflict"},
    [CAIRN_ETOOLARGE] = {CAIRN_CODE_BODY_TOO_LARGE, 413, "Body too large"},
};

static const struct problem_kind *kind_of(const struct cairn_error *err)
{
  const struct problem_kind *k;

  if (err->code)
    for (k = by_code; k->code; k++)
      if (strcmp(k->code, err->code) == 0)
        return k;
  if ((unsigned)err->status < sizeof(by_status) / sizeof(by_status[0]))
    return &by_status[err->status];
  return &by_status[CAIRN_EINTERNAL];
}

/* New reference: the detail text as a JSON string. A detail may quote
 * client bytes (a path, a field name) that are not UTF-8; those bytes become
 * '?' rather than costing the client its error body. */
static json_t *detail_json(const char *detail)
{
  json_t *s = json_string(detail);
  char safe[sizeof(((struct cairn_error *)0)->detail)];
  size_t i;

  if (s)
    return s;
  for (i = 0; detail[i] && i + 1 < sizeof(safe); i++)
    safe[i] = (detail[i] >= 0x20 && detail[i] < 0x7f) ? detail[i] : '?';
  safe[i] = '\0';
  return json_string(safe);
}

json_t *api_problem(const struct cairn_error *err, unsigned int *http_status)
{
  const struct problem_kind *k = kind_of(err);
  const char *code = err->code ? err->code : k->code;
  char type[96];
  json_t *body;

  snprintf(type, sizeof(type), "urn:cairn:problem:%s", code);
  *http_status = k->http;
  body = json_pack("{s:s, s:s, s:i, s:o, s:s}", "type", type, "title", k->title, "status",
                   (int)k->http, "detail", detail_json(err->detail[0] ? err->detail : k->title),
                   "code", code);
  if (body && err->rule)
    json_object_set_new(body, "rule", json_string(err->rule));
  return body;
}
