// lobby.test.mjs - browser tests of the lobby, invitations, rematch and the
// archive in the web client (web/lobby.js, issue 25) against the real
// server: Debian's Chromium driven by playwright-core, node's test runner.
//   CAIRN_SERVER=build/test/cairn node --test tests/web/lobby.test.mjs
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

async function newPlayer(name) {
  const r = await call(server.url, 'POST', '/v1/players', { name });
  assert.equal(r.status, 201);
  return r.body;
}

async function pageAs(player) {
  const ctx = await chrome.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await ctx.addInitScript(() => localStorage.setItem('cairn.pollMs', '200'));
  await ctx.addInitScript((p) => localStorage.setItem('cairn.player', JSON.stringify(p)), player);
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { ctx, page };
}

async function game(id) {
  return (await call(server.url, 'GET', `/v1/games/${id}`)).body;
}

async function resign(id, token) {
  const g = await game(id);
  const r = await call(server.url, 'POST', `/v1/games/${id}/resign`, { seq: g.seq }, token);
  assert.equal(r.status, 200);
}

test('an invitation is accepted from the home page', async () => {
  const alice = await newPlayer('alice-inv');
  const bob = await newPlayer('bob-inv');
  const created = await call(server.url, 'POST', '/v1/games',
    { title: 'himalaya', seats: 2, seat: 0, invite: [{ seat: 1, player: bob.id }] }, alice.token);
  assert.equal(created.status, 201);
  const { ctx, page } = await pageAs(bob);
  await page.goto(`${server.url}/`);
  const entry = page.locator(`#invitations .invitation[data-id="${created.body.id}"]`);
  await entry.waitFor();
  await entry.locator('button.accept-invitation').click();
  await page.waitForFunction((id) => location.hash === `#/game/${id}`, created.body.id);
  await page.waitForSelector('body[data-game-status="active"]');
  const g = await game(created.body.id);
  assert.equal(g.status, 'active');
  assert.equal(g.seats[1].player.id, bob.id);
  assert.deepEqual(page.errors, []);
  await ctx.close();
});

test('a declined invitation leaves the list and frees the seat', async () => {
  const alice = await newPlayer('alice-dec');
  const bob = await newPlayer('bob-dec');
  const created = await call(server.url, 'POST', '/v1/games',
    { title: 'himalaya', seats: 2, seat: 0, invite: [{ seat: 1, player: bob.id }] }, alice.token);
  const { ctx, page } = await pageAs(bob);
  await page.goto(`${server.url}/`);
  const entry = page.locator(`#invitations .invitation[data-id="${created.body.id}"]`);
  await entry.locator('button.decline-invitation').click();
  await page.locator(`#invitations .invitation[data-id="${created.body.id}"]`).waitFor({ state: 'detached' });
  // Back in the lobby for anyone.
  await page.locator(`#lobby .lobby-game[data-id="${created.body.id}"]`).waitFor();
  assert.deepEqual(page.errors, []);
  await ctx.close();
});

test('the lobby joins an open game and shows live ones to watch', async () => {
  const carol = await newPlayer('carol-lobby');
  const dave = await newPlayer('dave-lobby');
  const created = await call(server.url, 'POST', '/v1/games', { title: 'himalaya', seats: 2, seat: 0 }, carol.token);
  const { ctx, page } = await pageAs(dave);
  await page.goto(`${server.url}/`);
  const entry = page.locator(`#lobby .lobby-game[data-id="${created.body.id}"]`);
  await entry.locator('button.lobby-join').click();
  await page.waitForFunction((id) => location.hash === `#/game/${id}`, created.body.id);
  await page.waitForSelector('body[data-game-status="active"]');
  await page.goto(`${server.url}/`);
  await page.selectOption('#lobby-status', 'active');
  await page.locator(`#lobby .lobby-game[data-id="${created.body.id}"] a.lobby-watch`).waitFor();
  assert.deepEqual(page.errors, []);
  await ctx.close();
});

test('a finished game offers a rematch and shows in the archive', async () => {
  const erin = await newPlayer('erin-re');
  const finn = await newPlayer('finn-re');
  const created = await call(server.url, 'POST', '/v1/games',
    { title: 'himalaya', seats: 2, seat: 0, invite: [{ seat: 1, player: finn.id }] }, erin.token);
  const id = created.body.id;
  assert.equal((await call(server.url, 'POST', `/v1/games/${id}/invitation/accept`, {}, finn.token)).status, 200);
  await resign(id, finn.token);
  const { ctx, page } = await pageAs(erin);
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForSelector('body[data-game-status="finished"]');
  await page.click('#rematch');
  await page.waitForFunction((old) => /^#\/game\/[0-9a-f]+$/.test(location.hash) && location.hash !== `#/game/${old}`, id);
  const next = page.url().match(/#\/game\/([0-9a-f]+)/)[1];
  const g = await game(next);
  assert.equal(g.status, 'open');
  assert.equal(g.seats[1].player.id, erin.id); // erin held seat 0: seat 1 now
  // finn sees the rematch among his invitations.
  const mine = await call(server.url, 'GET', '/v1/players/me/games', undefined, finn.token);
  assert.ok(mine.body.games.some((x) => x.id === next && x.invitation && x.my_seat === 0));
  // erin's archive shows the game she won.
  await page.goto(`${server.url}/`);
  await page.locator(`#archive .archive-game[data-id="${id}"][data-outcome="won"]`).waitFor();
  await page.selectOption('#archive-result', 'lost');
  await page.locator(`#archive .archive-game[data-id="${id}"]`).waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await ctx.close();
});

test('a game is created with a seat kept for a named player, who sees it and declines', async () => {
  const anna = await newPlayer('anna-kept');
  const ben = await newPlayer('ben-kept');
  const cleo = await newPlayer('cleo-kept');
  // anna creates a 3-seat game from the form, seat 1 kept for ben.
  const a = await pageAs(anna);
  await a.page.goto(`${server.url}/`);
  const form = a.page.locator('form.new-game[data-title="himalaya"]');
  await form.locator('select[name=seats]').selectOption('3');
  await form.locator('input[name=invite][data-seat="1"]').fill(ben.id);
  await form.locator('button[type=submit]').click();
  await a.page.waitForFunction(() => /^#\/game\/[0-9a-f]+$/.test(location.hash));
  const id = a.page.url().match(/#\/game\/([0-9a-f]+)/)[1];
  let g = await game(id);
  assert.equal(g.status, 'open');
  assert.equal(g.seats[0].player.id, anna.id); // "take a seat myself": the lowest seat not kept
  assert.equal(g.seats[1].kept, true);
  assert.equal(g.seats[2].kept, undefined);
  await a.page.waitForSelector('#seq');
  assert.match(await a.page.locator('.seats li[data-seat="1"]').textContent(), /kept for an invited player/);

  // cleo, a third player, is offered seat 2 and never ben's kept seat.
  const c = await pageAs(cleo);
  await c.page.goto(`${server.url}/#/game/${id}`);
  await c.page.locator('button.join-seat[data-seat="2"]').waitFor();
  assert.equal(await c.page.locator('button.join-seat[data-seat="1"]').count(), 0);
  assert.equal(await c.page.locator('button.join-seat').count(), 1);
  assert.equal(await c.page.locator('#accept-invitation').count(), 0);
  assert.equal(await c.page.locator('#cancel-game').count(), 0); // not hers to cancel

  // ben sees the invitation on his home page and declines it there.
  const b = await pageAs(ben);
  await b.page.goto(`${server.url}/`);
  const entry = b.page.locator(`#invitations .invitation[data-id="${id}"]`);
  await entry.waitFor();
  await entry.locator('button.decline-invitation').click();
  await entry.waitFor({ state: 'detached' });
  g = await game(id);
  assert.equal(g.seats[1].kept, undefined);
  // The seat is anyone's now: cleo's page offers it once it reads the game again.
  await c.page.locator('button.join-seat[data-seat="1"]').waitFor();
  for (const p of [a.page, b.page, c.page]) assert.deepEqual(p.errors, []);
  await a.ctx.close(); await b.ctx.close(); await c.ctx.close();
});

test('an invitee accepts on the game page, and the creator cancels an open game', async () => {
  const dora = await newPlayer('dora-kept');
  const emil = await newPlayer('emil-kept');
  const fay = await newPlayer('fay-kept');
  const created = await call(server.url, 'POST', '/v1/games',
    { title: 'himalaya', seats: 3, seat: 0, invite: [{ seat: 1, player: emil.id }, { seat: 2, player: fay.id }] }, dora.token);
  assert.equal(created.status, 201);
  const id = created.body.id;
  // emil opens the invite link: Accept there (no Join on either kept seat).
  const e = await pageAs(emil);
  await e.page.goto(`${server.url}/#/game/${id}`);
  await e.page.locator('#accept-invitation').waitFor();
  assert.match(await e.page.locator('#invitation-answer').textContent(), /seat 1/);
  assert.equal(await e.page.locator('button.join-seat').count(), 0);
  await e.page.click('#accept-invitation');
  await e.page.waitForFunction(() => /you are seat 1/.test(document.querySelector('.status-line')?.textContent || ''));
  assert.equal(await e.page.locator('#invitation-answer').count(), 0);
  assert.equal((await game(id)).seats[1].player.id, emil.id);

  // dora, the creator, cancels it from its page; fay's invitation goes with it.
  const d = await pageAs(dora);
  await d.page.goto(`${server.url}/#/game/${id}`);
  await d.page.click('#cancel-game');
  await d.page.waitForSelector('body[data-game-status="cancelled"]');
  assert.equal(await d.page.locator('#cancel-game').count(), 0);
  assert.equal((await game(id)).status, 'cancelled');
  const mine = await call(server.url, 'GET', '/v1/players/me/games', undefined, fay.token);
  assert.ok(!mine.body.games.some((x) => x.id === id && x.invitation));
  // emil's page hears of it too.
  await e.page.waitForSelector('body[data-game-status="cancelled"]');
  for (const p of [d.page, e.page]) assert.deepEqual(p.errors, []);
  await d.ctx.close(); await e.ctx.close();
});

test('a player resigns from the game page after confirming, and the other wins; a spectator has no Resign', async () => {
  const gina = await newPlayer('gina-resign');
  const hugo = await newPlayer('hugo-resign');
  const created = await call(server.url, 'POST', '/v1/games',
    { title: 'himalaya', seats: 2, seat: 0, invite: [{ seat: 1, player: hugo.id }] }, gina.token);
  const id = created.body.id;
  assert.equal((await call(server.url, 'POST', `/v1/games/${id}/invitation/accept`, {}, hugo.token)).status, 200);
  const watcher = await pageAs(await newPlayer('ida-watch'));
  await watcher.page.goto(`${server.url}/#/game/${id}`);
  await watcher.page.waitForSelector('body[data-game-status="active"]');
  assert.equal(await watcher.page.locator('#resign').count(), 0);

  const { ctx, page } = await pageAs(gina);
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForSelector('body[data-game-status="active"]');
  await page.click('#resign');
  // One click only arms it: the game goes on.
  await page.waitForFunction(() => document.querySelector('#resign')?.textContent === 'Really resign?');
  assert.equal((await game(id)).status, 'active');
  await page.click('#resign');
  await page.waitForSelector('body[data-game-status="finished"]');
  const g = await game(id);
  assert.deepEqual(g.result.winners, [1]);
  assert.equal(g.result.reason, 'resignation');
  assert.equal(await page.locator('#resign').count(), 0);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(watcher.page.errors, []);
  await ctx.close();
  await watcher.ctx.close();
});
