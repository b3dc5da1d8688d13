// web.test.mjs - browser tests of the web client (web/) against the real
// server: Debian's Chromium driven by playwright-core, node's test runner.
//   CAIRN_SERVER=build/test/cairn node --test tests/web/
// Screenshots (test artefacts, not committed) land in build/web-artefacts/:
// <title>.png (each board), and home-/game-<title>- at desktop (1400 px) and
// phone (390 px) widths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, call, ROOT } from './lib.mjs';
import { EVENTS, MOVES } from './events.mjs';
import { allMoves, pickMove } from '../../web/choices.js';

const SHOTS = path.join(ROOT, 'build/web-artefacts');
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

async function newPage(player, viewport = { width: 1400, height: 1000 }) {
  const ctx = await chrome.browser.newContext({ viewport });
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
  // The moves as the page lists them: the same tree read the same way.
  const g = (await call(server.url, 'GET', `/v1/games/${gameId}?legal=none`, undefined, token)).body;
  const legal = g.choices ? allMoves(g.choices) : [];
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
      const gs = (await call(server.url, 'GET', `/v1/games/${gameId}?legal=none`, undefined, tokens[seat])).body;
      if (!gs.choices) continue;
      const m = pickMove(gs.choices, () => rnd(1 << 20) / (1 << 20));
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

// ------------------------------------------------------------ a newcomer's page
const PHONE = { width: 390, height: 844 };
const NAMES = ['Tenzing', 'Hillary', 'Mallory', 'Irvine'];
// "null" is also Everest's coin 0 ("null roar N", "rolled null at …").
const RAW = /\bnull\b(?! (roar|snowball|move|at|coin)\b)|\bundefined\b|\[object|[{}[\]]|\b[a-z]+_[a-z_]+\b|\bseat \d/;

// A game of `title` with every seat taken by a named player (API), moved on
// by `steps` rounds of random legal moves.
async function seatedGame(t, seats, steps, options) {
  const players = [];
  for (let i = 0; i < seats; i++) players.push((await call(server.url, 'POST', '/v1/players', { name: NAMES[i] })).body);
  const r = await call(server.url, 'POST', '/v1/games', { title: t.id, seats, ...(options ? { options } : {}) }, players[0].token);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  for (const p of players) assert.equal((await call(server.url, 'POST', `/v1/games/${r.body.id}/join`, {}, p.token)).status, 200);
  await advance(r.body.id, players.map((p) => p.token), steps);
  return { id: r.body.id, players };
}

// The document never scrolls sideways.
async function noSidewaysScroll(page, what) {
  const { sw, cw } = await page.evaluate(() => ({ sw: document.scrollingElement.scrollWidth, cw: document.scrollingElement.clientWidth }));
  assert.ok(sw <= cw, `${what}: the page scrolls sideways (scrollWidth ${sw} > clientWidth ${cw})`);
}

// Every text of the board as drawn on screen: its font size times the
// drawing's scale. Numbers (class num) at least 11 px, any text at least 9.
async function boardTextSizes(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#board svg.board-svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && t.getBBox().width > 0)
      .map((t) => ({ text: t.textContent, num: t.classList.contains('num'), px: parseFloat(getComputedStyle(t).fontSize) * scale }));
  });
}

test('each title: its name, rules summary and option labels on the form; name, players, rules and how to play on the game page', async () => {
  const titles = (await call(server.url, 'GET', '/v1/titles')).body;
  const a = await newPage();
  await createPlayerInUI(a.page, 'Reader');
  for (const t of titles) {
    const entry = a.page.locator(`.title-entry[data-title="${t.id}"]`);
    assert.match(await entry.locator('h3').textContent(), new RegExp(`^${t.name.replace(/[()!]/g, '\\$&')}`));
    assert.match(await entry.locator('.how-to-start').textContent(), /^To start: /, `${t.id}: how to start, on the form`);
    await entry.locator('details.rules summary').click();
    const rules = await entry.locator('details.rules li').allTextContents();
    assert.ok(rules.length >= 3, `${t.id}: a rules summary on the form`);
    // Options: a label that is not the raw key, and the catalog's description.
    for (const [key, spec] of Object.entries(t.options || {})) {
      const label = entry.locator(`label.opt:has([name="${key}"])`);
      const name = await label.locator('.opt-name').textContent();
      assert.notEqual(name, key); assert.doesNotMatch(name, /_/, `${t.id} ${key}: labelled by name, not key`);
      assert.equal(await label.locator('.opt-desc').textContent(), spec.description);
      for (const o of await label.locator('option').allTextContents()) assert.ok(o.length > 8, `${t.id} ${key}: value "${o}" described`);
    }
  }
  // The game page, one game of each title in play.
  const expect = { himalaya: /die|supply card/, 'everest-piecepack': /home base|Plan your/, 'because-its-there': /Discard|route|draft|Climber/, 'journey-to-the-top': /buy|Climbers/ };
  for (const t of titles) {
    const seats = t.id === 'because-its-there' ? 2 : t.min_seats;
    const g = await seatedGame(t, seats, 1);
    const v = await newPage(g.players[0]);
    await v.page.goto(`${server.url}/#/game/${g.id}`);
    await v.page.waitForFunction((n) => document.querySelector('.game-head .title-name') && document.querySelector('.game-head .title-name').textContent === n, t.name);
    assert.equal(await v.page.textContent('.game-head .title-name'), t.name);
    const head = await v.page.textContent('.game-head h2');
    for (let i = 0; i < seats; i++) assert.match(head, new RegExp(NAMES[i]), `${t.id}: the heading names the players`);
    assert.match(await v.page.textContent('#how-to'), expect[t.id], `${t.id}: a how-to-play line for the phase`);
    // "Your move" only when the viewer's seat owes a decision.
    const owes = (await call(server.url, 'GET', `/v1/games/${g.id}`, undefined, g.players[0].token)).body.to_act.includes(0);
    assert.equal((await v.page.textContent('#how-to')).startsWith('Your move: '), owes, `${t.id}: the how-to line says whose move it is`);
    await v.page.click('#rules summary');
    assert.ok((await v.page.locator('#rules li').count()) >= 3);
    assert.deepEqual(v.page.errors, []);
    await v.ctx.close();
  }
  assert.deepEqual(a.page.errors, []);
  await a.ctx.close();
});

test('the new-game form\'s defaults are valid for every title and seat count; changing seats fixes the selection', async () => {
  const titles = (await call(server.url, 'GET', '/v1/titles')).body;
  const a = await newPage();
  await createPlayerInUI(a.page, 'Defaults');
  let created = 0;
  for (const t of titles) {
    for (let n = t.min_seats; n <= t.max_seats; n++) {
      await a.page.goto(`${server.url}/#/`);
      const form = a.page.locator(`form.new-game[data-title="${t.id}"]`);
      await form.waitFor();
      // Walk through every seat count first, so a selection made for another
      // count has to be fixed, then settle on n.
      for (let m = t.max_seats; m >= t.min_seats; m--) await form.locator('select[name=seats]').selectOption(String(m));
      await form.locator('select[name=seats]').selectOption(String(n));
      await form.locator('input[name=join]').uncheck();
      const answer = a.page.waitForResponse((r) => r.url().endsWith('/v1/games') && r.request().method() === 'POST', { timeout: 15000 });
      await form.locator('button[type=submit]').click();
      const r = await answer.catch(async (e) => {
        throw new Error(`${t.id} with ${n} seats: no answer to the form (${e.message}); the page shows: ${(await a.page.textContent('#main')).slice(0, 400)}`);
      });
      assert.equal(r.status(), 201, `${t.id} with ${n} seats and the form's defaults: ${await r.text()}`);
      const g = await r.json();
      assert.equal(g.seats.length, n);
      await a.page.waitForURL(/#\/game\//);
      created++;
    }
  }
  assert.equal(created, titles.reduce((k, t) => k + t.max_seats - t.min_seats + 1, 0));
  // Because It's There: the scenarios offered are those of the seat count.
  await a.page.goto(`${server.url}/#/`);
  const form = a.page.locator('form.new-game[data-title="because-its-there"]');
  await form.waitFor();
  const scenarios = async () => form.locator('select[name=scenario] option').evaluateAll((os) => os.map((o) => o.value));
  await form.locator('select[name=seats]').selectOption('2');
  assert.deepEqual(await scenarios(), ['1963', 'dream-teams']);
  assert.equal(await form.locator('select[name=scenario]').inputValue(), '1963');
  await form.locator('select[name=seats]').selectOption('1');
  assert.deepEqual(await scenarios(), ['1924', '1953']);
  assert.equal(await form.locator('select[name=scenario]').inputValue(), '1953');
  assert.deepEqual(a.page.errors, []);
  await a.ctx.close();
});

test('events in words with the players\' names, for every title', async () => {
  const titles = (await call(server.url, 'GET', '/v1/titles')).body;
  const steps = { himalaya: 30, 'everest-piecepack': 40, 'because-its-there': 120, 'journey-to-the-top': 150 };
  let movesSeen = 0;
  for (const t of titles) {
    for (const seats of t.id === 'because-its-there' ? [1, 2] : [t.min_seats === t.max_seats ? t.min_seats : 3]) {
      const g = await seatedGame(t, seats, steps[t.id]);
      // Seen by a seat that owes a decision, so its moves are offered too.
      const toAct = (await call(server.url, 'GET', `/v1/games/${g.id}`)).body.to_act || [];
      const viewer = g.players[toAct.length ? toAct[0] : 0];
      const v = await newPage(viewer);
      await v.page.goto(`${server.url}/#/game/${g.id}`);
      await v.page.waitForSelector('#events li');
      // Every event of the game so far, as the first player sees the log,
      // worded by the page's own board module.
      const lines = await v.page.evaluate(async ([id, token]) => {
        const { boardFor } = await import('/boards/index.js');
        const game = await (await fetch(`/v1/games/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
        const name = (s) => (game.seats[s] && game.seats[s].player ? game.seats[s].player.name : `seat ${s}`);
        const out = [];
        for (let from = 0; ;) {
          const log = await (await fetch(`/v1/games/${id}/log?${from ? `from_ord=${from}` : "from=0"}`, { headers: { Authorization: `Bearer ${token}` } })).json();
          for (const e of log.events || []) out.push({ type: e.event.type, text: boardFor(game.title).describeEvent(e.event, name) });
          if (!log.next) break;
          from = log.next;
        }
        return out;
      }, [g.id, viewer.token]);
      assert.ok(lines.length > 5, `${t.id}: events to word`);
      const types = new Set(lines.map((l) => l.type));
      for (const l of lines) {
        assert.ok(l.text, `${t.id}: the event ${l.type} is worded`);
        assert.doesNotMatch(l.text, RAW, `${t.id}: "${l.text}" reads as words`);
      }
      assert.ok(lines.some((l) => NAMES.slice(0, seats).some((n) => l.text.includes(n))), `${t.id}: events name the players`);
      // The moves offered read as words too (headings and buttons).
      const offered = await v.page.locator('#moves button.move, #moves h4').allTextContents();
      movesSeen += offered.length;
      for (const m of offered) assert.doesNotMatch(m, /[{}[\]]|\b[a-z]+_[a-z_]+\b|\w: /, `${t.id}: the move "${m}" reads as words`);
      // And the list on the page: no event fell back to raw keys.
      assert.equal(await v.page.locator('#events li[data-raw]').count(), 0);
      for (const li of await v.page.locator('#events li').allTextContents()) assert.doesNotMatch(li, /\bnull\b(?! (roar|snowball|move|at|coin)\b)|[{}[\]]|\b[a-z]+_[a-z_]+\b/, li);
      console.log(`# ${t.id} (${seats} seats): ${lines.length} events of ${types.size} types worded, ${offered.length} move labels`);
      assert.deepEqual(v.page.errors, []);
      await v.ctx.close();
    }
  }
  assert.ok(movesSeen > 0, 'some moves were offered and read');
});

test('every event type (README "Events") and move type ("Moves") of every title in words, naming its players', async () => {
  const v = await newPage();
  await v.page.goto(`${server.url}/#/`);
  const worded = await v.page.evaluate(async ([events, names]) => {
    const { boardFor } = await import('/boards/index.js');
    const out = [];
    for (const [title, list] of Object.entries(events)) {
      for (const ev of list) out.push({ title, ev, text: boardFor(title).describeEvent(ev, (s) => names[s]) });
    }
    return out;
  }, [EVENTS, NAMES]);
  for (const { title, ev, text } of worded) {
    assert.ok(text, `${title}: ${ev.type} is worded`);
    assert.doesNotMatch(text, RAW, `${title}: "${text}" reads as words`);
    for (const k of ['seat', 'chooser', 'pushed', 'hit', 'target']) {
      if (typeof ev[k] === 'number' && (title !== 'journey-to-the-top' || k === 'seat')) assert.ok(text.includes(NAMES[ev[k]]), `${title}: "${text}" names ${k} ${ev[k]}`);
    }
  }
  // And the move buttons' labels (each board's describe).
  const moves = await v.page.evaluate(async (all) => {
    const files = { 'everest-piecepack': 'everest', 'because-its-there': 'bit', 'journey-to-the-top': 'journey' };
    const out = [];
    for (const [title, list] of Object.entries(all)) {
      const board = await import(`/boards/${files[title]}.js`);
      for (const m of list) out.push({ title, m, text: board.describe(m) });
    }
    return out;
  }, MOVES);
  for (const { title, m, text } of moves) assert.doesNotMatch(text || '', /^$|[{}[\]]|\b[a-z]+_[a-z_]+\b|\w: /, `${title}: the move ${JSON.stringify(m)} reads "${text}"`);
  assert.deepEqual(v.page.errors, []);
  await v.ctx.close();
});

test('Everest coins: the plan form and the board name them alike', async () => {
  const t = (await call(server.url, 'GET', '/v1/titles')).body.find((x) => x.id === 'everest-piecepack');
  const g = await seatedGame(t, 2, 2); // both home bases chosen: planning
  const v = await newPage(g.players[0]);
  await v.page.goto(`${server.url}/#/game/${g.id}`);
  await v.page.waitForSelector('.plan-builder select[name=coin0]');
  const form = await v.page.locator('.plan-builder select[name=coin0] option').allTextContents();
  const board = await v.page.locator('#board g.coin text').allTextContents();
  assert.deepEqual(form, ['null', 'ace', '2', '3', '4', '5']);
  for (const c of form) assert.ok(board.includes(c), `coin ${c} is named alike on the board`);
  assert.match(await v.page.textContent('#how-to'), /Plan your three moves/);
  // A plan sent from the form is accepted.
  await v.page.click('.plan-builder button[type=submit]');
  await v.page.waitForFunction(() => /planned/.test(document.getElementById('events').textContent) || document.querySelector('#error'));
  assert.equal(await v.page.$('#error'), null);
  assert.deepEqual(v.page.errors, []);
  await v.ctx.close();
});

test('390 px wide: no sideways scroll on the home and game pages, readable boards; screenshots at both widths', async () => {
  const titles = (await call(server.url, 'GET', '/v1/titles')).body;
  const anon = await newPage(undefined, PHONE);
  await anon.page.goto(`${server.url}/#/`);
  await anon.page.waitForSelector('.title-entry form.new-game');
  await noSidewaysScroll(anon.page, 'home, no player');
  // An invitation opened without a player: the name form to join.
  const host = (await call(server.url, 'POST', '/v1/players', { name: 'Host' })).body;
  const open = (await call(server.url, 'POST', '/v1/games', { title: 'journey-to-the-top', seats: 3 }, host.token)).body;
  await anon.page.goto(`${server.url}/#/game/${open.id}`);
  await anon.page.waitForSelector('.join #player-name-input');
  await anon.page.waitForSelector('#board svg.board-svg');
  await noSidewaysScroll(anon.page, 'an open game, no player');
  await anon.page.screenshot({ path: path.join(SHOTS, 'game-open-invite-390.png'), fullPage: true });
  await anon.ctx.close();
  const desk = await newPage();
  const me = await createPlayerInUI(desk.page, 'Narrow');
  await desk.page.waitForSelector('.title-entry form.new-game');
  await desk.page.screenshot({ path: path.join(SHOTS, 'home-desktop.png'), fullPage: true });
  const phone = await newPage(me, PHONE);
  await phone.page.goto(`${server.url}/#/`);
  await phone.page.waitForSelector('.title-entry form.new-game');
  await phone.page.click('#use-on-device');
  await phone.page.waitForSelector('#sign-in-link');
  await noSidewaysScroll(phone.page, 'home, signed in');
  await phone.page.screenshot({ path: path.join(SHOTS, 'home-390.png'), fullPage: true });
  for (const t of titles) {
    const seats = Math.max(t.min_seats, Math.min(3, t.max_seats));
    const g = await seatedGame(t, seats, 6);
    for (const [p, w] of [[desk.page, 'desktop'], [phone.page, '390']]) {
      await p.evaluate((pl) => localStorage.setItem('cairn.player', JSON.stringify(pl)), g.players[0]);
      await p.goto(`${server.url}/#/game/${g.id}`);
      await p.waitForSelector('#board svg.board-svg');
      await p.waitForSelector('#events li');
      if (w === '390') {
        await noSidewaysScroll(p, `${t.id} game`);
        const sizes = await boardTextSizes(p);
        assert.ok(sizes.some((x) => x.num), `${t.id}: the board has numbers`);
        for (const x of sizes) {
          assert.ok(x.px >= 9, `${t.id}: "${x.text}" drawn at ${x.px.toFixed(1)} px (< 9)`);
          if (x.num) assert.ok(x.px >= 11, `${t.id}: number ${x.text} drawn at ${x.px.toFixed(1)} px (< 11)`);
        }
      }
      await p.screenshot({ path: path.join(SHOTS, `game-${t.id}-${w}.png`), fullPage: true });
    }
  }
  for (const x of [desk, phone]) { assert.deepEqual(x.page.errors, []); await x.ctx.close(); }
});

test('one player on several devices: a sign-in link, a typed code, and sign out everywhere', async () => {
  const a = await newPage(), b = await newPage(undefined, PHONE), c = await newPage();
  for (const x of [a, b, c]) x.page.on('dialog', (d) => d.accept());
  const alice = await createPlayerInUI(a.page, 'Roaming');
  // Device A shows a code and a link holding it.
  await a.page.click('#use-on-device');
  await a.page.waitForSelector('#sign-in-link');
  const code = await a.page.textContent('#sign-in-code');
  assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const link = await a.page.inputValue('#sign-in-link');
  assert.equal(link, `${server.url}/#/sign-in/${code}`);
  // Device B opens the link and plays as the same player, with its own token.
  await b.page.goto(link);
  await b.page.waitForSelector('#signed-in');
  assert.match(await b.page.textContent('#signed-in'), /Roaming/);
  assert.equal(await b.page.textContent('#player-name'), 'Roaming');
  const onB = await b.page.evaluate(() => JSON.parse(localStorage.getItem('cairn.player')));
  assert.equal(onB.id, alice.id);
  assert.notEqual(onB.token, alice.token);
  assert.equal((await call(server.url, 'GET', '/v1/players/me', undefined, onB.token)).body.id, alice.id);
  // The link's code is spent: opening it again says so.
  const again = await newPage();
  await again.page.goto(link);
  await again.page.waitForSelector('#sign-in-page .problem');
  await again.ctx.close();
  // Device C types a fresh code into "sign in with a code" (lower case, spaces).
  await a.page.click('#use-on-device');
  await a.page.waitForFunction((old) => document.getElementById('sign-in-code') && document.getElementById('sign-in-code').textContent !== old, code);
  const code2 = await a.page.textContent('#sign-in-code');
  await c.page.goto(`${server.url}/#/`);
  await c.page.fill('#sign-in-code-input', code2.toLowerCase().replace(/-/g, ' '));
  await c.page.click('#sign-in');
  await c.page.waitForSelector('#player-name');
  const onC = await c.page.evaluate(() => JSON.parse(localStorage.getItem('cairn.player')));
  assert.equal(onC.id, alice.id);
  // A game created on A is listed on C.
  const g = (await call(server.url, 'POST', '/v1/games', { title: 'himalaya', seats: 2 }, alice.token)).body;
  await call(server.url, 'POST', `/v1/games/${g.id}/join`, {}, alice.token);
  await c.page.reload();
  await c.page.waitForSelector(`#my-games a[href="#/game/${g.id}"]`);
  // Sign out everywhere from A: A keeps playing with a new token, B and C are out.
  await a.page.click('#sign-out-everywhere');
  await a.page.waitForSelector('#signed-out-others');
  const onA = await a.page.evaluate(() => JSON.parse(localStorage.getItem('cairn.player')));
  assert.equal(onA.id, alice.id);
  assert.notEqual(onA.token, alice.token);
  assert.equal((await call(server.url, 'GET', '/v1/players/me', undefined, onA.token)).status, 200);
  for (const tok of [alice.token, onB.token, onC.token]) assert.equal((await call(server.url, 'GET', '/v1/players/me', undefined, tok)).status, 401);
  await b.page.goto(`${server.url}/#/`);
  await b.page.reload();
  await b.page.waitForFunction(() => !localStorage.getItem('cairn.player'));
  await b.page.waitForSelector('#player-name-input');
  await a.page.reload();
  await a.page.waitForSelector(`#my-games a[href="#/game/${g.id}"]`);
  for (const x of [a, b, c]) { assert.deepEqual(x.page.errors, []); await x.ctx.close(); }
});
