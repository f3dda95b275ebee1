// A level counts as started once the player made a move on it: opening a
// game creates it (it needs an id to log to) but starts nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openGame, show, startServerWithLevels, stopCleanly } from './harness.mjs';

let server;
let ids;

before(async () => ({ server, ids } = await startServerWithLevels()));

after(() => stopCleanly(server, 'sokod should stop cleanly on SIGTERM'));

/** The level as GET /levels/{id} and as its collection's listing give it. */
async function both(c, id) {
  const one = (await c.get(`/api/v1/levels/${id}`)).json.level;
  const listing = (await c.get(`/api/v1/collections/${one.collection_id}`)).json.levels.find((l) => l.id === id);
  return [one, listing];
}

test('a level opened without a move is not started; the first entry starts it', async () => {
  const c = server.client();
  const game = await openGame(c, ids[1]);
  for (const l of await both(c, ids[1])) {
    assert.equal(l.game_id, game.id, 'the game is listed with the level');
    assert.equal(l.started, false, `opened only, the level is not started: ${JSON.stringify(l)}`);
  }
  const r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'u' });
  assert.equal(r.status, 200, show(r));
  for (const l of await both(c, ids[1])) assert.equal(l.started, true, `after a step the level is started: ${JSON.stringify(l)}`);
  // An undo back to the start keeps it started: the player has been there.
  const u = await c.post(`/api/v1/games/${game.id}/log`, { seq: 2, undo: 1 });
  assert.equal(u.status, 200, show(u));
  for (const l of await both(c, ids[1])) assert.equal(l.started, true, 'undone to the start, still started');
  // A level never opened is not started either.
  for (const l of await both(c, ids[2])) assert.equal(l.started, false);
});
