// app.js - the Cairn web client: hash routes `#/` (player, catalog, new game,
// my games) and `#/game/<id>` (board, legal moves, live updates, replay,
// chat: chat.js), `#/player/<id>` and `#/leaderboard/<title>` (profile.js).
import * as API from './api.js';
import { h } from './svg.js';
import { boardFor, generic } from './boards/index.js';
import { listOf } from './choices.js';
import { rulesFor, optionLabel, valueLabel, valuesForSeats } from './rules/index.js';
import { lobbyCard, invitationsCard, archiveCard, rematchButton, resignButton, inviteFields, invitationBox, cancelButton, seatWord } from './lobby.js';
import { chatPanel } from './chat.js';
import { profilePage, leaderboardPage, leaderboardsCard } from './profile.js';

const main = document.getElementById('main');
const who = document.getElementById('who');
let page = null; // the current page's cleanup
// 0.85 keeps an 11 px SVG label at 9.4 px and a 14 px field number at 11.9 px
// (style.css); the browser tests hold every board to those sizes at 390 px.
const BOARD_MIN_SCALE = 0.85;

// Time controls as the server takes them (api/README.md, "Deadlines").
const TIME_CONTROLS = [['', 'none'], ['{"move_hours":72}', '3 days per move'], ['{"move_hours":24}', '1 day per move'],
  ['{"move_hours":1}', '1 hour per move'], ['{"base_hours":72,"increment_hours":24,"cap_hours":168}', '3 days + 1 day a move (at most 7)']];

function showWho() {
  const p = API.store.player();
  who.replaceChildren(p ? h('span', {}, 'Playing as ', h('strong', { id: 'player-name' }, p.name)) : h('span', {}, 'Not signed in (spectator)'));
}
// A token the server refused was forgotten (api.js): the home page shows the
// forms to create a player or sign in again.
window.addEventListener('cairn:signed-out', () => { showWho(); if (!/^#\/(game|sign-in)\//.test(location.hash)) route(); });

function problemBox(e) {
  const box = h('div', { class: 'problem', role: 'alert', id: 'error' },
    h('strong', { class: 'problem-title' }, e.title || 'Error'),
    e.detail ? h('div', { class: 'problem-detail' }, e.detail) : null,
    e.rule ? h('div', { class: 'problem-rule' }, 'Rule: ', h('em', {}, e.rule)) : null,
    e.code ? h('div', { class: 'problem-code' }, `code: ${e.code}`) : null);
  return box;
}

function playerForm(onDone, label = 'Create player') {
  const name = h('input', { name: 'name', placeholder: 'Your name', required: true, maxlength: 64, id: 'player-name-input' });
  const err = h('div');
  const f = h('form', { class: 'player-form' }, name, h('button', { type: 'submit', id: 'create-player' }, label), err);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const p = await API.createPlayer(name.value.trim());
      API.store.setPlayer(p);
      showWho();
      onDone(p);
    } catch (ex) { err.replaceChildren(problemBox(ex)); }
  });
  return f;
}

// ---------------------------------------------------------------- home page
// A select's values are those the seat count accepts (rules/<title>.js says
// which seats a value fits), the catalog's default when it is one of them.
function fillValues(select, title, key, spec, seats) {
  const keep = select.value;
  const values = valuesForSeats(title.id, key, spec.values, seats);
  const pick = values.includes(keep) ? keep : values.includes(spec.default) ? spec.default : values[0];
  select.replaceChildren(...values.map((v) => h('option', { value: v, selected: v === pick ? true : null }, valueLabel(title.id, key, v))));
  select.value = pick;
}

function optionField(title, key, spec, seats) {
  const id = `opt-${title.id}-${key}`;
  let input;
  if (Array.isArray(spec.values)) {
    input = h('select', { name: key, id });
    fillValues(input, title, key, spec, seats);
    input.refill = (n) => fillValues(input, title, key, spec, n);
  } else if (spec.type === 'integer' || spec.type === 'number') {
    input = h('input', { type: 'number', name: key, id, value: spec.default ?? '', min: spec.minimum, max: spec.maximum });
  } else if (spec.type === 'boolean') {
    input = h('input', { type: 'checkbox', name: key, id, checked: spec.default ? true : null });
  } else {
    input = h('input', { name: key, id, value: spec.default ?? '' });
  }
  input.dataset.optionType = spec.type || 'string';
  return h('label', { class: 'opt', title: spec.description || '', for: id }, h('span', { class: 'opt-name' }, optionLabel(title.id, key)), ' ', input,
    spec.description ? h('small', { class: 'opt-desc' }, spec.description) : null);
}

function newGameForm(title, features = { bots: true, timeControl: true }) {
  const seats = h('select', { name: 'seats' });
  for (let n = title.min_seats; n <= title.max_seats; n++) seats.append(h('option', { value: n }, String(n)));
  const opts = Object.entries(title.options || {}).map(([k, spec]) => optionField(title, k, spec, Number(seats.value)));
  // Changing the seat count keeps every option one that count accepts.
  seats.addEventListener('change', () => opts.forEach((o) => { const sel = o.querySelector('select'); if (sel && sel.refill) sel.refill(Number(seats.value)); }));
  const bots = h('span', { class: 'bots' });
  const drawBots = () => {
    bots.replaceChildren();
    for (let i = 0; i < Number(seats.value); i++) bots.append(h('label', {}, h('input', { type: 'checkbox', name: 'bot', value: i }), ` seat ${i}`));
  };
  seats.addEventListener('change', drawBots); drawBots();
  const tc = h('select', { name: 'time_control' }, TIME_CONTROLS.map(([v, l]) => h('option', { value: v }, l)));
  const onTimeout = h('select', { name: 'on_timeout' }, h('option', { value: 'move' }, 'a random move is played'),
    h('option', { value: 'adjudicate' }, 'the late seat loses'));
  const join = h('input', { type: 'checkbox', name: 'join', checked: true });
  const invites = inviteFields(seats);
  const err = h('div');
  const f = h('form', { class: 'new-game', dataset: { title: title.id } },
    h('label', {}, 'Players ', seats), ...opts,
    features.bots ? h('label', {}, 'Bot seats ', bots) : null,
    features.timeControl ? h('label', {}, 'Time control ', tc, ' when late: ', onTimeout) : null,
    h('label', {}, join, ' take a seat myself'),
    h('div', { class: 'invite-fields' }, 'Keep seats for players (their ids): ', invites.el),
    h('button', { type: 'submit', class: 'primary' }, 'Create game'), err);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!API.store.player()) { err.replaceChildren(problemBox({ title: 'Create a player first' })); return; }
    const options = {};
    f.querySelectorAll('[data-option-type]').forEach((el) => {
      if (el.type === 'checkbox') options[el.name] = el.checked;
      else if (el.value !== '') options[el.name] = el.dataset.optionType === 'integer' || el.dataset.optionType === 'number' ? Number(el.value) : el.value;
    });
    const body = { title: title.id, seats: Number(seats.value), options };
    const botSeats = [...f.querySelectorAll('input[name=bot]:checked')].map((b) => Number(b.value));
    if (botSeats.length) body.bots = botSeats;
    const invite = invites.read();
    if (invite.length) body.invite = invite;
    if (features.timeControl && tc.value) { body.time_control = JSON.parse(tc.value); body.on_timeout = onTimeout.value; }
    try {
      const g = await API.createGame(body);
      API.store.rememberGame(g.id, g.title);
      if (join.checked) {
        const free = (g.seats || []).find((s) => !s.player && !s.kept && !botSeats.includes(s.seat));
        await API.joinGame(g.id, free ? free.seat : undefined);
      }
      location.hash = `#/game/${g.id}`;
    } catch (ex) {
      if (ex.code === 'unknown-field' && (body.bots || body.time_control)) ex.detail = `${ex.detail} (this server does not support bots or time controls yet)`;
      err.replaceChildren(problemBox(ex));
    }
  });
  return f;
}

// Title id -> name, from GET /v1/titles (filled once per page load).
const titleNames = {};
async function loadTitleNames() {
  try { for (const t of await API.getTitles()) titleNames[t.id] = t.name; } catch { /* ids then */ }
}

async function myGamesList(complete = false) {
  const box = h('div', { class: 'my-games', id: 'my-games' }, h('p', { class: 'hint' }, 'Loading…'));
  const filling = (async () => {
    // The server's list when it has one (GET /v1/players/me/games), plus the
    // games this browser remembers (created, joined or opened) that it lacks.
    let games = null;
    if (API.store.player()) { try { games = await API.myGamesFromServer(); } catch { games = null; } }
    games = (games || []).map((g) => ({ ...g, your_seat: g.my_seat ?? g.your_seat ?? null }));
    const known = new Set(games.map((g) => g.id));
    const local = API.store.myGames().filter((g) => !known.has(g.id)).slice(0, 30);
    games = games.concat((await Promise.all(local.map((g) => API.getGame(g.id).catch(() => null)))).filter(Boolean));
    const me = API.store.player();
    const mine = (g) => g.your_seat != null || (me && (g.seats || []).some((s) => s.player && s.player.id === me.id));
    const awaiting = (g) => g.my_turn === true || (g.status === 'active' && g.your_seat != null && (g.to_act || []).includes(g.your_seat));
    const rank = (g) => (awaiting(g) ? 0 : g.status === 'open' ? 1 : g.status === 'active' ? 2 : 3);
    games.sort((a, b) => rank(a) - rank(b));
    box.replaceChildren();
    if (!games.length) { box.append(h('p', { class: 'hint' }, 'No games yet. Create one below, or open an invite link.')); return; }
    const ul = h('ul', {});
    for (const g of games) {
      const players = g.seats ? g.seats.map((s) => (s.player ? s.player.name : '—')).join(', ') : g.your_seat != null ? `seat ${g.your_seat}` : '';
      ul.append(h('li', { class: awaiting(g) ? 'awaiting' : '' },
        h('a', { href: `#/game/${g.id}` }, `${titleNames[g.title] || g.title} `, h('code', {}, g.id.slice(0, 8))),
        ' ', h('span', { class: `badge ${g.status}` }, g.status),
        awaiting(g) ? h('span', { class: 'badge turn' }, 'your turn') : null,
        !mine(g) ? h('span', { class: 'badge' }, 'watching') : null,
        g.invitation ? h('span', { class: 'badge invited' }, 'invited') : null,
        h('span', { class: 'players' }, ` ${players} · move ${g.seq}`)));
    }
    box.append(ul);
  })();
  if (complete) await filling.catch(() => {});
  return box;
}

// "Use on another device": a one-use code (and a link holding it) that the
// other device trades for a token of its own (POST /v1/sign-in).
function deviceCodeBox() {
  const out = h('div', { class: 'device-code', id: 'device-code' });
  const err = h('div');
  const button = h('button', { id: 'use-on-device', onclick: async () => {
    err.replaceChildren();
    try {
      const c = await API.newSignInCode();
      const link = `${location.origin}${location.pathname}#/sign-in/${c.code}`;
      out.replaceChildren(h('p', {}, 'On the other device type the code ', h('strong', { id: 'sign-in-code' }, c.code),
        ` (good once, until ${new Date(c.expires_at).toLocaleTimeString()}), or open this link there:`),
      h('input', { readonly: true, value: link, id: 'sign-in-link', class: 'wide', onfocus: (e) => e.target.select() }));
    } catch (e) { err.replaceChildren(problemBox(e)); }
  } }, 'Use on another device');
  return h('div', {}, button, out, err);
}

// "Sign in with a code" typed from the other device's "Use on another device".
function signInForm(onDone) {
  const code = h('input', { name: 'code', placeholder: 'XXXX-XXXX-XXXX', id: 'sign-in-code-input', autocomplete: 'off', required: true, maxlength: 32 });
  const err = h('div');
  const f = h('form', { class: 'sign-in-form' }, h('label', { for: 'sign-in-code-input' }, 'Sign in with a code '), code,
    h('button', { type: 'submit', id: 'sign-in' }, 'Sign in'), err);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    try { await signInWith(code.value); onDone(); } catch (ex) { err.replaceChildren(problemBox(ex)); }
  });
  return f;
}

async function signInWith(code) {
  const p = await API.signIn(code.trim());
  API.store.setPlayer({ id: p.id, name: p.name, token: p.token });
  showWho();
  return p;
}

// "Sign out everywhere": a new token for this browser, every other revoked.
async function signOutEverywhere(err) {
  if (!confirm('Sign out every other device? This browser keeps playing with a new token.')) return;
  try {
    const p = await API.rotateToken();
    API.store.setPlayer({ id: p.id, name: p.name, token: p.token });
    err.replaceChildren(h('p', { class: 'hint', id: 'signed-out-others' }, 'Every other device is signed out.'));
  } catch (e) { err.replaceChildren(problemBox(e)); }
}

function playerCard(player) {
  const box = h('div', { class: 'card player-card', id: 'player-card' }, h('h2', {}, 'Player'));
  if (!player) {
    box.append(h('p', {}, 'Create a player to play. Without one you can still watch games.'), playerForm(() => route()),
      h('p', { class: 'hint' }, 'Already playing on another device? There, choose "Use on another device", then:'), signInForm(() => route()));
    return box;
  }
  const err = h('div');
  box.append(h('p', {}, 'You are ', h('strong', {}, player.name), '. Your token is kept in this browser.'),
    h('p', {}, 'Your player id, for others to invite you: ', h('code', { id: 'player-id' }, player.id)),
    deviceCodeBox(),
    h('div', { class: 'buttons' },
      h('button', { id: 'sign-out-everywhere', onclick: () => signOutEverywhere(err) }, 'Sign out everywhere'),
      h('button', { onclick: () => { if (confirm('Forget this player on this browser? Without another signed-in device the token cannot be recovered.')) { API.store.setPlayer(null); showWho(); route(); } } }, 'Forget me here')),
    err,
    h('details', { class: 'switch-player' }, h('summary', {}, 'Play as another player here'), signInForm(() => route())));
  return box;
}

// Rules in short and "how to start", beside each title's new-game form.
function rulesBox(title, open = false) {
  const r = rulesFor(title.id);
  if (!r.summary.length) return null;
  return h('details', { class: 'rules', open: open ? true : null, dataset: { title: title.id } }, h('summary', {}, `Rules of ${title.name}`),
    h('ul', {}, r.summary.map((t) => h('li', {}, t))));
}

async function homePage() {
  const player = API.store.player();
  const section = h('section', { class: 'home' });
  main.replaceChildren(section);
  await loadTitleNames();
  const playerBox = playerCard(player);
  const openBox = h('form', { class: 'card open-game' }, h('h2', {}, 'Open a game'),
    h('input', { name: 'gameid', placeholder: 'game id or invite link', id: 'open-game-id' }), h('button', { type: 'submit' }, 'Open'));
  openBox.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = openBox.querySelector('#open-game-id').value.trim(); const m = v.match(/([0-9a-f]{20})/);
    if (m) location.hash = `#/game/${m[1]}`;
  });
  const catalog = h('div', { class: 'card' }, h('h2', {}, 'New game'));
  const mine = h('div', { class: 'card' }, h('h2', {}, 'My games'), await myGamesList());
  section.append(playerBox, invitationsCard(titleNames, () => route()), mine, lobbyCard(titleNames), catalog, archiveCard(titleNames), openBox, await leaderboardsCard());
  // Keep "my games" current (whose turn it is) while the page is open.
  if (homeTimer) clearInterval(homeTimer);
  homeTimer = setInterval(async () => {
    if (!mine.isConnected) return;
    const fresh = await myGamesList(true);
    if (mine.isConnected) mine.lastChild.replaceWith(fresh);
  }, 10000);
  try {
    const [titles, features] = await Promise.all([API.getTitles(), API.serverFeatures()]);
    for (const t of titles) {
      catalog.append(h('div', { class: 'title-entry', dataset: { title: t.id } },
        h('h3', {}, t.name, h('small', {}, ` ${t.min_seats === t.max_seats ? t.min_seats : `${t.min_seats}–${t.max_seats}`} players · ${t.id} · ${t.rules_version}`)),
        rulesFor(t.id).start ? h('p', { class: 'how-to-start' }, rulesFor(t.id).start) : null,
        rulesBox(t), newGameForm(t, features)));
    }
  } catch (e) { catalog.append(problemBox(e)); }
}

// ---------------------------------------------------------------- game page
function gamePage(id) {
  const state = { id, live: null, shown: null, at: null, polling: null, es: null, hmGroup: null, sig: '', closed: false };
  const header = h('div', { class: 'game-head' });
  const boardBox = h('div', { class: 'board', id: 'board' });
  const side = h('aside', { class: 'side' });
  const movesBox = h('div', { class: 'moves', id: 'moves' });
  const errBox = h('div', { id: 'error-box' });
  const eventsBox = h('ol', { class: 'events', id: 'events' });
  const rawBox = h('details', { class: 'raw' }, h('summary', {}, 'View (JSON)'));
  const replay = h('input', { type: 'range', min: 0, max: 0, value: 0, id: 'replay' });
  const replayLabel = h('span', { id: 'replay-label' });
  const liveBtn = h('button', { id: 'live', onclick: () => { state.at = null; show(); } }, 'Live');
  const liveInfo = h('span', { class: 'hint', id: 'live-info' });
  const freeMove = h('textarea', { rows: 3, id: 'free-move', placeholder: '{"type": "..."}' });
  const freeForm = h('form', { class: 'free-move' }, freeMove, h('button', { type: 'submit', id: 'send-free-move' }, 'Send move'));
  freeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    let m; try { m = JSON.parse(freeMove.value); } catch (ex) { showError({ title: 'Not JSON', detail: ex.message }); return; }
    submit(m);
  });
  const freeBox = h('details', { class: 'free' }, h('summary', {}, 'Write a move (JSON)'), freeForm);
  const takebackBox = h('details', { class: 'takeback', id: 'takeback' }, h('summary', {}, 'Takeback'),
    h('p', { class: 'hint' }, 'Your own last move is taken back at once when it revealed nothing; otherwise the other players are asked.'),
    ...[['', 'Take back my last move'], ['accept', 'Accept a request'], ['decline', 'Decline a request']].map(([action, label]) =>
      h('button', { dataset: { takeback: action || 'request' }, onclick: async () => {
        if (!state.live) return;
        clearError();
        try { await API.takeback(id, state.live.seq, action); refresh(true); loadLog(); } catch (e) { showError(e); }
      } }, label)));
  side.append(h('h3', {}, 'Your move'), movesBox, errBox, takebackBox,
    freeBox,
    h('h3', {}, 'Events'), eventsBox);
  const replayBar = h('div', { class: 'replay-bar' }, h('label', { for: 'replay' }, 'Replay '), replay, replayLabel, liveBtn, liveInfo);
  main.replaceChildren(h('section', { class: 'game' }, header, replayBar, h('div', { class: 'game-body' }, boardBox, side), rawBox));

  replay.addEventListener('input', () => { replayLabel.textContent = `move ${replay.value} of ${state.live ? state.live.seq : 0}`; });
  replay.addEventListener('change', async () => {
    const n = Number(replay.value);
    if (state.live && n === state.live.seq && state.live.status !== 'finished') { state.at = null; show(); return; }
    await loadAt(n);
  });

  async function loadAt(n) {
    try {
      state.at = n;
      state.shown = await API.getGame(id, n);
      render();
    } catch (e) { showError(e); }
  }

  function showError(e) { errBox.replaceChildren(problemBox(e)); }
  function clearError() { errBox.replaceChildren(); }

  async function submit(move) {
    const g = state.live;
    if (!g) return;
    clearError();
    document.body.dataset.busy = '1';
    try {
      const r = await API.submitMove(id, g.seq, move);
      clearError();
      state.hmGroup = null;
      addEvents(r.events || [], r.seq);
      state.live = r.game;
      state.sig = signature(r.game);
      state.at = null;
      show();
    } catch (e) {
      showError(e);
      if (e.code === 'stale-seq' || e.code === 'not-your-turn') refresh(true);
    } finally { delete document.body.dataset.busy; }
  }

  function addEvents(events, seq) {
    for (const ev of events) eventsBox.prepend(eventItem(seq, ev));
    while (eventsBox.children.length > 40) eventsBox.lastChild.remove();
  }

  // An event in words; `data-raw` marks one the title's board could not word
  // (the browser tests require none).
  function eventItem(seq, ev) {
    const text = describeEvent(ev);
    const li = h('li', { dataset: { type: ev.type || '' } }, h('span', { class: 'seq' }, `#${seq}`), ' ', String(text));
    if (text.raw) li.dataset.raw = '1';
    return li;
  }

  function describeEvent(ev) {
    const { type, ...rest } = ev;
    const nm = (s) => (state.live && state.live.seats[s] && state.live.seats[s].player ? state.live.seats[s].player.name : `seat ${s}`);
    if (state.live) {
      try { const t = boardFor(state.live.title).describeEvent(ev, nm); if (t) return t; } catch { /* fall through */ }
    }
    const bits = Object.entries(rest).filter(([k]) => !k.endsWith('_name') && k !== 'private_to')
      .map(([k, v]) => (k === 'seat' ? nm(v) : `${k.replace(/_/g, ' ')} ${typeof v === 'object' ? JSON.stringify(v) : v}`));
    const raw = new String(`${String(type || 'event').replace(/[-_]/g, ' ')}: ${bits.join(', ')}`); // eslint-disable-line no-new-wrappers
    raw.raw = true;
    return raw;
  }

  async function loadLog() {
    try {
      const log = await API.getLog(id, Math.max(0, (state.live ? state.live.seq : 0) - 8));
      eventsBox.replaceChildren();
      for (const e of log.events || []) eventsBox.prepend(eventItem(e.seq, e.event || {}));
    } catch { /* the log is a nicety */ }
  }

  function signature(g) { return `${g.status}/${g.seq}/${g.moves}/${(g.seats || []).map((s) => (s.player ? s.player.id : s.kept ? 'k' : '-')).join(',')}/${(g.to_act || []).join(',')}`; }

  async function refresh(force = false) {
    // One request at a time; a request asked for meanwhile runs right after.
    if (state.inflight) { state.again = true; return; }
    state.inflight = true;
    try {
      const g = await API.getGame(id);
      if (state.closed) return;
      // An answer that left the server before a move we made is older than
      // what we show: never go back in time.
      if (state.live && (g.moves < state.live.moves || (g.moves === state.live.moves && g.seq < state.live.seq))) return;
      const sig = signature(g);
      if (!force && sig === state.sig) return;
      const first = !state.live;
      state.live = g;
      state.sig = sig;
      if (state.at == null) { show(); } else { renderHeader(); }
      if (first) loadLog(); else if (!force) loadLog();
      if (g.your_seat != null || (API.store.player() && g.seats.some((s) => s.player && s.player.id === API.store.player().id))) API.store.rememberGame(g.id, g.title);
    } catch (e) {
      // A page left meanwhile (state.closed) is not this answer's to replace.
      if (!state.live && !state.closed) { main.replaceChildren(h('section', {}, problemBox(e), h('p', {}, h('a', { href: '#/' }, 'Back')))); stop(); }
    } finally {
      state.inflight = false;
      if (state.again && !state.closed) { state.again = false; refresh(); }
    }
  }

  function show() { state.shown = state.live; render(); }

  function seatName(g, i) { const s = g.seats[i]; return s && s.player ? s.player.name : null; }

  function describeClock(tc) {
    if (tc.move_hours) return `${tc.move_hours} h per move`;
    if (tc.base_hours) return `${tc.base_hours} h + ${tc.increment_hours || 0} h a move (at most ${tc.cap_hours} h)`;
    return 'time control';
  }

  // Kept across renders so an opened summary stays open while the game moves.
  function rulesDetails(g, rules) {
    if (!rules.summary.length) return null;
    if (!state.rulesEl) state.rulesEl = h('details', { class: 'rules', id: 'rules' }, h('summary', {}, 'Rules'), h('ul', {}, rules.summary.map((t) => h('li', {}, t))));
    state.rulesEl.firstChild.textContent = `Rules of ${titleNames[g.title] || g.title}`;
    return state.rulesEl;
  }

  function renderHeader() {
    const g = state.live; if (!g) return;
    const me = API.store.player();
    const link = `${location.origin}${location.pathname}#/game/${g.id}`;
    const seats = h('ul', { class: 'seats' }, g.seats.map((s) => h('li', { class: `${(g.to_act || []).includes(s.seat) ? 'to-act' : ''}${g.your_seat === s.seat ? ' mine' : ''}`, dataset: { seat: s.seat } },
      h('span', { class: 'dot', style: `background:${['#d7263d', '#1b6fd1', '#2e9d4a', '#e08a00', '#7b4fbf'][s.seat % 5]}` }),
      ` ${s.seat}: ${s.player || !s.kept ? seatWord(s) : 'kept for an invited player'}${g.view && Array.isArray(g.view.roles) && g.view.roles[s.seat] ? ` (${g.view.roles[s.seat]})` : ''}`, (g.to_act || []).includes(s.seat) ? h('span', { class: 'acting' }, ' to act') : '')));
    const join = h('div', { class: 'join' });
    if (g.status === 'open' && g.your_seat == null) {
      if (!me) join.append(h('p', {}, 'Create a player to join this game:'), playerForm(() => { refresh(true); }, 'Create player'));
      else {
        // A kept seat is its invitee's alone: no Join there.
        for (const s of g.seats.filter((x) => !x.player && !x.kept)) {
          join.append(h('button', { class: 'primary join-seat', dataset: { seat: s.seat }, onclick: async () => {
            try { await API.joinGame(g.id, s.seat); API.store.rememberGame(g.id, g.title); clearError(); refresh(true); } catch (e) { showError(e); }
          } }, `Join as seat ${s.seat}`));
        }
      }
    }
    const status = g.status === 'active' ? (g.your_seat != null && (g.to_act || []).includes(g.your_seat) ? 'your turn' : `waiting for ${(g.to_act || []).map((i) => seatName(g, i) || `seat ${i}`).join(', ')}`)
      : g.status === 'open' ? 'waiting for players' : g.status === 'cancelled' ? 'cancelled by its creator' : 'finished';
    const names = g.seats.map((s) => (s.player ? s.player.name : 'a free seat'));
    const rules = rulesFor(g.title);
    const how = g.status === 'finished' ? 'The game is over.' : g.status === 'cancelled' ? 'The game was cancelled before it started.' : g.status === 'open' ? 'Waiting for every seat to be taken; then the game starts.'
      : `${g.your_seat != null && (g.to_act || []).includes(g.your_seat) ? 'Your move: ' : 'Now: '}${rules.howTo(g)}`;
    header.replaceChildren(
      h('h2', {}, h('span', { class: 'title-name' }, titleNames[g.title] || g.title), ' ',
        h('span', { class: 'players-names' }, `— ${names.join(names.length === 2 ? ' vs ' : ', ')}`), ' ', h('code', { class: 'game-id' }, g.id)),
      h('p', { class: 'how-to', id: 'how-to' }, how),
      rulesDetails(g, rules),
      h('div', { class: 'status-line' }, h('span', { class: `badge ${g.status}`, id: 'status' }, g.status), ' ',
        h('span', { id: 'turn-info' }, status), ' · move ', h('span', { id: 'seq' }, String(g.seq)),
        ' · ', g.your_seat != null ? `you are seat ${g.your_seat}` : h('span', { id: 'spectating' }, 'spectating'),
        g.time_control ? ` · ${describeClock(g.time_control)}` : '',
        g.deadline ? h('span', { id: 'deadline' }, ` · next deadline ${new Date(g.deadline).toLocaleString()}`) : ''),
      seats,
      h('div', { class: 'invite' }, 'Invite link: ', h('input', { readonly: true, value: link, id: 'invite-link', size: 48, onfocus: (e) => e.target.select() }),
        h('button', { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, 'Copy')),
      join, invitationBox(g, state, renderHeader, () => refresh(true)),
      cancelButton(g, () => { clearError(); refresh(true); }, showError), rematchButton(g, showError),
      resignButton(g, state, renderHeader, () => { clearError(); refresh(true); }, showError));
    document.body.dataset.gameStatus = g.status;
    document.body.dataset.seq = g.seq;
    document.body.dataset.yourTurn = g.status === 'active' && g.your_seat != null && (g.to_act || []).includes(g.your_seat) ? '1' : '0';
    replay.max = g.seq;
    if (state.at == null) replay.value = g.seq;
    replayLabel.textContent = state.at == null ? `live (move ${g.seq})` : `move ${state.at} of ${g.seq}`;
    liveBtn.disabled = state.at == null;
  }

  function render() {
    renderHeader();
    const g = state.shown; if (!g) return;
    const board = boardFor(g.title);
    const names = g.seats.map((s) => (s.player ? s.player.name : null));
    let el;
    try { el = board.render(g, { names }); } catch (e) { console.error(e); el = generic.render(g); }
    // Never drawn smaller than BOARD_MIN_SCALE of its size, so its smallest
    // text stays readable on a phone (the box scrolls sideways instead).
    if (el instanceof SVGSVGElement && el.viewBox.baseVal) el.style.minWidth = `${Math.round(el.viewBox.baseVal.width * BOARD_MIN_SCALE)}px`;
    boardBox.replaceChildren(el);
    boardBox.dataset.title = g.title;
    boardBox.dataset.at = state.at == null ? 'live' : state.at;
    rawBox.replaceChildren(h('summary', {}, 'View (JSON)'), generic.jsonTree(g.view ?? null, null));
    movesBox.replaceChildren();
    // The moves come from `choices` (views are asked with legal=none): a
    // small tree as the list each title's picker shows, a large one (an
    // Everest plan) as a form walking it.
    const choices = state.at == null ? g.choices : null;
    if (choices) {
      const ctx = { onMove: submit, state, board: el, highlight: (f) => board.highlight(el, f) };
      const legal = listOf(choices);
      let p;
      if (!legal) p = generic.treePicker(choices, ctx, board.choiceLabels || {});
      else {
        try { p = board.picker(g, legal, ctx); } catch (e) { console.error(e); p = generic.picker(g, legal, ctx); }
      }
      movesBox.append(p);
    } else {
      movesBox.append(h('p', { class: 'hint' }, state.at != null ? 'Replaying: drag the slider or press Live.'
        : g.status === 'finished' ? 'The game is over.' : g.your_seat == null ? (g.status === 'open' ? 'Join to play.' : 'You are watching.') : g.status === 'open' ? 'Waiting for the other players to join.' : 'Waiting for the other players.'));
    }
    freeBox.hidden = !(state.live && state.live.your_seat != null && state.live.status === 'active');
    takebackBox.hidden = !(state.live && state.live.status === 'active' && state.live.your_seat != null && state.at == null);
    if (g.status === 'finished' && g.result) {
      const r = g.result;
      const winners = Array.isArray(r.winners) ? r.winners.map((w) => seatName(g, w) || `seat ${w}`).join(', ') || 'nobody' : null;
      movesBox.append(h('div', { class: 'result', id: 'result' },
        winners != null ? h('div', {}, h('strong', {}, 'Winners: '), winners, r.reason ? ` (${r.reason})` : '') : null,
        h('code', {}, JSON.stringify(r))));
    }
  }

  // Live updates: Server-Sent Events when the server has them, else polling.
  function startPolling() {
    // Every 2 s; localStorage 'cairn.pollMs' overrides it (the browser tests).
    const ms = Math.max(100, Number(localStorage.getItem('cairn.pollMs')) || 2000);
    liveInfo.textContent = `updates: polling every ${ms / 1000} s`;
    if (!state.polling) state.polling = setInterval(() => refresh(), ms);
  }
  function startLive() {
    if (typeof EventSource === 'undefined') { startPolling(); return; }
    let opened = false;
    const es = new EventSource(`/v1/games/${id}/events`);
    state.es = es;
    es.onopen = () => { opened = true; liveInfo.textContent = 'updates: live'; };
    // The server sends `event: game` with {game, seq, status, to_act} (never
    // more than a spectator may know); we then fetch our own view.
    es.onmessage = () => refresh();
    es.addEventListener('game', () => refresh());
    es.addEventListener('resync', () => refresh(true));
    // A slow safety net besides the stream.
    if (!state.safety) state.safety = setInterval(() => refresh(), 15000);
    es.onerror = () => {
      if (!opened || es.readyState === EventSource.CLOSED) { es.close(); state.es = null; startPolling(); }
    };
  }
  function stop() {
    state.closed = true;
    if (state.polling) clearInterval(state.polling);
    if (state.safety) clearInterval(state.safety);
    if (state.es) state.es.close();
    if (state.chat) state.chat.stop();
  }

  loadTitleNames().then(() => renderHeader());
  refresh(true).then(() => {
    // Chat (chat.js): both channels for a seated player, the spectators' for anyone else.
    if (state.closed) return;
    state.chat = chatPanel(id, { seated: !!(state.live && state.live.your_seat != null) });
    side.append(state.chat.el);
  }).then(startLive);
  return stop;
}

// `#/sign-in/<code>`: the link "Use on another device" shows; opening it
// signs this browser in as that player (replacing any player kept here).
async function signInPage(code) {
  const box = h('section', { class: 'card', id: 'sign-in-page' }, h('h2', {}, 'Signing in…'));
  main.replaceChildren(box);
  try {
    const p = await signInWith(code);
    history.replaceState(null, '', '#/'); // the code is spent: a reload shows the home page
    box.replaceChildren(h('h2', {}, 'Signed in'), h('p', { id: 'signed-in' }, 'This browser now plays as ', h('strong', {}, p.name), '.'),
      h('p', {}, h('a', { href: '#/' }, 'Go to your games')));
  } catch (e) {
    box.replaceChildren(h('h2', {}, 'This code did not work'), problemBox(e),
      h('p', { class: 'hint' }, 'Codes work once and for ten minutes: ask the other device for a new one.'), signInForm(() => { location.hash = '#/'; }));
  }
}

// ---------------------------------------------------------------- routing
let homeTimer = null;
function route() {
  if (page) { page(); page = null; }
  if (homeTimer) { clearInterval(homeTimer); homeTimer = null; }
  delete document.body.dataset.gameStatus;
  showWho();
  const m = location.hash.match(/^#\/game\/([0-9a-f]+)/);
  const code = location.hash.match(/^#\/sign-in\/([^/?#]+)/);
  const profile = location.hash.match(/^#\/player\/([0-9a-f]+)/);
  const board = location.hash.match(/^#\/leaderboard\/([a-z0-9-]+)(?:\/(\d+))?/);
  if (profile) profilePage(main, profile[1]);
  else if (board) leaderboardPage(main, board[1], Number(board[2] || 0));
  else if (m) page = gamePage(m[1]);
  else if (code) signInPage(decodeURIComponent(code[1]));
  else homePage();
}
window.addEventListener('hashchange', route);
route();
