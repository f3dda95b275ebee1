// Race rooms on a freshly generated level: the level a difficulty and a
// seed give, made on the worker pool and stored in a hidden collection,
// solved by the generator's own solution played through the API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, sqlite, startServer, stopCleanly } from './harness.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(() => stopCleanly(server));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A room on a generated level, made by a new guest (each user may open six
// rooms a minute).
async function generatedRoom(body) {
  const host = server.client();
  const r = await host.post('/api/v1/rooms', { level: 'generated', ...body });
  return { host, r };
}

async function boardOf(client, levelId) {
  const r = await client.get(`/api/v1/levels/${levelId}`);
  assert.equal(r.status, 200, show(r));
  return r.json.level;
}

test('a generated room\'s level is solved by the solution its generator reported', async () => {
  const { host, r } = await generatedRoom({ difficulty: 'easy', seed: 4242 });
  assert.equal(r.status, 201, show(r));
  const room = r.json.room;
  assert.equal(room.source, 'generated');
  assert.match(room.title, /easy, seed 4242/, 'the title names the difficulty and the seed');
  // The generator's reference solution is kept with the level, out of the
  // players' sight: the test reads it from the database.
  const lurd = sqlite(server.db, `SELECT lurd FROM reference_solutions WHERE level_id = ${room.level_id}`);
  assert.match(lurd, /^[lurdLURD]+$/, `a reference solution for level ${room.level_id}: '${lurd}'`);
  const level = await boardOf(host, room.level_id);
  assert.ok(level.boxes >= 2 && level.boxes <= 3, `an easy level has 2 or 3 boxes: ${level.boxes}`);
  const start = await host.post(`/api/v1/rooms/${room.id}/start`);
  assert.equal(start.status, 200, show(start));
  await sleep(start.json.room.starts_in_ms + 50);
  const game = start.json.room.players[0].game_id;
  const played = await host.post(`/api/v1/games/${game}/log`, { seq: 1, steps: lurd });
  assert.equal(played.status, 200, `the reference solution ${lurd} on ${level.rows.join('|')}: ${show(played)}`);
  assert.equal(played.json.game.solved, true, `${lurd} on ${level.rows.join('|')}: ${show(played)}`);
  const after = await host.get(`/api/v1/rooms/${room.id}`);
  assert.equal(after.json.room.players[0].finished, true, show(after));
  assert.equal(after.json.room.state, 'finished', show(after));
});

test('the same difficulty and seed give the same board; another seed or difficulty another', async () => {
  const first = await generatedRoom({ difficulty: 'medium', seed: 77 });
  assert.equal(first.r.status, 201, show(first.r));
  const again = await generatedRoom({ difficulty: 'medium', seed: 77 });
  assert.equal(again.r.status, 201, show(again.r));
  const a = await boardOf(first.host, first.r.json.room.level_id);
  const b = await boardOf(again.host, again.r.json.room.level_id);
  assert.deepEqual(b.rows, a.rows, 'seed 77 at medium twice');
  // Made once, then shared: one stored level for the pair.
  assert.equal(again.r.json.room.level_id, first.r.json.room.level_id);
  // The board does not depend on the database: a level made afresh from the
  // same pair (its row removed) is the same board.
  sqlite(server.db, `DELETE FROM race_levels WHERE difficulty = 'medium' AND seed = 77`);
  const remade = await generatedRoom({ difficulty: 'medium', seed: 77 });
  assert.equal(remade.r.status, 201, show(remade.r));
  assert.notEqual(remade.r.json.room.level_id, first.r.json.room.level_id, 'made again');
  assert.deepEqual((await boardOf(remade.host, remade.r.json.room.level_id)).rows, a.rows,
    'seed 77 at medium, generated a second time');
  const other = await generatedRoom({ difficulty: 'medium', seed: 78 });
  assert.notDeepEqual((await boardOf(other.host, other.r.json.room.level_id)).rows, a.rows, 'seed 78');
  const hard = await generatedRoom({ difficulty: 'hard', seed: 77 });
  const h = await boardOf(hard.host, hard.r.json.room.level_id);
  assert.notDeepEqual(h.rows, a.rows, 'seed 77 at hard');
  assert.equal(h.boxes, 4, 'a hard level has 4 boxes');
  // Without a seed the server picks one, and says which in the title.
  const picked = await generatedRoom({ difficulty: 'beginner' });
  assert.equal(picked.r.status, 201, show(picked.r));
  const seed = Number(/seed (\d+)/.exec(picked.r.json.room.title)?.[1]);
  assert.ok(Number.isInteger(seed), `a seed in the title: ${picked.r.json.room.title}`);
  const same = await generatedRoom({ difficulty: 'beginner', seed });
  assert.equal(same.r.json.room.level_id, picked.r.json.room.level_id, show(same.r));
});

test('a bad difficulty or seed is refused with a clear error, and nothing is made', async () => {
  const before = sqlite(server.db, 'SELECT count(*) FROM levels');
  let { r } = await generatedRoom({ difficulty: 'nightmare', seed: 1 });
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'unknown_difficulty', show(r));
  assert.match(r.json.error.message, /beginner.*easy.*medium.*hard/, show(r));
  ({ r } = await generatedRoom({}));
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'missing_field', show(r));
  ({ r } = await generatedRoom({ difficulty: 3 }));
  assert.equal(r.json.error.code, 'wrong_type', show(r));
  ({ r } = await generatedRoom({ difficulty: 'easy', seed: -1 }));
  assert.equal(r.json.error.code, 'invalid_value', show(r));
  ({ r } = await generatedRoom({ difficulty: 'easy', seed: 2 ** 60 }));
  assert.equal(r.json.error.code, 'invalid_value', show(r));
  const chosen = await server.client().post('/api/v1/rooms', { level: 'random', difficulty: 'easy' });
  assert.equal(chosen.json.error.code, 'invalid_value', show(chosen));
  assert.equal(sqlite(server.db, 'SELECT count(*) FROM levels'), before, 'no level was stored');
});

test('generated levels stay out of the public library', async () => {
  const { host, r } = await generatedRoom({ difficulty: 'easy', seed: 9 });
  assert.equal(r.status, 201, show(r));
  const level = r.json.room.level_id;
  const list = await host.get('/api/v1/collections');
  assert.equal(list.status, 200, show(list));
  for (const c of list.json.collections) {
    assert.doesNotMatch(c.name, /^Race levels/, `the listing shows ${c.name}`);
    const one = await host.get(`/api/v1/collections/${c.id}`);
    assert.ok(!one.json.levels.some((l) => l.id === level), `level ${level} listed in ${c.name}`);
  }
  // Still a level like any other to the room's players.
  const one = await host.get(`/api/v1/levels/${level}`);
  assert.equal(one.status, 200, show(one));
  assert.match(one.json.level.collection_name, /^Race levels/);
  // And never drawn by a random room.
  for (let i = 0; i < 3; i++) {
    const random = await server.client().post('/api/v1/rooms', { level: 'random' });
    assert.notEqual(random.json.room.level_id, level, show(random));
  }
});

test('a request the busy generator turns away (503) costs none of the caller\'s new rooms', async () => {
  const host = server.client();
  // Opening a game makes the guest, so that every request below is its.
  const opened = await host.post('/api/v1/levels/1/game', {});
  assert.ok(opened.status === 200 || opened.status === 201, show(opened));
  // Eight hard levels asked for at once: the generator makes one at a time
  // (from a tenth of a second to seconds each), so whichever request comes
  // first takes it and the others, arriving meanwhile, are turned away.
  // Which one wins does not matter.
  const seeds = [9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008];
  const answers = await Promise.all(seeds.map((seed) =>
    host.post('/api/v1/rooms', { level: 'generated', difficulty: 'hard', seed })));
  const made = [];
  let turnedAway = 0;
  answers.forEach((r, i) => {
    if (r.status === 201) {
      made.push(seeds[i]);
    } else {
      assert.equal(r.status, 503, `seed ${seeds[i]}: made or turned away, never refused: ${show(r)}`);
      assert.equal(r.json.error.code, 'unavailable', show(r));
      assert.ok(Number(r.headers.get('retry-after')) >= 1, `a 503 says when to come back: ${show(r)}`);
      turnedAway++;
    }
  });
  assert.ok(made.length > 0, 'the generator made a level');
  assert.ok(turnedAway > 0, `the generator was busy while the others came: made ${made.join(', ')}`);
  // Six rooms in ten seconds per player: the rooms turned away took none of
  // them. The rest open on a level made above (no generator).
  const left = 6 - made.length;
  for (let i = 0; i < left; i++) {
    const r = await host.post('/api/v1/rooms', { level: 'generated', difficulty: 'hard', seed: made[0] });
    assert.equal(r.status, 201,
      `room ${made.length + i + 1} of 6, after ${turnedAway} turned away: ${show(r)}`);
  }
});
