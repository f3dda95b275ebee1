// One address floods sokod with live streams while another makes ordinary
// requests: prints what the streams were answered and the latency of the
// ordinary requests before the flood, while it opens its streams, and for
// 20 seconds while it holds them.
//   node bench/streams_flood.mjs SOKOD_BINARY [STREAMS] [-- more sokod flags]
// The flood comes from 127.0.0.1 (or, with FLOOD_ADDRESSES=N, from N
// addresses 127.0.1.1 ...), the ordinary client from 127.0.0.2 (a
// new connection per request, as a new visitor's browser would). Loopback
// only; the database is a temporary file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const [bin, count = '4200', ...rest] = process.argv.slice(2);
const extra = rest[0] === '--' ? rest.slice(1) : rest;
const STREAMS = Number(count);
const PROBE_TIMEOUT_MS = 10000;
const ADDRESSES = Number(process.env.FLOOD_ADDRESSES ?? 1);
const floodFrom = (i) => (ADDRESSES > 1 ? `127.0.1.${1 + (i % ADDRESSES)}` : '127.0.0.1');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sokod-flood-'));
const proc = spawn(bin, ['serve', '--port', '0', '--db', path.join(dir, 'sokod.db'), '--solver-seconds', '0', ...extra],
  { stdio: ['ignore', 'pipe', 'pipe'] });
proc.stderr.resume();
const url = await new Promise((resolve, reject) => {
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  proc.on('exit', (code) => reject(new Error(`sokod exited (${code})`)));
});
const { hostname, port } = new URL(url);

function get(from, p, { keep = false, timeout = PROBE_TIMEOUT_MS } = {}) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: hostname, port, path: p, localAddress: from, agent: false, timeout }, (res) => {
      if (keep && res.statusCode === 200) {
        res.once('data', () => resolve({ status: 200, ms: performance.now() - t0, req }));
        res.on('error', () => {});
        return;
      }
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
    });
    req.on('timeout', () => { req.destroy(); resolve({ status: 'timeout', ms: performance.now() - t0 }); });
    req.on('error', (e) => resolve({ status: e.code ?? 'error', ms: performance.now() - t0 }));
  });
}

async function post(p, body) {
  const r = await fetch(url + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, cookie: r.headers.getSetCookie()[0]?.split(';')[0], json: await r.json() };
}

const signup = await post('/api/v1/account/signup', { username: 'watched', password: 'a watched password' });
const me = await fetch(`${url}/api/v1/account`, { headers: { Cookie: signup.cookie } }).then((r) => r.json());
const watched = me.user.id;

// The ordinary client: one request at a time, every 20 ms, by phase.
const samples = { before: [], opening: [], holding: [] };
let phase = 'before';
let probing = true;
const prober = (async () => {
  while (probing) {
    const r = await get('127.0.0.2', '/api/v1/collections');
    samples[phase].push(r);
    await new Promise((res) => setTimeout(res, 20));
  }
})();

await new Promise((r) => setTimeout(r, 2000));
phase = 'opening';
const opened = [];
const answers = new Map();
const t0 = performance.now();
for (let i = 0; i < STREAMS; i += 200) {
  const batch = [];
  for (let j = i; j < Math.min(STREAMS, i + 200); j++) batch.push(get(floodFrom(j), `/api/v1/events?watch=${watched}`, { keep: true, timeout: 15000 }));
  for (const r of await Promise.all(batch)) {
    answers.set(r.status, (answers.get(r.status) ?? 0) + 1);
    if (r.req) opened.push(r.req);
  }
}
const floodMs = performance.now() - t0;
phase = 'holding';
await new Promise((r) => setTimeout(r, 20000));
probing = false;
await prober;
for (const req of opened) req.destroy();
proc.kill('SIGTERM');
await new Promise((r) => proc.on('exit', r));
fs.rmSync(dir, { recursive: true, force: true });

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
console.log(`sokod ${bin} ${extra.join(' ')}`);
console.log(`streams asked from ${ADDRESSES > 1 ? `${ADDRESSES} addresses` : '127.0.0.1'}: ${STREAMS} in ${(floodMs / 1000).toFixed(1)} s; answers: ${[...answers].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
for (const [name, list] of Object.entries(samples)) {
  const ok = list.filter((r) => r.status === 200).map((r) => r.ms).sort((a, b) => a - b);
  const failed = list.filter((r) => r.status !== 200);
  const kinds = [...new Set(failed.map((r) => r.status))].join(', ');
  console.log(`ordinary requests ${name.padEnd(7)}: ${list.length} sent, ${ok.length} answered 200` +
    (ok.length ? `, median ${pct(ok, 0.5).toFixed(1)} ms, p99 ${pct(ok, 0.99).toFixed(1)} ms, max ${ok.at(-1).toFixed(1)} ms` : '') +
    (failed.length ? `; ${failed.length} failed (${kinds}) after up to ${Math.max(...failed.map((r) => r.ms)).toFixed(0)} ms` : ''));
}
