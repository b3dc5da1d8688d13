// web.test.mjs - browser tests of the web client (web/) against the real
// server: Debian's Chromium driven by playwright-core, node's test runner.
//   CAIRN_SERVER=build/test/cairn node --test tests/web/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, call, ROOT } from './lib.mjs';

const SHOTS = path.join(ROOT, 'tests/web/screenshots');
let server, chrome;

before(async () => {
  server = await startServer();
  chrome = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  if (chrome) await chrome.close();
  if (server) await server.stop();
});

async function newPage(player) {
  const ctx = await chrome.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // The client polls every 2 s without SSE; the tests poll faster.
  await ctx.addInitScript(() => localStorage.setItem('cairn.pollMs', '200'));
  if (player) await ctx.addInitScript((p) => localStorage.setItem('cairn.player', JSON.stringify(p)), player);
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { ctx, page };
}

async function createPlayerInUI(page, name) {
  await page.goto(`${server.url}/`);
  await page.fill('#player-name-input', name);
  await page.click('#create-player');
  await page.waitForSelector('#player-name');
  return page.evaluate(() => JSON.parse(localStorage.getItem('cairn.player')));
}

// Himalaya: prefer the climber, then Sherpas going up far; never look ahead.
function score(m) {
  if (m.type === 'reroll') return -5;
  if (m.pawn === 'climber') return 100 + m.value;
  if (m.pawn === 'sherpa') return (m.direction === 'up' ? m.value : -m.value) + (m.take_along ? 3 : 0) - (m.type === 'supply' ? 4 : 0);
  return -10;
}

let clicks = 0, boardClicks = 0;

// Make one move in the page by clicking: the group chip, then the option
// (a button in the side panel, or its tag on the board).
async function clickBestMove(page, token, gameId) {
  const g = (await call(server.url, 'GET', `/v1/games/${gameId}`, undefined, token)).body;
  const legal = g.legal || [];
  assert.ok(legal.length > 0, 'a seat to act has legal moves');
  const best = legal.reduce((a, b) => (score(b) > score(a) ? b : a));
  const group = best.type === 'die' ? `die:${best.value}` : best.type === 'supply' ? `card:${best.card}` : best.type;
  const before = g.seq;
  await page.waitForSelector(`button.chip[data-group="${group}"]`);
  if (best.type === 'reroll') {
    await page.click(`button.chip[data-group="${group}"]`);
  } else {
    const chip = page.locator(`button.chip[data-group="${group}"]`);
    if (!(await chip.getAttribute('class')).includes('selected')) await chip.click();
    const json = JSON.stringify(best);
    await page.locator('button.move').first().waitFor();
    // Every other move is made on the board itself (the tag on the landing field).
    const where = clicks++ % 2 === 0 ? '#board g.target, button.move' : 'button.move';
    const handle = await page.evaluateHandle(([j, sel]) => [...document.querySelectorAll(sel)].find((b) => b.dataset.move === j), [json, where]);
    const el = handle.asElement();
    assert.ok(el, `the option ${json} is offered`);
    if ((await el.evaluate((n) => n.tagName)) === 'g') boardClicks++;
    await el.click();
  }
  await page.waitForFunction((s) => Number(document.body.dataset.seq) > s || document.querySelector('#error'), before);
  const err = await page.$('#error');
  assert.ok(!err, `the move was accepted: ${err ? await err.textContent() : ''}`);
  return before + 1;
}

test('two players play Himalaya to the end; a spectator never sees the Yeti deck order', async () => {
  const a = await newPage(), b = await newPage(), spec = await newPage();
  const alice = await createPlayerInUI(a.page, 'Alice');
  const bob = await createPlayerInUI(b.page, 'Bob');
  assert.match(alice.token, /^cairn_/);

  // Alice creates a two-seat game from the catalog and takes a seat.
  const form = a.page.locator('form.new-game[data-title="himalaya"]');
  await form.locator('select[name=seats]').selectOption('2');
  await form.locator('button[type=submit]').click();
  await a.page.waitForURL(/#\/game\/[0-9a-f]{20}$/);
  await a.page.waitForSelector('#invite-link');
  const invite = await a.page.inputValue('#invite-link');
  const gameId = invite.match(/([0-9a-f]{20})$/)[1];
  assert.equal(await a.page.textContent('#status'), 'open');

  // Bob opens the invite link and joins.
  await b.page.goto(invite);
  await b.page.click('button.join-seat');
  await b.page.waitForFunction(() => document.body.dataset.gameStatus === 'active');

  // The spectator watches; every API answer is recorded.
  const seen = [];
  spec.page.on('response', async (r) => {
    if (!r.url().includes('/v1/')) return;
    try { seen.push({ url: r.url(), text: await r.text() }); } catch { /* navigations */ }
  });
  await spec.page.goto(invite);
  await spec.page.waitForSelector('#spectating');
  await spec.page.waitForSelector('svg.board-svg');

  // Alice's page shows the game as active (polling or live updates).
  await a.page.waitForFunction(() => document.body.dataset.gameStatus === 'active', null, { timeout: 10000 });

  // A rejected move shows the server's detail and rule.
  const pool = (await call(server.url, 'GET', `/v1/games/${gameId}`)).body.view.dice.pool;
  await a.page.click('details.free summary');
  await a.page.fill('#free-move', JSON.stringify({ type: 'die', value: pool[0], pawn: 'climber' }));
  await a.page.click('#send-free-move');
  await a.page.waitForSelector('#error .problem-rule');
  assert.match(await a.page.textContent('#error .problem-rule'), /himalaya: Moving the Mountain Climbers/);
  assert.match(await a.page.textContent('#error .problem-detail'), /climber of seat 0 cannot move/);

  // Alice moves and takes it back at once (nothing was drawn): a rewind row.
  await a.page.waitForFunction(() => document.body.dataset.yourTurn === '1');
  const s1 = await clickBestMove(a.page, alice.token, gameId);
  await a.page.click('#takeback summary');
  await a.page.click('button[data-takeback="request"]');
  await a.page.waitForFunction((s) => Number(document.body.dataset.seq) === s + 1 && document.body.dataset.yourTurn === '1', s1);
  assert.equal(await a.page.$('#error'), null);

  // Play to the end by clicking legal moves in each player's page.
  const players = [{ p: a.page, token: alice.token }, { p: b.page, token: bob.token }];
  let moves = 0;
  for (;;) {
    const g = (await call(server.url, 'GET', `/v1/games/${gameId}`)).body;
    if (g.status === 'finished') break;
    const seat = g.to_act[0];
    const { p, token } = players[seat];
    await p.waitForFunction((s) => document.body.dataset.yourTurn === '1' && Number(document.body.dataset.seq) === s,
      g.seq, { timeout: 10000, polling: 50 });
    const t0 = Date.now();
    await clickBestMove(p, token, gameId);
    if (process.env.WEB_TRACE) console.log(`move ${moves} seat ${seat} ${Date.now() - t0} ms`);
    moves++;
    assert.ok(moves < 400, 'the game ends');
    if (moves % 10 === 0) {
      // The spectator's page (its board and the view's JSON tree) shows no deck order.
      await spec.page.waitForFunction((n) => Number(document.body.dataset.seq) >= n, g.seq, { timeout: 10000 });
      const { status, raw, page } = await spec.page.evaluate(() => ({ status: document.body.dataset.gameStatus,
        raw: document.querySelector('details.raw').textContent, page: document.getElementById('main').textContent }));
      if (status === 'active') { // once finished, nothing is hidden any more
        assert.match(raw, /yeti_deck/, 'the spectator sees the public deck');
        assert.match(raw, /remaining/, 'the spectator sees the public deck');
        assert.doesNotMatch(page, /\border\b/, 'the spectator sees no deck order');
      }
    }
  }
  assert.ok(boardClicks > 0, 'some moves were made by clicking the board');
  const final = (await call(server.url, 'GET', `/v1/games/${gameId}`)).body;
  assert.equal(final.status, 'finished');
  assert.ok(final.result && Array.isArray(final.result.winners));
  for (const { p } of players) await p.waitForFunction(() => document.body.dataset.gameStatus === 'finished', null, { timeout: 10000 });
  await spec.page.waitForFunction(() => document.body.dataset.gameStatus === 'finished', null, { timeout: 10000 });
  assert.match(await spec.page.textContent('#result'), /winners/);

  // Nothing the spectator received while the game ran held the deck order.
  const running = seen.filter((r) => !/"status":"finished"/.test(r.text));
  assert.ok(running.length >= 2, 'the spectator received the game while it ran');
  for (const r of running) {
    assert.ok(!/"order"/.test(r.text), `spectator response ${r.url} holds a hidden order`);
    const doc = JSON.parse(r.text);
    if (doc && doc.view && doc.view.yeti_deck) assert.equal(doc.view.yeti_deck.order, undefined);
  }

  // Replay: the slider shows an earlier position (?at=N).
  const replayed = spec.page.waitForResponse((r) => r.url().endsWith(`/v1/games/${gameId}?at=3`));
  await spec.page.evaluate(() => { const r = document.getElementById('replay'); r.value = 3; r.dispatchEvent(new Event('change')); });
  assert.equal((await replayed).status(), 200);
  await spec.page.waitForFunction(() => document.getElementById('board').dataset.at === '3');
  assert.match(await spec.page.textContent('#replay-label'), /move 3 of/);

  // Alice's "my games" lists the finished game.
  await a.page.goto(`${server.url}/#/`);
  await a.page.waitForSelector(`#my-games a[href="#/game/${gameId}"]`);

  for (const x of [a, b, spec]) { assert.deepEqual(x.page.errors, []); await x.ctx.close(); }
  console.log(`# himalaya game finished after ${moves} moves (${final.result.reason}), ${boardClicks} made on the board`);
});

test('a game against a bot, created from the catalog form', async () => {
  const a = await newPage();
  await createPlayerInUI(a.page, 'Solo');
  const form = a.page.locator('form.new-game[data-title="himalaya"]');
  await form.locator('select[name=seats]').selectOption('2');
  if (!(await form.locator('input[name=bot]').count())) { // the server documents no bots
    await a.ctx.close();
    return;
  }
  await form.locator('input[name=bot][value="1"]').check();
  const timed = (await form.locator('select[name=time_control]').count()) > 0;
  if (timed) await form.locator('select[name=time_control]').selectOption('{"move_hours":24}');
  await form.locator('button[type=submit]').click();
  const outcome = await Promise.race([
    a.page.waitForURL(/#\/game\/[0-9a-f]{20}$/).then(() => 'created'),
    a.page.waitForSelector('form.new-game #error').then(() => 'refused'),
  ]);
  if (outcome === 'refused') {
    // A server without bots refuses the member; the page says so.
    assert.match(await a.page.textContent('form.new-game #error'), /bots/);
    await a.ctx.close();
    return;
  }
  await a.page.waitForFunction(() => document.body.dataset.gameStatus === 'active');
  if (timed) { // a time control shows with the next deadline
    await a.page.waitForSelector('#deadline');
    assert.match(await a.page.textContent('.status-line'), /24 h per move/);
  }
  const me = await a.page.evaluate(() => JSON.parse(localStorage.getItem('cairn.player')));
  const gameId = a.page.url().match(/([0-9a-f]{20})$/)[1];
  for (let i = 0; i < 4; i++) {
    await a.page.waitForFunction(() => document.body.dataset.yourTurn === '1', null, { timeout: 10000 });
    await clickBestMove(a.page, me.token, gameId);
  }
  const g = (await call(server.url, 'GET', `/v1/games/${gameId}`)).body;
  assert.ok(g.moves >= 8, 'the bot answered every move');
  assert.match(g.seats[1].player.name, /bot/i);
  console.log(`# bot game: ${g.moves} moves${timed ? `, time control ${JSON.stringify(g.time_control)}` : ', no time controls on this server'}`);
  // "My games" lists it, awaiting the player first.
  await a.page.goto(`${server.url}/#/`);
  await a.page.waitForSelector(`#my-games a[href="#/game/${gameId}"]`);
  assert.deepEqual(a.page.errors, []);
  await a.ctx.close();
});

// Random legal moves through the API, to give each board something to show.
async function advance(gameId, tokens, steps, seedish = 7) {
  let k = seedish;
  const rnd = (n) => { k = (k * 1103515245 + 12345) % 2147483648; return k % n; };
  for (let i = 0; i < steps; i++) {
    const g = (await call(server.url, 'GET', `/v1/games/${gameId}`)).body;
    if (g.status !== 'active') return;
    for (const seat of g.to_act) {
      const gs = (await call(server.url, 'GET', `/v1/games/${gameId}`, undefined, tokens[seat])).body;
      const legal = gs.legal || [];
      if (!legal.length) continue;
      let m = legal[rnd(legal.length)];
      if (/-options$/.test(m.type)) {
        const coins = [...m.coins]; const plan = [];
        for (let j = 0; j < m.length; j++) plan.push({ coin: coins.splice(rnd(coins.length), 1)[0], face: m.faces[rnd(m.faces.length)], dir: m.directions[rnd(m.directions.length)] });
        m = { type: m.type.replace(/-options$/, ''), plan };
      }
      await call(server.url, 'POST', `/v1/games/${gameId}/moves`, { seq: gs.seq, move: m }, tokens[seat]);
    }
  }
}

test('a screenshot of each registered title\'s board', async () => {
  const titles = (await call(server.url, 'GET', '/v1/titles')).body;
  assert.ok(titles.some((t) => t.id === 'himalaya'));
  for (const t of titles) {
    const seats = Math.max(t.min_seats, Math.min(t.id === 'himalaya' ? 3 : 4, t.max_seats));
    const players = [];
    for (let i = 0; i < seats; i++) players.push((await call(server.url, 'POST', '/v1/players', { name: ['Tenzing', 'Hillary', 'Mallory', 'Irvine'][i] })).body);
    const g = (await call(server.url, 'POST', '/v1/games', { title: t.id, seats }, players[0].token)).body;
    for (const p of players) assert.equal((await call(server.url, 'POST', `/v1/games/${g.id}/join`, {}, p.token)).status, 200);
    await advance(g.id, players.map((p) => p.token), t.id === 'himalaya' ? 14 : t.id === 'journey-to-the-top' ? 40 : t.id === 'everest-piecepack' ? 6 : 12);
    const viewer = await newPage(players[0]);
    await viewer.page.goto(`${server.url}/#/game/${g.id}`);
    await viewer.page.waitForSelector('#board > *');
    await viewer.page.waitForTimeout(200);
    await viewer.page.locator('section.game').screenshot({ path: path.join(SHOTS, `${t.id}.png`) });
    assert.deepEqual(viewer.page.errors, []);
    await viewer.ctx.close();
  }
});
