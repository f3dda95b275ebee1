// Times that nodes of one PostgreSQL database must agree on, with one node's
// machine a day ahead (SOKOD_TEST_SKEW): a session made there lasts its 90
// days on the database's clock and is good on the other node; wrong
// passwords spread over both are counted in one window, the database's,
// and refused for about a minute, not a day. On SQLite the machine's clock
// is the only one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, freshPgDatabase, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';
const DAY = 86400;
const SESSION_DAYS = 90;

async function skewedPair(args = []) {
  const db = freshPgDatabase();
  const ahead = await startServer({ db, args, env: { SOKOD_TEST_SKEW: String(DAY) } });
  const onTime = await startServer({ db, args });
  return { db, ahead, onTime };
}

async function stopPair({ ahead, onTime }) {
  await stopCleanly(ahead, 'the node a day ahead should stop cleanly');
  await stopCleanly(onTime, 'the node on time should stop cleanly');
}

test('a session made on a node a day ahead expires on the database\'s time, and works on the other', { skip }, async () => {
  const pair = await skewedPair();
  try {
    const c = pair.ahead.client();
    const [level] = await levelIds(c);
    const r = await c.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    const [expires, now] = sqlite(pair.db,
      'SELECT max(expires_at), CAST(extract(epoch FROM now()) AS bigint) FROM sessions').split('|').map(Number);
    const off = expires - (now + SESSION_DAYS * DAY);
    assert.ok(Math.abs(off) < 120, `the session expires ${off} s from 90 days after the database's now`);
    const mine = await c.get('/api/v1/account');
    assert.ok(mine.json?.user?.id, `the node a day ahead knows its session: ${show(mine)}`);
    const other = c.sameUser();
    other.base = pair.onTime.url;
    const me = await other.get('/api/v1/account');
    assert.equal(me.status, 200, show(me));
    assert.equal(me.json.user?.id, mine.json.user.id, `the node on time knows the session: ${show(me)}`);
  } finally {
    await stopPair(pair);
  }
});

test('wrong passwords over a node a day ahead and one on time share one window of the database\'s clock', { skip }, async () => {
  const pair = await skewedPair(['--auth-per-minute', '10000']);
  const nodes = [pair.ahead, pair.onTime];
  try {
    const r0 = await pair.onTime.client().post('/api/v1/account/signup', { username: 'victim', password: 'the right password' });
    assert.equal(r0.status, 201, show(r0));
    for (let i = 1; i <= 10; i++) {
      const r = await nodes[i % 2].client().post('/api/v1/account/login', { username: 'victim', password: `guess ${i}` });
      assert.equal(r.status, 401, `wrong password ${i}: ${show(r)}`);
    }
    for (const [i, node] of nodes.entries()) {
      const r = await node.client().post('/api/v1/account/login', { username: 'victim', password: 'guess 11' });
      assert.equal(r.status, 429, `the 11th wrong password through the node ${i === 0 ? 'a day ahead' : 'on time'}: ${show(r)}`);
      const retry = Number(r.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `one more try within a minute, not in ${retry} s`);
    }
  } finally {
    await stopPair(pair);
  }
});
