// api.js - the only place the client talks to the server (the public /v1 API).
// Errors come back as application/problem+json; they are thrown as Problem.

const PLAYER_KEY = 'cairn.player';
const GAMES_KEY = 'cairn.games';

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.title = (body && body.title) || `HTTP ${status}`;
    this.detail = body && body.detail;
    this.rule = body && body.rule;
  }
}

export const store = {
  player() {
    try { return JSON.parse(localStorage.getItem(PLAYER_KEY)); } catch { return null; }
  },
  setPlayer(p) {
    if (p) localStorage.setItem(PLAYER_KEY, JSON.stringify(p));
    else localStorage.removeItem(PLAYER_KEY);
  },
  // "My games" kept in the browser: the server's GET /v1/players/me/games is
  // used when it exists; this list is the fallback (and is always kept).
  myGames() {
    try { return JSON.parse(localStorage.getItem(GAMES_KEY)) || []; } catch { return []; }
  },
  rememberGame(id, title) {
    const games = store.myGames().filter((g) => g.id !== id);
    games.unshift({ id, title, at: Date.now() });
    localStorage.setItem(GAMES_KEY, JSON.stringify(games.slice(0, 200)));
  },
};

// `signal`: an AbortSignal ending the request early (a long-poll whose page
// is gone: the browser holds only six connections to a server, so a
// forgotten one starves every request after it).
export async function api(method, path, body, { auth = true, signal } = {}) {
  const headers = { Accept: 'application/json' };
  const player = store.player();
  if (auth && player && player.token) headers.Authorization = `Bearer ${player.token}`;
  const init = { method, headers, signal };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Problem(0, { title: 'Network error', detail: String(e.message || e), code: 'network' });
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text }; }
  }
  if (!res.ok) {
    // A token the server does not know (e.g. a fresh database): forget it and
    // carry on as a spectator rather than failing every request.
    if (res.status === 401 && data && data.code === 'bad-token' && auth && player) {
      store.setPlayer(null);
      window.dispatchEvent(new CustomEvent('cairn:signed-out'));
      if (method === 'GET') return api(method, path, body, { auth: false });
    }
    throw new Problem(res.status, data);
  }
  return data;
}

// The catalog does not change while the server runs: asked once per page load.
let titles = null;
export const getTitles = () => titles || (titles = api('GET', '/v1/titles').catch((e) => { titles = null; throw e; }));
// One player on several devices (openapi/cairn.yaml, players).
export const getMe = () => api('GET', '/v1/players/me');
export const newSignInCode = () => api('POST', '/v1/players/me/sign-in-code', {});
export const rotateToken = () => api('POST', '/v1/players/me/token', {});
export const signIn = (code) => api('POST', '/v1/sign-in', { code }, { auth: false });
export const createPlayer = (name) => api('POST', '/v1/players', { name });
export const createGame = (body) => api('POST', '/v1/games', body);
export const joinGame = (id, seat) => api('POST', `/v1/games/${id}/join`, seat == null ? {} : { seat });
export const getGame = (id, at, opts) =>
  api('GET', `/v1/games/${id}${at == null ? '?legal=none' : `?at=${at}`}`, undefined, opts);
export const submitMove = (id, seq, move) => api('POST', `/v1/games/${id}/moves`, { seq, move });
// action: '' (ask / take back at once), 'accept' or 'decline'.
export const takeback = (id, seq, action = '') => api('POST', `/v1/games/${id}/takeback${action ? `/${action}` : ''}`, { seq });
export const getLog = (id, from = 0) => api('GET', `/v1/games/${id}/log?from=${from}`);

// What the server's own description (GET /v1/openapi.yaml) defines: the
// client offers bots and time controls only when a schema has that property.
let features = null;
export async function serverFeatures() {
  if (!features) {
    features = fetch('/v1/openapi.yaml').then((r) => (r.ok ? r.text() : '')).catch(() => '')
      .then((t) => ({ bots: /^\s+bots:\s*$/m.test(t), timeControl: /^\s+time_control:\s*$/m.test(t) }));
  }
  return features;
}

// Feature detection: null when the server has no such endpoint (404/405).
export async function myGamesFromServer() {
  try {
    const r = await api('GET', '/v1/players/me/games');
    return Array.isArray(r) ? r : r && Array.isArray(r.games) ? r.games : null;
  } catch (e) {
    if (e.status === 404 || e.status === 405) return null;
    throw e;
  }
}
