// profile.js - a player's profile (`#/player/<id>`: its rating in each
// title) and a title's leaderboard (`#/leaderboard/<title>`, a page at a
// time), from GET /v1/players/{id} and GET /v1/leaderboards/{title}
// (issue 25; docs/ratings.md has what the numbers mean).
import * as API from './api.js';
import { h } from './svg.js';

const PAGE = 25;
const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);

function errorBox(e) {
  return h('div', { class: 'problem', role: 'alert', id: 'error' }, h('strong', {}, e.title || 'Error'), e.detail ? h('div', {}, e.detail) : null);
}

export async function profilePage(main, id) {
  const box = h('section', { class: 'card profile', id: 'profile' }, h('h2', {}, 'Player'));
  main.replaceChildren(box);
  try {
    const [p, titles] = await Promise.all([API.api('GET', `/v1/players/${id}`), API.getTitles()]);
    const names = Object.fromEntries(titles.map((t) => [t.id, t.name]));
    const rows = p.ratings.map((r) => h('tr', { dataset: { title: r.title } },
      h('td', {}, h('a', { href: `#/leaderboard/${r.title}` }, names[r.title] || r.title)),
      h('td', { class: 'num rating' }, fmt(r.rating)), h('td', { class: 'num' }, `${fmt(r.mu)} ± ${fmt(r.sigma)}`),
      h('td', { class: 'num games' }, String(r.games)), h('td', { class: 'num' }, `${r.wins} / ${r.draws} / ${r.losses}`)));
    box.replaceChildren(h('h2', { id: 'profile-name' }, p.name),
      p.ratings.length ? h('table', { class: 'ratings', id: 'profile-ratings' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Title'), h('th', {}, 'Rating'), h('th', {}, 'μ ± σ'), h('th', {}, 'Games'), h('th', {}, 'W / D / L'))),
        h('tbody', {}, rows))
        : h('p', { class: 'hint', id: 'no-ratings' }, 'No rated games yet.'),
      h('p', { class: 'hint' }, 'Rating = μ − 3σ. Games against bots, abandoned and imported games are not rated.'));
  } catch (e) { box.append(errorBox(e)); }
}

export async function leaderboardPage(main, title, offset = 0) {
  const box = h('section', { class: 'card leaderboard', id: 'leaderboard' }, h('h2', {}, 'Leaderboard'));
  main.replaceChildren(box);
  try {
    const [b, titles] = await Promise.all([API.api('GET', `/v1/leaderboards/${title}?offset=${offset}&limit=${PAGE}`), API.getTitles()]);
    const name = (titles.find((t) => t.id === title) || {}).name || title;
    const rows = b.players.map((e) => h('tr', { dataset: { player: e.player.id } },
      h('td', { class: 'num rank' }, String(e.rank)), h('td', {}, h('a', { href: `#/player/${e.player.id}` }, e.player.name)),
      h('td', { class: 'num rating' }, fmt(e.rating)), h('td', { class: 'num' }, String(e.games)),
      h('td', { class: 'num' }, `${e.wins} / ${e.draws} / ${e.losses}`)));
    const pager = h('p', { class: 'pager' },
      offset > 0 ? h('a', { href: `#/leaderboard/${title}/${Math.max(0, offset - PAGE)}`, id: 'board-prev' }, '← better') : null, ' ',
      b.next != null ? h('a', { href: `#/leaderboard/${title}/${b.next}`, id: 'board-next' }, 'next →') : null);
    box.replaceChildren(h('h2', {}, `${name}: leaderboard`),
      b.players.length ? h('table', { class: 'ratings', id: 'board-table' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'), h('th', {}, 'Games'), h('th', {}, 'W / D / L'))),
        h('tbody', {}, rows)) : h('p', { class: 'hint' }, 'Nobody is rated in this title yet.'),
      pager);
  } catch (e) { box.append(errorBox(e)); }
}

// The home page's card: a leaderboard link per title.
export async function leaderboardsCard() {
  const card = h('div', { class: 'card', id: 'leaderboards' }, h('h2', {}, 'Leaderboards'));
  try {
    const titles = await API.getTitles();
    card.append(h('ul', {}, titles.map((t) => h('li', {}, h('a', { href: `#/leaderboard/${t.id}` }, t.name)))));
  } catch (e) { card.append(errorBox(e)); }
  return card;
}
