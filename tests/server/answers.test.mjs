// The answer to a step is written as JSON text by sokod itself (not by
// jansson): it must read back as the same game that GET returns, whatever
// the level's title holds, and it carries the game's summary, whose size
// does not grow with the game.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { show, startServer, stopCleanly, tempDir } from './harness.mjs';

const TITLE = 'Quote " back\\slash é ü 漢 / <tag> & done';
let server;

before(async () => {
  const dir = tempDir();
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  fs.writeFileSync(path.join(levels, 'odd.sok'),
    `Collection: odd titles\n\n; ${TITLE}\n#######\n#@ $ .#\n#######\n`);
  server = await startServer({ dir, levels });
});

after(() => stopCleanly(server));

test('the answer to a step reads as the game GET returns, title included', async () => {
  const c = server.client();
  const list = await c.get('/api/v1/collections');
  const col = list.json.collections.find((x) => x.name === 'odd titles');
  const lvl = (await c.get(`/api/v1/collections/${col.id}`)).json.levels[0];
  assert.equal(lvl.title, TITLE, 'the catalogue keeps the title');
  const opened = await c.post(`/api/v1/levels/${lvl.id}/game`);
  assert.equal(opened.status, 201, show(opened));
  const id = opened.json.game.id;
  let last;
  for (const [seq, steps] of [[1, 'r'], [2, 'R'], [3, 'l'], [4, 'r']]) {
    last = await c.post(`/api/v1/games/${id}/log`, { seq, steps });
    assert.equal(last.status, 200, show(last));
    assert.ok(last.json, `the answer is JSON: ${last.text}`);
  }
  assert.equal(last.json.steps, 'r');
  const again = await c.post(`/api/v1/games/${id}/log`, { seq: 4, steps: 'r' });
  assert.equal(again.json.duplicate, true, show(again));
  const got = await c.get(`/api/v1/games/${id}`);
  assert.equal(got.json.game.level.title, TITLE);
  assert.equal(got.json.game.history, 'rRlr');
  assert.equal(got.json.game.lurd, 'rRlr');
  assert.deepEqual(got.json.game.rows, ['#######', '#  @$.#', '#######']);
  // The summary is the whole game less its board, level and stacks.
  const whole = { ...got.json.game };
  for (const k of ['rows', 'level', 'lurd', 'history', 'redo']) {
    assert.ok(k in whole, `GET has ${k}`);
    delete whole[k];
  }
  assert.deepEqual(last.json.game, whole, 'the step\'s answer and GET agree field by field');
  assert.deepEqual(again.json.game, whole);
});

test('a step\'s answer stays the same size however long the game, and its hash names the position', async () => {
  const c = server.client();
  const list = await c.get('/api/v1/collections');
  const col = list.json.collections.find((x) => x.name === 'odd titles');
  const lvl = (await c.get(`/api/v1/collections/${col.id}`)).json.levels[0];
  const opened = await c.post(`/api/v1/levels/${lvl.id}/game`);
  assert.ok(opened.status === 200 || opened.status === 201, show(opened));
  const id = opened.json.game.id;
  const start = opened.json.game;
  assert.match(start.hash, /^[0-9a-f]{16}$/, 'a hash of 16 hex digits');

  const first = await c.post(`/api/v1/games/${id}/log`, { seq: start.seq + 1, steps: 'r' });
  assert.equal(first.status, 200, show(first));
  assert.notEqual(first.json.game.hash, start.hash, 'a move changes the position and its hash');
  const back = await c.post(`/api/v1/games/${id}/log`, { seq: start.seq + 2, steps: 'l' });
  assert.equal(back.json.game.hash, start.hash, 'back on the same square: the same position, the same hash');

  // 2,000 more moves back and forth, then one more entry.
  const long = await c.post(`/api/v1/games/${id}/log`, { seq: start.seq + 3, steps: 'rl'.repeat(1000) });
  assert.equal(long.status, 200, show(long));
  const last = await c.post(`/api/v1/games/${id}/log`, { seq: start.seq + 4, steps: 'r' });
  assert.equal(last.status, 200, show(last));
  assert.equal(last.json.game.hash, first.json.game.hash, 'the same position as after the first move');
  const whole = await c.get(`/api/v1/games/${id}`);
  assert.ok(whole.json.game.history.length > 2000, `GET carries the history (${whole.json.game.history.length})`);
  // Only the counts' digits may differ.
  assert.ok(Math.abs(last.text.length - first.text.length) <= 12,
    `answer sizes: ${first.text.length} bytes after 1 move, ${last.text.length} after 2,003:\n${first.text}\n${last.text}`);
});
