// social.test.mjs - the web client's chat panel, profile and leaderboard
// pages (web/chat.js, web/profile.js; issue 25) in Chromium against the real
// server:
//   CAIRN_SERVER=build/test/cairn node --test tests/web/social.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, call } from './lib.mjs';

let server, chrome;

before(async () => {
  server = await startServer();
  chrome = await launchBrowser();
});
after(async () => {
  if (chrome) await chrome.close();
  if (server) await server.stop();
});

async function newPage(player) {
  const ctx = await chrome.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await ctx.addInitScript(() => localStorage.setItem('cairn.pollMs', '200'));
  if (player) await ctx.addInitScript((p) => localStorage.setItem('cairn.player', JSON.stringify(p)), player);
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { ctx, page };
}

async function player(name) {
  const r = await call(server.url, 'POST', '/v1/players', { name });
  assert.equal(r.status, 201);
  return r.body;
}

// A two-seat Himalaya game of a (seat 0) and b (seat 1), started.
async function duel(a, b) {
  const g = (await call(server.url, 'POST', '/v1/games', { title: 'himalaya', seats: 2 }, a.token)).body;
  assert.equal((await call(server.url, 'POST', `/v1/games/${g.id}/join`, { seat: 0 }, a.token)).status, 200);
  assert.equal((await call(server.url, 'POST', `/v1/games/${g.id}/join`, { seat: 1 }, b.token)).status, 200);
  return g.id;
}

const chatText = (page, channel) => page.locator(`#chat-${channel}`).innerText();

test('chat on the game page: players talk in their channel, a spectator only ever sees the spectators\'', async () => {
  const ann = await player('Ann'), bob = await player('Bob'), sid = await player('Sid');
  const id = await duel(ann, bob);
  const a = await newPage(ann), b = await newPage(bob), s = await newPage(sid);
  for (const x of [a, b, s]) await x.page.goto(`${server.url}/#/game/${id}`);
  for (const x of [a, b, s]) await x.page.waitForSelector('#chat');
  assert.equal(await a.page.getAttribute('#chat', 'data-channels'), 'players spectators');
  assert.equal(await s.page.getAttribute('#chat', 'data-channels'), 'spectators');
  assert.equal(await s.page.locator('.chat-tab[data-channel=players]').count(), 0);

  // Ann writes in the players' channel (her default); Bob's page shows it.
  await a.page.fill('#chat-input', 'north face, then the col');
  await a.page.click('#chat-send');
  await b.page.waitForFunction(() => (document.querySelector('#chat-players') || {}).innerText?.includes('north face'));
  // Sid writes in the spectators' channel; the players read it there.
  await s.page.fill('#chat-input', 'go Ann!');
  await s.page.click('#chat-send');
  await a.page.click('.chat-tab[data-channel=spectators]');
  await a.page.waitForFunction(() => (document.querySelector('#chat-spectators') || {}).innerText?.includes('go Ann!'));
  assert.doesNotMatch(await chatText(a.page, 'spectators'), /north face/);
  // Sid's page never held the players' words, and the server refuses them to him.
  assert.doesNotMatch(await s.page.content(), /north face/);
  const refused = await call(server.url, 'GET', `/v1/games/${id}/chat?channel=players`, undefined, sid.token);
  assert.equal(refused.status, 403);

  // Ann deletes her message: it stays, as "message deleted", for Bob too.
  await a.page.click('.chat-tab[data-channel=players]');
  await a.page.click('#chat-players .chat-delete');
  await a.page.waitForSelector('#chat-players .chat-msg.deleted');
  assert.doesNotMatch(await chatText(a.page, 'players'), /north face/);
  await b.page.reload();
  await b.page.waitForSelector('#chat-players .chat-msg.deleted');
  for (const x of [a, b, s]) {
    assert.deepEqual(x.page.errors, []);
    await x.ctx.close();
  }
});

test('a profile shows a player\'s rating per title; the leaderboard ranks the winner first', async () => {
  const winner = await player('Winner'), loser = await player('Loser');
  const id = await duel(winner, loser);
  const g = (await call(server.url, 'GET', `/v1/games/${id}`)).body;
  assert.equal((await call(server.url, 'POST', `/v1/games/${id}/resign`, { seq: g.seq }, loser.token)).status, 200);

  const v = await newPage(null);
  await v.page.goto(`${server.url}/#/player/${winner.id}`);
  await v.page.waitForSelector('#profile-ratings');
  assert.equal(await v.page.textContent('#profile-name'), 'Winner');
  const row = v.page.locator('#profile-ratings tr[data-title=himalaya]');
  assert.equal(await row.locator('.games').textContent(), '1');
  assert.match(await row.innerText(), /1 \/ 0 \/ 0/);

  // From the profile to the title's leaderboard: the winner above the loser.
  await row.locator('a').click();
  await v.page.waitForSelector('#board-table');
  const ids = await v.page.$$eval('#board-table tbody tr', (rows) => rows.map((r) => r.dataset.player));
  assert.ok(ids.indexOf(winner.id) >= 0 && ids.indexOf(winner.id) < ids.indexOf(loser.id));
  // And the home page links every title's leaderboard.
  await v.page.goto(`${server.url}/#/`);
  await v.page.waitForSelector('#leaderboards a[href="#/leaderboard/himalaya"]');
  await v.page.goto(`${server.url}/#/player/${loser.id}`);
  await v.page.waitForSelector('#profile-ratings');
  assert.match(await v.page.locator('#profile-ratings tr[data-title=himalaya]').innerText(), /0 \/ 0 \/ 1/);
  assert.deepEqual(v.page.errors, []);
  await v.ctx.close();
});

test('leaving a game page ends its chat long-polls: the browser\'s six connections are not left held', async () => {
  const ann = await player('Ann-leave'), bob = await player('Bob-leave');
  const a = await newPage(ann);
  const waiting = new Set(); // chat long-polls sent and not yet ended
  const isLongPoll = (r) => /\/chat\?.*timeout=/.test(r.url());
  a.page.on('request', (r) => { if (isLongPoll(r)) waiting.add(r); });
  a.page.on('requestfinished', (r) => waiting.delete(r));
  a.page.on('requestfailed', (r) => waiting.delete(r));
  // Four games, each page holding two long-polls (a seated player reads both
  // channels): eight, more than the six a browser keeps to one server.
  for (let i = 0; i < 4; i++) {
    const id = await duel(ann, bob);
    await a.page.goto(`${server.url}/#/game/${id}`);
    await a.page.waitForSelector('#chat');
    await a.page.waitForFunction(() => document.querySelectorAll('.chat-tab').length === 2);
    // Each channel's long-poll starts after its first read; the pages left
    // before must have ended theirs, so exactly this page's two are held.
    for (let tries = 0; waiting.size !== 2 && tries < 100; tries++) await a.page.waitForTimeout(100);
    assert.equal(waiting.size, 2, `game ${i}: ${waiting.size} chat long-polls in flight`);
  }
  await a.page.goto(`${server.url}/#/`);
  await a.page.waitForFunction(() => !document.querySelector('#chat'));
  // Aborted at once: not left to the server's 25-second timeout.
  for (let tries = 0; waiting.size && tries < 50; tries++) await a.page.waitForTimeout(100);
  assert.equal(waiting.size, 0, 'chat long-polls still held after leaving the game page');
  // And the page's own requests go through: create a game from the form.
  const created = a.page.waitForResponse((r) => r.url().endsWith('/v1/games') && r.request().method() === 'POST');
  await a.page.locator('form.new-game[data-title="himalaya"] button[type=submit]').click();
  assert.equal((await created).status(), 201);
  assert.deepEqual(a.page.errors, []);
  await a.ctx.close();
});
