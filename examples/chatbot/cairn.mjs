// cairn.mjs - a small client of Cairn's public HTTP API (openapi/cairn.yaml),
// with nothing but Node's built-in fetch and crypto: requests with a bearer
// token, problem+json turned into errors, 429 waited out, webhook signatures
// checked. The chat side lives in chat.mjs, the commands in bot.mjs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// A refusal from Cairn: `status` the HTTP status, `code` the stable problem
// code to match on (`stale-seq`, `illegal-move`, ...), `detail` the sentence
// meant for people, `requestId` the X-Request-Id the server logged it under.
export class CairnError extends Error {
  constructor(status, problem, requestId) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || 'unknown';
    this.detail = this.message;
    this.requestId = requestId;
  }
}

// At most this long is waited for one Retry-After before giving up: a chat
// user would rather read "try again" than wait minutes for an answer.
const MAX_RETRY_WAIT_S = 10;

export class CairnClient {
  // baseUrl: the server's root, e.g. http://127.0.0.1:8080 (no trailing /v1).
  constructor(baseUrl, { log = () => {} } = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.log = log;
    this.requestPrefix = `chatbot-${randomBytes(4).toString('hex')}`;
    this.requests = 0;
  }

  // One call. `token` absent = a spectator (public information only).
  // Resolves to the parsed JSON answer; rejects with CairnError on a problem.
  // A 429 was not processed (openapi: *Abuse limits*), so it is repeated once
  // after its Retry-After when that is short.
  async request(method, path, { body, token } = {}) {
    for (let attempt = 1; ; attempt++) {
      const requestId = `${this.requestPrefix}-${++this.requests}`;
      // fetch asks for gzip and unpacks it itself (openapi: *Compression*).
      const headers = { 'X-Request-Id': requestId };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const answer = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      const json = text ? JSON.parse(text) : null;
      if (answer.ok) return json;
      const wait = Number(answer.headers.get('retry-after'));
      if (answer.status === 429 && attempt === 1 && wait <= MAX_RETRY_WAIT_S) {
        this.log(`cairn: ${method} ${path} rate-limited, retrying in ${wait} s (request ${requestId})`);
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      const error = new CairnError(answer.status, json || {}, answer.headers.get('x-request-id') || requestId);
      this.log(`cairn: ${method} ${path} -> ${answer.status} ${error.code} (request ${error.requestId})`);
      throw error;
    }
  }

  createPlayer(name) {
    return this.request('POST', '/v1/players', { body: { name } });
  }
  createGame(token, title, seats, options, bots) {
    const body = { title };
    if (seats !== undefined) body.seats = seats;
    if (options && Object.keys(options).length) body.options = options;
    if (bots && bots.length) body.bots = bots;
    return this.request('POST', '/v1/games', { body, token });
  }
  getGame(id, token) {
    // The compact view: `choices` only, without the older `legal` list.
    return this.request('GET', `/v1/games/${encodeURIComponent(id)}?legal=none`, { token });
  }
  join(id, token, seat) {
    return this.request('POST', `/v1/games/${encodeURIComponent(id)}/join`, {
      body: seat === undefined ? {} : { seat },
      token,
    });
  }
  move(id, token, seq, move) {
    return this.request('POST', `/v1/games/${encodeURIComponent(id)}/moves`, { body: { seq, move }, token });
  }
  resign(id, token, seq) {
    return this.request('POST', `/v1/games/${encodeURIComponent(id)}/resign`, { body: { seq }, token });
  }
  createWebhook(token, url, game) {
    return this.request('POST', '/v1/webhooks', { body: { url, format: 'json', game }, token });
  }
  deleteWebhook(token, id) {
    return this.request('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`, { token });
  }
}

// How old a delivery may be. Cairn signs every attempt afresh, so a genuine
// one is seconds old; an older one is a replay of something captured.
export const MAX_SIGNATURE_AGE_S = 300;

// Checks one webhook delivery (openapi: *Webhooks*, Signature):
//   X-Cairn-Signature = "sha256=" + hex(HMAC-SHA256(key = the secret's 32 bytes,
//                                                    data = timestamp + "." + body))
// secretHex: the `secret` of POST /v1/webhooks; timestamp and signature: the
// headers as received; rawBody: the body's exact bytes (a Buffer), before any
// parsing. Returns null when the delivery is genuine and fresh, else why not.
export function checkWebhookSignature(secretHex, timestamp, signature, rawBody, nowS = Date.now() / 1000) {
  if (!timestamp || !signature) return 'unsigned';
  if (!/^\d{1,12}$/.test(timestamp)) return 'bad timestamp';
  if (Math.abs(nowS - Number(timestamp)) > MAX_SIGNATURE_AGE_S) return 'too old';
  const m = /^sha256=([0-9a-f]{64})$/.exec(signature);
  if (!m) return 'bad signature';
  const expected = createHmac('sha256', Buffer.from(secretHex, 'hex'))
    .update(`${timestamp}.`)
    .update(rawBody)
    .digest();
  // Constant time, so the answer's timing says nothing about how close a
  // forgery came.
  return timingSafeEqual(expected, Buffer.from(m[1], 'hex')) ? null : 'bad signature';
}
