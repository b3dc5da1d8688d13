// main.mjs - runs the chat bot (bot.mjs) from the environment:
//   CAIRN_URL            Cairn's root URL                  (http://127.0.0.1:8080)
//   CHAT_POST_URL        where replies are POSTed (chat.mjs) (required)
//   CHAT_INBOUND_SECRET  token incoming chat POSTs carry in X-Chat-Token (none)
//   CHATBOT_HOST, CHATBOT_PORT  where the bot listens      (127.0.0.1, 8090)
//   CHATBOT_PUBLIC_URL   where Cairn reaches the bot       (http://HOST:PORT)
//   CHATBOT_STATE        file keeping players, tokens and secrets (memory only)
import { ChatAdapter } from './chat.mjs';
import { ChatBot } from './bot.mjs';

const env = process.env;
if (!env.CHAT_POST_URL) {
  console.error('main.mjs: set CHAT_POST_URL (where the bot posts its replies)');
  process.exit(2);
}
const chat = new ChatAdapter({ postUrl: env.CHAT_POST_URL, inboundSecret: env.CHAT_INBOUND_SECRET || '' });
const bot = new ChatBot({
  cairnUrl: env.CAIRN_URL || 'http://127.0.0.1:8080',
  chat,
  publicUrl: env.CHATBOT_PUBLIC_URL || '',
  statePath: env.CHATBOT_STATE || '',
});
const url = await bot.listen(Number(env.CHATBOT_PORT || 8090), env.CHATBOT_HOST || '127.0.0.1');
console.log(`chatbot: listening on ${url} (chat messages: POST ${url}/chat)`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => bot.close().then(() => process.exit(0)));
