// A game entry commits on the request's own thread when the committer is
// idle (SQLite, synchronous NORMAL), and queues for a batch otherwise: under
// load, when the write lock is taken, with synchronous FULL, and always on
// PostgreSQL.
// Either way the answer comes after the commit, and each game keeps its
// order.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BACKEND, rawRequest, show, sqlite, startServerWithLevels, stopCleanly } from './harness.mjs';

const postgres = BACKEND === 'postgresql';

// The jobs of each path of the group commit, from /metrics.
async function commitJobs(server) {
  const r = await rawRequest(server.url, 'GET', '/metrics');
  assert.equal(r.status, 200, show(r));
  const count = (path) => {
    const m = new RegExp(`^sokod_commit_jobs_total\\{path="${path}"\\} (\\d+)$`, 'm').exec(r.text);
    assert.ok(m, `/metrics has the ${path} series:\n${r.text}`);
    return Number(m[1]);
  };
  return { inline: count('inline'), batch: count('batch') };
}

// Opens a game on the Room level for a new guest: "u" then "d" walks up
// and back from the start without touching a box.
async function openRoom(server, ids) {
  const c = server.client();
  const r = await c.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(r.status, 201, show(r));
  return { c, id: r.json.game.id };
}

// Lets the committer be idle for longer than its 1 ms threshold: steps
// closer together count as load. A slower machine only waits longer.
const idle = () => new Promise((r) => setTimeout(r, 5));

const logCount = (server, id) => sqlite(server.db, `SELECT count(*) FROM game_log WHERE game_id = ${id}`);

test('one step at a time: each commits inline (SQLite) and is stored when answered', async () => {
  const { server, ids } = await startServerWithLevels();
  try {
    const { c, id } = await openRoom(server, ids);
    const before = await commitJobs(server);
    const entries = 8;
    for (let seq = 1; seq <= entries; seq++) {
      await idle();
      const r = await c.post(`/api/v1/games/${id}/log`, { seq, steps: seq % 2 === 1 ? 'u' : 'd' });
      assert.equal(r.status, 200, `entry ${seq}: ${show(r)}`);
      assert.equal(r.json.game.seq, seq, `entry ${seq}: ${show(r)}`);
      assert.equal(logCount(server, id), String(seq), `entry ${seq} is in the database once answered`);
    }
    const after = await commitJobs(server);
    const used = { inline: after.inline - before.inline, batch: after.batch - before.batch };
    const want = postgres ? { inline: 0, batch: entries } : { inline: entries, batch: 0 };
    assert.deepEqual(used, want, `the paths of ${entries} entries sent one after another on ${BACKEND}`);
  } finally {
    await stopCleanly(server);
  }
});

test('with --synchronous FULL every step queues for a batch', async () => {
  const { server, ids } = await startServerWithLevels({ args: ['--synchronous', 'FULL'] });
  try {
    const { c, id } = await openRoom(server, ids);
    const before = await commitJobs(server);
    for (let seq = 1; seq <= 3; seq++) {
      await idle();
      const r = await c.post(`/api/v1/games/${id}/log`, { seq, steps: seq % 2 === 1 ? 'u' : 'd' });
      assert.equal(r.status, 200, `entry ${seq}: ${show(r)}`);
    }
    const after = await commitJobs(server);
    assert.deepEqual({ inline: after.inline - before.inline, batch: after.batch - before.batch },
      { inline: 0, batch: 3 }, 'a commit with an fsync goes through the committer');
    assert.equal(logCount(server, id), '3');
  } finally {
    await stopCleanly(server);
  }
});

test('a step finding the write lock taken queues for the committer instead of waiting', { skip: postgres && 'SQLite only: PostgreSQL never commits inline' }, async () => {
  const { server, ids } = await startServerWithLevels();
  let holder = null;
  try {
    const { c, id } = await openRoom(server, ids);
    const first = await c.post(`/api/v1/games/${id}/log`, { seq: 1, steps: 'u' });
    assert.equal(first.status, 200, show(first));
    const before = await commitJobs(server);
    holder = spawn('sqlite3', [server.db], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    holder.stdout.on('data', (d) => { said += d; });
    holder.stdin.write("BEGIN EXCLUSIVE; INSERT INTO users (guest, created_at) VALUES (1, 0); SELECT 'locked';\n");
    while (!said.includes('locked')) await new Promise((r) => setTimeout(r, 20));
    let early = null;
    const pending = c.post(`/api/v1/games/${id}/log`, { seq: 2, steps: 'd' }).then((r) => (early = r));
    // The step is queued (counted) while the lock is held; /metrics reads
    // no table, so it answers meanwhile. A step waiting for the lock inline
    // would never be counted, and be answered 503 in the end.
    let now = before;
    while (now.batch === before.batch) {
      assert.equal(early, null, `the step was answered while locked, never queued: ${early && show(early)}`);
      await new Promise((r) => setTimeout(r, 20));
      now = await commitJobs(server);
    }
    assert.equal(now.inline, before.inline, 'nothing ran inline while locked');
    // Waiting out the lock inline would have ended in a busy error, logged.
    assert.doesNotMatch(server.stderr(), /database busy/, 'the step was queued without waiting for the lock');
    assert.equal(logCount(server, id), '1', 'nothing of the queued step is stored while locked');
    holder.stdin.end('ROLLBACK;\n');
    await new Promise((res) => holder.on('exit', res));
    holder = null;
    const r = await pending;
    assert.equal(r.status, 200, `the queued step, once the lock is free: ${show(r)}`);
    assert.equal(r.json.game.seq, 2, show(r));
    assert.equal(logCount(server, id), '2');
    const after = await commitJobs(server);
    assert.deepEqual({ inline: after.inline - before.inline, batch: after.batch - before.batch },
      { inline: 0, batch: 1 }, 'the step went through the committer');
    // The lock free again, the next step is inline once more.
    await idle();
    const third = await c.post(`/api/v1/games/${id}/log`, { seq: 3, steps: 'u' });
    assert.equal(third.status, 200, show(third));
    assert.equal((await commitJobs(server)).inline, after.inline + 1);
  } finally {
    holder?.kill();
    await stopCleanly(server);
  }
});

test('many players at once: every entry in order, whichever path each took', async () => {
  const { server, ids } = await startServerWithLevels({ args: ['--threads', '4'] });
  try {
    const players = await Promise.all(Array.from({ length: 30 }, () => openRoom(server, ids)));
    const before = await commitJobs(server);
    const entries = 10;
    await Promise.all(players.map(async ({ c, id }) => {
      for (let seq = 1; seq <= entries; seq++) {
        const r = await c.post(`/api/v1/games/${id}/log`, { seq, steps: seq % 2 === 1 ? 'u' : 'd' });
        assert.equal(r.status, 200, `game ${id} entry ${seq}: ${show(r)}`);
        assert.equal(r.json.game.seq, seq, `game ${id}: the answer is the game after entry ${seq}`);
      }
    }));
    const after = await commitJobs(server);
    const used = { inline: after.inline - before.inline, batch: after.batch - before.batch };
    console.log(`${players.length * entries} entries: ${used.inline} inline, ${used.batch} in batches`);
    assert.equal(used.inline + used.batch, players.length * entries, `every entry took one path: ${JSON.stringify(used)}`);
    for (const { id } of players) {
      const log = sqlite(server.db, `SELECT steps FROM game_log WHERE game_id = ${id} ORDER BY seq`).split('\n').join('');
      assert.equal(log, 'ud'.repeat(entries / 2), `game ${id}: the database holds every entry, in order`);
    }
  } finally {
    await stopCleanly(server);
  }
});
