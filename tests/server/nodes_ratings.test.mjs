// Two sokod nodes on one PostgreSQL database, both running the rating
// pass every second: each game is rated once, each solver counted once,
// however many passes of either node go by (one node at a time takes the
// pass's lock, and a game marked rated is never rated again). On SQLite
// (one process per database) there is nothing to test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, Client, freshPgDatabase, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';
const PLAYERS = 6;

test('each game is rated once across two nodes', { skip }, async () => {
  const db = freshPgDatabase();
  const args = ['--rating-interval', '1'];
  const a = await startServer({ db, args });
  const b = await startServer({ db, args });
  try {
    const [corridor] = await levelIds(a.client());
    // Each player opens and solves the corridor on one node or the other.
    for (let i = 0; i < PLAYERS; i++) {
      const node = i % 2 ? b : a;
      const c = new Client(node.url);
      let r = await c.post(`/api/v1/levels/${corridor}/game`);
      assert.ok(r.status === 200 || r.status === 201, show(r));
      r = await c.post(`/api/v1/games/${r.json.game.id}/log`, { seq: 1, steps: 'rRR' });
      assert.equal(r.status, 200, show(r));
    }
    const count = (sql) => Number(sqlite(db, sql));
    const end = Date.now() + 30000;
    while (count('SELECT count(*) FROM rated_games') < PLAYERS) {
      assert.ok(Date.now() < end, 'every game rated within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    // More passes of both nodes change nothing.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(count('SELECT count(*) FROM rated_games'), PLAYERS);
    assert.equal(sqlite(db, `SELECT attempts || ' ' || solves || ' ' || solvers FROM level_ratings WHERE level_id = ${corridor}`),
      `${PLAYERS} ${PLAYERS} ${PLAYERS}`, 'the corridor: attempts, rated solves and solvers');
    assert.equal(count('SELECT count(*) FROM player_ratings WHERE attempts = 1'), PLAYERS, 'one attempt per player');
    assert.equal(count(`SELECT count(*) FROM level_solvers WHERE level_id = ${corridor}`), PLAYERS);
    await stopCleanly(a, 'node A should stop cleanly');
    await stopCleanly(b, 'node B should stop cleanly');
  } finally {
    await a.stop();
    await b.stop();
  }
});
