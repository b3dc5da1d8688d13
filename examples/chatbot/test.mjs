// test.mjs - the chat bot against the real Cairn server and a fake chat
// platform: two chat users create, join and play a game to its end through
// chat commands only, the channel hears every turn, forged webhooks are
// refused, and nothing secret reaches anyone who may not see it.
//   CAIRN_SERVER=build/test/cairn node --test examples/chatbot/test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatAdapter } from './chat.mjs';
import { ChatBot } from './bot.mjs';
import { checkWebhookSignature, MAX_SIGNATURE_AGE_S } from './cairn.mjs';
import { choicesFrom, countMoves, PLANS_OFFERED } from './legal.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const CHANNEL = '#north-col';
const SOLO = '#base-camp';
// A turn, start or end line, which the bot posts when Cairn's webhook calls.
const ANNOUNCEMENT = /^[^:]+ game [0-9a-f]{20}(: .* to act \(seq \d+\)\.| has started: .*| is over .*)$/;
// Which moves the players pick is drawn from this seed (printed), so a
// failing game can be played again: CHATBOT_TEST_SEED=<n>.
const SEED = Number(process.env.CHATBOT_TEST_SEED || Date.now() % 1000000);
let cairn, platform, bot, dir;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cairn-chatbot-'));
  cairn = await startCairn(dir);
  platform = await startPlatform();
  bot = new ChatBot({
    cairnUrl: cairn.url,
    chat: new ChatAdapter({ postUrl: `${platform.url}/post` }),
    statePath: path.join(dir, 'chatbot-state.json'),
    log: (line) => platform.log.push(line),
  });
  platform.botUrl = await bot.listen(0, '127.0.0.1');
  console.log(`chatbot test seed ${SEED} (CHATBOT_TEST_SEED repeats a run; CHATBOT_TEST_TRANSCRIPT=1 prints the channels)`);
});

after(async () => {
  if (process.env.CHATBOT_TEST_TRANSCRIPT) for (const p of platform?.posts || []) console.log(`# ${p.channel}${p.user ? ` (to ${p.user})` : ''}: ${p.text.replace(/\n/g, ' / ')}`);
  if (bot) await bot.close();
  if (platform) await platform.close();
  if (cairn) await cairn.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('two chat users play a game of Everest to its end through the bot', async () => {
  const random = seeded(SEED);
  // Unknown commands get the help line; plain talk gets nothing.
  assert.match(only(await say('alice', '!hello')).text, /^Commands: !new/);
  assert.equal((await say('alice', 'good morning')).length, 0);

  // A refusal from Cairn reaches its user as the problem's detail.
  const refused = only(await say('alice', '!new chess 2'));
  assert.equal(refused.user, 'alice');
  assert.match(refused.text, /^Cairn: title "chess" is not one of/);

  const created = only(await say('alice', '!new everest-piecepack 2 round_cap=4'));
  const gameId = /game ([0-9a-f]{20}) for 2 seats/.exec(created.text)?.[1];
  assert.ok(gameId && created.user === undefined, `a public line names the new game: ${created.text}`);
  assert.match(created.text, /^New Everest \(piecepack\) game/);

  assert.equal(only(await say('alice', '!join')).text, 'alice takes seat 0.');
  assert.match(only(await say('carol', '!moves')).text, /You hold no seat/);
  const taken = only(await say('bob', '!join 0'));
  assert.equal(taken.user, 'bob');
  assert.match(taken.text, /^Cairn: seat 0 .*is taken/);
  assert.equal(only(await say('bob', '!join')).text, 'bob takes seat 1.');

  const states = []; // every (seq, to_act) the game passed through, from !board
  const played = []; // [user, move JSON]
  let usedJson = false;
  for (let turn = 0; turn < 200; turn++) {
    const board = only(await say('carol', '!board'));
    assert.equal(board.user, undefined, '!board is public');
    const m = /, (active|finished), seq (\d+): (.*?)(?: to act)?\. Seats: 0 alice, 1 bob\.$/.exec(board.text);
    assert.ok(m, `the board names the state: ${board.text}`);
    if (m[1] === 'finished') {
      assert.match(m[3], /nobody wins \(round-cap\)|(alice|bob) wins/);
      break;
    }
    const toAct = m[3].split(', ');
    states.push({ seq: Number(m[2]), toAct });
    const user = toAct[Math.floor(random() * toAct.length)];
    const listing = only(await say(user, '!moves'));
    assert.equal(listing.user, user, 'legal moves are whispered to their player');
    const moves = [...listing.text.matchAll(/^(\d+)\. (\{.*\})$/gm)].map((x) => x[2]);
    assert.ok(moves.length > 0, `moves are listed: ${listing.text}`);
    const pick = Math.floor(random() * moves.length);
    // The first move is typed as JSON, the others picked by number.
    const reply = only(await say(user, usedJson ? `!play ${pick + 1}` : `!play ${moves[pick]}`));
    usedJson = true;
    assert.equal(reply.user, user);
    assert.match(reply.text, /^Played /, `the move was accepted: ${reply.text}`);
    played.push([user, moves[pick]]);
  }
  assert.ok(states.length >= 4 && played.length === states.length, `the game ended after ${played.length} moves`);
  assert.ok(played.some(([, mv]) => mv.includes('"type":"plan"')), 'plans were drawn from the plan descriptor');

  // Every change of who acts was announced in the channel (webhook
  // deliveries run in parallel, so their order is not checked), then the end.
  const expected = states.filter((s, i) => i === 0 || s.toAct.join() !== states[i - 1].toAct.join());
  const announced = () =>
    platform.posts.filter((p) => p.channel === CHANNEL && p.user === undefined && p.text.startsWith(`Everest (piecepack) game ${gameId}`));
  await waitFor(() => announced().some((p) => / is over \(seq \d+\): /.test(p.text)), 'the end is announced');
  await waitFor(
    () => expected.every((s) => announced().some((p) => p.text.endsWith(`: ${s.toAct.map((u) => `@${u}`).join(', ')} to act (seq ${s.seq}).`))),
    'every turn is announced',
  );
  assert.ok(announced().some((p) => p.text.endsWith('has started: alice (seat 0), bob (seat 1).')));

  // Nothing secret reached anyone who may not see it: no line holds a
  // token or a webhook secret; every whisper went to the user whose command
  // it answered; and no move (a secret plan, a heal choice) was shown in the
  // channel.
  const secrets = [bot.state.self.token, ...Object.values(bot.state.players).map((p) => p.token), bot.state.channels[CHANNEL].secret];
  assert.equal(secrets.length, 4);
  for (const p of platform.posts) {
    assert.doesNotMatch(p.text, /cairn_[A-Za-z0-9_-]{43}/);
    for (const s of secrets) assert.ok(!p.text.includes(s), 'no line holds a token or secret');
  }
  for (const [user, mv] of played)
    assert.ok(!platform.posts.some((p) => p.user === undefined && p.text.includes(mv)), `${user}'s move ${mv} stays out of the channel`);
  assert.ok(platform.misrouted === 0, 'every whisper went to the user who asked');
  // The state file keeps the tokens, for its owner's eyes only.
  assert.equal(statSync(path.join(dir, 'chatbot-state.json')).mode & 0o077, 0);
  assert.equal(JSON.parse(readFileSync(path.join(dir, 'chatbot-state.json'), 'utf8')).channels[CHANNEL].game, gameId);

  // After the end: moves and resignations are refused with Cairn's detail.
  const late = only(await say('alice', '!resign'));
  assert.equal(late.user, 'alice');
  assert.match(late.text, /^Cairn: .*finished/);
});

test('one chat user plays Himalaya against Cairn\'s random bot, paging through long move lists', async () => {
  const random = seeded(SEED + 1);
  const created = only(await say('dana', '!new himalaya 2 bots=1', SOLO));
  const gameId = /game ([0-9a-f]{20}) for 2 seats \(Cairn's random bot on seat 1\)/.exec(created.text)?.[1];
  assert.ok(gameId, created.text);
  assert.equal(only(await say('dana', '!join', SOLO)).text, 'dana takes seat 0.');
  let paged = false;
  let moves = 0;
  for (; moves < 400; moves++) {
    const board = only(await say('dana', '!board', SOLO)).text;
    assert.match(board, /Seats: 0 dana, 1 Random bot\.$/);
    if (board.includes(', finished, ')) break;
    assert.match(board, /, active, seq \d+: dana to act\./, 'the bot answers at once: dana is always to act');
    let listing = only(await say('dana', '!moves', SOLO)).text;
    const more = /; !moves 2 for more\)/.test(listing);
    if (more && !paged) {
      paged = true;
      const second = only(await say('dana', '!moves 2', SOLO)).text;
      assert.match(second, /^Your moves at seq \d+ \(21-\d+ of \d+; /);
      assert.match(second, /^21\. \{/m);
      listing = second;
    }
    const offered = [...listing.matchAll(/^(\d+)\. (\{.*\})$/gm)].map((x) => [Number(x[1]), JSON.parse(x[2])]);
    // A climber's move when there is one (the game ends when climbers
    // arrive), otherwise any: the numbers are those !moves showed.
    const climbers = offered.filter(([, m]) => m.pawn === 'climber');
    const [n] = (climbers.length ? climbers : offered)[Math.floor(random() * (climbers.length || offered.length))];
    assert.match(only(await say('dana', `!play ${n}`, SOLO)).text, /^Played /);
  }
  assert.ok(paged, 'some listing had more than one page');
  const over = () => platform.posts.find((p) => p.channel === SOLO && p.text.startsWith(`Himalaya game ${gameId} is over`));
  await waitFor(over, 'the end is announced');
  assert.match(over().text, /: (dana|Random bot) wins/);
  // Once the game is over there is nothing left to list.
  const late = only(await say('dana', '!moves', SOLO));
  assert.match(late.text, /^Nothing for you to play now \(finished\)/);
});

test('forged and stale webhook deliveries are refused, genuine ones accepted', async () => {
  const gameId = bot.state.channels[CHANNEL]?.game;
  assert.ok(gameId, 'the game test ran first');
  const before = platform.posts.length;
  const body = JSON.stringify({ event: 'turn', game: gameId, title: 'everest-piecepack', seq: 99, status: 'active', to_act: [0], result: null, text: 'forged', url: `/v1/games/${gameId}` });
  const now = String(Math.floor(Date.now() / 1000));
  const wrongKey = createHmac('sha256', Buffer.alloc(32, 7)).update(`${now}.${body}`).digest('hex');
  assert.equal((await post(`${platform.botUrl}/cairn/${gameId}`, body, {})).status, 401, 'unsigned');
  assert.equal((await post(`${platform.botUrl}/cairn/${gameId}`, body, { 'X-Cairn-Timestamp': now, 'X-Cairn-Signature': `sha256=${wrongKey}` })).status, 401, 'signed with another key');
  assert.equal((await post(`${platform.botUrl}/cairn/0123456789abcdef0123`, body, { 'X-Cairn-Timestamp': now, 'X-Cairn-Signature': `sha256=${wrongKey}` })).status, 404, 'a game the bot does not follow');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(platform.posts.slice(before).filter((p) => p.text.includes('seq 99')).length, 0, 'nothing forged reached the channel');

  // The check itself, with a known secret: the right signature passes; an
  // old timestamp, an altered body or a changed timestamp do not.
  const secret = 'ab'.repeat(32);
  const sign = (ts, b) => `sha256=${createHmac('sha256', Buffer.from(secret, 'hex')).update(`${ts}.${b}`).digest('hex')}`;
  const t = 1800000000;
  assert.equal(checkWebhookSignature(secret, String(t), sign(t, body), Buffer.from(body), t + 1), null);
  assert.equal(checkWebhookSignature(secret, String(t), sign(t, body), Buffer.from(body), t + MAX_SIGNATURE_AGE_S + 1), 'too old');
  assert.equal(checkWebhookSignature(secret, String(t), sign(t, body), Buffer.from(body.replace('99', '98')), t), 'bad signature');
  assert.equal(checkWebhookSignature(secret, String(t + 1), sign(t, body), Buffer.from(body), t), 'bad signature');
  assert.equal(checkWebhookSignature(secret, undefined, undefined, Buffer.from(body), t), 'unsigned');
});

test('a large tree yields distinct walked moves, a small one every move', () => {
  // An Everest plan of three coins of [0, 2, 5], as the server writes it.
  const node = (pointer, values) => ({ choose: pointer, options: values.map((value) => ({ value })) });
  const coins = (step, left) => ({
    choose: `/plan/${step}/coin`,
    options: left.map((value) => (step < 2 ? { value, then: coins(step + 1, left.filter((c) => c !== value)) } : { value })),
  });
  const parts = [coins(0, [0, 2, 5])];
  for (let i = 0; i < 3; i++) parts.push(node(`/plan/${i}/face`, ['value', 'suit']), node(`/plan/${i}/dir`, ['N', 'E', 'S', 'W']));
  const plans = { choose: '/type', options: [{ value: 'plan', then: { all: parts } }] };
  assert.equal(countMoves(plans), 3 * 2 * 1 * 8 ** 3);
  const drawn = choicesFrom(plans, seeded(1));
  assert.equal(drawn.length, PLANS_OFFERED);
  assert.equal(new Set(drawn.map((p) => JSON.stringify(p))).size, drawn.length);
  for (const p of drawn) {
    assert.equal(p.type, 'plan');
    assert.deepEqual(p.plan.map((c) => c.coin).sort(), [0, 2, 5]);
    for (const c of p.plan) assert.deepEqual(Object.keys(c).sort(), ['coin', 'dir', 'face']);
  }
  // A move that may stop or go on ("done"), listed in full.
  const small = { choose: '/type', options: [{ value: 'end' }, { value: 'deploy', then: { choose: '/card', options: [{ value: 38, done: true, then: node('/team', [0, 1]) }] } }] };
  assert.deepEqual(choicesFrom(small), [
    { type: 'end' },
    { type: 'deploy', card: 38 },
    { type: 'deploy', card: 38, team: 0 },
    { type: 'deploy', card: 38, team: 1 },
  ]);
  assert.deepEqual(choicesFrom(null), []);
});

// ---------------------------------------------------------------- helpers

// One chat line typed by `user`; resolves to what the bot posted in reply
// (the bot answers the platform only after posting its replies). Turn
// announcements, which arrive on their own, are left out.
async function say(user, text, channel = CHANNEL) {
  const from = platform.posts.length;
  const r = await post(`${platform.botUrl}/chat`, JSON.stringify({ channel, user, text }), {});
  assert.equal(r.status, 200, `the bot took "${text}": ${r.text}; bot log: ${platform.log.join("\n")}`);
  const replies = platform.posts.slice(from).filter((p) => p.channel === channel && !ANNOUNCEMENT.test(p.text));
  for (const p of replies) if (p.user !== undefined && p.user !== user) platform.misrouted++;
  return replies;
}

function only(replies) {
  assert.equal(replies.length, 1, `one reply: ${JSON.stringify(replies)}`);
  return replies[0];
}

async function post(url, body, headers) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  return { status: r.status, text: await r.text() };
}

async function waitFor(cond, what, ms = 15000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`${what} (within ${ms} ms); channel: ${JSON.stringify(platform.posts.filter((p) => !p.user).map((p) => p.text), null, 1)}; bot log: ${platform.log.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A small seeded generator (mulberry32), so a run can be repeated.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The fake chat platform: records every line the bot posts.
function startPlatform() {
  const p = { posts: [], log: [], misrouted: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/post') return res.writeHead(404).end();
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      assert.ok([CHANNEL, SOLO].includes(msg.channel));
      assert.equal(typeof msg.text, 'string');
      p.posts.push(msg);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      p.url = `http://127.0.0.1:${server.address().port}`;
      p.close = () => new Promise((r) => server.close(() => r()));
      resolve(p);
    }),
  );
}

// The real server (CAIRN_SERVER), on a free port, in its own directory,
// allowed to deliver webhooks to the bot on loopback.
function startCairn(workdir) {
  const bin = path.resolve(ROOT, process.env.CAIRN_SERVER || 'build/test/cairn');
  const env = { ...process.env, ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0' };
  const args = ['--host', '127.0.0.1', '--port', '0', '--db', path.join(workdir, 'cairn.db'), '--allow-private-webhooks'];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: workdir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`cairn did not start: ${err}`)); }, 15000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        stop: () => new Promise((res) => {
          if (child.exitCode != null) return res();
          child.once('exit', () => res());
          child.kill('SIGTERM');
        }),
      });
    });
    child.once('error', (e) => { clearTimeout(timer); reject(e); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`cairn exited (${code}): ${err}`)); });
  });
}
