// Nodes of one PostgreSQL database read one time: the database's. A node
// whose machine runs a day ahead (SOKOD_TEST_SKEW) still stamps what it
// writes with the database's time, and gives the day's puzzle of the
// database's day. On SQLite the machine's clock is the only one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'the database has a clock of its own on PostgreSQL only';
const DAY = 86400;

test('a node whose machine runs a day ahead keeps the database\'s time', { skip }, async () => {
  const server = await startServer({ env: { SOKOD_TEST_SKEW: String(DAY) } });
  try {
    const c = server.client();
    const [level] = await levelIds(c);
    const r = await c.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    const [made, now] = sqlite(server.db,
      'SELECT max(created_at), CAST(extract(epoch FROM now()) AS bigint) FROM users').split('|').map(Number);
    assert.ok(Math.abs(made - now) < 120, `the guest was made at ${made}, the database's time is ${now}: ${made - now} s apart`);
    const daily = await c.get('/api/v1/daily');
    assert.equal(daily.status, 200, show(daily));
    const today = sqlite(server.db, "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')");
    assert.equal(daily.json.day, today, 'the day\'s puzzle is the database\'s day');
  } finally {
    await stopCleanly(server);
  }
});
