// Two sokod nodes on one PostgreSQL database: hints asked of them in turn
// go on with one solution. A hint leaves the rest of its solution for the
// position it leads to, and the next hint from there, asked of the other
// node, takes its push from that rest rather than from a search of its
// own, which may find another solution (on Microban 7 it does) and so send
// a player following hints back and forth. On SQLite (one process per
// database) there is nothing to test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BACKEND, Client, SHARED, freshPgDatabase, levelIds, openGame, show, startServer, stopCleanly, tempDir } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';

let a;
let b;
let level;

before(async () => {
  if (skip) return;
  const dir = tempDir();
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  fs.copyFileSync(path.join(SHARED, 'levels', 'solutions', 'Microban_155.with-solutions.sok'), path.join(levels, 'microban.sok'));
  const db = freshPgDatabase();
  const args = ['--hint-seconds', '30'];
  a = await startServer({ dir, db, levels, args });
  b = await startServer({ db, levels, args });
  const ids = await levelIds(a.client(), 'soukoban/Microban_155.xsb');
  level = ids[6];
});

after(async () => {
  if (skip) return;
  await stopCleanly(a, 'node A should stop cleanly');
  await stopCleanly(b, 'node B should stop cleanly');
});

// Asks a hint of `client`'s node, plays it there, and resolves to its steps.
async function hintAndPlay(client, game, what) {
  const h = await client.post(`/api/v1/games/${game.id}/hint`, { seq: game.seq });
  assert.equal(h.status, 200, `${what}: ${show(h)}`);
  assert.equal(h.json.hint.kind, 'push', `${what}: ${show(h)}`);
  const r = await client.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps: h.json.hint.steps });
  assert.equal(r.status, 200, `${what}, played: ${show(r)}`);
  game.seq = r.json.game.seq;
  return h.json.hint.steps;
}

test('the hint after a hint goes on with its solution, whichever node is asked', { skip }, async () => {
  // One node alone: the second hint follows the first's solution.
  const alone = a.client();
  const gameAlone = await openGame(alone, level);
  const first = await hintAndPlay(alone, gameAlone, 'Microban 7 on node A, hint 1');
  const second = await hintAndPlay(alone, gameAlone, 'Microban 7 on node A, hint 2');

  // The same hints through both nodes in turn: A, then B, then A.
  const onA = a.client();
  const game = await openGame(onA, level);
  const onB = new Client(b.url);
  onB.cookies = new Map(onA.cookies);
  assert.equal(await hintAndPlay(onA, game, 'hint 1 on node A'), first);
  assert.equal(await hintAndPlay(onB, game, 'hint 2 on node B'), second,
    'node B goes on with the solution of node A\'s hint');
  const third = await hintAndPlay(onA, game, 'hint 3 on node A');
  assert.equal(await hintAndPlay(alone, gameAlone, 'Microban 7 on node A, hint 3'), third,
    'node A goes on with the solution node B went on with');
  const seen = await onB.get(`/api/v1/games/${game.id}`);
  assert.equal(seen.json.game.hints, 3, `each node counted its hint: ${show(seen)}`);
});
