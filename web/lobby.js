// lobby.js - the web client's part of issue 25: the lobby (open games to
// join, live games to watch), the caller's invitations (accept, decline),
// the rematch button of a finished game and the caller's archive. app.js
// places these cards and the button; everything here speaks to the API
// through api.js.
import * as API from './api.js';
import { h } from './svg.js';

const PAGE = 10;

function problemLine(e) {
  return h('p', { class: 'problem' }, (e && (e.detail || e.message)) || 'Something went wrong.');
}

function playersOf(g) {
  return (g.players || g.seats || []).map((s) => (s.player ? s.player.name : 'free')).join(', ');
}

// One lobby entry: an open game offers Join (the lowest seat free for
// anyone), a live one Watch.
function lobbyEntry(g, titleNames) {
  const watch = h('a', { href: `#/game/${g.id}`, class: 'lobby-watch' }, g.status === 'open' ? 'View' : 'Watch');
  const join = g.status === 'open' && API.store.player()
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

// The caller's invitations (GET /v1/players/me/games, `invitation`).
export function invitationsCard(titleNames, onAnswered) {
  const list = h('ul', { class: 'invitation-list' });
  const card = h('div', { class: 'card invitations', id: 'invitations', hidden: true }, h('h2', {}, 'Invitations'), list);
  if (!API.store.player()) return card;
  (async () => {
    let games = [];
    try { games = (await API.api('GET', '/v1/players/me/games')).games.filter((g) => g.invitation); } catch { games = []; }
    for (const g of games) {
      const answer = (verb) => async (e) => {
        try {
          await API.api('POST', `/v1/games/${g.id}/invitation/${verb}`, {});
          if (verb === 'accept') { API.store.rememberGame(g.id, g.title); location.hash = `#/game/${g.id}`; } else onAnswered();
        } catch (err) { e.target.replaceWith(problemLine(err)); }
      };
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
