// The answer to a step is written as JSON text by sokod itself (not by
// jansson): it must read back as the same game that GET returns, whatever
// the level's title holds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { show, startServer, tempDir } from './harness.mjs';

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

after(async () => {
  const end = await server.stop();
  assert.equal(end.code, 0, `stderr:\n${server.stderr().slice(-3000)}`);
});

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
  assert.equal(last.json.game.level.title, TITLE);
  assert.equal(last.json.steps, 'r');
  const again = await c.post(`/api/v1/games/${id}/log`, { seq: 4, steps: 'r' });
  assert.equal(again.json.duplicate, true, show(again));
  const got = await c.get(`/api/v1/games/${id}`);
  assert.deepEqual(last.json.game, got.json.game, 'the step\'s answer and GET agree field by field');
  assert.deepEqual(again.json.game, got.json.game);
  assert.equal(got.json.game.history, 'rRlr');
  assert.equal(got.json.game.lurd, 'rRlr');
  assert.deepEqual(got.json.game.rows, ['#######', '#  @$.#', '#######']);
});
