// A PostgreSQL connection that went away while idle (the server restarted,
// a standby was promoted, an administrator ended it) costs no request: the
// statement that finds it gone, when it began no transaction's work (a
// BEGIN, or a read), is asked again on a new connection. On SQLite there
// is no connection to lose.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, levelIds, openGame, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'a connection to lose is PostgreSQL\'s';

// Ends every connection of other sessions to the database, as a restart of
// its server would; returns how many were ended.
function endConnections(db) {
  return Number(sqlite(db, 'SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity ' +
    'WHERE datname = current_database() AND pid <> pg_backend_pid()'));
}

test('reads and steps go on after every connection of the node was ended', { skip }, async () => {
  const server = await startServer();
  try {
    const player = server.client();
    const [level] = await levelIds(player);
    const game = await openGame(player, level);
    let seq = 0;
    for (let round = 1; round <= 3; round++) {
      // Every worker's connection is used once, so that each has one to lose.
      await Promise.all(Array.from({ length: 16 }, () => player.get('/api/v1/collections')));
      const ended = endConnections(server.db);
      assert.ok(ended > 0, `round ${round}: ended the node's connections (${ended})`);
      const reads = await Promise.all(Array.from({ length: 16 }, () => player.get('/api/v1/collections')));
      for (const r of reads) assert.equal(r.status, 200, `round ${round}, a read after the connections ended: ${show(r)}`);
      const steps = seq % 2 === 0 ? 'r' : 'l';
      const r = await player.post(`/api/v1/games/${game.id}/log`, { seq: ++seq, steps });
      assert.equal(r.status, 200, `round ${round}, a step after the connections ended: ${show(r)}`);
    }
  } finally {
    await stopCleanly(server);
  }
});
