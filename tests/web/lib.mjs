// lib.mjs - helpers for the web tests: start the real server, launch Debian's
// Chromium through playwright-core, call the API directly.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

// Start `server` (a cairn binary) on an ephemeral port with a temporary
// database, serving ROOT/web. Resolves to {url, stop}.
export function startServer(server = process.env.CAIRN_SERVER || 'build/test/cairn') {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-web-'));
  const bin = path.resolve(ROOT, server);
  const web = path.join(ROOT, 'web');
  const env = { ...process.env, CAIRN_WEB: web, ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0' };
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--port', '0', '--db', path.join(dir, 'cairn.db')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`server did not start: ${err}`)); }, 15000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stderr: () => err,
          stop: () => new Promise((res) => {
            if (child.exitCode != null) { rmSync(dir, { recursive: true, force: true }); res(); return; }
            child.once('exit', () => { rmSync(dir, { recursive: true, force: true }); res(); });
            child.kill('SIGTERM');
          }),
        });
      }
    });
    child.once('error', (e) => { clearTimeout(timer); rmSync(dir, { recursive: true, force: true }); reject(e); });
    child.once('exit', (code) => { clearTimeout(timer); rmSync(dir, { recursive: true, force: true }); reject(new Error(`server exited (${code}): ${err}`)); });
  });
}

// playwright-core gives every launch a fresh, temporary --user-data-dir of its
// own (it refuses one passed in args), so no profile is shared between runs.
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage'],
  });
  return { browser, close: () => browser.close() };
}

// A 429 (the server's rate limit, which the tests' random games can reach)
// is waited out as its Retry-After says, a few times, then returned.
export async function call(url, method, p, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (r.status === 429 && attempt < 8) {
      await new Promise((res) => setTimeout(res, 1000 * Math.min(2, Number(r.headers.get('retry-after')) || 1)));
      continue;
    }
    return { status: r.status, body: text ? JSON.parse(text) : null };
  }
}
