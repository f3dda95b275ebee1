// Two sokod nodes on one PostgreSQL database: a game written through both
// at once takes each entry once. Both nodes answer the same player (the
// session lives in the database), and when both are sent entry N at the
// same moment, one accepts it and the other refuses it as stale; the log
// holds one entry per number, and both nodes then show the same game.
// On SQLite (one process per database) there is nothing to test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BACKEND, Client, freshPgDatabase, gameOf, levelIds, openGame, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';
const ROUNDS = 30;

let a;
let b;
let db;

before(async () => {
  if (skip) return;
  db = freshPgDatabase();
  a = await startServer({ db });
  b = await startServer({ db });
});

after(async () => {
  if (skip) return;
  await stopCleanly(a, 'node A should stop cleanly');
  await stopCleanly(b, 'node B should stop cleanly');
});

// A client of node `server` with the cookies of `client` (the same player).
function samePlayerOn(server, client) {
  const c = new Client(server.url);
  c.cookies = new Map(client.cookies);
  return c;
}

test('entry N of a game sent to two nodes at once is accepted once', { skip }, async () => {
  const onA = a.client();
  const ids = await levelIds(onA);
  // The Room level: from the start square, "ud" and "du" are both legal
  // and both come back to it, so every round starts alike.
  const game = await openGame(onA, ids[1]);
  const onB = samePlayerOn(b, onA);
  const accepted = [];
  for (let seq = 1; seq <= ROUNDS; seq++) {
    const [ra, rb] = await Promise.all([
      onA.post(`/api/v1/games/${game.id}/log`, { seq, steps: 'ud' }),
      onB.post(`/api/v1/games/${game.id}/log`, { seq, steps: 'du' }),
    ]);
    const statuses = [ra.status, rb.status].sort().join(' ');
    assert.equal(statuses, '200 409', `entry ${seq}: node A ${show(ra)}; node B ${show(rb)}`);
    const refused = ra.status === 409 ? ra : rb;
    assert.equal(refused.json?.error?.code, 'stale_seq', `entry ${seq}, the refused one: ${show(refused)}`);
    accepted.push(ra.status === 200 ? 'ud' : 'du');
  }
  console.log(`entries accepted by node A: ${accepted.filter((s) => s === 'ud').length} of ${ROUNDS}`);
  const rows = sqlite(db, `SELECT seq, steps FROM game_log WHERE game_id = ${game.id} ORDER BY seq`).split('\n');
  assert.deepEqual(rows, accepted.map((s, i) => `${i + 1}|${s}`), 'the log holds each accepted entry once, in order');
  const seenA = await gameOf(onA, game.id);
  const seenB = await gameOf(onB, game.id);
  assert.equal(seenA.seq, ROUNDS);
  assert.equal(seenB.seq, ROUNDS, 'node B knows every entry, its own and node A\'s');
  assert.deepEqual(seenB.rows, seenA.rows, 'both nodes show the same position');
});

test('a retry through the other node of an entry already taken is recognised', { skip }, async () => {
  const onA = a.client();
  const ids = await levelIds(onA);
  const game = await openGame(onA, ids[1]);
  const onB = samePlayerOn(b, onA);
  const first = await onA.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'ud' });
  assert.equal(first.status, 200, show(first));
  // The client never heard the answer and sends the same entry again,
  // through the other node: it is the same entry, not a second one.
  const again = await onB.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'ud' });
  assert.equal(again.status, 200, show(again));
  assert.equal(again.json.game.seq, 1, show(again));
  const count = sqlite(db, `SELECT count(*) FROM game_log WHERE game_id = ${game.id}`);
  assert.equal(count, '1', 'the retried entry is in the log once');
});
