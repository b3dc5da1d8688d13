// bot.mjs - a chat bot that relays Cairn games to chat channels, using only
// Cairn's public HTTP API (cairn.mjs) and a chat adapter (chat.mjs).
//
// One game per channel. The bot holds one Cairn player of its own, which
// creates games and follows each with a webhook (format `json`), and one
// Cairn player per chat user, made on that user's first `!join`. Tokens and
// webhook secrets stay in this process (and in the state file, when one is
// given, readable by its owner only); no line the bot sends contains one.
//
// What a channel reads is public: `!board` reads the game as a spectator,
// turn lines come from webhook notifications (which carry only what every
// spectator may know). What comes from a player's own view (its legal moves,
// the moves it made, Cairn's answers to them) is whispered to that player.
import http from 'node:http';
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { CairnClient, CairnError, checkWebhookSignature } from './cairn.mjs';
import { choicesFrom, countMoves, describeChoices, LIST_MAX } from './legal.mjs';

// Moves listed per `!moves` page: a Himalaya seat can have a hundred.
const MOVES_PER_PAGE = 20;
// Request bodies the bot reads at most (a chat line, a notification).
const MAX_BODY_BYTES = 64 * 1024;
// Delivery ids remembered to drop repeats (Cairn retries a delivery whose
// answer it did not get, with the same X-Cairn-Delivery).
const DELIVERIES_REMEMBERED = 1000;

const HELP =
  'Commands: !new <title> [seats] [option=value ...] [bots=<seat>,...] · !join [seat] · !board · ' +
  '!moves [page] · !play <n> or !play <move JSON> · !resign';

export class ChatBot {
  // cairnUrl: Cairn's root. chat: a ChatAdapter. publicUrl: where Cairn can
  // reach this bot (webhooks are POSTed to <publicUrl>/cairn/<game id>).
  // statePath: a JSON file to keep players, games and secrets across
  // restarts, or empty to keep them in memory only. name: the bot's own
  // Cairn player's name.
  constructor({ cairnUrl, chat, publicUrl, statePath = '', name = 'Chat bot', log = console.error }) {
    this.cairn = new CairnClient(cairnUrl, { log });
    this.chat = chat;
    this.publicUrl = publicUrl ? publicUrl.replace(/\/+$/, '') : '';
    this.statePath = statePath;
    this.name = name;
    this.log = log;
    // self: {id, token}; players: chat user -> {id, token}; channels:
    // channel -> {game, title, seats: {seat: user}, webhook, secret}.
    this.state = { self: null, players: dict(), channels: dict() };
    this.listings = new Map(); // `${channel}\n${user}` -> {game, seq, moves}
    this.deliveries = new Set();
    this.titleNames = null; // title id -> name, from GET /v1/titles
    this.announcing = Promise.resolve(); // keeps announcements in arrival order
    if (statePath) this.load();
  }

  // ------------------------------------------------------------ HTTP side

  // Starts listening; resolves to the URL it listens on.
  listen(port = 0, host = '127.0.0.1') {
    this.server = http.createServer((req, res) => this.route(req, res));
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        const url = `http://${host}:${this.server.address().port}`;
        if (!this.publicUrl) this.publicUrl = url;
        resolve(url);
      });
    });
  }

  close() {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  async route(req, res) {
    try {
      const body = await readBody(req);
      if (req.method === 'POST' && req.url === '/chat') return await this.onChat(req, body, res);
      const hook = /^\/cairn\/([0-9A-Za-z_-]{1,64})$/.exec(req.url);
      if (req.method === 'POST' && hook) return this.onWebhook(hook[1], req, body, res);
      answer(res, 404, { error: 'not found' });
    } catch (e) {
      this.log(`chatbot: ${req.method} ${req.url}: ${e.stack || e}`);
      answer(res, e.status || 500, { error: e.status ? e.message : 'internal error' });
    }
  }

  // A message typed in a channel. The platform is answered once every reply
  // is posted, so a reply never overtakes the command that caused it.
  async onChat(req, body, res) {
    const msg = this.chat.readMessage(req.headers, body);
    if (msg instanceof Error) return answer(res, msg.status, { error: msg.message });
    await this.command(msg);
    answer(res, 200, { ok: true });
  }

  // A delivery from Cairn. Checked before anything in it is believed: the
  // game must be one this bot follows and the signature that game's secret's.
  onWebhook(gameId, req, body, res) {
    const channel = this.channelOfGame(gameId);
    if (!channel) return answer(res, 404, { error: 'not a game this bot follows' });
    const secret = this.state.channels[channel].secret;
    const why = checkWebhookSignature(secret, req.headers['x-cairn-timestamp'], req.headers['x-cairn-signature'], body);
    if (why) {
      this.log(`chatbot: refused a delivery for game ${gameId}: ${why}`);
      return answer(res, 401, { error: why });
    }
    const delivery = String(req.headers['x-cairn-delivery'] || '');
    if (delivery && this.deliveries.has(delivery)) return answer(res, 200, { ok: true, repeat: true });
    const note = JSON.parse(body.toString('utf8'));
    if (note.game !== gameId) return answer(res, 400, { error: 'the notification names another game' });
    if (delivery) remember(this.deliveries, delivery);
    answer(res, 204);
    // Answer first: Cairn gives a receiver 5 s, and a chat can be slower.
    this.announcing = this.announcing
      .then(() => this.announce(channel, note))
      .catch((e) => this.log(`chatbot: announcing to ${channel}: ${e.stack || e}`));
  }

  // ------------------------------------------------------------ commands

  async command({ channel, user, text }) {
    const words = text.trim().split(/\s+/);
    if (!words[0].startsWith('!')) return; // ordinary conversation
    const handlers = {
      '!new': () => this.newGame(channel, user, words.slice(1)),
      '!join': () => this.join(channel, user, words[1]),
      '!board': () => this.board(channel),
      '!moves': () => this.moves(channel, user, words[1]),
      '!play': () => this.play(channel, user, text.trim().slice('!play'.length).trim()),
      '!resign': () => this.resign(channel, user),
    };
    const handler = handlers[words[0].toLowerCase()];
    if (!handler) return this.chat.say(channel, HELP);
    try {
      await handler();
    } catch (e) {
      if (!(e instanceof CairnError || e instanceof UsageError)) {
        // Cairn unreachable, or a bug here: the user hears that much, the
        // log gets the rest.
        this.log(`chatbot: ${text}: ${e.stack || e}`);
        return this.chat.whisper(channel, user, 'Something went wrong; try again later.');
      }
      // A refusal is shown as its `detail`, to the user alone: the detail of
      // a refused move may name the user's own cards.
      const hint = e.code === 'stale-seq' ? ' (the game moved on: !moves again)' : '';
      await this.chat.whisper(channel, user, `${e instanceof CairnError ? 'Cairn: ' : ''}${e.detail}${hint}`);
    }
  }

  // !new <title> [seats] [option=value ...] [bots=<seat>,...]
  async newGame(channel, user, args) {
    const [title, ...rest] = args;
    if (!title) throw new UsageError('Usage: !new <title> [seats] [option=value ...] [bots=1,2]');
    let seats;
    const options = {};
    let bots = [];
    for (const arg of rest) {
      const kv = /^([a-z_]+)=(.*)$/.exec(arg);
      if (/^\d+$/.test(arg)) seats = Number(arg);
      else if (kv && kv[1] === 'bots') bots = kv[2].split(',').filter(Boolean).map(Number);
      else if (kv) options[kv[1]] = /^-?\d+$/.test(kv[2]) ? Number(kv[2]) : kv[2];
      else throw new UsageError(`"${arg}" is not a seat count nor option=value`);
    }
    const current = this.state.channels[channel];
    if (current) {
      const game = await this.cairn.getGame(current.game).catch((e) => {
        if (e.status === 404) return { status: 'gone' }; // the server lost it: start afresh
        throw e;
      });
      if (game.status === 'active')
        throw new UsageError(`Game ${current.game} is still being played here; finish it or !resign first.`);
    }
    const self = await this.self();
    const game = await this.cairn.createGame(self.token, title, seats, options, bots);
    if (current) await this.unfollow(current);
    const entry = { game: game.id, title: game.title, seats: dict(), webhook: null, secret: null };
    this.state.channels[channel] = entry;
    this.save();
    const names = await this.titles();
    let line = `New ${names[game.title] || game.title} game ${game.id} for ${game.seats.length} seats`;
    if (bots.length) line += ` (Cairn's random bot on seat ${bots.join(', ')})`;
    line += '. Type !join to take a seat.';
    try {
      const hook = await this.cairn.createWebhook(self.token, `${this.publicUrl}/cairn/${game.id}`, game.id);
      entry.webhook = hook.id;
      entry.secret = hook.secret;
      this.save();
    } catch (e) {
      if (!(e instanceof CairnError)) throw e;
      line += ` (Turns will not be announced: Cairn: ${e.detail})`;
    }
    await this.chat.say(channel, line);
  }

  // !join [seat]
  async join(channel, user, seatArg) {
    const entry = this.gameOf(channel);
    if (seatArg !== undefined && !/^\d+$/.test(seatArg)) throw new UsageError('Usage: !join [seat number]');
    const player = await this.playerOf(user);
    const { seat } = await this.cairn.join(entry.game, player.token, seatArg === undefined ? undefined : Number(seatArg));
    entry.seats[seat] = user;
    this.save();
    await this.chat.say(channel, `${user} takes seat ${seat}.`);
  }

  // !board: read as a spectator, so nothing hidden can reach the channel.
  async board(channel) {
    const entry = this.gameOf(channel);
    const game = await this.cairn.getGame(entry.game);
    const names = await this.titles();
    let line = `${names[game.title] || game.title} game ${game.id}, ${game.status}, seq ${game.seq}: `;
    if (game.status === 'open') line += 'waiting for players.';
    else if (game.status === 'finished') line += `${this.resultLine(entry, game.seats, game.result)}.`;
    else line += `${game.to_act.map((s) => this.seatName(entry, game.seats, s)).join(', ')} to act.`;
    line += ` Seats: ${game.seats.map((s) => `${s.seat} ${this.seatName(entry, game.seats, s.seat)}`).join(', ')}.`;
    await this.chat.say(channel, line);
  }

  // !moves [page]: the user's legal moves, numbered, whispered.
  async moves(channel, user, pageArg) {
    const { entry, player } = this.seatedIn(channel, user);
    const game = await this.cairn.getGame(entry.game, player.token);
    const moves = choicesFrom(game.choices);
    if (!moves.length) {
      const waiting = game.to_act.map((s) => this.seatName(entry, game.seats, s)).join(', ');
      return this.chat.whisper(channel, user, `Nothing for you to play now (${game.status}${waiting ? `; ${waiting} to act` : ''}).`);
    }
    this.listings.set(`${channel}\n${user}`, { game: entry.game, seq: game.seq, moves });
    const pages = Math.ceil(moves.length / MOVES_PER_PAGE);
    const page = Math.min(Math.max(Number(pageArg) || 1, 1), pages);
    const first = (page - 1) * MOVES_PER_PAGE;
    const lines = moves.slice(first, first + MOVES_PER_PAGE).map((m, i) => `${first + i + 1}. ${JSON.stringify(m)}`);
    let head = `Your moves at seq ${game.seq}`;
    if (pages > 1) head += ` (${first + 1}-${first + lines.length} of ${moves.length}; !moves ${(page % pages) + 1} for more)`;
    if (countMoves(game.choices) > LIST_MAX) head += ` (${lines.length} drawn at random of ${describeChoices(game.choices)})`;
    await this.chat.whisper(channel, user, `${head}:\n${lines.join('\n')}\nPlay one with !play <n>.`);
  }

  // !play <n> (from the latest !moves) or !play <move JSON>
  async play(channel, user, arg) {
    const { entry, player } = this.seatedIn(channel, user);
    let seq, move;
    if (/^\d+$/.test(arg)) {
      const listing = this.listings.get(`${channel}\n${user}`);
      if (!listing || listing.game !== entry.game) throw new UsageError('Type !moves first, then !play <n>.');
      move = listing.moves[Number(arg) - 1];
      if (!move) throw new UsageError(`Pick a number from 1 to ${listing.moves.length}.`);
      // The seq the listing was read at: if the game moved since, Cairn
      // answers 409 stale-seq rather than play a move chosen for another
      // position.
      seq = listing.seq;
    } else {
      try {
        move = JSON.parse(arg);
      } catch {
        throw new UsageError('Usage: !play <number from !moves> or !play <move as JSON>');
      }
      seq = (await this.cairn.getGame(entry.game, player.token)).seq;
    }
    const done = await this.cairn.move(entry.game, player.token, seq, move);
    this.listings.delete(`${channel}\n${user}`);
    const mySeat = done.game.your_seat;
    const again = done.game.to_act.includes(mySeat) ? ' You act again: !moves.' : '';
    await this.chat.whisper(channel, user, `Played ${JSON.stringify(move)} (seq ${done.seq}).${again}`);
  }

  // !resign
  async resign(channel, user) {
    const { entry, player } = this.seatedIn(channel, user);
    const game = await this.cairn.getGame(entry.game, player.token);
    await this.cairn.resign(entry.game, player.token, game.seq);
    await this.chat.say(channel, `${user} resigns.`);
  }

  // ------------------------------------------------------------ announcements

  // One line per notification: who is to act, by their chat names.
  async announce(channel, note) {
    const entry = this.state.channels[channel];
    if (!entry || entry.game !== note.game) return; // the channel moved on to another game
    const names = await this.titles();
    const head = `${names[note.title] || note.title} game ${note.game}`;
    // Seats held by people outside this channel, or by Cairn's bots, are
    // named as Cairn names them (a spectator's read: public).
    const seats = (await this.cairn.getGame(note.game)).seats;
    const named = (list) => list.map((s) => this.seatName(entry, seats, s, true)).join(', ');
    if (note.event === 'start')
      await this.chat.say(channel, `${head} has started: ${seats.map((s) => `${this.seatName(entry, seats, s.seat)} (seat ${s.seat})`).join(', ')}.`);
    else if (note.event === 'turn') await this.chat.say(channel, `${head}: ${named(note.to_act)} to act (seq ${note.seq}).`);
    else if (note.event === 'end') await this.chat.say(channel, `${head} is over (seq ${note.seq}): ${this.resultLine(entry, seats, note.result)}.`);
  }

  resultLine(entry, seats, result) {
    const winners = result?.winners || [];
    const reason = result?.reason ? ` (${result.reason})` : '';
    if (!winners.length) return `nobody wins${reason}`;
    return `${winners.map((s) => this.seatName(entry, seats, s)).join(' and ')} ${winners.length > 1 ? 'win' : 'wins'}${reason}`;
  }

  // A seat by its chat user (pinged when `ping`), else by its Cairn name.
  seatName(entry, seats, seat, ping = false) {
    const user = entry.seats[seat];
    if (user) return ping ? this.chat.mention(user) : user;
    const holder = seats?.find((s) => s.seat === seat)?.player;
    return holder ? holder.name : `seat ${seat} (free)`;
  }

  // ------------------------------------------------------------ bookkeeping

  async self() {
    if (!this.state.self) {
      const p = await this.cairn.createPlayer(this.name);
      this.state.self = { id: p.id, token: p.token };
      this.save();
    }
    return this.state.self;
  }

  // The user's Cairn player, made on first use. Cairn names it after the
  // chat user (at most 64 bytes), so other clients show the same name.
  async playerOf(user) {
    if (!this.state.players[user]) {
      const p = await this.cairn.createPlayer(Buffer.from(user).subarray(0, 64).toString('utf8').replace(/\uFFFD$/, '') || 'player');
      this.state.players[user] = { id: p.id, token: p.token };
      this.save();
    }
    return this.state.players[user];
  }

  async titles() {
    if (!this.titleNames) {
      const titles = await this.cairn.request('GET', '/v1/titles'); // a JSON array
      this.titleNames = Object.fromEntries(titles.map((t) => [t.id, t.name]));
    }
    return this.titleNames;
  }

  gameOf(channel) {
    const entry = this.state.channels[channel];
    if (!entry) throw new UsageError('No game in this channel yet: !new <title> [seats].');
    return entry;
  }

  seatedIn(channel, user) {
    const entry = this.gameOf(channel);
    const player = this.state.players[user];
    if (!player || !Object.values(entry.seats).includes(user)) throw new UsageError('You hold no seat in this game: !join first.');
    return { entry, player };
  }

  channelOfGame(gameId) {
    return Object.keys(this.state.channels).find((c) => this.state.channels[c].game === gameId && this.state.channels[c].secret);
  }

  async unfollow(entry) {
    if (!entry.webhook) return;
    try {
      await this.cairn.deleteWebhook(this.state.self.token, entry.webhook);
    } catch (e) {
      if (!(e instanceof CairnError)) throw e; // already gone: nothing to do
    }
  }

  // The state file holds bearer tokens and webhook secrets: written whole
  // (a temporary file renamed over it) and readable by its owner only.
  save() {
    if (!this.statePath) return;
    const tmp = `${this.statePath}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state), { mode: 0o600 });
    renameSync(tmp, this.statePath);
  }

  load() {
    try {
      const saved = JSON.parse(readFileSync(this.statePath, 'utf8'));
      this.state = { self: saved.self, players: dict(saved.players), channels: dict(saved.channels) };
      for (const entry of Object.values(this.state.channels)) entry.seats = dict(entry.seats);
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
    }
  }
}

// A command used wrongly; shown to its user like a refusal from Cairn.
class UsageError extends Error {
  get detail() {
    return this.message;
  }
}

function answer(res, status, body) {
  if (body === undefined) return res.writeHead(status).end();
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        const e = new Error('body too large');
        e.status = 413;
        reject(e);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// Chat user and channel names are the platform's text, used as keys: in an
// object without a prototype, "__proto__" is just another name.
function dict(from = {}) {
  return Object.assign(Object.create(null), from);
}

function remember(set, key) {
  set.add(key);
  if (set.size > DELIVERIES_REMEMBERED) set.delete(set.values().next().value);
}
