// The attacks on sokod's bounds, each run for a while beside a normal
// player (an account stepping every 50 ms from its own address): what one
// client makes the server store and hold, and what the normal player's
// steps wait meanwhile. Run against Release builds, side by side:
//
//   node bench/bench_attacks.mjs [--seconds 15] [--pad 4000000]
//        [--only amplify,export,...] [--trace] NAME=path/to/sokod ...
//
// One row per attack and binary: the attacker's answers, the server's CPU
// time, the database's growth (main file and WAL), its peak memory,
// and the normal player's step latency (--trace prints each normal step
// over 200 ms as it happens). SQLite only; nothing is asserted
// (the tests in tests/server hold the bounds). The attacks, in order, on
// one server per binary:
//   quiet     none: the normal player alone, for 5 s
//   amplify   an account pads a game to --pad steps, solves it, then sends
//             bodies that leave and re-enter the solved position 8 times
//   unread    10 connections ask the account's /progress/export and never read
//   export    2 clients read the account's /progress/export in a loop
//   solution  4 anonymous clients read the account's longest solution
//   positions guests from one address save 50 positions of 50,000 steps
//             per game, a new guest whenever one is refused
//   progress  4 clients read /progress of a guest with a game on every level
//   sweep     the server restarts with guests expiring at once: the sweep
//             of every guest above, until no saved position is left
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = process.env.SOKOD_SHARED_DIR ?? path.join(here, '..', '..', 'shared');

const opts = { seconds: 15, pad: 4000000, only: null, trace: false };
const binaries = [];
if (isMainThread) {
  for (let i = 2; i < process.argv.length; i++) {
    const a = process.argv[i];
    if (a === '--seconds') opts.seconds = Number(process.argv[++i]);
    else if (a === '--pad') opts.pad = Number(process.argv[++i]);
    else if (a === '--only') opts.only = new Set(process.argv[++i].split(','));
    else if (a === '--trace') opts.trace = true;
    else if (a.includes('=')) binaries.push({ name: a.slice(0, a.indexOf('=')), bin: path.resolve(a.slice(a.indexOf('=') + 1)) });
    else binaries.push({ name: path.basename(path.dirname(path.resolve(a))), bin: path.resolve(a) });
  }
  if (binaries.length === 0) {
    console.error('usage: node bench/bench_attacks.mjs [--seconds S] [--pad STEPS] [--only a,b] [--trace] NAME=BIN ...');
    process.exit(2);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const wanted = (name) => !opts.only || opts.only.has(name);

// ---- Levels of the bench's own, written to a temporary levels folder.

const AMPLIFIER = ['#######', '#     #', '#  .  #', '#  $  #', '#  @  #', '#     #', '#######'];
const PACE = ['#######', '#     #', '# @ $.#', '#     #', '#######'];

// Open rooms of many sizes: the player in the top left corner ("rl" walks
// to and fro), the box on the bottom row beside a goal in its corner.
function room(w, h) {
  const rows = ['#'.repeat(w + 2)];
  for (let y = 1; y <= h; y++) {
    let row = '#';
    for (let x = 1; x <= w; x++) {
      if (x === 1 && y === 1) row += '@';
      else if (y === h && x === w - 1) row += '$';
      else if (y === h && x === w) row += '.';
      else row += ' ';
    }
    rows.push(`${row}#`);
  }
  rows.push('#'.repeat(w + 2));
  return rows;
}

function levelsFolder(dir) {
  const folder = path.join(dir, 'levels');
  fs.mkdirSync(folder, { recursive: true });
  let text = 'Collection: attack bench\n\n';
  text += `; Amplifier\n${AMPLIFIER.join('\n')}\n\n; Pace\n${PACE.join('\n')}\n\n`;
  for (let w = 6; w < 26; w++) for (let h = 3; h < 13; h++) text += `; Room ${w}x${h}\n${room(w, h).join('\n')}\n\n`;
  fs.writeFileSync(path.join(folder, 'attack.sok'), text);
  // Real collections, read where they are, for a guest with many games.
  const real = [['Microban_155.xsb', 'microban.xsb'], ['XSokoban_90.xsb', 'xsokoban.xsb'],
    ['Sasquatch_50.xsb', 'sasquatch.xsb'], ['boxoban-medium-000.txt', 'boxoban.sok']];
  for (const [from, to] of real) {
    const p = path.join(shared, 'levels', from);
    if (fs.existsSync(p)) fs.symlinkSync(p, path.join(folder, to));
  }
  return folder;
}

// ---- A client from a given loopback address, with cookies.

class Peer {
  constructor(base, address) {
    this.base = new URL(base);
    this.address = address;
    this.cookies = new Map();
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  // Resolves to {status, bytes, json, headers}; the body is parsed when it
  // is JSON and under 1 MB, and only counted otherwise.
  req(method, p, body) {
    return new Promise((resolve) => {
      const headers = { Cookie: this.cookieHeader() };
      let payload;
      if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = Buffer.byteLength(payload);
      }
      const r = http.request({
        host: this.base.hostname, port: this.base.port, method, path: p, headers,
        localAddress: this.address, agent: this.agent,
      }, (res) => {
        for (const sc of res.headers['set-cookie'] ?? []) {
          const [pair] = sc.split(';');
          const eq = pair.indexOf('=');
          this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        const chunks = [];
        let bytes = 0;
        res.on('data', (d) => { bytes += d.length; if (bytes < 1 << 20) chunks.push(d); });
        res.on('end', () => {
          let json;
          if (bytes < 1 << 20 && /json/.test(res.headers['content-type'] ?? '')) {
            try { json = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { json = undefined; }
          }
          resolve({ status: res.statusCode, bytes, json, headers: res.headers });
        });
        res.on('error', () => resolve({ status: 'error', bytes }));
      });
      r.on('error', () => resolve({ status: 'error', bytes: 0 }));
      if (payload !== undefined) r.write(payload);
      r.end();
    });
  }

  get(p) { return this.req('GET', p); }
  post(p, body) { return this.req('POST', p, body ?? {}); }
  close() { this.agent.destroy(); }
}

// ---- The server and what it holds.

function startSokod(bin, dir, args) {
  return new Promise((resolve, reject) => {
    const db = path.join(dir, 'data', 'sokod.db');
    const proc = spawn(bin, ['serve', '--port', '0', '--db', db, '--levels', path.join(dir, 'levels'),
      '--solver-seconds', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    let out = '';
    let err = '';
    proc.stderr.on('data', (d) => { err += d; });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ proc, url: m[1], db, stderr: () => err });
    });
    proc.on('exit', (code) => reject(new Error(`${bin} exited (${code}) before listening:\n${err}`)));
  });
}

async function stopSokod(s) {
  s.proc.kill('SIGTERM');
  await new Promise((r) => (s.proc.exitCode !== null ? r() : s.proc.on('exit', r)));
}

function flagsOf(bin) {
  return spawnSync(bin, ['serve', '--help'], { encoding: 'utf8' }).stdout ?? '';
}

function diskBytes(db) {
  let n = 0;
  for (const f of [db, `${db}-wal`]) {
    try { n += fs.statSync(f).size; } catch { /* absent */ }
  }
  return n;
}

function memory(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
}

// CPU seconds the process has used, user and system.
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function resetPeak(pid) {
  try { fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); } catch { /* not allowed: the peak is the process's */ }
}

function sql(db, query) {
  const r = spawnSync('sqlite3', ['-cmd', '.timeout 10000', db, query], { encoding: 'utf8' });
  return r.stdout.trim();
}

// ---- The normal player: an account stepping to and fro every 50 ms, on
// a thread of its own, so that the attackers' work in this process never
// delays its requests or its clock.

// The player's loop, in its worker: signs up (or, after a restart, logs
// in), plays on the level, and answers "window", "take" and "stop".
async function playNormally({ url, levelId, again, trace }) {
  const peer = new Peer(url, '127.0.0.1');
  const account = { username: 'normal', password: 'a normal player\'s password' };
  const r = await peer.post(`/api/v1/account/${again ? 'login' : 'signup'}`, account);
  if (r.status !== (again ? 200 : 201)) throw new Error(`the normal player's ${again ? 'log-in' : 'sign-up'}: ${r.status}`);
  const g = await peer.post(`/api/v1/levels/${levelId}/game`);
  let { seq, player } = g.json.game;
  let running = true;
  let samples = [];
  let errors = {};
  parentPort.on('message', (m) => {
    if (m === 'window') { samples = []; errors = {}; }
    if (m === 'take') { parentPort.postMessage({ samples, errors }); samples = []; errors = {}; }
    if (m === 'stop') running = false;
  });
  parentPort.postMessage('ready');
  while (running) {
    const t = performance.now();
    // To and fro between the start square and the one above it.
    const step = player.y === 2 ? 'u' : 'd';
    const s = await peer.post(`/api/v1/games/${g.json.game.id}/log`, { seq: seq + 1, steps: step });
    const ms = performance.now() - t;
    samples.push(ms);
    if (trace && ms > 200) console.log(`    a normal step took ${ms.toFixed(0)} ms, at ${new Date().toISOString()}`);
    if (s.status === 200) ({ seq, player } = s.json.game);
    else {
      errors[s.status] = (errors[s.status] ?? 0) + 1;
      const now = await peer.get(`/api/v1/games/${g.json.game.id}`);
      if (now.status === 200) ({ seq, player } = now.json.game);
    }
    await sleep(Math.max(0, 50 - ms));
  }
  peer.close();
  parentPort.postMessage('stopped');
}

async function normalPlayer(url, levelId, again = false) {
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { url, levelId, again, trace: opts.trace } });
  const next = () => new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (await next() !== 'ready') throw new Error('the normal player did not start');
  return {
    window() { worker.postMessage('window'); },
    async take() { const answer = next(); worker.postMessage('take'); return answer; },
    async stop() {
      const done = next();
      worker.postMessage('stop');
      await done;
      await worker.terminate();
    },
  };
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

// Runs `attack(deadline)` for opts.seconds (or until it returns) beside the
// normal player; returns the row's figures and the attack's own.
async function during(s, player, attack, seconds = opts.seconds) {
  const before = diskBytes(s.db);
  resetPeak(s.proc.pid);
  const rss = memory(s.proc.pid).rss;
  const cpu = cpuSeconds(s.proc.pid);
  player.window();
  const t0 = performance.now();
  const own = await attack(t0 + seconds * 1000);
  const took = (performance.now() - t0) / 1000;
  const { samples, errors } = await player.take();
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    took, disk: diskBytes(s.db) - before, rss, peak: memory(s.proc.pid).peak, cpu: cpuSeconds(s.proc.pid) - cpu,
    p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN, steps: samples.length,
    normalErrors: errors, ...own,
  };
}

const MB = (b) => (b / 1048576).toFixed(1);
const ms = (x) => (Number.isNaN(x) ? '-' : x.toFixed(0));
const counts = (list) => {
  const c = {};
  for (const x of list) c[x] = (c[x] ?? 0) + 1;
  return Object.entries(c).map(([k, v]) => `${k}:${v}`).join(' ');
};

function row(attack, name, r) {
  const errs = Object.keys(r.normalErrors).length ? ` normal errors ${JSON.stringify(r.normalErrors)}` : '';
  console.log(`${attack.padEnd(9)} ${name.padEnd(8)} ${r.took.toFixed(1).padStart(5)} s  ` +
    `cpu ${r.cpu.toFixed(1).padStart(5)} s  disk ${MB(r.disk).padStart(7)} MB  ` +
    `rss ${MB(r.rss).padStart(6)} -> peak ${MB(r.peak).padStart(6)} MB  ` +
    `normal p50/p99/max ${ms(r.p50)}/${ms(r.p99)}/${ms(r.max)} ms (${r.steps})  ${r.note}${errs}`);
}

// ---- The attacks.

async function levelIdsOf(peer, collection) {
  const list = await peer.get('/api/v1/collections');
  const ids = [];
  for (const c of list.json.collections.filter((x) => collection === null || x.name === collection)) {
    const one = await peer.get(`/api/v1/collections/${c.id}`);
    ids.push(...one.json.levels.map((l) => ({ id: l.id, title: l.title })));
  }
  return ids;
}

async function amplify(s, player, ctx) {
  const attacker = new Peer(s.url, '127.0.0.2');
  ctx.attacker = attacker;
  let r = await attacker.post('/api/v1/account/signup', { username: 'amplifier', password: 'an attacker\'s password' });
  if (r.status !== 201) throw new Error(`the attacker's sign-up: ${r.status}`);
  r = await attacker.post(`/api/v1/levels/${ctx.amplifier}/game`);
  const id = r.json.game.id;
  let seq = r.json.game.seq;
  let moves = 0;
  const t0 = performance.now();
  const pad = 'rl'.repeat(32000);
  const padded = [];
  while (moves + pad.length <= opts.pad) {
    r = await attacker.post(`/api/v1/games/${id}/log`, { seq: seq + 1, steps: pad });
    padded.push(r.status);
    if (r.status !== 200) break;
    seq = r.json.game.seq;
    moves = r.json.game.moves;
  }
  r = await attacker.post(`/api/v1/games/${id}/log`, { seq: seq + 1, steps: 'U' });
  if (r.status === 200) seq = r.json.game.seq;
  console.log(`  (${s.name}: padded to ${moves} moves in ${((performance.now() - t0) / 1000).toFixed(1)} s, ` +
    `${counts(padded)}; solved: ${r.json?.game?.solved})`);
  const statuses = [];
  const out = await during(s, player, async (deadline) => {
    while (performance.now() < deadline) {
      const a = await attacker.post(`/api/v1/games/${id}/log`, { seq: seq + 1, steps: 'luurDlddrU'.repeat(8) });
      statuses.push(a.status);
      if (a.status === 200) seq = a.json.game.seq;
      else if (a.status === 429) await sleep(Number(a.headers['retry-after'] ?? 1) * 1000);
      else if (a.json?.game) seq = a.json.game.seq;
    }
    const [n, bytes] = sql(s.db, 'SELECT count(*), coalesce(sum(length(lurd)), 0) FROM solutions').split('|');
    return { note: `answers ${counts(statuses)}; solutions stored ${n} (${MB(Number(bytes))} MB of lines)` };
  });
  row('amplify', s.name, out);
}

async function unread(s, player, ctx) {
  const out = await during(s, player, async () => {
    const sockets = [];
    for (let i = 0; i < 10; i++) {
      const sock = net.connect({ host: '127.0.0.1', port: new URL(s.url).port, localAddress: '127.0.0.3' });
      sock.on('error', () => {});
      sock.write(`GET /api/v1/progress/export HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${ctx.attacker.cookieHeader()}\r\n\r\n`);
      sock.pause();
      sockets.push(sock);
    }
    await sleep(Math.min(opts.seconds, 10) * 1000);
    const held = memory(s.proc.pid).rss;
    for (const sock of sockets) sock.destroy();
    return { note: `10 unread exports; rss with them open ${MB(held)} MB` };
  });
  row('unread', s.name, out);
}

async function exportLoop(s, player, ctx) {
  const peer = new Peer(s.url, '127.0.0.3');
  peer.cookies = new Map(ctx.attacker.cookies);
  const statuses = [];
  let bytes = 0;
  const out = await during(s, player, async (deadline) => {
    await Promise.all([0, 1].map(async () => {
      while (performance.now() < deadline) {
        const r = await peer.get('/api/v1/progress/export');
        statuses.push(r.status);
        if (r.status === 200) bytes = r.bytes;
        if (r.status === 429) await sleep(Number(r.headers['retry-after'] ?? 1) * 1000);
      }
    }));
    return { note: `answers ${counts(statuses)}; an export is ${MB(bytes)} MB` };
  });
  peer.close();
  row('export', s.name, out);
}

async function solutionReads(s, player) {
  const id = sql(s.db, 'SELECT id FROM solutions ORDER BY length(lurd) DESC LIMIT 1');
  const peer = new Peer(s.url, '127.0.0.4');
  const statuses = [];
  let bytes = 0;
  const out = await during(s, player, async (deadline) => {
    await Promise.all([0, 1, 2, 3].map(async () => {
      while (performance.now() < deadline) {
        const r = await peer.get(`/api/v1/solutions/${id}`);
        statuses.push(r.status);
        if (r.status === 200) bytes = r.bytes;
        if (r.status === 429) await sleep(Number(r.headers['retry-after'] ?? 1) * 1000);
      }
    }));
    return { note: `answers ${counts(statuses)}; a solution is ${MB(bytes)} MB` };
  });
  peer.close();
  row('solution', s.name, out);
}

async function positions(s, player, ctx) {
  const lurd = 'rl'.repeat(25000);
  const rooms = ctx.attackLevels.filter((l) => /^Room /.test(l.title));
  const statuses = [];
  let guests = 0;
  let saved = 0;
  const out = await during(s, player, async (deadline) => {
    let peer = null;
    let next = 0;
    while (performance.now() < deadline) {
      if (!peer) { peer = new Peer(s.url, '127.0.0.5'); next = 0; }
      const level = rooms[next++ % rooms.length];
      const g = await peer.post(`/api/v1/levels/${level.id}/game`);
      statuses.push(g.status);
      if (g.status === 429) { await sleep(Number(g.headers['retry-after'] ?? 1) * 1000); peer = null; continue; }
      if (g.status === 201 && g.json.created !== false && peer.cookies.size && next === 1) guests++;
      if (g.status !== 200 && g.status !== 201) { peer = null; continue; }
      let refused = false;
      for (let k = 0; k < 50 && performance.now() < deadline; k++) {
        const r = await peer.post(`/api/v1/games/${g.json.game.id}/snapshots`, { name: `p${k}`, lurd });
        statuses.push(r.status);
        if (r.status === 201) saved++;
        else if (r.status === 429) await sleep(Number(r.headers['retry-after'] ?? 1) * 1000);
        else if (r.status === 403 || r.status === 507) { refused = true; break; }
        else if (r.status === 422) break;
      }
      if (refused || next >= rooms.length) { peer.close(); peer = null; }
    }
    return { note: `answers ${counts(statuses)}; ${guests} guests saved ${saved} positions` };
  });
  row('positions', s.name, out);
}

async function progress(s, player, ctx) {
  const peer = new Peer(s.url, '127.0.0.6');
  const t0 = performance.now();
  let games = 0;
  const levels = ctx.allLevels;
  // A game with one entry on every level, four at a time.
  let k = 0;
  await Promise.all([0, 1, 2, 3].map(async (w) => {
    if (w > 0) await sleep(500); // the first request makes the guest
    while (k < levels.length) {
      const level = levels[k++];
      const g = await peer.post(`/api/v1/levels/${level.id}/game`);
      if (g.status !== 200 && g.status !== 201) continue;
      for (const step of ['u', 'd', 'l', 'r']) {
        const r = await peer.post(`/api/v1/games/${g.json.game.id}/log`, { seq: g.json.game.seq + 1, steps: step });
        if (r.status === 200) { games++; break; }
      }
    }
  }));
  console.log(`  (${s.name}: a guest with ${games} games played, made in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const statuses = [];
  let bytes = 0;
  const out = await during(s, player, async (deadline) => {
    await Promise.all([0, 1, 2, 3].map(async () => {
      while (performance.now() < deadline) {
        const r = await peer.get('/api/v1/progress');
        statuses.push(r.status);
        if (r.status === 200) bytes = r.bytes;
        if (r.status === 429) await sleep(Number(r.headers['retry-after'] ?? 1) * 1000);
      }
    }));
    return { note: `answers ${counts(statuses)}; /progress is ${(bytes / 1024).toFixed(0)} KB` };
  });
  peer.close();
  row('progress', s.name, out);
}

// ---- One binary, every attack.

async function run({ name, bin }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sokod-attacks-'));
  levelsFolder(dir);
  const flags = flagsOf(bin);
  const quiet = ['--auth-per-minute', '1000'];
  let s = Object.assign(await startSokod(bin, dir, quiet), { name });
  const anyone = new Peer(s.url, '127.0.0.9');
  const attackLevels = await levelIdsOf(anyone, 'attack bench');
  const ctx = {
    attackLevels,
    amplifier: attackLevels.find((l) => l.title === 'Amplifier').id,
    allLevels: await levelIdsOf(anyone, null),
  };
  anyone.close();
  let player = await normalPlayer(s.url, attackLevels.find((l) => l.title === 'Pace').id);
  try {
    row('quiet', s.name, await during(s, player, async (deadline) => {
      while (performance.now() < deadline) await sleep(100);
      return { note: 'the normal player alone' };
    }, Math.min(opts.seconds, 5)));
    if (wanted('amplify') || wanted('unread') || wanted('export') || wanted('solution')) await amplify(s, player, ctx);
    if (wanted('unread')) await unread(s, player, ctx);
    if (wanted('export')) await exportLoop(s, player, ctx);
    if (wanted('solution')) await solutionReads(s, player);
    if (wanted('positions') || wanted('sweep')) await positions(s, player, ctx);
    if (wanted('progress')) await progress(s, player, ctx);
    if (wanted('sweep')) {
      await player.stop();
      await stopSokod(s);
      const left = () => Number(sql(s.db, 'SELECT count(*) FROM snapshots'));
      const before = left();
      const sweepFlags = ['--guest-unplayed-ttl', '1', '--guest-idle-ttl', '1', '--sweep-interval', '1'];
      s = Object.assign(await startSokod(bin, dir, [...quiet, ...sweepFlags]), { name });
      player = await normalPlayer(s.url, attackLevels.find((l) => l.title === 'Pace').id, true);
      const out = await during(s, player, async (deadline) => {
        const end = deadline + 45000;
        while (left() > 0 && performance.now() < end) await sleep(200);
        return { note: `saved positions ${before} -> ${left()}` };
      }, opts.seconds);
      row('sweep', s.name, out);
    }
    const total = diskBytes(s.db);
    console.log(`  (${s.name}: database and WAL at the end ${MB(total)} MB; flags known: ` +
      `${['--user-storage-mb', '--cost-per-second'].filter((f) => flags.includes(f)).join(' ') || 'none of the new'})`);
  } finally {
    await player.stop();
    await stopSokod(s);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (isMainThread) {
  console.log(`attack    binary   time     sokod's CPU  disk growth     memory                   ` +
    `normal player's steps; ${opts.seconds} s each, pad ${opts.pad} steps`);
  for (const b of binaries) await run(b);
} else {
  await playNormally(workerData);
}
