// chat.js - the chat panel of the game page (issue 25): the game's two
// channels, "players" (its seated players only) and "spectators" (anyone),
// read with GET /v1/games/{id}/chat as a long-poll (?timeout=), so a new
// message shows as soon as the server has it; posting, and deleting one's
// own message (it stays as "deleted"). The server decides who may read
// what: a spectator is never shown the players' channel, and this panel
// does not offer it to one.
import * as API from './api.js';
import { h } from './svg.js';

const WAIT_S = 25; // a long-poll's timeout; the server answers at once when a message comes
const FULL_EVERY_MS = 30000; // reread whole channels now and then: deletions by others

function messageItem(m, me, onDelete) {
  const mine = me && me.id === m.author;
  return h('li', { class: `chat-msg${m.deleted ? ' deleted' : ''}`, dataset: { n: m.n, id: m.id } },
    h('a', { class: 'chat-author', href: `#/player/${m.author}` }, m.author_name || 'someone'), ' ',
    h('time', { datetime: m.at, title: new Date(m.at).toLocaleString() }, new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })), ' ',
    m.deleted ? h('em', { class: 'chat-text' }, 'message deleted') : h('span', { class: 'chat-text' }, m.text),
    mine && !m.deleted ? h('button', { class: 'chat-delete', title: 'Delete this message', onclick: () => onDelete(m) }, '×') : null);
}

// One channel's list, kept current by its own long-poll loop.
function channelView(gameId, channel, errBox) {
  const list = h('ol', { class: 'chat-list', id: `chat-${channel}` });
  // `abort` ends the channel: its requests in flight and its loop.
  const state = { after: 0, byN: new Map(), timer: null, abort: new AbortController() };
  const stopped = () => state.abort.signal.aborted;

  function put(m) {
    const me = API.store.player();
    const item = messageItem(m, me, remove);
    const old = state.byN.get(m.n);
    if (old) old.replaceWith(item); else list.append(item);
    state.byN.set(m.n, item);
    if (m.n > state.after) state.after = m.n;
    list.scrollTop = list.scrollHeight;
  }
  async function remove(m) {
    try { put(await API.api('DELETE', `/v1/chat/${m.id}`)); } catch (e) { errBox.textContent = e.message; }
  }
  async function readAll() {
    let after = 0;
    for (;;) {
      const page = await API.api('GET', `/v1/games/${gameId}/chat?channel=${channel}&after=${after}&limit=200`, undefined, { signal: state.abort.signal });
      page.messages.forEach(put);
      if (page.messages.length < 200) return;
      after = page.messages[page.messages.length - 1].n;
    }
  }
  async function loop() {
    try { await readAll(); } catch (e) { errBox.textContent = e.message; return; }
    state.timer = setInterval(() => { if (!stopped()) readAll().catch(() => {}); }, FULL_EVERY_MS);
    while (!stopped()) {
      try {
        const page = await API.api('GET', `/v1/games/${gameId}/chat?channel=${channel}&after=${state.after}&timeout=${WAIT_S}`, undefined, { signal: state.abort.signal });
        if (!stopped()) page.messages.forEach(put);
      } catch (e) {
        if (stopped()) return;
        errBox.textContent = e.message;
        await new Promise((res) => setTimeout(res, 3000));
      }
    }
  }
  loop();
  return { list, put, stop() { state.abort.abort(); if (state.timer) clearInterval(state.timer); } };
}

// The panel: tabs for the channels this viewer may read (`seated`: both),
// the open channel's messages, and a line to write in it (signed in only).
export function chatPanel(gameId, { seated }) {
  const errBox = h('div', { class: 'chat-error hint', role: 'status' });
  const channels = seated ? ['players', 'spectators'] : ['spectators'];
  const views = Object.fromEntries(channels.map((c) => [c, channelView(gameId, c, errBox)]));
  let current = channels[0];
  const tabs = h('div', { class: 'chat-tabs', role: 'tablist' });
  const body = h('div', { class: 'chat-body' });
  const input = h('input', { id: 'chat-input', maxlength: 500, placeholder: 'Say something…', autocomplete: 'off' });
  const form = h('form', { class: 'chat-form', id: 'chat-form' }, input, h('button', { type: 'submit', id: 'chat-send' }, 'Send'));
  function show(c) {
    current = c;
    body.replaceChildren(views[c].list);
    for (const t of tabs.children) t.setAttribute('aria-selected', String(t.dataset.channel === c));
  }
  for (const c of channels) {
    tabs.append(h('button', { type: 'button', role: 'tab', class: 'chat-tab', dataset: { channel: c }, onclick: () => show(c) },
      c === 'players' ? 'Players' : 'Spectators'));
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      views[current].put(await API.api('POST', `/v1/games/${gameId}/chat`, { channel: current, text }));
      input.value = '';
      errBox.textContent = '';
    } catch (ex) { errBox.textContent = ex.message; }
  });
  show(current);
  const el = h('section', { class: 'chat', id: 'chat', dataset: { channels: channels.join(' ') } }, h('h3', {}, 'Chat'), tabs, body,
    API.store.player() ? form : h('p', { class: 'hint' }, 'Create a player to chat.'), errBox);
  return { el, stop() { for (const v of Object.values(views)) v.stop(); } };
}
