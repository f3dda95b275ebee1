// Work that one node at a time does, when nodes share a PostgreSQL
// database: the daily puzzle asked of two nodes at once is made once, the
// sweeper of old guests runs on one node while the others skip (the lock of
// server/storage/storage_work.c, held here by psql to show it), and nodes
// started together import the bundled levels once.
// On SQLite (one process per database) there is nothing to test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BACKEND, freshPgDatabase, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';
// STORAGE_WORK_SWEEP's advisory lock key: "soko" in the high half.
const SWEEP_KEY = (0x736f6b6fn << 32n) | 1n;

async function eventually(check, seconds = 30) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test('the daily puzzle asked of two nodes at once is made once', { skip }, async () => {
  const db = freshPgDatabase();
  const a = await startServer({ db });
  const b = await startServer({ db });
  // Both nodes reach the day's insert before either commits: psql holds
  // the daily table against writes until both have made their level.
  const holder = spawn('psql', ['-X', '-q', '-d', db], { stdio: ['pipe', 'ignore', 'inherit'] });
  try {
    holder.stdin.write('BEGIN;\nLOCK TABLE daily IN EXCLUSIVE MODE;\n');
    const locked = await eventually(() =>
      sqlite(db, "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'daily' AND l.mode = 'ExclusiveLock' AND l.granted") === '1');
    assert.ok(locked, 'psql holds the daily table');
    const answers = Promise.all([a.client().get('/api/v1/daily'), b.client().get('/api/v1/daily')]);
    await new Promise((res) => setTimeout(res, 3000));
    holder.stdin.end('COMMIT;\n');
    const [ra, rb] = await answers;
    assert.equal(ra.status, 200, `node A: ${show(ra)}`);
    assert.equal(rb.status, 200, `node B: ${show(rb)}`);
    assert.equal(rb.json.level.id, ra.json.level.id, 'both nodes give the same level');
    assert.equal(sqlite(db, 'SELECT count(*) FROM daily'), '1', 'one row for the day');
    assert.equal(sqlite(db, "SELECT count(*) FROM levels l JOIN collections c ON c.id = l.collection_id WHERE c.name = 'Daily puzzles'"), '1',
      'one level made for the day');
    for (const node of [a, b]) assert.doesNotMatch(node.stderr(), /sokod: database/, 'no node failed on the other\'s write');
  } finally {
    if (holder.exitCode === null) holder.kill();
    await stopCleanly(a, 'node A should stop cleanly');
    await stopCleanly(b, 'node B should stop cleanly');
  }
});

test('old guests are swept by one node at a time, and not while another holds the sweep', { skip }, async () => {
  const db = freshPgDatabase();
  const args = ['--sweep-interval', '1', '--guest-unplayed-ttl', '1'];
  const a = await startServer({ db, args });
  const b = await startServer({ db, args });
  // Another node sweeping: psql holds the sweep's lock until its input ends.
  const holder = spawn('psql', ['-X', '-q', '-d', db], { stdio: ['pipe', 'ignore', 'inherit'] });
  try {
    holder.stdin.write(`SELECT pg_advisory_lock(${SWEEP_KEY});\n`);
    const held = await eventually(() =>
      sqlite(db, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ${Number(SWEEP_KEY & 0xffffffffn)}`) === '1');
    assert.ok(held, 'psql holds the sweep\'s lock');
    const [level] = await levelIds(a.client());
    const guest = a.client();
    const r = await guest.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    const guests = () => sqlite(db, 'SELECT count(*) FROM users WHERE guest = 1');
    assert.equal(guests(), '1');
    // Three sweeps' time, past the guest's time to live: nobody swept.
    await new Promise((res) => setTimeout(res, 3500));
    assert.equal(guests(), '1', 'no node swept while the lock was held elsewhere');
    for (const node of [a, b]) assert.doesNotMatch(node.stderr(), /sweep deleted/);
    holder.stdin.end();
    await new Promise((res) => holder.on('exit', res));
    assert.ok(await eventually(() => guests() === '0'), `a node swept once the lock was free; A:\n${a.stderr()}\nB:\n${b.stderr()}`);
  } finally {
    if (holder.exitCode === null) holder.kill();
    await stopCleanly(a, 'node A should stop cleanly');
    await stopCleanly(b, 'node B should stop cleanly');
  }
});

test('three nodes started together on a new database import the bundled levels once', { skip }, async () => {
  const db = freshPgDatabase();
  const nodes = await Promise.all([0, 1, 2].map(() => startServer({ db })));
  try {
    const twice = sqlite(db, "SELECT source || ' x' || count(*) FROM collections WHERE source LIKE 'bundled:%' " +
      'GROUP BY source HAVING count(*) > 1 ORDER BY source');
    assert.equal(twice, '', `each bundled file is one collection, not several:\n${twice}`);
    const bundled = Number(sqlite(db, "SELECT count(*) FROM collections WHERE source LIKE 'bundled:%'"));
    assert.ok(bundled > 0, 'the bundled levels were imported');
    const listed = await Promise.all(nodes.map(async (n) => (await n.client().get('/api/v1/collections')).json));
    for (const l of listed) assert.deepEqual(l, listed[0], 'every node lists the same collections');
    for (const n of nodes) assert.doesNotMatch(n.stderr(), /could not import|skipped|sokod: database/, 'no node failed on another\'s import');
  } finally {
    for (const n of nodes) await stopCleanly(n, 'each node should stop cleanly');
  }
});
