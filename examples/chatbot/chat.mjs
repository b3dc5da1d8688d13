// chat.mjs - the chat platform adapter: the one file to replace for a real
// platform (Slack, Discord, Matrix, Mattermost, ...). Everything else in the
// bot speaks to a chat only through the four members of ChatAdapter.
//
// The generic platform this file speaks to works like the outgoing and
// incoming webhooks most chats offer:
//   - The platform POSTs each message typed in a channel to the bot
//     (application/json, `{"channel": "...", "user": "...", "text": "..."}`),
//     like Slack's or Mattermost's outgoing webhooks. When the bot is started
//     with an inbound secret, the POST must carry it in `X-Chat-Token`
//     (platforms sign or tokenise their outgoing webhooks; check theirs here).
//   - The bot POSTs each reply to one configured URL, like an incoming webhook:
//     `{"channel": "...", "text": "..."}` for everyone in the channel, and
//     `{"channel": "...", "user": "...", "text": "..."}` for one member only
//     (Slack's ephemeral messages, a Discord DM): the bot sends a player's
//     legal moves and its own moves that way, because they can hold what the
//     rest of the channel may not see yet (a hand, a secret plan).
import { timingSafeEqual } from 'node:crypto';

export class ChatAdapter {
  // postUrl: where replies are POSTed. inboundSecret: the token incoming
  // messages must carry in X-Chat-Token, or empty for none.
  constructor({ postUrl, inboundSecret = '' }) {
    this.postUrl = postUrl;
    this.inboundSecret = inboundSecret;
  }

  // The message an incoming POST carries, as {channel, user, text}, or an
  // Error whose `status` is the HTTP status to answer with.
  readMessage(headers, rawBody) {
    if (this.inboundSecret && !sameText(headers['x-chat-token'] || '', this.inboundSecret))
      return httpError(401, 'bad chat token');
    let msg;
    try {
      msg = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return httpError(400, 'not JSON');
    }
    for (const key of ['channel', 'user', 'text'])
      if (typeof msg?.[key] !== 'string' || (key !== 'text' && !msg[key])) return httpError(400, `${key}: expected a string`);
    return { channel: msg.channel, user: msg.user, text: msg.text };
  }

  // How a line names (and pings) a member of the channel.
  mention(user) {
    return `@${user}`;
  }

  // A line for everyone in the channel.
  say(channel, text) {
    return this.post({ channel, text });
  }

  // A line only `user` sees.
  whisper(channel, user, text) {
    return this.post({ channel, user, text });
  }

  async post(message) {
    const answer = await fetch(this.postUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(message),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`chat platform answered ${answer.status}`);
  }
}

function sameText(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function httpError(status, message) {
  const e = new Error(message);
  e.status = status;
  return e;
}
