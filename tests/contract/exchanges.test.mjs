// exchanges.test.mjs - the API document as a validating proxy reads it
// (issue 24, "a contract that a validating proxy accepts for every exchange
// of full games of all four titles"): plays a short full game of every title
// against the real server and checks every request body and every answer
// body (moves, views, replays, logs, exports, problems) against the schema
// the document gives that operation, method and status, with a JSON Schema
// validator (ajv, 2020-12 as OpenAPI 3.1 uses it). Any misfit fails.
//
//   CAIRN_SERVER=build/test/cairn CAIRN_OPENAPI=build/test/gen/openapi.yaml \
//     node --test tests/contract/exchanges.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const DOC_ID = 'cairn-openapi';

// Short games: an opt-in cap where the title has one, and every seat but the
// first played by the server's bot.
const SETUPS = [
  { title: 'himalaya', seats: 2, options: {} },
  { title: 'himalaya', seats: 5, options: {} },
  { title: 'everest-piecepack', seats: 4, options: { round_cap: 10 } },
  { title: 'journey-to-the-top', seats: 3, options: { turn_limit: 6 } },
  { title: 'because-its-there', seats: 1, options: { scenario: '1924' } },
  { title: 'because-its-there', seats: 2, options: { scenario: '1963' } },
];
// Steps a game may take before the test gives up on it ending.
const MAX_STEPS = 3000;

let doc, ajv, cairn, workdir;
let checked = 0; // bodies validated, reported at the end

before(async () => {
  doc = YAML.parse(readFileSync(path.resolve(ROOT, process.env.CAIRN_OPENAPI || 'build/test/gen/openapi.yaml'), 'utf8'));
  // strict: false because the document holds OpenAPI's own keywords
  // (discriminator, x-*) beside JSON Schema's; every JSON Schema keyword is
  // still judged.
  ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc, DOC_ID);
  workdir = mkdtempSync(path.join(tmpdir(), 'cairn-contract-'));
  cairn = await startCairn(workdir);
});

after(async () => {
  if (cairn) await cairn.stop();
  if (workdir) rmSync(workdir, { recursive: true, force: true });
  console.log(`# ${checked} bodies checked against the document`);
});

// ---------------------------------------------------------------- the document as a proxy reads it

// Follows a `$ref` inside the document (responses, request bodies).
function deref(node) {
  while (node && node.$ref) node = node.$ref.slice(2).split('/').reduce((n, k) => n[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return node;
}

// The document's path template that `pathname` matches, e.g. /v1/games/{id}.
function operationOf(method, pathname) {
  for (const [template, item] of Object.entries(doc.paths)) {
    const re = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$');
    if (re.test(pathname) && item[method.toLowerCase()]) return { template, op: item[method.toLowerCase()] };
  }
  assert.fail(`the document has no ${method} ${pathname}`);
}

// A JSON pointer into the document as a URI fragment.
function pointer(parts) {
  return '#/' + parts.map((p) => encodeURIComponent(String(p).replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
}

const validators = new Map();
function validatorAt(parts) {
  const key = pointer(parts);
  if (!validators.has(key)) validators.set(key, ajv.compile({ $ref: DOC_ID + key }));
  return validators.get(key);
}

function assertFits(validate, value, what) {
  checked++;
  if (validate(value)) return;
  const text = JSON.stringify(value);
  assert.fail(`${what} does not fit the document: ${ajv.errorsText(validate.errors)}\n  value: ${text.slice(0, 1500)}`);
}

// The schema of `status`'s answer in `mediaType`, as a pointer's parts
// (through a `$ref` to components/responses when the answer is shared).
function responseSchemaParts(template, method, status, mediaType) {
  const op = doc.paths[template][method];
  const code = op.responses[String(status)] ? String(status) : `${String(status)[0]}XX`;
  const response = op.responses[code];
  assert.ok(response, `${method.toUpperCase()} ${template} documents no ${status} answer`);
  const parts = response.$ref
    ? response.$ref.slice(2).split('/')
    : ['paths', template, method, 'responses', code];
  const content = deref(response).content;
  if (!content) return null;
  assert.ok(content[mediaType], `${method.toUpperCase()} ${template} ${status} documents no ${mediaType} body`);
  return [...parts, 'content', mediaType, 'schema'];
}

// One exchange, both ways checked: the request body against the operation's
// request schema, the answer body against the schema of its status.
async function call(method, urlPath, { token, body } = {}) {
  const url = new URL(urlPath, cairn.url);
  const { template, op } = operationOf(method, url.pathname);
  const m = method.toLowerCase();
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    const media = deref(op.requestBody).content['application/json'];
    assert.ok(media, `${method} ${template} takes no JSON body`);
    const parts = op.requestBody.$ref ? op.requestBody.$ref.slice(2).split('/') : ['paths', template, m, 'requestBody'];
    assertFits(validatorAt([...parts, 'content', 'application/json', 'schema']), body, `the body of ${method} ${template}`);
  }
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const mediaType = (res.headers.get('content-type') || '').split(';')[0].trim();
  const text = await res.text();
  const parts = responseSchemaParts(template, m, res.status, mediaType);
  let json = null;
  if (parts) {
    json = JSON.parse(text);
    assertFits(validatorAt(parts), json, `the ${res.status} answer to ${method} ${url.pathname}${url.search}`);
  }
  return { status: res.status, body: json };
}

// ---------------------------------------------------------------- playing

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

// A random legal move: the reference walker of the document (Choices), as a
// client would copy it from there.
function pickMove(node, move = {}) {
  if (node.all) { node.all.forEach((part) => pickMove(part, move)); return move; }
  const option = node.options[Math.floor(Math.random() * node.options.length)];
  const keys = node.choose.split('/').slice(1);
  let at = move;
  keys.slice(0, -1).forEach((key, i) => { at = at[key] ??= /^\d+$/.test(keys[i + 1]) ? [] : {}; });
  at[keys[keys.length - 1]] = option.value;
  if (option.then && !(option.done && Math.random() < 0.5)) pickMove(option.then, move);
  return move;
}

// Every page of the log, each checked.
async function readLog(id, token) {
  let cursor = null;
  let rows = 0;
  do {
    const page = await call('GET', `/v1/games/${id}/log?limit=50${cursor == null ? '' : `&from_ord=${cursor}`}`, { token });
    assert.equal(page.status, 200);
    rows += page.body.events.length;
    cursor = page.body.next;
  } while (cursor != null);
  return rows;
}

async function playOne(title, seats, options) {
  const player = await call('POST', '/v1/players', { body: { name: `Contract ${title}` } });
  assert.equal(player.status, 201);
  const token = player.body.token;
  const bots = Array.from({ length: seats - 1 }, (_, i) => i + 1);
  const created = await call('POST', '/v1/games', { token, body: { title, seats, options, ...(bots.length ? { bots } : {}) } });
  assert.equal(created.status, 201);
  const id = created.body.id;
  assert.equal((await call('POST', `/v1/games/${id}/join`, { token, body: {} })).status, 200);

  // Problems are exchanges too: a stale seq, a move the title does not know,
  // a game that does not exist.
  const stale = await call('POST', `/v1/games/${id}/moves`, { token, body: { seq: 999, move: { type: 'done' } } });
  assert.equal(stale.status, 409);
  assert.equal((await call('GET', '/v1/games/00000000000000000000', { token })).status, 404);

  let game = (await call('GET', `/v1/games/${id}`, { token })).body;
  let takebackTried = false;
  for (let step = 0; game.status !== 'finished'; step++) {
    assert.ok(step < MAX_STEPS, `${title} did not end in ${MAX_STEPS} steps`);
    if (step % 10 === 0) await call('GET', `/v1/games/${id}`); // a spectator's view
    // Every other view the compact way (legal=none: the tree without the list).
    if (step % 2 === 1) game = (await call('GET', `/v1/games/${id}?legal=none`, { token })).body;
    if (game.choices && game.to_act.includes(game.your_seat)) {
      const moved = await call('POST', `/v1/games/${id}/moves`, { token, body: { seq: game.seq, move: pickMove(game.choices) } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      game = moved.body.game;
      if (!takebackTried && game.status === 'active') {
        // Done at once, asked of the bots, or refused: each answer is checked.
        takebackTried = true;
        const back = await call('POST', `/v1/games/${id}/takeback`, { token, body: { seq: game.seq } });
        if (back.status === 200) game = back.body.game;
        else game = (await call('GET', `/v1/games/${id}`, { token })).body;
      }
    } else {
      await new Promise((r) => setTimeout(r, 5));
      game = (await call('GET', `/v1/games/${id}`, { token })).body;
    }
  }
  const bad = await call('POST', `/v1/games/${id}/moves`, { token, body: { seq: game.seq, move: { type: 'done' } } });
  assert.ok(bad.status >= 400 && bad.status < 500);
  for (const at of [0, Math.floor(game.seq / 2), game.seq]) {
    assert.equal((await call('GET', `/v1/games/${id}?at=${at}`, { token })).status, 200);
  }
  assert.ok((await readLog(id, token)) > 0);
  const exported = await call('GET', `/v1/games/${id}/export`, { token });
  assert.equal(exported.status, 200);
  assert.equal((await call('GET', `/v1/games/${id}/verify`, { token })).status, 200);
  assert.equal((await call('GET', '/v1/players/me/games', { token })).status, 200);
  return game;
}

for (const { title, seats, options } of SETUPS) {
  test(`a full ${title} game, ${seats} seats: every exchange fits the document`, async () => {
    const game = await playOne(title, seats, options);
    console.log(`# ${title}: finished at seq ${game.seq} after ${game.moves} log rows`);
    assert.equal(game.status, 'finished');
    assert.ok(game.result && Array.isArray(game.result.winners));
  });
}

test('the operational answers fit the document', async () => {
  for (const p of ['/livez', '/readyz', '/v1/health', '/v1/server-key', '/v1/titles']) {
    assert.equal((await call('GET', p)).status, 200, p);
  }
  assert.equal((await call('GET', '/v1/players/me')).status, 401);
});

test('the validator refuses what the document forbids', () => {
  // A checker that passes everything would pass every game.
  const move = validatorAt(['components', 'schemas', 'MoveRequest']);
  assert.equal(move({ seq: 0, move: { type: 'done' } }), true);
  assert.equal(move({ seq: 0, move: { type: 'no-such-move' } }), false);
  assert.equal(move({ seq: -1, move: { type: 'done' } }), false);
  const game = validatorAt(['components', 'schemas', 'TitleGame']);
  const open = deref({ $ref: '#/components/examples/GameOpen' }).value;
  assert.equal(game(open), true);
  assert.equal(game({ ...open, view: { ...open.view, yeti: 'cave' } }), false);
  assert.equal(game({ ...open, title: 'chess' }), false);
  // The choices tree: the example's is a tree; an option without a value,
  // or a node that names no member, is not.
  const active = deref({ $ref: '#/components/examples/GameActive' }).value;
  assert.equal(game(active), true);
  const choices = validatorAt(['components', 'schemas', 'Choices']);
  assert.equal(choices(active.choices), true);
  assert.equal(choices({ choose: '/type', options: [{ then: active.choices }] }), false);
  assert.equal(choices({ options: [{ value: 'die' }] }), false);
  assert.equal(choices({ choose: '/type', options: [] }), false);
  // An export is read by its title: a Journey move in a Himalaya record is refused.
  const exported = validatorAt(['components', 'schemas', 'TitleExport']);
  const record = deref({ $ref: '#/components/examples/ExportFinished' }).value;
  assert.equal(exported(record), true);
  const [first, ...rest] = record.moves;
  assert.equal(exported({ ...record, moves: [{ ...first, move: { type: 'done' } }, ...rest] }), false);
});

// ---------------------------------------------------------------- the server

// The real server (CAIRN_SERVER), on a free port, in its own directory.
function startCairn(dir) {
  const bin = path.resolve(ROOT, process.env.CAIRN_SERVER || 'build/test/cairn');
  const env = { ...process.env, ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0' };
  const args = ['--host', '127.0.0.1', '--port', '0', '--db', path.join(dir, 'cairn.db'), '--rate-limit', '0,0'];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`cairn did not start: ${err}`));
    }, 15000);
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        stop: () =>
          new Promise((res) => {
            if (child.exitCode != null) return res();
            child.once('exit', () => res());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cairn exited (${code}): ${err}`));
    });
  });
}
