// Faults: kill -9 at random moments under mixed load (steps, sign-ups,
// uploads with imports), twenty times; a full disk (a small tmpfs); and a
// database locked by another process. Every acknowledged write survives,
// the integrity check passes, errors are clear (507 storage_full, 503
// unavailable with Retry-After) and writes work again once the fault goes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client, levelIds, runSokod, show, sqlite, startServer, tempDir } from './harness.mjs';
import { ADMIN, ADMIN_PASSWORD } from './admin.mjs';

const ROUNDS = 20;

// A level file of one room whose size is the upload's number, so that each
// upload brings a level no earlier one had.
function levelFile(n) {
  const w = 6 + (n % 10);
  const h = 4 + Math.floor(n / 10);
  const rows = ['#'.repeat(w)];
  for (let y = 1; y < h - 1; y++) rows.push(`#${' '.repeat(w - 2)}#`);
  rows.push('#'.repeat(w));
  rows[1] = `#@$.${' '.repeat(w - 5)}#`;
  return `Collection: fault ${n}\n\n; Room ${n}\n${rows.join('\n')}\n`;
}

// One round of load against a server until it dies; records what was acknowledged.
function load(url, acked, round, levelId) {
  const until = { dead: false };
  // A network error is the kill; any other failure is a bug the test reports.
  const guard = (p) => p.catch((e) => {
    if (!until.dead && !/fetch failed|ECONNRESET|socket/i.test(`${e.message} ${e.cause?.message ?? ''}`)) acked.errors.push(e.message);
  });
  const stepper = async (client, game) => {
    for (let seq = game.seq + 1; !until.dead; seq++) {
      const steps = seq % 2 ? 'u' : 'd';
      const r = await client.post(`/api/v1/games/${game.id}/log`, { seq, steps });
      if (r.status !== 200) throw new Error(`entry ${seq} of game ${game.id}: ${show(r)}`);
      acked.steps.set(`${game.id}:${seq}`, steps);
      game.seq = seq;
    }
  };
  const signer = async (k) => {
    for (let i = 0; !until.dead; i++) {
      const name = `r${round}s${k}u${i}`;
      const r = await new Client(url).post('/api/v1/account/signup', { username: name, password: 'a fault password' });
      if (r.status !== 201) throw new Error(`sign-up ${name}: ${show(r)}`);
      acked.users.add(name);
    }
  };
  const uploader = async (admin) => {
    while (!until.dead) {
      const n = acked.nextUpload++;
      const bytes = Buffer.from(levelFile(n));
      let r = await admin.post('/api/v1/admin/uploads', { filename: `fault${n}.sok`, size: bytes.length, data: bytes.toString('base64') });
      if (r.status !== 201) throw new Error(`upload ${n}: ${show(r)}`);
      const id = r.json.upload.id;
      for (let tries = 0; r.json.upload.state !== 'checked' && tries < 200; tries++) {
        r = await admin.get(`/api/v1/admin/uploads/${id}`);
      }
      r = await admin.post(`/api/v1/admin/uploads/${id}/import`, {});
      if (r.status !== 200 && r.status !== 201) throw new Error(`import of upload ${n}: ${show(r)}`);
      acked.collections.add(`fault ${n}`);
    }
  };
  return { until, guard, stepper, signer, uploader };
}

test(`every acknowledged write survives kill -9 at random moments, ${ROUNDS} times`, async () => {
  const dir = tempDir('sokod-faults-');
  const db = path.join(dir, 'data', 'sokod.db');
  const made = runSokod(['admin', 'create', ADMIN, '--db', db], { input: `${ADMIN_PASSWORD}\n` });
  assert.equal(made.status, 0, made.stderr);
  const acked = { steps: new Map(), users: new Set(), collections: new Set(), nextUpload: 0, errors: [] };
  const games = [];
  let cookies = null;
  let kills = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServer({ dir, db, args: ['--solver-seconds', '0', '--auth-per-minute', '60000'] });
    const admin = server.client();
    if (cookies) admin.cookies = new Map(cookies.admin);
    if (!cookies) {
      const r = await admin.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
      assert.equal(r.status, 200, show(r));
      const level = (await levelIds(admin))[1];
      for (let i = 0; i < 2; i++) {
        const c = server.client();
        const g = await c.post(`/api/v1/levels/${level}/game`);
        assert.equal(g.status, 201, show(g));
        games.push({ id: g.json.game.id, seq: 0, cookies: c.cookies });
      }
      cookies = { admin: admin.cookies };
    }
    const l = load(server.url, acked, round);
    const work = [
      ...games.map((g) => { const c = new Client(server.url); c.cookies = g.cookies; return l.guard(l.stepper(c, g)); }),
      l.guard(l.signer(0)),
      l.guard(l.signer(1)),
      l.guard(l.uploader(admin)),
    ];
    // Kill at a random moment after the round's first acknowledged write
    // of one kind (taking turns), so that every kind is caught in flight.
    const kind = ['steps', 'users', 'collections'][round % 3];
    const had = acked[kind].size;
    for (const t0 = Date.now(); acked[kind].size === had && Date.now() - t0 < 15000;) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 400)));
    const end = await server.kill9();
    assert.equal(end.signal, 'SIGKILL');
    kills++;
    l.until.dead = true;
    await Promise.all(work);
    // A stepper that saw its answer lost may have had the entry committed:
    // the next round starts from the game as the database holds it.
    for (const g of games) g.seq = Number(sqlite(db, `SELECT seq FROM games WHERE id = ${g.id}`));
    assert.equal(sqlite(db, 'PRAGMA integrity_check'), 'ok', `round ${round + 1}: integrity`);
  }
  // Everything acknowledged is there.
  const missing = [];
  for (const [key, steps] of acked.steps) {
    const [game, seq] = key.split(':');
    const held = sqlite(db, `SELECT steps FROM game_log WHERE game_id = ${game} AND seq = ${seq}`);
    if (held !== steps) missing.push(`step ${key} (${steps}): ${held || 'absent'}`);
  }
  const users = new Set(sqlite(db, 'SELECT username FROM users WHERE guest = 0').split('\n'));
  for (const u of acked.users) if (!users.has(u)) missing.push(`account ${u}`);
  const collections = new Set(sqlite(db, 'SELECT name FROM collections').split('\n'));
  for (const c of acked.collections) if (!collections.has(c)) missing.push(`collection ${c}`);
  assert.deepEqual(acked.errors, [], 'the load saw only answers it expected until each kill');
  console.log(`${kills} kills; acknowledged: ${acked.steps.size} steps, ${acked.users.size} sign-ups, ${acked.collections.size} imports`);
  assert.ok(acked.steps.size > ROUNDS && acked.users.size > 0 && acked.collections.size > 0, 'the load did each kind of write');
  assert.deepEqual(missing, [], 'acknowledged writes lost');
  // The server starts on what is left and serves; the uploads a kill
  // caught before or during their check are checked again by the start-up.
  const server = await startServer({ dir, db, args: ['--solver-seconds', '0'] });
  const r = await server.client().get('/api/v1/collections');
  assert.equal(r.status, 200, show(r));
  const unsettled = "SELECT count(*) FROM staged_uploads WHERE state IN ('complete', 'checking')";
  for (const t0 = Date.now(); sqlite(db, unsettled) !== '0' && Date.now() - t0 < 30000;) {
    await new Promise((w) => setTimeout(w, 100));
  }
  assert.equal(sqlite(db, unsettled), '0', `uploads left unchecked after the restart: ${sqlite(db, 'SELECT id, state FROM staged_uploads')}`);
  assert.equal((await server.stop()).code, 0);
});

// Mounts a tmpfs of `size` at a new folder; fails the test with the reason when it cannot.
function mountTmpfs(size) {
  const where = tempDir('sokod-full-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', where], { encoding: 'utf8' });
  assert.equal(r.status, 0,
    `this test needs a small tmpfs to fill (mount -t tmpfs -o size=${size} tmpfs ${where}), and mounting failed: ` +
    `${r.stderr || r.error?.message} (it must run as root, as CI does)`);
  return { where, unmount: () => spawnSync('umount', ['-l', where]) };
}

test('a full disk: 507 storage_full, no corruption, and writes again once space is freed', async () => {
  const fsys = mountTmpfs('3m');
  let server;
  try {
    const db = path.join(fsys.where, 'sokod.db');
    server = await startServer({ dir: tempDir(), db });
    const ids = await levelIds(server.client());
    const player = server.client();
    const g = (await player.post(`/api/v1/levels/${ids[1]}/game`)).json.game;
    // Fill the disk but for a little, then write big entries until one fails.
    const filler = path.join(fsys.where, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k', 'count=100'], { encoding: 'utf8' });
    let seq = 0;
    let refused = null;
    const batch = 'ud'.repeat(15000);
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await player.post(`/api/v1/games/${g.id}/log`, { seq: seq + 1, steps: batch });
      if (r.status === 200) seq++;
      else refused = r;
    }
    assert.ok(refused, 'a write failed before 200 entries of 30,000 steps');
    assert.equal(refused.status, 507, `a full disk: ${show(refused)}`);
    assert.equal(refused.json?.error?.code, 'storage_full', show(refused));
    console.log(`${seq} entries before the disk was full: ${refused.json.error.message}`);
    // Reads go on; the refused entry is not there.
    let r = await player.get(`/api/v1/games/${g.id}`);
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.game.seq, seq, 'the game holds exactly the acknowledged entries');
    // Space again: the same entry goes in.
    fs.rmSync(filler);
    r = await player.post(`/api/v1/games/${g.id}/log`, { seq: seq + 1, steps: 'ud' });
    assert.equal(r.status, 200, `after freeing space: ${show(r)}`);
    assert.equal((await server.stop()).code, 0);
    server = null;
    assert.equal(sqlite(db, 'PRAGMA integrity_check'), 'ok');
    assert.equal(sqlite(db, `SELECT max(seq) FROM game_log WHERE game_id = ${g.id}`), String(seq + 1));
  } finally {
    if (server) await server.kill9();
    fsys.unmount();
  }
});

test('a database locked by another process: 503 unavailable with Retry-After, each write within 5 s of its arrival, then recovery', async () => {
  const server = await startServer();
  let holder = null;
  try {
    const ids = await levelIds(server.client());
    const player = server.client();
    const g = (await player.post(`/api/v1/levels/${ids[1]}/game`)).json.game;
    assert.equal((await player.post(`/api/v1/games/${g.id}/log`, { seq: 1, steps: 'u' })).status, 200);
    // Two more games, whose writes come while the first one's waits.
    const others = [];
    for (const k of [0, 2]) {
      const c = server.client();
      const game = (await c.post(`/api/v1/levels/${ids[k]}/game`)).json.game;
      others.push({ c, game });
    }
    // Another process takes the write lock and keeps it.
    holder = spawn('sqlite3', [server.db], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    holder.stdout.on('data', (d) => { said += d; });
    holder.stdin.write("BEGIN EXCLUSIVE; INSERT INTO users (guest, created_at) VALUES (1, 0); SELECT 'locked';\n");
    while (!said.includes('locked')) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    // A write, then more sent 1 to 2 s later, while the first still
    // waits: each waits for the lock up to 5 s from its own arrival, not
    // behind the wait of the writes queued before it (which made the
    // second one wait 9 s).
    const timed = (what, delay, send) => new Promise((resolve) => setTimeout(resolve, delay)).then(async () => {
      const sent = Date.now();
      const r = await send();
      return { what, r, ms: Date.now() - sent };
    });
    const writes = await Promise.all([
      timed('a step', 0, () => player.post(`/api/v1/games/${g.id}/log`, { seq: 2, steps: 'd' })),
      timed('a step sent 1 s later', 1000, () => others[0].c.post(`/api/v1/games/${others[0].game.id}/log`, { seq: 1, steps: 'r' })),
      timed('a step sent 2 s later', 2000, () => others[1].c.post(`/api/v1/games/${others[1].game.id}/log`, { seq: 1, steps: 'r' })),
      // A write of its own transaction, outside the group commit: its wait
      // for the process's other writers counts in its 5 s too.
      timed('a sign-up sent 1.5 s later', 1500, () => server.client().post('/api/v1/account/signup', { username: 'locked-out', password: 'a password while locked' })),
    ]);
    console.log(writes.map(({ what, r, ms }) => `${what}: ${r.status} after ${ms} ms`).join('; '));
    for (const { what, r, ms } of writes) {
      assert.equal(r.status, 503, `${what} while locked: ${show(r)}`);
      assert.equal(r.json?.error?.code, 'unavailable', show(r));
      assert.ok(Number(r.headers.get('retry-after')) >= 1, `${what}: Retry-After ${r.headers.get('retry-after')}`);
      assert.ok(ms < 8000, `${what} was answered ${ms} ms after it was sent, not within about 5 s`);
    }
    console.log(`refused after ${Date.now() - started} ms`);
    // Reads go on meanwhile.
    const read = await player.get(`/api/v1/games/${g.id}`);
    assert.equal(read.status, 200, show(read));
    assert.equal(read.json.game.seq, 1);
    holder.stdin.end('ROLLBACK;\n');
    await new Promise((r) => holder.on('exit', r));
    holder = null;
    const r = await player.post(`/api/v1/games/${g.id}/log`, { seq: 2, steps: 'd' });
    assert.equal(r.status, 200, `once the lock is gone: ${show(r)}`);
    assert.equal(sqlite(server.db, 'PRAGMA integrity_check'), 'ok');
  } finally {
    holder?.kill(); // a failed assertion must not leave the lock held
    assert.equal((await server.stop()).code, 0);
  }
});
