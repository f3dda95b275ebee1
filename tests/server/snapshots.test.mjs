// Saved positions: a player names positions of a game (the one it stands
// at, or a line of steps sent from the level's start), lists them from any
// device, reads one back to return to it, and deletes them; each is
// checked through the core, and a game holds a bounded number of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gameOf, openGame, show, startServerWithLevels, stopCleanly } from './harness.mjs';

let server;
let ids;

before(async () => ({ server, ids } = await startServerWithLevels()));

after(() => stopCleanly(server, 'sokod should stop cleanly on SIGTERM'));

const ROOM = 1; // the "Room" level: the player at (1, 3), boxes at (2, 2) and (3, 3)

test('the position a game stands at is saved, listed and read back from another device', async () => {
  const c = server.client();
  const game = await openGame(c, ids[ROOM]);
  let r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'rr' });
  assert.equal(r.status, 200, show(r));

  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: '  before   the push ' });
  assert.equal(r.status, 201, show(r));
  const saved = r.json.snapshot;
  assert.deepEqual([saved.name, saved.lurd, saved.moves, saved.pushes, saved.solved],
    ['before the push', 'rR', 2, 1, false], `the game's position, its name on one line: ${show(r)}`);
  assert.match(saved.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  const other = c.sameUser();
  r = await other.get(`/api/v1/games/${game.id}/snapshots`);
  assert.equal(r.status, 200, show(r));
  assert.deepEqual(r.json.snapshots.map((s) => [s.id, s.name, s.moves, s.pushes]), [[saved.id, 'before the push', 2, 1]],
    `another device lists it: ${show(r)}`);
  assert.equal(r.json.snapshots[0].lurd, undefined, 'a listing leaves the steps out');
  assert.deepEqual([r.json.max, r.json.name_max], [50, 40], 'the listing says the bounds');
  r = await other.get(`/api/v1/games/${game.id}/snapshots/${saved.id}`);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.snapshot.lurd, 'rR', 'one read back carries its steps');
});

test('a line of steps sent is replayed from the start and saved with the case of what it did', async () => {
  const c = server.client();
  const game = await openGame(c, ids[ROOM]);
  let r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'offline line', lurd: 'urd' });
  assert.equal(r.status, 201, show(r));
  assert.deepEqual([r.json.snapshot.lurd, r.json.snapshot.moves, r.json.snapshot.pushes], ['uRd', 3, 1], show(r));
  assert.equal((await gameOf(c, game.id)).seq, 0, 'saving a position adds nothing to the log');

  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'into the wall', lurd: 'ul' });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'step_refused');
  assert.match(r.json.error.message, /step 2 runs into a wall/, show(r));
  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'not steps', lurd: 'uxd' });
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'invalid_steps', show(r));
  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'far', lurd: 'ud'.repeat(25001) });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'snapshot_too_long', show(r));
  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'far', lurd: 'ud'.repeat(25000) });
  assert.equal(r.status, 201, `50,000 steps are allowed: ${show(r)}`);
});

test('names are one line of 1 to 40 characters', async () => {
  const c = server.client();
  const game = await openGame(c, ids[ROOM]);
  for (const [name, why] of [['', 'empty'], ['   ', 'blank'], ['x'.repeat(41), '41 characters']]) {
    const r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name });
    assert.equal(r.status, 400, `${why}: ${show(r)}`);
    assert.equal(r.json.error.code, 'invalid_value', `${why}: ${show(r)}`);
  }
  let r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'é'.repeat(40) });
  assert.equal(r.status, 201, `40 characters of two bytes each: ${show(r)}`);
  r = await c.post(`/api/v1/games/${game.id}/snapshots`, {});
  assert.equal(r.json?.error?.code, 'missing_field', show(r));
  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'x', seq: 3 });
  assert.equal(r.json?.error?.code, 'unknown_field', show(r));
});

test('a game holds at most 50; deleting one makes room', async () => {
  const c = server.client();
  const game = await openGame(c, ids[0]);
  const made = [];
  for (let i = 1; i <= 50; i++) {
    const r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: `spot ${i}` });
    assert.equal(r.status, 201, `number ${i}: ${show(r)}`);
    made.push(r.json.snapshot.id);
  }
  let r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'one more' });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'too_many_snapshots');
  assert.match(r.json.error.message, /at most 50/);

  r = await c.req('DELETE', `/api/v1/games/${game.id}/snapshots/${made[7]}`);
  assert.equal(r.status, 200, show(r));
  r = await c.req('DELETE', `/api/v1/games/${game.id}/snapshots/${made[7]}`);
  assert.equal(r.status, 404, show(r));
  assert.equal(r.json.error.code, 'snapshot_not_found');
  r = await c.get(`/api/v1/games/${game.id}/snapshots/${made[7]}`);
  assert.equal(r.json.error.code, 'snapshot_not_found', show(r));
  r = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'one more' });
  assert.equal(r.status, 201, show(r));
  r = await c.get(`/api/v1/games/${game.id}/snapshots`);
  assert.equal(r.json.snapshots.length, 50);
  assert.equal(r.json.snapshots.at(-1).name, 'one more', 'oldest first');
});

test('another player sees nothing of them, and touches nothing', async () => {
  const c = server.client();
  const game = await openGame(c, ids[2]);
  const r0 = await c.post(`/api/v1/games/${game.id}/snapshots`, { name: 'mine' });
  assert.equal(r0.status, 201, show(r0));
  const id = r0.json.snapshot.id;
  const stranger = server.client();
  await openGame(stranger, ids[2]);
  for (const [method, path, body] of [
    ['GET', `/api/v1/games/${game.id}/snapshots`],
    ['GET', `/api/v1/games/${game.id}/snapshots/${id}`],
    ['POST', `/api/v1/games/${game.id}/snapshots`, { name: 'theirs' }],
    ['DELETE', `/api/v1/games/${game.id}/snapshots/${id}`],
  ]) {
    const r = await stranger.req(method, path, body);
    assert.equal(r.status, 404, `${method} ${path}: ${show(r)}`);
    assert.equal(r.json.error.code, 'game_not_found', `${method} ${path}: ${show(r)}`);
  }
  const nobody = await server.client().get(`/api/v1/games/${game.id}/snapshots`);
  assert.equal(nobody.status, 401, show(nobody));
  const mine = await c.get(`/api/v1/games/${game.id}/snapshots`);
  assert.deepEqual(mine.json.snapshots.map((s) => s.name), ['mine'], 'still there, and only it');
});
