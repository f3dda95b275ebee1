// PostgreSQL's NOTIFY queue is bounded: a listener that stops reading (a
// node stalled, or a session idle in a transaction) holds back every
// notification after its position, and once the queue is full every
// transaction that notifies fails, on every node. Each node reads the
// queue's use every heartbeat (/metrics: sokod_notify_queue_usage) and,
// past --notify-queue-percent, ends the other nodes' listening
// connections; each listens again and catches up from the tables.
// PostgreSQL only.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BACKEND, levelIds, openGame, show, sqlite, startServer, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const skip = BACKEND === 'postgresql' ? false : 'the NOTIFY queue is PostgreSQL\'s (SOKOD_TEST_BACKEND=postgresql)';
const STALLED = 'sokod-listen 99999999';

let a, b, level, stalled;
before(async () => {
  if (skip) return;
  // A queue "full" at 2 millionths (two of its pages), so that a few
  // hundred steps pass it.
  a = await startServer({ args: ['--heartbeat', '1'], env: { SOKOD_TEST_NOTIFY_QUEUE_PPM: '2' } });
  b = await startServer({ db: a.db, levels: a.levels, args: ['--heartbeat', '1'] });
  level = (await levelIds(a.client()))[0];
});
after(async () => {
  stalled?.kill();
  if (b) await stopCleanly(b, 'node B should stop cleanly');
  if (a) await stopCleanly(a, 'node A should stop cleanly');
});

const listeners = () => sqlite(a.db, `SELECT application_name FROM pg_stat_activity
  WHERE datname = current_database() AND application_name LIKE 'sokod-listen %' ORDER BY 1`).split('\n').filter(Boolean);

async function until(what, fn, ms = 20000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    assert.ok(Date.now() < end, `${what} within ${ms} ms; node A's log:\n${a.stderr().slice(-1500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('a listener that holds the NOTIFY queue back is ended, and node B listens again', { skip }, async () => {
  // A stalled listener named as a node's: it listens, then stays in a
  // transaction, where notifications wait for it and the queue keeps them.
  stalled = spawn('psql', ['-X', '-q', '-d', a.db], { stdio: ['pipe', 'ignore', 'ignore'] });
  stalled.stdin.write(`SET application_name = '${STALLED}';\nLISTEN sokod;\nBEGIN;\nSELECT 1;\n`);
  await until('the stalled listener in its transaction', () => listeners().includes(STALLED));
  const bListens = listeners().filter((n) => n !== STALLED).length;
  assert.equal(bListens, 2, `nodes A and B listen: ${listeners()}`);

  // Steps on node A: each commit notifies; the queue grows behind the
  // stalled listener.
  const player = a.client();
  const game = await openGame(player, level);
  let seq = 0;
  await until('node A ending the listening connections of others', async () => {
    for (let i = 0; i < 50; i++) {
      const r = await player.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: seq % 2 ? 'l' : 'r' });
      assert.equal(r.status, 200, show(r));
      seq++;
    }
    return /NOTIFY queue is [0-9.]+% full, past 0\.0002% .* ended \d+ listening connections of other nodes/.test(a.stderr());
  }, 60000);
  await until('the stalled listener gone', () => !listeners().includes(STALLED));
  // Node B listens again, and hears node A's next steps.
  await until('node B listening again', () => /listening for other nodes' events again/.test(b.stderr()));
  const laptop = b.client();
  laptop.cookies = new Map(player.cookies);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  const r = await player.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: seq % 2 ? 'l' : 'r' });
  assert.equal(r.status, 200, show(r));
  await s.next('step', (x) => x.seq === seq + 1);
  s.close();
  const metrics = await a.client().get('/metrics');
  assert.match(metrics.text, /^sokod_notify_queue_usage [0-9.]+$/m, 'node A shows the queue\'s use');
});
