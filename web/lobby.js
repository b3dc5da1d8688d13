// lobby.js - the web client's part of issue 25: the lobby (open games to
// join, live games to watch), the caller's invitations (accept, decline,
// on the home page and on the game's page), the new-game form's seats kept
// for named players, the creator's Cancel of an open game, the rematch
// button of a finished game and the caller's archive. app.js places these
// cards, fields and buttons; everything here speaks to the API through
// api.js.
import * as API from './api.js';
import { h } from './svg.js';

const PAGE = 10;

function problemLine(e) {
  return h('p', { class: 'problem' }, (e && (e.detail || e.message)) || 'Something went wrong.');
}

// A seat in words: its player, "kept" for an invited player, or "free".
export const seatWord = (s) => (s.player ? s.player.name : s.kept ? 'kept' : 'free');

function playersOf(g) {
  return (g.players || g.seats || []).map(seatWord).join(', ');
}

// One lobby entry: an open game offers Join (the lowest seat free for
// anyone), a live one Watch.
function lobbyEntry(g, titleNames) {
  const watch = h('a', { href: `#/game/${g.id}`, class: 'lobby-watch' }, g.status === 'open' ? 'View' : 'Watch');
  const join = g.status === 'open' && g.free_seats > 0 && API.store.player()
    ? h('button', { class: 'primary lobby-join', onclick: async (e) => {
      try { await API.joinGame(g.id); API.store.rememberGame(g.id, g.title); location.hash = `#/game/${g.id}`; } catch (err) { e.target.replaceWith(problemLine(err)); }
    } }, 'Join')
    : null;
  return h('li', { class: 'lobby-game', dataset: { id: g.id, status: g.status } },
    `${titleNames[g.title] || g.title} `, h('code', {}, g.id.slice(0, 8)),
    h('span', { class: 'players' }, ` ${playersOf(g)}`),
    g.status === 'open' ? h('span', { class: 'badge open' }, `${g.free_seats} free`) : h('span', { class: 'badge active' }, `move ${g.moves}`),
    ' ', join, ' ', watch);
}

// The lobby: GET /v1/lobby, open or live, a page at a time ("More").
export function lobbyCard(titleNames) {
  const list = h('ul', { class: 'lobby-list' });
  const more = h('button', { class: 'lobby-more', hidden: true }, 'More');
  const status = h('select', { id: 'lobby-status' }, h('option', { value: 'open' }, 'Open games'), h('option', { value: 'active' }, 'Live games'));
  const card = h('div', { class: 'card lobby', id: 'lobby' }, h('h2', {}, 'Lobby ', status), list, more);
  let next = null;
  async function load(reset) {
    if (reset) { list.replaceChildren(); next = null; }
    try {
      const q = `status=${status.value}&limit=${PAGE}${next ? `&cursor=${encodeURIComponent(next)}` : ''}`;
      const page = await API.api('GET', `/v1/lobby?${q}`);
      for (const g of page.games) list.append(lobbyEntry(g, titleNames));
      if (!list.children.length) list.append(h('li', { class: 'hint' }, status.value === 'open' ? 'No open game: create one below.' : 'No game is being played.'));
      next = page.next;
      more.hidden = !next;
    } catch (e) { list.append(problemLine(e)); }
  }
  status.addEventListener('change', () => load(true));
  more.addEventListener('click', () => load(false));
  load(true);
  return card;
}

// Answer the caller's invitation to game `g`: accepted, its page opens
// with the seat taken (or, shown already, onAnswered() reads it again);
// declined, onAnswered(). A refusal replaces the button.
function answerInvitation(g, verb, onAnswered) {
  return async (e) => {
    try {
      await API.api('POST', `/v1/games/${g.id}/invitation/${verb}`, {});
      if (verb === 'accept') API.store.rememberGame(g.id, g.title);
      if (verb === 'accept' && location.hash !== `#/game/${g.id}`) location.hash = `#/game/${g.id}`;
      else onAnswered();
    } catch (err) { e.target.replaceWith(problemLine(err)); }
  };
}

// The caller's invitations (GET /v1/players/me/games, `invitation`).
export function invitationsCard(titleNames, onAnswered) {
  const list = h('ul', { class: 'invitation-list' });
  const card = h('div', { class: 'card invitations', id: 'invitations', hidden: true }, h('h2', {}, 'Invitations'), list);
  if (!API.store.player()) return card;
  (async () => {
    let games = [];
    try { games = (await API.api('GET', '/v1/players/me/games')).games.filter((g) => g.invitation); } catch { games = []; }
    for (const g of games) {
      const answer = (verb) => answerInvitation(g, verb, onAnswered);
      list.append(h('li', { class: 'invitation', dataset: { id: g.id } },
        `${titleNames[g.title] || g.title} `, h('code', {}, g.id.slice(0, 8)), ` seat ${g.my_seat} `,
        h('button', { class: 'primary accept-invitation', onclick: answer('accept') }, 'Accept'), ' ',
        h('button', { class: 'decline-invitation', onclick: answer('decline') }, 'Decline'), ' ',
        h('a', { href: `#/game/${g.id}` }, 'View')));
    }
    card.hidden = games.length === 0;
  })();
  return card;
}

// The caller's finished games (GET /v1/archive), filtered by result, and
// the NDJSON export of them all.
export function archiveCard(titleNames) {
  const me = API.store.player();
  const list = h('ul', { class: 'archive-list' });
  const result = h('select', { id: 'archive-result' }, h('option', { value: '' }, 'all'), h('option', { value: 'won' }, 'won'),
    h('option', { value: 'lost' }, 'lost'), h('option', { value: 'drawn' }, 'drawn'));
  const more = h('button', { class: 'archive-more', hidden: true }, 'More');
  const card = h('div', { class: 'card archive', id: 'archive', hidden: !me }, h('h2', {}, 'Finished games ', result), list, more,
    me ? h('p', {}, h('a', { href: `/v1/archive/export?player=${encodeURIComponent(me.id)}`, download: 'cairn-games.ndjson' }, 'Download them all (NDJSON)')) : null);
  if (!me) return card;
  let next = null;
  async function load(reset) {
    if (reset) { list.replaceChildren(); next = null; }
    try {
      const q = `player=${encodeURIComponent(me.id)}&limit=${PAGE}${result.value ? `&result=${result.value}` : ''}${next ? `&cursor=${encodeURIComponent(next)}` : ''}`;
      const page = await API.api('GET', `/v1/archive?${q}`);
      for (const g of page.games) {
        list.append(h('li', { class: 'archive-game', dataset: { id: g.id, outcome: g.outcome } },
          h('a', { href: `#/game/${g.id}` }, `${titleNames[g.title] || g.title} `, h('code', {}, g.id.slice(0, 8))),
          ' ', h('span', { class: `badge ${g.outcome}` }, g.outcome), h('span', { class: 'players' }, ` ${playersOf(g)}`)));
      }
      if (!list.children.length) list.append(h('li', { class: 'hint' }, 'No finished game yet.'));
      next = page.next;
      more.hidden = !next;
    } catch (e) { list.append(problemLine(e)); }
  }
  result.addEventListener('change', () => load(true));
  more.addEventListener('click', () => load(false));
  load(true);
  return card;
}

// A finished game's "Rematch" (POST /v1/games/{id}/rematch), for its
// players: the new game opens, the others invited.
export function rematchButton(g, onError) {
  if (g.status !== 'finished' || g.your_seat == null || g.imported) return null;
  return h('button', { class: 'primary', id: 'rematch', onclick: async () => {
    try {
      const next = await API.api('POST', `/v1/games/${g.id}/rematch`, {});
      API.store.rememberGame(next.id, next.title);
      location.hash = `#/game/${next.id}`;
    } catch (e) { onError(e); }
  } }, 'Rematch');
}

// A running game's "Resign" (POST /v1/games/{id}/resign), for its
// players: a second click on "Really resign?" sends it, so a slip of the
// mouse does not end a game. The armed state lives in the page's `state`,
// since the header is drawn again whenever the game changes. What a
// resignation means is the title's rule (its README): with two seats the
// other wins.
// `redraw()` draws the header again (armed); `onDone()` once resigned.
export function resignButton(g, state, redraw, onDone, onError) {
  if (g.status !== 'active' || g.your_seat == null) return null;
  const armed = state.resignArmed === g.id;
  return h('button', { id: 'resign', class: armed ? 'danger' : '', onclick: async () => {
    if (!armed) {
      state.resignArmed = g.id;
      redraw();
      return;
    }
    state.resignArmed = null;
    try {
      await API.api('POST', `/v1/games/${g.id}/resign`, { seq: g.seq });
      onDone();
    } catch (e) { onError(e); }
  } }, armed ? 'Really resign?' : 'Resign');
}

// On an open game's page: Accept and Decline when one of its kept seats is
// kept for the caller (the game does not say for whom: the caller's own
// GET /v1/players/me/games does, asked once per page); null otherwise.
// `changed()` runs once the answer to that question is known.
export function invitationBox(g, state, changed, onAnswered) {
  const me = API.store.player();
  if (g.status !== 'open' || !me || !g.seats.some((s) => s.kept)) return null;
  if (state.invitedSeat === undefined) {
    state.invitedSeat = null;
    API.api('GET', '/v1/players/me/games').then((r) => {
      const mine = (r.games || []).find((x) => x.id === g.id && x.invitation);
      state.invitedSeat = mine ? mine.my_seat : null;
      if (mine) changed();
    }).catch(() => {});
  }
  if (state.invitedSeat == null || !g.seats[state.invitedSeat] || !g.seats[state.invitedSeat].kept) return null;
  return h('div', { class: 'invitation-answer', id: 'invitation-answer' }, `You are invited to seat ${state.invitedSeat}: `,
    h('button', { class: 'primary', id: 'accept-invitation', onclick: answerInvitation(g, 'accept', onAnswered) }, 'Accept'), ' ',
    h('button', { id: 'decline-invitation', onclick: answerInvitation(g, 'decline', onAnswered) }, 'Decline'));
}

// An open game's "Cancel game" (POST /v1/games/{id}/cancel), for its
// creator only (the game names its creator while it is open).
export function cancelButton(g, onDone, onError) {
  const me = API.store.player();
  if (g.status !== 'open' || !me || g.creator !== me.id) return null;
  return h('button', { id: 'cancel-game', onclick: async () => {
    try { await API.api('POST', `/v1/games/${g.id}/cancel`, {}); onDone(); } catch (e) { onError(e); }
  } }, 'Cancel game');
}

// The new-game form's invitations: a player id per seat to keep that seat
// for (`invite` of POST /v1/games), drawn again when the seat count
// changes. read() gives the filled ones as [{seat, player}].
export function inviteFields(seatsSelect) {
  const box = h('span', { class: 'invites' });
  const draw = () => {
    const typed = [...box.querySelectorAll('input')].map((i) => i.value);
    box.replaceChildren();
    for (let i = 0; i < Number(seatsSelect.value); i++) {
      box.append(h('span', { class: 'invite-seat' }, ` seat ${i} `,
        h('input', { name: 'invite', dataset: { seat: i }, placeholder: 'player id', size: 22, value: typed[i] || '', 'aria-label': `keep seat ${i} for player id` })));
    }
  };
  seatsSelect.addEventListener('change', draw); draw();
  const read = () => [...box.querySelectorAll('input[name=invite]')].filter((i) => i.value.trim())
    .map((i) => ({ seat: Number(i.dataset.seat), player: i.value.trim() }));
  return { el: box, read };
}
