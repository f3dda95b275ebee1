// Real solutions through the API: Microban (with solver solutions, in
// ../shared) is imported with `sokod import`, and every solution is played
// through HTTP. Every level with a solution must end solved, with the best
// counts of its solutions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SHARED, runSokod, show, startServer, stopCleanly, tempDir } from './harness.mjs';
import { firstSolved } from './sokoban.mjs';

const FILE = path.join(SHARED, 'levels', 'solutions', 'Microban_155.with-solutions.sok');

// Reads the file's levels in order: each with its title and its solutions.
function readSolutions(text) {
  const levels = [];
  const lines = text.split(/\r?\n/);
  let inBoard = false;
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const isBoard = /^[ #@+$*.\-_]+$/.test(line) && line.includes('#');
    if (isBoard && !inBoard) levels.push({ title: previous.trim(), solutions: [] });
    inBoard = isBoard;
    const m = /^Solution (\d+)\/(\d+)/.exec(line);
    if (m) {
      let lurd = '';
      while (i + 1 < lines.length && /^[lurdLURD]+$/.test(lines[i + 1])) lurd += lines[++i];
      levels.at(-1).solutions.push({ moves: Number(m[1]), pushes: Number(m[2]), lurd });
    }
    if (line.trim() !== '') previous = line;
  }
  return levels;
}

let server;

before(async () => {
  const dir = tempDir();
  const db = path.join(dir, 'sokod.db');
  const imported = runSokod(['import', FILE, '--db', db, '--collection', 'Microban']);
  console.log(`sokod import ${FILE}: exit ${imported.status}\n${imported.stdout}${imported.stderr}`);
  assert.equal(imported.status, 0, imported.stderr);
  server = await startServer({ dir, db, levels: path.join(dir, 'no-levels') });
});

after(() => stopCleanly(server));

test('every Microban solution replays through the API, and the best counts are recorded', async () => {
  const levels = readSolutions(fs.readFileSync(FILE, 'utf8'));
  const c = server.client();
  const cols = (await c.get('/api/v1/collections')).json.collections;
  const col = cols.find((x) => x.name === 'Microban');
  assert.ok(col, JSON.stringify(cols));
  const listed = (await c.get(`/api/v1/collections/${col.id}`)).json.levels;
  assert.equal(listed.length, levels.length, 'the API lists as many levels as the file has boards');
  assert.equal(listed.length, 155);

  let sent = 0;
  const expected = new Map();
  for (let k = 0; k < levels.length; k++) {
    const lvl = levels[k];
    const api = listed[k];
    assert.equal(api.position, k + 1);
    assert.equal(api.title, lvl.title, `level ${k + 1}: title of the file and of the API`);
    if (lvl.solutions.length === 0) continue;
    const rows = (await c.get(`/api/v1/levels/${api.id}`)).json.level.rows;
    const opened = await c.post(`/api/v1/levels/${api.id}/game`);
    assert.ok(opened.status === 201, show(opened));
    const gameId = opened.json.game.id;
    let seq = 0;
    let best = { moves: Infinity, pushes: Infinity };
    for (const sol of lvl.solutions) {
      const first = firstSolved(rows, sol.lurd);
      assert.ok(first, `level ${k + 1}: the model finds that "${sol.lurd}" solves`);
      best = { moves: Math.min(best.moves, first.moves), pushes: Math.min(best.pushes, first.pushes) };
      if (seq > 0) {
        const r = await c.post(`/api/v1/games/${gameId}/log`, { seq: ++seq, restart: true });
        assert.equal(r.status, 200, show(r));
      }
      const r = await c.post(`/api/v1/games/${gameId}/log`, { seq: ++seq, steps: sol.lurd });
      sent++;
      assert.equal(r.status, 200, `level ${k + 1} "${lvl.title}", solution ${sol.lurd}: ${show(r)}`);
      assert.equal(r.json.game.moves, sol.lurd.length);
      if (first.moves === sol.lurd.length) {
        assert.equal(r.json.game.solved, true, `level ${k + 1}: ${sol.lurd} ends solved`);
        assert.equal(r.json.steps, first.lurd, `level ${k + 1}: push case of ${sol.lurd}`);
      }
    }
    expected.set(api.id, { title: lvl.title, ...best });
  }
  console.log(`played ${sent} solutions on ${expected.size} levels`);
  assert.equal(sent, 282, 'the file holds 282 solutions');

  const after = (await c.get(`/api/v1/collections/${col.id}`)).json;
  assert.equal(after.collection.solved, expected.size, 'solved count of the collection');
  for (const l of after.levels) {
    const want = expected.get(l.id);
    if (!want) {
      assert.equal(l.solved, false, `level ${l.position} had no solution to play`);
      continue;
    }
    assert.equal(l.solved, true, `level ${l.position} is solved`);
    assert.equal(l.best_moves, want.moves, `level ${l.position} "${want.title}": best moves`);
    assert.equal(l.best_pushes, want.pushes, `level ${l.position} "${want.title}": best pushes`);
  }
  const progress = (await c.get('/api/v1/progress')).json;
  assert.equal(progress.solved.length, expected.size);
  assert.equal(progress.in_progress.length, 0, 'every game ends solved');
});
