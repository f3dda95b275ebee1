// The daily puzzle: GET /api/v1/daily gives every server the same level for
// a day (UTC), another level for another day, moves to the next day at
// midnight, refuses future days and malformed dates, makes a day's level
// once however many ask at once, and plays like any level.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, sqlite, startServer, stopCleanly } from './harness.mjs';

// Clocks for the servers, in Unix seconds (SOKOD_TEST_NOW): noon on
// 2026-03-14 for A; eight seconds before midnight after that day for B.
const NOON = Date.UTC(2026, 2, 14, 12, 0, 0) / 1000;
const BEFORE_MIDNIGHT = Date.UTC(2026, 2, 15, 0, 0, 0) / 1000 - 8;

let a;
let b;

before(async () => {
  [a, b] = await Promise.all([
    startServer({ env: { SOKOD_TEST_NOW: String(NOON) } }),
    startServer({ env: { SOKOD_TEST_NOW: String(BEFORE_MIDNIGHT) } }),
  ]);
});

after(async () => {
  for (const s of [a, b]) {
    await stopCleanly(s, 'sokod should stop cleanly on SIGTERM');
  }
});

async function daily(server, day) {
  const r = await server.client().get(day === undefined ? '/api/v1/daily' : `/api/v1/daily?day=${day}`);
  return r;
}

test('midnight (UTC) moves the daily puzzle to the next day, which was refused as future before', async () => {
  // Asked at once: the server's clock is eight seconds before midnight.
  const [future, first] = await Promise.all([daily(b, '2026-03-15'), daily(b)]);
  assert.equal(future.status, 400, `the next day is refused before midnight: ${show(future)}`);
  assert.equal(future.json.error.code, 'invalid_value');
  assert.match(future.json.error.message, /2026-03-15.*not out yet.*2026-03-14/);
  assert.equal(first.status, 200, show(first));
  assert.equal(first.json.day, '2026-03-14');

  // Waits for the server's clock to pass midnight.
  let next = first;
  const deadline = Date.now() + 60000;
  while (next.json.day === '2026-03-14' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    next = await daily(b);
    assert.equal(next.status, 200, show(next));
  }
  assert.equal(next.json.day, '2026-03-15', 'after midnight, today is the next day');
  assert.notDeepEqual(next.json.level.rows, first.json.level.rows, 'the new day has another level');
  const asked = await daily(b, '2026-03-15');
  assert.equal(asked.status, 200, `the new day is no longer in the future: ${show(asked)}`);
  assert.equal(asked.json.level.id, next.json.level.id);
});

test('two fresh servers give the same level for the same day', async () => {
  for (const day of ['2026-03-14', '2026-01-01']) {
    const [x, y] = await Promise.all([daily(a, day), daily(b, day)]);
    assert.equal(x.status, 200, show(x));
    assert.equal(y.status, 200, show(y));
    assert.equal(x.json.day, day);
    assert.equal(y.json.day, day);
    assert.deepEqual(x.json.level.rows, y.json.level.rows, `the boards of ${day} differ between servers`);
    assert.equal(x.json.level.title, `Daily puzzle ${day}`);
    assert.equal(x.json.level.title, y.json.level.title);
    assert.equal(x.json.level.author, 'sokod');
    assert.equal(x.json.level.boxes, 3);
  }
  const today = await daily(a);
  assert.equal(today.json.day, '2026-03-14', 'without ?day, today on the server clock');
});

test('different days have different levels', async () => {
  const days = ['2026-03-10', '2026-03-11', '2026-03-12', '2025-12-31'];
  const answers = await Promise.all(days.map((d) => daily(a, d)));
  const boards = new Set();
  for (const [i, r] of answers.entries()) {
    assert.equal(r.status, 200, `${days[i]}: ${show(r)}`);
    boards.add(JSON.stringify(r.json.level.rows));
  }
  assert.equal(boards.size, days.length, 'every day has a board of its own');
});

test('malformed, impossible, early and future days are refused with a clear 400', async () => {
  const bad = ['2026-3-14', '2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', 'tomorrow',
    '', '2026-03-14T00:00', '+2026-03-1', '1999-12-31', '2026-03-15', '9999-12-31'];
  for (const day of bad) {
    const r = await daily(a, encodeURIComponent(day));
    assert.equal(r.status, 400, `day=${day}: ${show(r)}`);
    assert.equal(r.json.error.code, 'invalid_value', `day=${day}`);
    assert.ok(r.json.error.message.length > 10, `day=${day}: a message in words`);
  }
  const leap = await daily(a, '2024-02-29');
  assert.equal(leap.status, 200, `a leap day exists: ${show(leap)}`);
  const still = await daily(a, '2026-03-13');
  assert.equal(still.status, 200, 'the server keeps serving after refusals');
});

test('requests that come together for a new day make its level once', async () => {
  const day = '2026-02-01';
  const answers = await Promise.all(Array.from({ length: 6 }, () => daily(a, day)));
  for (const r of answers) assert.equal(r.status, 200, show(r));
  const ids = new Set(answers.map((r) => r.json.level.id));
  assert.equal(ids.size, 1, 'every request got the same level');
  assert.equal(sqlite(a.db, `SELECT count(*) FROM daily WHERE day = '${day}'`), '1');
  assert.equal(sqlite(a.db, `SELECT count(*) FROM levels WHERE title = 'Daily puzzle ${day}'`), '1',
    'one level was stored for the day');
});

test('the daily level plays like any level, from a hidden collection', async () => {
  const c = a.client();
  const r = await c.get('/api/v1/daily?day=2026-03-14');
  const level = r.json.level;
  const list = await c.get('/api/v1/collections');
  assert.ok(!list.json.collections.some((col) => col.id === level.collection_id),
    `the daily collection is not listed: ${list.text}`);
  const open = await c.post(`/api/v1/levels/${level.id}/game`);
  assert.ok(open.status === 200 || open.status === 201, show(open));
  assert.deepEqual(open.json.game.rows, level.rows, 'the game starts on the daily board');
  const lurd = sqlite(a.db, `SELECT lurd FROM reference_solutions WHERE level_id = ${level.id}`);
  assert.ok(lurd.length > 0, 'the daily level keeps its reference solution');
  const step = await c.post(`/api/v1/games/${open.json.game.id}/log`, { seq: 1, steps: lurd });
  assert.equal(step.status, 200, show(step));
  assert.equal(step.json.game.solved, true, 'the reference solution solves it through the API');
  const again = await c.get('/api/v1/daily?day=2026-03-14');
  assert.equal(again.json.level.solved, true, 'the daily answer shows the player solved it');
  assert.equal(again.json.level.game_id, open.json.game.id);
});

test('past days are made on request ten at a time per address; days made already and today are always answered', async () => {
  const s = await startServer({ env: { SOKOD_TEST_NOW: String(NOON) } });
  try {
    const c = s.client();
    const days = Array.from({ length: 10 }, (_, i) => `2026-02-${String(i + 1).padStart(2, '0')}`);
    for (const day of days) {
      const r = await c.get(`/api/v1/daily?day=${day}`);
      assert.equal(r.status, 200, `${day} is made: ${show(r)}`);
    }
    const over = await c.get('/api/v1/daily?day=2026-02-11');
    assert.equal(over.status, 429, `an eleventh past day at once: ${show(over)}`);
    assert.equal(over.json.error.code, 'rate_limited');
    assert.ok(Number(over.headers.get('retry-after')) >= 1, `Retry-After: ${over.headers.get('retry-after')}`);
    const made = await c.get(`/api/v1/daily?day=${days[3]}`);
    assert.equal(made.status, 200, `a day made already is still answered: ${show(made)}`);
    const today = await c.get('/api/v1/daily');
    assert.equal(today.status, 200, `today is made whatever the limit: ${show(today)}`);
    assert.equal(today.json.day, '2026-03-14');
  } finally {
    await stopCleanly(s);
  }
});
